"""Forced moves taken in bulk (the notation's "Decisions and forced moves", docs/notation.md; rules
§12.14; E1-E3): a seat with a single legal action takes it without being asked.  ``Engine.settle``
takes every forced move through the legal masks; these functions take the commonest ones for many
seats at once, with the same result:

* ``forced_penalties``: victims of a draw penalty with nothing to answer take it;
* ``draw_chains``: chains of forced draws (a seat with nothing to play draws, the card does not fit,
  the next seat has nothing either...) in one vectorized window per pass (``draw_chain_window``),
  since neither the top card nor the pile order changes along a chain;
* ``pass_until_playable``: with nothing left to draw, seats that cannot play pass until one can (E1),
  and a full cycle of passes blocks the round (E2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import matching, memory, penalty, piles, scoring
from .actions import DRAW
from .rows import any_bits, any_row, flat, sel
from .state import DRAWN, OVER, PENDING, TURN, State
from .tables import RuleTables

if TYPE_CHECKING:
    from .settling import Listener


def forced_penalties(e: RuleTables, st: State, R: np.ndarray, tface: np.ndarray,
                     listener: Listener | None = None) -> None:
    """Victims of a draw penalty with nothing to answer (no stack, no challenge, nobody to catch)
    take it at once; a forced move, taken here without a pass through the masks."""
    S = sel(R)
    pick = st.phase[S] == PENDING
    if e.challenge_on:  # otherwise nothing is ever challengeable
        pick &= ~st.challengeable[S]
    pend = R[pick]
    if pend.size == 0:
        return
    victim = st.actor[pend].astype(np.intp)
    if e.stacks:
        stack = penalty.stack_bits(e, st, pend, victim, st.side[pend].astype(np.intp), tface[pick])
        keep = ~any_bits(stack)
        pend, victim = pend[keep], victim[keep]
    if e.enforce == "catch" and pend.size:
        v = st.vulnerable[pend]
        if np.count_nonzero(v):
            v[np.arange(pend.size), victim] = False
            keep = ~any_row(v)
            pend, victim = pend[keep], victim[keep]
    if pend.size == 0:
        return
    if listener is not None:
        listener(zip(pend.tolist(), victim.tolist(), [e.ID[DRAW]] * pend.size))
    st.turn_count[pend] += 1
    penalty.draw_penalty(e, st, pend)
    st.declared[pend] = False
    over = pend[(st.turn_count[pend] >= e.max_turns) & (st.phase[pend] != OVER)]
    if over.size:  # E3
        scoring.end_blocked_round(e, st, over, truncated=True)


def forced_draw_rows(e: RuleTables, st: State, R: np.ndarray, tface: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kinds each seat asked in ``R`` may play in its turn ((n, W) bits, for ``legal.refresh``) and
    the positions in ``R`` of the seats that can only draw: own turn, nothing playable, nobody to catch."""
    S = sel(R)
    actor = st.actor[S].astype(np.intp)
    bits = matching.playable_bits(e, st, R, actor, None, tface)
    forced = (st.phase[S] == TURN) & ~any_bits(bits)
    if e.enforce != "off":
        v = st.vulnerable[S]
        if np.count_nonzero(v):
            v = v.copy()
            v[np.arange(R.size), actor] = False
            forced &= ~any_row(v)
    return bits, flat(forced)


def draw_chains(e: RuleTables, st: State, R: np.ndarray, tface: np.ndarray, window: int = 8,
                listener: Listener | None = None) -> None:
    """Resolve chains of forced draws starting with the seat asked in ``R`` (which must draw).

    Seat j of the chain (j = 0 is the seat asked, then on in the direction of play) draws the
    j-th card from the top of the pile unless it holds a playable card; the chain stops at the
    first seat holding a playable card (its turn) or drawing one (it may play it: phase DRAWN).
    When the pile runs out mid-chain the discard pile is reshuffled at that moment, exactly as
    one draw at a time would, and the chain goes on.  What cannot be settled this way (no card
    left to draw, two full laps, ``max_turns_per_round``) is left to the general path.  ``window``: the
    seats one pass looks ahead (``Settling.chain_window``); ``listener`` hears of each draw and pass.
    """
    for _ in range(100_000):  # a reshuffle keeps the top card, so ``tface`` holds throughout
        short = draw_chain_window(e, st, R, tface, window, listener)  # rows whose chain goes on past this window
        if not np.count_nonzero(short):
            return
        R, tface = R[short], tface[short]
        out = st.draw_n[R] == 0
        if np.count_nonzero(out):
            piles.reshuffle(e, st, R[out])
            empty = out & (st.draw_n[R] == 0)
            if np.count_nonzero(empty):
                pass_until_playable(e, st, R[empty], tface[empty], listener)
            R, tface = R[~empty], tface[~empty]


def pass_until_playable(e: RuleTables, st: State, R: np.ndarray, tface: np.ndarray,
                        listener: Listener | None = None) -> None:
    """Nothing left to draw (E1): each seat without a playable card passes in turn until one can
    play; a full cycle of passes ends the round as blocked (E2)."""
    P = e.P
    n = R.size
    ar = np.arange(n)
    has_play = any_bits(st.held[R] & matching.matching_bits(e, st, R, tface)[:, None, :])
    if e.hard:  # rare: leave restricted hands to the general path
        return
    j = np.arange(P + 1)[None, :]
    seat = (st.actor[R].astype(np.intp)[:, None] + j * st.direction[R].astype(np.intp)[:, None]) % P
    hp = has_play[ar[:, None], seat]
    hp[:, 0] = False
    k = np.where(hp.any(1), hp.argmax(1), P + 1)  # seats 0..k-1 pass
    passes = st.passes[R] + k
    room = e.max_turns - st.turn_count[R]
    blocked = passes >= P
    ok = (k < room) & ~blocked
    if np.count_nonzero(ok):
        Ro = R[ok]
        nxt = seat[flat(ok), k[ok]]
        st.passes[Ro] = passes[ok]
        st.turn_count[Ro] += k[ok].astype(np.int32)
        st.declared[Ro] = False
        passed = np.arange(P + 1)[None, :] < k[ok][:, None]
        st.drew_on[np.repeat(Ro, passed.sum(1)), seat[ok][passed]] = np.repeat(st.color[Ro], passed.sum(1))
        if st.memory is not None:  # memory hook: passes on the active colour
            memory.lacked(e, st, np.repeat(Ro, passed.sum(1)), seat[ok][passed])
        st.actor[Ro] = nxt
        st.turn_seat[Ro] = nxt
        if listener is not None:
            listener(_moves(R, seat, flat(ok), k, e.ID[DRAW]))
    b = blocked & ((P - st.passes[R]) < room)
    if np.count_nonzero(b):  # the P-th consecutive pass blocks the round
        Rb = R[b]
        q = (P - st.passes[Rb]).astype(np.int64)
        if listener is not None:
            listener(_moves(R, seat, flat(b), P - st.passes[R], e.ID[DRAW]))
        st.turn_count[Rb] += q.astype(np.int32)
        st.passes[Rb] = P
        scoring.end_blocked_round(e, st, Rb)


def draw_chain_window(e: RuleTables, st: State, R: np.ndarray, tface: np.ndarray, window: int = 8,
                      listener: Listener | None = None) -> np.ndarray:
    """One window of ``draw_chains`` over the current piles (``tface``: the top card's face per row);
    returns which rows of ``R`` (a boolean mask) have a chain that goes on: it reached the end of
    the draw pile or of the look-ahead window (``window`` seats)."""
    P = e.P
    n = R.size
    J = window  # most chains end within a few seats; longer ones take another pass
    if e.drawn_never:  # a seat may draw a card it can play and still pass the turn:
        J = min(J, P)  # a pass must not meet it again, since ``has_play`` is read at the pass's start
    ar = np.arange(n)
    playb = matching.matching_bits(e, st, R, tface)  # (n, W) kinds playable on the (fixed) top card
    held = st.held[R]  # (n, P, W)
    okb = held & playb[:, None, :]
    if e.hard:  # the restricted wild draw cards a seat may not play now
        side = st.side[R].astype(np.intp)[:, None]  # (n, 1): against every seat of (n, P)
        guilty = matching.breaks_restriction(e, held, side, st.color[R][:, None], okb)
        okb = matching.without_restricted(e, okb, guilty, side)
    has_play = any_bits(okb)  # (n, P)
    d = st.direction[R].astype(np.intp)
    j = np.arange(J)[None, :]
    actor = st.actor[R].astype(np.intp)
    seat = e.SEATS_AHEAD[:, :J][actor * 2 + (d > 0)]  # (n, J): the seats j turns on from the actor
    dn = st.draw_n[R].astype(np.intp)
    card = st.draw.reshape(-1)[(R * e.N)[:, None] + np.maximum(dn[:, None] - 1 - j, 0)].astype(np.intp)
    hp = has_play.reshape(-1)[(ar * P)[:, None] + seat]  # (n, J): seat j holds a playable card
    hp[:, 0] = False
    if not e.drawn_never:  # seat j's card (from the top) is playable
        word = playb[:, 0, None] if e.W == 1 else playb.reshape(-1)[(ar * e.W)[:, None] + e.KWORD[card]]
        dp = ((word & e.KBIT[card]) != 0) & (j < dn[:, None])
    else:
        dp = np.zeros((n, J), bool)
    stop = hp | dp
    js = stop.argmax(1)
    by_draw = dp[ar, js] & ~hp[ar, js]
    L = js + by_draw  # cards drawn along the chain
    room = e.max_turns - st.turn_count[R]
    done = any_row(stop) & (L <= dn) & (L < room)
    # no stop in sight: draw as far as this pass has checked, then go on.  The seat after the last
    # drawer must be one checked too (position J - 1 at most): the next pass assumes it must draw
    reach = np.minimum(dn, J - 1)
    short = ~done & (reach < room)
    L = np.where(done, L, np.where(short, reach, 0))
    take = flat(L > 0)
    if take.size:
        if take.size < n:  # usually every chain draws: then no row filter
            Rt, seat_t, card_t, L_t = R[take], seat[take], card[take], L[take]
        else:
            Rt, seat_t, card_t, L_t = R, seat, card, L
        piles.add_to_hands(e, st, Rt, seat_t, card_t, L_t)
        st.draw_n[Rt] -= L_t.astype(np.int16)
        st.vulnerable[Rt, seat_t[:, 0]] = False  # E28: the first seat's hand grew
        st.passes[Rt] = 0
        st.turn_count[Rt] += L_t.astype(np.int32)
        st.declared[Rt] = False
        drew = np.arange(J)[None, :] < L_t[:, None]
        cell = (Rt * P)[:, None] + seat_t  # flat (game, seat); cells past L repeat cell 0's write
        cell = cell[:, :1] + (cell - cell[:, :1]) * drew
        st.drew_on.reshape(-1)[cell] = st.color[Rt][:, None]
        if st.memory is not None:  # memory hook: forced draws on the active colour
            memory.chain_drew(e, st, Rt, seat_t, L_t)
        if listener is not None:
            listener(_moves(R, seat, take, L, e.ID[DRAW]))
    m = done | short
    k = np.count_nonzero(m)
    if k:
        mi = slice(None) if k == n else flat(m)  # usually every chain stops or goes on
        Rm = R[mi]
        end = np.where(done, js, reach)[mi]  # or the next seat to draw: position min(dn, J)
        last = (actor[mi] + end * d[mi]) % P
        st.actor[Rm] = last
        st.turn_seat[Rm] = last
        bd = (by_draw & done)[mi]
        st.phase[Rm] = np.where(bd, DRAWN, TURN)
        st.drawn[Rm] = np.where(bd, card[ar[mi], np.minimum(end, J - 1)], -1)
    return short


def _moves(R: np.ndarray, seat: np.ndarray, rows: np.ndarray, k: np.ndarray, action: int) -> list:
    """The ``(row, seat, action)`` of the moves along ``rows``' chains: the first ``k[i]`` seats of
    ``seat[i]`` for each position ``i`` of ``rows`` in ``R``, in order (a ``Listener``'s entries)."""
    out: list[tuple[int, int, int]] = []
    for i in rows.tolist():
        r = int(R[i])
        out.extend((r, s, action) for s in seat[i, :int(k[i])].tolist())
    return out

"""Playing a card and its effects (rules §1.2-§1.3, §1.9, §3.2, §6.3, §7.3; E9, E10, E16, E17, E21,
E23, E24, E34).

``act_play`` moves the card to the discard pile (``discard``: the one place a card is played), sets the
active colour, then applies the effects present in the batch: Reverse (two players: a Skip, E24),
Skip (``deflect``), Skip Everyone, draw cards (the next seat's penalty, ``penalty``), exchanges
(``exchange``) and Flips (``flip``).  A last card ends the round with its effects void (rules §1.9)
except a draw card under ``last_card_draw_applies`` (the next seat still draws, E9, E10) and a
challengeable wild draw card (the challenge comes first, E8).  Then the UNO call is checked
(``uno_call.after_play``) and the identical card is offered to jump-ins (``jump_in``).
``act_play_one`` is the scalar twin of ``act_play`` for a card that is not the seat's last.
"""

from __future__ import annotations

import numpy as np

from . import chance, color_choice, deflect, exchange, flip, jump_in, memory, penalty, piles, scoring, uno_call
from .cards import FLIP, REVERSE, SKIP, SKIP_EVERYONE, WILD_DRAW_COLOR
from .rows import flat
from .state import CHOOSE_COLOR, DRAWN, JUMP, PENDING, TURN, State
from .tables import FX_DRAW, FX_FLIP, FX_REVERSE, FX_ROTATE, FX_SKIP, FX_SKIP_EVERYONE, FX_TARGETED, RuleTables
from .twins import ScalarTables


def act_play(e: RuleTables, st: State, R, a, queue: list | None = None) -> None:
    """``play``: legal plays ``a`` in rows ``R`` (a turn's play, a drawn card, a stacked or deflecting
    card, a jump-in)."""
    c, P = e.config, e.P
    n = len(R)
    actor = st.actor[R].astype(np.intp)
    side = st.side[R].astype(np.intp) if e.two_sided else np.zeros(n, np.intp)
    face = e.A_FACE[a]
    kind = pick_kind(e, st, R, actor, face) if e.two_sided else face
    st.prev_prev_color[R] = st.prev_color[R]  # the colours before the card and before the one under it
    st.prev_color[R] = st.color[R]
    if e.challenge_on:
        penalty.judge_guilt(e, st, R, actor, side, face)
    fs = R * P + actor  # flat (game, seat)
    hn = st.hand_n.reshape(-1)[fs]
    had_two = hn == 2
    out = hn == 1  # the last card
    discard(e, st, R, fs, kind, hn)
    st.first_play[R] = False
    st.drawn[R] = -1
    st.passes[R] = 0
    st.origin[R] = actor
    st.drew_on.reshape(-1)[fs] = -1
    if st.memory is not None:  # memory hook: a card played (before its effect)
        memory.played(e, st, R, actor, kind, a)
    st.color[R] = e.A_NEW_COLOR[a]
    # E27: an out-of-turn jump-in is a discard but not the next player beginning a turn
    uno_call.close_windows(e, st, R, actor, discard=True, in_turn=st.phase[R] != JUMP)
    d = st.direction[R].astype(np.intp)
    nseat = (actor + d) % P
    nphase = np.full(n, TURN, np.int8)
    live = ~out
    fx = int(np.bitwise_or.reduce(e.F_FX[face]))  # the effects present among these plays
    chooser = card_effects(e, st, R, face, actor, d, side, live, nseat, nphase, fx,
                           reverse_returns=e.reverse_skips, a=a)  # E24

    o = flat(out)
    L: slice | np.ndarray = slice(None)  # the rows still in play: all of them unless a seat went out
    if o.size:
        if not c.last_card_draw_applies and e.challenge_on:  # its draw is void: nothing to challenge
            st.challengeable[R[o]] = False
        defer = st.challengeable[R[o]]  # E8: the challenge resolves before the round ends
        last_draw = e.F_IS_DRAW[face[o]] & ~defer & c.last_card_draw_applies
        fin = o[~defer & ~last_draw]
        scoring.end_round(e, st, R[fin], actor[fin])
        ld = o[last_draw]
        if ld.size:  # rules §1.9: the next seat still draws (E9, E10: no stacking), then the round ends
            Rd, ad = R[ld], actor[ld]

            def then(*_) -> None:
                penalty.clear_pending(st, Rd)
                scoring.end_round(e, st, Rd, ad)
            piles.draw_cards(e, st, Rd, nseat[ld], st.pending[Rd].astype(np.int64), st.pending_color[Rd], 0, then,
                             queue)
        live[o[defer]] = True  # the victim answers the challengeable card first
        L = flat(live)
        if L.size == 0:
            return
    RL = R[L]
    st.turn_seat[RL] = nseat[L]
    st.phase[RL] = nphase[L]
    st.actor[RL] = nseat[L] if chooser is None else chooser[L]
    if e.enforce != "off":  # rules §1.5, E16: checked after the whole effect
        uno_call.after_play(e, st, RL, fs[L], had_two[L])
    jump_in.offer_jump_in(e, st, RL, exclude_origin=True)


def card_effects(e: RuleTables, st: State, R, face, actor, d, side, live, nseat, nphase, fx: int, reverse_returns: bool,
                 a=None) -> np.ndarray | None:
    """The effects of the cards ``face`` that ``actor`` has just put on top in ``R`` (rules §3.2, §6.3,
    §7.3): the one place each effect is applied, to a played card (``act_play``) and to the first card
    (``deal.first_card_effects``, as if the dealer had played it).  ``d``: the direction, ``side``: the
    side in play, ``live``: not the player's last card (rules §1.9: its Reverse, exchanges and Flip are
    void), ``fx``: the ``F_FX`` effect bits to apply (the others are skipped), ``reverse_returns``: a
    Reverse gives the turn back to ``actor`` (E24; the dealer, for a Reverse turned first), ``a``: the
    play actions, for the seat a targeted card names.  Writes the next seat and phase into ``nseat``
    and ``nphase``; returns the seat asked for the colour of a wild a Flip revealed in each row (None
    without Flips: then ``nseat``)."""
    P = e.P
    sym = e.F_SYM[face]
    if fx & FX_REVERSE:
        rv = (sym == REVERSE) & live  # rules §1.9: a last card's Reverse is void
        st.direction[R[rv]] = -d[rv]
        nseat[rv] = actor[rv] if reverse_returns else (actor[rv] - d[rv]) % P
    sk = flat(sym == SKIP) if fx & FX_SKIP else ()
    if len(sk):
        nseat[sk], nphase[sk] = deflect.skipped(e, st, R[sk], nseat[sk], (actor[sk] + 2 * d[sk]) % P,
                                                e.SKIPBITS[side[sk]])
    if fx & FX_SKIP_EVERYONE:
        se = sym == SKIP_EVERYONE
        nseat[se] = actor[se]
    dr = flat(e.F_IS_DRAW[face]) if fx & FX_DRAW else ()
    if len(dr):
        st.pending[R[dr]] += e.F_DRAW[face[dr]]
        st.pending_color[R[dr]] |= sym[dr] == WILD_DRAW_COLOR
        nphase[dr] = PENDING
    sw = flat(e.F_TARGETED[face] & live) if fx & FX_TARGETED else ()
    if len(sw):
        exchange.exchange(e, st, R[sw], actor[sw], e.A_TARGET[a[sw]].astype(np.intp))
    ro = flat(e.F_ROTATE[face] & live) if fx & FX_ROTATE else ()
    if len(ro):
        exchange.rotate(e, st, R[ro], d[ro])
    fl = (flat((sym == FLIP) & (live | (e.config.flip_as_last_card == "flip_before_scoring")))
          if fx & FX_FLIP else ())
    if len(fl):
        return flip.play_flip(e, st, R, fl, live, actor, nseat, nphase)
    return None


def discard(e: RuleTables, st: State, R, fs, kind, hn) -> None:
    """The one place a card is played: ``kind`` leaves the hand at flat (game, seat) ``fs`` (holding
    ``hn`` cards) and goes on top of the discard pile of ``R``."""
    flat_kind = fs * e.K + kind
    hf = st.hands.reshape(-1)
    hf[flat_kind] -= 1
    gone = hf[flat_kind] == 0
    if np.count_nonzero(gone):  # the last copy of that kind left the hand
        kg = kind[gone]
        st.held.reshape(-1)[fs[gone] * e.W + e.KWORD[kg]] &= ~e.KBIT[kg]
    st.hand_n.reshape(-1)[fs] = hn - 1
    dn = st.disc_n[R]
    st.discard.reshape(-1)[R * e.N + dn] = kind
    st.disc_n[R] = dn + 1
    st.pile_counts.reshape(-1)[R * e.K + kind] += 1


def pick_kind(e: RuleTables, st: State, R, actor, face) -> np.ndarray:
    """UNO Flip: which physical card plays ``face``.  The owner cannot see its own backs, so among
    held cards showing that face one is taken at random (weighted by copies); a drawn card is itself."""
    cand = e.FACE_KINDS[face]  # (n, 4), padded with K
    real = cand < e.K
    cell = ((R * e.P + actor) * e.K)[:, None] + np.minimum(cand, e.K - 1)
    cnt = st.hands.reshape(-1)[cell].astype(np.int64) * real
    kind = cand[np.arange(len(R)), (cnt > 0).argmax(1)]
    amb = flat((cnt > 0).sum(1) > 1)
    if amb.size:
        cum = cnt[amb].cumsum(1)
        u = chance.uniform(st.key, st.counter, R[amb], 1)[:, 0] * cum[:, -1]
        kind[amb] = cand[amb, (cum > u[:, None]).argmax(1)]
    drawn = st.phase[R] == DRAWN
    kind[drawn] = st.drawn[R[drawn]]
    return kind


def act_play_one(s: ScalarTables, st: State, a: int, actor: int) -> None:
    """Scalar twin of ``act_play`` for a card that is not the seat's last."""
    P = s.P
    face = s.face[a]
    kind = pick_kind_one(s, st, actor, face)
    sym = s.sym[face]
    st.prev_prev_color[0] = st.prev_color.item(0)
    st.prev_color[0] = st.color.item(0)
    if s.e.challenge_on:
        penalty.judge_guilt_one(s, st, actor, face)
    hn = st.hand_n.item(0, actor)
    discard_one(s, st, actor, kind, hn)
    st.first_play[0] = False
    st.drawn[0] = -1
    st.passes[0] = 0
    st.origin[0] = actor
    st.drew_on[0, actor] = -1
    if st.memory is not None:  # memory hook: a card played (before its effect)
        memory.played_one(s.e, st, actor, a)
    st.color[0] = s.new_color[a]
    # E27: an out-of-turn jump-in is a discard but not the next player beginning a turn
    if st.phase.item(0) != JUMP or s.e.window_discard_only:
        uno_call.close_windows_one(s, st, actor, discard=True)
    d = st.direction.item(0)
    nseat, nphase = (actor + d) % P, TURN
    if sym == REVERSE:
        st.direction[0] = -d
        nseat = actor if s.reverse_skips else (actor - d) % P
    elif sym == SKIP:
        nseat, nphase = deflect.skipped_one(s, st, actor, d)
    elif sym == SKIP_EVERYONE:
        nseat = actor
    chooser = nseat
    if s.is_draw[face]:
        st.pending[0] += s.draws[face]
        if sym == WILD_DRAW_COLOR:
            st.pending_color[0] = True
        nphase = PENDING
    if s.targeted[face]:
        exchange.exchange_one(s, st, actor, s.target[a])
    elif s.rotates[face]:
        exchange.rotate_one(s, st, actor, d)
    elif sym == FLIP and flip.flip_one(s, st):  # a wild face revealed: its colour is declared first (E19)
        nphase = CHOOSE_COLOR
        chooser = color_choice.revealed_wild_chooser(s.e, actor, nseat, flipped=True)
    st.turn_seat[0] = nseat
    st.phase[0] = nphase
    st.actor[0] = chooser
    uno_call.after_play_one(s, st, actor, hn == 2)  # rules §1.5, E16: after the whole effect
    jump_in.offer_jump_in_one(s, st)


def discard_one(s: ScalarTables, st: State, actor: int, kind: int, hn: int) -> None:
    """Scalar twin of ``discard``."""
    hand = st.hands[0, actor]
    hand[kind] -= 1
    if hand[kind] == 0:  # the last copy of that kind left the hand
        s.set_held(st, actor, s.held(st, actor) & ~s.bit[kind])
    st.hand_n[0, actor] = hn - 1
    dn = st.disc_n.item(0)
    st.discard[0, dn] = kind
    st.disc_n[0] = dn + 1
    st.pile_counts[0, kind] += 1


def pick_kind_one(s: ScalarTables, st: State, actor: int, face: int) -> int:
    """Scalar twin of ``pick_kind`` (one-sided decks: the face is the kind)."""
    if not s.two_sided:
        return face
    hand = st.hands[0, actor]
    held = [k for k in s.face_kinds[face] if hand[k] > 0]
    if len(held) > 1:  # a random one of the copies held: the engine draws from the game's stream
        return int(pick_kind(s.e, st, s.ROW, np.array([actor]), np.array([face]))[0])
    return st.drawn.item(0) if st.phase.item(0) == DRAWN else held[0]

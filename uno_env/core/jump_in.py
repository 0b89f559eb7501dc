"""Jump-ins (rules §1.8, E12-E14; option ``jump_in`` and its ``jump_in_*`` variants).

After every new top card (``offer_jump_in``) the seats holding the identical card are asked out of
turn, one at a time in turn order from the seat after the one that played (E12), or in a random order;
the phase ``JUMP`` holds the offer (``State.offer_rank``, ``State.resume``).  A jump-in is a play
(``play.act_play``) by the seat asked; after the last ``pass`` (``act_pass``) the seat to move resumes
where it was.  UNO catches offered out of turn (``uno_call.offer_catch``) use the same offer.
The ``*_one`` functions are the scalar twins.
"""

from __future__ import annotations

import numpy as np

from . import chance, matching
from .rows import any_bits, any_row
from .state import DEFLECT, JUMP, NOT_ASKED, PENDING, TURN, State
from .tables import RuleTables
from .twins import ScalarTables


def offer_jump_in(e: RuleTables, st: State, R, exclude_origin: bool) -> None:
    """After a new top card: ask the seats holding the identical card, in turn order (E12, E13)."""
    c = e.config
    if not c.jump_in or R.size == 0:
        return
    phase = st.phase[R]
    ok = (phase == TURN) | (phase == DEFLECT)
    if e.stacks:  # E14: a jump-in adds to the pending total
        ok |= (phase == PENDING) & ~st.challengeable[R]
    R = R[ok]
    if R.size == 0:
        return
    tface = matching.top_face(e, st, R)
    elig = any_bits(st.held[R] & e.IDENTBITS[tface][:, None, :])  # (n, P)
    ar = np.arange(len(R))
    elig[ar, st.actor[R]] = False  # the seat that moves next anyway plays it as its turn
    if exclude_origin and not c.jump_in_self:
        elig[ar, st.origin[R]] = False
    has = any_row(elig)
    if not np.count_nonzero(has):
        return
    R, elig = R[has], elig[has]
    seats = np.arange(e.P)[None, :]
    if c.jump_in_priority == "random":
        order = chance.permutations(st.key, st.counter, R, np.full(len(R), e.P), e.P)
        rank = np.empty_like(order)
        rank[np.arange(len(R))[:, None], order] = seats
    else:
        rank = turn_order_after_origin(e, st, R)
    ask_in_order(e, st, R, np.where(elig, rank, NOT_ASKED))


def turn_order_after_origin(e: RuleTables, st: State, R) -> np.ndarray:
    """(n, P) each seat's place in turn order from the seat after the one that played (0 first)."""
    return ((np.arange(e.P)[None, :] - st.origin[R][:, None]) * st.direction[R][:, None] - 1) % e.P


def ask_in_order(e: RuleTables, st: State, R, rank) -> None:
    """Open an out-of-turn offer (phase JUMP) in ``R``: the seats are asked by ``rank`` (``NOT_ASKED``:
    never); after the last ``pass`` the seat to move resumes where it was."""
    rank = rank.astype(np.int8)
    st.offer_rank[R] = rank
    st.resume[R] = st.phase[R]
    st.turn_seat[R] = st.actor[R]
    st.actor[R] = rank.argmin(1)
    st.phase[R] = JUMP


def act_pass(e: RuleTables, st: State, R, a) -> None:
    """``pass`` on an offer: the next seat in the offer's order is asked, or the seat to move resumes."""
    rank = st.offer_rank[R].astype(np.int16)
    cur = rank[np.arange(len(R)), st.actor[R]]
    later = np.where(rank > cur[:, None], rank, NOT_ASKED)
    nxt = later.argmin(1)
    more = later.min(1) < NOT_ASKED
    st.actor[R] = np.where(more, nxt, st.turn_seat[R])
    st.phase[R] = np.where(more, JUMP, st.resume[R])
    st.offer_rank[R[~more]] = NOT_ASKED


def jump_bits(e: RuleTables, st: State, R, actor, side, tface) -> np.ndarray:
    """(n, W) the kinds a seat offered a jump-in may play: the identical card (none on a catch offer
    without jump-ins); the hard restriction binds a jump-in too (rules §1.2)."""
    if not e.config.jump_in:
        return np.zeros((len(R), e.W), np.uint64)
    b = e.IDENTBITS[tface] & st.held[R, actor]
    if e.hard:
        b = matching.unless_guilty(e, st, R, actor, side, b)
    return b


def jump_bits_one(s: ScalarTables, st: State, actor: int) -> int:
    """Scalar twin of ``jump_bits``."""
    return s.identical[s.top_face(st)] & s.held(st, actor) if s.jump_in else 0


def act_pass_one(s: ScalarTables, st: State, seat: int) -> None:
    """Scalar twin of ``act_pass``."""
    rank = st.offer_rank[0].tolist()
    cur = rank[seat]
    later = [r if r > cur else NOT_ASKED for r in rank]
    best = min(later)
    if best < NOT_ASKED:
        st.actor[0] = later.index(best)
        st.phase[0] = JUMP
    else:
        st.actor[0] = st.turn_seat.item(0)
        st.phase[0] = st.resume.item(0)
        st.offer_rank[0] = NOT_ASKED


def offer_jump_in_one(s: ScalarTables, st: State) -> None:
    """Scalar twin of ``offer_jump_in``: the engine opens the offer when a seat holds the identical
    card (rare), so the scalar path only looks for one."""
    if not s.jump_in:
        return
    phase = st.phase.item(0)
    if not (phase == TURN or phase == DEFLECT or (s.stacks and phase == PENDING and not st.challengeable.item(0))):
        return
    ident = s.identical[s.top_face(st)]
    nxt, origin = st.actor.item(0), st.origin.item(0)
    for p in range(s.P):
        if p != nxt and (p != origin or s.jump_in_self) and s.held(st, p) & ident:
            offer_jump_in(s.e, st, s.ROW, exclude_origin=True)
            return

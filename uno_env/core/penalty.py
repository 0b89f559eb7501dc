"""Pending draw penalties and the challenge of a wild draw card (rules §1.6, §1.7, §1.9; E4, E7, E8,
E10, E11, E26, E34), and the wrong-card penalty of the seeds (rules §12.11).

A draw card makes the next seat its victim (phase ``PENDING``, ``State.pending`` cards): it may stack
a draw card (``stack_bits``, option ``stacking``), take the whole total (``draw`` or ``accept``:
``draw_penalty``) or, against a restricted wild draw card under challenges, ``challenge`` it
(``act_challenge``: the one place a challenge is resolved).  The guilt of a wild draw card is judged
when it is played (``judge_guilt`` by ``matching.guilt``, in ``play.act_play``).  The ``*_one`` functions are the scalar
twins.
"""

from __future__ import annotations

import numpy as np

from . import jump_in, matching, memory, piles, scoring, uno_call
from .rows import flat, goto, next_seat
from .state import DRAWN, TURN, State
from .tables import RuleTables
from .twins import ScalarTables


def stack_bits(e: RuleTables, st: State, R, actor, side, tface) -> np.ndarray:
    """(n, W) the draw cards the victim may stack on the pending card (rules §1.7); never on a
    draw-until-colour total, nor on a going-out draw card (E10)."""
    can = ~st.pending_color[R] & (st.hand_n[R, st.origin[R]] > 0)
    b = e.STACKBITS[tface] & st.held[R, actor]
    if e.hard:
        b = matching.unless_guilty(e, st, R, actor, side, b)
    return np.where(can[:, None], b, np.uint64(0))


def draw_penalty(e: RuleTables, st: State, R, a=None, queue: list | None = None) -> None:
    """The victim draws the pending penalty (``draw`` or ``accept``)."""
    victim = st.actor[R].astype(np.intp)
    origin = st.origin[R].astype(np.intp)
    out = st.hand_n[R, origin] == 0  # E8: a going-out wild draw card was accepted
    n, until = st.pending[R].astype(np.int64), st.pending_color[R]
    st.challengeable[R] = False  # settled: a reshuffle now keeps only the top card (E26)
    if not e.config.last_card_draw_applies:
        n, until = np.where(out, 0, n), until & ~out

    def then(*_) -> None:
        clear_pending(st, R)
        uno_call.close_windows(e, st, R, victim, discard=False)
        after_penalty(e, st, R, victim, out)
        if not e.stacks:  # rules §1.7: the victim drew at once; now the card is open
            jump_in.offer_jump_in(e, st, R, exclude_origin=True)  # to jump-ins, counted from the jumper (rules §1.8)
    piles.draw_cards(e, st, R, victim, n, until, 0, then, queue)


def after_penalty(e: RuleTables, st: State, R, victim, out) -> None:
    """After the victim drew: the round ends if the offender went out (E8); else the victim loses its
    turn (``draw_penalty_skips_turn``) or plays."""
    Rr, v = R, victim
    if np.count_nonzero(out):  # E8: the round ends
        scoring.end_round(e, st, R[out], st.origin[R[out]].astype(np.intp))
        rest = ~out
        Rr, v = R[rest], victim[rest]
    if Rr.size:
        nxt = next_seat(e, st, Rr, v, 1) if e.config.draw_penalty_skips_turn else v
        goto(st, Rr, nxt, TURN)


def act_challenge(e: RuleTables, st: State, R, a, queue: list | None = None) -> None:
    """``challenge``: the one place a challenge of a restricted wild draw card is resolved (rules §1.6).
    Guilty: the offender draws the penalty and the victim plays (``offender_suffers``), or takes its
    card back, the previous colour returns and it draws 2 plus any earlier pending total
    (``retract_and_draw_2``, E26).  Innocent: the challenger draws the penalty plus
    ``challenge_extra`` and is treated as a victim who drew (E8: an offender who went out wins)."""
    c = e.config
    victim = st.actor[R].astype(np.intp)
    off = st.origin[R].astype(np.intp)
    g = st.guilty[R]
    if st.memory is not None:  # memory hook: the hand is shown to the challenger
        memory.challenged(e, st, R, victim, off, g)
    st.challengeable[R] = False  # settled: a reshuffle now keeps only the top card (E26)
    uno_call.close_windows(e, st, R, victim, discard=False)
    gi = flat(g)
    if gi.size:
        Rg, og = R[gi], off[gi]
        if e.retract:  # rules §1.6: the card returns, the offender draws 2 (E26)
            top = st.discard[Rg, st.disc_n[Rg] - 1].astype(np.intp)
            st.disc_n[Rg] -= 1
            st.pile_counts[Rg, top] -= 1
            piles.add_to_hands(e, st, Rg, og, top[:, None], None)
            if st.memory is not None:  # memory hook: the card goes back in front of everyone
                memory.returned(e, st, Rg, og, top)
            st.color[Rg] = st.prev_color[Rg]
            st.prev_color[Rg] = st.prev_prev_color[Rg]  # the colour before the card now on top
            st.vulnerable[Rg, og] = False
            n, until = 2 + st.prev_pending[Rg].astype(np.int64), np.zeros(len(Rg), bool)
        else:  # offender_suffers: the offender draws the penalty; the victim plays normally
            n, until = st.pending[Rg].astype(np.int64), st.pending_color[Rg]
        vg = victim[gi]

        def guilty_then(*_) -> None:
            clear_pending(st, Rg)
            goto(st, Rg, vg, TURN)
        piles.draw_cards(e, st, Rg, og, n, until, 0, guilty_then, queue)
    ii = flat(~g)
    if ii.size:  # innocent: the challenger draws the penalty plus challenge_extra
        Ri, vi = R[ii], victim[ii]
        out = st.hand_n[Ri, off[ii]] == 0  # the offender's hand: the challenger's draw leaves it

        def innocent_then(*_) -> None:
            clear_pending(st, Ri)
            after_penalty(e, st, Ri, vi, out)
        piles.draw_cards(e, st, Ri, vi, st.pending[Ri].astype(np.int64), st.pending_color[Ri], c.challenge_extra,
                         innocent_then, queue)


def clear_pending(st: State, R) -> None:
    st.pending[R] = 0
    st.pending_color[R] = False
    st.challengeable[R] = False
    st.guilty[R] = False


def wrong_card_penalty(e: RuleTables, st: State, R: np.ndarray) -> None:
    """The seeds' wrong-card rule for an illegal action (rules §12.11): the card goes back, the seat
    asked draws 2 and, on its own turn, the turn passes; other decisions are asked again (the forced
    moves that follow are ``Engine.wrong_card_penalty``'s)."""
    R = np.asarray(R, np.intp)
    seat = st.actor[R].astype(np.intp)
    piles.draw_from_pile(e, st, R, seat, np.full(R.size, 2))
    own = (st.phase[R] == TURN) | (st.phase[R] == DRAWN)
    if np.count_nonzero(own):
        Ro = R[own]
        st.drawn[Ro] = -1
        st.declared[Ro] = False
        goto(st, Ro, next_seat(e, st, Ro, seat[own], 1), TURN)


def stack_bits_one(s: ScalarTables, st: State, actor: int) -> int:
    """Scalar twin of ``stack_bits`` (the hard restriction goes to the engine)."""
    if st.pending_color.item(0) or st.hand_n.item(0, st.origin.item(0)) == 0:
        return 0
    return s.stackable[s.top_face(st)] & s.held(st, actor)


def draw_penalty_one(s: ScalarTables, st: State, victim: int) -> None:
    """Scalar twin of ``draw_penalty`` for a penalty the pile covers, not ending the round."""
    piles.draw_top_one(s, st, victim, st.pending.item(0))
    st.pending[0] = 0
    st.pending_color[0] = False
    st.challengeable[0] = False
    st.guilty[0] = False
    uno_call.close_windows_one(s, st, victim, discard=False)
    s.goto(st, (victim + st.direction.item(0)) % s.P if s.penalty_skips else victim, TURN)
    if not s.stacks:  # rules §1.7: the victim drew at once; now the card is open to jump-ins
        jump_in.offer_jump_in_one(s, st)


def judge_guilt(e: RuleTables, st: State, R, actor, side, face) -> None:
    """Under challenges, before a card leaves the hand (``play.act_play``, which has just remembered the
    active colour in ``prev_color``): remember the pending total (a retract restores both, E26), and
    whether a restricted wild draw card breaks the restriction now (rules §1.6); the card may then be
    challenged."""
    restr = e.F_RESTR[face]
    st.prev_pending[R] = st.pending[R]
    guilty = np.zeros(len(R), bool)
    i = flat(restr)
    if i.size:
        guilty[i] = matching.guilt(e, st, R[i], actor[i], side[i])
    st.guilty[R] = guilty
    st.challengeable[R] = restr


def judge_guilt_one(s: ScalarTables, st: State, actor: int, face: int) -> None:
    """Scalar twin of ``judge_guilt``."""
    restr = s.restricted[face]
    st.prev_pending[0] = st.pending.item(0)
    st.guilty[0] = restr and s.guilty(st, actor)
    st.challengeable[0] = restr

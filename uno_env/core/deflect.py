"""Skip deflection (rules §1.7 ``stack_skip``, E33; house_cn, rules §12.5).

The victim of a Skip (played, or turned first) that holds a Skip of any colour is asked (phase
``DEFLECT``): it may pass the Skip on by playing its Skip (a play, ``play.act_play``: the next seat is
then its victim) or ``pass`` (``act_pass``): the Skip stands and it loses its turn.  The ``*_one``
functions are the scalar twins.
"""

from __future__ import annotations

import numpy as np

from .rows import any_bits, goto, next_seat
from .state import DEFLECT, TURN, State
from .tables import RuleTables
from .twins import ScalarTables


def skipped(e: RuleTables, st: State, R, victim, after, skip_bits):
    """The next seat and phase after a Skip in ``R``: ``after`` (the seat past the ``victim``) in its
    turn, or under ``stack_skip`` a victim holding a Skip (``skip_bits``: the Skips of the side in
    play) asked whether to pass it on."""
    if not e.config.stack_skip:
        return after, TURN
    holds = any_bits(st.held[R, victim] & skip_bits)
    return np.where(holds, victim, after), np.where(holds, DEFLECT, TURN)


def act_pass(e: RuleTables, st: State, R, a) -> None:
    """``pass``: the Skip stands, the victim loses its turn (E33)."""
    goto(st, R, next_seat(e, st, R, st.actor[R], 1), TURN)


def deflect_bits(e: RuleTables, st: State, R, actor, side) -> np.ndarray:
    """(n, W) the kinds the victim may deflect with: its Skips."""
    return e.SKIPBITS[side] & st.held[R, actor]


def skipped_one(s: ScalarTables, st: State, actor: int, d: int) -> tuple[int, int]:
    """Scalar twin of ``skipped`` for a Skip played by ``actor`` in direction ``d``."""
    victim, after = (actor + d) % s.P, (actor + 2 * d) % s.P
    if s.stack_skip and s.held(st, victim) & s.skips[st.side.item(0)]:
        return victim, DEFLECT
    return after, TURN


def act_pass_one(s: ScalarTables, st: State, actor: int) -> None:
    """Scalar twin of ``act_pass``."""
    s.goto(st, (actor + st.direction.item(0)) % s.P, TURN)


def deflect_bits_one(s: ScalarTables, st: State, actor: int) -> int:
    """Scalar twin of ``deflect_bits``."""
    return s.skips[st.side.item(0)] & s.held(st, actor)

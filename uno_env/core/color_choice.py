"""The colour choice of a wild that no play declared (phase ``CHOOSE_COLOR``): a Wild turned first
(rules §3.3, §7.2; ``first_card_wild_chooser``) or a wild face revealed by a Flip (E19;
``flip_revealed_wild``).  ``revealed_wild_chooser`` is the one rule for which seat is asked; it
declares a colour of the side in play with ``choose``; then the seat whose turn it is acts (answering
the penalty of a wild draw card turned first, SOLO's Take 4).  The
scalar path hands these rare moves to the engine.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from . import memory
from .state import PENDING, TURN, State
from .tables import RuleTables

Seat = TypeVar("Seat", int, np.ndarray)


def revealed_wild_chooser(e: RuleTables, player: Seat, nxt: Seat, flipped: bool) -> Seat:
    """Who declares the colour of a wild turned face up with no colour declared: the seat about to act
    (``nxt``), or the seat that turned it (``player``: the dealer for the first card, the flipper for a
    Flip) where the option says so: ``first_card_wild_chooser=dealer`` for a Wild turned first (rules
    §3.3, §7.2), ``flip_revealed_wild=flipper`` for a wild face a Flip revealed (``flipped``; E19, the
    first card's Flip included).  Seats as ints (the scalar path) or arrays."""
    c = e.config
    by_player = c.flip_revealed_wild == "flipper" if flipped else c.first_card_wild_chooser == "dealer"
    return player if by_player else nxt


def act_choose(e: RuleTables, st: State, R, a, queue: list | None = None) -> None:
    if st.memory is not None:  # memory hook: a colour declared
        memory.chose(e, st, R, st.actor[R].astype(np.intp), a)
    st.color[R] = e.A_COLOR[a]
    st.actor[R] = st.turn_seat[R]
    st.phase[R] = np.where(st.pending[R] > 0, PENDING, TURN)  # a wild draw card turned first (SOLO's Take 4)


def choose_columns(e: RuleTables, rows: np.ndarray, side: np.ndarray, m: np.ndarray, extra: np.ndarray) -> None:
    """``legal.refresh``'s ``choose`` columns of ``rows`` (positions in its rows; the other rows'
    choose columns are already False): the colours of the side in play."""
    m[rows[:, None], e.CHOOSE_IDS] = e.CHOOSE_SIDE[None, :] == side[rows, None]
    extra[rows] += e.N_CHOOSE[side[rows]]

"""The colour choice of a wild that no play declared (phase ``CHOOSE_COLOR``): a Wild turned first
(rules §3.3, §7.2; ``first_card_wild_chooser``) or a wild face revealed by a Flip (E19;
``flip_revealed_wild``).  The seat asked declares a colour of the side in play with ``choose``; then
the seat whose turn it is acts.  The scalar path hands these rare moves to the engine.
"""

from __future__ import annotations

import numpy as np

from . import memory
from .state import TURN, State


def act_choose(e, st: State, R, a) -> None:
    if st.memory is not None:  # memory hook: a colour declared
        memory.chose(e, st, R, st.actor[R].astype(np.intp), a)
    st.color[R] = e.A_COLOR[a]
    st.actor[R] = st.turn_seat[R]
    st.phase[R] = TURN


def choose_columns(e, rows: np.ndarray, side: np.ndarray, m: np.ndarray, extra: np.ndarray) -> None:
    """``legal.refresh``'s ``choose`` columns of ``rows`` (positions in its rows; the other rows'
    choose columns are already False): the colours of the side in play."""
    m[rows[:, None], e.CHOOSE_IDS] = e.CHOOSE_SIDE[None, :] == side[rows, None]
    extra[rows] += e.N_CHOOSE[side[rows]]

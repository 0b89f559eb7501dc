"""Hand exchanges: the Swap card (SOLO, a chosen seat; rules §6.3, E15), Swap-in-turn (SOLO, every hand
passes on; E18) and Seven-O (option ``seven_o``: a 7 swaps with a chosen seat, a 0 passes every hand
on; rules §8).  A seat that receives a one-card hand need not call UNO unless
``uno_call_after_exchange`` (rules §1.5, §12.10, E16).  A last card's exchange is void (E17,
``play.act_play``).  ``exchange`` and ``rotate`` are the one place hands change owner; the ``*_one``
functions are their scalar twins.
"""

from __future__ import annotations

import numpy as np

from . import memory
from .state import State
from .tables import RuleTables
from .twins import ScalarTables


def exchange(e: RuleTables, st: State, R, a_seat, b_seat) -> None:
    """Seats ``a_seat`` and ``b_seat`` swap hands (Swap; a 7 under Seven-O)."""
    for arr in (st.hands, st.hand_n, st.held, st.drew_on):
        tmp = arr[R, a_seat].copy()
        arr[R, a_seat] = arr[R, b_seat]
        arr[R, b_seat] = tmp
    st.vulnerable[R, a_seat] = False
    st.vulnerable[R, b_seat] = False
    if e.config.uno_call_after_exchange:
        st.vulnerable[R, b_seat] = st.hand_n[R, b_seat] == 1
    if st.memory is not None:  # memory hook: each seat knows the hand it gave
        memory.exchanged(e, st, R, a_seat, b_seat)


def rotate(e: RuleTables, st: State, R, d) -> None:
    """Every hand passes one seat on in direction ``d`` (Swap-in-turn; a 0 under Seven-O)."""
    src = (np.arange(e.P)[None, :] - d[:, None]) % e.P
    st.hands[R] = st.hands[R[:, None], src]
    st.hand_n[R] = st.hand_n[R[:, None], src]
    st.held[R] = st.held[R[:, None], src]
    st.drew_on[R] = st.drew_on[R[:, None], src]
    if st.memory is not None:  # memory hook: each seat knows the hand it passed on
        memory.rotated(e, st, R, d)
    st.vulnerable[R] = False
    if e.config.uno_call_after_exchange:
        st.vulnerable[R] = st.hand_n[R] == 1
        st.vulnerable[R, st.actor[R]] = False


def exchange_one(s: ScalarTables, st: State, a: int, b: int) -> None:
    """Scalar twin of ``exchange``."""
    for arr in (st.hands, st.hand_n, st.held, st.drew_on):
        row = arr[0]
        row[[a, b]] = row[[b, a]]
    st.vulnerable[0, a] = False
    st.vulnerable[0, b] = s.call_after_exchange and st.hand_n.item(0, b) == 1
    if st.memory is not None:  # memory hook: each seat knows the hand it gave
        memory.exchanged_one(s.e, st, a, b)


def rotate_one(s: ScalarTables, st: State, actor: int, d: int) -> None:
    """Scalar twin of ``rotate``."""
    src = s.rotation[d]
    for arr in (st.hands, st.hand_n, st.held, st.drew_on):
        arr[0] = arr[0][src]
    if st.memory is not None:  # memory hook: each seat knows the hand it passed on
        memory.rotated_one(s.e, st, d)
    v = st.vulnerable[0]
    if s.call_after_exchange:
        v[:] = st.hand_n[0] == 1
        v[actor] = False
    else:
        v[:] = False

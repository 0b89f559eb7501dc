"""UNO Flip's Flip card (rules §7.4; E19-E22; options ``flip_discard_mode``, ``flip_revealed_wild``,
``flip_as_last_card``, ``flip_first_card``).

A Flip turns the game over: the discard pile (inverted, or each card in place), the draw pile and
every hand.  A hand needs no change, since a kind is both of its faces and ``State.side`` says which
one is in play (E30).  The revealed top card's effect is not applied; a revealed wild's colour is
declared first (phase ``CHOOSE_COLOR``, E19).  ``flip_one`` is the scalar twin of ``flip``.
"""

from __future__ import annotations

import numpy as np

from . import color_choice, matching, memory
from .cards import NO_COLOR
from .state import CHOOSE_COLOR, State
from .tables import RuleTables
from .twins import ScalarTables


def flip(e: RuleTables, st: State, R) -> np.ndarray:
    """Turn the game over in ``R``; returns whether the new top card is a wild."""
    st.side[R] ^= 1
    if st.memory is not None:  # memory hook: the faces known no longer show
        memory.flipped(e, st, R)
    j = np.arange(e.N)[None, :]
    base = (R * e.N)[:, None]  # flat gathers: the first n cards reversed, the rest in place
    if e.invert_pile:
        n = st.disc_n[R][:, None]
        st.discard[R] = st.discard.reshape(-1)[base + np.where(j < n, n - 1 - j, j)]
    n = st.draw_n[R][:, None]
    st.draw[R] = st.draw.reshape(-1)[base + np.where(j < n, n - 1 - j, j)]
    color = e.F_TURNED_COLOR[matching.top_face(e, st, R)]
    st.color[R] = color
    return color == NO_COLOR  # a wild: its colour is declared first (E19)


def play_flip(e: RuleTables, st: State, R, fl, live, actor, nseat, nphase) -> np.ndarray:
    """The effect of Flips played at positions ``fl`` of ``R`` by ``actor`` (``live``: not the player's
    last card): the game turns over and a revealed wild asks for its colour, declared by the next seat
    or the flipper (E19, ``color_choice.revealed_wild_chooser``).  Returns the seat asked in each row
    of ``R``."""
    wild_top = flip(e, st, R[fl])
    w = fl[wild_top & live[fl]]
    nphase[w] = CHOOSE_COLOR
    chooser = nseat.copy()
    chooser[w] = color_choice.revealed_wild_chooser(e, actor[w], nseat[w], flipped=True)
    return chooser


def flip_one(s: ScalarTables, st: State) -> bool:
    """Scalar twin of ``flip``."""
    side = 1 - st.side.item(0)
    st.side[0] = side
    if st.memory is not None:  # memory hook: the faces known no longer show
        memory.flipped_one(s.e, st)
    for pile, n, turn in ((st.discard, st.disc_n.item(0), s.invert_pile), (st.draw, st.draw_n.item(0), True)):
        if turn:  # the first n cards in reverse order
            pile[0, :n] = pile[0, n - 1::-1] if n else pile[0, :0]
    color = s.turned_color[s.kind_face[side][st.discard.item(0, st.disc_n.item(0) - 1)]]
    st.color[0] = color
    return color == NO_COLOR

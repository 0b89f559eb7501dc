"""A turn's draw and the drawn card (rules §1.3, §3.2; options ``voluntary_draw``, ``drawn_card_play``;
E1, E2).

A seat in its turn may ``draw`` one card (instead of playing where ``voluntary_draw`` allows, and
always when it has nothing to play); a playable drawn card may then be played at once (phase
``DRAWN``: the only card it may play) or kept (``keep``); otherwise the turn passes.  With nothing
left to draw the draw is a pass, and a full cycle of passes blocks the round (E1, E2).  A ``draw`` in
phase ``PENDING`` takes the penalty (``penalty.draw_penalty``).  The ``*_one`` functions are the
scalar twins.
"""

from __future__ import annotations

import numpy as np

from . import matching, memory, penalty, piles, scoring, uno_call
from .rows import flat, goto, next_seat
from .state import DRAWN, PENDING, TURN, State
from .tables import RuleTables
from .twins import ScalarTables


def act_draw(e: RuleTables, st: State, R, a, queue: list | None = None) -> None:
    """``draw``: one card in turn, or the pending penalty."""
    pend = st.phase[R] == PENDING
    if np.count_nonzero(pend):
        penalty.draw_penalty(e, st, R[pend], a[pend], queue)
        R, a = R[~pend], a[~pend]
        if R.size == 0:
            return
    actor = st.actor[R].astype(np.intp)
    piles.draw_cards(e, st, R, actor, np.ones(len(R), np.int64), np.zeros(len(R), bool), 0,
                     lambda got, kind: after_draw(e, st, R, actor, got, kind), queue)


def after_draw(e: RuleTables, st: State, R, actor, got, kind) -> None:
    """A seat drew one card in its turn (``got``: 0 or 1, ``kind``: the card): it may play it, or the
    turn passes; with nothing left to draw a full cycle of passes blocks the round."""
    st.drew_on[R, actor] = st.color[R]  # public: it drew (or passed) on this colour
    if st.memory is not None:  # memory hook: a draw or pass on the active colour
        memory.lacked(e, st, R, actor)
    uno_call.close_windows(e, st, R, actor, discard=False)
    none = got == 0
    st.passes[R] = np.where(none, st.passes[R] + 1, 0)
    playable = np.zeros(len(R), bool)
    i = flat(~none)
    if i.size and not e.drawn_never:
        Ri = R[i]
        side = st.side[Ri].astype(np.intp)
        bits = matching.playable_bits(e, st, Ri, actor[i], side, matching.top_face(e, st, Ri))
        playable[i] = matching.has_kind(e, bits, kind[i])
    st.drawn[R] = np.where(playable, kind, -1)
    st.phase[R[playable]] = DRAWN
    end = ~playable
    if np.count_nonzero(end):
        Re = R[end]
        goto(st, Re, next_seat(e, st, Re, actor[end], 1), TURN)
    blocked = R[none & (st.passes[R] >= e.P)]
    if blocked.size:  # E2: a full cycle of passes with nothing to draw
        scoring.end_blocked_round(e, st, blocked)


def act_keep(e: RuleTables, st: State, R, a, queue: list | None = None) -> None:
    """``keep``: the playable drawn card stays in the hand and the turn passes."""
    st.drawn[R] = -1
    goto(st, R, next_seat(e, st, R, st.actor[R], 1), TURN)


def act_draw_one(s: ScalarTables, st: State, actor: int) -> None:
    """Scalar twin of ``act_draw`` in turn, with a card left to draw."""
    card = st.draw.item(0, st.draw_n.item(0) - 1)
    piles.draw_top_one(s, st, actor, 1)
    st.drew_on[0, actor] = st.color.item(0)  # public: it drew on this colour
    if st.memory is not None:  # memory hook: a draw on the active colour
        memory.lacked_one(s.e, st, actor)
    uno_call.close_windows_one(s, st, actor, discard=False)
    st.passes[0] = 0
    playable = False
    if not s.drawn_never and s.matching(st) >> card & 1:
        playable = not (s.e.hard and s.k_restricted[st.side.item(0)][card] and s.guilty(st, actor))
    if playable:
        st.drawn[0] = card
        st.phase[0] = DRAWN
    else:
        st.drawn[0] = -1
        s.goto(st, (actor + st.direction.item(0)) % s.P, TURN)


def act_keep_one(s: ScalarTables, st: State, actor: int) -> None:
    """Scalar twin of ``act_keep``."""
    st.drawn[0] = -1
    s.goto(st, (actor + st.direction.item(0)) % s.P, TURN)

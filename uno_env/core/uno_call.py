"""The UNO call and its catches (rules §1.5, §3.4, §7.5; E16, E23, E27-E29; rules §12.10, §12.15).

A seat whose own play leaves it one card without having declared ``uno`` becomes vulnerable
(``after_play``) until its window closes (``close_windows``): another seat may ``catch`` it
(``uno_enforcement=catch``), or the penalty is drawn when the window closes (``automatic``).  With
``uno_catch_out_of_turn`` a seat that moves again at once is first offered to the others
(``offer_catch``, an offer of ``jump_in``).  The ``*_one`` functions are the scalar twins.
"""

from __future__ import annotations

import numpy as np

from . import jump_in, piles
from .actions import UNO
from .rows import count_row, flat, rows_with_any, sel
from .state import NOT_ASKED, TURN, State
from .tables import RuleTables
from .twins import ScalarTables


def act_uno(e: RuleTables, st: State, R, a, queue: list | None = None) -> None:
    st.declared[R] = True


def act_catch(e: RuleTables, st: State, R, a, queue: list | None = None) -> None:
    """``catch @t``: the vulnerable seat ``t`` draws ``uno_penalty`` cards."""
    t = e.A_TARGET[a].astype(np.intp)
    st.vulnerable[R, t] = False
    piles.draw_cards(e, st, R, t, np.full(len(R), e.config.uno_penalty, np.int64), np.zeros(len(R), bool), 0,
                     queue=queue)


def after_play(e: RuleTables, st: State, R, fs, had_two) -> None:
    """After the whole effect of a play in ``R`` (E16; ``fs``: the flat (game, seat) of each player,
    ``had_two``: it played from two cards): a seat left at one card without declaring is vulnerable;
    one that received its one-card hand is not (rules §12.10)."""
    one = had_two & (st.hand_n.reshape(-1)[fs] == 1) & ~st.declared[R]
    st.vulnerable.reshape(-1)[fs[one]] = True
    if e.config.uno_catch_out_of_turn and np.count_nonzero(one):
        offer_catch(e, st, R[one])


def offer_catch(e: RuleTables, st: State, R) -> None:
    """``uno_catch_out_of_turn``: the seats in ``R`` that just became vulnerable and move again
    before anyone else is asked are first offered to the others, in turn order, to be caught
    (``catch`` or ``pass``; jump-ins too, where the rules have them).  The offer is the phase of a
    jump-in offer: the seat to move resumes its turn after the last ``pass``."""
    R = R[(st.phase[R] == TURN) & (st.actor[R] == st.origin[R])]
    if R.size == 0:
        return
    rank = jump_in.turn_order_after_origin(e, st, R)
    rank[np.arange(R.size), st.origin[R]] = NOT_ASKED
    jump_in.ask_in_order(e, st, R, rank)


def close_windows(e: RuleTables, st: State, R, actor, discard: bool, in_turn=True) -> None:
    """End the other seats' UNO windows (rules §1.5, E27): ``next_card_discard`` closes on any card
    discarded by another seat; ``next_player_action`` when the next player begins a turn (a play or
    draw in turn, not an out-of-turn jump-in).  Under ``automatic`` enforcement the penalty is
    applied then."""
    if e.enforce == "off" or (not discard and e.window_discard_only):
        return
    if not e.window_discard_only and in_turn is not True and not in_turn.all():
        R, actor = R[in_turn], np.asarray(actor)[in_turn]
        if R.size == 0:
            return
    rows = flat(rows_with_any(st.vulnerable, R))  # the few games with an open window
    if rows.size == 0:
        return
    R, actor = R[rows], np.asarray(actor)[rows]
    vul = st.vulnerable[R]
    vul[np.arange(len(R)), actor] = False
    i, p = np.nonzero(vul)
    if i.size == 0:
        return
    st.vulnerable[R[i], p] = False
    if e.automatic:
        while i.size:  # one seat per game at a time, so each draw sees its own pile
            _, first = np.unique(i, return_index=True)
            piles.draw_from_pile(e, st, R[i[first]], p[first], np.full(first.size, e.config.uno_penalty))
            keep = np.ones(i.size, bool)
            keep[first] = False
            i, p = i[keep], p[keep]


def call_and_catch_columns(e: RuleTables, st: State, R, actor, anyplay, m, extra) -> None:
    """``legal.refresh``'s ``uno`` column (a seat at two cards about to play one) and ``catch``
    columns (the other vulnerable seats, E29), into mask ``m`` and the counts ``extra``."""
    S = sel(R)
    uno = (st.hand_n[R, actor] == 2) & ~st.declared[S] & anyplay
    m[:, e.ID[UNO]] = uno
    extra += uno
    if e.enforce == "catch":
        v = st.vulnerable[S]
        if np.count_nonzero(v):
            v = v.copy()
            v[np.arange(len(R)), actor] = False
            m[:, e.CATCH_IDS] = v
            extra += count_row(v)


def call_and_catch_columns_one(s: ScalarTables, st: State, actor: int, bits: int, m) -> int:
    """Scalar twin of ``call_and_catch_columns``; returns the legal actions it added."""
    n = 0
    if bits and st.hand_n.item(0, actor) == 2 and not st.declared.item(0):
        m[s.id[UNO]] = True
        n += 1
    if s.enforce == "catch":
        v = st.vulnerable[0]
        if np.count_nonzero(v):
            v = v.copy()
            v[actor] = False
            m[s.catch_ids] = v
            n += int(np.count_nonzero(v))
    return n


def after_play_one(s: ScalarTables, st: State, actor: int, had_two: bool) -> None:
    """Scalar twin of ``after_play``."""
    if s.enforce != "off" and had_two and st.hand_n.item(0, actor) == 1 and not st.declared.item(0):
        st.vulnerable[0, actor] = True
        if s.catch_out_of_turn:  # it moves again at once: the others are offered a catch first
            offer_catch(s.e, st, s.ROW)


def close_windows_one(s: ScalarTables, st: State, seat: int, discard: bool) -> None:
    """Scalar twin of ``close_windows`` under ``catch`` enforcement (``automatic`` goes to the engine)."""
    if s.enforce == "off" or (not discard and s.e.window_discard_only):
        return
    v = st.vulnerable[0]
    if np.count_nonzero(v):
        mine = v[seat]
        v[:] = False
        v[seat] = mine

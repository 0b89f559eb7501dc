"""New games, the deal and the first card (rules §3.1, §3.3, §5, §6.1, §7.1-§7.2; E13, E19, E20, E24,
E32; options ``next_dealer``, ``first_player``, ``first_card_*``, ``flip_first_card``).

A game starts with scores reset and a random dealer; each round shuffles the whole deck from the game's
random stream, deals one card at a time from the dealer's left and turns the first discard, which is
redrawn or buried as ``first_card_mode`` says and whose effect then applies to the first player.  The
deal sets whole hands at once (the only writes to hands outside ``piles.add_to_hands``,
``play.discard`` and ``exchange``).
"""

from __future__ import annotations

import numpy as np

from . import chance, deflect, flip, jump_in, memory
from .cards import FLIP, FREE, NO_COLOR, REVERSE, SKIP, SWAP_IN_TURN
from .rows import flat
from .state import CHOOSE_COLOR, NOT_ASKED, PENDING, TURN, State


def new_games(e, st: State, rows) -> None:
    """Start a new game in ``rows``: scores reset, a random dealer, the first deal."""
    rows = np.asarray(rows, np.intp)
    reset_games(e, st, rows)
    shuffle_and_deal(e, st, rows)


def next_rounds(e, st: State, rows, settle: bool = True) -> None:
    """Deal the next round in finished ``rows``: the deal moves on (``next_dealer``); a game that is
    over starts again (one shuffle-and-deal for all of them).  ``settle=False`` leaves the forced
    first moves and the masks to the caller's next ``settle``."""
    rows = np.asarray(rows, np.intp)
    over = st.game_over[rows]
    if np.count_nonzero(over):
        reset_games(e, st, rows[over])
    cont = rows[~over]
    d = st.dealer[cont].astype(np.int64)
    left = (d + 1) % e.P
    if e.config.next_dealer == "round_winner":
        w = st.winner[cont]
        left = np.where(w >= 0, w, left)
    st.dealer[cont] = left
    shuffle_and_deal(e, st, rows, settle)


def reset_games(e, st: State, rows: np.ndarray) -> None:
    c = e.config
    st.scores[rows] = c.starting_points if c.scoring_mode == "penalty_countdown" else 0
    st.rounds[rows] = 0
    st.game_over[rows] = False
    st.dealer[rows] = chance.integers(st.key, st.counter, rows, e.P)
    if st.memory is not None:  # memory hook: a new game
        memory.new_game(e, st, rows)


def shuffle_and_deal(e, st: State, rows, settle: bool = True) -> None:
    perm = chance.permutations(st.key, st.counter, rows, np.full(len(rows), e.N), e.N)
    st.draw[rows] = e.cards[perm]
    st.draw_n[rows] = e.N
    deal_from_pile(e, st, rows, settle)


_ROUND_START = (("side", 0), ("direction", 1), ("pending", 0), ("pending_color", False),
                ("challengeable", False), ("guilty", False), ("drawn", -1), ("declared", False),
                ("vulnerable", False), ("drew_on", -1), ("first_play", True), ("passes", 0),
                ("turn_count", 0), ("winner", -1), ("round_points", 0), ("truncated", False),
                ("offer_rank", NOT_ASKED), ("disc_n", 0), ("pile_counts", 0), ("prev_pending", 0))


def deal_from_pile(e, st: State, rows, settle: bool = True) -> None:
    """Deal from the draw pile as it lies (top first, one card at a time from the dealer's left),
    turn the first discard and apply the first-card rules (rules §3.3, §5, §6.1, §7.2)."""
    R = np.asarray(rows, np.intp)
    n, P, K, h = len(R), e.P, e.K, e.config.hand_size
    hp = h * P
    j = np.arange(hp)
    cards = st.draw[R[:, None], st.draw_n[R][:, None] - 1 - j].astype(np.intp)
    seats = (st.dealer[R].astype(np.intp)[:, None] + 1 + j) % P
    cell = (np.arange(n)[:, None] * P + seats) * K + cards
    st.hands[R] = np.bincount(cell.ravel(), minlength=n * P * K).reshape(n, P, K)
    e.resync(st, R)
    st.hand_n[R] = h
    st.draw_n[R] -= hp
    for name, value in _ROUND_START:
        getattr(st, name)[R] = value
    if st.memory is not None:  # memory hook: a new round
        memory.reset(e, st, R)
    turn_first_card(st, R)
    first_card_redraws(e, st, R)
    first_card_effects(e, st, R)
    if settle:
        e.settle(st, R)


def turn_first_card(st: State, R: np.ndarray) -> None:
    top = st.draw[R, st.draw_n[R] - 1]
    st.draw_n[R] -= 1
    st.discard[R, st.disc_n[R]] = top
    st.disc_n[R] += 1
    st.pile_counts[R, top] += 1


def first_card_redraws(e, st: State, R: np.ndarray) -> None:
    """Turn first cards until one is acceptable (``first_card_mode``; a restricted wild draw card is
    never kept, a Flip only under ``flip_first_card=apply``, E20)."""
    c = e.config
    todo = R
    for _ in range(e.N):
        sym = e.F_SYM[e.KF[0, st.discard[todo, st.disc_n[todo] - 1]]]
        if c.first_card_mode == "apply":
            bad = e.F_RESTR[e.KF[0, st.discard[todo, st.disc_n[todo] - 1]]].copy()
            if e.two_sided and c.flip_first_card == "redraw":
                bad |= sym == FLIP
        else:
            bad = sym >= 10
        todo = todo[bad]
        if todo.size == 0:
            return
        if c.first_card_mode == "redraw_action":  # house_cn: the card stays buried (E32)
            turn_first_card(st, todo)
            continue
        # return it to the draw pile, shuffle the pile, turn the next card
        top = st.discard[todo, st.disc_n[todo] - 1]
        st.disc_n[todo] -= 1
        st.pile_counts[todo, top] -= 1
        st.draw[todo, st.draw_n[todo]] = top
        st.draw_n[todo] += 1
        perm = chance.permutations(st.key, st.counter, todo, st.draw_n[todo], e.N)
        st.draw[todo] = st.draw[todo[:, None], perm]
        turn_first_card(st, todo)
    raise RuntimeError("no acceptable first card in the deck")  # pragma: no cover


def first_card_effects(e, st: State, R: np.ndarray) -> None:
    """The first card's effect on the first player (rules §3.3, §7.2; E24, E32), then jump-ins (E13)."""
    c, P = e.config, e.P
    dealer = st.dealer[R].astype(np.intp)
    first = (dealer + 1) % P
    face = e.KF[0, st.discard[R, st.disc_n[R] - 1]]
    sym = e.F_SYM[face]
    wild = e.F_WILD[face]
    st.color[R] = np.where(sym == SWAP_IN_TURN, FREE, np.where(wild, NO_COLOR, e.F_COLOR[face]))
    st.origin[R] = dealer
    st.prev_color[R] = st.prev_prev_color[R] = st.color[R]
    nseat, nphase, chooser = first.copy(), np.full(len(R), TURN, np.int8), first.copy()
    if c.first_player == "count_from_initial":  # E32: the initial player counts as 1; 0 -> initial
        num = sym < 10
        nseat = np.where(num & (sym > 0), (first + sym - 1) % P, first)
    skip = sym == SKIP
    if np.count_nonzero(skip):
        nseat[skip], nphase[skip] = deflect.skipped(e, st, R[skip], first[skip], (first[skip] + 1) % P,
                                                    e.SKIPBITS[0])
    rev = sym == REVERSE
    if np.count_nonzero(rev):
        st.direction[R[rev]] = -1
        right = (dealer[rev] - 1) % P
        nseat[rev] = dealer[rev] if (c.first_card_reverse == "dealer_first" or P == 2) else right
    drw = e.F_DRAW[face] > 0
    if np.count_nonzero(drw):
        st.pending[R[drw]] = e.F_DRAW[face[drw]]
        nphase[drw] = PENDING
    wl = wild & (sym != SWAP_IN_TURN)
    if np.count_nonzero(wl):
        nphase[wl] = CHOOSE_COLOR
        if c.first_card_wild_chooser == "dealer":
            chooser[wl] = dealer[wl]
    fl = sym == FLIP  # only with flip_first_card=apply (E20)
    if np.count_nonzero(fl):
        revealed_wild = flip.flip(e, st, R[fl])
        if np.count_nonzero(revealed_wild):
            nphase[flat(fl)[revealed_wild]] = CHOOSE_COLOR
            if c.flip_revealed_wild == "flipper":
                chooser[flat(fl)[revealed_wild]] = dealer[fl][revealed_wild]
    st.turn_seat[R] = nseat
    st.phase[R] = nphase
    st.actor[R] = np.where(nphase == CHOOSE_COLOR, chooser, nseat)
    jump_in.offer_jump_in(e, st, R, exclude_origin=False)

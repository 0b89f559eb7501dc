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

from . import chance, color_choice, jump_in, memory, play
from .cards import FLIP, NO_COLOR
from .rows import flat
from .state import CHOOSE_COLOR, NOT_ASKED, TURN, State
from .tables import FX_DRAW, FX_FLIP, FX_REVERSE, FX_SKIP, RuleTables

# The effects a card turned first has (rules §3.3, §7.2 give Skip, Reverse, the draw cards, Wild and
# Flip): nobody played it, so no hands change owner (Swap, Seven-O) and nobody plays again (Skip Everyone)
TURNED_FX = FX_REVERSE | FX_SKIP | FX_DRAW | FX_FLIP


def new_games(e: RuleTables, st: State, rows) -> None:
    """Start a new game in ``rows``: scores reset, a random dealer, the first deal (its forced first moves
    and the masks are left to the caller's ``Engine.settle``, as for every deal)."""
    rows = np.asarray(rows, np.intp)
    reset_games(e, st, rows)
    shuffle_and_deal(e, st, rows)


def next_rounds(e: RuleTables, st: State, rows) -> None:
    """Deal the next round in finished ``rows``: the deal moves on (``next_dealer``); a game that is
    over starts again (one shuffle-and-deal for all of them)."""
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
    shuffle_and_deal(e, st, rows)


def reset_games(e: RuleTables, st: State, rows: np.ndarray) -> None:
    c = e.config
    st.scores[rows] = c.starting_points if c.scoring_mode == "penalty_countdown" else 0
    st.rounds[rows] = 0
    st.game_over[rows] = False
    st.dealer[rows] = chance.integers(st.key, st.counter, rows, e.P)
    if st.memory is not None:  # memory hook: a new game
        memory.new_game(e, st, rows)


def shuffle_and_deal(e: RuleTables, st: State, rows) -> None:
    perm = chance.permutations(st.key, st.counter, rows, np.full(len(rows), e.N), e.N)
    st.draw[rows] = e.cards[perm]
    st.draw_n[rows] = e.N
    deal_from_pile(e, st, rows)


_ROUND_START = (("side", 0), ("direction", 1), ("pending", 0), ("pending_color", False),
                ("challengeable", False), ("guilty", False), ("drawn", -1), ("declared", False),
                ("vulnerable", False), ("drew_on", -1), ("first_play", True), ("passes", 0),
                ("turn_count", 0), ("winner", -1), ("round_points", 0), ("truncated", False),
                ("offer_rank", NOT_ASKED), ("disc_n", 0), ("pile_counts", 0), ("prev_pending", 0))


def deal_from_pile(e: RuleTables, st: State, rows) -> None:
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


def turn_first_card(st: State, R: np.ndarray) -> None:
    top = st.draw[R, st.draw_n[R] - 1]
    st.draw_n[R] -= 1
    st.discard[R, st.disc_n[R]] = top
    st.disc_n[R] += 1
    st.pile_counts[R, top] += 1


def first_card_redraws(e: RuleTables, st: State, R: np.ndarray) -> None:
    """Turn first cards until one is acceptable (``first_card_mode``; under ``apply`` a wild draw card is
    put back (Mattel's Wild Draw Four, UNO Flip's Wild Draw Two) except SOLO's Take 4, which the first
    player follows like any action card (rules §6.1), and a Flip is kept only under
    ``flip_first_card=apply``, E20)."""
    c = e.config
    todo = R
    for _ in range(e.N):
        sym = e.F_SYM[e.KF[0, st.discard[todo, st.disc_n[todo] - 1]]]
        if c.first_card_mode == "apply":
            bad = (e.F_RESTR[e.KF[0, st.discard[todo, st.disc_n[todo] - 1]]] if e.deck.name != "solo112"
                   else np.zeros(todo.size, bool))
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


def first_card_effects(e: RuleTables, st: State, R: np.ndarray) -> None:
    """The first card's effect (rules §3.3, §7.2; E20, E24, E32), through the effects of a played card
    (``play.card_effects``) as if the dealer had played it: the first player is the seat to the
    dealer's left (or counted from it, ``first_player=count_from_initial``, E32), a Reverse gives the
    turn back to the dealer under ``first_card_reverse=dealer_first``; under ``right_of_dealer`` it acts
    as the dealer's own Reverse would (E24: with two players and ``two_player_reverse=skip`` the dealer
    plays again, otherwise the seat to the dealer's right starts).  A wild asks for its colour before
    the first turn (``color_choice.revealed_wild_chooser``; a wild draw card's victim then answers the
    penalty).  Then jump-ins (E13)."""
    c, P = e.config, e.P
    n = len(R)
    dealer = st.dealer[R].astype(np.intp)
    face = e.KF[0, st.discard[R, st.disc_n[R] - 1]]
    color = e.F_TURNED_COLOR[face]
    st.color[R] = color
    st.origin[R] = dealer
    st.prev_color[R] = st.prev_prev_color[R] = color
    nseat = (dealer + 1) % P
    if c.first_player == "count_from_initial":  # E32: the initial player counts as 1; 0 -> initial
        sym = e.F_SYM[face]
        nseat = np.where((sym < 10) & (sym > 0), (nseat + sym - 1) % P, nseat)
    nphase = np.full(n, TURN, np.int8)
    fx = int(np.bitwise_or.reduce(e.F_FX[face])) & TURNED_FX
    chooser = play.card_effects(e, st, R, face, dealer, st.direction[R].astype(np.intp), np.zeros(n, np.intp),
                                np.ones(n, bool), nseat, nphase, fx,
                                reverse_returns=c.first_card_reverse == "dealer_first" or e.reverse_skips)
    wild = flat(color == NO_COLOR)  # its colour is declared first
    if wild.size:
        chooser = nseat.copy() if chooser is None else chooser
        nphase[wild] = CHOOSE_COLOR
        chooser[wild] = color_choice.revealed_wild_chooser(e, dealer[wild], nseat[wild], flipped=False)
    st.turn_seat[R] = nseat
    st.phase[R] = nphase
    st.actor[R] = nseat if chooser is None else chooser
    jump_in.offer_jump_in(e, st, R, exclude_origin=False)

"""The rules of every preset as batched array operations.

``Engine(config, num_players)`` holds the static tables of one configuration; its methods read and
write a ``State`` (one row per game).  ``step`` applies one action per live game, then lets the engine
take every forced move (a seat with a single legal action, SCENARIOS.md "Decisions and forced
moves") until each game waits on a real choice.  Work is done on the rows that need it: each action
type, effect and rare event (reshuffle, draw-until-colour, round end) runs on an index array of the
games concerned, never in a Python loop over games or cards.

The rules are RULES.md's; where an option changes one, the option is named next to the code.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from . import chance
from .actions import ACCEPT, CATCH, CHALLENGE, CHOOSE, DRAW, KEEP, PASS, PLAY, UNO, build_actions
from .cards import (
    FLIP,
    FREE,
    NO_COLOR,
    NUM_COLOR_STATES,
    REVERSE,
    SKIP,
    SKIP_EVERYONE,
    SWAP,
    SWAP_IN_TURN,
    WILD_DRAW_COLOR,
    make_deck,
)
from .config import RuleConfig
from .state import CHOOSE as PH_CHOOSE
from .state import DEFLECT, DRAWN, JUMP, OVER, PENDING, PHASE_NAMES, TURN, State

NC = NUM_COLOR_STATES
_NOT_ASKED = 127
_MAX_FORCED_PASSES = 100_000
_ALL: dict[int, np.ndarray] = {}  # batch size -> the cached arange marking "every row, in order"


def all_rows(n: int) -> np.ndarray:
    """The row index array of a whole batch; functions given this very object may use views."""
    rows = _ALL.get(n)
    if rows is None:
        rows = _ALL[n] = np.arange(n)
        rows.flags.writeable = False
    return rows


def _flat(mask: np.ndarray) -> np.ndarray:
    """``np.flatnonzero`` of a 1-D array without its Python wrapper, which costs four times the
    search itself on the few rows of a late settling pass."""
    return mask.nonzero()[0]


_ROW_VIEW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _padded(b: np.ndarray) -> np.ndarray:
    """``b`` (bool), C-contiguous, its last axis padded with False to 1, 2, 4 or a multiple of 8 bytes:
    a width that reads as whole integers."""
    L = b.shape[-1]
    w = L if L in (1, 2, 4) else 4 if L == 3 else 8 * -(-L // 8)
    if w == L and b.flags.c_contiguous:
        return b
    out = np.zeros(b.shape[:-1] + (w,), bool)
    out[..., :L] = b
    return out


def _any_row(b: np.ndarray) -> np.ndarray:
    """``b.any(-1)`` of a bool array.  numpy reduces short rows one at a time (about 12 ns a row, 50 us
    for 4096 rows of 4 seats); a row of 1, 2, 4 or 8 bytes read as one integer costs 0.3 ns."""
    b = _padded(b)
    w = b.shape[-1]
    if w <= 8:
        return b.view(_ROW_VIEW[w])[..., 0] != 0
    return _any_bits(b.view(np.uint64))


def _any_bits(words: np.ndarray) -> np.ndarray:
    """``(words != 0).any(-1)`` for bitmask words (a few per row): OR the columns, then test once."""
    acc = words[..., 0]
    for w in range(1, words.shape[-1]):
        acc = acc | words[..., w]
    return acc != 0


def _rows_with_any(b: np.ndarray, R: np.ndarray) -> np.ndarray:
    """``b[R].any(-1)`` of a ``(B, L)`` bool array: where each row of ``b`` reads as one integer
    (``L`` of 1, 2, 4 or 8 bytes), a gather of ``R``'s integers instead of their rows."""
    L = b.shape[-1]
    if L in _ROW_VIEW and b.flags.c_contiguous:
        return b.view(_ROW_VIEW[L])[_sel(R), 0] != 0
    return _any_row(b[_sel(R)])


def _count_row(b: np.ndarray) -> np.ndarray:
    """``b.sum(-1)`` of a bool array with rows of up to 8 bytes (seats), by one popcount per row."""
    if b.shape[-1] > 8:
        return b.sum(-1, dtype=np.int16)
    b = _padded(b)
    return np.bitwise_count(b.view(_ROW_VIEW[b.shape[-1]])[..., 0]).astype(np.int16)


def _sel(R: np.ndarray):
    """``slice(None)`` when ``R`` is a whole batch (``all_rows``), else ``R``: views beat fancy indexing."""
    return slice(None) if R is _ALL.get(R.size) else R


_CHAIN_WINDOW = 8  # seats a pass of _draw_chains looks ahead by default (two laps of 4)
# effect bits of a face (Engine.F_FX): _play skips the effects no row of the batch needs
_FX_REVERSE, _FX_SKIP, _FX_SKIP_EVERYONE, _FX_DRAW, _FX_TARGETED, _FX_ROTATE, _FX_FLIP = (1 << i for i in range(7))


class StepResult(NamedTuple):
    """What one ``step`` did, per game (rows whose round did not end hold zeros).

    Attributes:
        round_over: ``(B,) bool`` the round ended during this step.
        rewards: ``(B, P) float32`` +1 for the round's winner, -1 for the others (0 for a void round).
        game_over: ``(B,) bool`` the game ended with this round.
        game_rewards: ``(B, P) float32`` +1 for the game's winners (ties share), -1 for the others.
        truncated: ``(B,) bool`` the round was stopped by ``max_turns_per_round`` (E3).
        winner: ``(B,) int8`` the round's winner (-1: none, or a void round).
        round_points: ``(B,) int32`` points scored by the round (the opponents' hands).
        scores: ``(B, P) int32`` the game scores after the round.
    """

    round_over: np.ndarray
    rewards: np.ndarray
    game_over: np.ndarray
    game_rewards: np.ndarray
    truncated: np.ndarray
    winner: np.ndarray
    round_points: np.ndarray
    scores: np.ndarray


class IllegalActionError(ValueError):
    """An action that is not legal for the seat asked."""


class Engine:
    """Static tables and the batched rules of one configuration (``RuleConfig`` and player count)."""

    #: seats one pass of ``_draw_chains`` looks ahead (2 to 64): a speed setting only, the games
    #: played do not depend on it (tests/test_determinism.py)
    chain_window: int = _CHAIN_WINDOW
    #: take forced draws in chains and unanswerable penalties in bulk; ``False`` takes each forced
    #: move through the legal masks, one pass each: slower, the same games (the tests' reference)
    bulk_forced_moves: bool = True

    def __init__(self, config: RuleConfig, num_players: int):
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) \
                or not 2 <= num_players <= 10:
            raise ValueError(f"num_players={num_players!r} is not allowed; UNO takes 2 to 10 players")
        self.config = c = config
        self.P = P = int(num_players)
        self.deck = deck = make_deck(c.deck, c.flip_pairing, c.flip_pairing_seed)
        self.K, self.F, self.N = deck.num_kinds, deck.num_faces, deck.num_cards
        N = self.N
        if c.hand_size * P > N - 12:
            raise ValueError(f"hand_size={c.hand_size} with {P} players deals {c.hand_size * P} of the "
                             f"{N} cards and leaves too few to play; use hand_size <= {(N - 12) // P}")
        self.two_sided = deck.two_sided
        fa = deck.face_arrays
        self.F_SIDE, self.F_COLOR, self.F_SYM = fa["side"], fa["color"], fa["symbol"]
        self.F_WILD, self.F_DRAW, self.F_RESTR = fa["wild"], fa["draw"], fa["restricted"]
        self.F_TARGETED = (self.F_SYM == SWAP) | (c.seven_o & (self.F_SYM == 7))
        self.F_ROTATE = (self.F_SYM == SWAP_IN_TURN) | (c.seven_o & (self.F_SYM == 0))
        self.F_IS_DRAW = (self.F_DRAW > 0) | (self.F_SYM == WILD_DRAW_COLOR)
        self.F_FX = (_FX_REVERSE * (self.F_SYM == REVERSE) | _FX_SKIP * (self.F_SYM == SKIP)
                     | _FX_SKIP_EVERYONE * (self.F_SYM == SKIP_EVERYONE) | _FX_DRAW * self.F_IS_DRAW
                     | _FX_TARGETED * self.F_TARGETED | _FX_ROTATE * self.F_ROTATE
                     | _FX_FLIP * (self.F_SYM == FLIP)).astype(np.int64)  # effect bits of each face
        KF = deck.kind_faces.T.astype(np.intp)  # (2, K)
        self.KF = KF
        self.K_COLOR = self.F_COLOR[KF]
        self.K_SYM = self.F_SYM[KF]
        self.K_PTS = fa["points"][KF].astype(np.int32)
        self.K_PTS_F = self.K_PTS.astype(np.float32)
        self.K_RESTR = self.F_RESTR[KF]
        self.K_SKIP = self.K_SYM == SKIP
        self.cards = deck.cards

        # Restrictions on wild draw cards (RULES.md 1.6): "hard" masks them, "challenge" allows bluffs.
        self.restricting = bool(self.F_RESTR.any()) and c.wild_draw_restriction != "none"
        self.challenge_on = self.restricting and c.challenge
        self.hard = self.restricting and not c.challenge
        self.retract = self.challenge_on and c.challenge_guilty == "retract_and_draw_2"
        self.enforce = c.uno_enforcement
        self.window_discard_only = c.uno_window_close == "next_card_discard"
        # Without voluntary draws a seat holding one playable card must play it: forced plays are
        # common and settling nearly always takes a second pass, which the rounds that the actions
        # ended can join (dealt with those the first pass ends: one deal fewer per step)
        self.deal_after_first_pass = not c.voluntary_draw
        self._build_tables()
        self.actions = A = build_actions(deck, P, c.seven_o)
        self.A = A.size
        self.A_KIND, self.A_FACE = A.kind, A.face.astype(np.intp)
        self.A_COUNTED = (A.kind != UNO) & (A.kind != CATCH) & (A.kind != CHOOSE)  # counts as a turn (E3)
        self.A_KEEPS_DECLARED = (A.kind == UNO) | (A.kind == CATCH)  # a declared UNO survives these
        self.A_COLOR, self.A_TARGET = A.color, A.target
        pf = np.maximum(A.face, 0).astype(np.intp)  # the active colour once action a is played
        self.A_NEW_COLOR = np.where(self.F_SYM[pf] == SWAP_IN_TURN, FREE,
                                    np.where(self.F_WILD[pf], A.color, self.F_COLOR[pf])).astype(np.int8)
        self.PLAY_IDS = _flat(A.kind == PLAY)
        self.PLAY_FACE = A.face[self.PLAY_IDS].astype(np.intp)
        assert np.array_equal(self.PLAY_IDS, np.arange(self.PLAY_IDS.size))  # plays come first
        self.N_PLAY = int(self.PLAY_IDS.size)
        self.PLAY_SEGMENTS = _segments(self.PLAY_FACE)
        if not self.two_sided:  # count legal plays by popcount: kinds grouped by actions per kind
            per = np.bincount(self.PLAY_FACE, minlength=self.K)  # play actions showing each kind
            per = np.where(self.F_TARGETED[: self.K], per - 1, per)  # a seat never targets itself
            self.PLAY_GROUPS = [(int(m), self.pack(per == m)[0]) for m in np.unique(per) if m > 0]
        tgt = A.target[self.PLAY_IDS]
        self.TGT_COLS = _flat(tgt >= 0)
        self.TGT_SEAT = tgt[self.TGT_COLS]
        self.ID = {k: int(_flat(A.kind == k)[0]) for k in (DRAW, KEEP, PASS, CHALLENGE, ACCEPT, UNO)}
        self.CATCH_IDS = _flat(A.kind == CATCH)
        self.CHOOSE_IDS = _flat(A.kind == CHOOSE)
        self.CHOOSE_SIDE = (A.color[self.CHOOSE_IDS] >= 4).astype(np.int8)
        j = np.arange(64)  # SEATS_AHEAD[2 * seat + (direction > 0), j]: the seat j turns on
        self.SEATS_AHEAD = np.stack([(s + j * d) % P for s in range(P) for d in (-1, 1)]).astype(np.intp)
        self.N_CHOOSE = np.bincount(self.CHOOSE_SIDE, minlength=2).astype(np.int16)  # per side
        self.log: list | None = None  # when a list: (row, seat, action) of every action applied
        self.pass_log: list | None = None  # when a list: (pass, rows, perf_counter()) as each settle pass starts
        self._later: list | None = None  # inside ``apply``: the draws waiting (``_take_cards``)
        self.memory = None  # core.memory.Memory: what the table has seen (observation v3), when asked for

    def _build_tables(self) -> None:
        c, F, K = self.config, self.F, self.K
        t = np.arange(F)
        fk = self.KF[self.F_SIDE[t].astype(np.intp)]  # (F, K): each kind's face on the top card's side
        xcol, xsym, xwild = self.F_COLOR[fk], self.F_SYM[fk], self.F_WILD[fk]
        twild = self.F_WILD[t][:, None]
        sym_match = (xsym == self.F_SYM[t][:, None]) & ~twild  # RULES.md 1.2 (3) and (4)
        col = np.arange(NC)
        col_match = (xcol[:, None, :] == col[None, :, None]) | (col == FREE)[None, :, None]
        normal = xwild[:, None, :] | col_match | sym_match[:, None, :]
        color_only = xwild[:, None, :] | col_match  # first_card_match=color_only (house_cn)
        # PLAYK[(top_face * NC + colour) * 2 + first_play] -> (K,) kinds playable on that top
        self.PLAYK = np.stack([normal, color_only if c.first_card_match == "color_only" else normal],
                              axis=2).reshape(F * NC * 2, K)
        xdraw, tdraw = self.F_DRAW[fk], self.F_DRAW[t][:, None]
        if c.stacking == "same_type":
            stack = (xsym == self.F_SYM[t][:, None]) & (xdraw > 0)
        elif c.stacking == "escalating":
            stack = (xdraw >= tdraw) & (xdraw > 0)
        else:
            stack = np.zeros((F, K), bool)
        self.STACKK = stack & (tdraw > 0)  # RULES.md 1.7; Wild Draw Colour never stacks
        self.IDENTK = (fk == t[:, None]) & (~twild | c.jump_in_wilds)  # RULES.md 1.8
        # The same tables as bitmasks over kinds, to test a whole hand with one AND per word
        self.W = (K + 63) // 64
        k = np.arange(K)
        self.KWORD = (k // 64).astype(np.intp)
        self.KBIT = np.left_shift(np.uint64(1), (k % 64).astype(np.uint64))
        self.PLAYBITS = self.pack(self.PLAYK)
        self.STACKBITS = self.pack(self.STACKK)
        self.IDENTBITS = self.pack(self.IDENTK)
        self.SKIPBITS = self.pack(self.K_SKIP)
        self.RESTRBITS = self.pack(self.K_RESTR)
        self.COLORBITS = self.pack(self.K_COLOR[:, None, :] == np.arange(NC)[None, :, None])  # (2, NC, W)
        if self.two_sided:
            # FACE_KINDS[f] lists the kinds showing face f on its side (padded with K: no kind)
            lists = [_flat(self.KF[self.F_SIDE[f]] == f) for f in range(F)]
            width = max(len(x) for x in lists)
            assert width <= 4  # refresh reads the kinds of a face as one 4-byte word
            width = 4
            self.FACE_KINDS = np.full((F, width), K, np.intp)
            for f, x in enumerate(lists):
                self.FACE_KINDS[f, :len(x)] = x
            self.SIDE_FACES = np.stack([self.F_SIDE == 0, self.F_SIDE == 1])  # (2, F)
            # refresh reads two kinds per face as one 2-byte word (column K of the padded unpack is
            # always False), then ORs in the faces shown by more than two kinds
            self.FACE_PAIRS = np.minimum(self.FACE_KINDS[:, :2], K).ravel()
            self.MANY_FACES = _flat((self.FACE_KINDS < K).sum(1) > 2)
            self.MANY_REST = self.FACE_KINDS[self.MANY_FACES, 2:].ravel()

    # ================================================================== bitmasks
    def pack(self, flags: np.ndarray) -> np.ndarray:
        """``(..., K) bool`` -> ``(..., W) uint64`` bitmasks (bit ``k % 64`` of word ``k // 64``)."""
        b = np.packbits(np.ascontiguousarray(flags, dtype=bool), axis=-1, bitorder="little")
        pad = self.W * 8 - b.shape[-1]
        if pad:
            b = np.concatenate([b, np.zeros(b.shape[:-1] + (pad,), np.uint8)], axis=-1)
        return np.ascontiguousarray(b).view(np.uint64)

    def unpack(self, bits: np.ndarray, pad: bool = False) -> np.ndarray:
        """``(n, W) uint64`` -> ``(n, K) bool`` (``(n, K + 1)`` with a False column K if ``pad``)."""
        u = np.unpackbits(np.ascontiguousarray(bits).view(np.uint8), axis=-1, count=self.K + pad,
                          bitorder="little")
        return u.view(bool)

    def resync(self, st: State, R, seats=None) -> None:
        """Recompute the held-kind bitmasks of seats (all seats of ``R`` when ``seats`` is None)."""
        if seats is None:
            st.held[R] = self.pack(st.hands[R] > 0)
        else:
            st.held[R, seats] = self.pack(st.hands[R, seats] > 0)

    # ================================================================== state
    def new_state(self, batch_size: int) -> State:
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size={batch_size!r} is not allowed; it must be a positive integer")
        return State.zeros(int(batch_size), self.P, self.K, self.N, self.A)

    def seed_rows(self, st: State, rows, seeds) -> None:
        st.seed[rows] = seeds
        st.key[rows] = chance.keys_from_seeds(np.broadcast_to(seeds, np.shape(st.seed[rows])))
        st.counter[rows] = 0

    def new_games(self, st: State, rows) -> None:
        """Start a new game in ``rows``: scores reset, a random dealer, the first deal."""
        rows = np.asarray(rows, np.intp)
        self._reset_games(st, rows)
        self.shuffle_and_deal(st, rows)

    def next_rounds(self, st: State, rows, settle: bool = True) -> None:
        """Deal the next round in finished ``rows``: the deal moves on (``next_dealer``); a game that is
        over starts again (one shuffle-and-deal for all of them).  ``settle=False`` leaves the forced
        first moves and the masks to the caller's next ``settle``."""
        rows = np.asarray(rows, np.intp)
        over = st.game_over[rows]
        if np.count_nonzero(over):
            self._reset_games(st, rows[over])
        cont = rows[~over]
        d = st.dealer[cont].astype(np.int64)
        left = (d + 1) % self.P
        if self.config.next_dealer == "round_winner":
            w = st.winner[cont]
            left = np.where(w >= 0, w, left)
        st.dealer[cont] = left
        self.shuffle_and_deal(st, rows, settle)

    def _reset_games(self, st: State, rows: np.ndarray) -> None:
        c = self.config
        st.scores[rows] = c.starting_points if c.scoring_mode == "penalty_countdown" else 0
        st.rounds[rows] = 0
        st.game_over[rows] = False
        st.dealer[rows] = chance.integers(st.key, st.counter, rows, self.P)

    def shuffle_and_deal(self, st: State, rows, settle: bool = True) -> None:
        perm = chance.permutations(st.key, st.counter, rows, np.full(len(rows), self.N), self.N)
        st.draw[rows] = self.cards[perm]
        st.draw_n[rows] = self.N
        self.deal_from_pile(st, rows, settle)

    def deal_from_pile(self, st: State, rows, settle: bool = True) -> None:
        """Deal from the draw pile as it lies (top first, one card at a time from the dealer's left),
        turn the first discard and apply the first-card rules (RULES.md 3.3, 5, 6.1, 7.2)."""
        R = np.asarray(rows, np.intp)
        n, P, K, h = len(R), self.P, self.K, self.config.hand_size
        hp = h * P
        j = np.arange(hp)
        cards = st.draw[R[:, None], st.draw_n[R][:, None] - 1 - j].astype(np.intp)
        seats = (st.dealer[R].astype(np.intp)[:, None] + 1 + j) % P
        flat = (np.arange(n)[:, None] * P + seats) * K + cards
        st.hands[R] = np.bincount(flat.ravel(), minlength=n * P * K).reshape(n, P, K)
        self.resync(st, R)
        st.hand_n[R] = h
        st.draw_n[R] -= hp
        for name, value in (("side", 0), ("direction", 1), ("pending", 0), ("pending_color", False),
                            ("challengeable", False), ("guilty", False), ("drawn", -1),
                            ("declared", False), ("vulnerable", False), ("drew_on", -1), ("first_play", True),
                            ("passes", 0), ("turns", 0), ("winner", -1), ("round_points", 0),
                            ("truncated", False), ("offer_rank", _NOT_ASKED), ("disc_n", 0),
                            ("pile_counts", 0), ("prev_pending", 0)):
            getattr(st, name)[R] = value
        if self.memory is not None:  # memory hook: a new round
            self.memory.reset(st, R)
        self._turn_first_card(st, R)
        self._first_card_redraws(st, R)
        self._first_card_effects(st, R)
        if settle:
            self.settle(st, R)

    def _turn_first_card(self, st: State, R: np.ndarray) -> None:
        top = st.draw[R, st.draw_n[R] - 1]
        st.draw_n[R] -= 1
        st.discard[R, st.disc_n[R]] = top
        st.disc_n[R] += 1
        st.pile_counts[R, top] += 1

    def _first_card_redraws(self, st: State, R: np.ndarray) -> None:
        c = self.config
        todo = R
        for _ in range(self.N):
            sym = self.F_SYM[self.KF[0, st.discard[todo, st.disc_n[todo] - 1]]]
            if c.first_card_mode == "apply":
                bad = self.F_RESTR[self.KF[0, st.discard[todo, st.disc_n[todo] - 1]]].copy()
                if self.two_sided and c.flip_first_card == "redraw":
                    bad |= sym == FLIP
            else:
                bad = sym >= 10
            todo = todo[bad]
            if todo.size == 0:
                return
            if c.first_card_mode == "redraw_action":  # house_cn: the card stays buried
                self._turn_first_card(st, todo)
                continue
            # return it to the draw pile, shuffle the pile, turn the next card
            top = st.discard[todo, st.disc_n[todo] - 1]
            st.disc_n[todo] -= 1
            st.pile_counts[todo, top] -= 1
            st.draw[todo, st.draw_n[todo]] = top
            st.draw_n[todo] += 1
            perm = chance.permutations(st.key, st.counter, todo, st.draw_n[todo], self.N)
            st.draw[todo] = st.draw[todo[:, None], perm]
            self._turn_first_card(st, todo)
        raise RuntimeError("no acceptable first card in the deck")  # pragma: no cover

    def _first_card_effects(self, st: State, R: np.ndarray) -> None:
        c, P = self.config, self.P
        dealer = st.dealer[R].astype(np.intp)
        first = (dealer + 1) % P
        face = self.KF[0, st.discard[R, st.disc_n[R] - 1]]
        sym = self.F_SYM[face]
        wild = self.F_WILD[face]
        st.color[R] = np.where(sym == SWAP_IN_TURN, FREE, np.where(wild, NO_COLOR, self.F_COLOR[face]))
        st.origin[R] = dealer
        st.prev_color[R] = st.color[R]
        nseat, nphase, chooser = first.copy(), np.full(len(R), TURN, np.int8), first.copy()
        if c.first_player == "count_from_initial":  # E32: the initial player counts as 1; 0 -> initial
            num = sym < 10
            nseat = np.where(num & (sym > 0), (first + sym - 1) % P, first)
        skip = sym == SKIP
        if np.count_nonzero(skip):
            nseat[skip] = (first[skip] + 1) % P
            if c.stack_skip:
                holds = self._holds(st, R[skip], first[skip], self.SKIPBITS[0])
                nseat[skip] = np.where(holds, first[skip], nseat[skip])
                nphase[skip] = np.where(holds, DEFLECT, TURN)
        rev = sym == REVERSE
        if np.count_nonzero(rev):
            st.direction[R[rev]] = -1
            right = (dealer[rev] - 1) % P
            nseat[rev] = dealer[rev] if (c.first_card_reverse == "dealer_first" or P == 2) else right
        drw = self.F_DRAW[face] > 0
        if np.count_nonzero(drw):
            st.pending[R[drw]] = self.F_DRAW[face[drw]]
            nphase[drw] = PENDING
        wl = wild & (sym != SWAP_IN_TURN)
        if np.count_nonzero(wl):
            nphase[wl] = PH_CHOOSE
            if c.first_card_wild_chooser == "dealer":
                chooser[wl] = dealer[wl]
        fl = sym == FLIP  # only with flip_first_card=apply (E20)
        if np.count_nonzero(fl):
            revealed_wild = self._flip(st, R[fl])
            if np.count_nonzero(revealed_wild):
                nphase[_flat(fl)[revealed_wild]] = PH_CHOOSE
                if c.flip_revealed_wild == "flipper":
                    chooser[_flat(fl)[revealed_wild]] = dealer[fl][revealed_wild]
        st.turn[R] = nseat
        st.phase[R] = nphase
        st.actor[R] = np.where(nphase == PH_CHOOSE, chooser, nseat)
        self._offer_jump_in(st, R, exclude_origin=False)

    # ================================================================== legality
    def _top_face(self, st: State, R: np.ndarray) -> np.ndarray:
        S = _sel(R)
        top = st.discard.reshape(-1)[R * self.N + st.disc_n[S] - 1]  # a flat gather: one index array
        return self.KF[st.side[S], top] if self.two_sided else top.astype(np.intp)  # one side: face = kind

    def _holds(self, st: State, R, seats, bits) -> np.ndarray:
        """(n,) whether each seat holds a kind in ``bits`` ((W,) or (n, W) bitmasks)."""
        return _any_bits(st.held[R, seats] & bits)

    def _matching(self, st: State, R, tface) -> np.ndarray:
        """(n, W) kinds that match the top card (face ``tface``) under the active colour, by the
        first-play rule where it applies: a ``PLAYBITS`` row per game."""
        S = _sel(R)
        return self.PLAYBITS[(tface * NC + st.color[S]) * 2 + st.first_play[S]]

    def _playable_bits(self, st: State, R, actor, side, tface) -> np.ndarray:
        """(n, W) kinds the actor may play in its own turn (matching and the hard restriction; ``side``
        is read from the state when ``None``, and only under the hard restriction)."""
        bits = self._matching(st, R, tface) & st.held[R, actor]
        if self.hard:
            if side is None:
                side = st.side[_sel(R)].astype(np.intp)
            bits = self._unless_guilty(st, R, actor, side, bits, bits)
        return bits

    def _unless_guilty(self, st: State, R, actor, side, bits, matched=None) -> np.ndarray:
        """``bits`` without the restricted wild draw kinds where playing one now would break the
        restriction (the hard restriction masks a bluff; ``matched`` as for ``_guilt``)."""
        g = self._guilt(st, R, actor, side, matched)
        return bits & ~np.where(g[:, None], self.RESTRBITS[side], np.uint64(0))

    def _guilt(self, st: State, R, actor, side, bits=None, color=None) -> np.ndarray:
        """(n,) whether playing a restricted wild draw card now breaks ``wild_draw_restriction``
        (``color``: the active colour to test instead of the current one, for ``color_only``)."""
        held = st.held[R, actor]
        if self.config.wild_draw_restriction == "color_only":  # holds a card of the active colour
            return _any_bits(held & self.COLORBITS[side, st.color[R] if color is None else color])
        if bits is None:  # no_playable: holds any other playable card (plain wilds included)
            bits = self._matching(st, R, self._top_face(st, R)) & held
        return _any_bits(bits & ~self.RESTRBITS[side])

    def _bit(self, bits: np.ndarray, kind: np.ndarray) -> np.ndarray:
        """(n,) whether bit ``kind[i]`` is set in ``bits[i]``."""
        return (bits[np.arange(kind.size), self.KWORD[kind]] & self.KBIT[kind]) != 0

    def refresh(self, st: State, R, bits: np.ndarray | None = None, tface: np.ndarray | None = None) -> None:
        """Recompute the legal-action mask of ``rows`` (``bits``: their turn-playable kinds, and
        ``tface``: the top card's face, if known)."""
        R = np.asarray(R, np.intp)
        if R.size == 0:
            return
        c = self.config
        S = _sel(R)
        phase = st.phase[S]
        actor = st.actor[S].astype(np.intp)
        has = np.bincount(phase, minlength=len(PHASE_NAMES)).tolist()  # rows per phase: skip absent ones
        side = st.side[S].astype(np.intp) if self.two_sided else np.zeros(R.size, np.intp)
        if bits is None:
            tface = self._top_face(st, R) if tface is None else tface
            bits = self._playable_bits(st, R, actor, side, tface)
        if has[TURN] < R.size:
            if tface is None and (has[PENDING] or has[JUMP]):
                tface = self._top_face(st, R)
            bits[phase != TURN] = 0
            if has[DRAWN]:
                i = _flat(phase == DRAWN)
                k = st.drawn[R[i]].astype(np.intp)
                bits[i, self.KWORD[k]] = self.KBIT[k]
            if has[PENDING]:
                i = _flat(phase == PENDING)
                # stacking (RULES.md 1.7); never on a going-out draw card (E10)
                can = ~st.pending_color[R[i]] & (st.hand_n[R[i], st.origin[R[i]]] > 0)
                b = self.STACKBITS[tface[i]] & st.held[R[i], actor[i]]
                if self.hard:
                    b = self._unless_guilty(st, R[i], actor[i], side[i], b)
                bits[i] = np.where(can[:, None], b, np.uint64(0))
            if has[JUMP]:
                i = _flat(phase == JUMP)  # a jump-in offer, or only a catch offer without jump-ins
                if c.jump_in:
                    b = self.IDENTBITS[tface[i]] & st.held[R[i], actor[i]]
                    if self.hard:  # RULES.md 1.2: the restriction binds a jump-in too
                        b = self._unless_guilty(st, R[i], actor[i], side[i], b)
                    bits[i] = b
                else:
                    bits[i] = 0
            if has[DEFLECT]:
                i = _flat(phase == DEFLECT)
                bits[i] = self.SKIPBITS[side[i]] & st.held[R[i], actor[i]]
        ok = self.unpack(bits, pad=self.two_sided)
        if self.two_sided:  # a face is playable if any kind showing it is: 4 kinds (bytes) per face
            u8 = ok.view(np.uint8)
            face_ok = u8.take(self.FACE_PAIRS, axis=1).view(np.uint16) != 0  # (n, F)
            if self.MANY_FACES.size:
                more = u8.take(self.MANY_REST, axis=1).view(np.uint16) != 0
                face_ok[:, self.MANY_FACES] |= more
            face_ok &= self.SIDE_FACES[side]
        else:
            face_ok = ok
        n = len(R)
        m = np.empty((n, self.A), bool)
        for a0, a1, f0, f1 in self.PLAY_SEGMENTS:  # a few slice copies instead of a gather
            m[:, a0:a1] = face_ok[:, f0:f1]
        m[:, self.N_PLAY:] = False
        if self.TGT_COLS.size:
            cols = self.TGT_COLS
            m[:, cols] &= self.TGT_SEAT[None, :] != actor[:, None]
        anyplay = _any_bits(bits)
        draw = ~anyplay  # in turn: draw when nothing fits, or whenever the rules allow (and a card is left)
        if c.voluntary_draw:
            draw |= (st.draw_n[S] > 0) | (st.disc_n[S] > 1)
        if has[TURN] == n:  # every row in turn: the other non-play columns stay False
            m[:, self.ID[DRAW]] = draw
            extra = draw.astype(np.int16)
        else:
            pend = phase == PENDING
            chal = st.challengeable[S]
            draw = ((phase == TURN) & draw) | (pend & ~chal)
            keep = (phase == DRAWN) & (c.drawn_card_play != "forced")
            passing = (phase == JUMP) | (phase == DEFLECT)
            answer = pend & chal
            m[:, self.ID[DRAW]] = draw
            m[:, self.ID[KEEP]] = keep
            m[:, self.ID[PASS]] = passing
            m[:, self.ID[CHALLENGE]] = answer
            m[:, self.ID[ACCEPT]] = answer
            # legal non-play actions, counted from the flags (cheaper than summing the mask's columns)
            extra = draw.astype(np.int16) + keep + passing + answer
            extra += answer  # challenge and accept
        if self.enforce != "off":
            uno = (st.hand_n[R, actor] == 2) & ~st.declared[S] & anyplay
            m[:, self.ID[UNO]] = uno
            extra += uno
            if self.enforce == "catch":
                v = st.vulnerable[S]
                if np.count_nonzero(v):
                    v = v.copy()
                    v[np.arange(n), actor] = False
                    m[:, self.CATCH_IDS] = v
                    extra += _count_row(v)
        if has[PH_CHOOSE]:  # the other rows' choose columns are already False
            ch = _flat(phase == PH_CHOOSE)
            m[ch[:, None], self.CHOOSE_IDS] = self.CHOOSE_SIDE[None, :] == side[ch, None]
            extra[ch] += self.N_CHOOSE[side[ch]]
        if has[OVER]:
            over = phase == OVER
            m[over] = False
            extra[over] = 0
        st.mask[S] = m
        if self.two_sided:
            st.nlegal[S] = m.view(np.uint8).sum(1, dtype=np.int16)
        else:
            nplay = sum(k * np.bitwise_count(bits & g).sum(1, dtype=np.int16) for k, g in self.PLAY_GROUPS)
            st.nlegal[S] = nplay + extra

    # ================================================================== step
    def step(self, st: State, actions: np.ndarray, autoreset: bool = False) -> StepResult:
        """Apply one action per game (ignored for games whose round is over), then the forced moves.

        With ``autoreset`` a finished round is followed at once by the next deal (a new game once
        the game is over); the result still describes the finished rounds.  Rounds ended by the
        actions are dealt before the forced moves are settled, so one settling pass serves both;
        under ``deal_after_first_pass`` they are dealt after the first pass, with the rounds it ends.
        A round that ends at its own deal (forced moves only, as with one-card hands) stays over and is
        reported by the next step, which deals again: one finished round per game and step.
        """
        actions = np.asarray(actions)
        B = st.batch_size
        if actions.shape != (B,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be an integer array of shape ({B},), got "
                             f"{actions.dtype} {actions.shape}")
        was_over = st.phase == OVER
        live = _flat(~was_over)
        if live.size == B:
            live = all_rows(B)
        self._validate(st, live, actions[_sel(live)])
        self.apply(st, live, actions[_sel(live)])
        if not autoreset:
            self.settle(st, live)
            return self.result(st, was_over)
        R = live
        if live.size < B:  # a round over before this step ended at its own deal (forced moves, as with
            # one-card hands) after the last step had reported one in that game: report it now, deal again
            R, was_over = all_rows(B), np.zeros(B, bool)
        out = self.result(st, was_over)
        self.deal_and_settle(st, R, out)
        return out

    def deal_and_settle(self, st: State, R: np.ndarray, out: StepResult) -> None:
        """The second half of an autoreset ``step`` (``out``: its result, over the whole batch): deal
        the next round where ``out`` reports one ended and settle ``R`` (the rows stepped) with them.
        A round that a forced move ends meanwhile is reported into ``out`` and dealt too; one that ends
        at the deal this step made stays over, for the next step to report."""
        ended = _flat(out.round_over)
        dealt = None
        if ended.size and not self.deal_after_first_pass:
            self.next_rounds(st, ended, settle=False)
            ended, dealt = ended[:0], ended

        def deal_on(over: np.ndarray) -> None:
            """Deal the next round in ``over``; report those a forced move ended (E2, E3, a play)."""
            late = over[~out.round_over[over]]  # the others are in ``out`` already
            more = self.result(st, np.zeros(late.size, bool), late)
            for name, arr in zip(StepResult._fields, more):
                getattr(out, name)[late] = arr
            self.next_rounds(st, over, settle=False)

        self.settle(st, R, on_over=deal_on, ended=ended, already_dealt=dealt)

    def step_rows(self, st: State, R: np.ndarray, actions: np.ndarray) -> StepResult:
        """Apply ``actions`` in the games ``R`` only (all in play); the result covers those rows."""
        R, actions = self.check_rows(st, R, actions)
        self.apply(st, R, actions)
        self.settle(st, R)
        return self.result(st, np.zeros(R.size, bool), R)

    def check_rows(self, st: State, R, actions) -> tuple[np.ndarray, np.ndarray]:
        """``step_rows``' checks (one integer action per row, rows in play, legal actions): ``R`` and
        ``actions`` as arrays, or an error naming what is wrong; nothing is changed."""
        R = np.asarray(R, np.intp)
        actions = np.asarray(actions)
        if actions.shape != R.shape or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integers, one per row ({R.size}), got {actions.dtype} "
                             f"{actions.shape}")
        over = st.phase[R] == OVER
        if np.count_nonzero(over):
            raise ValueError(f"game {int(R[over][0])} is over; deal its next round before stepping it")
        self._validate(st, R, actions)
        return R, actions

    def _validate(self, st: State, R: np.ndarray, a: np.ndarray) -> None:
        bad = (a < 0) | (a >= self.A)
        if not np.count_nonzero(bad):
            bad = ~st.mask[R, a]
        if np.count_nonzero(bad):
            i = int(_flat(bad)[0])
            raise IllegalActionError(self.describe_illegal(st, int(R[i]), int(a[i])))

    def describe_illegal(self, st: State, row: int, action: int) -> str:
        name = self.actions.names[action] if 0 <= action < self.A else f"id {action}"
        legal = [self.actions.names[j] for j in _flat(st.mask[row])]
        return (f"illegal action {name!r} for seat {int(st.actor[row])} in game {row}; legal actions "
                f"are: {', '.join(legal) if legal else 'none (the round is over)'}")

    def result(self, st: State, was_over: np.ndarray, R: np.ndarray | None = None) -> StepResult:
        """What happened in rows ``R`` (default: all) since ``was_over`` (their phase-OVER flags)."""
        P = self.P
        R = all_rows(st.batch_size) if R is None else R
        S = _sel(R)  # the whole batch: views instead of gathers
        n = R.size
        ended = (st.phase[S] == OVER) & ~was_over
        rewards = np.zeros((n, P), np.float32)
        game_rewards = np.zeros((n, P), np.float32)
        e = _flat(ended)
        if e.size:
            w = st.winner[R[e]].astype(np.intp)
            valid = w >= 0
            r = np.zeros((e.size, P), np.float32)
            r[valid] = -1.0
            r[_flat(valid), w[valid]] = 1.0
            rewards[e] = r
            g = e[st.game_over[R[e]]]
            if g.size:
                game_rewards[g] = np.where(self.game_winners(st, R[g]), 1.0, -1.0)
        return StepResult(ended, rewards, ended & st.game_over[S], game_rewards, ended & st.truncated[S],
                          np.where(ended, st.winner[S], -1).astype(np.int8),
                          np.where(ended, st.round_points[S], 0), st.scores[S].copy())

    def settle(self, st: State, R: np.ndarray, on_over=None, ended=None, already_dealt=None) -> None:
        """After ``R`` changed: take every forced move (a single legal action, SCENARIOS.md) until each
        game waits on a real choice, and refresh the masks of ``R``.

        Chains of forced draws (a seat with nothing to play draws, the card does not fit, the next seat
        has nothing either...) are the commonest forced moves; ``_draw_chains`` resolves a whole chain
        in one vectorized pass, since neither the top card nor the pile order changes along it.

        ``on_over(rows)``, if given, is called with the rows whose round a forced move ended, once per
        row; it deals their next round (unsettled), which then joins the next pass, so one loop of
        passes settles both rounds.  The ended rows are gathered over two passes (or until nothing
        else is left) and given to ``on_over`` together: a deal costs about the same for few rows as
        for many.  ``ended``: rows whose round was already over, given to ``on_over`` with those the
        first pass ends.  ``already_dealt``: rows dealt in this step; like those given to ``on_over``,
        a round of theirs that ends now stays over (one finished round per game and step).
        """
        R = np.asarray(R, np.intp)
        waiting = None  # rows whose round ended, not yet given to on_over
        deal_parity = 1  # deal after passes 1, 3, 5...
        dealt = None  # (B,) bool: the rows dealt in this step, given to on_over or waiting for it
        if already_dealt is not None and already_dealt.size:
            dealt = np.zeros(st.batch_size, bool)
            dealt[already_dealt] = True
        if ended is not None and ended.size:
            waiting, deal_parity = ended, 0  # ...or 0, 2, 4... when rows wait from the start
            if dealt is None:
                dealt = np.zeros(st.batch_size, bool)
            dealt[ended] = True
        for k in range(_MAX_FORCED_PASSES):
            if R.size == 0:
                return
            if self.pass_log is not None:  # benchmarks/profile_core.py --passes
                self.pass_log.append((k, R.size, time.perf_counter()))
            tface = self._top_face(st, R)  # no forced penalty or draw changes the top card
            if self.bulk_forced_moves:
                self._forced_penalties(st, R, tface)
            bits, chain = self._forced_draw_rows(st, R, tface)
            if chain.size and self.bulk_forced_moves:
                Rc, tc = R[chain], tface[chain]
                self._draw_chains(st, Rc, tc)
                # the chains changed who is asked: recompute those rows
                bits[chain] = self._playable_bits(st, Rc, st.actor[Rc].astype(np.intp), None, tc)
            self.refresh(st, R, bits, tface)
            F = R[st.nlegal[_sel(R)] == 1]
            if F.size:
                self.apply(st, F, st.mask[F].argmax(1))
            if on_over is not None:
                over = R[st.phase[_sel(R)] == OVER]
                if over.size and dealt is not None:
                    over = over[~dealt[over]]  # a round ended twice in one step stays over
                if over.size:
                    F = F[st.phase[F] != OVER]
                    waiting = over if waiting is None else np.concatenate([waiting, over])
                # a deal costs the same for 3 rows as for 30: deal every other pass, or when nothing
                # else is left to settle; the new rounds join the next pass either way
                if waiting is not None and (k % 2 == deal_parity or F.size == 0):
                    on_over(waiting)
                    if dealt is None:
                        dealt = np.zeros(st.batch_size, bool)
                    dealt[waiting] = True
                    F = np.sort(np.concatenate([F, waiting]))
                    waiting = None
            if F.size == 0:
                return
            R = F
        raise RuntimeError("forced moves did not terminate")  # pragma: no cover

    def _forced_penalties(self, st: State, R: np.ndarray, tface: np.ndarray) -> None:
        """Victims of a draw penalty with nothing to answer (no stack, no challenge, nobody to catch)
        take it at once; a forced move, taken here without a pass through the masks."""
        S = _sel(R)
        sel = st.phase[S] == PENDING
        if self.challenge_on:  # otherwise nothing is ever challengeable
            sel &= ~st.challengeable[S]
        pend = R[sel]
        if pend.size == 0:
            return
        victim = st.actor[pend].astype(np.intp)
        if self.config.stacking != "none":
            can = ~st.pending_color[pend] & (st.hand_n[pend, st.origin[pend]] > 0)
            stack = self.STACKBITS[tface[sel]] & st.held[pend, victim]
            if self.hard:
                stack = self._unless_guilty(st, pend, victim, st.side[pend].astype(np.intp), stack)
            keep = ~(can & _any_bits(stack))
            pend, victim = pend[keep], victim[keep]
        if self.enforce == "catch" and pend.size:
            v = st.vulnerable[pend]
            if np.count_nonzero(v):
                v[np.arange(pend.size), victim] = False
                keep = ~_any_row(v)
                pend, victim = pend[keep], victim[keep]
        if pend.size == 0:
            return
        if self.log is not None:
            self.log.extend((int(r), int(s), self.ID[DRAW]) for r, s in zip(pend, victim))
        st.turns[pend] += 1
        self._take_penalty(st, pend)
        st.declared[pend] = False
        over = pend[(st.turns[pend] >= self.config.max_turns_per_round) & (st.phase[pend] != OVER)]
        if over.size:  # E3
            self._finish_blocked(st, over, truncated=True)

    def _forced_draw_rows(self, st: State, R: np.ndarray, tface: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The kinds each seat asked in ``R`` may play in its turn ((n, W) bits, for ``refresh``) and the
        positions in ``R`` of the seats that can only draw: own turn, nothing playable, nobody to catch."""
        S = _sel(R)
        actor = st.actor[S].astype(np.intp)
        bits = self._playable_bits(st, R, actor, None, tface)
        forced = (st.phase[S] == TURN) & ~_any_bits(bits)
        if self.enforce != "off":
            v = st.vulnerable[S]
            if np.count_nonzero(v):
                v = v.copy()
                v[np.arange(R.size), actor] = False
                forced &= ~_any_row(v)
        return bits, _flat(forced)

    def _draw_chains(self, st: State, R: np.ndarray, tface: np.ndarray) -> None:
        """Resolve chains of forced draws starting with the seat asked in ``R`` (which must draw).

        Seat j of the chain (j = 0 is the seat asked, then on in the direction of play) draws the
        j-th card from the top of the pile unless it holds a playable card; the chain stops at the
        first seat holding a playable card (its turn) or drawing one (it may play it: phase DRAWN).
        When the pile runs out mid-chain the discard pile is reshuffled at that moment, exactly as
        one draw at a time would, and the chain goes on.  What cannot be settled this way (no card
        left to draw, two full laps, ``max_turns_per_round``) is left to the general path.
        """
        for _ in range(100_000):  # a reshuffle keeps the top card, so ``tface`` holds throughout
            short = self._chain_pass(st, R, tface)  # rows whose chain goes on past this pass
            if not np.count_nonzero(short):
                return
            R, tface = R[short], tface[short]
            out = st.draw_n[R] == 0
            if np.count_nonzero(out):
                self._reshuffle(st, R[out])
                empty = out & (st.draw_n[R] == 0)
                if np.count_nonzero(empty):
                    self._pass_chain(st, R[empty], tface[empty])
                R, tface = R[~empty], tface[~empty]

    def _pass_chain(self, st: State, R: np.ndarray, tface: np.ndarray) -> None:
        """Nothing left to draw (E1): each seat without a playable card passes in turn until one can
        play; a full cycle of passes ends the round as blocked (E2)."""
        P = self.P
        n = R.size
        ar = np.arange(n)
        has_play = _any_bits(st.held[R] & self._matching(st, R, tface)[:, None, :])
        if self.hard:  # rare: leave restricted hands to the general path
            return
        j = np.arange(P + 1)[None, :]
        seat = (st.actor[R].astype(np.intp)[:, None] + j * st.direction[R].astype(np.intp)[:, None]) % P
        hp = has_play[ar[:, None], seat]
        hp[:, 0] = False
        k = np.where(hp.any(1), hp.argmax(1), P + 1)  # seats 0..k-1 pass
        passes = st.passes[R] + k
        room = self.config.max_turns_per_round - st.turns[R]
        blocked = passes >= P
        ok = (k < room) & ~blocked
        if np.count_nonzero(ok):
            Ro = R[ok]
            nxt = seat[_flat(ok), k[ok]]
            st.passes[Ro] = passes[ok]
            st.turns[Ro] += k[ok].astype(np.int32)
            st.declared[Ro] = False
            passed = np.arange(P + 1)[None, :] < k[ok][:, None]
            st.drew_on[np.repeat(Ro, passed.sum(1)), seat[ok][passed]] = np.repeat(st.color[Ro], passed.sum(1))
            if self.memory is not None:  # memory hook: passes on the active colour
                self.memory.lacked(st, np.repeat(Ro, passed.sum(1)), seat[ok][passed])
            st.actor[Ro] = nxt
            st.turn[Ro] = nxt
            if self.log is not None:
                for i in _flat(ok).tolist():
                    self.log.extend((int(R[i]), int(seat[i, q]), self.ID[DRAW]) for q in range(int(k[i])))
        b = blocked & ((P - st.passes[R]) < room)
        if np.count_nonzero(b):  # the P-th consecutive pass blocks the round
            Rb = R[b]
            q = (P - st.passes[Rb]).astype(np.int64)
            if self.log is not None:
                for i, qi in zip(_flat(b).tolist(), q.tolist()):
                    self.log.extend((int(R[i]), int(seat[i, t]), self.ID[DRAW]) for t in range(qi))
            st.turns[Rb] += q.astype(np.int32)
            st.passes[Rb] = P
            self._finish_blocked(st, Rb)

    def _chain_pass(self, st: State, R: np.ndarray, tface: np.ndarray) -> np.ndarray:
        """One pass of ``_draw_chains`` over the current piles (``tface``: the top card's face per row);
        returns which rows of ``R`` (a boolean mask) have a chain that goes on: it reached the end of
        the draw pile or of the look-ahead window."""
        c, P = self.config, self.P
        n = R.size
        J = self.chain_window  # most chains end within a few seats; longer ones take another pass
        if c.drawn_card_play == "never":  # a seat may draw a card it can play and still pass the turn:
            J = min(J, P)  # a pass must not meet it again, since ``has_play`` is read at the pass's start
        ar = np.arange(n)
        playb = self._matching(st, R, tface)  # (n, W) kinds playable on the (fixed) top card
        held = st.held[R]  # (n, P, W)
        okb = held & playb[:, None, :]
        if self.hard:  # the restricted wild draw cards a seat may not play now
            side = st.side[R].astype(np.intp)
            restr = self.RESTRBITS[side][:, None, :]
            if c.wild_draw_restriction == "color_only":
                guilt = _any_bits(held & self.COLORBITS[side, st.color[R]][:, None, :])
            else:
                guilt = _any_bits(okb & ~restr)
            okb &= ~np.where(guilt[:, :, None], restr, np.uint64(0))
        has_play = _any_bits(okb)  # (n, P)
        d = st.direction[R].astype(np.intp)
        j = np.arange(J)[None, :]
        actor = st.actor[R].astype(np.intp)
        seat = self.SEATS_AHEAD[:, :J][actor * 2 + (d > 0)]  # (n, J): the seats j turns on from the actor
        dn = st.draw_n[R].astype(np.intp)
        card = st.draw.reshape(-1)[(R * self.N)[:, None] + np.maximum(dn[:, None] - 1 - j, 0)].astype(np.intp)
        hp = has_play.reshape(-1)[(ar * P)[:, None] + seat]  # (n, J): seat j holds a playable card
        hp[:, 0] = False
        if c.drawn_card_play != "never":  # seat j's card (from the top) is playable
            word = playb[:, 0, None] if self.W == 1 else playb.reshape(-1)[(ar * self.W)[:, None] + self.KWORD[card]]
            dp = ((word & self.KBIT[card]) != 0) & (j < dn[:, None])
        else:
            dp = np.zeros((n, J), bool)
        stop = hp | dp
        js = stop.argmax(1)
        by_draw = dp[ar, js] & ~hp[ar, js]
        L = js + by_draw  # cards drawn along the chain
        room = c.max_turns_per_round - st.turns[R]
        done = _any_row(stop) & (L <= dn) & (L < room)
        # no stop in sight: draw as far as this pass has checked, then go on.  The seat after the last
        # drawer must be one checked too (position J - 1 at most): the next pass assumes it must draw
        reach = np.minimum(dn, J - 1)
        short = ~done & (reach < room)
        L = np.where(done, L, np.where(short, reach, 0))
        take = _flat(L > 0)
        if take.size:
            if take.size < n:  # usually every chain draws: then no row filter
                Rt, seat_t, card_t, L_t = R[take], seat[take], card[take], L[take]
            else:
                Rt, seat_t, card_t, L_t = R, seat, card, L
            self._add_cards(st, Rt, seat_t, card_t, L_t)
            st.draw_n[Rt] -= L_t.astype(np.int16)
            st.vulnerable[Rt, seat_t[:, 0]] = False  # E28: the first seat's hand grew
            st.passes[Rt] = 0
            st.turns[Rt] += L_t.astype(np.int32)
            st.declared[Rt] = False
            drew = np.arange(J)[None, :] < L_t[:, None]
            cell = (Rt * P)[:, None] + seat_t  # flat (game, seat); cells past L repeat cell 0's write
            cell = cell[:, :1] + (cell - cell[:, :1]) * drew
            st.drew_on.reshape(-1)[cell] = st.color[Rt][:, None]
            if self.memory is not None:  # memory hook: forced draws on the active colour
                self.memory.chain_drew(st, Rt, seat_t, L_t)
            if self.log is not None:
                draw_id = self.ID[DRAW]
                for i in take.tolist():
                    self.log.extend((int(R[i]), int(seat[i, k]), draw_id) for k in range(int(L[i])))
        m = done | short
        k = np.count_nonzero(m)
        if k:
            mi = slice(None) if k == n else _flat(m)  # usually every chain stops or goes on
            Rm = R[mi]
            end = np.where(done, js, reach)[mi]  # or the next seat to draw: position min(dn, J)
            last = (actor[mi] + end * d[mi]) % P
            st.actor[Rm] = last
            st.turn[Rm] = last
            bd = (by_draw & done)[mi]
            st.phase[Rm] = np.where(bd, DRAWN, TURN)
            st.drawn[Rm] = np.where(bd, card[ar[mi], np.minimum(end, J - 1)], -1)
        return short

    def apply(self, st: State, R: np.ndarray, a: np.ndarray) -> None:
        """Apply legal actions ``a`` in rows ``R`` (no validation, no mask refresh: see ``settle``)."""
        if self.log is not None:
            self.log.extend(zip(R.tolist(), st.actor[R].tolist(), np.asarray(a).tolist()))
        kind = self.A_KIND[a]
        present = np.bincount(kind, minlength=9).tolist()
        S = _sel(R)
        st.turns[S] += self.A_COUNTED[a]
        self._later = []  # the handlers' draws are made together, below (_take_cards)
        try:
            for k, handler in ((PLAY, self._play), (DRAW, self._draw_action), (KEEP, self._keep),
                               (PASS, self._pass), (CHALLENGE, self._challenge), (ACCEPT, self._take_penalty),
                               (UNO, self._uno), (CATCH, self._catch), (CHOOSE, self._choose)):
                if present[k]:
                    sel = _flat(kind == k) if present[k] < len(R) else slice(None)
                    handler(st, R[sel], a[sel])
            later = self._later
        finally:
            self._later = None
        if later:
            self._take_queued_cards(st, later)
        st.declared[S] &= self.A_KEEPS_DECLARED[a]
        turns = st.turns[S]
        if turns.size and turns.max() >= self.config.max_turns_per_round:  # E3: blocked, reported truncated
            over = R[(turns >= self.config.max_turns_per_round) & (st.phase[S] != OVER)]
            if over.size:
                self._finish_blocked(st, over, truncated=True)

    def wrong_card_penalty(self, st: State, R: np.ndarray) -> None:
        """The seeds' wrong-card rule for an illegal action (RULES.md 12.11): the card goes back, the
        seat asked draws 2 and, on its own turn, the turn passes; other decisions are asked again."""
        R = np.asarray(R, np.intp)
        seat = st.actor[R].astype(np.intp)
        if self.log is not None:
            self.log.extend((int(r), int(s), -1) for r, s in zip(R, seat))
        self._draw(st, R, seat, np.full(R.size, 2))
        own = (st.phase[R] == TURN) | (st.phase[R] == DRAWN)
        if np.count_nonzero(own):
            Ro = R[own]
            st.drawn[Ro] = -1
            st.declared[Ro] = False
            self._goto(st, Ro, self._next(st, Ro, seat[own], 1), TURN)
        self.settle(st, R)

    # ================================================================== actions
    def _uno(self, st: State, R, a) -> None:
        st.declared[R] = True

    def _catch(self, st: State, R, a) -> None:
        t = self.A_TARGET[a].astype(np.intp)
        st.vulnerable[R, t] = False
        self._take_cards(st, R, t, np.full(len(R), self.config.uno_penalty, np.int64), np.zeros(len(R), bool), 0)

    def _choose(self, st: State, R, a) -> None:
        if self.memory is not None:  # memory hook: a colour declared
            self.memory.chose(st, R, st.actor[R].astype(np.intp), a)
        st.color[R] = self.A_COLOR[a]
        st.actor[R] = st.turn[R]
        st.phase[R] = TURN

    def _keep(self, st: State, R, a) -> None:
        st.drawn[R] = -1
        self._goto(st, R, self._next(st, R, st.actor[R], 1), TURN)

    def _pass(self, st: State, R, a) -> None:
        phase = st.phase[R]
        j = _flat(phase == JUMP)
        if j.size:
            Rj = R[j]
            rank = st.offer_rank[Rj].astype(np.int16)
            cur = rank[np.arange(len(Rj)), st.actor[Rj]]
            later = np.where(rank > cur[:, None], rank, _NOT_ASKED)
            nxt = later.argmin(1)
            more = later.min(1) < _NOT_ASKED
            st.actor[Rj] = np.where(more, nxt, st.turn[Rj])
            st.phase[Rj] = np.where(more, JUMP, st.resume[Rj])
            st.offer_rank[Rj[~more]] = _NOT_ASKED
        d = _flat(phase == DEFLECT)
        if d.size:  # the Skip stands: the victim loses its turn (E33)
            Rd = R[d]
            self._goto(st, Rd, self._next(st, Rd, st.actor[Rd], 1), TURN)

    def _draw_action(self, st: State, R, a) -> None:
        pend = st.phase[R] == PENDING
        if np.count_nonzero(pend):
            self._take_penalty(st, R[pend], a[pend])
            R, a = R[~pend], a[~pend]
            if R.size == 0:
                return
        actor = st.actor[R].astype(np.intp)
        self._take_cards(st, R, actor, np.ones(len(R), np.int64), np.zeros(len(R), bool), 0,
                       lambda got, kind: self._after_draw(st, R, actor, got, kind))

    def _after_draw(self, st: State, R, actor, got, kind) -> None:
        """A seat drew one card in its turn (``got``: 0 or 1, ``kind``: the card): it may play it, or the
        turn passes; with nothing left to draw a full cycle of passes blocks the round."""
        st.drew_on[R, actor] = st.color[R]  # public: it drew (or passed) on this colour
        if self.memory is not None:  # memory hook: a draw or pass on the active colour
            self.memory.lacked(st, R, actor)
        self._close_windows(st, R, actor, discard=False)
        none = got == 0
        st.passes[R] = np.where(none, st.passes[R] + 1, 0)
        playable = np.zeros(len(R), bool)
        i = _flat(~none)
        if i.size and self.config.drawn_card_play != "never":
            Ri = R[i]
            side = st.side[Ri].astype(np.intp)
            bits = self._playable_bits(st, Ri, actor[i], side, self._top_face(st, Ri))
            playable[i] = self._bit(bits, kind[i])
        st.drawn[R] = np.where(playable, kind, -1)
        st.phase[R[playable]] = DRAWN
        end = ~playable
        if np.count_nonzero(end):
            Re = R[end]
            self._goto(st, Re, self._next(st, Re, actor[end], 1), TURN)
        blocked = R[none & (st.passes[R] >= self.P)]
        if blocked.size:  # E2: a full cycle of passes with nothing to draw
            self._finish_blocked(st, blocked)

    def _take_penalty(self, st: State, R, a=None) -> None:
        """The victim draws the pending penalty (``draw`` or ``accept``)."""
        victim = st.actor[R].astype(np.intp)
        origin = st.origin[R].astype(np.intp)
        out = st.hand_n[R, origin] == 0  # E8: a going-out wild draw card was accepted
        n, until = st.pending[R].astype(np.int64), st.pending_color[R]
        st.challengeable[R] = False  # settled: a reshuffle now keeps only the top card (E26)
        if not self.config.last_card_draw_applies:
            n, until = np.where(out, 0, n), until & ~out

        def then(*_) -> None:
            self._clear_pending(st, R)
            self._close_windows(st, R, victim, discard=False)
            self._after_penalty(st, R, victim, out)
            if self.config.stacking == "none":  # RULES.md 1.7: the victim drew at once; now the card is open
                self._offer_jump_in(st, R, exclude_origin=True)  # to jump-ins, counted from the jumper (1.8)
        self._take_cards(st, R, victim, n, until, 0, then)

    def _after_penalty(self, st: State, R, victim, out) -> None:
        Rr, v = R, victim
        if np.count_nonzero(out):  # E8: the round ends
            self._finish(st, R[out], st.origin[R[out]].astype(np.intp))
            rest = ~out
            Rr, v = R[rest], victim[rest]
        if Rr.size:
            nxt = self._next(st, Rr, v, 1) if self.config.draw_penalty_skips_turn else v
            self._goto(st, Rr, nxt, TURN)

    def _challenge(self, st: State, R, a) -> None:
        c = self.config
        victim = st.actor[R].astype(np.intp)
        off = st.origin[R].astype(np.intp)
        g = st.guilty[R]
        if self.memory is not None:  # memory hook: the hand is shown to the challenger
            self.memory.challenged(st, R, victim, off, g)
        st.challengeable[R] = False  # settled: a reshuffle now keeps only the top card (E26)
        self._close_windows(st, R, victim, discard=False)
        gi = _flat(g)
        if gi.size:
            Rg, og = R[gi], off[gi]
            if self.retract:  # RULES.md 1.6: the card returns, the offender draws 2 (E26)
                top = st.discard[Rg, st.disc_n[Rg] - 1]
                st.disc_n[Rg] -= 1
                st.pile_counts[Rg, top] -= 1
                st.hands[Rg, og, top] += 1
                st.held[Rg, og, self.KWORD[top]] |= self.KBIT[top]
                st.hand_n[Rg, og] += 1
                if self.memory is not None:  # memory hook: the card goes back in front of everyone
                    self.memory.returned(st, Rg, og, top)
                st.color[Rg] = st.prev_color[Rg]
                st.vulnerable[Rg, og] = False
                n, until = 2 + st.prev_pending[Rg].astype(np.int64), np.zeros(len(Rg), bool)
            else:  # offender_suffers: the offender draws the penalty; the victim plays normally
                n, until = st.pending[Rg].astype(np.int64), st.pending_color[Rg]
            vg = victim[gi]

            def guilty_then(*_) -> None:
                self._clear_pending(st, Rg)
                self._goto(st, Rg, vg, TURN)
            self._take_cards(st, Rg, og, n, until, 0, guilty_then)
        ii = _flat(~g)
        if ii.size:  # innocent: the challenger draws the penalty plus challenge_extra
            Ri, vi = R[ii], victim[ii]
            out = st.hand_n[Ri, off[ii]] == 0  # the offender's hand: the challenger's draw leaves it

            def innocent_then(*_) -> None:
                self._clear_pending(st, Ri)
                self._after_penalty(st, Ri, vi, out)
            self._take_cards(st, Ri, vi, st.pending[Ri].astype(np.int64), st.pending_color[Ri], c.challenge_extra,
                           innocent_then)

    def _clear_pending(self, st: State, R) -> None:
        st.pending[R] = 0
        st.pending_color[R] = False
        st.challengeable[R] = False
        st.guilty[R] = False

    def _play(self, st: State, R, a) -> None:
        c, P = self.config, self.P
        n = len(R)
        actor = st.actor[R].astype(np.intp)
        side = st.side[R].astype(np.intp) if self.two_sided else np.zeros(n, np.intp)
        face = self.A_FACE[a]
        sym = self.F_SYM[face]
        if self.two_sided:
            kind = self._pick_kind(st, R, actor, face)
        else:
            kind = face
        if self.challenge_on:
            restr = self.F_RESTR[face]
            st.prev_color[R] = st.color[R]
            st.prev_pending[R] = st.pending[R]
            guilty = np.zeros(n, bool)
            i = _flat(restr)
            if i.size:
                guilty[i] = self._guilt(st, R[i], actor[i], side[i])
            st.guilty[R] = guilty
            st.challengeable[R] = restr
        fs = R * P + actor  # flat (game, seat)
        hn = st.hand_n.reshape(-1)[fs]
        had_two = hn == 2
        out = hn == 1  # the last card
        flat = fs * self.K + kind
        hf = st.hands.reshape(-1)
        hf[flat] -= 1
        gone = hf[flat] == 0
        if np.count_nonzero(gone):  # the last copy of that kind left the hand
            kg = kind[gone]
            st.held.reshape(-1)[fs[gone] * self.W + self.KWORD[kg]] &= ~self.KBIT[kg]
        st.hand_n.reshape(-1)[fs] = hn - 1
        dn = st.disc_n[R]
        st.discard.reshape(-1)[R * self.N + dn] = kind
        st.disc_n[R] = dn + 1
        st.pile_counts.reshape(-1)[R * self.K + kind] += 1
        st.first_play[R] = False
        st.drawn[R] = -1
        st.passes[R] = 0
        st.origin[R] = actor
        st.drew_on.reshape(-1)[fs] = -1
        if self.memory is not None:  # memory hook: a card played (before its effect)
            self.memory.played(st, R, actor, kind, a)
        st.color[R] = self.A_NEW_COLOR[a]
        # E27: an out-of-turn jump-in is a discard but not the next player beginning a turn
        self._close_windows(st, R, actor, discard=True, in_turn=st.phase[R] != JUMP)
        d = st.direction[R].astype(np.intp)
        nseat = (actor + d) % P
        nphase = np.full(n, TURN, np.int8)
        chooser = None  # who declares a colour revealed by a Flip
        fx = int(np.bitwise_or.reduce(self.F_FX[face]))  # the effects present among these plays

        live = ~out
        if fx & _FX_REVERSE:
            rv = (sym == REVERSE) & live  # RULES.md 1.9: a last card's Reverse is void
            st.direction[R[rv]] = -d[rv]
            if P == 2 and c.two_player_reverse == "skip":  # E24
                nseat[rv] = actor[rv]
            else:
                nseat[rv] = (actor[rv] - d[rv]) % P
        sk = _flat(sym == SKIP) if fx & _FX_SKIP else ()
        if len(sk):
            victim = nseat[sk]
            nseat[sk] = (actor[sk] + 2 * d[sk]) % P
            if c.stack_skip:  # the victim may pass the Skip on (RULES.md 1.7, E33)
                holds = self._holds(st, R[sk], victim, self.SKIPBITS[side[sk]])
                nseat[sk] = np.where(holds, victim, nseat[sk])
                nphase[sk] = np.where(holds, DEFLECT, TURN)
        if fx & _FX_SKIP_EVERYONE:
            se = sym == SKIP_EVERYONE
            nseat[se] = actor[se]
        dr = _flat(self.F_IS_DRAW[face]) if fx & _FX_DRAW else ()
        if len(dr):
            st.pending[R[dr]] += self.F_DRAW[face[dr]]
            st.pending_color[R[dr]] |= sym[dr] == WILD_DRAW_COLOR
            nphase[dr] = PENDING
        sw = _flat(self.F_TARGETED[face] & live) if fx & _FX_TARGETED else ()
        if len(sw):
            self._exchange(st, R[sw], actor[sw], self.A_TARGET[a[sw]].astype(np.intp))
        ro = _flat(self.F_ROTATE[face] & live) if fx & _FX_ROTATE else ()
        if len(ro):
            self._rotate(st, R[ro], d[ro])
        fl = (_flat((sym == FLIP) & (live | (c.flip_as_last_card == "flip_before_scoring")))
              if fx & _FX_FLIP else ())
        if len(fl):
            wild_top = self._flip(st, R[fl])
            w = fl[wild_top & live[fl]]
            nphase[w] = PH_CHOOSE
            chooser = nseat.copy()
            chooser[w] = actor[w] if c.flip_revealed_wild == "flipper" else nseat[w]

        o = _flat(out)
        L = slice(None)  # the rows still in play: all of them unless a seat went out
        if o.size:
            if not c.last_card_draw_applies and self.challenge_on:  # its draw is void: nothing to challenge
                st.challengeable[R[o]] = False
            defer = st.challengeable[R[o]]  # E8: the challenge resolves before the round ends
            last_draw = self.F_IS_DRAW[face[o]] & ~defer & c.last_card_draw_applies
            fin = o[~defer & ~last_draw]
            self._finish(st, R[fin], actor[fin])
            ld = o[last_draw]
            if ld.size:  # RULES.md 1.9: the next seat still draws (E9, E10: no stacking), then the round ends
                Rd, ad = R[ld], actor[ld]

                def then(*_) -> None:
                    self._clear_pending(st, Rd)
                    self._finish(st, Rd, ad)
                self._take_cards(st, Rd, nseat[ld], st.pending[Rd].astype(np.int64), st.pending_color[Rd], 0, then)
            live[o[defer]] = True  # the victim answers the challengeable card first
            L = _flat(live)
            if L.size == 0:
                return
        RL = R[L]
        st.turn[RL] = nseat[L]
        st.phase[RL] = nphase[L]
        st.actor[RL] = nseat[L] if chooser is None else chooser[L]
        if self.enforce != "off":  # RULES.md 1.5, E16: checked after the whole effect; a seat that
            # did not play from two cards only received its one-card hand (RULES.md 12.10)
            fL = fs[L]
            one = had_two[L] & (st.hand_n.reshape(-1)[fL] == 1) & ~st.declared[RL]
            st.vulnerable.reshape(-1)[fL[one]] = True
            if c.uno_catch_out_of_turn and np.count_nonzero(one):
                self._offer_catch(st, RL[one])
        self._offer_jump_in(st, RL, exclude_origin=True)

    # ================================================================== effects
    def _pick_kind(self, st: State, R, actor, face) -> np.ndarray:
        """UNO Flip: which physical card plays ``face``.  The owner cannot see its own backs, so
        among held cards showing that face one is taken at random (weighted by copies)."""
        cand = self.FACE_KINDS[face]  # (n, 4), padded with K
        real = cand < self.K
        cell = ((R * self.P + actor) * self.K)[:, None] + np.minimum(cand, self.K - 1)
        cnt = st.hands.reshape(-1)[cell].astype(np.int64) * real
        kind = cand[np.arange(len(R)), (cnt > 0).argmax(1)]
        amb = _flat((cnt > 0).sum(1) > 1)
        if amb.size:
            cum = cnt[amb].cumsum(1)
            u = chance.uniform(st.key, st.counter, R[amb], 1)[:, 0] * cum[:, -1]
            kind[amb] = cand[amb, (cum > u[:, None]).argmax(1)]
        drawn = st.phase[R] == DRAWN
        kind[drawn] = st.drawn[R[drawn]]
        return kind

    def _exchange(self, st: State, R, a_seat, b_seat) -> None:
        """Swap two seats' hands (Swap; a 7 under Seven-O)."""
        for arr in (st.hands, st.hand_n, st.held, st.drew_on):
            tmp = arr[R, a_seat].copy()
            arr[R, a_seat] = arr[R, b_seat]
            arr[R, b_seat] = tmp
        st.vulnerable[R, a_seat] = False
        st.vulnerable[R, b_seat] = False
        if self.config.uno_call_after_exchange:
            st.vulnerable[R, b_seat] = st.hand_n[R, b_seat] == 1
        if self.memory is not None:  # memory hook: each seat knows the hand it gave
            self.memory.exchanged(st, R, a_seat, b_seat)

    def _rotate(self, st: State, R, d) -> None:
        """Every hand passes one seat on in direction ``d`` (Swap-in-turn; a 0 under Seven-O)."""
        src = (np.arange(self.P)[None, :] - d[:, None]) % self.P
        st.hands[R] = st.hands[R[:, None], src]
        st.hand_n[R] = st.hand_n[R[:, None], src]
        st.held[R] = st.held[R[:, None], src]
        st.drew_on[R] = st.drew_on[R[:, None], src]
        if self.memory is not None:  # memory hook: each seat knows the hand it passed on
            self.memory.rotated(st, R, d)
        st.vulnerable[R] = False
        if self.config.uno_call_after_exchange:
            st.vulnerable[R] = st.hand_n[R] == 1
            st.vulnerable[R, st.actor[R]] = False

    def _flip(self, st: State, R) -> np.ndarray:
        """Turn the game over (RULES.md 7.4); returns whether the new top card is a wild."""
        st.side[R] ^= 1
        if self.memory is not None:  # memory hook: the faces known no longer show
            self.memory.flipped(st, R)
        j = np.arange(self.N)[None, :]
        base = (R * self.N)[:, None]  # flat gathers: the first n cards reversed, the rest in place
        if self.config.flip_discard_mode == "invert_pile":
            n = st.disc_n[R][:, None]
            st.discard[R] = st.discard.reshape(-1)[base + np.where(j < n, n - 1 - j, j)]
        n = st.draw_n[R][:, None]
        st.draw[R] = st.draw.reshape(-1)[base + np.where(j < n, n - 1 - j, j)]
        face = self._top_face(st, R)
        wild = self.F_WILD[face]
        st.color[R] = np.where(wild, NO_COLOR, self.F_COLOR[face])
        return wild

    def _offer_jump_in(self, st: State, R, exclude_origin: bool) -> None:
        """After a new top card: ask the seats holding the identical card, in turn order (E12, E13)."""
        if not self.config.jump_in or R.size == 0:
            return
        phase = st.phase[R]
        ok = (phase == TURN) | (phase == DEFLECT)
        if self.config.stacking != "none":  # E14: a jump-in adds to the pending total
            ok |= (phase == PENDING) & ~st.challengeable[R]
        R = R[ok]
        if R.size == 0:
            return
        tface = self._top_face(st, R)
        elig = _any_bits(st.held[R] & self.IDENTBITS[tface][:, None, :])  # (n, P)
        ar = np.arange(len(R))
        elig[ar, st.actor[R]] = False  # the seat that moves next anyway plays it as its turn
        if exclude_origin and not self.config.jump_in_self:
            elig[ar, st.origin[R]] = False
        has = _any_row(elig)
        if not np.count_nonzero(has):
            return
        R, elig = R[has], elig[has]
        seats = np.arange(self.P)[None, :]
        if self.config.jump_in_priority == "random":
            order = chance.permutations(st.key, st.counter, R, np.full(len(R), self.P), self.P)
            rank = np.empty_like(order)
            rank[np.arange(len(R))[:, None], order] = seats
        else:
            rank = self._turn_order_after_origin(st, R)
        self._ask_in_order(st, R, np.where(elig, rank, _NOT_ASKED))

    def _turn_order_after_origin(self, st: State, R) -> np.ndarray:
        """(n, P) each seat's place in turn order from the seat after the one that played (0 first)."""
        return ((np.arange(self.P)[None, :] - st.origin[R][:, None]) * st.direction[R][:, None] - 1) % self.P

    def _ask_in_order(self, st: State, R, rank) -> None:
        """Open an out-of-turn offer (phase JUMP) in ``R``: the seats are asked by ``rank`` (``_NOT_ASKED``:
        never); after the last ``pass`` the seat to move resumes where it was."""
        rank = rank.astype(np.int8)
        st.offer_rank[R] = rank
        st.resume[R] = st.phase[R]
        st.turn[R] = st.actor[R]
        st.actor[R] = rank.argmin(1)
        st.phase[R] = JUMP

    def _offer_catch(self, st: State, R) -> None:
        """``uno_catch_out_of_turn``: the seats in ``R`` that just became vulnerable and move again
        before anyone else is asked are first offered to the others, in turn order, to be caught
        (``catch`` or ``pass``; jump-ins too, where the rules have them).  The offer is the phase of a
        jump-in offer: the seat to move resumes its turn after the last ``pass``."""
        R = R[(st.phase[R] == TURN) & (st.actor[R] == st.origin[R])]
        if R.size == 0:
            return
        rank = self._turn_order_after_origin(st, R)
        rank[np.arange(R.size), st.origin[R]] = _NOT_ASKED
        self._ask_in_order(st, R, rank)

    # ================================================================== drawing
    def _next(self, st: State, R, seat, k: int) -> np.ndarray:
        return (np.asarray(seat, np.intp) + k * st.direction[R].astype(np.intp)) % self.P

    def _goto(self, st: State, R, seat, phase) -> None:
        st.turn[R] = seat
        st.actor[R] = seat
        st.phase[R] = phase

    def _take_cards(self, st: State, R, seats, n, until, extra, then=None) -> None:
        """Seats draw ``n`` cards, or (``until``) until a card of the active colour, then ``extra``;
        then ``then(got, last)``: what follows the draw in those games (``_draw``'s result for the
        ``n`` cards).

        Inside ``apply`` the draw waits, and the handlers' draws are made in one pass after them
        (``_take_queued_cards``): each game takes one action, so their rows are distinct games, and each
        game still draws, and runs ``then``, in the order of its own moves."""
        if self._later is not None:
            self._later.append((R, seats, n, until, np.full(len(R), extra, np.int64), then))
            return
        got, last = self._take_cards_now(st, R, seats, n, until, extra)
        if then is not None:
            then(got, last)

    def _take_cards_now(self, st: State, R, seats, n, until, extra) -> tuple[np.ndarray, np.ndarray]:
        """``_take_cards``'s draw (``extra``: a number, or one per row); returns ``_draw``'s result for
        the rows that draw a number of cards (0 and -1 for the others)."""
        fixed = np.where(until, 0, n + extra)
        if np.count_nonzero(fixed):
            got, last = self._draw(st, R, seats, fixed)
        else:
            got, last = np.zeros(len(R), np.int64), np.full(len(R), -1, np.intp)
        u = _flat(until)
        if u.size:
            self._draw_until_color(st, R[u], seats[u])
            ex = np.broadcast_to(extra, R.shape)[u]
            e = _flat(ex > 0)
            if e.size:
                self._draw(st, R[u[e]], seats[u[e]], ex[e])
        return got, last

    def _take_queued_cards(self, st: State, later: list) -> None:
        """The draws ``apply``'s handlers queued: one pass for all of them (their games are distinct),
        then what follows each, with its rows' part of the result."""
        parts = list(zip(*later))  # R, seats, n, until, extra, then
        R, seats, n, until, extra = (p[0] if len(later) == 1 else np.concatenate(p) for p in parts[:5])
        got, last = self._take_cards_now(st, R, seats, n, until, extra)
        start = 0
        for rows, then in zip(parts[0], parts[5]):
            stop = start + len(rows)
            if then is not None:
                then(got[start:stop], last[start:stop])
            start = stop

    def _draw(self, st: State, R, seats, counts) -> tuple[np.ndarray, np.ndarray]:
        """Seats draw ``counts`` cards, reshuffling when the pile runs out (RULES.md 1.4, E1, E4).
        Returns the cards drawn per row and the kind of the last one (-1: none)."""
        counts = np.asarray(counts, np.int64)
        seats = np.asarray(seats, np.intp)
        first = np.minimum(counts, st.draw_n[R])
        got = first.copy()
        last = self._take(st, R, seats, first)
        short = _flat(counts > first)
        if short.size:
            Rs = R[short]
            self._reshuffle(st, Rs)
            second = np.minimum(counts[short] - first[short], st.draw_n[Rs])
            l2 = self._take(st, Rs, seats[short], second)
            got[short] += second
            last[short] = np.where(second > 0, l2, last[short])
        if np.count_nonzero(got) == got.size:
            st.vulnerable[R, seats] = False  # E28: a seat whose hand grew is no longer at one card
        else:
            grew = got > 0
            st.vulnerable[R[grew], seats[grew]] = False
        return got, last

    def _take(self, st: State, R, seats, k) -> np.ndarray:
        if self.memory is not None:  # memory hook: cards enter hands
            self.memory.drew(st, R, seats, k)
        last = np.full(len(R), -1, np.intp)
        m = int(k.max()) if k.size else 0
        if m == 0:
            return last
        if m == 1:
            i = _flat(k == 1) if k.min() == 0 else slice(None)
            Ri = R[i]
            card = st.draw.reshape(-1)[Ri * self.N + st.draw_n[Ri] - 1].astype(np.intp)
            fs = Ri * self.P + seats[i]  # flat (game, seat)
            st.hands.reshape(-1)[fs * self.K + card] += 1
            st.held.reshape(-1)[fs * self.W + self.KWORD[card]] |= self.KBIT[card]
            st.hand_n.reshape(-1)[fs] += 1
            st.draw_n[Ri] -= 1
            last[i] = card
        else:
            j = np.arange(m)[None, :]
            pos = np.maximum(st.draw_n[R][:, None] - 1 - j, 0)
            cards = st.draw.reshape(-1)[(R * self.N)[:, None] + pos].astype(np.intp)
            st.draw_n[R] -= k.astype(np.int16)
            if m >= 3:  # penalties: one count matrix beats a pass per card
                self._add_to_seat(st, R, seats, cards, k)
            else:
                self._add_cards(st, R, np.broadcast_to(seats[:, None], cards.shape), cards, k)
            has = k > 0
            last[has] = cards[_flat(has), k[has] - 1]
        return last

    def _add_cards(self, st: State, R, seats, cards, counts) -> None:
        """Row ``R[i]``: seat ``seats[i, j]`` takes card ``cards[i, j]`` for ``j < counts[i]``.
        One pass per card position, so each pass touches a game once (plain fancy ``+=``, which is
        several times faster than ``np.add.at``)."""
        m = int(counts.max()) if counts.size else 0
        if m == 0:
            return
        hf, nf, bf = st.hands.reshape(-1), st.hand_n.reshape(-1), st.held.reshape(-1)
        cards = cards[:, :m]
        fs = R[:, None] * self.P + seats[:, :m]  # flat (game, seat), (n, m)
        hk = fs * self.K + cards  # flat (game, seat, kind)
        if self.W > 1:
            hw, bits = fs * self.W + self.KWORD[cards], self.KBIT[cards]
        else:
            hw, bits = fs, self.KBIT[cards]
        everyone = counts.min() >= m  # no row stops early
        for j in range(m):
            i = slice(None) if everyone else _flat(counts > j)
            hf[hk[i, j]] += 1
            nf[fs[i, j]] += 1
            bf[hw[i, j]] |= bits[i, j]

    def _add_to_seat(self, st: State, R, seats, cards, counts) -> None:
        """Row ``R[i]``: seat ``seats[i]`` takes ``cards[i, j]`` for ``j < counts[i]`` (a kind may repeat):
        the copies per kind are counted with one ``bincount`` and added in one scatter."""
        n, m = cards.shape
        K = self.K
        valid = np.arange(m)[None, :] < counts[:, None]
        fs = R * self.P + seats  # flat (game, seat), one per row
        idx = np.where(valid, np.arange(n)[:, None] * K + cards, n * K)  # bin n * K: not drawn
        add = np.bincount(idx.ravel(), minlength=n * K + 1)[:n * K].reshape(n, K)
        st.hands.reshape(-1, K)[fs] += add.astype(np.int8)
        st.hand_n.reshape(-1)[fs] += counts.astype(np.int16)
        bits = self.KBIT[cards] * valid
        bf = st.held.reshape(-1)
        if self.W == 1:
            bf[fs] |= np.bitwise_or.reduce(bits, axis=1)
        else:
            word = self.KWORD[cards]
            for w in range(self.W):
                bf[fs * self.W + w] |= np.bitwise_or.reduce(bits * (word == w), axis=1)

    def _reshuffle(self, st: State, R) -> None:
        """Shuffle the discard pile, less its top card, into a new draw pile (RULES.md 1.4).
        Under retract_and_draw_2 the card under a challengeable top is kept too (E26)."""
        keep = np.ones(len(R), np.int64)
        if self.retract:
            keep += st.challengeable[R]
        m = st.disc_n[R] - keep
        ok = m > 0
        R, keep, m = R[ok], keep[ok], m[ok]
        if R.size == 0:
            return
        perm = chance.permutations(st.key, st.counter, R, m, self.N)
        src = st.discard[R]
        ar = np.arange(len(R))
        st.draw[R] = src[ar[:, None], perm]
        st.draw_n[R] = m
        dn = st.disc_n[R]
        top = src[ar, dn - 1]
        st.disc_n[R] = keep
        st.pile_counts[R] = 0
        st.pile_counts[R, top] += 1
        if not self.retract:
            st.discard[R, 0] = top
            return
        under = src[ar, np.maximum(dn - 2, 0)]
        two = keep == 2
        st.discard[R, 0] = np.where(two, under, top)
        st.discard[R[two], 1] = top[two]
        st.pile_counts[R[two], under[two]] += 1

    def _draw_until_color(self, st: State, R, seats) -> None:
        """Wild Draw Colour: draw until a card whose active face has the active colour (E5, E6)."""
        cap = self.config.wdc_cap
        total = np.zeros(len(R), np.int64)
        todo = np.arange(len(R))
        j = np.arange(self.N)[None, :]
        for _ in range(4):
            Rt = R[todo]
            n = st.draw_n[Rt].astype(np.int64)
            cols = self.K_COLOR[st.side[Rt].astype(np.intp)[:, None], st.draw[Rt]]
            match = (cols == st.color[Rt][:, None]) & (j < n[:, None])
            pos = np.where(match, j, -1).max(1)
            found = pos >= 0
            cnt = np.where(found, n - pos, n)
            if cap:
                cnt = np.minimum(cnt, cap - total[todo])
            got, _ = self._draw(st, Rt, seats[todo], cnt)
            total[todo] += got
            more = ~found & (n > 0)
            if cap:
                more &= total[todo] < cap
            todo = todo[more]
            if todo.size == 0:
                return
            self._reshuffle(st, R[todo])
            todo = todo[st.draw_n[R[todo]] > 0]
            if todo.size == 0:
                return

    def _close_windows(self, st: State, R, actor, discard: bool, in_turn=True) -> None:
        """End the other seats' UNO windows (RULES.md 1.5, E27): ``next_card_discard`` closes on any
        card discarded by another seat; ``next_player_action`` when the next player begins a turn (a
        play or draw in turn, not an out-of-turn jump-in).  Under ``automatic`` enforcement the
        penalty is applied then."""
        if self.enforce == "off" or (not discard and self.window_discard_only):
            return
        if not self.window_discard_only and in_turn is not True and not in_turn.all():
            R, actor = R[in_turn], np.asarray(actor)[in_turn]
            if R.size == 0:
                return
        rows = _flat(_rows_with_any(st.vulnerable, R))  # the few games with an open window
        if rows.size == 0:
            return
        R, actor = R[rows], np.asarray(actor)[rows]
        vul = st.vulnerable[R]
        vul[np.arange(len(R)), actor] = False
        i, p = np.nonzero(vul)
        if i.size == 0:
            return
        st.vulnerable[R[i], p] = False
        if self.enforce == "automatic":
            while i.size:  # one seat per game at a time, so each draw sees its own pile
                _, first = np.unique(i, return_index=True)
                self._draw(st, R[i[first]], p[first], np.full(first.size, self.config.uno_penalty))
                keep = np.ones(i.size, bool)
                keep[first] = False
                i, p = i[keep], p[keep]

    # ================================================================== round end
    def hand_values(self, st: State, R) -> np.ndarray:
        """(n, P) points in each hand, valued on the side in play."""
        hands = st.hands[R].astype(np.float32)  # a matrix product: exact for these small integers
        if not self.two_sided:
            return (hands @ self.K_PTS_F[0]).astype(np.int32)
        return (hands @ self.K_PTS_F[st.side[R].astype(np.intp)][:, :, None])[..., 0].astype(np.int32)

    def _finish_blocked(self, st: State, R, truncated: bool = False) -> None:
        """E2: the lowest hand value wins (ties: fewer cards, then the earliest seat from the
        dealer's left), or the round is void (``blocked_round=void_redeal``)."""
        if self.config.blocked_round == "void_redeal":
            w = np.full(len(R), -1, np.intp)
        else:
            order = (np.arange(self.P)[None, :] - st.dealer[R][:, None] - 1) % self.P
            key = self.hand_values(st, R).astype(np.int64) * 4096 + st.hand_n[R] * 16 + order
            w = key.argmin(1)
        st.truncated[R] = truncated
        self._finish(st, R, w)

    def _finish(self, st: State, R, w) -> None:
        """End the round in ``R`` won by seats ``w`` (-1: void) and score it (RULES.md 3.4, 6.4, 7.5)."""
        if R.size == 0:
            return
        c = self.config
        vals = self.hand_values(st, R)
        valid = w >= 0
        ar = np.arange(len(R))
        wi = np.where(valid, w, 0)
        pts = np.where(valid, vals.sum(1) - vals[ar, wi], 0)
        sc = st.scores[R]
        v = _flat(valid)
        mode = c.scoring_mode
        if mode == "winner_takes_sum":
            sc[v, wi[v]] += pts[v]
        elif mode == "cumulative_low":
            sc[v] += vals[v]
        elif mode == "plus_minus":
            sc[v] -= vals[v]
            sc[v, wi[v]] += pts[v]
        else:  # penalty_countdown: the others lose their hands' value
            sc[v] -= vals[v]
        st.scores[R] = sc
        st.round_points[R] = pts
        st.winner[R] = np.where(valid, w, -1)
        st.phase[R] = OVER
        st.pending[R] = 0
        st.rounds[R] += valid
        if mode in ("winner_takes_sum", "cumulative_low"):
            done = (sc >= c.target).any(1)
        elif mode == "plus_minus":
            done = st.rounds[R] >= c.max_rounds
        else:
            done = (sc < 0).any(1)
        st.game_over[R] = done
        st.mask[R] = False
        st.nlegal[R] = 0

    def game_winners(self, st: State, R) -> np.ndarray:
        """(n, P) the winners of finished games (ties share): the highest score, or the lowest
        under ``cumulative_low``."""
        sc = st.scores[R]
        if self.config.scoring_mode == "cumulative_low":
            return sc == sc.min(1, keepdims=True)
        return sc == sc.max(1, keepdims=True)


def _segments(play_face: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Split the play block of the action table into runs ``(a0, a1, f0, f1)`` such that actions
    ``a0:a1`` show faces ``f0:f1`` one to one, or (``f1 - f0 == 1``) all show face ``f0``."""
    out, a = [], 0
    n = len(play_face)
    while a < n:
        b = a + 1
        if b < n and play_face[b] == play_face[a]:  # a face repeated (wild colours, targets)
            while b < n and play_face[b] == play_face[a]:
                b += 1
            out.append((a, b, int(play_face[a]), int(play_face[a]) + 1))
        else:
            while b < n and play_face[b] == play_face[b - 1] + 1 and (b + 1 >= n or play_face[b + 1] != play_face[b]):
                b += 1
            out.append((a, b, int(play_face[a]), int(play_face[a]) + b - a))
        a = b
    return out

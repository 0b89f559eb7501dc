"""The static tables of one configuration (``RuleConfig`` and player count): ``RuleTables``.

Built once per ``Engine`` and read-only; every rules module reads them as attributes of the engine
(``e.PLAYBITS``).  Short names, by prefix (``f`` a face, ``k`` a kind, ``a`` an action id; see
``cards`` for faces and kinds):

==============  ===================================================================================
sizes           ``P`` seats, ``K`` kinds, ``F`` faces, ``N`` cards, ``A`` actions, ``W`` 64-bit words
                of a kind bitmask (bit ``k % 64`` of word ``k // 64``; ``KWORD[k]``, ``KBIT[k]``)
``F_*[f]``      a face's side, colour, symbol (``F_SYM``), wild, cards drawn (``F_DRAW``), restricted
                wild draw (``F_RESTR``, rules §1.6), targets a seat (``F_TARGETED``: Swap, a Seven-O 7),
                rotates the hands (``F_ROTATE``: Swap-in-turn, a Seven-O 0), makes the next seat draw
                (``F_IS_DRAW``), ``F_FX``: its effect bits (``FX_*`` below), and ``F_TURNED_COLOR``:
                the active colour it gives turned face up (the first card, a Flip's new top card):
                ``NO_COLOR`` for a wild, whose colour is then declared (``color_choice``)
``KF``          ``(2, K)`` the face each kind shows on the light (0) and dark (1) side
``K_*[s, k]``   a kind's colour, symbol, points (``K_PTS``), restricted, is a Skip (on side ``s``)
``A_*[a]``      an action's kind (``PLAY`` ... ``CHOOSE``), face, colour, target seat, the active colour
                once it is played (``A_NEW_COLOR``), counts as a turn (``A_COUNTED``, E3), keeps a
                declared UNO (``A_KEEPS_DECLARED``)
``ID[kind]``    the one action id of ``draw``, ``keep``, ``pass``, ``challenge``, ``accept``, ``uno``
``PLAYK``       ``(F * NC * 2, K)`` kinds playable on top face ``f`` under colour ``c`` (rules §1.2):
                row ``(f * NC + c) * 2 + first_play`` (``first_card_match``)
``STACKK``      ``(F, K)`` kinds that may be stacked on draw card ``f`` (rules §1.7)
``IDENTK``      ``(F, K)`` kinds identical to top face ``f``, for a jump-in (rules §1.8)
``*BITS``       the same as bitmasks: ``PLAYBITS``, ``STACKBITS``, ``IDENTBITS``; per side ``SKIPBITS``,
                ``RESTRBITS``; ``COLORBITS[side, colour]``
``SEATS_AHEAD`` ``[2 * seat + (direction > 0), j]``: the seat ``j`` turns on
==============  ===================================================================================

The action-space layout (``PLAY_*``, ``TGT_*``, ``CATCH_IDS``, ``CHOOSE_*``) and the UNO Flip
face-to-kind tables (``FACE_KINDS`` ...) serve the legal mask (``legal.refresh``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .actions import ACCEPT, CATCH, CHALLENGE, CHOOSE, DRAW, KEEP, PASS, PLAY, UNO, ActionTable, build_actions
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
    Deck,
    make_deck,
)
from .config import RuleConfig

NC = NUM_COLOR_STATES
# effect bits of a face (F_FX): play.act_play skips the effects no row of the batch needs
FX_REVERSE, FX_SKIP, FX_SKIP_EVERYONE, FX_DRAW, FX_TARGETED, FX_ROTATE, FX_FLIP = (1 << i for i in range(7))


def pack_bits(flags: np.ndarray, W: int) -> np.ndarray:
    """``(..., K) bool`` -> ``(..., W) uint64`` bitmasks (bit ``k % 64`` of word ``k // 64``)."""
    b = np.packbits(np.ascontiguousarray(flags, dtype=bool), axis=-1, bitorder="little")
    pad = W * 8 - b.shape[-1]
    if pad:
        b = np.concatenate([b, np.zeros(b.shape[:-1] + (pad,), np.uint8)], axis=-1)
    return np.ascontiguousarray(b).view(np.uint64)


@dataclass(eq=False)
class RuleTables:
    """Every static table of one configuration (the legend is in the module docstring).  ``Engine`` is a
    ``RuleTables``: the rules read the tables as the engine's own declared attributes (one lookup each, and
    a type checker follows them); nothing writes them after ``values`` has built them."""

    config: RuleConfig
    deck: Deck
    actions: ActionTable
    P: int
    K: int
    F: int
    N: int
    A: int
    W: int
    two_sided: bool
    cards: np.ndarray  # (N,) the kind of every card of the deck, in kind order
    # the options read as flags
    restricting: bool  # a wild draw restriction applies (rules §1.6) ...
    challenge_on: bool  # ... enforced by challenges (a bluff is legal)
    hard: bool  # ... enforced by masking (no challenges)
    retract: bool  # a guilty card is taken back (challenge_guilty=retract_and_draw_2)
    enforce: str  # uno_enforcement
    window_discard_only: bool  # uno_window_close=next_card_discard
    automatic: bool  # uno_enforcement=automatic
    deal_after_first_pass: bool  # Engine.step deals ended rounds after the first settling pass
    reverse_skips: bool  # two players and two_player_reverse=skip: a played Reverse gives the turn back (E24)
    stacks: bool  # a draw card may be stacked (stacking is not "none")
    keep_ok: bool  # a playable drawn card may be kept (drawn_card_play is not "forced")
    drawn_never: bool  # a drawn card is never played (drawn_card_play=never)
    invert_pile: bool  # a Flip turns the discard pile over (flip_discard_mode=invert_pile)
    max_turns: int  # max_turns_per_round (E3)
    # faces
    F_SIDE: np.ndarray
    F_COLOR: np.ndarray
    F_SYM: np.ndarray
    F_WILD: np.ndarray
    F_DRAW: np.ndarray
    F_RESTR: np.ndarray
    F_TARGETED: np.ndarray
    F_ROTATE: np.ndarray
    F_IS_DRAW: np.ndarray
    F_FX: np.ndarray
    F_TURNED_COLOR: np.ndarray
    # kinds
    KF: np.ndarray
    K_COLOR: np.ndarray
    K_SYM: np.ndarray
    K_PTS: np.ndarray
    K_PTS_F: np.ndarray  # K_PTS as float32, for a matrix product
    K_RESTR: np.ndarray
    K_SKIP: np.ndarray
    # actions
    A_KIND: np.ndarray
    A_FACE: np.ndarray
    A_COLOR: np.ndarray
    A_TARGET: np.ndarray
    A_NEW_COLOR: np.ndarray
    A_COUNTED: np.ndarray
    A_KEEPS_DECLARED: np.ndarray
    ID: dict
    PLAY_IDS: np.ndarray  # the play actions (they come first)
    PLAY_FACE: np.ndarray  # ... and the face each shows
    N_PLAY: int
    PLAY_SEGMENTS: list  # runs (a0, a1, f0, f1) of the play block: see _segments
    PLAY_GROUPS: list  # one-sided decks: (actions per kind, kinds) to count legal plays by popcount (else empty)
    TGT_COLS: np.ndarray  # play columns that target a seat ...
    TGT_SEAT: np.ndarray  # ... and that seat
    CATCH_IDS: np.ndarray
    CHOOSE_IDS: np.ndarray
    CHOOSE_SIDE: np.ndarray  # the side of each colour choice
    N_CHOOSE: np.ndarray  # colour choices per side
    SEATS_AHEAD: np.ndarray
    # playability
    PLAYK: np.ndarray
    STACKK: np.ndarray
    IDENTK: np.ndarray
    KWORD: np.ndarray
    KBIT: np.ndarray
    PLAYBITS: np.ndarray
    STACKBITS: np.ndarray
    IDENTBITS: np.ndarray
    SKIPBITS: np.ndarray
    RESTRBITS: np.ndarray
    COLORBITS: np.ndarray
    # UNO Flip: a face is playable if a kind showing it is (empty for a one-sided deck)
    FACE_KINDS: np.ndarray  # (F, 4) the kinds showing face f on its side (padded with K)
    SIDE_FACES: np.ndarray  # (2, F) the faces of each side
    FACE_PAIRS: np.ndarray  # two kinds per face, read as one 2-byte word
    MANY_FACES: np.ndarray  # faces shown by more than two kinds ...
    MANY_REST: np.ndarray  # ... and their other kinds
    # the look-up tables of the table's memory hooks (``core.memory.tables``), built when a state keeps a memory
    memory_tables: Any = field(default=None, init=False, repr=False)

    # ------------------------------------------------------------------ bitmasks
    def pack(self, flags: np.ndarray) -> np.ndarray:
        """``(..., K) bool`` -> ``(..., W) uint64`` bitmasks (bit ``k % 64`` of word ``k // 64``)."""
        return pack_bits(flags, self.W)

    def unpack(self, bits: np.ndarray, pad: bool = False) -> np.ndarray:
        """``(n, W) uint64`` -> ``(n, K) bool`` (``(n, K + 1)`` with a False column K if ``pad``)."""
        u = np.unpackbits(np.ascontiguousarray(bits).view(np.uint8), axis=-1, count=self.K + pad,
                          bitorder="little")
        return u.view(bool)

    def resync(self, st: Any, R, seats=None) -> None:
        """Recompute the held-kind bitmasks of seats of the ``State`` ``st`` (all seats of ``R`` when
        ``seats`` is None).  (``st`` is not typed here: ``state`` stands above this module.)"""
        if seats is None:
            st.held[R] = self.pack(st.hands[R] > 0)
        else:
            st.held[R, seats] = self.pack(st.hands[R, seats] > 0)

    @staticmethod
    def values(config: RuleConfig, num_players: int) -> dict[str, Any]:
        """Every table of a configuration by field name (``RuleTables(**values(...))``)."""
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) \
                or not 2 <= num_players <= 10:
            raise ValueError(f"num_players={num_players!r} is not allowed; UNO takes 2 to 10 players")
        c, P = config, int(num_players)
        deck = make_deck(c.deck, c.flip_pairing, c.flip_pairing_seed)
        K, F, N = deck.num_kinds, deck.num_faces, deck.num_cards
        if c.hand_size * P > N - 12:
            raise ValueError(f"hand_size={c.hand_size} with {P} players deals {c.hand_size * P} of the "
                             f"{N} cards and leaves too few to play; use hand_size <= {(N - 12) // P}")
        t: dict[str, Any] = dict(config=c, deck=deck, P=P, K=K, F=F, N=N, W=(K + 63) // 64,
                                 two_sided=deck.two_sided, cards=deck.cards)
        _faces(t, c, deck)
        _options(t, c)
        _actions(t, c, deck)
        _playability(t, c)
        return t


def _faces(t: dict, c: RuleConfig, deck: Deck) -> None:
    fa = deck.face_arrays
    sym = fa["symbol"]
    t.update(F_SIDE=fa["side"], F_COLOR=fa["color"], F_SYM=sym, F_WILD=fa["wild"], F_DRAW=fa["draw"],
             F_RESTR=fa["restricted"])
    t["F_TARGETED"] = (sym == SWAP) | (c.seven_o & (sym == 7))
    t["F_ROTATE"] = (sym == SWAP_IN_TURN) | (c.seven_o & (sym == 0))
    t["F_IS_DRAW"] = (fa["draw"] > 0) | (sym == WILD_DRAW_COLOR)
    t["F_FX"] = (FX_REVERSE * (sym == REVERSE) | FX_SKIP * (sym == SKIP)
                 | FX_SKIP_EVERYONE * (sym == SKIP_EVERYONE) | FX_DRAW * t["F_IS_DRAW"]
                 | FX_TARGETED * t["F_TARGETED"] | FX_ROTATE * t["F_ROTATE"]
                 | FX_FLIP * (sym == FLIP)).astype(np.int64)
    # the colour a card gives with none declared: after a Swap-in-turn any card follows; a wild's is to come
    t["F_TURNED_COLOR"] = np.where(sym == SWAP_IN_TURN, FREE,
                                   np.where(fa["wild"], NO_COLOR, fa["color"])).astype(np.int8)
    KF = deck.kind_faces.T.astype(np.intp)  # (2, K)
    K_PTS = fa["points"][KF].astype(np.int32)
    t.update(KF=KF, K_COLOR=fa["color"][KF], K_SYM=sym[KF], K_PTS=K_PTS, K_PTS_F=K_PTS.astype(np.float32),
             K_RESTR=fa["restricted"][KF], K_SKIP=sym[KF] == SKIP)


def _options(t: dict, c: RuleConfig) -> None:
    # Restrictions on wild draw cards (rules §1.6): "hard" masks them, "challenge" allows bluffs.
    restricting = bool(t["F_RESTR"].any()) and c.wild_draw_restriction != "none"
    t.update(restricting=restricting, challenge_on=restricting and c.challenge,
             hard=restricting and not c.challenge,
             retract=restricting and c.challenge and c.challenge_guilty == "retract_and_draw_2",
             enforce=c.uno_enforcement, window_discard_only=c.uno_window_close == "next_card_discard",
             automatic=c.uno_enforcement == "automatic",
             reverse_skips=t["P"] == 2 and c.two_player_reverse == "skip", stacks=c.stacking != "none",
             keep_ok=c.drawn_card_play != "forced", drawn_never=c.drawn_card_play == "never",
             invert_pile=c.flip_discard_mode == "invert_pile", max_turns=c.max_turns_per_round,
             # Without voluntary draws a seat holding one playable card must play it: forced plays are
             # common and settling nearly always takes a second pass, which the rounds that the actions
             # ended can join (dealt with those the first pass ends: one deal fewer per step)
             deal_after_first_pass=not c.voluntary_draw)


def _actions(t: dict, c: RuleConfig, deck: Deck) -> None:
    P, K = t["P"], t["K"]
    A = build_actions(deck, P, c.seven_o)
    t.update(actions=A, A=A.size, A_KIND=A.kind, A_FACE=A.face.astype(np.intp), A_COLOR=A.color, A_TARGET=A.target)
    t["A_COUNTED"] = (A.kind != UNO) & (A.kind != CATCH) & (A.kind != CHOOSE)  # counts as a turn (E3)
    t["A_KEEPS_DECLARED"] = (A.kind == UNO) | (A.kind == CATCH)  # a declared UNO survives these
    pf = np.maximum(A.face, 0).astype(np.intp)  # the active colour once action a is played: a wild's is declared
    turned = t["F_TURNED_COLOR"][pf]
    t["A_NEW_COLOR"] = np.where(turned == NO_COLOR, A.color, turned).astype(np.int8)
    play_ids = (A.kind == PLAY).nonzero()[0]
    play_face = A.face[play_ids].astype(np.intp)
    assert np.array_equal(play_ids, np.arange(play_ids.size))  # plays come first
    t.update(PLAY_IDS=play_ids, PLAY_FACE=play_face, N_PLAY=int(play_ids.size), PLAY_SEGMENTS=_segments(play_face))
    t["PLAY_GROUPS"] = []
    if not t["two_sided"]:  # count legal plays by popcount: kinds grouped by actions per kind
        per = np.bincount(play_face, minlength=K)  # play actions showing each kind
        per = np.where(t["F_TARGETED"][:K], per - 1, per)  # a seat never targets itself
        t["PLAY_GROUPS"] = [(int(m), pack_bits(per == m, t["W"])[0]) for m in np.unique(per) if m > 0]
    tgt = A.target[play_ids]
    t["TGT_COLS"] = (tgt >= 0).nonzero()[0]
    t["TGT_SEAT"] = tgt[t["TGT_COLS"]]
    t["ID"] = {k: int((A.kind == k).nonzero()[0][0]) for k in (DRAW, KEEP, PASS, CHALLENGE, ACCEPT, UNO)}
    t["CATCH_IDS"] = (A.kind == CATCH).nonzero()[0]
    t["CHOOSE_IDS"] = (A.kind == CHOOSE).nonzero()[0]
    t["CHOOSE_SIDE"] = (A.color[t["CHOOSE_IDS"]] >= 4).astype(np.int8)
    t["N_CHOOSE"] = np.bincount(t["CHOOSE_SIDE"], minlength=2).astype(np.int16)  # per side
    j = np.arange(64)
    t["SEATS_AHEAD"] = np.stack([(s + j * d) % P for s in range(P) for d in (-1, 1)]).astype(np.intp)


def _playability(t: dict, c: RuleConfig) -> None:
    F, K, W = t["F"], t["K"], t["W"]
    F_SIDE, F_COLOR, F_SYM, F_WILD, F_DRAW = t["F_SIDE"], t["F_COLOR"], t["F_SYM"], t["F_WILD"], t["F_DRAW"]
    f = np.arange(F)
    fk = t["KF"][F_SIDE[f].astype(np.intp)]  # (F, K): each kind's face on the top card's side
    xcol, xsym, xwild = F_COLOR[fk], F_SYM[fk], F_WILD[fk]
    twild = F_WILD[f][:, None]
    sym_match = (xsym == F_SYM[f][:, None]) & ~twild  # rules §1.2 (3) and (4)
    col = np.arange(NC)
    col_match = (xcol[:, None, :] == col[None, :, None]) | (col == FREE)[None, :, None]
    normal = xwild[:, None, :] | col_match | sym_match[:, None, :]
    color_only = xwild[:, None, :] | col_match  # first_card_match=color_only (house_cn)
    t["PLAYK"] = np.stack([normal, color_only if c.first_card_match == "color_only" else normal],
                          axis=2).reshape(F * NC * 2, K)
    xdraw, tdraw = F_DRAW[fk], F_DRAW[f][:, None]
    if c.stacking == "same_type":
        stack = (xsym == F_SYM[f][:, None]) & (xdraw > 0)
    elif c.stacking == "escalating":
        stack = (xdraw >= tdraw) & (xdraw > 0)
    else:
        stack = np.zeros((F, K), bool)
    t["STACKK"] = stack & (tdraw > 0)  # rules §1.7; Wild Draw Colour never stacks
    t["IDENTK"] = (fk == f[:, None]) & (~twild | c.jump_in_wilds)  # rules §1.8
    k = np.arange(K)
    t["KWORD"] = (k // 64).astype(np.intp)
    t["KBIT"] = np.left_shift(np.uint64(1), (k % 64).astype(np.uint64))
    for name in ("PLAY", "STACK", "IDENT"):
        t[name + "BITS"] = pack_bits(t[name + "K"], W)
    t["SKIPBITS"] = pack_bits(t["K_SKIP"], W)
    t["RESTRBITS"] = pack_bits(t["K_RESTR"], W)
    t["COLORBITS"] = pack_bits(t["K_COLOR"][:, None, :] == np.arange(NC)[None, :, None], W)  # (2, NC, W)
    empty = np.zeros(0, np.intp)
    t.update(FACE_KINDS=np.zeros((0, 4), np.intp), SIDE_FACES=np.zeros((2, 0), bool), FACE_PAIRS=empty,
             MANY_FACES=empty, MANY_REST=empty)
    if t["two_sided"]:
        # FACE_KINDS[f] lists the kinds showing face f on its side (padded with K: no kind)
        lists = [(t["KF"][F_SIDE[g]] == g).nonzero()[0] for g in range(F)]
        assert max(len(x) for x in lists) <= 4  # refresh reads the kinds of a face as one 4-byte word
        face_kinds = np.full((F, 4), K, np.intp)
        for g, x in enumerate(lists):
            face_kinds[g, :len(x)] = x
        many = ((face_kinds < K).sum(1) > 2).nonzero()[0]
        # refresh reads two kinds per face as one 2-byte word (column K of the padded unpack is
        # always False), then ORs in the faces shown by more than two kinds
        t.update(FACE_KINDS=face_kinds, SIDE_FACES=np.stack([F_SIDE == 0, F_SIDE == 1]),
                 FACE_PAIRS=np.minimum(face_kinds[:, :2], K).ravel(), MANY_FACES=many,
                 MANY_REST=face_kinds[many, 2:].ravel())


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

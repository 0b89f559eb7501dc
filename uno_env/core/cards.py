"""Decks, faces and card kinds.

Three levels describe a card:

* a **face** is what one side of a card shows: ``R7``, ``W+4``, ``P+5``.  Faces of both sides of the
  UNO Flip deck share one numbering (light faces first), so the observation and the action space cover
  both sides with one table;
* a **kind** is a distinct physical card: its light face and its dark face.  For one-sided decks a kind
  is a face.  Hands, piles and the deck count kinds, because in UNO Flip the back of a card matters;
* the **deck** is a multiset of kinds (108 or 112 cards).

All tables are numpy arrays built once per deck and shared read-only by every game.

Notation (docs/notation.md): colour letter + symbol (``R5``, ``GS``, ``B+2``, ``YR``, ``RX``,
``R+1``, ``RF``, ``PSE``), wilds without colour (``W``, ``W+4``, ``W+2``, ``W+C``, ``WX``); a Flip
card is written light face first: ``B1/USE``.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# Global colour ids: the light (or only) side uses 0-3, the dark side of UNO Flip 4-7.
COLOR_LETTERS = ("R", "Y", "G", "B", "P", "T", "O", "U")
COLOR_NAMES = ("red", "yellow", "green", "blue", "pink", "teal", "orange", "purple")
FREE = 8  # after Swap-in-turn (SOLO): any card may follow
NO_COLOR = 9  # a wild on top whose colour has not been declared yet
NUM_COLOR_STATES = 10

# Symbols (what a face does). Numbers are 0-9.
SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR = 10, 11, 12, 13, 14
SWAP, SWAP_IN_TURN = 15, 16  # SOLO
DRAW_ONE, FLIP, WILD_DRAW_TWO, DRAW_FIVE, SKIP_EVERYONE, WILD_DRAW_COLOR = 17, 18, 19, 20, 21, 22
NUM_SYMBOLS = 23

# symbol -> notation suffix after the colour letter (or the whole name for colourless faces)
_SYMBOL_TEXT = {
    SKIP: "S", REVERSE: "R", DRAW_TWO: "+2", WILD: "W", WILD_DRAW_FOUR: "W+4", SWAP: "X",
    SWAP_IN_TURN: "WX", DRAW_ONE: "+1", FLIP: "F", WILD_DRAW_TWO: "W+2", DRAW_FIVE: "+5",
    SKIP_EVERYONE: "SE", WILD_DRAW_COLOR: "W+C",
}
_SYMBOL_TEXT.update({n: str(n) for n in range(10)})

_SYMBOL_NAMES = {
    SKIP: "skip", REVERSE: "reverse", DRAW_TWO: "draw_two", WILD: "wild", WILD_DRAW_FOUR: "wild_draw_four",
    SWAP: "swap", SWAP_IN_TURN: "swap_in_turn", DRAW_ONE: "draw_one", FLIP: "flip",
    WILD_DRAW_TWO: "wild_draw_two", DRAW_FIVE: "draw_five", SKIP_EVERYONE: "skip_everyone",
    WILD_DRAW_COLOR: "wild_draw_color",
}

# Cards drawn by the victim of each draw symbol (draw-until-colour is handled apart).
DRAW_AMOUNT = {DRAW_TWO: 2, WILD_DRAW_FOUR: 4, DRAW_ONE: 1, DRAW_FIVE: 5, WILD_DRAW_TWO: 2}

DECKS = ("standard108", "solo112", "flip112")


@dataclass(frozen=True)
class Face:
    """One printed side of a card."""

    name: str  # notation, e.g. "R7", "W+4", "PSE"
    side: int  # 0 light (or only) side, 1 dark side
    color: int  # global colour id, -1 for colourless (wild-type) faces
    symbol: int
    points: int

    @property
    def is_wild(self) -> bool:
        return self.color < 0


@dataclass(frozen=True, eq=False)
class Deck:
    """Static tables of one deck. Arrays are indexed by face id ``f`` or kind id ``k``.

    Attributes:
        name: ``standard108``, ``solo112`` or ``flip112``.
        faces: every face of both sides, light side first.
        kind_faces: ``(K, 2)`` face id of each kind on the light and the dark side (the same twice for
            one-sided decks).
        kind_counts: ``(K,)`` copies of each kind in the deck.
    """

    name: str
    faces: tuple[Face, ...]
    kind_faces: np.ndarray
    kind_counts: np.ndarray
    two_sided: bool
    face_index: dict = field(default_factory=dict, repr=False)  # (side, name) -> face id

    @property
    def num_faces(self) -> int:
        return len(self.faces)

    @property
    def num_kinds(self) -> int:
        return len(self.kind_counts)

    @property
    def num_cards(self) -> int:
        return int(self.kind_counts.sum())

    @functools.cached_property
    def cards(self) -> np.ndarray:
        """``(N,)`` the kind of every physical card, in kind order."""
        return np.repeat(np.arange(self.num_kinds), self.kind_counts).astype(np.uint8)

    @functools.cached_property
    def face_arrays(self) -> dict[str, np.ndarray]:
        """Per-face attribute arrays: side, color, symbol, points, wild, draw, restricted."""
        f = self.faces
        return {
            "side": np.array([x.side for x in f], np.int8),
            "color": np.array([x.color for x in f], np.int8),
            "symbol": np.array([x.symbol for x in f], np.int8),
            "points": np.array([x.points for x in f], np.int16),
            "wild": np.array([x.is_wild for x in f], bool),
            "draw": np.array([DRAW_AMOUNT.get(x.symbol, 0) for x in f], np.int16),
            "restricted": np.array(
                [x.symbol in (WILD_DRAW_FOUR, WILD_DRAW_TWO, WILD_DRAW_COLOR) for x in f], bool),
        }

    def side_colors(self, side: int) -> tuple[int, ...]:
        return (4, 5, 6, 7) if side == 1 else (0, 1, 2, 3)

    # ----------------------------------------------------------------- notation
    def face_id(self, text: str, side: int = 0) -> int:
        """Face id of ``text`` on ``side``; ValueError naming the allowed faces otherwise."""
        try:
            return self.face_index[(side, text)]
        except KeyError:
            allowed = " ".join(x.name for x in self.faces if x.side == side)
            side_txt = f" on the {'dark' if side else 'light'} side" if self.two_sided else ""
            raise ValueError(f"unknown card {text!r} for deck {self.name}{side_txt}; "
                             f"faces are: {allowed}") from None

    def kind_id(self, text: str) -> int:
        """Kind id of a card written in notation (``R7``; ``R7/O1`` for UNO Flip)."""
        if self.two_sided:
            if "/" not in text:
                raise ValueError(f"UNO Flip cards are written with both faces, light first "
                                 f"(for example 'B1/USE'); got {text!r}")
            light, dark = text.split("/", 1)
            lf, df = self.face_id(light, 0), self.face_id(dark, 1)
            hits = np.flatnonzero((self.kind_faces[:, 0] == lf) & (self.kind_faces[:, 1] == df))
            if hits.size == 0:
                raise ValueError(f"no card {text!r} in the {self.name} deck: its light face {light} "
                                 f"is paired with {self.backs_of(lf)}")
            return int(hits[0])
        if "/" in text:
            raise ValueError(f"card {text!r}: only UNO Flip cards have two faces (deck {self.name})")
        return int(self.face_id(text, 0))

    def backs_of(self, light_face: int) -> str:
        ks = np.flatnonzero(self.kind_faces[:, 0] == light_face)
        return " ".join(sorted(self.kind_name(int(k)) for k in ks))

    def kind_name(self, k: int) -> str:
        lf, df = self.kind_faces[k]
        if self.two_sided:
            return f"{self.faces[lf].name}/{self.faces[df].name}"
        return self.faces[lf].name

    def parse_cards(self, text: str) -> list[int]:
        """Kinds of a space-separated card list (``"R5 G7 W"``)."""
        if not isinstance(text, str):
            raise ValueError(f"a card list must be a string of space-separated cards, got {text!r}")
        return [self.kind_id(t) for t in text.split()]

    def format_cards(self, kinds) -> str:
        return " ".join(self.kind_name(int(k)) for k in kinds)


def _face(side: int, color: int, symbol: int, points: int) -> Face:
    text = _SYMBOL_TEXT[symbol]
    name = text if color < 0 else COLOR_LETTERS[color] + text
    return Face(name, side, color, symbol, points)


def _one_sided(name: str, numbers: range, zero_once: bool, colored: dict[int, int],
               wilds: dict[int, tuple[int, int]]) -> Deck:
    """Build a one-sided deck: per colour ``numbers`` (0 once if ``zero_once``) and ``colored``
    action symbols {symbol: copies}; colourless ``wilds`` {symbol: (copies, points)}."""
    faces, counts = [], []
    action_points = {SKIP: 20, REVERSE: 20, DRAW_TWO: 20, SWAP: 30}
    if name == "solo112":
        action_points = {REVERSE: 10, SKIP: 20, DRAW_TWO: 30, SWAP: 30}
    for c in range(4):
        for n in numbers:
            faces.append(_face(0, c, n, n))
            counts.append(1 if (n == 0 and zero_once) else 2)
        for sym, copies in colored.items():
            faces.append(_face(0, c, sym, action_points[sym]))
            counts.append(copies)
    for sym, (copies, pts) in wilds.items():
        faces.append(_face(0, -1, sym, pts))
        counts.append(copies)
    kf = np.repeat(np.arange(len(faces))[:, None], 2, axis=1)
    deck = Deck(name, tuple(faces), kf, np.array(counts, np.int16), False)
    deck.face_index.update({(0, x.name): i for i, x in enumerate(faces)})
    deck.face_index.update({(1, x.name): i for i, x in enumerate(faces)})
    return deck


_FLIP_KIND = {
    "number": None, "draw_one": DRAW_ONE, "reverse": REVERSE, "skip": SKIP, "flip": FLIP,
    "wild": WILD, "wild_draw_two": WILD_DRAW_TWO, "draw_five": DRAW_FIVE,
    "skip_everyone": SKIP_EVERYONE, "wild_draw_color": WILD_DRAW_COLOR,
}
_FLIP_POINTS = {
    (0, DRAW_ONE): 10, (0, REVERSE): 20, (0, SKIP): 20, (0, FLIP): 20, (0, WILD): 40,
    (0, WILD_DRAW_TWO): 50, (1, DRAW_FIVE): 20, (1, REVERSE): 20, (1, SKIP_EVERYONE): 30,
    (1, FLIP): 20, (1, WILD): 40, (1, WILD_DRAW_COLOR): 60,
}
_FLIP_COLOR = {"blue": 3, "green": 2, "red": 0, "yellow": 1,
               "pink": 4, "teal": 5, "orange": 6, "purple": 7, "": -1}


def _flip_faces() -> list[Face]:
    faces = []
    for side, colors, syms, wilds in (
        (0, (0, 1, 2, 3), (DRAW_ONE, REVERSE, SKIP, FLIP), (WILD, WILD_DRAW_TWO)),
        (1, (4, 5, 6, 7), (DRAW_FIVE, REVERSE, SKIP_EVERYONE, FLIP), (WILD, WILD_DRAW_COLOR)),
    ):
        for c in colors:
            faces += [_face(side, c, n, n) for n in range(1, 10)]
            faces += [_face(side, c, s, _FLIP_POINTS[(side, s)]) for s in syms]
        faces += [_face(side, -1, s, _FLIP_POINTS[(side, s)]) for s in wilds]
    return faces


def _flip_card_faces(faces: list[Face]) -> list[tuple[int, ...]]:
    """(light face, dark face) of each of the 112 physical cards in flip_pairings.csv."""
    index = {(x.side, x.color, x.symbol): i for i, x in enumerate(faces)}
    path = Path(__file__).with_name("flip_pairings.csv")
    pairs = []
    with path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            ids = []
            for side, pre in ((0, "light"), (1, "dark")):
                kind = _FLIP_KIND[row[f"{pre}_kind"]]
                sym = int(row[f"{pre}_number"]) if kind is None else kind
                ids.append(index[(side, _FLIP_COLOR[row[f"{pre}_color"]], sym)])
            pairs.append(tuple(ids))
    return pairs


def flip_deck(pairing: str = "physical_v1", pairing_seed: int = 0) -> Deck:
    """The 112-card UNO Flip deck.

    ``physical_v1`` pairs light and dark faces as printed (``flip_pairings.csv``);
    ``random_bijection`` pairs the same 112 light faces with the same 112 dark faces at random, drawn
    once from ``pairing_seed`` (rules §2.2).
    """
    faces = _flip_faces()
    pairs = _flip_card_faces(faces)
    if pairing == "random_bijection":
        light = [p[0] for p in pairs]
        dark = [p[1] for p in pairs]
        perm = np.random.default_rng(pairing_seed).permutation(len(dark))
        pairs = [(light[i], dark[j]) for i, j in enumerate(perm)]
    elif pairing != "physical_v1":
        raise ValueError(f"flip_pairing must be 'physical_v1' or 'random_bijection', got {pairing!r}")
    distinct = sorted(set(pairs))
    counts = [pairs.count(p) for p in distinct]
    deck = Deck("flip112", tuple(faces), np.array(distinct, np.int64), np.array(counts, np.int16), True)
    deck.face_index.update({(x.side, x.name): i for i, x in enumerate(faces)})
    return deck


@functools.cache
def make_deck(name: str, flip_pairing: str = "physical_v1", pairing_seed: int = 0) -> Deck:
    """The deck called ``name`` (one of ``DECKS``)."""
    if name == "standard108":
        return _one_sided(name, range(10), True, {SKIP: 2, REVERSE: 2, DRAW_TWO: 2},
                          {WILD: (4, 50), WILD_DRAW_FOUR: (4, 50)})
    if name == "solo112":
        return _one_sided(name, range(1, 10), False, {REVERSE: 2, SKIP: 2, DRAW_TWO: 2, SWAP: 1},
                          {SWAP_IN_TURN: (4, 40), WILD: (4, 40), WILD_DRAW_FOUR: (4, 50)})
    if name == "flip112":
        return flip_deck(flip_pairing, pairing_seed)
    raise ValueError(f"unknown deck {name!r}; decks are: {', '.join(DECKS)}")


def symbol_name(symbol: int) -> str:
    return _SYMBOL_NAMES.get(symbol, f"number_{symbol}")

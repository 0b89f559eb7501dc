"""The action space: one ``Discrete`` id per action string of the notation (docs/notation.md).

The layout depends on the deck, the number of players and ``seven_o`` (which makes the 7s target a
seat); it is the same for every preset sharing those.  In id order:

==================  =========================================  ============================================
block               strings                                    when legal
==================  =========================================  ============================================
coloured plays      ``play R5``, ``play GS``, ``play B+2``     the face can be played in the phase
targeted plays      ``play RX @2``, ``play R7 @0``             one id per target seat (Swap; 7 under Seven-O)
wild plays          ``play W G``, ``play W+4 B``, ``play WX``  one id per colour of the wild's side
``draw``            ``draw``                                   draw one; or take a pending penalty
``keep``            ``keep``                                   keep a playable drawn card
``pass``            ``pass``                                   decline a jump-in or a Skip deflection
``challenge``       ``challenge``                              challenge a wild draw card played on you
``accept``          ``accept``                                 accept it (draw the penalty)
``uno``             ``uno``                                    declare UNO before playing down to one card
catches             ``catch @0`` ... ``catch @P-1``            call out a vulnerable seat
colour choices      ``choose R`` ... (``choose P`` ... Flip)   colour of a wild first card / revealed wild
==================  =========================================  ============================================

Faces are listed light side first (UNO Flip), so both sides' cards share one action space and the
mask follows the side in play.  Seats in ``@k`` are absolute (the observation carries the observer's
seat).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cards import COLOR_LETTERS, SWAP, SWAP_IN_TURN, Deck

PLAY, DRAW, KEEP, PASS, CHALLENGE, ACCEPT, UNO, CATCH, CHOOSE = range(9)
ACTION_TYPES = ("play", "draw", "keep", "pass", "challenge", "accept", "uno", "catch", "choose")


@dataclass(frozen=True, eq=False)
class ActionTable:
    """Arrays describing every action id (``-1`` where a field does not apply)."""

    names: tuple[str, ...]
    kind: np.ndarray  # (A,) action type (PLAY, DRAW, ...)
    face: np.ndarray  # (A,) face played
    color: np.ndarray  # (A,) colour declared (wild plays, choose)
    target: np.ndarray  # (A,) seat targeted (targeted plays, catch)
    index: dict  # name -> id

    @property
    def size(self) -> int:
        return len(self.names)

    def name(self, i: int) -> str:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= int(i) < self.size:
            raise ValueError(f"action id {i!r} is out of range; ids are 0 to {self.size - 1}")
        return self.names[int(i)]

    def id(self, name: str) -> int:
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown action {name!r}; actions look like 'play R5', 'play W G', "
                             f"'play RX @2', 'draw', 'keep', 'pass', 'challenge', 'accept', 'uno', "
                             f"'catch @1', 'choose G' (see action_names)") from None


def build_actions(deck: Deck, num_players: int, seven_o: bool) -> ActionTable:
    rows: list[tuple[str, int, int, int, int]] = []  # name, kind, face, color, target
    fa = deck.face_arrays
    for f, face in enumerate(deck.faces):
        if face.is_wild:
            if face.symbol == SWAP_IN_TURN:
                rows.append((f"play {face.name}", PLAY, f, -1, -1))
            else:
                rows += [(f"play {face.name} {COLOR_LETTERS[c]}", PLAY, f, c, -1)
                         for c in deck.side_colors(face.side)]
        elif face.symbol == SWAP or (seven_o and face.symbol == 7):
            rows += [(f"play {face.name} @{t}", PLAY, f, int(fa["color"][f]), t) for t in range(num_players)]
        else:
            rows.append((f"play {face.name}", PLAY, f, int(fa["color"][f]), -1))
    for kind in (DRAW, KEEP, PASS, CHALLENGE, ACCEPT, UNO):
        rows.append((ACTION_TYPES[kind], kind, -1, -1, -1))
    rows += [(f"catch @{t}", CATCH, -1, -1, t) for t in range(num_players)]
    colors = (0, 1, 2, 3, 4, 5, 6, 7) if deck.two_sided else (0, 1, 2, 3)
    rows += [(f"choose {COLOR_LETTERS[c]}", CHOOSE, -1, c, -1) for c in colors]
    names = tuple(r[0] for r in rows)
    return ActionTable(
        names=names,
        kind=np.array([r[1] for r in rows], np.int8),
        face=np.array([r[2] for r in rows], np.int16),
        color=np.array([r[3] for r in rows], np.int8),
        target=np.array([r[4] for r in rows], np.int8),
        index={n: i for i, n in enumerate(names)},
    )

"""Reading the table's memory (``core.memory``): ``MemoryView``, the memory of a game's state with the readers
agents and tables use (``VecGame.memory``); ``enable``, which gives a state a memory; ``challenged_hand``, what
a challenge shows its challenger.
"""

from __future__ import annotations

import weakref

import numpy as np

from .actions import CHALLENGE
from .memory import Memory, remembered_plays, tables
from .tables import RuleTables


class MemoryView:
    """The memory of a game's state with the readers agents and tables use (``VecGame.memory``): its
    arrays by name (``view.known``, ``view.plays_n``), always those of the state's current ``memory``,
    and ``plays``, ``last_challenge``, which need the configuration's deck."""

    def __init__(self, engine: RuleTables, state):
        self.engine, self.state = engine, state

    def __getattr__(self, name: str):
        if name in ("engine", "state"):  # not set yet (a copy being rebuilt)
            raise AttributeError(name)
        return getattr(self.state.memory, name)

    def nbytes_per_game(self) -> float:
        return self.state.memory.nbytes / self.state.batch_size

    def plays(self, row: int) -> list[tuple[int, int, int]]:
        """The remembered plays of game ``row``, oldest first: (seat, face, declared colour or -1)."""
        return remembered_plays(self.state.memory, row)

    def last_challenge(self, row: int = 0) -> dict | None:
        """The last challenge of game ``row``, as its challenger saw it (rules §1.6: the hand is shown to the
        challenger only; give it to nobody else): ``{"challenger", "offender", "hand", "guilty"}``, the
        hand as card names in the notation (docs/notation.md), or None before any challenge."""
        mem = self.state.memory
        if not mem.challenges[row]:
            return None
        deck = self.engine.deck
        kinds = np.repeat(np.arange(self.engine.K), np.maximum(mem.shown[row], 0))
        return {"challenger": int(mem.challenger[row]), "offender": int(mem.offender[row]),
                "hand": [deck.kind_name(int(k)) for k in kinds], "guilty": bool(mem.guilty[row])}


def enable(engine: RuleTables, state) -> MemoryView:
    """Give ``state`` an empty memory if it has none (its hooks record from the next move; a state made with
    ``Engine.new_state(memory=True)`` has one from the start)."""
    if state.memory is None:
        state.memory = Memory.zeros(state.batch_size, tables(engine))
    return MemoryView(engine, state)


def challenged_hand(engine: RuleTables, st, row: int, action: int) -> dict | None:
    """What ``action`` would show its seat in game ``row`` if it is a challenge (rules §1.6: the offender's
    hand, to the challenger only), read before the challenge is applied; None for any other action.
    ``{"challenger", "offender", "hand" (card names, docs/notation.md), "guilty"}``.  For the AEC env's
    ``infos`` and a human challenger's screen; needs no memory (any observation layout)."""
    if engine.A_KIND[action] != CHALLENGE:
        return None
    off = int(st.origin[row])
    names = _kind_names(engine.deck)
    hand = [names[k] for k, n in enumerate(st.hands[row, off].tolist()) for _ in range(n)]  # kind order, as dealt
    return {"challenger": int(st.actor[row]), "offender": off, "hand": hand, "guilty": bool(st.guilty[row])}


_KIND_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _kind_names(deck) -> list[str]:
    """``deck.kind_name`` of every kind (read once per deck: a challenge's hand is named card by card)."""
    names = _KIND_NAMES.get(deck)
    if names is None:
        names = _KIND_NAMES[deck] = [deck.kind_name(k) for k in range(deck.num_kinds)]
    return names


__all__ = ["MemoryView", "challenged_hand", "enable"]

"""How a call that moves games takes its forced moves, and who hears of the actions: ``Settling``.

A ``Settling`` is given to each call that moves games (``Engine.step``, ``settle``, the deals) and is
never kept on the engine, which holds only the tables of one configuration: any number of games,
listeners and settings share one engine without touching each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

#: hears of the actions a call applies, chosen and forced, each just before it is applied: called with
#: ``(row, seat, action id)`` tuples (``list.extend`` is one); action -1 is the wrong-card penalty's draw
#: (``penalty.wrong_card_penalty``), whose forced moves follow
Listener = Callable[[Iterable[tuple[int, int, int]]], object]


@dataclass(frozen=True)
class Settling:
    """How a call that moves games takes the forced moves, and who hears of them: arguments of the game
    (``VecGame(forced_moves=..., chain_window=...)``) and of the call (``listener``), given to each call and
    never kept on the engine, so that any number of games, listeners and settings share one engine.

    ``bulk``: take chains of forced draws and unanswerable penalties in bulk (``forced``); ``False`` takes
    each forced move through the legal masks, one pass each (slower, the same games: the tests' reference,
    and ``Table``, which copies the game before each action).  ``chain_window``: seats one window of
    ``forced.draw_chains`` looks ahead (2 to 64), a speed setting only.  ``listener``: see ``Listener``.
    ``trace(pass, rows)``: called as each settling pass starts (benchmarks/profile_core.py --passes).
    ``ask``: take no forced move at all; the game waits on the seat with its one legal action, as on any
    decision (only the masks are refreshed): every seat is asked at every turn, so who is asked tells
    nothing that a hand explains (``VecGame(forced_moves="ask")``, the AEC env's ``ask_forced``)."""

    bulk: bool = True
    chain_window: int = 8
    listener: Listener | None = None
    trace: Callable[[int, int], object] | None = None
    ask: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.chain_window, bool) or not isinstance(self.chain_window, (int, np.integer)) \
                or not 2 <= self.chain_window <= 64:
            raise ValueError(f"chain_window={self.chain_window!r} is not allowed; it takes an integer from 2 to 64")


DEFAULT_SETTLING = Settling()

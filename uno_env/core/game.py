"""``VecGame``: B independent games of one configuration, stepped together.

>>> import numpy as np
>>> from uno_env import VecGame
>>> game = VecGame("standard_en", num_players=4, batch_size=8, seed=0)
>>> mask = game.legal_mask()                    # (8, num_actions) bool, for each game's acting seat
>>> actions = mask.argmax(1)                    # any legal action per game
>>> out = game.step(actions)                    # StepResult: round_over, rewards (8, 4), ...
>>> game.to_move.shape
(8,)

A finished round is followed at once by the next deal (``autoreset=True``, the default), and a
finished game by a new game, so a long loop measures throughput; a step reports at most one round
per game, so a round that forced moves end at its very deal waits, over, for the next step.  With
``autoreset=False`` a finished game waits (``to_move`` is -1, the mask is empty) until
``next_round``/``new_game`` is called for it; the training environments use this to read final
observations first.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .config import RuleConfig, make_rules
from .memory_view import MemoryView
from .notation import load_position, snapshot
from .observe import Observer
from .rules import Engine, StepResult, all_rows
from .scalar import ScalarStepper
from .settling import Listener, Settling
from .state import OVER, State

FORCED_MOVES = ("bulk", "one_by_one", "ask")
_ROW = all_rows(1)  # the row of a batch of one (the engine reads it as the whole batch)


def _seeds(seed, batch_size: int) -> np.ndarray:
    if seed is None:
        return np.random.SeedSequence().generate_state(batch_size, np.uint32).astype(np.int64)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return int(seed) + np.arange(batch_size, dtype=np.int64)
    arr = np.asarray(seed)
    if arr.shape != (batch_size,) or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"seed must be None, an int, or {batch_size} integers (one per game); "
                         f"got {seed!r}")
    return arr.astype(np.int64)


class VecGame:
    """A batch of independent games.

    Args:
        rules: a preset name (``standard_en``, ``standard_ru``, ``house_cn``, ``solo_bga``,
            ``flip_jp``) or a ``RuleConfig``.
        num_players: seats per game, 2 to 10.
        batch_size: number of games.
        seed: ``None`` (fresh entropy), an int (game ``i`` gets seed ``seed + i``, so it plays exactly
            as ``VecGame(..., batch_size=1, seed=seed + i)``), or one int per game.
        autoreset: deal the next round (or a new game) as soon as a round ends.
        observation: the layout of ``observe`` (``core.observe``): ``"v3"`` (the default, as in every env),
            which also turns on the table's memory (``core.memory``: ``State.memory``, read through ``memory``),
            or ``"v2"``, the older and shorter layout (the first part of v3), whose games skip the memory and
            cost less.
        memory: whether the state keeps the table's memory (``core.memory``), apart from the layout:
            ``None`` (default) as the layout needs (v3 yes, v2 no); ``True`` with v2 for agents at the table
            that read v3 through their own observer (``uno_env.opponents.layout_for`` decides both for a
            lineup); ``False`` is refused with v3, which reads it.
        forced_moves: ``"bulk"`` (default: chains of forced draws and unanswerable penalties taken many
            at once, ``core.forced``) or ``"one_by_one"`` (each through the legal masks, so that a listener
            hears of each before it is applied, with the game as it was: slower, the same games) or
            ``"ask"`` (none taken: the seat is asked, with its one legal action, as at any decision; the
            same games once that action is chosen, and who is asked tells nothing a hand explains).
        chain_window: seats one pass of the forced-draw chains looks ahead (2 to 64; a speed setting,
            the same games).
        **options: rule options overriding the preset (the names of rules §9).

    The calls that move games (``step``, ``reset``, ``new_game``, ``next_round``, ``deal_on``, ``load``) take
    a ``listener`` (``core.settling.Listener``): it hears of every action applied, chosen and forced, as
    ``(row, seat, action id)`` tuples, each before it is applied (``list.extend`` is one).  It belongs to
    the call: any number of listeners may follow one game, each passed to the calls it wants to hear of.
    """

    def __init__(self, rules: str | RuleConfig = "standard_en", num_players: int = 4,
                 batch_size: int = 1, seed=None, autoreset: bool = True, observation: str = "v3",
                 forced_moves: str = "bulk", chain_window: int = 8, memory: bool | None = None, **options):
        if forced_moves not in FORCED_MOVES:
            raise ValueError(f"forced_moves={forced_moves!r} is not allowed; use one of: {', '.join(FORCED_MOVES)}")
        self.rules = make_rules(rules, **options)
        self.settling = Settling(bulk=forced_moves == "bulk", chain_window=chain_window, ask=forced_moves == "ask")
        self.forced_moves = forced_moves
        self.engine = Engine(self.rules, num_players)
        self.observer = Observer(self.engine, observation)
        self.num_players = self.engine.P
        self.num_actions = self.engine.A
        self.observation_size = self.observer.size
        self.autoreset = autoreset
        if memory is None:
            memory = observation == "v3"
        elif not isinstance(memory, bool):
            raise ValueError(f"memory={memory!r} is not allowed; use True, False or None (as the layout needs)")
        elif not memory and observation == "v3":
            raise ValueError("memory=False is not allowed with observation='v3', which reads the table's memory; "
                             "use observation='v2' or memory=None")
        self.state: State = self.engine.new_state(batch_size, memory=memory)
        self.batch_size = self.state.batch_size
        # one game: steps by item reads (core.scalar; tests/test_scalar.py compares it with the engine)
        self._scalar = ScalarStepper(self.engine) if self.batch_size == 1 else None
        self.reset(seed)

    def __setstate__(self, state: dict) -> None:
        """A game pickled before ``forced_moves`` and ``chain_window`` were the game's takes the defaults (the
        engine kept them then; it keeps only its configuration now)."""
        state.setdefault("settling", Settling())
        state.setdefault("forced_moves", "bulk")
        self.__dict__.update(state)

    # ----------------------------------------------------------------- core loop
    def settling_with(self, listener: Listener | None) -> Settling:
        """This game's ``Settling`` (``forced_moves``, ``chain_window``) with ``listener``, for the engine's
        calls (``Engine.wrong_card_penalty``...)."""
        how = self.settling
        return how if listener is None else dataclasses.replace(how, listener=listener)

    def reset(self, seed=None, listener: Listener | None = None) -> None:
        """Start a new game in every row."""
        rows = np.arange(self.batch_size)
        self.engine.seed_rows(self.state, rows, _seeds(seed, self.batch_size))
        self.engine.new_games(self.state, rows, self.settling_with(listener))

    def legal_mask(self) -> np.ndarray:
        """``(B, A) bool`` legal actions of each game's acting seat (read-only view)."""
        m = self.state.mask.view()
        m.flags.writeable = False
        return m

    @property
    def to_move(self) -> np.ndarray:
        """``(B,)`` the seat asked in each game (-1 where the round is over and waiting)."""
        return np.where(self.state.phase == OVER, -1, self.state.actor).astype(np.int64)

    def step(self, actions, listener: Listener | None = None) -> StepResult:
        """Apply one action per game; see ``StepResult``.  Raises ``IllegalActionError`` (a
        ``ValueError``) naming the game, the action and the legal ones if any action is illegal; no
        game is changed then.  ``listener`` hears of every action applied, the forced ones included."""
        if self._scalar is not None:
            return self._step_one(actions, listener)
        return self.engine.step(self.state, actions, self.autoreset, self.settling_with(listener))

    def _step_one(self, actions, listener: Listener | None) -> StepResult:
        """``Engine.step`` for a batch of one through the scalar path (``core.scalar``): the same
        checks, moves and result at a fraction of the cost of the array operations on one row."""
        e, st = self.engine, self.state
        a = np.asarray(actions)
        if a.shape != (1,) or not np.issubdtype(a.dtype, np.integer) or st.phase.item(0) == OVER:
            return e.step(st, a, self.autoreset, self.settling_with(listener))  # its error, or a round already over
        e.check_rows(st, _ROW, a)
        self._scalar.step(st, a.item(0), listener, self.settling.ask)  # type: ignore[union-attr]  # set: _step_one's caller checked
        out = e.result(st, np.zeros(1, bool))
        if self.autoreset and out.round_over.item(0):
            e.deal_and_settle(st, _ROW, out, self.settling_with(listener))
        return out

    def next_round(self, rows, listener: Listener | None = None) -> None:
        """Deal the next round in finished ``rows`` (a new game where the game is over)."""
        self.engine.next_rounds(self.state, np.atleast_1d(np.asarray(rows, np.intp)), how=self.settling_with(listener))

    def deal_on(self, rows, listener: Listener | None = None) -> np.ndarray:
        """Deal the next round of the same game in finished ``rows``, again where a deal ends its round at
        once (forced moves, as with one-card hands), until each has a round in play or its game is over;
        returns the rows whose game ended on the way (they wait, over)."""
        rows = np.atleast_1d(np.asarray(rows, np.intp))
        st = self.state
        while True:
            todo = rows[(st.phase[rows] == OVER) & ~st.game_over[rows]]
            if todo.size == 0:
                return rows[st.phase[rows] == OVER]
            self.next_round(todo, listener)

    @property
    def memory(self) -> MemoryView | None:
        """What the table has seen (``State.memory``, observation v3), with its readers; None without it."""
        return MemoryView(self.engine, self.state) if self.state.memory is not None else None

    @property
    def scalar(self) -> ScalarStepper | None:
        """The one-game stepper of a batch of one (None otherwise), shared by the one-game environments."""
        return self._scalar

    def new_game(self, rows, seeds=None, listener: Listener | None = None) -> None:
        """Start new games in ``rows`` (optionally reseeding them)."""
        rows = np.atleast_1d(np.asarray(rows, np.intp))
        if seeds is not None:
            self.engine.seed_rows(self.state, rows, np.asarray(seeds, np.int64))
        self.engine.new_games(self.state, rows, self.settling_with(listener))

    def observe(self, seats=None, rows=None) -> np.ndarray:
        """``(n, observation_size) float32`` observations; by default of every game's acting seat."""
        rows = np.arange(self.batch_size) if rows is None else np.asarray(rows, np.intp)
        if seats is None:
            seats = self.state.actor[rows]
        seats = np.broadcast_to(np.asarray(seats, np.intp), rows.shape)
        if ((seats < 0) | (seats >= self.num_players)).any():
            raise ValueError(f"seats must be in 0..{self.num_players - 1}, got {seats}")
        return self.observer.observe(self.state, rows, seats)

    # ----------------------------------------------------------------- names and positions
    @property
    def action_names(self) -> tuple[str, ...]:
        return self.engine.actions.names

    def action_name(self, i: int) -> str:
        """The code of action id ``i``, e.g. ``"play R5"``, ``"play W G"`` (a wild, declaring green),
        ``"draw"``, ``"catch @1"`` (docs/notation.md#legend explains every code).  Ids are columns of
        ``legal_mask()`` and what ``step`` takes; they depend on the rules and player count.  Raises
        ``ValueError`` for an id out of range."""
        return self.engine.actions.name(i)

    def action_index(self, name: str) -> int:
        """The action id of the code ``name`` (the inverse of ``action_name``):
        ``game.step(np.array([game.action_index("draw")]))``.  Raises ``ValueError`` naming the code and
        showing what codes look like if no action has it."""
        return self.engine.actions.id(name)

    def legal_actions(self, row: int = 0) -> list[str]:
        """The codes of the actions legal in game ``row`` for the seat asked, in id order, e.g.
        ``['play Y2', 'play W R', ..., 'draw']``; empty where the round is over.  ``legal_mask()`` gives
        the same as a boolean array over all ids."""
        return [self.engine.actions.names[j] for j in np.flatnonzero(self.state.mask[row])]

    def snapshot(self, row: int = 0) -> dict:
        """The position of game ``row`` in the notation (docs/notation.md; JSON-serialisable)."""
        return snapshot(self.engine, self.state, row)

    def load(self, setup: dict, row: int = 0, listener: Listener | None = None) -> None:
        """Set game ``row`` to the position ``setup`` (docs/notation.md); its rules, options and player
        count must be this game's.  ``listener`` hears of the forced moves it takes."""
        load_position(self.engine, self.state, row, setup, self.settling_with(listener))

    @classmethod
    def from_position(cls, setup: dict, batch_size: int = 1, autoreset: bool = False,
                      observation: str = "v3", memory: bool | None = None) -> VecGame:
        """A game (or ``batch_size`` copies) in the position ``setup``."""
        from .notation import config_of
        rules, players = config_of(setup)
        game = cls(rules, players, batch_size=batch_size, seed=0, autoreset=autoreset, observation=observation,
                   memory=memory)
        for row in range(batch_size):
            game.load(setup, row)
        return game

"""Game records: played games as JSON lines, replayed exactly from their seed (docs/records.md).

One game (one episode: a round, or a whole game with ``episode="game"``) per line, so a truncated file
loses at most its last game and an error names the line::

    {"format": "uno-record", "version": 1, "env": "uno_v4", "rules": "standard_en", "options": {},
     "num_players": 2, "seed": 7, "start": null, "episode": "round", "agents": ["heuristic", "random"],
     "actions": [[0, 12], [1, 40], ...],
     "result": {"scores": [..], "winner": 0, "round_points": 31, "rounds": 1, "truncated": false,
                "game_over": false, "rewards": [1.0, -1.0], "final": "3f0c..."},
     "steps": null, "info": {}}

The engine is deterministic given a game's seed and the actions chosen, so a record holds only those:
``actions`` lists every action a seat chose, in order (the forced moves the engine plays itself are
not listed; replaying the chosen actions reproduces them).  ``start`` is ``null`` when the episode is
the first deal of ``VecGame(rules, num_players, seed=seed)``, else the position it began from (a
snapshot in the notation, docs/notation.md).  ``result.final`` is a digest of the final position, so
``check`` verifies the whole state, not only the scores.  ``steps`` optionally holds each decision's
observation, legal mask and reward (for offline RL without replaying, pinned to the observation layout
of the recording version).

``write_records``/``RecordWriter`` write, ``read_records`` reads (a bad line raises ``RecordError``
naming the file and line; what each field may hold is checked as it is read; a last line cut short, as a
writer that crashed leaves one, is skipped with a ``TruncatedRecordWarning`` naming the file and line, or
raises with ``strict=True``), ``replay`` steps a batch-1 ``VecGame`` through a record, ``check`` verifies
it (its errors name the file and line the record was read from), ``transitions`` yields per-seat
``(obs, mask, action, reward, next_obs, done)`` tuples for behaviour cloning and offline RL, and
``Recorder`` builds records from B games played together.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .core.config import make_rules
from .core.game import VecGame
from .core.notation import MEMORY_KEYS
from .core.rules import Engine
from .core.state import OVER
from .version import ENV_VERSION

FORMAT, VERSION = "uno-record", 1
EPISODES = ("round", "game")
_REQUIRED = ("rules", "num_players", "seed", "episode", "actions", "result")
PLAYERS = (2, 10)  # the fewest and most seats of a game
SEEDS = (-(2 ** 63), 2 ** 63 - 1)  # a game's seed is a 64-bit signed integer


class RecordError(ValueError):
    """A record that cannot be read or does not replay to its stored result; says where and why."""


class TruncatedRecordWarning(UserWarning):
    """A record file's last line is cut short (its writer stopped mid-line) and was skipped."""


@functools.lru_cache(maxsize=64)
def _num_actions(rules: str, options: str, players: int) -> int:
    """The number of action ids of a configuration (``options`` as sorted JSON, so that it can be cached);
    raises ``ValueError`` naming an unknown preset or option or a value not allowed."""
    return int(Engine(make_rules(rules, **json.loads(options)), players).A)


@dataclass
class GameRecord:
    """One recorded episode (see the module docstring for the fields)."""

    rules: str
    num_players: int
    seed: int
    episode: str
    actions: list[list[int]]
    result: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)
    agents: list[str] = field(default_factory=list)
    start: dict | None = None
    steps: list[dict] | None = None
    env: str = ""
    info: dict[str, Any] = field(default_factory=dict)
    # where the record was read from ("games.jsonl, line 3"; ``read_records`` sets it), for error messages;
    # never written to a file
    source: str = field(default="", repr=False, compare=False)

    @property
    def where(self) -> str:
        return self.source or "record"

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("source")
        head = {"format": FORMAT, "version": VERSION, "env": d.pop("env"), "rules": d.pop("rules"),
                "options": d.pop("options"), "num_players": d.pop("num_players"), "seed": d.pop("seed"),
                "start": d.pop("start"), "episode": d.pop("episode"), "agents": d.pop("agents")}
        return {**head, **d}

    @classmethod
    def from_json(cls, d: Any, where: str = "record") -> GameRecord:
        if not isinstance(d, dict):
            raise RecordError(f"{where}: a record is a JSON object, got {type(d).__name__}")
        if d.get("format") != FORMAT:
            raise RecordError(f"{where}: 'format' must be {FORMAT!r}, got {d.get('format')!r}")
        if d.get("version") != VERSION:
            raise RecordError(f"{where}: record version {d.get('version')!r} is not supported (this is version "
                              f"{VERSION})")
        missing = [k for k in _REQUIRED if k not in d]
        if missing:
            raise RecordError(f"{where}: missing field(s) {', '.join(missing)}")
        unknown = set(d) - {"format", "version"} - {f for f in cls.__dataclass_fields__ if f != "source"}
        if unknown:
            raise RecordError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        rec = cls(**{k: v for k, v in d.items() if k not in ("format", "version")})
        if rec.episode not in EPISODES:
            raise RecordError(f"{where}: 'episode' must be 'round' or 'game', got {rec.episode!r}")
        for k in ("num_players", "seed"):
            if isinstance(getattr(rec, k), bool) or not isinstance(getattr(rec, k), int):
                raise RecordError(f"{where}: {k!r} must be an integer, got {getattr(rec, k)!r}")
        if not PLAYERS[0] <= rec.num_players <= PLAYERS[1]:
            raise RecordError(f"{where}: 'num_players' must be from {PLAYERS[0]} to {PLAYERS[1]}, "
                              f"got {rec.num_players}")
        if not SEEDS[0] <= rec.seed <= SEEDS[1]:
            raise RecordError(f"{where}: 'seed' must be a 64-bit integer, from -2**63 to 2**63 - 1, got {rec.seed}")
        if not isinstance(rec.rules, str):
            raise RecordError(f"{where}: 'rules' must be a preset's name, got {rec.rules!r}")
        if not isinstance(rec.options, dict):
            raise RecordError(f"{where}: 'options' must be an object of rule options, got {rec.options!r}")
        try:
            actions = _num_actions(rec.rules, json.dumps(rec.options, sort_keys=True), rec.num_players)
        except (ValueError, TypeError) as exc:  # unknown preset or option, a value not allowed
            raise RecordError(f"{where}: {exc}") from None
        if not isinstance(rec.actions, list) or not all(
                isinstance(x, list) and len(x) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in x)
                for x in rec.actions):
            raise RecordError(f"{where}: 'actions' must be a list of [seat, action_id] integer pairs")
        for i, (seat, a) in enumerate(rec.actions):
            if not (0 <= seat < rec.num_players and 0 <= a < actions):
                raise RecordError(f"{where}: action {i} is [{seat}, {a}]: seats are 0 to {rec.num_players - 1} and "
                                  f"action ids 0 to {actions - 1} for {rec.rules} with {rec.num_players} players")
        if not isinstance(rec.result, dict):
            raise RecordError(f"{where}: 'result' must be an object")
        if rec.start is not None and not isinstance(rec.start, dict):
            raise RecordError(f"{where}: 'start' must be null or a position (an object), got {rec.start!r}")
        if not isinstance(rec.agents, list) or not all(isinstance(a, str) for a in rec.agents):
            raise RecordError(f"{where}: 'agents' must be a list of names, got {rec.agents!r}")
        if not isinstance(rec.info, dict):
            raise RecordError(f"{where}: 'info' must be an object, got {rec.info!r}")
        if rec.steps is not None and not isinstance(rec.steps, list):
            raise RecordError(f"{where}: 'steps' must be null or a list, got {type(rec.steps).__name__}")
        rec.source = where if where != "record" else ""
        return rec


# ---------------------------------------------------------------------- files
def _open(path, mode: str):
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")
    return open(path, mode, encoding="utf-8")


class RecordWriter:
    """Writes records one line each as they come (``with RecordWriter(path) as w: w.write(rec)``);
    ``.gz`` paths are gzip-compressed; ``append=True`` adds to an existing file."""

    def __init__(self, path, append: bool = False):
        self.path = Path(path)
        self._f = _open(self.path, "a" if append else "w")
        self.count = 0

    def write(self, record: GameRecord) -> None:
        self._f.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
        self.count += 1

    def flush(self) -> None:
        self._f.flush()

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def write_records(path, records: Iterable[GameRecord], append: bool = False) -> int:
    """Write ``records`` to ``path`` (JSON lines); returns how many."""
    with RecordWriter(path, append) as w:
        for r in records:
            w.write(r)
        return w.count


def read_records(path, strict: bool = False) -> Iterator[GameRecord]:
    """The records of ``path`` in order.  A line that is not a valid record raises ``RecordError`` naming
    the file and line number.  A last line cut short (no newline, not whole JSON: a writer that stopped
    mid-line, or a gzip file cut short) is skipped with a ``TruncatedRecordWarning`` naming the file and
    line, since every record before it is whole; ``strict=True`` raises ``RecordError`` instead."""
    no = 0
    with _open(path, "r") as f:
        lines = iter(f)
        while True:
            try:
                line = next(lines)
            except StopIteration:
                return
            except EOFError as exc:  # a gzip stream cut short: the line being read is lost
                _cut_short(f"{path}, line {no + 1}", f"the compressed file ends early ({exc})", strict)
                return
            no += 1
            if not line.strip():
                continue
            where = f"{path}, line {no}"
            try:
                d = json.loads(line)
            except json.JSONDecodeError as exc:
                if not line.endswith("\n"):  # the last line, cut short
                    _cut_short(where, f"not valid JSON ({exc.msg} at column {exc.colno})", strict)
                    return
                raise RecordError(f"{where}: not valid JSON: {exc.msg} at column {exc.colno}") from None
            yield GameRecord.from_json(d, where)


def _cut_short(where: str, why: str, strict: bool) -> None:
    if strict:
        raise RecordError(f"{where}: the last line is cut short, {why}: the file was truncated "
                          f"(read_records(..., strict=False) skips that line)")
    warnings.warn(f"{where}: skipped the last line, cut short ({why}): the file was truncated, as a writer "
                  f"that stopped mid-line leaves it; the records before it are whole", TruncatedRecordWarning,
                  stacklevel=3)


# ---------------------------------------------------------------------- replay
@dataclass
class ReplayStep:
    """A recorded action applied: ``game`` (a batch-1 ``VecGame``, shared between steps) is positioned
    after it; ``events`` lists every ``(seat, action name)`` the engine applied, the forced moves that
    followed included; ``round_over`` says the action ended a round (with ``episode="game"`` the next
    round is dealt before the next step)."""

    index: int
    seat: int
    action: int
    name: str
    game: VecGame
    events: list[tuple[int, str]]
    round_over: bool
    reward: np.ndarray  # (P,) the episode's rewards if it ended with this action, else zeros


def start_game(record: GameRecord, where: str | None = None) -> VecGame:
    """A batch-1 ``VecGame`` at the start of ``record``'s episode."""
    where = where or record.where
    try:
        game = VecGame(record.rules, record.num_players, batch_size=1, seed=record.seed, autoreset=False,
                       observation="v3", **record.options)  # v3 (the envs' layout); v2 is its first part
    except (ValueError, OverflowError) as exc:  # a record built in code, not read (read_records checks these)
        raise RecordError(f"{where}: {exc}") from None
    if record.start is not None:
        try:
            game.load(record.start)
        except ValueError as exc:
            raise RecordError(f"{where}: 'start' is not a position of these rules: {exc}") from None
    return game


def _deal_on(game: VecGame) -> None:
    """``episode="game"``: deal the next round, and again while a deal ends its round at once."""
    game.deal_on(0)


def _episode_rewards(game: VecGame, episode: str) -> np.ndarray:
    """``(P,)`` rewards of a finished episode: the round's (+1 winner, -1 others, 0 void) or the game's."""
    out = game.engine.result(game.state, np.zeros(1, bool))
    return (out.rewards[0] if episode == "round" else out.game_rewards[0]).astype(np.float32)


def replay(record: GameRecord, where: str | None = None, game: VecGame | None = None) -> Iterator[ReplayStep]:
    """Apply ``record``'s actions one by one to a batch-1 ``VecGame`` (``game``, from ``start_game``, or a
    new one); a recorded action that is not the seat's turn or not legal raises ``RecordError`` (the
    record belongs to other rules or another version), naming ``where`` (default: the file and line the
    record was read from)."""
    where = where or record.where
    game = start_game(record, where) if game is None else game
    st, names, P, n = game.state, game.action_names, game.num_players, len(record.actions)
    for i, (seat, a) in enumerate(record.actions):
        if record.episode == "game":
            _deal_on(game)
        if st.phase[0] == OVER:
            raise RecordError(f"{where}: action {i} ({seat}, {a}) comes after the episode ended")
        if seat != int(st.actor[0]) or not 0 <= a < game.num_actions or not st.mask[0, a]:
            raise RecordError(f"{where}: action {i} is seat {seat} playing {a} "
                              f"({names[a] if 0 <= a < len(names) else 'no such id'}), but seat "
                              f"{int(st.actor[0])} is asked, with legal actions {', '.join(game.legal_actions(0))}")
        moves: list[tuple[int, int, int]] = []  # every move the step applies, the forced ones included
        out = game.step(np.array([a]), listener=moves.extend)
        events = [(int(s), names[x]) for _, s, x in moves if x >= 0]
        ended = bool(out.round_over[0])
        if ended and i == n - 1 and record.episode == "game":
            _deal_on(game)  # the last action: deals that end at once finish the game
        done = st.phase[0] == OVER and (record.episode == "round" or bool(st.game_over[0]))
        reward = _episode_rewards(game, record.episode) if done else np.zeros(P, np.float32)
        yield ReplayStep(i, int(seat), int(a), names[a], game, events, ended, reward)


def final_digest(game: VecGame, row: int = 0) -> str:
    """A short digest of game ``row``'s position (its snapshot in the notation), to compare states: the
    cards and the decision, not the table's memory (which a v3 game keeps and a v2 replay does not)."""
    snap = {k: v for k, v in game.snapshot(row).items() if k not in MEMORY_KEYS}
    text = json.dumps(snap, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _result(game: VecGame, row: int, rewards) -> dict:
    st = game.state
    return {"scores": [int(x) for x in st.scores[row]], "winner": int(st.winner[row]),
            "round_points": int(st.round_points[row]), "rounds": int(st.rounds[row]),
            "truncated": bool(st.truncated[row]), "game_over": bool(st.game_over[row]),
            "rewards": [float(x) for x in rewards], "final": final_digest(game, row)}


def check(record: GameRecord, where: str | None = None) -> dict:
    """Replay ``record`` and verify that it ends where it says (episode over, same result and final
    position); returns the replayed result, or raises ``RecordError`` naming what differs and where
    (``where``, default the file and line the record was read from)."""
    where = where or record.where
    game = start_game(record, where)
    for _ in replay(record, where, game):
        pass
    if record.episode == "game":
        _deal_on(game)
    st = game.state
    if st.phase[0] != OVER or (record.episode == "game" and not st.game_over[0]):
        raise RecordError(f"{where}: the actions end before the episode does ({len(record.actions)} actions)")
    got = _result(game, 0, _episode_rewards(game, record.episode))
    diff = {k: (v, got.get(k)) for k, v in record.result.items() if got.get(k) != v}
    if diff:
        raise RecordError(f"{where}: the replay does not match the record: "
                          + "; ".join(f"{k} recorded {a!r}, replayed {b!r}" for k, (a, b) in diff.items()))
    return got


# ---------------------------------------------------------------------- transitions
@dataclass
class Transition:
    """One decision of one seat: what it saw, what it did, what came of it before its next decision
    (``reward``; the episode's reward on its last one, ``done``) and what it saw then (``next_obs``)."""

    seat: int
    obs: np.ndarray
    mask: np.ndarray
    action: int
    reward: float
    next_obs: np.ndarray
    done: bool


def transitions(record: GameRecord, observe: Callable[[VecGame, int], np.ndarray] | None = None
                ) -> Iterator[Transition]:
    """Per-seat transitions of ``record``, each yielded once the seat's next decision (or the episode's
    end) is known.  ``observe(game, seat)`` gives an observation (default: the game's own observer, the
    current observation layout)."""
    if observe is None:
        def observe(g, s):
            return g.observer.observe_one(g.state, s)
    game = start_game(record)
    steps = replay(record, game=game)
    waiting: dict[int, tuple] = {}  # seat -> (obs, mask, action) of its last decision
    reward = np.zeros(game.num_players, np.float32)
    for seat, a in record.actions:
        if record.episode == "game":
            _deal_on(game)
        obs, mask = observe(game, seat), game.state.mask[0].copy()
        if seat in waiting:
            yield Transition(seat, *waiting.pop(seat), 0.0, obs, False)
        reward = next(steps).reward
        waiting[seat] = (obs, mask, a)
    for seat, (obs, mask, a) in sorted(waiting.items()):
        yield Transition(seat, obs, mask, a, float(reward[seat]), observe(game, seat), True)


def dataset(paths, observe=None, strict: bool = False) -> dict[str, np.ndarray]:
    """Every transition of the record files ``paths`` as stacked arrays (``obs``, ``mask``, ``action``,
    ``reward``, ``next_obs``, ``done``, ``seat``): a behaviour-cloning or offline-RL data set.  An error
    names the file and line of the record; a last line cut short is skipped (``read_records``; ``strict``
    raises instead)."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    cols: dict[str, list] = {k: [] for k in ("obs", "mask", "action", "reward", "next_obs", "done", "seat")}
    for p in paths:
        for rec in read_records(p, strict=strict):
            for t in transitions(rec, observe):
                for k in cols:
                    cols[k].append(getattr(t, k))
    if not cols["obs"]:
        raise RecordError(f"no decisions in {', '.join(map(str, paths))}")
    return {k: np.asarray(v) for k, v in cols.items()}


# ---------------------------------------------------------------------- recording
class Recorder:
    """Builds records of the B games of a ``VecGame`` as they are played.

    Call ``begin(rows)`` when episodes start in ``rows`` (``fresh=True`` only for the first deal of a
    game seeded by ``VecGame(seed=...)`` or ``new_game(rows, seeds)``), ``act(rows, seats, actions)``
    with every decision, before it is applied, and ``end(rows)`` when episodes end;
    ``end`` returns the finished ``GameRecord`` objects and passes them to ``sink`` (e.g. a
    ``RecordWriter``'s ``write``).  ``steps=True`` also stores each decision's observation (given to
    ``act``), mask and the seat's reward.
    """

    def __init__(self, game: VecGame, episode: str = "round", agents=None, sink=None, steps: bool = False,
                 env: str | None = None):
        if episode not in EPISODES:
            raise ValueError(f"episode={episode!r} is not allowed; use 'round' or 'game'")
        c = game.rules
        from .core.config import PRESETS
        base = c.name if c.name in PRESETS else "standard_en"
        self.game, self.episode, self.sink, self.steps = game, episode, sink, steps
        self.rules, self.options = base, c.diff(PRESETS[base])
        self.env = env or ENV_VERSION
        self.agents = agents  # a list of names per seat, or a callable row -> list
        B = game.batch_size
        self._start: list = [None] * B
        self._seed = [0] * B
        self._actions: list[list] = [[] for _ in range(B)]
        self._steps: list[list | None] = [None] * B
        self._open = np.zeros(B, bool)

    def begin(self, rows, fresh: bool = False) -> None:
        st = self.game.state
        for r in np.atleast_1d(np.asarray(rows, np.intp)).tolist():
            self._seed[r] = int(st.seed[r])
            self._start[r] = None if fresh else self.game.snapshot(r)
            self._actions[r] = []
            self._steps[r] = [] if self.steps else None
            self._open[r] = True

    def act(self, rows, seats, actions, obs=None) -> None:
        """Record the decisions about to be applied in ``rows`` (call before stepping: the masks are read)."""
        rows = np.atleast_1d(np.asarray(rows, np.intp))
        seats, actions = np.broadcast_to(seats, rows.shape).tolist(), np.broadcast_to(actions, rows.shape).tolist()
        for k, (r, s, a) in enumerate(zip(rows.tolist(), seats, actions)):
            self._actions[r].append([int(s), int(a)])
            if self._steps[r] is not None:
                o = obs[k] if obs is not None else self.game.observe(seats=[s], rows=[r])[0]
                self._steps[r].append({"seat": int(s), "obs": np.asarray(o).tolist(),
                                       "mask": np.flatnonzero(self.game.state.mask[r]).tolist(), "reward": 0.0})

    def drop(self, rows) -> None:
        """Forget the episodes in progress in ``rows`` (not replayable, e.g. an illegal move changed them)."""
        self._open[np.atleast_1d(np.asarray(rows, np.intp))] = False

    def end(self, rows, rewards=None, info=None) -> list[GameRecord]:
        """Close the episodes of ``rows`` (over: their round, or with ``episode="game"`` their game);
        ``rewards`` ``(n, P)`` defaults to the finished round's (or game's) +1/-1; ``info``: one dict per row."""
        rows = np.atleast_1d(np.asarray(rows, np.intp))
        if rewards is None:
            out = self.game.engine.result(self.game.state, np.zeros(rows.size, bool), rows)
            rewards = out.rewards if self.episode == "round" else out.game_rewards
        rewards = np.asarray(rewards, np.float32).reshape(rows.size, -1)
        out = []
        for k, r in enumerate(rows.tolist()):
            if not self._open[r]:
                continue
            names = self.agents(r) if callable(self.agents) else (self.agents or [])
            steps = self._steps[r]
            if steps:  # each seat's last decision carries its reward
                last = {}
                for j, s in enumerate(steps):
                    last[s["seat"]] = j
                for seat, j in last.items():
                    steps[j]["reward"] = float(rewards[k, seat])
            rec = GameRecord(self.rules, self.game.num_players, self._seed[r], self.episode, self._actions[r],
                             _result(self.game, r, rewards[k]), dict(self.options), list(names), self._start[r],
                             steps, self.env, dict(info[k]) if info is not None else {})
            self._open[r] = False
            out.append(rec)
            if self.sink is not None:
                self.sink(rec)
        return out


__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordError", "RecordWriter", "Recorder", "ReplayStep",
           "Transition", "check", "dataset", "final_digest", "read_records", "replay", "start_game",
           "transitions", "write_records"]

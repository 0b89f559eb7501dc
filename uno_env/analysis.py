"""Batched measurements of whole rounds, for research notebooks and quick experiments.

``simulate_rounds`` plays exactly ``rounds`` rounds of one configuration through ``VecGame`` and
returns one record per round (``RoundRecords``)::

    >>> from uno_env.analysis import simulate_rounds
    >>> rec = simulate_rounds("standard_en", num_players=4, rounds=200, policy="play_first", seed=0)
    >>> len(rec), rec.turns.shape
    (200, (200,))
    >>> rates = rec.seat_win_rates()    # win rate by seat, counted clockwise from the first seat

Per round it records the length (``turns``: actions counted by the engine, forced draws included;
``decisions``: choices the policy was asked for), the winner, the dealer and the *first seat* (the
seat left of the dealer, who opens the round unless the first card says otherwise), the points
scored, truncation, the largest hand held, and for UNO Flip the number of side changes, the side at
the end and the actions spent on each side.  The stretches of play between side changes are kept as
``SideSegments``.

Sampling is unbiased in round length: exactly ``rounds`` rounds are dealt and every one of them is
played to its end (stopping when ``rounds`` had *finished* would over-sample short rounds).

Policies (``policy``): ``"play_first"`` (uniformly random among the legal plays, drawing or passing
only when no card can be played; ``uno``/``catch`` are never chosen while a play is legal),
``"uniform"`` (uniformly random among all legal actions: it draws voluntarily a lot, so rounds are
very long), the name of an agent (``"heuristic"``, ``"greedy"``, ``"random"`` or a shipped trained
agent, loaded by the installed agent loader, ``uno_env.opponents``: this project's is ``agents.load``;
this module never imports ``agents``), an agent object (anything with ``act(observations, masks, rng)``),
or a list of those, one per seat.
``PlayFirstAgent`` and ``UniformAgent`` are the built-in policies as agents (for ``play_match`` too).

Numpy only: no RL framework is imported here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from . import arena, opponents
from .core.actions import PLAY
from .core.game import VecGame
from .core.rows import sel

BUILTIN_POLICIES = ("play_first", "uniform")


def random_legal(mask: np.ndarray, rng: np.random.Generator, play_bonus: np.ndarray | None = None) -> np.ndarray:
    """``(B,)`` a uniformly random legal action per row of ``mask``; with ``play_bonus`` (1 for the play
    actions, 0 elsewhere) a random legal *play* wherever one exists."""
    r = rng.random(mask.shape, dtype=np.float32)
    r += 1e-3  # keep every legal action above the zeroed illegal ones
    if play_bonus is not None:
        r += play_bonus
    r *= mask
    return r.argmax(1)


class PlayFirstAgent:
    """The ``play_first`` policy as an agent (``act(observations, masks, rng)``): a uniformly random
    legal play, drawing, keeping or passing only when no card can be played.  A baseline between
    ``agents``' ``random`` (which draws voluntarily as often as it plays) and the scripted bots.

    ``game`` is the ``VecGame`` (or an env wrapping one) whose action layout the masks follow.  It reads
    only the masks (``observes = False``: a match builds no observation for it).
    """

    name = "play_first"
    observes = False
    prefers_plays = True

    def __init__(self, game, seed: int | None = None):
        inner = getattr(game, "unwrapped", game)
        inner = getattr(inner, "game", inner)
        engine = getattr(inner, "engine", None)
        if engine is None:
            raise ValueError(f"PlayFirstAgent needs a VecGame or an env of one, got {game!r}")
        self.play_bonus = (engine.A_KIND == PLAY).astype(np.float32)
        self.rng = np.random.default_rng(seed)

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        mask = np.asarray(action_masks, bool)
        if mask.ndim == 1:
            mask = mask[None]
        if mask.shape[1] != self.play_bonus.size:
            raise ValueError(f"masks have {mask.shape[1]} actions; this agent's game has {self.play_bonus.size}")
        if not mask.any(1).all():
            raise ValueError("every row of action_masks needs a legal action")
        return random_legal(mask, rng or self.rng, self.play_bonus if self.prefers_plays else None)


class UniformAgent(PlayFirstAgent):
    """The ``uniform`` policy as an agent: uniformly random among all legal actions (it draws voluntarily
    a lot, so rounds are very long)."""

    name = "uniform"
    prefers_plays = False


@dataclass
class SideSegments:
    """Stretches of a UNO Flip round played on one side, in actions (``turns``).

    ``complete`` is False for the last stretch of each round, which the end of the round cut short;
    ``round`` is the index of the round (into ``RoundRecords``) the stretch belongs to.
    Side changes are observed between decisions; a decision followed by forced moves counts as one
    step, so a stretch ends at the end of the step that flipped (at most a few forced draws late).
    """

    side: np.ndarray  # int8  0 light, 1 dark
    length: np.ndarray  # int32 actions on that side
    complete: np.ndarray  # bool  ended by a flip (not by the end of the round)
    round: np.ndarray  # int64 index of the round

    def __len__(self) -> int:
        return int(self.side.size)


@dataclass
class RoundRecords:
    """One entry per finished round (arrays of equal length), plus the configuration measured."""

    rules: str
    num_players: int
    policy: str
    seconds: float
    turns: np.ndarray  # int32 actions in the round (engine count: plays, draws, keeps, passes, challenges)
    decisions: np.ndarray  # int32 decisions the policy made in the round
    winner: np.ndarray  # int8  the round's winner (-1: void round)
    dealer: np.ndarray  # int8
    first_seat: np.ndarray  # int8 the seat left of the dealer
    points: np.ndarray  # int32 points scored by the round
    truncated: np.ndarray  # bool stopped by max_turns_per_round
    max_hand: np.ndarray  # int16 the largest hand any seat held (sampled after every decision)
    start_side: np.ndarray  # int8 side after the deal (0 unless a Flip was turned first and applied)
    final_side: np.ndarray  # int8 side when the round ended
    flips: np.ndarray  # int16 side changes during play
    light_turns: np.ndarray  # int32 actions played on the light side
    dark_turns: np.ndarray  # int32 actions played on the dark side
    segments: SideSegments

    def __len__(self) -> int:
        return int(self.turns.size)

    @property
    def decided(self) -> np.ndarray:
        """``(n,) bool``: rounds with a winner (not void)."""
        return self.winner >= 0

    def winner_offset(self) -> np.ndarray:
        """Seat of the winner counted clockwise from the first seat: 0 is the first seat, ``P - 1``
        the dealer; -1 for a void round."""
        off = (self.winner.astype(np.int64) - self.first_seat) % self.num_players
        return np.where(self.decided, off, -1)

    def seat_win_rates(self) -> np.ndarray:
        """``(P,)`` share of the decided rounds won by each seat, counted clockwise from the first
        seat (index 0) to the dealer (index ``P - 1``)."""
        off = self.winner_offset()
        off = off[off >= 0]
        return np.bincount(off, minlength=self.num_players) / max(1, off.size)

    def first_seat_wins(self) -> tuple[int, int]:
        """``(wins of the first seat, decided rounds)``."""
        off = self.winner_offset()
        return int((off == 0).sum()), int((off >= 0).sum())

    def select(self, which) -> RoundRecords:
        """The records of the rounds ``which`` (a boolean mask or indices); segments follow."""
        idx = np.arange(len(self))[which]
        keep = np.isin(self.segments.round, idx)
        remap = np.full(len(self), -1, np.int64)
        remap[idx] = np.arange(idx.size)
        seg = SideSegments(self.segments.side[keep], self.segments.length[keep], self.segments.complete[keep],
                           remap[self.segments.round[keep]])
        arrays = {f.name: getattr(self, f.name)[idx] for f in fields(self)
                  if isinstance(getattr(self, f.name), np.ndarray)}
        return RoundRecords(self.rules, self.num_players, self.policy, self.seconds, segments=seg, **arrays)

    def summary(self) -> dict:
        """Headline numbers: rounds, length quantiles, first-seat win rate, truncation and void shares."""
        wins, n = self.first_seat_wins()
        t = self.turns
        return {
            "rules": self.rules, "players": self.num_players, "policy": self.policy, "rounds": len(self),
            "turns_mean": float(t.mean()) if t.size else float("nan"),
            "turns_median": float(np.median(t)) if t.size else float("nan"),
            "turns_p90": float(np.quantile(t, 0.9)) if t.size else float("nan"),
            "decisions_mean": float(self.decisions.mean()) if t.size else float("nan"),
            "first_seat_win_rate": wins / max(1, n), "fair_share": 1 / self.num_players,
            "points_mean": float(self.points[self.decided].mean()) if n else float("nan"),
            "truncated": float(self.truncated.mean()) if t.size else 0.0,
            "void": float((~self.decided).mean()) if t.size else 0.0,
            "flips_mean": float(self.flips.mean()) if t.size else 0.0,
            "rounds_per_second": len(self) / max(self.seconds, 1e-9),
        }


def _policy_name(p) -> str:
    return p if isinstance(p, str) else getattr(p, "name", type(p).__name__)


def _resolve(spec, game: VecGame, seed: int | None):
    """An agent object for a builtin name, a name (through the installed agent loader) or an agent."""
    if isinstance(spec, str) and spec in BUILTIN_POLICIES:
        return (PlayFirstAgent if spec == "play_first" else UniformAgent)(game, seed)
    if isinstance(spec, str):
        return opponents.load(spec, game=game, seed=seed)
    if not callable(getattr(spec, "act", None)):
        raise ValueError(f"policy must be {', '.join(map(repr, BUILTIN_POLICIES))}, an agent name, an object "
                         f"with act(observations, masks, rng), or a list of those (one per seat); got {spec!r}")
    return spec


def simulate_rounds(rules="standard_en", num_players: int = 4, rounds: int = 10_000, policy="play_first",
                    *, batch_size: int = 2048, seed: int = 0, **options) -> RoundRecords:
    """Play ``rounds`` rounds of ``rules`` (a preset name or ``RuleConfig``, with rule ``options``)
    with ``num_players`` seats, every seat choosing with ``policy`` (see the module docstring; a list
    gives one policy per seat).  ``batch_size`` games are played at once; game ``i`` is seeded
    ``seed + i``, and the built-in policies and agents draw from generators seeded with ``seed``.

    A new game starts in a row whenever a game ends (``target`` reached), with a random dealer; the
    next round's dealer otherwise follows ``next_dealer``.  The games observe the layout, and keep the
    memory, that the agents need (``uno_env.opponents.layout_for``: v3 with the table's memory when an agent
    reads v3 or does not say, v2 for the built-in policies and bots); ``observation=`` chooses.  The rounds
    are played by ``uno_env.arena`` without rotating the seats (seat ``s`` is always ``policy[s]``).
    """
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise ValueError(f"rounds must be a positive integer, got {rounds!r}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    B = int(min(batch_size, rounds))
    one_policy = not isinstance(policy, (list, tuple))
    specs = [policy] if one_policy else list(policy)
    if "observation" not in options:  # the built-in policies read no memory: they need nothing
        options.update(opponents.layout_for([s for s in specs if not (isinstance(s, str) and s in BUILTIN_POLICIES)]))
    game = VecGame(rules, num_players, batch_size=B, seed=seed, autoreset=False, **options)
    P = game.num_players
    specs = specs * P if one_policy else specs
    if len(specs) != P:
        raise ValueError(f"a list of policies needs one per seat ({P}), got {len(specs)}")
    names = [_policy_name(s) for s in specs]
    distinct = list(dict.fromkeys(names))
    objs = {n: _resolve(specs[names.index(n)], game, seed) for n in distinct}
    rounds_seen = _Rounds(game)
    tally = arena.play(game, [objs[n] for n in names], int(rounds), np.random.default_rng(seed), rotate=False,
                       tracker=rounds_seen)
    return rounds_seen.records("/".join(distinct), tally.seconds)


class _Rounds:
    """What ``simulate_rounds`` measures of each round, told by ``arena.play`` (its ``tracker``)."""

    def __init__(self, game: VecGame):
        st, B = game.state, game.batch_size
        self.game, self.st = game, st
        self.decisions = np.zeros(B, np.int32)
        self.flips = np.zeros(B, np.int16)
        self.side_turns = np.zeros((B, 2), np.int32)
        self.seg_start = np.zeros(B, np.int32)
        self.max_hand = st.hand_n.max(1).astype(np.int16)
        self.start_side = st.side.copy()
        self.side = st.side.copy()  # each row's side after its last step or deal
        # segments are kept under the id of their round in dealing order (``dealt_id``) and renumbered
        # to the order in which rounds finished (the order of the records) at the end
        self.finished = 0
        self.open_segments: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (round ids, side, length)
        self.dealt_id = np.arange(B, dtype=np.int64)
        self.next_id = B
        self.id_to_index: dict[int, int] = {}
        self.rec: dict[str, list] = {k: [] for k in ("turns", "decisions", "winner", "dealer", "points", "truncated",
                                                  "max_hand", "start_side", "final_side", "flips", "light", "dark")}

    def stepped(self, rows: np.ndarray) -> None:
        st, S = self.st, sel(rows)
        self.decisions[S] += 1
        self.max_hand[S] = np.maximum(self.max_hand[S], st.hand_n[S].max(1))
        changed = rows[st.side[S] != self.side[S]]
        if changed.size:
            length = st.turn_count[changed] - self.seg_start[changed]
            old = self.side[changed].astype(np.intp)
            self.open_segments.append((self.dealt_id[changed].copy(), old.astype(np.int8), length.astype(np.int32)))
            np.add.at(self.side_turns, (changed, old), length)
            self.seg_start[changed] = st.turn_count[changed]
            self.flips[changed] += 1
            self.side[changed] = st.side[changed]

    def ended(self, ended: np.ndarray) -> None:
        st, rec = self.st, self.rec
        final = st.side[ended].astype(np.intp)
        last = st.turn_count[ended] - self.seg_start[ended]
        np.add.at(self.side_turns, (ended, final), last)
        self.open_segments.append((self.dealt_id[ended].copy(), final.astype(np.int8), last.astype(np.int32)))
        for r, k in zip(self.dealt_id[ended].tolist(), range(self.finished, self.finished + ended.size)):
            self.id_to_index[r] = k
        self.finished += ended.size
        rec["turns"].append(st.turn_count[ended].copy())
        rec["decisions"].append(self.decisions[ended].copy())
        rec["winner"].append(st.winner[ended].copy())
        rec["dealer"].append(st.dealer[ended].copy())
        rec["points"].append(st.round_points[ended].copy())
        rec["truncated"].append(st.truncated[ended].copy())
        rec["max_hand"].append(self.max_hand[ended].copy())
        rec["start_side"].append(self.start_side[ended].copy())
        rec["final_side"].append(st.side[ended].copy())
        rec["flips"].append(self.flips[ended].copy())
        rec["light"].append(self.side_turns[ended, 0].copy())
        rec["dark"].append(self.side_turns[ended, 1].copy())

    def dealt(self, fresh: np.ndarray) -> None:
        st = self.st
        self.decisions[fresh] = 0
        self.flips[fresh] = 0
        self.side_turns[fresh] = 0
        self.seg_start[fresh] = 0
        self.max_hand[fresh] = st.hand_n[fresh].max(1)
        self.start_side[fresh] = self.side[fresh] = st.side[fresh]
        self.dealt_id[fresh] = self.next_id + np.arange(fresh.size)
        self.next_id += fresh.size

    def records(self, policy: str, seconds: float) -> RoundRecords:
        rec, P = self.rec, self.game.num_players

        def cat(key, dtype):
            return np.concatenate(rec[key]).astype(dtype) if rec[key] else np.zeros(0, dtype)

        if self.open_segments:
            ids = np.concatenate([s[0] for s in self.open_segments])
            sides = np.concatenate([s[1] for s in self.open_segments])
            lengths = np.concatenate([s[2] for s in self.open_segments])
            # the last segment appended for a round is the one its end cut short
            complete = np.ones(ids.size, bool)
            _, last_idx = np.unique(ids[::-1], return_index=True)
            complete[ids.size - 1 - last_idx] = False
            index = np.array([self.id_to_index[i] for i in ids.tolist()], np.int64)
            order = np.lexsort((np.arange(ids.size), index))
            segments = SideSegments(sides[order], lengths[order], complete[order], index[order])
        else:
            segments = SideSegments(np.zeros(0, np.int8), np.zeros(0, np.int32), np.zeros(0, bool),
                                    np.zeros(0, np.int64))
        dealer = cat("dealer", np.int8)
        return RoundRecords(
            rules=str(self.game.rules.name), num_players=P, policy=policy, seconds=seconds,
            turns=cat("turns", np.int32), decisions=cat("decisions", np.int32), winner=cat("winner", np.int8),
            dealer=dealer, first_seat=((dealer.astype(np.int64) + 1) % P).astype(np.int8),
            points=cat("points", np.int32), truncated=cat("truncated", bool), max_hand=cat("max_hand", np.int16),
            start_side=cat("start_side", np.int8), final_side=cat("final_side", np.int8),
            flips=cat("flips", np.int16), light_turns=cat("light", np.int32), dark_turns=cat("dark", np.int32),
            segments=segments)


__all__ = ["BUILTIN_POLICIES", "PlayFirstAgent", "RoundRecords", "SideSegments", "UniformAgent", "random_legal",
           "simulate_rounds"]

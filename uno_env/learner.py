"""Learner-seat games: B games in which a learner holds one seat and opponent agents play the others.

This is the machinery under the training environments (``uno_env.sb3``, ``uno_env.vector``), kept free
of any RL framework.  Every transition is from the learner's point of view: after
the learner's action, the opponents of each game move inside ``step`` (one batched ``act`` call per
opponent agent and round of moves, on the games where that agent is to move) until the learner is
asked again or the episode ends.

* The learner's seat is drawn at random for each round (``episode="round"``) or each game.
* ``opponents`` is one agent, a name (``"random"``), or a list of them: each opponent seat of each
  game gets one of them at random per episode, so a list is a mix.  Frozen snapshots of the learner
  are agents like any other (``agents.PolicyAgent``).  Names are loaded by the installed agent loaders
  (``uno_env.opponents``; this project's is ``agents.load``), so this module never imports ``agents``.
* A round that ends before the learner is asked anything is dealt again (counted in
  ``rounds_without_learner``).
* ``privileged=True`` appends to the learner's observation what it may not see
  (``Observer.privileged``: the other hands and the next cards of the draw pile), for a critic trained
  with privileged information (``agents.privileged``); the first ``public_size`` entries stay the
  seat's own observation, which is all an actor may read.  Opponents always get their own view.
* ``record="games.jsonl"`` writes every finished episode as a game record (``uno_env.records``; the
  learner's seat is named ``learner``, the others by their agent).
"""

from __future__ import annotations

import numpy as np

from .arena import choose
from .checks import action_ids
from .core.game import VecGame
from .core.state import OVER
from .opponents import layout_for, resolve


def batch_actions(actions, num_envs: int, num_actions: int) -> np.ndarray:
    """``(num_envs,) int64`` action ids from what a vectorized algorithm passes, or a clear error."""
    return action_ids(actions, (num_envs,), num_actions)


class LearnerGames:
    """B games with one learner seat each; opponents move inside ``step``.

    Args:
        rules, num_players, **options: the game configuration (see ``VecGame``).
        num_envs: number of games.
        opponents: agent(s) or agent name(s) for the other seats.
        seed: seed of the games (game ``i`` gets ``seed + i``) and of the seat draws.
        episode: ``"round"`` (reward +1/-1 for the round) or ``"game"`` (+1/-1 at the game's end).
        privileged: append the hidden state to the learner's observations (see the module docstring).
        record: a file to write every finished episode to, as a game record (docs/records.md).
        observation: the observation layout, ``"v3"`` (default) or ``"v2"`` (``uno_env.core.observe``).
    """

    def __init__(self, rules="standard_en", num_players: int = 2, num_envs: int = 1, opponents="random",
                 seed: int | None = None, episode: str = "round", privileged: bool = False, record=None,
                 observation: str = "v3",
                 **options):
        if episode not in ("round", "game"):
            raise ValueError(f"episode={episode!r} is not allowed; use 'round' or 'game'")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        # the learner's layout; the memory on if the learner or an opponent reads v3 (each its own layout)
        self.game = VecGame(rules, num_players, batch_size=num_envs, seed=seed, autoreset=False,
                            **layout_for(opponents, learner=observation), **options)
        self.num_envs, self.P, self.episode = num_envs, self.game.num_players, episode
        if not isinstance(privileged, bool):
            raise ValueError(f"privileged must be True or False, got {privileged!r}")
        self.privileged = privileged
        self.num_actions, self.public_size = self.game.num_actions, self.game.observation_size
        self.observation_size = self.public_size + (self.game.observer.privileged_size() if privileged else 0)
        self.rng = np.random.default_rng(seed)
        self.opponents = resolve(opponents, self.game, seed)
        self.pool_size = len(self.opponents)  # new episodes draw from opponents[:pool_size]
        self.pool_weights: np.ndarray | None = None  # None: uniformly; else the chance of each, set_weights
        self.fill: int | None = None  # None: every seat drawn; else the pool entry in the seats but the next, set_fill
        self.learner = np.zeros(num_envs, np.intp)
        self.assign = np.zeros((num_envs, self.P), np.intp)  # opponent index per seat
        self.rounds_without_learner = 0
        self._observers: dict = {}  # layouts the opponents read, other than the game's (``arena.observer_for``)
        # one game: steps and observations by item reads (the same moves, tests/test_scalar.py)
        self.scalar = self.game.scalar
        self.recorder = self.writer = None
        if record is not None:
            from .records import Recorder, RecordWriter
            self.writer = RecordWriter(record)
            self.recorder = Recorder(self.game, episode, sink=self.writer.write, agents=self._seat_names)
            self.recorder.begin(np.arange(num_envs), fresh=True)
        self._start_episodes(np.arange(num_envs), new_game=False)

    def _seat_names(self, row: int) -> list[str]:
        return ["learner" if p == self.learner[row] else
                getattr(self.opponents[self.assign[row, p]], "name", "agent") for p in range(self.P)]

    def close(self) -> None:
        """Close the record file, if any."""
        if self.writer is not None:
            self.writer.close()
            self.writer = self.recorder = None

    # ------------------------------------------------------------------ opponents
    def set_weights(self, weights) -> None:
        """How often new episodes draw each agent of the pool (``None``: uniformly, the default): one weight
        per pool entry, non-negative, not all zero (a league's prioritised sampling)."""
        if weights is None:
            self.pool_weights = None
            return
        w = np.asarray(weights, np.float64)
        if w.shape != (self.pool_size,) or not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"weights must be {self.pool_size} non-negative numbers, one per opponent of the pool, "
                             f"not all zero; got {weights!r}")
        self.pool_weights = w / w.sum()

    def set_fill(self, index: int | None) -> None:
        """With ``index`` (a pool entry), new episodes draw one opponent, for the seat after the learner's, and
        give every other seat to ``opponents[index]``: the lineup of the leaderboard's robustness table at more than
        two players (the flawed player in the next seat, ``heuristic`` in the others).  ``None`` (the default)
        draws every seat on its own."""
        if index is not None and (isinstance(index, bool) or not isinstance(index, (int, np.integer))
                                  or not 0 <= index < self.pool_size):
            raise ValueError(f"the fill must be an index into the pool of {self.pool_size} opponents (0 to "
                             f"{self.pool_size - 1}) or None, got {index!r}")
        self.fill = None if index is None else int(index)

    def set_opponents(self, opponents, weights=None) -> None:
        """Replace the opponent pool (and its ``weights``, ``set_weights``); it takes effect as episodes start.
        An agent that leaves the pool keeps its seats in the games in play until their episodes end (kept
        after the pool in ``opponents``, never drawn again)."""
        new = resolve(opponents, self.game, None)
        where = {id(a): i for i, a in enumerate(new)}
        fill = getattr(self, "fill", None)
        if fill is not None and id(self.opponents[fill]) not in where:
            raise ValueError(f"{getattr(self.opponents[fill], 'name', 'the fill')} fills the seats but the next "
                             f"(set_fill) and must stay in the pool; set_fill(None) first")
        in_play = np.zeros(len(self.opponents), bool)
        seats = np.ones((self.num_envs, self.P), bool)
        seats[np.arange(self.num_envs), self.learner] = False  # the learner's own entry is unused
        in_play[np.unique(self.assign[seats])] = True
        remap = np.zeros(len(self.opponents), np.intp)
        retiring: list = []
        for i, agent in enumerate(self.opponents):
            if id(agent) in where:
                remap[i] = where[id(agent)]
            elif in_play[i]:
                remap[i] = len(new) + len(retiring)
                retiring.append(agent)
        self.assign = remap[self.assign]
        if fill is not None:
            self.fill = where[id(self.opponents[fill])]
        self.opponents, self.pool_size = new + retiring, len(new)
        self.set_weights(weights)

    def _draw_seats(self, rows: np.ndarray) -> None:
        self.learner[rows] = self.rng.integers(self.P, size=rows.size)
        weights = getattr(self, "pool_weights", None)  # games pickled before weights existed draw uniformly
        fill = getattr(self, "fill", None)
        size = (rows.size, self.P) if fill is None else rows.size
        if weights is None:
            drawn = self.rng.integers(self.pool_size, size=size)
        else:
            drawn = self.rng.choice(self.pool_size, size=size, p=weights)
        if fill is None:
            self.assign[rows] = drawn
        else:  # one drawn opponent in the seat after the learner's, the fill in the others
            self.assign[rows] = fill
            self.assign[rows, (self.learner[rows] + 1) % self.P] = drawn

    def _start_episodes(self, rows: np.ndarray, new_game: bool) -> None:
        """Deal in ``rows`` (a new game, or the next round) and let the opponents move."""
        if rows.size == 0:
            return
        if new_game:
            self.game.new_game(rows)
            if self.recorder is not None:
                self.recorder.begin(rows)
        self._draw_seats(rows)
        self._opponents_move(rows)

    def _opponents_move(self, rows: np.ndarray) -> None:
        """Opponents act in ``rows`` until each game waits on the learner; re-deal rounds that end
        before the learner is asked anything."""
        st = self.game.state
        for _ in range(100_000):
            over = rows[st.phase[rows] == OVER]
            if over.size:  # ended without a learner decision: deal again, same seat arrangement
                self.rounds_without_learner += over.size
                anew = over if self.episode == "round" else over[st.game_over[over]]  # not an episode
                self.game.next_round(over)
                if self.recorder is not None and anew.size:
                    self.recorder.begin(anew)
                continue  # a deal can end the round at once (forced moves, as with one-card hands)
            todo = rows[st.actor[rows] != self.learner[rows]]
            if todo.size == 0:
                return
            self._opponent_step(todo)
        raise RuntimeError("opponents did not hand the turn back")  # pragma: no cover

    def _opponent_step(self, rows: np.ndarray):
        """One move of the opponent to move in each of ``rows``: the arena's step (``arena.choose``)."""
        seats = self.game.state.actor[rows].astype(np.intp)
        actions = choose(self.game, self.opponents, self.assign[rows, seats], rows, seats, self.rng,
                         self._observers, scalar=self.scalar)
        return self._step_rows(rows, actions)

    def _observe(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        if self.scalar is not None and rows.size == 1:
            return self.game.observer.observe_one(self.game.state, int(seats[0]))[None]
        return self.game.observer.observe(self.game.state, rows, seats)

    def _step_rows(self, rows: np.ndarray, actions: np.ndarray):
        """``Engine.step_rows``; for one game through the scalar path (the same checks and moves)."""
        if self.recorder is not None:
            self.recorder.act(rows, self.game.state.actor[rows], actions)
        return (self.scalar or self.game.engine).step_rows(self.game.state, rows, actions)

    # ------------------------------------------------------------------ learner API
    def observe(self, rows: np.ndarray | None = None) -> np.ndarray:
        """``(n, observation_size) float32`` the learner's observations (and the hidden state appended,
        with ``privileged``)."""
        rows = np.arange(self.num_envs) if rows is None else rows
        seats = self.learner[rows]
        obs = self._observe(rows, seats)
        if not self.privileged:
            return obs
        return np.concatenate([obs, self.game.observer.privileged(self.game.state, rows, seats)], axis=1)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) float32 bounds of ``observe``'s entries (for a Gymnasium ``Box``)."""
        low, high = self.game.observer.bounds()
        if not self.privileged:
            return low, high
        plow, phigh = self.game.observer.privileged_bounds()
        return np.concatenate([low, plow]), np.concatenate([high, phigh])

    def action_masks(self) -> np.ndarray:
        """``(B, A) bool`` the learner's legal actions in each game."""
        return self.game.state.mask.copy()

    def reset(self, seed: int | None = None) -> np.ndarray:
        rows = np.arange(self.num_envs)
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.game.reset(seed)
            if self.recorder is not None:
                self.recorder.begin(rows, fresh=True)
            self._draw_seats(rows)
            self._opponents_move(rows)
        else:
            self._start_episodes(rows, new_game=True)
        return self.observe()

    def step(self, actions: np.ndarray, rows: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """Apply the learner's actions in ``rows`` (default: all), let the opponents move, and report.

        Returns a dict of arrays over ``rows``: ``reward`` (the learner's), ``terminated``,
        ``truncated``, ``final_obs`` (the learner's last observation where the episode ended, zeros
        elsewhere), ``winner``, ``round_points``.  Episodes that ended are *not* restarted here; call
        ``restart(rows)`` (the adapters decide when, per their autoreset convention).
        """
        rows = np.arange(self.num_envs) if rows is None else np.asarray(rows, np.intp)
        return self._play_on(rows, self._step_rows(rows, np.asarray(actions, np.int64)))

    def wrong_card(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """The learner's illegal action in ``rows`` under the seeds' wrong-card rule (it draws 2 and, on
        its own turn, the turn passes; ``Engine.wrong_card_penalty``), then the opponents move: reported
        as ``step`` reports, so a round an opponent ends meanwhile ends the learner's episode."""
        st = self.game.state
        rows = np.asarray(rows, np.intp)
        if self.recorder is not None:  # a record holds legal moves only: these episodes are not recorded
            self.recorder.drop(rows)
        self.game.engine.wrong_card_penalty(st, rows)
        return self._play_on(rows, self.game.engine.result(st, np.zeros(rows.size, bool), rows))

    def _play_on(self, rows: np.ndarray, first) -> dict[str, np.ndarray]:
        """After the learner's move in ``rows`` (``first``: its ``StepResult``), let the opponents move
        until the learner is asked again or the episode ends; the dict ``step`` returns."""
        st = self.game.state
        n = rows.size
        reward = np.zeros(n, np.float32)
        done = np.zeros(n, bool)
        truncated = np.zeros(n, bool)
        winner = np.full(n, -1, np.int8)
        points = np.zeros(n, np.int32)

        def absorb(idx: np.ndarray, out) -> None:
            ended = np.flatnonzero(out.round_over)
            if ended.size == 0:
                return
            j = idx[ended]
            r = rows[j]
            if self.episode == "game":
                fin = out.game_over[ended]
                reward[j[fin]] = out.game_rewards[ended[fin], self.learner[r[fin]]]
                cj, cont = j[~fin], r[~fin]
                if cont.size:  # the game goes on: next round, same learner seat; a deal may end the game
                    over = np.isin(cont, self.game.deal_on(cont))  # (forced moves to its last round's end)
                    if over.any():
                        k, last = cj[over], self.game.engine.result(st, np.zeros(over.sum(), bool), cont[over])
                        reward[k] = last.game_rewards[np.arange(k.size), self.learner[cont[over]]]
                        done[k], truncated[k] = True, last.truncated
                        winner[k], points[k] = last.winner, last.round_points
                j, ended = j[fin], ended[fin]
            else:
                reward[j] = out.rewards[ended, self.learner[r]]
            done[j] = True
            truncated[j] = out.truncated[ended]
            winner[j] = out.winner[ended]
            points[j] = out.round_points[ended]

        absorb(np.arange(n), first)
        for _ in range(100_000):
            live = np.flatnonzero(~done & (st.actor[rows] != self.learner[rows]))
            if live.size == 0:
                break
            absorb(live, self._opponent_step(rows[live]))
        final_obs = np.zeros((n, self.observation_size), np.float32)
        d = np.flatnonzero(done)
        if self.recorder is not None and d.size:
            self.recorder.end(rows[d])
        if d.size:
            final_obs[d] = self.observe(rows[d])
        return {"reward": reward, "terminated": done & ~truncated, "truncated": truncated,
                "final_obs": final_obs, "winner": winner, "round_points": points}

    def restart(self, rows: np.ndarray) -> None:
        """Start the next episode in ``rows`` whose episode has ended: the next round of the same game
        (a new game once it is over) for ``episode="round"``, a new game for ``episode="game"``."""
        rows = np.asarray(rows, np.intp)
        if rows.size == 0:
            return
        if self.episode == "game":
            self._start_episodes(rows, new_game=True)
            return
        self.game.next_round(rows)
        if self.recorder is not None:
            self.recorder.begin(rows)
        self._draw_seats(rows)
        self._opponents_move(rows)

"""Gymnasium adapters: a ``VectorEnv`` over the batched core and a single-game ``gymnasium.Env``.

Both give the learner one seat per game (drawn at random each episode) and let opponent agents move
inside ``step`` (``uno_env.learner``).  Observations are the learner's flat observation vectors; the
legal actions come from ``action_masks()`` (sb3-contrib's convention) and from
``info["action_mask"]``.

``UnoVectorEnv`` follows Gymnasium's default autoreset mode, ``NEXT_STEP``: the step where an episode
ends returns its last observation; the next ``step`` ignores that game's action and returns the first
observation of a new episode with reward 0.  The mask of a game waiting for that reset is all True so
that masked sampling stays well defined (its action is ignored).

``UnoEnv`` is one game for algorithms and tools that want a plain ``gymnasium.Env`` (it passes
Gymnasium's env checker).  An illegal action follows ``illegal_action`` (``uno_env.checks``): ``"lose"``
(default, the episode ends with reward -1), ``"penalty"`` (draw 2 and the turn passes) or ``"raise"``.

Where an episode ends, ``info`` reports ``winner`` (the round's winner, -1 for none) and ``round_points``,
as the AEC and SB3 environments do (in ``UnoVectorEnv``'s info as arrays, with Gymnasium's ``_winner`` /
``_round_points`` masks of the games whose episode ended).  Both are registered with Gymnasium
(``gymnasium.make("uno_env/UnoLearner-v4")``, ``gymnasium.make_vec("uno_env/UnoLearner-v4", num_envs=64)``).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .checks import action_ids, check_illegal_action
from .core.rules import IllegalActionError
from .learner import LearnerGames, batch_actions
from .registration import register_gymnasium
from .render import render_table


class UnoVectorEnv(VectorEnv):
    """``num_envs`` learner-seat games (arguments as ``uno_env.learner.LearnerGames``).

    Subclasses change what a step returns through ``_single_observation_space`` and ``_outputs``
    (the RLlib adapter, ``uno_env.rllib``, puts the mask inside the observation).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, rules="standard_en", num_players: int = 2, num_envs: int = 16, opponents="random",
                 seed: int | None = None, episode: str = "round", privileged: bool = False, record=None,
                 observation: str = "v3", **options):
        self.games = LearnerGames(rules, num_players, num_envs, opponents, seed, episode, privileged, record,
                                  observation=observation, **options)
        self.num_envs = num_envs
        self.single_observation_space = self._single_observation_space()
        self.single_action_space = spaces.Discrete(self.games.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._waiting = np.zeros(num_envs, bool)  # episode ended last step; restart on this step

    def _single_observation_space(self) -> spaces.Space:
        low, high = self.games.bounds()
        return spaces.Box(low, high, dtype=np.float32)

    def _outputs(self) -> tuple:
        """(observations, info) of every game; a game waiting for its reset gets an all-True mask."""
        return self.games.observe(), {"action_mask": self.action_masks()}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.games.reset(seed)
        self._waiting[:] = False
        return self._outputs()

    def step(self, actions):
        actions = batch_actions(actions, self.num_envs, self.games.num_actions)
        n = self.num_envs
        reward = np.zeros(n, np.float32)
        term = np.zeros(n, bool)
        trunc = np.zeros(n, bool)
        restart = np.flatnonzero(self._waiting)
        live = np.flatnonzero(~self._waiting)
        winner = np.full(n, -1, np.int64)
        points = np.zeros(n, np.int64)
        if live.size:
            out = self.games.step(actions[live], live)
            reward[live], term[live], trunc[live] = out["reward"], out["terminated"], out["truncated"]
            winner[live], points[live] = out["winner"], out["round_points"]
        self.games.restart(restart)
        self._waiting = term | trunc
        obs, info = self._outputs()
        if self._waiting.any():  # Gymnasium's vector info: an array per key, and _key marks where it is set
            info.update(winner=winner, _winner=self._waiting.copy(), round_points=points,
                        _round_points=self._waiting.copy())
        return obs, reward, term, trunc, info

    def action_masks(self) -> np.ndarray:
        """``(num_envs, A) bool``; all True for a game whose episode just ended (its action is ignored)."""
        m = self.games.action_masks()
        m[self._waiting] = True
        return m

    def set_opponents(self, opponents) -> None:
        self.games.set_opponents(opponents)

    def close_extras(self, **kwargs) -> None:
        if hasattr(self, "games"):  # not when __init__ failed
            self.games.close()


class UnoEnv(gym.Env):
    """One game against chosen opponents, as a ``gymnasium.Env``.

    Args:
        rules, num_players, opponents, episode, **options: as ``LearnerGames``.
        illegal_action: ``"lose"`` (default), ``"penalty"`` or ``"raise"``.
        render_mode: ``None``, ``"ansi"`` or ``"human"`` (the learner's view of the table).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, rules="standard_en", num_players: int = 2, opponents="random", episode: str = "round",
                 illegal_action: str = "lose", render_mode: str | None = None, record=None, observation: str = "v3",
                 **options):
        check_illegal_action(illegal_action)
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r} is not supported; use None, 'ansi' or 'human'")
        self.games = LearnerGames(rules, num_players, 1, opponents, None, episode, record=record,
                                  observation=observation, **options)
        self.illegal_action, self.render_mode = illegal_action, render_mode
        low, high = self.games.game.observer.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.games.num_actions)
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**31))
        obs = self.games.reset(seed)
        self._done = False
        if self.render_mode == "human":
            self.render()
        return obs[0], {"action_mask": self.action_masks()}

    def step(self, action):
        if self._done:
            raise RuntimeError("the episode is over; call reset() before step()")
        a = int(action_ids(action, (), self.games.num_actions))
        st, engine = self.games.game.state, self.games.game.engine
        extra = {}
        if not st.mask[0, a]:
            if self.illegal_action == "raise":
                raise IllegalActionError(engine.describe_illegal(st, 0, a))
            extra = {"illegal_action": engine.actions.names[a]}
            if self.illegal_action == "lose":
                self._done = True
                if self.games.recorder is not None:  # a record holds legal moves only
                    self.games.recorder.drop(0)
                if self.render_mode == "human":
                    self.render()
                return self.games.observe()[0], -1.0, True, False, {"action_mask": self.action_masks(), **extra}
            out = self.games.wrong_card(np.array([0]))  # an opponent may end the round meanwhile
        else:
            out = self.games.step(np.array([a]))
        term, trunc = bool(out["terminated"][0]), bool(out["truncated"][0])
        self._done = term or trunc
        info = {"action_mask": self.action_masks(), **extra}
        if self._done:
            info.update(winner=int(out["winner"][0]), round_points=int(out["round_points"][0]))
        obs = out["final_obs"][0] if self._done else self.games.observe()[0]
        if self.render_mode == "human":
            self.render()
        return obs, float(out["reward"][0]), term, trunc, info

    def action_masks(self) -> np.ndarray:
        """``(A,) bool`` the learner's legal actions (all False once the episode is over)."""
        if self._done:
            return np.zeros(self.games.num_actions, bool)
        return self.games.action_masks()[0]

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_table(self.games.game, 0, viewer=int(self.games.learner[0]))
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        if hasattr(self, "games"):  # not when __init__ failed
            self.games.close()

register_gymnasium()  # the registry ids (uno_env.registration)

"""A stable-baselines3 ``VecEnv`` over the batched core: one learner seat per game, opponents inside.

>>> from sb3_contrib import MaskablePPO
>>> from uno_env.sb3 import UnoVecEnv
>>> env = UnoVecEnv("standard_en", num_players=2, num_envs=64, opponents="random", seed=0)
>>> model = MaskablePPO("MlpPolicy", env, n_steps=32).learn(2048)          # doctest: +SKIP

SB3's conventions: episodes that end are restarted inside the same ``step``; the last observation
is in ``infos[i]["terminal_observation"]`` and a ``max_turns_per_round`` stop sets
``infos[i]["TimeLimit.truncated"]``.  ``action_masks()`` returns the ``(num_envs, A)`` bool mask of
the learner's next decision, already for the new episode where one was restarted: what
MaskablePPO's ``collect_rollouts`` reads next (it calls ``env_method("action_masks")``).  Wrap it in
SB3's ``VecMonitor`` for the episode statistics (``rollout/ep_rew_mean``, ``ep_len_mean``), as
``training/train_ppo.py`` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from . import extras
from .learner import LearnerGames, batch_actions

with extras.needs("train", "uno_env.sb3 (the environment for stable-baselines3)"):
    from stable_baselines3.common.vec_env import VecEnv


class UnoVecEnv(VecEnv):
    """``num_envs`` UNO games stepped together; see ``uno_env.learner.LearnerGames`` for the arguments."""

    metadata = {"render_modes": []}

    def __init__(self, rules="standard_en", num_players: int = 2, num_envs: int = 16, opponents="random",
                 seed: int | None = None, episode: str = "round", privileged: bool = False, record=None,
                 observation: str = "v3", **options):
        self.games = LearnerGames(rules, num_players, num_envs, opponents, seed, episode, privileged, record,
                                  observation=observation, **options)
        self.render_mode = None
        low, high = self.games.bounds()
        super().__init__(num_envs, spaces.Box(low, high, dtype=np.float32),
                         spaces.Discrete(self.games.num_actions))
        self._actions: np.ndarray | None = None

    # --- VecEnv API ---------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if any(s is not None for s in self._seeds) else None
        self._reset_seeds()
        return self.games.reset(seed)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = batch_actions(actions, self.num_envs, self.games.num_actions)

    def step_wait(self):
        out = self.games.step(self._actions)
        done = out["terminated"] | out["truncated"]
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        d = np.flatnonzero(done)
        for i in d:
            infos[i] = {"terminal_observation": out["final_obs"][i],
                        "TimeLimit.truncated": bool(out["truncated"][i]),
                        "winner": int(out["winner"][i]), "round_points": int(out["round_points"][i])}
        self.games.restart(d)
        return self.games.observe(), out["reward"], done, infos

    def action_masks(self) -> np.ndarray:
        return self.games.action_masks()

    def set_opponents(self, opponents) -> None:
        self.games.set_opponents(opponents)

    def close(self) -> None:
        self.games.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.action_masks()[idx])
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self):  # pragma: no cover - no image rendering
        return [None] * self.num_envs

"""Ray RLlib adapters for UNO (needs the ``scale`` extra: ``pip install -e ".[scale]"``).

Two ways to put the game in front of RLlib's new API stack, both with observations
``{"observations": float32 vector, "action_mask": float32 0/1}``, which this module's own
``MaskedPPOTorchRLModule`` reads (a ``TorchRLModule`` with RLlib's ``ValueFunctionAPI``, built on RLlib's
public RLModule API; illegal actions get logits at RLlib's ``FLOAT_MIN``):

* ``LearnerVecEnv`` / ``make_learner_env`` (the *batched* path, the default of
  ``training.rllib_train``): a ``gymnasium.vector.VectorEnv`` of ``num_envs`` learner-seat games over
  one ``VecGame`` (``uno_env.learner.LearnerGames``, the machinery under the SB3 env).  The opponents
  (scripted bots, frozen snapshots: any agent, or a name the installed agent loader knows,
  ``uno_env.opponents``) move inside ``step``, so from RLlib's
  side it is a single-agent env and every transition is the learner's.  RLlib takes it as it is with
  ``gym_env_vectorize_mode="vector_entry_point"``: one batched core step and one batched module
  forward pass per vector step, no per-game Python env objects.  It follows gymnasium's
  ``next_step`` autoreset (what RLlib's ``SingleAgentEnvRunner`` expects): the step after a game's
  episode ended ignores that game's action and returns its next episode's first observation.
* ``UnoPettingZooEnv`` / ``make_aec_env`` (the *AEC* path): the PettingZoo AEC env ``uno_v4``
  through RLlib's ``PettingZooEnv`` wrapper (a ``MultiAgentEnv``; UNO is turn based, so the wrapper
  steps one seat at a time), with the observation keys renamed.  Seats are mapped to RLModules by
  ``seat_mapping``: one seat of each episode to the trained ``"learner"`` module and the others to
  frozen ``BotRLModule``s (an agent by name, such as ``heuristic``, inside a non-trained RLModule), so
  the league lives in RLlib's policy map; or, for parameter-sharing self-play, every seat to the one
  learning module (``self_play_mapping``).  RLlib's environment checker passes on both paths (an
  illegal move ends the episode, PettingZoo's classic convention).

Why the batched path is the default: it is RLlib's single-agent sampling loop over a vector env
(fast, and the same learner-seat semantics as ``training.train_ppo``), while the AEC path pays for
RLlib's per-agent ``MultiAgentEpisode`` bookkeeping and one module call per seat on every single
decision; see docs/rllib.md for the throughput measured on both.  This module is imported only by
RLlib users; ``import uno_env`` never imports it (nor ray).

The two RLModules stay here, beside the observations they read, though agents (``agents.rllib_policy``)
and training (``training.rllib_train``) are their users: RLlib's checkpoints pickle a module's class by its
dotted path (``uno_env.rllib.MaskedPPOTorchRLModule``), so a move would strand every checkpoint written so
far, and neither needs ``agents`` (``BotRLModule`` loads its agent by name through ``uno_env.opponents``).
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from gymnasium import spaces

from .core.game import VecGame
from .vector import UnoVectorEnv

OBS_KEY, MASK_KEY = "observations", "action_mask"  # the keys MaskedPPOTorchRLModule reads


def observation_space(game: VecGame) -> spaces.Dict:
    """One seat's observation space in the action-masking module's form."""
    low, high = game.observer.bounds()
    return spaces.Dict({OBS_KEY: spaces.Box(low, high, dtype=np.float32),
                        MASK_KEY: spaces.Box(0.0, 1.0, (game.num_actions,), dtype=np.float32)})


# ---------------------------------------------------------------------------------- batched path
class LearnerVecEnv(UnoVectorEnv):
    """``uno_env.vector.UnoVectorEnv`` with the mask inside the observation, as RLlib's action-masking
    module reads it (``next_step`` autoreset; arguments as ``uno_env.learner.LearnerGames``).
    ``set_opponents`` swaps the opponent pool (for self-play snapshots) as episodes start."""

    def _single_observation_space(self) -> spaces.Dict:
        return observation_space(self.games.game)

    def _outputs(self) -> tuple:
        mask = self.games.action_masks().astype(np.float32)
        mask[self._waiting] = 0.0  # no decision is asked in an ended episode
        return {OBS_KEY: self.games.observe(), MASK_KEY: mask}, {}


def make_learner_env(config: dict[str, Any]) -> LearnerVecEnv:
    """RLlib env creator of the batched path (``vector_entry_point``): ``config`` holds ``rules``,
    ``players``, ``opponents`` (comma-separated names or a list), ``episode``, ``options`` and the
    ``num_envs`` RLlib adds.  Seeds come from RLlib's ``reset(seed=...)`` (distinct per env runner)."""
    return LearnerVecEnv(config.get("rules", "standard_en"), int(config.get("players", 2)),
                         int(config.get("num_envs", 1)), _names(config.get("opponents", "random")),
                         seed=None, episode=config.get("episode", "round"), **dict(config.get("options", {})))


def _names(opponents) -> list:
    if isinstance(opponents, str):
        return [x.strip() for x in opponents.split(",") if x.strip()]
    return list(opponents)


# ---------------------------------------------------------------------------------- AEC path
def _pettingzoo_env_class():
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    class UnoPettingZooEnv(PettingZooEnv):
        """RLlib's ``PettingZooEnv`` over ``uno_v4`` with ``{"observations", "action_mask"}`` obs."""

        def __init__(self, rules="standard_en", num_players: int = 2, episode: str = "round", **options):
            from .aec import raw_env

            super().__init__(raw_env(rules=rules, num_players=num_players, episode=episode, **options))
            self.agents = list(self.env.possible_agents)
            self.possible_agents = list(self.env.possible_agents)
            space = observation_space(self.env.game)
            self.observation_spaces = {a: space for a in self.possible_agents}
            self.observation_space = spaces.Dict(self.observation_spaces)

        @staticmethod
        def _convert(obs: dict) -> dict:
            return {a: {OBS_KEY: o["observation"], MASK_KEY: o["action_mask"].astype(np.float32)}
                    for a, o in obs.items()}

        def reset(self, *, seed=None, options=None):
            obs, info = super().reset(seed=seed, options=options)
            return self._convert(obs), info

        def step(self, action):
            obs, rew, term, trunc, info = super().step(action)
            return self._convert(obs), rew, term, trunc, info

    UnoPettingZooEnv.__module__ = __name__
    UnoPettingZooEnv.__qualname__ = "UnoPettingZooEnv"
    return UnoPettingZooEnv


def make_aec_env(config: dict[str, Any]):
    """RLlib env creator of the AEC path: ``config`` holds ``rules``, ``players``, ``episode``,
    ``options``."""
    cls = _lazy("UnoPettingZooEnv")
    return cls(config.get("rules", "standard_en"), int(config.get("players", 2)),
               config.get("episode", "round"), **dict(config.get("options", {})))


def seat_mapping(num_players: int, opponents: list[str], learner: str = "learner"):
    """A ``policy_mapping_fn``: per episode, one seat (drawn from the episode id) plays ``learner``
    and every other seat one of ``opponents`` (module ids), so the learner never meets itself."""
    opponents = list(opponents)

    def policy_mapping_fn(agent_id, episode, **kwargs):
        h = zlib.crc32(str(episode.id_).encode())
        seat = int(str(agent_id).rsplit("_", 1)[-1])
        if seat == h % num_players:
            return learner
        return opponents[(h // num_players + seat) % len(opponents)]

    return policy_mapping_fn


def self_play_mapping(learner: str = "learner"):
    """A ``policy_mapping_fn`` for parameter-sharing self-play: every seat plays the module ``learner``."""

    def policy_mapping_fn(agent_id, episode, **kwargs):
        return learner

    return policy_mapping_fn


def bot_module_spec(name: str, rules: str, num_players: int, options: dict | None = None):
    """A frozen ``BotRLModule`` spec playing the project agent ``name`` (e.g. ``heuristic``)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(module_class=bot_module_class(),
                        model_config={"agent": name, "rules": rules, "players": int(num_players),
                                      "options": dict(options or {})})


_LAZY: dict[str, type] = {}


def _lazy(name: str) -> type:
    """The classes that subclass ray's, built on first use (so this module imports without ray)."""
    if name not in _LAZY:
        _LAZY[name] = {"UnoPettingZooEnv": _pettingzoo_env_class, "BotRLModule": _bot_module_class,
                       "MaskedPPOTorchRLModule": _masked_module_class}[name]()
    return _LAZY[name]


def __getattr__(name):  # ``uno_env.rllib.BotRLModule`` etc., also for pickling by reference
    if name in ("UnoPettingZooEnv", "BotRLModule", "MaskedPPOTorchRLModule"):
        return _lazy(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def masked_module_spec(hidden: list[int]):
    """The ``RLModuleSpec`` of a learning ``MaskedPPOTorchRLModule`` with ``hidden`` layer sizes."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(module_class=_lazy("MaskedPPOTorchRLModule"), model_config={"hidden": list(hidden)})


def _masked_module_class():
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.utils.torch_utils import FLOAT_MIN

    def mlp(sizes: list[int]) -> torch.nn.Sequential:
        layers: list = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
            layers.append(torch.nn.Linear(a, b))
            if i < len(sizes) - 2:
                layers.append(torch.nn.Tanh())
        return torch.nn.Sequential(*layers)

    class MaskedPPOTorchRLModule(TorchRLModule, ValueFunctionAPI):
        """Actor and critic MLPs (tanh, separate, like SB3's ``MlpPolicy``) over ``observations``; the
        actor's logits of actions outside ``action_mask`` are pushed to ``FLOAT_MIN``, so a sampled or
        greedy action is always legal.  For PPO (the critic is RLlib's ``ValueFunctionAPI``)."""

        def setup(self):
            size = int(self.observation_space[OBS_KEY].shape[0])
            hidden = list((self.model_config or {}).get("hidden", [256, 256]))
            self.pi = mlp([size, *hidden, int(self.action_space.n)])
            self.vf = mlp([size, *hidden, 1])

        def _masked_logits(self, batch) -> dict:
            obs = batch[Columns.OBS]
            logits = self.pi(obs[OBS_KEY])
            return {Columns.ACTION_DIST_INPUTS: logits + torch.clamp(torch.log(obs[MASK_KEY]), min=FLOAT_MIN)}

        def _forward(self, batch, **kwargs):
            return self._masked_logits(batch)

        def _forward_train(self, batch, **kwargs):
            return self._masked_logits(batch)

        def compute_values(self, batch, embeddings=None):
            return self.vf(batch[Columns.OBS][OBS_KEY]).squeeze(-1)

    MaskedPPOTorchRLModule.__module__ = __name__
    MaskedPPOTorchRLModule.__qualname__ = "MaskedPPOTorchRLModule"
    return MaskedPPOTorchRLModule


def bot_module_class():
    """``BotRLModule``: a non-trained RLModule whose forward pass is a project agent's ``act``."""
    return _lazy("BotRLModule")


def _bot_module_class():
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModule

    class BotRLModule(RLModule):
        def setup(self):
            from . import opponents

            cfg = self.model_config
            # the layout the env observes (v3 unless the config says otherwise): bots read its v2 part
            game = VecGame(cfg["rules"], cfg["players"], batch_size=1, seed=0,
                           observation=cfg.get("observation", "v3"), **cfg.get("options", {}))
            self.agent = opponents.load(cfg["agent"], game=game, seed=None)  # by the installed agent loader
            self.rng = np.random.default_rng()

        def _forward(self, batch, **kwargs):
            obs = batch[Columns.OBS]
            o = np.asarray(obs[OBS_KEY].cpu() if torch.is_tensor(obs[OBS_KEY]) else obs[OBS_KEY], np.float32)
            m = np.asarray(obs[MASK_KEY].cpu() if torch.is_tensor(obs[MASK_KEY]) else obs[MASK_KEY]) > 0
            return {Columns.ACTIONS: torch.as_tensor(self.agent.act(o, m, self.rng), dtype=torch.int64)}

        def _forward_train(self, *args, **kwargs):
            raise NotImplementedError("BotRLModule is frozen: leave it out of policies_to_train")

        def compile(self, *args, **kwargs):
            pass

        def get_state(self, *args, **kwargs):
            return {}

        def set_state(self, state):
            pass

    BotRLModule.__module__ = __name__
    BotRLModule.__qualname__ = "BotRLModule"
    return BotRLModule


__all__ = ["LearnerVecEnv", "bot_module_class", "bot_module_spec", "make_aec_env", "make_learner_env",
           "masked_module_spec", "observation_space", "seat_mapping", "self_play_mapping"]

"""Shared test helpers: build a position in the notation (docs/notation.md), act by action name."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from uno_env import VecGame

PRESET_NAMES = ["standard_en", "standard_ru", "house_cn", "solo_bga", "flip_jp"]
# the trained agents that read the v2 layout (shipped before the v3 agents, kept as their warm start)
V2_AGENTS = {p: str(Path(__file__).resolve().parents[1] / "results" / "v3_agents" / "warm_start"
                    / f"ppo-standard_en-{p}p-v2") for p in (2, 4)}


def position(rules: str = "standard_en", players: int = 2, **setup) -> VecGame:
    """A one-game ``VecGame`` in the position given (the keys of docs/notation.md#positions)."""
    return VecGame.from_position({"rules": rules, "players": players, **setup})


def act(game: VecGame, *names: str) -> VecGame:
    """Apply actions by name, in order, to game 0."""
    for name in names:
        game.step(np.array([game.action_index(name)]))
    return game


def hands(game: VecGame) -> list[str]:
    return game.snapshot(0)["hands"]


def export_agent(path, players: int, observation: str = "v3", rules: str = "standard_en"):
    """An untrained (16, 16) tanh policy exported in the shipped-agent format for a game of layout
    ``observation``, as the trainers export theirs (``PolicyAgent.export``); returns the JSON's path.
    Needs sb3-contrib."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from torch import nn

    from agents.policy import PolicyAgent

    game = VecGame(rules, players, observation=observation)
    low = np.full(game.observation_size, -np.inf, np.float32)
    policy = MaskableActorCriticPolicy(spaces.Box(low, -low, dtype=np.float32), spaces.Discrete(game.num_actions),
                                       lambda _: 0.0, net_arch=[16, 16], activation_fn=nn.Tanh)
    return PolicyAgent(policy, name=path.name).export(path, game)

"""Agents for UNO: the batched ``Agent`` protocol, scripted bots and trained policies.

``agents.load(name_or_path, game=..., seed=...)`` returns:

* a scripted bot by name: ``random``, ``greedy``, ``heuristic`` (the last two read the observation
  layout of the game they play: pass ``game``);
* a shipped trained agent by name: ``ppo-standard_en-2p``, ``ppo-standard_en-4p`` (``agents/models/``);
* a trained policy from a path: an exported agent (``NAME.json`` + ``NAME.pt``, as written by
  ``training.train_ppo``), an SB3 ``MaskablePPO`` ``.zip``, or an RLlib checkpoint directory (one
  holding ``rllib_checkpoint.json``; RLlib checkpoints are pickled: load only ones you trust).

With ``game`` given, a trained policy is checked against the game's env version and layouts, in the
observation layout it was trained on (its ``observation``: ``v2`` for the shipped agents, which read the
first part of a v3 observation; the training envs give each opponent its own layout).
"""

from __future__ import annotations

import os
from pathlib import Path

from .base import Agent, RandomAgent, check_batch
from .bots import GreedyAgent, HeuristicAgent
from .view import ObsView

_BOTS = {"random": RandomAgent, "greedy": GreedyAgent, "heuristic": HeuristicAgent}
MODELS = Path(__file__).with_name("models")


def shipped() -> list[str]:
    """Names of the trained agents shipped in ``agents/models/``."""
    return sorted(p.stem for p in MODELS.glob("*.json"))


def available() -> list[str]:
    """Names ``load`` accepts: the bots and the shipped trained agents."""
    return sorted(_BOTS) + shipped()


def load(name_or_path: str | os.PathLike, game=None, seed: int | None = None) -> Agent:
    """An agent by name or path (see the module docstring)."""
    if isinstance(name_or_path, str) and name_or_path in _BOTS:
        cls = _BOTS[name_or_path]
        if getattr(cls, "needs_game", False):
            return cls(game=game, seed=seed)
        return cls(seed=seed)
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise ValueError(f"agents.load takes a name or a path, got {name_or_path!r}")
    from .policy import PolicyAgent

    if isinstance(name_or_path, str) and name_or_path in shipped():
        return PolicyAgent.load(MODELS / f"{name_or_path}.json", game=_game_of(game), name=name_or_path)
    path = Path(name_or_path)
    if path.is_dir() and (path / "rllib_checkpoint.json").is_file():
        from .rllib_policy import load_rllib
        return load_rllib(str(path), game=_game_of(game), seed=seed)
    if path.suffix == ".zip" and path.is_file():
        return PolicyAgent.from_sb3(path, game=_game_of(game))
    if path.with_suffix(".json").is_file() and path.with_suffix(".pt").is_file():
        return PolicyAgent.load(path, game=_game_of(game))
    if path.is_dir() and (path / "agent.json").is_file():  # a train_ppo run folder
        return PolicyAgent.load(path / "agent.json", game=_game_of(game))
    raise ValueError(f"unknown agent {str(name_or_path)!r}; agents are: {', '.join(available())}, or a path to "
                     f"an exported policy (.json/.pt), an SB3 .zip, a train_ppo run folder or an RLlib checkpoint")


def _game_of(game):
    """The ``VecGame`` behind a game or an env (``view.find_game``), or None."""
    from .view import find_game
    return None if game is None else find_game(game)


__all__ = ["Agent", "GreedyAgent", "HeuristicAgent", "ObsView", "RandomAgent", "available", "check_batch",
           "load", "shipped"]

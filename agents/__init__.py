"""Agents for UNO: the batched ``Agent`` protocol, scripted bots and trained policies.

``agents.load(name_or_path, game=..., seed=...)`` returns:

* a scripted bot by name: ``random``, ``greedy``, ``heuristic`` (the last two read the observation
  layout of the game they play: pass ``game``);
* a shipped trained agent by name: ``ppo-standard_en-2p``, ``ppo-standard_en-4p`` (``agents/models/``);
* a trained policy from a path: an exported agent (``NAME.json`` + ``NAME.pt``, as written by
  ``training.train_ppo``), an SB3 ``MaskablePPO`` ``.zip``, or an RLlib checkpoint directory (one
  holding ``rllib_checkpoint.json``; RLlib checkpoints are pickled: load only ones you trust).

With ``game`` given, a trained policy is checked against the game's env version and layouts, in the
observation layout it was trained on (its ``observation``: ``v3``, which needs a game that keeps the
table's memory, ``VecGame(..., observation="v3")``; or ``v2`` for agents exported before v3, which read
the first part of a v3 observation; the training envs give each opponent its own layout).
``observation_for(names)`` says, from the agents' metadata alone, which layout a game for them needs.
"""

from __future__ import annotations

import json
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


def observation_of(agent) -> str | None:
    """The observation layout ``agent`` reads (a name or path as ``load`` takes, or an agent object), from
    its metadata alone (no torch): ``"v3"`` or ``"v2"``.  A trained agent that does not say (an SB3
    ``.zip``, an RLlib checkpoint without ``uno_rllib.json``) counts as ``"v3"``: a v3 game serves both
    layouts (v2 is the first part of v3).  ``None`` for what names no agent (``load`` says what is wrong)."""
    if not isinstance(agent, (str, os.PathLike)):
        layout = getattr(agent, "observation", None) or (getattr(agent, "meta", None) or {}).get("observation")
        return layout if layout in ("v2", "v3") else None
    if isinstance(agent, str) and agent in _BOTS:
        return _BOTS[agent].observation  # v2: the bots read its slices, the first part of a v3 observation
    path = MODELS / f"{agent}.json" if isinstance(agent, str) and agent in shipped() else Path(agent)
    if path.is_dir() and (path / "rllib_checkpoint.json").is_file():
        meta_path = path / "uno_rllib.json"
        if not meta_path.is_file():
            return "v3"
    elif path.suffix == ".zip" and path.is_file():
        return "v3"
    elif path.with_suffix(".json").is_file() and path.with_suffix(".pt").is_file():
        meta_path = path.with_suffix(".json")
    elif path.is_dir() and (path / "agent.json").is_file():
        meta_path = path / "agent.json"
    else:
        return None
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError):  # a corrupt file: load names the error
        return None
    # as ``PolicyAgent``: an export from before v3 names no layout and reads v2
    layout = meta.get("observation", "v2" if "env_version" in meta else None) if isinstance(meta, dict) else None
    return layout if layout in ("v2", "v3") else None


def observation_for(specs) -> str:
    """The observation layout of a game played by the agents ``specs`` (names, paths or agent objects):
    ``"v3"`` when one of them reads v3 (it needs the table's memory, which only a v3 game keeps), else
    ``"v2"``, as cheap as before for the bots and pre-v3 agents.  The terminal game, the web app and
    ``uno_env.analysis`` build their games with it."""
    items = [specs] if isinstance(specs, (str, os.PathLike)) else list(specs)
    return "v3" if any(observation_of(a) == "v3" for a in items) else "v2"


def _game_of(game):
    """The ``VecGame`` behind a game or an env (``view.find_game``), or None."""
    from .view import find_game
    return None if game is None else find_game(game)


__all__ = ["Agent", "GreedyAgent", "HeuristicAgent", "ObsView", "RandomAgent", "available", "check_batch",
           "load", "observation_for", "observation_of", "shipped"]

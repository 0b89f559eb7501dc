"""Agents for UNO: the batched ``Agent`` protocol, scripted bots and trained policies.

``agents.load(name_or_path, game=..., seed=...)`` returns:

* a scripted bot by name: ``random``, ``greedy``, ``heuristic`` (the last two read the observation
  layout of the game they play: pass ``game``), or a flawed player, ``heuristic`` with one deliberate flaw
  (``heuristic-no-uno``, ...: ``agents.flawed``);
* a shipped trained agent by name: ``ppo-standard_en-2p``, ``ppo-standard_en-4p`` (``agents/models/``);
  an export whose metadata says ``"play": "colour_average"`` (both shipped agents) plays its
  network's mean over the colour renamings (``agents.symmetry.ColourAveraged``); ``agents.policy.PolicyAgent
  .load(path)`` gives the network alone;
* a trained policy from a path: an exported agent (``NAME.json`` + ``NAME.pt``, as written by
  ``training.train_ppo``), an SB3 ``MaskablePPO`` ``.zip``, or an RLlib checkpoint directory (one
  holding ``rllib_checkpoint.json``; RLlib checkpoints are pickled: load only ones you trust);
* an ensemble of trained policies, their names or paths joined by ``+`` (``"a+b+c"``): it plays the
  action with the highest mean probability (``agents.ensemble``);
* a trained policy averaged over the renamings of the four colours, its name or path followed by
  ``~colours`` (``"ppo-standard_en-2p~colours"``; one-sided decks, ``agents.symmetry``).

With ``game`` given, a trained policy is checked against the game's env version and layouts, in the
observation layout it was trained on (its ``observation``: ``v3``, which needs a game that keeps the
table's memory, as ``VecGame`` does by default (``observation="v3"``); or ``v2`` for agents exported
before v3, which read the first part of a v3 observation; the training envs give each opponent its own
layout).
``observation_for(names)`` says, from the agents' metadata alone, which layout a game for them needs.

This package is the agent loader that ``pyproject.toml`` declares to the environments (the entry point
``agents`` of the group ``uno_env.agents``): they turn an opponent's name into an agent with ``load`` and
learn its layout with ``observation_of``, without importing this package themselves (``uno_env.opponents``).
A name ``load`` does not know raises ``UnknownAgentError`` (a ``ValueError`` and a ``LookupError``); a trained
agent on the light install (no PyTorch) raises ``uno_env.extras.MissingExtraError`` (a ``ModuleNotFoundError``)
naming the extra to install.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from uno_env import extras, opponents
from uno_env.opponents import UnknownAgentError

from . import flawed
from .base import Agent, RandomAgent, check_batch
from .bots import GreedyAgent, HeuristicAgent
from .policy import layout_of
from .view import ObsView

_BOTS = {"random": RandomAgent, "greedy": GreedyAgent, "heuristic": HeuristicAgent}
MODELS = Path(__file__).with_name("models")
COLOURS = "~colours"  # a policy averaged over colour renamings (agents.symmetry)
PLAY_COLOUR_AVERAGE = "colour_average"  # an export's "play": load it averaged over colour renamings


def shipped() -> list[str]:
    """Names of the trained agents shipped in ``agents/models/``."""
    return sorted(p.stem for p in MODELS.glob("*.json"))


def available() -> list[str]:
    """Names ``load`` accepts: the bots and the shipped trained agents (and the flawed players of
    ``agents.flawed.names()``, kept out of this list: they are for measuring, not for playing)."""
    return sorted(_BOTS) + shipped()


def locate(name_or_path: str | os.PathLike) -> tuple[str, Path | None]:
    """What ``name_or_path`` names, and where it is, in the order ``load`` tries: ``("bot", None)``,
    ``("export", NAME.json)`` (a shipped name, an exported policy or a train_ppo run folder),
    ``("sb3", .zip)``, ``("rllib", checkpoint folder)``, ``("ensemble", None)`` (names joined by ``+``),
    ``("colours", None)`` (a policy followed by ``~colours``), or ``("unknown", None)``."""
    if isinstance(name_or_path, str) and (name_or_path in _BOTS or flawed.flaw_of(name_or_path) is not None):
        return "bot", None
    if isinstance(name_or_path, str) and name_or_path in shipped():
        return "export", MODELS / f"{name_or_path}.json"
    path = Path(name_or_path)
    if path.is_dir() and (path / "rllib_checkpoint.json").is_file():
        return "rllib", path
    if path.suffix == ".zip" and path.is_file():
        return "sb3", path
    stem = path.with_suffix("") if path.suffix in (".json", ".pt") else path  # not "a.json~colours" -> "a.json"
    if Path(f"{stem}.json").is_file() and Path(f"{stem}.pt").is_file():
        return "export", Path(f"{stem}.json")
    if path.is_dir() and (path / "agent.json").is_file():  # a train_ppo run folder
        return "export", path / "agent.json"
    if path.is_dir() and any((path / "checkpoints" / f"latest.{x}").is_file() for x in ("pt", "zip")):
        return "checkpoint", path  # a run still training: its latest checkpoint
    if isinstance(name_or_path, str) and python_spec(name_or_path) is not None:
        return "python", None
    if isinstance(name_or_path, str) and "+" in name_or_path:  # after the paths: a file may have a + in its name
        return "ensemble", None
    if isinstance(name_or_path, str) and name_or_path.endswith(COLOURS):
        return "colours", None
    return "unknown", None


def load(name_or_path: str | os.PathLike, game=None, seed: int | None = None) -> Agent:
    """An agent by name or path (see the module docstring)."""
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise ValueError(f"agents.load takes a name or a path, got {name_or_path!r}")
    kind, path = locate(name_or_path)
    if kind == "bot" and name_or_path not in _BOTS:
        return flawed.load(name_or_path, game=game, seed=seed)
    if kind == "bot":
        cls = _BOTS[name_or_path]
        return cls(game=game, seed=seed) if getattr(cls, "needs_game", False) else cls(seed=seed)
    if kind == "python":
        return _from_python(name_or_path, game, seed)
    if kind == "ensemble":
        from .ensemble import EnsembleAgent
        parts = name_or_path.split("+")
        if not all(parts):
            raise ValueError(f"ensemble {name_or_path!r} has an empty member; join names or paths with '+', "
                             f"as in 'ppo-standard_en-2p+runs/my-run'")
        return EnsembleAgent([load(p, game=game, seed=seed) for p in parts], name=name_or_path)
    if kind == "colours":
        policy = load(name_or_path[:-len(COLOURS)], game=game, seed=seed)
        return policy if getattr(policy, "maps", None) is not None else _colour_averaged(policy, game, name_or_path)
    if kind in ("rllib", "sb3", "export", "checkpoint"):
        # a trained policy: PyTorch and sb3-contrib (the train extra), an RLlib checkpoint Ray too (scale)
        needed = ("scale", "train") if kind == "rllib" else "train"
        with extras.needs(needed, f"the trained agent {str(name_or_path)!r}"):
            return _load_trained(kind, path, name_or_path, game, seed)
    raise UnknownAgentError(f"unknown agent {str(name_or_path)!r}; agents are: {', '.join(available())}, a flawed "
                            f"player ({', '.join(flawed.names())}), a strategy of your own (module:Class or "
                            f"path/to/file.py:Class), or a path to an exported policy (.json/.pt), an SB3 .zip, a "
                            f"run folder (finished, or still training: its latest checkpoint) or an RLlib checkpoint")


def _load_trained(kind: str, path: Path, name_or_path, game, seed):
    from .policy import PolicyAgent

    if kind == "rllib":
        from .rllib_policy import load_rllib
        return load_rllib(str(path), game=_game_of(game), seed=seed)
    if kind == "sb3":
        return PolicyAgent.from_sb3(path, game=_game_of(game))
    if kind == "checkpoint":
        return PolicyAgent.from_run(path, game=_game_of(game))
    name = name_or_path if isinstance(name_or_path, str) and name_or_path in shipped() else None
    policy = PolicyAgent.load(path, game=_game_of(game), name=name)
    if policy.meta.get("play") == PLAY_COLOUR_AVERAGE:  # the export says how it plays best
        return _colour_averaged(policy, game, policy.name)
    return policy


def observation_of(agent) -> str | None:
    """The observation layout ``agent`` reads (a name or path as ``load`` takes, or an agent object), from
    its metadata alone (no torch): ``"v3"`` or ``"v2"``.  A trained agent that does not say (an SB3
    ``.zip``, an RLlib checkpoint without ``uno_rllib.json``) counts as ``"v3"``: a v3 game serves both
    layouts (v2 is the first part of v3).  ``None`` for what names no agent (``load`` says what is wrong)."""
    if not opponents.is_name(agent):  # an agent object: what it says of itself, read where the envs read it
        return opponents.observation_of(agent)
    kind, path = locate(agent)
    if kind == "colours":
        return observation_of(agent[:-len(COLOURS)])
    if kind == "ensemble":  # the widest of its members'
        layouts = [observation_of(p) for p in agent.split("+")]
        return None if None in layouts else "v3" if "v3" in layouts else "v2"
    if kind == "bot":
        # v2: the bots (and the flawed heuristics) read its slices, the first part of a v3 observation
        return _BOTS.get(agent, HeuristicAgent).observation
    if kind == "rllib":
        path = path / "uno_rllib.json"
        if not path.is_file():
            return "v3"
    if kind in ("sb3", "python"):
        return "v3"
    if kind == "checkpoint":
        saved = path / "config.json"
        layout = json.loads(saved.read_text()).get("observation") if saved.is_file() else None
        return layout if layout in ("v2", "v3") else "v3"
    if path is None:
        return None
    try:
        return layout_of(json.loads(path.read_text()))
    except (OSError, ValueError):  # a corrupt file: load names the error
        return None


# The layout of a game played by several agents (names, paths or agent objects): "v3" when one reads v3 (it
# needs the table's memory, which only a v3 game keeps), else "v2", as cheap as before for the bots and pre-v3
# agents; the terminal game and the web app build their games with it.  One rule, where the envs keep it.
observation_for = opponents.observation_for


def python_spec(text: str) -> tuple[str, str] | None:
    """``(module or file, attribute)`` of a strategy written in Python, ``"package.module:Name"`` or
    ``"path/to/file.py:Name"``; None for anything else."""
    where, sep, attr = text.rpartition(":")
    if not sep or not attr.isidentifier() or not where:
        return None
    if where.endswith(".py") or all(part.isidentifier() for part in where.split(".")):
        return where, attr
    return None


def _from_python(spec: str, game, seed: int | None):
    """The strategy ``spec`` names (``python_spec``): a class (made with the ``game`` and ``seed`` it accepts),
    an agent object (anything with ``act``), or a one-game function ``fn(observation, mask) -> action``
    (wrapped in ``agents.base.OneGame``).  It is named by ``spec`` unless it names itself."""
    import importlib
    import importlib.util
    import inspect
    import sys

    where, attr = python_spec(spec)
    if where.endswith(".py"):
        file = Path(where)
        if not file.is_file():
            raise UnknownAgentError(f"no Python file {where!r} for the strategy {spec!r}")
        module_name = f"uno_strategy_{abs(hash(str(file.resolve())))}"
        module = sys.modules.get(module_name)
        if module is None:
            loader = importlib.util.spec_from_file_location(module_name, file)
            module = importlib.util.module_from_spec(loader)
            sys.modules[module_name] = module
            loader.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as exc:
            raise UnknownAgentError(f"cannot import {where!r} for the strategy {spec!r} ({exc}); give an importable "
                                    f"module (on the Python path) or a file, path/to/file.py:Name") from None
    target = getattr(module, attr, None)
    if target is None:
        raise UnknownAgentError(f"{where!r} has no {attr!r} (the strategy {spec!r})")
    if inspect.isclass(target):
        accepted = inspect.signature(target).parameters
        kwargs = {k: v for k, v in (("game", game), ("seed", seed)) if k in accepted}
        agent = target(**kwargs)
    elif hasattr(target, "act"):
        agent = target
    elif callable(target):
        from .base import OneGame
        return OneGame(target, name=spec)
    else:
        raise UnknownAgentError(f"{spec!r} is neither a class, an agent (with act) nor a function")
    if not callable(getattr(agent, "act", None)):
        raise UnknownAgentError(f"{spec!r} makes an object without act(observations, masks, rng): a strategy "
                                f"implements that method (docs/leaderboard.md, \"Add yours\")")
    if not isinstance(getattr(agent, "name", None), str):
        try:
            agent.name = spec
        except AttributeError:
            pass
    return agent


def _colour_averaged(policy, game, name: str):
    """``policy`` averaged over the colour renamings of ``game`` (or, without one, of the game its metadata
    names)."""
    from .symmetry import ColourAveraged
    found = _game_of(game)
    meta = getattr(policy, "meta", None) or {}
    if found is None and "rules" in meta and "players" in meta:
        from uno_env import VecGame
        found = VecGame(meta["rules"], int(meta["players"]), batch_size=1, observation=layout_of(meta) or "v2",
                        **meta.get("options", {}))
    if found is None:
        raise ValueError(f"{name!r} averages over colour renamings, which needs the game it plays "
                         f"(agents.load({name!r}, game=...)): its metadata names none")
    return ColourAveraged(policy, found, name=name)


def _game_of(game):
    """The ``VecGame`` behind a game or an env (``view.find_game``), or None."""
    from .view import find_game
    return None if game is None else find_game(game)


__all__ = ["Agent", "GreedyAgent", "HeuristicAgent", "ObsView", "RandomAgent", "UnknownAgentError", "available",
           "check_batch", "layout_of", "load", "locate", "observation_for", "observation_of", "shipped"]

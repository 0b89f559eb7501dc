"""Agents given by name: how the training envs, ``analysis`` and RLlib's bot modules turn ``"heuristic"`` into an agent.

The environments stand below the agents (docs/architecture.md, "The layers"): ``uno_env`` never imports
``agents``.  Anything with ``act(observations, masks, rng)`` passes through as it is; a *name* (or a path)
goes to the **agent loaders** that installed packages declare as package-metadata entry points of the
group ``uno_env.agents``, the plugin pattern Gymnasium uses for third-party environments.  This project
declares its own (``pyproject.toml``)::

    [project.entry-points."uno_env.agents"]
    agents = "agents"

An entry point names an object (a module will do) with

* ``load(name, game=None, seed=None)``: the agent ``name`` names, for ``game`` (a ``VecGame``), or a
  ``LookupError`` (a ``ValueError`` too, if you like) when the name is not one it knows;
* optionally ``observation_of(name)``: the observation layout the agent reads, ``"v2"`` or ``"v3"``, from
  its metadata alone (``None`` if it does not say), so that a game can be built to fit before it loads.

The loaders are asked in turn, this project's (``agents``) first, then the others by entry-point name;
the first that returns an agent wins.  A researcher's package that declares its own loader adds names
without any change here.  With no loader installed, agent objects still work, and a name is refused with
an error saying what to pass instead.
"""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from typing import Any

GROUP = "uno_env.agents"
OWN = "agents"  # the entry point of this project's agents package, asked first
LAYOUTS = ("v2", "v3")


class UnknownAgentError(ValueError, LookupError):
    """No installed agent loader knows the name."""


def loaders() -> list:
    """The agent loaders the installed packages declare (entry points of ``GROUP``), loaded, in the order
    they are asked: this project's first, then by entry-point name."""
    found = sorted(entry_points(group=GROUP), key=lambda ep: (ep.name != OWN, ep.name))
    return [ep.load() for ep in found]


def is_name(spec) -> bool:
    """True for what a loader reads (a name or a path), False for what may be an agent object."""
    return isinstance(spec, (str, os.PathLike))


def load(name, game=None, seed: int | None = None):
    """The agent ``name`` names (a name or a path, as the loaders read it), for ``game``; seeded with ``seed``."""
    found = loaders()
    if not found:
        raise ValueError(
            f"{str(name)!r} names an agent, and no installed package declares an agent loader (entry points of "
            f"{GROUP!r}) to load it: pass agent objects instead (anything with act(observations, masks, rng), "
            f"such as agents.load({str(name)!r}, game=...)), or install a package that declares one: this "
            f"project does (pip install -e . in its folder)")
    unknown = []
    for loader in found:
        try:
            return loader.load(name, game=game, seed=seed)
        except LookupError as exc:  # not a name this loader knows: ask the next one
            unknown.append(exc)
    if len(unknown) == 1:
        raise unknown[0]
    raise UnknownAgentError("; ".join(str(e) for e in unknown))


def resolve(opponents: Any, game, seed: int | None) -> list:
    """Agent objects from ``opponents``: one agent or name (a string: a name or a path), or a list of them.
    A name at index ``i`` is loaded with the seed ``seed + 1000 + i`` (``None`` without a seed)."""
    items = opponents if isinstance(opponents, (list, tuple)) else [opponents]
    if not items:
        raise ValueError("opponents must name at least one agent")
    out = []
    for i, x in enumerate(items):
        if isinstance(x, str):
            x = load(x, game=game, seed=None if seed is None else seed + 1000 + i)
        if not callable(getattr(x, "act", None)):
            raise ValueError(f"opponent {x!r} is not an agent (it needs an act(observations, masks) method)")
        out.append(x)
    return out


def observation_of(spec) -> str | None:
    """The observation layout ``spec`` reads, ``"v2"`` or ``"v3"``: an agent object's ``observation`` (or its
    metadata's), a name's as the first loader that says tells it; ``None`` when nothing says."""
    if not is_name(spec):
        layout = getattr(spec, "observation", None) or (getattr(spec, "meta", None) or {}).get("observation")
        return layout if layout in LAYOUTS else None
    for loader in loaders():
        tell = getattr(loader, "observation_of", None)
        layout = tell(spec) if tell is not None else None
        if layout in LAYOUTS:
            return layout
    return None


def observation_for(specs) -> str:
    """The observation layout of a game played by ``specs`` (names, paths or agent objects, one or a list):
    ``"v2"``, the cheaper, when every one of them says it reads v2 (the bots, agents exported before v3),
    else ``"v3"``, the default of ``VecGame`` and every env (it keeps the table's memory, and serves v2
    readers too: v2 is its first part), so that an agent that does not say is served the default."""
    items = [specs] if is_name(specs) or not isinstance(specs, (list, tuple)) else list(specs)
    return "v2" if all(observation_of(s) == "v2" for s in items) else "v3"


def layout_for(specs, learner: str | None = None) -> dict:
    """The one decision of what a game needs for the agents ``specs`` (as ``observation_for`` takes; ``[]``:
    nobody) and a learner that reads ``learner`` (a layout, if there is one): ``{"observation": ...,
    "memory": ...}``, the arguments of ``VecGame`` (and ``Table``).  The layout is the learner's, else
    ``observation_for(specs)``; the table's memory is kept when anyone at the table reads v3 (each agent
    reads its own layout: ``arena.observer_for``)."""
    empty = isinstance(specs, (list, tuple)) and not specs
    needs = not empty and observation_for(specs) == "v3"
    observation = learner if learner is not None else "v3" if needs else "v2"
    return {"observation": observation, "memory": needs or observation == "v3"}


__all__ = ["GROUP", "UnknownAgentError", "layout_for", "load", "loaders", "observation_for", "observation_of",
           "resolve"]

"""Agents for UNO: the batched ``Agent`` protocol, scripted bots and trained policies.

``agents.load(name_or_path, ...)`` returns an agent by name (``random``, ...) or from a saved model.
"""

from __future__ import annotations

from .base import Agent, RandomAgent, check_batch

_BOTS = {"random": RandomAgent}


def available() -> list[str]:
    """Names ``load`` accepts (bots and shipped models)."""
    return sorted(_BOTS)


def load(name_or_path: str, game=None, seed: int | None = None) -> Agent:
    """An agent by name (see ``available()``).

    Args:
        name_or_path: a bot name.
        game: the ``VecGame`` (or ``raw_env``) the agent will play, for agents that need its layout.
        seed: seed of the agent's own random choices.
    """
    if name_or_path in _BOTS:
        return _BOTS[name_or_path](seed=seed)
    raise ValueError(f"unknown agent {name_or_path!r}; agents are: {', '.join(available())}")


__all__ = ["Agent", "RandomAgent", "available", "check_batch", "load"]

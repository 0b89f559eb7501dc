"""The batched agent protocol shared by bots, trained policies and evaluation.

An agent maps a batch of observations and legal-action masks to one legal action per row::

    actions = agent.act(observations, action_masks, rng=None)   # (B, obs), (B, A) bool -> (B,) int

Agents see only what a player sees (the observation vector of ``uno_env.core.observe`` and the
mask), never the game state.  Scripted bots read the observation through ``ObsView`` so they can
be used with any preset and player count.
"""

from __future__ import annotations

import contextlib
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observations: np.ndarray, action_masks: np.ndarray,
            rng: np.random.Generator | None = None) -> np.ndarray:
        """Return ``(B,)`` legal action ids, one per row."""
        ...


class ModelMismatchError(ValueError):
    """An agent that does not fit the game it is asked to play: a saved policy trained for another
    configuration or layout, or observations or masks of another width than the agent reads."""


def check_width(name: str, observations: np.ndarray, sizes, action_masks: np.ndarray | None = None,
                actions: int | None = None) -> None:
    """Raise ``ModelMismatchError`` naming both sizes if the batch's observation width is not one of
    ``sizes`` (or, with ``actions``, its mask's width is not ``actions``)."""
    sizes = sorted({int(s) for s in ([sizes] if isinstance(sizes, (int, np.integer)) else sizes)})
    width = observations.shape[1]
    if width not in sizes:
        raise ModelMismatchError(
            f"{name} reads observations of {' or '.join(map(str, sizes))} numbers, got {width}: a game made with "
            f"another observation layout, rules or player count (VecGame and every env observe layout 'v3' by "
            f"default; pass the game to agents.load(..., game=game) to check it when loading)")
    if actions is not None and action_masks is not None and action_masks.shape[1] != actions:
        raise ModelMismatchError(f"{name} chooses among {actions} actions, got action masks of "
                                 f"{action_masks.shape[1]}: a game with other rules or another player count")


def check_batch(observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validate and normalise a batch: 2-D observations, a bool mask with a legal action per row."""
    obs = np.asarray(observations)
    mask = np.asarray(action_masks)
    if obs.ndim == 1:
        obs = obs[None]
    if mask.ndim == 1:
        mask = mask[None]
    if obs.ndim != 2 or mask.ndim != 2 or obs.shape[0] != mask.shape[0]:
        raise ValueError(f"act() takes observations (B, obs) and action_masks (B, A) with the same B; "
                         f"got {np.shape(observations)} and {np.shape(action_masks)}")
    mask = mask.astype(bool, copy=not mask.flags.writeable)  # torch wants writable arrays
    empty = ~mask.any(1)
    if empty.any():
        raise ValueError(f"rows {np.flatnonzero(empty)[:10].tolist()} of action_masks have no legal action")
    return obs, mask


def choose(probs: np.ndarray, mask: np.ndarray, deterministic: bool, rng=None) -> np.ndarray:
    """``(B,)`` the most likely legal action of each row (``deterministic`` or no ``rng``), else one drawn from
    ``probs``; a legal action always beats an illegal one, even where ``probs`` gives it no mass."""
    if deterministic or rng is None:
        return np.where(mask, probs + 1e-12, -1.0).argmax(1).astype(np.int64)
    return sample(probs, rng)


def sample(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``(B,)`` one action per row drawn from ``probs`` (``(B, A)``, zero on illegal actions)."""
    cum = probs.cumsum(1)
    u = rng.random((len(probs), 1)) * cum[:, -1:]  # below the total: the first column past u has mass
    return (cum <= u).sum(1).astype(np.int64)


class RandomAgent:
    """Uniformly random among the legal actions."""

    name = "random"
    observation = "v2"  # reads none: the cheaper layout will do

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        _, mask = check_batch(observations, action_masks)
        rng = rng or self.rng
        r = rng.random(mask.shape, dtype=np.float32)
        r += 1e-3  # keep legal actions above the zeroed illegal ones
        r *= mask
        return r.argmax(1)


class OneGame:
    """A one-game strategy as a batched agent: ``fn(observation, mask) -> action`` (a 1-D observation of the
    seat to move, its 1-D boolean mask of legal actions, an action id) called on each row of a batch.  Slower
    than a batched ``act`` (one Python call a decision), as simple as a strategy can be written."""

    observation = None  # the layout of the game it plays (v3 by default)

    def __init__(self, fn, name: str | None = None):
        if not callable(fn):
            raise TypeError(f"OneGame takes a function fn(observation, mask) -> action, got {fn!r}")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "strategy")

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        obs, mask = check_batch(observations, action_masks)
        return np.array([int(self.fn(o, m)) for o, m in zip(obs, mask)], np.int64)


_BLAS_CONTROLLER = None
_BLAS_SPLIT = 1 << 16  # multiply-adds: OpenBLAS keeps a product below 4 times this on the calling thread


def one_blas_thread(size: int = _BLAS_SPLIT):
    """A context that keeps numpy's BLAS on one thread (``threadpoolctl``) for products of about
    ``size`` multiply-adds; below ``_BLAS_SPLIT`` BLAS does not split a product anyway and the
    context does nothing (entering and leaving the limit costs about 15 us).

    The bots multiply small matrices (a batch of hands by a table of actions) between other array
    work.  A second OpenBLAS thread must be woken for every product: on an idle machine that gains
    little, on a busy one it waits for a core every time (two evaluations at once on two cores each
    ran 4 to 19 times slower than they do on one thread; ``benchmarks/ab_jobs.py``).
    """
    global _BLAS_CONTROLLER
    if size < _BLAS_SPLIT:
        return contextlib.nullcontext()
    if _BLAS_CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _BLAS_CONTROLLER = ThreadpoolController()  # scans the loaded libraries once
    return _BLAS_CONTROLLER.limit(limits=1, user_api="blas")

"""Helpers shared by the training scripts."""

from __future__ import annotations

import numpy as np


def parse_net_arch(text: str) -> list[int]:
    """``"256,256"`` -> ``[256, 256]``; a clear error for anything else."""
    try:
        arch = [int(x) for x in str(text).split(",")]
        if arch and all(x > 0 for x in arch):
            return arch
    except ValueError:
        pass
    raise ValueError(f"--net-arch must be comma-separated positive sizes like 256,256, got {text!r}")


def discounted_outcomes(rewards: np.ndarray, dones: np.ndarray, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """``(steps, n)`` rewards and episode ends -> each decision's discounted outcome and whether its
    episode finished within the window (unfinished ones have no outcome yet)."""
    returns = np.zeros(rewards.shape, np.float32)
    keep = np.zeros(dones.shape, bool)
    run = np.zeros(rewards.shape[1], np.float32)
    known = np.zeros(rewards.shape[1], bool)
    for t in range(len(rewards) - 1, -1, -1):
        run = np.where(dones[t], rewards[t], gamma * run)
        known |= dones[t]
        returns[t], keep[t] = run, known
    return returns, keep

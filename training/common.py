"""Helpers shared by the training scripts."""

from __future__ import annotations


def parse_net_arch(text: str) -> list[int]:
    """``"256,256"`` -> ``[256, 256]``; a clear error for anything else."""
    try:
        arch = [int(x) for x in str(text).split(",")]
        if arch and all(x > 0 for x in arch):
            return arch
    except ValueError:
        pass
    raise ValueError(f"--net-arch must be comma-separated positive sizes like 256,256, got {text!r}")

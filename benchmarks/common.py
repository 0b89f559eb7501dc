"""Helpers shared by the benchmark scripts: versions, medians and JSON-line output.

Nothing here times anything; it only keeps every script's output in one format: one JSON object per
line, each carrying the versions of the packages measured so lines from different runs can be compared.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import platform
import statistics
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO


@functools.lru_cache(maxsize=8)
def uno_env_revision(tree: str | None = None) -> str | None:
    """The git commit of the ``uno_env`` sources measured (those imported, or those of the source tree
    ``tree``), ``+dirty`` if ``uno_env/core``, the code timed, has uncommitted changes; ``None`` outside
    a git checkout: the engine changes faster than its version number."""
    try:
        if tree is None:
            import uno_env
            src = Path(uno_env.__file__).resolve().parent
        else:
            src = Path(tree).resolve() / "uno_env"
        git = ["git", "-C", str(src)]
        run = functools.partial(subprocess.run, capture_output=True, text=True, timeout=10, check=True)
        head = run([*git, "rev-parse", "--short", "HEAD"]).stdout.strip()
        dirty = run([*git, "status", "--porcelain", "--", "core"]).stdout.strip()
    except (OSError, subprocess.SubprocessError, ImportError):
        return None
    return head + ("+dirty" if dirty else "")


def versions() -> dict[str, str | None]:
    """Versions of Python and of every package a benchmark may touch (``None`` if not installed), and
    the git revision of ``uno_env``."""
    return dict(_versions())


@functools.lru_cache(maxsize=1)
def _versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in ("uno_env", "numpy", "rlcard", "pettingzoo", "gymnasium"):
        try:
            module = __import__(name)
            out[name] = getattr(module, "__version__", "unknown")
        except ImportError:
            out[name] = None
    out["uno_env_git"] = uno_env_revision()
    return out


def machine() -> dict[str, object]:
    """What the numbers were measured on (CPU count and platform)."""
    return {"cpus": os.cpu_count(), "platform": platform.platform(), "processor": platform.machine()}


def median(values: Sequence[float]) -> float | None:
    """Median of the repeated windows (``None`` if there are none); the benchmarks report this rather
    than the mean because the hosts are noisy."""
    return float(statistics.median(values)) if len(values) else None


def rounded(x: float, digits: int = 4) -> float:
    """``x`` to ``digits`` significant digits, so the JSON lines stay readable."""
    if not math.isfinite(x) or x == 0:
        return x
    return float(f"{x:.{digits}g}")


def emit(record: dict, out: IO[str] | None = None) -> None:
    """Print ``record`` as one JSON line (and append it to ``out`` when given)."""
    line = json.dumps(record, allow_nan=False)
    print(line, flush=True)
    if out is not None:
        out.write(line + "\n")
        out.flush()


@contextlib.contextmanager
def output(path: Path | None) -> Iterator[IO[str] | None]:
    """The ``--out`` file opened for appending (``None`` when no path is given), closed afterwards."""
    if path is None:
        yield None
        return
    with path.open("a") as f:
        yield f


def ratio(a: float | None, b: float | None) -> float | None:
    """``a / b`` to 4 significant digits, or ``None`` when either is missing or ``b`` is zero."""
    return rounded(a / b) if a is not None and b else None


__all__ = ["emit", "machine", "median", "output", "ratio", "rounded", "versions"]

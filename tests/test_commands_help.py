"""Every command's ``--help`` prints its usage: argparse formats each help string with ``%``, so a help that
quotes a percentage unescaped (``53%:``) crashed ``python -m training.best_response --help`` until this test."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import pkgutil

import pytest

PACKAGES = ("uno_env", "agents", "training", "research", "benchmarks")


def _commands() -> list[str]:
    out = []
    for pkg in PACKAGES:
        try:
            root = importlib.import_module(pkg)
        except ImportError:  # an extra that is not installed
            continue
        for m in pkgutil.walk_packages(root.__path__, pkg + "."):
            try:
                mod = importlib.import_module(m.name)
            except ImportError:  # its extra is not installed
                continue
            main = getattr(mod, "main", None)
            if callable(main) and main.__module__ == mod.__name__ and inspect.signature(main).parameters:
                out.append(m.name)
    return sorted(out)


COMMANDS = _commands()


def test_the_commands_are_found():
    assert {"training.best_response", "training.league", "training.leaderboard", "research.play_profile"} \
        <= set(COMMANDS)


@pytest.mark.parametrize("module", COMMANDS)
def test_help_prints_the_usage_and_exits_cleanly(module):
    out = io.StringIO()
    with pytest.raises(SystemExit) as done, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(io.StringIO()):
        importlib.import_module(module).main(["--help"])
    assert done.value.code in (0, None)
    assert "usage" in out.getvalue().lower()

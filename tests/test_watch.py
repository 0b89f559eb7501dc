"""``uno watch``: a seed repeats a game, a delay paces it, colour codes go only to a terminal (and never with
``NO_COLOR``), and ``--legend`` explains the card codes first."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from uno_apps import cli, terminal
from uno_env.render import LEGEND

ROOT = Path(__file__).resolve().parent.parent
WATCH = ["watch", "--rules", "standard_en", "--players", "3", "--bots", "heuristic,greedy", "--verbose"]


def watched(*extra: str) -> list[str]:
    """The lines ``uno watch`` prints (to a StringIO: not a terminal, so no colours unless forced)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli.main([*WATCH, *extra]) == 0
    return buf.getvalue().splitlines()


def test_watch_into_a_pipe_writes_no_escape_codes():
    """As ``python -m uno_apps.cli watch ... | cat``: stdout is a pipe, not a terminal."""
    proc = subprocess.run([sys.executable, "-m", "uno_apps.cli", *WATCH, "--seed", "3"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "NO_COLOR"})
    assert proc.returncode == 0, proc.stderr
    assert "round 1" in proc.stdout and "top:" in proc.stdout  # the events and the table were printed
    assert "\x1b" not in proc.stdout


class _Stream:
    def __init__(self, tty: bool):
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("plain", "no_color", "tty", "want"), [
    (False, None, True, True),      # a terminal gets colours
    (False, None, False, False),    # a file or a pipe does not
    (False, "1", True, False),      # NO_COLOR set: none, even on a terminal
    (False, "", True, True),        # NO_COLOR empty counts as unset (no-color.org)
    (True, None, True, False),      # --plain
])
def test_colours_only_on_a_terminal_without_no_color(monkeypatch, plain, no_color, tty, want):
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert cli.colours(argparse.Namespace(plain=plain), _Stream(tty)) is want


def test_a_terminal_gets_colours_and_no_color_takes_them_away(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(cli, "colours", lambda args, stream=None: True)  # as if stdout were a terminal
    assert any("\x1b[" in line for line in watched("--seed", "3"))


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    first, again, other = watched("--seed", "11"), watched("--seed", "11"), watched("--seed", "12")
    assert first == again
    assert first != other


def test_the_legend_comes_first_on_request():
    lines = watched("--seed", "3", "--legend")
    assert "\n".join(lines).startswith(LEGEND)
    assert LEGEND.splitlines()[0] not in watched("--seed", "3")


def test_delay_pauses_before_each_move(monkeypatch):
    pauses: list[float] = []
    monkeypatch.setattr(terminal.time, "sleep", pauses.append)
    lines = watched("--seed", "3", "--delay", "0.25")
    moves = sum(1 for line in lines if line.startswith(" - "))  # each agent's decision is one event line or more
    assert pauses and set(pauses) == {0.25} and len(pauses) <= moves


def test_a_negative_delay_is_an_error_naming_the_value(capsys):
    assert cli.main([*WATCH, "--delay", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--delay" in err and "-1" in err and "0 or more" in err

"""Tables for the README, generated from the code's own spec tables.

    python -m uno_env.docs README.md          # rewrite the generated sections in place
    python -m uno_env.docs README.md --check  # exit 1 if they are out of date (a test runs this)

A generated section sits between ``<!-- BEGIN GENERATED: NAME -->`` and ``<!-- END GENERATED: NAME -->``;
NAME is one of ``options``, ``observation``, ``actions``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from .core.actions import ACTION_TYPES
from .core.config import OPTIONS, PRESETS
from .core.game import VecGame
from .core.observe import SLOTS


def options_table() -> str:
    """Every rule option, its value in each preset (bold where it differs from standard_en)."""
    names = list(PRESETS)
    base = PRESETS["standard_en"]
    lines = ["| option | " + " | ".join(f"`{n}`" for n in names) + " | values | meaning |",
             "|---|" + "---|" * len(names) + "---|---|"]
    for key, opt in OPTIONS.items():
        values = " / ".join(str(v) for v in opt.allowed) if opt.allowed else f"{opt.lo} to {opt.hi}"
        cells = []
        for n in names:
            v = getattr(PRESETS[n], key)
            cells.append(f"**{v}**" if v != getattr(base, key) else str(v))
        lines.append(f"| `{key}` | " + " | ".join(cells) + f" | {values} | {opt.help} |")
    return "\n".join(lines)


def observation_table() -> str:
    """The observation slices, with their sizes for standard_en and flip_jp at 4 players."""
    std, flip = VecGame("standard_en", 4).observer, VecGame("flip_jp", 4).observer
    lines = ["| slice | size | standard_en, 4p | flip_jp, 4p | meaning |", "|---|---|---|---|---|"]
    for name, size, text in SLOTS:
        a = std.slots.get(name)
        b = flip.slots.get(name)
        fmt = lambda s: f"{s.start}:{s.stop}" if s else "-"  # noqa: E731
        lines.append(f"| `{name}` | {size} | {fmt(a)} | {fmt(b)} | {text} |")
    lines.append(f"| total | | {std.size} | {flip.size} | |")
    return "\n".join(lines)


def actions_table() -> str:
    """The action layout of standard_en with 4 players, by block."""
    game = VecGame("standard_en", 4)
    A = game.engine.actions
    wild = (A.kind == 0) & game.engine.F_WILD[A.face]
    group = [("wild play" if w else ACTION_TYPES[k]) for k, w in zip(A.kind, wild)]
    lines = ["| ids | actions |", "|---|---|"]
    start = 0
    for i in range(1, A.size + 1):
        if i == A.size or group[i] != group[start]:
            first, last = A.names[start], A.names[i - 1]
            kind = group[start]
            label = f"`{first}`" if start == i - 1 else f"`{first}` ... `{last}`"
            lines.append(f"| {start}-{i - 1} | {label} ({i - start} {kind} action{'s' if i - start > 1 else ''}) |")
            start = i
    lines.append(f"| total | {A.size} actions (`VecGame('standard_en', 4).action_names`) |")
    return "\n".join(lines)


SECTIONS = {"options": options_table, "observation": observation_table, "actions": actions_table}
_BLOCK = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)


def render(text: str) -> str:
    def fill(m: re.Match) -> str:
        name = m.group(2)
        if name not in SECTIONS:
            raise ValueError(f"unknown generated section {name!r}; sections are: {', '.join(SECTIONS)}")
        return f"{m.group(1)}{SECTIONS[name]()}\n{m.group(4)}"
    return _BLOCK.sub(fill, text)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m uno_env.docs", description=__doc__.split("\n")[0])
    p.add_argument("path", help="the markdown file (README.md)")
    p.add_argument("--check", action="store_true", help="only check that the sections are up to date")
    args = p.parse_args(argv)
    path = Path(args.path)
    text = path.read_text(encoding="utf-8")
    new = render(text)
    if args.check:
        if new != text:
            print(f"{path}: generated sections are out of date; run python -m uno_env.docs {path}")
            return 1
        print(f"{path}: generated sections are up to date")
        return 0
    path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

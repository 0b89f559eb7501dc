"""Run scenario files (the notation, docs/notation.md): ``python -m uno_env.scenarios FILE_OR_DIR ...``.

Each scenario builds its ``setup`` position, then runs its ``steps`` in order: ``{"act": ACTION}``
(optionally ``"by": SEAT``, checked against the seat asked) or ``{"expect": {...}}``.  One line is
printed per scenario, then ``N passed, M failed``.  The exit status is 0 when all pass, 1 when any
fails and 2 when a file is malformed (bad JSON, unknown keys, unknown cards or actions); errors name the
file, the scenario id, the step index and the offending text.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .core.game import VecGame
from .core.notation import color_text, top_text

SCENARIO_KEYS = {"id", "setup", "steps", "description", "rule", "tags"}
EXPECT_KEYS = {"to_move", "legal", "legal_includes", "legal_excludes", "hands", "hand_sizes", "top",
               "color", "direction", "side", "pending_draw", "draw_pile_size", "discard_size",
               "round_over", "winner", "round_points", "scores", "game_over", "uno_vulnerable"}


class Malformed(ValueError):
    """A scenario file that cannot be run as written."""


@dataclass
class Outcome:
    file: str
    id: str
    passed: bool
    message: str = ""


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    @property
    def failed(self) -> int:
        return sum(not o.passed for o in self.outcomes)

    @property
    def exit_code(self) -> int:
        return 2 if self.malformed else (1 if self.failed else 0)


def observed(game: VecGame, key: str) -> Any:
    """The value of expectation ``key`` in game row 0, in notation."""
    st, e, deck = game.state, game.engine, game.engine.deck
    over = bool(st.phase[0] == 6)
    if key == "to_move":
        return None if over else int(st.actor[0])
    if key == "legal":
        return sorted(game.legal_actions(0))
    if key == "hands":
        return [sorted(deck.format_cards(np.repeat(np.arange(e.K), st.hands[0, p])).split())
                for p in range(e.P)]
    if key == "hand_sizes":
        return [int(x) for x in st.hand_n[0]]
    if key == "top":
        return top_text(e, st, 0)
    if key == "color":
        return color_text(int(st.color[0]))
    if key == "direction":
        return int(st.direction[0])
    if key == "side":
        return "dark" if st.side[0] else "light"
    if key == "pending_draw":
        return int(st.pending[0])
    if key == "draw_pile_size":
        return int(st.draw_n[0])
    if key == "discard_size":
        return int(st.disc_n[0])
    if key == "round_over":
        return over
    if key == "winner":
        return int(st.winner[0]) if over and st.winner[0] >= 0 else None
    if key == "round_points":
        return int(st.round_points[0])
    if key == "scores":
        return [int(x) for x in st.scores[0]]
    if key == "game_over":
        return bool(st.game_over[0]) if over else False
    if key == "uno_vulnerable":
        return sorted(int(p) for p in np.flatnonzero(st.vulnerable[0]))
    raise KeyError(key)


def _check_cards(game: VecGame, text: Any, where: str) -> list[str]:
    if not isinstance(text, str):
        raise Malformed(f"{where}: expected a string of cards, got {text!r}")
    try:
        game.engine.deck.parse_cards(text)
    except ValueError as exc:
        raise Malformed(f"{where}: {exc}") from None
    return sorted(text.split())


def _check_action(game: VecGame, name: Any, where: str) -> None:
    if not isinstance(name, str) or name not in game.engine.actions.index:
        raise Malformed(f"{where}: unknown action {name!r} for these rules "
                        f"(actions look like 'play R5', 'play W G', 'draw'; see action_names)")


def check_expect(game: VecGame, expect: Any, where: str, compare: bool = True) -> list[str]:
    """Mismatches between ``expect`` and the game (Malformed for an unknown key or card); with
    ``compare=False`` only the checks that make it Malformed."""
    if not isinstance(expect, dict):
        raise Malformed(f"{where}: 'expect' must be an object, got {expect!r}")
    unknown = sorted(set(expect) - EXPECT_KEYS)
    if unknown:
        raise Malformed(f"{where}: unknown expectation(s) {', '.join(map(repr, unknown))}; "
                        f"known: {', '.join(sorted(EXPECT_KEYS))}")
    errors = []
    for key, want in expect.items():
        if key in ("legal", "legal_includes", "legal_excludes"):
            if not isinstance(want, list):
                raise Malformed(f"{where}: '{key}' must be a list of actions, got {want!r}")
            for a in want:
                _check_action(game, a, f"{where}, '{key}'")
            if not compare:
                continue
            have = set(game.legal_actions(0))
            if key == "legal" and have != set(want):
                errors.append(f"legal: expected {sorted(want)}, got {sorted(have)}")
            elif key == "legal_includes" and not set(want) <= have:
                errors.append(f"legal_includes: {sorted(set(want) - have)} not legal; legal: {sorted(have)}")
            elif key == "legal_excludes" and set(want) & have:
                errors.append(f"legal_excludes: {sorted(set(want) & have)} are legal")
            continue
        if key == "hands":
            if not isinstance(want, list) or len(want) != game.num_players:
                raise Malformed(f"{where}: 'hands' must list {game.num_players} strings (null to skip a seat)")
            have = observed(game, "hands")
            for p, (w, h) in enumerate(zip(want, have)):
                if w is not None and _check_cards(game, w, f"{where}, 'hands'[{p}]") != h and compare:
                    errors.append(f"hands[{p}]: expected {' '.join(sorted(w.split()))}, got {' '.join(h)}")
            continue
        if key == "top":
            _check_cards(game, want, f"{where}, 'top'")
        if not compare:
            continue
        have = observed(game, key)
        if key == "uno_vulnerable" and isinstance(want, list):
            want = sorted(want)
        if have != want:
            errors.append(f"{key}: expected {want!r}, got {have!r}")
    return errors


def _check_step(game: VecGame, step: Any, at: str) -> None:
    """Malformed unless ``step`` is a well-formed act or expect step of known actions, keys and cards."""
    if not isinstance(step, dict) or not (set(step) <= {"act", "by", "expect", "note"}) or \
            (("act" in step) == ("expect" in step)) or ("by" in step and "act" not in step):
        raise Malformed(f"{at}: a step is {{\"act\": ACTION}} (with optional \"by\": SEAT) or "
                        f"{{\"expect\": {{...}}}}, got {step!r}")
    if "act" in step:
        _check_action(game, step["act"], at)
        by = step.get("by", 0)
        if isinstance(by, bool) or not isinstance(by, int) or not 0 <= by < game.num_players:
            raise Malformed(f"{at}: 'by' must be a seat from 0 to {game.num_players - 1}, got {by!r}")
    else:
        check_expect(game, step["expect"], at, compare=False)


def run_scenario(sc: Any, where: str) -> tuple[bool, str]:
    """Run one scenario; (passed, message).  Raises Malformed for a scenario that cannot be run."""
    if not isinstance(sc, dict):
        raise Malformed(f"{where}: a scenario must be an object, got {type(sc).__name__}")
    unknown = sorted(set(sc) - SCENARIO_KEYS)
    if unknown:
        raise Malformed(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; a scenario has "
                        f"'id', 'setup', 'steps' (and optionally 'description', 'rule', 'tags')")
    for key in ("id", "setup", "steps"):
        if key not in sc:
            raise Malformed(f"{where}: the scenario has no '{key}'")
    if not isinstance(sc["steps"], list):
        raise Malformed(f"{where}: 'steps' must be a list")
    try:
        game = VecGame.from_position(sc["setup"])
    except ValueError as exc:
        raise Malformed(f"{where}, setup: {exc}") from None
    for i, step in enumerate(sc["steps"]):  # every step is checked before any runs: a malformed step
        _check_step(game, step, f"{where}, step {i}")  # is reported even after a failing one
    for i, step in enumerate(sc["steps"]):
        if "act" in step:
            if game.state.phase[0] == 6:
                return False, f"step {i}: {step['act']!r} sent after the round ended"
            if "by" in step and step["by"] != int(game.state.actor[0]):
                return False, (f"step {i}: {step['act']!r} by seat {step['by']}, but seat "
                               f"{int(game.state.actor[0])} is to move; legal: {game.legal_actions(0)}")
            a = game.action_index(step["act"])
            if not game.state.mask[0, a]:
                return False, (f"step {i}: {step['act']!r} is illegal for seat {int(game.state.actor[0])}; "
                               f"legal: {game.legal_actions(0)}")
            game.step(np.array([a]))
        else:
            errors = check_expect(game, step["expect"], f"{where}, step {i}")
            if errors:
                return False, f"step {i}: " + "; ".join(errors)
    return True, ""


def load_file(path: Path) -> list:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Malformed(f"{path}: not a readable JSON file: {exc}") from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise Malformed(f"{path}: a scenario file holds one scenario object or a list of them")
    return data


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(p.rglob("*.json"))
        elif p.exists():
            files.append(p)
        else:
            raise Malformed(f"{p}: no such file or directory")
    return files


def run_paths(paths: list[str], out=print) -> Report:
    report = Report()
    try:
        files = collect(paths)
    except Malformed as exc:
        report.malformed.append(str(exc))
        out(f"ERROR {exc}")
        return report
    for path in files:
        try:
            scenarios = load_file(path)
        except Malformed as exc:
            report.malformed.append(str(exc))
            out(f"ERROR {exc}")
            continue
        ids = Counter(s.get("id") for s in scenarios if isinstance(s, dict))
        for j, sc in enumerate(scenarios):
            sid = sc.get("id", f"#{j}") if isinstance(sc, dict) else f"#{j}"
            where = f"{path}: scenario {sid!r}"
            if ids[sid] > 1:
                report.malformed.append(f"{where}: duplicate id")
                out(f"ERROR {where}: the id is used {ids[sid]} times in the file")
                ids[sid] = 1
                continue
            try:
                ok, msg = run_scenario(sc, where)
            except Malformed as exc:
                report.malformed.append(str(exc))
                out(f"ERROR {exc}")
                continue
            report.outcomes.append(Outcome(str(path), str(sid), ok, msg))
            out(f"{'PASS' if ok else 'FAIL'} {path.name}: {sid}{'' if ok else ' -- ' + msg}")
    out(f"{report.passed} passed, {report.failed} failed")  # exactly docs/notation.md's line; ERROR lines above
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uno_env.scenarios", description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", help="scenario files or directories (searched for *.json)")
    args = parser.parse_args(argv)
    return run_paths(args.paths).exit_code


if __name__ == "__main__":
    sys.exit(main())

"""Every scenario passes, each as its own test named ``family: scenario id`` (``pytest -k deflect`` runs the
Skip-deflection family), and the runner reports failures and malformed files as documented.

The scenario files group the rules by family (``tests/scenarios/<family>.json``; docs/architecture.md names
the module of each rule); ``examples.json`` holds the notation's examples (docs/notation.md).
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from uno_env import PRESETS
from uno_env.scenarios import load_file, main, run_scenario

HERE = Path(__file__).parent
FOLDER = HERE / "scenarios"
FAMILIES = ("action_cards", "blocked_round", "challenge", "deflect", "examples", "first_card", "flip", "jump_in",
            "last_card", "matching", "piles", "scoring", "seven_o", "stacking", "swap", "turn", "uno")
FILES = sorted(FOLDER.glob("*.json"))
SCENARIOS = [(path, sc) for path in FILES for sc in load_file(path)]


def test_the_scenario_folder_holds_one_file_per_rule_family_with_unique_ids():
    assert [p.stem for p in FILES] == sorted(FAMILIES)
    assert len(SCENARIOS) >= 488  # the 482 rules scenarios and the notation's 6 examples
    for path in FILES:
        ids = Counter(sc["id"] for sc in load_file(path))
        assert not [i for i, n in ids.items() if n > 1], path.name


@pytest.mark.parametrize("path,scenario", SCENARIOS, ids=[f"{p.stem}: {sc['id']}" for p, sc in SCENARIOS])
def test_scenario(path, scenario):
    passed, message = run_scenario(scenario, f"{path.name}: scenario {scenario['id']!r}")
    assert passed, message


def test_the_project_has_scenarios_for_every_preset():
    text = " ".join(p.read_text() for p in FILES)
    for preset in PRESETS:
        assert f'"rules": "{preset}"' in text


def _write(tmp_path, data, name="s.json"):
    p = tmp_path / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return p


GOOD = {"id": "ok", "setup": {"rules": "standard_en", "players": 2, "hands": ["R1 G2", "B3"],
                              "discard": "R7", "to_move": 0},
        "steps": [{"act": "play R1"}, {"expect": {"to_move": 1}}]}


def test_runner_prints_a_summary_and_exits_0(tmp_path, capsys):
    assert main([str(_write(tmp_path, [GOOD]))]) == 0
    assert capsys.readouterr().out.strip().endswith("1 passed, 0 failed")


def test_runner_exits_1_when_an_expectation_fails(tmp_path, capsys):
    bad = {**GOOD, "steps": [{"act": "play R1"}, {"expect": {"to_move": 0}}]}
    assert main([str(_write(tmp_path, [GOOD, {**bad, "id": "bad"}]))]) == 1
    out = capsys.readouterr().out
    assert "FAIL s.json: bad -- step 1: to_move: expected 0, got 1" in out
    assert "1 passed, 1 failed" in out


def test_runner_exits_1_on_an_illegal_action(tmp_path, capsys):
    bad = {**GOOD, "id": "illegal", "steps": [{"act": "play G2"}]}
    assert main([str(_write(tmp_path, bad))]) == 1
    assert "'play G2' is illegal for seat 0" in capsys.readouterr().out


@pytest.mark.parametrize("data,message", [
    ("{not json", "not a readable JSON file"),
    ({**GOOD, "stepz": []}, "unknown key(s) 'stepz'"),
    ({**GOOD, "steps": [{"act": "play R11"}]}, "step 0: unknown action 'play R11'"),
    ({**GOOD, "steps": [{"expect": {"top": "X9"}}]}, "step 0, 'top': unknown card 'X9'"),
    ({**GOOD, "steps": [{"expect": {"tops": "R7"}}]}, "step 0: unknown expectation(s) 'tops'"),
    ({**GOOD, "setup": {**GOOD["setup"], "hands": ["R1 Q5", "B3"]}}, "setup: unknown card 'Q5'"),
    ({**GOOD, "setup": {**GOOD["setup"], "hands": ["R0 R0", "B3"]}}, "setup: card R0 appears 2 times"),
    # a malformed step after one that fails is still found: every step is checked before any runs
    ({**GOOD, "steps": [{"expect": {"to_move": 1}}, {"act": "play Q9"}]}, "step 1: unknown action 'play Q9'"),
    ({**GOOD, "steps": [{"act": "play R1", "by": 7}]}, "step 0: 'by' must be a seat from 0 to 1, got 7"),
])
def test_runner_exits_2_on_a_malformed_file_naming_file_scenario_step_and_text(tmp_path, capsys, data, message):
    path = _write(tmp_path, data)
    assert main([str(path)]) == 2
    out = capsys.readouterr().out
    assert message in out and str(path) in out
    assert out.strip().splitlines()[-1] == "0 passed, 0 failed"  # the summary line is exactly docs/notation.md's

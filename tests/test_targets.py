"""The targets table has one source (``benchmarks/targets.py``): the README and docs/benchmarks.md carry the
same table, and docs/training.md the agents' win rates, each written from it and from the held-out
evaluations in ``results/held_out/``; the statuses follow from the figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks import targets

ROOT = Path(__file__).resolve().parent.parent


def between(path: Path, begin: str, end: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count(begin) == 1 and text.count(end) == 1, f"{path.name}: the generated table's markers"
    return text.split(begin, 1)[1].split(end, 1)[0]


def test_every_file_holds_what_the_one_source_writes():
    for path in targets.FILES:
        text = path.read_text(encoding="utf-8")
        assert targets.rewrite(text, path) == text, f"{path.name} is out of date: python -m benchmarks.targets"
    assert targets.main(["--check"]) == 0


def test_the_readme_and_the_benchmarks_page_carry_the_same_table():
    readme = between(ROOT / "README.md", targets.BEGIN, targets.END)
    page = between(ROOT / "docs" / "benchmarks.md", targets.BEGIN, targets.END)
    rows = [line for line in readme.splitlines() if line.startswith("|")]
    assert rows == [line for line in page.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + len(targets.rows())
    # the one-game env figure is the v3 one (the default layout), not only v2's
    aec = next(line for line in rows if "PettingZoo env, one game" in line)
    assert "v3 (the default)" in aec
    ratios = targets.aec_ratios()
    assert len(ratios) == 5 and aec.endswith("| met |") == all(v >= 1.0 for v in ratios.values())


def test_every_win_rate_quoted_comes_from_a_held_out_evaluation_with_its_interval():
    readme = between(ROOT / "README.md", targets.BEGIN, targets.END)
    for name in ("ppo2p_vs_random", "ppo2p_vs_heuristic", "ppo4p_vs_3heuristic"):
        e = targets.evaluation(name)
        assert 100000 in e["seeds"] and e["games"] == sum(s["rounds"] for s in e["sources"])  # every part counted
        assert f"{targets.pct(e['rate'])} ({targets.pct(e['lo'])} to {targets.pct(e['hi'])})" in readme
    assert "seeds 100,000" in readme
    table = between(ROOT / "docs" / "training.md", targets.AGENTS_BEGIN, targets.AGENTS_END)
    played = [name for name, *_ in targets.MATCHES if (targets.HELD_OUT / name / "results.json").is_file()]
    agents, presets = table.split("The agents of the other presets")
    assert len(re.findall(r"^\| `", agents, flags=re.M)) == len(played) >= 3
    # every preset's 2- and 4-player agent has a row, measured or saying it is not
    assert len(re.findall(r"^\| `", presets, flags=re.M)) == 2 * len(targets.PRESET_TARGETS)
    for preset, goals in targets.PRESET_TARGETS.items():
        for players, (rate, _low) in zip((2, 4), goals):
            name = targets.preset_match(preset, players)
            if (targets.HELD_OUT / name / "results.json").is_file():
                e = targets.evaluation(name, agent=f"ppo-{preset}-{players}p")
                assert targets.preset_measured(e, rate) in presets


def test_a_figure_short_of_its_target_by_less_than_the_rounding_is_shown_precisely():
    e = {"rate": 0.264975, "lo": 0.2607, "hi": 0.2693, "games": 40000}
    assert targets.preset_measured(e, 0.265) == "26.498% (26.1% to 26.9%), 10,599 won of 40,000 rounds"
    assert targets.preset_measured({**e, "rate": 0.2651}, 0.265) == "26.5% (26.1% to 26.9%), 40,000 rounds"
    assert targets.preset_measured({**e, "rate": 0.262}, 0.265) == "26.2% (26.1% to 26.9%), 40,000 rounds"


def test_a_preset_agent_not_measured_is_not_met(monkeypatch, tmp_path):
    monkeypatch.setattr(targets, "HELD_OUT", tmp_path)
    rows = [r for r in targets.presets_table().splitlines() if r.startswith("| `")]
    assert rows and all(r.endswith("| **not met** (not measured) |") for r in rows)


@pytest.mark.parametrize("rate,lo,status", [(0.581, 0.574, "met"), (0.585, 0.569, "**not met**"),
                                            (0.579, 0.572, "**not met**")])
def test_a_status_follows_from_the_figures(monkeypatch, rate, lo, status):
    real = targets.evaluation

    def fake(name):
        return {**real(name), "rate": rate, "lo": lo} if name == "ppo2p_vs_heuristic" else real(name)
    monkeypatch.setattr(targets, "evaluation", fake)
    row = next(r for r in targets.rows() if "58%" in r[0])
    assert row[2] == status


def test_a_file_without_the_markers_is_refused_with_what_is_missing(tmp_path):
    with pytest.raises(ValueError, match="must hold the table's markers once each"):
        targets.rewrite("no table here\n", ROOT / "README.md")


def test_an_agent_short_of_its_target_links_to_the_measured_reason_and_the_link_resolves():
    training = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    for anchor in targets.SHORT_OF_TARGET.values():
        assert "{ " + anchor + " }" in training, anchor  # the heading the row points to exists
    short = [r for r in targets.presets_table().splitlines() if "**not met**" in r and "not measured" not in r]
    for row in short:
        preset, players = row.split("|")[1].strip().strip("`"), int(row.split("|")[2])
        assert (preset, players) in targets.SHORT_OF_TARGET, f"{preset} at {players} players: say what limits it"
        assert f"[what limits it]({targets.SHORT_OF_TARGET[preset, players]})" in row

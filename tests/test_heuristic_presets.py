"""The heuristic bot's weights per preset and table size (``agents/heuristic_params.json``): ``standard_en`` keeps
``DEFAULTS`` (the shipped agents were trained against them), a stored entry changes the bot on its preset and
table size only, and ``tune_heuristic --store`` lets in only weights that beat the current ones on held-out
seeds."""

from __future__ import annotations

import json

import pytest

import agents
from agents.bots import HeuristicAgent
from training import seeds
from uno_env import VecGame
from uno_env.core.config import PRESETS


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_standard_en_keeps_the_default_weights(players):
    assert HeuristicAgent.params_for("standard_en", players) == HeuristicAgent.DEFAULTS
    bot = agents.load("heuristic", game=VecGame("standard_en", players))
    assert bot.p == HeuristicAgent.DEFAULTS


def test_the_stored_entries_were_checked_on_held_out_seeds():
    for e in HeuristicAgent.tuned_entries():
        assert e["rules"] in PRESETS and e["rules"] != "standard_en"
        assert set(e["params"]) <= set(HeuristicAgent.DEFAULTS)
        c = e["check"]
        assert c["better"] and c["tuned_vs_current"]["ci95"][0] > c["fair_share"] == 1 / e["players"]
        assert c["tuned_minus_current_vs_greedy"]["ci95"][1] >= 0  # not measurably worse against greedy
        assert seeds.HEURISTIC_CHECK.span(c["seed"], c["batch_size"]) and c["rounds"] >= 20_000
        assert e["search"]["seed"] in seeds.HEURISTIC_TUNING
        assert HeuristicAgent.params_for(e["rules"], e["players"]) == {**HeuristicAgent.DEFAULTS, **e["params"]}


def test_an_entry_changes_the_bot_on_its_preset_and_table_size_only(tmp_path, monkeypatch):
    path = tmp_path / "params.json"
    entry = {"rules": "flip_jp", "players": 2, "params": {"w_col": 7.5, "late_hand": 2}}
    path.write_text(json.dumps({"tuned": [entry]}))
    monkeypatch.setattr(HeuristicAgent, "TUNED", path)
    tuned = agents.load("heuristic", game=VecGame("flip_jp", 2))
    assert tuned.p == {**HeuristicAgent.DEFAULTS, "w_col": 7.5, "late_hand": 2}
    assert agents.load("heuristic", game=VecGame("flip_jp", 3)).p == HeuristicAgent.DEFAULTS
    assert agents.load("heuristic", game=VecGame("house_cn", 2)).p == HeuristicAgent.DEFAULTS
    changed = VecGame("flip_jp", 2, jump_in=True)  # not the preset as defined: the defaults
    assert agents.load("heuristic", game=changed).p == HeuristicAgent.DEFAULTS
    assert HeuristicAgent(VecGame("flip_jp", 2), w_col=1.0).p["w_col"] == 1.0  # the constructor overrides
    path.write_text(json.dumps({"tuned": [{"rules": "flip_jp", "players": 2, "params": {"nonsense": 1}}]}))
    with pytest.raises(ValueError, match="nonsense"):
        HeuristicAgent.params_for("flip_jp", 2)


def test_tuning_stores_only_what_beats_the_current_weights(tmp_path, monkeypatch, capsys):
    from training import tune_heuristic
    path = tmp_path / "params.json"
    monkeypatch.setattr(HeuristicAgent, "TUNED", path)
    tune_heuristic.main(["--rules", "house_cn", "--players", "2", "--games", "64", "--confirm-games", "64",
                         "--max-candidates", "2", "--batch-size", "32", "--seed", str(seeds.HEURISTIC_TUNING.start),
                         "--check-rounds", "200", "--store"])
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    c = result["check"]
    assert c["seed"] in seeds.HEURISTIC_CHECK and c["rounds"] == 200 and c["tuned_vs_current"]["rounds"] == 200
    for key in ("tuned_vs_current", "tuned_vs_greedy", "current_vs_greedy"):
        assert c[key]["ci95"][0] <= c[key]["win_rate"] <= c[key]["ci95"][1]
    paired = c["tuned_minus_current_vs_greedy"]
    assert paired["rounds"] == 200 and paired["ci95"][0] <= paired["difference"] <= paired["ci95"][1]
    assert result["stored"] == c["better"] == (c["tuned_vs_current"]["ci95"][0] > 0.5 and paired["ci95"][1] >= 0)
    assert path.is_file() == result["stored"]
    if result["stored"]:
        assert HeuristicAgent.tuned_entries()[0]["params"] == result["tuned"]


@pytest.mark.parametrize("argv", [
    ["--rules", "standard_en", "--players", "2", "--check-rounds", "100", "--store",
     "--seed", str(seeds.HEURISTIC_TUNING.start)],  # standard_en keeps its weights
    ["--rules", "flip_jp", "--players", "2", "--check-rounds", "100", "--store"],  # not on tuning seeds
    ["--rules", "flip_jp", "--players", "2", "--store", "--seed", str(seeds.HEURISTIC_TUNING.start)],  # no check
])
def test_tuning_refuses_to_store_without_its_safeguards(argv):
    from training import tune_heuristic
    with pytest.raises(SystemExit):
        tune_heuristic.main(argv)

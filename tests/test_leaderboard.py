"""The leaderboard (``training.leaderboard``) and the best responses it shows (``training.best_response``):
a small run has every pairing of every table, intervals that hold their estimates, ratings, points, costs and
game records that replay; the page is generated from the JSON; the committed JSON follows the protocol."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from training import leaderboard, seeds

ROOT = Path(__file__).resolve().parent.parent
PRESETS, SIZES, ROUNDS = ("standard_en", "flip_jp"), (2, 4), 48


def inside(x: float, ci) -> bool:
    return ci[0] - 1e-12 <= x <= ci[1] + 1e-12


def check_table(t: dict, rounds: int) -> None:
    """Properties every table of a leaderboard has, whatever its figures."""
    P, names = t["players"], t["entrants"]
    assert names[:3] == list(leaderboard.BOTS)
    want = leaderboard.pairings(names, P)
    assert [(m["agent"], m["opponent"]) for m in t["matches"]] == want
    assert len(want) == (len(names) * (len(names) - 1) // (2 if P == 2 else 1))
    for m in t["matches"]:
        assert m["lineup"] == [m["agent"]] + [m["opponent"]] * (P - 1)
        assert m["rounds"] + m["void_rounds"] == rounds and seeds.LEADERBOARD.span(m["seed"], 1)
        a, b = m["agent_result"], m["opponent_result"]
        assert a["seats"] == 1 and b["seats"] == P - 1
        assert a["wins"] + b["wins"] == m["rounds"]
        for r in (a, b):
            assert 0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1
            assert r["points_per_round"] >= 0 and inside(r["points_per_round"], r["points_per_round_ci95"])
        assert set(m["costs"]) == {m["agent"], m["opponent"]}
        assert all(c["decisions"] > 0 and c["seconds"] >= 0 for c in m["costs"].values())
    for a in names:  # a head-to-head figure for every ordered pair (at 2 players both from one match)
        assert set(t["head_to_head"][a]) == set(names) - {a}
        for h in t["head_to_head"][a].values():
            assert inside(h["win_rate"], h["ci95"])
    assert set(t["ratings"]) == set(names)
    assert all(math.isfinite(r["mu"]) and r["sigma"] > 0 for r in t["ratings"].values())
    ords = [t["ratings"][n]["ordinal"] for n in t["ranking"]]
    assert sorted(t["ranking"]) == sorted(names) and ords == sorted(ords, reverse=True)
    for n in names:
        pp = t["points_per_round"][n]
        assert pp["mean"] >= 0 and inside(pp["mean"], pp["ci95"]) and pp["seat_rounds"] > 0
        c = t["cost_per_decision"][n]
        assert c["decisions"] > 0 and c["seconds_per_decision"] is not None and c["seconds_per_decision"] >= 0


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """A small run of two presets at both sizes, with one made-up best response to show."""
    tmp = tmp_path_factory.mktemp("leaderboard")
    br = tmp / "br.jsonl"
    br.write_text(json.dumps({"agent": "greedy", "rules": "standard_en", "players": 2, "budget_steps": 1000,
                              "warm_start": None, "win_rate": 0.6, "ci95": [0.55, 0.65], "rounds": 100,
                              "seed": seeds.BEST_RESPONSE_CHECK.start, "calibrated": True}) + "\n")
    out = tmp / "lb.json"
    argv = ["--quick", "--rounds", str(ROUNDS), "--presets", ",".join(PRESETS), "--sizes", "2,4", "--out", str(out),
            "--work-dir", str(tmp / "work"), "--best-responses", str(br), "--no-robustness"]
    assert leaderboard.main(argv) == 0
    return tmp, out, json.loads(out.read_text()), argv


def test_a_quick_run_has_every_table_and_every_pairing(quick):
    _, _, data, _ = quick
    import agents
    assert data["format"] == leaderboard.FORMAT and data["quick"] is True
    assert [(t["rules"], t["players"]) for t in data["tables"]] == [(p, n) for p in PRESETS for n in SIZES]
    for t in data["tables"]:
        check_table(t, ROUNDS)
        fitting = [n for n in agents.shipped() if leaderboard.fits(
            json.loads((agents.MODELS / f"{n}.json").read_text()), t["rules"], t["players"])]
        assert t["entrants"] == list(leaderboard.BOTS) + fitting
    names = {(t["rules"], t["players"]): t["entrants"] for t in data["tables"]}
    assert "ppo-standard_en-2p" in names[("standard_en", 2)] and "ppo-standard_en-2p" not in names[("flip_jp", 2)]
    p = data["protocol"]
    assert p["seed_range"]["name"] == "leaderboard" and seeds.LEADERBOARD.span(p["seed"], p["batch_size"])
    assert {r["name"] for r in p["kept_apart_from"]} == {r.name for r in seeds.RANGES} - {"leaderboard"}


def test_the_game_records_of_every_match_replay(quick):
    _, _, data, _ = quick
    from uno_env import records
    t = data["tables"][1]  # standard_en at 4 players
    for m in t["matches"]:
        path = Path(m["records"])
        recs = list(records.read_records(path if path.is_absolute() else ROOT / path))
        assert len(recs) == ROUNDS
        assert sorted(r.info["game"] for r in recs) == list(range(ROUNDS))
        assert all(sorted(r.agents) == sorted(m["lineup"]) for r in recs)
    for rec in recs[:3]:
        records.check(rec)


def test_resume_keeps_the_matches_played(quick, capsys):
    tmp, out, data, argv = quick
    again = tmp / "again.json"
    assert leaderboard.main([*argv, "--out", str(again), "--resume"]) == 0  # the last --out counts
    assert "kept from" in capsys.readouterr().out
    redo = json.loads(again.read_text())
    for a, b in zip(data["tables"], redo["tables"]):
        assert a["matches"] == b["matches"] and a["ratings"] == b["ratings"]


def test_the_page_is_generated_from_the_json(quick):
    _, _, data, _ = quick
    page = leaderboard.render(data)
    assert page.startswith("# Leaderboard") and "a quick run" in page
    for t in data["tables"]:
        assert f"### {t['players']} players {{ #{t['rules']}-{t['players']}p }}" in page
        for n in t["entrants"]:
            assert f"| `{n}` |" in page
    assert "60.0% (55.0-65.0), 1,000 samples" in page  # the best response of greedy, in its column


def test_exploitability_only_rereads_the_best_responses(quick, tmp_path):
    _, out, data, _ = quick
    copy = tmp_path / "lb.json"
    copy.write_text(out.read_text())
    more = tmp_path / "br.jsonl"
    more.write_text("")
    assert leaderboard.main(["--exploitability-only", "--out", str(copy), "--best-responses", str(more)]) == 0
    assert json.loads(copy.read_text())["exploitability"] == [] and data["exploitability"]


def test_ratings_sum_an_agents_seats_and_order_a_clear_winner_first():
    rng = np.random.default_rng(0)
    # one strong agent in one seat against three copies of a weak one: it wins half the rounds (fair: 25%)
    winners = np.where(rng.random(400) < 0.5, 0, rng.integers(1, 4, 400))
    r = leaderboard.rate([(["strong", "weak", "weak", "weak"], winners)], ["strong", "weak"])
    assert r["strong"]["mu"] > r["weak"]["mu"] and r["strong"]["ordinal"] == pytest.approx(
        r["strong"]["mu"] - 3 * r["strong"]["sigma"])
    # an even match leaves the two close; void rounds (-1) count for nothing
    even = leaderboard.rate([(["a", "b"], np.array([0, 1] * 200))], ["a", "b"])
    assert abs(even["a"]["mu"] - even["b"]["mu"]) < even["a"]["sigma"]
    void = leaderboard.rate([(["a", "b"], np.full(10, -1))], ["a", "b"])
    assert void["a"]["mu"] == void["b"]["mu"] == 25.0


def test_the_committed_leaderboard_follows_the_protocol():
    data = leaderboard.load()
    if data is None:
        pytest.skip("no results/leaderboard/leaderboard.json yet")
    p = data["protocol"]
    assert data["quick"] is False and p["rounds"] >= leaderboard.ROUNDS
    assert seeds.LEADERBOARD.span(p["seed"], p["batch_size"])
    # the whole protocol, or a part of it that the page names as not measured yet
    assert set(p["presets"]) <= set(leaderboard.PRESETS) and set(p["sizes"]) <= set(leaderboard.SIZES)
    assert [(t["rules"], t["players"]) for t in data["tables"]] == [(r, n) for r in p["presets"] for n in p["sizes"]]
    import agents
    for t in data["tables"]:
        check_table(t, p["rounds"])
        assert t["entrants"][:3] == list(leaderboard.BOTS)
        assert set(t["entrants"][3:]) <= set(agents.shipped())  # no agent that is not shipped any more
    page = leaderboard.render(data)
    assert len(re.findall(r"^### \d+ players \{", page, flags=re.M)) == len(data["tables"])  # one heading a table
    complete = set(p["presets"]) == set(leaderboard.PRESETS) and set(p["sizes"]) == set(leaderboard.SIZES)
    assert ("**Not measured yet**" in page) != complete


def test_a_best_response_trains_resumes_and_reports_a_win_rate_on_held_out_seeds(tmp_path, capsys):
    from training import best_response
    out = tmp_path / "br.jsonl"
    common = ["random", "--rules", "standard_en", "--players", "2", "--start-from", "scratch", "--no-colours",
              "--n-envs", "64", "--n-steps", "8",
              "--batch-size", "256", "--rounds", "120", "--runs-dir", str(tmp_path / "runs"), "--out", str(out),
              "--no-progress", "--checkpoint-every", "512"]
    assert best_response.main([*common, "--total-steps", "512"]) == 0
    assert "512 samples from scratch" in capsys.readouterr().out  # the budget, in its output
    assert best_response.main([*common, "--total-steps", "1024"]) == 0  # the same run, trained on
    assert "resuming" in capsys.readouterr().out
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["budget_steps"] for x in lines] == [512, 1024] and lines[1]["trained_steps"] >= 1024
    for x in lines:
        assert x["agent"] == "random" and x["warm_start"] is None and x["rounds"] == 120
        assert inside(x["win_rate"], x["ci95"]) and x["exploitability_lower_bound"] == pytest.approx(
            max(0.0, x["ci95"][0] - 0.5))
        assert seeds.BEST_RESPONSE_CHECK.span(x["seed"], x["batch_size"])
        assert x["training_seed"] in seeds.BEST_RESPONSE_TRAINING
    sessions = json.loads((tmp_path / "runs" / "br-random-standard_en-2p" / "sessions.json").read_text())
    assert len(sessions["sessions"]) == 2
    assert not any(x["calibrated"] for x in lines)  # not the calibrated setting: not in the column
    assert leaderboard.best_response_for(lines, "random", "standard_en", 2, lines[0]["agent_fingerprint"]) is None
    lines = [{**x, "calibrated": True} for x in lines]
    shown = leaderboard.best_response_for(lines, "random", "standard_en", 2, lines[0]["agent_fingerprint"])
    assert shown == max(lines, key=lambda x: x["ci95"][0])  # the strongest evidence
    for x in lines:  # the learner's last training rounds, to tell a learner that stalls
        assert set(x["training_last_rounds"]) == {"episodes", "win_rate", "mean_decisions"}
        assert 0 <= x["training_last_rounds"]["win_rate"] <= 1
    assert leaderboard.best_response_for(lines, "random", "standard_en", 2, "another version") is None


def test_a_best_response_warm_starts_from_a_bot_by_cloning_it(tmp_path, capsys):
    from training import best_response
    out = tmp_path / "br.jsonl"
    assert best_response.main(["greedy", "--warm-start", "--no-colours", "--n-envs", "64", "--n-steps", "8",
                               "--batch-size", "256",
                               "--distill-decisions", "640", "--total-steps", "512", "--rounds", "64",
                               "--runs-dir", str(tmp_path), "--out", str(out), "--no-progress"]) == 0
    line = json.loads(out.read_text())
    assert line["warm_start"] == "distill" and line["start_from"] == "greedy"
    assert line["run"].endswith("br-greedy-standard_en-2p-warm")
    assert (tmp_path / "br-greedy-standard_en-2p-warm" / "distill.json").is_file()
    assert best_response.warm_kind("ppo-standard_en-2p") == "init_agent"
    assert best_response.run_name("greedy", "standard_en", 2, "ppo-standard_en-2p") == \
        "br-greedy-standard_en-2p-from-ppo-standard_en-2p"
    page = leaderboard.render({**_page_stub(), "exploitability": [{**line, "start_from": "heuristic",
                                                                   "warm_start": "distill"}]})
    assert "| `greedy` | `standard_en` | 2 | 512 | from `heuristic` |" in page
    for bad in (["greedy", "--seed", str(seeds.LEADERBOARD.start)],  # not a training seed
                ["greedy", "--warm-start", "--start-from", "heuristic"],  # one start at a time
                ["greedy", "--start-from", "no-such-agent"]):
        with pytest.raises(SystemExit):
            best_response.main(bad)


def test_a_best_response_on_colours_trains_on_renamed_colours_and_plays_averaged_over_them(tmp_path):
    from training import best_response
    out = tmp_path / "br.jsonl"
    assert best_response.main(["greedy", "--start-from", "ppo-standard_en-2p", "--colours", "--n-envs", "64",
                               "--n-steps", "8", "--batch-size", "256", "--total-steps", "512", "--rounds", "32",
                               "--learning-rate", "5e-5", "--ent-coef", "0.001", "--runs-dir", str(tmp_path),
                               "--out", str(out), "--no-progress"]) == 0
    line = json.loads(out.read_text())
    assert line["play"] == "colour_average" and line["hyperparameters"]["colour_augment"] is True
    assert line["hyperparameters"]["learning_rate"] == 5e-5 and line["hyperparameters"]["ent_coef"] == 0.001
    run = tmp_path / "br-greedy-standard_en-2p-from-ppo-standard_en-2p-colours"
    assert json.loads((run / "config.json").read_text())["colour_augment"] is True


def test_an_exploited_entrant_is_called_exploitable_with_what_its_best_response_does_differently(tmp_path):
    """Above 53% the best response records both players' moves by kind in rounds against the entrant, and the page
    names the entrant exploitable with the moves in which the two differ most."""
    from training import best_response
    out = tmp_path / "br.jsonl"
    assert best_response.main(["random", "--start-from", "ppo-standard_en-2p", "--no-colours", "--n-envs", "64",
                               "--n-steps", "8", "--batch-size", "256", "--total-steps", "512", "--rounds", "64",
                               "--profile-rounds", "48", "--runs-dir", str(tmp_path), "--out", str(out),
                               "--no-progress"]) == 0
    line = json.loads(out.read_text())
    assert line["win_rate"] > leaderboard.EXPLOITABLE  # a trained network against random
    prof = line["profile"]
    assert prof["rounds"] == 48 and prof["start_from"] == "ppo-standard_en-2p" and prof["entrant"]["name"] == "random"
    for who in (prof["learner"], prof["entrant"]):
        assert sum(m["count"] for m in who["moves"].values()) == who["decisions"] > 0
    assert 1 <= len(prof["differences"]) <= 3
    bare = {k: v for k, v in line.items() if k != "profile"}  # a line measured before profiles were recorded
    out.write_text(json.dumps(bare) + "\n" + json.dumps({**bare, "agent": "greedy"}) + "\n")
    assert best_response.main(["random", "--start-from", "ppo-standard_en-2p", "--no-colours", "--profile-only",
                               "--profile-rounds", "48", "--runs-dir", str(tmp_path), "--out", str(out)]) == 0
    again = [json.loads(x) for x in out.read_text().splitlines()]
    assert again[0]["profile"] == prof and "profile" not in again[1]  # the same deals: the same profile
    table = {"rules": "standard_en", "players": 2, "entrants": ["random"], "ranking": ["random"], "matches": [],
             "ratings": {"random": {"ordinal": 0, "mu": 25, "sigma": 1}}, "head_to_head": {"random": {}},
             "points_per_round": {"random": {"mean": 1, "ci95": [0, 2]}},
             "cost_per_decision": {"random": {}}, "fingerprints": {"random": line["agent_fingerprint"]}}
    data = {**_page_stub(), "tables": [table], "exploitability": [{**line, "calibrated": True}]}
    page = leaderboard.render(data)
    assert "**exploitable** ([what it does](#exploited-standard_en-random))" in page
    section = page[page.index("## Exploitable entrants"):]
    assert "### `random` on `standard_en` { #exploited-standard_en-random }" in section
    assert f"| {prof['differences'][0]['kind']} |" in section and "| `random`'s |" in section
    assert "## Exploitable entrants" not in leaderboard.render({**data, "exploitability": [
        {**line, "calibrated": True, "win_rate": 0.52}]})  # 53% or less: not called exploitable


def test_the_page_says_which_tables_a_partial_run_left_out():
    full = leaderboard.render(_page_stub())
    assert "Not measured yet" not in full
    part = leaderboard.render({**_page_stub(), "protocol": {**_page_stub()["protocol"], "sizes": [2],
                                                           "presets": ["standard_en", "flip_jp"]}})
    assert "**Not measured yet**: the 4-player tables and the presets `standard_ru`, `house_cn`, `solo_bga`" in part


def _page_stub() -> dict:
    """The least a leaderboard JSON holds for ``render``: no tables."""
    return {"protocol": {"seed_range": seeds.LEADERBOARD.as_dict(), "rounds": 20000, "batch_size": 512,
                         "torch_threads": 1}, "commit": "x", "created": "2000-01-01", "seconds": 0,
            "machine": {"cpus": 2}, "tables": []}


def test_a_budget_is_written_in_millions_only_when_whole():
    assert [leaderboard._samples(n) for n in (1_000_000, 2_000_000, 524_288, 262_144)] == \
        ["1M", "2M", "524,288", "262,144"]


def test_the_calibrated_setting_is_the_default_and_only_it_counts_as_calibrated():
    from training import best_response as br
    c = br.CALIBRATED
    settings = {k: v for k, v in c.items() if k not in ("start", "colours")}
    assert br.is_calibrated("preset", "ppo-standard_en-2p", True, True, settings)
    assert br.is_calibrated("preset", "ppo-flip_jp-2p", False, False, settings)  # UNO Flip: no colour renaming
    assert not br.is_calibrated("preset", "ppo-standard_en-2p", False, True, settings)
    assert not br.is_calibrated("preset", None, True, True, settings)  # no shipped agent to start from
    assert not br.is_calibrated("heuristic", "heuristic", True, True, settings)
    assert not br.is_calibrated("preset", "ppo-standard_en-2p", True, True, {**settings, "learning_rate": 5e-5})
    assert not br.is_calibrated("preset", "ppo-standard_en-2p", True, True, {**settings, "total_steps": 524_288})
    a = br.build_parser().parse_args(["heuristic"])
    assert (a.n_envs, a.n_steps, a.batch_size, a.learning_rate, a.ent_coef, a.total_steps, a.start_from) == \
        (c["n_envs"], c["n_steps"], c["batch_size"], c["learning_rate"], c["ent_coef"], c["total_steps"], "preset")
    assert "learning rate 2e-4" in br.__doc__ and c["learning_rate"] == 2e-4 and "1,048,576" in br.__doc__


def test_the_robustness_table_plays_every_entrant_against_every_flawed_player_and_marks_holes(tmp_path):
    from agents import flawed
    rob = leaderboard.play_robustness("standard_en", 2, ["random", "heuristic"], 40, 40, seeds.LEADERBOARD.start,
                                      tmp_path, log=lambda s: None)
    assert rob["flawed"] == flawed.gauntlet("standard_en") and rob["reference"] == "heuristic"
    assert set(rob["held_out"]) == {n for n in rob["flawed"] if flawed.flaw_of(n).held_out}
    for n in ("random", "heuristic"):
        assert list(rob["results"][n]) == rob["flawed"]
        for r in rob["results"][n].values():
            assert r["rounds"] == 40 and inside(r["win_rate"], r["ci95"])
    short = leaderboard.shortfalls(rob, "random")
    assert "heuristic-no-uno" in short and short["heuristic-no-uno"] > 0.5  # random cannot exploit anything
    assert leaderboard.shortfalls(rob, "heuristic") == {}
    table = {"rules": "standard_en", "players": 2, "ranking": ["heuristic", "random"], "robustness": rob}
    text = "\n".join(leaderboard.robustness_lines(table))
    assert "| `heuristic` (reference) |" in text and "`keeps-drawn`*" in text
    assert text.count("**") >= 2 * len(short)  # every hole of random in bold
    again = leaderboard.play_robustness("standard_en", 2, ["random", "heuristic"], 40, 40, seeds.LEADERBOARD.start,
                                        tmp_path, resume=True, log=lambda s: None)
    assert again["results"] == rob["results"]


def test_the_calibration_says_how_much_of_each_known_gap_a_best_response_recovered():
    rob = {"flawed": ["heuristic-no-uno"], "held_out": [], "reference": "heuristic",
           "results": {"heuristic": {"heuristic-no-uno": {"win_rate": 0.9}},
                       "ppo-standard_en-2p": {"heuristic-no-uno": {"win_rate": 0.7}}}}
    data = {**_page_stub(), "tables": [{"rules": "standard_en", "players": 2, "robustness": rob}],
            "calibration": [{"agent": "heuristic-no-uno", "rules": "standard_en", "players": 2,
                             "start_from": "ppo-standard_en-2p", "win_rate": 0.88, "ci95": [0.875, 0.885],
                             "budget_steps": 1048576, "hyperparameters": {"learning_rate": 2e-4}}]}
    [row] = leaderboard.calibration(data)
    assert row["gap"] == pytest.approx(0.2) and row["recovered"] == pytest.approx(0.9)
    assert "**90%**" in "\n".join(leaderboard.calibration_lines(data))


def test_the_list_of_best_responses_names_a_measurement_of_an_earlier_network_of_the_same_name():
    line = {"agent": "ppo-standard_en-2p", "rules": "standard_en", "players": 2, "budget_steps": 1048576,
            "start_from": "ppo-standard_en-2p", "warm_start": "init_agent", "win_rate": 0.51, "ci95": [0.5, 0.52],
            "rounds": 20000, "seed": 600000000, "calibrated": True}
    table = {"rules": "standard_en", "players": 2, "entrants": ["ppo-standard_en-2p"], "matches": [],
             "fingerprints": {"ppo-standard_en-2p": "now"}}
    old, new = {**line, "agent_fingerprint": "before"}, {**line, "agent_fingerprint": "now"}
    page = leaderboard.best_responses_lines({**_page_stub(), "tables": [table], "exploitability": [old, new]})
    listed = [x for x in page if x.startswith("| `ppo-standard_en-2p`") and "calibrated" in x]
    assert len(listed) == 2 and "(an earlier network of that name)" in listed[0]
    assert "earlier network" not in listed[1]


def test_a_calibration_started_from_a_network_since_replaced_keeps_the_gap_it_was_measured_on():
    rob = {"flawed": ["heuristic-no-uno"], "held_out": [], "reference": "heuristic",
           "results": {"heuristic": {"heuristic-no-uno": {"win_rate": 0.9}},
                       "ppo-standard_en-2p": {"heuristic-no-uno": {"win_rate": 0.91}}}}  # the hole closed since
    line = {"agent": "heuristic-no-uno", "rules": "standard_en", "players": 2, "start_from": "ppo-standard_en-2p",
            "start_fingerprint": "old", "win_rate": 0.88, "ci95": [0.875, 0.885], "budget_steps": 1048576,
            "hyperparameters": {"learning_rate": 2e-4}}
    table = {"rules": "standard_en", "players": 2, "robustness": rob, "fingerprints": {"ppo-standard_en-2p": "new"}}
    data = {**_page_stub(), "tables": [table], "calibration": [line]}
    assert leaderboard.calibration(data) == []  # the gap of the network now shipped is not the one it recovered
    [row] = leaderboard.calibration({**data, "calibration": [{**line, "own": {"win_rate": 0.7}}]})
    assert row["gap"] == pytest.approx(0.2) and row["recovered"] == pytest.approx(0.9)


def test_the_page_gives_each_agent_claim_one_figure_the_targets_table_quotes():
    from benchmarks import targets
    from training import claims
    data = leaderboard.load()
    if data is None:
        pytest.skip("no results/leaderboard/leaderboard.json yet")
    page = leaderboard.render(data)
    c2, c4 = claims.agent_claim("standard_en", 2), claims.agent_claim("standard_en", 4)
    readme = (ROOT / "README.md").read_text()
    training_md = (ROOT / "docs" / "training.md").read_text()
    for c in (c2, c4):
        figure = f"{100 * c['rate']:.1f}%"
        assert f"**{figure}**" in page  # the leaderboard page's figures section
        assert f"{figure} ({100 * c['lo']:.1f}% to {100 * c['hi']:.1f}%)" in readme  # the targets table
        assert f"**{figure}**" in training_md
    assert targets.evaluation("ppo4p_vs_3heuristic")["rate"] == c4["rate"]
    assert c4["games"] == sum(s["rounds"] for s in c4["sources"])

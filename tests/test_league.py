"""League fine-tuning (training.league): the population, the sampling by shortfall, snapshots, resume."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import flawed
from training import league
from uno_env.learner import LearnerGames


def test_the_core_shares_its_part_evenly_and_the_flawed_players_theirs_by_shortfall():
    nan = float("nan")
    # core: two bots; flawed: one with a 20-point shortfall, two with none (the floor)
    w = league.shortfall_weights(wins=[50, 50, 70, 90, 90], games=[98, 98, 98, 98, 98],
                                 references=[nan, nan, 0.9, 0.5, 0.5], core_share=0.5, floor=0.01)
    assert w.sum() == pytest.approx(1) and w[0] == pytest.approx(0.25) and w[1] == pytest.approx(0.25)
    assert w[2] > 10 * w[3] and w[3] == pytest.approx(w[4]) and w[3] > 0  # never starved
    only_core = league.shortfall_weights([1, 2], [4, 4], [nan, nan], 0.5, 0.01)
    assert only_core == pytest.approx([0.5, 0.5])


def test_learner_games_draw_opponents_by_their_weights_and_refuse_bad_ones():
    games = LearnerGames("standard_en", 2, 64, ["random", "greedy"], seed=3)
    games.set_weights([1.0, 0.0])
    games._draw_seats(np.arange(64))
    opp = games.assign[np.arange(64), 1 - games.learner]
    assert (opp == 0).all()
    for bad in ([1.0], [-1.0, 2.0], [0.0, 0.0], [float("nan"), 1.0]):
        with pytest.raises(ValueError, match="non-negative"):
            games.set_weights(bad)


def test_with_a_fill_the_drawn_opponent_sits_after_the_learner_and_the_fill_everywhere_else():
    games = LearnerGames("standard_en", 4, 256, ["heuristic", "greedy", "random"], seed=5)
    games.set_fill(0)
    games.set_weights([0.0, 0.5, 0.5])
    games._draw_seats(np.arange(256))
    rows = np.arange(256)
    nxt = games.assign[rows, (games.learner + 1) % 4]
    assert set(np.unique(nxt)) == {1, 2}  # drawn, by the weights: never the fill's 0 here
    for k in (2, 3):
        assert (games.assign[rows, (games.learner + k) % 4] == 0).all()
    games.set_opponents([games.opponents[2], games.opponents[0]])  # the fill moves: it follows
    assert games.opponents[games.fill].name == "heuristic"
    with pytest.raises(ValueError, match="must stay in the pool"):
        games.set_opponents([games.opponents[0]])
    with pytest.raises(ValueError, match="index into the pool of 2"):
        games.set_fill(2)


def test_a_four_player_league_plays_the_robustness_lineup_and_needs_its_fill_in_the_pool(tmp_path):
    with pytest.raises(ValueError, match="--others 'random' must be one of the fixed opponents"):
        league.LeagueConfig(rules="flip_jp", players=4, init_agent="ppo-flip_jp-4p", others="random").validate()
    common = ["--init-agent", "ppo-flip_jp-4p", "--rules", "flip_jp", "--players", "4", "--run-name", "lg4",
              "--runs-dir", str(tmp_path), "--n-envs", "64", "--n-steps", "8", "--batch-size", "512",
              "--league-snapshot-every", "4096", "--reference-rounds", "40", "--no-progress"]
    trainer = league.LeaguePPO(league.LeagueConfig.from_args([*common, "--total-steps", "512"]))
    g = trainer.games
    assert g.opponents[g.fill].name == "heuristic"
    g._draw_seats(np.arange(g.num_envs))
    rows = np.arange(g.num_envs)
    for k in (2, 3):
        assert (g.assign[rows, (g.learner + k) % 4] == g.fill).all()
    assert set(trainer.references) == set(flawed.gauntlet("flip_jp", include_held_out=False))


def test_held_out_flaws_are_refused_as_training_opponents():
    with pytest.raises(ValueError, match="held out"):
        league.LeagueConfig(rules="standard_en", init_agent="ppo-standard_en-2p",
                            opponents="heuristic,heuristic-keeps-drawn").validate()
    cfg = league.LeagueConfig(rules="house_cn", init_agent="ppo-house_cn-2p")
    assert cfg.fixed_opponents() == ["heuristic", "greedy"] + flawed.gauntlet("house_cn", include_held_out=False)
    with pytest.raises(ValueError, match="--init-agent"):
        league.LeagueConfig(rules="standard_en").validate()


def test_a_league_run_adds_snapshots_tallies_each_opponent_and_resumes(tmp_path):
    common = ["--init-agent", "ppo-standard_en-2p", "--rules", "standard_en", "--run-name", "lg",
              "--runs-dir", str(tmp_path), "--n-envs", "128", "--n-steps", "8", "--batch-size", "512",
              "--league-snapshot-every", "2048", "--league-snapshots", "1", "--reference-rounds", "60",
              "--checkpoint-every", "1024", "--no-progress"]
    assert league.main([*common, "--total-steps", "4096"]) == 0
    run = tmp_path / "lg"
    lg = json.loads((run / "league.json").read_text())
    fixed = ["heuristic", "greedy"] + flawed.gauntlet("standard_en", include_held_out=False)
    assert lg["pool"][:len(fixed)] == fixed
    assert lg["pool"][len(fixed):] == ["lg@start", "lg@step_4096"]  # the start, and the latest one kept
    assert set(lg["references"]) == set(fixed[2:]) and all(0 <= r <= 1 for r in lg["references"].values())
    last = lg["history"][-1]["opponents"]
    assert sum(o["weight"] for o in last.values()) == pytest.approx(1, abs=1e-3)
    assert sum(o["episodes"] for o in last.values()) > 0
    assert (run / "agent.json").is_file() and (run / "league" / "start.json").is_file()
    assert league.main([*common, "--total-steps", "6144", "--resume"]) == 0
    again = json.loads((run / "league.json").read_text())
    assert again["references"] == lg["references"] and len(again["history"]) > len(lg["history"])
    assert again["history"][:len(lg["history"])] == lg["history"]

"""Training and evaluation scripts: smoke runs, resume after SIGKILL, bad checkpoints and models."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from helpers import V2_AGENTS

import agents
from agents.policy import ModelMismatchError, PolicyAgent
from training.evaluate import EntryResult, MatchResult, play_match, plot, wilson
from training.train_ppo import Args, parse_args
from uno_env import VecGame

ROOT = Path(__file__).resolve().parent.parent
SMALL = ["--opponents", "random", "--n-envs", "8", "--n-steps", "64", "--batch-size", "256", "--n-epochs", "1",
         "--eval-games", "40", "--eval-bots", "random", "--no-progress"]


def _train(tmp_path, *extra, check=True, **kw):
    cmd = [sys.executable, "-m", "training.train_ppo", "--runs-dir", str(tmp_path), *SMALL, *extra]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=check, timeout=600, **kw)


def test_a_short_training_run_writes_the_run_folder(tmp_path):
    _train(tmp_path, "--run-name", "smoke", "--total-steps", "1024", "--eval-every", "512",
           "--checkpoint-every", "512")
    run = tmp_path / "smoke"
    for name in ("config.json", "eval.jsonl", "model.zip", "agent.json", "agent.pt", "checkpoints/latest.zip",
                 "sessions.json"):
        assert (run / name).exists(), name
    sessions = json.loads((run / "sessions.json").read_text())  # the family's record (training.runs)
    assert sessions["steps"] >= 1024 and [s["start_step"] for s in sessions["sessions"]] == [0]
    evals = [json.loads(x) for x in (run / "eval.jsonl").read_text().splitlines()]
    assert evals and 0 <= evals[-1]["random"]["win_rate"] <= 1
    assert list((run / "tb").iterdir())
    # shipping a checkpoint records where it came from, and the agent loads and plays legally
    from training.ship import main as ship_main
    assert ship_main(["--run", str(run), "--checkpoint", "latest", "--name", "tiny", "--out-dir",
                      str(tmp_path / "models"), "--command", "train it", "--train-seconds", "1"]) == 0
    meta = json.loads((tmp_path / "models" / "tiny.json").read_text())
    assert meta["trained_steps"] >= 1024 and meta["command"] == "train it" and meta["training_evaluations"]
    game = VecGame("standard_en", 2, batch_size=8, seed=0, observation="v3")  # trained on v3, the envs' default
    actions = agents.load(str(tmp_path / "models" / "tiny.json"), game=game).act(game.observe(), game.legal_mask())
    assert game.legal_mask()[np.arange(8), actions].all()
    with pytest.raises(ModelMismatchError, match=r"chooses among 72 actions, this game has 76"):
        agents.load(str(run / "model.zip"), game=VecGame("standard_en", 2, seven_o=True, observation="v3"))


def test_a_sampling_policy_agent_draws_from_the_rng_it_is_given():
    game = VecGame("standard_en", 2, batch_size=64, seed=0, observation="v2")
    sampler = PolicyAgent(agents.load(V2_AGENTS[2]).policy, deterministic=False)  # reads v2, as the game
    obs, mask = game.observe(), game.legal_mask()
    first = sampler.act(obs, mask, np.random.default_rng(5))
    assert (first == sampler.act(obs, mask, np.random.default_rng(5))).all()
    assert mask[np.arange(64), first].all()


def test_agents_load_reads_the_game_behind_a_training_env():
    from uno_env.sb3 import UnoVecEnv
    from uno_env.vector import UnoEnv, UnoVectorEnv
    for env in (UnoVecEnv("standard_en", 2, 4), UnoVectorEnv("standard_en", 2, num_envs=4), UnoEnv("standard_en", 2)):
        for name in ("ppo-standard_en-2p", "heuristic"):
            agents.load(name, game=env)
    with pytest.raises(ModelMismatchError, match="number of actions 72 .* standard_en with seven_o=True"):
        agents.load("ppo-standard_en-2p", game=UnoVecEnv("standard_en", 2, 4, seven_o=True))


def test_training_killed_mid_run_resumes_from_the_last_checkpoint(tmp_path):
    cmd = [sys.executable, "-m", "training.train_ppo", "--runs-dir", str(tmp_path), *SMALL,
           "--run-name", "killed", "--total-steps", "200000", "--eval-every", "0", "--checkpoint-every", "512"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    latest = tmp_path / "killed" / "checkpoints" / "latest.zip"
    deadline = time.time() + 300
    while not latest.exists() and time.time() < deadline:
        time.sleep(0.5)
    time.sleep(1.0)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert latest.exists()
    from sb3_contrib import MaskablePPO
    saved = MaskablePPO.load(str(latest)).num_timesteps
    assert 0 < saved < 200000
    out = _train(tmp_path, "--run-name", "killed", "--total-steps", str(saved + 1024), "--eval-every", "0",
                 "--checkpoint-every", "512", "--resume")
    assert f"resuming {tmp_path / 'killed'} at step {saved}" in out.stdout
    assert MaskablePPO.load(str(tmp_path / "killed" / "model.zip")).num_timesteps >= saved + 1024
    sessions = json.loads((tmp_path / "killed" / "sessions.json").read_text())["sessions"]
    assert [s["start_step"] for s in sessions] == [0, saved] and 0 < sessions[0]["end_step"] <= saved
    assert json.loads((tmp_path / "killed" / "agent.json").read_text())["resumes"] == 1


def test_training_stopped_by_a_signal_saves_what_it_trained_and_the_same_command_continues_it(
        tmp_path, monkeypatch, capsys):
    """kill (SIGTERM) between checkpoints: SB3 stops at once (a callback's ``_on_step`` returns False), the rollout
    in progress is dropped, and the checkpoint and sessions record hold the steps trained on; the same command
    then continues from there and says so."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList

    from training import train_ppo

    class Kill(BaseCallback):
        def _on_step(self) -> bool:
            if self.model.num_timesteps == 2 * 8 * 64 + 8:  # the first step of the third rollout
                os.kill(os.getpid(), signal.SIGTERM)
            return True

    made = train_ppo.make_callback
    monkeypatch.setattr(train_ppo, "make_callback", lambda *a, **kw: CallbackList([Kill(), made(*a, **kw)]))
    argv = ["--runs-dir", str(tmp_path), *SMALL, "--run-name", "term", "--total-steps", "2048", "--eval-every", "0",
            "--checkpoint-every", "100000", "--torch-threads", "1"]
    capsys.readouterr()
    assert train_ppo.main(argv) == 143
    assert "stopped by SIGTERM at step 1,024" in capsys.readouterr().err
    run = tmp_path / "term"
    assert MaskablePPO.load(str(run / "checkpoints" / "latest.zip")).num_timesteps == 1024
    assert json.loads((run / "sessions.json").read_text())["steps"] == 1024 and not (run / "agent.json").exists()
    monkeypatch.setattr(train_ppo, "make_callback", made)
    assert train_ppo.main(argv) == 0  # the same command
    out = capsys.readouterr().out
    assert "was interrupted at step 1,024: continuing it" in out and f"resuming {run} at step 1024" in out
    assert MaskablePPO.load(str(run / "model.zip")).num_timesteps == 2048
    sessions = json.loads((run / "sessions.json").read_text())["sessions"]
    assert [(s["start_step"], s["end_step"]) for s in sessions] == [(0, 1024), (1024, 2048)]


def test_hyperparameters_given_on_resume_take_effect(tmp_path):
    _train(tmp_path, "--run-name", "anneal", "--total-steps", "512", "--eval-every", "0", "--checkpoint-every", "512")
    out = _train(tmp_path, "--run-name", "anneal", "--total-steps", "1024", "--eval-every", "0", "--resume",
                 "--learning-rate", "1e-5", "--ent-coef", "0.02")
    assert "resuming with learning_rate=1e-05 (was 0.0003), ent_coef=0.02 (was 0.01)" in out.stdout
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(str(tmp_path / "anneal" / "model.zip"))
    assert model.lr_schedule(1.0) == 1e-5 and model.ent_coef == 0.02


def test_resume_takes_what_is_not_given_from_the_runs_saved_config(tmp_path):
    _train(tmp_path, "--run-name", "short", "--total-steps", "512", "--eval-every", "0", "--checkpoint-every", "512",
           "--learning-rate", "1e-4")
    cmd = [sys.executable, "-m", "training.train_ppo", "--runs-dir", str(tmp_path), "--run-name", "short",
           "--resume", "--total-steps", "1024", "--no-progress"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True, timeout=600)
    assert "resuming with" not in out.stdout  # opponents, n_envs, learning rate...: the run's own
    saved = json.loads((tmp_path / "short" / "config.json").read_text())
    assert (saved["opponents"], saved["n_envs"], saved["learning_rate"], saved["total_steps"]) == \
        ("random", 8, 1e-4, 1024)


def test_a_bot_to_evaluate_against_that_does_not_load_fails_before_training(tmp_path):
    out = _train(tmp_path, "--run-name", "typo", "--total-steps", "512", "--eval-bots", "heuristc", check=False)
    assert out.returncode == 2 and "--eval-bots: 'heuristc' does not load: unknown agent" in out.stderr
    assert not (tmp_path / "typo" / "checkpoints" / "latest.zip").exists()


def test_resumed_discount_and_rollout_length_reach_the_rollout_buffer():
    """GAE is computed by the rollout buffer with its own gamma and lambda, and its size is n_steps: a
    changed value on --resume must reach it, not only the model's attribute."""
    from sb3_contrib import MaskablePPO

    from training.train_ppo import Args, apply_hyperparameters
    from uno_env.sb3 import UnoVecEnv
    env = UnoVecEnv("standard_en", 2, 4, ["random"], seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, gamma=0.99, gae_lambda=0.95,
                        policy_kwargs={"net_arch": [8]}, device="cpu")
    saved = {"gamma": 0.99, "gae_lambda": 0.95, "n_steps": 32}
    args = Args(n_steps=48, batch_size=64, gamma=0.9, gae_lambda=0.8)
    changed = apply_hyperparameters(model, args, {**{k: getattr(args, k) for k in ("learning_rate", "ent_coef",
                                                  "clip_range", "n_epochs", "batch_size")}, **saved})
    assert set(changed) == {"gamma", "gae_lambda", "n_steps"}
    buf = model.rollout_buffer
    assert (buf.gamma, buf.gae_lambda, buf.buffer_size, buf.n_envs) == (0.9, 0.8, 48, 4)
    model.learn(48 * 4)  # one rollout of the new length trains
    assert model.num_timesteps == 48 * 4


def test_resuming_from_a_truncated_checkpoint_is_a_clear_error(tmp_path):
    _train(tmp_path, "--run-name", "bad", "--total-steps", "512", "--eval-every", "0", "--checkpoint-every", "512")
    latest = tmp_path / "bad" / "checkpoints" / "latest.zip"
    latest.write_bytes(latest.read_bytes()[:300])
    out = _train(tmp_path, "--run-name", "bad", "--total-steps", "1024", "--resume", check=False)
    assert out.returncode == 2
    assert "is corrupt or truncated and cannot be loaded" in out.stderr


def test_starting_over_an_existing_run_needs_resume(tmp_path):
    _train(tmp_path, "--run-name", "twice", "--total-steps", "512", "--eval-every", "0", "--checkpoint-every", "512")
    out = _train(tmp_path, "--run-name", "twice", "--total-steps", "512", check=False)
    assert out.returncode == 2 and "pass --resume" in out.stderr


@pytest.mark.parametrize("argv,message", [
    (["--rules", "uno"], "--rules 'uno' is not a preset"),
    (["--players", "11"], "--players must be from 2 to 10"),
    (["--n-envs", "0"], "--n-envs must be positive"),
    (["--net-arch", "64,x"], "--net-arch must be comma-separated positive sizes"),
    (["--episode", "set"], "--episode must be 'round' or 'game'"),
    (["--checkpoint-every", "0"], "--checkpoint-every must be positive, got 0"),
    (["--eval-every", "-5"], "--eval-every must be 0 (off) or positive, got -5"),
    (["--league-every", "-1"], "--league-every must be positive"),
    (["--critic-warmup", "-3"], "--critic-warmup must be 0 (off) or positive, got -3"),
])
def test_bad_training_arguments_are_clear_errors(argv, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_args(argv).validate()


def test_args_dataclass_has_help_for_every_field():
    import dataclasses
    assert all(f.metadata.get("help") for f in dataclasses.fields(Args))


def test_an_exported_agent_refuses_a_game_with_another_layout(tmp_path):
    from sb3_contrib import MaskablePPO

    from uno_env import VecGame
    from uno_env.sb3 import UnoVecEnv
    env = UnoVecEnv("standard_en", 2, num_envs=2, seed=0)  # observation v3, the envs' default
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=16)
    PolicyAgent(model.policy, "tiny").export(tmp_path / "tiny", env.games.game)
    agent = PolicyAgent.load(tmp_path / "tiny.json", game=VecGame("standard_en", 2, observation="v3"))
    g = VecGame("standard_en", 2, batch_size=4, seed=1, observation="v3")
    a = agent.act(g.observe(), g.legal_mask())
    assert g.legal_mask()[np.arange(4), a].all()
    expected = "trained for observation size .*standard_en, 2 players.*flip_jp, 3 players"
    with pytest.raises(ModelMismatchError, match=expected):
        PolicyAgent.load(tmp_path / "tiny.json", game=VecGame("flip_jp", 3, observation="v3"))
    meta = json.loads((tmp_path / "tiny.json").read_text())
    meta["env_version"] = "uno_v9"
    (tmp_path / "old.json").write_text(json.dumps(meta))
    (tmp_path / "old.pt").write_bytes((tmp_path / "tiny.pt").read_bytes())
    with pytest.raises(ModelMismatchError, match="env version 'uno_v9'.*but this game has 'uno_v4'"):
        PolicyAgent.load(tmp_path / "old.json", game=VecGame("standard_en", 2, observation="v3"))
    (tmp_path / "cut.json").write_text(json.dumps(json.loads((tmp_path / "tiny.json").read_text())))
    (tmp_path / "cut.pt").write_bytes((tmp_path / "tiny.pt").read_bytes()[:100])
    with pytest.raises(ModelMismatchError, match="cannot read the weights"):
        PolicyAgent.load(tmp_path / "cut.json")


def test_wilson_interval_matches_known_values():
    lo, hi = wilson(70, 100)
    assert abs(lo - 0.6042) < 2e-4 and abs(hi - 0.7810) < 2e-4  # the textbook 70/100 interval
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_interval_is_exact_at_no_wins_and_all_wins():
    """The bound at a sweep is the rate itself, so a plot's error bar never goes negative."""
    for n in (1, 7, 200, 20_000):
        assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
        assert 0.0 < wilson(0, n)[1] < 1.0 and 0.0 < wilson(n, n)[0] < 1.0


def test_evaluation_plot_draws_a_sweep(tmp_path):
    """A 200-0 match (random against heuristic, heads-up) plots its 0% and 100% bars."""
    entries = [EntryResult(slot, agent, 200, wins, wins / 200, wilson(wins, 200), 0.0)
               for slot, (agent, wins) in enumerate([("random", 0), ("heuristic", 200)])]
    plot(MatchResult("standard_en", 2, "round", 200, 0.5, ["random", "heuristic"], entries), tmp_path / "r.png")
    assert (tmp_path / "r.png").stat().st_size > 1000


def test_evaluation_plot_fits_long_agent_names(tmp_path):
    """An ensemble of policies named by path gets a short, wrapped label, and the layout still fits."""
    import warnings
    long = "+".join(f"results/v3_agents/ensemble_members/member_{i}_step_8028160.json" for i in range(4))
    entries = [EntryResult(slot, agent, 100, wins, wins / 100, wilson(wins, 100), 0.0)
               for slot, (agent, wins) in enumerate([(long, 57), ("heuristic", 43)])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns when tight_layout cannot fit the labels
        plot(MatchResult("standard_en", 2, "round", 100, 0.5, [long, "heuristic"], entries), tmp_path / "r.png")
    assert (tmp_path / "r.png").stat().st_size > 1000


def test_evaluation_rotates_seats_and_counts_every_game():
    res = play_match(["random", "random", "random"], "standard_en", 3, games=90, seed=0, batch_size=30)
    assert res.games == 90 and sum(e.wins for e in res.entries) + res.void_games == 90
    assert all(e.rating_mu is not None for e in res.entries)


@pytest.mark.parametrize("episode", ["round", "game"])
def test_evaluation_counts_rounds_that_forced_moves_end_at_their_deal(episode):
    """With one-card hands under house_cn many rounds end at their deal by forced moves alone; the
    match counts them as games and no agent is asked to move in a round that is over."""
    res = play_match(["random", "greedy", "random"], "house_cn", 3, games=120, seed=0, batch_size=40,
                     episode=episode, hand_size=1)
    assert res.games == 120 and sum(e.wins for e in res.entries) + res.void_games == 120


def test_openskill_ratings_order_agents_as_their_wins_do():
    res = play_match(["heuristic", "random", "random"], "standard_en", 3, games=300, seed=0, batch_size=100)
    heuristic, *randoms = res.entries
    assert heuristic.win_rate > 0.8
    assert all(heuristic.rating_mu - heuristic.rating_sigma > r.rating_mu + r.rating_sigma for r in randoms)


def test_evaluation_script_writes_json_markdown_and_plot(tmp_path):
    out = subprocess.run([sys.executable, "-m", "training.evaluate", "--agents", "random,random", "--games", "60",
                          "--no-progress", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=300)
    assert "| 0 | random |" in out.stdout
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["games"] == 60 and (tmp_path / "results.png").stat().st_size > 1000


def test_a_behaviour_cloning_warm_start_records_its_agreement(tmp_path):
    _train(tmp_path, "--run-name", "bc", "--total-steps", "512", "--eval-every", "0", "--checkpoint-every", "512",
           "--bc-decisions", "2048", "--bc-epochs", "2", "--bc-teacher", "greedy")
    bc = json.loads((tmp_path / "bc" / "bc.json").read_text())
    assert bc["decisions"] > 0 and 0.0 <= bc["agreement"] <= 1.0


def test_a_short_run_writes_sb3s_episode_statistics_to_tensorboard(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    # a random learner's round lasts ~160 decisions: 16 games of 256 decisions finish some
    _train(tmp_path, "--run-name", "tb", "--n-envs", "16", "--n-steps", "128", "--total-steps", "4096",
           "--eval-every", "0", "--checkpoint-every", "2048")
    acc = EventAccumulator(str(tmp_path / "tb" / "tb"))
    acc.Reload()
    tags = acc.Tags()["scalars"]
    assert "rollout/ep_rew_mean" in tags and "rollout/ep_len_mean" in tags
    assert all(-1 <= e.value <= 1 for e in acc.Scalars("rollout/ep_rew_mean"))
    assert all(e.value >= 1 for e in acc.Scalars("rollout/ep_len_mean"))
    assert sorted(p.name for p in (tmp_path / "tb" / "checkpoints").glob("step_*_steps.zip")) == [
        "step_2048_steps.zip", "step_4096_steps.zip"]  # SB3's CheckpointCallback


def test_a_behaviour_cloning_warm_start_from_game_records(tmp_path):
    path = tmp_path / "greedy.jsonl"
    play_match(["greedy", "random"], "standard_en", 2, games=40, seed=1, batch_size=8, record=path)
    _train(tmp_path, "--run-name", "bcr", "--total-steps", "512", "--eval-every", "0", "--checkpoint-every", "512",
           "--bc-records", str(path), "--bc-teacher", "greedy", "--bc-epochs", "2")
    bc = json.loads((tmp_path / "bcr" / "bc.json").read_text())
    from uno_env import records
    greedy_decisions = sum(sum(r.agents[s] == "greedy" for s, _ in r.actions) for r in records.read_records(path))
    assert bc["decisions"] == greedy_decisions and 0.0 <= bc["agreement"] <= 1.0


def test_heuristic_tuning_keeps_only_improvements_and_confirms_on_a_fresh_seed(capsys):
    from agents.bots import HeuristicAgent
    from training import tune_heuristic

    tune_heuristic.main(["--players", "2", "--opponents", "greedy", "--games", "96", "--confirm-games", "64",
                         "--max-candidates", "4", "--batch-size", "32", "--seconds", "120"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    final = lines[-1]
    steps = [x["win_rate"] for x in lines[:-1]]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)  # each kept candidate was better
    assert final["search_win_rate_best"] >= final["search_win_rate_default"]
    assert final["candidates"] == 4 and final["confirm_seed"] != 5
    assert 0.0 <= final["confirm_win_rate_tuned"] <= 1.0 and 0.0 <= final["confirm_win_rate_default"] <= 1.0
    assert set(final["tuned"]) <= set(HeuristicAgent.DEFAULTS)
    rng = np.random.default_rng(0)
    for _ in range(50):  # a neighbour moves one to three weights and keeps thresholds non-negative
        cand, keys = tune_heuristic._neighbour(dict(HeuristicAgent.DEFAULTS), rng)
        moved = [k for k in cand if cand[k] != HeuristicAgent.DEFAULTS[k]]
        assert set(moved) <= set(keys) and 1 <= len(keys) <= 3
        assert all(cand[k] >= 0 for k, v in HeuristicAgent.DEFAULTS.items() if isinstance(v, int))


def test_search_probe_deals_again_only_the_cards_the_searching_seat_has_not_seen():
    from research.search_probe import Searcher
    from uno_env.core.invariants import violations

    game = VecGame("standard_en", 3, batch_size=64, seed=0)
    setup = {"rules": "standard_en", "players": 3, "hands": ["W+4 RS Y5", "G1 Y2 G3", "G4 Y5 Y6"],
             "discard": "R7", "draw_pile": "B1 B2 B3 B4 B5 B6 B7 B8", "to_move": 0}
    for row in range(64):
        game.load(setup, row)
    game.step(np.full(64, game.action_index("play W+4 G")))  # a bluff: seat 0 held RS; seat 1 may challenge
    st = game.state
    assert st.challengeable.all() and st.guilty.all()
    worlds = st.take(np.arange(64))
    me = worlds.actor.astype(np.intp)  # seat 1, the victim
    Searcher(game, 4, 1.5, np.random.default_rng(0)).sample_worlds(worlds, me)
    assert violations(game.engine, worlds) == []
    assert (worlds.hands[:, 1] == st.hands[:, 1]).all()  # its own hand
    assert (worlds.hand_n == st.hand_n).all() and (worlds.draw_n == st.draw_n).all()  # the sizes it sees
    unseen = lambda s: s.hands[:, [0, 2]].sum(1, dtype=np.int64) + np.stack(  # noqa: E731
        [np.bincount(s.draw[i, :s.draw_n[i]], minlength=game.engine.K) for i in range(64)])
    assert (unseen(worlds) == unseen(st)).all()  # the same cards, dealt again
    assert (worlds.hands[:, 0] != st.hands[:, 0]).any(1).mean() > 0.5
    red = np.array([game.engine.K_COLOR[0, k] == 0 for k in range(game.engine.K)])  # red kinds
    assert (worlds.guilty == (worlds.hands[:, 0][:, red] > 0).any(1)).all()  # guilt follows the dealt hand
    assert not worlds.guilty.all()


def test_search_probe_keeps_true_what_its_information_setting_names():
    from research.search_probe import Searcher
    from uno_env.core.invariants import violations

    game = VecGame("standard_en", 3, batch_size=64, seed=3)
    game.step(np.asarray(game.legal_mask().argmax(1)))
    st = game.state
    me = st.actor.astype(np.intp)
    searcher = Searcher(game, 4, 1.5, np.random.default_rng(0))
    pile = lambda s: np.stack([np.bincount(s.draw[i, :s.draw_n[i]], minlength=game.engine.K)  # noqa: E731
                               for i in range(64)])
    known_hands = st.take(np.arange(64))  # --information hands: only the draw pile is shuffled again
    searcher.sample_worlds(known_hands, me, hands=False, pile=True)
    assert violations(game.engine, known_hands) == []
    assert (known_hands.hands == st.hands).all() and (pile(known_hands) == pile(st)).all()
    assert (known_hands.draw != st.draw).any(1).mean() > 0.9
    known_pile = st.take(np.arange(64))  # --information pile: only the other hands are dealt again
    searcher.sample_worlds(known_pile, me, hands=True, pile=False)
    assert violations(game.engine, known_pile) == []
    assert (known_pile.draw == st.draw).all() and (known_pile.hand_n == st.hand_n).all()
    assert (known_pile.hands[np.arange(64), me] == st.hands[np.arange(64), me]).all()
    assert (known_pile.hands.sum(1) == st.hands.sum(1)).all()  # the same cards among the hands
    assert (known_pile.hands != st.hands).any((1, 2)).mean() > 0.9
    known_next = st.take(np.arange(64))  # --information next: the next seat's hand stays true
    searcher.sample_worlds(known_next, me, hands="next", pile=True)
    assert violations(game.engine, known_next) == []
    nxt = (me + st.direction.astype(np.intp)) % 3
    assert (known_next.hands[np.arange(64), nxt] == st.hands[np.arange(64), nxt]).all()
    third = 3 - me - nxt  # the seat that is neither: its hand is dealt again
    assert (known_next.hands[np.arange(64), third] != st.hands[np.arange(64), third]).any(1).mean() > 0.5
    voids = st.take(np.arange(64))  # --information voids: a seat that drew on red is dealt no red card
    other = (me + 1) % 3
    voids.drew_on[np.arange(64), other] = 0
    searcher.sample_worlds(voids, me, voids=True)
    assert violations(game.engine, voids) == []
    assert (pile(voids) + voids.hands.sum(1) == pile(st) + st.hands.sum(1)).all()  # the same cards
    red = (game.engine.K_COLOR[0] == 0) & ~game.engine.F_WILD[:game.engine.K]
    assert (voids.hands[np.arange(64), other][:, red] == 0).all()
    assert (voids.hands[np.arange(64), (me + 2) % 3][:, red] > 0).any()  # the other hidden seat may hold red
    with pytest.raises(ValueError, match="information='all' is not allowed"):
        Searcher(game, 4, 1.5, np.random.default_rng(0), information="all")


def test_search_probe_reports_a_win_rate_with_its_interval(capsys):
    from research import search_probe

    search_probe.main(["--players", "2", "--rounds", "6", "--worlds", "2", "--batch-size", "4", "--no-progress"])
    r = json.loads(capsys.readouterr().out)
    assert r["rounds"] == 6 and 0 <= r["wins"] <= 6 and r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    assert r["decisions_searched"] > 0 and 0 <= r["overridden"] <= r["decisions_searched"]
    with pytest.raises(ValueError, match="one-sided decks"):
        search_probe.probe("flip_jp", 2, rounds=1, worlds=2)
    with pytest.raises(ValueError, match="worlds=1"):
        search_probe.probe("standard_en", 2, rounds=1, worlds=1)


def test_search_probe_over_an_agent_keeps_its_choices_unless_a_rollout_beats_them(tmp_path):
    """--agent: the agent's choice stands unless another action wins the paired test (a high margin keeps
    more of them; --z inf all).  A v3 agent is refused: the sampled worlds keep no table memory."""
    pytest.importorskip("sb3_contrib")
    from helpers import export_agent

    from research import search_probe

    kept = search_probe.probe("standard_en", 2, rounds=4, worlds=2, z=1e9, batch_size=4, agent=V2_AGENTS[2])
    assert kept["searcher"] == V2_AGENTS[2] and kept["decisions_searched"] > 0
    eager = search_probe.probe("standard_en", 2, rounds=4, worlds=2, z=-1e9, batch_size=4, agent=V2_AGENTS[2])
    assert eager["overridden"] > kept["overridden"]
    alone = search_probe.probe("standard_en", 2, rounds=4, worlds=2, z=float("inf"), batch_size=4,
                               agent=V2_AGENTS[2])  # the baseline: the agent alone on the same deals
    assert alone["overridden"] == 0 and alone["z"] == "inf" and alone["decisions_searched"] > 0
    v3 = export_agent(tmp_path / "tiny", 2, observation="v3")
    with pytest.raises(ValueError, match="reads the v3 observation"):
        search_probe.probe("standard_en", 2, rounds=1, worlds=2, agent=str(v3))

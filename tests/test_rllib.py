"""Ray RLlib support (the ``scale`` extra): the adapters, one training iteration on a local Ray with
2 env runners, and a checkpoint loaded back as an agent.  Skipped when ray is not installed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from agents.policy import ModelMismatchError  # noqa: E402
from uno_env import VecGame  # noqa: E402
from uno_env.rllib import LearnerVecEnv, make_aec_env, seat_mapping  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LAST_LINE = re.compile(r"^iteration 1: sampled (\d+) env steps \(num_env_steps_sampled_lifetime=(\d+)\)")


def test_default_imports_do_not_import_ray():
    code = ("import sys, uno_env, agents, training.evaluate, agents.rllib_policy, uno_env.rllib; "
            "print([m for m in sys.modules if m == 'ray' or m.startswith('ray.')][:3])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_learner_vec_env_follows_next_step_autoreset():
    env = LearnerVecEnv("standard_en", 2, num_envs=4, opponents="heuristic")
    obs, _ = env.reset(seed=3)
    assert obs["observations"].shape == (4, env.games.observation_size)
    assert obs["action_mask"].shape == (4, env.games.num_actions) and obs["action_mask"].dtype == np.float32
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        mask = obs["action_mask"] > 0
        was_done = env._waiting.copy()
        assert mask[~was_done].any(1).all()  # a decision is asked wherever no episode just ended
        assert not mask[was_done].any()  # the ended episode's last observation asks nothing
        actions = (rng.random(mask.shape) * mask).argmax(1)
        obs, reward, term, trunc, _ = env.step(actions)
        assert np.all(reward[was_done] == 0) and not (term | trunc)[was_done].any()  # the reset step
        assert set(np.unique(reward[term])) <= {-1.0, 1.0}
        ended += int((term | trunc).sum())
    assert ended > 0


def test_aec_env_renames_the_observation_keys_and_reports_every_seats_reward():
    env = make_aec_env({"rules": "standard_en", "players": 3})
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20_000):
        (agent, o), = obs.items()
        assert set(o) == {"observations", "action_mask"} and o["action_mask"].dtype == np.float32
        mask = o["action_mask"] > 0
        obs, rew, term, trunc, _ = env.step({agent: int((rng.random(mask.shape) * mask).argmax())})
        if term["__all__"] or trunc["__all__"]:
            assert set(rew) == {"player_0", "player_1", "player_2"} and sorted(rew.values())[-1] == 1.0
            break
    else:
        pytest.fail("no round ended")


def test_seat_mapping_gives_one_learner_seat_per_episode():
    fn = seat_mapping(4, ["bot_greedy", "bot_heuristic"])

    class Ep:
        def __init__(self, i):
            self.id_ = f"episode-{i}"

    for i in range(20):
        ep = Ep(i)
        mods = [fn(f"player_{s}", ep) for s in range(4)]
        assert mods.count("learner") == 1 and set(mods) - {"learner"} <= {"bot_greedy", "bot_heuristic"}


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One iteration of ``python -m training.rllib_train`` with 2 env runners, as small as it goes."""
    ckpt = tmp_path_factory.mktemp("rllib") / "ckpt"
    cmd = [sys.executable, "-m", "training.rllib_train", "--rules", "standard_en", "--players", "2",
           "--iterations", "1", "--num-env-runners", "2", "--num-envs-per-env-runner", "4",
           "--train-batch-size", "256", "--minibatch-size", "128", "--num-epochs", "1", "--net-arch", "32",
           "--opponents", "greedy", "--eval-games", "8", "--eval-bots", "greedy",
           "--checkpoint-dir", str(ckpt)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    return proc, ckpt


@pytest.mark.slow
def test_one_iteration_on_local_ray_with_2_env_runners_reports_sampled_steps(trained):
    proc, ckpt = trained
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    lines = [x for x in proc.stdout.splitlines() if x.strip()]
    m = LAST_LINE.match(lines[-1])
    assert m, lines[-3:]
    assert int(m.group(1)) > 0 and int(m.group(2)) >= int(m.group(1))
    evals = [x for x in lines if x.startswith("[eval] vs greedy: win rate")]
    assert len(evals) == 1 and "sampled" in evals[0] and "greedy" in evals[0].split(":", 1)[1]
    meta = json.loads((ckpt / "uno_rllib.json").read_text())
    (played,) = meta["evaluation"]
    assert played["bot"] == "greedy"
    for how in ("sampled", "greedy"):  # both ways of playing the policy are reported, each with its interval
        lo, hi = played[how]["ci95"]
        assert played[how]["games"] == 8 and lo <= played[how]["win_rate"] <= hi
    assert (ckpt / "rllib_checkpoint.json").exists() and (ckpt / "uno_rllib.json").exists()


@pytest.mark.slow
def test_a_checkpoint_loads_as_an_agent_and_plays_only_legal_actions(trained):
    from agents.rllib_policy import is_rllib_checkpoint, load_rllib
    from training.evaluate import play_match

    proc, ckpt = trained
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert is_rllib_checkpoint(ckpt)
    with pytest.raises(ModelMismatchError, match="trained on observation v3"):
        load_rllib(ckpt, game=VecGame("standard_en", 2, batch_size=1, observation="v2"))
    game = VecGame("standard_en", 2, batch_size=1, observation="v3")
    agent = load_rllib(ckpt, game=game)

    class Checked:  # fails the test on any illegal action
        name = "rllib"

        def act(self, obs, masks, rng=None):
            actions = agent.act(obs, masks, rng)
            assert masks[np.arange(len(actions)), actions].all()
            return actions

    result = play_match([Checked(), "greedy"], "standard_en", 2, games=20, seed=1)
    assert result.games == 20
    sampled = load_rllib(ckpt, game=game, deterministic=False)
    obs = game.observe()
    assert game.state.mask[0, sampled.act(obs[:1], game.state.mask[:1])[0]]
    with pytest.raises(ModelMismatchError):
        load_rllib(ckpt, game=VecGame("standard_en", 3, batch_size=1, observation="v3"))


@pytest.mark.slow
def test_the_aec_path_trains_an_iteration_with_bots_in_the_policy_map(tmp_path):
    from training.rllib_train import Args, train

    args = Args(env="aec", iterations=1, num_env_runners=0, n_envs=1, train_batch_size=128,
                batch_size=64, n_epochs=1, net_arch="32", opponents="greedy,random", eval_games=4,
                eval_bots="greedy", checkpoint_dir=str(tmp_path / "aec"))
    out = train(args)
    assert out["num_env_steps_sampled"] > 0
    assert (tmp_path / "aec" / "learner_group" / "learner" / "rl_module" / "learner").is_dir()


@pytest.mark.parametrize("argv,message", [
    (["--opponents", "ppo-standard_en-4p", "--players", "2"], "was trained for observation size"),
    (["--eval-bots", "ppo-standard_en-4p"], "was trained for observation size"),
    (["--lr", "-1"], "--learning-rate must be positive, got -1.0"),  # RLlib's name of the flag still works
    (["--gamma", "1.5"], "--gamma must be in (0, 1], got 1.5"),
    (["--entropy-coeff", "-5"], "--ent-coef must be 0 or more, got -5.0"),
    (["--minibatch-size", "128", "--train-batch-size", "64"], "--batch-size (128) must not exceed"),
    (["--eval-bots", ","], "--eval-bots names no bot; give one or set --eval-games 0"),
])
def test_bad_rllib_arguments_fail_before_ray_starts(argv, message, capsys):
    from training.rllib_train import main
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_checkpoint_loads_with_a_training_env_as_the_game(trained):
    import agents
    from uno_env.vector import UnoVectorEnv

    proc, ckpt = trained
    assert proc.returncode == 0, proc.stderr[-3000:]
    env = UnoVectorEnv("standard_en", 2, num_envs=4, seed=0)
    obs, info = env.reset(seed=0)
    actions = agents.load(ckpt, game=env).act(obs, info["action_mask"])
    assert info["action_mask"][np.arange(4), actions].all()


@pytest.mark.slow
def test_an_aec_league_snapshot_reaches_the_remote_env_runners_with_its_weights():
    """RLlib drops a second fire-and-forget weight push while the first is in flight: the snapshot must
    not sample with fresh weights on a remote env runner until the next sync."""
    from ray.rllib.utils.numpy import convert_to_numpy

    from training.rllib_train import Args, add_snapshot, build_config

    args = Args(env="aec", players=2, iterations=1, league=1, league_every=1, num_env_runners=1,
                n_envs=2, train_batch_size=128, batch_size=64, n_epochs=1, net_arch="16",
                opponents="greedy", eval_games=0)
    args.validate()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        algo = build_config(args, True).build_algo()
        algo.train()
        add_snapshot(algo, args, 1, [])
        learner_side = convert_to_numpy(algo.learner_group._learner.module["snapshot_1"].get_state(inference_only=True))
        remote = algo.env_runner_group.foreach_env_runner(
            lambda er: convert_to_numpy(er.module["snapshot_1"].get_state()), local_env_runner=False)[0]
        shared = sorted(set(learner_side) & set(remote))
        assert shared and all(np.array_equal(learner_side[k], remote[k]) for k in shared)
        algo.stop()
    finally:
        ray.shutdown()


@pytest.mark.slow
def test_a_run_continues_from_its_checkpoint_in_a_new_process(trained):
    """docs/rllib.md "Continuing a run": register the envs, restore, train on; the counters go on."""
    proc, ckpt = trained
    assert proc.returncode == 0, proc.stderr[-3000:]
    code = ("import ray\nfrom ray.rllib.algorithms.algorithm import Algorithm\n"
            "from training.rllib_train import register_envs\n"
            "ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level='ERROR')\n"
            "register_envs()\n"
            f"algo = Algorithm.from_checkpoint({str(ckpt)!r})\n"
            "before = algo.metrics.peek(('env_runners', 'num_env_steps_sampled_lifetime'), default=0)\n"
            "after = algo.train()['env_runners']['num_env_steps_sampled_lifetime']\n"
            "print('lifetime', before, after)\nalgo.stop()\nray.shutdown()\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    before, after = map(float, out.stdout.split("lifetime")[-1].split())
    assert after > before > 0


def test_nothing_imports_rllibs_examples_package():
    """RLlib's examples are not an API: the action-masking module is the project's own."""
    found = [f"{p.relative_to(ROOT)}:{i}" for d in ("uno_env", "agents", "training") for p in (ROOT / d).rglob("*.py")
             for i, line in enumerate(p.read_text().splitlines(), 1) if "rllib.examples" in line]
    assert found == []


def test_the_masked_module_gives_illegal_actions_no_probability():
    import torch
    from ray.rllib.core.columns import Columns

    from uno_env.rllib import masked_module_spec, observation_space

    game = VecGame("standard_en", 2, batch_size=6, seed=0)
    spec = masked_module_spec([16])
    spec.observation_space, spec.action_space = observation_space(game), __import__("gymnasium").spaces.Discrete(
        game.num_actions)
    module = spec.build()
    mask = game.legal_mask()
    batch = {Columns.OBS: {"observations": torch.as_tensor(game.observe()),
                           "action_mask": torch.as_tensor(mask.astype(np.float32))}}
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    probs = torch.softmax(logits, -1).detach().numpy()
    assert np.allclose(probs[~mask], 0) and np.allclose(probs[mask].sum(), 6)
    assert module.compute_values(batch).shape == (6,)


@pytest.mark.parametrize("env", ["batched", "aec", "selfplay"])
def test_rllibs_environment_checker_is_on_for_every_path(env):
    from training.rllib_train import Args, build_config

    config = build_config(Args(env=env), local=True)
    assert config.disable_env_checking is False


def test_self_play_maps_every_seat_to_the_learner():
    from uno_env.rllib import self_play_mapping

    fn = self_play_mapping()
    assert {fn(f"player_{s}", None) for s in range(4)} == {"learner"}


@pytest.mark.slow
def test_the_self_play_path_trains_one_module_on_every_seat(tmp_path):
    from training.rllib_train import Args, train

    args = Args(env="selfplay", players=3, iterations=1, num_env_runners=0, n_envs=1,
                train_batch_size=128, batch_size=64, n_epochs=1, net_arch="32", eval_games=4,
                eval_bots="greedy", checkpoint_dir=str(tmp_path / "sp"))
    out = train(args)
    assert out["num_env_steps_sampled"] > 0
    modules = tmp_path / "sp" / "learner_group" / "learner" / "rl_module"
    assert sorted(p.name for p in modules.iterdir() if p.is_dir()) == ["learner"]


@pytest.mark.slow
def test_restoring_a_checkpoint_logs_no_deprecation_of_the_module_class(trained):
    """(RLlib's own RLModule.__init__ still logs that its internal RLModuleConfig is deprecated, for every
    module, its default ones included: nothing a module class can avoid.)"""
    proc, ckpt = trained
    assert proc.returncode == 0, proc.stderr[-3000:]
    code = f"from agents.rllib_policy import load_rllib; load_rllib({str(ckpt)!r})"
    out = subprocess.run([sys.executable, "-W", "always", "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    warnings = [x for x in (out.stdout + out.stderr).splitlines() if "deprecat" in x.lower()]
    assert not [x for x in warnings if "PPOTorchRLModule" in x or "examples" in x or "RLModuleConfig" not in x]


@pytest.mark.slow
def test_a_run_resumes_to_its_iterations_in_all_and_records_its_sessions(trained, tmp_path):
    """The family's resume convention on RLlib: ``--resume`` continues the checkpoint in the run folder to
    ``--iterations`` in all, and ``sessions.json`` records both sessions."""
    import shutil

    proc, ckpt = trained
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = tmp_path / "run"
    shutil.copytree(ckpt, run)  # the fixture's checkpoint stays as the other tests read it
    first = json.loads((run / "sessions.json").read_text())
    assert len(first["sessions"]) == 1 and first["steps"] > 0
    cmd = [sys.executable, "-m", "training.rllib_train", "--checkpoint-dir", str(run), "--resume",
           "--iterations", "2", "--eval-games", "0"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert f"resuming {run} at iteration 1" in out.stdout
    sessions = json.loads((run / "sessions.json").read_text())
    assert [s["start_step"] for s in sessions["sessions"]] == [0, first["steps"]]
    assert sessions["steps"] > first["steps"]
    meta = json.loads((run / "uno_rllib.json").read_text())
    assert meta["iterations"] == 2 and meta["num_env_steps_sampled_lifetime"] == sessions["steps"]
    again = subprocess.run([sys.executable, "-m", "training.rllib_train", "--checkpoint-dir", str(run),
                            "--iterations", "1", "--net-arch", "32"], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 2 and "already exists; pass --resume" in again.stderr


def test_the_shared_settings_map_onto_rllibs_ppo_config():
    """``--learning-rate`` or RLlib's ``--lr`` (and the other spellings) reach the same setting, and the family's
    hyperparameters reach RLlib's ``PPOConfig``."""
    from training.rllib_train import build_config, parse_args

    args = parse_args(["--lr", "1e-3", "--num-envs-per-env-runner", "4", "--minibatch-size", "100",
                       "--num-epochs", "2", "--entropy-coeff", "0.02", "--gae-lambda", "0.9", "--clip-range",
                       "0.1", "--vf-coef", "0.5", "--max-grad-norm", "0.5"])
    assert (args.learning_rate, args.n_envs, args.batch_size, args.n_epochs, args.ent_coef) == (1e-3, 4, 100, 2, 0.02)
    assert parse_args(["--learning-rate", "1e-3"]).learning_rate == 1e-3
    config = build_config(args, local=True)
    assert (config.lr, config.num_envs_per_env_runner, config.minibatch_size, config.num_epochs,
            config.entropy_coeff, config.lambda_, config.clip_param, config.vf_loss_coeff, config.grad_clip) == \
        (1e-3, 4, 100, 2, 0.02, 0.9, 0.1, 0.5, 0.5)
    assert build_config(parse_args([]), local=True).grad_clip is None  # RLlib's default: no clipping

"""The masked PPO family (training/config.py, training/runs.py): one set of settings and flags shared by the three
trainers, one run folder, one resume convention.  No training here (tests/test_ppo_lean.py, test_training.py and
test_rllib.py train); the lean loop's flags are pinned, since runs in progress resume with them."""

from __future__ import annotations

import dataclasses
import json

import pytest

from training import ppo_lean, train_ppo
from training.config import PPOConfig, flag
from training.runs import RunFolder, Session, sessions_until

# every flag of python -m training.ppo_lean: runs in progress and the recipes resume with them
LEAN_FLAGS = {
    "--batch-size", "--checkpoint-every", "--clip-range", "--colour-augment", "--distill", "--distill-anneal",
    "--distill-decisions", "--distill-epochs", "--distill-where", "--ent-coef", "--env-option", "--episode",
    "--gae-lambda", "--gamma", "--init-agent", "--learning-rate", "--max-grad-norm", "--n-envs", "--n-epochs",
    "--n-steps", "--net-arch", "--no-colour-augment", "--no-distill-anneal", "--no-progress", "--no-resume",
    "--observation", "--opponents", "--players", "--progress", "--resume", "--rules", "--run-name", "--runs-dir",
    "--seed", "--snapshot-every", "--torch-threads", "--total-steps", "--vf-coef", "-h", "--help"}


def _flags(cls) -> set[str]:
    return {s for a in cls.parser()._actions for s in a.option_strings}


def _trainers():
    out = [ppo_lean.Config, train_ppo.Args]
    try:
        from training import rllib_train
        out.append(rllib_train.Args)
    except ImportError:  # pragma: no cover
        pass
    return out


def test_the_lean_loops_flags_are_the_ones_its_runs_were_started_with():
    assert _flags(ppo_lean.Config) == LEAN_FLAGS


@pytest.mark.parametrize("cls", _trainers(), ids=lambda c: c.__module__)
def test_every_trainer_takes_the_familys_flags(cls):
    assert issubclass(cls, PPOConfig)
    shared = {flag(f.name) for f in dataclasses.fields(PPOConfig) if f.name not in cls.UNUSED}
    assert shared <= _flags(cls)
    assert all(f.metadata.get("help") for f in dataclasses.fields(cls))


def _saved_run(tmp_path, cls, **settings) -> RunFolder:
    cfg = cls(runs_dir=str(tmp_path), run_name="r", **settings)
    folder = RunFolder(cfg.run_dir)
    folder.open(cfg)
    folder.latest.write_bytes(b"a checkpoint")
    return folder


def test_a_resume_takes_what_is_not_given_from_the_run_and_keeps_a_changed_setting(tmp_path):
    _saved_run(tmp_path, train_ppo.Args, n_envs=8, learning_rate=1e-4, torch_threads=3)
    base = ["--runs-dir", str(tmp_path), "--run-name", "r", "--resume"]
    cfg = train_ppo.Args.from_args(base)
    assert (cfg.n_envs, cfg.learning_rate, cfg.torch_threads) == (8, 1e-4, 0)  # threads: this session's own
    cfg = train_ppo.Args.from_args([*base, "--learning-rate", "5e-5", "--total-steps", "99"])
    assert (cfg.learning_rate, cfg.total_steps, cfg.n_envs) == (5e-5, 99, 8)
    with pytest.raises(ValueError, match=r"started with n_envs=8, not 16 \(.*n_envs.* may not change\)"):
        train_ppo.Args.from_args([*base, "--n-envs", "16"])


def test_the_lean_loop_may_change_only_its_optimisation_and_length_on_resume(tmp_path):
    _saved_run(tmp_path, ppo_lean.Config, n_envs=16, n_steps=8, batch_size=64)
    base = ["--runs-dir", str(tmp_path), "--run-name", "r", "--resume"]
    assert ppo_lean.parse_args([*base, "--ent-coef", "0"]).ent_coef == 0
    with pytest.raises(ValueError, match=r"started with seed=0, not 3 \(only total_steps, .* may change\)"):
        ppo_lean.parse_args([*base, "--seed", "3"])


def test_the_run_folder_refuses_a_second_start_and_a_resume_of_nothing(tmp_path):
    _saved_run(tmp_path, ppo_lean.Config)
    again = ppo_lean.Config(runs_dir=str(tmp_path), run_name="r")  # the same command over an interrupted run
    RunFolder(tmp_path / "r").open(again)
    assert again.resume  # goes on
    with pytest.raises(ValueError, match="already exists; pass --resume.*not 5"):  # another start over it: refused
        RunFolder(tmp_path / "r").open(ppo_lean.Config(runs_dir=str(tmp_path), run_name="r", seed=5))
    (tmp_path / "r" / "agent.json").write_text("{}")  # a finished run: a second start is refused
    with pytest.raises(ValueError, match="already exists; pass --resume.*finished"):
        RunFolder(tmp_path / "r").open(ppo_lean.Config(runs_dir=str(tmp_path), run_name="r"))
    (tmp_path / "r" / "agent.json").unlink()
    with pytest.raises(ValueError, match=r"no run at .* \(missing config.json\)"):
        RunFolder(tmp_path / "s").open(ppo_lean.Config(runs_dir=str(tmp_path), run_name="s", resume=True))
    with pytest.raises(ValueError, match="started with players=2, not 3"):  # a config built in code is checked too
        RunFolder(tmp_path / "r").open(ppo_lean.Config(runs_dir=str(tmp_path), run_name="r", resume=True, players=3))
    saved = RunFolder(tmp_path / "r").open(ppo_lean.Config(runs_dir=str(tmp_path), run_name="r", resume=True,
                                                           learning_rate=1e-4))
    assert saved["learning_rate"] == 3e-4
    assert json.loads((tmp_path / "r" / "config.json").read_text())["learning_rate"] == 1e-4


def test_the_same_command_goes_on_with_a_run_saved_before_a_setting_was_added(tmp_path):
    """A setting added since the run was saved (``--distill-where``) counts as its default then: the same command
    continues the run instead of calling it another start."""
    folder = _saved_run(tmp_path, ppo_lean.Config)
    saved = json.loads(folder.config_path.read_text())
    del saved["distill_where"]
    folder.config_path.write_text(json.dumps(saved))
    again = ppo_lean.Config(runs_dir=str(tmp_path), run_name="r")
    RunFolder(tmp_path / "r").open(again)
    assert again.resume


def test_the_sessions_record_each_sessions_steps_time_and_command(tmp_path):
    folder = RunFolder(tmp_path)
    sessions: list = []
    first = Session(sessions, 0, command="--total-steps 100")
    first.update(100)
    second = Session(sessions, 100, command="--resume --total-steps 300", games_restarted="why")
    second.update(300)
    assert folder.write_sessions(300, sessions) == pytest.approx(first.seconds + second.seconds, abs=0.11)
    record = json.loads((tmp_path / "sessions.json").read_text())
    assert record["steps"] == 300 and folder.read_sessions() == sessions
    assert [(s["start_step"], s["end_step"], s["command"]) for s in sessions] == \
        [(0, 100, "--total-steps 100"), (100, 300, "--resume --total-steps 300")]
    assert sessions[1]["games_restarted"] == "why"
    assert [s["end_step"] for s in sessions_until(sessions, 200)] == [100, 200]


def test_the_shared_checks_name_the_flag():
    with pytest.raises(ValueError, match="--gamma must be in"):
        ppo_lean.Config(gamma=0).validate()
    with pytest.raises(ValueError, match="--players must be from 2 to 10"):
        train_ppo.Args(players=11).validate()
    with pytest.raises(ValueError, match="--max-grad-norm must be positive"):
        ppo_lean.Config(max_grad_norm=0).validate()

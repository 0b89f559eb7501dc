"""The shipped agents' recipes (training/recipe.py): each is what was run (checked against the run records
kept in git), its inputs are in the repository, and the runner builds a lineage make-style: an interrupted
build run again finishes it with the weights of an uninterrupted one.  No test measures speed."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from training import league, ppo_lean, recipe  # noqa: E402
from training.recipe import RECIPES, Builder, Recipe, Run, Soup  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "results" / "v3_agents" / "run_records"
LEAGUE_RECORDS = ROOT / "results" / "league"  # the league fine-tunes' records, beside their checks
CONFIGS = {"training.ppo_lean": ppo_lean.Config, "training.league": league.LeagueConfig}
# what a recipe may set differently from the recorded run: where files are, and the run's length and bookkeeping
# (a run recorded past the recipe's total, as ens2p was, shipped the snapshot at the recipe's total)
FREE = {"init_agent", "distill", "run_name", "runs_dir", "total_steps", "progress", "torch_threads", "resume",
        "snapshot_every", "checkpoint_every"}
MODELS = ROOT / "agents" / "models"
# an agent still in training has its recipe (the next session resumes it) but no run record or shipped file yet
SHIPPED = [r for r in RECIPES.values() if (MODELS / f"{r.agent}.json").is_file()]
RUNS = [(r.agent, s) for r in SHIPPED for s in r.steps if isinstance(s, Run)]


def _final_config(run: Run) -> ppo_lean.Config:
    """The run's settings after its last session (ppo_lean keeps a changed setting changed)."""
    argv = shlex.split(run.args.format(**{n: "x" for n in run.needs}))  # a placeholder path for each product
    for _, extra in run.later:
        argv += shlex.split(extra)
    cfg = CONFIGS[run.trainer].from_args([*argv, "--total-steps", str(run.sessions[-1][0])])
    cfg.validate()
    return cfg


def _whole_rollouts(total: int, rollout: int) -> int:
    """Where a run asked for ``total`` steps stops: ppo_lean trains whole rollouts."""
    return -(-total // rollout) * rollout


def test_every_shipped_agent_has_a_recipe():
    assert {p.stem for p in MODELS.glob("*.json")} <= set(RECIPES)
    assert len(SHIPPED) >= 4


def test_an_agent_in_training_has_no_run_record_yet():
    """A recipe whose agent is not shipped is one still being trained: nothing of it is recorded as done."""
    for r in RECIPES.values():
        if r not in SHIPPED:
            assert not any((RECORDS / s.name).exists() for s in r.steps if isinstance(s, Run)), r.agent


@pytest.mark.parametrize("agent", list(RECIPES))
def test_each_step_uses_only_earlier_steps_and_files_kept_in_the_repository(agent):
    r = RECIPES[agent]
    seen = set()
    for step in r.steps:
        assert set(step.needs) <= seen, (step.name, set(step.needs) - seen)
        assert step.name not in seen
        seen.add(step.name)
        if isinstance(step, Run):
            for token in shlex.split(step.args):
                for part in token.split("+"):
                    if part.startswith(("results/", "training/")):  # a file kept in git: both halves there
                        stem = ROOT / part.removesuffix(".json")
                        assert stem.with_suffix(".json").is_file() and stem.with_suffix(".pt").is_file(), part


@pytest.mark.parametrize("agent,run", RUNS, ids=[f"{a}:{s.name}" for a, s in RUNS])
def test_each_run_has_the_settings_its_recorded_run_was_trained_with(agent, run):
    """The recipe is what was run: its settings are those of run_records/NAME/config.json, its sessions
    begin where the recorded ones changed settings, and it stops no later than the recorded run."""
    record = (LEAGUE_RECORDS if run.trainer == "training.league" else RECORDS) / run.name
    saved = json.loads((record / "config.json").read_text())
    cfg = vars(_final_config(run))
    saved = {**vars(CONFIGS[run.trainer]()), **saved}  # a setting added since the run had its default then
    differ = {k: (cfg[k], saved[k]) for k in cfg if k not in FREE and cfg[k] != saved[k]}
    assert not differ, differ
    sessions = json.loads((record / "sessions.json").read_text())
    starts = {s["start_step"] for s in sessions["sessions"]}
    ends = [_whole_rollouts(total, cfg["n_envs"] * cfg["n_steps"]) for total, _ in run.sessions]
    assert {0, *ends[:-1]} <= starts
    assert ends[-1] <= sessions["sessions"][-1]["end_step"]


def _steps(r: Recipe, name: str) -> int:
    """The steps a product counts: a run's last total rounded up to whole rollouts, a soup's members' sum."""
    step = r.by_name[name]
    if isinstance(step, Soup):
        return sum(_steps(r, m) for m in step.members)
    cfg = _final_config(step)
    return _whole_rollouts(step.sessions[-1][0], cfg.n_envs * cfg.n_steps)


def test_the_shipped_agents_were_trained_for_the_steps_their_recipe_ends_at():
    for r in SHIPPED:
        meta = json.loads((ROOT / "agents" / "models" / f"{r.agent}.json").read_text())
        assert meta["trained_steps"] == _steps(r, r.target.name), r.agent


def test_each_recipe_ships_its_agent_played_as_the_shipped_file_says():
    """``--ship`` must not change how the agent plays: averaged over the colour renamings or not."""
    for r in SHIPPED:
        meta = json.loads((ROOT / "agents" / "models" / f"{r.agent}.json").read_text())
        assert ("--colour-average" in shlex.split(r.ship)) == (meta.get("play") == "colour_average"), r.agent


# ------------------------------------------------------------------------------------------ the runner
TINY = "--players 2 --opponents random --n-envs 16 --n-steps 8 --batch-size 64 --n-epochs 2 --net-arch 32,32"


def _lineage() -> Recipe:
    """A run in two sessions (the second at another learning rate), two fine-tunes of it, their soup."""
    return Recipe(agent="tiny", steps=(
        Run("a", f"{TINY} --seed 1", 256, later=((512, "--learning-rate 1e-4"),)),
        Run("b", f"{TINY} --init-agent {{a}} --seed 2", 128),
        Run("c", f"{TINY} --init-agent {{a}} --seed 3", 128),
        Soup("s", ("b", "c")),
    ))


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Builder:
    """The tiny lineage built straight through, two steps at a time."""
    builder = Builder(_lineage(), tmp_path_factory.mktemp("recipe") / "whole")
    assert set(builder.build(jobs=2, log=lambda _: None)) == {"a", "b", "c", "s"}
    return builder


def test_a_lineage_built_with_an_interruption_ends_with_the_weights_of_one_built_straight_through(whole, tmp_path):
    sessions = json.loads((whole.root / "a" / "sessions.json").read_text())["sessions"]
    assert [(s["start_step"], s["end_step"]) for s in sessions] == [(0, 256), (256, 512)]
    assert "--resume" in sessions[1]["command"] and "--learning-rate 1e-4" in sessions[1]["command"]
    assert whole.build(log=lambda _: None) == {}  # all done: nothing runs again

    cut = tmp_path / "cut"  # stopped inside the first session of a, at step 128
    Builder(Recipe(agent="tiny", steps=(Run("a", f"{TINY} --seed 1", 128),)), cut).build(log=lambda _: None)
    resumed = Builder(_lineage(), cut)
    assert resumed.plan()[0][:2] == ("a", "at step 128")
    assert "--resume" in resumed.command("a") and "256" in resumed.command("a")
    resumed.build(jobs=2, log=lambda _: None)
    same, diff = recipe.compare(cut / "s.json", whole.product("s"))
    assert same, diff
    soup = json.loads((cut / "s.json").read_text())
    assert [m["seed"] for m in soup["soup_of"]] == [2, 3]  # the members, in the recipe's order


def test_a_product_older_than_its_input_is_refused_with_where_it_is(whole, tmp_path):
    shutil.copytree(whole.root, tmp_path, dirs_exist_ok=True)
    lineage = _lineage()
    assert Builder(lineage, tmp_path).stale() == []
    os.utime(tmp_path / "b" / "agent.json", (1, 1))  # b now predates a: built from an older a
    with pytest.raises(ValueError, match=f"b was built from an older product .* remove {tmp_path / 'b'}"):
        Builder(lineage, tmp_path).plan()


def test_a_given_product_cuts_off_its_lineage(whole, tmp_path):
    given = Builder(_lineage(), tmp_path / "given", given={"a": whole.product("a")})
    assert given.needed() == ["a", "b", "c", "s"]
    assert [row[1] for row in given.plan()] == ["given", "to do", "to do", "to do"]
    assert str(whole.product("a")) in given.command("b")


@pytest.mark.parametrize("target", ["s", "a"])
def test_ship_writes_the_product_as_an_agent_that_loads_and_plays_as_the_recipe_says(whole, target, tmp_path):
    import agents
    steps = _lineage().steps
    tiny = Recipe(agent="tiny", steps=steps[:steps.index(_lineage().by_name[target]) + 1], ship="--colour-average")
    builder = Builder(tiny, whole.root)
    assert builder.plan()[-1][:2] == (target, "done")
    assert subprocess.call(builder.ship_command(models=tmp_path), cwd=ROOT) == 0
    meta = json.loads((tmp_path / "tiny.json").read_text())
    assert meta["name"] == "tiny" and meta["play"] == "colour_average"
    assert meta["command"].startswith("python -m training.recipe tiny")
    assert recipe.compare(tmp_path / "tiny.json", builder.product(target)) == (True, 0.0)
    assert agents.load(str(tmp_path / "tiny.json")) is not None


def test_ctrl_c_passes_the_stop_on_to_the_running_step_which_checkpoints_and_the_plan_goes_on_from_there(tmp_path):
    """Ctrl-C reaches the builder alone (the steps run in sessions of their own): it sends each running step one
    SIGTERM, the step finishes its update and writes its checkpoint, and the builder says how to go on."""
    import signal
    import threading
    import time

    from training.runs import Interrupted

    long = Recipe(agent="long", steps=(Run("a", f"{TINY} --seed 1", 10_000_000),))
    builder, said = Builder(long, tmp_path), []

    def ctrl_c_once_training():  # the step's TensorBoard file appears as its training loop starts
        deadline = time.time() + 120
        while not list((tmp_path / "a" / "tb").glob("events.*")) and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(2.0)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=ctrl_c_once_training, daemon=True).start()
    with pytest.raises(Interrupted, match="stopped by SIGINT: .* run the same command again") as stopped:
        builder.build(log=said.append)
    assert stopped.value.exit_code == 130
    reached = builder.reached(long.by_name["a"])
    assert 0 < reached < 10_000_000 and reached % (16 * 8) == 0
    assert any(f"a stopped at step {reached:,}" in line for line in said)
    assert builder.plan()[0][:2] == ("a", f"at step {reached}")  # the same command goes on from there


def test_a_failing_step_stops_the_build_and_names_itself(tmp_path):
    broken = Recipe(agent="broken", steps=(Run("bad", f"{TINY} --n-envs 0", 128),))
    with pytest.raises(RuntimeError, match="step bad failed"):
        Builder(broken, tmp_path).build(log=lambda _: None)
    assert "--n-envs must be positive" in (tmp_path / "logs" / "bad.log").read_text()


def test_the_plan_of_a_fresh_build_gives_the_first_command_and_what_each_later_step_waits_on(tmp_path, capsys):
    assert recipe.main(["ppo-standard_en-2p", "--dry-run", "--dir", str(tmp_path)]) == 0
    head, *rows = capsys.readouterr().out.splitlines()
    steps = RECIPES["ppo-standard_en-2p"].steps
    assert head.startswith("ppo-standard_en-2p: ") and f"{len(steps)} steps" in head
    assert len(rows) == 2 * len(steps)  # each step: what it does in words, then its state, folder and command
    assert rows[0].startswith(" 1. distil the mean of three policies")
    assert "folder ens2p: python -m training.ppo_lean" in rows[1] and "--distill" in rows[1]
    assert rows[-4].startswith("17. a model soup of steps 15 and 16")
    assert rows[-3].endswith("folder soup42: (after steps 15 and 16)")
    assert rows[-2].startswith("18. fine-tune step 17 against a league") and rows[-2].endswith("the shipped network")
    assert rows[-1].endswith("folder league-standard_en-2p: (after step 17)")
    assert not tmp_path.joinpath("logs").exists()  # a dry run starts nothing


def test_every_step_is_said_in_words_with_its_inputs_by_number():
    for r in RECIPES.values():
        for i, step in enumerate(r.steps, 1):
            text = r.describe(step.name)
            assert step.about and "{" not in text, (r.agent, step.name, text)
            assert not any(n in text for n in r.by_name), f"{step.name}: run ids stay folder names: {text}"
            assert all(f"step {r.number(n)}" in text or f" {r.number(n)}" in text for n in step.needs)
            assert r.number(step.name) == i


@pytest.mark.parametrize("argv,message", [
    (["ppo-uno_flip-2p"], "no recipe for 'ppo-uno_flip-2p'; recipes: ppo-standard_en-2p"),
    (["ppo-standard_en-2p", "--given", "r113=runs/x.json"], "has no step 'r113'; its steps are: ens2p"),
    (["ppo-standard_en-2p", "--given", "r112=nowhere/r112.json"], "no exported policy there"),
    (["ppo-standard_en-2p", "--given", "r112"], "--given must be STEP=PATH, got 'r112'"),
    (["ppo-standard_en-2p", "--jobs", "0"], "--jobs must be at least 1, got 0"),
])
def test_bad_arguments_are_refused_with_what_was_given_and_what_is_allowed(argv, message, capsys, tmp_path):
    assert recipe.main([*argv, "--dir", str(tmp_path), "--dry-run"]) == 2
    assert message in capsys.readouterr().err


def test_paths_inside_the_repository_are_given_to_the_steps_relative_so_records_name_no_machine(tmp_path):
    assert recipe._arg(ROOT / "runs" / "x" / "agent.json") == "runs/x/agent.json"
    assert recipe._arg(tmp_path / "x.json") == str(tmp_path / "x.json")
    builder = Builder(RECIPES["ppo-standard_en-2p"], ROOT / "runs" / "recipe-test-never-built")
    assert "--runs-dir runs/recipe-test-never-built" in shlex.join(builder.command("ens2p"))

"""A strategy of your own: ``agents.load`` takes it by file or import path (a class, an agent object or a one-game
function) and a run folder still training (its latest checkpoint); the leaderboard places it beside the table's
own entrants (``training.leaderboard.place`` and ``--extra``), in the ranking, the head-to-head table and the
robustness table.  The leaderboard tests play the bots only (``entrants`` patched): what is checked is where
the extra entrant goes, not what the shipped agents win."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import agents
from agents.base import ModelMismatchError, OneGame
from uno_env import VecGame

STRATEGIES = '''
import numpy as np

class FirstLegal:  # the first legal action of each row; made with the game and seed it accepts
    def __init__(self, game=None, seed=None):
        self.game, self.seed = game, seed

    def act(self, observations, action_masks, rng=None):
        return np.asarray(action_masks).argmax(axis=1)

class NoArguments:
    name = "no-arguments"

    def act(self, observations, action_masks, rng=None):
        return np.asarray(action_masks).argmax(axis=1)

class NoAct:
    def choose(self, observations, action_masks):
        return 0

def last_legal(observation, mask):  # a one-game function
    return int(np.flatnonzero(mask)[-1])

READY = NoArguments()  # an agent object
NUMBER = 3
'''


@pytest.fixture
def mine(tmp_path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(STRATEGIES)
    return path


def plays_legal(agent, game: VecGame, steps: int = 40) -> None:
    """``agent`` moves for every seat of ``game`` for ``steps`` batches, each action legal."""
    rows = np.arange(game.batch_size)
    for _ in range(steps):
        mask = game.legal_mask()
        actions = np.asarray(agent.act(game.observe(), mask))
        assert actions.shape == (game.batch_size,) and mask[rows, actions].all()
        game.step(actions)


@pytest.mark.parametrize("text, expected", [
    ("mine.py:MyAgent", ("mine.py", "MyAgent")), ("strats/mine.py:first_legal", ("strats/mine.py", "first_legal")),
    ("package.module:Name", ("package.module", "Name")), ("heuristic", None), ("ppo-standard_en-2p", None),
    ("runs/my-run:x", None), ("mine.py:", None), (":Name", None), ("mine.py:not-a-name", None)])
def test_python_spec_reads_module_or_file_and_attribute(text, expected):
    assert agents.python_spec(text) == expected


def test_a_class_in_a_file_is_made_with_the_game_and_seed_it_accepts_and_plays_legal_actions(mine):
    game = VecGame("standard_en", 2, batch_size=16, seed=3)
    spec = f"{mine}:FirstLegal"
    assert agents.locate(spec) == ("python", None)
    agent = agents.load(spec, game=game, seed=7)
    assert type(agent).__name__ == "FirstLegal" and agent.game is game and agent.seed == 7
    assert agent.name == spec  # named by its spec: it does not name itself
    plays_legal(agent, game)
    named = agents.load(f"{mine}:NoArguments", game=game, seed=7)  # a class taking neither
    assert named.name == "no-arguments"  # its own name kept


def test_a_module_class_loads_by_import_path(tmp_path, monkeypatch):
    module = "uno_own_strategy_example"
    (tmp_path / f"{module}.py").write_text(STRATEGIES)
    monkeypatch.syspath_prepend(str(tmp_path))
    game = VecGame("standard_en", 2, batch_size=8, seed=1)
    try:
        agent = agents.load(f"{module}:FirstLegal", game=game, seed=2)
    finally:
        sys.modules.pop(module, None)
    assert type(agent).__name__ == "FirstLegal" and agent.seed == 2 and agent.name == f"{module}:FirstLegal"
    plays_legal(agent, game)
    shipped_class = agents.load("agents.bots:GreedyAgent", game=game)  # a class of the package, by its path
    assert isinstance(shipped_class, agents.GreedyAgent)


def test_a_one_game_function_is_wrapped_to_play_batches_and_an_agent_object_is_taken_as_it_is(mine):
    game = VecGame("standard_en", 2, batch_size=8, seed=4)
    fn = agents.load(f"{mine}:last_legal", game=game)
    assert isinstance(fn, OneGame) and fn.name == f"{mine}:last_legal"
    mask = game.legal_mask()
    assert (fn.act(game.observe(), mask) == [np.flatnonzero(m)[-1] for m in mask]).all()
    plays_legal(fn, game)
    ready = agents.load(f"{mine}:READY", game=game)
    assert type(ready).__name__ == "NoArguments" and ready is agents.load(f"{mine}:READY")  # the module's object
    with pytest.raises(TypeError, match="fn"):
        OneGame(3)


@pytest.mark.parametrize("attribute, words", [
    ("NoAct", "without act"), ("Missing", "has no 'Missing'"), ("NUMBER", "neither a class")])
def test_a_strategy_that_is_not_one_is_an_error_naming_it(mine, attribute, words):
    spec = f"{mine}:{attribute}"
    with pytest.raises(agents.UnknownAgentError, match=words) as err:
        agents.load(spec)
    assert spec in str(err.value)


def test_a_missing_file_or_module_is_an_error_naming_it(tmp_path):
    with pytest.raises(agents.UnknownAgentError, match="no Python file") as err:
        agents.load(f"{tmp_path}/nowhere.py:MyAgent")
    assert "nowhere.py" in str(err.value)
    with pytest.raises(agents.UnknownAgentError, match="cannot import 'no_such_strategy_module'"):
        agents.load("no_such_strategy_module:MyAgent")
    with pytest.raises(agents.UnknownAgentError, match="still training"):  # the message lists what load takes
        agents.load("no-such-agent")


def test_observation_of_a_strategy_of_your_own(mine):
    """A strategy named by its spec reads v3 for the games it joins (v3 serves both layouts: v2 is its first part),
    said from the name alone (no import); an agent object says its own layout or nothing."""
    for attribute in ("FirstLegal", "last_legal", "READY"):
        assert agents.observation_of(f"{mine}:{attribute}") == "v3"
    assert agents.observation_for(["heuristic", f"{mine}:FirstLegal"]) == "v3"
    assert agents.observation_of(OneGame(lambda o, m: 0)) is None
    v2 = OneGame(lambda o, m: 0)
    v2.observation = "v2"
    assert agents.observation_of(v2) == "v2"


# ------------------------------------------------------------------------------------------ a run still training
@pytest.fixture(scope="module")
def training_run(tmp_path_factory) -> Path:
    """A tiny ppo_lean run (v2 observation) stopped before its export: its checkpoint, no agent.json."""
    pytest.importorskip("torch", reason="the train extra is not installed")
    pytest.importorskip("sb3_contrib", reason="the train extra is not installed")
    from training import ppo_lean

    runs = tmp_path_factory.mktemp("runs")
    argv = ["--players", "2", "--opponents", "random", "--n-envs", "16", "--n-steps", "8", "--batch-size", "64",
            "--n-epochs", "2", "--net-arch", "32,32", "--no-progress", "--torch-threads", "1", "--observation", "v2",
            "--runs-dir", str(runs), "--run-name", "mine", "--total-steps", "128"]
    assert ppo_lean.main(argv) == 0
    run = runs / "mine"
    assert agents.locate(run)[0] == "export"  # finished: its exported agent
    for name in ("agent.json", "agent.pt"):  # as the run was before its export, still training
        (run / name).unlink()
    assert (run / "checkpoints" / "latest.pt").is_file()
    return run


def test_a_run_still_training_loads_from_its_latest_checkpoint_and_plays_legal_actions(training_run):
    assert agents.locate(str(training_run)) == ("checkpoint", training_run)
    assert agents.observation_of(str(training_run)) == "v2"  # its config's layout, without torch
    game = VecGame("standard_en", 2, batch_size=16, seed=11)  # a v3 game serves a v2 agent
    agent = agents.load(str(training_run), game=game)
    assert agent.name == "mine@latest" and agent.meta["trained_steps"] == 128 and agent.meta["observation"] == "v2"
    plays_legal(agent, game)
    with pytest.raises(ModelMismatchError, match="actions"):  # another game's actions: said, not played
        agents.load(str(training_run), game=VecGame("flip_jp", 2, batch_size=1))


def test_a_run_folder_without_a_checkpoint_is_unknown(tmp_path):
    (tmp_path / "empty" / "checkpoints").mkdir(parents=True)
    assert agents.locate(str(tmp_path / "empty"))[0] == "unknown"
    with pytest.raises(agents.UnknownAgentError, match="empty"):
        agents.load(str(tmp_path / "empty"))


# ------------------------------------------------------------------------------------------ on the leaderboard
@pytest.fixture
def bots_only(monkeypatch):
    """The table's own entrants cut to the bots: the shipped agent's matches are the slow ones."""
    pytest.importorskip("torch", reason="the train extra is not installed")
    from training import leaderboard
    monkeypatch.setattr(leaderboard, "entrants", lambda rules, players: list(leaderboard.BOTS))
    return leaderboard


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("leaderboard")  # shared: the bots' matches are played once


def test_place_puts_your_strategies_in_the_ranking_the_head_to_head_and_the_robustness_tables(
        bots_only, work, mine, training_run):
    from agents import flawed
    leaderboard = bots_only
    spec, run = f"{mine}:FirstLegal", str(training_run)
    t = leaderboard.place([spec, training_run, OneGame(lambda o, m: int(np.flatnonzero(m)[0]), name="fn")],
                          "standard_en", 2, rounds=40, work=work, log=lambda s: None)
    mine_ = [spec, run, "fn"]
    assert t["extra"] == mine_ and t["entrants"] == [*leaderboard.BOTS, *mine_]
    assert sorted(t["ranking"]) == sorted(t["entrants"])
    for name in mine_:
        assert set(t["head_to_head"][name]) == set(t["entrants"]) - {name}
        assert all(h["rounds"] <= 40 for h in t["head_to_head"][name].values())
        assert set(t["robustness"]["results"][name]) == set(flawed.gauntlet("standard_en"))
        assert name in t["ratings"] and t["cost_per_decision"][name]["decisions"] > 0
    # the same deals: the function and the class play alike (the first legal action), so their rounds match
    assert t["head_to_head"][spec]["random"]["wins"] == t["head_to_head"]["fn"]["random"]["wins"]
    assert t["head_to_head"]["heuristic"][spec]["win_rate"] > 0.5
    lines = leaderboard.table_lines(t)
    assert any(f"`{spec}`" in line and line.startswith("| ") for line in lines)
    assert any(line.startswith("#### Robustness") for line in lines)


def test_an_extra_may_not_take_a_name_of_the_table_and_two_extras_not_one_name(work):
    pytest.importorskip("torch", reason="the train extra is not installed")
    from training import leaderboard

    class Named:
        def __init__(self, name):
            self.name = name

        def act(self, observations, action_masks, rng=None):
            return np.asarray(action_masks).argmax(axis=1)

    for name in ("heuristic", "ppo-standard_en-2p"):  # a bot, a shipped agent: refused before a match is played
        with pytest.raises(ValueError, match=name):
            leaderboard.place([Named(name)], "standard_en", 2, rounds=40, work=work, log=lambda s: None)
    with pytest.raises(ValueError, match="two extra entrants are named 'twin'"):
        leaderboard.place([Named("twin"), Named("twin")], "standard_en", 2, rounds=40, work=work)


def test_the_command_places_an_extra_by_file_prints_its_table_and_writes_the_json(
        bots_only, work, mine, monkeypatch, capsys):
    leaderboard = bots_only
    monkeypatch.chdir(mine.parent)
    out = mine.parent / "out" / "x.json"
    argv = ["--extra", "mine.py:FirstLegal", "--presets", "standard_en", "--sizes", "2", "--rounds", "40",
            "--work-dir", str(work), "--out", str(out)]
    assert leaderboard.main(argv) == 0
    printed = capsys.readouterr().out
    assert "### 2 players" in printed and "| `mine.py:FirstLegal` |" in printed and f"wrote {out}" in printed
    data = json.loads(out.read_text())
    (t,) = data["tables"]
    assert data["extra"] == ["mine.py:FirstLegal"] and data["quick"] is True
    assert "mine.py:FirstLegal" in t["ranking"] and "mine.py:FirstLegal" in t["robustness"]["results"]
    with pytest.raises(SystemExit) as bad:  # what names no strategy: the parser's error, exit 2
        leaderboard.main(["--extra", "no/such/run", "--presets", "standard_en", "--sizes", "2", "--rounds", "40"])
    assert bad.value.code == 2 and "no/such/run" in capsys.readouterr().err


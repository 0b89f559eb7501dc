"""Agents given by name to the environments (``uno_env.opponents``): found through the agent loaders that
installed packages declare (entry points of ``uno_env.agents``), so that ``uno_env`` never imports ``agents``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import agents
from uno_env import VecGame, opponents
from uno_env.analysis import simulate_rounds
from uno_env.learner import LearnerGames

ROOT = Path(__file__).resolve().parent.parent


class Entry:
    """An entry point as ``importlib.metadata`` gives it: a name, and ``load()`` for the object it names."""

    def __init__(self, name: str, obj):
        self.name, self.obj = name, obj

    def load(self):
        return self.obj


class AlwaysFirst:
    """A researcher's agent: the first legal action."""

    name = "always-first"
    observation = "v2"

    def act(self, observations, masks, rng=None):
        return np.asarray(masks).argmax(1)


class Loader:
    """A researcher's loader: knows ``always-first`` only."""

    @staticmethod
    def load(name, game=None, seed=None):
        if name != "always-first":
            raise LookupError(f"my loader knows always-first, not {name!r}")
        return AlwaysFirst()


def with_loaders(monkeypatch, *entries):
    monkeypatch.setattr(opponents, "entry_points", lambda group: list(entries) if group == opponents.GROUP else [])


def test_the_project_declares_its_agents_package_as_a_loader_and_the_install_says_so():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][opponents.GROUP]
    assert declared == {"agents": "agents"}
    assert opponents.loaders() == [agents], (
        "the installed package metadata declares no agent loader: reinstall it (pip install --no-deps -e .)")


def test_names_load_as_agents_load_them_with_the_same_seeds():
    env = LearnerGames("standard_en", 2, num_envs=4, opponents=["heuristic", "random"], seed=7)
    assert [type(a) for a in env.opponents] == [agents.HeuristicAgent, agents.RandomAgent]
    mine = agents.load("random", seed=7 + 1000 + 1)
    assert env.opponents[1].rng.bit_generator.state == mine.rng.bit_generator.state


def test_an_unknown_name_is_the_loaders_own_error():
    with pytest.raises(ValueError, match="unknown agent 'nobody'; agents are"):
        LearnerGames(opponents="nobody")
    with pytest.raises(LookupError):  # what tells the next loader to try
        opponents.load("nobody")


def test_without_a_loader_a_name_is_refused_and_agent_objects_still_play(monkeypatch):
    with_loaders(monkeypatch)
    with pytest.raises(ValueError, match="'heuristic' names an agent, and no installed package declares an agent "
                                         "loader .*pass agent objects instead"):
        LearnerGames(opponents="heuristic")
    env = LearnerGames(opponents=AlwaysFirst(), num_envs=2, seed=1)
    env.step(env.action_masks().argmax(1))
    # with no loader nothing says what "heuristic" reads: it is served the default (v3, VecGame's and every env's)
    assert opponents.observation_for(["heuristic", AlwaysFirst()]) == "v3"
    assert opponents.observation_for([AlwaysFirst()]) == "v2"


def test_a_researchers_loader_adds_names_and_the_projects_is_asked_first(monkeypatch):
    with_loaders(monkeypatch, Entry("aaa-mine", Loader), Entry("agents", agents))
    assert opponents.loaders() == [agents, Loader]
    env = LearnerGames(opponents=["always-first", "heuristic"], num_envs=2, seed=1)
    assert [type(a) for a in env.opponents] == [AlwaysFirst, agents.HeuristicAgent]
    rec = simulate_rounds("standard_en", 2, 4, ["always-first", "heuristic"], batch_size=4, seed=0)
    assert len(rec) == 4
    with pytest.raises(ValueError, match="unknown agent 'nobody'.*; my loader knows always-first, not 'nobody'"):
        opponents.load("nobody")


def test_the_layout_of_a_game_comes_from_the_agents_metadata(tmp_path):
    from helpers import export_agent

    pytest.importorskip("sb3_contrib")
    path = str(export_agent(tmp_path / "tiny", 2).with_suffix(""))
    assert opponents.observation_for([path, "heuristic"]) == agents.observation_for([path, "heuristic"]) == "v3"
    assert opponents.observation_for(["heuristic", "random"]) == "v2"
    assert opponents.observation_of(agents.load(path, game=VecGame("standard_en", 2))) == "v3"


class Undeclared(AlwaysFirst):
    """An agent that does not say which layout it reads."""

    observation = None


def test_one_decision_gives_the_layout_and_memory_a_lineup_needs():
    assert opponents.layout_for(["heuristic", "random"]) == {"observation": "v2", "memory": False}  # bots: v2
    assert opponents.layout_for([]) == {"observation": "v2", "memory": False}  # nobody observes
    assert opponents.layout_for("heuristic") == {"observation": "v2", "memory": False}  # one name alone
    assert opponents.layout_for(["heuristic", AlwaysFirst()]) == {"observation": "v2", "memory": False}
    assert opponents.layout_for(["heuristic", Undeclared()]) == {"observation": "v3", "memory": True}  # the default
    # a learner's own layout, the memory kept when anyone at the table reads v3
    assert opponents.layout_for("heuristic", learner="v2") == {"observation": "v2", "memory": False}
    assert opponents.layout_for("heuristic", learner="v3") == {"observation": "v3", "memory": True}
    assert opponents.layout_for(Undeclared(), learner="v2") == {"observation": "v2", "memory": True}


def test_the_memory_is_decided_apart_from_the_layout():
    from uno_env import VecGame
    from uno_env.table import Table
    assert VecGame(batch_size=2).state.memory is not None and VecGame(observation="v2").state.memory is None
    v2_with_memory = VecGame(batch_size=2, seed=1, observation="v2", memory=True)
    plain = VecGame(batch_size=2, seed=1, observation="v2")
    assert v2_with_memory.state.memory is not None and v2_with_memory.observation_size == plain.observation_size
    for _ in range(30):  # the same games and v2 observations, the memory kept beside them
        actions = plain.legal_mask().argmax(1)
        v2_with_memory.step(actions)
        plain.step(actions)
        assert np.array_equal(v2_with_memory.observe(), plain.observe())
    with pytest.raises(ValueError, match="memory=False is not allowed with observation='v3'"):
        VecGame(memory=False)
    with pytest.raises(ValueError, match="memory='yes' is not allowed"):
        VecGame(memory="yes")
    table = Table()  # a table's defaults are VecGame's
    assert table.game.observer.version == VecGame().observer.version and table.game.state.memory is not None

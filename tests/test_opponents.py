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
    assert opponents.observation_for(["heuristic", AlwaysFirst()]) == "v2"  # nothing says v3


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

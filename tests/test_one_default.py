"""One observation default everywhere: ``VecGame`` observes what every environment observes (layout v3), and
an agent handed observations of another width says so, naming both sizes, instead of failing deep inside."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import PRESET_NAMES, export_agent

import agents
from agents.base import ModelMismatchError
from uno_env import VecGame, uno_v4


@pytest.mark.parametrize("rules", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_vecgame_observes_the_envs_default_layout(rules, players):
    env = uno_v4.env(rules=rules, num_players=players)
    env.reset(seed=0)
    width = env.observation_space(env.possible_agents[0])["observation"].shape[0]
    game = VecGame(rules, players, batch_size=3, seed=0)
    assert game.observer.version == "v3"
    assert game.observe().shape == (3, width)
    assert VecGame.from_position(game.snapshot(0)).observation_size == width


def test_v2_stays_available_and_is_the_first_part_of_v3():
    v2, v3 = (VecGame("standard_en", 4, batch_size=2, seed=5, observation=o) for o in ("v2", "v3"))
    assert v2.observation_size < v3.observation_size
    np.testing.assert_array_equal(v3.observe()[:, :v2.observation_size], v2.observe())


def test_a_bot_given_observations_of_another_game_names_both_sizes():
    bot = agents.load("heuristic", game=VecGame("standard_en", 2))
    other = VecGame("standard_en", 4, batch_size=2, seed=0)
    with pytest.raises(ModelMismatchError, match=r"283 or 993 .* got 1273"):
        bot.act(other.observe(), other.legal_mask())


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    return export_agent(tmp_path_factory.mktemp("models") / "tiny-4p", 4)


def test_a_policy_given_the_v2_layout_names_both_sizes(tiny):
    from agents.policy import PolicyAgent

    policy = PolicyAgent.load(tiny)
    v2, v3 = (VecGame("standard_en", 4, batch_size=2, seed=0, observation=o) for o in ("v2", "v3"))
    with pytest.raises(ModelMismatchError, match=rf"reads observations of {v3.observation_size} numbers, "
                                                 rf"got {v2.observation_size}"):
        policy.act(v2.observe(), v2.legal_mask())
    with pytest.raises(ModelMismatchError, match=r"chooses among 74 actions, got action masks of 72"):
        policy.act(v3.observe(), np.ones((2, 72), bool))
    assert policy.act(v3.observe(), v3.legal_mask()).shape == (2,)


def test_a_colour_averaged_policy_given_the_v2_layout_names_both_sizes(tiny):
    player = agents.load(f"{tiny.with_suffix('')}~colours")  # no game: it builds the one its metadata names
    v2 = VecGame("standard_en", 4, batch_size=2, seed=0, observation="v2")
    with pytest.raises(ModelMismatchError, match=rf"reads observations of 1273 numbers, got {v2.observation_size}"):
        player.act(v2.observe(), v2.legal_mask())
    game = VecGame("standard_en", 4, batch_size=2, seed=0)  # the default layout fits
    assert player.act(game.observe(), game.legal_mask()).shape == (2,)


def test_model_mismatch_error_is_still_importable_from_agents_policy():
    from agents.policy import ModelMismatchError as same
    assert same is ModelMismatchError and issubclass(same, ValueError)

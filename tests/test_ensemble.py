"""Policy ensembles (``agents.ensemble``): trained policies that play as one by averaging their action
probabilities, loaded as ``agents.load("a+b")``."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import V2_AGENTS, export_agent

import agents
from agents.ensemble import EnsembleAgent
from uno_env import VecGame

pytest.importorskip("sb3_contrib")


def _positions(players: int = 2, games: int = 64, steps: int = 30, seed: int = 0):
    """Observations and masks of the seats to move in ``games`` v3 games after random play."""
    game = VecGame("standard_en", players, batch_size=games, seed=seed, observation="v3")
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    for _ in range(steps):
        obs.append(game.observe())
        masks.append(game.legal_mask())
        game.step(agents.RandomAgent().act(obs[-1], masks[-1], rng))
    return game, np.concatenate(obs), np.concatenate(masks)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """An untrained v3 2-player policy (another layout and network than the v2 agent)."""
    return str(export_agent(tmp_path_factory.mktemp("models") / "tiny-2p", 2).with_suffix(""))


def test_an_ensembles_probabilities_are_its_members_mean_and_zero_on_illegal_actions(tiny):
    game, obs, mask = _positions()
    v2, small = agents.load(V2_AGENTS[2], game=game), agents.load(tiny, game=game)
    ens = agents.load(f"{V2_AGENTS[2]}+{tiny}", game=game)
    assert isinstance(ens, EnsembleAgent) and ens.observation == "v3"  # the v3 member needs the memory
    p = ens.probabilities(obs, mask)
    np.testing.assert_allclose(p, (v2.probabilities(obs, mask) + small.probabilities(obs, mask)) / 2, atol=1e-6)
    assert (p[~mask] == 0).all()
    np.testing.assert_allclose(p.sum(1), 1, atol=1e-5)
    chosen = ens.act(obs, mask)
    assert mask[np.arange(len(obs)), chosen].all()
    assert (chosen == p.argmax(1)).all()
    # the members disagree somewhere, so the mean is not just one of them
    assert (v2.act(obs, mask) != small.act(obs, mask)).any()


def test_a_policy_ensembled_with_itself_plays_exactly_as_it_does():
    game, obs, mask = _positions()
    one = agents.load(V2_AGENTS[2], game=game)
    two = agents.load(f"{V2_AGENTS[2]}+{V2_AGENTS[2]}", game=game)
    assert (two.act(obs, mask) == one.act(obs, mask)).all()


def test_a_sampling_ensemble_repeats_its_choices_with_the_same_generator(tiny):
    game, obs, mask = _positions()
    ens = EnsembleAgent([agents.load(V2_AGENTS[2], game=game), agents.load(tiny, game=game)],
                        deterministic=False)
    a = ens.act(obs, mask, np.random.default_rng(3))
    assert (a == ens.act(obs, mask, np.random.default_rng(3))).all()
    assert mask[np.arange(len(obs)), a].all()


def test_an_ensemble_says_which_layout_its_game_needs_from_the_metadata_alone(tiny):
    assert agents.observation_of(f"{V2_AGENTS[2]}+{V2_AGENTS[2]}") == "v2"
    assert agents.observation_of(f"{V2_AGENTS[2]}+{tiny}") == "v3"
    assert agents.observation_for([f"{V2_AGENTS[2]}+{tiny}", "heuristic"]) == "v3"


@pytest.mark.parametrize("spec, message", [
    ("ppo-standard_en-2p+heuristic", "gives none"),
    ("ppo-standard_en-2p+", "empty member"),
    ("ppo-standard_en-2p+no-such-agent", "unknown agent 'no-such-agent'"),
])
def test_a_bad_ensemble_is_a_clear_error(spec, message):
    game = VecGame("standard_en", 2, observation="v3")
    with pytest.raises(ValueError, match=message):
        agents.load(spec, game=game)


def test_an_ensemble_of_one_is_refused():
    with pytest.raises(ValueError, match="at least two"):
        EnsembleAgent([agents.load(V2_AGENTS[2])])


def test_evaluate_seats_an_ensemble_by_name(tiny):
    from training.evaluate import play_match

    result = play_match([f"{V2_AGENTS[2]}+{tiny}", "heuristic"], num_players=2, games=8, seed=1)
    assert result.entries[0].agent == f"{V2_AGENTS[2]}+{tiny}" and sum(e.wins for e in result.entries) == 8

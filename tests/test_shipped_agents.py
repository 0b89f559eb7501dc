"""Every shipped agent loads by name on the preset and table size it was trained for and plays a whole round
of the PettingZoo AEC env there, in every seat, choosing only legal actions."""

import json

import pytest

pytest.importorskip("torch")

import agents  # noqa: E402
from uno_env import uno_v4  # noqa: E402


@pytest.mark.parametrize("name", agents.shipped())
def test_a_shipped_agent_plays_a_round_of_its_preset_through_the_aec_env(name):
    meta = json.loads((agents.MODELS / f"{name}.json").read_text())
    assert name == f"ppo-{meta['rules']}-{meta['players']}p"
    env = uno_v4.env(rules=meta["rules"], num_players=meta["players"])
    env.reset(seed=5)
    game = env.unwrapped.game
    policy = agents.load(name, game=game)
    decisions = 0
    for _agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"].astype(bool)[None]
        action = int(policy.act(observation["observation"][None], mask)[0])
        assert mask[0, action]
        env.step(action)
        decisions += 1
    assert decisions > 0


def test_every_preset_the_project_ships_agents_for_has_both_table_sizes():
    names = agents.shipped()
    for rules in {n.split("-")[1] for n in names}:
        assert {f"ppo-{rules}-2p", f"ppo-{rules}-4p"} <= set(names), rules

"""The PettingZoo AEC environment: PettingZoo's own tests, masks, positions, illegal actions, pickling."""

import copy
import pickle
import warnings

import numpy as np
import pytest
from helpers import PRESET_PLAYERS
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import average_total_reward

from uno_env import IllegalActionError, PositionError, records, uno_v4

API_CASES = PRESET_PLAYERS


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("rules,players", API_CASES)
def test_pettingzoo_api_test_passes(rules, players):
    api_test(uno_v4.env(rules=rules, num_players=players), num_cycles=200)


@pytest.mark.parametrize("rules,players", API_CASES)
def test_pettingzoo_seed_test_passes(rules, players):
    seed_test(lambda: uno_v4.env(rules=rules, num_players=players), num_cycles=200)


def _play(env, seed=0, limit=100000):
    """Random legal play to the end of the episode; returns each agent's final reward."""
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


def test_only_the_agent_asked_has_a_mask():
    env = uno_v4.env(num_players=4)
    env.reset(seed=1)
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any() == (agent == env.agent_selection)


def test_rewards_per_round_are_plus_one_for_the_winner_and_minus_one_for_the_others():
    env = uno_v4.env(num_players=3)
    env.reset(seed=2)
    final = _play(env)
    assert sorted(final.values()) == [-1.0, -1.0, 1.0]


def test_episode_game_plays_rounds_until_the_target():
    env = uno_v4.env(num_players=2, episode="game", target=60)
    env.reset(seed=3)
    raw = env.unwrapped
    final = _play(env, seed=1)
    assert sorted(final.values()) == [-1.0, 1.0]
    assert raw.game.state.game_over[0]
    assert max(raw.game.state.scores[0]) >= 60


def test_reset_with_a_setup_builds_the_position_and_snapshot_returns_it():
    env = uno_v4.env(num_players=2)
    setup = {"rules": "standard_en", "players": 2, "hands": ["G3 B9 R1", "Y4 Y2"], "discard": "R7",
             "draw_pile": "R2", "to_move": 0}
    env.reset(options={"setup": setup})
    snap = env.unwrapped.snapshot()
    assert snap["hands"] == ["R1 G3 B9", "Y2 Y4"] and snap["to_move"] == 0
    assert sorted(snap["legal"]) == ["draw", "play R1"]
    assert env.agent_selection == "player_0"
    env.step(env.unwrapped.action_index("draw"))
    assert env.unwrapped.legal_actions() == ["play R2", "keep"]


def test_a_setup_for_other_rules_is_a_clear_error():
    env = uno_v4.env(num_players=2)
    with pytest.raises(PositionError, match="this game is 'standard_en' with 2 players"):
        env.reset(options={"setup": {"rules": "flip_jp", "players": 2, "hands": ["R7/O1", "B5/P9"],
                                     "discard": "R6/O9", "to_move": 0}})


def test_action_names_and_indices_round_trip():
    raw = uno_v4.raw_env(rules="solo_bga", num_players=3)
    for i in range(raw.action_space("player_0").n):
        assert raw.action_index(raw.action_name(i)) == i
    assert raw.action_name(raw.action_index("play RX @2")) == "play RX @2"
    with pytest.raises(ValueError, match="unknown action 'play R0'"):
        raw.action_index("play R0")


def test_an_illegal_action_raises_under_raise_and_changes_nothing():
    env = uno_v4.env(num_players=2, illegal_action="raise")
    env.reset(seed=4)
    raw = env.unwrapped
    before = raw.snapshot()
    illegal = int(np.flatnonzero(~raw.game.state.mask[0])[0])
    expected = f"illegal action '{raw.action_name(illegal)}' for seat .* legal actions are: "
    with pytest.raises(IllegalActionError, match=expected):
        env.step(illegal)
    assert raw.snapshot() == before


@pytest.mark.parametrize("action", [-1, 10_000, 1.5, "draw", None, True])
def test_an_action_that_is_not_an_id_is_a_clear_error(action):
    env = uno_v4.env(num_players=2)
    env.reset(seed=4)
    with pytest.raises(ValueError, match="action"):
        env.step(action)


def test_an_illegal_move_ends_the_episode_by_default_with_minus_one_for_the_offender():
    """PettingZoo's classic convention (TerminateIllegalWrapper): -1 for the offender, 0 for the others."""
    env = uno_v4.env(num_players=3)
    env.reset(seed=5)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert {a: env.unwrapped._cumulative_rewards[a] for a in env.agents} == {
        a: (-1.0 if a == agent else 0.0) for a in env.agents}
    assert env.infos[agent]["illegal_action"] == env.unwrapped.action_name(illegal)


def test_pettingzoo_average_total_reward_runs_unchanged():
    """It samples from the action space without the mask: illegal moves end episodes with -1."""
    assert average_total_reward(uno_v4.env(num_players=2), max_episodes=20) <= 0


@pytest.mark.parametrize("masked", [True, False])
def test_the_random_play_loop_of_pettingzoo_classic_docs_runs_unchanged(masked):
    env = uno_v4.env(num_players=4)
    env.reset(seed=42)
    episodes_ended = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
            episodes_ended += 1
        elif masked:
            mask = observation["action_mask"]
            action = env.action_space(agent).sample(mask)
        else:
            action = env.action_space(agent).sample()
        env.step(action)
    env.close()
    assert episodes_ended == 4


def test_pettingzoo_make_finds_the_env_by_id():
    pz = pytest.importorskip("pettingzoo.env_registry.registration")
    env = pz.make("aec", "uno_env/uno-v4", num_players=3)
    assert env.metadata["name"] == "uno_v4" and len(env.possible_agents) == 3


@pytest.mark.parametrize("rules,players", [("standard_en", 4), ("flip_jp", 3)])
def test_state_is_the_full_state_in_state_space_the_same_for_every_agent(rules, players):
    env = uno_v4.env(rules=rules, num_players=players)
    env.reset(seed=8)
    raw = env.unwrapped
    F = raw.game.engine.F
    for _ in range(10):
        state = raw.state()
        assert raw.state_space.contains(state)
        hand = raw.game.observer.slots["hand"]
        obs_size = raw.game.observation_size
        held = state[hand.start:hand.stop].sum() + state[obs_size:obs_size + (players - 1) * F].sum()
        assert held == raw.game.state.hand_n[0].sum()  # every hand, not only one seat's
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_the_env_records_its_episodes_and_they_replay(tmp_path):
    path = tmp_path / "aec.jsonl"
    env = uno_v4.env(num_players=3, episode="round", record=path)
    for seed in (1, 2, 3):
        env.reset(seed=seed)
        _play(env, seed)
    env.reset(options={"setup": {"rules": "standard_en", "players": 3, "hands": ["R1 G2", "R2 Y2", "R5 G6"],
                                 "discard": "R7", "to_move": 0}})
    _play(env, 4)
    env.close()
    recs = list(records.read_records(path))
    assert [r.seed for r in recs[:3]] == [1, 2, 3] and recs[3].start is not None
    assert recs[0].agents == ["player_0", "player_1", "player_2"] and recs[0].env == "uno_v4"
    for r in recs:
        records.check(r)


def test_illegal_action_penalty_draws_two_and_passes_the_turn():
    env = uno_v4.env(num_players=3, illegal_action="penalty")
    env.reset(options={"setup": {"rules": "standard_en", "players": 3, "hands": ["R1 G2 B3", "R2 Y2", "R5 G6"],
                                 "discard": "R7", "to_move": 0}})
    env.step(env.unwrapped.action_index("play G2"))  # does not match R7
    snap = env.unwrapped.snapshot()
    assert [len(h.split()) for h in snap["hands"]] == [5, 2, 2]
    assert env.agent_selection == "player_1"


def test_an_illegal_action_is_reported_in_the_info_of_its_step_only():
    env = uno_v4.env(num_players=3, illegal_action="penalty")
    env.reset(seed=3)
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0]))
    assert "illegal_action" in env.infos[agent]
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert not any("illegal_action" in i for i in env.infos.values())


def test_reset_without_a_seed_after_a_seeded_reset_is_reproducible_and_deals_anew():
    def hands_after_two_resets():
        env = uno_v4.env(num_players=2)
        env.reset(seed=1)
        first = env.unwrapped.snapshot()["hands"]
        env.reset()
        return first, env.unwrapped.snapshot()["hands"]
    first, second = hands_after_two_resets()
    assert hands_after_two_resets() == (first, second) and second != first


def test_a_position_whose_round_is_over_ends_the_episode_at_once():
    env = uno_v4.env(num_players=2)
    env.reset(options={"setup": {"rules": "standard_en", "players": 2, "hands": ["", "Y4 Y2"], "discard": "R7",
                                 "to_move": None, "phase": "over", "winner": 0, "round_points": 6}})
    seen = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        seen[agent] = (reward, terminated)
        env.step(None)
    assert seen == {"player_0": (1.0, True), "player_1": (-1.0, True)}


def test_render_ansi_shows_the_table_and_the_last_moves():
    env = uno_v4.env(num_players=3, render_mode="ansi")
    env.reset(seed=6)
    for _ in range(5):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    text = env.render()
    assert "standard_en - 3 players" in text and "top:" in text and "last moves:" in text
    assert "\x1b[" in text  # coloured cards


def test_render_human_prints(capsys):
    env = uno_v4.env(num_players=2, render_mode="human")
    env.reset(seed=6)
    assert "to act" in capsys.readouterr().out


def test_bad_constructor_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="render_mode='rgb_array' is not supported"):
        uno_v4.env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="episode='match' is not allowed"):
        uno_v4.env(episode="match")
    with pytest.raises(ValueError, match="illegal_action='ignore' is not allowed"):
        uno_v4.env(illegal_action="ignore")


@pytest.mark.parametrize("rules", ["standard_en", "flip_jp", "solo_bga"])
def test_the_env_pickles_and_deep_copies_mid_game(rules):
    env = uno_v4.env(rules=rules, num_players=3)
    env.reset(seed=7)
    for _ in range(15):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    for make_clone in (lambda e: pickle.loads(pickle.dumps(e)), copy.deepcopy):
        clone = make_clone(env)
        assert clone.unwrapped.snapshot() == env.unwrapped.snapshot()
        assert clone.agent_selection == env.agent_selection
        for e in (env, clone):
            obs, *_ = e.last()
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert clone.unwrapped.snapshot() == env.unwrapped.snapshot()


def test_max_turns_per_round_is_reported_as_truncation():
    env = uno_v4.env(num_players=4, max_turns_per_round=10)
    env.reset(seed=8)
    raw = env.unwrapped
    while not raw.truncations[env.agent_selection]:
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(raw.truncations.values()) and not any(raw.terminations.values())
    assert raw.game.state.truncated[0]


def test_a_retired_env_version_fails_with_an_error_naming_the_current_one():
    with pytest.raises(ImportError, match=r"uno_v0 is retired; use uno_v4 \(.*9 and 10 players"):
        from uno_env import uno_v0  # noqa: F401
    with pytest.raises(ImportError, match=r"uno_v1 is retired; use uno_v4 \(.*drawn_card_play='never'"):
        from uno_env import uno_v1  # noqa: F401
    with pytest.raises(ImportError, match=r"uno_v3 is retired; use uno_v4 \(.*empty draw pile"):
        from uno_env import uno_v3  # noqa: F401


def test_a_game_episode_goes_on_past_rounds_that_end_at_their_deal():
    """With one-card hands under house_cn, forced moves end many rounds at their deal; in a game
    episode the env deals on until a seat has a decision or the game is over, so the agent selected
    always has a legal action."""
    env = uno_v4.env(rules="house_cn", num_players=3, hand_size=1, episode="game")
    rng = np.random.default_rng(0)
    for episode in range(8):
        env.reset(seed=episode)
        for agent in env.agent_iter(max_iter=20000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any(), (episode, agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.unwrapped.game.state.game_over[0]


def test_the_env_keeps_pettingzoos_order_enforcing_contract(caplog):
    """``env()`` is an ``OrderEnforcingWrapper`` (a subclass whose loop calls skip ``__getattr__``): the same
    errors before ``reset``, the same check that the loop steps, the same warning after the episode."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = uno_v4.env(num_players=2)
    assert isinstance(env, OrderEnforcingWrapper) and str(env) == "uno_v4"
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        env.last()
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = env.agent_selection
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.agent_iter()):
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called"):
            call()
    env.reset(seed=2)
    it = iter(env.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)  # no step since the last agent
    env.reset(seed=2)
    final = _play(env, seed=2)
    assert set(final) == {"player_0", "player_1"} and not env.agents
    env.step(None)  # after the episode: PettingZoo's warning (logged), nothing else
    assert "step() called after all agents are terminated or truncated" in caplog.text


def test_observing_again_before_a_step_gives_the_same_observation_in_a_new_array():
    """``observe`` keeps the last vector it encoded until the next step or reset (PettingZoo's SB3 tutorial asks
    for the observation, then the mask): a copy, equal to a fresh encoding, which the caller may change."""
    env = uno_v4.env(rules="flip_jp", num_players=3)
    raw = env.unwrapped
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    for _ in range(60):
        agent = env.agent_selection
        first = env.observe(agent)
        fresh = raw.game.observer.observe_one(raw.game.state, raw._seat[agent])
        first["observation"][:] = -1  # the caller's array: the next answer does not change
        again, _, term, trunc, _ = env.last()
        assert np.array_equal(again["observation"], fresh) and again["observation"] is not first["observation"]
        assert np.array_equal(again["action_mask"], raw.game.state.mask[0]) and again["action_mask"].dtype == np.int8
        other = raw.possible_agents[(raw._seat[agent] + 1) % 3]  # another seat: its own vector, no mask
        assert not env.observe(other)["action_mask"].any()
        assert np.array_equal(env.observe(agent)["observation"], fresh)
        if term or trunc:
            env.reset()
        else:
            env.step(int(rng.choice(np.flatnonzero(again["action_mask"]))))


def test_the_history_names_the_last_moves_in_order():
    env = uno_v4.env(num_players=2, illegal_action="penalty")
    raw = env.unwrapped
    env.reset(seed=3)
    names = []
    for _ in range(30):
        obs, *_ = env.last()
        a = int(np.flatnonzero(obs["action_mask"])[-1])
        names.append(raw.action_name(a))
        env.step(a)
    moves = [name for _, name in raw.history]
    assert len(moves) == 12 and all(isinstance(seat, int) for seat, _ in raw.history)
    assert set(moves) <= set(raw.game.action_names)
    illegal = int(np.flatnonzero(~raw.game.state.mask[0])[0])
    seat = raw._seat[env.agent_selection]
    env.step(illegal)
    assert raw.history[-1] == (seat, f"{raw.action_name(illegal)} (illegal: draws 2)") or \
        raw.history[-2] == (seat, f"{raw.action_name(illegal)} (illegal: draws 2)")

"""Training environments: SB3 VecEnv contract, Gymnasium VectorEnv (NEXT_STEP), single-game Env."""

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

pytest.importorskip("stable_baselines3")  # the "train" extra: this file skips, and says so, without it

from uno_env.sb3 import UnoVecEnv  # noqa: E402
from uno_env.vector import UnoEnv, UnoVectorEnv  # noqa: E402


def _play_first(mask, rng, engine):
    return ((rng.random(mask.shape) + (engine.A_KIND == 0)) * mask).argmax(1)


def test_sb3_vecenv_asks_the_learner_every_step_and_restarts_finished_episodes():
    env = UnoVecEnv("standard_en", 3, num_envs=32, opponents="random", seed=0)
    obs = env.reset()
    acting = env.games.game.observer.slots["acting"]
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        assert (obs[:, acting.start] == 1).all()  # relative seat 0 (the learner) is asked
        masks = np.stack(env.env_method("action_masks"))  # what MaskablePPO reads
        assert masks.shape == (32, env.action_space.n) and masks.any(1).all()
        obs, rewards, dones, infos = env.step(_play_first(masks, rng, env.games.game.engine))
        for i in np.flatnonzero(dones):
            episodes += 1
            term = infos[i]["terminal_observation"]
            assert term.shape == obs[i].shape and not np.array_equal(term, obs[i])
            assert rewards[i] in (-1.0, 1.0) and infos[i]["TimeLimit.truncated"] is False
        assert (rewards[~dones] == 0).all()
    assert episodes > 0


def test_sb3_vecenv_rewards_follow_the_learner_seat():
    env = UnoVecEnv("standard_en", 2, num_envs=64, opponents="random", seed=1)
    env.reset()
    rng = np.random.default_rng(1)
    total, n = 0.0, 0
    for _ in range(400):
        obs, r, d, _ = env.step(_play_first(env.action_masks(), rng, env.games.game.engine))
        total += r[d].sum()
        n += d.sum()
    assert n > 50 and total / n > 0.2  # playing first beats uniform random, who often draws at will


def test_sb3_vecenv_opponents_can_be_a_mix_and_replaced():
    env = UnoVecEnv("house_cn", 4, num_envs=8, opponents=["random", "random"], seed=2)
    env.reset()
    env.set_opponents("random")
    env.step(env.action_masks().argmax(1))
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        env.set_opponents("nobody")


def test_gymnasium_env_checker_passes_for_the_single_game_env():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(UnoEnv("standard_en", 2), skip_render_check=True)
        check_env(UnoEnv("flip_jp", 3), skip_render_check=True)


def test_single_env_illegal_action_policies():
    env = UnoEnv("standard_en", 2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, info["illegal_action"]) == (-1.0, True, env.games.game.action_name(illegal))
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    raising = UnoEnv("standard_en", 2, illegal_action="raise")
    raising.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        raising.step(int(np.flatnonzero(~raising.action_masks())[0]))


def test_single_env_penalty_mode_ends_the_episode_when_an_opponent_goes_out_after_the_penalty():
    env = UnoEnv("standard_en", 4, illegal_action="penalty")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    ended_on_penalty = 0
    for _ in range(3000):
        mask = info["action_mask"]
        illegal = rng.random() < 0.3
        a = int(rng.choice(np.flatnonzero(~mask if illegal else mask)))
        _, reward, term, trunc, info = env.step(a)
        assert env.games.rounds_without_learner == 0  # no round is dealt again behind the learner's back
        if term or trunc:
            ended_on_penalty += illegal
            assert reward in (-1.0, 1.0) and "winner" in info
            _, info = env.reset()
    assert ended_on_penalty > 0


def test_vector_env_autoresets_on_the_next_step():
    env = UnoVectorEnv("standard_en", 2, num_envs=16, seed=3)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    waiting = np.zeros(16, bool)
    seen = 0
    for _ in range(300):
        a = _play_first(info["action_mask"], rng, env.games.game.engine)
        obs, r, term, trunc, info = env.step(a)
        assert (r[waiting] == 0).all() and not (term[waiting] | trunc[waiting]).any()
        assert info["action_mask"][term | trunc].all()  # ignored next action: a safe all-True mask
        waiting = term | trunc
        seen += waiting.sum()
    assert seen > 0 and env.metadata["autoreset_mode"].name == "NEXT_STEP"


def test_maskable_ppo_trains_on_the_vecenv():
    from sb3_contrib import MaskablePPO
    env = UnoVecEnv("solo_bga", 3, num_envs=8, seed=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=128, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps >= 512


class _Counting:
    """A first-legal-action agent that counts the games it acts in."""

    def __init__(self, name):
        self.name, self.calls = name, 0

    def act(self, observations, action_masks, rng=None):
        self.calls += len(action_masks)
        return np.asarray(action_masks).argmax(1)


def test_a_replaced_opponent_pool_takes_effect_as_episodes_start():
    a, b, c, d = (_Counting(n) for n in "abcd")
    env = UnoVecEnv("standard_en", 4, num_envs=32, opponents=[a, b, c], seed=0)
    env.reset()
    games = env.games
    seated_b = {(int(g), int(s)) for g, s in zip(*np.nonzero(games.assign == 1)) if s != games.learner[g]}
    env.set_opponents([a, c, d])  # b leaves; c moves from index 2 to 1
    assert games.opponents[:3] == [a, c, d] and games.pool_size == 3
    assert all(games.opponents[games.assign[g, s]] is b for g, s in seated_b)  # b keeps its seats in play
    rng = np.random.default_rng(0)
    restarted = set()
    for _ in range(200):
        mask = env.action_masks()
        _, _, done, _ = env.step((rng.random(mask.shape) * mask).argmax(1))
        restarted |= set(np.flatnonzero(done).tolist())
        for g in restarted:  # a new episode never draws b
            seats = [s for s in range(4) if s != games.learner[g]]
            assert all(games.opponents[games.assign[g, s]] is not b for s in seats)
    assert d.calls > 0 and b.calls > 0


@pytest.mark.parametrize("episode", ["round", "game"])
def test_learner_env_deals_again_rounds_that_end_before_the_learner_is_asked(episode):
    """One-card hands under house_cn: forced moves end many rounds at their deal or before the
    learner's turn, and in a game episode the next round can end at its deal; the env deals again
    and every step still asks the learner in every game."""
    env = UnoVecEnv("house_cn", 4, 16, ["random"], seed=0, episode=episode, hand_size=1)
    env.reset()
    rng = np.random.default_rng(0)
    done = 0
    for _ in range(100):
        mask = env.action_masks()
        assert mask.any(1).all()
        _, _, dones, _ = env.step((rng.random(mask.shape) * mask).argmax(1))
        done += dones.sum()
    assert done > 0 and env.games.rounds_without_learner > 0


def test_gymnasium_make_and_make_vec_find_the_envs_by_id():
    import gymnasium as gym

    env = gym.make("uno_env.vector:uno_env/UnoLearner-v4", num_players=3, opponents="greedy")
    obs, info = env.reset(seed=0)
    assert isinstance(env.unwrapped, UnoEnv) and env.observation_space.contains(obs) and info["action_mask"].any()
    venv = gym.make_vec("uno_env/UnoLearner-v4", num_envs=8, num_players=3, opponents="random", seed=0)
    assert isinstance(venv, UnoVectorEnv) and venv.num_envs == 8  # the batched env, not 8 copies
    obs, _ = venv.reset(seed=0)
    assert obs.shape == (8, env.observation_space.shape[0])


@pytest.mark.parametrize("episode", ["round", "game"])
def test_the_episode_end_reports_winner_and_round_points_in_every_env(episode):
    """The same info keys as the AEC env and the SB3 VecEnv, per Gymnasium's vector-info convention."""
    venv = UnoVectorEnv("standard_en", 2, num_envs=16, opponents="random", seed=1, episode=episode, target=100)
    venv.reset(seed=1)
    rng, seen = np.random.default_rng(1), 0
    for _ in range(400):
        _, reward, term, trunc, info = venv.step(_play_first(venv.action_masks(), rng, venv.games.game.engine))
        ended = term | trunc
        if ended.any():
            assert (info["_winner"] == ended).all() and (info["_round_points"] == ended).all()
            won = ended & (info["winner"] >= 0)
            assert (info["round_points"][won] > 0).all()
            seen += ended.sum()
        else:
            assert "winner" not in info
    assert seen > 0
    env = UnoEnv("standard_en", 2, opponents="random", episode=episode, target=100)
    obs, info = env.reset(seed=2)
    done = False
    while not done:
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    assert {"winner", "round_points"} <= set(info)


@pytest.mark.parametrize("episode", ["round", "game"])
def test_learner_envs_record_their_episodes_and_the_records_replay(tmp_path, episode):
    from uno_env import records

    path = tmp_path / "learner.jsonl"
    env = UnoVecEnv("standard_en", 3, num_envs=8, opponents=["random", "greedy"], seed=3, episode=episode,
                    target=60, record=path)
    env.reset()
    rng, ended = np.random.default_rng(3), 0
    while ended < 12:
        _, _, dones, _ = env.step(_play_first(env.action_masks(), rng, env.games.game.engine))
        ended += dones.sum()
    env.close()
    recs = list(records.read_records(path))
    assert len(recs) == ended
    for r in recs:
        assert r.agents.count("learner") == 1 and set(r.agents) <= {"learner", "random", "greedy"}
        records.check(r)

"""A critic trained with privileged information: the hidden state it reads, and an actor that never does."""

import json

import numpy as np
import pytest
from helpers import V2_AGENTS, position

torch = pytest.importorskip("torch")  # the "train" extra: skipped, and says so, without it
pytest.importorskip("sb3_contrib")

import agents  # noqa: E402
from agents.privileged import PrivilegedCriticPolicy, actor_only, load_actor  # noqa: E402
from uno_env.learner import LearnerGames  # noqa: E402
from uno_env.sb3 import UnoVecEnv  # noqa: E402


def _face(game, name: str, side: int = 0) -> int:
    return game.engine.deck.face_index[(side, name)]


def test_the_privileged_view_holds_the_other_hands_in_seat_order_then_the_next_draws():
    game = position(players=3, hands=["R1", "G2 G2 B3", "Y4 W"], discard="R7", draw_pile="G9 B0", to_move=0)
    F = game.engine.F
    v = game.observer.privileged(game.state, np.array([0]), np.array([0]))[0]
    assert v.shape == (game.observer.privileged_size(),) == ((2 + 4) * F,)
    nxt, after = v[:F], v[F:2 * F]  # relative seats 1 and 2
    assert nxt[_face(game, "G2")] == 2 and nxt[_face(game, "B3")] == 1 and nxt.sum() == 3
    assert after[_face(game, "Y4")] == 1 and after[_face(game, "W")] == 1 and after.sum() == 2
    draws = v[2 * F:].reshape(4, F)
    assert draws[0, _face(game, "G9")] == 1 and draws[1, _face(game, "B0")] == 1
    assert draws.sum(1).tolist() == [1, 1, 1, 1]  # the unlisted deck lies under the listed cards
    # seen from seat 2, the next seat is seat 0
    v2 = game.observer.privileged(game.state, np.array([0]), np.array([2]))[0]
    assert v2[_face(game, "R1")] == 1 and v2[:F].sum() == 1


def test_the_privileged_view_past_the_end_of_the_draw_pile_is_empty():
    game = position(hands=["R1", "G2"], discard="R7 R8", draw_pile="G9", unlisted="discard_bottom", to_move=0)
    F = game.engine.F
    draws = game.observer.privileged(game.state, np.array([0]), np.array([0]))[0][F:].reshape(4, F)
    assert draws.sum(1).tolist() == [1, 0, 0, 0]


def test_flip_the_privileged_view_shows_the_active_faces():
    game = position("flip_jp", hands=["B5/P9", "R7/O1 Y2/T1"], discard="B2/O8", draw_pile="B8/T4", to_move=0)
    F = game.engine.F
    v = game.observer.privileged(game.state, np.array([0]), np.array([0]))[0]
    assert v[_face(game, "R7")] == 1 and v[_face(game, "Y2")] == 1 and v[:F].sum() == 2
    assert v[F + _face(game, "B8")] == 1


@pytest.mark.parametrize("rules", ["standard_en", "flip_jp"])
def test_a_privileged_learner_observation_starts_with_the_seats_own_observation(rules):
    plain = LearnerGames(rules, 4, num_envs=8, opponents="random", seed=3)
    priv = LearnerGames(rules, 4, num_envs=8, opponents="random", seed=3, privileged=True)
    rng = np.random.default_rng(0)
    for _ in range(30):
        a, b = plain.observe(), priv.observe()
        assert b.shape == (8, priv.observation_size) and priv.public_size == plain.observation_size
        assert np.array_equal(a, b[:, :priv.public_size])
        low, high = priv.bounds()
        assert ((b >= low) & (b <= high)).all()
        actions = (rng.random((8, plain.num_actions)) * plain.action_masks()).argmax(1)
        for games in (plain, priv):
            out = games.step(actions)
            games.restart(np.flatnonzero(out["terminated"] | out["truncated"]))
    with pytest.raises(ValueError, match="privileged must be True or False, got 1"):
        LearnerGames("standard_en", 2, privileged=1)


def _model(env):
    from sb3_contrib import MaskablePPO
    return MaskablePPO(PrivilegedCriticPolicy, env, n_steps=16, batch_size=32, seed=0,
                       policy_kwargs={"net_arch": [32, 32], "public_dim": env.games.public_size})


def test_the_actor_reads_only_the_public_observation_and_the_critic_reads_the_hidden_state_too():
    env = UnoVecEnv("standard_en", 4, num_envs=8, opponents="random", seed=0, privileged=True)
    policy = _model(env).policy
    obs = torch.as_tensor(env.reset())
    masks = env.action_masks()
    other = obs.clone()
    other[:, env.games.public_size:] = torch.rand_like(other[:, env.games.public_size:])
    with torch.no_grad():
        p1 = policy.get_distribution(obs, action_masks=masks).distribution.probs
        p2 = policy.get_distribution(other, action_masks=masks).distribution.probs
        v1, v2 = policy.predict_values(obs), policy.predict_values(other)
    assert torch.equal(p1, p2)
    assert not torch.equal(v1, v2)
    # the exported actor: a plain policy over the public observation, the same choices
    plain = actor_only(policy)
    with torch.no_grad():
        p3 = plain.get_distribution(obs[:, :env.games.public_size], action_masks=masks).distribution.probs
    assert torch.allclose(p1, p3)


def test_a_privileged_model_saves_and_loads_with_its_split():
    from sb3_contrib import MaskablePPO
    env = UnoVecEnv("standard_en", 2, num_envs=4, opponents="random", seed=0, privileged=True)
    model = _model(env)
    model.learn(64)
    path = "/tmp/_privileged_model.zip"
    model.save(path)
    again = MaskablePPO.load(path, env=env)
    assert isinstance(again.policy, PrivilegedCriticPolicy)
    assert again.policy.public_dim == env.games.public_size
    obs = torch.as_tensor(env.reset())
    with torch.no_grad():
        assert torch.allclose(model.policy.predict_values(obs), again.policy.predict_values(obs))


def test_an_initial_actor_is_copied_and_a_misfit_is_a_clear_error():
    env = UnoVecEnv("standard_en", 4, num_envs=4, opponents="random", seed=0, privileged=True,
                    observation="v2")  # the actor reads v2
    from sb3_contrib import MaskablePPO
    model = MaskablePPO(PrivilegedCriticPolicy, env, n_steps=16, batch_size=32, seed=0,
                        policy_kwargs={"net_arch": [256, 256], "public_dim": env.games.public_size})
    shipped = agents.load(V2_AGENTS[4]).policy
    load_actor(model.policy, shipped)
    obs = env.reset()
    masks = env.action_masks()
    with torch.no_grad():
        mine = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks).distribution.probs
        theirs = shipped.get_distribution(torch.as_tensor(obs[:, :env.games.public_size]),
                                          action_masks=masks).distribution.probs
    assert torch.allclose(mine, theirs)
    with pytest.raises(ValueError, match="does not fit this network"):
        load_actor(_model(env).policy, shipped)


def test_a_privileged_training_run_exports_an_actor_that_plays_from_its_own_view(tmp_path):
    from test_training import _train

    from uno_env import VecGame
    _train(tmp_path, "--run-name", "oracle", "--players", "4", "--total-steps", "512", "--eval-every", "256",
           "--checkpoint-every", "256", "--privileged-critic", "--init-actor", V2_AGENTS[4],
           "--critic-warmup", "400", "--observation", "v2")  # the actor reads v2
    run = tmp_path / "oracle"
    warm = json.loads((run / "critic_warmup.json").read_text())
    assert warm["decisions"] > 0 and warm["value_mse"] >= 0
    agent = agents.load(str(run / "agent.json"), game=VecGame("standard_en", 4))
    assert "privileged" in agent.meta["critic"]
    game = VecGame("standard_en", 4, batch_size=8, seed=2)
    for player in (agent, agents.load(str(run / "checkpoints" / "latest.zip"), game=game)):  # a checkpoint: its actor
        actions = player.act(game.observe(), game.legal_mask())
        assert game.legal_mask()[np.arange(8), actions].all()
    # the critic probe measures both critics on the same rounds, and refuses a plain checkpoint
    from research.critic_probe import main as probe_main
    from research.critic_probe import probe
    line = probe(V2_AGENTS[4], str(run / "checkpoints" / "latest.zip"), "standard_en", 4, "random",
                 decisions=1500, n_envs=16)
    assert line["decisions"] > 0
    assert line["agent_critic_explained_variance"] <= 1 and line["privileged_critic_explained_variance"] <= 1
    _train(tmp_path, "--run-name", "plain", "--players", "4", "--total-steps", "256", "--eval-every", "0")
    assert probe_main(["--checkpoint", str(tmp_path / "plain" / "model.zip")]) == 2


def test_an_initial_actor_and_a_behaviour_cloning_start_are_exclusive():
    from training.train_ppo import parse_args
    with pytest.raises(ValueError, match="--bc-decisions/--bc-records and --init-actor both set the initial actor"):
        parse_args(["--bc-decisions", "100", "--init-actor", "ppo-standard_en-2p"]).validate()

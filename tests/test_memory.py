"""The table's memory (``uno_env.core.memory``) and observation v3 agree on every path.

Random games of every preset, 2 to 10 players and the option sets of ``test_scalar`` are played twice,
through the batched ``Engine.step`` and through the one-game ``ScalarStepper``; after every step each
memory array must be equal, and the batched ``Observer.observe`` must equal ``observe_one`` for every
seat.  A property every path must keep: a seat never "knows" more copies of a face than the other seat
holds.  And the memory must change nothing else: the same games with memory on and off.
"""

import copy
import dataclasses
import pickle

import numpy as np
import pytest
from test_scalar import FLIP_OPTION_SETS, OPTION_SETS, _name

from uno_env import PRESETS, VecGame
from uno_env.core.actions import PLAY
from uno_env.core.memory import HISTORY, Memory
from uno_env.core.observe import Observer
from uno_env.core.scalar import ScalarStepper
from uno_env.core.state import OVER


def _memory_invariants_hold(game):
    e, st, mem = game.engine, game.state, game.memory
    # what observe_one relies on: no card is known before a reveal, no count or age is negative
    assert (mem.drawn >= 0).all() and (mem.last_at <= mem.plays_n[:, None]).all()
    assert (mem.decl_at <= mem.plays_n[:, None]).all()
    for row in range(game.batch_size):
        assert mem.reveals[row] or not mem.known[row].any()
        side = int(st.side[row])
        for s in range(e.P):
            faces = np.bincount(e.KF[side], st.hands[row, s], e.F) if e.two_sided else st.hands[row, s]
            assert (mem.known[row, :, s] <= faces[None, :]).all()
            assert not mem.known[row, s, s].any()


def _same_observations(game):
    rows = np.arange(game.batch_size)
    for seat in range(game.num_players):
        batched = game.observer.observe(game.state, rows, np.full(rows.size, seat))
        for row in rows:
            if game.batch_size == 1:
                one = game.observer.observe_one(game.state, seat)
                assert one.dtype == batched.dtype and np.array_equal(one, batched[row]), seat


def play_both(rules, players, seed, steps, check_obs_every=1, **options):
    """One random game through ``Engine.step`` and through ``ScalarStepper``, both with memory on."""
    batched = VecGame(rules, players, batch_size=1, seed=seed, autoreset=False, observation="v3", **options)
    batched._scalar = None
    scalar = VecGame(rules, players, batch_size=1, seed=seed, autoreset=False, observation="v3", **options)
    stepper = ScalarStepper(scalar.engine)
    rng = np.random.default_rng(seed)
    is_play = batched.engine.A_KIND == PLAY
    seen = {"known": 0, "challenges": 0}
    for t in range(steps):
        while batched.state.phase[0] == OVER:
            batched.next_round(0)
            scalar.next_round(0)
        legal = batched.state.mask[0]
        plays = legal & is_play
        a = int(rng.choice(np.flatnonzero(plays if plays.any() and rng.random() < 0.8 else legal)))
        batched.step(np.array([a]))
        stepper.step(scalar.state, a)
        for name in Memory.ARRAYS:
            assert np.array_equal(getattr(batched.memory, name), getattr(scalar.memory, name)), \
                (rules, players, options, t, batched.action_name(a), name)
        for f in dataclasses.fields(batched.state):
            assert np.array_equal(getattr(batched.state, f.name), getattr(scalar.state, f.name)), (t, f.name)
        if t % check_obs_every == 0:
            _same_observations(scalar)
            _memory_invariants_hold(scalar)
        seen["known"] += int(scalar.memory.known.any())
        seen["challenges"] = int(scalar.memory.challenges[0])
    return seen


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("players", [2, 4, 10])
def test_the_memory_and_v3_are_the_same_through_the_scalar_path_and_the_engine(rules, players):
    play_both(rules, players, seed=players, steps=300, check_obs_every=3)


@pytest.mark.parametrize("options", OPTION_SETS, ids=_name)
def test_the_memory_follows_every_option_on_both_paths(options):
    for players in (2, 3, 5):
        play_both("standard_en", players, seed=players, steps=150, check_obs_every=5, **options)


@pytest.mark.parametrize("options", FLIP_OPTION_SETS, ids=_name)
def test_the_memory_follows_the_uno_flip_options_on_both_paths(options):
    for players in (2, 4):
        play_both("flip_jp", players, seed=players, steps=150, check_obs_every=5, **options)


def test_exchanges_rotations_and_challenges_make_cards_known_in_these_games():
    """The random games above do reach the events that make cards known (not a vacuous agreement)."""
    assert play_both("standard_en", 4, seed=1, steps=400, seven_o=True)["known"] > 0
    assert play_both("solo_bga", 4, seed=1, steps=400)["known"] > 0
    assert play_both("standard_en", 2, seed=3, steps=600)["challenges"] > 0


@pytest.mark.parametrize("rules", PRESETS)
def test_a_batch_observes_in_v3_as_each_game_alone(rules):
    """Game ``i`` of a batch plays as a batch of one seeded ``seed + i``: its v3 observations are the same."""
    B, P = 6, 4
    batch = VecGame(rules, P, batch_size=B, seed=10, observation="v3")
    alone = [VecGame(rules, P, batch_size=1, seed=10 + i, observation="v3") for i in range(B)]
    rng = np.random.default_rng(0)
    for _ in range(120):
        for seat in range(P):
            obs = batch.observe(seats=np.full(B, seat))
            for i, g in enumerate(alone):
                assert np.array_equal(obs[i], g.observer.observe_one(g.state, seat))
        a = (rng.random((B, batch.num_actions)) * batch.legal_mask()).argmax(1)
        batch.step(a)
        for i, g in enumerate(alone):
            g.step(a[i:i + 1])


@pytest.mark.parametrize("rules", PRESETS)
def test_turning_the_memory_on_changes_no_game(rules):
    on = VecGame(rules, 4, batch_size=32, seed=5, observation="v3")
    off = VecGame(rules, 4, batch_size=32, seed=5, observation="v2")
    assert off.engine.memory is None
    rng = np.random.default_rng(1)
    for _ in range(200):
        a = (rng.random((32, on.num_actions)) * on.legal_mask()).argmax(1)
        for x, y in zip(on.step(a), off.step(a)):
            assert np.array_equal(x, y)
    assert on.state.memory is not None and off.state.memory is None
    for f in dataclasses.fields(on.state):
        if f.name != "memory":  # the memory is the one part of the state that differs
            assert np.array_equal(getattr(on.state, f.name), getattr(off.state, f.name)), f.name


# every preset at 2 to 4 players, Flip also with the backs hidden, and the options that make cards known
EVERY_STEP_CASES = [(rules, players, {}) for rules in PRESETS for players in (2, 3, 4)] + [
    ("flip_jp", players, {"flip_back_faces_visible": False}) for players in (2, 3)] + [
    ("standard_en", players, {"seven_o": True}) for players in (3, 4)]


@pytest.mark.parametrize("rules,players,options", EVERY_STEP_CASES,
                         ids=[f"{r}-{p}-{_name(o)}" for r, p, o in EVERY_STEP_CASES])
def test_a_game_of_one_observes_in_v3_as_the_batched_observer_at_every_step(rules, players, options):
    """``observe_one`` (the AEC env's fast path) equals the batched ``observe`` for every seat after every
    step of random games over several rounds, and begins with the v2 observation."""
    game = VecGame(rules, players, batch_size=1, seed=players, observation="v3", **options)
    v2 = Observer(game.engine, "v2")
    rng = np.random.default_rng(players)
    is_play = game.engine.A_KIND == PLAY
    seen = {"long_history": False, "known": False, "dark_side": False}
    for _ in range(400):
        for seat in range(players):
            one = game.observer.observe_one(game.state, seat)
            batched = game.observer.observe(game.state, np.zeros(1, np.intp), np.array([seat]))[0]
            assert one.dtype == batched.dtype and np.array_equal(one, batched), (rules, players, seat)
            assert np.array_equal(one[:v2.size], v2.observe_one(game.state, seat))
        seen["long_history"] |= int(game.memory.plays_n[0]) > HISTORY
        seen["known"] |= bool(game.memory.known.any())
        seen["dark_side"] |= bool(game.state.side[0])
        legal = game.state.mask[0]
        plays = legal & is_play
        game.step(np.array([rng.choice(np.flatnonzero(plays if plays.any() and rng.random() < 0.8 else legal))]))
    assert seen["long_history"]
    assert seen["dark_side"] or not game.engine.two_sided
    assert seen["known"] or not options.get("seven_o")


@pytest.mark.parametrize("copy_game", [lambda g: pickle.loads(pickle.dumps(g)), copy.deepcopy],
                         ids=["pickle", "deepcopy"])
def test_a_copied_game_remembers_and_observes_as_the_original(copy_game):
    """The per-seat arrays are views of one record (``Memory.seat_record``): a copy keeps them so."""
    game = VecGame("standard_en", 3, batch_size=1, seed=3, observation="v3")
    rng = np.random.default_rng(0)
    for _ in range(20):
        game.step(np.array([rng.choice(np.flatnonzero(game.state.mask[0]))]))
    clone = copy_game(game)
    for _ in range(80):
        a = np.array([rng.choice(np.flatnonzero(game.state.mask[0]))])
        game.step(a)
        clone.step(a)
        for name in Memory.ARRAYS:
            assert np.array_equal(getattr(game.memory, name), getattr(clone.memory, name)), name
        for seat in range(3):
            assert np.array_equal(game.observer.observe_one(game.state, seat),
                                  clone.observer.observe_one(clone.state, seat))

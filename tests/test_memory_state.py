"""The table's memory is part of the game state (``State.memory``, issue 47): a v3 position round-trips through
the notation, copies of a state keep what the table saw, and states stepped on one engine stay apart."""

import copy
import json
import pickle

import numpy as np
import pytest

from uno_env import PRESETS, VecGame
from uno_env.core.memory import Memory
from uno_env.core.notation import PositionError
from uno_env.core.observe import Observer
from uno_env.core.scalar import ScalarStepper
from uno_env.core.state import OVER

OPTIONS = {"standard_ru": {"seven_o": True}}  # hands change seats: cards become known


def _random_action(game, rng):
    return np.array([rng.choice(np.flatnonzero(game.state.mask[0]))])


def _same_observations(a, b, where):
    for seat in range(a.num_players):
        one = a.observer.observe_one(a.state, seat)
        assert np.array_equal(one, b.observer.observe_one(b.state, seat)), (where, seat)
        assert np.array_equal(a.observe(seats=[seat]), b.observe(seats=[seat])), (where, seat)


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_a_v3_position_rebuilt_from_its_snapshot_observes_as_the_original(rules, players):
    """After random moves, ``snapshot`` (through JSON) then ``from_position`` gives every seat the same v3
    observation, and the two games go on observing alike when stepped with the same actions."""
    rng = np.random.default_rng(players)
    seen = {"plays": False, "known": False}
    for moves in (5, 40, 120):
        game = VecGame(rules, players, batch_size=1, seed=moves + players, autoreset=False, observation="v3",
                       **OPTIONS.get(rules, {}))
        for _ in range(moves):
            if game.state.phase[0] == OVER:
                game.next_round(0)
            game.step(_random_action(game, rng))
        snap = json.loads(json.dumps(game.snapshot()))
        rebuilt = VecGame.from_position(snap, observation="v3")
        for name in Memory.ARRAYS:
            if name != "reveals":  # a gate, rebuilt as "is any card known"
                assert np.array_equal(getattr(rebuilt.memory, name), getattr(game.memory, name)), name
        _same_observations(game, rebuilt, (moves, "rebuilt"))
        seen["plays"] |= bool(game.memory.plays_n[0] > 8)
        seen["known"] |= bool(game.memory.known.any())
        for t in range(60):
            if game.state.phase[0] == OVER:
                game.next_round(0)
                rebuilt.next_round(0)
            a = _random_action(game, rng)
            game.step(a)
            rebuilt.step(a)
            _same_observations(game, rebuilt, (moves, t))
    assert seen["plays"]


def test_a_position_without_memory_keys_starts_with_nothing_remembered_and_the_keys_are_read():
    base = {"rules": "standard_en", "players": 3, "hands": ["R1 G2", "Y3 B4", "G5 G6"], "discard": "R7",
            "to_move": 0}
    empty = VecGame.from_position(base, observation="v3")
    fresh = VecGame("standard_en", 3, observation="v3").engine.new_state(1, memory=True).memory
    assert empty.state.memory == fresh
    game = VecGame.from_position({**base, "known": [{"by": 1, "of": 2, "cards": "G5"}], "plays": 2,
                                  "recent_plays": [{"seat": 1, "card": "R3"}, {"seat": 2, "card": "W", "color": "R"}],
                                  "lacks": [[], ["G"], []], "last_challenge": None}, observation="v3")
    o = game.observer.observe_one(game.state, 1)
    known = o[game.observer.slots["known"].start:game.observer.slots["known"].stop].reshape(2, -1)
    assert known[0, game.engine.deck.face_id("G5")] == 1  # relative seat 1 of seat 1 (its first row) is seat 2
    assert game.memory.plays(0) == [(1, game.engine.deck.face_id("R3"), -1), (2, game.engine.deck.face_id("W"), 0)]
    assert game.memory.lacks[0].tolist() == [0, 1 << 2, 0]
    with pytest.raises(PositionError, match="recent_plays"):
        VecGame.from_position({**base, "recent_plays": [{"seat": 1, "card": "R3"}]}, observation="v3")  # plays: 0
    with pytest.raises(PositionError, match="played"):
        VecGame.from_position({**base, "played": [{"colors": {"Q": 1}}, {}, {}]}, observation="v3")


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_two_v3_states_stepped_on_one_engine_stay_independent(rules, players):
    """States of one engine each keep their own memory (batched ``Engine.step`` and the one-game stepper):
    each observes as a game alone on its own engine."""
    options = OPTIONS.get(rules, {})
    shared = VecGame(rules, players, observation="v3", **options)
    e = shared.engine
    stepper = ScalarStepper(e)
    observer = Observer(e, "v3")
    states = [e.new_state(3, memory=True), e.new_state(1, memory=True)]
    alone = [VecGame(rules, players, batch_size=3, seed=10, observation="v3", **options),
             VecGame(rules, players, batch_size=1, seed=20, observation="v3", **options)]
    alone[1]._scalar = None  # its batched path, against the shared engine's scalar one
    for st, seed in zip(states, (10, 20)):
        e.seed_rows(st, np.arange(st.batch_size), seed + np.arange(st.batch_size))
        e.new_games(st, np.arange(st.batch_size))
    rng = np.random.default_rng(players)
    for _ in range(150):
        a = (rng.random((3, e.A)) * states[0].mask).argmax(1)
        e.step(states[0], a, autoreset=True)
        alone[0].step(a)
        b = int(_random_action(alone[1], rng)[0])
        stepper.step(states[1], b)
        alone[1].engine.step(alone[1].state, np.array([b]))
        if states[1].phase[0] == OVER:
            e.next_rounds(states[1], np.zeros(1, np.intp))
            alone[1].next_round(0)
        for st, g in zip(states, alone):
            assert st.memory == g.state.memory
            rows = np.arange(st.batch_size)
            for seat in range(players):
                seats = np.full(rows.size, seat)
                assert np.array_equal(observer.observe(st, rows, seats), g.observe(seats=seats))


@pytest.mark.parametrize("copy_state", [lambda st: st.take(np.arange(st.batch_size)), lambda st: st.copy(),
                                        copy.deepcopy, lambda st: pickle.loads(pickle.dumps(st))],
                         ids=["take", "copy", "deepcopy", "pickle"])
def test_a_copied_state_keeps_its_memory(copy_state):
    """``State.take``/``copy``/deepcopy/pickle carry the memory (and its per-seat views stay views of the copy's
    record): the copy, stepped as the original, observes as the original."""
    game = VecGame("standard_ru", 3, batch_size=4, seed=3, observation="v3", seven_o=True)
    rng = np.random.default_rng(0)
    for _ in range(40):
        game.step((rng.random((4, game.num_actions)) * game.legal_mask()).argmax(1))
    st = copy_state(game.state)
    assert st.memory is not game.state.memory and st.memory == game.state.memory
    st.memory.lacks[0, 0] ^= 1 << 9  # a write through a view reaches the copy's record, not the original's
    assert st.memory.seat_record[0, 0, 0] != game.state.memory.seat_record[0, 0, 0]
    st.memory.lacks[0, 0] ^= 1 << 9
    one = game.state.take([2])
    assert one.memory == game.state.memory.take([2]) and one.memory.plays_n.shape == (1,)
    e, rows = game.engine, np.arange(4)
    for _ in range(60):
        a = (rng.random((4, game.num_actions)) * game.legal_mask()).argmax(1)
        game.step(a)
        e.step(st, a, autoreset=True)
        assert st.memory == game.state.memory
        for seat in range(3):
            seats = np.full(4, seat)
            assert np.array_equal(game.observer.observe(st, rows, seats), game.observe(seats=seats))

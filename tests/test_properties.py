"""Property-based tests (hypothesis) over random rule combinations, player counts and seeds.

For any valid configuration: random legal play keeps every invariant and rounds end; game ``i`` of a
batch plays as it does alone; a snapshot taken mid-game rebuilds a game with the same future.
"""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_env import VecGame
from uno_env.core.config import OPTIONS, PRESETS
from uno_env.core.invariants import violations
from uno_env.core.state import OVER


def _has(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


# options whose every allowed value is combinable with any preset of a deck
_FREE = ["stacking", "stack_skip", "draw_penalty_skips_turn", "jump_in", "jump_in_wilds", "jump_in_priority",
         "jump_in_self", "uno_enforcement", "uno_window_close", "uno_call_after_exchange", "first_card_mode",
         "first_card_match", "first_player", "first_card_reverse", "first_card_wild_chooser", "voluntary_draw",
         "drawn_card_play", "wild_draw_restriction", "challenge", "challenge_guilty", "two_player_reverse",
         "last_card_draw_applies", "scoring_mode", "blocked_round", "next_dealer", "challenge_extra",
         "uno_catch_out_of_turn"]
_FLIP = ["flip_discard_mode", "flip_back_faces_visible", "flip_as_last_card", "flip_revealed_wild",
         "flip_first_card", "flip_pairing"]


@st.composite
def configs(draw):
    preset = draw(st.sampled_from(sorted(PRESETS)))
    deck = PRESETS[preset].deck
    names = _FREE + (_FLIP if deck == "flip112" else []) + (["seven_o"] if deck == "standard108" else [])
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=8))
    options = {}
    for name in chosen:
        opt = OPTIONS[name]
        options[name] = draw(st.sampled_from(opt.allowed)) if opt.allowed else draw(st.integers(0, 4))
    if options.get("uno_catch_out_of_turn"):
        options["uno_enforcement"] = "catch"  # the only enforcement it combines with
    players = draw(st.integers(2, 10))
    options["hand_size"] = draw(st.integers(1, min(9, 96 // players)))
    options["max_turns_per_round"] = 400
    return preset, players, options


def _policy(game: VecGame, rng: np.random.Generator, rows: int) -> np.ndarray:
    r = rng.random((8, game.num_actions))[:rows]  # row i gets the same numbers whatever the batch size
    return (r * game.legal_mask()).argmax(1)


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(configs(), st.integers(0, 2**31 - 1))
def test_random_play_under_any_rule_combination_keeps_every_invariant(config, seed):
    preset, players, options = config
    game = VecGame(preset, players, batch_size=8, seed=seed, **options)
    rng = np.random.default_rng(seed)
    rounds = 0
    for step in range(120):
        waiting = game.state.phase == OVER  # under autoreset only a round that ended at its own deal
        out = game.step(_policy(game, rng, 8))
        assert out.round_over[waiting].all(), f"{preset} {players}p {options} step {step}: a round left over"
        rounds += int(out.round_over.sum())
        problems = violations(game.engine, game.state)
        assert not problems, f"{preset} {players}p {options} step {step}: {problems}"


@pytest.mark.skipif(not _has("stable_baselines3"), reason="the SB3 env needs stable-baselines3 (the 'train' extra)")
@SETTINGS
@given(configs(), st.integers(0, 2**31 - 1))
def test_the_learner_env_asks_the_learner_in_every_game_under_any_rule_combination(config, seed):
    from uno_env.sb3 import UnoVecEnv

    """Opponents move inside the step until the learner's turn; rounds that end before it (even at
    their deal) are dealt again, so every game always waits on a legal learner action."""
    preset, players, options = config
    for episode in ("round", "game"):
        env = UnoVecEnv(preset, players, 4, ["random", "greedy"], seed=seed, episode=episode, **options)
        env.reset()
        rng = np.random.default_rng(seed)
        for _ in range(25):
            mask = env.action_masks()
            assert mask.any(1).all(), f"{preset} {players}p {options} {episode}: a game without a legal action"
            env.step((rng.random(mask.shape) * mask).argmax(1))


@SETTINGS
@given(configs(), st.integers(0, 2**31 - 1))
def test_rounds_end_under_any_rule_combination(config, seed):
    preset, players, options = config
    game = VecGame(preset, players, batch_size=4, seed=seed, autoreset=False, **options)
    rng = np.random.default_rng(seed)
    for _ in range(2000):  # max_turns_per_round=400 bounds every round
        if (game.to_move < 0).all():
            break
        live = np.flatnonzero(game.to_move >= 0)
        r = rng.random((live.size, game.num_actions)) * game.state.mask[live]
        game.engine.step_rows(game.state, live, r.argmax(1))
    assert (game.to_move < 0).all()


@SETTINGS
@given(configs(), st.integers(0, 2**31 - 1))
def test_game_i_of_a_batch_plays_as_it_does_alone(config, seed):
    preset, players, options = config
    batch = VecGame(preset, players, batch_size=5, seed=seed, **options)
    alone = VecGame(preset, players, batch_size=1, seed=seed + 3, **options)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(60):
        batch.step((rng_a.random((8, batch.num_actions))[:5] * batch.legal_mask()).argmax(1))
        alone.step((rng_b.random((8, alone.num_actions))[3:4] * alone.legal_mask()).argmax(1))
    assert batch.snapshot(3) == alone.snapshot(0)


@SETTINGS
@given(configs(), st.integers(0, 2**31 - 1), st.integers(0, 60))
def test_a_snapshot_taken_mid_game_replays_the_same_future(config, seed, at):
    preset, players, options = config
    game = VecGame(preset, players, batch_size=1, seed=seed, **options)
    rng = np.random.default_rng(seed)
    for _ in range(at):
        game.step(_policy(game, rng, 1))
    snap = json.loads(json.dumps(game.snapshot()))
    copy = VecGame(preset, players, batch_size=1, seed=0, **options)
    copy.load(snap)
    assert copy.snapshot() == game.snapshot()
    r1, r2 = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(40):
        game.step(_policy(game, r1, 1))
        copy.step(_policy(copy, r2, 1))
    assert copy.snapshot() == game.snapshot()


@given(st.integers(1, 12), st.integers(1, 70), st.integers(0, 2**32 - 1), st.booleans())
@settings(max_examples=200, deadline=None)
def test_the_engine_s_row_reductions_equal_numpy_s(rows, width, seed, strided):
    """``any_row``, ``count_row`` and ``any_bits`` (fast forms of ``any``/``sum`` over short rows,
    used on every step) agree with numpy for any row width, sparse or dense, contiguous or not."""
    from uno_env.core.rows import any_bits, any_row, count_row, rows_with_any
    rng = np.random.default_rng(seed)
    b = rng.random((rows, 2 * width if strided else width)) < rng.choice([0.02, 0.3, 0.9])
    b = b[:, ::2] if strided else b
    assert np.array_equal(any_row(b), b.any(-1))
    if width <= 10:
        assert np.array_equal(count_row(b), b.sum(-1))
    shape = (rows, 3, width % 4 + 1)  # (games, seats, words)
    words = rng.integers(0, 2**63, shape, dtype=np.uint64) * (rng.random(shape) < 0.2)
    assert np.array_equal(any_bits(words), (words != 0).any(-1))
    picked = np.sort(rng.choice(rows, rng.integers(1, rows + 1), replace=False))
    assert np.array_equal(rows_with_any(b, picked), b[picked].any(-1))


@given(st.integers(1, 20), st.integers(1, 130), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None)
def test_a_shuffle_orders_the_first_positions_by_their_random_keys_and_keeps_the_rest(rows, width, seed):
    """``chance.permutations`` (a sort of packed key-and-position words) equals the argsort of each row's
    53-bit random keys over its first ``length`` positions, followed by the other positions in order."""
    from uno_env.core import chance
    rng = np.random.default_rng(seed)
    key = rng.integers(0, 2**63, 2 * rows, dtype=np.uint64)
    counter = rng.integers(0, 1000, 2 * rows, dtype=np.uint64)
    R = np.sort(rng.choice(2 * rows, rows, replace=False))
    lengths = rng.integers(0, width + 1, rows)
    keys = chance.bits(key, counter.copy(), R, width) >> np.uint64(11)
    perm = chance.permutations(key, counter, R, lengths, width)
    for i, n in enumerate(lengths):
        assert np.array_equal(perm[i, :n], np.argsort(keys[i, :n], kind="stable"))
        assert np.array_equal(perm[i, n:], np.arange(n, width))

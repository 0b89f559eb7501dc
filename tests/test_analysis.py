"""uno_env.analysis: batched round measurements (lengths, first seat, UNO Flip sides)."""

import numpy as np
import pytest

from uno_env.analysis import RoundRecords, simulate_rounds


@pytest.mark.parametrize("rounds,batch", [(1, 8), (37, 8), (64, 16)])
def test_exactly_the_rounds_asked(rounds, batch):
    rec = simulate_rounds("standard_en", 3, rounds, "play_first", batch_size=batch, seed=3)
    assert len(rec) == rounds
    for name in ("turns", "decisions", "winner", "dealer", "first_seat", "points", "truncated", "max_hand",
                 "start_side", "final_side", "flips", "light_turns", "dark_turns"):
        assert getattr(rec, name).shape == (rounds,), name


def test_records_are_consistent():
    rec = simulate_rounds("standard_en", 4, 300, "play_first", batch_size=64, seed=1)
    assert np.array_equal(rec.first_seat, (rec.dealer.astype(int) + 1) % 4)
    assert ((rec.winner >= 0) & (rec.winner < 4)).all()  # no void rounds under standard rules
    assert (rec.turns >= rec.decisions).all() and (rec.decisions > 0).all()
    assert (rec.max_hand >= 7).all() and (rec.points > 0).all()
    assert not rec.flips.any() and not rec.dark_turns.any()
    assert np.array_equal(rec.light_turns, rec.turns)
    assert rec.seat_win_rates().sum() == pytest.approx(1.0)
    wins, n = rec.first_seat_wins()
    assert n == 300 and wins == int((rec.winner == rec.first_seat).sum())
    s = rec.summary()
    assert s["rounds"] == 300 and s["fair_share"] == 0.25 and s["turns_mean"] == pytest.approx(rec.turns.mean())


def test_same_seed_same_records():
    a = simulate_rounds("house_cn", 3, 120, "play_first", batch_size=32, seed=5)
    b = simulate_rounds("house_cn", 3, 120, "play_first", batch_size=32, seed=5)
    for name in ("turns", "winner", "dealer", "points"):
        assert np.array_equal(getattr(a, name), getattr(b, name))


def test_flip_sides_add_up():
    rec = simulate_rounds("flip_jp", 3, 400, "play_first", batch_size=64, seed=2)
    seg = rec.segments
    assert rec.flips.sum() > 0 and rec.dark_turns.sum() > 0
    # a round's segments cover it: their lengths sum to its actions, and there is one more than its flips
    assert np.array_equal(np.bincount(seg.round, weights=seg.length, minlength=len(rec)), rec.turns)
    assert np.array_equal(np.bincount(seg.round, minlength=len(rec)), rec.flips + 1)
    assert np.array_equal(rec.light_turns + rec.dark_turns, rec.turns)
    assert np.array_equal(rec.final_side, (rec.start_side + rec.flips) % 2)
    # exactly one cut-short segment per round, on the side the round ended on
    last = ~seg.complete
    assert np.array_equal(np.sort(seg.round[last]), np.arange(len(rec)))
    assert np.array_equal(seg.side[last][np.argsort(seg.round[last])], rec.final_side)
    # sides alternate within a round
    same_round = seg.round[1:] == seg.round[:-1]
    assert (seg.side[1:][same_round] != seg.side[:-1][same_round]).all()


def test_select_keeps_segments_with_their_rounds():
    rec = simulate_rounds("flip_jp", 2, 200, "play_first", batch_size=50, seed=4)
    dark = rec.select(rec.final_side == 1)
    assert isinstance(dark, RoundRecords) and len(dark) == int((rec.final_side == 1).sum())
    assert (dark.final_side == 1).all()
    assert np.array_equal(np.bincount(dark.segments.round, weights=dark.segments.length, minlength=len(dark)),
                          dark.turns)


def test_options_and_agents_per_seat():
    rec = simulate_rounds("standard_en", 2, 600, ["heuristic", "play_first"], batch_size=128, seed=0)
    assert rec.policy == "heuristic/play_first"
    assert (rec.winner == 0).mean() > 0.55  # the heuristic bot beats random play clearly
    rec = simulate_rounds("standard_en", 4, 100, "play_first", batch_size=32, seed=0, hand_size=3)
    assert (rec.max_hand >= 3).all() and rec.turns.mean() < 60


def test_bad_arguments():
    with pytest.raises(ValueError, match="rounds"):
        simulate_rounds("standard_en", 2, 0)
    with pytest.raises(ValueError, match="batch_size"):
        simulate_rounds("standard_en", 2, 10, batch_size=0)
    with pytest.raises(ValueError, match="one per seat"):
        simulate_rounds("standard_en", 3, 10, ["play_first", "uniform"])
    with pytest.raises(ValueError, match="policy"):
        simulate_rounds("standard_en", 2, 10, policy=42)
    with pytest.raises(ValueError, match="unknown option"):
        simulate_rounds("standard_en", 2, 10, no_such_option=1)


def test_play_first_agent_plays_when_it_can():
    from uno_env import VecGame
    from uno_env.analysis import PlayFirstAgent

    game = VecGame("standard_en", 3, batch_size=256, seed=0)
    agent = PlayFirstAgent(game, seed=0)
    plays = game.engine.A_KIND == 0
    for _ in range(20):
        mask = game.legal_mask()
        a = agent.act(game.observe(), mask)
        assert mask[np.arange(256), a].all()
        can_play = (mask & plays).any(1)
        assert plays[a][can_play].all()
        game.step(a)
    with pytest.raises(ValueError):
        PlayFirstAgent(object())


@pytest.mark.parametrize("policy", ["random", "play_first"])
def test_rounds_that_forced_moves_end_at_their_deal_are_recorded(policy):
    """One-card hands under house_cn: many rounds end at their deal by forced moves alone (no
    decision); each is recorded once, with zero decisions, and no policy is asked to move in it."""
    recs = simulate_rounds("house_cn", 3, rounds=300, policy=policy, seed=0, batch_size=50, hand_size=1)
    assert len(recs) == 300
    assert 0 < int((recs.decisions == 0).sum()) < 300

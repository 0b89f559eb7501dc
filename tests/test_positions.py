"""Positions (docs/notation.md): bad positions get clear errors; snapshots rebuild the exact game."""

import json

import numpy as np
import pytest
from helpers import act, position

from uno_env import PositionError, VecGame


def test_unknown_card_is_named_with_the_faces_of_the_deck():
    with pytest.raises(ValueError, match="unknown card 'R10' for deck standard108; faces are: R0 R1"):
        position(hands=["R10 G1", "B2"], discard="R7", to_move=0)


def test_more_copies_than_the_deck_holds_is_rejected():
    with pytest.raises(PositionError, match="card R0 appears 2 times in the position, but the standard108 "
                                            "deck holds 1"):
        position(hands=["R0 G1", "R0"], discard="R7", to_move=0)


def test_the_wrong_number_of_hands_is_rejected():
    with pytest.raises(PositionError, match="'hands' must list one string per seat \\(3 seats\\), got 2"):
        position(players=3, hands=["R1", "B2"], discard="R7", to_move=0)


def test_unknown_keys_are_rejected():
    with pytest.raises(PositionError, match="unknown key\\(s\\) 'hand'"):
        position(hand=["R1", "B2"], discard="R7", to_move=0)


def test_a_wild_on_top_needs_its_colour():
    with pytest.raises(PositionError, match="the top card W is a wild: give its declared 'color'"):
        position(hands=["R1", "B2"], discard="R7 W", to_move=0)


def test_a_colour_contradicting_the_top_card_is_rejected():
    with pytest.raises(PositionError, match="'color' 'B' contradicts the top card R7"):
        position(hands=["R1", "B2"], discard="R7", color="B", to_move=0)


def test_flip_cards_must_be_real_pairs():
    with pytest.raises(ValueError, match="no card 'R7/P1' in the flip112 deck"):
        position("flip_jp", hands=["R7/P1", "B1/USE"], discard="R6/O9", to_move=0)


def test_position_for_other_rules_is_refused_by_a_game():
    game = VecGame("standard_en", 4)
    with pytest.raises(PositionError, match="the position is for rules 'house_cn' with 2 players"):
        game.load({"rules": "house_cn", "players": 2, "hands": ["R1", "B2"], "discard": "R7", "to_move": 0})


def test_unlisted_cards_complete_the_deck_under_the_draw_pile():
    game = position(hands=["R1 G2", "B2"], discard="R7", draw_pile="Y5 Y6", to_move=0)
    snap = game.snapshot()
    assert snap["draw_pile"].split()[:2] == ["Y5", "Y6"]
    assert len(snap["draw_pile"].split()) == 108 - 3 - 1  # every card not in a hand or the discard


def test_unlisted_cards_can_go_under_the_discard_pile():
    game = position(hands=["R1 G2", "B2"], discard="R7", unlisted="discard_bottom", to_move=0)
    assert int(game.state.draw_n[0]) == 0
    assert int(game.state.disc_n[0]) == 105


def _random_play(game, steps, seed):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.state.phase[0] == 6:
            break
        legal = np.flatnonzero(game.state.mask[0])
        game.step(np.array([rng.choice(legal)]))


@pytest.mark.parametrize("rules,players", [("standard_en", 4), ("house_cn", 3), ("solo_bga", 5),
                                           ("flip_jp", 4), ("standard_ru", 2)])
def test_a_snapshot_rebuilds_the_same_game_and_future(rules, players):
    game = VecGame(rules, players, seed=11, autoreset=False)
    _random_play(game, 25, seed=1)
    snap = json.loads(json.dumps(game.snapshot()))  # JSON-serialisable
    copy = VecGame.from_position(snap)
    assert copy.snapshot() == game.snapshot()
    for g in (game, copy):
        _random_play(g, 200, seed=2)
    assert copy.snapshot() == game.snapshot()


def test_a_deal_position_deals_from_the_listed_pile_starting_left_of_the_dealer():
    pile = "R1 R2 R3 R4 R5 R6 R7 G1 G2 G3 G4 G5 G6 G7 B5"
    game = position(players=2, deal=True, dealer=1, draw_pile=pile, options={"hand_size": 7})
    snap = game.snapshot()
    assert sorted(snap["hands"][0].split()) == ["G2", "G4", "G6", "R1", "R3", "R5", "R7"]
    assert sorted(snap["hands"][1].split()) == ["G1", "G3", "G5", "G7", "R2", "R4", "R6"]
    assert snap["discard"] == "B5" and snap["first_play"] is True


def test_acting_on_a_position_moves_play_on():
    game = act(position(hands=["R1 G2", "B2 B3"], discard="R7", to_move=0), "play R1")
    assert game.snapshot()["to_move"] == 1


BASE = dict(hands=["R1 G2 B5", "B2 B3 Y7"], discard="R7", to_move=0)


@pytest.mark.parametrize("change,message", [
    ({"deal": True, "hands": None, "discard": None, "to_move": None, "color": "B", "direction": -1},
     r"a position with \"deal\": true is dealt by the engine, which sets 'color', 'direction'; remove them"),
    ({"winner": 1}, r"'winner' does not apply to phase 'turn'"),
    ({"phase": "over", "winner": 0}, r"'to_move' does not apply to phase 'over' \(the round is over"),
    ({"drawn": "R1"}, r"'drawn' does not apply to phase 'turn'"),
    ({"jump_in_order": [0]}, r"'jump_in_order' does not apply to phase 'turn'"),
    ({"phase": "drawn", "drawn": "G2"}, r"'drawn' card G2 cannot be played on R7; phase 'drawn' is only for a "
                                        r"playable drawn card"),
    ({"uno_vulnerable": [1]}, r"'uno_vulnerable' seat 1 holds 3 cards; only a seat with one card can be caught"),
    ({"phase": "choose"}, r"phase 'choose' \(a colour to declare\) needs a wild on top, not R7"),
    ({"pending_draw": 2}, r"phase 'pending' \(a draw penalty\) needs a draw card on top, not R7"),
    ({"phase": "jump_in"}, r"phase 'jump_in' is an out-of-turn offer: it needs the option jump_in"),
    ({"phase": "deflect"}, r"phase 'deflect' needs the option stack_skip and a Skip on top"),
    ({"hands": ["R1 G2", ""]}, r"seat 1 holds no cards, so the round is over: give \"phase\": \"over\""),
    ({"discard": "R7 W", "color": "free"}, r"'color' \"free\" follows only a Swap in turn \(WX\)"),
    ({"discard": "R7 W", "color": None}, r"the top card W is a wild: give its declared 'color'"),
    ({"legal": ["draw"]}, r"'legal' \['draw'\] \(read-only\) differs from the legal actions of the position built"),
    ({"round_over": True}, r"'round_over' is True, but the position built is in play"),
])
def test_a_position_that_contradicts_itself_is_a_clear_error(change, message):
    setup = {k: v for k, v in {**BASE, **change}.items() if v is not None or k == "color"}
    with pytest.raises(PositionError, match=message):
        position(**setup)


def test_a_swap_in_turn_on_top_leaves_the_colour_free():
    with pytest.raises(PositionError, match=r"after WX \(Swap in turn\) any card may follow: 'color' must be"):
        position("solo_bga", hands=["R1 G2", "B2 B3"], discard="R7 WX", color="R", to_move=0)
    assert position("solo_bga", hands=["R1 G2", "B2 B3"], discard="R7 WX", to_move=0).snapshot()["color"] == "free"


def test_a_snapshot_of_a_round_stopped_by_the_turn_limit_keeps_its_truncation():
    game = VecGame("standard_en", 3, batch_size=1, seed=2, autoreset=False, max_turns_per_round=10)
    rng = np.random.default_rng(0)
    while game.legal_mask()[0].any():
        game.step((rng.random((1, game.num_actions)) * game.legal_mask()).argmax(1))
    assert game.state.truncated[0]
    snap = game.snapshot(0)
    assert snap["truncated"] is True and VecGame.from_position(snap).state.truncated[0]

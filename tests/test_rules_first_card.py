"""The first card under non-default options (rules §3.3, §6.1, E24), each test one rule, set up as a dealt
position: three cards each, dealt one at a time from the dealer's left, then the first card turned."""

import pytest
from helpers import act, position

# dealer 1: seat 0 gets R1 R3 G2, the dealer R2 G1 G3; the seventh card is turned first
PILE = "R1 R2 R3 G1 G2 G3 {first} B5 B6 B7 Y1 Y2 Y3 Y4"


def dealt(rules: str, first: str, **options):
    return position(rules, 2, deal=True, dealer=1, draw_pile=PILE.format(first=first),
                    options={"hand_size": 3, **options})


@pytest.mark.parametrize("two_player_reverse", ["skip", "reverse"])
def test_a_reverse_turned_first_under_dealer_first_lets_the_dealer_start_with_two_players(two_player_reverse):
    s = dealt("standard_en", "RR", two_player_reverse=two_player_reverse).snapshot()
    assert (s["to_move"], s["direction"]) == (1, -1)


def test_a_reverse_turned_first_under_right_of_dealer_is_the_dealers_reverse_a_skip_with_two_players():
    # "as if the dealer played that card": with two_player_reverse=skip the dealer plays again
    s = dealt("standard_en", "RR", first_card_reverse="right_of_dealer").snapshot()
    assert (s["to_move"], s["direction"]) == (1, -1)


def test_a_reverse_turned_first_under_right_of_dealer_only_turns_direction_when_two_player_reverse_is_reverse():
    # the dealer's Reverse only turns direction: the seat to the dealer's right (the other seat) starts
    s = dealt("standard_en", "RR", first_card_reverse="right_of_dealer", two_player_reverse="reverse").snapshot()
    assert (s["to_move"], s["direction"]) == (0, -1)


def test_solo_a_take_4_turned_first_under_apply_is_followed_the_first_player_declares_draws_four_and_plays():
    game = dealt("solo_bga", "W+4", first_card_mode="apply")
    s = game.snapshot()
    assert (s["discard"], s["phase"], s["to_move"], s["pending_draw"]) == ("W+4", "choose", 0, 4)
    act(game, "choose B")  # seat 0 holds no Take 4 to stack: it draws the four, then plays (no skip in SOLO)
    s = game.snapshot()
    assert (s["discard"], s["color"], s["to_move"], s["phase"]) == ("W+4", "B", 0, "turn")
    assert s["hands"][0] == "R1 R3 Y1 G2 B5 B6 B7" and s["pending_draw"] == 0


def test_solo_a_take_4_turned_first_under_apply_may_be_stacked_by_the_first_player():
    game = position("solo_bga", 2, deal=True, dealer=1, options={"hand_size": 3, "first_card_mode": "apply"},
                    draw_pile="W+4 R2 R3 G1 G2 G3 W+4 B5 B6 B7 Y1 Y2 Y3 Y4 B1 B2")
    act(game, "choose R")
    assert "play W+4 G" in game.legal_actions() and game.snapshot()["phase"] == "pending"


def test_a_wild_draw_four_turned_first_under_apply_is_still_put_back_in_the_standard_deck():
    s = dealt("standard_en", "W+4", wild_draw_restriction="none").snapshot()
    assert s["discard"] != "W+4" and s["pending_draw"] == 0

"""Standard UNO (rules §3 and §4), each test one rule, set up as a position."""

import numpy as np
from helpers import act, position


def snap(game):
    return game.snapshot()


def test_a_card_matches_by_colour_number_or_symbol_and_wilds_always_match():
    game = position(hands=["R2 G7 B+2 Y5 W W+4", "Y1"], discard="G+2", to_move=0)
    assert set(game.legal_actions()) >= {"play G7", "play B+2", "play W R", "play W+4 B", "draw"}
    assert "play R2" not in game.legal_actions() and "play Y5" not in game.legal_actions()


def test_a_skip_does_not_match_a_reverse():
    game = position(hands=["GS Y4", "R1"], discard="RR", to_move=0)
    assert "play GS" not in game.legal_actions()


def test_a_seat_may_draw_instead_of_playing_and_then_play_only_the_drawn_card():
    game = act(position(hands=["R3 G4", "Y1 Y2"], discard="R7", draw_pile="R9", to_move=0), "draw")
    assert game.legal_actions() == ["play R9", "keep"]


def test_a_seat_that_cannot_play_draws_automatically_and_the_turn_passes_if_the_card_does_not_fit():
    game = position(players=3, hands=["G3 G4", "B1 R5", "R6 Y6"], discard="R7", draw_pile="Y2", to_move=0)
    s = snap(game)
    assert s["to_move"] == 1
    assert [len(h.split()) for h in s["hands"]] == [3, 2, 2]


def test_skip_makes_the_next_seat_lose_its_turn():
    game = act(position(players=3, hands=["RS R1", "R2 R3", "R4 R5"], discard="R7", to_move=0), "play RS")
    assert snap(game)["to_move"] == 2


def test_reverse_turns_the_direction_with_three_or_more_players():
    game = act(position(players=3, hands=["RR R1", "R2 R3", "R4 R5"], discard="R7", to_move=0), "play RR")
    assert (snap(game)["to_move"], snap(game)["direction"]) == (2, -1)


def test_reverse_with_two_players_acts_as_a_skip():
    game = act(position(hands=["RR R1", "R2 R3"], discard="R7", to_move=0), "play RR")
    assert (snap(game)["to_move"], snap(game)["direction"]) == (0, -1)


def test_draw_two_makes_the_next_seat_draw_two_and_lose_its_turn():
    game = act(position(players=3, hands=["R+2 R1 Y1", "B2 B3", "R4 R5"], discard="R7", draw_pile="G1 G2",
                        to_move=0), "play R+2")
    s = snap(game)
    assert s["to_move"] == 2 and s["hands"][1] == "G1 G2 B2 B3"


def test_wild_draw_four_challenge_guilty_offender_draws_four_and_the_victim_plays():
    game = position(hands=["W+4 R1 G5", "Y1 G2"], discard="R7", draw_pile="B1 B2 B3 B4", to_move=0)
    act(game, "play W+4 G", "challenge")
    s = snap(game)
    assert s["hands"][0] == "R1 G5 B1 B2 B3 B4" and s["to_move"] == 1 and s["color"] == "G"


def test_wild_draw_four_challenge_innocent_challenger_draws_six_and_is_skipped():
    game = position(players=3, hands=["W+4 Y5 G5", "Y1 Y2", "G6 B7"], discard="R7",
                    draw_pile="B1 B2 B3 B4 B5 B9", to_move=0)
    act(game, "play W+4 G", "challenge")
    s = snap(game)
    assert len(s["hands"][1].split()) == 8 and s["to_move"] == 2


def test_the_wild_draw_four_restriction_uses_the_declared_colour_of_a_wild_top_card():
    game = position(hands=["W+4 R1 G5", "Y1 Y2"], discard="R7 W", color="G", draw_pile="B1 B2 B3 B4", to_move=0)
    act(game, "play W+4 B", "challenge")  # seat 0 held G5, the declared colour: guilty
    assert len(snap(game)["hands"][0].split()) == 6


def test_a_missed_uno_can_be_caught_by_the_next_seat_for_two_cards():
    game = act(position(hands=["R1 R2", "Y1 Y2 R3"], discard="R7", draw_pile="G1 G2", to_move=0), "play R1")
    assert snap(game)["uno_vulnerable"] == [0]
    act(game, "catch @0")
    assert snap(game)["hands"][0] == "R2 G1 G2"


def test_russian_rules_punish_a_missed_uno_with_four_cards():
    game = act(position("standard_ru", hands=["R1 R2", "Y1 Y2 R3"], discard="R7", draw_pile="G1 G2 G3 G4",
                        to_move=0), "play R1", "catch @0")
    assert len(snap(game)["hands"][0].split()) == 5


def test_declaring_uno_before_the_play_makes_the_seat_safe():
    game = act(position(hands=["R1 R2", "Y1 Y2 R3"], discard="R7", to_move=0), "uno", "play R1")
    assert snap(game)["uno_vulnerable"] == [] and "catch @0" not in game.legal_actions()


def test_the_catch_window_closes_when_the_next_seat_plays():
    game = act(position(players=3, hands=["R1 R2", "R3 R4 Y1", "G1 G2 R5"], discard="R7", to_move=0),
               "play R1", "play R3")
    assert snap(game)["uno_vulnerable"] == []


def test_an_empty_draw_pile_is_replaced_by_the_shuffled_discards_under_the_top_card():
    game = position(hands=["R1 G2", "B1 B2"], discard="Y5 Y6 Y7 R7", unlisted="discard_bottom", to_move=0)
    assert int(game.state.draw_n[0]) == 0
    act(game, "draw")
    s = snap(game)
    assert s["discard"] == "R7" and len(s["hands"][0].split()) == 3
    assert int(game.state.draw_n[0]) == 108 - 4 - 1 - 1


def test_going_out_scores_the_opponents_hands():
    game = act(position(players=3, hands=["B7", "R1 RS W+4", "G9 Y0"], discard="B2", to_move=0), "play B7")
    s = snap(game)
    assert (s["round_over"], s["winner"], s["round_points"], s["scores"]) == (True, 0, 1 + 20 + 50 + 9, [80, 0, 0])


def test_reaching_the_target_ends_the_game():
    game = act(position(hands=["B7", "W W"], discard="B2", scores=[450, 100], to_move=0), "play B7")
    assert snap(game)["game_over"] is True


def test_cumulative_low_scoring_adds_each_hand_to_its_owner():
    game = act(position(hands=["B7", "W R1"], discard="B2", options={"scoring_mode": "cumulative_low"},
                        to_move=0), "play B7")
    assert snap(game)["scores"] == [0, 51]


def test_a_round_stopped_by_max_turns_is_won_by_the_lowest_hand_and_reported_as_truncated():
    game = position(players=3, hands=["G1 G2 R5", "B1 R3", "W R4"], discard="R7", turns=9,
                    options={"max_turns_per_round": 10}, to_move=0)
    act(game, "play R5")
    s = snap(game)
    assert (s["round_over"], s["winner"], s["round_points"]) == (True, 0, 4 + 54)
    assert game.state.truncated[0]


def test_after_the_round_ends_nobody_is_asked_and_nothing_is_legal():
    game = act(position(hands=["B7", "R1"], discard="B2", to_move=0), "play B7")
    assert game.to_move[0] == -1 and not game.legal_mask()[0].any()
    assert np.all(game.state.nlegal == 0)

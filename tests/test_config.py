"""Rule configuration: presets, option validation and clear errors for bad input."""

import pytest

from uno_env import VecGame, make_rules
from uno_env.core.config import OPTIONS, PRESETS, RuleConfig


def test_every_rules_md_option_is_a_config_field():
    fields = set(RuleConfig.__dataclass_fields__) - {"name"}
    assert fields == set(OPTIONS)


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_are_valid_configs(name):
    assert make_rules(name).name == name


def test_preset_values_follow_rules_md_section_9():
    assert make_rules("standard_ru").uno_penalty == 4
    cn = make_rules("house_cn")
    assert (cn.stacking, cn.stack_skip, cn.target, cn.voluntary_draw, cn.first_card_match) == \
        ("escalating", True, 300, False, "color_only")
    solo = make_rules("solo_bga")
    assert (solo.deck, solo.hand_size, solo.jump_in, solo.uno_enforcement, solo.scoring_mode) == \
        ("solo112", 8, True, "automatic", "penalty_countdown")
    flip = make_rules("flip_jp")
    assert (flip.deck, flip.wild_draw_restriction, flip.challenge_guilty, flip.next_dealer) == \
        ("flip112", "no_playable", "retract_and_draw_2", "round_winner")


def test_unknown_preset_error_lists_the_presets():
    presets = "standard_en, standard_ru, house_cn, solo_bga, flip_jp"
    with pytest.raises(ValueError, match=f"unknown rules 'standard'.*{presets}"):
        VecGame("standard", 4)


@pytest.mark.parametrize("players", [1, 11, 0, -3, 2.5, "4", True])
def test_player_count_outside_2_to_10_is_rejected(players):
    with pytest.raises(ValueError, match="num_players=.* UNO takes 2 to 10 players"):
        VecGame("standard_en", players)


def test_unknown_option_is_rejected_with_the_list_of_options():
    with pytest.raises(ValueError, match="unknown option 'stacking_mode'.*options are: deck, hand_size"):
        VecGame("standard_en", 4, stacking_mode="same_type")


@pytest.mark.parametrize("option,value,expected", [
    ("stacking", "always", "option stacking='always' is not allowed; choose one of: 'none', 'same_type', 'escalating'"),
    ("jump_in", "yes", "option jump_in='yes' is not allowed; choose one of: False, True"),
    ("uno_penalty", -1, "option uno_penalty=-1 is not allowed; it takes an integer from 0 to 20"),
    ("hand_size", 7.5, "option hand_size=7.5 is not allowed"),
    ("uno_enforcement", 1, "option uno_enforcement=1 is not allowed"),
])
def test_bad_option_values_name_the_option_value_and_choices(option, value, expected):
    with pytest.raises(ValueError) as err:
        VecGame("standard_en", 4, **{option: value})
    assert expected in str(err.value)


def test_catching_out_of_turn_needs_catch_enforcement():
    with pytest.raises(ValueError, match="uno_catch_out_of_turn=True.*needs uno_enforcement='catch'.*'off'"):
        VecGame("standard_en", 2, uno_catch_out_of_turn=True, uno_enforcement="off")
    assert VecGame("standard_en", 2, uno_catch_out_of_turn=True).rules.uno_catch_out_of_turn


def test_seven_o_needs_a_deck_with_zeros():
    with pytest.raises(ValueError, match="seven_o=True needs a deck with 0 and 7 cards.*'solo112' has no 0"):
        VecGame("solo_bga", 4, seven_o=True)


def test_flip_options_apply_only_to_the_flip_deck():
    with pytest.raises(ValueError, match="'flip_discard_mode' applies only to the flip112 deck"):
        VecGame("standard_en", 4, flip_discard_mode="flip_in_place")


def test_a_hand_size_that_leaves_no_deck_is_rejected():
    with pytest.raises(ValueError, match="hand_size=15 with 10 players deals 150"):
        VecGame("standard_en", 10, hand_size=15)


@pytest.mark.parametrize("batch", [0, -1, 1.5, "8"])
def test_bad_batch_size_is_rejected(batch):
    with pytest.raises(ValueError, match="batch_size"):
        VecGame("standard_en", 4, batch_size=batch)


def test_bad_seed_is_rejected():
    with pytest.raises(ValueError, match="seed must be None, an int, or 3 integers"):
        VecGame("standard_en", 4, batch_size=3, seed=[1, 2])


def test_options_combine_with_any_preset():
    rules = make_rules("solo_bga", stacking="escalating", jump_in=False)
    assert (rules.stacking, rules.jump_in, rules.deck) == ("escalating", False, "solo112")

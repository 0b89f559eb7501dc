"""``prev_color`` (observation slot and position key) is the active colour before the top card was played, in
every preset, whether or not the rules allow challenges (which read it), and after a challenge takes the top
card back it is the colour before the card now on top (rules §1.6, E26)."""

import numpy as np
import pytest

from tests.helpers import act, position
from uno_env.core.cards import COLOR_LETTERS
from uno_env.core.observe import Observer


def _prev(game, seat=None) -> str:
    """``prev_color`` as the position says it and as the observation of ``seat`` (default: the seat asked)
    encodes it; the two must agree."""
    snap = game.snapshot(0)["prev_color"]
    seat = int(game.state.actor[0]) if seat is None else seat
    sl = Observer(game.engine).slots["prev_color"]
    o = Observer(game.engine).observe(game.state, np.array([0]), np.array([seat]))[0]
    hot = np.flatnonzero(o[sl.start:sl.stop])
    assert hot.size == 1
    assert (COLOR_LETTERS[hot[0]] if hot[0] < len(COLOR_LETTERS) else None) == snap
    return snap


@pytest.mark.parametrize("rules", ["house_cn", "solo_bga"])
def test_without_challenges_prev_color_is_the_colour_active_before_the_top_card(rules):
    game = position(rules, 3, hands=["B5 R7 Y1", "B9 B2 G3", "W B4 R4"], discard="G1 R5", to_move=0)
    assert _prev(game) == "G"  # built: the colour of the card under the top
    act(game, "play B5")  # R5 -> B5: the colour before it was red
    assert _prev(game) == "R"
    act(game, "play B9")  # blue on blue
    assert _prev(game) == "B"
    act(game, "play W G")  # a wild: blue before it
    assert _prev(game) == "B"

def test_flip_a_retracted_wild_draw_two_leaves_prev_color_the_colour_before_the_restored_top_card():
    game = position("flip_jp", 3, hands=["W+2/O4 R7/O1 G4/P8", "R1/P3 Y5/U9 B2/P6", "Y7/O2 R9/U5 B3/U8"],
                    discard="Y2/T1 R5/P2", draw_pile="Y9/T5 G5/T4 Y3/U1", to_move=0)
    assert _prev(game) == "Y"
    act(game, "play W+2 G")  # guilty: seat 0 holds R7 on a red R5
    assert game.snapshot(0)["prev_color"] == "R"
    act(game, "challenge")  # retracted: R5 is the top card again, red active, and yellow was before it
    snap = game.snapshot(0)
    assert (snap["discard"].split()[-1], snap["color"]) == ("R5/P2", "R")
    assert _prev(game) == "Y"


def test_a_snapshot_carries_both_previous_colours_so_a_retraction_after_a_rebuild_restores_the_same():
    game = position("flip_jp", 3, hands=["W+2/O4 R7/O1 G4/P8", "R1/P3 Y5/U9 B2/P6", "Y7/O2 R9/U5 B3/U8"],
                    discard="Y2/T1 R5/P2", prev_color="G", draw_pile="Y9/T5 G5/T4 Y3/U1", to_move=0)
    act(game, "play W+2 G")
    from uno_env import VecGame
    rebuilt = VecGame.from_position(game.snapshot(0))
    for g in (game, rebuilt):
        act(g, "challenge")
        assert g.snapshot(0)["prev_color"] == "G"

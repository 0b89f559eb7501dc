"""research.graft: a trained agent with one kind of decision taken by another rule, at play time."""

from __future__ import annotations

import pytest

from research import graft
from training.evaluate import play_match


def test_grafting_a_flawed_players_challenges_onto_heuristic_plays_as_that_flawed_player():
    """``heuristic`` with ``heuristic-no-challenge``'s challenge decisions is ``heuristic-no-challenge``: the same
    wins on the same deals, and not ``heuristic``'s (against a player that bluffs, challenging pays)."""
    grafted = graft.measure("heuristic", "heuristic-no-challenge", ["challenge"], "heuristic-always-wd4",
                            "standard_en", 2, 600, seed=50_000_000)
    alone = {n: play_match([n, "heuristic-always-wd4"], "standard_en", 2, 600, seed=50_000_000,
                           ratings=False).entries[0].wins for n in ("heuristic-no-challenge", "heuristic")}
    assert grafted["wins"] == alone["heuristic-no-challenge"] != alone["heuristic"]


def test_a_teachers_weight_can_be_set_and_bad_names_are_refused(capsys):
    from uno_env import VecGame
    game = VecGame("flip_jp", 4, batch_size=1)
    g = graft.graft("heuristic", "heuristic", ["challenge"], game, {"bluff_rate": 0.05})
    assert g.teacher.p["bluff_rate"] == 0.05 and g.agent.p["bluff_rate"] != 0.05
    with pytest.raises(ValueError, match="no such weight"):
        graft.graft("heuristic", "heuristic", ["challenge"], game, {"bluff": 1})
    with pytest.raises(SystemExit):
        graft.main(["heuristic", "--where", "dance"])
    assert "--where takes action types" in capsys.readouterr().err

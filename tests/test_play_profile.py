"""research.play_profile: counts of each player's moves by kind, with the hands at that moment."""

from research.play_profile import differences, kind_of, profile
from uno_env import VecGame


def test_a_move_is_named_by_its_card_or_its_action():
    engine = VecGame("solo_bga", 2, batch_size=1, seed=0).engine
    ids = engine.actions.index
    assert kind_of(engine, ids["play R5"]) == "number"
    assert kind_of(engine, ids["play RX @1"]) == "swap" and kind_of(engine, ids["play WX"]) == "swap in turn"
    assert kind_of(engine, ids["play W+4 G"]) == "wild draw four" and kind_of(engine, ids["draw"]) == "draw"
    flip = VecGame("flip_jp", 2, batch_size=1, seed=0).engine
    kinds = {kind_of(flip, a) for a in range(flip.actions.size)}
    assert {"flip", "draw one", "draw five", "skip everyone", "wild draw color"} <= kinds


def test_every_decision_is_counted_once_and_every_round_has_its_winner():
    out = profile(["greedy", "random"], "solo_bga", 2, rounds=40, seed=7_000_000, batch=16)
    assert out["rounds"] == 40
    seen = out["players_profile"]
    assert sum(p["round_wins"] for p in seen.values()) == 40  # solo_bga rounds end with a winner
    for p in seen.values():
        assert sum(m["count"] for m in p["moves"].values()) == p["decisions"] > 0
        assert abs(sum(m["share"] for m in p["moves"].values()) - 1) < 1e-3
        for kind in ("swap", "swap in turn"):
            if kind in p["moves"]:
                assert "cards_shed_by_exchange" in p["moves"][kind]


def test_the_kinds_of_move_two_players_differ_in_most_come_first():
    a = {"moves": {"number": {"share": 0.6}, "draw": {"share": 0.3, "while_a_card_was_playable": 0.5},
                   "skip": {"share": 0.1}}}
    b = {"moves": {"number": {"share": 0.55}, "draw": {"share": 0.1, "while_a_card_was_playable": 0.0},
                   "wild": {"share": 0.35}}}
    d = differences(a, b, top=2)
    assert [r["kind"] for r in d] == ["wild", "draw"]  # 0.35 apart, then 0.2
    assert d[0] == {"kind": "wild", "share": 0.0, "other_share": 0.35}
    assert d[1]["while_a_card_was_playable"] == 0.5 and d[1]["other_while_a_card_was_playable"] == 0.0

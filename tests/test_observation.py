"""Observations of layout v2 (v3 starts with it; its additions are tested in test_observation_v3.py): the layout
table, bounds, and that a seat sees exactly what rules §1.10 allows."""

import numpy as np
import pytest
from helpers import position

from uno_env import VecGame
from uno_env.core.observe import SLOTS


def test_the_layout_is_the_documented_table_in_order():
    game = VecGame("flip_jp", 3, observation="v2")
    spec = game.observer.spec
    assert [s.name for s in spec] == [name for name, _, _ in SLOTS]
    assert spec[0].start == 0 and spec[-1].stop == game.observation_size
    assert all(a.stop == b.start for a, b in zip(spec, spec[1:]))
    P, F = 3, game.engine.F
    sizes = {"P": P, "F": F, "(P-1)*F": (P - 1) * F, "P*10": P * 10}
    assert [s.size for s in spec] == [sizes.get(size) or int(size) for _, size, _ in SLOTS]


def test_one_sided_decks_have_no_flip_slices():
    names = [s.name for s in VecGame("standard_en", 4, observation="v2").observer.spec]
    assert "side" not in names and "opponent_backs" not in names


@pytest.mark.parametrize("rules", ["standard_en", "house_cn", "solo_bga", "flip_jp"])
def test_observations_stay_within_their_bounds(rules):
    game = VecGame(rules, 4, batch_size=16, seed=1, observation="v2")
    low, high = game.observer.bounds()
    rng = np.random.default_rng(0)
    for _ in range(200):
        for seat in range(4):
            o = game.observe(seats=np.full(16, seat))
            assert ((o >= low) & (o <= high)).all()
        game.step((rng.random((16, game.num_actions)) * game.legal_mask()).argmax(1))


def _obs(game, seat):
    return game.observe(seats=[seat], rows=[0])[0]


def test_a_seat_cannot_see_an_opponents_cards():
    base = dict(hands=["R1 G2", "B3 Y4 Y5"], discard="R7", draw_pile="G9", to_move=0)
    a = position(**base)
    b = position(**{**base, "hands": ["R1 G2", "W G+2 R0"]})
    assert np.array_equal(_obs(a, 0), _obs(b, 0))
    assert not np.array_equal(_obs(a, 1), _obs(b, 1))


FLIP = dict(discard="B2/O8", draw_pile="B8/T4", to_move=0)


def test_flip_a_seat_sees_the_back_faces_of_opponent_cards_only():
    # R7/O1 and GR/O1 share the dark face O1: on the light side seat 0 sees only backs of seat 1's cards
    a = position("flip_jp", hands=["R1/P3 G2/T+5", "R7/O1 Y2/T1"], **FLIP)
    b = position("flip_jp", hands=["R1/P3 G2/T+5", "GR/O1 Y2/T1"], **FLIP)
    assert np.array_equal(_obs(a, 0), _obs(b, 0))
    # a different back face (R7/U5 shows U5) is visible to seat 0
    c = position("flip_jp", hands=["R1/P3 G2/T+5", "R7/U5 Y2/T1"], **FLIP)
    assert not np.array_equal(_obs(a, 0), _obs(c, 0))


def test_flip_a_seat_cannot_see_the_back_faces_of_its_own_cards():
    a = position("flip_jp", hands=["R7/O1 G2/T+5", "R1/P3 Y2/T1"], **FLIP)
    b = position("flip_jp", hands=["R7/U5 G2/T+5", "R1/P3 Y2/T1"], **FLIP)
    assert np.array_equal(_obs(a, 0), _obs(b, 0))
    assert not np.array_equal(_obs(a, 1), _obs(b, 1))  # seat 1 sees seat 0's backs


def test_flip_the_back_of_the_draw_pile_top_card_is_public():
    a = position("flip_jp", hands=["R1/P3 G2/T+5", "R7/O1 Y2/T1"], discard="B2/O8", draw_pile="B8/T4", to_move=0)
    b = position("flip_jp", hands=["R1/P3 G2/T+5", "R7/O1 Y2/T1"], discard="B2/O8", draw_pile="G5/T4", to_move=0)
    c = position("flip_jp", hands=["R1/P3 G2/T+5", "R7/O1 Y2/T1"], discard="B2/O8", draw_pile="B3/U8", to_move=0)
    assert np.array_equal(_obs(a, 0), _obs(b, 0))  # same back T4, different hidden face
    assert not np.array_equal(_obs(a, 0), _obs(c, 0))


def test_flip_backs_are_hidden_when_the_option_is_off():
    game = VecGame("flip_jp", 3, flip_back_faces_visible=False, observation="v2")
    assert "opponent_backs" not in game.observer.slots


def test_the_observer_seat_is_one_hot_and_the_other_seats_are_relative():
    game = position(players=3, hands=["R1", "G2 G3", "B3 B4 B5"], discard="R7", to_move=0)
    o = _obs(game, 1)
    s = game.observer.slots
    assert o[s["seat"].start:s["seat"].stop].tolist() == [0, 1, 0]
    assert (o[s["hand_sizes"].start:s["hand_sizes"].stop] * 10).round().tolist() == [2, 3, 1]


def test_a_seat_that_drew_instead_of_playing_is_remembered_until_it_plays():
    # seat 1 cannot follow red and draws G9 (unplayable): everyone may note it had no red
    game = position(players=3, hands=["R1 R2 Y5", "B3 Y4", "R6 G7"], discard="R7", draw_pile="G9", to_move=0)
    game.step(np.array([game.action_index("play R1")]))
    assert game.snapshot()["drew_on"] == [None, "R", None]
    o = _obs(game, 2)  # seat 2 sees seat 1 (relative position 2) drew on red (colour 0)
    s = game.observer.slots["drew_on"]
    assert o[s.start + 2 * 10 + 0] == 1 and o[s.start:s.stop].sum() == 1


def test_the_memory_of_a_draw_ends_when_that_seat_plays():
    game = position(players=3, hands=["R1 R2 Y5", "B3 Y4 R9", "R6 G7"], discard="R7", drew_on=[None, "G", None],
                    to_move=1)
    assert game.snapshot()["drew_on"] == [None, "G", None]
    game.step(np.array([game.action_index("play R9")]))
    assert game.snapshot()["drew_on"] == [None, None, None]


def _deal_hidden_anew(snap: dict, seat: int, rng) -> dict:
    """The position with what ``seat`` cannot see dealt anew: the other hands and the draw pile are
    pooled, shuffled and dealt back in the same sizes (the discard pile and every public fact stay)."""
    hands = [h.split() for h in snap["hands"]]
    asked, drawn, kept = snap["to_move"], snap.get("drawn"), None
    if drawn and asked is not None and asked != seat:  # the card just drawn stays with the seat asked
        kept = next(c for c in hands[asked] if drawn in (c, *c.split("/")))
        hands[asked].remove(kept)
    pool = [c for i, h in enumerate(hands) if i != seat for c in h] + snap["draw_pile"].split()
    rng.shuffle(pool)
    new, k = [], 0
    for i, h in enumerate(hands):
        dealt = h if i == seat else pool[k:k + len(h)]
        k += 0 if i == seat else len(h)
        new.append(" ".join(dealt + ([kept] if i == asked and kept else [])))
    rebuilt = {k: v for k, v in snap.items() if k not in ("legal", "round_over")}  # read-only: of the old deal
    return {**rebuilt, "hands": new, "draw_pile": " ".join(pool[k:])}


@pytest.mark.parametrize("rules,options", [
    ("standard_en", {}), ("standard_ru", {}), ("house_cn", {}), ("solo_bga", {}),
    ("flip_jp", {"flip_back_faces_visible": False}),
    ("standard_en", {"jump_in": True, "stacking": "same_type", "seven_o": True}),
])
def test_no_observation_or_legal_action_depends_on_what_the_seat_cannot_see(rules, options):
    """rules §1.10 as a property: in positions reached by random play, dealing the other hands and
    the draw pile anew (same sizes) changes nothing in any seat's observation or in the legal actions
    of the seat asked."""
    rng = np.random.default_rng(3)
    checked = 0
    for players in (2, 4, 7):
        game = VecGame(rules, players, batch_size=1, seed=players, **options, observation="v2")
        for step in range(120):
            if step % 15 == 14:
                snap = game.snapshot(0)
                for seat in range(players):
                    for _ in range(5):  # a new deal that leaves the seat asked a real choice (else it
                        other = VecGame.from_position(_deal_hidden_anew(snap, seat, rng), observation="v2")  # moves on)
                        if other.state.turn_count[0] == game.state.turn_count[0]:
                            break
                    else:
                        continue
                    checked += 1
                    assert np.array_equal(_obs(game, seat), _obs(other, seat)), (rules, players, step, seat)
                    if seat == game.state.actor[0]:
                        assert np.array_equal(game.legal_mask()[0], other.legal_mask()[0])
            mask = game.legal_mask()
            game.step((rng.random(mask.shape) * mask).argmax(1))
    assert checked >= 80


@pytest.mark.parametrize("rules,options", [("house_cn", {}), ("solo_bga", {}), ("standard_en", {"jump_in": True}),
                                           ("flip_jp", {})])
def test_a_seat_not_asked_sees_a_decision_only_a_hidden_hand_explains_as_if_declined(rules, options):
    """rules §1.10: a jump-in offer, a Skip that may be passed on and a playable drawn card tell the table about
    the hand of the seat asked; another seat sees them as if declined (the seat whose turn it is, or the next,
    to play), on every path (the batched ``observe`` and the one-game ``observe_one``)."""
    from uno_env.core.state import DEFLECT, DRAWN, JUMP, TURN
    rng = np.random.default_rng(5)
    hidden = 0
    for observation in ("v2", "v3"):
        game = VecGame(rules, 4, batch_size=1, seed=9, observation=observation, **options)
        obs = game.observer
        S = obs.slots
        for _ in range(300):
            st = game.state
            actor, phase, turn = int(st.actor[0]), int(st.phase[0]), int(st.turn_seat[0])
            for seat in range(4):
                batched = obs.observe(st, np.array([0]), np.array([seat]))[0]
                assert np.array_equal(batched, obs.observe_one(st, seat))
                shown = int(np.flatnonzero(batched[S["phase"].start:S["phase"].stop])[0])
                asked = (int(np.flatnonzero(batched[S["acting"].start:S["acting"].stop])[0]) + seat) % 4
                if seat == actor:
                    assert (shown, asked) == (phase, actor)
                elif phase in (JUMP, DEFLECT, DRAWN):
                    hidden += 1
                    assert shown not in (JUMP, DRAWN) and not (shown == DEFLECT and asked != seat)
                    if phase == DRAWN or (phase == DEFLECT and turn == actor):  # the card kept, the Skip taken
                        assert (shown, asked) == (TURN, (actor + int(st.direction[0])) % 4)
            mask = game.legal_mask()
            game.step((rng.random(mask.shape) * mask).argmax(1))
    assert hidden > 0

"""Scripted bots: they pick only legal actions in every preset, option and table size, and the heuristic
plays the way its rule list says (positions in the notation, docs/notation.md)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import PRESET_NAMES

import agents
from agents import GreedyAgent, HeuristicAgent, ObsView
from uno_env import VecGame

BOTS = ["greedy", "heuristic"]


def play_batch(game: VecGame, lineup: list, steps: int) -> int:
    """Step every game ``steps`` times; seat ``s`` of game ``g`` is played by ``lineup[(s + g) % n]``.
    Returns the number of decisions checked."""
    B, n = game.batch_size, len(lineup)
    checked = 0
    for _ in range(steps):
        seats = game.state.actor.astype(np.int64)
        who = (seats + np.arange(B)) % n
        actions = np.zeros(B, np.int64)
        obs = game.observe()
        mask = game.legal_mask()
        for k, agent in enumerate(lineup):
            i = np.flatnonzero(who == k)
            if i.size:
                actions[i] = agent.act(obs[i], mask[i])
        assert mask[np.arange(B), actions].all(), "a bot picked an illegal action"
        checked += B
        game.step(actions)
    return checked


@pytest.mark.parametrize("rules", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_pick_only_legal_actions(rules, players):
    game = VecGame(rules, players, batch_size=24, seed=players)
    greedy, heuristic = (agents.load(n, game=game) for n in BOTS)
    random = agents.load("random", seed=0)
    play_batch(game, [heuristic], 120)  # every seat the heuristic
    play_batch(game, [greedy], 60)  # every seat greedy
    play_batch(game, [heuristic, greedy, random], 150)  # mixed tables


@pytest.mark.parametrize("rules, options", [
    ("standard_en", {"seven_o": True, "jump_in": True, "stacking": "escalating", "stack_skip": True}),
    ("standard_en", {"stacking": "same_type", "uno_enforcement": "automatic"}),
    ("standard_ru", {"challenge": False, "wild_draw_restriction": "no_playable"}),
    ("flip_jp", {"jump_in": True, "stacking": "same_type", "flip_back_faces_visible": False}),
    ("flip_jp", {"wild_draw_restriction": "color_only", "challenge_guilty": "offender_suffers",
                 "flip_revealed_wild": "flipper", "flip_first_card": "apply"}),
    ("solo_bga", {"two_player_reverse": "reverse", "jump_in_wilds": True}),
    ("flip_jp", {"uno_catch_out_of_turn": True, "jump_in": True}),
    ("standard_en", {"uno_catch_out_of_turn": True}),
])
@pytest.mark.parametrize("players", [2, 5, 10])
def test_bots_pick_only_legal_actions_with_options(rules, options, players):
    game = VecGame(rules, players, batch_size=16, seed=7, **options)
    lineup = [agents.load(n, game=game) for n in BOTS] + [agents.load("random", seed=1)]
    play_batch(game, lineup, 120)


def test_bots_accept_a_pettingzoo_env_and_an_engine_holder():
    pytest.importorskip("pettingzoo")
    from uno_env import raw_env

    env = raw_env(rules="flip_jp", num_players=3)
    env.reset(seed=3)
    bot = agents.load("heuristic", game=env)
    obs, *_ = env.last()
    a = bot.act(obs["observation"][None], obs["action_mask"][None].astype(bool))
    assert obs["action_mask"][a[0]] == 1

    class Holder:  # anything with .engine and .observer
        def __init__(self, game):
            self.engine, self.observer = game.engine, game.observer

    game = VecGame("solo_bga", 4, batch_size=2, seed=0)
    assert GreedyAgent(game=Holder(game)).act(game.observe(), game.legal_mask()).shape == (2,)


def test_scripted_bots_need_the_game_and_its_layout():
    with pytest.raises(ValueError, match="needs the game"):
        agents.load("heuristic")
    bot = agents.load("greedy", game=VecGame("standard_en", 2, batch_size=1, seed=0))
    other = VecGame("flip_jp", 2, batch_size=1, seed=0)
    with pytest.raises(ValueError, match="observations of size"):
        bot.act(other.observe(), other.legal_mask())
    assert {"greedy", "heuristic", "random"} <= set(agents.available())


def test_bots_are_deterministic():
    game = VecGame("standard_en", 3, batch_size=64, seed=5)
    obs, mask = game.observe(), game.legal_mask()
    for name in BOTS:
        a, b = agents.load(name, game=game), agents.load(name, game=game, seed=99)
        assert (a.act(obs, mask) == b.act(obs, mask, np.random.default_rng(1))).all()


# ---------------------------------------------------------------------- ObsView
def test_bots_multiply_on_one_blas_thread_and_restore_the_count():
    """A second BLAS thread waits for a busy core on every small product (agents.base.one_blas_thread):
    a batch big enough for BLAS to split is scored on one thread, and the count is restored after."""
    from threadpoolctl import threadpool_info, threadpool_limits

    def blas_threads():
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    if not blas_threads():
        pytest.skip("numpy's BLAS is not visible to threadpoolctl")
    for batch, inside in ((512, [1]), (1, [2])):  # one game: too small for BLAS to split, left alone
        game = VecGame("standard_en", 2, batch_size=batch, seed=0)
        bot = agents.load("heuristic", game=game)
        seen = []

        def scores(obs, mask, seen=seen, inner=bot.scores):  # records the BLAS threads while scoring
            seen.append(blas_threads())
            return inner(obs, mask)

        bot.scores = scores
        with threadpool_limits(limits=2, user_api="blas"):
            actions = bot.act(game.observe(), game.legal_mask())
            after = blas_threads()
        assert game.legal_mask()[np.arange(batch), actions].all()
        assert set(seen[0]) == set(inside) and set(after) == {2}


def test_view_reads_seats_relative_to_the_observer():
    game = VecGame.from_position({"rules": "standard_en", "players": 4, "direction": -1,
                                  "hands": ["R1 R2", "G1", "B1 B2 R3", "Y1 Y2 Y3 Y4"],
                                  "discard": "R5", "to_move": 2})
    view = ObsView(game)
    obs = game.observe(seats=[2], rows=[0])
    assert view.seat(obs)[0] == 2
    assert view.hand_sizes(obs)[0].tolist() == [3, 4, 2, 1]  # seats 2, 3, 0, 1
    assert view.direction(obs)[0] == -1
    assert view.next_rel(obs)[0] == 3  # seat 1, the next one counter-clockwise
    assert view.rel_to_abs(obs, view.next_rel(obs))[0] == 1
    assert view.abs_to_rel(obs, np.array([0]))[0] == 2
    tgt = view.action_target_rel(obs)[0]
    assert tgt[game.action_index("catch @1")] == 3 and tgt[game.action_index("draw")] == -1
    hand = view.get(obs, "hand")[0]
    assert {view.face_names[f] for f in np.flatnonzero(hand)} == {"B1", "B2", "R3"}


def test_view_counts_unseen_cards_on_the_active_side():
    game = VecGame("flip_jp", 2, batch_size=1, seed=0)
    view = ObsView(game)
    obs = game.observe()
    unseen = view.unseen(obs)[0]
    side = view.side(obs)[0]
    assert unseen[view.face_side != side].sum() == 0
    # every card is in the observer's hand, the discard pile or unseen
    seen = view.hand(obs)[0].sum() + view.get(obs, "discard")[0].sum()
    assert unseen.sum() + seen == 112


# ---------------------------------------------------------------------- behaviour
def decide(name: str, setup: dict, **params) -> str:
    """The action the bot ``name`` picks for the seat to move in ``setup``."""
    game = VecGame.from_position(setup)
    seat = int(game.state.actor[0])
    bot = HeuristicAgent(game=game, **params) if name == "heuristic" else agents.load(name, game=game)
    a = bot.act(game.observe(seats=[seat], rows=[0]), game.state.mask[:1])
    return game.action_name(int(a[0]))


@pytest.mark.parametrize("name", BOTS)
def test_bot_declares_uno_when_offered(name):
    setup = {"rules": "standard_en", "players": 2, "hands": ["R5 G7", "B1 B2 B3"], "discard": "R1",
             "to_move": 0}
    assert decide(name, setup) == "uno"


@pytest.mark.parametrize("name", BOTS)
def test_bot_catches_a_vulnerable_seat(name):
    setup = {"rules": "standard_en", "players": 3, "hands": ["R5 G7 B2", "Y4 Y5", "B9"],
             "discard": "R1", "to_move": 0, "uno_vulnerable": [2]}
    assert decide(name, setup) == "catch @2"


@pytest.mark.parametrize("name", BOTS)
def test_bot_catches_when_offered_out_of_turn(name):
    setup = {"rules": "standard_en", "options": {"uno_catch_out_of_turn": True}, "players": 2,
             "hands": ["R5", "B1 B2 B3"], "discard": "RS", "played_by": 0, "to_move": 1, "turn": 0,
             "phase": "jump_in", "jump_in_order": [1], "uno_vulnerable": [0]}
    assert decide(name, setup) == "catch @0"


def test_heuristic_hits_a_next_seat_holding_one_card_with_a_draw_two():
    setup = {"rules": "standard_en", "players": 3, "hands": ["R5 R9 R+2 G7 B4", "Y4", "B1 B2 B3 G4"],
             "discard": "R1", "to_move": 0}
    assert decide("heuristic", setup) == "play R+2"


def test_heuristic_keeps_a_draw_two_as_a_weapon_heads_up():
    # both give another turn with two players; the Draw Two is worth more later
    setup = {"rules": "standard_en", "players": 2, "hands": ["R5 RS R+2 G7 B4", "Y4 Y5 Y6 G1 G2 G3"],
             "discard": "R1", "to_move": 0}
    assert decide("heuristic", setup) == "play RS"


def test_greedy_plays_the_highest_point_card_and_wilds_last():
    setup = {"rules": "standard_en", "players": 2, "hands": ["R5 R9 G9 W W+4 B3", "Y4 Y5 Y6"],
             "discard": "R1", "to_move": 0}
    assert decide("greedy", setup) == "play R9"
    setup["hands"][0] = "R5 RS G9 W"
    assert decide("greedy", setup) == "play RS"
    setup["hands"][0] = "G9 W B3 B4"
    assert decide("greedy", setup) == "play W B"  # only wilds: the colour held most


def test_heuristic_declares_the_colour_it_holds_most():
    # only a wild is playable and an opponent is close to going out: play it, naming blue
    setup = {"rules": "standard_en", "players": 2, "hands": ["G9 W B3 B4 B7", "Y4 Y5"],
             "discard": "R1", "to_move": 0}
    assert decide("heuristic", setup) == "play W B"


def test_heuristic_names_its_colour_for_a_wild_turned_first():
    setup = {"rules": "standard_en", "players": 2, "hands": ["G9 Y3 G3 G4 B7", "Y4 Y5 Y7 Y8"],
             "discard": "W", "to_move": 0, "phase": "choose"}
    assert decide("heuristic", setup) == "choose G"


def test_heuristic_plays_the_colour_it_holds_most():
    # R3 keeps red (three more reds); G3 would switch to a colour it holds little of
    setup = {"rules": "standard_en", "players": 2, "hands": ["R3 R5 R6 R8 G3", "Y4 Y5 Y6 Y7 Y8"],
             "discard": "G1 B3", "to_move": 0}
    assert decide("heuristic", setup) == "play R3"


def test_heuristic_draws_to_keep_its_only_wild_early():
    setup = {"rules": "standard_en", "players": 2, "hands": ["G9 W B3 B4 B7", "Y4 Y5 Y6 Y7 Y8 Y9"],
             "discard": "R1", "to_move": 0}
    assert decide("heuristic", setup) == "draw"


def test_heuristic_does_not_bluff_a_wild_draw_four():
    setup = {"rules": "standard_en", "players": 2, "hands": ["R5 W+4 G3 G4", "Y4 Y5 Y6 Y7"],
             "discard": "R1", "to_move": 0}
    assert decide("heuristic", setup) == "play R5"


def test_heuristic_accepts_a_likely_honest_wild_draw_four():
    # the offender holds one card: it very likely had no red
    setup = {"rules": "standard_en", "players": 2, "hands": ["R5 G3 G4", "Y4"], "discard": "R1 W+4",
             "color": "B", "prev_color": "R", "played_by": 1, "to_move": 0, "phase": "pending",
             "pending_draw": 4}
    assert decide("heuristic", setup) == "accept"
    assert decide("greedy", setup) == "accept"


def test_heuristic_challenges_a_likely_bluff():
    # the offender holds twelve cards and most reds are unseen: it very likely held a red
    setup = {"rules": "standard_en", "players": 2, "hands": ["G3 G4 B5",
                                                             "Y1 Y2 Y3 Y4 Y5 Y6 G1 G2 G5 B1 B2 B3"],
             "discard": "R1 W+4", "color": "B", "prev_color": "R", "played_by": 1, "to_move": 0,
             "phase": "pending", "pending_draw": 4}
    assert decide("heuristic", setup) == "challenge"


def test_heuristic_stacks_rather_than_takes():
    setup = {"rules": "house_cn", "players": 3, "hands": ["G3 G+2 W+4 B5", "Y4 Y5", "R1 R2 R3"],
             "discard": "R1 R+2", "played_by": 2, "to_move": 0, "phase": "pending", "pending_draw": 2}
    assert decide("heuristic", setup) == "play G+2"


def test_heuristic_swaps_hands_with_the_seat_holding_fewest_cards():
    setup = {"rules": "solo_bga", "players": 4, "hands": ["R5 RX G3 G4 B5 B6", "Y4 Y5 Y6", "Y1", "B1 B2"],
             "discard": "R1", "to_move": 0}
    assert decide("heuristic", setup) == "play RX @2"


def test_heuristic_does_not_swap_into_a_larger_hand():
    setup = {"rules": "solo_bga", "players": 2, "hands": ["R5 RX", "Y1 Y4 Y5 Y6 Y7 Y8"],
             "discard": "R1", "to_move": 0, "declared": True}
    assert decide("heuristic", setup) == "play R5"


def test_heuristic_jumps_in():
    setup = {"rules": "solo_bga", "players": 3, "hands": ["G3 G4 B7", "R5 Y4 Y5", "B1 B2 R5"],
             "discard": "R1", "to_move": 2}
    game = VecGame.from_position(setup)
    game.step(np.array([game.action_index("play R5")]))  # seat 1 may jump in before seat 0's turn
    assert int(game.state.actor[0]) == 1 and "pass" in game.legal_actions()
    bot = agents.load("heuristic", game=game)
    a = bot.act(game.observe(seats=[1], rows=[0]), game.state.mask[:1])
    assert game.action_name(int(a[0])) == "play R5"


def test_a_person_can_play_a_round_against_the_shipped_four_player_agent():
    """``uno play --opponents ppo-standard_en-4p``: the person always takes the first listed move."""
    pytest.importorskip("sb3_contrib")
    if "ppo-standard_en-4p" not in agents.shipped():
        pytest.skip("the 4-player agent is not shipped")
    import argparse

    from uno_apps.cli import play

    lines = []
    answers = iter(["0"] * 3000)  # the first legal move each time, and "next round" until the game ends
    args = argparse.Namespace(rules="standard_en", players=4, seed=3, plain=True, seat=0,
                              opponents="ppo-standard_en-4p", record=None)
    def inp(prompt):  # the first legal move each time; yes to the next round
        return "y" if prompt.startswith("next round") else next(answers, "q")

    assert play(args, inp=inp, out=lines.append) == 0
    text = "\n".join(map(str, lines))
    from uno_env.render import fit
    seats = {fit(f"ppo-standard_en-4p_{p}").strip() for p in (1, 2, 3)}
    assert len(seats) == 3 and all(s in text for s in seats)  # three opponents, told apart
    assert "game over" in text and "round over:" in text


def test_heuristic_infers_nothing_from_seats_that_were_never_asked_on_a_first_card():
    """house_cn counts the first player out from the first card: the seats before it did not pass,
    so nothing says seat 0 lacks yellow (it holds Y1 and YS); declare the colour held most."""
    setup = {"rules": "house_cn", "players": 2, "hands": ["Y1 YS G5 GR B1 B3 BS", "G4 G4 G6 G+2 B8 W+4 W+4"],
             "discard": "G+2 Y2", "color": "Y", "to_move": 1, "dealer": 1, "played_by": 1, "first_play": True}
    assert decide("heuristic", setup) == "play W+4 G"


def test_heuristic_reads_the_previous_colour_only_where_the_engine_keeps_it():
    """Without challenges the engine does not track the colour under the top card, so a wild played
    by the next seat says nothing about the colours it lacks."""
    game = VecGame.from_position({"rules": "house_cn", "players": 2, "hands": ["W R5 B5 G3 G4", "W Y1 Y2 Y3 Y4 Y5 Y6"],
                                  "discard": "R2 B9", "to_move": 1})
    game.step(np.array([game.action_index("play W G")]))
    bot = agents.load("heuristic", game=game, seed=0)
    assert game.action_name(int(bot.act(game.observe(), game.legal_mask())[0])) == "play G4"


def test_heuristic_chooses_the_colour_for_its_own_next_play_by_its_hand():
    """A Flip revealed a wild and the seat to play next declares its colour: its own hand decides, not
    the backs of the next seat's cards."""
    setup = {"rules": "flip_jp", "players": 2, "side": "dark", "hands": ["R1/P3 R5/T5 Y9/T5",
             "Y2/T1 Y2/T8 G2/TSE B8/T4"], "discard": "R7/O1 RS/W", "to_move": 0, "phase": "choose", "turn": 0,
             "played_by": 1}
    assert decide("heuristic", setup) == "choose T"


@pytest.mark.parametrize("setup", [
    {"rules": "standard_en", "options": {"stacking": "escalating"}, "players": 3,
     "hands": ["R3 W+4 B5 B6", "Y4 Y5 Y6 Y7", "R1 R2 R4"], "discard": "R5 R+2", "played_by": 2, "to_move": 0,
     "phase": "pending", "pending_draw": 2},
    {"rules": "flip_jp", "options": {"stacking": "escalating"}, "players": 3,
     "hands": ["R3/P7 W+2/P2 B5/P9 B6/TSE", "Y4/P+5 Y5/T8 Y6/OSE Y7/O2", "R1/P3 R2/OR R4/OF"],
     "discard": "R5/P2 R+1/P3", "played_by": 2, "to_move": 0, "phase": "pending", "pending_draw": 1},
])
def test_heuristic_does_not_bluff_a_restricted_wild_draw_card_to_stack(setup):
    """Rule 8 holds when stacking too: holding a card that fits, it takes the penalty rather than stack
    a wild draw card it may not play (a challenge would catch it)."""
    assert decide("heuristic", setup) == "draw"

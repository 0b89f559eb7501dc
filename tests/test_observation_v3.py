"""Observation v3 shows what the table has seen and nothing else (rules §1.10, §1.6).

Positions are in the notation (docs/notation.md).  Each scenario builds two games that differ only in
what one seat may not see and plays the same public moves in both: that seat's v3 observation must be
the same in both, and a seat that did see the difference (the challenger, the giver of a hand) must
see it.
"""


import numpy as np
import pytest

from uno_env import PRESETS, VecGame
from uno_env.core.observe import SLOTS, SLOTS_V3, Observer
from uno_env.core.state import OVER


def game_at(rules="standard_en", players=3, options=None, **setup):
    pos = {"rules": rules, "players": players, **setup}
    if options:
        pos["options"] = options
    return VecGame.from_position(pos, observation="v3")


def act(game, *moves):
    for name in moves:
        game.step(np.array([game.action_index(name)]))
    return game


def obs(game, seat):
    one = game.observer.observe_one(game.state, seat)
    assert np.array_equal(one, game.observe(seats=[seat], rows=[0])[0])
    return one


def part(game, o, name):
    sl = game.observer.slots[name]
    return o[sl.start:sl.stop]


CHALLENGE = dict(discard="R7", draw_pile="B1 B2 B3 B4 B5 B6 B7 B8", to_move=0)


def test_a_challenged_hand_is_shown_to_the_challenger_and_to_nobody_else():
    # rules §1.6: guilty both times (seat 0 holds the active colour, R3); seat 0's G5 or B5 is shown to seat 1
    a = game_at(hands=["W+4 R3 G5", "G1 Y2 G3", "G4 Y5 Y6"], **CHALLENGE)
    b = game_at(hands=["W+4 R3 B5", "G1 Y2 G3", "G4 Y5 Y6"], **CHALLENGE)
    act(a, "play W+4 G")
    act(b, "play W+4 G")
    assert np.array_equal(obs(a, 1), obs(b, 1))  # before the challenge, seat 1 cannot tell
    act(a, "challenge")
    act(b, "challenge")
    assert a.memory.last_challenge() == {"challenger": 1, "offender": 0, "hand": ["R3", "G5"], "guilty": True}
    assert b.memory.last_challenge()["hand"] == ["R3", "B5"]
    assert not np.array_equal(obs(a, 1), obs(b, 1))  # the challenger saw the two hands
    assert np.array_equal(obs(a, 2), obs(b, 2))  # the third seat did not
    known = part(a, obs(a, 1), "known").reshape(2, -1)  # seat 1's relative seats 1, 2: absolute 2, 0
    f = a.engine.deck.face_id
    assert known[1, f("R3")] == 1 and known[1, f("G5")] == 1 and known[1].sum() == 2 and known[0].sum() == 0


def test_a_challenged_hand_shows_also_when_the_challenge_fails():
    a = game_at(hands=["W+4 Y3 G5", "G1 Y2 G3", "G4 Y5 Y6"], **CHALLENGE)
    b = game_at(hands=["W+4 Y3 B5", "G1 Y2 G3", "G4 Y5 Y6"], **CHALLENGE)
    for g in (a, b):
        act(g, "play W+4 G", "challenge")
        assert g.memory.last_challenge()["guilty"] is False
    assert not np.array_equal(obs(a, 1), obs(b, 1))
    assert np.array_equal(obs(a, 2), obs(b, 2))



def test_an_innocent_challenge_verdict_tells_everyone_the_offender_held_none_of_the_previous_colour():
    # rules §1.6: seat 0 holds no red (the colour before its W+4): the challenge fails, in front of everyone, so
    # every seat knows seat 0 lacked red, as if it had drawn on red; a guilty verdict says no such thing
    g = game_at(hands=["W+4 Y3 G5", "G1 Y2 G3", "G4 Y5 Y6"], **CHALLENGE)
    act(g, "play W+4 G", "challenge")
    red = 0
    for seat in (1, 2):
        lacks = part(g, obs(g, seat), "lacks").reshape(3, 10)
        assert lacks[(0 - seat) % 3, red] == 1 and lacks.sum() == 1  # seat 0 at relative position -seat
        lacked = part(g, obs(g, seat), "lacked").reshape(3, 4)
        assert lacked[(0 - seat) % 3, red] == 1  # a fresh lack: 0.7 ** 0
    guilty = game_at(hands=["W+4 R3 G5", "G1 Y2 G3", "G4 Y5 Y6"], **CHALLENGE)
    act(guilty, "play W+4 G", "challenge")
    assert part(guilty, obs(guilty, 2), "lacks").reshape(3, 10)[1].sum() == 0

def test_flip_a_card_taken_back_after_a_guilty_challenge_is_known_to_everyone():
    # rules §7.3, retract_and_draw_2: R7/U5 and R9/U5 show the same back to seat 2; both are red (guilty)
    pos = dict(discard="R5/P2", draw_pile="Y9/T5 G5/T4 Y3/U1", to_move=0)
    a = game_at("flip_jp", hands=["W+2/O4 R7/U5 G4/P8", "Y2/T1 Y5/U9 B2/P6", "R1/P3 G7/T2 B3/U8"], **pos)
    b = game_at("flip_jp", hands=["W+2/O4 R9/U5 G4/P8", "Y2/T1 Y5/U9 B2/P6", "R1/P3 G7/T2 B3/U8"], **pos)
    for g in (a, b):
        act(g, "play W+2 G", "challenge")
        assert g.memory.last_challenge()["guilty"] is True
    assert not np.array_equal(obs(a, 1), obs(b, 1))
    assert np.array_equal(obs(a, 2), obs(b, 2))
    f = a.engine.deck.face_id
    for seat, rel in ((1, 2), (2, 1)):  # the returned W+2 is known to both others
        assert part(a, obs(a, seat), "known").reshape(2, -1)[rel - 1, f("W+2")] == 1


def test_flip_the_table_knows_the_other_face_of_every_card_in_the_discard_pile():
    # rules §7.4 with flip_back_faces_visible: each card's back was seen in a hand or on the draw pile
    pos = dict(discard="R5/P2", draw_pile="Y9/T5 G5/T4 Y3/U1", to_move=0)
    hands = ["R7/U5 G4/P8 Y2/T1", "R8/T7 Y5/U9 B2/P6", "R1/P3 G7/T2 B3/U8"]
    g = game_at("flip_jp", hands=hands, **pos)
    act(g, "play R7", "play R8")
    def f(name):  # the dark faces, the backs of the light side in play
        return g.engine.deck.face_id(name, side=1)

    for seat in (0, 1, 2):
        backs = part(g, obs(g, seat), "discard_backs")
        assert backs.sum() == 3 and all(backs[f(x)] == 1 for x in ("P2", "U5", "T7"))
    act(g, "play R1")  # the third seat's card joins the pile, its back too
    assert part(g, obs(g, 0), "discard_backs")[f("P3")] == 1
    hidden = game_at("flip_jp", options={"flip_back_faces_visible": False}, hands=hands, **pos)
    assert "discard_backs" not in hidden.observer.slots  # backs never seen: nothing to remember


def test_a_swap_shows_the_giver_the_hand_it_gave_and_nobody_else():
    # SOLO Swap: seat 0 gives its hand (G1 G2 or G1 B2) to seat 1 and takes seat 1's
    pos = dict(discard="R3", draw_pile="Y1 Y2 Y3 Y4", to_move=0)
    a = game_at("solo_bga", hands=["RX G1 G2", "Y7 Y2", "B1 B2 B3 B4"], **pos)
    b = game_at("solo_bga", hands=["RX G1 B2", "Y7 Y2", "B1 B2 B3 B4"], **pos)
    act(a, "play RX @1")
    act(b, "play RX @1")
    assert np.array_equal(obs(a, 2), obs(b, 2))
    assert not np.array_equal(obs(a, 0), obs(b, 0))
    f = a.engine.deck.face_id
    known = part(a, obs(a, 0), "known").reshape(2, -1)
    assert known[0, f("G1")] == 1 and known[0, f("G2")] == 1 and known[0].sum() == 2
    known = part(a, obs(a, 1), "known").reshape(2, -1)  # seat 1 gave Y7 Y2 to seat 0 (its relative 2)
    assert known[1, f("Y7")] == 1 and known[1, f("Y2")] == 1


def test_a_known_card_is_dropped_when_its_holder_plays_that_face():
    g = game_at("solo_bga", hands=["RX R1 G2", "Y7 Y2 B2", "B1 B2 B3 B4"], discard="R3", draw_pile="Y1 Y2",
                to_move=0)
    act(g, "play RX @1")  # seat 1 now holds R1 G2 and moves next
    f = g.engine.deck.face_id
    assert g.state.actor[0] == 1
    assert part(g, obs(g, 0), "known").reshape(2, -1)[0, [f("R1"), f("G2")]].tolist() == [1, 1]
    act(g, "play R1")
    assert part(g, obs(g, 0), "known").reshape(2, -1)[0, [f("R1"), f("G2")]].tolist() == [0, 1]


def test_seven_o_a_seven_and_a_zero_make_the_hands_passed_on_known():
    opts = {"seven_o": True}
    pos = dict(discard="R3", draw_pile="Y1 Y2 Y3 Y4 Y5 Y6", to_move=0)
    g = game_at("standard_en", options=opts, hands=["R7 G1 G2", "Y7 Y2 Y9", "B1 B2 B3 B4"], **pos)
    act(g, "play R7 @2")  # seat 2 now holds G1 G2; seat 0 holds B1 B2 B3 B4
    f = g.engine.deck.face_id
    k0 = part(g, obs(g, 0), "known").reshape(2, -1)
    assert k0[1, f("G1")] == 1 and k0[1, f("G2")] == 1 and k0[0].sum() == 0
    k2 = part(g, obs(g, 2), "known").reshape(2, -1)  # seat 2 knows seat 0 (its relative 1) holds B1..B4
    assert k2[0, [f("B1"), f("B2"), f("B3"), f("B4")]].sum() == 4
    assert part(g, obs(g, 1), "known").sum() == 0  # seat 1 saw nothing
    # a 0 passes every hand on in the direction of play: seat p knows the hand it passed to p + 1
    z = game_at("standard_en", options=opts, hands=["R0 G1 G2", "Y7 Y2 Y9", "B1 B2 B3 B4"], **pos)
    act(z, "play R0")
    passed = {0: ["G1", "G2"], 1: ["Y2", "Y7", "Y9"], 2: ["B1", "B2", "B3", "B4"]}
    for seat in range(3):  # (the next seat may have drawn since: the cards drawn are not known)
        k = part(z, obs(z, seat), "known").reshape(2, -1)
        assert sorted(z.engine.deck.faces[i].name for i in np.repeat(np.arange(z.engine.F), k[0].astype(int))) \
            == passed[seat]
        assert k[1].sum() == 0


def test_the_unseen_cards_are_the_deck_less_the_hand_the_discard_pile_and_the_known_cards():
    g = game_at(hands=["W+4 R3 G5", "G1 Y2 G3", "G4 Y5 Y6"], **CHALLENGE)
    act(g, "play W+4 G", "challenge")
    o = obs(g, 1)
    copies = g.engine.deck.kind_counts
    expect = copies - part(g, o, "hand") - part(g, o, "discard") - part(g, o, "known").reshape(2, -1).sum(0)
    assert np.array_equal(part(g, o, "unseen"), expect)
    assert part(g, o, "unseen").sum() == 108 - 3 - 2 - 2  # its hand, the pile (R7 W+4), the shown R3 G5


def test_the_last_plays_are_listed_newest_first_with_the_colour_declared():
    g = game_at(hands=["W G5 G6", "G1 Y2 G3", "G4 Y5 Y6"], discard="R7", draw_pile="B1 B2 B3", to_move=0)
    act(g, "play W G", "play G1", "play G4")
    rec = part(g, obs(g, 0), "recent").reshape(8, -1)
    P, F, f = 3, g.engine.F, g.engine.deck.face_id
    assert [int(r[:P].argmax()) for r in rec[:3]] == [2, 1, 0]  # relative seats, newest first
    assert [int(r[P:P + F].argmax()) for r in rec[:3]] == [f("G4"), f("G1"), f("W")]
    assert rec[2, P + F + 2] == 1 and rec[:2, P + F:].sum() == 0  # W declared green (colour 2); G1/G4 none
    assert not rec[3:].any()
    assert g.memory.plays(0) == [(0, f("W"), 2), (1, f("G1"), -1), (2, f("G4"), -1)]


def test_colours_drawn_on_are_remembered_until_the_seat_plays():
    # seats 0 and 1 hold no blue and nothing matching B7: both draw (forced moves) on blue; seat 2 is asked
    g = game_at(hands=["R1 R2", "G1 Y2 G3", "B4 Y5 Y6"], discard="B7", draw_pile="Y1 Y3 Y4 Y7 Y8", to_move=0)
    assert g.state.actor[0] == 2
    o = obs(g, 2)
    lacks = part(g, o, "lacks").reshape(3, 10)
    assert lacks[1, 3] == 1 and lacks[2, 3] == 1 and lacks.sum() == 2  # relative 1, 2 = seats 0, 1; blue = 3
    assert np.allclose(part(g, o, "drawn_since"), [0, 0.1, 0.1])
    g = game_at(hands=["R1 B2", "G1 Y2 G3", "B4 Y5 Y6"], discard="B7", draw_pile="Y1 Y3 Y4 Y7 Y8", to_move=1)
    act(g, "play B4")  # seat 1 drew on blue, seat 2 plays; seat 0 plays B2: its memory of blue goes
    assert part(g, obs(g, 0), "lacks").reshape(3, 10)[1, 3] == 1
    act(g, "play B2")
    assert part(g, obs(g, 1), "lacks").reshape(3, 10)[2].sum() == 0



def test_a_lack_outlives_the_seats_plays_and_fades_with_each_card_it_draws():
    # seat 1 holds no blue and nothing matching B9: it draws (a forced move) on blue; seat 2 plays Y9, seat 0
    # draws on yellow, seat 1 plays Y2: the colours it drew on since its last play go, its lack of blue stays
    g = game_at(hands=["R1 R2 R3", "G1 Y2 G3", "Y9 Y+2 B6"], discard="B9", draw_pile="G2 G6 G7 G4 G5 G3", to_move=1)
    act(g, "play Y9", "play Y2")
    o = obs(g, 2)  # seat 1 is seat 2's relative seat 2; blue is colour 3
    assert part(g, o, "lacks").reshape(3, 10)[2].sum() == 0
    assert part(g, o, "lacked").reshape(3, 4)[2].tolist() == [0, 0, 0, 1]
    assert part(g, o, "last_how").reshape(3, 2)[2].tolist() == [1, 0]  # it played after a lack, kept yellow
    act(g, "play Y+2", "draw")  # seat 0 takes two; seat 1 then draws one card on yellow
    lacked = part(g, obs(g, 2), "lacked").reshape(3, 4)[2]
    assert lacked[1] == 1 and np.isclose(lacked[3], 0.7) and lacked[[0, 2]].sum() == 0


def test_each_seats_last_play_and_declared_colour_fade_with_the_plays_since():
    g = game_at(hands=["W G5 G6", "G1 Y2 G3", "G4 Y5 Y6"], discard="R7", draw_pile="B1 B2 B3", to_move=0)
    act(g, "play W G", "play G1", "play G4")
    o = obs(g, 0)
    last = part(g, o, "last_play").reshape(3, 5)  # the deck's colours, then wild
    assert np.allclose(last, [[0, 0, 0, 0, 0.85 ** 2], [0, 0, 0.85, 0, 0], [0, 0, 1, 0, 0]])
    assert np.isclose(part(g, o, "last_from").reshape(3, 10)[0, 0], 0.85 ** 2)  # the W came on red
    assert part(g, o, "last_how").reshape(3, 2).tolist() == [[0, 1], [0, 0], [0, 0]]  # the W changed colour
    assert np.allclose(part(g, o, "declared_last").reshape(3, 4), [[0, 0, 0.85 ** 2, 0], [0] * 4, [0] * 4])
    assert part(g, o, "held").reshape(3, 10)[:, 2].tolist() == [0, 1, 1]  # green shown by G1, G4; not by W

def _hidden_of(game, seat, s):
    """The kinds in seat ``s``'s hand that ``seat`` does not know (known copies are matched by face)."""
    e, st = game.engine, game.state
    side = int(st.side[0])
    known = game.memory.known[0, seat, s].astype(int).copy()
    out = []
    for k in np.repeat(np.arange(e.K), st.hands[0, s]).tolist():
        f = e.KF[side, k]
        if known[f]:
            known[f] -= 1
        else:
            out.append(k)
    return np.array(out, np.int64)


def _hidden_shuffle(game, seat, rng):
    """A copy of ``game`` (batch of one) with what ``seat`` cannot see shuffled: the cards of the other
    hands it does not know and the draw pile (UNO Flip: only cards showing the same back trade places,
    and the draw pile's top card, whose back is public, stays)."""
    e = game.engine
    twin = VecGame(game.rules, game.num_players, batch_size=1, seed=0, autoreset=False, observation="v3")
    twin.state.put(slice(None), game.state)  # every array, the memory's included
    st = twin.state
    pile = max(int(st.draw_n[0]) - (1 if e.two_sided else 0), 0)  # the draw pile's hidden part
    others = [s for s in range(e.P) if s != seat]
    hidden = {s: _hidden_of(game, seat, s) for s in others}
    pool = np.concatenate([st.draw[0, :pile].astype(np.int64)] + [hidden[s] for s in others])
    owner = np.concatenate([np.full(pile, -1)] + [np.full(hidden[s].size, s) for s in others])
    side = int(st.side[0])
    groups = e.KF[1 - side, pool] if e.two_sided else np.zeros(pool.size, np.intp)
    for b in np.unique(groups):
        i = np.flatnonzero(groups == b)
        pool[i] = pool[rng.permutation(i)]
    st.draw[0, :pile] = pool[owner == -1]
    for s in others:
        st.hands[0, s] += (np.bincount(pool[owner == s], minlength=e.K) - np.bincount(hidden[s], minlength=e.K)
                           ).astype(np.int8)
    e.resync(st, np.zeros(1, np.intp))
    return twin


OPTIONS = {"standard_en": {}, "standard_ru": {"seven_o": True}, "house_cn": {}, "solo_bga": {}, "flip_jp": {}}


@pytest.mark.parametrize("rules", PRESETS)
def test_what_a_seat_cannot_see_does_not_change_its_v3_observation(rules):
    """Every preset, along random games (Swaps, Seven-O, flips and challenges happen on the way): shuffling
    the cards a seat cannot see among their hidden places leaves its observation as it was."""
    rng = np.random.default_rng(0)
    differed = 0
    for players in (2, 4):
        game = VecGame(rules, players, batch_size=1, seed=players, autoreset=True, observation="v3",
                       **OPTIONS[rules])
        for t in range(200):
            if t % 4 == 0:
                for seat in range(players):
                    twin = _hidden_shuffle(game, seat, rng)
                    assert np.array_equal(game.observer.observe_one(game.state, seat),
                                          twin.observer.observe_one(twin.state, seat)), (rules, players, t, seat)
                    assert np.array_equal(game.observe(seats=[seat]), twin.observe(seats=[seat]))
                    differed += not np.array_equal(game.state.hands, twin.state.hands)
            legal = np.flatnonzero(game.legal_mask()[0])
            game.step(np.array([rng.choice(legal)]))
    assert differed > 0  # the shuffles did change hidden cards


def test_the_v3_layout_is_the_v2_layout_then_the_memory_slices():
    for rules, players in (("standard_en", 4), ("flip_jp", 3), ("solo_bga", 10)):
        v2 = Observer(VecGame(rules, players, observation="v2").engine)
        v3 = VecGame(rules, players, observation="v3").observer
        memory_slots = [n for n, _, _ in SLOTS_V3 if n != "discard_backs" or v3.backs]
        assert [s.name for s in v3.spec] == [s.name for s in v2.spec] + memory_slots
        assert v3.spec[:len(v2.spec)] == v2.spec
        assert {n for n, _, _ in SLOTS} >= {s.name for s in v2.spec}


@pytest.mark.parametrize("rules", PRESETS)
def test_a_v3_observation_starts_with_the_v2_observation(rules):
    v2 = VecGame(rules, 4, batch_size=8, seed=3, observation="v2")
    v3 = VecGame(rules, 4, batch_size=8, seed=3, observation="v3")
    rng = np.random.default_rng(0)
    for _ in range(100):
        for seat in range(4):
            a, b = v2.observe(seats=np.full(8, seat)), v3.observe(seats=np.full(8, seat))
            assert np.array_equal(a, b[:, :v2.observation_size])
        act_ = (rng.random((8, v2.num_actions)) * v2.legal_mask()).argmax(1)
        v2.step(act_)
        v3.step(act_)


@pytest.mark.parametrize("rules", [*PRESETS, "plus_minus", "cumulative_low"])
def test_observation_bounds_are_finite_and_hold_in_play(rules):
    opts = {"scoring_mode": rules} if rules in ("plus_minus", "cumulative_low") else {}
    preset = "standard_en" if opts else rules
    for version in ("v2", "v3"):
        game = VecGame(preset, 3, batch_size=16, seed=2, observation=version, **opts)
        low, high = game.observer.bounds()
        assert np.isfinite(low).all() and np.isfinite(high).all()
        rng = np.random.default_rng(0)
        for _ in range(150):
            for seat in range(3):
                o = game.observe(seats=np.full(16, seat))
                assert ((o >= low) & (o <= high)).all()
            game.step((rng.random((16, game.num_actions)) * game.legal_mask()).argmax(1))


def test_v3_without_the_memory_is_a_clear_error():
    game = VecGame("standard_en", 2, observation="v2")
    with pytest.raises(ValueError, match="memory"):
        Observer(game.engine, "v3").observe(game.state, np.array([0]), np.array([0]))
    with pytest.raises(ValueError, match="observation='v4' is not a layout"):
        VecGame("standard_en", 2, observation="v4")


# ---------------------------------------------------------------------------- the AEC environment
@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed_tests_pass_with_observation_v3(rules, players):
    from pettingzoo.test import api_test, seed_test

    from uno_env import aec
    api_test(aec.env(rules=rules, num_players=players, observation="v3"), num_cycles=100)
    seed_test(lambda: aec.env(rules=rules, num_players=players, observation="v3"), num_cycles=100)


def test_the_aec_env_shows_a_challenged_hand_in_the_challengers_infos_only_for_that_step():
    from uno_env.aec import raw_env

    env = raw_env(rules="standard_en", num_players=3)
    assert env.game.observer.version == "v3"
    env.reset(options={"setup": {"rules": "standard_en", "players": 3, "hands": ["W+4 R3 G5", "G1 Y2 G3", "G4 Y5 Y6"],
                                 **CHALLENGE}})
    env.step(env.action_index("play W+4 G"))
    env.step(env.action_index("challenge"))
    assert env.infos["player_1"]["challenge"] == {"offender": "player_0", "hand": ["R3", "G5"], "guilty": True}
    assert "challenge" not in env.infos["player_0"] and "challenge" not in env.infos["player_2"]
    env.step(env.action_index("play G1"))
    assert all("challenge" not in i for i in env.infos.values())


def test_the_aec_env_keeps_the_v2_layout_on_request():
    from uno_env.aec import raw_env

    v2 = raw_env(rules="standard_en", num_players=4, observation="v2")
    assert v2.observation_space("player_0")["observation"].shape == (Observer(v2.game.engine).size,)
    assert v2.game.engine.memory is None


# ---------------------------------------------------------------------------- agents and layouts
def test_a_v2_agent_plays_a_v3_game_as_it_plays_a_v2_game():
    from helpers import V2_AGENTS

    import agents

    v2 = VecGame("standard_en", 4, batch_size=32, seed=4, observation="v2")
    v3 = VecGame("standard_en", 4, batch_size=32, seed=4, observation="v3")
    a2, a3 = agents.load(V2_AGENTS[4], game=v2), agents.load(V2_AGENTS[4], game=v3)
    assert a3.observation == "v2"
    for _ in range(30):
        x = a2.act(v2.observe(), v2.legal_mask())
        assert np.array_equal(x, a3.act(v3.observe(), v3.legal_mask()))
        v2.step(x)
        v3.step(x)


def test_the_training_envs_give_each_opponent_the_layout_it_reads():
    from helpers import V2_AGENTS

    import agents
    from uno_env.arena import observer_for
    from uno_env.learner import LearnerGames

    games = LearnerGames("standard_en", 4, num_envs=8, opponents=["heuristic", V2_AGENTS[4]], seed=0)
    assert games.game.observer.version == "v3"
    assert [observer_for(games.game, a, {}).version for a in games.opponents] == ["v2", "v2"]
    for _ in range(20):
        games.step((np.random.default_rng(0).random((8, games.num_actions)) * games.action_masks()).argmax(1))
        games.restart(np.flatnonzero(games.game.state.phase == OVER))
    bot = agents.load("heuristic", game=games.game)  # a bot also takes the whole v3 observation
    bot.act(games.observe(), games.action_masks())


def test_a_model_trained_on_v3_is_refused_by_a_game_without_the_memory():
    from agents.policy import ModelMismatchError, check_compatible, layout_fingerprint

    meta = {**layout_fingerprint(VecGame("standard_en", 2, observation="v3")), "rules": "standard_en",
            "options": {}, "players": 2}
    assert meta["observation"] == "v3"
    check_compatible(meta, VecGame("standard_en", 2, observation="v3"), "model.json")
    with pytest.raises(ModelMismatchError, match="observation='v3'"):
        check_compatible(meta, VecGame("standard_en", 2, observation="v2"), "model.json")

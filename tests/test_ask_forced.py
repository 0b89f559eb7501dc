"""The AEC env's ``ask_forced``: every seat is asked at every turn, forced moves included (one legal action),
so that who is asked, and what the other seats observe meanwhile, hang on public moves only."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from uno_env import VecGame, uno_v4
from uno_env.core.actions import PLAY
from uno_env.core.cards import FLIP
from uno_env.core.config import make_rules

# every preset; solo_bga without jump-ins, whose offers go to the holders of the identical card only
TWIN_RULES = [("standard_en", {}), ("standard_ru", {}), ("house_cn", {}), ("solo_bga", {"jump_in": False}),
              ("flip_jp", {})]
PUBLIC = ("draw", "keep", "pass", "accept", "choose")  # moves that show no card by choice


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def twin_setups(rules: str, options: dict, players: int, seed: int) -> tuple[dict, dict, int]:
    """A random deal and its twin: the cards of the hands seat ``viewer`` cannot see dealt again among those
    hands (the same sizes; in UNO Flip each card keeps the back the viewer sees), all else the same."""
    setup = {k: v for k, v in VecGame(rules, players, seed=seed, **options).snapshot(0).items() if k != "legal"}
    viewer = seed % players
    hands = [h.split() for h in setup["hands"]]
    backs = make_rules(rules, **options).deck == "flip112"
    rng = np.random.default_rng(seed)
    groups: dict = {}
    for p, hand in enumerate(hands):
        if p != viewer:
            for i, card in enumerate(hand):
                groups.setdefault(card.split("/")[1] if backs else "", []).append((p, i))
    twin = [list(h) for h in hands]
    for slots in groups.values():
        cards = [hands[p][i] for p, i in slots]
        for (p, i), j in zip(slots, rng.permutation(len(slots))):
            twin[p][i] = cards[j]
    return setup, {**setup, "hands": [" ".join(h) for h in twin]}, viewer


def asked(env, setup: dict, viewer: int, seed: int, limit: int = 400) -> tuple[list, list]:
    """Play ``setup``: ``viewer`` at random, the others by public moves only, until another seat must show a
    card, the viewer exchanges hands or flips the cards (it then sees cards its twin does not), or the round
    ends.  Returns ``agent_selection`` before every step, and the viewer's observations while another seat
    is asked."""
    env.reset(options={"setup": setup})
    u = env.unwrapped
    e = u.game.engine
    rng = np.random.default_rng(seed)
    me = f"player_{viewer}"
    seats, seen = [], []
    for agent in env.agent_iter(limit):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        seats.append(agent)
        if agent == me:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(a)
            face = e.A_FACE[a]
            if e.A_KIND[a] == PLAY and (e.A_TARGET[a] >= 0 or e.F_ROTATE[face] or e.F_SYM[face] == FLIP):
                break
            continue
        seen.append(env.observe(me)["observation"].tobytes())
        public = [n for n in u.legal_actions() if n.split()[0] in PUBLIC]
        if not public:
            break
        env.step(u.action_index(public[0]))
    return seats, seen


def twin_runs(ask_forced: bool, rules: str, options: dict, seeds=range(12)) -> list:
    env = uno_v4.env(rules=rules, num_players=2, ask_forced=ask_forced, **options)
    out = []
    for seed in seeds:
        players = 2 + seed % 3
        if env.unwrapped.game.num_players != players:
            env = uno_v4.env(rules=rules, num_players=players, ask_forced=ask_forced, **options)
        a, b, viewer = twin_setups(rules, options, players, seed)
        out.append((asked(env, a, viewer, seed), asked(env, b, viewer, seed)))
    return out


@pytest.mark.parametrize("rules, options", TWIN_RULES)
def test_with_ask_forced_twins_ask_the_same_seats_and_show_the_viewer_the_same_observations(rules, options):
    for (seats_a, seen_a), (seats_b, seen_b) in twin_runs(True, rules, options):
        n = min(len(seats_a), len(seats_b))  # one twin may stop first: a seat must show a card there
        assert seats_a[:n] == seats_b[:n]
        m = min(len(seen_a), len(seen_b))
        assert seen_a[:m] == seen_b[:m]


def test_without_ask_forced_who_is_asked_tells_whether_a_hand_holds_a_playable_card():
    differ = 0
    for rules, options in TWIN_RULES:
        for (seats_a, _), (seats_b, _) in twin_runs(False, rules, options):
            n = min(len(seats_a), len(seats_b))
            differ += seats_a[:n] != seats_b[:n]
    assert differ > 0  # the channel ask_forced closes is open by default


@pytest.mark.parametrize("rules", ["standard_en", "solo_bga", "flip_jp"])
def test_pettingzoo_api_test_passes_with_ask_forced(rules):
    api_test(uno_v4.env(rules=rules, num_players=3, ask_forced=True), num_cycles=200)


def _decisions(env, seed: int, ask: bool) -> tuple[list, list, dict]:
    """A round played at random over the real decisions (the k-th real decision's choice fixed by ``seed`` and
    ``k``), the one legal action where there is one: the real decisions (seat, action), the legal counts of
    every step, the rewards."""
    env.reset(seed=seed)
    real, counts, final = [], [], {}
    for agent in env.agent_iter(100000):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        counts.append(legal.size)
        if legal.size == 1:
            env.step(int(legal[0]))
            continue
        a = int(legal[(seed * 7919 + len(real) * 104729) % legal.size])
        real.append((agent, a))
        env.step(a)
    return real, counts, final


@pytest.mark.parametrize("rules", ["standard_en", "house_cn", "solo_bga", "flip_jp"])
def test_with_ask_forced_forced_moves_are_turns_with_one_legal_action_and_the_games_are_the_same(rules):
    plain = uno_v4.env(rules=rules, num_players=3)
    ask = uno_v4.env(rules=rules, num_players=3, ask_forced=True)
    forced = 0
    for seed in range(6):
        real, counts, final = _decisions(plain, seed, False)
        real_ask, counts_ask, final_ask = _decisions(ask, seed, True)
        assert min(counts) > 1  # by default every decision offered is a real choice
        forced += counts_ask.count(1)
        assert real_ask == real and final_ask == final
        assert plain.unwrapped.snapshot() == ask.unwrapped.snapshot()
    assert forced > 0


def test_ask_forced_records_replay(tmp_path):
    from uno_env import records
    path = tmp_path / "ask.jsonl"
    env = uno_v4.env(num_players=3, ask_forced=True, record=path)
    for seed in (1, 2):
        _decisions(env, seed, True)
    env.close()
    recs = list(records.read_records(path))
    assert len(recs) == 2
    for r in recs:
        records.check(r)


def test_ask_forced_must_be_a_bool():
    with pytest.raises(ValueError, match="ask_forced='yes'"):
        uno_v4.env(ask_forced="yes")

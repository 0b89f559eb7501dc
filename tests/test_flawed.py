"""The flawed players (agents.flawed): each is ``heuristic`` with its one flaw, and the flaw holds in play.

Each flaw is checked where it can show: in games of the flawed player against ``heuristic`` on every preset the
flaw applies to, at every decision of the flawed seat, the flawed choice is taken (or avoided) exactly as the
flaw says whenever another action is legal; and the decisions the flaw does not concern are ``heuristic``'s.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import PRESET_NAMES

import agents
from agents import flawed
from agents.bots import HeuristicAgent
from training.evaluate import play_match
from uno_env.core.state import DRAWN, PENDING

CASES = [(r, f) for r in PRESET_NAMES for f in flawed.gauntlet(r)]
# flaws whose rounds run long (hands grow: a Wild Draw Colour every chance, no exchanges in SOLO): fewer rounds
LONG = {("flip_jp", "heuristic-always-wd4"): 10, ("solo_bga", "heuristic-no-exchange"): 30}


def decisions(rules: str, name: str, rounds: int = 120, seed: int = 11):
    """Every decision of the flawed seat in ``rounds`` 2-player rounds against ``heuristic``: the observations,
    masks, phases, the flawed player's actions and what unflawed ``heuristic`` would have done."""
    seen = {"obs": [], "mask": [], "phase": [], "action": []}
    game_box = {}

    def watch(st, rows, seats, slots, actions):
        i = np.flatnonzero(slots == 1)
        if i.size == 0:
            return
        r, s = rows[i], seats[i]
        seen["obs"].append(game_box["observer"].observe(st, r, s))
        seen["mask"].append(st.mask[r].copy())
        seen["phase"].append(st.phase[r].copy())
        seen["action"].append(actions[i].copy())

    from uno_env import VecGame
    game = VecGame(rules, 2, batch_size=1, observation="v3")
    bot = agents.load(name, game=game, seed=3)
    plain = HeuristicAgent(game=game)
    from uno_env.core.observe import Observer
    game_box["observer"] = Observer(game.engine, "v2")
    play_match(["heuristic", bot], rules, 2, rounds, seed=seed, batch_size=64, watch=watch)
    out = {k: np.concatenate(v) for k, v in seen.items()}
    out["heuristic"] = plain.act(out["obs"], out["mask"])
    return bot, out


def others_legal(mask: np.ndarray, ids) -> np.ndarray:
    """Rows with a legal action outside ``ids``."""
    m = mask.copy()
    m[:, ids] = False
    return m.any(1)


def test_every_flawed_player_loads_by_name_and_says_its_flaw():
    from uno_env import VecGame
    for rules in PRESET_NAMES:
        game = VecGame(rules, 2, batch_size=1)
        for name in flawed.gauntlet(rules):
            agent = agents.load(name, game=game)
            assert agent.name == name and agents.locate(name) == ("bot", None)
            assert agents.observation_of(name) == "v2"


def test_a_flaw_that_changes_nothing_under_the_rules_is_refused_with_the_ones_that_apply():
    from uno_env import VecGame
    game = VecGame("house_cn", 2, batch_size=1)  # house_cn has no challenge
    with pytest.raises(ValueError, match="changes nothing.*house_cn.*heuristic-no-stack"):
        agents.load("heuristic-no-challenge", game=game)
    with pytest.raises(LookupError, match="heuristic-no-uno"):
        agents.load("heuristic-no-such-flaw", game=game)


def test_held_out_flaws_are_kept_out_of_the_training_gauntlet():
    assert set(flawed.gauntlet("standard_en", include_held_out=False)) == \
        {n for n in flawed.gauntlet("standard_en") if not flawed.flaw_of(n).held_out}
    assert any(f.held_out for f in flawed.FLAWS.values())


@pytest.mark.parametrize("rules, name", CASES)
def test_the_flaw_holds_in_play_and_the_rest_is_heuristic(rules, name):
    bot, d = decisions(rules, name, LONG.get((rules, name), 120))
    v = bot.view
    mask, act, phase, plain = d["mask"], d["action"], d["phase"], d["heuristic"]
    rows = np.arange(len(act))
    flaw = flawed.flaw_of(name).name
    if flaw == "no-uno":
        chance = mask[:, v.UNO] & others_legal(mask, [v.UNO])
        assert chance.any() and not (act[chance] == v.UNO).any()
        concerned = mask[:, v.UNO]
    elif flaw == "no-catch":
        chance = mask[:, v.catch_ids].any(1) & others_legal(mask, v.catch_ids)
        assert not np.isin(act[chance], v.catch_ids).any()
        concerned = mask[:, v.catch_ids].any(1)
    elif flaw == "no-challenge":
        chance = mask[:, v.CHALLENGE]
        assert chance.any() and not (act[chance] == v.CHALLENGE).any()
        concerned = chance
    elif flaw in ("always-wd4", "always-stack"):
        ids = np.flatnonzero(bot.a_wild_draw if flaw == "always-wd4" else bot.a_any_draw)
        chance = mask[:, ids].any(1)
        assert chance.any() and np.isin(act[chance], ids).all()
        concerned = chance
    elif flaw == "random-colour":
        named = np.concatenate(bot.colour_groups)
        chance = np.isin(act, named) & np.isin(plain, named)
        same_group = np.array([any(a in g and b in g for g in bot.colour_groups) for a, b in zip(act, plain)])
        chosen = chance & same_group
        assert chosen.sum() >= 30
        # heuristic names its colour on purpose; at random, as often as one colour in four or fewer
        assert (act[chosen] == plain[chosen]).mean() < 0.5
        concerned = np.isin(plain, named) | np.isin(act, named)
    elif flaw == "no-stack":
        chance = (phase == PENDING) & mask[:, v.play_ids].any(1) & others_legal(mask, v.play_ids)
        assert chance.any() and not np.isin(act[chance], v.play_ids).any()
        concerned = phase == PENDING
    elif flaw == "no-exchange":
        ids = np.flatnonzero(bot.a_exchange)
        chance = mask[:, ids].any(1) & others_legal(mask, ids)
        assert chance.any() and not np.isin(act[chance], ids).any()
        concerned = mask[:, ids].any(1)
    elif flaw == "random-flip":
        ids = np.flatnonzero(bot.a_flip)
        chance = mask[:, ids].any(1) & others_legal(mask, ids)
        share = np.isin(act[chance], ids).mean()
        assert chance.sum() >= 30 and 0.3 < share < 0.7
        concerned = mask[:, ids].any(1)
    elif flaw == "keeps-drawn":
        chance = phase == DRAWN
        assert chance.any() and (act[chance] == v.KEEP).all()
        concerned = chance
    elif flaw == "holds-actions":
        number = (mask & bot.a_number[None, :]).any(1)
        ids = np.flatnonzero(bot.a_action_card)
        chance = number & mask[:, ids].any(1)
        assert chance.any() and not np.isin(act[chance], ids).any()
        concerned = chance
    else:  # pragma: no cover - a new flaw needs its check here
        pytest.fail(f"no check for the flaw {flaw!r}")
    untouched = rows[~concerned]
    assert untouched.size > 100
    assert (act[untouched] == plain[untouched]).all(), "a decision the flaw does not concern differs from heuristic's"


# flaws that cost only against a player who errs first: no-catch against one that forgets to declare UNO,
# no-challenge against one that bluffs a wild draw card; heuristic does neither (rules 1 and 8 of its docstring)
HARMLESS_AGAINST_HEURISTIC = {"heuristic-no-catch", "heuristic-no-challenge"}


def test_the_leaderboard_reference_beats_every_flawed_player():
    """On the leaderboard's deals (the committed robustness tables, 20,000 rounds a match), unflawed
    ``heuristic`` wins more than its fair share against every flawed player at 2 players, except the flaws that
    cost only against a player who errs first, where it wins about its fair share (within two points).  At 4
    players (the flawed player in the next seat, ``heuristic`` in the other two) what a flaw gives away is shared
    with the other seats or passed on past the entrant (a penalty ``no-stack`` fails to pass on would have gone
    to the seat after it): no flaw leaves the entrant below its fair share, and a missed UNO, which the
    first to call catches, puts it above."""
    from training import leaderboard
    data = leaderboard.load()
    tables = [t for t in (data or {}).get("tables", []) if t.get("robustness")]
    if not tables:
        pytest.skip("no robustness tables in results/leaderboard/leaderboard.json yet")
    for t in tables:
        rob = t["robustness"]
        assert rob["flawed"] == flawed.gauntlet(t["rules"])
        for f, r in rob["results"]["heuristic"].items():
            if f in HARMLESS_AGAINST_HEURISTIC:
                assert abs(r["win_rate"] - 1 / t["players"]) < 0.02, (t["rules"], t["players"], f, r)
            elif t["players"] == 2 or f == "heuristic-no-uno":
                assert r["ci95"][0] > 1 / t["players"], (t["rules"], t["players"], f, r)
            else:
                assert r["ci95"][1] > 1 / t["players"], (t["rules"], t["players"], f, r)

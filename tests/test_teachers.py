"""The teachers of targeted clones (training.teachers): each differs from ``heuristic`` in its one decision."""

from __future__ import annotations

import numpy as np

import agents
from training.teachers import WaryChallenger
from uno_env.core.actions import CHALLENGE
from uno_env.learner import LearnerGames


def test_the_wary_challenger_challenges_a_wild_draw_four_only_where_heuristic_does_and_less_often():
    """Rule 9 with opponents assumed to bluff rarely: the chance of a bluff it works out is never larger than
    ``heuristic``'s, so it challenges a subset of the wild draw cards ``heuristic`` challenges (flip_jp, 4 players,
    facing a player that plays every legal wild draw card); every other decision is ``heuristic``'s."""
    games = LearnerGames("flip_jp", 4, 256, ["heuristic-always-wd4"], seed=5)
    heuristic = agents.load("heuristic", game=games.game)
    wary = agents.load("training.teachers:WaryChallenger", game=games.game)
    assert isinstance(wary, WaryChallenger) and wary.p["bluff_rate"] < heuristic.p["bluff_rate"]
    challenge = games.game.engine.actions.kind == CHALLENGE
    both = {"heuristic": [], "wary": [], "asked": 0, "other": 0}
    obs, mask = games.observe(), games.action_masks()
    for _ in range(150):
        h, w = heuristic.act(obs, mask), wary.act(obs, mask)
        asked = mask[:, challenge].any(1)
        both["heuristic"].append(h[asked] == np.flatnonzero(challenge)[0])
        both["wary"].append(w[asked] == np.flatnonzero(challenge)[0])
        both["asked"] += int(asked.sum())
        both["other"] += int((h[~asked] != w[~asked]).sum())
        out = games.step(h)
        games.restart(np.flatnonzero(out["terminated"] | out["truncated"]))
        obs, mask = games.observe(), games.action_masks()
    by_heuristic, by_wary = np.concatenate(both["heuristic"]), np.concatenate(both["wary"])
    assert both["asked"] >= 300 and both["other"] == 0
    assert not (by_wary & ~by_heuristic).any()
    assert 0 < by_wary.sum() < by_heuristic.sum()

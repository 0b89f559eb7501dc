"""Random play keeps every invariant after every step (cards conserved, a real choice to make)."""

import numpy as np
import pytest

from uno_env import VecGame
from uno_env.core.invariants import violations

CASES = [(r, p) for r in ("standard_en", "standard_ru") for p in (2, 3, 4, 7, 10)] + \
        [(r, p) for r in ("house_cn", "solo_bga") for p in (2, 3, 5, 10)] + [("flip_jp", p) for p in (2, 4, 10)]


@pytest.mark.parametrize("rules,players", CASES)
def test_random_play_keeps_every_invariant(rules, players):
    game = VecGame(rules, players, batch_size=32, seed=players)
    rng = np.random.default_rng(0)
    rounds = 0
    for step in range(300):
        mask = game.legal_mask()
        prefer_play = (game.engine.A_KIND == 0) * (rng.random() < 0.5)  # mix long and short rounds
        a = ((rng.random(mask.shape) + prefer_play) * mask).argmax(1)
        out = game.step(a)
        rounds += int(out.round_over.sum())
        problems = violations(game.engine, game.state)
        assert not problems, f"step {step}: {problems}"
    assert rounds > 0


def test_the_deck_has_the_documented_size():
    for rules, n in (("standard_en", 108), ("solo_bga", 112), ("flip_jp", 112)):
        assert VecGame(rules, 2).engine.N == n

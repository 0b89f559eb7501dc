"""Random play keeps every invariant after every step (cards conserved, a real choice to make)."""

import numpy as np
import pytest
from helpers import PRESET_PLAYERS

from uno_env import VecGame
from uno_env.core.invariants import violations

CASES = PRESET_PLAYERS


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


def test_the_soak_script_plays_every_preset_and_player_count_without_a_violation():
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "uno_env.soak", "--rounds", "1250", "--batch", "32"],
                         capture_output=True, text=True, timeout=600)
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    settings = {(x["rules"], x["players"]) for x in lines if "rules" in x}
    assert len(settings) == 25 and all(x["rounds"] >= 50 for x in lines if "rules" in x)
    assert lines[-1]["total"] and lines[-1]["violations"] == 0 and lines[-1]["rounds"] >= 1250


def test_the_soak_script_puts_random_rule_combinations_through_the_batched_loops():
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "uno_env.soak", "--random-options", "12", "--steps", "40",
                          "--seed", "5"], capture_output=True, text=True, timeout=600)
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert lines[-1]["total"] and lines[-1]["combinations"] == 12 and lines[-1]["failed"] == 0

"""Seeded v3 observations of every preset hash to a pinned value: a refactor of the table's memory or of the
observer (where it lives, how it is stepped) changes no observation.

The pin was computed before the memory moved into the game state and is the same after it; it changed once
since, on purpose, with ``uno_v4``'s observation fixes (a seat not asked sees a hidden decision as if
declined).  Both paths are hashed: a
batch of one (the scalar stepper and ``observe_one``, as the AEC env plays) and a batch of games (the
engine's ``step`` and the batched ``observe``).  A change of the rules or of the v3 layout changes the hash
on purpose: recompute it then (``python tests/test_observation_hash.py``) and say why in the commit.
"""

import hashlib

import numpy as np

from uno_env import PRESETS, VecGame
from uno_env.core.actions import PLAY

PINNED = "7a0c62e1344e17d061d7ab6713a3887a42640bf65cee2cafbf1a2a8aafbfdd76"


def _pick(rng, game, is_play):
    """Per game a random legal action, a play four times out of five when one is legal."""
    mask = game.legal_mask()
    out = np.empty(game.batch_size, np.int64)
    for row in range(game.batch_size):
        plays = mask[row] & is_play
        out[row] = rng.choice(np.flatnonzero(plays if plays.any() and rng.random() < 0.8 else mask[row]))
    return out


def observation_hash(steps: int = 200) -> str:
    h = hashlib.sha256()
    for rules in PRESETS:
        for players in (2, 4):
            for batch in (1, 6):
                game = VecGame(rules, players, batch_size=batch, seed=players + 7 * batch, observation="v3")
                rng = np.random.default_rng(players)
                is_play = game.engine.A_KIND == PLAY
                for _ in range(steps):
                    for seat in range(players):
                        if batch == 1:
                            h.update(game.observer.observe_one(game.state, seat).tobytes())
                        else:
                            h.update(game.observe(seats=np.full(batch, seat)).tobytes())
                    game.step(_pick(rng, game, is_play))
    return h.hexdigest()


def test_seeded_v3_observations_of_every_preset_are_unchanged():
    assert observation_hash() == PINNED


if __name__ == "__main__":
    print(observation_hash())

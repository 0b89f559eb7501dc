"""The scripted bots' decisions, pinned: ``heuristic``, ``greedy`` and ``random`` must keep playing exactly
as they did when the trained agents' win-rate targets were set against them, so a change to a bot
cannot quietly move every published win rate.

Each configuration plays a seeded batch of games with a mixed table (``heuristic``, ``greedy``,
``random`` in rotating seats); at every step all three bots are asked for their decision on every game's
position, and the decisions are compared with ``tests/data/bot_decisions.json``.  A digest of the positions
is kept too, so a failure says whether the bots decided differently or the positions themselves changed
(which the game fingerprint guards separately).

Regenerate the file only for an intended change of a bot, under a new name for the stronger bots the
issue welcomes: ``python tests/test_bot_pins.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

PINS = Path(__file__).with_name("data") / "bot_decisions.json"
BOTS = ("heuristic", "greedy", "random")
CONFIGS = {  # the targets' tables first, then every other preset
    "standard_en-2p": ("standard_en", 2),
    "standard_en-4p": ("standard_en", 4),
    "standard_ru-4p": ("standard_ru", 4),
    "house_cn-3p": ("house_cn", 3),
    "solo_bga-3p": ("solo_bga", 3),
    "flip_jp-3p": ("flip_jp", 3),
}
GAMES, STEPS = 8, 200


def decide(config: str) -> dict:
    """Every bot's decision at every position of the configuration's seeded play, and a digest of the
    positions (observations and legal masks)."""
    import agents
    from uno_env import VecGame

    rules, players = CONFIGS[config]
    game = VecGame(rules, players, batch_size=GAMES, seed=11, observation="v2")  # the layout the pins were taken in
    bots = {name: agents.load(name, game=game, seed=3) for name in BOTS}
    table = [bots[name] for name in BOTS]  # who moves: seat s of game g is table[(s + g) % 3]
    decisions = {name: [] for name in BOTS}
    digest = hashlib.sha256()
    for _ in range(STEPS):
        obs, mask = game.observe(), game.legal_mask()
        digest.update(np.ascontiguousarray(obs).tobytes())
        digest.update(np.ascontiguousarray(mask).tobytes())
        chosen = {name: np.asarray(bot.act(obs, mask), np.int64) for name, bot in bots.items()}
        for name in BOTS:
            decisions[name].extend(int(a) for a in chosen[name])
        who = (game.state.actor.astype(np.int64) + np.arange(GAMES)) % len(table)
        actions = np.choose(who, [chosen[name] for name in BOTS])
        game.step(actions)
    return {"positions": digest.hexdigest(), **decisions}


@pytest.fixture(scope="module")
def pins() -> dict:
    return json.loads(PINS.read_text())


@pytest.mark.parametrize("config", list(CONFIGS))
def test_scripted_bots_decide_as_pinned(config, pins):
    got, want = decide(config), pins[config]
    assert got["positions"] == want["positions"], (
        f"{config}: the positions changed (the game, its observation or a bot's play changed), so the "
        f"pinned decisions no longer apply")
    for name in BOTS:
        diff = np.flatnonzero(np.asarray(got[name]) != np.asarray(want[name]))
        assert diff.size == 0, (
            f"{config}: {name} decided differently at {diff.size} of {len(want[name])} positions; first at "
            f"step {diff[0] // GAMES}, game {diff[0] % GAMES}: {got[name][diff[0]]} instead of "
            f"{want[name][diff[0]]}")


def test_the_pins_cover_every_bot_and_differ_between_bots(pins):
    """The pinned file is not degenerate: every bot at every configuration, and the bots disagree often
    enough that pinning each one means something."""
    for config in CONFIGS:
        assert set(BOTS) <= set(pins[config])
        h, g, r = (np.asarray(pins[config][b]) for b in BOTS)
        assert len(h) == GAMES * STEPS
        assert (h != r).mean() > 0.2 and (h != g).mean() > 0.05


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python tests/test_bot_pins.py --write   (only for an intended bot change)")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    PINS.parent.mkdir(exist_ok=True)
    PINS.write_text(json.dumps({c: decide(c) for c in CONFIGS}, separators=(",", ":")) + "\n")
    print(f"wrote {PINS}")

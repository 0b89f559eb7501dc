"""Shared test helpers: build a position in the notation (docs/notation.md), act by action name."""

from __future__ import annotations

import numpy as np

from uno_env import VecGame

PRESET_NAMES = ["standard_en", "standard_ru", "house_cn", "solo_bga", "flip_jp"]


def position(rules: str = "standard_en", players: int = 2, **setup) -> VecGame:
    """A one-game ``VecGame`` in the position given (the keys of docs/notation.md#positions)."""
    return VecGame.from_position({"rules": rules, "players": players, **setup})


def act(game: VecGame, *names: str) -> VecGame:
    """Apply actions by name, in order, to game 0."""
    for name in names:
        game.step(np.array([game.action_index(name)]))
    return game


def hands(game: VecGame) -> list[str]:
    return game.snapshot(0)["hands"]

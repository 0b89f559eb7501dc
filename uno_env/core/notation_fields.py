"""The fields of a position in the notation (docs/notation.md): each read with the error a wrong value
gets (``PositionError``, naming the key and the value), and the colours and cards written back.  Shared by
the position's game (``notation``) and its memory (``notation_memory``).
"""

from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

from .cards import COLOR_LETTERS, FREE, NO_COLOR


class PositionError(ValueError):
    """A position that cannot be built; the message names the key and the offending value."""


def fail(msg: str) -> NoReturn:
    raise PositionError(msg)


def seat_field(setup: dict, key: str, P: int, default=None) -> int:
    v = setup.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < P:
        fail(f"'{key}' must be a seat from 0 to {P - 1}, got {v!r}")
    return v


def int_field(setup: dict, key: str, default: int, lo: int = 0, hi: int = 10**9) -> int:
    v = setup.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        fail(f"'{key}' must be an integer from {lo} to {hi}, got {v!r}")
    return v


def bool_field(setup: dict, key: str, default: bool) -> bool:
    v = setup.get(key, default)
    if not isinstance(v, bool):
        fail(f"'{key}' must be true or false, got {v!r}")
    return v


def color_field(text: Any, key: str, side: int, two_sided: bool, any_side: bool = False) -> int:
    if text is None:
        return NO_COLOR
    if text == "free":
        return FREE
    letters: tuple[str, ...] = COLOR_LETTERS[4:] if side == 1 else COLOR_LETTERS[:4]
    if any_side and two_sided:  # a remembered colour may be from before a Flip
        letters = COLOR_LETTERS
    if text not in letters:
        side_txt = f" on the {'dark' if side else 'light'} side" if two_sided else ""
        fail(f"'{key}' must be one of {', '.join(letters)} (or \"free\", null){side_txt}, got {text!r}")
    return COLOR_LETTERS.index(text)


def color_text(c: int) -> str | None:
    if c == FREE:
        return "free"
    if c == NO_COLOR:
        return None
    return COLOR_LETTERS[c]


def cards_text(deck, counts) -> str:
    return deck.format_cards(np.repeat(np.arange(len(counts)), counts))

"""Matching (rules §1.2) and the wild draw restriction (rules §1.6): which held kinds fit the top card,
and whether playing a restricted wild draw card now breaks the restriction.

These are the questions every decision asks, so the legal masks (``legal``), the rule families that
build their own part of a mask (stacking in ``penalty``, jump-ins in ``jump_in``), the forced moves
(``forced``), a drawn card (``drawn``), a challenge (``penalty.judge_guilt``) and positions
(``notation``) all read them here; this module imports no rule module, so none of them is tied in a
circle with the masks.  ``breaks_restriction`` is the one guilt check; ``without_restricted`` is the
one place the hard restriction (no challenges) masks a bluff.
"""

from __future__ import annotations

import numpy as np

from .rows import any_bits, sel
from .state import State
from .tables import NC, RuleTables


def top_face(e: RuleTables, st: State, R) -> np.ndarray:
    """(n,) the face the top card shows on the side in play."""
    S = sel(R)
    top = st.discard.reshape(-1)[R * e.N + st.disc_n[S] - 1]  # a flat gather: one index array
    return e.KF[st.side[S], top] if e.two_sided else top.astype(np.intp)  # one side: face = kind


def has_kind(e: RuleTables, bits: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """(n,) whether bit ``kind[i]`` is set in ``bits[i]``."""
    return (bits[np.arange(kind.size), e.KWORD[kind]] & e.KBIT[kind]) != 0


def matching_bits(e: RuleTables, st: State, R, tface) -> np.ndarray:
    """(n, W) kinds that match the top card (face ``tface``) under the active colour (rules §1.2), by
    the first-play rule where it applies (``first_card_match``): a ``PLAYBITS`` row per game."""
    S = sel(R)
    return e.PLAYBITS[(tface * NC + st.color[S]) * 2 + st.first_play[S]]


def playable_bits(e: RuleTables, st: State, R, actor, side, tface) -> np.ndarray:
    """(n, W) kinds the actor may play in its own turn (matching and the hard restriction; ``side``
    is read from the state when ``None``, and only under the hard restriction)."""
    bits = matching_bits(e, st, R, tface) & st.held[R, actor]
    if e.hard:
        if side is None:
            side = st.side[sel(R)].astype(np.intp)
        bits = unless_guilty(e, st, R, actor, side, bits, bits)
    return bits


def breaks_restriction(e: RuleTables, held: np.ndarray, side, color=None, matched=None) -> np.ndarray:
    """Whether a seat holding ``held`` ((..., W) kind bitmasks) breaks ``wild_draw_restriction`` by
    playing a restricted wild draw card now (rules §1.6), one answer per leading index: under
    ``color_only`` it holds a card of the active colour ``color``; under ``no_playable`` it holds
    another playable card (``matched``: its kinds that match the top card, plain wilds included).
    ``side`` and ``color`` are indices that broadcast against ``held``'s leading axes.  The one guilt
    check: the hard restriction masks by it, a challenge judges by it, positions read it."""
    if e.config.wild_draw_restriction == "color_only":
        return any_bits(held & e.COLORBITS[side, color])
    assert matched is not None, "no_playable: the matching kinds are needed"
    return any_bits(matched & ~e.RESTRBITS[side])


def without_restricted(e: RuleTables, bits: np.ndarray, guilty: np.ndarray, side) -> np.ndarray:
    """``bits`` ((..., W)) without the restricted wild draw kinds of ``side`` where ``guilty`` (the
    hard restriction masks a bluff instead of letting it be challenged, rules §1.6)."""
    return bits & ~np.where(guilty[..., None], e.RESTRBITS[side], np.uint64(0))


def guilt(e: RuleTables, st: State, R, actor, side, bits=None, color=None) -> np.ndarray:
    """(n,) ``breaks_restriction`` for the ``actor`` of each game of ``R`` (``color``: the active colour
    to test instead of the current one, for ``color_only``; ``bits``: the actor's matching kinds, if
    known, for ``no_playable``)."""
    held = st.held[R, actor]
    if e.config.wild_draw_restriction == "color_only":  # only the active colour is read
        return breaks_restriction(e, held, side, st.color[R] if color is None else color)
    if bits is None:
        bits = matching_bits(e, st, R, top_face(e, st, R)) & held
    return breaks_restriction(e, held, side, matched=bits)


def unless_guilty(e: RuleTables, st: State, R, actor, side, bits, matched=None) -> np.ndarray:
    """``bits`` without the restricted wild draw kinds where playing one now would break the
    restriction (``without_restricted`` by ``guilt``; ``matched`` as ``guilt``'s ``bits``)."""
    return without_restricted(e, bits, guilt(e, st, R, actor, side, matched), side)

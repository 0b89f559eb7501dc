"""Invariants every game state must keep; used by the tests, the fuzzers and the soak script.

``violations(engine, st)`` returns a list of human-readable problems (empty when all hold):

* the cards in hands and piles are exactly the deck (no card lost or duplicated);
* the cached hand sizes and discard counts agree with the hands and the pile;
* no negative counts; piles within their arrays;
* a game in play asks a seat that has a real choice (at least two legal actions), and its cached mask
  is the one the rules give now;
* the active colour is a colour once no choice is pending; the phase and seats are in range.
"""

from __future__ import annotations

import numpy as np

from .rules import Engine
from .state import CHOOSE_COLOR, OVER, PHASE_NAMES


def row_counts(piles: np.ndarray, n: np.ndarray, K: int) -> np.ndarray:
    """(B, K) copies of each kind in the first ``n[b]`` cards of each pile row (a draw or discard pile)."""
    B, N = piles.shape
    valid = np.arange(N)[None, :] < n[:, None]
    flat = (np.arange(B)[:, None] * K + piles.astype(np.int64))[valid]
    return np.bincount(flat, minlength=B * K).reshape(B, K)


def violations(engine: Engine, st, check_mask: bool = True) -> list[str]:
    """Problems found in ``st`` (one line each, naming the game); empty if every invariant holds."""
    K, P, B = engine.K, engine.P, st.batch_size
    out: list[str] = []

    def report(bad: np.ndarray, what: str) -> None:
        for b in np.flatnonzero(bad)[:5]:
            out.append(f"game {b}: {what}")

    report((st.hands < 0).any((1, 2)), "a negative card count in a hand")
    report((st.draw_n < 0) | (st.draw_n > engine.N) | (st.disc_n < 1) | (st.disc_n > engine.N),
           "a pile size out of range")
    if out:
        return out
    draw = row_counts(st.draw, st.draw_n, K)
    disc = row_counts(st.discard, st.disc_n, K)
    total = st.hands.sum(1, dtype=np.int64) + draw + disc
    report((total != engine.deck.kind_counts[None, :]).any(1), "the cards in play are not exactly the deck")
    report((st.hand_n != st.hands.sum(2)).any(1), "cached hand sizes disagree with the hands")
    report((st.held != engine.pack(st.hands > 0)).any((1, 2)), "cached held-kind bitmasks disagree with the hands")
    report((st.pile_counts != disc).any(1), "cached discard counts disagree with the pile")
    report((st.phase < 0) | (st.phase >= len(PHASE_NAMES)), "phase out of range")
    report((st.actor < 0) | (st.actor >= P) | (st.turn_seat < 0) | (st.turn_seat >= P), "seat out of range")
    live = st.phase != OVER
    report(live & (st.nlegal < 2), "the seat to move has no real choice (fewer than two legal actions)")
    report(live & (st.phase != CHOOSE_COLOR) & (st.color > 8), "no active colour outside a colour choice")
    report(live & (st.hand_n == 0).any(1) & ~st.challengeable,
           "a round in play where a seat has no cards")
    if check_mask:
        fresh = st.copy()
        engine.refresh(fresh, np.arange(B))
        report((fresh.mask != st.mask).any(1), "the cached legal mask is stale")
    report(st.nlegal != st.mask.sum(1), "the cached count of legal actions disagrees with the mask")
    return out

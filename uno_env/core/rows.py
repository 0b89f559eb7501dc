"""Row helpers of the batched rules: index arrays of the games concerned, fast reductions over short
rows (seats, bitmask words), and the moves of the turn (rules §1.1: ``next(p, k) = (p + d·k) mod n``).

Every rules function takes ``R``, the rows (games) it works on: an index array, or the cached
``all_rows(B)`` of a whole batch, for which ``sel(R)`` gives a slice (views instead of gathers).
"""

from __future__ import annotations

import numpy as np

from .tables import RuleTables

_ALL: dict[int, np.ndarray] = {}  # batch size -> the cached arange marking "every row, in order"
_ROW_VIEW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def all_rows(n: int) -> np.ndarray:
    """The row index array of a whole batch; functions given this very object may use views."""
    rows = _ALL.get(n)
    if rows is None:
        rows = _ALL[n] = np.arange(n)
        rows.flags.writeable = False
    return rows


def sel(R: np.ndarray):
    """``slice(None)`` when ``R`` is a whole batch (``all_rows``), else ``R``: views beat fancy indexing."""
    return slice(None) if R is _ALL.get(R.size) else R


def flat(mask: np.ndarray) -> np.ndarray:
    """``np.flatnonzero`` of a 1-D array without its Python wrapper, which costs four times the
    search itself on the few rows of a late settling pass."""
    return mask.nonzero()[0]


def _padded(b: np.ndarray) -> np.ndarray:
    """``b`` (bool), C-contiguous, its last axis padded with False to 1, 2, 4 or a multiple of 8 bytes:
    a width that reads as whole integers."""
    L = b.shape[-1]
    w = L if L in (1, 2, 4) else 4 if L == 3 else 8 * -(-L // 8)
    if w == L and b.flags.c_contiguous:
        return b
    out = np.zeros(b.shape[:-1] + (w,), bool)
    out[..., :L] = b
    return out


def any_row(b: np.ndarray) -> np.ndarray:
    """``b.any(-1)`` of a bool array.  numpy reduces short rows one at a time (about 12 ns a row, 50 us
    for 4096 rows of 4 seats); a row of 1, 2, 4 or 8 bytes read as one integer costs 0.3 ns."""
    b = _padded(b)
    w = b.shape[-1]
    if w <= 8:
        return b.view(_ROW_VIEW[w])[..., 0] != 0
    return any_bits(b.view(np.uint64))


def any_bits(words: np.ndarray) -> np.ndarray:
    """``(words != 0).any(-1)`` for bitmask words (a few per row): OR the columns, then test once."""
    acc = words[..., 0]
    for w in range(1, words.shape[-1]):
        acc = acc | words[..., w]
    return acc != 0


def rows_with_any(b: np.ndarray, R: np.ndarray) -> np.ndarray:
    """``b[R].any(-1)`` of a ``(B, L)`` bool array: where each row of ``b`` reads as one integer
    (``L`` of 1, 2, 4 or 8 bytes), a gather of ``R``'s integers instead of their rows."""
    L = b.shape[-1]
    if L in _ROW_VIEW and b.flags.c_contiguous:
        return b.view(_ROW_VIEW[L])[sel(R), 0] != 0
    return any_row(b[sel(R)])


def count_row(b: np.ndarray) -> np.ndarray:
    """``b.sum(-1)`` of a bool array with rows of up to 8 bytes (seats), by one popcount per row."""
    if b.shape[-1] > 8:
        return b.sum(-1, dtype=np.int16)
    b = _padded(b)
    return np.bitwise_count(b.view(_ROW_VIEW[b.shape[-1]])[..., 0]).astype(np.int16)


def next_seat(e: RuleTables, st, R, seat, k: int) -> np.ndarray:
    """``next(seat, k)`` in the direction of play of each row (rules §1.1)."""
    return (np.asarray(seat, np.intp) + k * st.direction[R].astype(np.intp)) % e.P


def goto(st, R, seat, phase) -> None:
    """Give the turn to ``seat`` and ask it ``phase``."""
    st.turn_seat[R] = seat
    st.actor[R] = seat
    st.phase[R] = phase

"""The only source of randomness in the core: one counter-based stream per game.

Each game owns a 64-bit key (from its seed) and a counter.  A random draw for game ``b`` hashes
``(key[b], counter[b], j)`` with the SplitMix64 finaliser and then advances ``counter[b]``, so the
numbers a game sees depend on its own seed and history only: game ``i`` of a batch plays exactly as
the same game alone, in any batch size and any process.  Every function takes the rows that draw and
touches nothing else, which keeps the work on the rows that need it.

A game's seed ``s`` gives key ``splitmix(s)``; ``VecGame(seed=s)`` seeds game ``i`` with ``s + i``.
"""

from __future__ import annotations

import numpy as np

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_STEP = np.uint64(0xD1B54A32D192ED03)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_TO_UNIT = np.float64(1.0 / (1 << 53))
_S11 = np.uint64(11)
_OFFSETS: dict[int, np.ndarray] = {}  # width -> (1, width) per-position offsets of the stream
_POS_BITS = np.uint64((1 << 11) - 1)  # the low 11 bits of a shuffle's sort word: its position
_KEY_BITS = ~_POS_BITS  # ... and the high 53: its random key
_POSITIONS: dict[int, np.ndarray] = {}  # width -> the positions 0..width-1 as uint64


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser, in place on a uint64 array (wrapping arithmetic)."""
    x ^= x >> _S30
    x *= _M1
    x ^= x >> _S27
    x *= _M2
    x ^= x >> _S31
    return x


def keys_from_seeds(seeds: np.ndarray) -> np.ndarray:
    """``(n,) uint64`` stream keys for integer seeds."""
    x = np.asarray(seeds, dtype=np.int64).astype(np.uint64) * _GOLDEN + _STEP
    return _mix(x)


def bits(key: np.ndarray, counter: np.ndarray, rows: np.ndarray, width: int) -> np.ndarray:
    """``(len(rows), width) uint64`` random words for ``rows``; advances their counters by one."""
    base = key[rows] ^ _mix(counter[rows] * _GOLDEN + _STEP)
    counter[rows] += np.uint64(1)
    offsets = _OFFSETS.get(width)
    if offsets is None:
        offsets = _OFFSETS[width] = np.arange(1, width + 1, dtype=np.uint64)[None, :] * _STEP
        offsets.flags.writeable = False
    return _mix(_mix(base[:, None] + offsets))


def uniform(key, counter, rows, width: int = 1) -> np.ndarray:
    """``(len(rows), width) float64`` uniform on [0, 1)."""
    return (bits(key, counter, rows, width) >> _S11).astype(np.float64) * _TO_UNIT


def integers(key, counter, rows, high) -> np.ndarray:
    """``(len(rows),) int64`` uniform on ``[0, high)`` (``high`` per row, >= 1)."""
    u = uniform(key, counter, rows, 1)[:, 0]
    return np.minimum((u * high).astype(np.int64), np.asarray(high) - 1)


def permutations(key, counter, rows, lengths, width: int) -> np.ndarray:
    """``(len(rows), width)`` per row a random order of ``0..length-1`` followed by the rest in order.

    Row ``r`` shuffles its first ``lengths[r]`` positions; the others keep their places after them,
    so pile arrays of a fixed width can be shuffled without a loop over games.  The order is that of
    53-bit random keys (distinct with overwhelming odds).  Each word keeps its key in the high 53 bits
    and its position in the low 11, so one sort of the words, about twice as fast as ``argsort``,
    gives the order; the positions past ``lengths`` get the highest key, and their positions keep
    them after every other, in order.
    """
    r = bits(key, counter, rows, width)
    r &= _KEY_BITS
    r |= _positions(width)
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.size and lengths.min() < width:  # a whole deck shuffled (a deal) needs none of this
        r[np.arange(width)[None, :] >= lengths[:, None]] |= _KEY_BITS
    r.sort(axis=1)
    return (r & _POS_BITS).astype(np.intp)


def _positions(width: int) -> np.ndarray:
    pos = _POSITIONS.get(width)
    if pos is None:
        if width > int(_POS_BITS) + 1:
            raise ValueError(f"width={width} is too wide for a shuffle; at most {int(_POS_BITS) + 1} positions")
        pos = _POSITIONS[width] = np.arange(width, dtype=np.uint64)
        pos.flags.writeable = False
    return pos

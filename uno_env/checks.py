"""The checks every adapter makes at its edge: action ids and the illegal-action policy, in one place."""

from __future__ import annotations

import numpy as np

ILLEGAL_ACTIONS = ("lose", "penalty", "raise")
"""What an environment does with an illegal action: ``"lose"`` (PettingZoo's classic convention, the
default: the offender gets -1, the others 0, the episode ends, ``infos[...]["illegal_action"]`` names the
move), ``"penalty"`` (the wrong-card rule: the card goes back, the seat draws 2 and, on its own turn, the
turn passes) or ``"raise"`` (an ``IllegalActionError`` naming the action and the legal ones)."""


def check_illegal_action(value) -> str:
    if value not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action={value!r} is not allowed; use one of {', '.join(map(repr, ILLEGAL_ACTIONS))}")
    return value


_INTS = (int, np.int64, np.int32, np.intp)  # exact types (bool is an int subclass, and is not an id)


def action_ids(actions, shape: tuple, num_actions: int) -> np.ndarray:
    """``actions`` as int64 action ids of ``shape`` (``()`` for one), or a ValueError that names the value
    given and what is allowed (a bool, a float or a name is not an id)."""
    if shape == () and type(actions) in _INTS and 0 <= actions < num_actions:
        return np.int64(actions)  # the one-game loops' common case, without building an array
    a = np.asarray(actions)
    if a.dtype == bool or not np.issubdtype(a.dtype, np.integer) or a.shape != shape:
        if shape == ():
            raise ValueError(f"action must be an integer action id, got {actions!r} "
                             f"(use env.unwrapped.action_index('play R5') to convert names)")
        raise ValueError(f"actions must be {shape[0]} integer action ids, shape {shape}; got {a.dtype} "
                         f"shape {a.shape}")
    if a.size and (a.min() < 0 or a.max() >= num_actions):
        bad = a[(a < 0) | (a >= num_actions)].flat[0]
        raise ValueError(f"action {int(bad)} is out of range; ids are 0 to {num_actions - 1}")
    return a.astype(np.int64, copy=False)

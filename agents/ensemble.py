"""Policy ensembles: several trained policies that play as one by averaging their action probabilities.

Policies trained apart (another run, another observation layout, another stage of annealing) make
partly independent mistakes; the mean of their distributions keeps what they agree on and damps what
one of them alone gets wrong.  ``agents.load("a+b+c")`` builds one from any policies ``load`` takes; an
ensemble is also a teacher for ``training.ppo_lean --distill``, which folds it back into one network.
"""

from __future__ import annotations

import numpy as np

from .base import check_batch, choose


class EnsembleAgent:
    """Plays the legal action with the highest mean probability over ``members``.

    Args:
        members: trained policies with ``probabilities(observations, action_masks)`` (``PolicyAgent``);
            each reads its own layout of the observation it is given (a v2 member the first part of v3).
        name: the ensemble's name in results (default: the members' names joined by ``+``).
        deterministic: take the most likely action (default) or sample from the mean distribution
            (with the ``rng`` given to ``act``).
    """

    def __init__(self, members: list, name: str | None = None, deterministic: bool = True):
        members = list(members)
        if len(members) < 2:
            raise ValueError(f"an ensemble needs at least two policies, got {len(members)}")
        for m in members:
            if not callable(getattr(m, "probabilities", None)):
                raise ValueError(f"an ensemble averages policies' action probabilities; "
                                 f"{getattr(m, 'name', m)!r} gives none (a scripted bot only chooses)")
        self.members = members
        self.name = name or "+".join(m.name for m in members)
        self.deterministic = deterministic
        layouts = [getattr(m, "observation", None) for m in members]
        # the widest layout a member reads: a v3 game serves v2 members too (v2 is v3's first part)
        self.observation = "v3" if "v3" in layouts or None in layouts else "v2"
        self.meta = {"observation": self.observation, "members": [m.name for m in members]}

    def probabilities(self, observations, action_masks) -> np.ndarray:
        """``(B, A)``: the members' mean probability of each action (0 for illegal ones)."""
        obs, mask = check_batch(observations, action_masks)
        total = self.members[0].probabilities(obs, mask).astype(np.float64)
        for m in self.members[1:]:
            total += m.probabilities(obs, mask)
        total /= len(self.members)
        return np.where(mask, total, 0.0)

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        obs, mask = check_batch(observations, action_masks)
        return choose(self.probabilities(obs, mask), mask, self.deterministic, rng)

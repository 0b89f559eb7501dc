"""Named seed ranges: which seeds train, tune or select, and which ones publish a figure.

A figure measured on the deals an agent was trained, tuned or chosen on flatters it, so the seeds that
publish figures (the leaderboard, the best-response check, the tuned-heuristic check) come from ranges of
their own, far from every seed the training and selection code uses.  A seed ``s`` of a batched game
deals its row ``i`` from seed ``s + i`` (``uno_env.VecGame``), so a match of batch ``B`` on seed ``s``
uses the seeds ``s`` to ``s + B - 1``: ``SeedRange.span`` says whether that fits a range.

============================  ==============================  ===================================================
range                         seeds                           used by
============================  ==============================  ===================================================
``TRAINING``                  0 to 99,999,999                 every training run and selection so far:
                                                              ``ppo_lean``/``train_ppo``/``recipe`` seeds (0 to
                                                              about 2,000, plus the games' ``seed + i``), their
                                                              evaluations during training (``train_ppo``: 10,000
                                                              to about 20,500), the evaluations in
                                                              ``training/results`` and the model cards (0 to
                                                              about 10,000), ``tune_heuristic``'s default search
                                                              and confirmation (5 and 1,000,008), and a resumed
                                                              run that restarts its games (``seed + step``)
``HEURISTIC_TUNING``          200,000,000 to 209,999,999      ``tune_heuristic`` searching a preset's weights
                                                              (and its own confirmation, ``seed + 1,000,003``)
``HEURISTIC_CHECK``           300,000,000 to 300,999,999      the held-out check of tuned against default weights
                                                              (``tune_heuristic --check-rounds``)
``BEST_RESPONSE_TRAINING``    400,000,000 to 499,999,999      ``training.best_response`` training its learner
``BEST_RESPONSE_CHECK``       600,000,000 to 600,999,999      the best response's 20,000-round measurement
``LEADERBOARD``               900,000,000 to 900,999,999      ``training.leaderboard``
============================  ==============================  ===================================================

The held-out evaluations of ``results/held_out/`` (the figures the README quotes for the standard_en agents)
were played on seed 100,000 (rows 100,000 to 100,511), inside ``TRAINING`` as drawn here: that range is drawn
wide, to cover every seed a resumed run could restart its games from, but no run, evaluation or selection
recorded so far used those seeds (the runs used seeds below about 3,900, 9,191, 10,000 to 20,500, from
1,000,003, and one restart at 20,971,520). New published figures take their seeds from ``LEADERBOARD``, as the
standard_ru agents' did (seed 900,500,000).

``tests/test_seeds.py`` checks that the ranges are apart and that the seeds the training and selection code
uses fall outside the ranges that publish figures.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeedRange:
    """Seeds ``start`` to ``stop - 1``, named for what they are used for."""

    name: str
    start: int
    stop: int
    purpose: str

    def __contains__(self, seed: int) -> bool:
        return self.start <= int(seed) < self.stop

    def span(self, seed: int, batch: int) -> bool:
        """Whether a batched game of ``batch`` rows on ``seed`` (seeds ``seed`` to ``seed + batch - 1``)
        stays in the range."""
        return self.start <= int(seed) and int(seed) + int(batch) <= self.stop

    def overlaps(self, other: SeedRange) -> bool:
        return self.start < other.stop and other.start < self.stop

    def as_dict(self) -> dict:
        return {"name": self.name, "first": self.start, "last": self.stop - 1, "purpose": self.purpose}


TRAINING = SeedRange("training", 0, 100_000_000,
                     "training runs, their evaluations during training and the selections made so far")
HEURISTIC_TUNING = SeedRange("heuristic_tuning", 200_000_000, 210_000_000,
                             "tune_heuristic's search of a preset's weights")
HEURISTIC_CHECK = SeedRange("heuristic_check", 300_000_000, 301_000_000,
                            "held-out check of tuned against default heuristic weights")
BEST_RESPONSE_TRAINING = SeedRange("best_response_training", 400_000_000, 500_000_000,
                                   "training.best_response training its learner")
BEST_RESPONSE_CHECK = SeedRange("best_response_check", 600_000_000, 601_000_000,
                                "training.best_response measuring the trained best response")
LEADERBOARD = SeedRange("leaderboard", 900_000_000, 901_000_000, "training.leaderboard's matches")

RANGES = (TRAINING, HEURISTIC_TUNING, HEURISTIC_CHECK, BEST_RESPONSE_TRAINING, BEST_RESPONSE_CHECK, LEADERBOARD)
PUBLISHED = (HEURISTIC_CHECK, BEST_RESPONSE_CHECK, LEADERBOARD)  # ranges whose figures are published
FITTING = (TRAINING, HEURISTIC_TUNING, BEST_RESPONSE_TRAINING)  # ranges that train, tune or select


def range_of(seed: int) -> SeedRange | None:
    """The named range ``seed`` lies in, or None."""
    return next((r for r in RANGES if seed in r), None)

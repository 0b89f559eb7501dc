"""Seat-rotated matches between agents, for the trainers, the leaderboard and ``python -m training.evaluate``.

    python -m training.evaluate --agents heuristic,random --rules standard_en --players 2 --games 20000
    python -m training.evaluate --agents ppo-standard_en-4p,heuristic --players 4 --games 20000 --out runs/eval

The match itself is ``uno_env.evaluation`` (the results, the command) over ``uno_env.arena`` (the batched
loop), which ``uno eval`` runs too; this module loads the agents with ``agents.load`` and keeps the names
the training code and older scripts import (``play_match``, ``MatchResult``, ``wilson``...).
"""

from __future__ import annotations

from uno_env import evaluation, extras
from uno_env.evaluation import Z95, EntryResult, MatchResult, plot, wilson
from uno_env.evaluation import slot_ratings as _ratings


def play_match(lineup: list, rules="standard_en", num_players: int = 2, games: int = 1000,
               seed: int = 0, batch_size: int = 512, episode: str = "round", ratings: bool | None = None,
               progress: bool = False, record=None, per_game: bool = False, watch=None, **options) -> MatchResult:
    """``uno_env.evaluation.play_match`` with the names of ``lineup`` loaded by ``agents.load`` (seed
    ``seed + 17 * i``): play ``games`` seat-rotated games and report each seat slot's wins, interval and rating."""
    import agents
    return evaluation.play_match(lineup, rules, num_players, games, seed, batch_size, episode, ratings, progress,
                                 record, per_game, watch, load=agents.load, **options)


def main(argv: list[str] | None = None, prog: str = "python -m training.evaluate") -> int:
    """The ``uno eval`` command under this name (``uno_env.evaluation.main``)."""
    import agents
    return evaluation.main(argv, prog, load=agents.load)


__all__ = ["Z95", "EntryResult", "MatchResult", "main", "play_match", "plot", "wilson", "_ratings"]


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

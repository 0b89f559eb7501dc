"""What does each player of a match do, and when?  Counts of its moves by kind, with the hands at that moment.

    python -m research.play_profile ppo-solo_bga-2p heuristic --rules solo_bga --rounds 4000 --seed 7000000 \
        --out results/play_profile/profile.jsonl

Plays ``--rounds`` seat-rotated rounds (``uno_env.profile``, watching the decisions of a match) and, for every
decision of each player, notes the move's kind (a number card, each action card, draw, keep, pass, ...), the
player's own hand size and the other hands' smallest size (and, for a draw or a pass, whether a card could
have been played instead).  It prints, per player and kind, how often it was
chosen and the mean hand sizes when it was, and for the hand-exchanging cards (Swap, Swap-in-turn: at two
players both give the player the other hand) how much the exchange gained: the cards handed over minus the
cards received.  A question to ask when one player beats another by a wide margin (``ppo-solo_bga-2p``
against ``heuristic``): what does the winner do differently?  Seeds: use the ``training`` range
(``training/seeds.py``), never the ranges that publish figures.
"""

from __future__ import annotations

import argparse
import json

from uno_env.profile import EXCHANGES, FIELDS, differences, kind_of
from uno_env.profile import profile as _profile


def profile(names: list[str], rules: str, players: int, rounds: int, seed: int, batch: int = 512) -> dict:
    """``uno_env.profile.profile`` with the names loaded by ``agents.load``."""
    import agents
    return _profile(names, rules, players, rounds, seed, batch, load=agents.load)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.play_profile", description=__doc__.split("\n")[0])
    parser.add_argument("agents", nargs="+", help="the lineup (the last fills the other seats)")
    parser.add_argument("--rules", default="solo_bga")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7_000_000, help="a seed of the training range")
    parser.add_argument("--out", default=None, help="a JSON lines file to add the result to")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    line = json.dumps(profile(args.agents, args.rules, args.players, args.rounds, args.seed))
    print(line)
    if args.out:
        from pathlib import Path
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    return 0


__all__ = ["EXCHANGES", "FIELDS", "differences", "kind_of", "profile", "main"]


if __name__ == "__main__":
    raise SystemExit(main())

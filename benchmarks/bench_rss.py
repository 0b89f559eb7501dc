"""Resident memory over a long run: is it flat?

Plays ``--game-steps`` game-steps (decisions summed over the batch; 10 million by default) of one preset
through ``VecGame`` with the play-first random policy and reads the process's *current* resident set
size (``/proc/self/statm``, not the peak) at ``--samples`` evenly spaced points. A leak shows as a
steady rise; the JSON line reports the samples, the growth from the first sample after warm-up to the
last, and the state bytes per game.

    python benchmarks/bench_rss.py --out benchmarks/results/rss.jsonl
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

try:
    from benchmarks.common import emit, machine, output, versions
except ImportError:  # run as a script
    from common import emit, machine, output, versions

from uno_env import VecGame
from uno_env.analysis import random_legal
from uno_env.core.actions import PLAY

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--rules", default="standard_en")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=4096)
    p.add_argument("--game-steps", type=float, default=1e7, help="decisions summed over the batch")
    p.add_argument("--samples", type=int, default=20, help="RSS readings")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None, help="also append the JSON line to this file")
    p.add_argument("--smoke", action="store_true", help="tiny run, for CI")
    args = p.parse_args(argv)
    if args.smoke:
        args.batch_size, args.game_steps, args.samples = 64, 64 * 40, 4
    game = VecGame(args.rules, args.players, args.batch_size, seed=args.seed, observation="v2")
    bonus = (game.engine.A_KIND == PLAY).astype(np.float32)
    rng = np.random.default_rng(args.seed)
    steps = max(1, int(args.game_steps // args.batch_size))
    every = max(1, steps // args.samples)
    readings, rounds = [], 0
    t0 = time.perf_counter()
    for i in range(steps):
        out = game.step(random_legal(game.legal_mask(), rng, bonus))
        rounds += int(out.round_over.sum())
        if (i + 1) % every == 0:
            readings.append(rss_bytes())
    seconds = time.perf_counter() - t0
    base = readings[1] if len(readings) > 2 else readings[0]  # the first reading includes warm-up growth
    state = sum(a.nbytes for a in vars(game.state).values() if isinstance(a, np.ndarray))
    line = {"bench": "rss", "rules": args.rules, "players": args.players, "batch_size": args.batch_size,
            "game_steps": steps * args.batch_size, "rounds": rounds, "seconds": round(seconds, 1),
            "rss_mib": [round(r / 2**20, 1) for r in readings],
            "rss_growth_after_warmup_mib": round((readings[-1] - base) / 2**20, 2),
            "state_bytes_per_game": round(state / args.batch_size, 1),
            "machine": machine(), "versions": versions()}
    with output(args.out) as out:
        emit(line, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

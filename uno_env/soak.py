"""Soak test: play many rounds of every preset and player count and count invariant violations.

    python -m uno_env.soak --rounds 1000000          # the full soak (a few minutes on 2 cores)
    python -m uno_env.soak --rounds 2000 --batch 64  # the CI size

Random legal play (half the games prefer playing to drawing, so both short and long rounds occur)
in batches of ``--batch`` games, with ``uno_env.core.invariants`` checked after every step (the
legal-mask recomputation every ``--mask-every`` steps, as it is the costly check).  Prints one JSON
line per preset and player count and a total line; exits 1 if any invariant was violated.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

from . import __version__
from .core.config import PRESETS
from .core.game import VecGame
from .core.invariants import violations

PLAYERS = (2, 3, 4, 6, 10)


def soak(rules: str, players: int, rounds: int, batch: int, seed: int, mask_every: int = 10) -> dict:
    game = VecGame(rules, players, batch_size=batch, seed=seed)
    rng = np.random.default_rng(seed)
    prefer = (game.engine.A_KIND == 0) * (np.arange(batch) % 2 == 0)[:, None]
    done = steps = bad = truncated = 0
    first_problem = None
    t0 = time.perf_counter()
    while done < rounds:
        mask = game.legal_mask()
        out = game.step(((rng.random(mask.shape, dtype=np.float32) + prefer) * mask).argmax(1))
        done += int(out.round_over.sum())
        truncated += int(out.truncated.sum())
        steps += 1
        problems = violations(game.engine, game.state, check_mask=steps % mask_every == 0)
        if problems:
            bad += len(problems)
            first_problem = first_problem or problems[0]
    return {"rules": rules, "players": players, "rounds": done, "decisions": steps * batch,
            "truncated_rounds": truncated, "violations": bad, "first_violation": first_problem,
            "seconds": round(time.perf_counter() - t0, 2)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m uno_env.soak", description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=1_000_000, help="rounds in total, split over the settings")
    p.add_argument("--batch", type=int, default=1024, help="games per batch")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mask-every", type=int, default=10, help="steps between full legal-mask checks")
    p.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    args = p.parse_args(argv)
    presets = [x.strip() for x in args.presets.split(",") if x.strip()]
    unknown = [x for x in presets if x not in PRESETS]
    if not presets or unknown:
        p.error(f"--presets must name presets among {', '.join(PRESETS)}; got {args.presets!r}")
    for name in ("rounds", "batch", "mask_every"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    settings = [(r, n) for r in presets for n in PLAYERS]
    per = max(1, args.rounds // len(settings))
    total = {"rounds": 0, "decisions": 0, "violations": 0, "seconds": 0.0}
    for i, (rules, n) in enumerate(settings):
        line = soak(rules, n, per, args.batch, args.seed + i, args.mask_every)
        print(json.dumps(line), flush=True)
        for k in total:
            total[k] += line[k]
    total["seconds"] = round(total["seconds"], 1)
    total["versions"] = {"uno_env": __version__, "numpy": np.__version__, "python": platform.python_version()}
    print(json.dumps({"total": True, **total}), flush=True)
    return 1 if total["violations"] else 0


if __name__ == "__main__":
    raise SystemExit(main())

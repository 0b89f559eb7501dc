"""Soak test: play many rounds of every preset and player count and count invariant violations.

    python -m uno_env.soak --rounds 1000000          # the full soak (a few minutes on 2 cores)
    python -m uno_env.soak --rounds 2000 --batch 64  # the CI size
    python -m uno_env.soak --random-options 500      # random rule combinations through every loop

Random legal play (half the games prefer playing to drawing, so both short and long rounds occur)
in batches of ``--batch`` games, with ``uno_env.core.invariants`` checked after every step (the
legal-mask recomputation every ``--mask-every`` steps, as it is the costly check).  Prints one JSON
line per preset and player count and a total line; exits 1 if any invariant was violated.

``--random-options N`` draws N random rule combinations instead (a preset, 2 to 10 players and any
options, one-card hands and rounds stopped after 10 turns drawn often, combinations the rules refuse
skipped) and puts each through the batched loops: ``VecGame`` under autoreset with the invariants
and the rule that a round left over is reported by the next step, the learner env in both episode
modes (every game must wait on a legal learner action) and ``simulate_rounds``.  It prints one JSON
line per failing combination and a total line; exits 1 on any failure.  It found the stalls of
rounds that end at their own deal (docs/versioning.md).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

import numpy as np

from .core.config import OPTIONS, PRESETS
from .core.game import VecGame
from .core.invariants import violations
from .core.state import OVER
from .version import __version__

PLAYERS = (2, 3, 4, 6, 10)


def soak(rules: str, players: int, rounds: int, batch: int, seed: int, mask_every: int = 10) -> dict:
    game = VecGame(rules, players, batch_size=batch, seed=seed, observation="v2")  # the rules alone: no memory
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


_FIXED = ("deck", "flip_pairing", "flip_pairing_seed")  # what a preset's deck decides


def _random_options(rnd: random.Random) -> tuple[str, int, dict]:
    """A preset, a player count and random options (each option drawn with probability 0.4)."""
    preset = rnd.choice(list(PRESETS))
    options = {}
    for name, opt in OPTIONS.items():
        if name in _FIXED or rnd.random() < 0.6:
            continue
        if opt.allowed is not None:
            options[name] = rnd.choice(opt.allowed)
        elif name == "hand_size":
            options[name] = rnd.choice([1, 1, 2, 3, rnd.randint(1, 10)])
        elif name == "max_turns_per_round":
            options[name] = rnd.choice([10, 50, 3000])
        elif name in ("target", "starting_points"):
            options[name] = rnd.choice([1, 5, 50, 500])
        else:
            options[name] = rnd.randint(opt.lo, min(opt.hi, 6))
    return preset, rnd.choice([2, 3, 4, 5, 7, 10]), options


def _loops(rules: str, players: int, options: dict, seed: int, steps: int) -> str | None:
    """Put one rule combination through the batched loops; the first problem found, or None."""
    from .analysis import simulate_rounds
    from .learner import LearnerGames

    game = VecGame(rules, players, batch_size=32, seed=seed, **options)
    rng = np.random.default_rng(seed)
    for step in range(steps):
        waiting = game.state.phase == OVER
        mask = game.legal_mask()
        out = game.step((rng.random(mask.shape) * mask).argmax(1))
        if not out.round_over[waiting].all():
            return f"step {step}: a round left over was not reported"
        problems = violations(game.engine, game.state, check_mask=step % 10 == 0)
        if problems:
            return f"step {step}: {problems[0]}"
    for episode in ("round", "game"):
        env = LearnerGames(rules, players, 8, ["random", "greedy"], seed=seed, episode=episode, **options)
        for step in range(steps // 5):
            mask = env.action_masks()
            if not mask.any(1).all():
                return f"learner env ({episode}), step {step}: a game without a legal learner action"
            res = env.step((rng.random(mask.shape) * mask).argmax(1))
            env.restart(np.flatnonzero(res["terminated"] | res["truncated"]))
    simulate_rounds(rules, players, rounds=16, policy="play_first", seed=seed, batch_size=8, **options)
    return None


def random_options_soak(combinations: int, seed: int, steps: int) -> int:
    rnd = random.Random(seed)
    tried = skipped = failed = 0
    t0 = time.perf_counter()
    while tried < combinations:
        rules, players, options = _random_options(rnd)
        try:
            VecGame(rules, players, **options)
        except ValueError:  # a combination the rules refuse, with an error naming why
            skipped += 1
            continue
        tried += 1
        try:
            problem = _loops(rules, players, options, rnd.randrange(2**31), steps)
        except Exception as exc:  # noqa: BLE001 - a crash is a finding; report it and go on
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            failed += 1
            print(json.dumps({"rules": rules, "players": players, "options": options, "problem": problem}),
                  flush=True)
    print(json.dumps({"total": True, "combinations": tried, "refused": skipped, "failed": failed,
                      "seconds": round(time.perf_counter() - t0, 1),
                      "versions": {"uno_env": __version__, "numpy": np.__version__,
                                   "python": platform.python_version()}}), flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m uno_env.soak", description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=1_000_000, help="rounds in total, split over the settings")
    p.add_argument("--batch", type=int, default=1024, help="games per batch")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mask-every", type=int, default=10, help="steps between full legal-mask checks")
    p.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    p.add_argument("--random-options", type=int, default=0, metavar="N",
                   help="instead: N random rule combinations through the batched loops")
    p.add_argument("--steps", type=int, default=150, help="steps per combination (--random-options)")
    args = p.parse_args(argv)
    if args.random_options:
        if args.random_options < 0 or args.steps < 5:
            p.error(f"--random-options must be positive and --steps at least 5, got {args.random_options} "
                    f"and {args.steps}")
        return random_options_soak(args.random_options, args.seed, args.steps)
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

"""A/B of the observation layouts: learner steps per second of the SB3 training env with v2 and with v3.

    python -m benchmarks.ab_observation                    # standard_en, 4 players, 1,024 games, heuristic
    python -m benchmarks.ab_observation --smoke            # tiny sizes (the smoke test)

The two layouts run alternately (``--repeats`` times each) in one process, so both share the host's load;
the line reports each layout's median steps per second, v3's time per step over v2's, and the bytes
of state per game (``State.nbytes_per_game`` plus the table's memory, ``core.memory``).  The learner's
actions are uniformly random among its legal ones (no network): this times the environment alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from .common import versions


def steps_per_s(env, steps: int, rng) -> float:
    def run(n):
        for _ in range(n):
            mask = env.action_masks()
            env.step_async((rng.random(mask.shape) * mask).argmax(1))
            env.step_wait()

    run(max(1, steps // 10))  # warm-up, excluded
    t = time.perf_counter()
    run(steps)
    return steps * env.num_envs / (time.perf_counter() - t)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="standard_en")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--n-envs", type=int, default=1024)
    p.add_argument("--opponents", default="heuristic")
    p.add_argument("--steps", type=int, default=60, help="vectorized steps timed per run")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--smoke", action="store_true")
    args = p.parse_args(argv)
    if args.smoke:
        args.n_envs, args.steps, args.repeats = 8, 3, 1
    from uno_env.sb3 import UnoVecEnv

    envs = {v: UnoVecEnv(args.rules, args.players, args.n_envs, opponents=args.opponents, seed=0, observation=v)
            for v in ("v2", "v3")}
    for env in envs.values():
        env.reset()
    rates = {v: [] for v in envs}
    rng = np.random.default_rng(0)
    for _ in range(args.repeats):
        for v, env in envs.items():
            rates[v].append(steps_per_s(env, args.steps, rng))
    med = {v: statistics.median(r) for v, r in rates.items()}
    game = envs["v3"].games.game
    out = {"bench": "ab_observation", "rules": args.rules, "players": args.players, "n_envs": args.n_envs,
           "opponents": args.opponents, "steps": args.steps, "repeats": args.repeats,
           "v2_steps_per_s": round(med["v2"], 1), "v3_steps_per_s": round(med["v3"], 1),
           "v3_time_per_step_over_v2": round(med["v2"] / med["v3"], 3),
           "v2_runs": [round(x, 1) for x in rates["v2"]], "v3_runs": [round(x, 1) for x in rates["v3"]],
           "observation_size": {v: int(e.games.observation_size) for v, e in envs.items()},
           "state_bytes_per_game": round(game.state.nbytes_per_game(), 1),
           "memory_bytes_per_game": round(game.memory.nbytes_per_game(), 1),
           "versions": versions()}
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

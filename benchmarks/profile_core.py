"""Where the core's time goes: cProfile of the ``bench_core.py`` loop for one setting.

Warms the batch up as ``bench_core.py`` does (untimed, unprofiled; 3 rounds per game by default), then
profiles ``--steps`` iterations of the rollout loop (policy + ``game.step``) and prints one JSON line: the total
profiled time, the share spent inside ``step`` and the top ``--top`` functions by own time (``tottime``), each
with its call count, own and cumulative seconds and share of the total. ``--text`` also prints
``pstats``' table (to stderr), sorted by own time and by cumulative time. cProfile adds a per-call cost,
so the shares, not the absolute times, are the result.

``--passes`` times the settling passes instead (no cProfile): ``Engine.settle`` takes the forced moves in
passes over ever fewer games, and the line gives per pass index its rows, its time and its share of the
step (the game's ``Settling.trace``).

    python benchmarks/profile_core.py --preset standard_en --batch-size 4096 --policy play_first
    python benchmarks/profile_core.py --preset house_cn --passes
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import pstats
import sys

import numpy as np

from uno_env import PRESETS, VecGame

try:
    from benchmarks.bench_core import POLICIES, make_policy, run_steps
    from benchmarks.common import emit, rounded, versions
except ImportError:  # run as a script: benchmarks/ itself is on sys.path
    from bench_core import POLICIES, make_policy, run_steps
    from common import emit, rounded, versions


def _name(func: tuple[str, int, str]) -> str:
    path, line, name = func
    if path == "~":  # built-in
        return name
    short = path.split("site-packages/")[-1].split("/work/main/")[-1]
    return f"{short}:{line}({name})"


def profile(preset: str, players: int, batch_size: int, policy_name: str, steps: int, top: int,
            warmup_rounds: float, seed: int, text: bool) -> dict:
    game = VecGame(preset, num_players=players, batch_size=batch_size, seed=seed, observation="v2")
    policy = make_policy(game, policy_name, np.random.default_rng(seed))
    run_steps(game, policy, 0.5, min_rounds=warmup_rounds * batch_size, max_seconds=20.0)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(steps):
        game.step(policy())
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # by own time
    step_cum = next((v[3] for k, v in stats.stats.items()
                     if k[2] == "step" and k[0].endswith("game.py")), None)  # VecGame.step
    if text:
        buf = io.StringIO()
        s = pstats.Stats(prof, stream=buf)
        s.sort_stats("tottime").print_stats(top)
        s.sort_stats("cumulative").print_stats(top)
        print(buf.getvalue(), file=sys.stderr)
    return {
        "bench": "core_profile", "preset": preset, "players": players, "batch_size": batch_size,
        "policy": policy_name, "steps": steps, "profiled_seconds": rounded(total),
        "step_share": rounded(step_cum / total, 3) if step_cum else None,
        "ms_per_step_profiled": rounded(1e3 * total / steps),
        "top_tottime": [{"function": _name(k), "calls": v[1], "tottime_s": rounded(v[2]),
                         "cumtime_s": rounded(v[3]), "share": rounded(v[2] / total, 3)}
                        for k, v in rows[:top]],
        "versions": versions(),
    }


def passes(preset: str, players: int, batch_size: int, policy_name: str, steps: int, warmup_rounds: float,
           seed: int) -> dict:
    """Per settling pass (index 0, 1, ...): how often it runs per step, its mean rows, its time."""
    import time

    game = VecGame(preset, num_players=players, batch_size=batch_size, seed=seed, observation="v2")
    policy = make_policy(game, policy_name, np.random.default_rng(seed))
    run_steps(game, policy, 0.5, min_rounds=warmup_rounds * batch_size, max_seconds=20.0)
    engine, log, ends = game.engine, [], []
    settle = engine.settle

    def timed_settle(*a, **k):  # the end of the last pass
        try:
            return settle(*a, **k)
        finally:
            ends.append((len(log), time.perf_counter()))
    engine.settle = timed_settle
    plain = game.settling  # the game's Settling, with a trace of each pass
    game.settling = dataclasses.replace(plain, trace=lambda k, rows: log.append((k, rows, time.perf_counter())))
    t0 = time.perf_counter()
    for _ in range(steps):
        game.step(policy())
    total = time.perf_counter() - t0
    del engine.settle
    game.settling = plain
    stats: dict[int, list] = {}
    start = 0
    for end, t_end in ends:  # the passes of one settle call are log[start:end]
        calls = log[start:end]
        for i, (k, rows, t) in enumerate(calls):
            nxt = calls[i + 1][2] if i + 1 < len(calls) else t_end
            s = stats.setdefault(k, [0, 0, 0.0])
            s[0], s[1], s[2] = s[0] + 1, s[1] + rows, s[2] + nxt - t
        start = end
    settle_s = sum(v[2] for v in stats.values())
    return {
        "bench": "settle_passes", "preset": preset, "players": players, "batch_size": batch_size,
        "policy": policy_name, "steps": steps, "us_per_step": rounded(1e6 * total / steps),
        "passes_per_step": rounded(sum(v[0] for v in stats.values()) / steps, 3),
        "settle_share": rounded(settle_s / total, 3),
        "after_first_pass_share": rounded((settle_s - stats.get(0, [0, 0, 0.0])[2]) / total, 3),
        "passes": [{"pass": k, "per_step": rounded(c / steps, 3), "mean_rows": rounded(r / c, 4),
                    "us_per_pass": rounded(1e6 * t / c), "share_of_step": rounded(t / total, 3)}
                   for k, (c, r, t) in sorted(stats.items())],
        "versions": versions(),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="cProfile of the core rollout loop, one JSON line.",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--preset", default="standard_en", choices=list(PRESETS))
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=4096)
    p.add_argument("--policy", default="play_first", choices=POLICIES)
    p.add_argument("--steps", type=int, default=300, help="profiled loop iterations")
    p.add_argument("--top", type=int, default=20, help="functions listed")
    p.add_argument("--warmup-rounds", type=float, default=3.0, help="rounds per game before profiling")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--text", action="store_true", help="also print pstats tables to stderr")
    p.add_argument("--passes", action="store_true", help="time the settling passes instead of profiling")
    args = p.parse_args(argv)
    if args.passes:
        emit(passes(args.preset, args.players, args.batch_size, args.policy, args.steps, args.warmup_rounds,
                    args.seed))
        return 0
    emit(profile(args.preset, args.players, args.batch_size, args.policy, args.steps, args.top,
                 args.warmup_rounds, args.seed, args.text))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Throughput of the batched core (``uno_env.VecGame``) against RLCard's ``UnoGame``, side by side.

What is measured, for every preset x batch size x policy (one JSON line each). The games observe layout
``v2`` (``VecGame``'s default is ``v3``): the rules alone, without the table's memory, which RLCard's game
does not keep either; ``benchmarks/ab_core.py --observation v3`` measures the memory's cost.

* **The loop timed** is what a random-play rollout does: read the legal mask, pick one action per game
  with a batched random policy, ``game.step(actions)``, count the finished rounds. Finished rounds are
  dealt again inside ``step`` (``autoreset``), so the loop never stops and ``rounds_per_s`` is a
  steady-state rate. ``decisions_per_s`` counts ``B`` decisions per ``step`` call (the core plays
  forced moves - a single legal action - inside ``step``; they are not counted). The time spent in
  ``step`` alone is accumulated with ``time.perf_counter`` and gives ``engine_only_decisions_per_s``
  (the policy-free engine rate; the rest of the loop is the policy and the bookkeeping).
* **Policies**: ``play_first`` picks uniformly among the legal plays when any play is legal, otherwise
  uniformly among the legal actions; this matches RLCard's random agent, since RLCard offers ``draw``
  only when nothing is playable. ``uniform`` picks uniformly among all legal actions; because these
  rules let a seat draw even when it can play, its rounds are far longer (hundreds of decisions).
  Both draw one random order of the action columns per step and take each game's first legal action
  in it (plays first for ``play_first``): uniform for each game, and cheaper than ``B x A`` random
  floats (the earlier policy drew those, ~20% of the loop at batch 4096).
* **Warm-up** (excluded): all games are dealt at once, so the batch starts synchronised and the rate of
  finished rounds oscillates until the round lengths have spread it out. The warm-up runs for at least
  ``--warmup`` seconds and until ``--warmup-rounds`` rounds per game have finished (capped at
  ``--warmup-max`` seconds). Under ``uniform`` some rounds run into ``max_turns_per_round`` (3000
  actions), so after one round per game the rate is still ~10% off its steady state; three rounds per
  game (about 3000 steps) gets past that cohort.
* **Repeats**: ``--repeats`` windows of ``--seconds``, each followed by a window of the peer
  (``peers.rlcard_game`` with the same player count, ``--peer-seconds``), so both share the host's
  noise. Rates are medians over the windows; ``ratio_*`` are medians of the per-window ratios.
* **Memory** (one ``core_memory`` line per preset and batch size): ``state.nbytes_per_game()``, the
  ``tracemalloc`` peak while building the game and stepping it ``--memory-steps`` times, and the
  process's peak RSS so far (``ru_maxrss``: cumulative over the run, so read it in batch order).

A round of the core and a game of RLCard are both one round of UNO, so ``ratio_rounds_vs_peer_games``
is the like-for-like figure (for ``play_first``). Engine errors are reported as a JSON line with an
``error`` key; the script then exits with status 1 after finishing the other settings.

Examples:
    python benchmarks/bench_core.py --presets standard_en --batch-sizes 1 64 1024 4096
    python benchmarks/bench_core.py --out benchmarks/results/core.jsonl && python benchmarks/plot.py \
        benchmarks/results/core.jsonl
    python benchmarks/bench_core.py --smoke        # a few seconds, used by tests/test_benchmarks_smoke.py
"""

from __future__ import annotations

import argparse
import gc
import math
import resource
import sys
import time
import traceback
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

from uno_env import PRESETS, VecGame
from uno_env.core.actions import PLAY

try:
    from benchmarks import peers
    from benchmarks.common import emit, machine, median, ratio, rounded, versions
except ImportError:  # run as a script: benchmarks/ itself is on sys.path
    import peers
    from common import emit, machine, median, ratio, rounded, versions

POLICIES = ("play_first", "uniform")
DEFAULT_BATCH_SIZES = (1, 64, 256, 1024, 4096, 16384)


def make_policy(game: VecGame, name: str, rng: np.random.Generator) -> Callable[[], np.ndarray]:
    """A batched random policy reading ``game``'s legal mask: ``play_first`` or ``uniform``.

    Each call draws one random order of the action columns and every game takes its first legal
    action in that order (for ``play_first`` the play columns come first).  The first legal action
    under a uniformly random order is uniform over the legal actions, so each game plays exactly as
    under an independent uniform choice; only the games of one step share the order.  This costs a
    column gather and a ``bool`` argmax, a third of drawing ``B x A`` random floats.
    """
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; choose from {', '.join(POLICIES)}")
    plays = np.flatnonzero(game.engine.A_KIND == PLAY)
    others = np.flatnonzero(game.engine.A_KIND != PLAY)
    columns = np.arange(game.num_actions)

    def first_legal(order: np.ndarray) -> np.ndarray:  # (B,) each game's first legal action in order
        return order[np.take(game.legal_mask(), order, axis=1).argmax(1)]

    def uniform() -> np.ndarray:
        return first_legal(rng.permutation(columns))

    def play_first() -> np.ndarray:
        return first_legal(np.concatenate([rng.permutation(plays), rng.permutation(others)]))

    return play_first if name == "play_first" else uniform


def run_steps(game: VecGame, policy: Callable[[], np.ndarray], seconds: float,
              min_rounds: float = 0.0, max_seconds: float = math.inf) -> dict:
    """Step ``game`` with ``policy`` for ``seconds`` (and until ``min_rounds`` rounds have finished,
    up to ``max_seconds``); returns counts, the wall time and the time spent inside ``step``."""
    step, perf, count = game.step, time.perf_counter, np.count_nonzero
    steps = rounds = truncated = 0
    engine = 0.0
    t0 = perf()
    while True:
        actions = policy()
        t1 = perf()
        out = step(actions)
        t2 = perf()
        engine += t2 - t1
        steps += 1
        rounds += count(out.round_over)
        truncated += count(out.truncated)
        elapsed = t2 - t0
        if elapsed >= seconds and (rounds >= min_rounds or elapsed >= max_seconds):
            break
    return {"steps": steps, "rounds": int(rounds), "truncated": int(truncated), "seconds": elapsed,
            "engine_seconds": engine}


def bench_setting(preset: str, players: int, batch_size: int, policy_name: str, args) -> dict:
    """Warm up, then alternate core and peer windows; return the JSON record of one setting."""
    game = VecGame(preset, num_players=players, batch_size=batch_size, seed=args.seed, observation="v2")
    policy = make_policy(game, policy_name, np.random.default_rng(args.seed))
    warm = run_steps(game, policy, args.warmup, min_rounds=args.warmup_rounds * batch_size,
                     max_seconds=args.warmup_max)
    core, peer = [], []
    for r in range(args.repeats):
        core.append(run_steps(game, policy, args.seconds))
        if not args.no_peer:
            peer.append(peers.rlcard_game(players, args.peer_seconds, args.peer_warmup if r == 0 else 0.0,
                                          seed=args.seed + r))
    B = batch_size
    rounds_ps = [w["rounds"] / w["seconds"] for w in core]
    dec_ps = [w["steps"] * B / w["seconds"] for w in core]
    eng_ps = [w["steps"] * B / w["engine_seconds"] for w in core]
    steps, rounds = sum(w["steps"] for w in core), sum(w["rounds"] for w in core)
    engine_s = sum(w["engine_seconds"] for w in core)
    rec = {
        "bench": "core", "preset": preset, "players": players, "batch_size": B, "policy": policy_name,
        "rounds_per_s": rounded(median(rounds_ps)), "decisions_per_s": rounded(median(dec_ps)),
        "engine_only_decisions_per_s": rounded(median(eng_ps)),
        "policy_share": rounded(1 - engine_s / sum(w["seconds"] for w in core), 3),
        "step_us": rounded(1e6 * engine_s / steps),
        "decisions_per_round": rounded(steps * B / rounds) if rounds else None,
        "truncated_share": rounded(sum(w["truncated"] for w in core) / rounds, 3) if rounds else None,
        "rounds": rounds, "steps": steps,
        "rounds_per_s_runs": [rounded(x) for x in rounds_ps],
        "seconds": args.seconds, "repeats": args.repeats,
        "warmup_excluded": True, "warmup_s": rounded(warm["seconds"]), "warmup_steps": warm["steps"],
        "warmup_rounds_per_game": rounded(warm["rounds"] / B, 3),
        "num_actions": game.num_actions, "seed": args.seed,
    }
    if peer:
        rec["peer"] = {
            "name": "rlcard.UnoGame", "players": players, "policy": peers.RANDOM_POLICY,
            "games_per_s": rounded(median([p["games_per_s"] for p in peer])),
            "steps_per_s": rounded(median([p["steps_per_s"] for p in peer])),
            "steps_per_game": rounded(sum(p["steps"] for p in peer) / sum(p["games"] for p in peer)),
            "seconds": args.peer_seconds,
        }
        rec["ratio_rounds_vs_peer_games"] = rounded(median(
            [ratio(c, p["games_per_s"]) for c, p in zip(rounds_ps, peer, strict=True)]))
        rec["ratio_decisions_vs_peer_steps"] = rounded(median(
            [ratio(c, p["steps_per_s"]) for c, p in zip(dec_ps, peer, strict=True)]))
    rec["versions"] = versions()
    return rec


def bench_memory(preset: str, players: int, batch_size: int, args) -> dict:
    """Bytes of state per game, the tracemalloc peak of building and stepping a batch, peak RSS."""
    gc.collect()
    tracemalloc.start()
    try:
        game = VecGame(preset, num_players=players, batch_size=batch_size, seed=args.seed, observation="v2")
        built, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        policy = make_policy(game, "uniform", np.random.default_rng(args.seed))
        for _ in range(args.memory_steps):
            game.step(policy())
        _, step_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    state = game.state.nbytes_per_game()
    return {
        "bench": "core_memory", "preset": preset, "players": players, "batch_size": batch_size,
        "state_bytes_per_game": rounded(state), "state_bytes": int(state * batch_size),
        "tracemalloc_built_bytes": built,
        "tracemalloc_peak_bytes": step_peak,
        "tracemalloc_peak_bytes_per_game": rounded(step_peak / batch_size),
        "memory_steps": args.memory_steps,
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,  # Linux: KiB
        "versions": versions(),
    }


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Core vs RLCard throughput, one JSON line per setting.",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS),
                   help="rule presets to measure")
    p.add_argument("--batch-sizes", nargs="+", type=int, default=list(DEFAULT_BATCH_SIZES),
                   help="numbers of games stepped together")
    p.add_argument("--players", type=int, default=4, help="seats per game (core and RLCard)")
    p.add_argument("--policies", nargs="+", default=list(POLICIES), choices=POLICIES,
                   help="random policies (see the module docstring)")
    p.add_argument("--seconds", type=float, default=2.0, help="timed seconds per core window")
    p.add_argument("--repeats", type=int, default=3, help="core/peer window pairs per setting (medians)")
    p.add_argument("--warmup", type=float, default=0.5, help="minimum untimed seconds before timing")
    p.add_argument("--warmup-rounds", type=float, default=3.0,
                   help="finished rounds per game required before timing (desynchronises the batch)")
    p.add_argument("--warmup-max", type=float, default=60.0, help="cap on the warm-up, seconds")
    p.add_argument("--peer-seconds", type=float, default=1.0, help="timed seconds per RLCard window")
    p.add_argument("--peer-warmup", type=float, default=0.2, help="untimed RLCard seconds per setting")
    p.add_argument("--no-peer", action="store_true", help="skip the RLCard windows")
    p.add_argument("--no-memory", action="store_true", help="skip the core_memory lines")
    p.add_argument("--memory-steps", type=int, default=20, help="steps traced for the memory peak")
    p.add_argument("--seed", type=int, default=0, help="seed of the games, the policy and RLCard")
    p.add_argument("--out", type=Path, default=None, help="also write the JSON lines to this file")
    p.add_argument("--smoke", action="store_true",
                   help="tiny run for CI: standard_en, batch 1 and 64, 0.05 s windows, one repeat")
    args = p.parse_args(argv)
    if args.smoke:
        args.presets, args.batch_sizes, args.seconds, args.repeats = ["standard_en"], [1, 64], 0.05, 1
        args.warmup, args.warmup_rounds, args.peer_seconds, args.peer_warmup = 0.0, 0.0, 0.05, 0.0
        args.memory_steps = 3
    if any(b < 1 for b in args.batch_sizes) or args.repeats < 1:
        p.error(f"batch sizes and --repeats must be positive; got {args.batch_sizes} and {args.repeats}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    out = None
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        out = args.out.open("w")
    failures = 0
    try:
        emit({"bench": "run", "script": "bench_core", "argv": sys.argv[1:] if argv is None else list(argv),
              "machine": machine(), "versions": versions()}, out)
        for preset in args.presets:
            for B in args.batch_sizes:
                for policy in args.policies:
                    try:
                        emit(bench_setting(preset, args.players, B, policy, args), out)
                    except Exception as exc:  # report and go on with the other settings
                        failures += 1
                        emit({"bench": "core", "preset": preset, "players": args.players, "batch_size": B,
                              "policy": policy, "error": repr(exc),
                              "where": traceback.format_exc(limit=-3).splitlines()[-4:],
                              "versions": versions()}, out)
            if not args.no_memory:
                for B in sorted(args.batch_sizes):
                    try:
                        emit(bench_memory(preset, args.players, B, args), out)
                    except Exception as exc:
                        failures += 1
                        emit({"bench": "core_memory", "preset": preset, "players": args.players,
                              "batch_size": B, "error": repr(exc), "versions": versions()}, out)
    finally:
        if out is not None:
            out.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Before/after: the core's speed under two source trees, in alternating child processes.

How the speed-ups of the core were measured: check out the baseline beside the working tree
(``git worktree add --detach /tmp/base COMMIT``), then

    python benchmarks/ab_core.py /tmp/base . --preset house_cn --batch-size 4096

Each window is a fresh Python process that imports ``uno_env`` from one tree, warms a batch up as
``bench_core.py`` does and times ``--seconds`` of its loop (policy and ``step``), longer if no round has
finished by then (a busy host or a tiny ``--seconds``: every window counts a round); windows alternate
between the trees so both share the host's noise.  Prints one JSON line per tree (medians of
``--repeats`` windows) with its ratio to the first tree.  Pair it with ``python -m uno_env.fingerprint``
in both trees: a speed-up must not change any game.  ``--observation v3`` keeps the table's memory
(``core.memory``) in the step, as the v3 training envs do (its hooks run at every play and draw).

With several presets and one tree it compares the presets the same way, per decision
(``decisions_ratio``: how many times slower than the first preset) and per move (``moves_ratio``).
A decision is one action per game and ``step``, what an agent is asked; a move is every action a seat
takes, the forced ones the engine plays inside ``step`` included (counted from the engine's action log
over 50 steps after each window).  Rules that force many moves (``house_cn``: a seat holding a single
playable card must play it) take more moves per decision, so per decision they look slower than the
engine's work per move is:

    python benchmarks/ab_core.py . --preset standard_en standard_ru house_cn solo_bga flip_jp --repeats 8
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

try:
    from benchmarks.common import emit, machine, median, output, rounded, uno_env_revision, versions
except ImportError:  # run as a script: benchmarks/ itself is on sys.path
    from common import emit, machine, median, output, rounded, uno_env_revision, versions

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import inspect, json, sys
sys.path.insert(0, {bench!r})
import numpy as np
from bench_core import make_policy, run_steps
import uno_env
from uno_env import VecGame
game = VecGame({preset!r}, num_players={players}, batch_size={batch}, seed=0, observation={observation!r})
policy = make_policy(game, "play_first", np.random.default_rng(0))
run_steps(game, policy, 0.5, min_rounds=3 * {batch}, max_seconds=20.0)
out = run_steps(game, policy, {seconds}, min_rounds=1)  # a window ends after a finished round: rates never 0
out["uno_env_file"] = uno_env.__file__
out["observation"] = game.observer.version  # as the tree built it
moves = []  # after the timed window: count every action applied, chosen or forced
if "listener" in inspect.signature(game.step).parameters:
    for _ in range(50):
        game.step(policy(), listener=moves.extend)
else:  # a tree from before the step took a listener: the engine kept one action log then
    setattr(game.engine, "log", moves)
    for _ in range(50):
        game.step(policy())
out["moves_per_decision"] = len(moves) / (50 * {batch})
print(json.dumps(out))
"""


def window(tree: Path, preset: str, players: int, batch: int, seconds: float, observation: str = "v2") -> dict:
    """One timed window of ``tree``'s core in a fresh process."""
    code = _CHILD.format(bench=str(HERE), preset=preset, players=players, batch=batch, seconds=seconds,
                         observation=observation)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=600)
    if proc.returncode:
        raise RuntimeError(f"the window for {tree} failed:\n{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if not Path(out["uno_env_file"]).resolve().is_relative_to(tree):
        raise RuntimeError(f"the window for {tree} imported uno_env from {out['uno_env_file']}")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("trees", nargs="+", type=Path, help="source trees (the first is the baseline)")
    p.add_argument("--preset", nargs="+", default=["standard_en"],
                   help="presets; with several, windows alternate over every (tree, preset) pair and "
                        "decisions_ratio compares them per decision")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=4096)
    p.add_argument("--seconds", type=float, default=2.0, help="timed seconds per window")
    p.add_argument("--repeats", type=int, default=3, help="windows per tree (medians)")
    p.add_argument("--observation", default="v2", choices=["v2", "v3"],
                   help="the games' observation layout: v3 keeps the table's memory (core.memory) on every step")
    p.add_argument("--out", type=Path, default=None, help="also append the JSON lines to this file")
    args = p.parse_args(argv)
    trees = [t.resolve() for t in args.trees]
    for t in trees:
        if not (t / "uno_env" / "__init__.py").exists():
            p.error(f"{t} is not a source tree of this project (no uno_env/__init__.py)")
    pairs = [(t, preset) for preset in args.preset for t in trees]
    runs: dict[tuple, list[dict]] = {pair: [] for pair in pairs}
    for _ in range(args.repeats):
        for t, preset in pairs:
            runs[t, preset].append(window(t, preset, args.players, args.batch_size, args.seconds, args.observation))
    B = args.batch_size
    with output(args.out) as out:
        base = None
        for t, preset in pairs:
            w = runs[t, preset]
            rounds = median([r["rounds"] / r["seconds"] for r in w])
            decisions = median([r["steps"] * B / r["seconds"] for r in w])
            engine_us = median([1e6 * r["engine_seconds"] / r["steps"] for r in w])
            per_decision = median([r["moves_per_decision"] for r in w])
            moves = decisions * per_decision
            base = base or (rounds, engine_us, decisions, moves)
            emit({"bench": "ab_core", "tree": str(t), "preset": preset, "players": args.players,
                  "batch_size": B, "observation": w[0]["observation"], "rounds_per_s": rounded(rounds),
                  "decisions_per_s": rounded(decisions),
                  "engine_us_per_step": rounded(engine_us), "rounds_ratio": rounded(rounds / base[0], 3),
                  "engine_speedup": rounded(base[1] / engine_us, 3),
                  "decisions_ratio": rounded(base[2] / decisions, 3),
                  "moves_per_decision": rounded(per_decision, 4), "moves_per_s": rounded(moves),
                  "moves_ratio": rounded(base[3] / moves, 3), "repeats": args.repeats,
                  "seconds": args.seconds, "machine": machine(),
                  "versions": {**versions(), "uno_env_git": uno_env_revision(str(t))}}, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

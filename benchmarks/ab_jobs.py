"""Several jobs at once: evaluation speed when processes share the cores, under two source trees.

Researchers run several seeds or matches at the same time.  This script runs ``--jobs`` copies of
one evaluation (``training.evaluate.play_match``) at once, each in a fresh Python process that
imports the project from one source tree, and times them; windows alternate between the trees so
both share the host's noise.  It prints one JSON line per (tree, workload, jobs): rounds per second
of one job and of all of them together (medians of ``--repeats`` windows) and the ratio to the first
tree.  How the BLAS-threading fix of the bots and the observer was measured:

    git worktree add --detach /tmp/base COMMIT
    python benchmarks/ab_jobs.py /tmp/base . --jobs 1 2

A workload is ``AGENTS@RULES`` (agents as for ``training.evaluate``, one per seat), with its rounds
per job after a colon: ``heuristic,random@flip_jp:2000``.
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

DEFAULT_WORKLOADS = ("heuristic,random@standard_en:20000", "heuristic,heuristic,heuristic,heuristic@standard_en:10000",
                     "heuristic,random@flip_jp:2000")

_CHILD = r"""
import json, sys, agents
from training.evaluate import play_match
r = play_match({agents!r}, {rules!r}, {players}, {games}, seed={seed}, batch_size={batch}, progress=False)
print(json.dumps({{"seconds": r.seconds, "agents_file": agents.__file__}}))
"""


def parse_workload(text: str) -> tuple[list[str], str, int]:
    """``AGENTS@RULES[:ROUNDS]`` -> (agents, rules, rounds)."""
    head, _, rounds = text.partition(":")
    names, at, rules = head.partition("@")
    agents = [n.strip() for n in names.split(",") if n.strip()]
    if not at or not rules or len(agents) < 2 or (rounds and not rounds.isdigit()):
        raise ValueError(f"a workload is AGENTS@RULES[:ROUNDS] with two or more agents, e.g. "
                         f"'heuristic,random@standard_en:20000'; got {text!r}")
    return agents, rules, int(rounds or 10000)


def window(tree: Path, agents: list[str], rules: str, rounds: int, jobs: int, batch: int) -> list[float]:
    """Start ``jobs`` evaluations from ``tree`` at once; return each one's seconds."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    procs = [subprocess.Popen([sys.executable, "-c", _CHILD.format(agents=agents, rules=rules, players=len(agents),
                                                                   games=rounds, seed=j, batch=batch)],
                              cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for j in range(jobs)]
    seconds = []
    for p in procs:
        out, err = p.communicate(timeout=3600)
        if p.returncode:
            raise RuntimeError(f"a job of {tree} failed:\n{err[-2000:]}")
        line = json.loads(out.strip().splitlines()[-1])
        if not Path(line["agents_file"]).resolve().is_relative_to(tree):
            raise RuntimeError(f"a job of {tree} imported agents from {line['agents_file']}")
        seconds.append(line["seconds"])
    return seconds


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("trees", nargs="+", type=Path, help="source trees (the first is the baseline)")
    p.add_argument("--workload", nargs="+", default=list(DEFAULT_WORKLOADS), help="AGENTS@RULES[:ROUNDS]")
    p.add_argument("--jobs", nargs="+", type=int, default=[1, 2], help="numbers of jobs run at once")
    p.add_argument("--repeats", type=int, default=2, help="windows per tree (medians)")
    p.add_argument("--batch-size", type=int, default=512, help="games per job played at once")
    p.add_argument("--out", type=Path, default=None, help="also append the JSON lines to this file")
    args = p.parse_args(argv)
    trees = [t.resolve() for t in args.trees]
    for t in trees:
        if not (t / "agents" / "__init__.py").exists():
            p.error(f"{t} is not a source tree of this project (no agents/__init__.py)")
    if min(args.jobs) < 1 or args.repeats < 1:
        p.error(f"--jobs and --repeats must be positive, got {args.jobs} and {args.repeats}")
    try:
        workloads = [parse_workload(w) for w in args.workload]
    except ValueError as exc:
        p.error(str(exc))
    with output(args.out) as out:
        for agents, rules, rounds in workloads:
            for jobs in args.jobs:
                runs: dict[Path, list[float]] = {t: [] for t in trees}
                for _ in range(args.repeats):
                    for t in trees:
                        runs[t].append(median(window(t, agents, rules, rounds, jobs, args.batch_size)))
                base = None
                for t in trees:
                    per_job = rounds / median(runs[t])
                    base = base or per_job
                    emit({"bench": "ab_jobs", "tree": str(t), "agents": ",".join(agents), "rules": rules,
                          "players": len(agents), "jobs": jobs, "rounds_per_job": rounds,
                          "rounds_per_s_per_job": rounded(per_job), "rounds_per_s_all_jobs": rounded(per_job * jobs),
                          "speedup": rounded(per_job / base, 3), "seconds": [rounded(s) for s in runs[t]],
                          "repeats": args.repeats, "batch_size": args.batch_size, "machine": machine(),
                          "versions": {**versions(), "uno_env_git": uno_env_revision(str(t))}}, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

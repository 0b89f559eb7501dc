"""RLlib sampling throughput: the batched learner-seat env against the AEC env via RLlib's PettingZooEnv.

For each path (``--paths``) and number of env runners (``--runners``), builds the PPO algorithm of
``training.rllib_train`` (same network, opponents, games per runner) on a local Ray with ``--num-cpus``
CPUs, warms it up with one training iteration, then times:

* ``sample``: every env runner samples ``--sample-steps`` env steps at once (``EnvRunner.sample``
  through ``foreach_env_runner``, the episodes shipped back to the driver), ``--repeats`` times;
  reported as env steps/s and learner decisions/s (medians).  In the batched path an env step *is* a
  learner decision (the opponents move inside it); in the AEC path every seat's decision is an env
  step, so the learner makes about 1/players of them.
* ``train``: ``--iterations`` calls of ``algo.train()`` (sampling ``--train-batch`` env steps plus
  the PPO update); reported as env steps/s end to end (median).

One JSON line per (path, runners).  ``--smoke`` runs tiny sizes.

    python benchmarks/bench_rllib.py                       # both paths, 1 and 2 env runners
    python benchmarks/bench_rllib.py --paths batched --runners 1,2,4 --num-cpus 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

try:
    from benchmarks.common import versions
except ImportError:  # run as a script: benchmarks/ itself is on sys.path
    from common import versions

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def bench(path: str, runners: int, a) -> dict:
    from training.rllib_train import Args, build_config, set_torch_threads

    args = Args(rules=a.rules, players=a.players, env=path, num_env_runners=runners,
                n_envs=a.envs_per_runner, opponents=a.opponents, train_batch_size=a.train_batch,
                batch_size=min(500, a.train_batch), n_epochs=a.epochs, num_cpus=a.num_cpus, eval_games=0)
    args.validate()
    set_torch_threads(args)  # as training.rllib_train does (1 thread for the PPO update by default)
    algo = build_config(args, local=True).build_algo()
    try:
        algo.train()  # warm-up: actors started, torch and the connectors warm
        # training first: the runners' metrics of the timed samples below would go into the next result
        train_rates = []
        for _ in range(a.iterations):
            t0 = time.perf_counter()
            r = algo.train()
            train_rates.append(r["env_runners"]["num_env_steps_sampled"] / (time.perf_counter() - t0))
        mid = args.module_id

        def sample(runner, n=a.sample_steps):
            eps = runner.sample(num_timesteps=n, explore=True)
            env_steps = sum(e.env_steps() for e in eps)
            if hasattr(eps[0], "agent_episodes"):  # multi-agent: count the learner module's steps
                learner = sum(len(sa) for e in eps for sa in e.agent_episodes.values() if sa.module_id == mid)
            else:
                learner = env_steps
            return env_steps, learner

        env_rates, learner_rates = [], []
        for _ in range(a.repeats):
            t0 = time.perf_counter()
            counts = algo.env_runner_group.foreach_env_runner(sample, local_env_runner=runners == 0)
            dt = time.perf_counter() - t0
            env_rates.append(sum(c[0] for c in counts) / dt)
            learner_rates.append(sum(c[1] for c in counts) / dt)
    finally:
        algo.stop()
    return {"sample_env_steps_per_s": round(statistics.median(env_rates), 1),
            "sample_learner_decisions_per_s": round(statistics.median(learner_rates), 1),
            "sample_env_steps_per_s_runs": [round(x, 1) for x in env_rates],
            "train_env_steps_per_s": round(statistics.median(train_rates), 1),
            "train_env_steps_per_s_runs": [round(x, 1) for x in train_rates]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="standard_en")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--opponents", default="heuristic")
    p.add_argument("--paths", default="batched,aec", help="comma-separated: batched, aec")
    p.add_argument("--runners", default="1,2", help="comma-separated numbers of env runners")
    p.add_argument("--envs-per-runner", type=int, default=16, help="games per env runner")
    p.add_argument("--sample-steps", type=int, default=4000, help="env steps per runner per timed sample")
    p.add_argument("--repeats", type=int, default=3, help="timed samples (median reported)")
    p.add_argument("--iterations", type=int, default=3, help="timed training iterations (median reported)")
    p.add_argument("--train-batch", type=int, default=4000, help="env steps per training iteration")
    p.add_argument("--epochs", type=int, default=4, help="PPO epochs per iteration")
    p.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local Ray")
    p.add_argument("--smoke", action="store_true", help="tiny sizes")
    a = p.parse_args(argv)
    if a.smoke:
        a.sample_steps, a.repeats, a.iterations, a.train_batch, a.epochs, a.envs_per_runner = 200, 1, 1, 400, 1, 4
    import ray
    import torch

    base = {"bench": "rllib", "rules": a.rules, "players": a.players, "opponents": a.opponents,
            "envs_per_runner": a.envs_per_runner, "sample_steps_per_runner": a.sample_steps,
            "train_batch": a.train_batch, "epochs": a.epochs, "num_cpus": a.num_cpus, "host_cpus": os.cpu_count(),
            "versions": {**versions(), "ray": ray.__version__, "torch": torch.__version__}}
    for path in [x.strip() for x in a.paths.split(",") if x.strip()]:
        for runners in [int(x) for x in a.runners.split(",")]:
            rec = {**base, "path": path, "env_runners": runners}
            # a fresh Ray per setting: actors of a stopped algorithm can linger and take CPU from the next
            ray.init(num_cpus=a.num_cpus, object_store_memory=500 * 1024 * 1024, include_dashboard=False,
                     log_to_driver=False, logging_level="ERROR")
            try:
                rec.update(bench(path, runners, a))
            except Exception as exc:  # report and go on with the other settings
                rec["error"] = f"{type(exc).__name__}: {exc}"[:500]
            finally:
                ray.shutdown()
            print(json.dumps(rec), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

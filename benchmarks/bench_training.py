"""MaskablePPO samples per second: the native batched VecEnv against the PettingZoo SB3 tutorial path.

Both runs train the same MaskablePPO (same network, rollout size, minibatch and epochs) for the same
number of samples, in the same process, alternating ``--repeats`` times (medians reported) so that both
share the host's noise:

* ``native``: ``uno_env.sb3.UnoVecEnv`` with ``--n-envs`` games stepped together and the opponents
  (random bots) moving inside ``step``;
* ``aec_tutorial``: the AEC env wrapped the way PettingZoo's "SB3: Action Masked PPO" tutorial does it
  (a ``BaseWrapper`` exposing the acting agent's observation, ``ActionMasker`` with ``mask_fn``, one
  env that SB3 wraps in a ``DummyVecEnv``).  As in the tutorial, the one model plays every seat;
* ``lean`` (``--paths ...,lean``): ``training/ppo_lean.py``, a CleanRL-style masked PPO over
  ``uno_env.learner.LearnerGames`` with ``--lean-envs`` games stepped together for ``--lean-steps``
  decisions per rollout; the same network (256,256 Tanh for policy and value), minibatch and epochs.

``--opponents`` chooses the bots of the ``native`` and ``lean`` paths (the tutorial's model plays every seat).
Prints one JSON line per path and one with the ratios; first, the training env alone (``env_only``:
learner steps per second with random or heuristic opponents inside, no network; ``--env-steps 0`` skips
them).  ``--smoke`` runs a tiny size for CI.

    python benchmarks/bench_training.py --steps 32768
    # the 4-player recipe (agents/models/ppo-standard_en-4p.json) against the lean loop, side by side:
    python benchmarks/bench_training.py --players 4 --opponents heuristic --rollout 16384 --n-envs 64 \
        --batch-size 4096 --n-epochs 4 --torch-threads 1 --steps 32768 --paths native,lean --env-steps 0
    # today's shipped recipe (v3, 64 decisions per game and rollout, minibatch 16,384) against the old one:
    python benchmarks/bench_training.py --players 4 --opponents heuristic --rollout 16384 --n-envs 64 \
        --batch-size 4096 --n-epochs 4 --torch-threads 1 --steps 131072 --paths native,lean --env-steps 0 \
        --native-observation v2 --lean-steps 64 --lean-batch-size 16384 --lean-observation v3
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import gymnasium
import numpy as np

try:
    from benchmarks.common import versions
except ImportError:  # run as a script: benchmarks/ itself is on sys.path
    from common import versions
import pettingzoo.utils


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """PettingZoo's tutorial wrapper: a Gymnasium-like view of the acting agent, mask on the side."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        current_agent = self.agent_selection
        super().step(action)
        next_agent = self.agent_selection
        return (self.observe(next_agent), self._cumulative_rewards[current_agent],
                self.terminations[current_agent], self.truncations[current_agent], self.infos[current_agent])

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def mask_fn(env):
    return env.action_mask()


def _ppo(env, n_steps: int, args, seed: int):
    from sb3_contrib import MaskablePPO
    return MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
                       policy_kwargs={"net_arch": [256, 256]}, seed=seed, device="cpu", verbose=0)


def bench_native(args) -> float:
    from stable_baselines3.common.vec_env import VecMonitor

    from uno_env.sb3 import UnoVecEnv
    layout = {"observation": args.native_observation} if args.native_observation else {}
    env = VecMonitor(UnoVecEnv(args.rules, args.players, args.n_envs, opponents=args.opponents, seed=0,
                               **layout))  # as train_ppo
    model = _ppo(env, args.rollout // args.n_envs, args, 0)
    model.learn(args.rollout)  # warm-up rollout and update, excluded
    t = time.perf_counter()
    model.learn(args.steps, reset_num_timesteps=False)
    return args.steps / (time.perf_counter() - t)


def bench_tutorial(args) -> float:
    from sb3_contrib.common.wrappers import ActionMasker

    from uno_env import uno_v4
    env = SB3ActionMaskWrapper(uno_v4.env(rules=args.rules, num_players=args.players))
    env.reset(seed=0)
    env = ActionMasker(env, mask_fn)
    model = _ppo(env, args.rollout, args, 0)
    model.learn(args.rollout)
    t = time.perf_counter()
    model.learn(args.steps, reset_num_timesteps=False)
    return args.steps / (time.perf_counter() - t)


def bench_lean(args) -> float:
    try:
        from training.ppo_lean import Config, LeanPPO
    except ImportError:  # run as a script: the repository root is not on sys.path
        import sys
        from pathlib import Path
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from training.ppo_lean import Config, LeanPPO
    cfg = Config(rules=args.rules, players=args.players, opponents=args.opponents, n_envs=args.lean_envs,
                 n_steps=args.lean_steps, batch_size=args.lean_batch_size or args.batch_size, n_epochs=args.n_epochs,
                 seed=0, torch_threads=args.torch_threads or 0, observation=args.lean_observation)
    trainer = LeanPPO(cfg)
    trainer.learn(trainer.step + 1)  # warm-up rollout and update, excluded
    start = trainer.step
    t = time.perf_counter()
    trainer.learn(start + args.steps)
    return (trainer.step - start) / (time.perf_counter() - t)


def bench_env(args, opponents: str, n_envs: int) -> dict:
    """The training env alone: learner decisions per second of ``UnoVecEnv`` with ``opponents`` moving
    inside ``step`` (the learner's actions uniformly random among its legal ones; no network)."""
    from uno_env.sb3 import UnoVecEnv
    env = UnoVecEnv(args.rules, args.players, n_envs, opponents=opponents, seed=0)
    env.reset()
    rng = np.random.default_rng(0)

    def run(n):
        for _ in range(n):
            mask = env.action_masks()
            env.step_async((rng.random(mask.shape) * mask).argmax(1))
            env.step_wait()

    run(max(2, args.env_steps // (10 * n_envs)))  # warm-up, excluded
    n = max(2, args.env_steps // n_envs)
    t = time.perf_counter()
    run(n)
    rate = n * n_envs / (time.perf_counter() - t)
    return {"opponents": opponents, "n_envs": n_envs, "learner_steps_per_s": round(rate, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="standard_en")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--steps", type=int, default=32768, help="samples timed per path (after a warm-up rollout)")
    p.add_argument("--rollout", type=int, default=4096, help="samples per PPO rollout (both paths)")
    p.add_argument("--n-envs", type=int, default=64, help="games in the native VecEnv")
    p.add_argument("--opponents", default="random", help="bots of the native and lean paths")
    p.add_argument("--paths", default="native,tutorial", help="comma-separated: native, tutorial, lean")
    p.add_argument("--lean-envs", type=int, default=1024, help="games stepped together by the lean path")
    p.add_argument("--lean-steps", type=int, default=16, help="decisions per game and rollout, lean path")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--lean-batch-size", type=int, default=0, help="minibatch of the lean path (0: --batch-size)")
    p.add_argument("--native-observation", default="", help="observation layout of the native path (v2, v3; "
                   "empty: the env's default)")
    p.add_argument("--lean-observation", default="", help="observation layout of the lean path (v2, v3; "
                   "empty: the env's default); the other paths observe as the env does by default")
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--env-steps", type=int, default=200_000, help="learner steps timed per env-only setting")
    p.add_argument("--env-only", action="store_true", help="only the env-only lines (no PPO)")
    p.add_argument("--repeats", type=int, default=3, help="alternating runs of each path (medians)")
    p.add_argument("--torch-threads", type=int, default=None,
                   help="torch.set_num_threads for both paths (default: torch's own choice)")
    p.add_argument("--smoke", action="store_true", help="tiny sizes for CI")
    args = p.parse_args(argv)
    if args.smoke:
        args.steps, args.rollout, args.n_envs, args.batch_size, args.n_epochs = 256, 128, 16, 64, 1
        args.env_steps, args.repeats, args.lean_envs, args.lean_steps = 256, 1, 16, 8
    paths = [x.strip() for x in args.paths.split(",") if x.strip()]
    if not paths or set(paths) - {"native", "tutorial", "lean"}:
        p.error(f"--paths takes native, tutorial and lean, got {args.paths!r}")
    import sb3_contrib
    import torch

    if args.torch_threads is not None:
        torch.set_num_threads(args.torch_threads)
    base = {"bench": "training", "rules": args.rules, "players": args.players, "opponents": args.opponents,
            "rollout": args.rollout,
            "batch_size": args.batch_size, "n_epochs": args.n_epochs, "timed_steps": args.steps,
            "torch_threads": torch.get_num_threads(),
            "versions": {**versions(), "sb3_contrib": sb3_contrib.__version__, "torch": torch.__version__}}
    for opponents in ("random", "heuristic") if args.env_steps else ():
        for n_envs in (64, 1024):
            print(json.dumps({**base, "path": "env_only", **bench_env(args, opponents, n_envs)}), flush=True)
    if args.env_only:
        return 0
    bench = {"native": bench_native, "tutorial": bench_tutorial, "lean": bench_lean}
    runs: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(args.repeats):  # alternating, so every path shares the host's noise
        for name in paths:
            runs[name].append(bench[name](args))
    rate = {name: statistics.median(r) for name, r in runs.items()}
    extra = {"native": {"path": "native_vecenv", "n_envs": args.n_envs,
                        "observation": args.native_observation or "default"},
             "tutorial": {"path": "aec_tutorial", "n_envs": 1},
             "lean": {"path": "lean", "n_envs": args.lean_envs, "n_steps": args.lean_steps,
                      "rollout": args.lean_envs * args.lean_steps,
                      "batch_size": args.lean_batch_size or args.batch_size,
                      "observation": args.lean_observation or "default"}}
    for name in paths:
        print(json.dumps({**base, **extra[name], "samples_per_s": round(rate[name], 1),
                          "samples_per_s_runs": [round(x, 1) for x in runs[name]]}), flush=True)
    ratios = {f"{a}_over_{b}": round(rate[a] / rate[b], 2)
              for a, b in (("native", "tutorial"), ("lean", "native")) if a in rate and b in rate}
    if ratios:
        print(json.dumps({**base, "path": "ratio", **ratios, "repeats": args.repeats}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

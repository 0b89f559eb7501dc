"""MaskablePPO samples per second: the native batched VecEnv against the PettingZoo SB3 tutorial path.

Both runs train the same MaskablePPO (same network, rollout size, minibatch and epochs) for the same
number of samples, in the same process, alternating ``--repeats`` times (medians reported) so that both
share the host's noise:

* ``native``: ``uno_env.sb3.UnoVecEnv`` with ``--n-envs`` games stepped together and the opponents
  (random bots) moving inside ``step``;
* ``aec_tutorial``: the AEC env wrapped the way PettingZoo's "SB3: Action Masked PPO" tutorial does it
  (a ``BaseWrapper`` exposing the acting agent's observation, ``ActionMasker`` with ``mask_fn``, one
  env that SB3 wraps in a ``DummyVecEnv``).  As in the tutorial, the one model plays every seat.

Prints one JSON line per path and one with the ratio; first, the training env alone (``env_only``:
learner steps per second with random or heuristic opponents inside, no network).  ``--smoke`` runs a tiny size for CI.

    python benchmarks/bench_training.py --steps 32768
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
    from uno_env.sb3 import UnoVecEnv
    env = UnoVecEnv(args.rules, args.players, args.n_envs, opponents="random", seed=0)
    model = _ppo(env, args.rollout // args.n_envs, args, 0)
    model.learn(args.rollout)  # warm-up rollout and update, excluded
    t = time.perf_counter()
    model.learn(args.steps, reset_num_timesteps=False)
    return args.steps / (time.perf_counter() - t)


def bench_tutorial(args) -> float:
    from sb3_contrib.common.wrappers import ActionMasker

    from uno_env import uno_v2
    env = SB3ActionMaskWrapper(uno_v2.env(rules=args.rules, num_players=args.players))
    env.reset(seed=0)
    env = ActionMasker(env, mask_fn)
    model = _ppo(env, args.rollout, args, 0)
    model.learn(args.rollout)
    t = time.perf_counter()
    model.learn(args.steps, reset_num_timesteps=False)
    return args.steps / (time.perf_counter() - t)


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
    p.add_argument("--batch-size", type=int, default=1024)
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
        args.env_steps, args.repeats = 256, 1
    import sb3_contrib
    import torch

    if args.torch_threads is not None:
        torch.set_num_threads(args.torch_threads)
    base = {"bench": "training", "rules": args.rules, "players": args.players, "rollout": args.rollout,
            "batch_size": args.batch_size, "n_epochs": args.n_epochs, "timed_steps": args.steps,
            "torch_threads": torch.get_num_threads(),
            "versions": {**versions(), "sb3_contrib": sb3_contrib.__version__, "torch": torch.__version__}}
    for opponents in ("random", "heuristic"):
        for n_envs in (64, 1024):
            print(json.dumps({**base, "path": "env_only", **bench_env(args, opponents, n_envs)}), flush=True)
    if args.env_only:
        return 0
    natives, tutorials = [], []
    for _ in range(args.repeats):  # alternating, so both paths share the host's noise
        natives.append(bench_native(args))
        tutorials.append(bench_tutorial(args))
    native, tutorial = statistics.median(natives), statistics.median(tutorials)
    print(json.dumps({**base, "path": "native_vecenv", "n_envs": args.n_envs, "samples_per_s": round(native, 1),
                      "samples_per_s_runs": [round(x, 1) for x in natives]}), flush=True)
    print(json.dumps({**base, "path": "aec_tutorial", "n_envs": 1, "samples_per_s": round(tutorial, 1),
                      "samples_per_s_runs": [round(x, 1) for x in tutorials]}), flush=True)
    print(json.dumps({**base, "path": "ratio", "native_over_tutorial": round(native / tutorial, 2),
                      "repeats": args.repeats}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

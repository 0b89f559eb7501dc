"""Train PPO with Ray RLlib on UNO, on one machine or an existing Ray cluster (the ``scale`` extra).

    pip install -e ".[scale]"
    python -m training.rllib_train --rules standard_en --players 2 --iterations 1
    python -m training.rllib_train --iterations 200 --num-env-runners 32 --address auto   # on a cluster
    python -m training.rllib_train --env aec --opponents heuristic,greedy --iterations 5

The settings are the masked PPO family's (``training.config.PPOConfig``: ``--learning-rate``, ``--ent-coef``,
``--n-epochs``, ``--batch-size``, ``--gamma``, ``--gae-lambda``, ``--clip-range``, ``--vf-coef``,
``--max-grad-norm``, ``--net-arch``, ``--seed``, ``--run-name``...) mapped onto RLlib's ``PPOConfig`` through
its public ``training()``/``env_runners()`` settings; RLlib's own flag names (``--lr``, ``--entropy-coeff``,
``--num-epochs``, ``--minibatch-size``, ``--num-envs-per-env-runner``) still work.  The run folder follows the
family's convention (``training.runs``): ``config.json`` and ``sessions.json`` beside RLlib's checkpoint, and
``--resume`` continues it (``Algorithm.from_checkpoint``) to ``--iterations`` in all.

RLlib's new API stack: ``PPOConfig`` with the project's action-masking RLModule
(``uno_env.rllib.MaskedPPOTorchRLModule``, observations ``{"observations", "action_mask"}``) as the learner,
checkpoints written with ``Algorithm.save``, and an evaluation of the trained policy against the
project's bots with ``training.evaluate.play_match``.  Two env paths (``uno_env.rllib``):

* ``--env batched`` (default): a vector env of learner-seat games over one ``VecGame``; the opponents
  (``--opponents``, and with ``--league N`` frozen snapshots of the learner) move inside the env step,
  as in ``training.train_ppo``.  RLlib sees a single-agent env (``vector_entry_point`` mode), module
  ``default_policy``.
* ``--env aec``: the PettingZoo AEC env through RLlib's ``PettingZooEnv`` wrapper, a multi-agent env.
  The policy mapping puts the trained ``learner`` module on one seat per episode and frozen bot
  RLModules (``bot_<name>``, not in ``policies_to_train``) on the others; ``--league N`` adds frozen
  copies of the learner (``snapshot_<k>``) to the map with ``Algorithm.add_module``.
* ``--env selfplay``: the same AEC env with every seat mapped to the one ``learner`` module
  (parameter-sharing self-play: each seat's decisions train the same policy; ``--opponents`` unused
  in training, the evaluation still plays ``--eval-bots``).

RLlib's environment checker runs on every path.

The batched path is the default because it samples several times faster per learner decision (see
docs/rllib.md): RLlib's multi-agent runner keeps per-agent episode bookkeeping and calls each seat's
module for every single decision, the batched env does one core step and one forward pass for all of
its games at once.

Output: one line per iteration; the checkpoint (``--checkpoint-dir``, default ``runs/NAME`` with NAME
``--run-name`` or ``rllib-RULES-Pp-sSEED``; it holds
RLlib's ``rllib_checkpoint.json`` and our ``uno_rllib.json``, and ``agents.rllib_policy.load_rllib``
loads it); one ``[eval]`` line per bot, with the win rate of the policy sampled and played greedily.  The last
iteration's line is printed after the checkpoint and the evaluation, so the run's last line reports the sampled
steps of its last iteration.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from training.config import PPOConfig, parse_net_arch
from training.runs import Interrupted, RunFolder, Session, StopSignal
from uno_env import extras


@dataclass
class Args(PPOConfig):
    """RLlib's settings: the family's (``training.config.PPOConfig``, mapped onto RLlib's ``PPOConfig`` by
    ``build_config``; RLlib's own names are kept as other spellings of the flags: ``--lr``, ``--entropy-coeff``,
    ``--num-epochs``, ``--minibatch-size``, ``--num-envs-per-env-runner``), with RLlib's defaults where the
    runs had them, and its own (iterations, env path, runners, league, cluster)."""

    opponents: str = field(default="heuristic", metadata={"help": "comma-separated opponent bots (a mix)"})
    n_envs: int = field(default=16, metadata={"help": "games per env runner (batched: games of one vector env; "
                                                      "aec: PettingZoo envs)",
                                              "aliases": ("--num-envs-per-env-runner",)})
    batch_size: int = field(default=500, metadata={"help": "PPO minibatch size", "aliases": ("--minibatch-size",)})
    n_epochs: int = field(default=4, metadata={"help": "PPO epochs per iteration", "aliases": ("--num-epochs",)})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate", "aliases": ("--lr",)})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus", "aliases": ("--entropy-coeff",)})
    vf_coef: float = field(default=1.0, metadata={"help": "value loss weight (RLlib's vf_loss_coeff)"})
    max_grad_norm: float = field(default=0.0, metadata={"help": "gradient norm clip (RLlib's grad_clip; 0: none, "
                                                                "RLlib's default)"})
    seed: int = field(default=0, metadata={"help": "seed of the envs and the network"})
    checkpoint_every: int = field(default=0, metadata={"help": "iterations between checkpoints (0: at the end "
                                                              "only)"})
    resume: bool = field(default=False, metadata={
        "help": "continue the run in --checkpoint-dir (default runs/NAME) from its checkpoint, to --iterations "
                "in all (its settings are the checkpoint's)"})
    torch_threads: int = field(default=1, metadata={
        "help": "torch CPU threads of the driver, where the PPO update runs (0: torch's default); 1 keeps a "
                "small shared machine from stalling on oversubscribed threads"})
    iterations: int = field(default=10, metadata={"help": "RLlib training iterations (algo.train() calls), "
                                                          "counted across resumes"})
    env: str = field(default="batched", metadata={
        "help": "'batched' (learner-seat vector env, opponents inside the step), 'aec' (PettingZoo AEC "
                "env via RLlib's PettingZooEnv, seats mapped to modules) or 'selfplay' (the AEC env, every seat "
                "the one learning module)"})
    num_env_runners: int = field(default=2, metadata={"help": "RLlib env runners (sampling actors); 0: sample "
                                                             "in the driver"})
    league: int = field(default=0, metadata={"help": "frozen learner snapshots kept among the opponents "
                                                    "(0: off)"})
    league_every: int = field(default=5, metadata={"help": "iterations between learner snapshots"})
    train_batch_size: int = field(default=2000, metadata={"help": "env steps sampled per iteration (all runners)"})
    checkpoint_dir: str = field(default="", metadata={"help": "checkpoint folder, the run's (default: runs/NAME, "
                                                             "NAME rllib-RULES-Pp-sSEED unless --run-name)"})
    eval_games: int = field(default=200, metadata={"help": "games per bot in the final evaluation (0: none)"})
    eval_bots: str = field(default="random,greedy,heuristic", metadata={"help": "bots evaluated against"})
    address: str = field(default="", metadata={
        "help": "Ray cluster to join ('auto' on a cluster node or in a `ray job submit` job, or HOST:6379); "
                "empty: start a local Ray"})
    num_cpus: int = field(default=2, metadata={"help": "CPUs of a local Ray (ignored with --address)"})
    object_store_mb: int = field(default=500, metadata={"help": "object store of a local Ray in MB (ignored "
                                                               "with --address)"})

    PROG: ClassVar[str] = "python -m training.rllib_train"
    PREFIX: ClassVar[str] = "rllib"
    UNUSED: ClassVar[tuple[str, ...]] = ("observation", "n_steps", "total_steps", "progress")  # v3; --iterations
    POSITIVE: ClassVar[tuple[str, ...]] = ("players", "n_envs", "batch_size", "n_epochs", "iterations",
                                           "train_batch_size", "league_every", "num_cpus")
    NON_NEGATIVE: ClassVar[tuple[str, ...]] = ("num_env_runners", "league", "eval_games", "checkpoint_every",
                                               "torch_threads", "max_grad_norm")
    ZERO_IS_OFF: ClassVar[tuple[str, ...]] = ("max_grad_norm",)
    SESSION: ClassVar[tuple[str, ...]] = ("resume", "torch_threads", "address", "num_cpus", "object_store_mb")
    # the run continues from RLlib's checkpoint, which holds its own config: only the length, the checkpointing
    # and the evaluation may change
    RESUMABLE: ClassVar[tuple[str, ...]] = ("iterations", "checkpoint_every", "checkpoint_dir", "eval_games",
                                            "eval_bots") + SESSION

    def validate(self) -> None:
        super().validate()
        if self.env not in ("batched", "aec", "selfplay"):
            raise ValueError(f"--env must be 'batched', 'aec' or 'selfplay', got {self.env!r}")
        if self.env == "selfplay" and self.league:
            raise ValueError("--league adds frozen opponents; --env selfplay plays every seat with the learner")
        if not self.bots:
            raise ValueError("--opponents must name at least one bot")
        if self.eval_games and not self.evaluation_bots:
            raise ValueError("--eval-bots names no bot; give one or set --eval-games 0")
        if self.batch_size > self.train_batch_size:
            raise ValueError(f"--batch-size ({self.batch_size}) must not exceed --train-batch-size "
                             f"({self.train_batch_size})")
        import agents
        from uno_env import VecGame
        game = VecGame(self.rules, self.players, batch_size=1, observation="v3")
        for b in self.bots + self.evaluation_bots:  # a name, and an agent for this game (a shipped
            if b not in agents.available():  # PPO agent is trained for one player count)
                raise ValueError(f"unknown bot {b!r}; bots are: {', '.join(agents.available())}")
            agents.load(b, game=game)

    @property
    def bots(self) -> list[str]:
        return [x.strip() for x in self.opponents.split(",") if x.strip()]

    @property
    def evaluation_bots(self) -> list[str]:
        return [x.strip() for x in self.eval_bots.split(",") if x.strip()]

    @property
    def run_dir(self) -> Path:
        """The run folder, which is also RLlib's checkpoint: ``--checkpoint-dir``, or ``runs_dir/NAME``."""
        return Path(self.checkpoint_dir) if self.checkpoint_dir else Path(self.runs_dir) / self.name

    @property
    def checkpoint_path(self) -> Path:
        return self.run_dir.resolve()

    @property
    def module_id(self) -> str:
        return "default_policy" if self.env == "batched" else "learner"


def parse_args(argv: list[str] | None = None) -> Args:
    """The command line as ``Args``; with ``--resume``, what is not given comes from the run's config."""
    return Args.from_args(argv, description=__doc__.split("\n")[0])


# ---------------------------------------------------------------------------------- config
def learner_spec(args: Args):
    from uno_env.rllib import masked_module_spec

    return masked_module_spec(parse_net_arch(args.net_arch))


def register_envs() -> None:
    """Register the two env names a run's config (and so its checkpoints) refers to; call it in a new
    process before ``Algorithm.from_checkpoint`` to continue a run."""
    from ray.tune.registry import register_env

    from uno_env import rllib as uno_rllib
    register_env("uno_learner_vec", uno_rllib.make_learner_env)
    register_env("uno_aec", uno_rllib.make_aec_env)


def build_config(args: Args, local: bool):
    """The ``PPOConfig`` of a run (both env paths)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from uno_env import rllib as uno_rllib

    env_config = {"rules": args.rules, "players": args.players, "opponents": args.bots, "episode": args.episode}
    # a local Ray has few CPUs: share them among the runners (the driver, which learns, keeps one)
    cpus = 1.0 if not local or not args.num_env_runners else min(
        1.0, max(0.1, (args.num_cpus - 1) / args.num_env_runners))
    config = (
        PPOConfig()
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.n_envs,
                     num_cpus_per_env_runner=cpus, rollout_fragment_length="auto")
        .training(train_batch_size_per_learner=args.train_batch_size, minibatch_size=args.batch_size,
                  num_epochs=args.n_epochs, lr=args.learning_rate, gamma=args.gamma, entropy_coeff=args.ent_coef,
                  lambda_=args.gae_lambda, clip_param=args.clip_range, vf_loss_coeff=args.vf_coef,
                  grad_clip=args.max_grad_norm or None)
        .debugging(seed=args.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )
    register_envs()
    if args.env == "batched":
        config = (config.environment("uno_learner_vec", env_config=env_config)
                  .env_runners(gym_env_vectorize_mode="vector_entry_point")
                  .rl_module(rl_module_spec=learner_spec(args)))
    elif args.env == "selfplay":
        config = (config.environment("uno_aec", env_config=env_config)
                  .multi_agent(policies={"learner"}, policy_mapping_fn=uno_rllib.self_play_mapping(),
                               policies_to_train=["learner"])
                  .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"learner": learner_spec(args)})))
    else:
        bots = {f"bot_{b}": uno_rllib.bot_module_spec(b, args.rules, args.players) for b in args.bots}
        config = (config.environment("uno_aec", env_config=env_config)
                  .multi_agent(policies={"learner", *bots},
                               policy_mapping_fn=uno_rllib.seat_mapping(args.players, list(bots)),
                               policies_to_train=["learner"])
                  .rl_module(rl_module_spec=MultiRLModuleSpec(
                      rl_module_specs={"learner": learner_spec(args), **bots})))
    return config


def set_torch_threads(args: Args) -> None:
    if args.torch_threads:
        import torch
        torch.set_num_threads(args.torch_threads)


# ---------------------------------------------------------------------------------- league
def add_snapshot(algo, args: Args, k: int, snapshots: list) -> None:
    """Freeze a copy of the learner and put it among the opponents (the last ``args.league`` kept)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from uno_env import rllib as uno_rllib

    module = algo.get_module(args.module_id)
    if args.env == "batched":
        import copy

        from agents.rllib_policy import RLlibAgent
        frozen = copy.deepcopy(module).to("cpu")
        snapshots[:] = (snapshots + [RLlibAgent(frozen, name=f"snapshot_{k}", deterministic=False)])[-args.league:]
        pool = args.bots + snapshots

        def set_pool(env_runner):
            if getattr(env_runner, "env", None) is not None:  # the driver's runner may have no env
                env_runner.env.unwrapped.set_opponents(pool)

        algo.env_runner_group.foreach_env_runner(set_pool, local_env_runner=True)
        print(f"league: snapshot_{k} joins the opponents ({', '.join(args.bots + [s.name for s in snapshots])})",
              flush=True)
        return
    mid = f"snapshot_{k}"
    snapshots[:] = (snapshots + [mid])[-args.league:]  # dropped snapshots stay in the map, unused
    mapping = uno_rllib.seat_mapping(args.players, [f"bot_{b}" for b in args.bots] + snapshots)
    algo.add_module(module_id=mid, module_spec=RLModuleSpec.from_module(module),
                    new_agent_to_module_mapping_fn=mapping, new_should_module_be_updated=["learner"])
    state = module.get_state()
    algo.set_state({"learner_group": {"learner": {"rl_module": {mid: state}}}})
    # set_state's own push to the env runners is fire-and-forget and RLlib drops it while add_module's
    # push is still in flight (one request per runner): without this the snapshot would sample with
    # its fresh initial weights until the next weight sync.  This call waits for every runner.

    def push(env_runner):
        env_runner.module[mid].set_state(state)
    algo.env_runner_group.foreach_env_runner(push, local_env_runner=True)
    print(f"league: {mid} joins the policy map (opponents: {', '.join([f'bot_{b}' for b in args.bots] + snapshots)})",
          flush=True)


# ---------------------------------------------------------------------------------- run
def iteration_line(i: int, result: dict, seconds: float, module_id: str) -> str:
    er = result.get("env_runners", {})
    sampled = int(er.get("num_env_steps_sampled", 0))
    lifetime = int(result.get("num_env_steps_sampled_lifetime", er.get("num_env_steps_sampled_lifetime", 0)))
    module_steps = int(er.get("num_module_steps_sampled", {}).get(module_id, sampled))
    per_module = er.get("module_episode_return_mean") or er.get("module_episode_returns_mean") or {}
    ret = per_module.get(module_id)  # the learner's own return (a multi-agent episode's sum is 0)
    extra = f", learner return_mean={float(ret):+.3f}" if ret is not None else ""
    learner_note = f", {module_steps} learner decisions" if module_steps != sampled else ""
    return (f"iteration {i}: sampled {sampled} env steps (num_env_steps_sampled_lifetime={lifetime})"
            f"{learner_note}, {sampled / max(seconds, 1e-9):.0f} env steps/s incl. update{extra}")


def write_meta(args: Args, path: Path, iterations: int, lifetime: int) -> None:
    from agents.policy import layout_fingerprint
    from uno_env import VecGame

    game = VecGame(args.rules, args.players, batch_size=1, seed=0, observation="v3")  # the layout the envs observe
    meta = {"format": "uno-env-rllib/1", "name": path.name, **layout_fingerprint(game), "rules": args.rules,
            "players": args.players, "module_id": args.module_id, "env": args.env, "iterations": iterations,
            "num_env_steps_sampled_lifetime": lifetime, "args": args.as_dict(),
            "command": " ".join(sys.argv), "time": time.time()}
    (path / "uno_rllib.json").write_text(json.dumps(meta, indent=1))


def evaluate(args: Args, algo) -> list[dict]:
    """The trained module against each of ``--eval-bots``, played two ways on the same deals: sampling its
    actions from the policy (as PPO does while it trains) and greedily (its most likely action).  Early in
    training the two differ a lot: the policy still spreads its probability, and its single most likely
    action is often a draw, so greedy play can lose nearly every round that sampled play wins half of."""
    from agents.rllib_policy import RLlibAgent
    from training.evaluate import play_match

    module = algo.get_module(args.module_id)
    lines = []
    for bot in args.evaluation_bots:
        line = {"bot": bot}
        for how, deterministic in (("sampled", False), ("greedy", True)):
            agent = RLlibAgent(module, name=f"rllib-{how}", deterministic=deterministic, seed=args.seed)
            res = play_match([agent, bot], args.rules, args.players, args.eval_games, seed=10_000 + args.seed,
                             batch_size=min(512, args.eval_games))
            e = res.entries[0]
            line[how] = {"games": e.games, "win_rate": e.win_rate, "ci95": list(e.ci95)}
        s, g = line["sampled"], line["greedy"]
        print(f"[eval] vs {bot}: win rate sampled {s['win_rate']:.1%} ({s['ci95'][0]:.1%}-{s['ci95'][1]:.1%}), "
              f"greedy {g['win_rate']:.1%} ({g['ci95'][0]:.1%}-{g['ci95'][1]:.1%}), {s['games']} games each",
              flush=True)
        lines.append(line)
    return lines


def finished(folder: RunFolder) -> bool:
    """Whether an RLlib run has trained its ``--iterations`` (a checkpoint short of them was interrupted)."""
    meta, saved = folder.path / "uno_rllib.json", folder.saved_config() or {}
    return meta.is_file() and json.loads(meta.read_text()).get("iterations", 0) >= saved.get("iterations", 0)


def train(args: Args) -> dict:
    """Run (or, with ``resume``, continue) the training described by ``args``; returns the last result's
    summary."""
    import ray

    args.validate()
    path = args.checkpoint_path
    folder = RunFolder(path, latest=".", finished=finished)  # the run folder is RLlib's checkpoint (training.runs)
    if args.resume and not folder.has_checkpoint():
        raise ValueError(f"--resume: no RLlib checkpoint in {path} (rllib_checkpoint.json)")
    folder.open(args)  # the same command on an interrupted run resumes it (args.resume)
    if args.resume and args.league:
        raise ValueError(f"--resume: run {path} keeps a league (--league {args.league}), whose snapshots its "
                         f"checkpoint does not hold; start a new run instead")
    done, lifetime = 0, 0
    if args.resume:
        meta = json.loads((path / "uno_rllib.json").read_text())
        done, lifetime = int(meta["iterations"]), int(meta["num_env_steps_sampled_lifetime"])
    set_torch_threads(args)
    local = not args.address
    if local:
        ray.init(num_cpus=args.num_cpus, object_store_memory=args.object_store_mb * 1024 * 1024,
                 include_dashboard=False, log_to_driver=False, configure_logging=True, logging_level="ERROR")
    elif "RAY_JOB_CONFIG_JSON_ENV_VAR" in os.environ:  # started by `ray job submit`: its runtime env holds
        ray.init(address=args.address, logging_level="ERROR")  # the code (--working-dir)
    else:
        # a driver joining a cluster: ship this checkout's packages to the workers (harmless where the
        # cluster's image installs uno-env[scale] too)
        root = Path(__file__).resolve().parent.parent
        ray.init(address=args.address, logging_level="ERROR",
                 runtime_env={"py_modules": [str(root / p) for p in ("uno_env", "agents", "training")]})
    algo = None
    try:
        if args.resume:  # RLlib's checkpoint holds the algorithm's config: the run goes on as it was set up
            from ray.rllib.algorithms.algorithm import Algorithm
            register_envs()
            algo = Algorithm.from_checkpoint(str(path))
            print(f"resuming {path} at iteration {done} ({lifetime} env steps)", flush=True)
        else:
            algo = build_config(args, local).build_algo()
        sessions = folder.read_sessions() if args.resume else []
        session = Session(sessions, lifetime)
        snapshots: list = []
        result, line = {}, ""
        reached = done  # the last iteration trained
        with StopSignal() as stop:  # Ctrl-C or kill: stop after the iteration in progress, with a checkpoint
            for i in range(done + 1, args.iterations + 1):
                t0 = time.perf_counter()
                result = algo.train()
                reached = i
                line = iteration_line(i, result, time.perf_counter() - t0, args.module_id)
                lifetime = int(result.get("num_env_steps_sampled_lifetime", 0))
                session.update(lifetime)
                if i < args.iterations:
                    print(line, flush=True)
                if stop:
                    break
                if args.checkpoint_every and i % args.checkpoint_every == 0 and i < args.iterations:
                    algo.save(str(path))
                    write_meta(args, path, i, lifetime)
                    folder.write_sessions(lifetime, sessions)
                if args.league and i % args.league_every == 0 and i < args.iterations:
                    add_snapshot(algo, args, i, snapshots)
        if stop and reached < args.iterations:
            path.mkdir(parents=True, exist_ok=True)
            algo.save(str(path))
            write_meta(args, path, reached, lifetime)
            folder.write_sessions(lifetime, sessions)
            raise stop.interrupted(path, lifetime)
        path.mkdir(parents=True, exist_ok=True)
        algo.save(str(path))
        write_meta(args, path, max(done, args.iterations), lifetime)
        folder.write_sessions(lifetime, sessions)
        print(f"checkpoint: {path} (agents.rllib_policy.load_rllib or agents.load)", flush=True)
        evals = evaluate(args, algo) if args.eval_games else []
        if evals:
            meta = json.loads((path / "uno_rllib.json").read_text())
            (path / "uno_rllib.json").write_text(json.dumps({**meta, "evaluation": evals}, indent=1))
        if line:
            print(line, flush=True)
        er = result.get("env_runners", {})
        return {"iterations": max(done, args.iterations), "checkpoint": str(path), "evaluation": evals,
                "num_env_steps_sampled": int(er.get("num_env_steps_sampled", 0)),
                "num_env_steps_sampled_lifetime": lifetime}
    finally:
        if algo is not None:
            algo.stop()
        ray.shutdown()


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        args.validate()
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    extras.require("scale", "RLlib training")  # before Ray starts: one line naming the extra (the caller's)
    try:
        train(args)
    except Interrupted as exc:
        print(f"rllib_train: {exc}", file=sys.stderr)
        return exc.exit_code
    except ValueError as exc:  # the run folder is not what --resume says
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ConnectionError as exc:  # --address with no cluster there
        print(f"error: cannot reach the Ray cluster at --address {args.address!r}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    with extras.needs(("scale", "train"), "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

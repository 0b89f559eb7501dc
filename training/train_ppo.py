"""Train a MaskablePPO agent (sb3-contrib) on the batched core, against chosen opponents: the masked PPO
family's reference path on the ecosystem's implementation (the lean loop, ``training.ppo_lean``, is the main one).

    python -m training.train_ppo --rules standard_en --players 2 --opponents heuristic,greedy \\
        --total-steps 3000000 --run-name std2p
    python -m training.train_ppo --run-name std2p --resume          # continue after an interruption

The settings are the family's (``training.config.PPOConfig``: the same flags as ``ppo_lean``, with this
trainer's defaults) mapped onto ``MaskablePPO``'s arguments, plus the ones below.  On ``--resume`` the run's
saved ``config.json`` supplies every argument not given on the command line (except ``--progress``,
``--device`` and ``--torch-threads``, which belong to the session); the PPO hyperparameters and step counts
given take effect (e.g. ``--learning-rate 1e-4 --total-steps 30000000`` to anneal), while the game settings
(rules, players, opponents, episode, observation, net-arch, n-envs, privileged-critic) must match.

The learner holds one seat per game (a random seat each round); the opponents move inside the
environment's ``step`` (``uno_env.sb3.UnoVecEnv``), so every transition is the learner's.  A run
writes ``runs/NAME/`` (the family's run folder, ``training.runs``):

* ``config.json``: the arguments (a resumed run must keep the game settings);
* ``checkpoints/latest.zip`` (written atomically every ``--checkpoint-every`` steps) and
  ``checkpoints/step_N_steps.zip`` (SB3's ``CheckpointCallback``); ``--resume`` continues from ``latest.zip``;
* ``sessions.json``: each session's steps, wall time and command (written with every checkpoint);
* ``tb/``: TensorBoard logs (SB3's training scalars, the episode statistics ``rollout/ep_rew_mean`` and
  ``rollout/ep_len_mean`` from SB3's ``VecMonitor``, and ``eval/win_rate_vs_*`` with their 95% bounds);
* ``eval.jsonl``: one line per periodic evaluation (win rate and Wilson interval against each bot);
* ``model.zip`` and the exported agent ``agent.json`` + ``agent.pt`` (``agents.load(PATH)``).

Ctrl-C or ``kill`` stops the run at the next step (``training.runs.StopSignal``; a callback's ``_on_step`` returns
False): the rollout in progress is dropped, ``latest.zip`` and ``sessions.json`` are written with the steps
trained on, and the same command then continues the run.

With ``--bc-decisions N`` the policy is first warm-started by behaviour cloning: the teacher agent
(``--bc-teacher``, the heuristic bot by default) plays the learner seat against the same opponents
for N decisions; the policy is fitted to its choices (masked cross-entropy) and the value head to the
discounted outcomes, then MaskablePPO trains as usual.  ``--bc-records FILE`` clones the decisions of
game records instead (``uno eval --record``; docs/records.md): those of the seats played by
``--bc-teacher``.

With ``--privileged-critic`` the value net also reads what the learner may not see (the other hands
and the next draws), the actor only the learner's own observation (``agents/privileged.py``); the
exported agent is the actor alone.  ``--init-actor AGENT`` starts the actor from an exported agent and
``--critic-warmup N`` fits the value net alone on N of its decisions before PPO starts.

With ``--league N`` a frozen snapshot of the learner joins the opponents every ``--league-every``
steps (the last N snapshots are kept), a self-play league next to the scripted bots.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from training.config import PPOConfig, parse_net_arch
from training.runs import RunFolder, Session, StopSignal, run_command
from uno_env import extras


def discounted_outcomes(rewards: np.ndarray, dones: np.ndarray, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """``(steps, n)`` rewards and episode ends -> each decision's discounted outcome and whether its
    episode finished within the window (unfinished ones have no outcome yet)."""
    returns = np.zeros(rewards.shape, np.float32)
    keep = np.zeros(dones.shape, bool)
    run = np.zeros(rewards.shape[1], np.float32)
    known = np.zeros(rewards.shape[1], bool)
    for t in range(len(rewards) - 1, -1, -1):
        run = np.where(dones[t], rewards[t], gamma * run)
        known |= dones[t]
        returns[t], keep[t] = run, known
    return returns, keep


@dataclass
class Args(PPOConfig):
    """MaskablePPO's settings: the family's (``training.config.PPOConfig``), with the defaults of its first
    recipe (64 games x 256 decisions), and its own (evaluations, behaviour cloning, the privileged critic, the
    league, the device)."""

    observation: str = field(default="v3", metadata={"help": "observation layout, 'v3' or 'v2' (v2 to start "
                                                             "from an agent trained on it, e.g. --init-actor)"})
    n_envs: int = field(default=64, metadata={"help": "games stepped together"})
    n_steps: int = field(default=256, metadata={"help": "rollout length per game (PPO n_steps)"})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus"})
    checkpoint_every: int = field(default=100_000, metadata={"help": "steps between checkpoints"})
    resume: bool = field(default=False, metadata={
        "help": "continue runs/NAME from checkpoints/latest.zip (PPO hyperparameters given take effect, "
                "e.g. a lower --learning-rate)"})
    progress: bool = field(default=True, metadata={"help": "show a progress bar"})
    torch_threads: int = field(default=0, metadata={"help": "torch CPU threads (0: torch's default)"})
    eval_every: int = field(default=200_000, metadata={"help": "steps between evaluations (0: never)"})
    eval_games: int = field(default=1000, metadata={"help": "games per evaluation and bot"})
    eval_bots: str = field(default="random,greedy,heuristic", metadata={"help": "bots evaluated against"})
    bc_decisions: int = field(default=0, metadata={"help": "warm start: behaviour-clone this many decisions of "
                                                     "--bc-teacher before PPO (0: off)"})
    bc_teacher: str = field(default="heuristic", metadata={"help": "agent imitated by the warm start"})
    bc_records: str = field(default="", metadata={"help": "warm start from this game-record file instead "
                                                         "(uno eval --record): --bc-teacher's decisions"})
    bc_epochs: int = field(default=10, metadata={"help": "passes over the cloned decisions"})
    bc_learning_rate: float = field(default=1e-3, metadata={"help": "Adam learning rate of the warm start"})
    privileged_critic: bool = field(default=False, metadata={
        "help": "the value net also reads the hidden state (other hands, next draws); the actor does not "
                "(agents/privileged.py)"})
    init_actor: str = field(default="", metadata={"help": "start the actor from this agent (name or path; same "
                                                         "--net-arch), e.g. ppo-standard_en-4p"})
    critic_warmup: int = field(default=0, metadata={"help": "before PPO, fit the value net alone on this many "
                                                          "decisions of the initial actor (0: off)"})
    league: int = field(default=0, metadata={"help": "self-play snapshots kept among the opponents (0: off)"})
    league_every: int = field(default=250_000, metadata={"help": "steps between self-play snapshots"})
    device: str = field(default="cpu", metadata={"help": "torch device"})

    PROG: ClassVar[str] = "python -m training.train_ppo"
    PREFIX: ClassVar[str] = "ppo"
    POSITIVE: ClassVar[tuple[str, ...]] = PPOConfig.POSITIVE + ("total_steps", "eval_games", "league_every",
                                                                "bc_epochs")
    NON_NEGATIVE: ClassVar[tuple[str, ...]] = ("eval_every", "bc_decisions", "league", "torch_threads",
                                               "critic_warmup")
    SESSION: ClassVar[tuple[str, ...]] = ("resume", "progress", "device", "torch_threads")
    FIXED: ClassVar[tuple[str, ...]] = PPOConfig.FIXED + ("privileged_critic",)  # the rest may change on resume

    def validate(self) -> None:
        super().validate()
        if (self.bc_decisions or self.bc_records) and self.init_actor:
            raise ValueError("--bc-decisions/--bc-records and --init-actor both set the initial actor; give one")
        if self.bc_records and self.privileged_critic:
            raise ValueError("--bc-records cannot feed --privileged-critic: records hold no hidden state per "
                             "decision for the critic (use --bc-decisions)")
        if self.bc_records and not Path(self.bc_records).is_file():
            raise ValueError(f"--bc-records: no file {self.bc_records!r}")


SESSION_ONLY = Args.SESSION  # never taken from a saved config


def parse_args(argv: list[str] | None = None) -> Args:
    """The command line as ``Args``; with ``--resume``, what is not given comes from the run's config."""
    return Args.from_args(argv, description=__doc__.split("\n")[0])


class CheckpointError(RuntimeError):
    """A checkpoint that cannot be resumed from."""


def save_atomic(model, path: Path) -> None:
    """Save so that a kill mid-write never leaves a truncated file at ``path``."""
    tmp = path.with_name(path.name + ".tmp.zip")
    model.save(str(tmp))
    os.replace(tmp, path)


def load_checkpoint(path: Path, env, device: str):
    from sb3_contrib import MaskablePPO

    if not path.exists():
        raise CheckpointError(f"no checkpoint to resume from at {path}")
    try:
        return MaskablePPO.load(str(path), env=env, device=device)
    except Exception as exc:
        raise CheckpointError(f"checkpoint {path} is corrupt or truncated and cannot be loaded "
                              f"({type(exc).__name__}: {exc}); delete it or resume from "
                              f"checkpoints/step_N.zip") from None


TUNABLE = ("learning_rate", "ent_coef", "vf_coef", "clip_range", "max_grad_norm", "n_epochs", "batch_size", "gamma",
           "gae_lambda", "n_steps")


def apply_hyperparameters(model, args: Args, saved: dict) -> dict:
    """On ``--resume``, the PPO hyperparameters given that differ from the run's saved configuration
    take effect (the checkpoint otherwise keeps its own); returns ``{name: (new, old)}``."""
    from stable_baselines3.common.utils import get_schedule_fn

    defaults = {f.name: f.default for f in dataclasses.fields(Args)}  # a run saved before a setting existed
    changed = {k: (getattr(args, k), saved.get(k, defaults[k])) for k in TUNABLE
               if getattr(args, k) != saved.get(k, defaults[k])}
    for key, (value, _) in changed.items():
        if key == "learning_rate":
            model.learning_rate = value
            model._setup_lr_schedule()  # the optimizer reads lr_schedule at every update
        elif key == "clip_range":
            model.clip_range = get_schedule_fn(value)
        else:
            setattr(model, key, value)
    if {"gamma", "gae_lambda", "n_steps"} & set(changed):
        # the rollout buffer keeps its own copies of these (GAE is computed there): build it anew
        model.rollout_buffer = model.rollout_buffer_class(
            model.n_steps, model.observation_space, model.action_space, model.device, gamma=model.gamma,
            gae_lambda=model.gae_lambda, n_envs=model.n_envs, **model.rollout_buffer_kwargs)
    return changed


def make_callback(args: Args, run: Path, env, eval_game, on_checkpoint=None, stop=None):
    """SB3's ``CheckpointCallback`` (``checkpoints/step_N_steps.zip``) and one of ours, every N steps: the
    resumable ``checkpoints/latest.zip`` (then ``on_checkpoint(step)``: the sessions record), evaluations, and
    self-play snapshots; with ``stop`` (a ``training.runs.StopSignal``), one that ends the run on a signal."""
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
    StopOnSignal = stop_on_signal_callback()

    from agents.policy import PolicyAgent
    from agents.privileged import actor_only
    from training.evaluate import play_match

    class Periodic(BaseCallback):
        """The resumable checkpoint, evaluations against the bots (win rates with Wilson intervals per bot,
        which MaskableEvalCallback's mean reward does not give), and self-play snapshots, every N steps."""

        def __init__(self):
            super().__init__()
            self.next_ckpt = self.next_eval = self.next_league = 0
            self.snapshots: list = []

        def _on_training_start(self) -> None:
            t = self.model.num_timesteps
            self.next_ckpt = t + args.checkpoint_every
            self.next_eval = t + args.eval_every if args.eval_every else float("inf")
            self.next_league = t + args.league_every if args.league else float("inf")

        def _on_step(self) -> bool:
            t = self.model.num_timesteps
            if t >= self.next_ckpt:
                self.next_ckpt += args.checkpoint_every
                save_atomic(self.model, run / "checkpoints" / "latest.zip")
                if on_checkpoint is not None:
                    on_checkpoint(t)
            if t >= self.next_eval:
                self.next_eval += args.eval_every
                evaluate_now(self.model, t)
            if t >= self.next_league:
                self.next_league += args.league_every
                self.add_snapshot(t)
            return True

        def add_snapshot(self, t: int) -> None:
            import copy
            policy = actor_only(self.model.policy)  # a copy already for a privileged critic's actor
            if policy is self.model.policy:
                policy = copy.deepcopy(policy).to("cpu")
            frozen = PolicyAgent(policy, name=f"self@{t}", deterministic=False, meta=_layout(args))
            self.snapshots = (self.snapshots + [frozen])[-args.league:]
            env.set_opponents(bots + self.snapshots)

    bots = [n.strip() for n in args.opponents.split(",") if n.strip()]

    def evaluate_now(model, t: int) -> None:
        agent = PolicyAgent(actor_only(model.policy), name="learner", meta=_layout(args))
        line = {"step": int(t), "time": time.time()}
        for bot in [b.strip() for b in args.eval_bots.split(",") if b.strip()]:
            res = play_match([agent, bot], args.rules, args.players, args.eval_games, seed=10_000 + t % 9973,
                             batch_size=min(512, args.eval_games))
            e = res.entries[0]
            line[bot] = {"win_rate": e.win_rate, "ci95": list(e.ci95), "games": e.games}
            model.logger.record(f"eval/win_rate_vs_{bot}", e.win_rate)
            model.logger.record(f"eval/win_rate_vs_{bot}_lo95", e.ci95[0])
        model.logger.dump(t)
        with open(run / "eval.jsonl", "a") as fh:
            fh.write(json.dumps(line) + "\n")
        print(f"[eval @ {t}] " + ", ".join(f"vs {k}: {v['win_rate']:.1%} ({v['ci95'][0]:.1%}-{v['ci95'][1]:.1%})"
                                            for k, v in line.items() if isinstance(v, dict)), flush=True)

    numbered = CheckpointCallback(max(1, args.checkpoint_every // args.n_envs), str(run / "checkpoints"), "step")
    return CallbackList([numbered, Periodic()] + ([StopOnSignal(stop)] if stop is not None else []))


def stop_on_signal_callback():
    """SB3's callback that ends ``learn`` once ``stop`` (a ``training.runs.StopSignal``) has caught a signal: its
    ``_on_step`` returns False, SB3's way of stopping a run early.  The rollout in progress is dropped (SB3
    trains on whole rollouts only), so the step count goes back to the last one trained on, which is what the
    checkpoint then holds."""
    from stable_baselines3.common.callbacks import BaseCallback

    class StopOnSignal(BaseCallback):
        def __init__(self, stop):
            super().__init__()
            self.stop, self.trained = stop, 0

        def _on_rollout_start(self) -> None:
            self.trained = self.model.num_timesteps  # every step before this rollout has been trained on

        def _on_step(self) -> bool:
            if self.stop:
                self.model.num_timesteps = self.trained
                return False
            return True

    return StopOnSignal


def collect_decisions(agent, args: Args, opponents: list[str], decisions: int, seed: int, rng=None) -> dict:
    """``agent`` plays the learner seat against ``opponents`` for about ``decisions`` decisions: the
    learner's observations (with the hidden state under ``--privileged-critic``; ``agent`` sees only
    its own view), masks, actions and discounted outcomes, of the episodes that finished.  ``rng`` is
    passed to ``agent.act`` (a sampling agent's choices)."""
    import torch

    from uno_env.learner import LearnerGames

    games = LearnerGames(args.rules, args.players, args.n_envs, opponents, seed=seed, episode=args.episode,
                         privileged=args.privileged_critic, observation=args.observation)
    steps = max(1, decisions // args.n_envs)
    n, A, O, pub = args.n_envs, games.num_actions, games.observation_size, games.public_size
    obs = np.zeros((steps, n, O), np.float32)
    masks = np.zeros((steps, n, A), bool)
    acts = np.zeros((steps, n), np.int64)
    rewards = np.zeros((steps, n), np.float32)
    dones = np.zeros((steps, n), bool)
    for t in range(steps):
        obs[t], masks[t] = games.observe(), games.action_masks()
        acts[t] = agent.act(obs[t][:, :pub], masks[t], rng)
        out = games.step(acts[t])
        rewards[t], dones[t] = out["reward"], out["terminated"] | out["truncated"]
        games.restart(np.flatnonzero(dones[t]))
    returns, keep = discounted_outcomes(rewards, dones, args.gamma)  # unfinished episodes are dropped
    return dict(zip("XMYR", (torch.as_tensor(a[keep]) for a in (obs, masks, acts, returns))))


def record_decisions(args: Args) -> dict:
    """The decisions of ``--bc-teacher``'s seats in the record file ``--bc-records``, with each one's
    discounted outcome (the seat's episode reward, discounted by its decisions still to come)."""
    import torch

    from uno_env import records

    X, M, Y, R = [], [], [], []
    size = _layout(args)["observation_size"]  # replays observe v3, whose first part is v2
    for rec in records.read_records(args.bc_records):
        if rec.rules != args.rules or rec.options or rec.num_players != args.players:
            raise ValueError(f"--bc-records: a record of {rec.rules} {rec.options or ''} with {rec.num_players} "
                             f"players, but this run trains {args.rules} with {args.players}")
        seats = {s for s, name in enumerate(rec.agents) if name == args.bc_teacher}
        mine = [t for t in records.transitions(rec) if t.seat in seats]
        left = {s: sum(t.seat == s for t in mine) for s in seats}  # decisions still to come per seat
        final = rec.result["rewards"]
        for t in mine:
            left[t.seat] -= 1
            X.append(t.obs[:size])
            M.append(t.mask)
            Y.append(t.action)
            R.append(final[t.seat] * args.gamma ** left[t.seat])
    if not X:
        raise ValueError(f"--bc-records: no decision of {args.bc_teacher!r} in {args.bc_records}")
    return {"X": torch.as_tensor(np.stack(X)), "M": torch.as_tensor(np.stack(M)),
            "Y": torch.as_tensor(np.asarray(Y, np.int64)), "R": torch.as_tensor(np.asarray(R, np.float32))}


def fit(model, data: dict, args: Args, epochs: int, policy_loss: bool) -> None:
    """Fit the value head to the outcomes in ``data`` and, with ``policy_loss``, the policy to its
    actions (masked cross-entropy); without it only the critic's weights move."""
    import torch

    from agents.privileged import value_parameters

    policy = model.policy
    params = policy.parameters() if policy_loss else value_parameters(policy)
    optim = torch.optim.Adam(params, lr=args.bc_learning_rate)
    X, M, Y, R = data["X"], data["M"], data["Y"], data["R"]
    policy.set_training_mode(True)
    for _ in range(epochs):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), args.batch_size):
            j = perm[i:i + args.batch_size]
            values, log_prob, _ = policy.evaluate_actions(X[j], Y[j], action_masks=M[j].numpy())
            loss = 0.5 * torch.nn.functional.mse_loss(values.flatten(), R[j])
            if policy_loss:
                loss = loss - log_prob.mean()
            optim.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optim.step()
    policy.set_training_mode(False)


def behaviour_clone(model, args: Args, opponents: list[str]) -> dict:
    """Warm start: fit ``model.policy`` to ``args.bc_teacher``'s decisions in the learner seat."""
    import torch

    import agents
    from uno_env import VecGame

    if args.bc_records:
        data = record_decisions(args)
    else:
        teacher = agents.load(args.bc_teacher, game=VecGame(args.rules, args.players, observation=args.observation),
                              seed=args.seed)
        data = collect_decisions(teacher, args, opponents, args.bc_decisions, seed=args.seed + 777)
    fit(model, data, args, args.bc_epochs, policy_loss=True)
    X, M, Y = data["X"], data["M"], data["Y"]
    with torch.no_grad():  # agreement on a sample of the decisions (deterministic choice)
        k = torch.randperm(len(X))[:20000]
        pred = model.policy.get_distribution(X[k], action_masks=M[k].numpy()).distribution.probs.argmax(1)
    agree = float((pred == Y[k]).float().mean())
    print(f"behaviour cloning: {len(X)} decisions of {args.bc_teacher}, {args.bc_epochs} epochs, "
          f"agreement {agree:.1%}", flush=True)
    return {"decisions": len(X), "agreement": agree}


def warm_up_critic(model, args: Args, opponents: list[str]) -> dict:
    """Fit the value net alone on ``args.critic_warmup`` decisions of the initial actor (sampled, as PPO
    samples), so that PPO's first advantages do not come from an untrained critic."""
    import torch

    from agents.policy import PolicyAgent
    from agents.privileged import actor_only

    actor = PolicyAgent(actor_only(model.policy), deterministic=False, meta=_layout(args))
    data = collect_decisions(actor, args, opponents, args.critic_warmup, seed=args.seed + 555,
                             rng=np.random.default_rng(args.seed + 555))
    before = float(((data["R"] - data["R"].mean()) ** 2).mean())
    fit(model, data, args, args.bc_epochs, policy_loss=False)
    with torch.no_grad():
        v = model.policy.predict_values(data["X"]).flatten()
    mse = float(((v - data["R"]) ** 2).mean())
    print(f"critic warm-up: {len(data['X'])} decisions, {args.bc_epochs} epochs, value error {mse:.3f} "
          f"against {before:.3f} for the mean (explained variance {1 - mse / before:.1%})", flush=True)
    return {"decisions": len(data["X"]), "value_mse": mse, "outcome_variance": before}


def _layout(args: Args) -> dict:
    """What a policy being trained reads (``PolicyAgent.observation``): the arenas give it that layout."""
    from uno_env import VecGame
    return {"observation": args.observation,
            "observation_size": VecGame(args.rules, args.players, observation=args.observation).observation_size}


def check_bots(args: Args) -> None:
    """Fail before training, not at the first evaluation, on an agent name that does not load."""
    import agents
    from uno_env import VecGame

    game = VecGame(args.rules, args.players, batch_size=1)
    for name in [b.strip() for b in args.eval_bots.split(",") if b.strip()] if args.eval_every else []:
        try:
            agents.load(name, game=game)
        except (ValueError, FileNotFoundError, KeyError) as exc:
            raise ValueError(f"--eval-bots: {name!r} does not load: {exc}") from None


def train(args: Args) -> Path:
    """Run (or resume) the training described by ``args``; returns the run folder."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.policy import PolicyAgent
    from agents.privileged import PrivilegedCriticPolicy, actor_only, load_actor
    from uno_env.sb3 import UnoVecEnv

    args.validate()
    folder = RunFolder(args.run_dir, latest="checkpoints/latest.zip")  # config.json, sessions.json (training.runs)
    run = folder.path
    saved = folder.open(args)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    opponents = [n.strip() for n in args.opponents.split(",") if n.strip()]
    check_bots(args)
    games = UnoVecEnv(args.rules, args.players, args.n_envs, opponents, seed=args.seed, episode=args.episode,
                      privileged=args.privileged_critic, observation=args.observation)
    env = VecMonitor(games)  # SB3's episode statistics: rollout/ep_rew_mean and ep_len_mean
    env.seed(args.seed)
    if args.resume:
        model = load_checkpoint(run / "checkpoints" / "latest.zip", env, args.device)
        print(f"resuming {run} at step {model.num_timesteps}", flush=True)
        changed = apply_hyperparameters(model, args, saved)
        if changed:  # e.g. a lower learning rate to anneal a long run
            print("resuming with " + ", ".join(f"{k}={v!r} (was {w!r})" for k, (v, w) in changed.items()), flush=True)
    else:
        arch = parse_net_arch(args.net_arch)
        policy, kwargs = "MlpPolicy", {"net_arch": arch}
        if args.privileged_critic:
            policy, kwargs = PrivilegedCriticPolicy, {**kwargs, "public_dim": games.games.public_size}
        model = MaskablePPO(policy, env, n_steps=args.n_steps, batch_size=args.batch_size,
                            n_epochs=args.n_epochs, learning_rate=args.learning_rate, gamma=args.gamma,
                            gae_lambda=args.gae_lambda, ent_coef=args.ent_coef, vf_coef=args.vf_coef,
                            clip_range=args.clip_range, max_grad_norm=args.max_grad_norm,
                            policy_kwargs=kwargs, seed=args.seed, device=args.device, verbose=0)
        if args.init_actor:
            import agents
            load_actor(model.policy, agents.load(args.init_actor, game=games.games.game).policy)
        if args.bc_decisions or args.bc_records:
            (run / "bc.json").write_text(json.dumps(behaviour_clone(model, args, opponents)))
        if args.critic_warmup:
            (run / "critic_warmup.json").write_text(json.dumps(warm_up_critic(model, args, opponents)))
    model.set_logger(configure(str(run / "tb"), ["tensorboard", "csv"]))
    sessions = folder.read_sessions() if args.resume else []
    session = Session(sessions, model.num_timesteps)

    def record(step: int) -> float:  # at every checkpoint: a run killed after it still records its wall time
        session.update(step)
        return folder.write_sessions(step, sessions)

    with StopSignal() as stop:  # Ctrl-C or kill: SB3 stops at the next step, and the checkpoint is written below
        callback = make_callback(args, run, games, None, on_checkpoint=record, stop=stop)
        remaining = args.total_steps - model.num_timesteps
        if remaining > 0:
            model.learn(remaining, callback=callback, reset_num_timesteps=False, progress_bar=args.progress)
    save_atomic(model, folder.latest)
    total_seconds = record(model.num_timesteps)
    if stop:
        raise stop.interrupted(run, model.num_timesteps)
    model.save(str(run / "model.zip"))
    game = games.games.game
    extra = {"critic": "privileged (reads the hidden state; not exported, the actor alone is)"} \
        if args.privileged_critic else {}
    PolicyAgent(actor_only(model.policy), name=args.name).export(run / "agent", game, extra={**extra,
        "trained_steps": int(model.num_timesteps), "train_seconds_this_session": session.seconds,
        "train_seconds": total_seconds, "resumes": len(sessions) - 1, "trainer": "training.train_ppo",
        "command": "python -m training.train_ppo " + " ".join(sys.argv[1:]) if sys.argv[1:] else "",
        "args": dataclasses.asdict(args)})
    print(f"done: {model.num_timesteps} steps; run folder {run}", flush=True)
    return run


def main(argv: list[str] | None = None) -> int:
    return run_command("train_ppo", lambda: train(parse_args(argv)), errors=(ValueError, CheckpointError))


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

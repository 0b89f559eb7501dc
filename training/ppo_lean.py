"""A lean masked PPO over the batched learner games, in CleanRL's single-file style: the family's main trainer.

    python -m training.ppo_lean --players 4 --opponents heuristic --total-steps 12000000 --run-name lean4p
    python -m training.ppo_lean --run-name lean4p --resume --total-steps 20000000   # continue, not restart
    python -m training.ppo_lean --run-name lean4p --resume --total-steps 30000000 --learning-rate 1e-4  # anneal

It is one of the masked PPO family's three trainers, which share their settings and flags
(``training.config.PPOConfig``; this loop's extra ones are on ``Config`` below) and their run folder and resume
convention (``training.runs``); ``training.train_ppo`` runs the same settings on sb3-contrib's MaskablePPO, the
ecosystem's reference, and ``training.rllib_train`` on RLlib.

Why it exists: on a small machine, training throughput is the budget.  This loop drives
``uno_env.learner.LearnerGames`` directly, not through ``uno_env.sb3.UnoVecEnv`` as MaskablePPO does, so that
one Python round trip steps many games (1,024 by default, against SB3's recipe of 64):
the opponents' batched ``act`` calls and the core's ``step_rows`` cost about the same per call whatever
the batch, so a wide batch spends its time on the games, not on the calls.  The rollout (``n_envs *
n_steps`` samples), the minibatch, the epochs and the network (two 256-unit Tanh MLPs, one for the
policy and one for the value) are MaskablePPO's; the loss is SB3's (clipped surrogate, advantage
normalised per minibatch, value MSE with ``vf_coef``, entropy bonus, gradient norm clipped at 0.5,
Adam with eps 1e-5), illegal actions masked out of the softmax as sb3-contrib's ``MaskableCategorical``
does.  Truncated episodes (``max_turns_per_round``) are bootstrapped from the value of their last
observation, as SB3 does.

A run writes ``runs/NAME/`` (the family's run folder):

* ``config.json``: the run's settings (``--resume`` reads them back; the game, the network and the
  rollout are fixed, while the run's length, checkpointing and the optimisation's hyperparameters (learning
  rate, entropy and value coefficients, clip range, epochs, minibatch) may change and stay changed);
* ``checkpoints/latest.pt`` (written atomically): network, optimizer, every random generator (torch's
  sampling generator, the games' and bots' numpy generators, pickled with the games in play), the step
  and update counters, the episode trackers and the sessions so far.  A resumed run continues the same
  games with the same random streams: interrupted and uninterrupted runs end with the same weights.
  The games are pickled: load only checkpoints you trust.  When they no longer unpickle (the package's
  game classes changed since the checkpoint), the resume keeps everything else, begins new games, warns,
  and notes it in the session (``games_restarted``);
* on Ctrl-C or ``kill``, after the update in progress: ``checkpoints/latest.pt`` and ``sessions.json``
  (``training.runs.StopSignal``); the same command then continues the run, exactly;
* ``tb/``: TensorBoard scalars (``rollout/ep_rew_mean``, ``rollout/ep_len_mean``, ``rollout/win_rate``,
  ``train/*`` losses, ``time/fps``); ``sessions.json``: each session's steps and wall time;
* ``agent.json`` + ``agent.pt``: the policy exported in the shipped-agent format (``agents.load(run)``,
  ``python -m training.evaluate --agents runs/NAME,random``): the network's parameters carry the names
  of sb3-contrib's ``MaskableActorCriticPolicy``, so ``agents.policy.PolicyAgent`` reads them unchanged.

``--observation v2|v3`` and ``--env-option key=value`` are passed to the games as they are (the env's
default layout when not given).  ``--colour-augment`` shows the learner each decision under a random renaming
of the deck's colours and plays its choice back renamed (``agents.symmetry``): the rules treat the colours of
a one-sided deck alike, so every renamed position is a real one, and the network sees 24 variants of each.
``--distill AGENT`` starts by cloning an agent (``distill``); with ``--init-agent`` and ``--distill-where TYPES`` the
clone is targeted: only the decisions where such an action is legal are copied, the rest of the play kept.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from training.config import PPOConfig, parse_net_arch
from training.runs import RunFolder, Session, StopSignal, run_command
from uno_env import extras

with extras.needs("train", "this command" if __name__ == "__main__" else "the lean PPO trainer",
                  script=__name__ == "__main__"):  # the light install: one line naming the extra
    import torch
    from torch import nn

CHECKPOINT_FORMAT = "uno-env-ppo-lean/1"
HUGE_NEG = -1e8  # the logit of an illegal action (sb3-contrib's MaskableCategorical uses the same)


@dataclass
class Config(PPOConfig):
    """The lean loop's settings: the family's (``training.config.PPOConfig``, whose defaults are this loop's) and
    its own (game options, colour renamings, warm starts, cloning, snapshots)."""

    total_steps: int = field(default=1_000_000, metadata={"help": "learner decisions to train on (0 with "
                                                                  "--distill: clone, export, no PPO)"})
    env_option: list = field(default_factory=list, metadata={"help": "KEY=VALUE game option (repeatable; "
                                                                     "the value is read as JSON when it parses)"})
    colour_augment: bool = field(default=False, metadata={"help": "show the learner each decision under a random "
                                                                 "renaming of the deck's colours and play its "
                                                                 "choice back (agents.symmetry; one-sided decks)"})
    init_agent: str = field(default="", metadata={"help": "start from this exported agent's weights (a shipped "
                                                          "name or a .json path); a v2 agent widens to v3, and "
                                                          "a wider --net-arch starts computing what it did"})
    distill: str = field(default="", metadata={"help": "start by cloning this agent instead (any agent: a bot, "
                                                       "a shipped name, a path, an ensemble 'a+b+c'; another "
                                                       "network size is fine)"})
    distill_decisions: int = field(default=500_000, metadata={"help": "decisions of the --distill agent to clone"})
    distill_epochs: int = field(default=8, metadata={"help": "passes over the cloned decisions"})
    distill_anneal: bool = field(default=False, metadata={"help": "anneal the cloning learning rate from 1e-3 "
                                                                 "to 0 (cosine) over the passes"})
    distill_where: str = field(default="", metadata={"help": "with --init-agent: clone --distill only on the "
                                                             "decisions where an action of these types is legal "
                                                             "(comma list of uno_env.core.actions.ACTION_TYPES, "
                                                             "e.g. 'challenge'); elsewhere keep the network's own "
                                                             "play"})
    snapshot_every: int = field(default=0, metadata={"help": "steps between agent exports to snapshots/ "
                                                             "(0: none; for choosing a checkpoint afterwards)"})

    PROG: ClassVar[str] = "python -m training.ppo_lean"
    PREFIX: ClassVar[str] = "lean"
    # may differ on resume: the length and bookkeeping of the run, this session's settings, and the optimisation's
    # hyperparameters (a schedule by hand: each session's command is kept in the checkpoint and sessions.json)
    RESUMABLE: ClassVar[tuple[str, ...]] = ("total_steps", "checkpoint_every", "snapshot_every") + \
        PPOConfig.SESSION + ("learning_rate", "ent_coef", "vf_coef", "clip_range", "max_grad_norm", "n_epochs",
                             "batch_size")

    def env_options(self) -> dict:
        """The keyword arguments for the games beyond the fixed ones (``--observation``, ``--env-option``)."""
        out = {}
        for item in self.env_option:
            key, sep, value = str(item).partition("=")
            if not sep or not key:
                raise ValueError(f"--env-option must be KEY=VALUE, got {item!r}")
            try:
                out[key] = json.loads(value)
            except json.JSONDecodeError:
                out[key] = value
        if self.observation:
            out["observation"] = self.observation
        return out

    def validate(self) -> None:
        super().validate()
        if self.total_steps < 1 and not (self.total_steps == 0 and self.distill):
            raise ValueError(f"--total-steps must be positive (or 0 with --distill: clone only), "
                             f"got {self.total_steps}")
        if self.snapshot_every < 0:
            raise ValueError(f"--snapshot-every must be 0 (off) or positive, got {self.snapshot_every}")
        if self.batch_size > self.n_envs * self.n_steps:
            raise ValueError(f"--batch-size {self.batch_size} is larger than a rollout of --n-envs x --n-steps = "
                             f"{self.n_envs * self.n_steps} samples")
        self.env_options()
        if self.init_agent and self.distill and not self.distill_where:
            raise ValueError("--init-agent and --distill both set the initial network; give one (or --distill-where "
                             "to clone --distill into --init-agent on some decisions only)")
        if self.distill_where:
            from uno_env.core.actions import ACTION_TYPES
            bad = [k for k in self.where() if k not in ACTION_TYPES]
            if not self.where() or bad or not (self.init_agent and self.distill):
                raise ValueError(f"--distill-where takes action types ({', '.join(ACTION_TYPES)}) and needs "
                                 f"--init-agent and --distill; got {self.distill_where!r}, --init-agent "
                                 f"{self.init_agent!r}, --distill {self.distill!r}")
        if self.distill and (self.distill_decisions < 10 * self.n_envs or self.distill_epochs < 1):
            raise ValueError(f"--distill-decisions must be at least 10 x --n-envs = {10 * self.n_envs} and "
                             f"--distill-epochs positive, got {self.distill_decisions} and {self.distill_epochs}")

    def where(self) -> list[str]:
        """``--distill-where`` as a list of action types."""
        return [k.strip() for k in self.distill_where.split(",") if k.strip()]


SESSION, RESUMABLE = Config.SESSION, Config.RESUMABLE


def parse_args(argv: list[str] | None = None) -> Config:
    """The command line as ``Config``; with ``--resume``, what is not given comes from the run's config."""
    return Config.from_args(argv, description=__doc__.split("\n")[0])


# ---------------------------------------------------------------------------------- the network
def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """Separate policy and value MLPs with linear heads, named as in sb3-contrib's
    ``MaskableActorCriticPolicy`` (``mlp_extractor.policy_net``, ``action_net``, ...), so that its
    ``state_dict`` loads into one; initialised as SB3 does (orthogonal, gains sqrt(2), 0.01 and 1)."""

    def __init__(self, obs_size: int, num_actions: int, arch: list[int]):
        super().__init__()
        self.mlp_extractor = nn.Module()
        self.mlp_extractor.policy_net = _mlp([obs_size, *arch])
        self.mlp_extractor.value_net = _mlp([obs_size, *arch])
        self.action_net = nn.Linear(arch[-1], num_actions)
        self.value_net = nn.Linear(arch[-1], 1)
        for net in (self.mlp_extractor.policy_net, self.mlp_extractor.value_net):
            for m in net:
                if isinstance(m, nn.Linear):
                    nn.init.orthogonal_(m.weight, np.sqrt(2))
                    nn.init.zeros_(m.bias)
        for head, gain in ((self.action_net, 0.01), (self.value_net, 1.0)):
            nn.init.orthogonal_(head.weight, gain)
            nn.init.zeros_(head.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Log-probabilities over the legal actions (illegal ones at about -1e8) and the values."""
        logits = self.action_net(self.mlp_extractor.policy_net(obs))
        logp = torch.log_softmax(torch.where(mask, logits, HUGE_NEG), -1)
        return logp, self.value_net(self.mlp_extractor.value_net(obs)).squeeze(-1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.value_net(self.mlp_extractor.value_net(obs)).squeeze(-1)


def warm_start(name_or_path: str, game, net: ActorCritic, seed: int = 0) -> dict:
    """An exported agent's weights for ``net``.  An agent trained on v2 starts a v3 network: a v3
    observation begins with the v2 one, so the first layers get zero weights on the new inputs and the
    widened network acts and values exactly as the agent did, free to learn what the history adds; wider
    hidden layers than the agent's are filled by ``widen``, again without changing what it computes."""
    import agents
    from agents.policy import layout_fingerprint

    kind, path = agents.locate(name_or_path)
    if kind != "export" or not path.with_suffix(".pt").is_file():
        raise ValueError(f"--init-agent {name_or_path!r}: no exported agent there (a shipped name: "
                         f"{', '.join(agents.shipped())}, or the path of NAME.json beside NAME.pt)")
    meta = json.loads(path.read_text())
    theirs = meta.get("observation", "v2")
    want = layout_fingerprint(game, theirs)
    if meta.get("observation_fingerprint") != want["observation_fingerprint"] or \
            meta.get("action_fingerprint") != want["action_fingerprint"]:
        raise ValueError(f"--init-agent {name_or_path!r} was trained on another game or layout than "
                         f"--rules/--players/options give ({theirs} observation)")
    state = torch.load(path.with_suffix(".pt"), map_location="cpu", weights_only=True)
    mine = net.state_dict()
    widen(state, mine, name_or_path, meta.get("net_arch"), seed)
    for key, value in state.items():
        if key not in mine:
            raise ValueError(f"--init-agent {name_or_path!r}: unexpected parameter {key}")
        if value.shape != mine[key].shape:
            grow = key.endswith(".0.weight") and value.shape[0] == mine[key].shape[0] \
                and value.shape[1] < mine[key].shape[1]
            if not grow:
                raise ValueError(f"--init-agent {name_or_path!r}: {key} has shape {tuple(value.shape)}, the "
                                 f"network {tuple(mine[key].shape)} (--net-arch may widen the agent's "
                                 f"{meta.get('net_arch')}, with as many layers)")
            wide = torch.zeros_like(mine[key])
            wide[:, :value.shape[1]] = value
            state[key] = wide
    return state


def widen(state: dict, mine: dict, name: str, theirs, seed: int) -> None:
    """Net2WiderNet (Chen, Goodfellow and Shlens, 2016) in place: a wider ``--net-arch`` starts from a narrower
    agent computing exactly what it did.  Each new hidden unit copies an old unit's incoming weights, and the
    copies share that unit's outgoing weights between them; the shares are uneven (random, summing to the
    original), so the copies get different gradients and can learn apart."""
    generator = torch.Generator().manual_seed(seed)
    for trunk, head in (("mlp_extractor.policy_net", "action_net"), ("mlp_extractor.value_net", "value_net")):
        layers, mine_layers = ([int(k.split(".")[2]) for k in d if k.startswith(trunk) and k.endswith(".weight")]
                               for d in (state, mine))
        if layers != mine_layers:
            raise ValueError(f"--init-agent {name!r} has {len(layers)} hidden layers ({theirs}), --net-arch "
                             f"{len(mine_layers)}: a warm start may widen layers, not add them")
        names = [f"{trunk}.{i}" for i in layers] + [head]
        for this, after in zip(names[:-1], names[1:]):
            old, new = state[this + ".weight"].shape[0], mine[this + ".weight"].shape[0]
            if new < old:
                raise ValueError(f"--init-agent {name!r}: {this} has {old} units, --net-arch {new}; a warm "
                                 f"start may widen a network ({theirs}), not narrow it")
            if new == old:
                continue
            source = torch.arange(new) % old
            copies = torch.bincount(source, minlength=old).to(state[this + ".weight"].dtype)
            state[this + ".weight"] = state[this + ".weight"][source].clone()
            state[this + ".bias"] = state[this + ".bias"][source].clone()
            share = state[after + ".weight"][:, source] / copies[source]
            noise = torch.randn(share.shape, generator=generator, dtype=share.dtype) * share.std()
            group_mean = torch.zeros(share.shape[0], old, dtype=share.dtype).index_add_(1, source, noise) / copies
            state[after + ".weight"] = share + noise - group_mean[:, source]


def distill(trainer: LeanPPO, log=print) -> dict:
    """Clone ``--distill``'s play into the network before PPO starts (behaviour cloning).

    The teacher plays the learner's seat in the training games for ``distill_decisions`` decisions; the
    policy learns its choices (a trained policy's whole distribution, a bot's chosen action) and the value
    head the discounted outcome that followed, so PPO starts from the teacher's strength with a critic
    that already knows it.  A tenth of the games are held out to measure agreement (the share of held-out
    decisions where the network's most likely action is the teacher's), which says whether the network is
    big enough to represent the teacher (aim for about 98% before PPO).

    ``--distill-where`` (a targeted clone, as kickstarting does for one skill): the network starts as
    ``--init-agent`` and learns the teacher only on the decisions where an action of the named types is legal
    (say, a challenge of a wild draw card); on every other decision its target is its own starting
    distribution, so the rest of its play stays what it was.  Those decisions may be rare: the two kinds
    weigh alike in the loss, and the agreement is reported on each."""
    import agents
    from uno_env.core.actions import ACTION_TYPES

    cfg, games, net = trainer.cfg, trainer.games, trainer.net
    teacher = agents.load(cfg.distill, game=games.game, seed=cfg.seed)
    N, T = cfg.n_envs, -(-cfg.distill_decisions // cfg.n_envs)
    O, A = games.observation_size, games.num_actions
    obs, mask = np.zeros((T, N, O), np.float32), np.zeros((T, N, A), bool)
    target, rew, done = np.zeros((T, N, A), np.float32), np.zeros((T, N), np.float32), np.zeros((T, N), bool)
    o, m = trainer._obs, trainer._mask
    where = cfg.where()
    targeted = np.isin(games.game.engine.actions.kind, [ACTION_TYPES.index(k) for k in where])  # (A,)
    aimed = np.zeros((T, N), bool)  # decisions the teacher decides (all of them without --distill-where)

    def taught(o, m) -> np.ndarray:
        if callable(getattr(teacher, "probabilities", None)):  # a policy or an ensemble: its distribution
            return teacher.probabilities(o, m)
        out = np.zeros(m.shape, np.float32)
        out[np.arange(len(m)), np.asarray(teacher.act(o, m), np.int64)] = 1.0
        return out

    t0 = time.time()
    for t in range(T):
        obs[t], mask[t] = o, m
        if where:
            aimed[t] = (m & targeted[None, :]).any(1)
            with torch.no_grad():
                target[t] = net(torch.from_numpy(o), torch.from_numpy(m))[0].exp().numpy()
            if aimed[t].any():
                target[t, aimed[t]] = taught(o[aimed[t]], m[aimed[t]])
        else:
            aimed[t] = True
            target[t] = taught(o, m)
        action = target[t].argmax(1)
        out = games.step(action)
        rew[t], done[t] = out["reward"], out["terminated"] | out["truncated"]
        ended = np.flatnonzero(done[t])
        games.restart(ended)
        o, m = games.observe(), games.action_masks()
    trainer._obs, trainer._mask = o, m
    ret, following = np.zeros((T, N), np.float32), np.zeros(N, np.float32)  # the outcome that followed, discounted
    for t in reversed(range(T)):
        following = rew[t] + cfg.gamma * following * ~done[t]
        ret[t] = following
    complete = np.cumsum(done[::-1], 0)[::-1] > 0  # decisions whose episode ended within the collection
    held = np.arange(N) >= N - max(1, N // 10)
    train_i = (~held[None, :] & complete).reshape(-1)
    test_i = np.broadcast_to(held[None, :], (T, N)).reshape(-1)
    X, M = torch.from_numpy(obs.reshape(T * N, O)), torch.from_numpy(mask.reshape(T * N, A))
    Y, R = torch.from_numpy(target.reshape(T * N, A)), torch.from_numpy(ret.reshape(T * N))
    W = torch.from_numpy(aimed.reshape(T * N))
    idx = torch.from_numpy(np.flatnonzero(train_i))
    held_i = torch.from_numpy(np.flatnonzero(test_i))
    choices = M[held_i].sum(1) > 1  # decisions with a choice (a lone legal action agrees trivially)

    def agreement() -> tuple[float, ...]:
        """The share of held-out decisions where the network's likeliest action is the target's: all of them,
        those with a choice, those the teacher decides and the others (each nan if none)."""
        with torch.no_grad():
            same = torch.cat([(net(X[k], M[k])[0].argmax(1) == Y[k].argmax(1)).float()
                              for k in held_i.split(16384)])
        on = W[held_i]
        return tuple(round(x.mean().item(), 4) if x.numel() else float("nan")
                     for x in (same, same[choices], same[on], same[~on]))

    before = agreement()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-5)
    bs = cfg.batch_size
    updates = cfg.distill_epochs * -(-idx.numel() // bs)
    anneal = torch.optim.lr_scheduler.CosineAnnealingLR(opt, updates) if cfg.distill_anneal else None
    for epoch in range(cfg.distill_epochs):
        order = idx[torch.randperm(idx.numel(), generator=trainer.gen)]
        for start in range(0, order.numel(), bs):
            i = order[start:start + bs]
            logp, value = net(X[i], M[i])
            ce = -(Y[i] * logp.clamp(min=-1e4)).sum(1)  # cross-entropy to the target
            if where:  # the taught decisions and the kept ones weigh alike, however rare the first
                on = W[i]
                policy_loss = sum(ce[k].mean() for k in (on, ~on) if k.any())
            else:
                policy_loss = ce.mean()
            value_loss = torch.nn.functional.mse_loss(value, R[i])
            opt.zero_grad()
            (policy_loss + cfg.vf_coef * value_loss).backward()
            nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            if anneal is not None:
                anneal.step()
        log(f"distill epoch {epoch + 1}/{cfg.distill_epochs}: policy loss {policy_loss.item():.4f}, "
            f"value loss {value_loss.item():.4f}")
    after = agreement()
    targeted_report = {"where": where, "taught": int(aimed.sum()), "taught_trained_on": int(W[idx].sum()),
                       "agreement_where_taught": after[2], "agreement_where_taught_before": before[2],
                       "agreement_elsewhere": after[3]} if where else {}
    return {"teacher": cfg.distill, "decisions": int(T * N), "trained_on": int(train_i.sum()),
            "held_out": int(held_i.numel()), "final_learning_rate": opt.param_groups[0]["lr"],
            "agreement": after[0], "agreement_with_a_choice": after[1],
            "agreement_before": before[0], "agreement_with_a_choice_before": before[1], "epochs": cfg.distill_epochs,
            **targeted_report, "seconds": round(time.time() - t0, 1)}


# ---------------------------------------------------------------------------------- the trainer
class LeanPPO:
    """The games, the network and the optimizer of one run; ``learn`` trains, ``state``/``restore``
    capture and bring back everything a resumed run needs."""

    TRAINER = "training.ppo_lean"  # the command, recorded in what it exports

    def __init__(self, cfg: Config):
        from uno_env.learner import LearnerGames

        cfg.validate()
        self.cfg = cfg
        if cfg.torch_threads:
            torch.set_num_threads(cfg.torch_threads)
        torch.manual_seed(cfg.seed)
        opponents = [n.strip() for n in cfg.opponents.split(",") if n.strip()]
        self.games = LearnerGames(cfg.rules, cfg.players, cfg.n_envs, opponents, seed=cfg.seed, episode=cfg.episode,
                                  **cfg.env_options())
        self.net = ActorCritic(self.games.observation_size, self.games.num_actions, parse_net_arch(cfg.net_arch))
        if cfg.init_agent:
            self.net.load_state_dict(warm_start(cfg.init_agent, self.games.game, self.net, cfg.seed))
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.learning_rate, eps=1e-5)
        self.renamings = None  # (observation map, action map back) of each colour renaming, --colour-augment
        if cfg.colour_augment:
            from agents.symmetry import ColourMaps
            maps = ColourMaps(self.games.game)
            if maps.obs.shape[1] != self.games.observation_size:
                raise ValueError(f"--colour-augment maps observations of {maps.obs.shape[1]} numbers, but the "
                                 f"learner sees {self.games.observation_size}")
            self.renamings = (torch.from_numpy(maps.obs), torch.from_numpy(np.argsort(maps.act, axis=1)))
        self.gen = torch.Generator().manual_seed(cfg.seed)  # action sampling and minibatch order
        self.games_restarted: str | None = None  # why a resume could not continue the games in play
        self.step = self.updates = 0
        self.ep_return = np.zeros(cfg.n_envs, np.float64)
        self.ep_len = np.zeros(cfg.n_envs, np.int64)
        self.episodes: deque = deque(maxlen=1000)  # (return, length) of the latest finished episodes
        self.sessions: list[dict] = []
        self._obs, self._mask = self.games.reset(cfg.seed), self.games.action_masks()
        T, N, O, A = cfg.n_steps, cfg.n_envs, self.games.observation_size, self.games.num_actions
        self.buf = {"obs": torch.zeros(T, N, O), "mask": torch.zeros(T, N, A, dtype=torch.bool),
                    "action": torch.zeros(T, N, dtype=torch.long), "logp": torch.zeros(T, N),
                    "value": torch.zeros(T, N), "reward": torch.zeros(T, N), "done": torch.zeros(T, N)}

    # ------------------------------------------------------------------ rollout
    @torch.no_grad()
    def collect(self) -> dict:
        """``n_steps`` decisions in every game, by sampling the policy; the episodes that ended."""
        b, gamma = self.buf, self.cfg.gamma
        finished = []
        for t in range(self.cfg.n_steps):
            obs, mask = torch.from_numpy(self._obs), torch.from_numpy(self._mask)
            if self.renamings is not None:  # each game seen under a random renaming of its colours
                seen, back = self.renamings
                k = torch.randint(seen.shape[0], (obs.shape[0],), generator=self.gen)
                rows = torch.arange(obs.shape[0])[:, None]
                obs, mask = obs[rows, seen[k]], mask[rows, back[k]]
            logp, value = self.net(obs, mask)
            gumbel = -torch.log(-torch.log(torch.rand(logp.shape, generator=self.gen).clamp_(1e-12, 1.0)))
            action = (logp + gumbel).argmax(1)
            played = action if self.renamings is None else back[k, action]  # the renamed choice, played back
            out = self.games.step(played.numpy())
            reward = out["reward"].astype(np.float32)
            done = out["terminated"] | out["truncated"]
            cut = np.flatnonzero(out["truncated"])
            if cut.size:  # a turn limit, not an outcome: bootstrap from the last observation's value
                reward[cut] += gamma * self.net.value(torch.from_numpy(out["final_obs"][cut])).numpy()
            b["obs"][t], b["mask"][t], b["action"][t] = obs, mask, action
            b["logp"][t] = logp.gather(1, action[:, None]).squeeze(1)
            b["value"][t], b["reward"][t], b["done"][t] = value, torch.from_numpy(reward), torch.from_numpy(done)
            self.ep_return += out["reward"]
            self.ep_len += 1
            ended = np.flatnonzero(done)
            for i in ended:
                finished.append((float(self.ep_return[i]), int(self.ep_len[i])))
            self.ep_return[ended], self.ep_len[ended] = 0.0, 0
            self.games.restart(ended)
            self._obs, self._mask = self.games.observe(), self.games.action_masks()
        self.step += self.cfg.n_steps * self.cfg.n_envs
        self.episodes.extend(finished)
        return {"episodes": finished}

    def advantages(self) -> tuple[torch.Tensor, torch.Tensor]:
        """GAE(lambda) over the rollout, bootstrapped from the value of the observations that follow it."""
        b, gamma, lam = self.buf, self.cfg.gamma, self.cfg.gae_lambda
        with torch.no_grad():
            next_value = self.net.value(torch.from_numpy(self._obs))
        adv = torch.zeros_like(b["reward"])
        last = torch.zeros(self.cfg.n_envs)
        for t in reversed(range(self.cfg.n_steps)):
            keep = 1.0 - b["done"][t]
            following = next_value if t == self.cfg.n_steps - 1 else b["value"][t + 1]
            delta = b["reward"][t] + gamma * following * keep - b["value"][t]
            last = delta + gamma * lam * keep * last
            adv[t] = last
        return adv, adv + b["value"]

    def update(self) -> dict:
        """``n_epochs`` passes of minibatches over the rollout: SB3's PPO loss."""
        cfg, b = self.cfg, self.buf
        adv, returns = self.advantages()
        flat = {k: v.flatten(0, 1) for k, v in b.items()}
        adv, returns = adv.flatten(), returns.flatten()
        n = adv.numel()
        stats: dict[str, list] = {k: [] for k in ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")}
        for _ in range(cfg.n_epochs):
            order = torch.randperm(n, generator=self.gen)
            for start in range(0, n, cfg.batch_size):
                i = order[start:start + cfg.batch_size]
                logp_all, value = self.net(flat["obs"][i], flat["mask"][i])
                logp = logp_all.gather(1, flat["action"][i][:, None]).squeeze(1)
                entropy = -(logp_all.exp() * logp_all).sum(1)  # illegal actions: exp(-1e8) = 0 exactly
                a = adv[i]
                if a.numel() > 1:
                    a = (a - a.mean()) / (a.std() + 1e-8)
                log_ratio = logp - flat["logp"][i]
                ratio = log_ratio.exp()
                policy_loss = -torch.min(a * ratio, a * ratio.clamp(1 - cfg.clip_range, 1 + cfg.clip_range)).mean()
                value_loss = torch.nn.functional.mse_loss(returns[i], value)
                loss = policy_loss - cfg.ent_coef * entropy.mean() + cfg.vf_coef * value_loss
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    stats["policy_loss"].append(policy_loss.item())
                    stats["value_loss"].append(value_loss.item())
                    stats["entropy"].append(entropy.mean().item())
                    stats["approx_kl"].append(((ratio - 1) - log_ratio).mean().item())
                    stats["clip_fraction"].append(((ratio - 1).abs() > cfg.clip_range).float().mean().item())
        self.updates += 1
        var, residual = returns.var().item(), (returns - b["value"].flatten()).var().item()
        out = {k: float(np.mean(v)) for k, v in stats.items()}
        out["explained_variance"] = float("nan") if var == 0 else 1 - residual / var
        return out

    def learn(self, total_steps: int, on_update=None, stop=None) -> None:
        """Rollouts and updates until ``total_steps`` decisions (counted across resumes), or until ``stop()`` says
        so after an update (a signal: ``training.runs.StopSignal``); ``on_update(self, stats)`` after each update."""
        while self.step < total_steps and not (stop is not None and stop()):
            rollout = self.collect()
            stats = self.update()
            if on_update is not None:
                on_update(self, {**stats, **rollout})

    # ------------------------------------------------------------------ checkpoints
    def state(self) -> dict:
        """Everything a resumed run needs (see the module docstring)."""
        return {"format": CHECKPOINT_FORMAT, "config": dataclasses.asdict(self.cfg), "step": self.step,
                "updates": self.updates, "model": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                "generator": self.gen.get_state(), "torch_rng": torch.get_rng_state(),
                "games": pickle.dumps(self.games), "ep_return": self.ep_return.copy(), "ep_len": self.ep_len.copy(),
                "episodes": list(self.episodes), "sessions": list(self.sessions)}

    def restore(self, state: dict) -> None:
        if state.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"not a {CHECKPOINT_FORMAT} checkpoint (format {state.get('format')!r})")
        self.net.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        for group in self.optimizer.param_groups:  # a resumed session may set another rate
            group["lr"] = self.cfg.learning_rate
        self.gen.set_state(state["generator"])
        torch.set_rng_state(state["torch_rng"])
        self.step, self.updates = int(state["step"]), int(state["updates"])
        try:
            self.games = pickle.loads(state["games"])
            self.ep_return, self.ep_len = state["ep_return"].copy(), state["ep_len"].copy()
        except Exception as exc:  # the game classes changed since the checkpoint (an upgrade mid-run)
            self.games_restarted = f"{type(exc).__name__}: {exc}"
            self.games.reset(self.cfg.seed + self.step)  # new deals, not the run's first ones again
            self.ep_return[:], self.ep_len[:] = 0, 0
        self.episodes = deque(state["episodes"], maxlen=self.episodes.maxlen)
        self.sessions = list(state["sessions"])
        self._obs, self._mask = self.games.observe(), self.games.action_masks()

    def save(self, path: Path) -> None:
        """Write atomically: a kill mid-write never leaves a truncated ``path``."""
        tmp = path.with_name(path.name + ".tmp")
        torch.save(self.state(), tmp)
        os.replace(tmp, path)

    def load(self, path: Path) -> None:
        if not path.exists():
            raise FileNotFoundError(f"no checkpoint to resume from at {path}")
        try:
            state = torch.load(path, map_location="cpu", weights_only=False)  # pickled games: trusted files only
        except Exception as exc:
            raise ValueError(f"checkpoint {path} is corrupt or truncated ({type(exc).__name__}: {exc})") from None
        self.restore(state)

    # ------------------------------------------------------------------ export
    def sb3_policy(self):
        """The network as sb3-contrib's ``MaskableActorCriticPolicy`` (same parameters, same names)."""
        from gymnasium import spaces
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        low = np.full(self.games.observation_size, -np.inf, np.float32)
        policy = MaskableActorCriticPolicy(spaces.Box(low, -low, dtype=np.float32),
                                           spaces.Discrete(self.games.num_actions), lambda _: 0.0,
                                           net_arch=parse_net_arch(self.cfg.net_arch), activation_fn=nn.Tanh)
        policy.load_state_dict(self.net.state_dict())
        policy.set_training_mode(False)
        return policy

    def export(self, path: Path, name: str, extra: dict | None = None) -> Path:
        """``path.json`` + ``path.pt`` in the shipped-agent format (``agents.load`` reads them)."""
        from agents.policy import PolicyAgent
        return PolicyAgent(self.sb3_policy(), name=name).export(path, self.games.game, extra=extra)


# ---------------------------------------------------------------------------------- the command
def write_sessions(run: Path, trainer: LeanPPO) -> float:
    """Write ``sessions.json`` (each session's steps, wall time and command, as the checkpoint holds them) and
    return the run's training seconds so far."""
    return RunFolder(run).write_sessions(trainer.step, trainer.sessions)


def train(cfg: Config, trainer: type[LeanPPO] | None = None) -> Path:
    """Run (or resume) the training described by ``cfg`` (with ``trainer``, a ``LeanPPO`` subclass such as
    ``training.league``'s; default ``LeanPPO``); returns the run folder."""
    from torch.utils.tensorboard import SummaryWriter
    from tqdm import tqdm

    cfg.validate()
    folder = RunFolder(cfg.run_dir)  # checkpoints/latest.pt, config.json, sessions.json (training.runs)
    run, ckpt = folder.path, folder.latest
    folder.open(cfg)
    trainer = (trainer or LeanPPO)(cfg)
    if cfg.resume:
        trainer.load(ckpt)
        print(f"resuming {run} at step {trainer.step} (update {trainer.updates})", flush=True)
        if trainer.games_restarted:
            print(f"warning: the games in play could not be restored ({trainer.games_restarted}); the network, "
                  f"optimizer and counters are, and new games begin. The run stays valid but no longer repeats "
                  f"an uninterrupted one exactly.", file=sys.stderr, flush=True)
    elif cfg.distill:
        report = distill(trainer, log=lambda line: print(line, flush=True))
        (run / "distill.json").write_text(json.dumps(report, indent=1))
        print(f"cloned {cfg.distill}: agreement {report['agreement']:.2%} on {report['held_out']} held-out "
              f"decisions ({report['agreement_with_a_choice']:.2%} where there was a choice"
              + (f"; {report['agreement_where_taught']:.2%} of {report['taught']} where {cfg.distill_where} "
                 f"was legal, {report['agreement_elsewhere']:.2%} of its own play kept elsewhere"
                 if cfg.distill_where else "") + ")", flush=True)
        trainer.save(ckpt)  # PPO resumes from the cloned network, not from a new clone
    restarted = {"games_restarted": trainer.games_restarted} if trainer.games_restarted else {}
    session = Session(trainer.sessions, trainer.step, **restarted)
    t0 = session.t0
    writer = SummaryWriter(str(run / "tb"))
    bar = tqdm(total=cfg.total_steps, initial=trainer.step, unit="step", disable=not cfg.progress, smoothing=0.1)
    next_ckpt = [trainer.step + cfg.checkpoint_every]
    every = cfg.snapshot_every
    next_snap = [(trainer.step // every + 1) * every if every else None]

    def on_update(tr: LeanPPO, stats: dict) -> None:
        bar.update(tr.step - bar.n)
        session.update(tr.step)
        recent = list(tr.episodes)[-max(100, len(stats["episodes"])):]  # this rollout's episodes (100 at least)
        if recent:
            rewards = np.array([r for r, _ in recent])
            writer.add_scalar("rollout/ep_rew_mean", rewards.mean(), tr.step)
            writer.add_scalar("rollout/ep_len_mean", np.mean([n for _, n in recent]), tr.step)
            writer.add_scalar("rollout/win_rate", (rewards > 0).mean(), tr.step)
            bar.set_postfix(ep_rew=f"{rewards.mean():+.3f}", win=f"{(rewards > 0).mean():.1%}", refresh=False)
        for k in ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction", "explained_variance"):
            writer.add_scalar(f"train/{k}", stats[k], tr.step)
        writer.add_scalar("time/fps", (tr.step - session.record["start_step"]) / max(1e-9, time.time() - t0), tr.step)
        if next_snap[0] is not None and tr.step >= next_snap[0]:
            next_snap[0] = (tr.step // every + 1) * every
            tr.export(run / "snapshots" / f"step_{tr.step}", f"{cfg.name}@{tr.step}",
                      extra={"name": f"{cfg.name}@{tr.step}", "trained_steps": tr.step,
                             "trainer": tr.TRAINER, "args": dataclasses.asdict(cfg)})
        if tr.step >= next_ckpt[0] or tr.step >= cfg.total_steps:
            next_ckpt[0] = tr.step + cfg.checkpoint_every
            tr.save(ckpt)
            folder.write_sessions(tr.step, tr.sessions)  # a run killed after this checkpoint keeps its wall time

    with StopSignal() as stop:  # Ctrl-C or kill: stop after the update in progress, with a checkpoint
        trainer.learn(cfg.total_steps, on_update, stop=lambda: bool(stop))
    bar.close()
    writer.close()
    session.update(trainer.step)
    trainer.save(ckpt)
    total_seconds = folder.write_sessions(trainer.step, trainer.sessions)
    if stop:
        raise stop.interrupted(run, trainer.step)
    cloned = json.loads((run / "distill.json").read_text()) if (run / "distill.json").exists() else None
    trainer.export(run / "agent", cfg.name, extra={
        "trained_steps": trainer.step, "train_seconds": total_seconds, "resumes": len(trainer.sessions) - 1,
        "trainer": trainer.TRAINER, "args": dataclasses.asdict(cfg), "distill": cloned,
        "command": f"python -m {trainer.TRAINER} " + " ".join(sys.argv[1:]) if sys.argv[1:] else ""})
    print(f"done: {trainer.step} steps in {session.seconds:.0f} s this session ({total_seconds:.0f} s in all); "
          f"run folder {run}", flush=True)
    return run


def main(argv: list[str] | None = None) -> int:
    return run_command("ppo_lean", lambda: train(parse_args(argv)))


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

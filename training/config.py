"""The masked PPO family's one configuration: the settings every trainer shares, as a dataclass.

``PPOConfig`` holds the PPO hyperparameters and the run settings: the game (rules, players, opponents,
episode, observation layout), the rollout (games stepped together, decisions per game, total steps), the
update (minibatch, epochs, learning rate, discount, GAE lambda, entropy and value coefficients, clip range,
gradient norm, network), the seed and the run (name, parent folder, checkpoint interval, resume, progress
bar, torch threads).  Each trainer subclasses it, with its own defaults and its own extra settings:

* ``training.ppo_lean.Config``: the lean loop, the main trainer (its defaults are this class's);
* ``training.train_ppo.Args``: sb3-contrib's ``MaskablePPO``, mapped onto its arguments;
* ``training.rllib_train.Args``: RLlib's ``PPOConfig``, mapped onto its ``training()`` settings.

``parser()`` builds the command line from the fields (``--field-name``, the field's help text, booleans as
``--x/--no-x``, lists repeatable), and ``from_args(argv)`` reads it: a setting not given keeps its default or,
with ``--resume``, the run's saved value (``training.runs``), and a setting that may not change on resume
(the game, the network, the rollout) is refused with its saved and given values.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar


def parse_net_arch(text: str) -> list[int]:
    """``"256,256"`` -> ``[256, 256]``; a clear error for anything else."""
    try:
        arch = [int(x) for x in str(text).split(",")]
        if arch and all(x > 0 for x in arch):
            return arch
    except ValueError:
        pass
    raise ValueError(f"--net-arch must be comma-separated positive sizes like 256,256, got {text!r}")


def flag(name: str) -> str:
    """A field's command-line flag: ``batch_size`` -> ``--batch-size``."""
    return "--" + name.replace("_", "-")


@dataclass
class PPOConfig:
    """The settings of a masked PPO run, shared by the trainers (module docstring)."""

    # the game
    rules: str = field(default="standard_en", metadata={"help": "ruleset preset"})
    players: int = field(default=2, metadata={"help": "seats per game (2-10)"})
    opponents: str = field(default="heuristic", metadata={"help": "comma-separated opponent agents (a mix)"})
    episode: str = field(default="round", metadata={"help": "'round' or 'game': what an episode is"})
    observation: str = field(default="", metadata={"help": "observation layout passed to the games (v2, v3; "
                                                         "empty: the env's default)"})
    # the rollout
    n_envs: int = field(default=1024, metadata={"help": "games stepped together"})
    n_steps: int = field(default=16, metadata={"help": "rollout length per game"})
    total_steps: int = field(default=1_000_000, metadata={"help": "learner decisions to train on"})
    # the update
    batch_size: int = field(default=4096, metadata={"help": "minibatch size"})
    n_epochs: int = field(default=4, metadata={"help": "passes over each rollout"})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate"})
    gamma: float = field(default=0.995, metadata={"help": "discount factor"})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda"})
    ent_coef: float = field(default=0.005, metadata={"help": "entropy bonus"})
    vf_coef: float = field(default=0.5, metadata={"help": "value loss weight"})
    clip_range: float = field(default=0.2, metadata={"help": "PPO clip range"})
    max_grad_norm: float = field(default=0.5, metadata={"help": "gradient norm clip"})
    net_arch: str = field(default="256,256", metadata={"help": "hidden sizes of the policy and value MLPs"})
    seed: int = field(default=0, metadata={"help": "seed of games, opponents, network and sampling"})
    # the run
    run_name: str = field(default="", metadata={"help": "folder under --runs-dir (default: derived)"})
    runs_dir: str = field(default="runs", metadata={"help": "parent folder of the runs"})
    checkpoint_every: int = field(default=500_000, metadata={"help": "steps between checkpoints"})
    resume: bool = field(default=False, metadata={"help": "continue runs/NAME from checkpoints/latest.pt"})
    progress: bool = field(default=True, metadata={"help": "show a progress bar (tqdm)"})
    torch_threads: int = field(default=1, metadata={"help": "torch CPU threads (0: torch's default)"})

    PROG: ClassVar[str] = "python -m training"  # the command, for --help
    PREFIX: ClassVar[str] = "ppo"  # the derived run name: PREFIX-RULES-Pp-sSEED
    UNUSED: ClassVar[tuple[str, ...]] = ()  # shared settings this trainer has no use for: no flag, no check
    POSITIVE: ClassVar[tuple[str, ...]] = ("players", "n_envs", "n_steps", "batch_size", "n_epochs",
                                           "checkpoint_every")
    NON_NEGATIVE: ClassVar[tuple[str, ...]] = ("torch_threads",)
    ZERO_IS_OFF: ClassVar[tuple[str, ...]] = ()  # settings whose 0 turns them off (else they must be positive)
    SESSION: ClassVar[tuple[str, ...]] = ("resume", "progress", "torch_threads")  # never taken from a saved run
    # on --resume: RESUMABLE names what may change (the rest must match the saved run), or, when it is None,
    # FIXED names what must match (the rest may change)
    RESUMABLE: ClassVar[tuple[str, ...] | None] = None
    FIXED: ClassVar[tuple[str, ...]] = ("rules", "players", "opponents", "episode", "observation", "n_envs",
                                        "net_arch")

    @property
    def name(self) -> str:
        return self.run_name or f"{self.PREFIX}-{self.rules}-{self.players}p-s{self.seed}"

    @property
    def run_dir(self) -> Path:
        """The run folder (``training.runs``): ``runs_dir/name``."""
        return Path(self.runs_dir) / self.name

    @classmethod
    def may_change(cls, key: str) -> bool:
        """Whether a resumed session may give ``key`` another value than the run's saved one."""
        return key in cls.RESUMABLE if cls.RESUMABLE is not None else key not in cls.FIXED

    @classmethod
    def changeable(cls) -> str:
        """What a resumed session may change, in words (for the error that refuses a change)."""
        if cls.RESUMABLE is not None:
            return "only " + ", ".join(k for k in cls.RESUMABLE if k not in cls.SESSION) + " may change"
        return ", ".join(k for k in cls.FIXED if k not in cls.UNUSED) + " may not change"

    def validate(self) -> None:
        """The checks every trainer shares; a subclass adds its own."""
        from uno_env.core.config import PRESETS
        if self.rules not in PRESETS:
            raise ValueError(f"--rules {self.rules!r} is not a preset; presets are: {', '.join(PRESETS)}")
        for name in self.POSITIVE:
            if name not in self.UNUSED and getattr(self, name) < 1:
                raise ValueError(f"{flag(name)} must be positive, got {getattr(self, name)}")
        for name in self.NON_NEGATIVE:
            if name not in self.UNUSED and getattr(self, name) < 0:
                raise ValueError(f"{flag(name)} must be 0 (off) or positive, got {getattr(self, name)}")
        if not 2 <= self.players <= 10:
            raise ValueError(f"--players must be from 2 to 10, got {self.players}")
        if self.episode not in ("round", "game"):
            raise ValueError(f"--episode must be 'round' or 'game', got {self.episode!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"--learning-rate must be positive, got {self.learning_rate}")
        if not 0 < self.gamma <= 1:
            raise ValueError(f"--gamma must be in (0, 1], got {self.gamma}")
        if not 0 <= self.gae_lambda <= 1:
            raise ValueError(f"--gae-lambda must be in [0, 1], got {self.gae_lambda}")
        for name in ("ent_coef", "vf_coef"):
            if getattr(self, name) < 0:
                raise ValueError(f"{flag(name)} must be 0 or more, got {getattr(self, name)}")
        for name in ("clip_range", "max_grad_norm"):
            if not getattr(self, name) > 0 and not (name in self.ZERO_IS_OFF and getattr(self, name) == 0):
                raise ValueError(f"{flag(name)} must be positive, got {getattr(self, name)}")
        parse_net_arch(self.net_arch)

    # ------------------------------------------------------------------ the command line
    @classmethod
    def parser(cls, description: str = "") -> argparse.ArgumentParser:
        """The command line of the fields (less ``UNUSED``): ``--field-name`` with the field's help text and
        default; booleans as ``--x/--no-x``; lists repeatable; a field's ``aliases`` (metadata) are other
        spellings of its flag.  Only the flags given reach the namespace (``from_args`` fills the rest)."""
        parser = argparse.ArgumentParser(prog=cls.PROG, description=description)
        for f in dataclasses.fields(cls):
            if f.name in cls.UNUSED:
                continue
            flags, helptext = [flag(f.name), *f.metadata.get("aliases", ())], f.metadata["help"]
            kind = f.type if isinstance(f.type, str) else f.type.__name__
            if kind == "bool":
                parser.add_argument(*flags, dest=f.name, action=argparse.BooleanOptionalAction,
                                    default=argparse.SUPPRESS, help=helptext)
            elif kind == "list":
                parser.add_argument(*flags, dest=f.name, action="append", default=argparse.SUPPRESS, help=helptext)
            else:
                parser.add_argument(*flags, dest=f.name, type={"int": int, "float": float, "str": str}[kind],
                                    default=argparse.SUPPRESS, help=f"{helptext} (default: {f.default})")
        return parser

    @classmethod
    def from_args(cls, argv: list[str] | None = None, description: str = ""):
        """The command line as a config; with ``--resume``, what is not given comes from the run's saved config."""
        given = vars(cls.parser(description).parse_args(argv))
        cfg = cls(**given)
        if cfg.resume:
            from training.runs import RunFolder
            saved = RunFolder(cfg.run_dir).saved_config()
            if saved is not None:
                cfg = cls.resumed(given, saved)
        return cfg

    @classmethod
    def resumed(cls, given: dict, saved: dict):
        """The settings of a resumed session: the run's ``saved`` ones (less this session's own, ``SESSION``) with
        the ``given`` ones that may change; a given setting that may not change must equal the saved one.  A
        changed setting stays changed: the run's config is written again with it."""
        for key, value in given.items():
            if not cls.may_change(key) and saved.get(key) != value:
                raise ValueError(f"--resume: run {cls(**given).run_dir} was started with {key}={saved.get(key)!r}, "
                                 f"not {value!r} ({cls.changeable()})")
        names = {f.name for f in dataclasses.fields(cls)}
        keep = {k: v for k, v in saved.items() if k in names and k not in cls.SESSION}
        return cls(**{**keep, **{k: v for k, v in given.items() if cls.may_change(k)}})

    def as_dict(self) -> dict:
        """The settings as saved in the run's ``config.json`` (less the ``UNUSED`` ones)."""
        return {k: v for k, v in dataclasses.asdict(self).items() if k not in self.UNUSED}

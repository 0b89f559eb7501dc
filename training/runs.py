"""The masked PPO family's one run convention: a run folder, its sessions record, and how a run resumes.

A run is a folder, ``runs_dir/NAME/`` (``PPOConfig.run_dir``), whichever trainer writes it:

* ``config.json``: the run's settings (``PPOConfig`` as a dict), written again by every session, so a setting
  changed on ``--resume`` stays changed; ``--resume`` reads the settings not given from it;
* ``checkpoints/latest.*``: what a resume continues from, written atomically (the lean loop's
  ``latest.pt``, MaskablePPO's ``latest.zip``; an RLlib run's checkpoint is the folder itself);
* ``sessions.json``: ``{"steps", "train_seconds", "sessions": [...]}``, one entry per session (a first run or
  a resume): ``start_step``, ``end_step``, ``seconds`` (its wall time) and ``command`` (its arguments),
  written at every checkpoint, so a run killed after a checkpoint still records its time;
* ``agent.json`` + ``agent.pt`` at the end: the policy exported in the shipped-agent format (``agents.load``).

A start refuses a folder that already holds a checkpoint (``--resume`` continues it), and a resume refuses a
folder without ``config.json``; ``PPOConfig.resumed`` decides which settings a resume may change.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

CONFIG = "config.json"
SESSIONS = "sessions.json"


class RunFolder:
    """``path``, the run folder; ``latest``, the checkpoint a resume continues from (``checkpoints/latest.pt``
    unless said: a path relative to the folder, or ``"."`` for a folder that is itself the checkpoint)."""

    def __init__(self, path, latest: str = "checkpoints/latest.pt"):
        self.path = Path(path)
        self.latest = self.path / latest

    @property
    def config_path(self) -> Path:
        return self.path / CONFIG

    @property
    def sessions_path(self) -> Path:
        return self.path / SESSIONS

    def saved_config(self) -> dict | None:
        """The run's saved settings, or None before its first session."""
        return json.loads(self.config_path.read_text()) if self.config_path.is_file() else None

    def has_checkpoint(self) -> bool:
        return self.latest.is_file() if self.latest != self.path else (self.path / "rllib_checkpoint.json").is_file()

    def open(self, cfg) -> dict | None:
        """Start or resume the run of ``cfg`` (a ``PPOConfig``): check that the folder is what ``--resume`` says,
        that the saved settings a resume may not change are ``cfg``'s, and write ``config.json``.  Returns the
        saved settings of a resumed run (None for a new one)."""
        saved = self.saved_config()
        if cfg.resume and saved is None:
            raise ValueError(f"--resume: no run at {self.path} (missing config.json)")
        if not cfg.resume and self.has_checkpoint():
            raise ValueError(f"run {self.path} already exists; pass --resume to continue it or choose --run-name")
        if saved is not None and cfg.resume:
            mine = cfg.as_dict()
            for key, value in saved.items():
                if key in mine and not cfg.may_change(key) and mine[key] != value:
                    raise ValueError(f"--resume: run {self.path} was started with {key}={value!r}, not "
                                     f"{mine[key]!r} ({cfg.changeable()})")
        (self.latest.parent if self.latest != self.path else self.path).mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(json.dumps(cfg.as_dict(), indent=1))
        return saved if cfg.resume else None

    def read_sessions(self) -> list[dict]:
        """The sessions recorded so far (none before the first checkpoint)."""
        if not self.sessions_path.is_file():
            return []
        return list(json.loads(self.sessions_path.read_text())["sessions"])

    def write_sessions(self, steps: int, sessions: list[dict]) -> float:
        """Write ``sessions.json`` (each session's steps, wall time and command) and return the run's
        training seconds so far."""
        total_seconds = round(sum(s["seconds"] for s in sessions), 1)
        self.sessions_path.write_text(json.dumps({"steps": steps, "train_seconds": total_seconds,
                                                  "sessions": sessions}, indent=1))
        return total_seconds


class Session:
    """This session's entry in a run's ``sessions`` (appended to it): from ``start_step``, with the command's
    arguments; ``update(step)`` moves its end and its wall time on, counted from its creation."""

    def __init__(self, sessions: list[dict], start_step: int, command: str | None = None, **extra):
        self.record = {"start_step": int(start_step), "end_step": int(start_step), "seconds": 0.0,
                       "command": " ".join(sys.argv[1:]) if command is None else command, **extra}
        sessions.append(self.record)
        self.t0 = time.time()

    def update(self, step: int) -> None:
        self.record["end_step"], self.record["seconds"] = int(step), round(time.time() - self.t0, 1)

    @property
    def seconds(self) -> float:
        return self.record["seconds"]


def sessions_until(sessions: list[dict], steps: int) -> list[dict]:
    """A run's sessions (steps, seconds, command of each) up to a snapshot at ``steps``; the session the
    snapshot cuts counts its seconds pro rata."""
    cut = []
    for s in sessions:
        if s["start_step"] < steps:
            share = (min(s["end_step"], steps) - s["start_step"]) / max(1, s["end_step"] - s["start_step"])
            cut.append(dict(s, end_step=min(s["end_step"], steps), seconds=round(s["seconds"] * share, 1)))
    return cut

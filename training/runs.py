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

Ctrl-C (SIGINT) or ``kill`` (SIGTERM) stops a run cleanly (``StopSignal``): it finishes the update in progress,
writes its checkpoint and ``sessions.json``, says where, and exits with 130 or 143 (``Interrupted``); a second
signal stops it at once.  Running the same command again then continues it: a start on a folder whose run was
interrupted (a checkpoint, no finished product) with the same settings is a resume, and says so.  A start with
other settings is refused (``--resume`` continues it with those that may change), as is a start over a finished
run; a resume refuses a folder without ``config.json``.  ``PPOConfig.resumed`` decides which settings a resume
may change.
"""

from __future__ import annotations

import dataclasses
import json
import signal
import sys
import threading
import time
from pathlib import Path

CONFIG = "config.json"
SESSIONS = "sessions.json"


class RunFolder:
    """``path``, the run folder; ``latest``, the checkpoint a resume continues from (``checkpoints/latest.pt``
    unless said: a path relative to the folder, or ``"."`` for a folder that is itself the checkpoint);
    ``finished(folder)`` whether its run has ended (default: it exported ``agent.json``)."""

    def __init__(self, path, latest: str = "checkpoints/latest.pt", finished=None):
        self.path = Path(path)
        self.latest = self.path / latest
        self._finished = finished or (lambda folder: (folder.path / "agent.json").is_file())

    def finished(self) -> bool:
        """Whether the run has ended (its product written); a run with a checkpoint that has not was interrupted."""
        return bool(self._finished(self))

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
            changed = differences(cfg, saved or {})
            if saved is None or self.finished() or changed:
                how = "it has finished" if self.finished() or saved is None else \
                    f"interrupted at step {self.steps():,}, started with " + \
                    ", ".join(f"{k}={old!r}, not {new!r}" for k, old, new in changed[:3])
                raise ValueError(f"run {self.path} already exists; pass --resume to continue it or choose "
                                 f"--run-name ({how})")
            cfg.resume = True  # the same command again: an interrupted run goes on
            print(f"{self.path} was interrupted at step {self.steps():,}: continuing it (the same command, or "
                  f"--resume, does)", flush=True)
        elif not cfg.resume and saved is not None:
            print(f"note: {self.path} holds no checkpoint (its run stopped before writing one): starting it from "
                  f"step 0", flush=True)
        if saved is not None and cfg.resume:
            mine = cfg.as_dict()
            for key, value in saved.items():
                if key in mine and not cfg.may_change(key) and mine[key] != value:
                    raise ValueError(f"--resume: run {self.path} was started with {key}={value!r}, not "
                                     f"{mine[key]!r} ({cfg.changeable()})")
        (self.latest.parent if self.latest != self.path else self.path).mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(json.dumps(cfg.as_dict(), indent=1))
        return saved if cfg.resume else None

    def steps(self) -> int:
        """The steps recorded in ``sessions.json`` (0 before the first checkpoint)."""
        return int(json.loads(self.sessions_path.read_text())["steps"]) if self.sessions_path.is_file() else 0

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


def differences(cfg, saved: dict) -> list[tuple[str, object, object]]:
    """``(setting, saved, given)`` for each setting where ``cfg`` (a ``PPOConfig``) differs from the run's
    ``saved`` ones, this session's own (``SESSION``) aside: none for the same command run again.  A setting added
    since the run was saved counts as its default then."""
    mine = cfg.as_dict()
    then = {f.name: f.default if f.default is not dataclasses.MISSING else f.default_factory()
            for f in dataclasses.fields(cfg)
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING}
    keys = sorted((set(mine) | set(saved)) - set(cfg.SESSION))
    return [(k, saved.get(k, then.get(k)), mine.get(k)) for k in keys if mine.get(k) != saved.get(k, then.get(k))]


class Interrupted(Exception):
    """A run stopped by a signal once its checkpoint and sessions record were written; ``exit_code`` is the
    shell's for that signal (130 for SIGINT, 143 for SIGTERM)."""

    def __init__(self, run: Path, step: int | None, signum: int):
        self.run, self.step, self.exit_code = Path(run), step, 128 + int(signum)
        at = f" at step {step:,}" if step is not None else ""
        super().__init__(f"stopped by {signal.Signals(signum).name}{at}: the checkpoint and sessions record are in "
                         f"{run}; run the same command again to continue")


def run_command(prog: str, train, errors: tuple = (ValueError, FileNotFoundError)) -> int:
    """A trainer's command: ``train()``, with a bad setting (one of ``errors``) as one line and exit 2, a signal's
    stop (``Interrupted``: checkpointed) as one line and the signal's exit code, a second Ctrl-C as 130."""
    try:
        train()
    except errors as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except Interrupted as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:  # before or after the training loop, or a second Ctrl-C in it: no new checkpoint
        print(f"{prog}: stopped at once; the same command goes on from the run's last checkpoint, if it has one",
              file=sys.stderr)
        return 130
    return 0


class StopSignal:
    """Within ``with StopSignal() as stop:``, SIGINT (Ctrl-C) and SIGTERM (``kill``) ask the run to stop
    (``bool(stop)``, ``stop.signum``) at its next consistent point, where it writes its checkpoint and sessions
    record and raises ``Interrupted``; a second signal stops it at once (``KeyboardInterrupt``, no checkpoint).
    The handlers before are restored on leaving.  Outside the main thread (where Python takes no signal
    handlers) it does nothing."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, say=None):
        self.signum: int | None = None
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self._before: dict = {}

    def __bool__(self) -> bool:
        return self.signum is not None

    def _handle(self, signum, frame) -> None:
        if self.signum is not None:
            raise KeyboardInterrupt
        self.signum = signum
        self.say(f"\n{signal.Signals(signum).name}: finishing the update in progress, then writing a checkpoint "
                 f"(a second signal stops at once, without one)")

    def __enter__(self) -> StopSignal:
        if threading.current_thread() is threading.main_thread():
            self._before = {s: signal.signal(s, self._handle) for s in self.SIGNALS}
        return self

    def __exit__(self, *exc) -> None:
        for s, handler in self._before.items():
            signal.signal(s, handler)
        self._before = {}

    def interrupted(self, run: Path, step: int | None = None) -> Interrupted:
        """The exception to raise once the checkpoint is written."""
        return Interrupted(run, step, self.signum or signal.SIGINT)


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

"""Export a training checkpoint as a shipped agent: ``agents/models/NAME.json`` + ``NAME.pt``.

The JSON records what the policy was trained for (rules, players, the env version and layout
fingerprints that ``agents.load`` checks), the run's configuration, the command that trained it, the
steps and wall time, and where it came from; the weights are a plain state dict, read back with
``torch.load(weights_only=True)``.

    python -m training.ship --run runs/std2p --checkpoint step_8000000 --name ppo-standard_en-2p \\
        --train-seconds 6400 --command "python -m training.train_ppo ..."

A ``training.ppo_lean`` run ships one of its snapshots (``--checkpoint snapshots/step_N``, or ``agent``, the
network it ended with: a clone-only run's, ``--total-steps 0``); its sessions
(steps, wall time and command of each) come from the run's checkpoint, and ``--evaluations FILE`` adds
the JSON lines of the evaluations that chose it, and ``--colour-average`` records that ``agents.load`` plays it
averaged over the 24 colour renamings (``"play": "colour_average"``, as ``training.soup`` does).  A fine-tune
(a run with ``--init-agent``) records the network it started from under ``started_from``, read before the new one
may take its name.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from training.runs import sessions_until
from uno_env import extras

MODELS = Path(__file__).resolve().parent.parent / "agents" / "models"


def read_evaluations(path: Path | None) -> list | None:
    """The JSON lines of ``--evaluations`` (the evaluations that chose an agent), or None without a file."""
    if path is None:
        return None
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def ship(run: Path, checkpoint: str, name: str, command: str, train_seconds: float | None,
         out_dir: Path = MODELS, evaluations: list | None = None, play: str | None = None) -> Path:
    """Export ``run``'s ``checkpoint`` as ``out_dir/name``; ``play="colour_average"`` records that
    ``agents.load`` plays it averaged over the colour renamings (``agents.symmetry``)."""
    from sb3_contrib import MaskablePPO

    from agents.policy import PolicyAgent
    from uno_env import VecGame

    cfg_path = run / "config.json"
    if not cfg_path.exists():
        raise FileNotFoundError(f"no run at {run} (missing config.json)")
    cfg = json.loads(cfg_path.read_text())
    if (run / f"{checkpoint}.json").is_file():  # a ppo_lean snapshot
        return ship_snapshot(run, checkpoint, name, command, train_seconds, out_dir, cfg, evaluations, play)
    if play is not None:
        raise ValueError(f"--colour-average ships a ppo_lean network ({run / checkpoint}.json); {checkpoint!r} "
                         f"is a train_ppo checkpoint: ship it, then load it as NAME~colours")
    if evaluations is not None:
        raise ValueError(f"--evaluations is for ppo_lean snapshots (snapshots/step_N); {checkpoint!r} is a "
                         f"train_ppo checkpoint, whose evaluations come from the run's eval.jsonl")
    ckpt = run / "checkpoints" / (checkpoint if checkpoint.endswith(".zip") else checkpoint + ".zip")
    if not ckpt.exists():
        have = sorted(p.name for p in (run / "checkpoints").glob("*.zip"))
        raise FileNotFoundError(f"no checkpoint {ckpt.name} in {run / 'checkpoints'}; there are {have}")
    model = MaskablePPO.load(str(ckpt), device="cpu")
    game = VecGame(cfg["rules"], cfg["players"], observation="v3")  # the layout it was trained on: v3, or v2
    if model.observation_space.shape != (game.observation_size,):
        game = VecGame(cfg["rules"], cfg["players"], observation="v2")
    if model.observation_space.shape != (game.observation_size,):
        raise ValueError(f"{ckpt} takes observations of size {model.observation_space.shape}, but "
                         f"{cfg['rules']} with {cfg['players']} players has ({game.observation_size},)")
    agent = PolicyAgent(model.policy, name=name)
    steps = int(model.num_timesteps)
    if train_seconds is None and (run / "sessions.json").is_file():  # the run's sessions up to the checkpoint
        done = sessions_until(json.loads((run / "sessions.json").read_text())["sessions"], steps)
        train_seconds = round(sum(s["seconds"] for s in done), 1) if done else None
    evals = []
    if (run / "eval.jsonl").exists():
        evals = [json.loads(line) for line in (run / "eval.jsonl").read_text().splitlines() if line.strip()]
    return agent.export(out_dir / name, game, extra={
        "trained_steps": steps, "train_seconds": train_seconds, "command": command,
        "checkpoint": ckpt.name, "args": cfg, "training_evaluations": evals})


def started_from(init_agent: str, out_dir: Path = MODELS) -> dict | None:
    """What a fine-tune started from (its run's ``--init-agent``), read before shipping may overwrite it: the
    network's name, fingerprint, steps and wall time, so that the "before" of a replaced agent stays findable."""
    if not init_agent:
        return None
    by_path = init_agent.endswith((".json", ".pt"))
    path = Path(init_agent).with_suffix(".json") if by_path else out_dir / f"{init_agent}.json"
    if not path.is_file():
        return None
    before = json.loads(path.read_text())
    weights = hashlib.sha256(path.with_suffix(".pt").read_bytes()).hexdigest()[:16]
    return {"agent": init_agent, "weights_sha256": weights,
            "trained_steps": before.get("trained_steps"), "train_seconds": before.get("train_seconds"),
            "trainer": before.get("trainer")}


def ship_snapshot(run: Path, snapshot: str, name: str, command: str, train_seconds: float | None,
                  out_dir: Path, cfg: dict, evaluations: list | None = None, play: str | None = None) -> Path:
    """Ship a ``training.ppo_lean`` snapshot (``snapshots/step_N``) with its run's sessions up to it."""
    import torch

    from agents.policy import PolicyAgent
    from uno_env import VecGame

    meta = json.loads((run / f"{snapshot}.json").read_text())
    game = VecGame(meta["rules"], meta["players"], observation=meta.get("observation", "v2"), **meta["options"])
    agent = PolicyAgent.load(run / snapshot, game=game, name=name)
    steps = int(meta["trained_steps"])
    sessions = []
    latest = run / "checkpoints" / "latest.pt"
    if latest.exists():  # the sessions that led to this snapshot (a run's own checkpoint: trusted)
        state = torch.load(latest, map_location="cpu", weights_only=False)
        sessions = sessions_until(state["sessions"], steps)
    # a run that began by cloning (``--distill``): any of its snapshots ships the report, its seconds count too
    cloned = json.loads((run / "distill.json").read_text()) if (run / "distill.json").is_file() else None
    if train_seconds is None and (sessions or cloned):
        train_seconds = round(sum(s["seconds"] for s in sessions) + (cloned or {}).get("seconds", 0.0), 1)
    origin = started_from(cfg.get("init_agent") or "", out_dir)
    return agent.export(out_dir / name, game, extra={
        **({"started_from": origin} if origin else {}),
        "trained_steps": steps, "train_seconds": train_seconds, "trainer": meta.get("trainer", "training.ppo_lean"),
        "command": command or "python -m training.ppo_lean " + (sessions[0]["command"] if sessions else ""),
        "checkpoint": snapshot, "args": cfg, "sessions": sessions, "training_evaluations": evaluations or [],
        "distill": cloned, **({"play": play} if play else {})})


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.ship", description=__doc__.split("\n\n")[0])
    p.add_argument("--run", type=Path, required=True, help="the run folder (runs/NAME)")
    p.add_argument("--checkpoint", default="latest", help="checkpoint name in runs/NAME/checkpoints")
    p.add_argument("--name", required=True, help="the agent's name (agents.load(NAME))")
    p.add_argument("--command", default="", help="the command that trained it (recorded)")
    p.add_argument("--train-seconds", type=float, default=None, help="training wall time (recorded)")
    p.add_argument("--out-dir", type=Path, default=MODELS, help="where NAME.json and NAME.pt go")
    p.add_argument("--evaluations", type=Path, default=None,
                   help="a ppo_lean snapshot: JSON lines of the evaluations that chose it (recorded)")
    p.add_argument("--colour-average", action="store_true",
                   help="record that agents.load plays it averaged over the colour renamings (agents.symmetry)")
    args = p.parse_args(argv)
    from agents import PLAY_COLOUR_AVERAGE

    try:
        path = ship(args.run, args.checkpoint, args.name, args.command, args.train_seconds, args.out_dir,
                    read_evaluations(args.evaluations), PLAY_COLOUR_AVERAGE if args.colour_average else None)
    except (FileNotFoundError, ValueError) as exc:
        print(f"ship: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path} and {path.with_suffix('.pt')}")
    return 0


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

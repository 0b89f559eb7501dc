"""Export a training checkpoint as a shipped agent: ``agents/models/NAME.json`` + ``NAME.pt``.

The JSON records what the policy was trained for (rules, players, the env version and layout
fingerprints that ``agents.load`` checks), the run's configuration, the command that trained it, the
steps and wall time, and where it came from; the weights are a plain state dict, read back with
``torch.load(weights_only=True)``.

    python -m training.ship --run runs/std2p --checkpoint step_8000000 --name ppo-standard_en-2p \\
        --train-seconds 6400 --command "python -m training.train_ppo ..."
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent / "agents" / "models"


def ship(run: Path, checkpoint: str, name: str, command: str, train_seconds: float | None,
         out_dir: Path = MODELS) -> Path:
    from sb3_contrib import MaskablePPO

    from agents.policy import PolicyAgent
    from uno_env import VecGame

    cfg_path = run / "config.json"
    if not cfg_path.exists():
        raise FileNotFoundError(f"no run at {run} (missing config.json)")
    cfg = json.loads(cfg_path.read_text())
    ckpt = run / "checkpoints" / (checkpoint if checkpoint.endswith(".zip") else checkpoint + ".zip")
    if not ckpt.exists():
        have = sorted(p.name for p in (run / "checkpoints").glob("*.zip"))
        raise FileNotFoundError(f"no checkpoint {ckpt.name} in {run / 'checkpoints'}; there are {have}")
    model = MaskablePPO.load(str(ckpt), device="cpu")
    game = VecGame(cfg["rules"], cfg["players"], observation="v3")  # the layout it was trained on: v3, or v2
    if model.observation_space.shape != (game.observation_size,):
        game = VecGame(cfg["rules"], cfg["players"])
    if model.observation_space.shape != (game.observation_size,):
        raise ValueError(f"{ckpt} takes observations of size {model.observation_space.shape}, but "
                         f"{cfg['rules']} with {cfg['players']} players has ({game.observation_size},)")
    agent = PolicyAgent(model.policy, name=name)
    steps = int(model.num_timesteps)
    evals = []
    if (run / "eval.jsonl").exists():
        evals = [json.loads(line) for line in (run / "eval.jsonl").read_text().splitlines() if line.strip()]
    return agent.export(out_dir / name, game, extra={
        "trained_steps": steps, "train_seconds": train_seconds, "command": command,
        "checkpoint": ckpt.name, "args": cfg, "training_evaluations": evals})


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.ship", description=__doc__.split("\n\n")[0])
    p.add_argument("--run", type=Path, required=True, help="the run folder (runs/NAME)")
    p.add_argument("--checkpoint", default="latest", help="checkpoint name in runs/NAME/checkpoints")
    p.add_argument("--name", required=True, help="the agent's name (agents.load(NAME))")
    p.add_argument("--command", default="", help="the command that trained it (recorded)")
    p.add_argument("--train-seconds", type=float, default=None, help="training wall time (recorded)")
    p.add_argument("--out-dir", type=Path, default=MODELS, help="where NAME.json and NAME.pt go")
    args = p.parse_args(argv)
    try:
        path = ship(args.run, args.checkpoint, args.name, args.command, args.train_seconds, args.out_dir)
    except (FileNotFoundError, ValueError) as exc:
        print(f"ship: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path} and {path.with_suffix('.pt')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

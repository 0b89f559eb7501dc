"""A run's learning curve from its TensorBoard scalars: the learner's mean training win rate per N steps.

    python -m training.curve runs/recipe-ppo-flip_jp-2p/flip2p --agent ppo-flip_jp-2p \\
        --out results/v3_agents/run_records/flip2p/curve.json

``ppo_lean`` writes ``rollout/win_rate`` (the share of the rollout's finished rounds the learner won, sampled
play against its training opponents) to ``RUN/tb`` after every rollout.  This groups the rollouts into
windows of ``--every`` steps (500,000 by default) and averages each window: a learning curve, not a held-out
figure (the published figures come from ``training.evaluate`` on seeds kept apart).  A resumed run may have
written rollouts past its last checkpoint before it was stopped and then written those steps again: for a
step written twice the later write counts.  TensorBoard's own reader (``EventAccumulator``) reads the files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from uno_env import extras

TAG = "rollout/win_rate"
EVERY = 500_000


def rollouts(tb: Path) -> list[tuple[int, float]]:
    """``(step, win rate)`` of every rollout in ``tb``, by step, the last write of a step kept."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    acc = EventAccumulator(str(tb), size_guidance={"scalars": 0})  # 0: keep every event, not a sample
    acc.Reload()
    if TAG not in acc.Tags()["scalars"]:
        raise ValueError(f"no {TAG!r} scalars under {tb} (a ppo_lean run's tb folder has them)")
    latest: dict[int, tuple[float, float]] = {}
    for ev in acc.Scalars(TAG):
        if ev.step not in latest or ev.wall_time >= latest[ev.step][0]:
            latest[ev.step] = (ev.wall_time, ev.value)
    return [(step, latest[step][1]) for step in sorted(latest)]


def windows(points: list[tuple[int, float]], every: int = EVERY) -> list[dict]:
    """The mean win rate of the rollouts ending in each window ``(k * every, (k + 1) * every]``; the last
    window ends at the last rollout."""
    if every <= 0:
        raise ValueError(f"every must be a positive number of steps, got {every}")
    out: list[dict] = []
    for step, value in points:
        end = -(-step // every) * every
        if not out or out[-1]["steps_to"] != end:
            out.append({"steps_to": end, "rollouts": 0, "total": 0.0})
        out[-1]["rollouts"] += 1
        out[-1]["total"] += value
    if out and points:
        out[-1]["steps_to"] = min(out[-1]["steps_to"], points[-1][0])
    return [{"steps_to": w["steps_to"], "rollouts": w["rollouts"],
             "training_win_rate": round(w["total"] / w["rollouts"], 4)} for w in out]


def curve(run: Path, agent: str, opponents: str = "heuristic", every: int = EVERY) -> dict:
    points = rollouts(Path(run) / "tb")
    return {"agent": agent, "run": Path(run).name,
            "about": f"mean win rate of the learner's training rounds (sampled play, against {opponents}, renamed "
                     f"colours where the recipe says) over each {every:,} steps: a learning curve, not a held-out "
                     "figure",
            "curve": windows(points, every)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.curve", description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path, help="a ppo_lean run folder (holding tb/)")
    parser.add_argument("--agent", required=True, help="the agent the run trains (written into the curve)")
    parser.add_argument("--opponents", default="heuristic", help="its training opponents, for the description")
    parser.add_argument("--every", type=int, default=EVERY, help=f"steps per window (default {EVERY:,})")
    parser.add_argument("--out", type=Path, default=None, help="the JSON file (default: print it)")
    args = parser.parse_args(argv)
    try:
        data = curve(args.run, args.agent, args.opponents, args.every)
    except ValueError as exc:
        print(f"curve: error: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(data, indent=1) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        w = data["curve"]
        print(f"{args.out}: {len(w)} windows, {w[0]['training_win_rate']:.1%} -> {w[-1]['training_win_rate']:.1%}"
              if w else f"{args.out}: no rollouts")
    return 0


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

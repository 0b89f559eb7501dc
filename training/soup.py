"""Average the weights of policies fine-tuned from one parent: a model soup (Wortsman et al., 2022).

Runs of PPO started from the same trained policy with other seeds (``training.ppo_lean --init-agent
PARENT --seed N``) end near each other in weight space, each a little off in its own direction; the mean
of their weights plays like the mean of their action probabilities (``agents.load("a+b+c")``), in one
network of the same size, with no cloning. Policies trained apart from different starts do not average:
their hidden units do not line up, and the soup of two strangers plays worse than either.

    python -m training.soup ppo-standard_en-2p runs/m2p-s101/snapshots/step_4030464 \\
        runs/m2p-s202/snapshots/step_4030464 --out runs/soup-2p

writes ``runs/soup-2p.json`` and ``.pt``: an exported policy like any other (``agents.load``, ``--init-agent``,
``uno play``), whose JSON lists its members with their steps, wall time and the command of each.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from training.ship import MODELS, read_evaluations, sessions_until
from uno_env import extras

# what every member must share for their weights to be averaged as one network
SAME = ("env_version", "observation", "observation_size", "observation_fingerprint", "num_actions",
        "action_fingerprint", "rules", "options", "players", "net_arch", "activation")


def _member(name_or_path: str) -> tuple[Path, dict]:
    import agents
    kind, path = agents.locate(name_or_path)
    if kind != "export":
        raise ValueError(f"a soup averages exported policies (NAME.json + NAME.pt, or a shipped name); "
                         f"{name_or_path!r} is {'a ' + kind if kind != 'unknown' else 'not an agent'}")
    return path, json.loads(path.read_text())


def _record(given: str, path: Path, meta: dict) -> dict:
    """What the soup keeps of a member: where it came from, its steps, seconds and command."""
    run = path.parent.parent if path.parent.name == "snapshots" else None
    seconds, command = meta.get("train_seconds"), meta.get("command")
    if seconds is None and run is not None and (run / "sessions.json").is_file():  # a ppo_lean snapshot
        sessions = sessions_until(json.loads((run / "sessions.json").read_text())["sessions"],
                                  int(meta.get("trained_steps") or 0))
        if sessions:
            seconds = sum(s["seconds"] for s in sessions)
            command = command or "python -m training.ppo_lean " + sessions[0]["command"]
    args = meta.get("args") if isinstance(meta.get("args"), dict) else {}
    return {"member": given, "name": meta.get("name"),
            "trained_steps": meta.get("trained_steps"),
            "train_seconds": None if seconds is None else round(float(seconds), 1),
            "init_agent": args.get("init_agent"), "seed": args.get("seed"), "command": command}


def soup(members: list[str], out: str | Path, name: str | None = None, evaluations: list | None = None,
         command: str = "", play: str | None = None) -> Path:
    """Write the uniform weight average of ``members`` to ``out.json`` / ``out.pt``; returns the json path.
    ``play="colour_average"`` records that ``agents.load`` plays it averaged over colour renamings."""
    import torch

    from agents.policy import PolicyAgent
    from uno_env import VecGame

    if len(members) < 2:
        raise ValueError(f"a soup needs at least two policies, got {len(members)}")
    found = [_member(m) for m in members]
    first = found[0][1]
    for (_path, meta), given in zip(found[1:], members[1:]):
        differ = [k for k in SAME if meta.get(k) != first.get(k)]
        if differ:
            k = differ[0]
            raise ValueError(f"{given!r} has {k} {meta.get(k)!r}, {members[0]!r} has {first.get(k)!r}: a soup "
                             f"averages networks of one shape trained for one game")
    # read every member before writing: the soup may replace one of them (a shipped name)
    states = [torch.load(p.with_suffix(".pt"), map_location="cpu", weights_only=True) for p, _ in found]
    mean = {k: (sum(s[k].double() for s in states) / len(states)).to(states[0][k].dtype) for k in states[0]}
    records = [_record(given, p, meta) for given, (p, meta) in zip(members, found)]
    game = VecGame(first["rules"], first["players"], observation=first.get("observation", "v2"), **first["options"])
    agent = PolicyAgent.load(found[0][0], game=game)
    agent.policy.load_state_dict(mean)
    out = Path(out).with_suffix("")
    seconds = [r["train_seconds"] for r in records]
    return agent.export(out, game, extra={
        "name": name or out.name,
        "trained_steps": sum(int(r["trained_steps"] or 0) for r in records),
        "train_seconds": None if None in seconds else round(sum(seconds), 1),
        "trainer": "training.soup",
        "command": command or "python -m training.soup " + " ".join(members) + f" --out {out}",
        "soup_of": records, "training_evaluations": evaluations or [], **({"play": play} if play else {})})


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.soup", description=__doc__.split("\n\n")[0])
    p.add_argument("members", nargs="+", help="exported policies (shipped names or NAME.json paths) to average")
    p.add_argument("--out", required=True, help=f"where OUT.json and OUT.pt go (a shipped agent: {MODELS}/NAME)")
    p.add_argument("--name", default=None, help="the agent's name (default: OUT's file name)")
    p.add_argument("--evaluations", type=Path, default=None,
                   help="JSON lines of the evaluations that chose it (recorded)")
    p.add_argument("--command", default="", help="the commands that made it, members included (recorded)")
    p.add_argument("--colour-average", action="store_true",
                   help="record that agents.load plays it averaged over the colour renamings (agents.symmetry)")
    args = p.parse_args(argv)
    from agents import PLAY_COLOUR_AVERAGE

    try:
        path = soup(args.members, args.out, args.name, read_evaluations(args.evaluations), args.command,
                    PLAY_COLOUR_AVERAGE if args.colour_average else None)
    except (FileNotFoundError, ValueError) as exc:
        print(f"soup: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path} and {path.with_suffix('.pt')}")
    return 0


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

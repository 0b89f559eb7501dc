"""Would a trained agent do better if one kind of its decisions were taken by another rule?  The agent with a
teacher's choices grafted on at play time, measured in one lineup.

    python -m research.graft ppo-flip_jp-4p --teacher heuristic --where challenge --teacher-param bluff_rate=0.05 \\
        --opponent heuristic-always-wd4 --rules flip_jp --players 4 --rounds 10000 --seed 50000000

On the decisions where an action of a ``--where`` type is legal (``uno_env.core.actions.ACTION_TYPES``) the
teacher decides, on all the others the agent.  The lineup is the robustness table's: the grafted agent, then
``--opponent`` in the next seat, then ``--others`` (``heuristic``) in the rest; seats rotated.  It prints one JSON
line (wins, win rate, 95% interval).  This is how the challenge rule cloned into ``ppo-flip_jp-4p`` was chosen
(``results/league/README.md``): before training anything, it says what a decision rule is worth to the agent.
``--teacher-param KEY=VALUE`` sets one of a scripted teacher's weights (``agents.bots.HeuristicAgent.DEFAULTS``).
Seeds: use the ``training`` range (``training/seeds.py``), never the ranges that publish figures.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from uno_env.core.actions import ACTION_TYPES


class Grafted:
    """``agent``'s play, but ``teacher``'s on the decisions where an action of the ``kinds`` (action type ids) is
    legal."""

    def __init__(self, agent, teacher, kinds: list[int], game, name: str):
        self.agent, self.teacher, self.name = agent, teacher, name
        self.observation = "v3"  # a v3 game serves every layout (v2 is its first part)
        self.taught = np.isin(game.engine.actions.kind, kinds)  # (A,)

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        obs, mask = np.asarray(observations), np.asarray(action_masks, bool)
        out = np.asarray(self.agent.act(obs, mask, rng), np.int64).copy()
        rows = (mask & self.taught[None, :]).any(1)
        if rows.any():
            out[rows] = self.teacher.act(obs[rows], mask[rows])
        return out


def graft(agent: str, teacher: str, where: list[str], game, params: dict | None = None) -> Grafted:
    """``Grafted`` from names (``agents.load``), with ``params`` set on the teacher's weights."""
    import agents

    bad = [w for w in where if w not in ACTION_TYPES]
    if not where or bad:
        raise ValueError(f"--where takes action types ({', '.join(ACTION_TYPES)}); got {where!r}")
    taught = agents.load(teacher, game=game)
    for key, value in (params or {}).items():
        if key not in getattr(taught, "p", {}):
            raise ValueError(f"--teacher-param {key}: {teacher!r} has no such weight; its weights are "
                             f"{sorted(getattr(taught, 'p', {}))}")
        taught.p[key] = value
    extra = "".join(f" {k}={v}" for k, v in (params or {}).items())
    return Grafted(agents.load(agent, game=game), taught, [ACTION_TYPES.index(w) for w in where], game,
                   name=f"{agent} + {teacher}{extra} on {','.join(where)}")


def measure(agent: str, teacher: str, where: list[str], opponent: str, rules: str, players: int, rounds: int,
            seed: int, others: str = "heuristic", params: dict | None = None) -> dict:
    """The grafted agent's result in ``[grafted, opponent, others...]``, ``rounds`` seat-rotated rounds."""
    from training.evaluate import play_match
    from uno_env import VecGame

    grafted = graft(agent, teacher, where, VecGame(rules, players, batch_size=1), params)
    lineup = [grafted, opponent] + [others] * (players - 2)
    e = play_match(lineup, rules, players, rounds, seed=seed, ratings=False).entries[0]
    return {"agent": agent, "teacher": teacher, "teacher_params": params or {}, "where": where,
            "lineup": ["grafted", opponent] + [others] * (players - 2), "rules": rules, "players": players,
            "rounds": rounds, "seed": seed, "wins": int(e.wins), "win_rate": e.win_rate,
            "ci95": [round(x, 4) for x in e.ci95]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.graft", description=__doc__.split("\n")[0])
    parser.add_argument("agent", help="the trained agent (a name or a path)")
    parser.add_argument("--teacher", default="heuristic", help="who takes the grafted decisions")
    parser.add_argument("--where", default="challenge", help="comma list of action types the teacher decides")
    parser.add_argument("--teacher-param", action="append", default=[], metavar="KEY=VALUE",
                        help="one of a scripted teacher's weights (repeatable)")
    parser.add_argument("--opponent", default="heuristic", help="the player in the seat after the agent's")
    parser.add_argument("--others", default="heuristic", help="the players in the other seats")
    parser.add_argument("--rules", default="standard_en")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=50_000_000, help="a seed of the training range")
    args = parser.parse_args(argv)
    params = {}
    for item in args.teacher_param:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--teacher-param must be KEY=VALUE, got {item!r}")
        params[key] = json.loads(value)
    import torch
    torch.set_num_threads(1)
    try:
        line = measure(args.agent, args.teacher, [w.strip() for w in args.where.split(",") if w.strip()],
                       args.opponent, args.rules, args.players, args.rounds, args.seed, args.others, params)
    except ValueError as exc:
        parser.error(str(exc))
    print(json.dumps(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

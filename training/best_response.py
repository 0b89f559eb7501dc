"""How exploitable is an agent?  Train a masked PPO best response against it, frozen, and measure what it wins.

    python -m training.best_response ppo-standard_en-2p --rules standard_en      # the calibrated setting
    python -m training.best_response greedy --rules house_cn                      # any entrant, any preset
    python -m training.best_response greedy --rules house_cn --total-steps 2097152  # resumes, trains on

**The calibrated setting** (``CALIBRATED``, the defaults; the leaderboard's best-response column shows only
figures measured with it): the learner starts from the preset's shipped agent for that table size
(``ppo-RULES-Np``; against that agent itself, from its own weights), trains on renamed colours and plays
averaged over them (``--colours``, one-sided decks), on rollouts of 2,048 games x 32 decisions, minibatches of
16,384, learning rate 2e-4, entropy 0.001, undiscounted, for 1,048,576 samples.

Why this one: a best response is a lower bound, only as good as its learner, so it was first run where the
answer is known.  ``heuristic-no-uno`` (``agents.flawed``: it never declares UNO, so it can always be caught)
loses 89.6% of its rounds to ``heuristic`` but only 68.5% to ``ppo-standard_en-2p``, which takes fewer than half
of the catches it is offered (2 players, 20,000 rounds each on the leaderboard's deals): a known gap of 21.1
points.  Started from the agent, at 1,048,576 samples, the learner recovered:

* at learning rate 5e-5 (the setting of the earlier figures): 79.4% (78.9-80.0), **52%** of the gap;
* at learning rate 2e-4: **90.5%** (90.1-90.9), **104%** of the gap (it catches as ``heuristic`` does).

The same hole in ``ppo-standard_ru-2p`` (70.2% against ``heuristic-no-uno``, reference 92.7%: a 22.5-point gap),
at 2e-4 and 1,048,576 samples: **93.7%** (93.4-94.0), **105%** of the gap; in ``ppo-house_cn-2p`` (75.0% against a
89.5% reference): **90.0%** (89.6-90.4), **103%**; in ``ppo-flip_jp-2p`` (64.4% against 87.9%): **87.5%**
(87.0-87.9), **98%**, and against ``heuristic-always-wd4`` (73.0% against 74.7%): **76.5%** (75.9-77.1), past the
reference.  (The standard_en and standard_ru agents measured here are the networks shipped before their league
fine-tunes, which closed these holes.)

(20,000 rounds each on the best-response check seeds, from 600,000,000; ``results/leaderboard/calibration.jsonl``
holds every calibration run, and the leaderboard page shows each with its gap.)  A figure from another setting is
kept in ``results/leaderboard/best_response.jsonl`` and listed on the page, marked as such, but not shown in
the column.

The learner is ``training.ppo_lean``'s (its loop, its network, its opponent mechanism: AGENT plays every other
seat of every game, as it loads with ``agents.load``, and does not learn).  The run goes to
``runs/best_response/br-AGENT-RULES-Np[-warm|-from-START][-colours]/`` and is resumable like any ``ppo_lean``
run: the same command after an interruption continues it, and a larger ``--total-steps`` trains the same learner
further.  It trains on seeds of ``training.seeds.BEST_RESPONSE_TRAINING``.

``--start-from START`` starts the learner from another player (an exported agent's weights, ``ppo_lean
--init-agent``, or for a scripted bot a clone of its play, ``ppo_lean --distill``), ``--warm-start`` from AGENT
itself, ``--start-from scratch`` from a random network.  From scratch the learner plays like ``random``, which
wins 1.1% of rounds against ``greedy``: almost every round is lost and PPO has almost nothing to learn from
(2M samples at discount 0.995: 0.04% won), so a best response starts from a competent player.  The learner is
trained undiscounted (``--gamma 1``): the question is how often it wins, not how soon, and a discount makes
putting a loss off by drawing again and again nearly free.  The result records the learner's last training
rounds (their win rate and mean length), and a warning says when they look like stalling.

Then the best response plays ``--rounds`` (20,000) rounds against AGENT, seats rotated, on seeds of
``training.seeds.BEST_RESPONSE_CHECK`` (never trained on), and its win rate with a 95% Wilson interval is the
result: AGENT's worst case is at least this bad, so the figure is a lower bound on how exploitable AGENT is (a
longer budget, or a better learner, may find more).  One JSON line per result goes to
``results/leaderboard/best_response.jsonl`` (``--out``; with ``"calibrated": true`` when every setting is
``CALIBRATED``'s), which ``training.leaderboard`` shows as a column, with its budget: the samples (learner
decisions) the run was asked to train on.  Above 53% (``leaderboard.EXPLOITABLE``) AGENT is called exploitable,
and the line records what the best response does that AGENT does not: both players' moves by kind in
``--profile-rounds`` (4,000) rounds between them (``uno_env.profile``); the page shows the kinds that differ most.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from training import seeds
from training.leaderboard import BEST_RESPONSES, EXPLOITABLE, _commit, _fingerprint, _rel
from training.leaderboard import _slug as _file_slug
from training.runs import Interrupted
from uno_env import extras

ROUNDS = 20_000
BATCH = 512
PROFILE_ROUNDS = 4_000
# the one setting of every published figure (see the module docstring for its calibration); START "preset"
# means the preset's shipped agent for the table size, ppo-RULES-Np
CALIBRATED = {"start": "preset", "colours": True, "n_envs": 2048, "n_steps": 32, "batch_size": 16384,
              "learning_rate": 2e-4, "ent_coef": 0.001, "gamma": 1.0, "total_steps": 1_048_576}


def _slug(name: str) -> str:
    """A name in a run folder's name: a path by its last part (``leaderboard._slug``)."""
    return _file_slug(Path(name).name if ("/" in name or "\\" in name) else name)


def run_name(agent: str, rules: str, players: int, start: str | None, colours: bool = False) -> str:
    """The run's folder name: from scratch, warm-started from AGENT (``-warm``) or started from another player;
    ``-colours`` when it trains on renamed colours and plays averaged over them."""
    tail = "" if start is None else "-warm" if start == agent else f"-from-{_slug(start)}"
    return f"br-{_slug(agent)}-{rules}-{players}p{tail}{'-colours' if colours else ''}"


def is_calibrated(start_given: str | None, start: str | None, colours: bool, one_sided: bool,
                  settings: dict) -> bool:
    """Whether a run uses ``CALIBRATED``: it starts from the preset's agent (``--start-from preset``, the default,
    with such an agent shipped), on renamed colours where the deck allows, with every other setting the same."""
    return (start_given == "preset" and start is not None and colours == (CALIBRATED["colours"] and one_sided)
            and settings == {k: v for k, v in CALIBRATED.items() if k not in ("start", "colours")})


def warm_kind(agent: str) -> str:
    """How ``--warm-start`` starts from ``agent``: ``init_agent`` (an exported agent's weights) or ``distill``
    (a clone of its play: a scripted bot, an ensemble, a colour average of something not exported)."""
    import agents
    kind, path = agents.locate(agent)
    return "init_agent" if kind == "export" and path is not None and path.with_suffix(".pt").is_file() else "distill"


def _recent_episodes(run: Path) -> dict:
    """The learner's last training rounds (up to 1,000, from the run's checkpoint): how many, its win rate and
    their mean length in its decisions."""
    import numpy as np
    import torch
    state = torch.load(run / "checkpoints" / "latest.pt", map_location="cpu", weights_only=False)
    eps = np.array(state["episodes"], dtype=np.float64).reshape(-1, 2)
    return {"episodes": int(len(eps)), "win_rate": float((eps[:, 0] > 0).mean()) if len(eps) else 0.0,
            "mean_decisions": float(eps[:, 1].mean()) if len(eps) else 0.0}


def what_it_does(learner: str, start: str, agent: str, rules: str, players: int, rounds: int, seed: int,
                 batch: int) -> dict:
    """What an exploiting best response does that AGENT does not: both players' moves by kind in one match of
    ``rounds`` between them (``uno_env.profile``), and the kinds whose share differs most.  ``start``, the network
    the learner started from, is named so that a reader can tell how far the learner moved."""
    import agents
    from uno_env.profile import differences, profile

    seen = profile([learner, agent], rules, players, rounds, seed, batch, load=agents.load)["players_profile"]
    mine, theirs = seen[learner], seen[agent]
    return {"rounds": rounds, "seed": seed, "start_from": start, "learner": mine, "entrant": {"name": agent, **theirs},
            "differences": differences(mine, theirs)}


def add_profile(args, run: Path, start: str | None, parser) -> int:
    """``--profile-only``: the last result of ``run`` in ``args.out`` gets its ``profile`` (``what_it_does``)."""
    import agents
    lines = [json.loads(x) for x in args.out.read_text(encoding="utf-8").splitlines()] if args.out.is_file() else []
    mine = [i for i, r in enumerate(lines) if r.get("run") == _rel(run) and r.get("agent") == args.agent]
    if not mine or start is None or not (run / "agent.json").is_file() or args.profile_rounds < 1:
        parser.error(f"--profile-only needs a trained run ({run}, started from a player) with a result in {args.out} "
                     f"and --profile-rounds >= 1; found {len(mine)} result(s)")
    line = lines[mine[-1]]
    learner = str(run / "agent") + (agents.COLOURS if line.get("play") == "colour_average" else "")
    line["profile"] = what_it_does(learner, start, args.agent, args.rules, args.players, args.profile_rounds,
                                   line["seed"], line["batch_size"])
    now = args.out.read_text(encoding="utf-8").splitlines()  # again: another run may have added a line meanwhile
    now[mine[-1]] = json.dumps(line)
    args.out.write_text("".join(x + "\n" for x in now), encoding="utf-8")
    top = ", ".join(f"{d['kind']} {d['share']:.1%} ({args.agent} {d['other_share']:.1%})"
                    for d in line["profile"]["differences"])
    print(f"what the best response to {args.agent} does differently, in {args.profile_rounds:,} rounds: {top}; "
          f"added to {args.out}", flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line; its defaults are ``CALIBRATED``."""
    parser = argparse.ArgumentParser(prog="python -m training.best_response", description=__doc__.split("\n")[0])
    parser.add_argument("agent", help="the agent to exploit: a bot, a shipped agent or a path (as agents.load takes)")
    parser.add_argument("--rules", default="standard_en", help="preset")
    parser.add_argument("--players", type=int, default=2, help="seats per table (the learner holds one)")
    parser.add_argument("--total-steps", type=int, default=CALIBRATED["total_steps"],
                        help=f"the budget: learner decisions to train on (default {CALIBRATED['total_steps']:,})")
    parser.add_argument("--warm-start", action="store_true",
                        help="start from AGENT (its weights, or for a bot a clone of its play) instead of scratch")
    parser.add_argument("--start-from", default="preset", metavar="START",
                        help="start from this player (an exported agent's weights, or a clone of a bot), 'scratch' "
                             "for a random network; default 'preset': the preset's shipped agent, ppo-RULES-Np")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds of the measurement (default {ROUNDS:,})")
    parser.add_argument("--seed", type=int, default=seeds.BEST_RESPONSE_TRAINING.start,
                        help="seed of the training (in training.seeds.BEST_RESPONSE_TRAINING)")
    parser.add_argument("--runs-dir", default="runs/best_response", help="parent folder of the runs")
    parser.add_argument("--out", type=Path, default=BEST_RESPONSES, help="the JSON lines file the result is added to")
    parser.add_argument("--n-envs", type=int, default=CALIBRATED["n_envs"], help="games stepped together (ppo_lean)")
    parser.add_argument("--n-steps", type=int, default=CALIBRATED["n_steps"], help="rollout length per game")
    parser.add_argument("--batch-size", type=int, default=CALIBRATED["batch_size"], help="minibatch size")
    parser.add_argument("--learning-rate", type=float, default=CALIBRATED["learning_rate"], help="Adam learning rate")
    parser.add_argument("--ent-coef", type=float, default=CALIBRATED["ent_coef"], help="entropy bonus (ppo_lean)")
    parser.add_argument("--colours", action=argparse.BooleanOptionalAction, default=None,
                        help="train on renamed colours (ppo_lean --colour-augment) and measure the learner averaged "
                             "over the colour renamings, as the shipped agents play (default: on for one-sided "
                             "decks; UNO Flip's two-sided deck has no renaming)")
    parser.add_argument("--gamma", type=float, default=1.0,
                        help="discount (1: undiscounted, the win rate itself; below 1 a learner may stall)")
    parser.add_argument("--distill-decisions", type=int, default=500_000,
                        help="starting from a bot: decisions of it to clone")
    parser.add_argument("--checkpoint-every", type=int, default=500_000, help="steps between checkpoints")
    parser.add_argument("--profile-rounds", type=int, default=PROFILE_ROUNDS,
                        help=f"when the best response wins more than {EXPLOITABLE:.0%}%: rounds of it against AGENT, "
                             f"to record what it does that AGENT does not (0: none)")
    parser.add_argument("--profile-only", action="store_true",
                        help="train nothing: add what the best response does (--profile-rounds) to the last line of "
                             "--out measured with this run, whatever its win rate")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True, help="progress bar")
    parser.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    command = "python -m training.best_response " + " ".join(argv if argv is not None else sys.argv[1:])
    if not seeds.BEST_RESPONSE_TRAINING.span(args.seed, args.n_envs) or \
            args.seed + args.total_steps + args.n_envs > seeds.BEST_RESPONSE_TRAINING.stop:
        parser.error(f"--seed must leave the training's seeds (seed + game, and seed + step for a resume that "
                     f"restarts its games) in {seeds.BEST_RESPONSE_TRAINING.start} to "
                     f"{seeds.BEST_RESPONSE_TRAINING.stop - 1}")
    if args.rounds < 1:
        parser.error("--rounds must be positive")

    import agents
    from training import ppo_lean
    from training.evaluate import play_match

    if agents.locate(args.agent)[0] == "unknown":
        parser.error(f"unknown agent {args.agent!r}; agents are: {', '.join(agents.available())}, or a path")
    given_start = args.start_from
    if args.warm_start and given_start not in ("preset", None):
        parser.error("--warm-start starts from AGENT, --start-from from another player: give one")
    preset_agent = f"ppo-{args.rules}-{args.players}p"
    if args.warm_start:
        start = args.agent
    elif given_start == "scratch":
        start = None
    elif given_start == "preset":
        start = preset_agent if preset_agent in agents.shipped() else None
    else:
        start = given_start
    from uno_env.core.config import PRESETS
    one_sided = args.rules in PRESETS and PRESETS[args.rules].deck != "flip112"
    if args.colours is None:
        args.colours = one_sided
    if start is not None and agents.locate(start)[0] == "unknown":
        parser.error(f"--start-from: unknown agent {start!r}")
    calibrated = is_calibrated(given_start, start, args.colours, one_sided,
                               {"n_envs": args.n_envs, "n_steps": args.n_steps, "batch_size": args.batch_size,
                                "learning_rate": args.learning_rate, "ent_coef": args.ent_coef, "gamma": args.gamma,
                                "total_steps": args.total_steps}) and not args.warm_start
    warm = warm_kind(start) if start is not None else None
    name = run_name(args.agent, args.rules, args.players, start, args.colours)
    run = Path(args.runs_dir) / name
    resume = (run / "checkpoints" / "latest.pt").is_file()
    if args.profile_only:
        return add_profile(args, run, start, parser)
    lean = ["--rules", args.rules, "--players", str(args.players), "--opponents", args.agent, "--observation", "v3",
            "--seed", str(args.seed), "--run-name", name, "--runs-dir", args.runs_dir,
            "--total-steps", str(args.total_steps), "--n-envs", str(args.n_envs), "--n-steps", str(args.n_steps),
            "--batch-size", str(args.batch_size), "--learning-rate", str(args.learning_rate),
            "--gamma", str(args.gamma), "--ent-coef", str(args.ent_coef),
            "--checkpoint-every", str(args.checkpoint_every), "--torch-threads", str(args.torch_threads),
            "--progress" if args.progress else "--no-progress"]
    if warm == "init_agent":
        lean += ["--init-agent", start]
    elif warm == "distill":
        lean += ["--distill", start, "--distill-decisions", str(args.distill_decisions)]
    if args.colours:
        lean.append("--colour-augment")
    if resume:
        lean.append("--resume")
    print(f"best response to {args.agent} ({args.rules}, {args.players} players): "
          f"{'resuming' if resume else 'training'} {run} to {args.total_steps:,} samples, "
          f"{'from scratch' if start is None else f'starting from {start} ({warm})'}", flush=True)
    try:
        cfg = ppo_lean.parse_args(lean)
        ppo_lean.train(cfg)
    except (ValueError, FileNotFoundError) as exc:
        print(f"best_response: error: {exc}", file=sys.stderr)
        return 2
    except Interrupted as exc:  # Ctrl-C or kill: the learner's checkpoint is written; the same command goes on
        print(f"best_response: {exc}", file=sys.stderr)
        return exc.exit_code
    sessions = json.loads((run / "sessions.json").read_text())
    recent = _recent_episodes(run)
    if recent["mean_decisions"] > 200:
        print(f"warning: the learner's last {recent['episodes']} training rounds lasted {recent['mean_decisions']:.0f} "
              f"of its decisions on average and it won {recent['win_rate']:.1%}: it has likely learned to stall "
              f"(drawing to put off a loss, which the discount makes cheaper) rather than to win; try --warm-start "
              f"or --start-from",
              file=sys.stderr, flush=True)
    seed = seeds.BEST_RESPONSE_CHECK.start
    batch = min(BATCH, args.rounds)
    t0 = time.time()
    learner = str(run / "agent") + (agents.COLOURS if args.colours else "")
    res = play_match([learner, args.agent], args.rules, args.players, args.rounds, seed=seed,
                     batch_size=batch, ratings=False)
    e = res.entries[0]
    fair = 1 / args.players
    line = {"agent": args.agent, "rules": args.rules, "players": args.players,
            "agent_fingerprint": _fingerprint(args.agent, args.rules, args.players),
            "budget_steps": args.total_steps, "trained_steps": int(sessions["steps"]),
            "train_seconds": sessions["train_seconds"], "warm_start": warm, "start_from": start, "run": _rel(run),
            "training_seed": args.seed, "training_seed_range": seeds.BEST_RESPONSE_TRAINING.name,
            "training_last_rounds": recent,
            "hyperparameters": {"n_envs": args.n_envs, "n_steps": args.n_steps, "batch_size": args.batch_size,
                                "learning_rate": args.learning_rate, "gamma": args.gamma, "net_arch": cfg.net_arch,
                                "ent_coef": cfg.ent_coef, "colour_augment": cfg.colour_augment, "observation": "v3"},
            "play": "colour_average" if args.colours else "network", "calibrated": bool(calibrated),
            "rounds": e.games, "seed": seed, "batch_size": batch, "seed_range": seeds.BEST_RESPONSE_CHECK.as_dict(),
            "wins": e.wins, "win_rate": e.win_rate, "ci95": [e.ci95[0], e.ci95[1]], "fair_share": fair,
            "exploitability_lower_bound": max(0.0, e.ci95[0] - fair), "eval_seconds": round(time.time() - t0, 1),
            "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "commit": _commit(), "command": command}
    if e.win_rate > EXPLOITABLE and args.profile_rounds > 0 and start is not None:
        line["profile"] = what_it_does(learner, start, args.agent, args.rules, args.players, args.profile_rounds,
                                       seed, batch)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")
    print(f"best response to {args.agent} ({args.rules}, {args.players} players), {args.total_steps:,} samples "
          f"{'from scratch' if start is None else f'starting from {start} ({warm})'} "
          f"({sessions['train_seconds']:.0f} s): it wins "
          f"{e.win_rate:.2%} (95% CI {e.ci95[0]:.2%} - {e.ci95[1]:.2%}) of {e.games:,} rounds on seeds from {seed:,}; "
          f"fair share {fair:.0%}, so {args.agent} is exploitable by at least "
          f"{100 * line['exploitability_lower_bound']:.1f} points. Added to {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

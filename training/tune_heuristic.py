"""How much better can the heuristic bot get by its own weights?  A random search against a lineup.

    python -m training.tune_heuristic --players 4 --seconds 900            # the 4-player figure of docs/training.md
    python -m training.tune_heuristic --players 2 --opponents greedy --seconds 300

A (1+1) random search over ``HeuristicAgent.DEFAULTS``: each candidate changes one to three weights of
the best so far (real weights scaled by ``exp(N(0, 0.5))``, sometimes negated; integer thresholds moved
by one) and is kept if it wins more of ``--games`` seat-rotated rounds against the opponents.  Every
candidate plays the same deals (one seed: common random numbers), so the comparisons are far less noisy
than the win rates themselves; the best of many candidates still flatters itself on that seed, so the
result is confirmed on ``--confirm-games`` rounds of a fresh seed, beside a default copy of the bot in
the same seat.  It answers a question about targets: how far a player of the heuristic's kind can get
against the heuristic bots (the shipped 4-player agent plays at the heuristic's level).  Prints one
JSON line per improvement and a final line with the confirmation and the tuned weights.

Per preset (so that each preset has a bot worth beating).  The search starts from the weights ``heuristic``
plays with on that preset and table size (``HeuristicAgent.params_for``: ``DEFAULTS`` unless tuned ones are stored).
``--check-rounds N`` then plays the tuned weights head to head against them on N held-out rounds (seeds of
``training.seeds.HEURISTIC_CHECK``, never searched on; seats rotated), and each against ``greedy`` on the
same deals, with 95% Wilson intervals; ``--store`` writes the tuned weights to ``agents/heuristic_params.json``
only when the head-to-head 95% lower bound is above 50% and the tuned weights are not measurably worse
against ``greedy`` (the 95% interval of the round-by-round difference reaches 0), and only for a search on
tuning seeds (``training.seeds.HEURISTIC_TUNING``).  From then on ``heuristic`` on that preset and table size
is the tuned bot.  ``standard_en`` is never stored (the shipped agents were trained against its weights):

    python -m training.tune_heuristic --rules flip_jp --players 2 --opponents heuristic --games 12000 \
        --seconds 1200 --seed 200000000 --check-rounds 20000 --store

It stays in ``training/`` (the probes that only ask a question are in ``research/``): with ``--store`` it is a
product tool, whose output the ``heuristic`` bot plays.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from agents.bots import HeuristicAgent
from training import seeds
from training.evaluate import play_match
from uno_env import VecGame, extras

DEFAULT_SEED = 5  # the search's seed by default (training.seeds.TRAINING: the 4-player figure of docs/training.md)
CONFIRM_OFFSET = 1_000_003  # the confirmation plays fresh deals, seed + CONFIRM_OFFSET

def _bot(params: dict, game, name: str) -> HeuristicAgent:
    agent = HeuristicAgent(game, **params)
    agent.name = name  # not "heuristic": play_match shares one object between equal names
    return agent


def _win_rate(params: dict, args, games: int, seed: int, game) -> float:
    r = play_match([_bot(params, game, "tuned"), args.opponents], args.rules, args.players, games=games, seed=seed,
                   batch_size=args.batch_size, ratings=False)
    return r.entries[0].win_rate


def _entry(result, slot: int = 0) -> dict:
    e = result.entries[slot]
    return {"agent": e.agent, "rounds": e.games, "wins": e.wins, "win_rate": e.win_rate,
            "ci95": [e.ci95[0], e.ci95[1]]}


def check(best: dict, current: dict, args, game) -> dict:
    """The held-out check: the tuned weights against the current ones head to head (one seat each at two
    players; one tuned seat against the current bot in the others at more), and each against ``greedy`` on
    the same deals, on ``--check-rounds`` rounds of ``seeds.HEURISTIC_CHECK``."""
    seed = seeds.HEURISTIC_CHECK.start
    batch = min(args.batch_size, args.check_rounds)
    if not seeds.HEURISTIC_CHECK.span(seed, batch):
        raise ValueError(f"--batch-size {batch} does not fit the check's seed range")
    kw = dict(games=args.check_rounds, seed=seed, batch_size=batch, ratings=False, per_game=True)
    head = play_match([_bot(best, game, "tuned"), _bot(current, game, "current")], args.rules, args.players, **kw)
    tuned_g = play_match([_bot(best, game, "tuned"), "greedy"], args.rules, args.players, **kw)
    current_g = play_match([_bot(current, game, "current"), "greedy"], args.rules, args.players, **kw)
    e = head.entries[0]
    fair = 1 / args.players
    # against greedy on the same deals and seats: the difference of the two bots' wins, round by round
    diff = (tuned_g.game_winners == 0).astype(float) - (current_g.game_winners == 0).astype(float)
    half = 1.959963984540054 * diff.std(ddof=1) / np.sqrt(diff.size) if diff.size > 1 else 1.0
    paired = {"rounds": int(diff.size), "difference": float(diff.mean()),
              "ci95": [float(diff.mean() - half), float(diff.mean() + half)]}
    return {"seed_range": seeds.HEURISTIC_CHECK.as_dict(), "seed": seed, "batch_size": batch,
            "rounds": args.check_rounds, "fair_share": fair, "tuned_vs_current": _entry(head),
            "tuned_vs_greedy": _entry(tuned_g), "current_vs_greedy": _entry(current_g),
            "tuned_minus_current_vs_greedy": paired,
            # better head to head, and not measurably worse against greedy
            "better": bool(e.ci95[0] > fair and paired["ci95"][1] >= 0)}


def store(result: dict, path=None) -> None:
    """Write ``result``'s tuned weights to ``agents/heuristic_params.json`` (replacing those of the same preset
    and table size)."""
    path = path or HeuristicAgent.TUNED
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"tuned": []}
    keep = [x for x in data.get("tuned", []) if (x.get("rules"), x.get("players")) != (result["rules"],
                                                                                        result["players"])]
    entry = {"rules": result["rules"], "players": result["players"], "params": result["tuned"],
             "command": result["command"], "search": {k: result[k] for k in (
                 "opponents", "seed", "candidates", "seconds", "search_games", "search_win_rate_default",
                 "search_win_rate_best")}, "check": result["check"]}
    data["tuned"] = sorted(keep + [entry], key=lambda x: (x["rules"], x["players"]))
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _neighbour(best: dict, rng: np.random.Generator) -> tuple[dict, list[str]]:
    """The best weights with one to three of them moved."""
    names = sorted(best)
    keys = [str(k) for k in rng.choice(names, size=int(rng.integers(1, 4)), replace=False)]
    cand = dict(best)
    for k in keys:
        v = best[k]
        if isinstance(v, int) and not isinstance(v, bool):
            cand[k] = max(0, v + int(rng.choice([-1, 1])))
        else:
            v = float(v) if v != 0 else 0.1
            cand[k] = v * float(np.exp(rng.normal(0.0, 0.5))) * (-1.0 if rng.random() < 0.1 else 1.0)
    return cand, keys


def search(args) -> dict:
    game = VecGame(args.rules, args.players, batch_size=1, observation="v2")  # the bots read v2: no memory needed
    rng = np.random.default_rng(args.seed)
    current = HeuristicAgent.params_for(args.rules, args.players)  # what "heuristic" plays there now
    best = dict(current)
    best_rate = start = _win_rate(best, args, args.games, args.seed, game)
    tried = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.seconds and tried < args.max_candidates:
        cand, keys = _neighbour(best, rng)
        rate = _win_rate(cand, args, args.games, args.seed, game)
        tried += 1
        if rate > best_rate:
            best, best_rate = cand, rate
            print(json.dumps({"candidate": tried, "seconds": round(time.perf_counter() - t0, 1),
                              "win_rate": best_rate, "changed": keys}), flush=True)
    fresh = args.seed + CONFIRM_OFFSET
    tuned = _win_rate(best, args, args.confirm_games, fresh, game)
    default = _win_rate(dict(current), args, args.confirm_games, fresh, game)
    out = {"rules": args.rules, "players": args.players, "opponents": args.opponents, "seed": args.seed,
           "candidates": tried, "seconds": round(time.perf_counter() - t0, 1), "search_games": args.games,
           "search_win_rate_default": start, "search_win_rate_best": best_rate,
           "confirm_games": args.confirm_games, "confirm_seed": fresh, "confirm_win_rate_tuned": tuned,
           "confirm_win_rate_default": default,
           "tuned": {k: v for k, v in best.items() if v != HeuristicAgent.DEFAULTS[k]},
           "command": "python -m training.tune_heuristic " + " ".join(args.argv)}
    if args.check_rounds:
        out["check"] = check(best, current, args, game)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.tune_heuristic", description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="standard_en", help="preset name")
    p.add_argument("--players", type=int, default=4, help="seats per table")
    p.add_argument("--opponents", default="heuristic", help="the agent in the other seats")
    p.add_argument("--games", type=int, default=12000, help="rounds per candidate (one seed for all)")
    p.add_argument("--confirm-games", type=int, default=40000, help="rounds of the fresh-seed check")
    p.add_argument("--seconds", type=float, default=900.0, help="time budget of the search")
    p.add_argument("--max-candidates", type=int, default=10**9, help="stop after this many candidates")
    p.add_argument("--batch-size", type=int, default=2048, help="games played at once")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the search's deals and of its steps (with "
                   f"--store: one of training.seeds.HEURISTIC_TUNING, {seeds.HEURISTIC_TUNING.start} to "
                   f"{seeds.HEURISTIC_TUNING.stop - 1})")
    p.add_argument("--check-rounds", type=int, default=0,
                   help="rounds of the held-out check against the current weights (0: none; 20000 for a figure)")
    p.add_argument("--store", action="store_true",
                   help="write the tuned weights to agents/heuristic_params.json if the check's 95%% lower bound "
                        "is above the fair share and they are not measurably worse against greedy")
    args = p.parse_args(argv)
    args.argv = list(argv) if argv is not None else sys.argv[1:]
    if args.store:
        problem = None
        if args.rules == "standard_en":
            problem = "standard_en keeps HeuristicAgent.DEFAULTS (the shipped agents were trained against them)"
        elif not args.check_rounds:
            problem = "--store needs --check-rounds (20000 for a figure)"
        elif not (seeds.HEURISTIC_TUNING.span(args.seed, args.batch_size)
                  and seeds.HEURISTIC_TUNING.span(args.seed + CONFIRM_OFFSET, args.batch_size)):
            problem = (f"--store needs a search on tuning seeds: --seed between {seeds.HEURISTIC_TUNING.start} "
                       f"and {seeds.HEURISTIC_TUNING.stop - CONFIRM_OFFSET - args.batch_size}")
        if problem:
            p.error(problem)
    result = search(args)
    if args.store:
        result["stored"] = bool(result["check"]["better"])
        if result["stored"]:
            store(result)
    print(json.dumps(result))
    if "check" in result:
        c = result["check"]
        pd = c["tuned_minus_current_vs_greedy"]
        line = lambda x: f"{x['win_rate']:.2%} (95% CI {x['ci95'][0]:.2%} - {x['ci95'][1]:.2%})"  # noqa: E731
        print(f"held-out check, {c['rounds']} rounds from seed {c['seed']}: tuned against current "
              f"{line(c['tuned_vs_current'])}; against greedy: tuned {line(c['tuned_vs_greedy'])}, "
              f"current {line(c['current_vs_greedy'])}"
              + f"; difference against greedy {pd['difference']:+.2%} (95% CI {pd['ci95'][0]:+.2%} to "
              f"{pd['ci95'][1]:+.2%})"
              + ("" if not args.store else "; stored" if result["stored"] else "; not stored"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

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
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from agents.bots import HeuristicAgent
from training.evaluate import play_match
from uno_env import VecGame


def _win_rate(params: dict, args, games: int, seed: int, game) -> float:
    agent = HeuristicAgent(game, **params)
    agent.name = "tuned"  # not "heuristic": play_match shares one object between equal names
    r = play_match([agent, args.opponents], args.rules, args.players, games=games, seed=seed,
                   batch_size=args.batch_size, ratings=False)
    return r.entries[0].win_rate


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
    best = dict(HeuristicAgent.DEFAULTS)
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
    fresh = args.seed + 1_000_003
    tuned = _win_rate(best, args, args.confirm_games, fresh, game)
    default = _win_rate(dict(HeuristicAgent.DEFAULTS), args, args.confirm_games, fresh, game)
    return {"rules": args.rules, "players": args.players, "opponents": args.opponents,
            "candidates": tried, "search_games": args.games, "search_win_rate_default": start,
            "search_win_rate_best": best_rate, "confirm_games": args.confirm_games,
            "confirm_seed": fresh, "confirm_win_rate_tuned": tuned, "confirm_win_rate_default": default,
            "tuned": {k: v for k, v in best.items() if v != HeuristicAgent.DEFAULTS[k]}}


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
    p.add_argument("--seed", type=int, default=5, help="seed of the search's deals and of its steps")
    args = p.parse_args(argv)
    print(json.dumps(search(args)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

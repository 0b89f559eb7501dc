"""One figure per claim: an agent's win rate against a lineup, pooled over every held-out measurement of it.

A claim such as "``ppo-standard_en-4p`` wins 27% against three ``heuristic``" has been measured more than once on
deals no training used: its held-out evaluation (``results/held_out/``) and its leaderboard match
(``results/leaderboard/leaderboard.json``).  Quoting one on one page and the other on another gives a claim two
figures.  Here a claim's figure is every such measurement **pooled with its rounds**: the wins and rounds
added up, with a 95% Wilson interval, where the measurements were played on different deals; where one was
played on the first deals of the other (the same seed, batch and lineup: the leaderboard's 20,000 rounds are the
first half of a 40,000-round evaluation from seed 900,000,000), its rounds are already counted and only the
longer one counts.  The targets table (``benchmarks.targets``), ``docs/training.md`` and the leaderboard page
all quote ``claim(...)``.
"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HELD_OUT = REPO / "results" / "held_out"
LEADERBOARD = REPO / "results" / "leaderboard" / "leaderboard.json"


def _held_out(folder: str) -> dict | None:
    path = HELD_OUT / folder / "results.json"
    if not path.is_file():
        return None
    m = json.loads(path.read_text())
    e = m["entries"][0]
    wins = int(e.get("wins", round(e["win_rate"] * m["games"])))
    return {"source": f"results/held_out/{folder}", "agent": e["agent"], "lineup": m.get("lineup"),
            "rules": m.get("rules"), "players": m.get("players"), "wins": wins, "rounds": int(e["games"]),
            "seed": m.get("seed"), "batch": m.get("batch_size"), "episode": m.get("episode", "round")}


def _leaderboard(agent: str, opponent: str, rules: str, players: int, path: Path = LEADERBOARD) -> dict | None:
    """``agent`` in one seat against ``opponent`` in the others, from the leaderboard's table."""
    if not Path(path).is_file():
        return None
    data = json.loads(Path(path).read_text())
    for t in data["tables"]:
        if t["rules"] != rules or t["players"] != players:
            continue
        for m in t["matches"]:
            if m["agent"] == agent and m["opponent"] == opponent:
                r = m["agent_result"]
            elif players == 2 and m["agent"] == opponent and m["opponent"] == agent:
                r = m["opponent_result"]
            else:
                continue
            return {"source": "results/leaderboard/leaderboard.json", "agent": agent, "wins": int(r["wins"]),
                    "rounds": int(r["rounds"]), "seed": m["seed"], "batch": data["protocol"]["batch_size"],
                    "rules": rules, "players": players}
    return None


def pool(measurements: list[dict]) -> dict:
    """Wins and rounds added up over measurements on different deals; of measurements on the same first deals
    (same seed and batch), the longest."""
    from training.evaluate import wilson

    by_deals: dict = {}
    for m in measurements:
        key = (m.get("seed"), m.get("batch"))
        if key not in by_deals or m["rounds"] > by_deals[key]["rounds"]:
            by_deals[key] = m
    used = list(by_deals.values())
    dropped = [m for m in measurements if not any(m is u for u in used)]
    wins, rounds = sum(m["wins"] for m in used), sum(m["rounds"] for m in used)
    lo, hi = wilson(wins, rounds)
    return {"rate": wins / rounds, "lo": lo, "hi": hi, "wins": wins, "games": rounds,
            "sources": [{k: m[k] for k in ("source", "wins", "rounds", "seed")} for m in used],
            "seeds": sorted({m["seed"] for m in used}),
            "same_deals": [{k: m[k] for k in ("source", "wins", "rounds", "seed")} for m in dropped]}


def claim(held_out: str, agent: str | None = None, opponent: str = "heuristic") -> dict:
    """The figure of the claim whose held-out evaluation is ``results/held_out/HELD_OUT``: it pooled with the
    leaderboard's match of the same agent against ``opponent`` on the same rules and table size, if any."""
    h = _held_out(held_out)
    if h is None:
        raise FileNotFoundError(f"{HELD_OUT / held_out / 'results.json'} is missing: run the evaluation that "
                                f"results/held_out/README.md gives for it")
    agent = agent or h["agent"]
    lineup = h.get("lineup") or []
    found = [h]
    if h["episode"] == "round" and lineup and all(x == opponent for x in lineup[1:]):
        lb = _leaderboard(agent, opponent, h["rules"], h["players"])
        if lb is not None:
            found.append(lb)
    return pool(found)


def agent_claim(rules: str, players: int) -> dict | None:
    """The claim "``ppo-RULES-Np`` against ``heuristic`` in every other seat" (its held-out evaluation pooled as
    ``claim`` does), or None when the agent has no held-out evaluation."""
    folder = ("ppo2p_vs_heuristic" if players == 2 else "ppo4p_vs_3heuristic") if rules == "standard_en" \
        else f"ppo_{rules}_{players}p_vs_heuristic"
    if not (HELD_OUT / folder / "results.json").is_file():
        return None
    return claim(folder, agent=f"ppo-{rules}-{players}p")

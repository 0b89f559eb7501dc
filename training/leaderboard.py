"""The leaderboard: every preset and table size, the scripted bots and every shipped agent that fits, one protocol.

    python -m training.leaderboard                       # the full protocol: results/leaderboard/leaderboard.json
    python -m training.leaderboard --resume              # after an interruption: keep the matches already played
    python -m training.leaderboard --quick               # a small run (200 rounds a match) to runs/leaderboard-quick/
    python -m training.leaderboard --exploitability-only # only re-read results/leaderboard/best_response.jsonl

The protocol, fixed so that figures of different days compare:

* **Tables**: each preset (``standard_en``, ``standard_ru``, ``house_cn``, ``solo_bga``, ``flip_jp``) at 2 and
  at 4 players, with its preset's rules exactly (no option changed).
* **Entrants**: ``random``, ``greedy``, ``heuristic`` (with the weights it plays on that preset and table
  size, ``HeuristicAgent.params_for``) and every shipped agent (``agents.shipped()``) whose model card says it
  was trained for that preset and table size (``rules``, ``players``, no ``options``), played as it loads
  (``agents.load``: the shipped agents average over colour renamings).
* **Matches**: at 2 players every pair of entrants plays a match; at 4 players every entrant plays a match
  against three copies of every other one (one seat against three: the issue's targets).  Each match is
  ``ROUNDS`` = 20,000 rounds (a 95% interval of about +-0.7 points on a 2-player win rate, +-0.6 on a
  4-player one), seats rotated (game ``g`` shifts the seating by ``g mod players``, so every entrant sits in
  every seat equally often), on ``training.evaluate.play_match`` (the batched core, ``BATCH`` = 512 games
  at once, one torch thread).
* **Seeds**: every match deals from seed ``training.seeds.LEADERBOARD.start`` = 900,000,000 (row ``i`` of the
  batch from 900,000,000 + ``i``), a range no training, tuning or selection uses (``training/seeds.py``);
  every pairing of a table plays the same deals.
* **Figures**: each match's win rates with 95% Wilson intervals and points per round (the points a seat
  scores, 0 in a round it loses) with a 95% normal interval; OpenSkill ratings of the entrants (Plackett-Luce,
  ``tau=0``; each round a ranking, its winner first and the others tied) from the same rounds, the matches'
  rounds taken in turn; each entrant's cost per decision (seconds of its observations and ``act`` calls per
  decision, batched as the matches play them, on the machine that ran it: a measurement, stored as such);
  and, at 2 players, each entrant's exploitability as measured by ``training.best_response`` (read from
  ``results/leaderboard/best_response.jsonl``).
* **Records**: every round as a game record (``uno_env.records``, docs/records.md), one gzipped file per match
  under ``--work-dir`` (``runs/leaderboard/records/``, not kept in git: ``python -m uno_env.records`` and
  ``records.check`` replay them).

The JSON goes to ``results/leaderboard/leaderboard.json`` (kept in git); the documentation build turns it into
``docs/leaderboard.md`` (``render``, called by ``docs/gen_pages.py``).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import itertools
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from training import seeds
from uno_env import extras
from uno_env.evaluation import Z95
from uno_env.evaluation import wilson as _wilson

REPO = Path(__file__).resolve().parent.parent
PRESETS = ("standard_en", "standard_ru", "house_cn", "solo_bga", "flip_jp")
SIZES = (2, 4)
BOTS = ("random", "greedy", "heuristic")
ROUNDS = 20_000
QUICK_ROUNDS = 200
BATCH = 512
SEED = seeds.LEADERBOARD.start
RESULTS = REPO / "results" / "leaderboard"
JSON_PATH = RESULTS / "leaderboard.json"
BEST_RESPONSES = RESULTS / "best_response.jsonl"
CALIBRATION = RESULTS / "calibration.jsonl"  # best responses against the flawed players, where the gap is known
EXPLOITABLE = 0.53  # a 2-player entrant whose calibrated best response wins more than this is called exploitable
FORMAT = "uno-env-leaderboard/1"


# ------------------------------------------------------------------------------------------ the entrants
def fits(meta: dict, rules: str, players: int) -> bool:
    """Whether a shipped agent's model card says it was trained for ``rules`` at ``players`` seats."""
    return (meta.get("rules") == rules and int(meta.get("players", -1)) == int(players)
            and not meta.get("options"))


def entrants(rules: str, players: int) -> list[str]:
    """The bots, then every shipped agent that fits the table (read from the model cards, no torch)."""
    import agents
    out = list(BOTS)
    for name in agents.shipped():
        meta = json.loads((agents.MODELS / f"{name}.json").read_text(encoding="utf-8"))
        if fits(meta, rules, players):
            out.append(name)
    return out


def pairings(names: list[str], players: int) -> list[tuple[str, str]]:
    """``(agent, opponent)`` of each match: every pair at 2 players; at more, every entrant in one seat against
    every other one in the others."""
    if players == 2:
        return list(itertools.combinations(names, 2))
    return list(itertools.permutations(names, 2))


def _slug(name: str) -> str:
    """A name as a file name: ``mine.py:PlayFirst`` -> ``mine.py_PlayFirst``."""
    import re
    return re.sub(r"[^A-Za-z0-9_.~+-]+", "_", name)


def _fingerprint(name: str, rules: str, players: int, extra: dict | None = None) -> str:
    """What an entrant is, for ``--resume`` to know a match played before still stands: the weights of a
    shipped agent, the heuristic's weights on that table, a bot's name; for an extra entrant the source of its
    class (or function), or the files of a run or export."""
    if extra and name in extra:
        return _extra_fingerprint(name, extra[name])
    import agents
    from agents import flawed
    from agents.bots import HeuristicAgent
    h = hashlib.sha256(name.encode())
    if name == "heuristic" or flawed.flaw_of(name) is not None:
        h.update(json.dumps(HeuristicAgent.params_for(rules, players), sort_keys=True).encode())
    elif name in agents.shipped():
        for suffix in (".json", ".pt"):
            h.update((agents.MODELS / f"{name}{suffix}").read_bytes())
    return h.hexdigest()[:16]


def _extra_fingerprint(name: str, agent) -> str:
    import inspect
    import uuid

    import agents
    h = hashlib.sha256(name.encode())
    try:
        if isinstance(agent, str):
            kind, path = agents.locate(agent)
            spec = agents.python_spec(agent) if kind == "python" else None
            if spec is not None and spec[0].endswith(".py"):
                h.update(Path(spec[0]).read_bytes())
            elif path is not None:
                files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()
                                                             and "tb" not in p.parts)
                for f in files[:50]:
                    h.update(f.read_bytes())
            else:
                h.update(uuid.uuid4().bytes)  # an imported module: no file to read, never kept
        else:
            target = getattr(agent, "fn", None) or type(agent)
            h.update(inspect.getsource(target).encode())
    except (OSError, TypeError):
        h.update(uuid.uuid4().bytes)  # no source to tell versions apart: played again each time
    return h.hexdigest()[:16]


# ------------------------------------------------------------------------------------------ the statistics
def wilson(wins: int, n: int) -> tuple[float, float]:
    return _wilson(int(wins), int(n))


def mean_ci(total: float, total_sq: float, n: int) -> tuple[float, tuple[float, float]]:
    """Mean and 95% normal interval of ``n`` values from their sum and sum of squares."""
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = total / n
    var = max(0.0, total_sq / n - m * m) * n / max(1, n - 1)
    half = Z95 * math.sqrt(var / n)
    return m, (m - half, m + half)


def rate(tables: list[tuple[list[str], np.ndarray]], names: list[str]) -> dict:
    """OpenSkill Plackett-Luce ratings of ``names`` from the rounds of several matches.

    ``tables``: for each match the agent of each seat slot and the winning slot of each round (-1: void,
    skipped).  The rounds are rated in turn, round ``g`` of every match before round ``g + 1`` of any, so that
    no match's rounds come last.  Each round is a ranking of the seats, the winner first and the others tied
    (what the round's reward counts).  The agents are fixed, so ``tau=0``: no drift is added between rounds
    and the ratings average over all of them (``training.evaluate._ratings`` explains).  An agent holding
    several seats of one round (one against three) gets the sum of its seats' updates: the Plackett-Luce
    likelihood of the round depends on its rating through each of those seats."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings = {n: model.rating(name=n) for n in names}
    longest = max((len(w) for _, w in tables), default=0)
    for g in range(longest):
        for seats, winners in tables:
            if g >= len(winners) or winners[g] < 0:
                continue
            w = int(winners[g])
            teams = [[model.rating(mu=ratings[n].mu, sigma=ratings[n].sigma, name=n)] for n in seats]
            new = model.rate(teams, ranks=[0 if s == w else 1 for s in range(len(seats))])
            for n in set(seats):
                old = ratings[n]
                idx = [s for s, m in enumerate(seats) if m == n]
                mu = old.mu + sum(new[s][0].mu - old.mu for s in idx)
                var = old.sigma ** 2 * math.prod(new[s][0].sigma ** 2 / old.sigma ** 2 for s in idx)
                ratings[n] = model.rating(mu=mu, sigma=math.sqrt(var), name=n)
    return {n: {"mu": float(r.mu), "sigma": float(r.sigma), "ordinal": float(r.ordinal())}
            for n, r in ratings.items()}


# ------------------------------------------------------------------------------------------ a table
def play_table(rules: str, players: int, rounds: int, batch: int, seed: int, work: Path, resume: bool = False,
               log=print, robustness: bool = True, extra: dict | None = None) -> dict:
    """Every match of one table, its ratings, points per round and costs; its robustness table.  ``extra``:
    entrants of your own beside the table's (``{name: agent object or what agents.load takes}``, ``place``)."""
    extra = dict(extra or {})
    names = entrants(rules, players)
    clash = [n for n in extra if n in names]
    if clash:
        raise ValueError(f"an extra entrant may not take the name of one of the table's ({', '.join(clash)})")
    names += list(extra)
    folder = work / "matches" / f"{rules}-{players}p"
    records = work / "records" / f"{rules}-{players}p"
    folder.mkdir(parents=True, exist_ok=True)
    records.mkdir(parents=True, exist_ok=True)
    matches, rated = [], []
    for agent, opponent in pairings(names, players):
        match, winners, points = _match([agent, opponent], rules, players, rounds, batch, seed, folder, records,
                                        resume, log, extra)
        matches.append(match)
        rated.append(([agent] + [opponent] * (players - 1), winners, points))
    ratings = rate([(s, w) for s, w, _ in rated], names)
    # points per round of each entrant, over every seat it held in every round of the table
    tot = {n: [0.0, 0.0, 0] for n in names}
    for seats, winners, points in rated:
        ok = winners >= 0
        for s, n in enumerate(seats):
            got = np.where(winners[ok] == s, points[ok], 0).astype(np.float64)
            tot[n][0] += got.sum()
            tot[n][1] += (got ** 2).sum()
            tot[n][2] += int(ok.sum())
    ppr = {}
    for n, (a, b, k) in tot.items():
        m, ci = mean_ci(a, b, k)
        ppr[n] = {"mean": m, "ci95": [max(0.0, ci[0]), ci[1]], "seat_rounds": k}
    cost = {n: {"decisions": 0, "seconds": 0.0} for n in names}
    for m in matches:
        for n, c in m["costs"].items():
            cost[n]["decisions"] += c["decisions"]
            cost[n]["seconds"] += c["seconds"]
    for c in cost.values():
        c["seconds_per_decision"] = c["seconds"] / c["decisions"] if c["decisions"] else None
    head = {a: {} for a in names}
    for m in matches:
        a, b = m["agent"], m["opponent"]
        head[a][b] = {k: m["agent_result"][k] for k in ("win_rate", "ci95", "wins", "rounds")}
        if players == 2:
            head[b][a] = {k: m["opponent_result"][k] for k in ("win_rate", "ci95", "wins", "rounds")}
    order = sorted(names, key=lambda n: -ratings[n]["ordinal"])
    out = {"rules": rules, "players": players, "entrants": names, "ranking": order, "fair_share": 1 / players,
           "fingerprints": {n: _fingerprint(n, rules, players, extra) for n in names},
           "matches": matches, "head_to_head": head, "ratings": ratings, "points_per_round": ppr,
           "cost_per_decision": cost}
    if robustness:
        out["robustness"] = play_robustness(rules, players, names, rounds, batch, seed, work, resume, log, extra)
    if extra:
        out["extra"] = list(extra)
    return out


def _match(lineup: list[str], rules: str, players: int, rounds: int, batch: int, seed: int, folder: Path,
           records: Path | None, resume: bool, log, extra: dict | None = None) -> tuple[dict, np.ndarray, np.ndarray]:
    """One match (``lineup``: the agent's seat, then the others'; a lineup of two fills the other seats with its
    second entrant), played or, with ``resume``, kept from ``folder`` when played before with the same protocol
    and the same entrants; its summary, each round's winning seat slot and points."""
    from training.evaluate import play_match

    agent, opponent = lineup[0], lineup[1]
    full = list(lineup) + [lineup[-1]] * (players - len(lineup))
    extra = extra or {}
    stem = "_vs_".join(_slug(n) for n in dict.fromkeys(full))
    key = {"rules": rules, "players": players, "lineup": list(lineup), "rounds": rounds, "batch": batch,
           "seed": seed, "agent": _fingerprint(agent, rules, players, extra),
           "opponent": _fingerprint(opponent, rules, players, extra)}
    if len(set(full[1:])) > 1:
        key["others"] = [_fingerprint(n, rules, players, extra) for n in full[1:]]
    done, arrays = folder / f"{stem}.json", folder / f"{stem}.npz"
    if resume and done.is_file() and arrays.is_file() and json.loads(done.read_text())["key"] == key:
        match = json.loads(done.read_text())["match"]
        data = np.load(arrays)
        log(f"{rules} {players}p {' vs '.join(dict.fromkeys(full))}: kept from {done}")
        return match, data["winners"], data["points"]
    record = None if records is None else records / f"{stem}.jsonl.gz"
    res = play_match([extra.get(n, n) for n in full], rules, players, rounds, seed=seed, batch_size=batch,
                     ratings=False, per_game=True, record=record)
    match = summarise(res, agent, opponent, seed, record)
    if full[1:] != [opponent] * (players - 1):
        match["lineup"] = full
    np.savez_compressed(arrays, winners=res.game_winners, points=res.game_points)
    done.write_text(json.dumps({"key": key, "match": match}))
    e = match["agent_result"]
    log(f"{rules} {players}p {' vs '.join(dict.fromkeys(full))}: {e['win_rate']:.2%} ({e['ci95'][0]:.2%} - "
        f"{e['ci95'][1]:.2%}) over {match['rounds']} rounds, {res.seconds:.0f} s")
    return match, res.game_winners, res.game_points


def play_robustness(rules: str, players: int, names: list[str], rounds: int, batch: int, seed: int, work: Path,
                    resume: bool = False, log=print, extra: dict | None = None) -> dict:
    """Every entrant against every flawed player of the preset (``agents.flawed.gauntlet``): at 2 players one
    against the other, at more the entrant in one seat, the flawed player in the next and ``heuristic`` in the
    others.  ``heuristic``'s own row is the reference: what the unflawed bot wins against each flaw."""
    from agents import flawed

    folder = work / "robustness" / f"{rules}-{players}p"
    folder.mkdir(parents=True, exist_ok=True)
    players_ = flawed.gauntlet(rules)
    results: dict = {n: {} for n in names}
    matches = []
    for entrant in names:
        for f in players_:
            lineup = [entrant, f] + ["heuristic"] * (players - 2)
            match, _, _ = _match(lineup, rules, players, rounds, batch, seed, folder, None, resume, log, extra)
            matches.append(match)
            results[entrant][f] = {k: match["agent_result"][k] for k in ("win_rate", "ci95", "wins", "rounds")}
    return {"flawed": players_, "held_out": [f for f in players_ if flawed.flaw_of(f).held_out],
            "reference": "heuristic", "results": results,
            "seconds": round(sum(m["seconds"] for m in matches), 1),
            "fingerprints": {f: _fingerprint(f, rules, players) for f in players_}}


def shortfalls(robustness: dict, entrant: str, tolerance: float = 0.01) -> dict[str, float]:
    """The flawed players against which ``entrant`` wins more than ``tolerance`` below the reference (the target:
    at least the reference minus one point), with the shortfall."""
    ref = robustness["results"].get(robustness["reference"], {})
    mine = robustness["results"].get(entrant, {})
    out = {}
    for f, r in mine.items():
        if f in ref and r["win_rate"] < ref[f]["win_rate"] - tolerance:
            out[f] = ref[f]["win_rate"] - r["win_rate"]
    return out


def summarise(res, agent: str, opponent: str, seed: int, record: Path | None) -> dict:
    """One match's figures: the agent's seat, and the opponent's seats (one at 2 players, pooled at more)."""
    P = res.players
    ok = res.game_winners >= 0
    n = int(ok.sum())
    out = {"agent": agent, "opponent": opponent, "lineup": [agent] + [opponent] * (P - 1), "rounds": n,
           "void_rounds": res.void_games, "seed": seed, "seconds": round(res.seconds, 1), "costs": res.costs,
           "records": None if record is None else _rel(record)}
    for key, slots in (("agent_result", [0]), ("opponent_result", list(range(1, P)))):
        wins = int(sum(res.entries[s].wins for s in slots))
        seat_rounds = n * len(slots)
        got = np.where(np.isin(res.game_winners[ok], slots), res.game_points[ok], 0).astype(np.float64)
        m, ci = mean_ci(got.sum(), (got ** 2).sum(), n)
        lo, hi = wilson(wins, seat_rounds)
        out[key] = {"seats": len(slots), "wins": wins, "rounds": seat_rounds, "win_rate": wins / max(1, seat_rounds),
                    "ci95": [lo, hi], "points_per_round": m / len(slots),
                    "points_per_round_ci95": [max(0.0, ci[0]) / len(slots), ci[1] / len(slots)]}
    return out


def _rel(path: Path) -> str:
    path = Path(path).resolve()
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


# ------------------------------------------------------------------------------------------ exploitability
def best_responses(path: Path = BEST_RESPONSES) -> list[dict]:
    """The results of ``training.best_response`` (one JSON line each)."""
    if not Path(path).is_file():
        return []
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]


def best_response_for(results: list[dict], agent: str, rules: str, players: int,
                      fingerprint: str | None = None) -> dict | None:
    """The result shown for an entrant, among those measured with the calibrated setting
    (``training.best_response.CALIBRATED``): the strongest evidence of exploitability, the highest 95% lower bound
    of a best response's win rate (each is a lower bound measured on held-out seeds; a failed training run, say
    one that learned to stall, gives a weak one), then the largest budget; with ``fingerprint``, only results
    measured against the entrant as it is (not, say, the heuristic before its weights on that table were
    tuned)."""
    mine = [r for r in results if (r.get("agent"), r.get("rules"), r.get("players")) == (agent, rules, players)
            and (fingerprint is None or r.get("agent_fingerprint") in (None, fingerprint)) and r.get("calibrated")]
    return max(mine, key=lambda r: (r["ci95"][0], r.get("budget_steps", 0), r.get("finished", ""))) if mine else None


# ------------------------------------------------------------------------------------------ your own entrants
def place(strategies, rules: str = "standard_en", players: int = 2, quick: bool = False, rounds: int | None = None,
          work: Path | None = None, resume: bool = True, robustness: bool = True, log=print) -> dict:
    """Place strategies of your own on one table of the leaderboard, beside the bots and shipped agents: the
    same deals, seats and rounds (``quick``: ``QUICK_ROUNDS`` a match, a rough place in seconds), rated with
    them; with ``robustness``, against the flawed players too.  Returns the table as the JSON holds it
    (``table_lines`` renders it).

    ``strategies``: agent objects (anything with ``act(observations, masks, rng)``), or what ``agents.load``
    takes (``"mine.py:MyAgent"``, ``"package.module:MyAgent"``, a run folder, finished or still training).  The
    matches of the table's own entrants are kept in ``work`` (``runs/leaderboard`` or ``runs/leaderboard-quick``)
    and played again only when missing."""
    if isinstance(strategies, (str, os.PathLike)) or hasattr(strategies, "act"):
        strategies = [strategies]
    extra = {}
    for x in strategies:
        name = str(x) if isinstance(x, (str, os.PathLike)) else getattr(x, "name", None) or type(x).__name__
        if name in extra:
            raise ValueError(f"two extra entrants are named {name!r}; give each a distinct name attribute")
        extra[name] = str(x) if isinstance(x, os.PathLike) else x
    rounds = rounds or (QUICK_ROUNDS if quick else ROUNDS)
    work = Path(work or ("runs/leaderboard-quick" if quick else "runs/leaderboard"))
    return play_table(rules, players, rounds, min(BATCH, rounds), SEED, work, resume, log, robustness, extra)


# ------------------------------------------------------------------------------------------ the run
def _commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                             timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def run(presets=PRESETS, sizes=SIZES, rounds: int = ROUNDS, batch: int = BATCH, seed: int = SEED,
        work: Path = Path("runs/leaderboard"), resume: bool = False, quick: bool = False,
        best_response_file: Path = BEST_RESPONSES, command: str = "", log=print, robustness: bool = True) -> dict:
    """Play the protocol and return the leaderboard's JSON object."""
    if not seeds.LEADERBOARD.span(seed, batch):
        raise ValueError(f"seed {seed} with a batch of {batch} leaves the leaderboard's seed range "
                         f"({seeds.LEADERBOARD.start} to {seeds.LEADERBOARD.stop - 1})")
    t0 = time.time()
    tables = [play_table(p, n, rounds, batch, seed, Path(work), resume, log, robustness)
              for p in presets for n in sizes]
    import torch
    return {
        "format": FORMAT,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        # the matches' own seconds, summed: with --resume a call plays only some of them
        "commit": _commit(), "command": command, "quick": quick,
        "seconds": round(sum(m["seconds"] for t in tables for m in t["matches"]), 1),
        "seconds_this_call": round(time.time() - t0, 1),
        "protocol": {"presets": list(presets), "sizes": list(sizes), "bots": list(BOTS), "rounds": rounds,
                     "episode": "round", "batch_size": batch, "seed": seed, "seed_range": seeds.LEADERBOARD.as_dict(),
                     "kept_apart_from": [r.as_dict() for r in seeds.RANGES if r is not seeds.LEADERBOARD],
                     "seats": "rotated: game g shifts the seating by g mod players",
                     "pairings": "2 players: every pair; more: every entrant in one seat against three of every other",
                     "ratings": "OpenSkill PlackettLuce(tau=0), each round a ranking (winner first, others tied), "
                                "the matches' rounds in turn; ordinal = mu - 3 sigma",
                     "torch_threads": torch.get_num_threads()},
        "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                    "cpus": os.cpu_count(), "python": platform.python_version()},
        "tables": tables,
        "exploitability": best_responses(best_response_file),
        "calibration": best_responses(CALIBRATION),
    }


# ------------------------------------------------------------------------------------------ the page
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}"


def _cost(c: dict) -> str:
    s = c.get("seconds_per_decision")
    if s is None:
        return "-"
    return f"{s * 1e6:.0f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def _samples(n: int) -> str:
    """A budget as people write it: ``1M`` or ``2M`` when whole millions, else every digit (``524,288``)."""
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n:,}"


def _start(br: dict, agent: str) -> str:
    """Where a best response started, as a suffix: ``""`` (from scratch), ``", from it"`` or ``", from X"``."""
    start = br.get("start_from") or (agent if br.get("warm_start") else None)
    return "" if start is None else ", from it" if start == agent else f", from `{start}`"


def _coverage(p: dict) -> list[str]:
    """A paragraph saying which tables of the protocol this run left out (none: no paragraph)."""
    sizes, presets = p.get("sizes", SIZES), p.get("presets", PRESETS)
    missing_sizes = [n for n in SIZES if n not in sizes]
    missing_presets = [r for r in PRESETS if r not in presets]
    if not missing_sizes and not missing_presets:
        return []
    parts = []
    if missing_sizes:
        parts.append(f"the {' and '.join(map(str, missing_sizes))}-player tables")
    if missing_presets:
        parts.append("the presets " + ", ".join(f"`{r}`" for r in missing_presets))
    return [f"**Not measured yet**: {' and '.join(parts)} (this run played "
            f"{', '.join(f'`{r}`' for r in presets)} at {' and '.join(map(str, sizes))} players; "
            "`python -m training.leaderboard --resume` plays the whole protocol and keeps the matches already "
            "played).", ""]


def render(data: dict) -> str:
    """``docs/leaderboard.md`` from the leaderboard's JSON."""
    p = data["protocol"]
    rng = p["seed_range"]
    quick = "; **a quick run: too few rounds for figures**" if data.get("quick") else ""
    lines = [
        "# Leaderboard",
        "",
        "<!-- generated by training/leaderboard.py (render) from results/leaderboard/leaderboard.json; "
        "edit those, not this page -->",
        "",
        "How strong each scripted bot and each shipped agent is on every preset, at 2 and at 4 players, measured "
        "one fixed way so that figures of different days compare. Produced by `python -m training.leaderboard` "
        f"(commit `{data.get('commit') or '?'}`, {data['created'][:10]}; its matches took {data['seconds'] / 60:.0f} "
        f"minutes in all, each match on one CPU of a {data['machine']['cpus']}-CPU machine){quick}.",
        "",
        *_coverage(p),
        "## How it is measured { #protocol }",
        "",
        "* **Who plays**: `random`, `greedy` and `heuristic` (the scripted bots, on every table) and every "
        "shipped agent whose model card says it was trained for that preset and number of players.",
        f"* **Matches**: at 2 players every pair of entrants plays {p['rounds']:,} rounds (hands); at 4 players "
        f"every entrant plays {p['rounds']:,} rounds in one seat against three copies of every other entrant. "
        "Seats are rotated, so every entrant sits in every seat equally often.",
        f"* **Deals**: every match deals from seed {rng['first']:,} (the leaderboard's range, {rng['first']:,} to "
        f"{rng['last']:,}), which no training, tuning or selection uses (`training/seeds.py` lists the ranges); "
        "the pairings of one table play the same deals. The game records of every round are written too "
        "(`runs/leaderboard/records/`, [game records](records.md)).",
        "* **Win rate**: the share of rounds the row's entrant won against the column's, with its 95% Wilson "
        f"interval. A fair share is 50% at 2 players and 25% at 4; {p['rounds']:,} rounds give about ±0.7 "
        "points at 2 players.",
        "* **Rating**: [OpenSkill](https://openskill.me) (Plackett-Luce) from the same rounds, each round "
        "a ranking with its winner first and the others tied; the table is sorted by the ordinal, "
        "mu − 3 sigma, as OpenSkill's authors suggest for a leaderboard. The agents do not change, so no drift "
        "is added between rounds (`tau=0`) and sigma shrinks with the number of rounds.",
        "* **Points per round**: the points an entrant scores in a round (the cards left in the other hands "
        "when it wins, 0 when it loses), averaged over every seat it held, with a 95% interval.",
        "* **Cost per decision**: the time its observations and decisions took, per decision, in batches of up to "
        f"{p['batch_size']} games with {p['torch_threads']} torch thread(s), on the machine of this run: a "
        "measurement, which another machine will not repeat.",
        "* **Best response**: at 2 players, how often a PPO learner trained against the entrant (frozen) beats it "
        "over 20,000 rounds on seeds of their own (`python -m training.best_response`, with its calibrated setting: "
        "started from the preset's agent, 1M samples; [how it was calibrated](#calibration)): a lower bound on how "
        "exploitable the entrant is. Above 53%, the entrant is called exploitable. Only figures measured with the "
        "calibrated setting are shown; every measurement is listed below. A blank means not measured yet with it.",
        "",
    ]
    results = data.get("exploitability", [])
    by_rules: dict[str, list] = {}
    for t in data["tables"]:
        by_rules.setdefault(t["rules"], []).append(t)
    for rules, tables in by_rules.items():
        lines += [f"## `{rules}` {{ #{rules} }}", ""]
        for t in tables:
            lines += table_lines(t, results)
    lines += calibration_lines(data)
    lines += exploited_lines(data)
    lines += best_responses_lines(data)
    lines += claims_lines(data)
    lines += gauntlet_lines(data)
    lines += add_yours_lines()
    lines += ["## Reproduce { #reproduce }", "", "```bash",
              "python -m training.leaderboard            # the protocol above (hours on two cores)",
              "python -m training.leaderboard --resume   # after an interruption: keeps the matches played",
              "python -m training.best_response ppo-standard_en-2p --rules standard_en   # the calibrated setting",
              "python -m training.leaderboard --exploitability-only   # add new best responses to the JSON",
              "```", ""]
    return "\n".join(lines)


def exploited_lines(data: dict) -> list[str]:
    """The entrants called exploitable (a calibrated best response above ``EXPLOITABLE``), each with what its best
    response does that the entrant does not, in rounds between them (the kinds of move whose share differs most,
    ``uno_env.profile.differences``, recorded by ``training.best_response``)."""
    results, found = data.get("exploitability", []), []
    for t in data["tables"]:
        for n in t["entrants"] if t["players"] == 2 else ():
            br = best_response_for(results, n, t["rules"], 2, t.get("fingerprints", {}).get(n))
            if br and br["win_rate"] > EXPLOITABLE:
                found.append((t["rules"], n, br))
    if not found:
        return []
    lines = ["## Exploitable entrants { #exploitable }", "",
             f"A calibrated best response wins more than {EXPLOITABLE:.0%} against each entrant below. What it does "
             "that the entrant does not: both players' moves by kind in rounds between them (the kinds whose share "
             "of the decisions differs most; `python -m research.play_profile` gives the whole profile).", ""]
    for rules, n, br in found:
        lines += [f"### `{n}` on `{rules}` {{ #exploited-{rules}-{_slug(n)} }}", "",
                  f"Its best response wins {_pct(br['win_rate'])} ({_ci(br['ci95'])}) of {br['rounds']:,} rounds "
                  f"({_samples(br['budget_steps'])} samples{_start(br, n)}).", ""]
        prof = br.get("profile")
        if not prof or "entrant" not in prof:  # none, or compared with its start (an earlier format)
            lines += ["(Not profiled: measured before `training.best_response` recorded what the learner does.)",
                      ""]
            continue
        lines += [f"| move | the best response's share of its decisions | `{n}`'s |", "|---|---|---|"]
        # (a draw is a decision only while a card is playable: a forced draw is played for the seat, so the
        # profile's "while a card was playable" is always 100% here and not shown)
        lines += [f"| {d['kind']} | {_pct(d['share'])} | {_pct(d['other_share'])} |" for d in prof["differences"]]
        lines += ["", f"({prof['rounds']:,} rounds between them, seats rotated, seeds from {prof['seed']:,}.)", ""]
    return lines


def best_responses_lines(data: dict) -> list[str]:
    """Every measurement of ``training.best_response``, calibrated or not; one measured against an earlier network
    of an entrant's name (its fingerprint no longer the table's) is named so."""
    results = data.get("exploitability", [])
    if not results:
        return []
    shown = [r for r in results if not any(t["rules"] == r.get("rules") and t["players"] == r.get("players")
                                           and r.get("agent") in t["entrants"] for t in data["tables"])]
    lines = ["## Best responses { #best-responses }", "",
             "Every measurement of `training.best_response` (`results/leaderboard/best_response.jsonl`). Those "
             "marked *earlier setting* were measured before the calibration, mostly at learning rate 5e-5, "
             "which recovered half of a known gap: read them as \"the learner did not move\", not as \"not "
             "exploitable\"; the column above leaves them out.", "",
             "| agent | rules | players | budget (samples) | started from | best response's win rate | rounds | "
             "seeds from | setting |", "|---|---|---|---|---|---|---|---|---|"]
    now = {(t["rules"], t["players"], n): f for t in data["tables"] for n, f in t.get("fingerprints", {}).items()}
    for r in results:
        was = now.get((r["rules"], r["players"], r["agent"]))
        replaced = was is not None and r.get("agent_fingerprint") not in (None, was)
        lines.append(f"| `{r['agent']}`{' (an earlier network of that name)' if replaced else ''} | `{r['rules']}` | "
                     f"{r['players']} | {r['budget_steps']:,} | "
                     f"{_start(r, r['agent'])[2:] or 'scratch'} | {_pct(r['win_rate'])} ({_ci(r['ci95'])}) | "
                     f"{r['rounds']:,} | {r['seed']:,} | "
                     f"{'calibrated' if r.get('calibrated') else '*earlier setting*'} |")
    lines.append("")
    if shown:
        lines += [f"({len(shown)} of them for agents or tables not on this leaderboard.)", ""]
    return lines


def table_lines(t: dict, results: list[dict] | None = None, heading: str = "###") -> list[str]:
    """One table of the page: the ranking (with, at 2 players, each entrant's best response from ``results``),
    the head-to-head win rates and, when measured, the robustness table."""
    rules, results, lines = t["rules"], results or [], []
    P = t["players"]
    lines += [f"{heading} {P} players {{ #{rules}-{P}p }}", ""]
    head = "| rank | entrant | rating (ordinal) | mu ± sigma | points per round | cost per decision |"
    sep = "|---|---|---|---|---|---|"
    if P == 2:
        head += " best response |"
        sep += "---|"
    lines += [head, sep]
    for k, n in enumerate(t["ranking"], 1):
        r, pp = t["ratings"][n], t["points_per_round"][n]
        row = (f"| {k} | `{n}` | {r['ordinal']:.2f} | {r['mu']:.2f} ± {r['sigma']:.2f} | {pp['mean']:.2f} "
               f"({pp['ci95'][0]:.2f}-{pp['ci95'][1]:.2f}) | {_cost(t['cost_per_decision'][n])} |")
        if P == 2:
            br = best_response_for(results, n, rules, P, t.get("fingerprints", {}).get(n))
            found = (f", **exploitable** ([what it does](#exploited-{rules}-{_slug(n)}))"
                     if br and br["win_rate"] > EXPLOITABLE else "")
            row += (f" {_pct(br['win_rate'])} ({_ci(br['ci95'])}), {_samples(br['budget_steps'])} samples"
                    f"{_start(br, n)}{found} |" if br else " |")
        lines.append(row)
    against = "in one seat against three of the column's" if P > 2 else "against the column's"
    lines += ["", f"Win rate of the row's entrant {against}, with its 95% interval:", ""]
    order = t["ranking"]
    lines.append("| | " + " | ".join(f"`{n}`" for n in order) + " |")
    lines.append("|---|" + "---|" * len(order))
    for a in order:
        cells = []
        for b in order:
            h = t["head_to_head"][a].get(b)
            cells.append("-" if h is None else f"{_pct(h['win_rate'])} ({_ci(h['ci95'])})")
        lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    lines.append("")
    if t.get("robustness"):
        lines += robustness_lines(t)
    return lines


def robustness_lines(t: dict) -> list[str]:
    """The robustness table of one table: each entrant's win rate against each flawed player, the reference
    (``heuristic``'s) first, shortfalls of more than a point marked."""
    from agents import flawed

    rob, P = t["robustness"], t["players"]
    fl = rob["flawed"]
    ref = rob["reference"]
    seat = "against it" if P == 2 else \
        f"in one seat, the flawed player in the next and `heuristic` in the other {P - 2}"
    lines = [f"#### Robustness: against the flawed players {{ #{t['rules']}-{P}p-robustness }}", "",
             f"Win rate of the row's entrant {seat}, with its 95% interval. Each flawed player is `heuristic` with one "
             "deliberate flaw ([the gauntlet](#robustness)); the first row, `heuristic` itself, is the **reference**: "
             "what exploiting the flaw is worth to a player that does. **Bold**: more than one point below the "
             "reference (a hole), with the shortfall. Flaws marked * are held out: nothing is trained against them.",
             "", "| | " + " | ".join(f"`{f[len(flawed.PREFIX):]}`" + ("*" if f in rob["held_out"] else "")
                                    for f in fl) + " |", "|---|" + "---|" * len(fl)]
    order = [ref] + [n for n in t["ranking"] if n != ref and n in rob["results"]]
    for n in order:
        short = shortfalls(rob, n) if n != ref else {}
        cells = []
        for f in fl:
            r = rob["results"][n].get(f)
            if r is None:
                cells.append("-")
            elif f in short:
                cells.append(f"**{_pct(r['win_rate'])} ({_ci(r['ci95'])}), −{100 * short[f]:.1f}**")
            else:
                cells.append(f"{_pct(r['win_rate'])} ({_ci(r['ci95'])})")
        lines.append(f"| `{n}`{' (reference)' if n == ref else ''} | " + " | ".join(cells) + " |")
    return lines + [""]


def calibration(data: dict) -> list[dict]:
    """Each calibration run (a best response started from the preset's agent, trained against a flawed player)
    with the gap it had to recover: from the agent's own rate against the flawed player to the reference
    (``heuristic``'s), both from the robustness tables, and the share of it recovered.  A run started from a
    network since replaced (its ``start_fingerprint`` no longer the table's) keeps the gap it was measured on:
    the starting network's own rate, recorded in the line (``own``), or it is left out."""
    out = []
    for r in data.get("calibration", []):
        t = next((t for t in data["tables"] if t["rules"] == r["rules"] and t["players"] == r["players"]
                  and t.get("robustness")), None)
        start = r.get("start_from")
        if t is None:
            continue
        res = t["robustness"]["results"]
        same = r.get("start_fingerprint") in (None, t.get("fingerprints", {}).get(start))
        own = r.get("own") if r.get("own") else (res.get(start, {}).get(r["agent"]) if same else None)
        ref = res.get("heuristic", {}).get(r["agent"])
        if own is None or ref is None:
            continue
        gap = ref["win_rate"] - own["win_rate"]
        out.append({**r, "own": own["win_rate"], "reference": ref["win_rate"], "gap": gap, "replaced": not same,
                    "recovered": (r["win_rate"] - own["win_rate"]) / gap if gap > 0.01 else None})
    return out


def calibration_lines(data: dict) -> list[str]:
    rows = calibration(data)
    lines = ["## How the best response was calibrated { #calibration }", "",
             "A best response is only as good as its learner, so it was first run where the answer is known: "
             "against flawed players the preset's agent does not fully exploit (a gap of more than a point in the "
             "robustness table). Started from the agent, it must climb from the agent's own rate to the "
             "reference (what `heuristic` wins against the same flaw). The setting that recovers at least 90% "
             "of every known gap at its budget is the one the column above uses.", "",
             "| rules | flawed player | started from | learning rate | budget (samples) | agent's own rate | "
             "reference | best response | gap recovered |", "|---|---|---|---|---|---|---|---|---|"]
    if not rows:
        return lines[:3] + ["No calibration run is in this JSON yet (`results/leaderboard/calibration.jsonl`, read by "
                            "`python -m training.leaderboard --exploitability-only`, with the robustness tables that "
                            "give each gap).", ""]
    for r in rows:
        rec = "-" if r["recovered"] is None else f"**{100 * r['recovered']:.0f}%**"
        start = f"`{r.get('start_from')}`" + (" (the earlier network of that name)" if r["replaced"] else "")
        lines.append(f"| `{r['rules']}` | `{r['agent']}` | {start} | "
                     f"{r['hyperparameters']['learning_rate']:g} | {r['budget_steps']:,} | {_pct(r['own'])} | "
                     f"{_pct(r['reference'])} | {_pct(r['win_rate'])} ({_ci(r['ci95'])}) | {rec} |")
    return lines + ["", "The agent's own rate and the reference are the robustness tables' (the leaderboard's "
                        "deals); the best response's, 20,000 rounds on its own check seeds.", ""]


def claims_lines(data: dict) -> list[str]:
    """Each shipped agent's claim against ``heuristic``: one figure, all its held-out rounds pooled
    (``training.claims``), the figure the targets table and docs/training.md quote, with its parts."""
    from training import claims

    rows = []
    for t in data["tables"]:
        name = f"ppo-{t['rules']}-{t['players']}p"
        c = claims.agent_claim(t["rules"], t["players"]) if name in t["entrants"] else None
        if c is None:
            continue
        parts = "; ".join(f"{100 * s['wins'] / s['rounds']:.1f}% of {s['rounds']:,} from seed {s['seed']:,}"
                          + (" (this page)" if s["source"].endswith("leaderboard.json") else "")
                          for s in c["sources"])
        parts += "".join(f"; this page's {100 * s['wins'] / s['rounds']:.1f}% of {s['rounds']:,}, on the same deals, "
                         f"counted once" for s in c["same_deals"])
        rows.append(f"| `{name}` | {'`heuristic`' if t['players'] == 2 else 'three `heuristic`'} | "
                    f"**{_pct(c['rate'])}** ({_ci((c['lo'], c['hi']))}) | {c['games']:,} | {parts} |")
    if not rows:
        return []
    return ["## The agents' figures { #claims }", "",
            "One figure per claim: what each shipped agent wins against `heuristic`, every held-out measurement "
            "of it pooled with its rounds (the tables above are one of them; the agent's held-out evaluation, "
            "`results/held_out/`, is the other; a measurement on the same deals as another counts once). The "
            "targets table and the training page quote these figures.", "",
            "| agent | against | win rate (95% interval) | rounds | measurements |", "|---|---|---|---|---|",
            *rows, ""]


def gauntlet_lines(data: dict | None = None) -> list[str]:
    """The flawed players, what each does and where it applies; the tables whose robustness is not measured."""
    from agents import flawed

    lines = ["## The flawed players { #robustness }", "",
             "A benchmark of strategies is only as good as the holes it can see. Each flawed player is `heuristic` "
             "(with the weights it plays on that preset and table size) with one deliberate flaw; everything else "
             "it does is `heuristic`'s. What `heuristic` wins against a flawed player is the reference: an entrant "
             "that wins clearly less has a hole there, one a learner exploiting it would find. Load one with "
             "`agents.load(\"heuristic-no-uno\", game=game)` (`agents.flawed`). Flaws marked held out are never "
             "trained against: they check robustness to holes nobody listed for training.", "",
             "| player | the flaw | presets | |", "|---|---|---|---|"]
    for f in flawed.FLAWS.values():
        where = [r for r in PRESETS if flawed.applies(f, r)]
        lines.append(f"| `{f.player}` | {f.doc} | {', '.join(f'`{r}`' for r in where)} | "
                     f"{'held out' if f.held_out else ''} |")
    missing = [f"`{t['rules']}` at {t['players']} players" for t in (data or {}).get("tables", [])
               if not t.get("robustness")]
    if missing:
        lines += ["", f"**Robustness not measured yet** for {', '.join(missing)} "
                      "(`python -m training.leaderboard --robustness-only --resume` plays them and keeps the "
                      "matches already played)."]
    return lines + [""]


def add_yours_lines() -> list[str]:
    """How to place a strategy of one's own on these tables."""
    return ["## Add yours { #add-yours }", "",
            "A strategy is any object with a batched `act(observations, action_masks, rng=None)`: a 2-D array of "
            "the observations of the seats to move (the game's layout, v3), their boolean masks of legal actions, "
            "and a numpy generator; it returns one action id per row. A one-game function "
            "`fn(observation, mask) -> action` works too (`agents.base.OneGame` wraps it, one call a decision). "
            "`training.leaderboard.place` plays it on a table beside the bots and agents, on the same deals, seats "
            "and rounds, rates it with them and plays it against the flawed players:", "",
            "```python",
            "import numpy as np",
            "from agents import ObsView",
            "from training.leaderboard import place, table_lines",
            "from uno_env import VecGame",
            "",
            "class MostPoints:",
            "    \"\"\"Catch and declare UNO first, else play the highest-scoring card, else the first legal.\"\"\"",
            "    name = \"most-points\"",
            "",
            "    def __init__(self, rules=\"standard_en\", players=2):",
            "        v = ObsView(VecGame(rules, players))  # the rules' tables: which action plays which card",
            "        self.value = np.where(v.action_is_play, 1 + v.face_points[v.action_face0], 0.0)",
            "        self.value[v.catch_ids] = self.value[v.UNO] = 100.0",
            "",
            "    def act(self, observations, action_masks, rng=None):",
            "        return np.argmax(np.where(action_masks, self.value, -1.0), axis=1)",
            "",
            "table = place([MostPoints()], \"standard_en\", 2, quick=True)   # quick: 200 rounds a match, seconds",
            "print(\"\\n\".join(table_lines(table)))",
            "```", "",
            "From the command line, a class or function in a file, an importable module, or a run folder (finished, "
            "or still training: its latest checkpoint) joins with `--extra`; without `--quick` it plays the full "
            "protocol (20,000 rounds a match, the matches of the table's own entrants kept in `runs/leaderboard` "
            "once played):", "",
            "```bash",
            "python -m training.leaderboard --extra mine.py:MostPoints --presets standard_en --sizes 2 --quick",
            "python -m training.leaderboard --extra runs/my-run --presets standard_en --sizes 2",
            "python -m training.best_response mine.py:MostPoints --rules standard_en   # how exploitable it is",
            "```", ""]


def load(path: Path = JSON_PATH) -> dict | None:
    """The committed leaderboard JSON, or None."""
    return json.loads(Path(path).read_text(encoding="utf-8")) if Path(path).is_file() else None


def page(path: Path = JSON_PATH) -> str:
    """``docs/leaderboard.md``: the committed JSON rendered, or a page saying how to make it."""
    data = load(path)
    if data is not None:
        return render(data)
    return ("# Leaderboard\n\nNo leaderboard has been measured yet: `python -m training.leaderboard` writes "
            f"`{_rel(Path(path))}`, and the documentation build turns it into this page.\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.leaderboard", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"a small run: {QUICK_ROUNDS} rounds a match, to runs/leaderboard-quick/ (tests use it)")
    parser.add_argument("--rounds", type=int, default=None, help=f"rounds a match (default {ROUNDS:,})")
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="comma-separated numbers of players")
    parser.add_argument("--batch-size", type=int, default=BATCH, help="games played at once")
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the deals (in the leaderboard's range)")
    parser.add_argument("--out", type=Path, default=None, help=f"the JSON (default {_rel(JSON_PATH)}; "
                                                               "quick: runs/leaderboard-quick/leaderboard.json)")
    parser.add_argument("--work-dir", type=Path, default=None,
                        help="records and finished matches (default runs/leaderboard, quick: runs/leaderboard-quick)")
    parser.add_argument("--resume", action="store_true", help="keep the matches of --work-dir played with the "
                                                              "same protocol and entrants")
    parser.add_argument("--best-responses", type=Path, default=BEST_RESPONSES,
                        help="the JSON lines of training.best_response")
    parser.add_argument("--exploitability-only", action="store_true",
                        help="play nothing: re-read --best-responses into the existing JSON")
    parser.add_argument("--robustness", action=argparse.BooleanOptionalAction, default=True,
                        help="play every entrant against the flawed players too (default on)")
    parser.add_argument("--extra", action="append", default=[], metavar="STRATEGY",
                        help="place a strategy of your own on the tables of --presets and --sizes (repeatable): "
                             "module:Class, path/to/file.py:Class, a run folder (finished or still training); "
                             "plays its matches and prints the tables, to --out (default runs/leaderboard-extra/)")
    parser.add_argument("--robustness-only", action="store_true",
                        help="play only the robustness matches (every entrant against the flawed players) of "
                             "--presets and --sizes and add them to the existing JSON's tables")
    parser.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = parser.parse_args(argv)
    quick_dir = Path("runs/leaderboard-quick")
    out = args.out or (quick_dir / "leaderboard.json" if args.quick else JSON_PATH)
    if args.exploitability_only:
        data = load(out)
        if data is None:
            parser.error(f"no leaderboard at {out} to add best responses to")
        data["exploitability"] = best_responses(args.best_responses)
        data["calibration"] = best_responses(CALIBRATION)
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{len(data['exploitability'])} best responses in {out}")
        return 0
    presets = [x.strip() for x in args.presets.split(",") if x.strip()]
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    from uno_env.core.config import PRESETS as KNOWN
    bad = [x for x in presets if x not in KNOWN]
    if bad or not presets or not sizes or min(sizes) < 2:
        parser.error(f"--presets must name presets ({', '.join(KNOWN)}) and --sizes numbers of players >= 2")
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    batch = min(args.batch_size, rounds)
    import torch
    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    work = args.work_dir or (quick_dir if args.quick else Path("runs/leaderboard"))
    if args.extra:
        import agents
        unknown = [x for x in args.extra if agents.locate(x)[0] == "unknown"]
        if unknown:
            parser.error(f"--extra: {', '.join(unknown)}: give module:Class, path/to/file.py:Class or a run folder")
        out = args.out or Path("runs/leaderboard-extra") / f"leaderboard{'-quick' if args.quick else ''}.json"
        tables = []
        for rules in presets:
            for n in sizes:
                try:
                    t = place(args.extra, rules, n, rounds=rounds, work=work, resume=True, robustness=args.robustness,
                              log=lambda s: print(s, flush=True))
                except (ValueError, LookupError, ImportError) as exc:  # the strategy's own error, in one line
                    print(f"leaderboard: error: {exc}", file=sys.stderr)
                    return 2
                tables.append(t)
                print("\n".join(table_lines(t, best_responses(args.best_responses))), flush=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"format": FORMAT, "quick": rounds < ROUNDS, "extra": args.extra,
                                   "tables": tables}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}")
        return 0
    if args.robustness_only:
        data = load(out)
        if data is None:
            parser.error(f"no leaderboard at {out} to add the robustness tables to")
        if rounds != data["protocol"]["rounds"] or batch != data["protocol"]["batch_size"] \
                or args.seed != data["protocol"]["seed"]:
            parser.error(f"--robustness-only plays the protocol of {out} ({data['protocol']['rounds']:,} rounds, "
                         f"batch {data['protocol']['batch_size']}, seed {data['protocol']['seed']:,}); give the same")
        for t in data["tables"]:
            if t["rules"] in presets and t["players"] in sizes:
                t["robustness"] = play_robustness(t["rules"], t["players"], t["entrants"], rounds, batch, args.seed,
                                                  Path(work), args.resume, log=lambda s: print(s, flush=True))
                out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")  # each table as it ends
        print(f"robustness tables in {out}")
        return 0
    try:
        data = run(presets, sizes, rounds, batch, args.seed, work, args.resume, args.quick or rounds < ROUNDS,
                   args.best_responses, command="python -m training.leaderboard " + " ".join(
                       argv if argv is not None else sys.argv[1:]), log=lambda s: print(s, flush=True),
                   robustness=args.robustness)
    except ValueError as exc:
        print(f"leaderboard: error: {exc}", file=sys.stderr)
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({sum(len(t['matches']) for t in data['tables'])} matches, {data['seconds']:.0f} s); "
          f"records under {work / 'records'}")
    return 0


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

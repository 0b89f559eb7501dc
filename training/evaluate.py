"""Seat-rotated matches between agents, with 95% Wilson intervals and OpenSkill ratings.

    python -m training.evaluate --agents heuristic,random --rules standard_en --players 2 --games 20000
    python -m training.evaluate --agents ppo-standard_en-4p,heuristic --players 4 --games 20000 --out runs/eval
    uno eval --agents heuristic,greedy,random,random --players 4

``--agents`` names one agent per seat of a table (the last one fills the remaining seats, so
``ppo,heuristic`` with 4 players is one PPO seat against three heuristic bots).  Game ``g`` rotates
the seating by ``g mod players`` so that every agent sits in every seat equally often.  A "game" is a
round (a hand) by default, or a whole game to the target with ``--episode game``.

Reported per table entry: wins, win rate with a 95% Wilson interval, mean points scored per round
won, and for tables of more than two an OpenSkill (Plackett-Luce) rating from the rankings of every
game (the winner first, the others tied: what the round's win/loss reward counts; ranking the losers
by the points left in their hands would reward hoarding nothing but low cards, not winning).  Results go to the terminal
as a markdown table and, with ``--out``, to ``results.json``, ``results.md`` and ``results.png``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from uno_env import extras, opponents

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at 0 or n wins the bound is exact in theory; rounding would leave it a hair inside (1e-18)
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == n else min(1.0, centre + half)
    return (lo, hi)


@dataclass
class EntryResult:
    """One entry of the table (an agent in one seat slot of the lineup)."""

    slot: int
    agent: str
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_points_when_winning: float
    rating_mu: float | None = None
    rating_sigma: float | None = None


@dataclass
class MatchResult:
    rules: str
    players: int
    episode: str
    games: int
    seconds: float
    lineup: list[str]
    entries: list[EntryResult] = field(default_factory=list)
    void_games: int = 0
    seed: int | None = None  # the deals: row i of the batch plays the games seeded seed + i (VecGame)
    batch_size: int | None = None
    # per distinct agent: the decisions it made and the seconds its observations and ``act`` calls took
    costs: dict = field(default_factory=dict)
    # with ``per_game=True``: each game's winning slot (-1: void) and the points of its last round, by game
    # number (left out of ``to_json``)
    game_winners: np.ndarray | None = field(default=None, repr=False)
    game_points: np.ndarray | None = field(default=None, repr=False)

    def to_markdown(self) -> str:
        lines = [f"{self.rules}, {self.players} players, {self.games} {self.episode}s, seats rotated",
                 "", "| seat slot | agent | win rate | 95% CI | wins | rating (mu +/- sigma) |",
                 "|---|---|---|---|---|---|"]
        for e in self.entries:
            rating = "" if e.rating_mu is None else f"{e.rating_mu:.2f} +/- {e.rating_sigma:.2f}"
            lines.append(f"| {e.slot} | {e.agent} | {e.win_rate:.1%} | {e.ci95[0]:.1%} - {e.ci95[1]:.1%} | "
                         f"{e.wins} | {rating} |")
        return "\n".join(lines)

    def to_json(self) -> dict:
        out = asdict(self)
        out.pop("game_winners"), out.pop("game_points")
        return out


def _load_agents(names: list[str], game, seed: int | None):
    import agents
    return [agents.load(n, game=game, seed=None if seed is None else seed + 17 * i)
            if isinstance(n, str) else n for i, n in enumerate(names)]


def play_match(lineup: list, rules="standard_en", num_players: int = 2, games: int = 1000,
               seed: int = 0, batch_size: int = 512, episode: str = "round", ratings: bool | None = None,
               progress: bool = False, record=None, per_game: bool = False, watch=None, **options) -> MatchResult:
    """Play ``games`` seat-rotated games between the agents of ``lineup`` (names or agents).

    ``lineup`` lists the agent of each seat slot; when shorter than ``num_players`` its last entry
    fills the remaining slots (one result entry per slot).  ``record``: a file to write every game to
    as a game record (``uno_env.records``, docs/records.md), or a ``RecordWriter``.  ``per_game``: keep
    each game's winning slot and points (``MatchResult.game_winners``, ``game_points``), for ratings over
    several matches.  ``MatchResult.costs`` gives each distinct agent's decisions and the seconds they took
    (its observations and ``act`` calls, batched as the match plays them).  ``watch``: a callable
    ``watch(state, rows, seats, slots, actions)`` shown each batch of decisions before it is applied (the
    seat slot of each row's actor, an index into ``lineup``), to study what the agents do; it must not
    change the state.
    """
    from uno_env import VecGame
    from uno_env.core.state import OVER
    from uno_env.learner import observer_for

    if episode not in ("round", "game"):
        raise ValueError(f"episode={episode!r} is not allowed; use 'round' or 'game'")
    if not lineup:
        raise ValueError("lineup needs at least one agent")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    P = num_players
    lineup = list(lineup) + [lineup[-1]] * (P - len(lineup))
    if len(lineup) != P:
        raise ValueError(f"lineup has {len(lineup)} agents for {P} seats")
    B = max(1, min(batch_size, games))
    next_game = B
    # the layout and memory the lineup needs (the memory on if anyone reads v3): each agent reads its own
    # layout (uno_env.learner.observer_for)
    game = VecGame(rules, P, batch_size=B, seed=seed, autoreset=False, **opponents.layout_for(lineup), **options)
    names = [x if isinstance(x, str) else getattr(x, "name", type(x).__name__) for x in lineup]
    # identical names share one agent object (one batched act call per distinct agent)
    distinct = list(dict.fromkeys(names))
    objs = dict(zip(distinct, _load_agents([lineup[names.index(n)] for n in distinct], game, seed)))
    slot_agent = np.array([distinct.index(n) for n in names])
    agent_objs = [objs[n] for n in distinct]
    layouts: dict = {}
    rng = np.random.default_rng(seed)
    st, engine = game.state, game.engine
    game_no = np.arange(B)  # index of the game each row is playing
    rotation = game_no % P  # seat s is played by slot (s - rotation) mod P
    wins = np.zeros(P, np.int64)
    points = np.zeros(P, np.int64)
    done = 0
    void = 0
    winners: list[int] = []  # the winning slot of each game, for the ratings
    by_game_winner = np.full(games, -1, np.int64) if per_game else None
    by_game_points = np.zeros(games, np.int64) if per_game else None
    decisions = np.zeros(len(agent_objs), np.int64)
    act_seconds = np.zeros(len(agent_objs))
    want_ratings = (P > 2) if ratings is None else ratings
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=games, unit="game")
    t0 = time.perf_counter()
    active = np.ones(B, bool)
    recorder = writer = None
    if record is not None:
        from uno_env import records
        writer = record if isinstance(record, records.RecordWriter) else records.RecordWriter(record)
        recorder = records.Recorder(game, episode, sink=writer.write,
                                    agents=lambda r: [names[(s - rotation[r]) % P] for s in range(P)])
        recorder.begin(np.arange(B), fresh=True)  # each row's first game is VecGame's seed + row
    while active.any():
        rows = np.flatnonzero(active)
        dealt_over = st.phase[rows] == OVER
        if dealt_over.any():  # rounds that forced moves ended at their deal (as with one-card hands)
            er = rows[dealt_over]
        else:
            seats = st.actor[rows].astype(np.int64)
            slots = (seats - rotation[rows]) % P
            who = slot_agent[slots]
            actions = np.empty(rows.size, np.int64)
            for k in np.unique(who):
                i = np.flatnonzero(who == k)
                t_act = time.perf_counter()
                obs = observer_for(game, agent_objs[k], layouts).observe(st, rows[i], seats[i])
                actions[i] = agent_objs[k].act(obs, st.mask[rows[i]], rng)
                act_seconds[k] += time.perf_counter() - t_act
                decisions[k] += i.size
            if watch is not None:
                watch(st, rows, seats, slots, actions)
            if recorder is not None:
                recorder.act(rows, seats, actions)
            out = engine.step_rows(st, rows, actions)
            er = rows[out.round_over]
            if er.size == 0:
                continue
        finished = er if episode == "round" else er[st.game_over[er]]
        cont = np.setdiff1d(er, finished)
        if cont.size:
            game.next_round(cont)
        if finished.size and recorder is not None:
            recorder.end(finished, info=[{"game": int(game_no[r])} for r in finished])
        if finished.size:
            take = finished
            for r in take:
                rot = rotation[r]
                if episode == "round":
                    w = int(st.winner[r])
                else:
                    w = int(np.argmax(engine.game_winners(st, np.array([r]))[0]))
                if w < 0:
                    void += 1
                    continue
                slot = (w - rot) % P
                wins[slot] += 1
                points[slot] += int(st.round_points[r])
                if per_game:
                    by_game_winner[game_no[r]] = slot
                    by_game_points[game_no[r]] = int(st.round_points[r])
                if want_ratings:
                    winners.append(slot)
            done += take.size
            if bar is not None:
                bar.update(take.size)
            # start new games in finished rows until ``games`` have been started, then let the rest
            # finish: stopping early would favour short games (and whoever wins them)
            fresh = finished[next_game + np.arange(finished.size) < games]
            retire = np.setdiff1d(finished, fresh)
            active[retire] = False
            if fresh.size:
                game_no[fresh] = next_game + np.arange(fresh.size)
                next_game += fresh.size
                rotation[fresh] = game_no[fresh] % P
                if episode == "game":
                    game.new_game(fresh)
                else:
                    game.next_round(fresh)
                if recorder is not None:
                    recorder.begin(fresh)
    if writer is not None and writer is not record:
        writer.close()
    if bar is not None:
        bar.close()
    seconds = time.perf_counter() - t0
    counted = done - void
    result = MatchResult(str(game.rules.name), P, episode, done, seconds, names, void_games=void, seed=seed,
                         batch_size=B,
                         costs={n: {"decisions": int(decisions[k]), "seconds": float(act_seconds[k])}
                                for k, n in enumerate(distinct)},
                         game_winners=by_game_winner, game_points=by_game_points)
    mus = _ratings(winners, P) if want_ratings and winners else None
    for s in range(P):
        lo, hi = wilson(int(wins[s]), counted)
        entry = EntryResult(s, names[s], counted, int(wins[s]), wins[s] / max(1, counted), (lo, hi),
                            points[s] / max(1, wins[s]))
        if mus is not None:
            entry.rating_mu, entry.rating_sigma = mus[s]
        result.entries.append(entry)
    return result


def _ratings(winners: list[int], P: int) -> list[tuple[float, float]]:
    """OpenSkill Plackett-Luce ratings of the seat slots from each game's winner (the others tied).

    The agents are fixed, so their skill does not drift: ``tau=0`` (no added variance per game) makes
    the ratings an estimate over all the games, whose sigma shrinks with their number. (The default tau
    keeps sigma near 1.6 and lets the last few hundred games decide mu.)"""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    players = [model.rating(name=str(s)) for s in range(P)]
    for w in winners:
        updated = model.rate([[p] for p in players], ranks=[0 if s == w else 1 for s in range(P)])
        players = [team[0] for team in updated]
    return [(float(p.mu), float(p.sigma)) for p in players]


def _short(agent: str, width: int = 20) -> str:
    """A tick label that fits under its bar: file names without their folders, wrapped at ``width``."""
    import textwrap
    name = "+".join(Path(part).stem if "/" in part else part for part in agent.split("+"))
    lines = textwrap.wrap(name.replace("+", "+ "), width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(line.replace("+ ", "+") for line in lines) or name


def plot(result: MatchResult, path: str | Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(1.6 + 1.2 * len(result.entries), 3.2))
    x = np.arange(len(result.entries))
    rates = [e.win_rate for e in result.entries]
    err = np.array([[e.win_rate - e.ci95[0] for e in result.entries],
                    [e.ci95[1] - e.win_rate for e in result.entries]])
    ax.bar(x, rates, yerr=err, capsize=4, color="#4C72B0")
    ax.axhline(1 / result.players, color="grey", ls="--", lw=1, label="fair share")
    ax.set_xticks(x, [f"{_short(e.agent)}\n(slot {e.slot})" for e in result.entries], fontsize=8)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(f"{result.rules}, {result.players} players, {result.games} {result.episode}s", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None, prog: str = "python -m training.evaluate") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    parser.add_argument("--agents", required=True,
                        help="comma-separated agents, one per seat slot; the last one fills the seats left "
                             "(ppo,heuristic at four players: one ppo against three heuristic)")
    parser.add_argument("--rules", default="standard_en", help="preset name")
    parser.add_argument("--players", type=int, default=2, help="seats per table")
    parser.add_argument("--games", type=int, default=2000, help="games (rounds) to play")
    parser.add_argument("--episode", default="round", choices=["round", "game"], help="what a game is")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents")
    parser.add_argument("--batch-size", type=int, default=512, help="games played at once")
    parser.add_argument("--out", default=None, help="folder for results.json / .md / .png")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="write every game to FILE as JSON lines (docs/records.md; .gz compresses)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--torch-threads", type=int, default=0,
                        help="torch CPU threads for trained agents (0: torch's default); 1 when several jobs "
                             "share the cores")
    args = parser.parse_args(argv)
    if args.torch_threads < 0:
        parser.error(f"--torch-threads must be 0 (torch's default) or a positive count, got {args.torch_threads}")
    if args.torch_threads:
        import torch

        torch.set_num_threads(args.torch_threads)
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    try:
        result = play_match(names, args.rules, args.players, args.games, args.seed, args.batch_size,
                            args.episode, progress=not args.no_progress, record=args.record)
    except ValueError as exc:  # unknown agent or rules, a model for another game, bad counts
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    md = result.to_markdown()
    print(md)
    print(f"({result.seconds:.1f} s)")
    if args.record:
        print(f"recorded {result.games} games to {args.record}")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(result.to_json(), indent=1))
        (out / "results.md").write_text(md + "\n")
        plot(result, out / "results.png")
        print(f"wrote {out}/results.json, results.md, results.png")
    return 0


if __name__ == "__main__":
    with extras.needs("train", "this command", script=True):  # one line naming the extra
        raise SystemExit(main())

"""Seat-rotated matches between agents, with 95% Wilson intervals and OpenSkill ratings: ``uno eval``.

    uno eval --agents heuristic,random --rules standard_en --players 2 --games 20000
    uno eval --agents ppo-standard_en-4p,heuristic --players 4 --games 20000 --out runs/eval
    python -m training.evaluate --agents heuristic,greedy,random,random --players 4   (the same command)

``--agents`` names one agent per seat of a table (the last one fills the remaining seats, so
``ppo,heuristic`` with 4 players is one PPO seat against three heuristic bots).  Game ``g`` rotates
the seating by ``g mod players`` so that every agent sits in every seat equally often
(``uno_env.arena``).  A "game" is a round (a hand) by default, or a whole game to the target with
``--episode game``.

Reported per table entry: wins, win rate with a 95% Wilson interval, mean points scored per round
won, and for tables of more than two an OpenSkill (Plackett-Luce) rating from the rankings of every
game (the winner first, the others tied: what the round's win/loss reward counts; ranking the losers
by the points left in their hands would reward hoarding nothing but low cards, not winning).  Results go to
the terminal as a markdown table and, with ``--out``, to ``results.json``, ``results.md`` and ``results.png``.

The bots play on the light install; the trained agents, the ratings, the plot and the progress bar use the
``train`` extra (without it a trained agent is refused in one line, and the rest is left out with a note).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass, field
from importlib.util import find_spec
from pathlib import Path

import numpy as np

from . import arena, extras, opponents
from .core.game import VecGame

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


def slot_ratings(winners, P: int) -> list[tuple[float, float]]:
    """OpenSkill Plackett-Luce ratings of the seat slots from each game's winner (the others tied).

    The agents are fixed, so their skill does not drift: ``tau=0`` (no added variance per game) makes
    the ratings an estimate over all the games, whose sigma shrinks with their number. (The default tau
    keeps sigma near 1.6 and lets the last few hundred games decide mu.)"""
    with extras.needs("train", "OpenSkill ratings"):
        from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    players = [model.rating(name=str(s)) for s in range(P)]
    for w in winners:
        updated = model.rate([[p] for p in players], ranks=[0 if s == w else 1 for s in range(P)])
        players = [team[0] for team in updated]
    return [(float(p.mu), float(p.sigma)) for p in players]


def play_match(lineup: list, rules="standard_en", num_players: int = 2, games: int = 1000,
               seed: int = 0, batch_size: int = 512, episode: str = "round", ratings: bool | None = None,
               progress: bool = False, record=None, per_game: bool = False, watch=None, *, load=None,
               **options) -> MatchResult:
    """Play ``games`` seat-rotated games between the agents of ``lineup`` (names or agents).

    ``lineup`` lists the agent of each seat slot; when shorter than ``num_players`` its last entry
    fills the remaining slots (one result entry per slot); equal names share one agent, loaded by ``load``
    (default: the installed agent loaders, ``uno_env.opponents.load``; ``agents.load`` is this project's)
    with the seed ``seed + 17 * i``.  ``record``: a file to write every game to as a game record
    (``uno_env.records``, docs/records.md), or a ``RecordWriter``.  ``per_game``: keep each game's winning
    slot and points (``MatchResult.game_winners``, ``game_points``), for ratings over several matches.
    ``ratings``: OpenSkill ratings (default: with more than two players, where OpenSkill is installed).
    ``MatchResult.costs`` gives each distinct agent's decisions and the seconds they took (its observations
    and ``act`` calls, batched as the match plays them).  ``watch``: a callable ``watch(state, rows, seats,
    slots, actions)`` shown each batch of decisions before it is applied (the seat slot of each row's actor,
    an index into ``lineup``), to study what the agents do; it must not change the state.
    """
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
    # the layout and memory the lineup needs (the memory on if anyone reads v3): each agent reads its own
    game = VecGame(rules, P, batch_size=B, seed=seed, autoreset=False, **opponents.layout_for(lineup), **options)
    names = [x if isinstance(x, str) else getattr(x, "name", type(x).__name__) for x in lineup]
    load = load or opponents.load
    distinct = list(dict.fromkeys(names))  # identical names share one agent object (one act call per batch)
    objs = {}
    for i, n in enumerate(distinct):
        x = lineup[names.index(n)]
        objs[n] = load(x, game=game, seed=None if seed is None else seed + 17 * i) if isinstance(x, str) else x
    want_ratings = (P > 2 and find_spec("openskill") is not None) if ratings is None else ratings
    bar = _bar(games) if progress else None
    try:
        tally = arena.play(game, [objs[n] for n in names], games, np.random.default_rng(seed), episode=episode,
                           names=names, record=record, watch=watch, progress=bar and bar.update)
    finally:
        if bar is not None:
            bar.close()
    counted = tally.games - tally.void
    result = MatchResult(str(game.rules.name), P, episode, tally.games, tally.seconds, names, void_games=tally.void,
                         seed=seed, batch_size=B,
                         costs={n: tally.cost(objs[n]) for n in distinct},
                         game_winners=tally.game_winners if per_game else None,
                         game_points=tally.game_points if per_game else None)
    mus = slot_ratings(tally.winners.tolist(), P) if want_ratings and tally.winners.size else None
    for s in range(P):
        wins = int(tally.wins[s])
        entry = EntryResult(s, names[s], counted, wins, tally.wins[s] / max(1, counted), wilson(wins, counted),
                            tally.points[s] / max(1, wins))
        if mus is not None:
            entry.rating_mu, entry.rating_sigma = mus[s]
        result.entries.append(entry)
    return result


def _bar(games: int):
    """A tqdm progress bar, or ``None`` where tqdm (the train extra) is not installed."""
    if find_spec("tqdm") is None:
        return None
    from tqdm import tqdm
    return tqdm(total=games, unit="game")


def _short(agent: str, width: int = 20) -> str:
    """A tick label that fits under its bar: file names without their folders, wrapped at ``width``."""
    import textwrap
    name = "+".join(Path(part).stem if "/" in part else part for part in agent.split("+"))
    lines = textwrap.wrap(name.replace("+", "+ "), width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(line.replace("+ ", "+") for line in lines) or name


def plot(result: MatchResult, path: str | Path) -> None:
    """The win rates with their intervals as a bar chart (matplotlib: the train extra)."""
    with extras.needs("train", "the results plot"):
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


def main(argv: list[str] | None = None, prog: str = "uno eval", load=None) -> int:
    """The command: ``uno eval`` and ``python -m training.evaluate`` (``load``: the agent loader for names)."""
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
        with extras.needs("train", "--torch-threads"):
            import torch
        torch.set_num_threads(args.torch_threads)
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    try:
        result = play_match(names, args.rules, args.players, args.games, args.seed, args.batch_size,
                            args.episode, progress=not args.no_progress, record=args.record, load=load)
    except ValueError as exc:  # unknown agent or rules, a model for another game, bad counts
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    md = result.to_markdown()
    print(md)
    print(f"({result.seconds:.1f} s)")
    if result.players > 2 and find_spec("openskill") is None:
        print(f"(no ratings: OpenSkill is not installed; {extras.install_command('train')} adds it)")
    if args.record:
        print(f"recorded {result.games} games to {args.record}")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(result.to_json(), indent=1))
        (out / "results.md").write_text(md + "\n")
        if find_spec("matplotlib") is None:
            print(f"wrote {out}/results.json, results.md (no results.png: matplotlib is not installed; "
                  f"{extras.install_command('train')} adds it)")
        else:
            plot(result, out / "results.png")
            print(f"wrote {out}/results.json, results.md, results.png")
    return 0


__all__ = ["EntryResult", "MatchResult", "main", "play_match", "plot", "slot_ratings", "wilson"]

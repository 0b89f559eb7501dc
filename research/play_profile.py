"""What does each player of a match do, and when?  Counts of its moves by kind, with the hands at that moment.

    python -m research.play_profile ppo-solo_bga-2p heuristic --rules solo_bga --rounds 4000 --seed 7000000 \
        --out results/play_profile/profile.jsonl

Plays ``--rounds`` seat-rotated rounds (the batched core, as ``training.evaluate`` plays them) and, for every
decision of each player, notes the move's kind (a number card, each action card, draw, keep, pass, ...), the
player's own hand size and the other hands' smallest size (and, for a draw or a pass, whether a card could
have been played instead).  It prints, per player and kind, how often it was
chosen and the mean hand sizes when it was, and for the hand-exchanging cards (Swap, Swap-in-turn: at two
players both give the player the other hand) how much the exchange gained: the cards handed over minus the
cards received.  A question to ask when one player beats another by a wide margin (``ppo-solo_bga-2p``
against ``heuristic``): what does the winner do differently?  Seeds: use the ``training`` range
(``training/seeds.py``), never the ranges that publish figures.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

import numpy as np

from uno_env import VecGame
from uno_env.core.actions import PLAY
from uno_env.core.cards import symbol_name
from uno_env.core.state import OVER

EXCHANGES = ("swap", "swap in turn")


def kind_of(engine, action: int) -> str:
    """The move's kind: ``number``, an action card's name, or the action's own name (draw, keep, pass, ...)."""
    t = engine.actions
    if t.kind[action] != PLAY:
        return t.names[action].split(" ")[0]
    name = symbol_name(int(engine.F_SYM[t.face[action]]))
    return "number" if name.startswith("number") else name.replace("_", " ")


def profile(names: list[str], rules: str, players: int, rounds: int, seed: int, batch: int = 512) -> dict:
    import agents
    from uno_env.learner import observer_for
    game = VecGame(rules, players, batch_size=min(batch, rounds), seed=seed, autoreset=False, observation="v3")
    st, engine, B = game.state, game.engine, game.batch_size
    lineup = (list(names) + [names[-1]] * players)[:players]
    objs = {n: agents.load(n, game=game, seed=seed) for n in dict.fromkeys(lineup)}
    layouts: dict = {}
    rng = np.random.default_rng(seed)
    rotation = np.arange(B) % players
    stats: dict = defaultdict(lambda: defaultdict(
        lambda: {"n": 0, "own": 0, "least_other": 0, "gain": 0, "could_play": 0}))
    decisions: dict = defaultdict(int)
    wins: dict = defaultdict(int)
    started, done = B, 0
    active = np.ones(B, bool)
    while active.any():
        rows = np.flatnonzero(active)
        over = st.phase[rows] == OVER
        if not over.any():
            seats = st.actor[rows].astype(np.int64)
            who = np.array([lineup[s] for s in (seats - rotation[rows]) % players])
            actions = np.empty(rows.size, np.int64)
            for n in objs:
                i = np.flatnonzero(who == n)
                if i.size:
                    obs = observer_for(game, objs[n], layouts).observe(st, rows[i], seats[i])
                    actions[i] = objs[n].act(obs, st.mask[rows[i]], rng)
            sizes = st.hands[rows].sum(-1)  # (n, P) cards in each hand
            could_play = st.mask[rows][:, engine.actions.kind == PLAY].any(1)  # a card could have been played
            own = sizes[np.arange(rows.size), seats]
            others = np.where(np.arange(players)[None] == seats[:, None], 1 << 30, sizes).min(1)
            for j, a in enumerate(actions):
                s = stats[who[j]][kind_of(engine, int(a))]
                s["n"] += 1
                s["own"] += int(own[j])
                s["least_other"] += int(others[j])
                s["gain"] += int(own[j]) - 1 - int(others[j])  # exchanged after the card leaves the hand
                s["could_play"] += bool(could_play[j])
                decisions[who[j]] += 1
            out = engine.step_rows(st, rows, actions)
            ended = rows[out.round_over]
        else:
            ended = rows[over]
        for r in ended:
            if st.winner[r] >= 0:
                wins[lineup[(int(st.winner[r]) - rotation[r]) % players]] += 1
        done += ended.size
        again = ended[: max(0, rounds - started)]  # new rounds until ``rounds`` have started (as play_match)
        if again.size:
            game.next_round(again)
            rotation[again] = np.arange(started, started + again.size) % players
            started += again.size
        active[np.setdiff1d(ended, again)] = False
    out = {"rules": rules, "players": players, "rounds": done, "seed": seed, "lineup": lineup, "players_profile": {}}
    for n in objs:
        kinds = {}
        for k, s in sorted(stats[n].items(), key=lambda kv: -kv[1]["n"]):
            row = {"share": round(s["n"] / max(1, decisions[n]), 4), "count": s["n"],
                   "own_hand": round(s["own"] / s["n"], 2), "least_other_hand": round(s["least_other"] / s["n"], 2)}
            if k in ("draw", "pass"):
                row["while_a_card_was_playable"] = round(s["could_play"] / s["n"], 4)
            if k in EXCHANGES:
                row["cards_shed_by_exchange"] = round(s["gain"] / s["n"], 2)
            kinds[k] = row
        out["players_profile"][n] = {"decisions": decisions[n], "round_wins": wins[n], "moves": kinds}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.play_profile", description=__doc__.split("\n")[0])
    parser.add_argument("agents", nargs="+", help="the lineup (the last fills the other seats)")
    parser.add_argument("--rules", default="solo_bga")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7_000_000, help="a seed of the training range")
    parser.add_argument("--out", default=None, help="a JSON lines file to add the result to")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    line = json.dumps(profile(args.agents, args.rules, args.players, args.rounds, args.seed))
    print(line)
    if args.out:
        from pathlib import Path
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What does each player of a match do, and when?  Counts of its moves by kind, with the hands at that moment.

    python -m research.play_profile ppo-solo_bga-2p heuristic --rules solo_bga --rounds 4000 --seed 7000000 \
        --out results/play_profile/profile.jsonl

Plays ``--rounds`` seat-rotated rounds (``training.evaluate.play_match``, watching its decisions) and, for every
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

import numpy as np

from uno_env.core.actions import PLAY
from uno_env.core.cards import symbol_name

EXCHANGES = ("swap", "swap in turn")


def kind_of(engine, action: int) -> str:
    """The move's kind: ``number``, an action card's name, or the action's own name (draw, keep, pass, ...)."""
    t = engine.actions
    if t.kind[action] != PLAY:
        return t.names[action].split(" ")[0]
    name = symbol_name(int(engine.F_SYM[t.face[action]]))
    return "number" if name.startswith("number") else name.replace("_", " ")


FIELDS = ("n", "own", "least_other", "gain", "could_play")


def profile(names: list[str], rules: str, players: int, rounds: int, seed: int, batch: int = 512) -> dict:
    """Play the match with ``training.evaluate.play_match`` and tally each decision as it watches them."""
    from training.evaluate import play_match
    from uno_env import VecGame

    engine = VecGame(rules, players, batch_size=1, seed=seed).engine
    kinds = sorted({kind_of(engine, a) for a in range(engine.actions.size)})
    kind_index = np.array([kinds.index(kind_of(engine, a)) for a in range(engine.actions.size)])
    is_play = engine.actions.kind == PLAY
    lineup = (list(names) + [names[-1]] * players)[:players]
    distinct = list(dict.fromkeys(lineup))
    player_of_slot = np.array([distinct.index(n) for n in lineup])
    tally = np.zeros((len(FIELDS), len(distinct), len(kinds)), np.int64)

    def watch(st, rows, seats, slots, actions) -> None:
        sizes = st.hands[rows].sum(-1)  # (n, P) cards in each hand
        n = np.arange(rows.size)
        own = sizes[n, seats]
        sizes[n, seats] = np.iinfo(sizes.dtype).max
        least_other = sizes.min(1)
        cell = (player_of_slot[slots], kind_index[actions])
        for f, value in enumerate((1, own, least_other,
                                   own - 1 - least_other,  # an exchange swaps after the card leaves the hand
                                   st.mask[rows][:, is_play].any(1))):  # a card could have been played
            np.add.at(tally[f], cell, value)

    res = play_match(lineup, rules, players, rounds, seed=seed, batch_size=batch, ratings=False, watch=watch)
    wins = np.zeros(len(distinct), np.int64)
    np.add.at(wins, player_of_slot, [e.wins for e in res.entries])
    out = {"rules": rules, "players": players, "rounds": res.games, "seed": seed, "lineup": lineup,
           "players_profile": {}}
    for p, name in enumerate(distinct):
        t = {f: tally[k, p] for k, f in enumerate(FIELDS)}
        decisions = int(t["n"].sum())
        moves = {}
        for k in np.argsort(-t["n"], kind="stable"):
            c = int(t["n"][k])
            if c == 0:
                continue
            row = {"share": round(c / decisions, 4), "count": c, "own_hand": round(t["own"][k] / c, 2),
                   "least_other_hand": round(t["least_other"][k] / c, 2)}
            if kinds[k] in ("draw", "pass"):
                row["while_a_card_was_playable"] = round(t["could_play"][k] / c, 4)
            if kinds[k] in EXCHANGES:
                row["cards_shed_by_exchange"] = round(t["gain"][k] / c, 2)
            moves[kinds[k]] = row
        out["players_profile"][name] = {"decisions": decisions, "round_wins": int(wins[p]), "moves": moves}
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

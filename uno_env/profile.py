"""What does a player do, and when?  Counts of its moves by kind, with the hands at that moment.

``profile`` plays a seat-rotated match and, for every decision of each player, notes the move's kind (a number
card, each action card, draw, keep, pass, ...), the player's own hand size and the other hands' smallest size
(and, for a draw or a pass, whether a card could have been played instead); for the hand-exchanging cards (Swap,
Swap-in-turn) how much the exchange gained: the cards handed over minus the cards received.  ``differences``
names the kinds of move whose share differs most between two profiles: what one player does that another does
not (``training.best_response`` uses it to say what a best response found).  The command is
``python -m research.play_profile``.
"""

from __future__ import annotations

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


def profile(names: list, rules: str, players: int, rounds: int, seed: int, batch: int = 512, *,
            load=None) -> dict:
    """Play the match (``uno_env.evaluation.play_match``, the names loaded by ``load``) and tally each decision
    as it watches them."""
    from uno_env import VecGame
    from uno_env.evaluation import play_match

    engine = VecGame(rules, players, batch_size=1, seed=seed).engine
    kinds = sorted({kind_of(engine, a) for a in range(engine.actions.size)})
    kind_index = np.array([kinds.index(kind_of(engine, a)) for a in range(engine.actions.size)])
    is_play = engine.actions.kind == PLAY
    lineup = (list(names) + [names[-1]] * players)[:players]
    distinct = list(dict.fromkeys(map(str, lineup)))
    player_of_slot = np.array([distinct.index(str(n)) for n in lineup])
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

    res = play_match(lineup, rules, players, rounds, seed=seed, batch_size=batch, ratings=False, watch=watch,
                     load=load)
    wins = np.zeros(len(distinct), np.int64)
    np.add.at(wins, player_of_slot, [e.wins for e in res.entries])
    out = {"rules": rules, "players": players, "rounds": res.games, "seed": seed, "lineup": list(map(str, lineup)),
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


def differences(mine: dict, theirs: dict, top: int = 3) -> list[dict]:
    """The ``top`` kinds of move whose share of decisions differs most between two players' profiles (each a
    ``players_profile`` entry), largest first: ``{"kind", "share", "other_share"}``, and for a draw or a pass
    how often a card was playable when it was chosen."""
    kinds = set(mine["moves"]) | set(theirs["moves"])

    def share(p: dict, kind: str) -> float:
        return p["moves"].get(kind, {}).get("share", 0.0)

    ranked = sorted(kinds, key=lambda k: (-abs(share(mine, k) - share(theirs, k)), k))[:top]
    out = []
    for k in ranked:
        row = {"kind": k, "share": share(mine, k), "other_share": share(theirs, k)}
        for field in ("while_a_card_was_playable", "cards_shed_by_exchange"):
            if field in mine["moves"].get(k, {}) or field in theirs["moves"].get(k, {}):
                row[field] = mine["moves"].get(k, {}).get(field)
                row["other_" + field] = theirs["moves"].get(k, {}).get(field)
        out.append(row)
    return out

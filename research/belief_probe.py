"""Belief probe: how much better does observation v3 let a model guess the opponents' hands than v2?

    python -m research.belief_probe                 # standard_en, 4 heuristic bots, ~40,000 decisions
    python -m research.belief_probe --smoke         # tiny settings (the smoke test)

Games of four ``heuristic`` bots are played (``VecGame(observation="v3")``).  At every decision the acting
seat's observation is recorded in both layouts (v2 is the first part of v3, ``uno_env.core.observe``),
with the truth it may not see: for each opponent (relative seats 1..P-1), whether it holds a card of each
colour of the side in play and whether it holds a wild.  The same small classifier (an MLP, one hidden
layer, binary cross-entropy over every target) is trained on each layout's observations of the same
training games, its epoch chosen on validation games, and scored on the same held-out games (split by
game).  One JSON line: the held-out
cross-entropy (nats per target) of each layout and v3's relative to v2.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from benchmarks.common import versions


def collect(rules: str, players: int, batch: int, steps: int, seed: int):
    """(v3 observations, targets, game ids, v2 size) of every decision of ``steps`` steps of ``batch`` games."""
    import agents
    from uno_env import VecGame
    from uno_env.core.observe import Observer

    game = VecGame(rules, players, batch_size=batch, seed=seed, observation="v3")
    e, st = game.engine, game.state
    v2_size = Observer(e, "v2").size
    bot = agents.load("heuristic", game=game, seed=seed)
    C = 4
    # per side: (K, C + 1) which colour slot (the side's colours, then wild) each kind shows
    show = np.zeros((2, e.K, C + 1), np.float32)
    for s in (0, 1):
        col = e.K_COLOR[s]
        for i, c in enumerate(e.deck.side_colors(s)):
            show[s, :, i] = col == c
        show[s, :, C] = col < 0
    rows = np.arange(batch)
    X, Y, G = [], [], []
    games_played = np.arange(batch)  # a game id per row: a new id when the row starts a new game
    next_id = batch
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        seats = st.actor.astype(np.intp)
        obs = game.observe()  # the acting seats', v3
        rel = (seats[:, None] + np.arange(1, players)[None, :]) % players
        hands = st.hands[rows[:, None], rel].astype(np.float32)  # (B, P-1, K)
        holds = np.einsum("bpk,bkc->bpc", hands, show[st.side.astype(np.intp)]) > 0
        X.append(obs.astype(np.float16))
        Y.append(holds.reshape(batch, -1))
        G.append(games_played.copy())
        out = game.step(bot.act(obs[:, :v2_size], game.legal_mask(), rng))
        new = np.flatnonzero(out.game_over)
        games_played[new] = next_id + np.arange(new.size)
        next_id += new.size
    return np.concatenate(X), np.concatenate(Y).astype(np.float32), np.concatenate(G), v2_size


def held_out_cross_entropy(X, Y, train, val, test, hidden: int, epochs: int, seed: int) -> float:
    """Train an MLP (dropout 0.2, weight decay 1e-4: the same for both layouts) on ``X[train]`` -> ``Y[train]``
    (binary cross-entropy); return the test cross-entropy at the epoch of the lowest validation loss."""
    import torch

    torch.manual_seed(seed)
    Xt = torch.as_tensor(X[train], dtype=torch.float32)
    Yt = torch.as_tensor(Y[train])
    mean, std = Xt.mean(0), Xt.std(0) + 1e-3  # standardised inputs: both layouts alike
    Xt = (Xt - mean) / std

    def part(rows):
        return (torch.as_tensor(X[rows], dtype=torch.float32) - mean) / std, torch.as_tensor(Y[rows])
    (Xv, Yv), (Xs, Ys) = part(val), part(test)
    nn = torch.nn
    net = nn.Sequential(nn.Dropout(0.2), nn.Linear(X.shape[1], hidden), nn.ReLU(), nn.Dropout(0.2),
                        nn.Linear(hidden, Y.shape[1]))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-4)
    loss = nn.BCEWithLogitsLoss()
    g = torch.Generator().manual_seed(seed)
    best, at_best = float("inf"), float("nan")
    for _ in range(epochs):
        net.train()
        for idx in torch.randperm(len(Xt), generator=g).split(512):
            opt.zero_grad()
            loss(net(Xt[idx]), Yt[idx]).backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            v = float(loss(net(Xv), Yv))
            if v < best:
                best, at_best = v, float(loss(net(Xs), Ys))
    return at_best


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="standard_en")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--batch", type=int, default=256, help="games played at once")
    p.add_argument("--steps", type=int, default=400, help="steps of the batch (decisions = batch * steps)")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--epochs", type=int, default=12, help="epochs (the one of the lowest validation loss counts)")
    p.add_argument("--test-fraction", type=float, default=0.25, help="share of the games held out")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--smoke", action="store_true", help="tiny settings")
    args = p.parse_args(argv)
    if args.smoke:
        args.batch, args.steps, args.hidden, args.epochs = 8, 40, 16, 1
    import torch
    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    X, Y, G, v2_size = collect(args.rules, args.players, args.batch, args.steps, args.seed)
    ids = np.unique(G)
    order = np.random.default_rng(args.seed).permutation(ids)
    k = max(1, int(len(ids) * args.test_fraction))
    held = order[:k]
    test = np.isin(G, held)
    val = np.isin(G, order[k:k + max(1, k // 2)])  # validation games pick the epoch
    train = ~test & ~val
    ce = {}
    for name, cols in (("v2", slice(0, v2_size)), ("v3", slice(None))):
        ce[name] = held_out_cross_entropy(X[:, cols], Y, train, val, test, args.hidden, args.epochs, args.seed)
    line = {"bench": "belief_probe", "rules": args.rules, "players": args.players, "bots": "heuristic",
            "decisions": int(len(X)), "train_decisions": int(train.sum()), "validation_decisions": int(val.sum()),
            "test_decisions": int(test.sum()),
            "games": int(len(ids)), "held_out_games": int(len(held)), "targets": int(Y.shape[1]),
            "target_rate": round(float(Y.mean()), 4), "hidden": args.hidden, "epochs": args.epochs,
            "observation_size": {"v2": v2_size, "v3": int(X.shape[1])},
            "v2_cross_entropy": round(ce["v2"], 4), "v3_cross_entropy": round(ce["v3"], 4),
            "v3_over_v2": round(ce["v3"] / ce["v2"], 4), "seconds": round(time.perf_counter() - t0, 1),
            "versions": versions()}
    print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

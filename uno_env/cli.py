"""Command line: ``uno watch`` (bots play, shown in the terminal), ``uno play`` (you against bots),
``uno scenarios`` (run scenario files), ``uno eval`` (matches between agents).

Examples::

    uno watch --rules standard_en --players 4
    uno play --rules flip_jp --players 3 --opponents random
    uno scenarios tests/scenarios
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from .core.config import PRESETS
from .core.game import VecGame
from .core.state import OVER
from .render import render_table


def _make_game(args) -> VecGame:
    game = VecGame(args.rules, args.players, batch_size=1, seed=args.seed, autoreset=False)
    game.engine.log = []
    return game


def _opponents(names: str, game: VecGame, seed):
    import agents
    names = [n.strip() for n in names.split(",") if n.strip()]
    if not names:
        raise ValueError("--opponents needs at least one agent name")
    return [agents.load(n, game=game, seed=None if seed is None else seed + i) for i, n in enumerate(names)]


def _bot_action(bot, game: VecGame) -> int:
    seat = int(game.state.actor[0])
    obs = game.observe(seats=[seat], rows=[0])
    return int(bot.act(obs, game.state.mask[:1])[0])


def _flush_log(game: VecGame, history: list, out) -> None:
    for _, seat, a in game.engine.log:
        history.append((seat, game.action_name(a)))
    game.engine.log.clear()


def watch(args, out=print) -> int:
    """Bots play whole games; the table is printed after every decision."""
    game = _make_game(args)
    bots = _opponents(args.bots, game, args.seed)
    seat_bot = [bots[p % len(bots)] for p in range(game.num_players)]
    names = [f"{seat_bot[p].name}_{p}" for p in range(game.num_players)]
    history: list = []
    rounds = 0
    while True:
        _flush_log(game, history, out)
        if game.state.phase[0] == OVER:
            out(render_table(game, 0, history=history, ansi=not args.plain, seat_names=names) + "\n")
            rounds += 1
            if game.state.game_over[0] or rounds >= args.rounds:
                winners = np.flatnonzero(game.engine.game_winners(game.state, np.array([0]))[0])
                scores = ", ".join(f"{names[p]} {int(s)}" for p, s in enumerate(game.state.scores[0]))
                out(f"after {rounds} round(s): {scores}"
                    + (f" - game won by {', '.join(names[w] for w in winners)}" if game.state.game_over[0] else ""))
                return 0
            game.next_round(0)
            history.clear()
            continue
        if args.verbose:
            out(render_table(game, 0, history=history, ansi=not args.plain, seat_names=names) + "\n")
            if args.delay:
                time.sleep(args.delay)
        seat = int(game.state.actor[0])
        game.step(np.array([_bot_action(seat_bot[seat], game)]))


def play(args, inp=input, out=print) -> int:
    """A person plays seat ``--seat`` against bots; legal moves are listed by number."""
    game = _make_game(args)
    me = args.seat
    if not 0 <= me < game.num_players:
        raise ValueError(f"--seat must be from 0 to {game.num_players - 1}, got {me}")
    bots = _opponents(args.opponents, game, args.seed)
    others = [p for p in range(game.num_players) if p != me]
    seat_bot = {p: bots[i % len(bots)] for i, p in enumerate(others)}
    names = [("you" if p == me else f"{seat_bot[p].name}_{p}") for p in range(game.num_players)]
    history: list = []
    out(f"UNO ({game.rules.name}, {game.num_players} players). Type a number to act, 'q' to quit.")
    while True:
        _flush_log(game, history, out)
        st = game.state
        if st.phase[0] == OVER:
            out(render_table(game, 0, history=history, ansi=not args.plain, seat_names=names))
            if st.game_over[0]:
                out("game over")
                return 0
            if _ask(inp, "next round? [Y/n] ").lower().startswith("n"):
                return 0
            game.next_round(0)
            history.clear()
            continue
        seat = int(st.actor[0])
        if seat != me:
            game.step(np.array([_bot_action(seat_bot[seat], game)]))
            continue
        out(render_table(game, 0, viewer=me, history=history, ansi=not args.plain, seat_names=names))
        legal = game.legal_actions(0)
        out("  ".join(f"[{i}] {a}" for i, a in enumerate(legal)))
        while True:
            ans = _ask(inp, "your move: ").strip()
            if ans.lower() in ("q", "quit", "exit"):
                return 0
            if ans.isdigit() and int(ans) < len(legal):
                choice = legal[int(ans)]
                break
            if ans in legal:
                choice = ans
                break
            out(f"'{ans}' is not a legal move; type a number from 0 to {len(legal) - 1} or an action as listed")
        game.step(np.array([game.action_index(choice)]))


def _ask(inp, prompt: str) -> str:
    try:
        return inp(prompt)
    except EOFError:
        return "q"


def _version() -> str:
    """``uno --version``: the package and the environment version it plays (they move independently)."""
    from . import ENV_VERSION, __version__
    return f"uno-env {__version__} (environment {ENV_VERSION})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="uno", description="UNO environments for RL research")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("--rules", default="standard_en", choices=list(PRESETS), help="ruleset preset")
        p.add_argument("--players", type=int, default=4, help="number of seats (2-10)")
        p.add_argument("--seed", type=int, default=None, help="seed of the deal and the bots")
        p.add_argument("--plain", action="store_true", help="no ANSI colours")

    w = sub.add_parser("watch", help="bots play a game, shown in the terminal")
    common(w)
    w.add_argument("--bots", default="random", help="comma-separated agent names, assigned to seats in turn")
    w.add_argument("--rounds", type=int, default=1, help="stop after this many rounds (or at game end)")
    w.add_argument("--verbose", action="store_true", help="print the table after every decision")
    w.add_argument("--delay", type=float, default=0.0, help="seconds to wait between decisions (with --verbose)")

    p = sub.add_parser("play", help="play against bots in the terminal")
    common(p)
    p.add_argument("--opponents", default="random", help="comma-separated agent names for the other seats")
    p.add_argument("--seat", type=int, default=0, help="your seat")

    s = sub.add_parser("scenarios", help="run scenario files (same as python -m uno_env.scenarios)")
    s.add_argument("paths", nargs="+")

    sub.add_parser("eval", add_help=False,
                   help="seat-rotated matches between agents (same as python -m training.evaluate; eval --help)")

    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv) if argv[:1] != ["eval"] else None
    try:
        if args is None:
            # evaluation lives in training/ (it needs the "train" extra); its own parser reads the arguments
            from training.evaluate import main as evaluate_main
            return evaluate_main(argv[1:], prog="uno eval")
        if args.command == "scenarios":
            from .scenarios import run_paths
            return run_paths(args.paths).exit_code
        if args.command == "watch":
            return watch(args)
        return play(args)
    except ValueError as exc:
        print(f"uno: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

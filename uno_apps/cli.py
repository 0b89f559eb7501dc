"""Command line: ``uno play`` (you against bots or trained agents), ``uno watch`` (agents play, every action
said in words), ``uno replay`` (step through a recorded game, or write it as one HTML page), ``uno serve``
(play in the browser), ``uno scenarios`` (run scenario files), ``uno eval`` (matches between agents).

Examples::

    uno play --rules flip_jp --players 3 --opponents heuristic
    uno watch --rules standard_en --players 4 --bots heuristic,random --seed 7 --delay 0.5 --legend
    uno replay games.jsonl --seat 0
    uno replay games.jsonl --html game.html
    uno serve --port 8000
    uno scenarios tests/scenarios
"""

from __future__ import annotations

import argparse
import os
import sys

from uno_env import extras
from uno_env.core.config import PRESETS

from .terminal import interrupted


def _recording(args):
    """A ``RecordWriter`` for ``--record FILE`` (a context manager either way; ``None`` inside without it)."""
    from contextlib import nullcontext
    if not args.record:
        return nullcontext()
    from uno_env.records import RecordWriter
    return RecordWriter(args.record)


def colours(args, stream=None) -> bool:
    """Whether to write ANSI colour codes: only to a terminal, never with ``--plain`` or with ``NO_COLOR`` set
    to anything but the empty string (no-color.org); a file or a pipe gets plain text."""
    stream = sys.stdout if stream is None else stream
    if getattr(args, "plain", False) or os.environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def watch(args, out=print) -> int:
    """Agents play; every action is printed in words (``--quiet``: only each round's result)."""
    from uno_env.render import LEGEND

    from .terminal import watch as run
    if args.delay < 0:
        raise ValueError(f"--delay is the seconds to pause before each move, 0 or more; got {args.delay:g}")
    if args.legend:
        out(LEGEND)
    with _recording(args) as w:
        return run(args.rules, args.players, args.bots, seed=args.seed, rounds=args.rounds, ansi=colours(args),
                   verbose=args.verbose, quiet=args.quiet, delay=args.delay, out=out, record=w and w.write)


def play(args, inp=None, out=print) -> int:
    """A person plays seat ``--seat`` against agents; legal moves are listed by number."""
    from uno_env.render import plural

    from .terminal import play as run
    with _recording(args) as w:
        try:
            return run(args.rules, args.players, args.opponents, seat=args.seat, seed=args.seed,
                       ansi=colours(args), inp=inp or input, out=out, record=w and w.write)
        finally:  # also after q or Ctrl-C mid-round, whose round is not recorded: say what the file holds
            if w is not None:
                out(f"{plural(w.count, 'whole round')} recorded in {args.record}")


def replay(args, inp=None, out=print) -> int:
    """Step through a recorded game in the terminal, or write it as one HTML page (``--html``)."""
    if args.html:
        from .web.page import write_replay_page
        path = write_replay_page(args.file, args.html, game_index=args.game)
        out(f"wrote {path}: open it in a browser (it works offline)")
        return 0
    from .terminal import replay as run
    return run(args.file, game_index=args.game, viewer=args.seat, ansi=colours(args), step=not args.all,
               inp=inp or input, out=out)


def serve(args, out=print) -> int:
    """The web app (needs the ``web`` extra: ``pip install -e ".[web]"``)."""
    with extras.needs("web", "uno serve"):
        from .web.app import run
    return run(host=args.host, port=args.port, allow_hosts=args.allow_host, out=out)


def _version() -> str:
    """``uno --version``: the package and the environment version it plays (they move independently)."""
    from uno_env import ENV_VERSION, __version__
    return f"uno-env {__version__} (environment {ENV_VERSION})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="uno", description="UNO environments for RL research")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("--rules", default="standard_en", choices=list(PRESETS), help="ruleset preset")
        p.add_argument("--players", type=int, default=4, help="number of seats (2-10)")
        p.add_argument("--seed", type=int, default=None,
                       help="seed of the deals and the bots: the same seed plays the same games (default: new ones)")
        p.add_argument("--plain", action="store_true",
                       help="no colours (the default when the output is not a terminal, or NO_COLOR is set)")
        p.add_argument("--record", metavar="FILE", help="write each round as a game record (JSON lines; "
                       "uno replay FILE steps through it)")

    w = sub.add_parser("watch", help="agents play, every action said in words")
    common(w)
    w.add_argument("--bots", default="heuristic",
                   help="comma-separated agent names, assigned to seats in turn (default: heuristic, the best bot)")
    w.add_argument("--rounds", type=int, default=1, help="stop after this many rounds (or at game end)")
    w.add_argument("--verbose", action="store_true", help="also print the table before every decision")
    w.add_argument("--quiet", action="store_true", help="print only each round's result and final table")
    w.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                   help="seconds to pause before each move an agent makes, to follow the game as it is played "
                        "(default 0)")
    w.add_argument("--legend", action="store_true", help="first print what the card and action codes mean")

    p = sub.add_parser("play", help="play against bots or trained agents in the terminal")
    common(p)
    p.add_argument("--opponents", default="random",
                   help="comma-separated agent names for the other seats (random, greedy, heuristic, "
                        "ppo-standard_en-2p, a path to a trained agent)")
    p.add_argument("--seat", type=int, default=0, help="your seat")

    r = sub.add_parser("replay", help="step through a recorded game (uno eval --record), or write it as a web page")
    r.add_argument("file", help="a record file (JSON lines, one game a line; .gz allowed)")
    r.add_argument("--game", type=int, default=0, help="which game of the file (from 0)")
    r.add_argument("--seat", type=int, default=None, help="show what this seat saw (default: the whole table)")
    r.add_argument("--all", action="store_true", help="print every event at once instead of stepping")
    r.add_argument("--html", metavar="OUT.html", help="write one self-contained page (works offline) and exit")
    r.add_argument("--plain", action="store_true",
                   help="no colours (the default when the output is not a terminal, or NO_COLOR is set)")

    v = sub.add_parser("serve", help="play in the browser: a local web app (needs the web extra)")
    v.add_argument("--host", default="127.0.0.1", help="address to bind (default: this machine only; "
                   "0.0.0.0 shares it with the network, with a warning)")
    v.add_argument("--port", type=int, default=8000)
    v.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another name the server is reached by (the Host header; others are refused)")

    s = sub.add_parser("scenarios", help="run scenario files (same as python -m uno_env.scenarios)")
    s.add_argument("paths", nargs="+")

    sub.add_parser("eval", add_help=False,
                   help="seat-rotated matches between agents (the bots need no extra; eval --help)")

    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv) if argv[:1] != ["eval"] else None
    try:
        if args is None:  # the match command has its own parser (uno_env.evaluation); a trained agent needs torch
            import agents
            from uno_env.evaluation import main as evaluate_main
            return evaluate_main(argv[1:], prog="uno eval", load=agents.load)
        if args.command == "scenarios":
            from uno_env.scenarios import run_paths
            return run_paths(args.paths).exit_code
        return {"watch": watch, "play": play, "replay": replay, "serve": serve}[args.command](args)
    except KeyboardInterrupt:
        return interrupted()
    except BrokenPipeError:  # the reader went away (uno watch | head): stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python exits
        return 1
    except extras.MissingExtraError as exc:  # a feature of an extra that is not installed: one line, no traceback
        print(f"uno: error: {exc}", file=sys.stderr)
        return extras.EXIT
    except ValueError as exc:
        print(f"uno: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

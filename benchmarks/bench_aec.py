"""AEC env steps per second, one game at a time, beside the PettingZoo-era UNO env (same run, same loop).

Both envs are driven by the standard AEC loop (``agent_iter`` / ``last`` / ``step``) with RLCard's random
agent: ``random.choice`` over the legal ids, where RLCard offers ``draw`` only when no card can be played;
ours chooses the same way (a random legal play, else a random legal non-play action), so rounds have the
same shape (about 50 steps) and hands the same sizes. A step is a ``step`` with an action
(the ``None`` steps of finished agents run but are not counted); ``reset`` is inside the window. Ours is
``uno_v4.env(rules, num_players=2, observation=...)`` with its default wrappers (``--observation v2 v3``
times both layouts: v3 keeps the table's memory on every move); the peer is ``uno_v4`` rebuilt as in
``peers.py`` (2 players: RLCard's env has no other count). Windows alternate between the two so they
share the host's noise; RLCard's own env ``rlcard.make('uno')`` is timed in the same windows for scale
(it is not an AEC env: no wrappers, no ``agent_iter``). Medians of ``--repeats`` are reported, with the ratio.

    python benchmarks/bench_aec.py --out benchmarks/results/aec.jsonl

``--profile SECONDS`` instead samples where our env's loop spends its time (no peer, no timing): the loop
runs for that much CPU time under a ``SIGPROF`` timer, and each sample counts every function on the Python
stack once; one JSON line per preset gives each function's share of the samples (inclusive: its callees
and the C calls it makes count to it). A sample is taken when the interpreter next checks for signals, so
time inside one C call is credited to the Python function that made it; unlike cProfile, nothing is added
to every call.

    python benchmarks/bench_aec.py --rules flip_jp --profile 30

``--ask-forced`` instead times the env with ``ask_forced=True`` (every forced move a step of its own) beside
the default, in alternating windows (no peer): steps/s, rounds/s and steps per round of each, and the
ratios, one JSON line per preset and player count (``--players``).

    python benchmarks/bench_aec.py --ask-forced --rules standard_en house_cn solo_bga flip_jp --players 2 4 \
        --out benchmarks/results/aec_ask_forced.jsonl
"""

from __future__ import annotations

import argparse
import random
import signal
import time
from collections import Counter
from pathlib import Path

import numpy as np

try:
    from benchmarks.common import emit, machine, median, output, rounded, versions
    from benchmarks.peers import _window, aec_round, pettingzoo_uno, rlcard_env
except ImportError:  # run as a script: benchmarks/ itself is on sys.path
    from common import emit, machine, median, output, rounded, versions
    from peers import _window, aec_round, pettingzoo_uno, rlcard_env

from uno_env import uno_v4
from uno_env.core.actions import PLAY


def our_round(rules: str, players: int, seed: int = 0, observation: str = "v3", ask_forced: bool = False):
    """One round of our env through the standard AEC loop (``aec_round``), RLCard's random agent choosing."""
    env = uno_v4.env(rules=rules, num_players=players, observation=observation, ask_forced=ask_forced)
    env.reset(seed=seed)
    choice = random.Random(seed).choice
    is_play = (env.unwrapped.game.engine.A_KIND == PLAY).astype(np.int8)

    def pick(mask: np.ndarray) -> int:  # RLCard's random agent: a random legal play, else any legal action
        plays = np.flatnonzero(mask & is_play)  # (the same choices as with boolean masks, in fewer array calls)
        return int(choice(plays if plays.size else np.flatnonzero(mask)))

    return aec_round(env, pick)


def ours(rules: str, players: int, seconds: float, warmup: float, seed: int = 0, observation: str = "v3") -> dict:
    return _window(our_round(rules, players, seed, observation), seconds, warmup)


def ask_forced_line(args, rules: str, players: int) -> dict:
    """Our env with ``ask_forced`` off and on, in alternating windows: steps/s, rounds/s, steps per round."""
    runs: dict = {False: [], True: []}
    for r in range(args.repeats):
        for ask in (False, True):
            runs[ask].append(_window(our_round(rules, players, observation=args.observation[0], ask_forced=ask),
                                     args.seconds, args.warmup if r == 0 else 0.0))
    line: dict = {"bench": "aec_ask_forced", "rules": rules, "players": players, "observation": args.observation[0]}
    for ask, name in ((False, "default"), (True, "ask_forced")):
        mine = runs[ask]
        line[name] = {"steps_per_s": rounded(median([m["steps_per_s"] for m in mine])),
                      "rounds_per_s": rounded(median([m["games_per_s"] for m in mine])),
                      "steps_per_round": rounded(sum(m["steps"] for m in mine) / sum(m["games"] for m in mine)),
                      "steps_per_s_runs": [rounded(m["steps_per_s"]) for m in mine]}
    line["ratio_steps_per_s"] = rounded(line["ask_forced"]["steps_per_s"] / line["default"]["steps_per_s"])
    line["ratio_rounds_per_s"] = rounded(line["ask_forced"]["rounds_per_s"] / line["default"]["rounds_per_s"])
    line.update({"seconds": args.seconds, "repeats": args.repeats, "warmup_excluded": True,
                 "policy": "random legal play, else random legal action (RLCard's random agent)",
                 "machine": machine(), "versions": versions()})
    return line


def profile(rules: str, observation: str, seconds: float, top: int = 40, interval: float = 0.0005) -> dict:
    """Where the loop's time goes: the share of ``SIGPROF`` samples each function is on the stack for."""
    play_round = our_round(rules, 2, observation=observation)
    for _ in range(20):  # warm up untimed
        play_round()
    counts: Counter = Counter()
    samples = 0

    def sample(signum, frame) -> None:
        nonlocal samples
        samples += 1
        seen = set()
        while frame is not None:
            code = frame.f_code
            seen.add(f"{Path(code.co_filename).name}:{code.co_name}")
            frame = frame.f_back
        counts.update(seen)

    old = signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, interval, interval)
    steps, t0 = 0, time.process_time()
    try:
        while time.process_time() - t0 < seconds:
            steps += play_round()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, old)
    return {"bench": "aec_profile", "rules": rules, "players": 2, "observation": observation, "steps": steps,
            "cpu_seconds": rounded(time.process_time() - t0), "samples": samples,
            "inclusive": {name: rounded(n / max(samples, 1)) for name, n in counts.most_common(top)},
            "machine": machine(), "versions": versions()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--rules", nargs="+", default=["standard_en"], help="presets of our env")
    p.add_argument("--seconds", type=float, default=2.0, help="timed seconds per window")
    p.add_argument("--warmup", type=float, default=0.5, help="untimed seconds before the first window")
    p.add_argument("--repeats", type=int, default=5, help="alternating window pairs (medians)")
    p.add_argument("--observation", nargs="+", default=["v3"], choices=["v2", "v3"],
                   help="observation layouts of our env (each timed in the same alternating windows)")
    p.add_argument("--no-peer", action="store_true", help="skip the uno_v4 windows")
    p.add_argument("--out", type=Path, default=None, help="also append the JSON lines to this file")
    p.add_argument("--smoke", action="store_true", help="tiny windows, for CI")
    p.add_argument("--profile", type=float, default=None, metavar="SECONDS",
                   help="instead of timing, sample where our env's loop spends SECONDS of CPU time (per preset)")
    p.add_argument("--ask-forced", action="store_true",
                   help="time ask_forced=True beside the default instead (no peer), at each of --players")
    p.add_argument("--players", type=int, nargs="+", default=[2], help="player counts of --ask-forced")
    args = p.parse_args(argv)
    if args.smoke:
        args.seconds, args.warmup, args.repeats = 0.05, 0.0, 1
    if args.ask_forced:
        with output(args.out) as out:
            for rules in args.rules:
                for players in args.players:
                    emit(ask_forced_line(args, rules, players), out)
        return 0
    if args.profile is not None:
        with output(args.out) as out:
            for rules in args.rules:
                emit(profile(rules, args.observation[0], args.profile), out)
        return 0
    with output(args.out) as out:
        for rules in args.rules:
            runs, peer, rlc = {o: [] for o in args.observation}, [], []
            for r in range(args.repeats):
                warm = args.warmup if r == 0 else 0.0
                for o in args.observation:
                    runs[o].append(ours(rules, 2, args.seconds, warm, observation=o))
                if not args.no_peer:
                    peer.append(pettingzoo_uno(args.seconds, warm))
                    rlc.append(rlcard_env(args.seconds, warm))
            for o, mine in runs.items():
                emit(_line(args, rules, o, mine, peer, rlc), out)
    return 0


def _line(args, rules: str, observation: str, mine: list, peer: list, rlc: list) -> dict:
    """One JSON line: our env with ``observation`` beside the peers timed in the same windows."""
    line = {"bench": "aec", "rules": rules, "players": 2, "batch_size": 1, "observation": observation,
            "steps_per_s": rounded(median([m["steps_per_s"] for m in mine])),
            "steps_per_s_runs": [rounded(m["steps_per_s"]) for m in mine],
            "steps_per_round": rounded(sum(m["steps"] for m in mine) / sum(m["games"] for m in mine)),
            "seconds": args.seconds, "repeats": args.repeats, "warmup_excluded": True,
            "policy": "random legal play, else random legal action (RLCard's random agent)"}
    if peer:
        peer_rate = median([q["steps_per_s"] for q in peer])
        line.update({"peer": "pettingzoo uno_v4 (rebuilt)", "peer_steps_per_s": rounded(peer_rate),
                     "peer_steps_per_s_runs": [rounded(q["steps_per_s"]) for q in peer],
                     "ratio_vs_peer": rounded(line["steps_per_s"] / peer_rate)})
    if rlc:  # RLCard's own env (not an AEC env: no wrappers, no agent_iter), for scale
        rlc_rate = median([q["steps_per_s"] for q in rlc])
        line.update({"rlcard_env_steps_per_s": rounded(rlc_rate),
                     "ratio_vs_rlcard_env": rounded(line["steps_per_s"] / rlc_rate)})
    line.update({"machine": machine(), "versions": versions()})
    return line


if __name__ == "__main__":
    raise SystemExit(main())

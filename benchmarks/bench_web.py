"""``uno serve`` under load: its resident memory and its latency with clients playing at once.

Starts the server as ``uno serve`` would (``python -m uno_apps.cli serve``, a separate process on loopback),
then ``--clients`` threads each play as fast as they can for ``--seconds``, each as its own client address
(``X-Forwarded-For``, which the server takes from loopback as from a proxy): each makes a table (the presets
in turn, 2 to 4 seats, heuristic opponents), polls it as the page does (``GET ...?since=TURN``), plays a
card where it can, deals the next round when one ends and asks for a new game when one is over.  Every
request's latency is kept; the server's RSS (``/proc/PID/status``) is read each second.  One JSON line:
latency percentiles (ms), RSS at the start, peak and end (MiB), requests and their statuses.

    python benchmarks/bench_web.py --out benchmarks/results/web.jsonl
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

try:
    from benchmarks.common import emit, machine, output, rounded, versions
except ImportError:  # run as a script
    from common import emit, machine, output, rounded, versions

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TABLES = [("standard_en", 2), ("flip_jp", 3), ("solo_bga", 4), ("house_cn", 2), ("standard_ru", 4)]


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One player on one keep-alive connection."""

    def __init__(self, port: int, index: int, latencies: list, statuses: Counter, lock: threading.Lock):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.index, self.latencies, self.statuses, self.lock = index, latencies, statuses, lock
        self.token = None

    def call(self, method: str, path: str, body=None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json",
                   "X-Forwarded-For": f"10.2.{self.index // 250 % 250}.{self.index % 250 + 1}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = json.dumps(body).encode() if body is not None else None
        t0 = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        r = self.conn.getresponse()
        out = json.loads(r.read())
        ms = (time.perf_counter() - t0) * 1e3
        with self.lock:
            self.latencies.append(ms)
            self.statuses[r.status] += 1
        return r.status, out

    def play(self, until: float) -> int:
        rules, players = TABLES[self.index % len(TABLES)]
        self.token = None
        status, s = self.call("POST", "/api/games", {"rules": rules, "players": players,
                                                     "opponents": ["heuristic"] * (players - 1)})
        if status != 201:
            raise RuntimeError(f"making a game: {status} {s}")
        self.token, gid, games = s["token"], s["id"], 1
        while time.perf_counter() < until:
            status, p = self.call("GET", f"/api/games/{gid}?since={s['turn'] - 1}")  # as the page polls
            v = s["view"]
            if v["over"]:
                body = {"turn": s["turn"], "new_game": bool(v["game_over"])}
                games += bool(v["game_over"])
                status, s = self.call("POST", f"/api/games/{gid}/next", body)
            else:
                moves = s["moves"]
                plain = [m for m in moves if m["face"] is not None and m["colour"] is None]
                move = (plain or [m for m in moves if m["face"] is not None] or moves)[0]
                status, s = self.call("POST", f"/api/games/{gid}/actions", {"action": move["action"],
                                                                            "turn": s["turn"]})
            if status != 200:
                raise RuntimeError(f"playing: {status} {s}")
        return games


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--out", type=Path, default=None, help="also append the JSON line to this file")
    p.add_argument("--smoke", action="store_true", help="tiny run, for CI")
    args = p.parse_args(argv)
    if args.smoke:
        args.clients, args.seconds = 2, 3.0
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "uno_apps.cli", "serve", "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL)
    try:
        probe = Client(port, 0, [], Counter(), threading.Lock())
        for _ in range(600):  # up to a minute for the server to import and bind
            try:
                probe.call("GET", "/api/options")
                break
            except OSError:
                probe.conn.close()
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        Client(port, 10_000, [], Counter(), threading.Lock()).play(0)  # warm: the agents load once
        rss = [rss_mib(server.pid)]
        latencies, statuses, lock = [], Counter(), threading.Lock()
        clients = [Client(port, i, latencies, statuses, lock) for i in range(args.clients)]
        games, errors = Counter(), []
        until = time.perf_counter() + args.seconds

        def run(c: Client) -> None:
            try:
                games[c.index] = c.play(until)
            except Exception as exc:  # noqa: BLE001 - reported in the JSON line
                errors.append(f"{type(exc).__name__}: {exc}"[:200])
        threads = [threading.Thread(target=run, args=(c,)) for c in clients]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            rss.append(rss_mib(server.pid))
            time.sleep(1.0)
        seconds = time.perf_counter() - t0
        rss.append(rss_mib(server.pid))
    finally:
        server.terminate()
        server.wait(30)
    lat = np.array(latencies)
    line = {"bench": "web", "clients": args.clients, "seconds": round(seconds, 1), "requests": len(lat),
            "requests_per_s": rounded(len(lat) / seconds), "games": sum(games.values()),
            "latency_ms": {q: rounded(float(np.percentile(lat, int(q[1:])))) for q in ("p50", "p90", "p99")}
            | {"max": rounded(float(lat.max()))},
            "rss_mib": {"start": round(rss[0], 1), "peak": round(max(rss), 1), "end": round(rss[-1], 1)},
            "statuses": {str(k): v for k, v in sorted(statuses.items())}, "errors": errors,
            "machine": machine(), "versions": versions()}
    with output(args.out) as out:
        emit(line, out)
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())

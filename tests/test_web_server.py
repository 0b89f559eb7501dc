"""``uno serve`` on a real socket: slow and idle connections, many pages at once, uvicorn's own answers.

The load tests start ``uno serve`` itself (``python -m uno_apps.cli serve``, its own process on loopback);
the tests of the deadlines run its uvicorn settings (``server.server_options``) in a thread, with deadlines
short enough not to wait.  The only time asserted is the bound the server promises a player: an answer
within ``ANSWER_S``; any other wait is a guard against a hang, not a measure.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
httpx = pytest.importorskip("httpx")

from uno_apps.web.app import create_app  # noqa: E402
from uno_apps.web.server import server_options  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ANSWER_S = 2.0  # every request of a player is answered within this, whatever else holds connections
GUARD_S = 60.0  # the longest anything here may wait before the test fails as hung


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(conn: http.client.HTTPConnection, method: str, path: str, body=None, token=None,
         headers=None) -> tuple[int, dict, float, dict]:
    """``(status, JSON, seconds, headers)`` of one request on ``conn``."""
    h = {"Content-Type": "application/json", **(headers or {})}
    if token:
        h["Authorization"] = f"Bearer {token}"
    t0 = time.perf_counter()
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=h)
    r = conn.getresponse()
    data = json.loads(r.read())
    return r.status, data, time.perf_counter() - t0, dict(r.getheaders())


@pytest.fixture(scope="module")
def uno_serve():
    """``uno serve`` in its own process on a free loopback port: ``(port, process)``."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "uno_apps.cli", "serve", "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + GUARD_S
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"uno serve did not start: {proc.stderr.read().decode()[-2000:]}") from None
            time.sleep(0.1)
    yield port, proc
    proc.terminate()
    proc.wait(30)


def choose(state: dict) -> str:
    plays = [m for m in state["moves"] if m["face"] is not None and m["colour"] is None]
    return (plays or state["moves"])[0]["action"]


def test_900_stalled_and_idle_connections_leave_a_player_answered_within_2_s(uno_serve):
    """600 connections that never finish their headers and 300 idle keep-alive connections (each after one
    answered request), all open at once, while a player plays: every one of the player's requests is
    answered, none with 503, each within ``ANSWER_S``."""
    port, proc = uno_serve
    host = f"127.0.0.1:{port}".encode()
    held = []
    try:
        for _ in range(600):
            s = socket.create_connection(("127.0.0.1", port), timeout=GUARD_S)
            s.sendall(b"GET /api/options HTTP/1.1\r\nHost: " + host + b"\r\nX-Slow: ")  # never finished
            held.append(s)
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port), timeout=GUARD_S)
            s.sendall(b"GET /api/faces/standard_en HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += s.recv(65536)
            assert head.startswith(b"HTTP/1.1 200"), head[:100]
            held.append(s)  # (the rest of the body may wait unread: the connection is idle)
        player = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD_S)
        status, s, took, _ = call(player, "POST", "/api/games", {"players": 2, "opponents": "heuristic"})
        answers = [(status, took)]
        token, gid = s["token"], s["id"]
        while len(answers) < 40:
            if s["view"]["over"]:
                status, s, took, _ = call(player, "POST", f"/api/games/{gid}/next",
                                          {"turn": s["turn"], "new_game": s["view"]["game_over"]}, token)
            elif len(answers) % 2:
                status, s, took, _ = call(player, "POST", f"/api/games/{gid}/actions",
                                          {"action": choose(s), "turn": s["turn"]}, token)
            else:
                status, s, took, _ = call(player, "GET", f"/api/games/{gid}", token=token)
            answers.append((status, took))
        assert proc.poll() is None
        open_now = sum(_still_open(c) for c in held[:600])
    finally:
        for c in held:
            c.close()
    assert [st for st, _ in answers] == [201] + [200] * 39
    slow = [round(t, 2) for _, t in answers if t >= ANSWER_S]
    assert not slow, f"answers slower than {ANSWER_S} s: {slow}"
    assert open_now == 600  # the stalled connections were held all along (their deadline is later)


def _still_open(sock: socket.socket) -> bool:
    """Whether the server has neither answered nor closed ``sock``."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)  # an answer, or b"": closed
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def test_300_pages_at_30_tables_of_ten_polling_each_second_are_never_refused(uno_serve):
    """30 tables of ten people, each person's page on its own keep-alive connection polling once a second as
    the page does (``?since=``) and moving when asked, for a few seconds: no request is refused (no 503, no
    429), every page is answered."""
    port, _ = uno_serve
    seconds = 4.0

    async def run() -> tuple[dict, list]:
        statuses: dict[int, int] = {}
        answered: list[int] = []
        tls = ssl.create_default_context()  # (one for all the clients: plain HTTP never uses it)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", verify=tls, timeout=GUARD_S) as c:
            tables = []
            for i in range(30):  # each table made by its own client (behind the loopback proxy, by address)
                r = await c.post("/api/games", json={"players": 10, "opponents": ["human"] * 9},
                                 headers={"X-Forwarded-For": f"10.1.0.{i + 1}"})
                assert r.status_code == 201, r.text
                s = r.json()
                tokens = [s["token"]] + [x["link"].split("token=")[1] for x in s["links"]["seats"]]
                tables.append((s["id"], tokens))
            until = time.monotonic() + seconds

            async def page(gid: str, token: str, start: float) -> None:
                async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", verify=tls, timeout=GUARD_S,
                                             limits=httpx.Limits(max_connections=1)) as one:  # its own connection
                    await asyncio.sleep(start)
                    await poll(one, gid, token)

            async def poll(c: httpx.AsyncClient, gid: str, token: str) -> None:
                h = {"Authorization": f"Bearer {token}"}
                state, n = None, 0
                while time.monotonic() < until:
                    path = f"/api/games/{gid}" + (f"?since={state['turn']}" if state else "")
                    r = await c.get(path, headers=h)
                    statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                    n += 1
                    if r.status_code == 200 and not r.json().get("unchanged"):
                        state = r.json()
                    if state and state["moves"] and not state["view"]["over"]:
                        r = await c.post(f"/api/games/{gid}/actions", headers=h,
                                         json={"action": choose(state), "turn": state["turn"]})
                        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                        if r.status_code == 200:
                            state = r.json()
                    await asyncio.sleep(1.0)
                answered.append(n)

            await asyncio.wait_for(asyncio.gather(*(page(gid, tok, (k % 10) / 10) for gid, tokens in tables
                                                     for k, tok in enumerate(tokens))), GUARD_S)
        return statuses, answered

    statuses, answered = asyncio.run(run())
    assert not {503, 429} & set(statuses), statuses
    assert set(statuses) <= {200, 409}, statuses  # 409: a move the table was not ready for, as a page may send
    assert len(answered) == 300 and min(answered) >= 1, answered


# ---------------------------------------------------------------------- deadlines, in a thread
@pytest.fixture()
def quick_server():
    """The app under ``uno serve``'s uvicorn settings, with a request deadline of 0.5 s and at most 8
    connections: ``(port, server)``."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(port=port), **server_options(request_timeout=0.5,
                                                                                 max_connections=8)))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + GUARD_S
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield port, srv
    srv.should_exit = True
    thread.join(10)


def _answer(sock: socket.socket) -> tuple[bytes, dict]:
    """The status line and JSON body of the server's answer, read until it closes ``sock``."""
    sock.settimeout(GUARD_S)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0], json.loads(body)


def test_a_request_that_does_not_arrive_whole_in_time_gets_a_json_408_and_the_connection_closes(quick_server):
    port, _ = quick_server
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    silent = socket.create_connection(("127.0.0.1", port))
    status, body = _answer(silent)  # nothing sent at all: answered, then closed
    assert status.startswith(b"HTTP/1.1 408") and "did not arrive whole within 0.5 s" in body["error"]
    drip = socket.create_connection(("127.0.0.1", port))
    drip.sendall(b"GET /api/faces/standard_en HTTP/1.1\r\n" + host)  # an answered request first: keep-alive
    drip.sendall(b"\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        head += drip.recv(65536)
    assert head.startswith(b"HTTP/1.1 200")
    start = time.monotonic()
    try:  # then one byte of the next request's headers at a time: no byte extends the deadline
        while time.monotonic() - start < GUARD_S:
            drip.sendall(b"G")
            time.sleep(0.05)
    except OSError:  # closed by the server
        pass
    assert time.monotonic() - start < GUARD_S
    drip.close()
    silent.close()


def test_uvicorns_own_answers_are_json_too(quick_server):
    port, _ = quick_server
    bad = socket.create_connection(("127.0.0.1", port))
    bad.sendall(b"NOT HTTP AT ALL\r\n\r\n")
    status, body = _answer(bad)
    assert status.startswith(b"HTTP/1.1 400") and "not valid HTTP/1.1" in body["error"]
    big = socket.create_connection(("127.0.0.1", port))  # headers still arriving past the limit
    big.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"x" * 20_000)
    status, body = _answer(big)
    assert status.startswith(b"HTTP/1.1 400") and "16384 bytes" in body["error"]


def test_connections_past_the_cap_get_a_json_503_with_retry_after(quick_server):
    port, _ = quick_server
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(8)]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD_S)
    try:
        status, body, _, headers = call(conn, "GET", "/api/faces/standard_en")
    finally:
        for s in held:
            s.close()
    assert status == 503 and "too many connections" in body["error"] and headers["retry-after"] == "5"
    assert headers["content-type"] == "application/json" and headers["cache-control"] == "no-store"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD_S)
    deadline = time.monotonic() + GUARD_S
    while True:  # once the others have gone (the server sees them close), the same request is answered
        status, body, _, headers = call(conn, "GET", "/api/faces/standard_en")
        if status == 200 or time.monotonic() > deadline:
            break
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD_S)
        time.sleep(0.05)
    assert status == 200 and headers["cache-control"] == "no-store" and headers["x-content-type-options"] == "nosniff"

"""What ``uno serve`` tells each seat and its spectators hangs only on what they may know (rules §1.10): twin
games through the HTTP API.

Each pair is ``helpers``' twin construction: a random deal that one seat (the viewer) lives, and the same
deal with the cards the viewer cannot see permuted.  Both are played as web games where every seat is a
person, each seat moving through its own token, with the moves the twins of ``tests/test_hidden_information.py``
make.  After every move the viewer's state (``GET /api/games/ID`` with its token) and the spectator's must be
byte for byte the same in both twins, grouped by the words told so far, until a card the viewer could not
see is shown to it differently: a hidden decision of another seat (a playable card drawn, a jump-in, a Skip
to pass on) shows as declined, the seat then shown asked is offered the moves it will have, and its
``turn`` tag does not step when the decision is declined.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from helpers import TWIN_RULES, compared, ends_twins, play_twin, public_action, reveals, short_deal, twin_position

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")

import httpx  # noqa: E402

from uno_apps.web import games as web_games  # noqa: E402
from uno_apps.web.app import create_app  # noqa: E402
from uno_apps.web.games import HUMAN, WAIT, Game, Games  # noqa: E402
from uno_apps.web.words import PUBLIC  # noqa: E402
from uno_env.table import Table  # noqa: E402

PAIRS = 6  # twin pairs per rules: 2 to 5 players, each seat in turn the viewer
RULES = [pytest.param(r, o, id=r + "".join(f"+{k}" for k in o)) for r, o in TWIN_RULES]


def twin_setups(rules: str, options: dict, players: int, seed: int):
    """``helpers.play_twins``'s pair: both positions, the viewer, and the twins played on ``Table``s."""
    setup, viewer, rng = short_deal(rules, options, players, seed)
    a = play_twin(setup, viewer, seed)
    twin = twin_position(setup, viewer, a, rng)
    return setup, twin, viewer, a, play_twin(twin, viewer, seed, guide=a)


class Client:
    """The app's HTTP API in this thread, through httpx's ASGI transport on one event loop (a TestClient
    starts a thread per request: ten times slower here)."""

    def __init__(self, app):
        self.loop = asyncio.new_event_loop()
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")

    def get(self, path, headers) -> httpx.Response:
        return self.loop.run_until_complete(self.http.get(path, headers=headers))

    def post(self, path, json, headers) -> httpx.Response:
        return self.loop.run_until_complete(self.http.post(path, json=json, headers=headers))

    def close(self) -> None:
        self.loop.run_until_complete(self.http.aclose())
        self.loop.close()


class WebTwin:
    """One position played through the app, every seat a person: ``moments`` holds, after the deal and
    after every move, ``(k, viewer's body, j, spectator's body, hidden)``: ``k`` and ``j`` the words told so
    far to the viewer and to the public, ``hidden``: whether a seat other than the one the viewer is shown
    asked must decide first."""

    def __init__(self, setup: dict, viewer: int, seed: int, guide_plays: dict, monkeypatch, max_steps=150):
        players = len(setup["hands"])
        made = iter(f"token{i:017d}" for i in range(100))  # the same tokens in both twins
        monkeypatch.setattr(web_games, "secrets", SimpleNamespace(token_urlsafe=lambda n: next(made),
                                                                  compare_digest=secrets.compare_digest))
        monkeypatch.setattr(Game, "_table", staticmethod(
            lambda rules, n, deal, names, layout: Table.from_position(setup, names=names, **layout)))
        self.viewer, self.shown, self.public, self.plays, self.moments = viewer, [], 0, {}, []
        self.ended, self.waited = False, 0
        take = self.take
        original = Game._record

        def record(game, events):
            kept = []
            for ev in events:
                if not self.ended and not take(ev):
                    self.ended = True
                kept.append(ev)
            original(game, kept)
        monkeypatch.setattr(Game, "_record", record)
        games = Games(clock=lambda: 0.0)  # every seat stays connected
        self.client = Client(create_app(hosts=["testserver"], games=games))
        game = Game("twin", setup["rules"], players, [HUMAN] * players, 0, None, now=0.0)
        games.games[game.id] = game
        self.game, self.table = game, game.table
        self.tokens = {**game.tokens, PUBLIC: game.spectator}
        try:
            for seat in range(players):  # every person opens their link: all are at the table
                self.get(seat)
            self.look()
            self.play(viewer, np.random.default_rng(seed), guide_plays, max_steps)
        finally:
            self.client.close()

    def play(self, viewer, rng, guide_plays, max_steps) -> None:
        game = self.game
        for _ in range(max_steps):
            t = self.table
            if t.over or self.ended:
                break
            if t.actor == viewer:
                a = int(rng.choice(np.flatnonzero(t.state.mask[0])))
            else:
                seat, play = guide_plays.get(len(self.shown), (None, None))
                a = public_action(t, play if seat == t.actor else None)
            seat = t.actor
            r = self.client.post("/api/games/twin/actions", json={"action": t.game.action_name(a),
                                                                  "turn": game.turn_of(seat)},
                                 headers=self.auth(seat))
            assert r.status_code == 200, r.text
            self.look()

    def auth(self, viewer: int) -> dict:
        return {"Authorization": f"Bearer {self.tokens[viewer]}"}

    def get(self, viewer: int) -> dict:
        return self.client.get("/api/games/twin", headers=self.auth(viewer)).json()

    def take(self, ev) -> bool:
        if ends_twins(ev):
            return False
        k = len(self.shown)
        if text := ev.text(self.viewer):
            self.shown.append((text, reveals(ev, self.viewer)))
        if ev.kind == "play" and ev.seat != self.viewer:
            self.plays[k] = (ev.seat, ev.action)
        self.public += bool(ev.text(PUBLIC))
        return True

    def look(self) -> None:
        if self.ended:
            return
        mine = self.client.get("/api/games/twin", headers=self.auth(self.viewer))
        watch = self.client.get("/api/games/twin", headers=self.auth(PUBLIC))
        t, seen = self.table, mine.json()
        hidden = not t.over and t.actor != seen["view"]["actor"]
        self.moments.append((len(self.shown), mine.content, self.public, watch.content, hidden))
        if hidden and seen["moves"]:  # shown asked, but another seat decides first: told to wait, by nobody's name
            r = self.client.post("/api/games/twin/actions", json={"action": seen["moves"][0]["action"],
                                                                  "turn": seen["turn"]}, headers=self.auth(self.viewer))
            assert r.status_code == 409 and r.json() == {"error": WAIT}, r.text
            self.waited += 1


def _groups(moments, n: int, which: int) -> dict:
    out: dict = {}
    for m in moments:
        if m[0] <= n:
            out.setdefault(m[2 * which], set()).add(m[2 * which + 1])
    return out


def _differ(a: dict, b: dict) -> list:
    return [k for k in sorted(set(a) & set(b)) if len(a[k] | b[k]) > 1]


@pytest.mark.parametrize("rules, options", RULES)
def test_twins_get_the_same_http_state_seat_and_spectator(rules, options, monkeypatch):
    checked = hidden = waited = 0
    for seed in range(PAIRS):
        players = 2 + seed % 4
        sa, sb, viewer, ta, tb = twin_setups(rules, dict(options), players, seed)
        n = compared(ta, tb)
        with monkeypatch.context() as m:
            a = WebTwin(sa, viewer, seed, {}, m)
        with monkeypatch.context() as m:
            b = WebTwin(sb, viewer, seed, ta.plays, m)
        assert [s for s, _ in a.shown] == [s for s, _ in ta.shown]  # the same moves as the Table twins
        for which, who in ((0, f"seat {viewer}"), (1, "the spectator")):
            ga, gb = _groups(a.moments, n, which), _groups(b.moments, n, which)
            bad = _differ(ga, gb)
            assert not bad, f"{who} is sent different states: {_first_difference(ga[bad[0]] | gb[bad[0]])}"
            checked += len(set(ga) & set(gb))
        hidden += sum(m[4] for m in a.moments + b.moments if m[0] <= n)
        waited += a.waited + b.waited
    assert checked >= 60
    assert hidden, "no hidden decision of another seat was compared"
    assert waited, "no move was sent during another seat's hidden decision"


def _first_difference(bodies: set) -> str:
    a, b = (json.loads(x) for x in list(bodies)[:2])
    keys = [k for k in a if a.get(k) != b.get(k)]
    return f"{keys}: {[a.get(k) for k in keys]} / {[b.get(k) for k in keys]}"

"""UNO in the browser, without a browser: the replay page, and the web app of ``uno serve`` driven through
Starlette's TestClient as players and as hostile clients would (tests/test_browser.py drives both in
Chromium).  Every bad request must get a 4xx that says what was wrong, never a 500."""

from __future__ import annotations

import gc
import json
import os
import re
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")  # Starlette 1.x would have httpx2; httpx still works

from helpers import played_record  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from uno_apps import cli  # noqa: E402
from uno_apps.web import games as web_games  # noqa: E402
from uno_apps.web.app import create_app  # noqa: E402
from uno_apps.web.games import WAIT, Game, Games  # noqa: E402
from uno_apps.web.guard import MAX_BODY  # noqa: E402
from uno_apps.web.words import PUBLIC, moves, public_view  # noqa: E402
from uno_env.records import write_records  # noqa: E402
from uno_env.table import Table  # noqa: E402


# ---------------------------------------------------------------------- the replay page
def test_replay_page_is_one_offline_file(tmp_path):
    rec = played_record("flip_jp", 3, seed=2)
    path = tmp_path / "games.jsonl"
    write_records(path, [rec])
    out = tmp_path / "game.html"
    assert cli.main(["replay", str(path), "--html", str(out)]) == 0
    page = out.read_text()
    assert page.startswith("<!doctype html>") and "window.UNO_REPLAY" in page and "<svg" in page
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", page), "the page must not fetch anything"
    data = json.loads(page.split("window.UNO_REPLAY = ", 1)[1].split(";</script>", 1)[0])
    assert len(data["frames"]) == len(rec.actions) + 1
    # seat 1's frames never hold another seat's cards before the round's end, nor seat 1's own backs
    for fr in data["frames"][:-1]:
        v = fr["views"]["1"]
        assert v["seats"][1]["backs"] is None
        assert all(s["cards"] is None for s in v["seats"] if s["seat"] != 1)


def test_replay_page_of_a_bad_record_is_refused(tmp_path):
    rec = played_record()
    rec.actions[2] = [rec.actions[2][0], 10_000]
    path = tmp_path / "bad.jsonl"
    write_records(path, [rec])
    assert cli.main(["replay", str(path), "--html", str(tmp_path / "x.html")]) == 2
    assert not (tmp_path / "x.html").exists()




# ---------------------------------------------------------------------- the web app: helpers
class Clock:
    """A clock the tests move by hand: idle games and connected seats without waiting."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def client_for(games: Games | None = None, **kw) -> TestClient:
    return TestClient(create_app(hosts=["testserver"], games=games or Games(**kw)))


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def make(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def tokens_of(state: dict) -> dict[int, str]:
    """Every person's seat token, from the maker's state (its own and the join links')."""
    out = {state["seat"]: state["token"]}
    out.update({s["seat"]: s["link"].split("token=")[1] for s in state["links"]["seats"]})
    return out


def choose(state: dict) -> str:
    """A quick player's move: a card that is not a wild, else any card, else the first move."""
    ms = state["moves"]
    plays = [m for m in ms if m["face"] is not None and m["colour"] is None] or [m for m in ms if m["face"] is not None]
    return (plays or ms)[0]["action"]


def play_round(client: TestClient, gid: str, tokens: dict[int, str], check=None) -> dict:
    """Play the round in play to its end, each person's seat by its own token; ``check`` sees every state."""
    for _ in range(3000):
        s = client.get(f"/api/games/{gid}", headers=auth(next(iter(tokens.values())))).json()
        if s["view"]["over"]:
            return s
        # the seat asked; another person's view shows a hidden decision (a drawn card, a jump-in offer...) as
        # if declined, offering the moves that then come: the seat the table shows asked is told to wait
        views = {p: client.get(f"/api/games/{gid}", headers=auth(t)).json() for p, t in tokens.items()}
        for seat, mine in ((p, v) for p, v in views.items() if v["moves"]):
            if check:
                check(mine)
            r = client.post(f"/api/games/{gid}/actions", json={"action": choose(mine), "turn": mine["turn"]},
                            headers=auth(tokens[seat]))
            if r.status_code == 200:
                break
            assert r.status_code == 409 and r.json()["error"] == WAIT, r.text
        else:
            raise AssertionError("nobody could move")
    raise AssertionError("the round did not end")


def finish_game(client: TestClient, games: Games, state: dict) -> dict:
    """Bring a game of two people to its end: one round from the target, then that round."""
    games.games[state["id"]].table.state.scores[0, :] = games.games[state["id"]].table.engine.config.target - 1
    end = play_round(client, state["id"], tokens_of(state))
    assert end["view"]["game_over"], "seed: the round's winner scored nothing"
    return end


# ---------------------------------------------------------------------- serving
def test_serve_binds_to_localhost_by_default():
    import argparse
    seen = None
    orig = argparse.ArgumentParser.parse_args

    def spy(self, argv=None, namespace=None):
        nonlocal seen
        seen = orig(self, argv, namespace)
        raise SystemExit(0)
    argparse.ArgumentParser.parse_args = spy
    try:
        with pytest.raises(SystemExit):
            cli.main(["serve"])
    finally:
        argparse.ArgumentParser.parse_args = orig
    assert seen.host == "127.0.0.1"


def test_serving_beyond_this_machine_warns_and_still_checks_the_host(monkeypatch, capsys):
    import uvicorn
    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "8123", "--allow-host", "uno.lan"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("warning: serving on 0.0.0.0") and "tokens" in out and seen["host"] == "0.0.0.0"
    for host in ("192.168.1.20:8123", "[fe80::1]:8123", "uno.lan:8123", "localhost:8123"):
        assert TestClient(seen["app"], base_url=f"http://{host}").get("/api/options").status_code == 200, host
    for host in ("rebind.example:8123", "192.168.1.20:9999"):
        assert TestClient(seen["app"], base_url=f"http://{host}").get("/api/options").status_code == 400, host
    assert cli.main(["serve", "--port", "8124"]) == 0
    assert "warning" not in capsys.readouterr().out and seen["host"] == "127.0.0.1"
    assert TestClient(seen["app"], base_url="http://192.168.1.20:8124").get("/").status_code == 400


# ---------------------------------------------------------------------- every bad request: a 4xx that says why
@pytest.mark.parametrize("body, raw, status, words", [
    (None, b"{not json", 400, "must be a JSON object"),
    ([1, 2], None, 400, "JSON object; got a list"),
    ({"rules": "poker"}, None, 400, "'rules' must be one of standard_en"),
    ({"players": 11}, None, 400, "'players' must be an integer from 2 to 10; got 11"),
    ({"players": True}, None, 400, "'players'"),
    ({"players": 2, "opponents": "grandmaster"}, None, 400, "'opponents' holds 'grandmaster', which is no agent"),
    ({"players": 3, "opponents": "heuristic"}, None, 400, "per other seat: 2 for 3 players; got 1"),
    ({"seat": 4, "players": 4}, None, 400, "'seat' must be an integer from 0 to 3"),
    ({"seed": "x"}, None, 400, "'seed' must be an integer from 0 to 9223372036854775807"),
    ({"seed": 2**63}, None, 400, "'seed' must be an integer from 0 to"),
    ({"seed": -1}, None, 400, "'seed'"),
    ({"colour": "red"}, None, 400, "unknown field(s) 'colour'; the fields are rules, players"),
    (None, b'{"seed": ' + b"7" * 5000 + b"}", 400, "must be a JSON object"),
    (None, b"[" * 50_000, 400, "nested too deeply"),
    (None, b'{"seed": NaN}', 400, "NaN is no JSON number"),
    (None, b'{"rules": "' + b"x" * (MAX_BODY + 1) + b'"}', 413, "the limit is 65536"),
])
def test_a_malformed_new_game_gets_a_4xx_and_a_short_message(body, raw, status, words):
    c = client_for()
    r = c.post("/api/games", json=body) if raw is None else c.post("/api/games", content=raw,
                                                                 headers={"Content-Type": "application/json"})
    assert r.status_code == status and words in r.json()["error"], r.text
    assert len(r.content) < 400 and "Traceback" not in r.text  # never an echo of what was sent


def test_bodies_over_the_limit_are_refused_before_they_are_read_and_only_json_is_taken():
    c = client_for()
    chunks = (b"x" * 1024 for _ in range(200))  # chunked, no Content-Length: refused once past the limit
    r = c.post("/api/games", content=chunks, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "limit of 65536" in r.json()["error"]
    r = c.post("/api/games", content=b'{"players": 2}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    s = make(c, players=2, opponents="heuristic", seed=1)
    r = c.post(f"/api/games/{s['id']}/actions", json={"action": "x" * 60_000, "turn": s["turn"]},
               headers=auth(s["token"]))
    assert r.status_code == 400 and "is not one of your moves" in r.json()["error"] and len(r.content) < 1000


def test_unknown_ids_routes_fields_and_moves_get_a_4xx():
    c = client_for()
    s = make(c, players=2, seed=1)
    gid, h = s["id"], auth(s["token"])
    assert c.get("/api/games/999", headers=h).status_code == 404
    assert c.post("/api/games/999/actions", json={"action": "draw", "turn": 1}, headers=h).status_code == 404
    r = c.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"].startswith("no route '/api/nothing'; the routes are /,")
    r = c.put("/api/games")
    assert r.status_code == 405 and r.json()["error"] == "'PUT' is not allowed on '/api/games'; it takes POST"
    assert c.get("/api/faces/poker").status_code == 404
    assert c.get("/api/options?debug=1").json()["error"].startswith("unknown query parameter 'debug'")
    turn = s["turn"]
    cases = [({"action": "play X9", "turn": turn}, 400, "not one of your moves"),
             ({"action": 3, "turn": turn}, 400, "'action' must be"),
             ({"action": "draw"}, 400, "'turn' must be the integer 'turn' of the state"),
             ({"action": "draw", "turn": turn, "seat": 1}, 400, "unknown field(s) 'seat'; the fields are action, turn"),
             ({"action": "draw", "turn": 10**30}, 409, "is not the state in play")]
    for body, status, words in cases:
        r = c.post(f"/api/games/{gid}/actions", json=body, headers=h)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
    r = c.post(f"/api/games/{gid}/next", json={}, headers=h)
    assert r.status_code == 409 and "still in play" in r.json()["error"]
    r = c.post(f"/api/games/{gid}/next", json={"new_game": "yes"}, headers=h)
    assert r.status_code == 400 and "'new_game' must be true or false" in r.json()["error"]


def test_opponents_one_per_other_seat_shared_and_only_those_that_fit():
    pytest.importorskip("sb3_contrib")
    games = Games()
    c = client_for(games)
    r = c.post("/api/games", json={"players": 4, "opponents": ["heuristic"] * 10_000})  # 130 KB
    assert r.status_code == 413
    r = c.post("/api/games", json={"players": 4, "opponents": ["heuristic"] * 4000})
    assert r.status_code == 400 and "3 for 4 players; got 4000" in r.json()["error"] and not games.games
    fits = c.get("/api/options").json()["fits"]
    assert fits["ppo-standard_en-2p"]["standard_en"] == [2] and fits["ppo-standard_en-2p"]["flip_jp"] == []
    assert fits["ppo-standard_en-4p"]["standard_en"] == [4] and fits["heuristic"]["flip_jp"] == list(range(2, 11))
    for body in ({"players": 3, "opponents": "ppo-standard_en-2p,heuristic"},
                 {"rules": "flip_jp", "players": 2, "opponents": "ppo-standard_en-2p"}):
        r = c.post("/api/games", json=body)
        msg = r.json()["error"]
        assert r.status_code == 400 and "ppo-standard_en-2p cannot play" in msg and "trained for" in msg, msg
        assert "it plays standard_en with 2 players" in msg
    a, b = (make(c, players=3, opponents="heuristic,random") for _ in range(2))
    ga, gb = games.games[a["id"]], games.games[b["id"]]
    assert ga.bots[1] is gb.bots[1] and ga.bots[2] is gb.bots[2]  # loaded once, shared by every game


# ---------------------------------------------------------------------- who may do what
def test_a_post_from_another_sites_page_is_refused():
    c = client_for()
    evil = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    r = c.post("/api/games", content=b'{"players": 2}', headers=evil)
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = c.post("/api/games", json={"players": 2}, headers={"Origin": "null"})
    assert r.status_code == 403
    s = make(c, players=2, opponents="heuristic", seed=2)
    h = auth(s["token"])
    r = c.post(f"/api/games/{s['id']}/actions", json={"action": choose(s), "turn": s["turn"]},
               headers={**h, "Origin": "http://evil.example"})
    assert r.status_code == 403
    assert c.delete(f"/api/games/{s['id']}", headers={**h, "Origin": "http://evil.example"}).status_code == 403
    assert c.get(f"/api/games/{s['id']}", headers=h).json()["turn"] == s["turn"]  # nothing changed
    r = c.post(f"/api/games/{s['id']}/actions", json={"action": choose(s), "turn": s["turn"]},
               headers={**h, "Origin": "http://testserver"})  # the server's own page
    assert r.status_code == 200


def test_a_host_that_is_not_the_served_address_is_refused():
    c = client_for()
    for host in ("evil.example", "testserver.evil.example", "", "testserver/x"):
        r = c.get("/", headers={"Host": host})
        assert r.status_code == 400 and "not an address of this server" in r.json()["error"], host
    assert c.get("/").status_code == 200
    app = create_app(port=8000)  # the default names, one port
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/api/options").status_code == 200
    assert TestClient(app, base_url="http://localhost:8000").get("/api/options").status_code == 200
    r = TestClient(app, base_url="http://attacker.example:8000").get("/api/options")
    assert r.status_code == 400 and "it answers to 127.0.0.1, ::1, localhost" in r.json()["error"]


def test_a_seats_view_needs_its_token_and_a_spectator_sees_only_what_is_public():
    c = client_for(entropy=8)
    s = make(c, rules="flip_jp", players=3, opponents=["human", "heuristic"])
    gid, tokens = s["id"], tokens_of(s)
    spectator = s["links"]["spectator"].split("token=")[1]
    r = c.get(f"/api/games/{gid}")
    assert r.status_code == 401 and "Authorization: Bearer" in r.json()["error"]
    assert c.get(f"/api/games/{gid}", headers=auth("x" * 22)).status_code == 403
    assert c.get(f"/api/games/{gid}", headers={"Authorization": tokens[0]}).status_code == 401  # no scheme
    for seat, token in tokens.items():
        v = c.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert v["seat"] == seat and v["view"]["viewer"] == seat
        assert [x["seat"] for x in v["view"]["seats"] if x["cards"] is not None] == [seat]
        assert v["view"]["seats"][seat]["backs"] is None  # never the backs of one's own cards
        assert ("links" in v) == (seat == 0)  # the join links go to the game's maker only
    w = c.get(f"/api/games/{gid}", headers=auth(spectator)).json()
    assert w["seat"] is None and w["moves"] == [] and w["view"]["legal"] == []
    assert all(x["cards"] is None and x["backs"] is None for x in w["view"]["seats"])
    r = c.post(f"/api/games/{gid}/actions", json={"action": "draw", "turn": w["turn"]}, headers=auth(spectator))
    assert r.status_code == 403 and "only watches" in r.json()["error"]
    assert c.delete(f"/api/games/{gid}", headers=auth(tokens[1])).status_code == 403  # only its maker ends it
    assert c.delete(f"/api/games/{gid}", headers=auth(tokens[0])).json() == {"ended": gid}
    assert c.get(f"/api/games/{gid}", headers=auth(tokens[0])).status_code == 404


def test_a_spectator_is_told_no_card_a_seat_drew():
    t = Table("standard_en", 3, seed=4)
    rng = np.random.default_rng(0)
    named = re.compile(r"draws? \d+ cards?:")
    told = 0
    while not t.over:
        legal = t.legal()
        for ev in t.step(legal[int(rng.integers(len(legal)))]):
            assert not named.search(ev.text(PUBLIC)), ev.text(PUBLIC)
            told += bool(ev.seat >= 0 and named.search(ev.text(ev.seat)))
    assert told  # the drawer is told its cards; the public never is
    assert public_view(t)["seats"][0]["cards"] is not None  # hands are laid down at the round's end


# ---------------------------------------------------------------------- turns
def test_the_same_action_sent_twice_is_applied_once():
    c = client_for()
    s = make(c, players=2, opponents="heuristic", seed=3)
    gid, h = s["id"], auth(s["token"])
    body = {"action": choose(s), "turn": s["turn"]}
    first = c.post(f"/api/games/{gid}/actions", json=body, headers=h)
    assert first.status_code == 200 and first.json()["turn"] != s["turn"]
    again = c.post(f"/api/games/{gid}/actions", json=body, headers=h)
    assert again.status_code == 409 and "nothing was done" in again.json()["error"]
    now = c.get(f"/api/games/{gid}", headers=h).json()
    assert (now["turn"], now["view"], now["events"]) == (first.json()["turn"], first.json()["view"],
                                                         first.json()["events"])
    unchanged = c.get(f"/api/games/{gid}?since={now['turn']}", headers=h).json()
    assert unchanged["unchanged"] and "view" not in unchanged  # a poll that finds nothing new is small


def test_after_the_game_is_over_only_an_explicit_new_game_deals():
    games = Games(entropy=5)
    c = client_for(games)
    s = make(c, players=2, opponents="human")
    end = finish_game(c, games, s)
    gid, h = s["id"], auth(s["token"])
    r = c.post(f"/api/games/{gid}/actions", json={"action": "draw", "turn": end["turn"]}, headers=h)
    assert r.status_code == 409 and "the game is over" in r.json()["error"]
    r = c.post(f"/api/games/{gid}/next", json={"turn": end["turn"]}, headers=h)
    assert r.status_code == 409 and '"new_game": true' in r.json()["error"]
    assert c.get(f"/api/games/{gid}", headers=h).json()["view"] == end["view"]  # nothing changed
    r = c.post(f"/api/games/{gid}/next", json={"turn": end["turn"], "new_game": True}, headers=h)
    assert r.status_code == 200 and not r.json()["view"]["over"]
    assert all(x["score"] == 0 for x in r.json()["view"]["seats"]) and r.json()["view"]["round"] == 1
    r = c.post(f"/api/games/{gid}/next", json={"new_game": True}, headers=h)
    assert r.status_code == 409 and "still in play" in r.json()["error"]


# ---------------------------------------------------------------------- seeds
def test_unseeded_games_are_dealt_from_128_bits_and_a_seed_is_taken_only_without_other_people(monkeypatch):
    made = []

    class Spy(np.random.SeedSequence):
        def __init__(self, entropy=None, **kw):
            super().__init__(entropy, **kw)
            made.append(self)
    monkeypatch.setattr(web_games.np.random, "SeedSequence", Spy)
    games = Games()
    c = client_for(games)
    states = [make(c, players=2, opponents="random") for _ in range(8)]
    roots = [m for m in made if not m.spawn_key]  # (spawned children: the bots' generators)
    assert len(roots) == 8 and all(m.entropy.bit_length() > 64 for m in roots)  # 128 random bits each
    deals = {games.games[s["id"]].table.seed for s in states}
    assert len(deals) == 8 and max(deals) > 2**40
    assert not any("seed" in s or s["seeded"] or "seed_note" in s for s in states)
    s = make(c, players=2, opponents="heuristic", seed=12)  # you and an agent: the seed deals
    watch = c.get(f"/api/games/{s['id']}", headers=auth(s["links"]["spectator"].split("token=")[1])).json()
    assert s["seed"] == 12 and "seed" not in watch  # the number to its maker, the warning to everyone
    assert s["seeded"] and watch["seeded"] and "whoever knows the seed can compute every hand" in watch["seed_note"]
    assert s["view"]["seats"][0]["cards"] == Table("standard_en", 2, seed=12).view(0)["seats"][0]["cards"]


def test_a_joiner_cannot_rebuild_the_deal_of_a_table_with_other_people():
    """A seed where another person sits is refused; and the deal of such a table is none of the first 4096
    seeds, which a joiner would try first from its hand (all 4096 dealt at once)."""
    from uno_env import VecGame
    c = client_for()
    r = c.post("/api/games", json={"players": 3, "opponents": "human,heuristic", "seed": 31_337})
    assert r.status_code == 400 and "fresh entropy" in r.json()["error"]
    s = make(c, players=3, opponents="human,human")
    hand = c.get(f"/api/games/{s['id']}", headers=auth(tokens_of(s)[1])).json()["view"]["seats"][1]["cards"]
    tries = VecGame("standard_en", 3, batch_size=4096, seed=0, autoreset=False, observation="v2")
    assert _seat_cards(tries, 1, hand) == []
    deal = c.app.state.games.games[s["id"]].table.seed
    found = VecGame("standard_en", 3, batch_size=1, seed=deal, autoreset=False, observation="v2")
    assert _seat_cards(found, 1, hand) == [0]  # (the search finds a deal that is there)


def _seat_cards(game, seat: int, hand: list[int]) -> list[int]:
    """The games of the batch where ``seat`` holds ``hand`` (face ids)."""
    from uno_env.view import seat_view
    return [k for k in range(game.batch_size) if seat_view(game, seat, row=k)["seats"][seat]["cards"] == hand]


# ---------------------------------------------------------------------- limits
def test_one_client_holds_a_few_games_and_a_full_server_says_when_a_place_frees():
    """One client (address) holds ``per_creator`` games in play, its own unplayed ones giving way first; a
    full server gives way to finished games, then to those nobody moved in for ``unplayed_s`` (polls do not
    count), then to those played in but idle for ``idle_s``; else 503 with ``Retry-After``."""
    clock = Clock()
    games = Games(max_games=5, per_creator=2, unplayed_s=300, idle_s=1800, clock=clock)
    app = create_app(hosts=["testserver"], games=games)
    one, two, three = (TestClient(app, client=(f"10.0.0.{i}", 4000)) for i in (1, 2, 3))
    a = make(one, players=2, opponents="random")
    clock.now = 10
    b = make(one, players=2, opponents="random")
    clock.now = 20
    c = make(one, players=2, opponents="random")  # at its cap: its own oldest unplayed game gives way
    assert a["id"] not in games.games and {b["id"], c["id"]} <= set(games.games)
    for g in (b, c):  # played in: they no longer give way to their maker's next game
        r = one.post(f"/api/games/{g['id']}/actions", json={"action": choose(g), "turn": g["turn"]},
                     headers=auth(g["token"]))
        assert r.status_code == 200, r.text
    r = one.post("/api/games", json={"players": 2})
    assert r.status_code == 429 and "the most one client may have" in r.json()["error"]
    assert int(r.headers["Retry-After"]) == 1800
    d = make(two, players=2, opponents="random")  # other clients still make games
    clock.now = 30
    e = make(two, players=2, opponents="random")
    done = make(three, players=2, opponents="human")
    finish_game(three, games, done)
    clock.now = 40
    f = make(three, players=2, opponents="random")  # the finished game gives way, though older ones wait
    assert set(games.games) == {b["id"], c["id"], d["id"], e["id"], f["id"]}
    r = TestClient(app, client=("10.0.0.4", 4000)).post("/api/games", json={"players": 2})
    assert r.status_code == 503 and "the server is full: 5 games are in play" in r.json()["error"]
    assert int(r.headers["Retry-After"]) == 20 + 300 - 40  # d, made at 20 and unplayed, frees first
    clock.now = 315
    for g in (d, e):  # polls keep no game: not a seat's, nor a spectator's
        two.get(f"/api/games/{g['id']}", headers=auth(g["token"]))
        two.get(f"/api/games/{g['id']}", headers=auth(g["links"]["spectator"].split("token=")[1]))
    clock.now = 325
    make(TestClient(app, client=("10.0.0.4", 4000)), players=2, opponents="random")  # d gives way
    assert d["id"] not in games.games and e["id"] in games.games
    r = two.get(f"/api/games/{d['id']}", headers=auth(d["token"]))
    assert r.status_code == 404 and "made room for newer games" in r.json()["error"]


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_2000_games_made_in_a_loop_leave_memory_bounded():
    """The bound: at most ``max_games`` (50) live games; the live games hold under 400 KB each of Python
    memory (about 200 KB measured for two players); the process's resident memory grows by under 48 MB
    from the 500th game to the 1800th (about 5 MB measured; after that tracemalloc's own records would
    count).  The faked clock makes every game idle at once: nothing waits."""
    clock = Clock()
    cap = 50
    games = Games(max_games=cap, unplayed_s=60, per_creator=cap, clock=clock)
    c = client_for(games)
    rss = {}
    for i in range(2000):
        if i == 1800:  # the last 200 games: more than the cap, so every live game is one traced
            gc.collect()
            tracemalloc.start()
        clock.now += 61
        assert c.post("/api/games", json={"players": 2, "opponents": "random"}).status_code == 201
        assert len(games.games) <= cap
        if i in (500, 1799):
            rss[i] = _rss()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert held < cap * 400_000, f"{held / cap / 1e3:.0f} KB a live game"
    assert rss[1799] - rss[500] < 48 * 2**20, f"{(rss[1799] - rss[500]) / 2**20:.1f} MB"


# ---------------------------------------------------------------------- hostile clients
FIELDS = ["rules", "players", "opponents", "seat", "seed", "action", "turn", "new_game", "colour", ""]
WORDS = ["standard_en", "flip_jp", "solo_bga", "human", "heuristic", "random", "ppo-standard_en-2p", "draw",
         "pass", "challenge", "accept", "uno", "play R5", "play W R", "choose R", "catch @1", "human,heuristic"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2**80, 2**80), st.integers(0, 12),
                    st.floats(), st.text(max_size=30), st.sampled_from(WORDS))
VALUES = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4)
                      | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), kids, max_size=4), max_leaves=16)
NEW_GAMES = st.fixed_dictionaries({}, optional={  # near-valid games: the checks of every field, and games made
    "rules": st.sampled_from(["standard_en", "flip_jp", "solo_bga", "house_cn", "poker"]),
    "players": st.integers(1, 11), "seat": st.integers(-1, 10), "seed": st.integers(-1, 2**64) | st.none(),
    "opponents": st.lists(st.sampled_from(WORDS[3:7]), max_size=10) | st.sampled_from(WORDS[3:7] + WORDS[-1:])})
BODIES = st.one_of(
    NEW_GAMES.map(lambda d: json.dumps(d).encode()),
    st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=5).map(lambda d: json.dumps(d).encode()),
    VALUES.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=80),
    st.integers(1, 70_000).map(lambda n: b"[" * n),  # nesting, under and over the size limit
    st.integers(1, 6000).map(lambda n: b'{"seed": ' + b"9" * n + b"}"),
    st.just(b'{"action": "' + b"x" * 70_000 + b'"}'),
    st.just(b""))
ROUTES = ["/", "/api/options", "/api/faces/{x}", "/api/games", "/api/games/{id}", "/api/games/{id}/actions",
          "/api/games/{id}/next", "/api/{x}", "/{x}"]


def test_hostile_requests_to_every_route_never_get_a_5xx():
    """Random methods, routes, ids, tokens, headers and JSON (numbers of any size, nesting, sizes over the
    limit), with a sensible move now and then so that games advance: no response is a 5xx (the TestClient
    also raises any exception the app lets out), and the server plays on after."""
    from urllib.parse import quote
    games = Games(max_games=10_000, per_creator=10_000)
    c = client_for(games)
    live = [make(c, players=2, opponents="heuristic", seed=1), make(c, rules="flip_jp", players=3,
                                                                    opponents="human,random")]
    tokens = [t for s in live for t in tokens_of(s).values()] + [s["links"]["spectator"].split("token=")[1]
                                                                for s in live]

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(st.data())
    def fuzz(data):
        s = data.draw(st.sampled_from(live))
        gid = data.draw(st.sampled_from([s["id"], s["id"][:-1] + "A"]) | st.text(max_size=40))
        path = data.draw(st.sampled_from(ROUTES)).replace("{id}", quote(gid, safe="")).replace(
            "{x}", quote(data.draw(st.text(max_size=20)), safe=""))
        method = data.draw(st.sampled_from(["GET", "POST", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"]))
        token = data.draw(st.sampled_from([None, "junk", *tokens, *tokens]))
        body = data.draw(BODIES)
        mode = data.draw(st.sampled_from(["any", "any", "make", "move"]))
        pick, stale, new_game = data.draw(st.integers(0, 99)), data.draw(st.booleans()), data.draw(NEW_GAMES)
        if mode == "make":  # a game that may be right
            method, path, body = "POST", "/api/games", json.dumps(new_game).encode()
        elif mode == "move" and s["id"] in games.games:  # a move that may be right, to advance the games
            state = c.get(f"/api/games/{s['id']}", headers=auth(tokens_of(s)[0])).json()
            token = tokens_of(s).get(state["view"]["actor"], tokens_of(s)[0])
            state = c.get(f"/api/games/{s['id']}", headers=auth(token)).json()
            method, path = "POST", f"/api/games/{s['id']}/" + ("next" if state["view"]["over"] else "actions")
            legal = [m["action"] for m in state["moves"]] or ["x"]  # (drawn by index: the draws stay the same)
            body = json.dumps({"action": legal[pick % len(legal)], "turn": state["turn"] - stale,
                               **({"new_game": True} if state["view"].get("game_over") else {})}).encode()
        headers = {}
        if token:
            headers["Authorization"] = data.draw(st.sampled_from(["Bearer "] * 3 + ["bearer ", "Basic ", ""])) + token
        origin = data.draw(st.sampled_from([None] * 4 + ["http://testserver", "http://evil.example", "null"]))
        if origin:
            headers["Origin"] = origin
        headers["Content-Type"] = data.draw(st.sampled_from(["application/json"] * 4 + [
            "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded"]))
        host = data.draw(st.sampled_from([None] * 6 + ["evil.example", "testserver:1", "testserver:x", "[::1"]))
        if host:
            headers["Host"] = host
        query = data.draw(st.sampled_from(["", "", "?since=1", "?since=", "?since=%00", "?x=1"]))
        r = c.request(method, path + query, content=body, headers=headers)
        assert r.status_code < 500, (method, path, r.status_code, r.text[:300])
        if r.status_code >= 400 and method != "HEAD":
            assert len(r.content) < 1000 and "error" in r.json(), r.text[:300]

    fuzz()
    assert c.get("/api/options").status_code == 200  # alive, and still plays a whole round
    s = make(c, players=2, opponents="human")
    assert play_round(c, s["id"], tokens_of(s))["view"]["over"]


# ---------------------------------------------------------------------- playing
def test_several_people_at_one_table_each_see_their_own_hand_and_who_is_here():
    clock = Clock()
    c = client_for(Games(clock=clock, entropy=11))
    s = make(c, players=3, opponents=["human", "heuristic"])
    gid, tokens = s["id"], tokens_of(s)
    people = {p["seat"]: p for p in s["people"]}
    assert people[0]["connected"] and not people[1]["joined"] and people[2]["agent"] == "heuristic"
    joined = c.get(f"/api/games/{gid}", headers=auth(tokens[1])).json()  # seat 1 opens its join link
    assert joined["seat"] == 1 and "token" not in joined and "links" not in joined
    assert c.get(f"/api/games/{gid}", headers=auth(tokens[0])).json()["people"][1]["connected"]
    clock.now += 60
    later = c.get(f"/api/games/{gid}", headers=auth(tokens[0])).json()["people"][1]
    assert later["joined"] and not later["connected"]

    def only_mine(state):
        v = state["view"]
        assert [x["seat"] for x in v["seats"] if x["cards"] is not None] == [state["seat"]]
        assert v["actor"] == state["seat"] and state["moves"]
    end = play_round(c, gid, tokens, only_mine)
    assert end["events"][-1]["kind"] == "round_end"
    seen = {p: c.get(f"/api/games/{gid}", headers=auth(t)).json()["events"] for p, t in tokens.items()}
    assert len(seen[0]) == len(seen[1]) and any("you " in e["text"] for e in seen[1])


def test_several_games_at_once_each_a_whole_round():
    c = client_for()
    games = [make(c, rules=r, players=p, opponents=["random", "heuristic", "greedy"][: p - 1], seed=7)
             for r, p in (("flip_jp", 3), ("solo_bga", 4), ("standard_en", 2))]
    assert len({g["id"] for g in games}) == 3
    live = {g["id"]: g for g in games}
    for _ in range(3000):  # interleaved: one move in each game in turn
        if not live:
            break
        for gid, g in list(live.items()):
            if g["view"]["over"]:
                assert g["events"][-1]["kind"] == "round_end"
                del live[gid]
                continue
            r = c.post(f"/api/games/{gid}/actions", json={"action": choose(g), "turn": g["turn"]},
                       headers=auth(g["token"]))
            assert r.status_code == 200, r.text
            live[gid] = {**r.json(), "token": g["token"]}
    assert not live


def test_a_shipped_agent_trained_on_v3_plays_a_round_in_the_web_app(tmp_path, monkeypatch):
    """The app builds the game in the layout its agents read: v3 for an agent trained on it, v2 for bots."""
    pytest.importorskip("sb3_contrib")
    from helpers import export_agent

    import agents
    export_agent(tmp_path / "tiny-2p", 2)
    monkeypatch.setattr(agents, "MODELS", tmp_path)  # shipped: the app offers it by name
    c = client_for()
    assert c.get("/api/options").json()["fits"]["tiny-2p"]["standard_en"] == [2]
    g = make(c, players=2, opponents="tiny-2p", seed=4)
    for _ in range(2000):
        if g["view"]["over"]:
            break
        r = c.post(f"/api/games/{g['id']}/actions", json={"action": choose(g), "turn": g["turn"]},
                   headers=auth(g["token"]))
        assert r.status_code == 200, r.text
        g = {**r.json(), "token": g["token"]}
    assert g["view"]["over"] and g["events"][-1]["kind"] == "round_end"
    assert any(ev["seat"] == 1 for ev in g["events"] if ev["kind"] != "round_end")  # the agent's seat acted
    assert Game("x", "standard_en", 2, ["human", "tiny-2p"], 0, 4, now=0).table.game.observer.version == "v3"
    assert Game("y", "standard_en", 2, ["human", "heuristic"], 0, 4, now=0).table.game.observer.version == "v2"


# ---------------------------------------------------------------------- words
def _asked(rules: str, players: int, kind: str, seeds=range(300)) -> Table:
    """A table whose seat asked may ``kind`` (random plays until it may)."""
    for seed in seeds:
        t = Table(rules, players, seed=seed)
        rng = np.random.default_rng(seed)
        while not t.over:
            legal = t.legal()
            if kind in legal:
                return t
            plays = [a for a in legal if a.startswith("play")]
            t.step((plays or legal)[int(rng.integers(len(plays or legal)))])
    raise AssertionError(f"no {kind} in {rules}")


def test_a_challenge_says_what_it_risks_from_the_rules_in_play():
    t = _asked("standard_en", 2, "challenge")
    labels = {m["action"]: m["label"] for m in moves(t, t.actor)}
    offender = t.names[int(t.state.origin[0])]
    assert labels["challenge"] == f"challenge {offender}'s W+4: if they were bluffing they draw 4, otherwise you draw 6"
    assert labels["accept"] == "accept: draw 4 cards"
    t = _asked("flip_jp", 2, "challenge")
    label = {m["action"]: m["label"] for m in moves(t, t.actor)}["challenge"]
    assert re.search(r": if they were bluffing they take the card back and draw 2, otherwise you draw "
                     r"(4|until a \w+ card, then 2 more)$", label), label


def test_a_wild_offers_its_colours_and_words_say_you_right():
    t = _asked("standard_en", 2, "play W R")
    wild = [m for m in moves(t, t.actor) if m["action"].startswith("play W ")]
    assert [m["label"] for m in wild] == ["red", "yellow", "green", "blue"] and len({m["face"] for m in wild}) == 1
    t = _asked("standard_en", 2, "challenge")
    origin, challenger = int(t.state.origin[0]), t.actor
    (ev, *_) = t.step("challenge")
    assert "challenges your W+4" in ev.text(origin) and "you's" not in ev.text(origin)
    assert ev.text(challenger).startswith(f"you challenge {t.names[origin]}'s W+4")

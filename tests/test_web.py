"""UNO in the browser: the replay page, the web app's API (a real uvicorn server) and, where Debian's
chromium is installed, both driven by Playwright in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")

from uno_env import cli  # noqa: E402
from uno_env.records import GameRecord, write_records  # noqa: E402
from uno_env.table import Table  # noqa: E402
from uno_env.terminal import replay_table  # noqa: E402
from uno_env.web.app import create_app  # noqa: E402
from uno_env.web.page import replay_page  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _record(rules="standard_en", players=4, seed=3) -> GameRecord:
    t = Table(rules, players, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not t.over:  # a random legal move, a play where there is one: rounds of tens of actions
        legal = np.flatnonzero(t.state.mask[0])
        plays = [a for a in legal if t.game.action_name(a).startswith("play")]
        a = int(rng.choice(plays or legal))
        actions.append([t.actor, a])
        t.step(a)
    st = t.state
    return GameRecord(rules=rules, num_players=players, seed=seed, episode="round", actions=actions,
                      result={"scores": [int(x) for x in st.scores[0]], "winner": int(st.winner[0])},
                      agents=["random"] * players)


# ---------------------------------------------------------------------- the replay page
def test_replay_page_is_one_offline_file(tmp_path):
    rec = _record("flip_jp", 3, seed=2)
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
    rec = _record()
    rec.actions[2] = [rec.actions[2][0], 10_000]
    path = tmp_path / "bad.jsonl"
    write_records(path, [rec])
    assert cli.main(["replay", str(path), "--html", str(tmp_path / "x.html")]) == 2
    assert not (tmp_path / "x.html").exists()


# ---------------------------------------------------------------------- the web app
@pytest.fixture(scope="module")
def server():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


def call(base, method, path, body=None, raw: bytes | None = None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_serve_binds_to_localhost_by_default():
    parser_default = None
    import argparse
    orig = argparse.ArgumentParser.parse_args

    def spy(self, argv=None, namespace=None):
        nonlocal parser_default
        ns = orig(self, argv, namespace)
        parser_default = ns
        raise SystemExit(0)
    argparse.ArgumentParser.parse_args = spy
    try:
        with pytest.raises(SystemExit):
            cli.main(["serve"])
    finally:
        argparse.ArgumentParser.parse_args = orig
    assert parser_default.host == "127.0.0.1"


@pytest.mark.parametrize("body, raw, status, words", [
    (None, b"{not json", 400, "must be JSON"),
    ([1, 2], None, 400, "JSON object"),
    ({"rules": "poker"}, None, 400, "'rules' must be one of"),
    ({"players": 11}, None, 400, "'players' must be an integer from 2 to 10"),
    ({"players": True}, None, 400, "'players'"),
    ({"opponents": "grandmaster"}, None, 400, "'opponents' must name agents"),
    ({"seat": 4, "players": 4}, None, 400, "'seat' must be an integer from 0 to 3"),
    ({"seed": "x"}, None, 400, "'seed'"),
    ({"colour": "red"}, None, 400, "unknown field(s) colour"),
])
def test_a_malformed_new_game_gets_a_4xx_and_a_message(server, body, raw, status, words):
    code, out = call(server, "POST", "/api/games", body, raw)
    assert code == status and words in out["error"] and "Traceback" not in json.dumps(out)


def test_unknown_games_routes_and_moves_get_a_4xx(server):
    assert call(server, "GET", "/api/games/999")[0] == 404
    assert call(server, "POST", "/api/games/999/actions", {"action": "draw"})[0] == 404
    assert call(server, "GET", "/api/nothing")[0] == 404
    code, g = call(server, "POST", "/api/games", {"players": 2, "seed": 1})
    assert code == 201
    code, out = call(server, "POST", f"/api/games/{g['id']}/actions", {"action": "play X9"})
    assert code == 400 and "not one of your moves" in out["error"]
    code, out = call(server, "POST", f"/api/games/{g['id']}/actions", {"action": 3})
    assert code == 400 and "'action' must be" in out["error"]
    code, out = call(server, "POST", f"/api/games/{g['id']}/next")
    assert code == 409 and "still in play" in out["error"]


def test_several_games_at_once_each_a_whole_round_with_only_the_human_view(server):
    games = [call(server, "POST", "/api/games", {"rules": r, "players": p, "opponents": "random,heuristic",
                                                  "seed": 7})[1]
             for r, p in (("flip_jp", 3), ("solo_bga", 4), ("standard_en", 2))]
    assert len({g["id"] for g in games}) == 3
    rng = np.random.default_rng(0)
    live = {g["id"]: g for g in games}
    for _ in range(3000):  # interleaved: one move in each game in turn
        if not live:
            break
        for gid, g in list(live.items()):
            v = g["view"]
            for s in v["seats"]:
                if s["seat"] != g["seat"] and not v["over"]:
                    assert s["cards"] is None  # another seat's hand by size only
            assert v["seats"][g["seat"]]["backs"] is None  # never the backs of one's own cards
            if v["over"]:
                assert g["events"][-1]["kind"] == "round_end"
                code, out = call(server, "POST", f"/api/games/{gid}/actions", {"action": "draw"})
                assert code == 409 and "round is over" in out["error"]
                del live[gid]
                continue
            legal = [a for a in v["legal"] if a.startswith("play")] or v["legal"]
            code, live[gid] = call(server, "POST", f"/api/games/{gid}/actions",
                                   {"action": legal[int(rng.integers(len(legal)))]})
            assert code == 200
    assert not live


def test_a_shipped_agent_trained_on_v3_plays_a_round_in_the_web_app(server, tmp_path, monkeypatch):
    """The app builds the game in the layout its agents read: v3 for an agent trained on it, v2 for bots."""
    pytest.importorskip("sb3_contrib")
    from helpers import export_agent

    import agents
    from uno_env.web.app import Game

    export_agent(tmp_path / "tiny-2p", 2)
    monkeypatch.setattr(agents, "MODELS", tmp_path)  # shipped: the app offers it by name
    assert "tiny-2p" in call(server, "GET", "/api/options")[1]["agents"]
    code, g = call(server, "POST", "/api/games", {"players": 2, "opponents": "tiny-2p", "seed": 4})
    assert code == 201, g
    for _ in range(2000):
        if g["view"]["over"]:
            break
        code, g = call(server, "POST", f"/api/games/{g['id']}/actions", {"action": g["view"]["legal"][0]})
        assert code == 200, g
    assert g["view"]["over"] and g["events"][-1]["kind"] == "round_end"
    assert any(ev["seat"] == 1 for ev in g["events"] if ev["kind"] != "round_end")  # the agent's seat acted
    assert Game("x", "standard_en", 2, ["tiny-2p"], 0, 4).table.game.observer.version == "v3"
    assert Game("y", "standard_en", 2, ["heuristic"], 0, 4).table.game.observer.version == "v2"


# ---------------------------------------------------------------------- in a real browser
@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no chromium installed (Debian: apt-get install chromium); the browser tests need it")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()


def test_replay_page_steps_forward_showing_the_recorded_top_card(browser, tmp_path):
    rec = _record("standard_en", 4, seed=11)
    table, frames = replay_table(rec)
    deck = table.engine.deck
    expected = []
    for upto in frames:
        st = table.events[upto - 1].after
        expected.append(deck.faces[int(table.engine.KF[int(st.side[0]), int(st.discard[0, st.disc_n[0] - 1])])].name)
    out = tmp_path / "replay.html"
    out.write_text(replay_page(rec))
    page = browser.new_page()
    page.goto(out.as_uri())
    for i, top in enumerate(expected):
        assert page.get_attribute("#top", "data-face") == top, f"action {i}"
        assert page.inner_text("#step") == f"action {i} / {len(expected) - 1}"
        page.click("#next")
    assert "round over" in page.inner_text("#status")
    # seen by seat 2: only seat 2's cards are face up
    page.click("#first")
    page.select_option("#viewer", "2")
    assert page.locator('.seat[data-seat="2"] .card[data-face]').count() > 0
    assert page.locator('.seat[data-seat="0"] .card[data-face]').count() == 0
    page.close()


def test_a_whole_round_played_through_uno_serve_by_clicking(browser, server):
    page = browser.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#rules option", state="attached")
    page.select_option("#rules", "standard_en")
    page.fill("#players", "3")
    page.select_option("#opponents", "heuristic")
    page.fill("#seed", "5")
    page.click("#new")
    page.wait_for_selector("#top")
    clicks = 0
    while "round over" not in page.inner_text("#status"):
        playable = page.locator(".card.playable")
        moves = [b.get_attribute("data-action") for b in page.locator("button.move").all()]
        if playable.count() and clicks % 2 == 0:  # click a card in the hand
            name = playable.first.get_attribute("data-face")
            options = [m for m in moves if m == f"play {name}" or m.startswith(f"play {name} ")]
            if len(options) == 1:
                with page.expect_response(lambda r: "/actions" in r.url):
                    playable.first.click()
            else:  # a wild: the card offers its colours, then one is clicked
                playable.first.click()
                with page.expect_response(lambda r: "/actions" in r.url):
                    page.locator("button.move").first.click()
        else:  # a move button (draw, keep, pass, challenge, uno...)
            with page.expect_response(lambda r: "/actions" in r.url):
                page.locator("button.move").first.click()
        clicks += 1
        assert clicks < 600
        assert "error" not in page.inner_html("#status")
    assert "takes the round" in page.inner_text("#status") or "void" in page.inner_text("#status")
    assert page.locator("#log div").count() > clicks
    page.close()

"""The replay page and ``uno serve`` in a real browser: Debian's chromium (``apt-get install chromium``)
driven by Playwright, never a browser Playwright downloads.  Without chromium or Playwright these tests
skip and say why."""

from __future__ import annotations

import re
import shutil
import socket
import threading
import time

import pytest
from helpers import played_record

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")

from uno_apps.terminal import replay_table  # noqa: E402
from uno_apps.web.app import create_app  # noqa: E402
from uno_apps.web.page import replay_page  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 30_000  # the longest any one step may take on a busy machine (a bound, not a measure)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no chromium installed (Debian: apt-get install chromium); the browser tests need it")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server():
    """``uno serve``'s app on a free loopback port, in a thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(port=port), log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(600):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


def test_replay_page_steps_forward_showing_the_recorded_top_card(browser, tmp_path):
    rec = played_record("standard_en", 4, seed=11)
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
    assert re.match(r"round over: (\S+ takes|you take) the round", page.inner_text("#status"))
    # seen by seat 2: only seat 2's cards are face up
    page.click("#first")
    page.select_option("#viewer", "2")
    assert page.locator('.seat[data-seat="2"] .card[data-face]').count() > 0
    assert page.locator('.seat[data-seat="0"] .card[data-face]').count() == 0
    assert "(pending)" not in page.inner_text("#status") and "(drawn)" not in page.inner_text("#status")
    page.close()


def _new_table(page, server, rules, players, seats, seed):
    """Fill the form of ``uno serve``'s page (``seats``: who sits at each other seat) and make the game."""
    page.goto(server + "/")
    page.wait_for_selector("#rules option", state="attached")
    page.select_option("#rules", rules)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "input")
    for seat, who in seats.items():
        page.select_option(f'select.opp[data-seat="{seat}"]', who)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.fill("#name", "ann")
    page.click("#new")
    page.wait_for_selector("#top")


def _act(page, prefer_card: bool) -> bool:
    """One move by clicking, as a person would: a card in the hand (a wild then asks for its colour), or a
    move's button; returns once the page has drawn the table after it (``False``: the table was not ready
    for the move, as when another seat has a hidden decision to make first, and the page waits; or the page
    had not yet drawn the table's last change)."""
    turn = page.evaluate("document.body.dataset.turn")
    playable = page.locator(".card.playable")
    with page.expect_response(lambda r: "/actions" in r.url) as answer:
        if playable.count() and prefer_card:
            playable.first.click()
            if page.locator("#moves button.choice").count():  # the colour chooser
                assert page.locator("#moves button.colour").count() >= 4
                page.locator("#moves button.choice").first.click()
        else:
            page.locator("#moves button.move").first.click()
    if answer.value.status == 409:  # told to wait, or the page had not yet drawn the table's last change
        assert re.match("wait: the table is not ready|'turn' .* the table has moved on", answer.value.json()["error"])
        return False
    page.wait_for_selector(f'body:not([data-turn="{turn}"])', timeout=WAIT_MS)  # (the page's CSP forbids eval)
    return True


def test_a_whole_round_played_through_uno_serve_by_clicking(browser, server):
    page = browser.new_page()
    _new_table(page, server, "standard_en", 3, {1: "heuristic", 2: "heuristic"}, 5)
    clicks = 0
    assert "the game ends when a seat reaches 500 points" in page.inner_text("#status")
    assert page.locator('.seat[data-seat="0"] .name').inner_text().startswith("ann")
    while "round over" not in page.inner_text("#status"):
        assert page.inner_text("#status").startswith("your turn: ")  # the agents answer at once
        assert _act(page, clicks % 2 == 0)
        clicks += 1
        assert clicks < 600
        assert "error" not in page.inner_html("#status")
    assert re.match(r"round over: (you take|heuristic_\d takes) the round", page.inner_text("#status"))
    assert page.locator("#log div").count() > clicks
    assert "card(s)" not in page.inner_text("#log") and "you's" not in page.inner_text("#log")
    page.close()


def test_two_people_play_a_whole_round_at_one_table_each_seeing_only_their_own_hand(browser, server):
    """Seat 0 makes a 3-seat table with a person at seat 1 (who joins by the link, in another browser
    context: their own cookies and storage) and an agent at seat 2; a spectator watches from a third."""
    contexts = [browser.new_context() for _ in range(3)]
    maker, guest, watcher = (ctx.new_page() for ctx in contexts)
    maker.goto(server + "/")
    maker.wait_for_selector("#rules option", state="attached")
    maker.select_option('select.opp[data-seat="1"]', "human")
    assert maker.is_disabled("#seed")  # no seed where another person sits
    _new_table(maker, server, "standard_en", 3, {1: "human", 2: "heuristic"}, None)
    assert "seed" not in maker.inner_text("#status")
    guest.goto(maker.get_attribute('#links a.join[data-seat="1"]', "href"))
    watcher.goto(maker.get_attribute("#links a.watch", "href"))
    guest.wait_for_selector("#top")
    watcher.wait_for_selector("#top")
    maker.wait_for_selector('#people .person[data-seat="1"][data-connected="true"]', timeout=WAIT_MS)
    pages = {0: maker, 1: guest}

    def only_own_hand(seat, page):
        for other in (0, 1, 2):
            count = page.locator(f'.seat[data-seat="{other}"] .card[data-face]').count()
            assert (count > 0) == (other == seat), (seat, other)

    clicks, acted = 0, {0: 0, 1: 0}
    while True:
        asked = None
        for _ in range(WAIT_MS // 100):  # the one asked sees "your turn" once its page has polled
            texts = {seat: p.inner_text("#status") for seat, p in pages.items()}
            if all("round over" in t for t in texts.values()):
                break
            asked = [seat for seat, t in texts.items() if t.startswith("your turn")] or None
            if asked is not None:
                break
            maker.wait_for_timeout(100)
        else:
            raise AssertionError(f"nobody was asked: {texts}")
        if asked is None:
            break
        for seat, p in pages.items():
            only_own_hand(seat, p)
        assert watcher.locator(".seat .card[data-face]").count() == 0  # the spectator sees no hand
        # both may be shown asked while one decides on a drawn card: the other is told to wait, and its page
        # sends the move again until it goes (or drops it if the table moves on)
        mover = next((seat for seat in asked if _act(pages[seat], clicks % 2 == 0)), None)
        clicks += 1
        if mover is not None:
            acted[mover] += 1
        assert clicks < 600
    assert acted[0] and acted[1], acted  # both people played
    for p in (maker, guest):
        assert re.match(r"round over: (you take|\S+ takes) the round", p.inner_text("#status"))
    watcher.wait_for_selector("#status:has-text('round over')", timeout=WAIT_MS)
    assert "you" not in watcher.inner_text("#log").split()  # the public's words name every seat
    for ctx in contexts:
        ctx.close()

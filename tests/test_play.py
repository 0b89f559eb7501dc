"""The terminal game (``uno play``, ``uno watch``, ``uno replay``): what a seat is shown, the words of events."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from uno_apps import cli, terminal
from uno_env.core.cards import _SYMBOL_TEXT, make_deck
from uno_env.core.config import PRESETS
from uno_env.render import LEGEND, LEGEND_SYMBOLS, NAME_WIDTH, view_text
from uno_env.table import Table

ROOT = Path(__file__).resolve().parents[1]
_WORD = re.compile(r"[A-Za-z0-9+]+")


def _faces(engine, state, seat, side=None) -> list[str]:
    """Names of the faces of ``seat``'s hand on ``side`` (default: the side in play), sorted as shown."""
    side = int(state.side[0]) if side is None else side
    kinds = np.repeat(np.arange(engine.K), state.hands[0, seat])
    return [engine.deck.faces[f].name for f in sorted(int(engine.KF[side, k]) for k in kinds)]


def _cards_in(text: str, names: set[str]) -> set[str]:
    return {w for w in _WORD.findall(text) if w in names}


class _Spy(Table):
    """The ``Table`` that ``terminal.play`` builds, kept for the test to compare the screen with the game."""

    last: Table | None = None

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        _Spy.last = self


def _play_and_check(monkeypatch, rules: str, players: int, seed: int, decisions: int = 12) -> int:
    """Play ``uno play`` (plain text) as seat 0 with random legal moves; at every prompt, check the screen
    printed since the last prompt against what seat 0 may see (rules §1.10).  Returns the prompts checked."""
    monkeypatch.setattr(terminal, "Table", _Spy)
    lines: list[str] = []
    rng = np.random.default_rng(seed)
    state = {"prompts": 0, "events": 0, "mark": 0}

    def inp(prompt: str) -> str:
        t = _Spy.last
        e = t.engine
        all_names = {f.name for f in e.deck.faces}
        screen = lines[state["mark"]:]
        state["mark"] = len(lines)
        # 1. the events printed, one line each, in order (those that tell seat 0 nothing skipped): their
        #    cards are ones seat 0 may see
        ev_lines = [ln for ln in screen if ln[:3] in (" * ", " > ", " - ")]
        evs = [ev for ev in t.events[state["events"]:] if ev.text(0)]
        state["events"] = len(t.events)
        assert len(evs) == len(ev_lines)
        for ev, ln in zip(evs, ev_lines):
            assert ln[3:] == ev.text(0)
            b, a = ev.before, ev.after
            ok = set(_faces(e, b, 0)) | set(_faces(e, a, 0))
            for st in (b, a):
                ok.add(e.deck.faces[int(e.KF[int(st.side[0]), int(st.discard[0, st.disc_n[0] - 1])])].name)
            if ev.kind == "play":
                ok.add(e.deck.faces[int(e.actions.face[ev.action])].name)
            if ev.kind == "challenge" and ev.seat == 0:  # the challenger sees the hand (rules §1.6)
                ok |= set(_faces(e, b, int(b.origin[0])))
            if ev.kind == "round_end" or a.phase[0] != b.phase[0] and a.phase[0] == 6:
                continue  # a round's end lays the hands down
            shown = _cards_in(ln, all_names)
            assert shown <= ok, f"{rules} {players}p: event {ln!r} names {shown - ok} that seat 0 may not see"
        # 2. the table: own hand by active faces only; others by size (and, in UNO Flip, their backs)
        if prompt == "your move: ":
            st = t.state
            start = max(i for i, ln in enumerate(screen) if ln.startswith(f"{t.game.rules.name} - "))
            table_lines = screen[start:]
            mine = next(ln for ln in table_lines if re.match(r"^(->|  ) you ", ln))
            assert "backs" not in mine, f"{rules}: the backs of your own cards are shown: {mine!r}"
            assert re.split(r" cards? ", mine, maxsplit=1)[1].split("[")[0].split("(")[0].split() \
                == _faces(e, st, 0), mine
            visible = set(_faces(e, st, 0))
            visible.add(e.deck.faces[int(e.KF[int(st.side[0]), int(st.discard[0, st.disc_n[0] - 1])])].name)
            if e.two_sided:
                other = 1 - int(st.side[0])
                for p in range(1, players):
                    name = re.escape(t.names[p][:NAME_WIDTH - 1])
                    line = next(ln for ln in table_lines if re.match(rf"^(->|  ) {name}", ln))
                    backs = line.split("(backs:", 1)[1].split(")")[0].split() if "(backs:" in line else []
                    assert backs == _faces(e, st, p, other), line
                    visible |= set(backs)
                if st.draw_n[0]:
                    visible.add(e.deck.faces[int(e.KF[other, int(st.draw[0, st.draw_n[0] - 1])])].name)
            for ln in table_lines:
                if ln[:3] not in (" * ", " > ", " - ") and not ln.startswith("your moves"):
                    assert _cards_in(ln, all_names) <= visible, f"{rules} {players}p: {ln!r}"
            state["prompts"] += 1
            if state["prompts"] > decisions:
                return "q"
            legal = t.legal()
            return str(int(rng.integers(len(legal))))
        return "n"

    assert terminal.play(rules, players, "random", seat=0, seed=seed, ansi=False, inp=inp,
                         out=lambda text: lines.extend(text.split("\n"))) == 0
    return state["prompts"]


@pytest.mark.parametrize("rules", list(PRESETS))
def test_human_view_of_uno_play_never_shows_a_face_its_seat_may_not_see(monkeypatch, rules):
    """rules §1.10: every preset, 2 to 10 players; UNO Flip shows the backs of the others' cards only."""
    checked = 0
    for players in range(2, 11):
        checked += _play_and_check(monkeypatch, rules, players, seed=players)
    assert checked >= 9 * 5


def test_flip_own_hand_shows_active_faces_only():
    t = Table("flip_jp", 3, seed=0)
    view = t.view(0)
    assert view["seats"][0]["backs"] is None and view["seats"][0]["cards"] is not None
    assert all(view["seats"][p]["cards"] is None and view["seats"][p]["backs"] for p in (1, 2))
    text = view_text(view, t.engine.deck, ansi=False)
    assert "/" not in text  # no two-face codes such as R8/UR


def test_events_mirror_every_action_the_engine_applies():
    """Forced moves included: one event per entry of the engine's action log."""
    from uno_env import VecGame
    for rules in PRESETS:
        t = Table(rules, 4, seed=5)
        ref = VecGame(rules, 4, batch_size=1, seed=5, autoreset=False)
        moves: list = []
        ref.reset(5, listener=moves.extend)
        rng = np.random.default_rng(1)
        while not t.over:
            a = int(rng.choice(np.flatnonzero(t.state.mask[0])))
            t.step(a)
            ref.step(np.array([a]), listener=moves.extend)
        acted = [(ev.seat, ev.action) for ev in t.events if ev.kind not in ("deal", "round_end")]
        assert acted == [(s, a) for _, s, a in moves]
        assert any(ev.forced for ev in t.events)
        assert t.events[-1].kind == "round_end"


def _challenge_position(guilty: bool) -> dict:
    return {"rules": "standard_en", "players": 3, "seed": 0,
            "hands": ["R1 G2" if guilty else "G2 B3", "Y4 Y5", "B7 B8"], "discard": "R5 W+4", "color": "G",
            "prev_color": "R", "draw_pile": "G9 Y1 Y2 Y3 B1 B2 B4 B5", "unlisted": "draw_pile_bottom",
            "phase": "pending", "pending_draw": 4, "played_by": 0, "to_move": 1, "dealer": 2}


def test_challenge_reveals_the_hand_to_the_challenger_only_and_says_the_outcome():
    """rules §1.6: the hand is shown to the challenger only; guilty, the offender draws 4."""
    t = Table.from_position(_challenge_position(guilty=True), names=["ann", "bob", "cat"])
    ev = t.step("challenge")[0]
    assert "R1 G2" in ev.text(1) and "bob challenge" not in ev.text(1)
    assert "R1" not in ev.text(2) and "R1" not in ev.text(0).split("(")[0]
    assert "guilty" in ev.text(2) and "ann draws 4 cards" in ev.text(2)
    t = Table.from_position(_challenge_position(guilty=False), names=["ann", "bob", "cat"])
    ev = t.step("challenge")[0]
    assert "innocent" in ev.text(1) and "you draw 6 cards" in ev.text(1) and "and lose the turn" in ev.text(1)


def test_a_hidden_decision_is_told_only_to_its_seat():
    """rules §1.10: that a seat had nothing to play, that the card it drew and kept is playable, that it
    holds a Skip to pass on are its own; the others read the public part, or nothing."""
    names = ["ann", "bob", "cat"]
    t = Table.from_position({"rules": "standard_en", "players": 3, "hands": ["G1 G2", "B3 B4", "Y4 Y5"],
                             "discard": "R5", "draw_pile": "R7 B1 B2", "to_move": 0, "dealer": 2}, names=names)
    draw = t.events[-1]  # taken by the engine: ann has nothing to play
    assert draw.text(0) == "you have nothing to play and draw 1 card: R7, which can be played"
    assert draw.text(1) == "ann draws 1 card" and draw.text(None).startswith("ann has nothing to play")
    keep = t.step("keep")[0]
    assert (keep.text(0), keep.text(1), keep.text(None)) == ("you keep the drawn card", "", "ann keeps the drawn card")
    told = []
    for bob in ("GS Y1", "G1 Y1"):  # house_cn: bob may pass the skip on only when he holds a Skip
        t = Table.from_position({"rules": "house_cn", "players": 3, "hands": ["RS R2", bob, "Y4 Y5"],
                                 "discard": "R5", "draw_pile": "R7 B1 B2", "to_move": 0, "dealer": 2}, names=names)
        play = t.step("play RS")[0]
        told.append([play.text(v) for v in (0, 2)])
        assert t.view(2)["actor"] == 2 and t.view(2)["phase"] == "turn"  # cat waits on nothing she may see
        if bob == "GS Y1":
            assert "ann plays RS: you may pass the skip on" in play.text(1) and t.view(1)["phase"] == "deflect"
            skipped = t.step("pass")[0]
            assert (skipped.text(1), skipped.text(0), skipped.text(2)) == ("you are skipped", "", "")
        else:
            assert "ann plays RS: you are skipped" in play.text(1)
    assert told[0] == told[1] and "the skip goes to bob, who may pass it on" in told[0][1]
    assert "omniscient view" in view_text(t.view(None), t.engine.deck, ansi=False)
    assert "omniscient" not in view_text(t.view(2), t.engine.deck, ansi=False)


def test_solo_countdown_says_the_others_lose_points():
    """rules §6.4: under penalty_countdown the winner loses nothing and the others lose their hands."""
    lines: list[str] = []
    terminal.watch("solo_bga", 3, "heuristic", seed=2, ansi=False, out=lines.append)
    end = next(ln for ln in lines if "wins the round" in ln or "takes the round" in ln)
    assert "lose their hands' points" in end and not re.search(r"wins? \d+ points", end)


def test_watch_says_a_round_was_stopped_at_the_turn_cap():
    lines: list[str] = []
    terminal.watch("standard_en", 4, "random", seed=1, ansi=False, out=lines.append, max_turns_per_round=25)
    text = "\n".join(lines)
    assert "round stopped at the turn cap (25 actions)" in text and "standings:" in text


def test_words_agree_with_their_subject_and_count():
    lines: list[str] = []
    rng = np.random.default_rng(0)
    for rules in PRESETS:
        terminal.play(rules, 3, "random", seed=4, ansi=False, out=lines.append,
                      inp=lambda prompt: "q" if rng.random() < 0.01 else "0")
    text = "\n".join(lines)
    assert not re.search(r"\b1 cards", text)
    for bad in ("you wins", "you draws", "you plays", "you has ", "you is ", "you takes", "you goes",
                "you chooses", "you loses", "you was", "you calls"):
        assert bad not in text, bad
    assert "you draw" in text and "you play" in text


def test_long_names_keep_the_columns():
    t = Table("standard_en", 4, seed=0, names=["a", "someone_with_a_very_long_name", "bob", "x" * 11])
    rows = [ln for ln in view_text(t.view(None), t.engine.deck, ansi=False).splitlines() if "score" in ln]
    assert len({ln.index("score") for ln in rows}) == 1 and len(rows) == 4


def test_ctrl_c_ends_cleanly(monkeypatch, capsys):
    def interrupt(prompt=""):
        raise KeyboardInterrupt
    monkeypatch.setattr("builtins.input", interrupt)
    assert cli.main(["play", "--seed", "0", "--plain"]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err


def test_trained_opponents_say_they_are_loading(monkeypatch):
    lines: list[str] = []
    monkeypatch.setattr("agents.load", lambda name, game=None, seed=None: __import__("agents").RandomAgent())
    terminal.load_agents(["ppo-standard_en-4p", "random"], None, 0, out=lines.append)
    assert lines == ["loading ppo-standard_en-4p (PyTorch takes a few seconds to start)..."]


def test_legend_covers_every_face_and_agrees_with_the_notation_page():
    codes = {c for c, _ in LEGEND_SYMBOLS}
    for deck in ("standard108", "solo112", "flip112"):
        for f in make_deck(deck).faces:
            sym = _SYMBOL_TEXT[f.symbol]
            assert (sym if not sym.isdigit() else "0-9") in codes, f.name
    doc = (ROOT / "docs" / "notation.md").read_text()
    legend = doc.split("{ #legend }", 1)[1].split("| symbol |", 1)[1].split("\n\n", 1)[0]
    doc_codes = set(re.findall(r"^\| `([^`]+)`(?:-`(\d)`)? \|", legend, re.M))
    doc_codes = {a + ("-" + b if b else "") for a, b in doc_codes}
    assert doc_codes == codes
    assert "RS is the red Skip" in LEGEND


# ---------------------------------------------------------------------- replays
def _record(rules="standard_en", players=4, seed=3, n=None):
    from uno_env.records import GameRecord
    t = Table(rules, players, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not t.over and (n is None or len(actions) < n):
        a = int(rng.choice(np.flatnonzero(t.state.mask[0])))
        actions.append([t.actor, a])
        t.step(a)
    st = t.state
    return GameRecord(rules=rules, num_players=players, seed=seed, episode="round", actions=actions,
                      result={"scores": [int(x) for x in st.scores[0]], "winner": int(st.winner[0])},
                      agents=["random"] * players), t


def test_replay_reproduces_the_recorded_round(tmp_path):
    from uno_env.records import write_records
    rec, played = _record("flip_jp", 3, seed=8)
    path = tmp_path / "g.jsonl"
    write_records(path, [rec])
    table, frames = terminal.replay_table(rec)
    assert [(ev.kind, ev.seat, ev.action) for ev in table.events] == [(ev.kind, ev.seat, ev.action)
                                                                       for ev in played.events]
    assert table.events[-1].text(None).replace("random_", "player_") == played.events[-1].text(None)
    assert len(frames) == len(rec.actions) + 1 and frames[-1] == len(table.events)
    lines: list[str] = []
    assert cli.replay(cli_args(file=str(path), all=True), out=lines.append) == 0
    assert any("round" in ln for ln in lines) and sum(ln.startswith((" - ", " > ")) for ln in lines) >= len(rec.actions)
    # stepping from seat 1's view: the first frame shows seat 1's cards and never seat 0's
    steps = iter(["", "", "b", "q"])
    lines = []
    assert cli.replay(cli_args(file=str(path), seat=1), inp=lambda p: next(steps), out=lines.append) == 0
    assert sum("(you)" in ln for ln in lines) >= 3


def cli_args(**kw):
    from argparse import Namespace
    base = dict(file=None, game=0, seat=None, all=False, html=None, plain=True)
    base.update(kw)
    return Namespace(**base)


def test_replay_names_the_action_that_does_not_fit(tmp_path):
    from uno_env.records import RecordError, write_records
    rec, _ = _record(n=6)
    rec.actions[3][1] = (rec.actions[3][1] + 1) % 50
    rec.actions[3][0] = (rec.actions[3][0] + 1) % 4
    path = tmp_path / "bad.jsonl"
    write_records(path, [rec])
    with pytest.raises(RecordError, match="action 3 is seat"):
        terminal.replay_table(rec)
    assert cli.main(["replay", str(path), "--all"]) == 2


def test_uno_play_records_each_round_and_the_record_replays_to_the_same_scores(tmp_path, monkeypatch):
    from uno_env.records import check, read_records
    path = tmp_path / "played.jsonl"
    answers = iter(["0"] * 10_000)
    rounds = {"n": 0}

    def inp(prompt):
        if prompt.startswith("next round"):  # two rounds, then stop
            rounds["n"] += 1
            return "y" if rounds["n"] < 2 else "n"
        return next(answers)

    monkeypatch.setattr("builtins.input", inp)
    assert cli.main(["play", "--rules", "standard_ru", "--players", "3", "--opponents", "heuristic,random",
                     "--seed", "4", "--plain", "--record", str(path)]) == 0
    recs = list(read_records(path))
    assert len(recs) == 2 and all(r.rules == "standard_ru" and r.num_players == 3 for r in recs)
    assert recs[0].start is None and recs[1].start is not None  # the second round starts from its deal
    assert {s for r in recs for s, _ in r.actions} == {0, 1, 2}
    for r in recs:
        check(r)  # replays the chosen actions and compares the final position, scores and winner


def test_quitting_uno_play_mid_round_says_the_round_in_play_is_not_recorded(tmp_path, monkeypatch, capsys):
    path = tmp_path / "mine.jsonl"
    answers = iter(["0", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", "--players", "2", "--opponents", "random", "--seed", "3", "--plain",
                     "--record", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == "bye: the round in play is not recorded (a record holds a whole round)"
    assert out[-1] == f"0 whole rounds recorded in {path}" and path.read_text() == ""


def test_the_first_card_says_whom_it_skips_and_that_it_reverses():
    """Before anyone plays, a Skip turned up skips a seat and a Reverse turns the direction: the deal says so,
    to the skipped seat as "you are skipped"."""
    lines: list[str] = []
    terminal.play("standard_en", 2, "heuristic", seed=35, ansi=False, out=lines.append, inp=lambda prompt: "q")
    assert lines[1] == " * round 1: heuristic_1 deals 7 cards each; the first card is GS: you are skipped"
    t = Table("standard_en", 4, seed=28)
    assert t.events[0].text(None).endswith("the first card is GR: the direction reverses: player_0 plays first")
    assert t.events[0].text(2).endswith("the first card is GR: the direction reverses: player_0 plays first")
    t = Table("standard_en", 4, seed=11)
    assert t.events[0].text(1).endswith("the first card is GS: you are skipped")
    assert t.events[0].text(None).endswith("the first card is GS: player_1 is skipped") and t.actor == 2


def test_uno_watch_records_what_it_shows(tmp_path):
    from uno_env.records import check, read_records
    path = tmp_path / "watched.jsonl"
    assert cli.main(["watch", "--rules", "solo_bga", "--players", "4", "--bots", "heuristic,greedy",
                     "--rounds", "2", "--seed", "2", "--plain", "--quiet", "--record", str(path)]) == 0
    recs = list(read_records(path))
    assert len(recs) == 2 and recs[0].agents[:2] == ["heuristic_0", "greedy_1"]
    for r in recs:
        check(r)

"""Game records (uno_env.records, docs/records.md): what ``uno eval --record`` writes replays to the same
final positions and scores; every error names the file and line of the record; what a field may hold is
checked as it is read; a last line cut short is skipped with a warning (or raises, strict); transitions cover
every decision."""

import gzip
import json

import numpy as np
import pytest

from training.evaluate import play_match
from uno_env import VecGame, records
from uno_env.records import GameRecord, RecordError


@pytest.fixture(scope="module")
def eval_file(tmp_path_factory):
    """60 rounds of heuristic against random, 2 players, 16 at a time: most rounds start mid-game."""
    path = tmp_path_factory.mktemp("rec") / "eval.jsonl"
    play_match(["heuristic", "random"], "standard_en", 2, games=60, seed=3, batch_size=16, record=path)
    return path


def test_eval_record_replays_to_the_same_final_positions_and_scores(eval_file):
    recs = list(records.read_records(eval_file))
    assert len(recs) == 60
    assert sum(r.start is None for r in recs) == 16 and sum(r.start is not None for r in recs) == 44
    for r in recs:
        got = records.check(r)
        assert got["final"] == r.result["final"] and got["scores"] == r.result["scores"]


def test_eval_record_tells_each_seat_its_agent(eval_file):
    for r in records.read_records(eval_file):
        game_no = r.info["game"]
        rot = game_no % 2  # seat s is played by slot (s - rotation) mod P
        assert r.agents == [["heuristic", "random"][(s - rot) % 2] for s in range(2)]


@pytest.mark.parametrize("rules,players,episode", [("flip_jp", 4, "round"), ("house_cn", 3, "game"),
                                                   ("solo_bga", 5, "round")])
def test_records_of_other_presets_and_whole_games_replay(tmp_path, rules, players, episode):
    path = tmp_path / "r.jsonl.gz"
    play_match(["random"], rules, players, games=6, seed=1, batch_size=4, episode=episode, ratings=False, record=path)
    recs = list(records.read_records(path))
    assert len(recs) == 6 and all(r.episode == episode for r in recs)
    for r in recs:
        records.check(r)
    with gzip.open(path, "rt") as f:
        assert json.loads(f.readline())["format"] == "uno-record"


def test_a_changed_action_or_result_is_caught(eval_file):
    rec = next(records.read_records(eval_file))
    wrong = GameRecord(**{**rec.__dict__, "result": {**rec.result, "scores": [9999, 0]}})
    with pytest.raises(RecordError, match="scores recorded"):
        records.check(wrong)
    seat, a = rec.actions[0]
    illegal = next(i for i in range(108) if not VecGame(rec.rules, 2, seed=rec.seed).state.mask[0, i])
    bad = GameRecord(**{**rec.__dict__, "start": None, "actions": [[seat, illegal]] + rec.actions[1:]})
    with pytest.raises(RecordError, match="action 0 is seat"):
        records.check(bad)
    short = GameRecord(**{**rec.__dict__, "actions": rec.actions[:-1]})
    with pytest.raises(RecordError, match="end before the episode does"):
        records.check(short)


def test_a_line_that_is_not_json_is_named(eval_file, tmp_path):
    lines = eval_file.read_text().splitlines(keepends=True)
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(lines[:3]) + "{not json\n" + "".join(lines[3:5]))
    it = records.read_records(path)
    for _ in range(3):
        next(it)
    with pytest.raises(RecordError, match=r"bad.jsonl, line 4: not valid JSON"):
        next(it)


def test_a_truncated_last_line_is_skipped_with_a_warning_naming_file_and_line(eval_file, tmp_path):
    """The policy (docs/records.md): a writer that stopped mid-line leaves a last line cut short; the records
    before it are whole, so reading skips that line and warns; ``strict=True`` raises instead."""
    text = eval_file.read_text()
    path = tmp_path / "cut.jsonl"
    path.write_text(text[:len(text) - 40])
    with pytest.warns(records.TruncatedRecordWarning, match=r"cut.jsonl, line 60: skipped the last line, cut short"):
        recs = list(records.read_records(path))
    assert len(recs) == 59 and recs[-1].to_json() == json.loads(text.splitlines()[58])
    with pytest.warns(records.TruncatedRecordWarning, match=r"cut.jsonl, line 60"):
        data = records.dataset(path)
    assert len(data["action"]) == sum(len(r.actions) for r in recs)
    with pytest.raises(RecordError, match=r"cut.jsonl, line 60: the last line is cut short"):
        list(records.read_records(path, strict=True))
    with pytest.raises(RecordError, match=r"cut.jsonl, line 60: the last line is cut short"):
        records.dataset(path, strict=True)


def test_a_gzip_file_cut_short_is_skipped_from_the_line_it_loses(eval_file, tmp_path):
    whole = gzip.compress(eval_file.read_bytes())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[:len(whole) // 2])
    with pytest.warns(records.TruncatedRecordWarning, match=r"cut.jsonl.gz, line \d+: skipped .*compressed file ends"):
        recs = list(records.read_records(path))
    assert 0 < len(recs) < 60
    with pytest.raises(RecordError, match=r"cut.jsonl.gz, line \d+: the last line is cut short"):
        list(records.read_records(path, strict=True))


def test_a_complete_last_line_without_a_newline_is_read(eval_file, tmp_path):
    path = tmp_path / "no-newline.jsonl"
    path.write_text(eval_file.read_text().rstrip("\n"))
    assert len(list(records.read_records(path, strict=True))) == 60


@pytest.mark.parametrize("change,message", [
    ({"format": "other"}, "'format' must be 'uno-record'"),
    ({"version": 99}, "record version 99 is not supported"),
    ({"episode": "match"}, "'episode' must be 'round' or 'game'"),
    ({"actions": [[0, "R5"]]}, "'actions' must be a list of"),
    ({"colour": 1}, "unknown field"),
    ({"source": "x"}, "unknown field"),
    ({"num_players": 11}, "'num_players' must be from 2 to 10, got 11"),
    ({"num_players": "2"}, "'num_players' must be an integer, got '2'"),
    ({"seed": 2 ** 70}, r"'seed' must be a 64-bit integer, from -2\*\*63 to 2\*\*63 - 1, got 1180591620717411303424"),
    ({"rules": "uno_x"}, "unknown rules 'uno_x'; presets are: standard_en"),
    ({"options": {"colours": 5}}, "unknown option 'colours'"),
    ({"options": {"stacking": "always"}}, "option stacking='always' is not allowed; choose one of"),
    ({"options": [1]}, "'options' must be an object of rule options"),
    ({"actions": [[2, 0]]}, r"action 0 is \[2, 0\]: seats are 0 to 1 and action ids 0 to 71"),
    ({"actions": [[0, 72]]}, r"action 0 is \[0, 72\]: seats are 0 to 1 and action ids 0 to 71"),
    ({"start": "R5"}, "'start' must be null or a position"),
    ({"agents": [1, 2]}, "'agents' must be a list of names"),
    ({"info": []}, "'info' must be an object"),
    ({"steps": {}}, "'steps' must be null or a list"),
])
def test_a_line_with_a_bad_field_is_named(eval_file, tmp_path, change, message):
    lines = eval_file.read_text().splitlines()
    d = json.loads(lines[0])
    path = tmp_path / "field.jsonl"
    path.write_text(lines[1] + "\n" + json.dumps({**d, **change}) + "\n")
    with pytest.raises(RecordError, match=f"field.jsonl, line 2: {message}"):
        list(records.read_records(path))


def _with_line(eval_file, tmp_path, index: int, **change) -> tuple:
    """A copy of the eval records whose line ``index + 1`` has ``change``; the path and that record."""
    lines = eval_file.read_text().splitlines()
    d = json.loads(lines[index])
    lines[index] = json.dumps({**d, **change})
    path = tmp_path / "changed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, list(records.read_records(path))[index]


def test_check_names_the_file_and_line_of_a_record_that_does_not_replay(eval_file, tmp_path):
    d = json.loads(eval_file.read_text().splitlines()[2])
    path, rec = _with_line(eval_file, tmp_path, 2, result={**d["result"], "scores": [9999, 0]})
    with pytest.raises(RecordError, match=r"changed.jsonl, line 3: the replay does not match the record: scores"):
        records.check(rec)
    path, rec = _with_line(eval_file, tmp_path, 2, actions=d["actions"][:-1])
    with pytest.raises(RecordError, match=r"changed.jsonl, line 3: the actions end before the episode does"):
        records.check(rec)
    with pytest.raises(RecordError, match=r"^mine: the actions end"):  # where= still overrides
        records.check(rec, where="mine")


def test_check_and_dataset_name_the_file_and_line_of_an_illegal_action(eval_file, tmp_path):
    d = json.loads(eval_file.read_text().splitlines()[4])
    game = VecGame(d["rules"], d["num_players"], seed=d["seed"])
    if d["start"] is not None:
        game.load(d["start"])
    seat = int(game.state.actor[0])
    illegal = next(i for i in range(game.num_actions) if not game.state.mask[0, i])
    path, rec = _with_line(eval_file, tmp_path, 4, actions=[[seat, illegal]] + d["actions"][1:])
    with pytest.raises(RecordError, match=rf"changed.jsonl, line 5: action 0 is seat {seat} playing {illegal}"):
        records.check(rec)
    with pytest.raises(RecordError, match=rf"changed.jsonl, line 5: action 0 is seat {seat} playing {illegal}"):
        records.dataset(path)


def test_a_start_that_is_not_a_position_of_the_rules_is_named(eval_file, tmp_path):
    path, rec = _with_line(eval_file, tmp_path, 1, start={"rules": "standard_en", "players": 3})
    with pytest.raises(RecordError, match=r"changed.jsonl, line 2: 'start' is not a position of these rules"):
        records.check(rec)
    with pytest.raises(RecordError, match=r"changed.jsonl, line 2: 'start' is not a position"):
        records.dataset(path)


def test_a_record_read_back_writes_what_it_read(eval_file, tmp_path):
    recs = list(records.read_records(eval_file))
    assert recs[0].source.endswith("eval.jsonl, line 1")
    path = tmp_path / "again.jsonl"
    records.write_records(path, recs)
    assert path.read_text() == eval_file.read_text()


def test_replay_steps_name_the_action_and_the_forced_moves(eval_file):
    rec = next(records.read_records(eval_file))
    steps = list(records.replay(rec))
    assert [(s.seat, s.action) for s in steps] == [tuple(x) for x in rec.actions]
    assert all(s.events and s.events[0] == (s.seat, s.name) for s in steps)
    assert steps[-1].round_over and steps[-1].reward.tolist() == rec.result["rewards"]


def test_transitions_cover_every_decision_and_end_with_the_reward(eval_file):
    rec = next(r for r in records.read_records(eval_file) if r.start is not None)
    ts = list(records.transitions(rec))
    assert sorted((t.seat, t.action) for t in ts) == sorted(map(tuple, rec.actions))
    assert all(t.mask[t.action] for t in ts)
    last = {t.seat: t for t in ts if t.done}
    assert {s: t.reward for s, t in last.items()} == {s: rec.result["rewards"][s] for s in last}
    assert all(t.reward == 0 for t in ts if not t.done)
    data = records.dataset(eval_file)
    assert data["obs"].shape[0] == sum(len(r.actions) for r in records.read_records(eval_file))
    assert data["obs"].dtype == np.float32 and data["mask"][np.arange(len(data["action"])), data["action"]].all()

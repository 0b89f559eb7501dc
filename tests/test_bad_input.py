"""Bad input everywhere: every public entry point answers wrong types and values with a clear error.

One table row per case: what is called, the exception type, and a regular expression the message
must match (it names the problem, the value given and what is allowed).  Nothing may escape as a
bare numpy or Python error from deep inside the code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import agents
from uno_apps.cli import main as cli_main
from uno_env import IllegalActionError, PositionError, VecGame, make_rules, uno_v4
from uno_env.scenarios import main as scenarios_main
from uno_env.vector import UnoVectorEnv


def UnoVecEnv(*args, **kwargs):
    """``uno_env.sb3.UnoVecEnv``, which needs stable-baselines3 (the "train" extra): its cases skip without it."""
    pytest.importorskip("stable_baselines3")
    from uno_env.sb3 import UnoVecEnv as env
    return env(*args, **kwargs)


ROOT = Path(__file__).resolve().parent.parent


def _game():
    return VecGame("standard_en", 2, batch_size=3, seed=0)


def _reset(env):
    env.reset()
    return env


def _pos(**kw):
    base = {"rules": "standard_en", "players": 2, "hands": ["R1 G2", "B3"], "discard": "R7", "to_move": 0}
    return VecGame.from_position({**base, **kw})


def _raw():
    env = uno_v4.raw_env(num_players=2)
    env.reset(seed=0)
    return env


CASES = [
    # --- rules and VecGame construction
    ("unknown preset", lambda: VecGame("uno", 2), ValueError, r"unknown rules 'uno'; presets are: standard_en"),
    ("rules of the wrong type", lambda: make_rules(42), ValueError, r"unknown rules 42"),
    ("too many players", lambda: VecGame("standard_en", 11), ValueError, r"num_players=11 is not allowed"),
    ("players as a string", lambda: VecGame("standard_en", "4"), ValueError, r"num_players='4'"),
    ("unknown option", lambda: VecGame("standard_en", 2, stack=True), ValueError, r"unknown option 'stack'"),
    ("option value not allowed", lambda: VecGame("standard_en", 2, stacking="all"), ValueError,
     r"stacking='all' is not allowed; choose one of"),
    ("integer option out of range", lambda: VecGame("standard_en", 2, target=0), ValueError,
     r"target=0 is not allowed; it takes an integer from 1"),
    ("boolean option given a number", lambda: VecGame("standard_en", 2, jump_in=1), ValueError,
     r"jump_in=1 is not allowed; choose one of: False, True"),
    ("impossible combination", lambda: VecGame("flip_jp", 2, seven_o=True), ValueError, r"seven_o=True needs a deck"),
    ("float actions to the Gymnasium VectorEnv", lambda: _reset(UnoVectorEnv(num_envs=2)).step(np.full(2, 0.7)),
     ValueError, r"actions must be 2 integer action ids, shape \(2,\); got float64"),
    ("badly shaped actions to the SB3 VecEnv", lambda: _reset(UnoVecEnv(num_envs=2)).step_async(np.zeros((2, 1), int)),
     ValueError, r"actions must be 2 integer action ids, shape \(2,\); got int64 shape \(2, 1\)"),
    ("no games in a training env", lambda: UnoVectorEnv(num_envs=0), ValueError,
     r"num_envs must be a positive integer, got 0"),
    ("option needing another", lambda: VecGame("solo_bga", 2, uno_catch_out_of_turn=True), ValueError,
     r"uno_catch_out_of_turn=True offers catches, which needs uno_enforcement='catch'.*'automatic'"),
    ("batch size zero", lambda: VecGame("standard_en", 2, batch_size=0), ValueError, r"batch_size=0"),
    ("seed of the wrong length", lambda: VecGame("standard_en", 2, batch_size=2, seed=[1]), ValueError,
     r"seed must be None, an int, or 2 integers"),
    # --- stepping
    ("actions of the wrong shape", lambda: _game().step(np.zeros(2, int)), ValueError,
     r"actions must be an integer array of shape \(3,\)"),
    ("float actions", lambda: _game().step(np.zeros(3)), ValueError, r"actions must be an integer array"),
    ("action id out of range", lambda: _game().step(np.full(3, 999)), IllegalActionError,
     r"illegal action 'id 999' for seat \d in game 0; legal actions are"),
    ("illegal action", lambda: _pos().step(np.array([_pos().action_index("play G2")])), IllegalActionError,
     r"illegal action 'play G2' for seat 0 in game 0; legal actions are: play R1, draw"),
    ("unknown action name", lambda: _game().action_index("play R10"), ValueError, r"unknown action 'play R10'"),
    ("action id not an int", lambda: _game().action_name("3"), ValueError, r"action id '3' is out of range"),
    ("observe a seat that does not exist", lambda: _game().observe(seats=[5, 0, 0]), ValueError,
     r"seats must be in 0..1"),
    # --- positions
    ("position not an object", lambda: VecGame.from_position([1, 2]), PositionError, r"must be a JSON object"),
    ("position without rules", lambda: VecGame.from_position({"players": 2}), PositionError, r"has no 'rules'"),
    ("unknown card", lambda: _pos(hands=["R1 X9", "B3"]), ValueError, r"unknown card 'X9' for deck standard108"),
    ("too many copies", lambda: _pos(hands=["W W W", "W W"]), PositionError,
     r"card W appears 5 times in the position, but the standard108 deck holds 4"),
    ("wrong number of hands", lambda: _pos(hands=["R1"]), PositionError, r"'hands' must list one string per seat"),
    ("hand not a string", lambda: _pos(hands=[["R1"], "B3"]), ValueError, r"a card list must be a string"),
    ("seat out of range", lambda: _pos(to_move=2), PositionError, r"'to_move' must be a seat from 0 to 1, got 2"),
    ("bad direction", lambda: _pos(direction=0), PositionError, r"'direction' must be 1 \(seat order\) or -1"),
    ("bad phase", lambda: _pos(phase="waiting"), PositionError, r"'phase' must be one of turn, drawn"),
    ("bad colour", lambda: _pos(discard="R7 W", color="X"), PositionError, r"'color' must be one of R, Y, G, B"),
    ("flip card without its back", lambda: VecGame.from_position(
        {"rules": "flip_jp", "players": 2, "hands": ["R7", "B5/P9"], "discard": "R6/O9", "to_move": 0}),
     ValueError, r"UNO Flip cards are written with both faces"),
    ("dark side on a one-sided deck", lambda: _pos(side="dark"), PositionError, r"'side' must be 'light'"),
    ("deal with hands", lambda: _pos(deal=True), PositionError,
     r"\"deal\": true is dealt by the engine, which sets 'discard', 'hands', 'to_move'; remove them"),
    # --- the AEC env
    ("env render mode", lambda: uno_v4.env(render_mode="rgb"), ValueError, r"render_mode='rgb' is not supported"),
    ("env episode", lambda: uno_v4.env(episode="match"), ValueError, r"episode='match' is not allowed"),
    ("env illegal policy", lambda: uno_v4.env(illegal_action="skip"), ValueError, r"illegal_action='skip'"),
    ("env option", lambda: uno_v4.env(stacking="yes"), ValueError, r"stacking='yes' is not allowed"),
    ("env action as a name", lambda: _raw().step("draw"), ValueError, r"action must be an integer action id"),
    ("env action out of range", lambda: _raw().step(500), ValueError, r"action 500 is out of range; ids are 0 to"),
    ("env setup for other rules", lambda: _raw().reset(options={"setup": {
        "rules": "house_cn", "players": 2, "hands": ["R1", "B3"], "discard": "R7", "to_move": 0}}),
     PositionError, r"the position is for rules 'house_cn' with 2 players, but this game is 'standard_en'"),
    # --- agents
    ("unknown agent", lambda: agents.load("alphauno"), ValueError, r"unknown agent 'alphauno'; agents are"),
    ("agent batch with an empty mask", lambda: agents.load("random").act(np.zeros((2, 4)), np.zeros((2, 4), bool)),
     ValueError, r"rows \[0, 1\] of action_masks have no legal action"),
    ("agent batch sizes disagree", lambda: agents.load("random").act(np.zeros((2, 4)), np.ones((3, 4), bool)),
     ValueError, r"observations \(B, obs\) and action_masks \(B, A\) with the same B"),
]


@pytest.mark.parametrize("what,call,exc,message", CASES, ids=[c[0] for c in CASES])
def test_bad_input_gets_a_clear_error(what, call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_a_rejected_action_leaves_the_games_unchanged():
    game = _game()
    before = [game.snapshot(i) for i in range(3)]
    bad = np.array([int(np.flatnonzero(game.legal_mask()[0])[0]), 999, 0])
    with pytest.raises(IllegalActionError):
        game.step(bad)
    assert [game.snapshot(i) for i in range(3)] == before


@pytest.mark.parametrize("argv,message", [
    (["play", "--players", "11"], "between 2 and 10|2 to 10"),
    (["watch", "--bots", "nobody"], "unknown agent 'nobody'"),
    (["play", "--seat", "5", "--players", "3"], "--seat must be from 0 to 2, got 5"),
    (["eval", "--agents", "heuristic,nobody", "--games", "10"], "unknown agent 'nobody'"),
])
def test_the_cli_reports_bad_arguments(argv, message, capsys):
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert any(m in err for m in message.split("|")), err


@pytest.mark.parametrize("module,argv,message", [
    ("training.evaluate", ["--agents", "heuristic,nobody", "--games", "10"], "error: unknown agent 'nobody'"),
    ("training.evaluate", ["--agents", "ppo-standard_en-2p,random", "--players", "4", "--games", "10"],
     "was trained for observation size"),
    ("uno_env.soak", ["--presets", ","], "--presets must name presets among"),
    ("uno_env.soak", ["--batch", "0"], "--batch must be positive, got 0"),
    ("uno_env.soak", ["--random-options", "-1"], "--random-options must be positive"),
])
def test_the_scripts_report_bad_arguments_without_a_traceback(module, argv, message):
    out = subprocess.run([sys.executable, "-m", module, *argv], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_the_cli_rejects_an_unknown_preset():
    out = subprocess.run([sys.executable, "-m", "uno_apps.cli", "play", "--rules", "uno"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 2 and "invalid choice: 'uno'" in out.stderr


def test_a_scenario_file_with_a_bad_position_names_file_and_scenario(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"id": "x", "setup": {"rules": "standard_en", "players": 2, "hands": ["R1", "B3"],
                                                     "discard": "R7", "to_move": 9}, "steps": []}))
    assert scenarios_main([str(path)]) == 2
    assert f"{path}: scenario 'x', setup: 'to_move' must be a seat from 0 to 1, got 9" in capsys.readouterr().out


def test_a_missing_scenario_path_is_malformed(capsys):
    assert scenarios_main(["/no/such/file.json"]) == 2
    assert "no such file or directory" in capsys.readouterr().out

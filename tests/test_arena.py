"""The match loop (``uno_env.arena``): evaluation is the arena and nothing more, it seats every agent in every
seat equally often, it plays every game it deals to the end, and it stands below the agents."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import agents
from training.evaluate import play_match
from uno_env import VecGame, arena, opponents
from uno_env.analysis import PlayFirstAgent
from uno_env.records import read_records


def test_play_match_is_the_arena_playing_the_agents_it_loads(tmp_path):
    """The same loaded agents (``agents.load``, seed ``seed + 17 * i``) on the same game give the same games,
    winners, points and record, move for move: evaluation adds nothing to the loop but the statistics."""
    lineup, rules, P, games, seed = ["heuristic", "greedy", "random"], "house_cn", 3, 30, 4
    res = play_match(lineup, rules, P, games, seed=seed, batch_size=8, per_game=True, record=tmp_path / "a.jsonl")
    game = VecGame(rules, P, batch_size=8, seed=seed, autoreset=False, **opponents.layout_for(lineup))
    objs = [agents.load(n, game=game, seed=seed + 17 * i) for i, n in enumerate(lineup)]
    tally = arena.play(game, objs, games, np.random.default_rng(seed), names=lineup, record=tmp_path / "b.jsonl")
    assert np.array_equal(tally.game_winners, res.game_winners)
    assert np.array_equal(tally.game_points, res.game_points)
    assert [e.wins for e in res.entries] == tally.wins.tolist() and res.void_games == tally.void
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


@pytest.mark.parametrize("episode", ["round", "game"])
def test_every_slot_sits_in_every_seat_equally_often_and_every_game_dealt_ends(tmp_path, episode):
    P, games = 3, 12
    game = VecGame("standard_en", P, batch_size=5, seed=1, autoreset=False, observation="v2")
    lineup = [PlayFirstAgent(game), PlayFirstAgent(game), PlayFirstAgent(game)]
    names = ["a", "b", "c"]
    tally = arena.play(game, lineup, games, np.random.default_rng(1), episode=episode, names=names,
                       record=tmp_path / "g.jsonl")
    records = list(read_records(tmp_path / "g.jsonl"))
    assert tally.games == len(records) == games
    assert sorted(r.info["game"] for r in records) == list(range(games))
    seats = {(seat, name): 0 for seat in range(P) for name in names}
    for r in records:
        for seat, name in enumerate(r.agents):
            seats[seat, name] += 1
    assert set(seats.values()) == {games // P}
    assert tally.wins.sum() + tally.void == games


def test_an_agent_that_reads_only_the_masks_is_given_no_observation():
    seen = {}

    class Counting(PlayFirstAgent):
        def act(self, observations, action_masks, rng=None):
            seen.setdefault(self.name, set()).add(None if observations is None else observations.shape[1])
            return super().act(observations, action_masks, rng)

    game = VecGame("standard_en", 2, batch_size=4, seed=0, autoreset=False, observation="v2")
    blind, looking = Counting(game), Counting(game)
    blind.name, looking.name, looking.observes = "blind", "looking", True
    arena.play(game, [blind, looking], 8, np.random.default_rng(0))
    assert seen == {"blind": {None}, "looking": {game.observation_size}}


def test_a_batch_larger_than_the_match_is_refused():
    game = VecGame("standard_en", 2, batch_size=8, autoreset=False)
    with pytest.raises(ValueError, match="games=4 is fewer than the 8 games"):
        arena.play(game, [PlayFirstAgent(game)] * 2, 4, np.random.default_rng(0))


def test_the_arena_and_uno_eval_run_without_agents_or_training():
    """``uno_env`` stands below the agents (tests/test_layering.py reads the imports); run, the arena and the
    match statistics load neither, and ``uno eval`` of bots loads ``agents`` but not ``training``."""
    code = ("import sys, numpy as np\n"
            "from uno_env import VecGame, arena, evaluation\n"
            "from uno_env.analysis import PlayFirstAgent, UniformAgent, simulate_rounds\n"
            "g = VecGame('standard_en', 2, batch_size=1, observation='v2')\n"
            "evaluation.play_match([PlayFirstAgent(g), UniformAgent(g)], games=6, batch_size=3)\n"
            "simulate_rounds('standard_en', 2, 6, 'play_first', batch_size=3)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'agents', 'training', 'uno_apps'}))\n"
            "from uno_apps.cli import main\n"
            "main(['eval', '--agents', 'heuristic,greedy', '--games', '6', '--no-progress'])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'agents', 'training'}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "[]" and out[-1] == "['agents']", out

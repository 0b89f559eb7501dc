"""The engine holds only the tables of one configuration: what a call applies goes to the listener given to
that call (``core.settling``), never to a slot on the engine.  So clients that share one engine, or listen to
one game at once, do not hear each other's moves: the AEC env's history, a record's replayed events and a
table's events are each what the client sees alone."""

import numpy as np
import pytest

from uno_env import VecGame, records
from uno_env.aec import raw_env
from uno_env.core import game as game_module
from uno_env.table import Table


@pytest.fixture
def one_engine(monkeypatch):
    """Every game made in the test shares one ``Engine`` per configuration (the clients' games included)."""
    real, engines = game_module.Engine, {}

    def shared(config, players):
        if (config, players) not in engines:
            engines[config, players] = real(config, players)
        return engines[config, players]
    monkeypatch.setattr(game_module, "Engine", shared)
    return engines


def _aec_histories(envs, seeds, steps=120):
    """Step ``envs`` in turn (random legal actions, one generator per env); each env's history after each step."""
    rngs = [np.random.default_rng(s) for s in seeds]
    for env, s in zip(envs, seeds):
        env.reset(seed=s)
    seen = [[] for _ in envs]
    for _ in range(steps):
        for env, rng, out in zip(envs, rngs, seen):
            if not env.agents:
                env.reset()
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
            out.append(list(env.history))
    return seen


@pytest.mark.parametrize("rules", ["house_cn", "flip_jp"])
def test_two_aec_envs_on_one_engine_each_keep_their_own_history(one_engine, rules):
    pair = [raw_env(rules=rules, num_players=3), raw_env(rules=rules, num_players=3)]
    assert pair[0].game.engine is pair[1].game.engine and len(one_engine) == 1
    together = _aec_histories(pair, [5, 6])
    one_engine.clear()
    alone = [_aec_histories([raw_env(rules=rules, num_players=3)], [s])[0] for s in (5, 6)]
    assert together == alone
    assert any(len(h) > 1 for h in alone[0])  # forced moves heard too: more than the one decision


def _record(tmp_path, rules, seed):
    path = tmp_path / f"{rules}-{seed}.jsonl"
    env = raw_env(rules=rules, num_players=3, record=path)
    _aec_histories([env], [seed], steps=3000)
    env.close()
    return next(records.read_records(path))


@pytest.mark.parametrize("rules", ["standard_en", "house_cn"])
def test_two_replays_on_one_engine_each_hear_only_their_own_moves(one_engine, tmp_path, rules):
    recs = [_record(tmp_path, rules, 1), _record(tmp_path, rules, 2)]
    both = [records.start_game(r) for r in recs]
    assert both[0].engine is both[1].engine
    together: list[list] = [[], []]
    for steps in zip(*(records.replay(r, game=g) for r, g in zip(recs, both))):
        for out, step in zip(together, steps):
            out.append(step.events)
    one_engine.clear()
    alone = [[step.events for step in records.replay(r)] for r in recs]
    n = min(len(a) for a in alone)
    assert [t[:n] for t in together] == [a[:n] for a in alone]
    assert any(len(ev) > 1 for ev in alone[0][:n])  # forced moves heard too


def _table_events(tables, seeds, steps=80):
    rngs = [np.random.default_rng(s) for s in seeds]
    for _ in range(steps):
        for t, rng in zip(tables, rngs):
            if t.over:
                t.next_round()
            else:
                t.step(int(rng.choice(np.flatnonzero(t.state.mask[0]))))
    return [[(ev.kind, ev.seat, ev.action, ev.forced, ev.text(None)) for ev in t.events] for t in tables]


@pytest.mark.parametrize("rules", ["house_cn", "solo_bga"])
def test_two_tables_on_one_engine_and_two_listeners_on_one_table_do_not_interfere(one_engine, rules):
    pair = [Table(rules, 3, seed=3), Table(rules, 3, seed=4)]
    assert pair[0].engine is pair[1].engine
    heard: list[list] = [[], []]
    for out in heard:  # two more listeners on the first table's game
        pair[0].listen(out.extend)
    start = len(pair[0].events)
    together = _table_events(pair, [3, 4])
    one_engine.clear()
    alone = [_table_events([Table(rules, 3, seed=s)], [s])[0] for s in (3, 4)]
    assert together == alone
    moves = [(e.seat, e.action) for e in pair[0].events[start:] if e.kind not in ("deal", "round_end")]
    assert heard[0] == heard[1] and [(s, a) for _, s, a in heard[0]] == moves
    assert any(e.forced for e in pair[0].events[start:])


def test_a_listener_hears_only_the_calls_it_is_given_to():
    game = VecGame("house_cn", 4, batch_size=8, seed=0)
    first, second = [], []
    rng = np.random.default_rng(0)
    for listener in (first.extend, second.extend, first.extend):
        mask = game.legal_mask()
        actions = (rng.random(mask.shape) * mask).argmax(1)
        before = len(first) + len(second)
        game.step(actions, listener=listener)
        assert len(first) + len(second) >= before + 8  # every decision heard, the forced moves after it too
    game.step(game.legal_mask().argmax(1))  # no listener: nobody hears
    assert len(first) > len(second) > 0 and all(len(m) == 3 for m in first + second)

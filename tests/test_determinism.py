"""Each game has its own random stream: same seed, same game, in any batch and any process."""

import pickle
import subprocess
import sys

import numpy as np
import pytest

from uno_env import VecGame
from uno_env.core.actions import PLAY
from uno_env.core.state import OVER


def _play(game: VecGame, steps: int, seed: int) -> list:
    """Random legal play driven by a policy stream independent of the batch; returns snapshots."""
    rng = np.random.default_rng(seed)
    B, A = game.batch_size, game.num_actions
    for _ in range(steps):
        r = rng.random((64, A))[:B]  # row i always gets the same numbers, whatever B is
        game.step((r * game.legal_mask()).argmax(1))
    return [game.snapshot(i) for i in range(B)]


def test_game_i_of_a_batch_plays_exactly_as_it_does_alone():
    for rules in ("standard_en", "solo_bga", "flip_jp", "house_cn"):
        batch = VecGame(rules, 3, batch_size=6, seed=100)
        snaps = _play(batch, 120, seed=5)
        alone = VecGame(rules, 3, batch_size=1, seed=104)  # game 4 of the batch has seed 100 + 4
        rng = np.random.default_rng(5)
        for _ in range(120):
            r = rng.random((64, alone.num_actions))[4:5]
            alone.step((r * alone.legal_mask()).argmax(1))
        assert alone.snapshot(0) == snaps[4]


def test_the_same_seed_gives_the_same_games():
    a = _play(VecGame("standard_en", 4, batch_size=8, seed=3), 100, seed=1)
    b = _play(VecGame("standard_en", 4, batch_size=8, seed=3), 100, seed=1)
    c = _play(VecGame("standard_en", 4, batch_size=8, seed=4), 100, seed=1)
    assert a == b and a != c


def test_the_same_seed_gives_the_same_game_in_another_process():
    code = ("import numpy as np, json; from uno_env import VecGame; "
            "g = VecGame('flip_jp', 4, batch_size=3, seed=9); rng = np.random.default_rng(0)\n"
            "for _ in range(80): g.step((rng.random((3, g.num_actions)) * g.legal_mask()).argmax(1))\n"
            "print(json.dumps(g.snapshot(2), sort_keys=True))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    assert len(outs) == 1


def test_reset_with_a_seed_replays_the_deal():
    g = VecGame("standard_en", 4, batch_size=2, seed=7)
    first = [g.snapshot(i) for i in range(2)]
    _play(g, 30, seed=0)
    g.reset(7)
    assert [g.snapshot(i) for i in range(2)] == first


def test_forced_moves_taken_in_bulk_give_the_same_games_as_one_at_a_time():
    """Forced draws are resolved in chains several seats per pass and unanswerable penalties are taken
    without a pass through the masks; both must play exactly as taking each forced move through the
    legal masks would (docs/notation.md#decisions-and-forced-moves), for any look-ahead window,
    including one shorter than the table."""
    settings = [(rules, players, {}, 150) for rules in ("standard_en", "house_cn", "solo_bga", "flip_jp")
                for players in (3, 7, 10)]
    settings.append(("standard_en", 10, {"hand_size": 9}, 400))  # 18 cards left: empty piles, passes (E1)
    # jump-ins offered after a penalty is taken (stacking none), and catches offered out of turn
    settings.append(("standard_en", 4, {"jump_in": True, "jump_in_wilds": True, "challenge": False}, 150))
    settings.append(("flip_jp", 3, {"jump_in": True, "uno_catch_out_of_turn": True}, 150))
    # a drawn card that may not be played does not stop a chain, which can come round to its seat again
    settings += [("standard_en", players, {"drawn_card_play": "never"}, 150) for players in (2, 3)]
    for rules, players, options, steps in settings:
        one_at_a_time = VecGame(rules, players, batch_size=64, seed=players, forced_moves="one_by_one", **options)
        expected = _play(one_at_a_time, steps, seed=9)
        for window in (8, 2):
            bulk = VecGame(rules, players, batch_size=64, seed=players, chain_window=window, **options)
            assert _play(bulk, steps, seed=9) == expected, (rules, players, options, window)


def _moves_by_decision(game: VecGame, steps: int) -> list:
    """Each row's moves (seat, action), heard by a listener, the ``k``-th real decision of row ``r`` choosing by
    ``(r, k)`` alone and a single legal action taken as it is: the same choices whoever takes the forced moves."""
    B = game.batch_size
    moves: list = [[] for _ in range(B)]
    decided = np.zeros(B, np.int64)

    def listen(heard) -> None:
        for row, seat, action in heard:
            moves[row].append((seat, action))
    game.reset(game.state.seed.copy(), listener=listen)
    for _ in range(steps):
        mask = game.legal_mask()
        n = mask.sum(1)
        pick = (np.arange(B) * 1000003 + decided * 7919) % np.maximum(n, 1)
        game.step(np.argmax(mask.cumsum(1) > pick[:, None], 1), listener=listen)
        decided += n > 1
    return moves


@pytest.mark.parametrize("autoreset", [False, True])
def test_forced_moves_asked_give_the_same_games_as_forced_moves_taken(autoreset):
    """``forced_moves="ask"`` takes no forced move: the game waits on the seat with its one legal action.
    Once each is chosen, the games are those of the engine taking them (rounds dealt on included)."""
    for rules in ("standard_en", "house_cn", "solo_bga", "flip_jp"):
        taken = VecGame(rules, 3, batch_size=8, seed=5, forced_moves="one_by_one", autoreset=autoreset)
        asked = VecGame(rules, 3, batch_size=8, seed=5, forced_moves="ask", autoreset=autoreset)
        expected, got = _moves_by_decision(taken, 150), _moves_by_decision(asked, 600)
        for row, (e, g) in enumerate(zip(expected, got)):
            n = min(len(e), len(g))
            assert n > 20 and e[:n] == g[:n], (rules, row)


def test_forced_moves_asked_leave_one_legal_action_where_the_engine_would_take_it():
    taken = VecGame("standard_en", 3, batch_size=16, seed=2, forced_moves="one_by_one")
    asked = VecGame("standard_en", 3, batch_size=16, seed=2, forced_moves="ask")
    assert (taken.legal_mask().sum(1) > 1).all()
    assert (asked.legal_mask().sum(1) == 1).any()


@pytest.mark.parametrize("preset", ["standard_en", "house_cn"])
def test_stepping_games_whose_rounds_are_all_over_changes_nothing(preset):
    """Without autoreset a finished round waits; a step then ignores its action, even when no game
    of the batch is still in play (an empty set of rows goes through the whole step)."""
    game = VecGame(preset, num_players=2, batch_size=3, seed=4, autoreset=False, hand_size=1)
    rng = np.random.default_rng(0)
    is_play = game.engine.A_KIND == PLAY
    for _ in range(500):  # a random legal play, else a random legal action: one-card rounds end fast
        mask = game.legal_mask()
        if not mask.any():
            break
        game.step(((rng.random(mask.shape) + is_play) * mask).argmax(1))
    assert not game.legal_mask().any(), "the rounds did not end"
    before = pickle.dumps(game.state)
    out = game.step(np.zeros(3, np.int64))
    assert not out.round_over.any()
    assert pickle.dumps(game.state) == before


@pytest.mark.parametrize("players", [2, 4])
def test_autoreset_reports_and_deals_again_a_round_that_ended_at_its_deal(players):
    """With one-card hands and no drawing while a card fits (house_cn), forced moves often end a round
    at its deal, right after the step reported the previous one.  Under autoreset that round waits
    for the next step, which reports it (one finished round per game and step) and deals again: no
    game is left over for good."""
    game = VecGame("house_cn", players, batch_size=64, seed=3, hand_size=1)
    rng = np.random.default_rng(0)
    reported = np.zeros(64, np.int64)
    for _ in range(200):
        waiting = game.state.phase == OVER
        winner = game.state.winner.copy()
        mask = game.legal_mask()
        out = game.step((rng.random(mask.shape) * mask).argmax(1))
        assert out.round_over[waiting].all(), "a round left over was not reported"
        assert (out.winner[waiting] == winner[waiting]).all()
        reported += out.round_over
    assert reported.min() >= 1 and reported.sum() >= 64 * 5, (reported.min(), reported.sum())


@pytest.mark.parametrize("rules", ["standard_en", "house_cn", "flip_jp"])
def test_autoreset_reports_every_finished_round_exactly_once(rules):
    """A round that forced moves end at the deal a step made is not dealt over in that step: it waits
    and the next step reports it.  So the rounds a game has scored are the rounds its steps
    reported, plus one if its last round waits (one-card hands, rounds stopped after 10 turns)."""
    game = VecGame(rules, 3, batch_size=64, seed=5, hand_size=1, max_turns_per_round=10, target=100000)
    rng = np.random.default_rng(0)
    reported = np.zeros(64, np.int64)
    for _ in range(300):
        mask = game.legal_mask()
        out = game.step((rng.random(mask.shape) * mask).argmax(1))
        reported += out.round_over & (out.winner >= 0)  # a void round is not scored
    st = game.state
    assert not st.game_over.any() and reported.sum() > 64 * 20
    assert np.array_equal(reported + ((st.phase == OVER) & (st.winner >= 0)), st.rounds)


def _random_play(game, steps, seed=3):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        m = game.legal_mask()
        game.step((rng.random(m.shape) * m).argmax(1))
    return game


@pytest.mark.parametrize("preset", ["standard_en", "flip_jp"])
def test_a_pickled_game_goes_on_exactly_as_the_original(preset):
    game = _random_play(VecGame(preset, num_players=2, batch_size=32, seed=9, observation="v3"), 40)
    copy = pickle.loads(pickle.dumps(game))
    _random_play(game, 60, seed=4), _random_play(copy, 60, seed=4)
    assert pickle.dumps(game.state) == pickle.dumps(copy.state)
    assert np.array_equal(game.observe(), copy.observe())


def test_a_pickled_engine_keeps_its_configuration_not_its_tables_and_rebuilds_them_on_load():
    """A training checkpoint pickles its games; the engine's tables are rebuilt from the configuration when
    it loads, so a checkpoint written before a table was added resumes with the tables of the code that loads
    it (flip2p's checkpoint lacked ``F_TURNED_COLOR`` and failed at its first Flip card)."""
    engine = VecGame("flip_jp", num_players=2, batch_size=4, seed=0).engine
    state = engine.__getstate__()
    assert "F_TURNED_COLOR" not in state and "F_SYM" not in state and state["P"] == 2
    loaded = pickle.loads(pickle.dumps(engine))
    assert loaded.config == engine.config
    assert np.array_equal(loaded.F_TURNED_COLOR, engine.F_TURNED_COLOR)
    old = dict(engine.__dict__)  # the whole dict, as a checkpoint of an older version holds it ...
    del old["F_TURNED_COLOR"]  # ... without a table added since, with the settings it kept then
    old.update(chain_window=16, bulk_forced_moves=True, log=None, pass_log=None, draw_queue=None)
    rebuilt = type(engine).__new__(type(engine))
    rebuilt.__setstate__(old)
    assert np.array_equal(rebuilt.F_TURNED_COLOR, engine.F_TURNED_COLOR) and rebuilt.memory_tables is None

"""The scalar fast path of one game (``uno_env.core.scalar``) plays exactly as ``Engine.step``.

The AEC environment steps its game with ``ScalarStepper``, so these tests play random games of every
preset and of many option sets twice, once through each, and compare every
field of the state, the action log and the round's end after every step.  The random policy plays a
legal card four times in five and otherwise takes any legal action, so rounds end and challenges,
catches, UNO calls, kept cards, penalties, blocked and stopped rounds all occur: the rare moves the
stepper hands to the engine are covered too.
"""

import copy
import dataclasses

import numpy as np
import pytest

from uno_env import PRESETS, IllegalActionError, VecGame
from uno_env.core.actions import PLAY
from uno_env.core.cards import make_deck
from uno_env.core.config import OPTIONS, RuleConfig, make_rules
from uno_env.core.rules import StepResult
from uno_env.core.scalar import ScalarStepper
from uno_env.core.state import OVER

CURATED_OPTION_SETS = [  # interactions chosen by hand
    {},
    {"uno_enforcement": "automatic"},
    {"uno_enforcement": "off"},
    {"uno_window_close": "next_card_discard"},
    {"uno_window_close": "next_card_discard", "uno_enforcement": "automatic"},
    {"drawn_card_play": "forced"},
    {"drawn_card_play": "never"},
    {"voluntary_draw": False},
    {"wild_draw_restriction": "no_playable"},
    {"challenge": False},  # the hard restriction: the stepper asks the engine for the masks
    {"wild_draw_restriction": "none", "challenge": False},
    {"challenge_guilty": "retract_and_draw_2"},
    {"two_player_reverse": "reverse", "draw_penalty_skips_turn": False},
    {"first_card_match": "color_only", "first_player": "count_from_initial",
     "first_card_mode": "redraw_action"},
    {"max_turns_per_round": 10},  # E3: rounds stopped
    {"blocked_round": "void_redeal", "hand_size": 15},  # few cards left: empty piles and passes (E1, E2)
    {"scoring_mode": "penalty_countdown", "starting_points": 40},  # games end after a few rounds
    {"stacking": "same_type"},
    {"stacking": "escalating", "stack_skip": True, "challenge": False},
    {"stack_skip": True, "uno_enforcement": "automatic", "uno_window_close": "next_card_discard"},
    {"seven_o": True},
    {"seven_o": True, "uno_call_after_exchange": True, "uno_enforcement": "automatic"},
    {"jump_in": True, "jump_in_wilds": True, "challenge": False},
    {"jump_in": True, "jump_in_priority": "random", "jump_in_self": True, "stacking": "same_type"},
    {"uno_catch_out_of_turn": True, "two_player_reverse": "skip"},
    {"uno_catch_out_of_turn": True, "jump_in": True},
]




def _values_to_cover(name: str, option) -> list:
    """The values of one option the generated sets must play: every allowed value but the default (which
    the preset runs play), or for an integer range both ends."""
    default = getattr(RuleConfig(), name)
    values = option.allowed if option.allowed is not None else (option.lo, option.hi)
    return [v for v in values if v != default]


_FLIP_DECK = {"deck": "flip112"}
NEEDS = {  # the options under which an option takes effect: a generated set holding it holds them too
    **{name: _FLIP_DECK for name, option in OPTIONS.items() if option.decks == ("flip112",)},
    "flip_pairing_seed": {**_FLIP_DECK, "flip_pairing": "random_bijection"},
    "first_card_reverse": {"first_card_mode": "apply"},
    "first_card_wild_chooser": {"first_card_mode": "apply"},
    "challenge_guilty": {"challenge": True, "wild_draw_restriction": "color_only"},
    "challenge_extra": {"challenge": True, "wild_draw_restriction": "color_only"},
    "jump_in_wilds": {"jump_in": True},
    "jump_in_priority": {"jump_in": True},
    "jump_in_self": {"jump_in": True},
    "uno_call_after_exchange": {"seven_o": True},
    "uno_window_close": {"uno_enforcement": "catch"},
    "target": {"scoring_mode": "winner_takes_sum"},
    "starting_points": {"scoring_mode": "penalty_countdown"},
    "max_rounds": {"scoring_mode": "plus_minus"},
}


def generated_option_sets(players=(2, 3, 5)) -> list[dict]:
    """Option sets on ``standard_en`` holding every value of the options table (``OPTIONS``) at least
    once, each with the options it needs to take effect (``NEEDS``): a value joins the valid set (for
    every player count) that holds the fewest options."""
    sets: list[dict] = [{} for _ in range(4)]

    def with_value(options: dict, name: str, value) -> dict | None:
        needs = {name: value, **NEEDS.get(name, {})}
        if name in options or any(options.get(k, v) != v for k, v in needs.items()):
            return None
        grown = {**options, **needs}
        try:
            rules = make_rules("standard_en", **grown)
        except ValueError:
            return None
        return grown if all(rules.hand_size * p <= make_deck(rules.deck).num_cards - 12 for p in players) else None

    for name, option in OPTIONS.items():
        for value in _values_to_cover(name, option):
            fits = [(i, g) for i, s in enumerate(sets) if (g := with_value(s, name, value)) is not None]
            if not fits:
                sets.append({})
                fits = [(len(sets) - 1, with_value({}, name, value))]
            i, grown = min(fits, key=lambda f: len(sets[f[0]]))
            sets[i] = grown
    return [s for s in sets if s]


GENERATED_OPTION_SETS = generated_option_sets()
OPTION_SETS = CURATED_OPTION_SETS + GENERATED_OPTION_SETS


def _name(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def play_both(rules, players, seed, steps, **options):
    """Play the same random game through ``Engine.step`` and ``ScalarStepper``; assert that they agree."""
    batched = VecGame(rules, players, batch_size=1, seed=seed, autoreset=False, **options)
    batched._scalar = None  # VecGame steps a game of one through the stepper too: keep the engine's path
    scalar = VecGame(rules, players, batch_size=1, seed=seed, autoreset=False, **options)
    batched_moves: list = []  # every move each path applies, chosen and forced (their listeners)
    scalar_moves: list = []
    stepper = ScalarStepper(scalar.engine)
    handed_over = []  # the actions the stepper gave to Engine.apply
    engine_apply = scalar.engine.apply
    scalar.engine.apply = lambda st, R, a, listener=None: (handed_over.append(int(a[0])),
                                                           engine_apply(st, R, a, listener))
    rng = np.random.default_rng(seed)
    is_play = batched.engine.A_KIND == PLAY
    rounds = 0
    for t in range(steps):
        while batched.state.phase[0] == OVER:  # a round a forced move ended during the deal (hand_size=1)
            batched.next_round(0)
            scalar.next_round(0)
        legal = batched.state.mask[0]
        plays = legal & is_play
        a = int(rng.choice(np.flatnonzero(plays if plays.any() and rng.random() < 0.8 else legal)))
        ended = bool(batched.step(np.array([a]), listener=batched_moves.extend).round_over[0])
        assert stepper.step(scalar.state, a, scalar_moves.extend) == ended, (t, batched.action_name(a))
        for f in dataclasses.fields(batched.state):
            assert np.array_equal(getattr(batched.state, f.name), getattr(scalar.state, f.name)), \
                (rules, players, options, t, batched.action_name(a), f.name)
        assert batched_moves == scalar_moves
        rounds += ended
    return rounds, len(handed_over) / len(scalar_moves)


@pytest.mark.parametrize("rules", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_the_scalar_path_plays_every_move_as_the_batched_engine_does(rules, players):
    rounds, handed_over = play_both(rules, players, seed=players, steps=600)
    assert rounds >= 1
    assert handed_over < 0.1  # plays, draws, kept cards, penalties and calls are its own


@pytest.mark.parametrize("options", OPTION_SETS, ids=_name)
def test_the_scalar_path_follows_every_supported_option(options):
    for players in (2, 3, 5):
        play_both("standard_en", players, seed=players, steps=250, **options)


def step_both(rules, players, seed, steps, autoreset, **options):
    """Step the same random game of one through ``VecGame.step`` (the scalar path) and through
    ``Engine.step``; assert the same results and states after every step.  Returns the rounds."""
    engine = VecGame(rules, players, batch_size=1, seed=seed, autoreset=autoreset, **options)
    engine._scalar = None
    scalar = VecGame(rules, players, batch_size=1, seed=seed, autoreset=autoreset, **options)
    assert scalar._scalar is not None
    rng = np.random.default_rng(seed)
    is_play = engine.engine.A_KIND == PLAY
    rounds = 0
    for t in range(steps):
        if not autoreset and engine.state.phase[0] == OVER:
            engine.next_round(0)
            scalar.next_round(0)
        legal = engine.state.mask[0]
        plays = legal & is_play
        pool = np.flatnonzero(plays if plays.any() and rng.random() < 0.8 else legal)
        a = np.array([rng.choice(pool) if pool.size else 0])  # a round over waits: any action
        expected, got = engine.step(a), scalar.step(a)
        for name in StepResult._fields:
            assert np.array_equal(getattr(expected, name), getattr(got, name)), (rules, players, options, t, name)
        for f in dataclasses.fields(engine.state):
            assert np.array_equal(getattr(engine.state, f.name), getattr(scalar.state, f.name)), \
                (rules, players, options, t, f.name)
        rounds += int(expected.round_over[0])
    return rounds


@pytest.mark.parametrize("autoreset", [True, False])
@pytest.mark.parametrize("rules", list(PRESETS))
def test_a_game_of_one_steps_through_the_scalar_path_as_the_engine_does(rules, autoreset):
    for players in (2, 4, 7):
        assert step_both(rules, players, seed=players, steps=400, autoreset=autoreset) >= 1


DEGENERATE = [  # rounds that forced moves end at their deal, stopped rounds, empty piles
    ("house_cn", {"hand_size": 1}),
    ("standard_en", {"hand_size": 1, "max_turns_per_round": 10}),
    ("flip_jp", {"hand_size": 1, "max_turns_per_round": 10}),
    ("standard_en", {"blocked_round": "void_redeal", "hand_size": 15}),
]


@pytest.mark.parametrize("autoreset", [True, False])
@pytest.mark.parametrize("rules,options", DEGENERATE + [("standard_en", o) for o in OPTION_SETS[1::3]],
                         ids=lambda x: x if isinstance(x, str) else _name(x))
def test_a_game_of_one_follows_the_options_and_the_deals_that_end_at_once(rules, options, autoreset):
    for players in (2, 3):
        step_both(rules, players, seed=players, steps=250, autoreset=autoreset, **options)


def test_the_option_sets_play_every_allowed_value_of_every_option():
    """Each value of the options table is played by the scalar comparison: by an option set here, or as
    the default the preset runs play (UNO Flip's options by ``flip_jp``)."""
    played = {(k, v) for options in OPTION_SETS + FLIP_OPTION_SETS for k, v in options.items()}
    for name, option in OPTIONS.items():
        for value in _values_to_cover(name, option):
            assert (name, value) in played, (name, value)
    assert all(make_rules("standard_en", **options) for options in GENERATED_OPTION_SETS)


def test_a_game_of_one_rejects_bad_actions_as_the_engine_does():
    game = VecGame("standard_en", 3, batch_size=1, seed=0)
    before = copy.deepcopy(game.state)
    illegal = int(np.flatnonzero(~game.legal_mask()[0])[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        game.step(np.array([illegal]))
    with pytest.raises(ValueError, match="integer array of shape"):
        game.step(np.array([0.5]))
    with pytest.raises(ValueError, match="integer array of shape"):
        game.step(np.array([1, 2]))
    for f in dataclasses.fields(game.state):  # nothing changed, the table's memory (a v3 game's) included
        x, y = getattr(before, f.name), getattr(game.state, f.name)
        assert x == y if f.name == "memory" else np.array_equal(x, y), f.name


FLIP_OPTION_SETS = [
    {},
    {"flip_discard_mode": "flip_in_place", "flip_as_last_card": "flip_before_scoring"},
    {"flip_revealed_wild": "flipper", "flip_first_card": "apply", "flip_back_faces_visible": False},
    {"flip_pairing": "random_bijection", "flip_pairing_seed": 3, "wdc_cap": 4},
    {"jump_in": True, "stacking": "same_type", "stack_skip": True},
    {"challenge": False, "uno_enforcement": "automatic"},  # the hard no_playable restriction
]


@pytest.mark.parametrize("options", FLIP_OPTION_SETS, ids=_name)
def test_the_scalar_path_follows_the_uno_flip_options(options):
    for players in (2, 4):
        play_both("flip_jp", players, seed=players, steps=250, **options)


@pytest.mark.parametrize("rules", ["standard_en", "house_cn", "solo_bga", "flip_jp"])
def test_observing_one_game_gives_the_batched_observation(rules):
    for players in (2, 5):
        game = VecGame(rules, players, batch_size=1, seed=players)
        rng = np.random.default_rng(0)
        for _ in range(150):
            for seat in range(players):
                expected = game.observer.observe(game.state, np.zeros(1, np.intp), np.array([seat]))[0]
                got = game.observer.observe_one(game.state, seat)
                assert got.dtype == expected.dtype and np.array_equal(got, expected)
            game.step(np.array([rng.choice(np.flatnonzero(game.state.mask[0]))]))


@pytest.mark.parametrize("rules", ["standard_en", "flip_jp"])
def test_a_one_game_learner_env_plays_the_same_through_the_scalar_path(rules):
    """``LearnerGames`` with one game (under ``vector.UnoEnv``) steps through the scalar path; with the
    stepper switched off it must give the same episodes, rewards and observations."""
    from uno_env.learner import LearnerGames

    runs = []
    for scalar in (True, False):
        games = LearnerGames(rules, 3, num_envs=1, opponents="heuristic", seed=5)
        if not scalar:
            games.scalar = None
        rng = np.random.default_rng(0)
        trace = [games.observe().copy()]
        for _ in range(300):
            out = games.step(np.array([rng.choice(np.flatnonzero(games.action_masks()[0]))]))
            trace += [out["reward"].copy(), out["terminated"].copy(), out["final_obs"].copy(), games.observe().copy()]
            if out["terminated"][0] or out["truncated"][0]:
                games.restart(np.array([0]))
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs))
    assert sum(float(np.abs(x).sum()) for x in runs[0][1::4]) >= 3  # several rounds were played out

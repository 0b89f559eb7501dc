"""Positions in the notation (docs/notation.md): build one (``load_position``), write one (``snapshot``).

A position names its rules, options and player count, the hands, the piles and the seat to move.
A snapshot adds every key needed to rebuild the exact state, the decision in progress included; all
of them are accepted back by ``load_position``:

====================  ===================================================================================
key                   meaning (default when building a position)
====================  ===================================================================================
phase                 ``turn``, ``drawn``, ``pending``, ``choose``, ``jump_in``, ``deflect`` or ``over``
                      (``pending`` if ``pending_draw`` > 0, else ``turn``)
turn                  the seat whose decision follows a jump-in offer or a colour choice (``to_move``)
resume                the phase of ``turn`` after a jump-in offer chain (``turn``)
played_by             the seat that played the top card: the offender of a challenge, where jump-in
                      offers start (the seat before ``to_move``)
pending_draw          cards the victim of draw cards must take (0)
pending_until_color   the victim must also draw until a card of the active colour (Wild Draw Colour)
challengeable         the top wild draw card may be challenged (true when ``phase`` is ``pending``, the
                      top is a restricted wild draw card and the rules allow challenges)
bluff                 it was played against the restriction (computed from the offender's hand and
                      ``prev_color``)
prev_color            the active colour before the top card was played (default: the colour of the card
                      under it, if not a wild)
prev_prev_color       the active colour before the card under the top was played: ``prev_color`` again if
                      a challenge takes the top card back (default: as for ``prev_color``, one card down)
prev_pending          the pending total before the top card (0)
drawn                 the card drawn and awaiting ``play`` or ``keep`` (phase ``drawn``)
declared              the seat to move has declared UNO for its next play (false)
uno_vulnerable        seats that can be caught for a missed UNO ([])
drew_on               per seat, the colour active when it last drew on its turn instead of playing
                      and has not played since, or null (all null)
jump_in_order         seats still to be asked to jump in, in order (phase ``jump_in``)
first_play            the round's first card has not been played yet (false; true after ``deal``)
passes                consecutive turns with nothing to play or draw (0)
turns                 actions taken this round (0)
rounds                rounds finished in this game (0)
rng_counter           draws made from the game's random stream since ``seed`` (after the shuffle of
                      unlisted cards)
winner, round_points  the finished round (phase ``over``)
game_over             the game is over (phase ``over``)
truncated             the round was stopped by ``max_turns_per_round`` (phase ``over``)
played, lacks, ...    the table's memory (a game with observation v3): ``played``, ``lacks``,
                      ``drew_since_play``, ``colors_since_draw``, ``last_play``, ``last_declared``,
                      ``lack_ages``, ``known``, ``plays``, ``recent_plays``, ``last_challenge``
                      (docs/notation.md, "The table's memory"; default: nothing seen)
legal                 read-only: the legal actions of the seat to move
round_over            read-only: the round is over
====================  ===================================================================================

``color`` is a colour letter, ``"free"`` after Swap-in-turn (any card may follow), or ``null`` while a
wild's colour is still to be chosen (phase ``choose``).  Game scores default to what a new game starts
with: zeros, or ``starting_points`` each under ``penalty_countdown``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import chance, matching, memory
from .cards import COLOR_LETTERS, FREE, NO_COLOR, NUM_COLOR_STATES, SKIP, SWAP_IN_TURN
from .config import PRESETS, RuleConfig, make_rules
from .notation_fields import (
    PositionError,
    bool_field,
    cards_text,
    color_field,
    color_text,
    fail,
    int_field,
    seat_field,
)
from .notation_memory import load_memory, memory_snapshot
from .rules import Engine
from .settling import DEFAULT_SETTLING, Settling
from .state import CHOOSE_COLOR, DEFLECT, DRAWN, JUMP, NOT_ASKED, OVER, PENDING, PHASE_NAMES, TURN, State
from .tables import RuleTables

SETUP_KEYS = {"rules", "options", "players", "seed", "hands", "discard", "color", "draw_pile",
              "unlisted", "to_move", "direction", "dealer", "side", "scores", "deal"}
STATE_KEYS = {"phase", "turn", "resume", "played_by", "pending_draw", "pending_until_color",
              "challengeable", "bluff", "prev_color", "prev_prev_color", "prev_pending", "drawn", "declared",
              "uno_vulnerable", "drew_on", "jump_in_order", "first_play", "passes", "turns", "rounds",
              "rng_counter", "winner", "round_points", "game_over", "truncated"}
MEMORY_KEYS = {"played", "lacks", "drew_since_play", "colors_since_draw", "last_play", "last_declared", "lack_ages",
               "known", "plays", "recent_plays", "last_challenge"}  # the table's memory (core.memory)
READ_ONLY_KEYS = {"legal", "round_over"}
DEAL_KEYS = {"rules", "options", "players", "seed", "draw_pile", "unlisted", "dealer", "scores", "deal",
             "rng_counter", "rounds"}  # what a position with "deal": true may give; the deal sets the rest
ALL_KEYS = SETUP_KEYS | STATE_KEYS | MEMORY_KEYS | READ_ONLY_KEYS


def config_of(setup: Any) -> tuple[RuleConfig, int]:
    """The rules and player count a position names."""
    if not isinstance(setup, dict):
        fail(f"a position must be a JSON object, got {type(setup).__name__}")
    unknown = sorted(set(setup) - ALL_KEYS)
    if unknown:
        fail(f"unknown key(s) {', '.join(map(repr, unknown))} in the position; keys are: "
              f"{', '.join(sorted(SETUP_KEYS | STATE_KEYS | MEMORY_KEYS))}")
    if "rules" not in setup:
        fail("the position has no 'rules' (a preset name such as 'standard_en')")
    if "players" not in setup:
        fail("the position has no 'players' (the number of seats, 2 to 10)")
    options = setup.get("options", {})
    if not isinstance(options, dict):
        fail(f"'options' must be an object of rule options, got {options!r}")
    players = setup["players"]
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
        fail(f"'players' must be an integer from 2 to 10, got {players!r}")
    return make_rules(setup["rules"], **options), players


def load_position(engine: Engine, st: State, row: int, setup: dict, how: Settling = DEFAULT_SETTLING) -> None:
    """Write the position ``setup`` into row ``row`` of ``st``, then take any forced move (as ``how``
    says)."""
    rules, P = config_of(setup)
    if rules.options() != engine.config.options() or P != engine.P:
        same_preset = rules.name == engine.config.name
        diff = rules.diff(engine.config) if same_preset else {}
        fail(f"the position is for rules {setup['rules']!r} with {P} players"
              f"{' and options ' + str(diff) if diff else ''}, but this game is "
              f"{engine.config.name!r} with {engine.P} players"
              f"{' and other options' if same_preset and diff else ''}; make the game with those rules")
    deck, c = engine.deck, engine.config
    K = engine.K
    seed = int_field(setup, "seed", 0, -(2**62), 2**62)
    engine.seed_rows(st, np.array([row]), seed)
    deal = bool_field(setup, "deal", False)
    side = {"light": 0, "dark": 1}.get(setup.get("side", "light"), -1)
    if side < 0 or (side == 1 and not deck.two_sided):
        fail(f"'side' must be 'light'{' or dark' if deck.two_sided else ''} for deck {deck.name}, "
              f"got {setup.get('side')!r}")
    if deal:
        dealt = sorted(set(setup) - DEAL_KEYS)
        if dealt:
            fail(f"a position with \"deal\": true is dealt by the engine, which sets "
                  f"{', '.join(map(repr, dealt))}; remove {'it' if len(dealt) == 1 else 'them'} (keys allowed "
                  f"with a deal: {', '.join(sorted(DEAL_KEYS))})")
        hands: list[list] = [[] for _ in range(P)]
        discard: list = []
    else:
        for key in ("hands", "discard", "to_move"):
            if key not in setup:
                fail(f"the position has no '{key}' (required unless \"deal\": true)")
        hands = setup["hands"]
        if not isinstance(hands, list) or len(hands) != P:
            fail(f"'hands' must list one string per seat ({P} seats), got "
                  f"{len(hands) if isinstance(hands, list) else type(hands).__name__} entries")
        hands = [deck.parse_cards(text) for text in setup["hands"]]
        discard = deck.parse_cards(setup["discard"])
        if not discard:
            fail("'discard' must hold at least the top card")
    draw_top = deck.parse_cards(setup.get("draw_pile", ""))
    listed = np.bincount(np.array([k for h in hands for k in h] + discard + draw_top, np.int64),
                         minlength=K)
    over = np.flatnonzero(listed > deck.kind_counts)
    if over.size:
        k = over[0]
        fail(f"card {deck.kind_name(k)} appears {listed[k]} times in the position, but the "
              f"{deck.name} deck holds {deck.kind_counts[k]}")
    rest = np.repeat(np.arange(K), deck.kind_counts - listed).astype(np.uint8)
    if rest.size:
        perm = chance.permutations(st.key, st.counter, np.array([row]), [rest.size], rest.size)[0]
        rest = rest[perm]
    where = setup.get("unlisted", "draw_pile_bottom")
    if where not in ("draw_pile_bottom", "discard_bottom") or (deal and where != "draw_pile_bottom"):
        fail(f"'unlisted' must be 'draw_pile_bottom'{'' if deal else ' or discard_bottom'}, "
              f"got {where!r}")
    under_draw = rest if where == "draw_pile_bottom" else rest[:0]
    under_disc = rest if where == "discard_bottom" else rest[:0]
    draw = np.concatenate([under_draw, np.array(draw_top[::-1], np.uint8)])
    disc = np.concatenate([under_disc, np.array(discard, np.uint8)])
    st.draw[row] = 0
    st.draw[row, :draw.size] = draw
    st.draw_n[row] = draw.size
    st.discard[row] = 0
    st.discard[row, :disc.size] = disc
    st.disc_n[row] = disc.size
    st.pile_counts[row] = np.bincount(disc, minlength=K) if disc.size else 0
    for h, kinds in enumerate(hands):
        st.hands[row, h] = np.bincount(np.array(kinds, np.int64), minlength=K)
        st.hand_n[row, h] = len(kinds)
    engine.resync(st, np.array([row]))
    st.side[row] = side
    direction = setup.get("direction", 1)
    if direction not in (1, -1) or isinstance(direction, bool):
        fail(f"'direction' must be 1 (seat order) or -1, got {direction!r}")
    st.direction[row] = direction
    st.dealer[row] = seat_field(setup, "dealer", P, P - 1)
    start = c.starting_points if c.scoring_mode == "penalty_countdown" else 0
    scores = setup.get("scores", [start] * P)
    if not isinstance(scores, list) or len(scores) != P or \
            not all(isinstance(x, int) and not isinstance(x, bool) for x in scores):
        fail(f"'scores' must list {P} integers, got {scores!r}")
    st.scores[row] = scores
    st.rounds[row] = int_field(setup, "rounds", 0)
    st.game_over[row] = False
    st.winner[row] = -1
    st.round_points[row] = 0
    st.truncated[row] = False
    if st.memory is not None:  # memory hook: a position starts with what its memory keys say (default: nothing)
        memory.reset(engine, st, np.array([row]))
        if not deal:
            load_memory(engine, st, row, setup, side)
    if deal:
        engine.deal_from_pile(st, np.array([row]), how=how)
        if "rng_counter" in setup:
            st.counter[row] = int_field(setup, "rng_counter", 0)
        return
    _load_decision(engine, st, row, setup, side)
    if "rng_counter" in setup:
        st.counter[row] = int_field(setup, "rng_counter", 0)
    R = np.array([row])
    if st.phase[row] == OVER:
        engine.refresh(st, R)
    else:
        engine.settle(st, R, how)
    _check_read_only(engine, st, row, setup)


def _check_read_only(engine: RuleTables, st, row: int, setup: dict) -> None:
    """``legal`` and ``round_over`` (read-only, as a snapshot gives them) must describe the position built."""
    if "round_over" in setup and setup["round_over"] != bool(st.phase[row] == OVER):
        fail(f"'round_over' is {setup['round_over']!r}, but the position built is "
              f"{'over' if st.phase[row] == OVER else 'in play'}")
    if "legal" in setup:
        have = [engine.actions.names[j] for j in np.flatnonzero(st.mask[row])]
        if not isinstance(setup["legal"], list) or sorted(setup["legal"]) != sorted(have):
            fail(f"'legal' {setup['legal']!r} (read-only) differs from the legal actions of the position built: "
                  f"{have}")


def _load_decision(engine: RuleTables, st, row: int, setup: dict, side: int) -> None:
    deck, P = engine.deck, engine.P
    top = int(st.discard[row, st.disc_n[row] - 1])
    tface = engine.KF[side, top]
    phase_name = setup.get("phase")
    pending = int_field(setup, "pending_draw", 0, 0, 1000)
    until = bool_field(setup, "pending_until_color", False)
    if phase_name is None:
        phase_name = "pending" if (pending or until) else "turn"
    if phase_name not in PHASE_NAMES:
        fail(f"'phase' must be one of {', '.join(PHASE_NAMES)}, got {phase_name!r}")
    phase = PHASE_NAMES.index(phase_name)
    if phase == PENDING and not (pending or until):
        fail("phase 'pending' needs 'pending_draw' > 0 (or 'pending_until_color')")
    _check_phase_keys(setup, phase_name)
    c = engine.config
    if phase == PENDING and not engine.F_IS_DRAW[tface]:
        fail(f"phase 'pending' (a draw penalty) needs a draw card on top, not {deck.kind_name(top)}")
    if phase == CHOOSE_COLOR and not engine.F_WILD[tface]:
        fail(f"phase 'choose' (a colour to declare) needs a wild on top, not {deck.kind_name(top)}")
    if phase == DEFLECT and not (c.stack_skip and engine.F_SYM[tface] == SKIP):
        fail(f"phase 'deflect' needs the option stack_skip and a Skip on top (the rules have "
              f"stack_skip={c.stack_skip}, the top is {deck.kind_name(top)})")
    if phase == JUMP and not (c.jump_in or c.uno_catch_out_of_turn):
        fail("phase 'jump_in' is an out-of-turn offer: it needs the option jump_in (or "
              "uno_catch_out_of_turn)")
    color_given = "color" in setup
    if engine.F_WILD[tface]:
        if engine.F_SYM[tface] == SWAP_IN_TURN:  # any card may follow until one is played
            color = color_field(setup.get("color", "free"), "color", side, deck.two_sided)
            if color != FREE:
                fail(f"after {deck.kind_name(top)} (Swap in turn) any card may follow: 'color' must be "
                      f"\"free\", got {setup['color']!r}")
        elif phase == CHOOSE_COLOR:
            color = color_field(setup.get("color"), "color", side, deck.two_sided)
            if color != NO_COLOR:
                fail(f"in phase 'choose' the colour of {deck.kind_name(top)} is still to be chosen: 'color' "
                      f"must be null, got {setup['color']!r}")
        elif not color_given or setup["color"] is None:
            fail(f"the top card {deck.kind_name(top)} is a wild: give its declared 'color'")
        else:
            color = color_field(setup["color"], "color", side, deck.two_sided)
            if color == FREE:
                fail(f"'color' \"free\" follows only a Swap in turn (WX); the top card "
                      f"{deck.kind_name(top)} needs its declared colour")
    else:
        color = int(engine.F_COLOR[tface])
        if color_given and color_field(setup["color"], "color", side, deck.two_sided) != color:
            fail(f"'color' {setup['color']!r} contradicts the top card {deck.kind_name(top)}; "
                  f"a colour is declared only for wilds")
    st.color[row] = color
    st.phase[row] = phase
    st.first_play[row] = bool_field(setup, "first_play", False)
    st.passes[row] = int_field(setup, "passes", 0)
    st.turn_count[row] = int_field(setup, "turns", 0)
    st.drew_on[row] = _drew_on(setup, P, side, deck.two_sided)
    if phase == OVER:
        st.actor[row] = st.turn_seat[row] = seat_field(setup, "turn", P, 0)
        st.origin[row] = seat_field(setup, "played_by", P, 0)
        for key in ("prev_color", "prev_prev_color"):
            prev = setup.get(key)
            getattr(st, key)[row] = color_field(prev, key, side, deck.two_sided, True) if prev is not None else NO_COLOR
        st.winner[row] = int_field(setup, "winner", -1, -1, P - 1) if setup.get("winner") is not None else -1
        st.round_points[row] = int_field(setup, "round_points", 0)
        st.game_over[row] = bool_field(setup, "game_over", False)
        st.truncated[row] = bool_field(setup, "truncated", False)
        st.pending[row] = 0
        st.vulnerable[row] = False
        st.vulnerable[row, _seats(setup, "uno_vulnerable", P)] = True  # as the round ended
        return
    to_move = seat_field(setup, "to_move", P)
    direction = int(st.direction[row])
    st.actor[row] = to_move
    st.turn_seat[row] = seat_field(setup, "turn", P, to_move)
    resume = setup.get("resume", "turn")
    if resume not in PHASE_NAMES:
        fail(f"'resume' must be one of {', '.join(PHASE_NAMES)}, got {resume!r}")
    st.resume[row] = PHASE_NAMES.index(resume)
    origin = seat_field(setup, "played_by", P, (to_move - direction) % P)
    st.origin[row] = origin
    st.pending[row] = pending
    st.pending_color[row] = until
    for key, depth in (("prev_color", 2), ("prev_prev_color", 3)):  # default: the colour of the card below
        prev = None
        if st.disc_n[row] >= depth:
            under = engine.KF[side, int(st.discard[row, st.disc_n[row] - depth])]
            if not engine.F_WILD[under]:
                prev = COLOR_LETTERS[engine.F_COLOR[under]]
        prev = setup.get(key, prev)
        getattr(st, key)[row] = color_field(prev, key, side, deck.two_sided, True) if prev is not None else NO_COLOR
    st.prev_pending[row] = int_field(setup, "prev_pending", 0, 0, 1000)
    restricted = bool(engine.F_RESTR[tface])
    chal = bool_field(setup, "challengeable", phase == PENDING and restricted and engine.challenge_on)
    if chal and not (engine.challenge_on and restricted):
        fail(f"'challengeable' is true but the top card {deck.kind_name(top)} cannot be challenged "
              f"under these rules")
    st.challengeable[row] = chal
    if chal and "bluff" not in setup and st.prev_color[row] == NO_COLOR:
        fail("a challengeable position needs 'prev_color' (the colour before the wild draw card)")
    st.guilty[row] = bool_field(setup, "bluff", bool(chal and _bluff(engine, st, row, origin, side)))
    st.drawn[row] = -1
    if phase == DRAWN:
        if "drawn" not in setup:
            fail("phase 'drawn' needs 'drawn': the card drawn and awaiting play or keep")
        k = deck.kind_id(setup["drawn"])
        if st.hands[row, to_move, k] == 0:
            fail(f"'drawn' card {setup['drawn']} is not in the hand of seat {to_move}")
        R = np.array([row])
        bits = matching.playable_bits(engine, st, R, np.array([to_move]), np.array([side]), np.array([tface]))
        if not matching.has_kind(engine, bits, np.array([k]))[0]:
            fail(f"'drawn' card {setup['drawn']} cannot be played on {deck.kind_name(top)}; phase 'drawn' is "
                  f"only for a playable drawn card")
        st.drawn[row] = k
    st.declared[row] = bool_field(setup, "declared", False)
    vul = _seats(setup, "uno_vulnerable", P)
    one = [v for v in vul if st.hand_n[row, v] != 1]
    if one:
        fail(f"'uno_vulnerable' seat {one[0]} holds {int(st.hand_n[row, one[0]])} cards; only a seat with one "
              f"card can be caught")
    st.vulnerable[row] = False
    st.vulnerable[row, vul] = True
    empty = [p for p in range(P) if st.hand_n[row, p] == 0 and not (chal and p == origin)]  # E8: the
    if empty:  # challenge of a going-out wild draw card comes before the round ends
        fail(f"seat {empty[0]} holds no cards, so the round is over: give \"phase\": \"over\" (with its "
              f"'winner')")
    st.offer_rank[row] = NOT_ASKED
    if phase == JUMP:
        order = setup.get("jump_in_order", [to_move])
        if not isinstance(order, list) or not order or order[0] != to_move:
            fail(f"'jump_in_order' must list the seats to ask, starting with to_move, got {order!r}")
        for i, s in enumerate(order):
            st.offer_rank[row, seat_field({"seat": s}, "seat", P)] = i


def _seats(setup: dict, key: str, P: int) -> list[int]:
    v = setup.get(key, [])
    if not isinstance(v, list) or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < P for x in v):
        fail(f"'{key}' must list seats from 0 to {P - 1}, got {v!r}")
    return v


def _check_phase_keys(setup: dict, phase: str) -> None:
    """Keys that describe another phase must not be given (or only with their neutral value)."""
    neutral = {"winner": None, "round_points": 0, "game_over": False, "truncated": False}
    if phase == "over":
        given = [k for k in ("drawn", "jump_in_order", "resume") if k in setup]
        if setup.get("to_move") is not None:
            given.insert(0, "to_move")
    else:
        given = [k for k, v in neutral.items() if k in setup and setup[k] != v]
        given += ["drawn"] if setup.get("drawn") is not None and phase != "drawn" else []
        given += [k for k in ("jump_in_order", "resume") if k in setup and phase != "jump_in"]
    if given:
        fail(f"{', '.join(map(repr, given))} do{'es' if len(given) == 1 else ''} not apply to phase {phase!r}"
              f"{' (the round is over: to_move must be null)' if phase == 'over' and 'to_move' in given else ''}")


def _drew_on(setup: dict, P: int, side: int, two_sided: bool) -> np.ndarray:
    v = setup.get("drew_on", [None] * P)
    if not isinstance(v, list) or len(v) != P:
        fail(f"'drew_on' must list one colour (or null) per seat ({P} seats), got {v!r}")
    return np.array([-1 if c is None else color_field(c, "drew_on", side, two_sided, True) for c in v], np.int8)


def _bluff(engine: RuleTables, st, row: int, origin: int, side: int) -> bool:
    """Whether the offender's hand (without the top card) broke the wild draw restriction when it
    played it (``matching.breaks_restriction`` on the card below and the colour before it)."""
    held = st.held[row, origin]
    prev = int(st.prev_color[row])
    if engine.config.wild_draw_restriction == "color_only":
        return bool(matching.breaks_restriction(engine, held, side, prev))
    under = engine.KF[side, int(st.discard[row, st.disc_n[row] - 2])]
    matched = engine.PLAYBITS[(under * NUM_COLOR_STATES + prev) * 2] & held
    return bool(matching.breaks_restriction(engine, held, side, matched=matched))


def snapshot(engine: RuleTables, st, row: int) -> dict:
    """The position of game ``row`` (see the module docstring for the keys)."""
    deck, c, P = engine.deck, engine.config, engine.P
    if c.name in PRESETS:
        name, options = c.name, c.diff(PRESETS[c.name])
    else:
        name, options = "standard_en", c.diff(PRESETS["standard_en"])
    phase = int(st.phase[row])
    over = phase == OVER
    out: dict[str, Any] = {
        "rules": name, "options": options, "players": P,
        "seed": int(st.seed[row]), "rng_counter": int(st.counter[row]),
        "hands": [cards_text(deck, st.hands[row, p]) for p in range(P)],
        "discard": deck.format_cards(st.discard[row, :st.disc_n[row]]),
        "color": color_text(int(st.color[row])),
        "draw_pile": deck.format_cards(st.draw[row, :st.draw_n[row]][::-1]),
        "unlisted": "draw_pile_bottom",
        "to_move": None if over else int(st.actor[row]),
        "direction": int(st.direction[row]),
        "dealer": int(st.dealer[row]),
    }
    if deck.two_sided:
        out["side"] = "dark" if st.side[row] else "light"
    out.update({
        "scores": [int(x) for x in st.scores[row]],
        "phase": PHASE_NAMES[phase],
        "turn": int(st.turn_seat[row]),
        "played_by": int(st.origin[row]),
        "pending_draw": int(st.pending[row]),
        "pending_until_color": bool(st.pending_color[row]),
        "challengeable": bool(st.challengeable[row]),
        "bluff": bool(st.guilty[row]),
        "prev_color": color_text(int(st.prev_color[row])),
        "prev_prev_color": color_text(int(st.prev_prev_color[row])),
        "prev_pending": int(st.prev_pending[row]),
        "declared": bool(st.declared[row]),
        "uno_vulnerable": [int(p) for p in np.flatnonzero(st.vulnerable[row])],
        "drew_on": [color_text(int(c)) if c >= 0 else None for c in st.drew_on[row]],
        "first_play": bool(st.first_play[row]),
        "passes": int(st.passes[row]),
        "turns": int(st.turn_count[row]),
        "rounds": int(st.rounds[row]),
    })
    if phase == DRAWN:
        out["drawn"] = deck.kind_name(int(st.drawn[row]))
    if phase == JUMP:
        out["resume"] = PHASE_NAMES[int(st.resume[row])]
        rank = st.offer_rank[row]
        cur = rank[st.actor[row]]
        out["jump_in_order"] = [int(p) for p in np.argsort(rank, kind="stable")
                                if cur <= rank[p] < NOT_ASKED]
    out.update({
        "legal": [engine.actions.names[j] for j in np.flatnonzero(st.mask[row])],
        "round_over": over,
        "winner": int(st.winner[row]) if over and st.winner[row] >= 0 else None,
        "round_points": int(st.round_points[row]),
        "game_over": bool(st.game_over[row]) if over else False,
    })
    if over:
        out["truncated"] = bool(st.truncated[row])
    if st.memory is not None:
        out.update(memory_snapshot(engine, st, row))
    return out


def top_text(engine: RuleTables, st, row: int) -> str:
    return engine.deck.kind_name(int(st.discard[row, st.disc_n[row] - 1]))


__all__ = ["PositionError", "config_of", "load_position", "snapshot", "color_text", "top_text",
           "NUM_COLOR_STATES", "TURN"]

"""Rule options and presets (rules §9, §10 and §12).

``RuleConfig`` is a frozen dataclass holding every option under the names of rules §9.
A preset is a named ``RuleConfig``; ``make_rules(preset, **overrides)`` returns one with options
changed and validated.  Every error names the option, the value given and what is allowed.

Each option is written once, as a field of ``RuleConfig`` with its default, its allowed values and its
meaning; ``OPTIONS`` reads them from the fields, and the validation and the README table come from it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .cards import DECKS

_BOOL = (False, True)


@dataclass(frozen=True)
class Option:
    """One rule option: its allowed values (a tuple) or an integer range, and what it means."""

    allowed: tuple | None  # allowed values, or None for an integer in [lo, hi]
    help: str
    lo: int = 0
    hi: int = 10**9
    decks: tuple[str, ...] = DECKS  # decks the option applies to

    def check(self, name: str, value: Any) -> Any:
        if self.allowed is not None:
            if isinstance(value, bool) != isinstance(self.allowed[0], bool) or value not in self.allowed:
                choices = ", ".join(repr(v) for v in self.allowed)
                raise ValueError(f"option {name}={value!r} is not allowed; choose one of: {choices}")
            return value
        if isinstance(value, bool) or not isinstance(value, int) or not self.lo <= value <= self.hi:
            raise ValueError(f"option {name}={value!r} is not allowed; it takes an integer "
                             f"from {self.lo} to {self.hi}")
        return int(value)


_FLIP = ("flip112",)


def _option(default: Any, allowed: tuple | None, help: str, lo: int = 0, hi: int = 10**9,
            decks: tuple[str, ...] = DECKS) -> Any:
    """A ``RuleConfig`` field: its default, and its ``Option`` (allowed values, meaning) as the field's metadata,
    so that each option is written once, in ``RuleConfig``, and ``OPTIONS`` is read from the fields."""
    return dataclasses.field(default=default, metadata={"option": Option(allowed, help, lo, hi, decks)})


@dataclass(frozen=True)
class RuleConfig:
    """Every rule option of rules §9 (defaults: Mattel's standard UNO), each with its allowed values and meaning
    (``OPTIONS``)."""

    name: str = "custom"
    deck: str = _option("standard108", DECKS,
        "the cards: standard108 (Mattel), solo112 (AMIGO SOLO), flip112 (UNO Flip)")
    hand_size: int = _option(7, None, "cards dealt to each seat", 1, 15)
    dealer_selection: str = _option("random", ("random",),
        "first dealer of a game; every seed's draw-for-dealer procedure picks a uniformly random seat, so one "
        "value covers them")
    next_dealer: str = _option("left", ("left", "round_winner"), "dealer of the next round")
    first_player: str = _option("left_of_dealer", ("left_of_dealer", "count_from_initial"),
        "who opens a round: the seat left of the dealer, or (house_cn) counted from it by the first card's "
        "number (E32)")
    first_card_mode: str = _option("apply", ("apply", "redraw_action", "number_only"),
        "first discard: apply its effect (a wild draw card is redrawn, except SOLO's Take 4), bury any action "
        "card and turn another (house_cn), or return non-numbers to the pile until a number shows (SOLO, Mattel 2022)")
    first_card_reverse: str = _option("dealer_first", ("dealer_first", "right_of_dealer"),
        "a Reverse turned first: the dealer plays first, or it acts as the dealer's own Reverse (the seat to "
        "the dealer's right starts; with two players as two_player_reverse says); play then runs "
        "counter-clockwise")
    first_card_wild_chooser: str = _option("first_player", ("first_player", "dealer"),
        "who declares the colour of a Wild turned first")
    flip_first_card: str = _option("redraw", ("redraw", "apply"),
        "a Flip turned first: redraw it, or flip to the dark side before the first turn (E20)", decks=_FLIP)
    first_card_match: str = _option("normal", ("normal", "color_only"),
        "the first play of a round must match the first card's colour only (house_cn) or colour or symbol")
    voluntary_draw: bool = _option(True, _BOOL, "a seat may draw although it could play")
    drawn_card_play: str = _option("optional", ("optional", "forced", "never"),
        "a playable drawn card may be played or kept, must be played, or is kept")
    wild_draw_restriction: str = _option("color_only", ("none", "color_only", "no_playable"),
        "when a wild draw card may be played: any time; not while holding the active colour; not while "
        "holding any other playable card")
    challenge: bool = _option(True, _BOOL,
        "the victim of a restricted wild draw may challenge it (a bluff is then legal); without challenges an "
        "illegal wild draw is simply not allowed")
    challenge_guilty: str = _option("offender_suffers", ("offender_suffers", "retract_and_draw_2"),
        "a guilty offender draws the penalty instead of the victim, or takes the card back and draws 2 (UNO "
        "Flip, Japan)")
    challenge_extra: int = _option(2, None, "extra cards for the victim of a failed challenge", 0, 10)
    stacking: str = _option("none", ("none", "same_type", "escalating"),
        "answering a draw card with a draw card: no; only the same kind; equal or higher value")
    stack_skip: bool = _option(False, _BOOL, "the victim of a Skip may pass it on with a Skip of any colour")
    draw_penalty_skips_turn: bool = _option(True, _BOOL, "a seat that draws a penalty also loses its turn")
    two_player_reverse: str = _option("skip", ("skip", "reverse"),
        "with two players a Reverse acts as a Skip, or only turns direction")
    jump_in: bool = _option(False, _BOOL, "a seat holding the identical card may play it out of turn")
    jump_in_wilds: bool = _option(False, _BOOL, "wild cards may be jumped in on an identical wild")
    jump_in_priority: str = _option("turn_order", ("turn_order", "random"),
        "order in which eligible seats are asked (E12)")
    jump_in_self: bool = _option(False, _BOOL, "a seat may jump in on its own card")
    seven_o: bool = _option(False, _BOOL,
        "a 7 swaps hands with a chosen seat; a 0 passes every hand on (needs a deck with 0s)")
    uno_penalty: int = _option(2, None, "cards drawn by a seat caught not declaring UNO", 0, 20)
    uno_window_close: str = _option("next_player_action", ("next_player_action", "next_card_discard"),
        "a missed UNO can be punished until the next seat acts, or until the next card is discarded")
    uno_enforcement: str = _option("catch", ("catch", "automatic", "off"),
        "a missed UNO is punished when another seat catches it, automatically when the window closes, or "
        "never (no declaring at all)")
    uno_late_call: bool = _option(True, _BOOL, "accepted for completeness; has no effect (rules \u00a712.15)")
    uno_catch_out_of_turn: bool = _option(False, _BOOL,
        "a seat left at one card without declaring that moves again before anyone is asked (a Skip or Reverse "
        "with two players, a Skip Everyone) is first offered to the other seats, in turn order, to catch "
        "(needs uno_enforcement='catch')")
    uno_simultaneous: str = _option("self_wins", ("self_wins",),
        "a call and a catch at once: the call wins (turn-based play never produces a tie)")
    uno_call_after_exchange: bool = _option(False, _BOOL,
        "a seat that receives a one-card hand by an exchange must call UNO too (it is vulnerable at once)")
    last_card_draw_applies: bool = _option(True, _BOOL,
        "a draw card played as the last card still makes the next seat draw before scoring")
    flip_discard_mode: str = _option("invert_pile", ("invert_pile", "flip_in_place"),
        "a Flip turns the discard pile over, or turns each card in place", decks=_FLIP)
    flip_back_faces_visible: bool = _option(True, _BOOL,
        "seats see the other side of the opponents' cards and of the draw pile's top card", decks=_FLIP)
    flip_as_last_card: str = _option("no_flip", ("no_flip", "flip_before_scoring"),
        "a Flip played as the last card is void, or flips before scoring", decks=_FLIP)
    flip_revealed_wild: str = _option("next_player", ("next_player", "flipper"),
        "who declares the colour of a wild face revealed by a Flip (E19)", decks=_FLIP)
    flip_pairing: str = _option("physical_v1", ("physical_v1", "random_bijection"),
        "light/dark pairing of the UNO Flip cards", decks=_FLIP)
    flip_pairing_seed: int = _option(0, None, "seed of the random_bijection pairing", 0, 2**31 - 1, decks=_FLIP)
    wdc_cap: int = _option(0, None,
        "at most this many cards drawn by Wild Draw Colour (0: no cap)", 0, 112, decks=_FLIP)
    scoring_mode: str = _option("winner_takes_sum",
        ("winner_takes_sum", "cumulative_low", "plus_minus", "penalty_countdown"),
        "how rounds are scored and when the game ends")
    target: int = _option(500, None, "game target (winner_takes_sum, cumulative_low)", 1, 100000)
    starting_points: int = _option(500, None, "points each seat starts with (penalty_countdown)", 1, 100000)
    max_rounds: int = _option(5, None, "rounds in a plus_minus game", 1, 10000)
    blocked_round: str = _option("lowest_hand_wins", ("lowest_hand_wins", "void_redeal"),
        "a round where nobody can play or draw for a full cycle (E2)")
    max_turns_per_round: int = _option(3000, None,
        "actions after which a round is stopped as blocked and reported as truncated (E3)", 10, 10**6)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.name != "name":
                OPTIONS[f.name].check(f.name, getattr(self, f.name))
        if self.seven_o and self.deck != "standard108":
            raise ValueError(f"option seven_o=True needs a deck with 0 and 7 cards, and deck "
                             f"{self.deck!r} has no 0; use deck='standard108'")
        if self.uno_catch_out_of_turn and self.uno_enforcement != "catch":
            raise ValueError(f"option uno_catch_out_of_turn=True offers catches, which needs "
                             f"uno_enforcement='catch', and these rules have {self.uno_enforcement!r}")

    def replace(self, **overrides: Any) -> RuleConfig:
        """A copy with ``overrides`` applied and validated (see ``make_rules``)."""
        return make_rules(self, **overrides)

    def options(self) -> dict[str, Any]:
        """All options as a plain dict (the ``name`` excluded)."""
        d = dataclasses.asdict(self)
        d.pop("name")
        return d

    def diff(self, other: RuleConfig) -> dict[str, Any]:
        """Options whose value differs from ``other``."""
        a, b = self.options(), other.options()
        return {k: v for k, v in a.items() if b[k] != v}


#: every rule option by name (rules §9): its allowed values and meaning, read from ``RuleConfig``'s fields
OPTIONS: dict[str, Option] = {f.name: f.metadata["option"] for f in dataclasses.fields(RuleConfig) if f.metadata}

PRESETS: dict[str, RuleConfig] = {
    "standard_en": RuleConfig(name="standard_en"),
    "standard_ru": RuleConfig(name="standard_ru", uno_penalty=4),
    "house_cn": RuleConfig(
        name="house_cn", first_player="count_from_initial", first_card_mode="redraw_action",
        first_card_match="color_only", voluntary_draw=False, wild_draw_restriction="none",
        challenge=False, stacking="escalating", stack_skip=True, target=300),
    "solo_bga": RuleConfig(
        name="solo_bga", deck="solo112", hand_size=8, first_card_mode="number_only",
        wild_draw_restriction="none", challenge=False, stacking="same_type",
        draw_penalty_skips_turn=False, jump_in=True, uno_window_close="next_card_discard",
        uno_enforcement="automatic", uno_late_call=False, last_card_draw_applies=False,
        scoring_mode="penalty_countdown", starting_points=500),
    "flip_jp": RuleConfig(
        name="flip_jp", deck="flip112", next_dealer="round_winner",
        wild_draw_restriction="no_playable", challenge_guilty="retract_and_draw_2",
        uno_window_close="next_card_discard"),
}


def make_rules(rules: str | RuleConfig = "standard_en", **overrides: Any) -> RuleConfig:
    """A validated ``RuleConfig``: a preset (by name or object) with options overridden.

    Raises:
        ValueError: unknown preset (the message lists them), unknown option (lists them), a value
            not allowed, or an option that does not apply to the deck.
    """
    if isinstance(rules, RuleConfig):
        base = rules
    elif isinstance(rules, str) and rules in PRESETS:
        base = PRESETS[rules]
    else:
        raise ValueError(f"unknown rules {rules!r}; presets are: {', '.join(PRESETS)} "
                         f"(or pass a RuleConfig)")
    for key in overrides:
        if key not in OPTIONS:
            raise ValueError(f"unknown option {key!r} for rules {base.name!r}; options are: "
                             f"{', '.join(OPTIONS)}")
    deck = overrides.get("deck", base.deck)
    OPTIONS["deck"].check("deck", deck)
    for key in overrides:
        if deck not in OPTIONS[key].decks:
            raise ValueError(f"option {key!r} applies only to the {'/'.join(OPTIONS[key].decks)} deck, "
                             f"and these rules use {deck!r}")
    if not overrides:
        return base
    return dataclasses.replace(base, **overrides)

"""Flawed players: ``heuristic`` with one deliberate flaw each, the gauntlet a robust agent must beat.

An agent trained only against ``heuristic`` learns what pays against it and nothing else: a skill the bot
never punishes (catching a missed "UNO") is never learned.  Each flawed player below is ``heuristic`` with one
documented flaw, so the gap between what ``heuristic`` wins against it (the **reference**) and what an agent
wins against it measures one hole of the agent; and a best response that cannot recover a known gap cannot be
trusted to find an unknown one (``training.best_response``'s calibration).

Load one by name, ``agents.load("heuristic-no-uno", game=game)``; ``FLAWS`` lists them, ``applies(flaw, rules)``
says whether a flaw changes anything under a configuration (a flaw on an action the rules never offer is
refused by ``load``).  A flaw only ever overrides a choice where another legal action exists: the flawed action
is never taken when another is legal (never catching, never declaring), or always taken when legal (always a
wild draw card), and the rest of the bot's play is ``heuristic``'s exactly, with the weights it plays on that
preset and table size.

The flaws marked ``held_out`` are kept apart: no training uses them (``training.league`` refuses them), so
that the robustness table shows how an agent does against holes nobody trained it to exploit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from uno_env.core.state import DRAWN, PENDING

from .bots import HeuristicAgent

PREFIX = "heuristic-"
HUGE = 1e9  # above every score heuristic gives; the masked argmax still picks a legal action


@dataclass(frozen=True)
class Flaw:
    """One flaw: its name (the player is ``heuristic-NAME``), what it does, where it applies."""

    name: str
    doc: str
    held_out: bool = False  # never trained against: the independent check of robustness

    @property
    def player(self) -> str:
        return PREFIX + self.name


FLAWS = {f.name: f for f in (
    Flaw("no-uno", "never declares UNO, so with one card left it can always be caught (or, under automatic "
                   "enforcement, always draws the penalty)"),
    Flaw("no-catch", "never catches a seat that did not declare UNO"),
    Flaw("no-challenge", "never challenges a Wild Draw Four (or Wild Draw Two/Colour): accepts every one"),
    Flaw("always-wd4", "plays a wild draw card (Wild Draw Four, Two or Colour) whenever one is legal, bluff or not, "
                       "before any other card"),
    Flaw("random-colour", "names a colour at random whenever it names one (a wild's colour, a colour choice)"),
    Flaw("no-stack", "never stacks a draw card on a pending penalty: always draws it"),
    Flaw("always-stack", "plays a draw card whenever one is legal, to start a stack as to answer one (heuristic "
                         "keeps draw cards as weapons while the next seat does not threaten)"),
    Flaw("no-exchange", "never plays a Swap or Swap-in-turn card while another action is legal"),
    Flaw("random-flip", "plays a Flip card when it has one at random: half the time at once, half the time never "
                        "while another action is legal"),
    Flaw("keeps-drawn", "never plays the card it just drew", held_out=True),
    Flaw("holds-actions", "never plays a Skip, Reverse or Draw Two while a number card is playable", held_out=True),
)}


def names(include_held_out: bool = True) -> list[str]:
    """Every flawed player's name (``heuristic-...``)."""
    return [f.player for f in FLAWS.values() if include_held_out or not f.held_out]


def flaw_of(name: str) -> Flaw | None:
    """The flaw of a player name (``"heuristic-no-uno"``), or None."""
    if not isinstance(name, str) or not name.startswith(PREFIX):
        return None
    return FLAWS.get(name[len(PREFIX):])


def applies(flaw: str | Flaw, rules) -> bool:
    """Whether the flaw changes anything under ``rules`` (a preset name or a ``RuleConfig``): the action it
    concerns exists there."""
    from uno_env.core.cards import DRAW_TWO, FLIP, REVERSE, SKIP, SWAP, SWAP_IN_TURN
    from uno_env.core.config import PRESETS

    f = FLAWS[flaw] if isinstance(flaw, str) else flaw
    r = PRESETS[rules] if isinstance(rules, str) else rules
    fa = _faces(r)
    syms = {int(x) for x in fa["symbol"]}
    return {
        "no-uno": r.uno_enforcement != "off",
        "no-catch": r.uno_enforcement == "catch",
        "no-challenge": bool(r.challenge) and r.wild_draw_restriction != "none",
        "always-wd4": bool((fa["wild"] & (fa["draw"] > 0)).any()),
        "random-colour": True,
        "no-stack": r.stacking != "none",
        "always-stack": r.stacking != "none",
        "no-exchange": bool({SWAP, SWAP_IN_TURN} & syms) or bool(r.seven_o),
        "random-flip": FLIP in syms,
        "keeps-drawn": True,
        "holds-actions": bool({SKIP, REVERSE, DRAW_TWO} & syms),
    }[f.name]


def _faces(r) -> dict:
    from uno_env.core.cards import make_deck
    return make_deck(r.deck).face_arrays


def gauntlet(rules, include_held_out: bool = True) -> list[str]:
    """The flawed players that apply to ``rules``, in ``FLAWS`` order."""
    return [f.player for f in FLAWS.values() if (include_held_out or not f.held_out) and applies(f, rules)]


class FlawedHeuristic(HeuristicAgent):
    """``heuristic`` with one flaw (``FLAWS``): its scores, then the flawed choice forced or forbidden."""

    def __init__(self, flaw: str, game=None, seed: int | None = None, **params):
        if flaw not in FLAWS:
            raise ValueError(f"unknown flaw {flaw!r}; flaws are: {', '.join(FLAWS)}")
        super().__init__(game, seed, **params)
        self.flaw = FLAWS[flaw]
        self.name = self.flaw.player
        if not applies(self.flaw, self.view.rules):
            raise ValueError(f"{self.name!r} changes nothing under the rules {self.view.rules.name!r} (the flaw: "
                             f"{self.flaw.doc}); the flawed players of these rules are: "
                             f"{', '.join(gauntlet(self.view.rules))}")
        self.rng = np.random.default_rng(seed)
        v = self.view
        f = v.action_face0
        play = v.action_is_play
        self.a_wild_draw = play & v.face_wild[f] & v.face_is_draw[f]
        self.a_any_draw = play & v.face_is_draw[f]
        self.a_flip = play & v.face_flip[f]
        self.a_action_card = play & (v.face_skip | v.face_reverse | v.face_draw_two)[f]
        self.a_number = play & v.face_number[f] & ~v.face_wild[f]
        # the actions that name a colour, grouped by what else they do: a wild play of face f names one colour
        # per action (the same face, another colour), a colour choice likewise
        named = (play & v.face_wild[f] & (v.action_color >= 0)) | np.isin(np.arange(v.A), v.choose_ids)
        key = np.where(np.isin(np.arange(v.A), v.choose_ids), -1, v.action_face)
        key = np.where(play, key * 1000 + np.maximum(v.action_target, -1) + 1, key)  # a wild Swap also names a seat
        groups = [np.flatnonzero(named & (key == k)) for k in np.unique(key[named])]
        self.colour_groups = [g for g in groups if g.size > 1]

    def scores(self, obs, mask):
        s = super().scores(obs, mask)
        v, name = self.view, self.flaw.name
        if name == "no-uno":
            s[:, v.UNO] = -HUGE
        elif name == "no-catch":
            s[:, v.catch_ids] = -HUGE
        elif name == "no-challenge":
            s[:, v.CHALLENGE] = -HUGE
        elif name == "always-wd4":
            s += np.where(self.a_wild_draw, HUGE, 0.0)[None, :]
        elif name == "random-colour":
            for g in self.colour_groups:  # the group's best score, on one colour drawn at random per row
                best = s[:, g].max(1, keepdims=True)
                pick = self.rng.integers(g.size, size=s.shape[0])
                s[:, g] = -HUGE
                s[np.arange(s.shape[0]), g[pick]] = best[:, 0]
        elif name == "no-stack":
            pending = v.phase(obs) == PENDING
            s -= np.where(pending[:, None] & v.action_is_play[None, :], HUGE, 0.0)
        elif name == "always-stack":
            s += np.where(self.a_any_draw, HUGE, 0.0)[None, :]
        elif name == "no-exchange":
            s -= np.where(self.a_exchange, HUGE, 0.0)[None, :]
        elif name == "random-flip":
            sign = np.where(self.rng.random(s.shape[0]) < 0.5, HUGE, -HUGE)
            s += sign[:, None] * self.a_flip[None, :]
        elif name == "keeps-drawn":
            drawn = v.phase(obs) == DRAWN
            s[:, v.KEEP] = np.where(drawn, HUGE, s[:, v.KEEP])
        elif name == "holds-actions":
            number = (mask & self.a_number[None, :]).any(1)
            s -= np.where(number[:, None] & self.a_action_card[None, :], HUGE, 0.0)
        return s


def load(name: str, game=None, seed: int | None = None) -> FlawedHeuristic:
    """The flawed player named ``name`` (``heuristic-FLAW``)."""
    flaw = flaw_of(name)
    if flaw is None:
        raise ValueError(f"{name!r} is not a flawed player; they are: {', '.join(names())}")
    return FlawedHeuristic(flaw.name, game=game, seed=seed)

"""Shared test helpers: build a position in the notation (docs/notation.md), act by action name, play twin
games that differ only in cards one seat cannot see."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from uno_env import PRESETS, VecGame
from uno_env.core.config import make_rules
from uno_env.records import GameRecord
from uno_env.table import Table
from uno_env.view import seat_view

PRESET_NAMES = list(PRESETS)  # every preset: a new one is tested with the others
# (preset, players) for every preset: the standard deck at 2, 3, 4, 7 and 10, UNO Flip at 2, 4 and 10, others at
# 2, 3, 5 and 10
PRESET_PLAYERS = [(r, p) for r, c in PRESETS.items()
                  for p in ((2, 4, 10) if c.deck == "flip112" else (2, 3, 4, 7, 10) if r.startswith("standard")
                            else (2, 3, 5, 10))]
# the trained agents that read the v2 layout (shipped before the v3 agents, kept as their warm start)
V2_AGENTS = {p: str(Path(__file__).resolve().parents[1] / "results" / "v3_agents" / "warm_start"
                    / f"ppo-standard_en-{p}p-v2") for p in (2, 4)}


def position(rules: str = "standard_en", players: int = 2, **setup) -> VecGame:
    """A one-game ``VecGame`` in the position given (the keys of docs/notation.md#positions)."""
    return VecGame.from_position({"rules": rules, "players": players, **setup})


def act(game: VecGame, *names: str) -> VecGame:
    """Apply actions by name, in order, to game 0."""
    for name in names:
        game.step(np.array([game.action_index(name)]))
    return game


def hands(game: VecGame) -> list[str]:
    return game.snapshot(0)["hands"]


def export_agent(path, players: int, observation: str = "v3", rules: str = "standard_en"):
    """An untrained (16, 16) tanh policy exported in the shipped-agent format for a game of layout
    ``observation``, as the trainers export theirs (``PolicyAgent.export``); returns the JSON's path.
    Needs sb3-contrib."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from torch import nn

    from agents.policy import PolicyAgent

    game = VecGame(rules, players, observation=observation)
    low = np.full(game.observation_size, -np.inf, np.float32)
    policy = MaskableActorCriticPolicy(spaces.Box(low, -low, dtype=np.float32), spaces.Discrete(game.num_actions),
                                       lambda _: 0.0, net_arch=[16, 16], activation_fn=nn.Tanh)
    return PolicyAgent(policy, name=path.name).export(path, game)


# ---------------------------------------------------------------------- twin games (rules §1.10)
# Two games that differ only in cards one seat cannot see must look the same to that seat until a card it
# could not see is shown to it differently.  ``play_twins`` builds such pairs from random deals: the seat
# (the viewer) plays at random, the others never show a card by choice, and the twin deals the same
# position with the cards hidden from the viewer permuted, except those the first game showed it.

#: every preset, and the options whose offers hang on hidden cards: jump-ins and Skip deflection
TWIN_RULES = [("standard_en", {}), ("standard_ru", {}), ("house_cn", {}), ("solo_bga", {}), ("flip_jp", {}),
              ("standard_en", {"jump_in": True, "stack_skip": True}), ("house_cn", {"jump_in": True})]


def public_action(table, play: int | None = None) -> int:
    """A move that shows no card by choice: draw or take the penalty, keep a drawn card, let an offer go by,
    accept, choose the first colour offered; a play only when the rules leave nothing else (``play`` if
    legal: the one the first game of a pair made there)."""
    names = table.legal()
    for kind in ("draw", "keep", "pass", "accept", "choose"):
        for name in names:
            if name.split()[0] == kind:
                return table.game.action_index(name)
    if play is not None and table.state.mask[0, play]:
        return play
    return table.game.action_index(next((n for n in names if n.startswith("play ")), names[0]))


def reveals(ev, viewer: int) -> bool:
    """Event ``ev`` shows ``viewer`` a card it could not see, or says something that hangs on one: another
    seat's play, a challenge, another seat's draw until a colour shows.  Twins may differ from there on."""
    b = ev.before
    return ((ev.kind == "play" and ev.seat != viewer) or ev.kind == "challenge"
            or (ev.kind in ("draw", "accept") and ev.seat != viewer and bool(b.pending_color[0])))


def ends_twins(ev) -> bool:
    """After event ``ev`` the viewer may hold or see cards its twin does not, though the words are the same:
    the round's end (hands laid down), an exchange or rotation of hands, a flip (the other faces show)."""
    e = ev.table.engine
    if ev.kind == "round_end":
        return True
    return ev.kind == "play" and (e.actions.target[ev.action] >= 0 or bool(e.F_ROTATE[e.actions.face[ev.action]])
                                  or ev.after.side[0] != ev.before.side[0])


@dataclass
class Twin:
    """One game as seat ``viewer`` lived it, up to the first event that ``ends_twins``.  ``k`` below: how
    many events had told the viewer something."""

    viewer: int
    slots: dict = field(default_factory=dict)  # the observation's slots (``Observer.slots``)
    shown: list = field(default_factory=list)  # (words, ``reveals``) of each event that tells the viewer something
    decisions: list = field(default_factory=list)  # (k, seat, kind, forced, phase before) of every action
    views: list = field(default_factory=list)  # (k, ``seat_view`` as JSON) before every action and after every step
    observed: list = field(default_factory=list)  # (k, viewer asked, its observations, compressed), the same moments
    drew: set = field(default_factory=set)  # positions in the first draw pile (0: the top) the viewer drew
    faces: set = field(default_factory=set)  # names of the faces other seats showed the viewer
    plays: dict = field(default_factory=dict)  # k -> (seat, action) of each play by another seat


def view_json(table, viewer: int, state) -> str:
    """The table as ``viewer`` is shown it (``seat_view``), but its own moves and drawn card: given only
    while it is asked."""
    view = seat_view(table.game, viewer, state=state)
    return json.dumps({k: v for k, v in view.items() if k not in ("legal", "drawn")}, sort_keys=True)


class _Watch:
    """A second listener of the table's game, observing the viewer before each action (v3's memory is not in
    the table's copies of the game, so it is read at the moment)."""

    def __init__(self, table, viewer: int, observation: str):
        self.table, self.viewer, self.on, self.seen = table, viewer, observation != "v2", []

    def look(self) -> tuple[bool, bytes]:
        game = self.table.game
        if not self.on:
            return False, b""
        obs = np.concatenate([game.observe(seats=[self.viewer], rows=[0])[0],  # VecGame's and the AEC env's
                              game.observer.observe_one(game.state, self.viewer)])
        return int(game.state.actor[0]) == self.viewer, zlib.compress(obs.tobytes())

    def __call__(self, moves) -> None:
        """A listener of the table's game: what the viewer sees before each move."""
        for _ in moves:
            self.seen.append(self.look())


def play_twin(setup: dict, viewer: int, seed: int, observation: str = "v2", guide: Twin | None = None,
              max_steps: int = 150) -> Twin:
    """Play ``setup``: ``viewer`` at random (``seed``), the others by ``public_action`` (making the plays of
    ``guide``, the first game of the pair, where they can)."""
    table = Table.from_position(setup, observation=observation)
    tape = _Watch(table, viewer, observation)
    table.listen(tape)
    twin = Twin(viewer, dict(table.game.observer.slots))
    rng = np.random.default_rng(seed)
    e = table.engine
    pile, taken = int(table.events[0].before.draw_n[0]), 0  # the first draw pile, how many of its cards are gone

    def take(ev) -> bool:
        """Record ``ev``; False once it ``ends_twins``."""
        nonlocal taken
        k = len(twin.shown)
        b, a = ev.before, ev.after
        twin.decisions.append((k, ev.seat, ev.kind, ev.forced, int(b.phase[0])))
        if ends_twins(ev):
            return False
        if text := ev.text(viewer):
            twin.shown.append((text, reveals(ev, viewer)))
        if ev.kind == "play" and ev.seat != viewer:
            twin.faces.add(e.deck.faces[int(e.actions.face[ev.action])].name)
            twin.plays[k] = (ev.seat, ev.action)
        if ev.kind == "challenge":  # the hand shown to the challenger
            side = int(b.side[0])
            held = np.flatnonzero(b.hands[0, b.origin[0]])
            twin.faces.update(e.deck.faces[int(e.KF[side, kind])].name for kind in held)
        if taken < pile:  # which cards of the first draw pile the viewer took (all those left, at a reshuffle)
            reshuffled = a.disc_n[0] < b.disc_n[0] + (ev.kind == "play")
            n = pile - taken if reshuffled else int(b.draw_n[0]) - int(a.draw_n[0])
            if a.hand_n[0, viewer] > b.hand_n[0, viewer]:
                twin.drew.update(range(taken, taken + n))
            taken += n
        return True

    def record(state, seen) -> None:
        twin.views.append((len(twin.shown), view_json(table, viewer, state)))
        twin.observed.append((len(twin.shown), *seen))

    if all(take(ev) for ev in table.events):
        record(table.state, tape.look())
        for _ in range(max_steps):
            if table.over:
                break
            if table.actor == viewer:
                a = int(rng.choice(np.flatnonzero(table.state.mask[0])))
            else:
                seat, play = guide.plays.get(len(twin.shown), (None, None)) if guide else (None, None)
                a = public_action(table, play if seat == table.actor else None)
            tape.seen.clear()
            events = table.step(a)
            seen = iter(tape.seen)
            for ev in events:
                if ev.kind != "round_end":
                    record(ev.before, next(seen))
                if not take(ev):
                    return twin
            record(table.state, tape.look())
    return twin


def twin_position(setup: dict, viewer: int, first: Twin, rng) -> dict:
    """``setup`` with the cards ``viewer`` cannot see permuted: those of the other hands and of the draw pile,
    but the pile's cards the viewer drew in ``first`` and the cards showing a face others showed it there
    (so that they can show the same); hand sizes kept, and in UNO Flip every card keeps the back it shows."""
    out = dict(setup)
    hands = [h.split() for h in setup["hands"]]
    pile = setup["draw_pile"].split()
    side = 1 if setup.get("side") == "dark" else 0
    config = make_rules(setup["rules"], **setup.get("options", {}))
    backs = config.deck == "flip112" and config.flip_back_faces_visible

    def face(card: str, which: int) -> str:
        return card.split("/")[which] if "/" in card else card

    slots = [(hands[p], i) for p in range(len(hands)) if p != viewer for i in range(len(hands[p]))]
    slots += [(pile, j) for j in range(len(pile)) if j not in first.drew]
    groups: dict = {}
    for cards, i in slots:
        if face(cards[i], side) not in first.faces:
            groups.setdefault(face(cards[i], 1 - side) if backs else "", []).append((cards, i))
    for same in groups.values():
        moved = [cards[i] for cards, i in same]
        for (cards, i), j in zip(same, rng.permutation(len(same))):
            cards[i] = moved[j]
    out["hands"] = [" ".join(h) for h in hands]
    out["draw_pile"] = " ".join(pile)
    return out


def short_deal(rules: str, options: dict, players: int, seed: int) -> tuple[dict, int, np.random.Generator]:
    """A random deal of seed ``seed`` whose viewer is seat ``seed % players``; the other hands keep 1 to all of
    their cards (the rest go under the draw pile), so that they run out of moves too.  Returns the position,
    the viewer and the generator that went on to draw the twin."""
    rng = np.random.default_rng(seed)
    setup = {k: v for k, v in VecGame(rules, players, seed=seed, **options).snapshot(0).items() if k != "legal"}
    viewer = seed % players
    hands = [h.split() for h in setup["hands"]]
    for p, hand in enumerate(hands):
        if p != viewer:
            keep = int(rng.integers(1, len(hand) + 1))
            setup["draw_pile"] += " " + " ".join(hand[keep:])
            hands[p] = hand[:keep]
    setup["hands"] = [" ".join(h) for h in hands]
    return setup, viewer, rng


def play_twins(rules: str, options: dict, players: int, seed: int, observation: str = "v2") -> tuple[Twin, Twin]:
    """A random deal played as seat ``seed % players`` lives it, and its twin (``twin_position``).  The other
    hands keep 1 to 7 of their cards (the rest go under the draw pile), so that they run out of moves too."""
    setup, viewer, rng = short_deal(rules, options, players, seed)
    a = play_twin(setup, viewer, seed, observation)
    b = play_twin(twin_position(setup, viewer, a, rng), viewer, seed, observation, guide=a)
    return a, b


def compared(a: Twin, b: Twin) -> int:
    """How many of the words shown to the viewer the twins share before the first that ``reveals`` a card
    differently (words that differ where neither reveals a card fail: they say what the viewer may not know)."""
    n = 0
    for (ta, ra), (tb, rb) in zip(a.shown, b.shown):
        if ta != tb:
            assert ra or rb, f"the viewer (seat {a.viewer}) is told {ta!r} in one twin and {tb!r} in the other"
            break
        n += 1
    return n
def played_record(rules="standard_en", players=4, seed=3) -> GameRecord:
    """A round of random legal moves (a play where there is one) as a game record: tens of actions."""
    t = Table(rules, players, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not t.over:
        legal = np.flatnonzero(t.state.mask[0])
        plays = [a for a in legal if t.game.action_name(a).startswith("play")]
        a = int(rng.choice(plays or legal))
        actions.append([t.actor, a])
        t.step(a)
    st = t.state
    return GameRecord(rules=rules, num_players=players, seed=seed, episode="round", actions=actions,
                      result={"scores": [int(x) for x in st.scores[0]], "winner": int(st.winner[0])},
                      agents=["random"] * players)

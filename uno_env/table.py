"""One game at a table: what each action did, in words, and what each seat may see.

``Table`` plays one game (a batch-1 ``VecGame``) and turns every action into an ``Event``: who did what
and what it caused (cards drawn and how many, a challenge's outcome, a flip, a swap, a skip, a missed
UNO...).  The engine plays forced moves (a seat with one legal action; the notation (docs/notation.md),
"Decisions and forced moves") inside ``VecGame.step``; ``Table`` reports them too, marked ``forced``:
it listens to each call that moves its game (``VecGame(forced_moves="one_by_one")``, so that it hears of
each move before it is applied) and keeps a copy of the game before each action, so each action's effect
is the difference between two copies.

``Table.view(seat)`` is everything one seat may see (rules §1.10; ``uno_env.view.seat_view``): its own hand by
active faces, the others' hand sizes (and, in UNO Flip, the backs of their cards and of the draw pile's top
card), the public table.  The terminal game, the replay page and the web app draw that and nothing else, and
an event's words for a seat say only what that seat may know: the cards it may see (a drawn card to its drawer,
a challenged hand to the challenger), and nothing that hangs on a hand it may not see (whether a seat had a
legal play, whether the card it drew and kept could be played, whether it was offered a jump-in or holds a
Skip to pass on).  An event that tells a seat nothing has no words for it (``""``), and every screen skips
it.  A spectator (``viewer=None``) sees every card and is told everything; the screens that show that view
say it is omniscient.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .core.cards import (
    COLOR_NAMES,
    FLIP,
    REVERSE,
    SKIP,
    SKIP_EVERYONE,
)
from .core.game import VecGame
from .core.state import DEFLECT, DRAWN, JUMP, OVER, PENDING, TURN, State
from .render import plural, table_html
from .view import seat_view


class _Tape:
    """A listener (``core.settling.Listener``) that keeps a copy of the game before each action: the engine
    tells of an action just before applying it, so an action's effect is the difference between its copy
    and the next."""

    def __init__(self, state: State):
        self.state = state
        self.entries: list[tuple[int, int, State]] = []  # (seat, action, state before)

    def __call__(self, moves) -> None:
        for _, seat, action in moves:
            self.entries.append((int(seat), int(action), self.state.copy()))

    def clear(self) -> None:
        self.entries.clear()

    def drain(self) -> list[tuple[int, int, State]]:
        """``(seat, action, state before)`` of the actions since the last drain."""
        out, self.entries = self.entries, []
        return out


@dataclass
class Event:
    """One action (or a deal, or a round's end) and what it caused.

    ``kind`` is the action type (``play``, ``draw``... as in the action table) or ``deal``/``round_end``;
    ``seat`` the seat that acted (-1 for a deal); ``forced``: the engine played it (the seat had no other
    legal action).  ``text(viewer)`` says it in words for ``viewer`` (``None``: a spectator, who sees
    every card); ``""`` when it tells ``viewer`` nothing (another seat's hidden decision)."""

    index: int
    kind: str
    seat: int
    action: int
    name: str
    forced: bool
    round: int
    before: State = field(repr=False)
    after: State = field(repr=False)
    table: Table = field(repr=False)

    def text(self, viewer: int | None = None) -> str:
        return _Describe(self.table, self, viewer).text()

    def to_json(self, viewers=()) -> dict:
        """The event as the omniscient record (``text`` is the spectator's words; ``forced`` and ``action``
        are not public either); ``seen_by``: the words of each of ``viewers`` the event tells something."""
        out = {"index": self.index, "kind": self.kind, "seat": self.seat, "action": self.name,
               "forced": self.forced, "round": self.round, "text": self.text(None)}
        for v in viewers:
            if text := self.text(v):
                out.setdefault("seen_by", {})[str(v)] = text
        return out


class Table:
    """One game of ``rules`` with ``num_players`` seats, whose actions come back as ``Event``s.

    Args:
        names: a display name per seat (default ``player_0``...).
        record: a callable given each finished round as a ``records.GameRecord`` (for example a
            ``records.RecordWriter``'s ``write``), so ``uno play``/``uno watch`` games can be replayed.
        observation, memory: the layout of the game's observations and whether it keeps the table's memory,
            as for ``VecGame`` (the same defaults: v3, with the memory); ``uno_env.opponents.layout_for(names)``
            gives both for the agents at the table (v2 without the memory, the cheaper, for bots).
        seed, options: as for ``VecGame``.
    """

    def __init__(self, rules="standard_en", num_players: int = 4, seed=None, names=None, record=None,
                 observation: str = "v3", memory: bool | None = None, **options):
        # each forced move through the masks, so the tape copies the game before each
        self.game = VecGame(rules, num_players, batch_size=1, seed=seed, autoreset=False, observation=observation,
                            memory=memory, forced_moves="one_by_one", **options)
        e = self.engine = self.game.engine
        self.P = e.P
        self.names = list(names) if names is not None else [f"player_{p}" for p in range(self.P)]
        if len(self.names) != self.P:
            raise ValueError(f"names: one per seat ({self.P}), got {len(self.names)}")
        self.events: list[Event] = []  # this game's events, every round
        self._tape = _Tape(self.game.state)
        self._listeners: list = [self._tape]  # given every move before it is applied (``listen``)
        self.game.reset(seed, listener=self._hear)  # deal again, heard (the same deal): its forced moves show
        self.seed = int(self.game.state.seed[0])
        self._recorder = None
        if record is not None:  # each round one game record (docs/records.md), passed to ``record``
            from .records import Recorder
            self._recorder = Recorder(self.game, "round", agents=self.names, sink=record)
            self._recorder.begin(0, fresh=True)
        self._deal_events()

    @classmethod
    def from_position(cls, setup: dict, names=None, observation: str = "v3", memory: bool | None = None) -> Table:
        """A table in the position ``setup`` (the notation, docs/notation.md)."""
        from .core.notation import config_of
        rules, players = config_of(setup)
        table = cls(rules, players, seed=setup.get("seed", 0), names=names, observation=observation, memory=memory)
        table._tape.clear()
        table.game.load(setup, listener=table._hear)  # its forced moves: events after the deal's
        table.events.clear()
        table._deal_events()
        return table

    # ------------------------------------------------------------------ play
    def listen(self, listener) -> None:
        """Give ``listener`` (``core.settling.Listener``) every move of this table's game from now on, each
        before it is applied, as the table's own tape gets it: ``(row, seat, action id)`` tuples."""
        self._listeners.append(listener)

    def _hear(self, moves) -> None:
        moves = list(moves)
        for listener in self._listeners:
            listener(moves)

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def over(self) -> bool:
        return bool(self.state.phase[0] == OVER)

    @property
    def actor(self) -> int:
        """The seat asked now (-1 when the round is over)."""
        return -1 if self.over else int(self.state.actor[0])

    def legal(self) -> list[str]:
        return self.game.legal_actions(0)

    def step(self, action) -> list[Event]:
        """Apply ``action`` (an id or a name) for the seat asked; the events it caused, forced moves included."""
        a = self.game.action_index(action) if isinstance(action, str) else action
        if self._recorder is not None and not self.over:
            self._recorder.act(0, self.actor, a)
        self.game.step(np.array([a]), listener=self._hear)
        if self._recorder is not None and self.over:
            self._recorder.end(0)
        return self._collect()

    def next_round(self) -> list[Event]:
        """Deal the next round (a new game when the game is over)."""
        if not self.over:
            raise ValueError("the round is still in play; next_round deals once it is over")
        self.game.next_round(0, listener=self._hear)
        if self._recorder is not None:
            self._recorder.begin(0)
            if self.over:  # forced moves ended the round at its deal: a record with no decision
                self._recorder.end(0)
        return self._deal_events()

    def round_events(self) -> list[Event]:
        """The events of the round in play (or just over)."""
        r = self.events[-1].round if self.events else 0
        return [ev for ev in self.events if ev.round == r]

    def _deal_events(self) -> list[Event]:
        st = self.state
        deal_state = self._tape.entries[0][2] if self._tape.entries else st.copy()
        ev = self._event("deal", -1, -1, "deal", False, deal_state, deal_state)
        return [ev] + self._collect()

    def _event(self, kind, seat, action, name, forced, before, after) -> Event:
        rnd = (self.events[-1].round + (kind == "deal")) if self.events else 1
        ev = Event(len(self.events), kind, seat, action, name, forced, rnd, before, after, self)
        self.events.append(ev)
        return ev

    def _collect(self) -> list[Event]:
        entries = self._tape.drain()
        out = []
        names = self.engine.actions
        for i, (seat, a, before) in enumerate(entries):
            after = entries[i + 1][2] if i + 1 < len(entries) else self.state.copy()
            kind = "wrong_card" if a < 0 else ("play", "draw", "keep", "pass", "challenge", "accept", "uno",
                                                "catch", "choose")[int(names.kind[a])]
            # the first action of a step is the seat's choice; the rest are the engine's forced moves
            forced = i > 0 or int(before.nlegal[0]) == 1
            out.append(self._event(kind, seat, a, names.names[a] if a >= 0 else "wrong card", forced,
                                   before, after))
            if after.phase[0] == OVER and before.phase[0] != OVER:
                out.append(self._event("round_end", -1, -1, "round end", False, before, after))
        return out

    # ------------------------------------------------------------------ views
    def view(self, viewer: int | None = None, state: State | None = None) -> dict:
        """What ``viewer`` sees now (or in ``state``, a copy an event kept); see ``seat_view``."""
        return seat_view(self.game, viewer, self.names, state=state)

    def _repr_html_(self) -> str:
        return table_html(self.view(None), self.engine.deck)


def face_name(engine, f: int) -> str:
    return engine.deck.faces[f].name


# ====================================================================== events in words
class _Describe:
    """The words of one event for one viewer (``None``: a spectator)."""

    def __init__(self, table: Table, ev: Event, viewer: int | None):
        self.t, self.ev, self.viewer = table, ev, viewer
        self.e = table.engine
        self.b, self.a = ev.before, ev.after

    # names and verbs: "you draw" for the viewer's own seat, "bob draws" otherwise
    def who(self, p: int) -> str:
        return "you" if p == self.viewer else self.t.names[p]

    def whose(self, p: int) -> str:
        """The possessive: "your" for the viewer's own seat, "bob's" otherwise."""
        return "your" if p == self.viewer else f"{self.t.names[p]}'s"

    def say(self, p: int, verb: str, plain: str | None = None) -> str:
        if p == self.viewer:
            return f"you {plain or _BASE.get(verb, verb[:-1])}"
        return f"{self.t.names[p]} {verb}"

    def vb(self, p: int, third: str, base: str) -> str:
        """The verb alone, agreeing with seat ``p`` ("you take", "bob takes")."""
        return base if p == self.viewer else third

    def face(self, f: int) -> str:
        return face_name(self.e, int(f))

    def kinds_text(self, kinds, side: int) -> str:
        return " ".join(self.face(f) for f in sorted(int(self.e.KF[side, k]) for k in kinds))

    def gained(self, p: int) -> np.ndarray:
        d = self.a.hands[0, p].astype(int) - self.b.hands[0, p].astype(int)
        return np.repeat(np.arange(self.e.K), np.maximum(d, 0))

    def net(self, p: int) -> int:
        return int(self.a.hand_n[0, p]) - int(self.b.hand_n[0, p])

    def sees_cards_of(self, p: int) -> bool:
        return self.viewer is None or self.viewer == p

    def draws(self, p: int, n: int, why: str = "", verb=("draws", "draw")) -> str:
        """``bob draws 2 cards`` (the cards named to the drawer and to a spectator)."""
        if n <= 0:
            return self.say(p, *verb) + " nothing (no card left to draw)"
        text = self.say(p, *verb) + " " + plural(n, "card")
        if self.sees_cards_of(p):
            g = self.gained(p)
            if g.size == n:
                text += f": {self.kinds_text(g, int(self.a.side[0]))}"
        return text + (f" {why}" if why else "")

    # ------------------------------------------------------------------
    def text(self) -> str:
        ev = self.ev
        if ev.kind == "deal":
            return self.deal()
        if ev.kind == "round_end":
            return self.round_end()
        s, x = ev.seat, ev.action
        act = self.e.actions
        b, a = self.b, self.a
        parts: list[str] = []
        if ev.kind == "play":
            parts.append(self.play(s, x))
        elif ev.kind in ("draw", "accept"):
            n = self.net(s)
            if b.phase[0] == PENDING:
                verb = (("accepts the card and draws", "accept the card and draw") if ev.kind == "accept"
                        else ("takes the penalty and draws", "take the penalty and draw"))
                until = f"(until a {COLOR_NAMES[int(a.color[0])]} card)" if b.pending_color[0] else ""
                parts.append(self.draws(s, n, until, verb))
            else:  # whether the seat could have played, and the drawn card can be, hang on its hand
                nothing = ev.forced and b.phase[0] == TURN and self.sees_cards_of(s)
                verb = ("has nothing to play and draws", "have nothing to play and draw") if nothing else \
                    ("draws", "draw")
                text = self.draws(s, n, verb=verb)
                if a.phase[0] == DRAWN and int(a.actor[0]) == s and self.sees_cards_of(s):
                    text += ", which can be played"
                parts.append(text)
        elif ev.kind == "keep":  # only a playable drawn card is kept by a decision: its owner's secret
            parts.append(self.say(s, "keeps", "keep") + " the drawn card" if self.sees_cards_of(s) else "")
        elif ev.kind == "pass":
            ph = int(b.phase[0])
            if ph not in (JUMP, DEFLECT):
                parts.append(self.say(s, "passes", "pass"))
            elif self.sees_cards_of(s):  # only a seat holding the card is offered a jump-in or a deflection
                parts.append(self.say(s, *(("does not jump in", "do not jump in") if ph == JUMP else
                                           ("is skipped", "are skipped"))))
        elif ev.kind == "challenge":
            parts.append(self.challenge(s))
        elif ev.kind == "uno":
            parts.append(self.say(s, "calls", "call") + " UNO")
        elif ev.kind == "catch":
            t = int(act.target[x])
            parts.append(self.say(s, "catches", "catch") + f" {self.who(t)} without UNO: "
                         + self.draws(t, self.net(t)))
        elif ev.kind == "choose":
            parts.append(self.say(s, "chooses", "choose") + f" {COLOR_NAMES[int(act.color[x])]}")
        else:  # the wrong-card rule (rules §12.11)
            parts.append(self.say(s, "plays", "play") + " a wrong card and " + self.draws(s, self.net(s)))
        parts += self.others(s)
        if self.reshuffled():
            parts.append("the discard pile is shuffled into a new draw pile")
        text = "; ".join(p for p in parts if p)
        if ev.forced and ev.kind in ("pass", "draw", "accept", "keep", "play", "choose") and text \
                and "nothing to play" not in text and self.sees_cards_of(s):  # no other choice: a secret too
            text += " (forced)"
        return text

    def reshuffled(self) -> bool:
        """The discard pile went under the draw pile (rules §1.4): fewer discards than the action leaves."""
        expected = int(self.b.disc_n[0]) + (self.ev.kind == "play") - self.retracted()
        return int(self.a.disc_n[0]) < expected

    def retracted(self) -> bool:
        """A guilty challenge whose card goes back to the offender (``retract_and_draw_2``, rules §1.6)."""
        return bool(self.ev.kind == "challenge" and self.b.guilty[0]
                    and self.e.config.challenge_guilty == "retract_and_draw_2")

    def deal(self) -> str:
        st = self.a
        side = int(st.side[0])
        face = int(self.e.KF[side, int(st.discard[0, st.disc_n[0] - 1])])
        d = int(st.dealer[0])
        text = (f"round {int(st.rounds[0]) + 1}: {self.say(d, 'deals', 'deal')} "
                f"{plural(int(st.hand_n[0, 0]), 'card')} each; the first card is {self.face(face)}")
        fx = self.first_card(int(self.e.F_SYM[face]))
        return text + (": " + ", ".join(fx) if fx else "")

    def first_card(self, sym: int) -> list[str]:
        """What the first card did before anyone played (rules §3.3, the first discard): the direction it
        reversed, the seat it skipped (or that may pass the skip on); its draws and colour choices are events of
        their own."""
        st, fx = self.a, []
        turn, step = int(st.turn_seat[0]), int(st.direction[0])
        if step < 0:
            fx.append(f"the direction reverses: {self.say(turn, 'plays', 'play')} first")
        if sym == SKIP:
            if st.phase[0] == DEFLECT:  # the seat it skips holds a Skip and may pass it on (stack_skip)
                fx.append(f"{self.who(int(st.actor[0]))} may pass the skip on")
            else:
                fx.append(self.say((turn - step) % self.t.P, "is", "are") + " skipped")
        return fx

    def play(self, s: int, x: int) -> str:
        e, b, a = self.e, self.b, self.a
        act = e.actions
        f = int(act.face[x])
        sym = int(e.F_SYM[f])
        ph = int(b.phase[0])
        verb = {JUMP: ("jumps in with", "jump in with"), DEFLECT: ("passes the skip on with", "pass the skip on with"),
                PENDING: ("stacks", "stack")}.get(ph, ("plays", "play"))
        text = self.say(s, *verb) + f" {self.face(f)}"
        if ph == DRAWN:
            text += " (the card drawn)"
        col = int(act.color[x])
        if e.F_WILD[f] and col >= 0:
            text += f" and {self.vb(s, 'chooses', 'choose')} {COLOR_NAMES[col]}"
        t = int(act.target[x])
        fx = []
        P = self.t.P
        if a.phase[0] == OVER:
            return text
        if t >= 0:
            fx.append(f"{self.who(s)} and {self.who(t)} swap hands")
        elif e.F_ROTATE[f]:
            fx.append("every hand passes to the next seat")
        if a.side[0] != b.side[0]:
            top = self.face(int(e.KF[int(a.side[0]), int(a.discard[0, a.disc_n[0] - 1])]))
            fx.append(f"everything flips to the {'dark' if a.side[0] else 'light'} side: the top card is now {top}")
        if a.direction[0] != b.direction[0]:
            fx.append("the direction reverses")
        nxt = (s + int(a.direction[0])) % P
        if sym == SKIP and e.config.stack_skip:  # the victim is asked only when it holds a Skip
            deflect = a.phase[0] == DEFLECT or (a.phase[0] == JUMP and a.resume[0] == DEFLECT)
            if not self.sees_cards_of(nxt):
                fx.append(f"the skip goes to {self.who(nxt)}, who may pass it on")
            elif deflect:
                fx.append(f"{self.who(nxt)} may pass the skip on")
            else:
                fx.append(self.say(nxt, "is", "are") + " skipped")
        elif sym == SKIP or (sym == REVERSE and P == 2 and int(a.turn_seat[0]) == s):
            fx.append(self.say(nxt, "is", "are") + " skipped")
        if sym == SKIP_EVERYONE:
            fx.append(f"everyone else is skipped: {self.who(s)} {'go' if s == self.viewer else 'goes'} again")
        if a.pending[0] > 0 or a.pending_color[0]:
            v = int(a.actor[0]) if a.phase[0] == PENDING else int(a.turn_seat[0])
            owe = plural(int(a.pending[0]), "card")
            if a.pending_color[0]:
                owe = (f"{owe} and " if a.pending[0] else "") + f"cards until {COLOR_NAMES[int(a.color[0])]}"
            fx.append(f"{self.who(v)} must draw {owe}")
        n = int(a.hand_n[0, s])
        if n == 1 and t < 0 and not e.F_ROTATE[f]:
            fx.append("one card left and no UNO called!" if a.vulnerable[0, s] else "one card left (UNO called)")
        if sym == FLIP and a.side[0] == b.side[0]:
            fx.append("no flip")
        return text + (": " + ", ".join(fx) if fx else "")

    def challenge(self, s: int) -> str:
        e, b = self.e, self.b
        o = int(b.origin[0])
        side = int(b.side[0])
        top = self.face(int(e.KF[side, int(b.discard[0, b.disc_n[0] - 1])]))
        text = self.say(s, "challenges", "challenge") + f" {self.whose(o)} {top}"
        if self.viewer is None or self.viewer == s:  # the hand is shown to the challenger only (rules §1.6)
            hand = np.repeat(np.arange(e.K), b.hands[0, o])
            shown = self.kinds_text(hand, side) or "no cards"
            text += f" ({self.who(o)} {'show' if o == self.viewer else 'shows'}: {shown})"
        if b.guilty[0]:
            text += f": guilty, {self.who(o)} {'were' if o == self.viewer else 'was'} bluffing; "
            retracted = self.retracted()
            text += self.draws(o, self.net(o) - int(retracted), "as a penalty")
            if retracted:
                text += f" and the card goes back to {self.whose(o)} hand"
        else:
            lose = f"and {self.vb(s, 'loses', 'lose')} the turn"
            text += ": innocent, the card was legal; " + self.draws(s, self.net(s), lose)
        return text

    def others(self, s: int) -> list[str]:
        """Cards other seats drew during the action: UNO penalties applied automatically (rules §6.4),
        the going-out card's draw (rules §1.9)."""
        ev, act = self.ev, self.e.actions
        if ev.kind == "play" and (act.target[ev.action] >= 0 or self.e.F_ROTATE[act.face[ev.action]]):
            return []  # hands changed places
        skip = {s}
        if ev.kind == "catch":
            skip.add(int(act.target[ev.action]))
        if ev.kind == "challenge":
            skip.add(int(self.b.origin[0]))
        out = []
        for p in range(self.t.P):
            n = self.net(p)
            if p in skip or n <= 0:
                continue
            if self.b.vulnerable[0, p] and not self.a.vulnerable[0, p]:
                out.append(self.draws(p, n, "for not calling UNO"))
            else:
                out.append(self.draws(p, n))
        return out

    def round_end(self) -> str:
        e, b, a = self.e, self.b, self.a
        w = int(a.winner[0])
        delta = a.scores[0].astype(int) - b.scores[0].astype(int)
        mode = e.config.scoring_mode
        if w < 0:
            head = "the round is void: nobody scores"
        elif a.truncated[0]:
            head = (f"round stopped at the turn cap ({e.config.max_turns_per_round} actions) with nobody out; "
                    f"{self.say(w, 'has', 'have')} the lowest hand and {self.vb(w, 'takes', 'take')} the round")
        elif int(a.hand_n[0, w]) > 0:
            head = (f"the round is blocked (nobody can play or draw); {self.say(w, 'has', 'have')} the lowest "
                    f"hand and {self.vb(w, 'takes', 'take')} the round")
        else:
            head = f"{self.say(w, 'goes', 'go')} out and {self.vb(w, 'wins', 'win')} the round"
        if w >= 0:
            if mode == "penalty_countdown":
                losses = ", ".join(f"{self.who(p)} {int(delta[p])}" for p in range(self.t.P) if delta[p])
                head += f"; the others lose their hands' points: {losses or 'nothing'}"
            elif mode == "cumulative_low":
                adds = ", ".join(f"{self.who(p)} +{int(delta[p])}" for p in range(self.t.P) if delta[p])
                head += f"; each adds their hand's points: {adds or 'nothing'}"
            elif mode == "plus_minus":
                head += "; " + ", ".join(f"{self.who(p)} {int(delta[p]):+d}" for p in range(self.t.P))
            else:
                head += f": {plural(int(a.round_points[0]), 'point')} (the others' hands)"
        if a.game_over[0]:
            win = np.flatnonzero(e.game_winners(a, np.array([0]))[0])
            head += "; game over: " + " and ".join(self.who(int(p)) for p in win) + \
                (" win" if len(win) > 1 or (len(win) == 1 and int(win[0]) == self.viewer) else " wins") + " the game"
        return head


_BASE = {"draws": "draw", "passes": "pass", "catches": "catch", "is": "are", "has": "have", "goes": "go",
         "takes": "take", "accepts": "accept"}

__all__ = ["Event", "Table", "face_name"]

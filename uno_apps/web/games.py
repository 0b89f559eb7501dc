"""The tables of ``uno serve``: seats with tokens, shared agents at the bots' seats, a cap on live games.

A game's id and every seat's token come from ``secrets``; whoever holds a seat's token plays that seat and
sees what it may see (``Table.view``), the spectator token sees what every seat sees (``words.public_view``).
``turn`` counts the changes to a table, and an action names the turn it answers: a repeated or stale request
is refused and changes nothing.  Unseeded games are dealt from ``numpy.random.SeedSequence()`` (128 bits of
the system's entropy), so a hand cannot be searched back to the deal; a chosen seed reveals the deal, and
the game says so.  Memory is bounded: at most ``max_games`` games (finished, then idle ones, give way to a
new one; with none to spare a new game is refused with 503), each keeping the words of its latest
``LOG_EVENTS`` events rather than the copies of the game ``Table`` keeps per event.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import secrets
import threading
import time
from collections import deque

import numpy as np

from uno_env.core.config import PRESETS
from uno_env.table import Table

from .words import PUBLIC, moves, public_view

MAX_GAMES = 100  # live games; about 1 MB each (tests/test_web.py measures the bound)
IDLE_S = 30 * 60  # a game nobody has asked about for this long may give way to a new one
CONNECTED_S = 10.0  # a seat that asked within this many seconds shows as connected (the page polls each second)
LOG_EVENTS = 200  # the events whose words a game keeps
MAX_SEED = 2**63 - 1  # the core keys a game's random stream with a 64-bit integer
MIN_PLAYERS, MAX_PLAYERS = 2, 10
HUMAN = "human"  # an opponent that is a person, who joins by a link
NEW_FIELDS = ("rules", "players", "opponents", "seat", "seed")


class ApiError(Exception):
    """A request that cannot be served: its HTTP status and a message for the person who sent it."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def short(value, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error names what was sent without echoing all of it."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past the digit limit, or deep nesting
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def unknown_fields(body: dict, fields) -> None:
    extra = sorted(k for k in body if k not in fields)
    if extra:
        shown = ", ".join(short(k, 24) for k in extra[:3]) + (f" and {len(extra) - 3} more" if len(extra) > 3 else "")
        raise ApiError(400, f"unknown field(s) {shown}; the fields are {', '.join(fields)}")


def integer(body: dict, field: str, low: int, high: int, default=None):
    """``body[field]``, an integer from ``low`` to ``high`` (``default`` when absent)."""
    if field not in body:
        return default
    value = body[field]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"'{field}' must be an integer from {low} to {high}; got {short(value)}")
    return value


# ---------------------------------------------------------------------- agents
def _trained_agents_usable() -> bool:
    return importlib.util.find_spec("sb3_contrib") is not None


@functools.cache
def misfit(name: str, rules: str, players: int) -> str | None:
    """Why agent ``name`` cannot play ``rules`` with ``players`` seats (``None``: it can), from its metadata
    alone: the checks ``agents.load`` makes (``agents.policy.check_compatible``), without loading PyTorch."""
    import agents
    from agents.policy import check_compatible
    from uno_env import VecGame
    kind, path = agents.locate(name)
    if kind == "bot":
        return None
    if not _trained_agents_usable():
        return f"{name} needs PyTorch and sb3-contrib (pip install 'uno-env[train]')"
    try:
        meta = json.loads(path.read_text())
        check_compatible(meta, VecGame(rules, players, batch_size=1, observation=agents.layout_of(meta) or "v2"),
                         name)
    except (OSError, ValueError, KeyError, TypeError) as exc:  # ModelMismatchError is a ValueError
        return str(exc)
    return None


def fits(name: str) -> dict[str, list[int]]:
    """The player counts ``name`` can play, by preset."""
    return {r: [p for p in range(MIN_PLAYERS, MAX_PLAYERS + 1) if misfit(name, r, p) is None] for r in PRESETS}


_AGENTS: dict[tuple, object] = {}
_AGENTS_LOCK = threading.Lock()


def shared_agent(name: str, rules: str, players: int, layout: str):
    """The one agent ``name`` of this process for games of ``rules`` with ``players`` seats observed in
    ``layout``: a trained agent's weights load once, and every game at that table shape shares it (agents
    keep no state between decisions; each game passes its own random generator)."""
    key = (name, rules, players, layout)
    with _AGENTS_LOCK:
        agent = _AGENTS.get(key)
        if agent is None:
            import agents
            from uno_env import VecGame
            try:
                agent = agents.load(name, game=VecGame(rules, players, batch_size=1, observation=layout))
            except (ImportError, OSError, ValueError) as exc:
                raise ApiError(503, f"the agent {name} could not be loaded here: {type(exc).__name__}: "
                                    f"{short(str(exc), 200)}") from None
            _AGENTS[key] = agent
    return agent


def new_game_spec(body: dict) -> dict:
    """The arguments of ``Game`` from a request's body, every field checked (``ApiError`` 400 says which)."""
    import agents
    unknown_fields(body, NEW_FIELDS)
    rules = body.get("rules", "standard_en")
    if not isinstance(rules, str) or rules not in PRESETS:
        raise ApiError(400, f"'rules' must be one of {', '.join(PRESETS)}; got {short(rules)}")
    players = integer(body, "players", MIN_PLAYERS, MAX_PLAYERS, 4)
    seat = integer(body, "seat", 0, players - 1, 0)
    seed = body.get("seed")
    if seed is not None:
        seed = integer(body, "seed", 0, MAX_SEED)
    opp = body.get("opponents", ",".join(["random"] * (players - 1)))
    if isinstance(opp, str):
        names = [n.strip() for n in opp.split(",") if n.strip()]
    elif isinstance(opp, list):
        names = opp
    else:
        raise ApiError(400, f"'opponents' must be a list of names, or one string of names joined by commas; "
                            f"got {short(opp)}")
    if len(names) != players - 1:
        raise ApiError(400, f"'opponents' must name one agent (or '{HUMAN}') per other seat: {players - 1} for "
                            f"{players} players; got {len(names)}")
    allowed = agents.available()
    for n in names:
        if not isinstance(n, str) or (n != HUMAN and n not in allowed):
            raise ApiError(400, f"'opponents' holds {short(n)}, which is no agent; they are {HUMAN} (a person, "
                                f"who joins by a link), {', '.join(allowed)}")
        why = None if n == HUMAN else misfit(n, rules, players)
        if why:
            where = "; ".join(f"{r} with {' or '.join(map(str, ps))} players" for r, ps in fits(n).items() if ps)
            raise ApiError(400, f"'opponents': {n} cannot play {rules} with {players} players ({why}); it plays "
                                f"{where or 'nothing here'}")
    return {"rules": rules, "players": players, "seats": names[:seat] + [HUMAN] + names[seat:], "owner": seat,
            "seed": seed}


# ---------------------------------------------------------------------- one game
class Game:
    """One table: a ``Table``, a token per person's seat and one for spectators, a shared agent at each
    other seat; ``owner`` (the seat that made it) also gets the join links."""

    def __init__(self, gid: str, rules: str, players: int, seats: list[str], owner: int, seed: int | None,
                 now: float):
        import agents
        self.id, self.rules, self.seats, self.owner, self.seed = gid, rules, seats, owner, seed
        self.humans = [p for p, s in enumerate(seats) if s == HUMAN]
        self.tokens = {p: secrets.token_urlsafe(16) for p in self.humans}
        self.spectator = secrets.token_urlsafe(16)
        bots = [s for s in seats if s != HUMAN]
        layout = agents.observation_for(bots) if bots else "v2"
        self.bots = {p: shared_agent(s, rules, players, layout) for p, s in enumerate(seats) if s != HUMAN}
        entropy = np.random.SeedSequence(seed)  # None: 128 bits from the system
        deal = seed if seed is not None else int(entropy.generate_state(1, np.uint64)[0] >> np.uint64(1))
        self.rng = np.random.default_rng(entropy.spawn(1)[0])  # the bots' choices
        names = [f"player_{p}" if s == HUMAN else f"{s}_{p}" for p, s in enumerate(seats)]
        self.table = Table(rules, players, seed=deal, names=names, observation=layout)
        self.lock = threading.Lock()
        self.turn = 1
        self.log: deque[dict] = deque(maxlen=LOG_EVENTS)
        self.touched = now
        self.seen: dict[int, float] = {owner: now}
        self._record(self.table.events)
        self._play_bots()

    # ------------------------------------------------------------------ who asks
    def viewer_of(self, token: str | None) -> int:
        """The seat ``token`` opens (``PUBLIC`` for the spectator token)."""
        if not token:
            raise ApiError(401, "this game needs a seat's token or the spectator token: send the header "
                                "'Authorization: Bearer TOKEN' (the token is the end of a join link)")
        given = token.encode("latin-1", "replace")
        for p, tok in self.tokens.items():
            if secrets.compare_digest(tok.encode(), given):
                return p
        if secrets.compare_digest(self.spectator.encode(), given):
            return PUBLIC
        raise ApiError(403, f"the token {short(token, 12)} opens no seat of this game")

    # ------------------------------------------------------------------ play
    @property
    def game_over(self) -> bool:
        return self.table.over and bool(self.table.state.game_over[0])

    def _record(self, events) -> None:
        """Keep each event's words for every person's seat and the public, then let go of the game copies
        the events hold (``Table`` needs only its last event, for the round's number)."""
        viewers = self.humans + [PUBLIC]
        for ev in events:
            self.log.append({"kind": ev.kind, "seat": ev.seat, "round": ev.round,
                             "text": {v: ev.text(v) for v in viewers}})
        del self.table.events[:-1]

    def _play_bots(self) -> None:
        t = self.table
        while not t.over and t.actor in self.bots:
            seat = t.actor
            obs = t.game.observe(seats=[seat], rows=[0])
            self._record(t.step(int(self.bots[seat].act(obs, t.state.mask[:1], rng=self.rng)[0])))

    def _check_turn(self, turn) -> None:
        if turn is not None and turn != self.turn:
            raise ApiError(409, f"'turn' {short(turn)} is not the turn in play ({self.turn}): the table has "
                                f"moved on since (a repeated or late request); nothing was done")

    def act(self, seat: int, action: str, turn: int) -> None:
        with self.lock:
            self._check_turn(turn)
            t = self.table
            if t.over:
                raise ApiError(409, self._over_text())
            if t.actor != seat:
                raise ApiError(409, f"it is not your turn: {t.names[t.actor]} is asked")
            legal = t.legal()
            if action not in legal:
                raise ApiError(400, f"'action' {short(action)} is not one of your moves; they are: "
                                    f"{', '.join(legal)}")
            self._record(t.step(action))
            self._play_bots()
            self.turn += 1

    def next_round(self, turn: int | None, new_game: bool) -> None:
        with self.lock:
            self._check_turn(turn)
            if not self.table.over:
                raise ApiError(409, "the round is still in play")
            if self.game_over and not new_game:
                raise ApiError(409, self._over_text())
            if new_game and not self.game_over:
                raise ApiError(409, "the game is not over: 'new_game' starts a new game only once this one "
                                    "is over; without it .../next deals the next round")
            self._record(self.table.next_round())
            self._play_bots()
            self.turn += 1

    def _over_text(self) -> str:
        if self.game_over:
            return ('the game is over: POST .../next with {"new_game": true} starts a new one (scores from '
                    'zero)')
        return "the round is over: POST .../next deals the next one"

    def close(self) -> None:
        """Let go of the last event, which points back at the table: the game is freed at once when it
        leaves ``Games``, not at the garbage collector's next full pass."""
        with self.lock:
            self.table.events.clear()

    # ------------------------------------------------------------------ what a viewer gets
    def people(self, now: float) -> list[dict]:
        return [{"seat": p, "name": self.table.names[p], "human": s == HUMAN, "agent": None if s == HUMAN else s,
                 "joined": p in self.seen, "connected": now - self.seen.get(p, -1e18) < CONNECTED_S}
                for p, s in enumerate(self.seats)]

    def links(self) -> dict:
        """The join link of each other person's seat and the spectator link (paths; the token travels after
        ``#``, so it is never sent to a server or in a Referer)."""
        return {"seats": [{"seat": p, "name": self.table.names[p], "link": f"/#game={self.id}&token={self.tokens[p]}"}
                          for p in self.humans if p != self.owner],
                "spectator": f"/#game={self.id}&token={self.spectator}"}

    def state(self, viewer: int, now: float) -> dict:
        """The table as ``viewer`` (a seat, or ``PUBLIC``) may see it, with its words and moves."""
        with self.lock:  # not while an action changes the table
            return self._state(viewer, now)

    def _state(self, viewer: int, now: float) -> dict:
        t = self.table
        view = public_view(t) if viewer == PUBLIC else t.view(viewer)
        scores = [s["score"] for s in view["seats"]]
        low = t.engine.config.scoring_mode == "cumulative_low"
        order = sorted(range(t.P), key=lambda p: scores[p] if low else -scores[p])
        rnd = self.log[-1]["round"] if self.log else 0
        out = {"id": self.id, "seat": None if viewer == PUBLIC else viewer, "turn": self.turn, "view": view,
               "events": [{"kind": e["kind"], "seat": e["seat"], "text": e["text"][viewer]}
                          for e in self.log if e["round"] == rnd and e["text"][viewer]],  # "": nothing to tell
               "moves": [] if viewer == PUBLIC else moves(t, viewer),
               "standings": [{"seat": p, "name": t.names[p], "score": scores[p]} for p in order],
               "people": self.people(now), "faces_url": f"/api/faces/{self.rules}", "seeded": self.seed is not None}
        if self.seed is not None:
            out["seed_note"] = ("this game was dealt from a seed chosen when it was made: whoever knows the seed "
                                "can compute every hand and the whole draw pile")
        if viewer == self.owner:
            out.update(token=self.tokens[viewer], links=self.links())
            if self.seed is not None:
                out["seed"] = self.seed
        return out


# ---------------------------------------------------------------------- the games
class Games:
    """The live games, by id: at most ``max_games``; when full, a new game takes the place of a finished
    one, else of one nobody asked about for ``idle_s`` seconds (the least recent first), else it is
    refused (503).  ``clock`` is injectable so that tests need not wait."""

    def __init__(self, max_games: int = MAX_GAMES, idle_s: float = IDLE_S, clock=time.monotonic):
        self.games: dict[str, Game] = {}
        self.max_games, self.idle_s, self.clock = max_games, idle_s, clock
        self.lock = threading.Lock()
        self.building = 0  # games being dealt, which hold their place

    def create(self, body: dict) -> Game:
        spec = new_game_spec(body)
        now = self.clock()
        with self.lock:
            self._make_room(now)
            self.building += 1
        try:
            game = Game(secrets.token_urlsafe(16), **spec, now=now)
        except BaseException:
            with self.lock:
                self.building -= 1
            raise
        with self.lock:  # its place was held: no room to make
            self.building -= 1
            self.games[game.id] = game
        return game

    def _make_room(self, now: float) -> None:
        while len(self.games) + self.building >= self.max_games:
            finished = [g for g in self.games.values() if g.game_over]
            pool = finished or [g for g in self.games.values() if now - g.touched >= self.idle_s]
            if not pool:
                raise ApiError(503, f"the server is full: {self.max_games} games are in play and none is finished "
                                    f"or idle for {self.idle_s / 60:g} minutes; try again later")
            self.games.pop(min(pool, key=lambda g: g.touched).id).close()

    def find(self, gid: str, token: str | None) -> tuple[Game, int]:
        """The game ``gid`` and the seat ``token`` opens in it (``PUBLIC``: the spectator's)."""
        game = self.games.get(gid)
        if game is None:
            raise ApiError(404, f"no game {short(gid, 30)}: it ended, never was, or made room for newer games "
                                f"(finished and idle games do when the server is full)")
        viewer = game.viewer_of(token)
        now = self.clock()
        game.touched = now
        if viewer != PUBLIC:
            game.seen[viewer] = now
        return game, viewer

    def end(self, game: Game) -> None:
        with self.lock:
            self.games.pop(game.id, None)
        game.close()


__all__ = ["HUMAN", "MAX_GAMES", "ApiError", "Game", "Games", "fits", "misfit", "new_game_spec", "shared_agent",
           "short"]

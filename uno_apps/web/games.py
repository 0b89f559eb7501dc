"""The tables of ``uno serve``: seats with tokens, shared agents at the bots' seats, a cap on live games.

A game's id and every seat's token come from ``secrets``; whoever holds a seat's token plays that seat and
sees what it may see (``Table.view``), the spectator token sees what every seat sees (``words.public_view``).
Each viewer's state is computed as that viewer sees the game, and only from what it may know: a decision of
another seat that only a hidden hand explains (a playable card just drawn, a jump-in, a Skip to pass on)
shows as if already declined, the seat the table then sees asked is offered the moves it would have, and a
move it sends before the table is ready gets a 409 that names nobody.  ``turn`` is a tag of the state as
the viewer sees it (a hash of it), so it changes exactly when that state does: a poll or an action names
the tag it answers, and a repeated or stale action is refused and changes nothing.

Deals: a game is dealt from ``numpy.random.SeedSequence()`` (128 bits of the system's entropy), so a hand
cannot be searched back to the deal; a chosen seed (which reveals the deal to whoever knows it) is taken
only for a table of its maker and agents, never where another person sits.

Memory is bounded: at most ``max_games`` games.  A new game takes the place of a finished one, else of one
no person has moved in for ``unplayed_s`` (a few minutes) or, once played, for ``idle_s``; polls, a
spectator's or a seat's, are no activity.  One creator (a client address) holds at most ``per_creator``
games in play, its own unplayed games giving way first.  A refusal says when to try again (``Retry-After``).
Each game keeps the words of its latest ``LOG_EVENTS`` events per viewer rather than the copies of the game
``Table`` keeps per event.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import math
import secrets
import threading
import time
from collections import deque

import numpy as np

from uno_env import VecGame, opponents
from uno_env.core.config import PRESETS
from uno_env.core.state import DEFLECT, DRAWN, JUMP, OVER, State
from uno_env.table import Table

from .words import PUBLIC, goal_words, moves, public_view

MAX_GAMES = 100  # live games; about 1 MB each (tests/test_web.py measures the bound)
UNPLAYED_S = 5 * 60  # a game no person has moved in for this long may give way to a new one
IDLE_S = 30 * 60  # a game played in, but not for this long, may give way to a new one
PER_CREATOR = 10  # games in play made from one client address
CONNECTED_S = 10.0  # a seat that asked within this many seconds shows as connected (the page polls each second)
LOG_EVENTS = 200  # the events whose words a game keeps, per viewer
MAX_SEED = 2**63 - 1  # the core keys a game's random stream with a 64-bit integer
MIN_PLAYERS, MAX_PLAYERS = 2, 10
MAX_NAME = 24  # characters in a person's name
HUMAN = "human"  # an opponent that is a person, who joins by a link
NEW_FIELDS = ("rules", "players", "opponents", "seat", "seed", "name")
WAIT = "wait: the table is not ready for your move"  # a move sent during another seat's hidden decision


class ApiError(Exception):
    """A request that cannot be served: its HTTP status, a message for the person who sent it, and any
    headers to send with it (``Retry-After``)."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers


def retry_after(seconds: float) -> dict:
    return {"Retry-After": str(max(1, math.ceil(seconds)))}


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


def person_name(value) -> str:
    """A name a person typed, checked: 1 to ``MAX_NAME`` printable characters (spaces around dropped)."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_NAME \
            or not value.strip().isprintable():
        raise ApiError(400, f"'name' must be 1 to {MAX_NAME} printable characters; got {short(value)}")
    return value.strip()


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
    name = person_name(body["name"]) if body.get("name") is not None else None
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
    if seed is not None and HUMAN in names:
        raise ApiError(400, "'seed' is taken only at a table of you and agents: whoever knows a seed can compute "
                            "every hand, so a table with other people is dealt from fresh entropy; leave 'seed' out")
    spec = {"rules": rules, "players": players, "seats": names[:seat] + [HUMAN] + names[seat:], "owner": seat,
            "seed": seed}
    if name is not None:
        spec["name"] = name
    return spec


# ---------------------------------------------------------------------- what a seat not asked would be offered
_SCRATCH: dict[tuple, tuple[threading.Lock, VecGame]] = {}
_SCRATCH_LOCK = threading.Lock()


def _scratch(game: VecGame) -> tuple[threading.Lock, VecGame]:
    """A game of the same rules, seats and layout as ``game``, to try moves on a copy of its state."""
    key = (game.rules, game.num_players, game.observer.version)
    with _SCRATCH_LOCK:
        if key not in _SCRATCH:
            # each forced move through ``apply``, heard by the listener
            g = VecGame(game.rules, game.num_players, batch_size=1, autoreset=False, observation=key[2],
                        forced_moves="one_by_one")
            _SCRATCH[key] = threading.Lock(), g
        return _SCRATCH[key]


class _FirstMoveOf:
    """A listener (``core.settling.Listener``) that keeps a copy of the game just before ``seat``'s first action:
    the mask then is that seat's, refreshed, even when the action was forced (its only legal move)."""

    def __init__(self, state: State, seat: int):
        self.state, self.seat, self.before = state, seat, None

    def __call__(self, entries) -> None:
        for entry in entries:
            if self.before is None and int(entry[1]) == self.seat:
                self.before = self.state.copy()


def offered_moves(table: Table, seat: int) -> list[dict]:
    """The moves of ``seat`` where the table shows it asked but another seat has a decision that only a
    hidden hand explains: the moves it has once that decision is declined (the drawn card kept, the jump-in
    or the Skip let go by), as the state would offer them; ``[]`` if the round would end first."""
    st = table.state
    if st.phase[0] == OVER or int(st.actor[0]) == seat:
        return []
    lock, scratch = _scratch(table.game)
    with lock:
        e = scratch.engine
        scratch.state = st.copy()
        watch = _FirstMoveOf(scratch.state, seat)
        for _ in range(table.P + 2):
            now = scratch.state
            phase, actor = int(now.phase[0]), int(now.actor[0])
            if phase == OVER or actor == seat or watch.before is not None:
                break
            decline = e.actions.index["keep" if phase == DRAWN else "pass"]
            if phase not in (DRAWN, JUMP, DEFLECT) or not now.mask[0, decline]:
                return []
            scratch.step(np.array([decline]), listener=watch)
        at = watch.before if watch.before is not None else scratch.state
        return moves(table, seat, at)


def tag_of(data) -> int:
    """A 52-bit tag of ``data`` (JSON): equal states, equal tags; a JavaScript number holds it exactly."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big") >> 12


# ---------------------------------------------------------------------- one game
class Game:
    """One table: a ``Table``, a token per person's seat and one for spectators, a shared agent at each
    other seat; ``owner`` (the seat that made it) also gets the join links.  ``creator``: the client address
    that made it; ``entropy``: the deal's (``None``: 128 bits from the system; a chosen ``seed`` deals
    directly)."""

    def __init__(self, gid: str, rules: str, players: int, seats: list[str], owner: int, seed: int | None,
                 now: float, name: str | None = None, creator: str = "", entropy: int | None = None):
        self.id, self.rules, self.seats, self.owner, self.seed = gid, rules, seats, owner, seed
        self.creator = creator
        self.humans = [p for p, s in enumerate(seats) if s == HUMAN]
        self.tokens = {p: secrets.token_urlsafe(16) for p in self.humans}
        self.spectator = secrets.token_urlsafe(16)
        bots = [s for s in seats if s != HUMAN]
        layout = opponents.layout_for(bots)  # people only: v2 without the memory
        self.bots = {p: shared_agent(s, rules, players, layout["observation"]) for p, s in enumerate(seats)
                     if s != HUMAN}
        root = np.random.SeedSequence(seed if seed is not None else entropy)  # None: 128 bits from the system
        deal = seed if seed is not None else int(root.generate_state(1, np.uint64)[0] >> np.uint64(1))
        self.rng = np.random.default_rng(root.spawn(1)[0])  # the bots' choices
        names = [f"player_{p}" if s == HUMAN else f"{s}_{p}" for p, s in enumerate(seats)]
        if name is not None:
            names[owner] = name
        self.table = self._table(rules, players, deal, names, layout)
        self.lock = threading.Lock()
        self.logs: dict[int, deque] = {v: deque(maxlen=LOG_EVENTS) for v in self.humans + [PUBLIC]}
        self.round = 0
        self.changes = 0  # how often the table changed: a viewer's cached state is of one of them
        self._cache: dict[int, tuple[int, dict]] = {}
        self.touched, self.played = now, False  # the last move by a person (or the making), and whether any
        self.seen: dict[int, float] = {owner: now}
        self._record(self.table.events)
        self._play_bots()

    @staticmethod
    def _table(rules, players, deal, names, layout: dict) -> Table:
        return Table(rules, players, seed=deal, names=names, **layout)

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
        """Keep each event's words for every person's seat and the public (those it tells something), then let
        go of the game copies the events hold (``Table`` needs only its last event, for the round's number)."""
        for ev in events:
            self.round = ev.round
            for v, log in self.logs.items():
                if text := ev.text(v):  # "": nothing to tell this viewer
                    log.append({"kind": ev.kind, "seat": ev.seat, "round": ev.round, "text": text})
        del self.table.events[:-1]
        self.changes += 1

    def _play_bots(self) -> None:
        t = self.table
        while not t.over and t.actor in self.bots:
            seat = t.actor
            obs = t.game.observe(seats=[seat], rows=[0])
            self._record(t.step(int(self.bots[seat].act(obs, t.state.mask[:1], rng=self.rng)[0])))

    def _check_turn(self, seat: int, turn) -> dict:
        """``seat``'s state, if ``turn`` is its tag (409 otherwise)."""
        mine = self._seen_by(seat)
        if turn is not None and turn != mine["turn"]:
            raise ApiError(409, f"'turn' {short(turn)} is not the state in play ({mine['turn']}): the table has "
                                f"moved on since (a repeated or late request); nothing was done")
        return mine

    def _moved(self, now: float) -> None:
        self.touched, self.played = now, True

    def act(self, seat: int, action: str, turn: int, now: float = 0.0) -> None:
        with self.lock:
            mine = self._check_turn(seat, turn)
            t = self.table
            if t.over:
                raise ApiError(409, self._over_text())
            offered = [m["action"] for m in mine["moves"]]
            if action not in offered:
                if not offered:
                    raise ApiError(409, f"it is not your turn: {t.names[mine['view']['actor']]} is asked")
                raise ApiError(400, f"'action' {short(action)} is not one of your moves; they are: "
                                    f"{', '.join(offered)}")
            if t.actor != seat:  # offered as the table shows it, but another seat's hidden decision comes first
                raise ApiError(409, WAIT)
            self._record(t.step(action))
            self._play_bots()
            self._moved(now)

    def next_round(self, seat: int, turn: int | None, new_game: bool, now: float = 0.0) -> None:
        with self.lock:
            self._check_turn(seat, turn)
            if not self.table.over:
                raise ApiError(409, "the round is still in play")
            if self.game_over and not new_game:
                raise ApiError(409, self._over_text())
            if new_game and not self.game_over:
                raise ApiError(409, "the game is not over: 'new_game' starts a new game only once this one "
                                    "is over; without it .../next deals the next round")
            self._record(self.table.next_round())
            self._play_bots()
            self._moved(now)

    def rename(self, seat: int, name, now: float = 0.0) -> None:
        """``seat`` (a person's) takes the name ``name``: not another seat's, nor "you"."""
        name = person_name(name)
        with self.lock:
            taken = {n.casefold() for p, n in enumerate(self.table.names) if p != seat} | {"you"}
            if name.casefold() in taken:
                raise ApiError(409, f"the name {short(name, 30)} is taken at this table; choose another")
            if name != self.table.names[seat]:
                self.table.names[seat] = name
                self.changes += 1
            self.touched = now

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
            self._cache.clear()

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
        """The table as ``viewer`` (a seat, or ``PUBLIC``) may see it, with its words, moves and who is here."""
        with self.lock:  # not while an action changes the table
            return {**self._seen_by(viewer), "people": self.people(now)}

    def turn_of(self, viewer: int) -> int:
        """``viewer``'s tag of the state in play (its ``turn``)."""
        with self.lock:
            return self._seen_by(viewer)["turn"]

    def _seen_by(self, viewer: int) -> dict:
        """The state as ``viewer`` sees it (without who is here), computed once per change."""
        cached = self._cache.get(viewer)
        if cached is not None and cached[0] == self.changes:
            return cached[1]
        t = self.table
        view = public_view(t) if viewer == PUBLIC else t.view(viewer)
        scores = [s["score"] for s in view["seats"]]
        low = t.engine.config.scoring_mode == "cumulative_low"
        order = sorted(range(t.P), key=lambda p: scores[p] if low else -scores[p])
        offered = []
        if viewer != PUBLIC:
            offered = moves(t, viewer) if t.actor == viewer else \
                offered_moves(t, viewer) if view["actor"] == viewer else []
            if view["actor"] == viewer:  # asked as it sees the table: its moves, as if asked indeed
                view.update(legal=[m["action"] for m in offered], drawn=view.get("drawn"))
        seen = {"view": view, "events": [e for e in self.logs[viewer] if e["round"] == self.round],
                "moves": offered, "standings": [{"seat": p, "name": t.names[p], "score": scores[p]} for p in order],
                "goal": goal_words(t.engine.config), "seeded": self.seed is not None}
        if self.seed is not None:
            seen["seed_note"] = ("this game was dealt from a seed chosen when it was made: whoever knows the seed "
                                 "can compute every hand and the whole draw pile")
        out = {"id": self.id, "seat": None if viewer == PUBLIC else viewer, "turn": tag_of(seen), **seen,
               "faces_url": f"/api/faces/{self.rules}"}
        if viewer == self.owner:
            out.update(token=self.tokens[viewer], links=self.links())
            if self.seed is not None:
                out["seed"] = self.seed
        self._cache[viewer] = self.changes, out
        return out


# ---------------------------------------------------------------------- the games
class Games:
    """The live games, by id: at most ``max_games`` (see the module's docstring for who gives way), at most
    ``per_creator`` in play from one client address.  ``clock`` and ``entropy`` (the deals' entropy,
    ``None``: the system's) are injectable so that tests need not wait and may deal alike."""

    def __init__(self, max_games: int = MAX_GAMES, idle_s: float = IDLE_S, unplayed_s: float = UNPLAYED_S,
                 per_creator: int = PER_CREATOR, clock=time.monotonic, entropy: int | None = None):
        self.games: dict[str, Game] = {}
        self.max_games, self.idle_s, self.unplayed_s, self.per_creator = max_games, idle_s, unplayed_s, per_creator
        self.clock, self.entropy = clock, entropy
        self.lock = threading.Lock()
        self.building: list[str] = []  # the creators of games being dealt, which hold their place

    def create(self, body: dict, creator: str = "") -> Game:
        spec = new_game_spec(body)
        now = self.clock()
        with self.lock:
            self._make_room(now, creator)
            self.building.append(creator)
        try:
            game = Game(secrets.token_urlsafe(16), **spec, now=now, creator=creator, entropy=self.entropy)
        finally:
            with self.lock:
                self.building.remove(creator)
        with self.lock:  # its place was held: no room to make
            self.games[game.id] = game
        return game

    def expires_in(self, game: Game, now: float) -> float:
        """Seconds until ``game`` may give way to a new one (0: it may now)."""
        if game.game_over:
            return 0.0
        return max(0.0, game.touched + (self.idle_s if game.played else self.unplayed_s) - now)

    def _make_room(self, now: float, creator: str) -> None:
        mine = [g for g in self.games.values() if g.creator == creator and not g.game_over]
        if len(mine) + self.building.count(creator) >= self.per_creator:
            spare = [g for g in mine if not g.played]  # its own games nobody has moved in give way first
            if not spare:
                wait = min((self.expires_in(g, now) for g in mine), default=self.unplayed_s)
                raise ApiError(429, f"you have {len(mine)} games in play, the most one client may have: end one, "
                                    f"or finish it, before making another", retry_after(wait))
            self.games.pop(min(spare, key=lambda g: g.touched).id).close()
        while len(self.games) + len(self.building) >= self.max_games:
            pool = [g for g in self.games.values() if self.expires_in(g, now) == 0]
            if not pool:
                wait = min((self.expires_in(g, now) for g in self.games.values()), default=1.0)
                raise ApiError(503, f"the server is full: {self.max_games} games are in play, none finished or "
                                    f"left unplayed; a place frees within {math.ceil(wait)} s", retry_after(wait))
            finished = [g for g in pool if g.game_over]
            self.games.pop(min(finished or pool, key=lambda g: g.touched).id).close()

    def find(self, gid: str, token: str | None) -> tuple[Game, int]:
        """The game ``gid`` and the seat ``token`` opens in it (``PUBLIC``: the spectator's).  Asking is no
        activity: only moves keep a game from giving way."""
        game = self.games.get(gid)
        if game is None:
            raise ApiError(404, f"no game {short(gid, 30)}: it ended, never was, or made room for newer games "
                                f"(finished and idle games do when the server is full)")
        viewer = game.viewer_of(token)
        if viewer != PUBLIC:
            game.seen[viewer] = self.clock()
        return game, viewer

    def end(self, game: Game) -> None:
        with self.lock:
            self.games.pop(game.id, None)
        game.close()


__all__ = ["HUMAN", "MAX_GAMES", "WAIT", "ApiError", "Game", "Games", "fits", "misfit", "new_game_spec",
           "offered_moves", "shared_agent", "short"]

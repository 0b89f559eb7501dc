"""``uno serve``: play UNO in the browser against bots or trained agents (Starlette on uvicorn).

Bound to 127.0.0.1 by default.  Several games run at once, each behind its own lock; the oldest is
dropped beyond ``MAX_GAMES``.  The browser only ever receives the human seat's view (``table.seat_view``)
and the events in that seat's words, so the page cannot show a card the seat may not see.  A malformed
request gets a 4xx status and ``{"error": message}``, never a traceback.

API (JSON):

=======================================  ==========================================================
``GET /api/options``                     presets, agents, player counts
``POST /api/games``                      ``{"rules", "players", "opponents", "seat", "seed"}``: a new game
``GET /api/games/{id}``                  the game as the human seat sees it (with the card drawings)
``POST /api/games/{id}/actions``         ``{"action": "play R5"}``: the human acts, the agents answer
``POST /api/games/{id}/next``            deal the next round
``DELETE /api/games/{id}``               end a game
=======================================  ==========================================================
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import OrderedDict

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from ..core.config import PRESETS
from ..render import face_table
from ..table import Table
from ..terminal import agent_action, seat_names, split_names
from .page import static

MAX_GAMES = 64
_BOT_NAMES = ("random", "greedy", "heuristic")


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Game:
    """One game of the web app: a ``Table``, the human's seat and the agents at the others."""

    def __init__(self, gid: str, rules: str, players: int, opponents: list[str], seat: int, seed):
        import agents
        self.id, self.seat = gid, seat
        self.table = Table(rules, players, seed=seed, names=seat_names(opponents, players, seat),
                           observation=agents.observation_for(opponents))  # v3 for agents trained on it
        bots = [agents.load(n, game=self.table.game, seed=None if seed is None else seed + i)
                for i, n in enumerate(opponents)]
        others = [p for p in range(players) if p != seat]
        self.bots = {p: bots[i % len(bots)] for i, p in enumerate(others)}
        self.lock = threading.Lock()
        self.play_agents()

    def play_agents(self) -> None:
        t = self.table
        while not t.over and t.actor != self.seat:
            t.step(agent_action(self.bots[t.actor], t))

    def state(self, faces: bool = False) -> dict:
        t = self.table
        view = t.view(self.seat)
        scores = [s["score"] for s in view["seats"]]
        low = t.engine.config.scoring_mode == "cumulative_low"
        order = sorted(range(t.P), key=lambda p: scores[p] if low else -scores[p])
        out = {"id": self.id, "seat": self.seat, "view": view,
               "events": [{"kind": ev.kind, "seat": ev.seat, "text": text} for ev in t.round_events()
                          if (text := ev.text(self.seat))],  # "": another seat's hidden decision
               "standings": [{"seat": p, "name": t.names[p], "score": scores[p]} for p in order]}
        if faces:
            out["faces"] = face_table(t.engine.deck)
        return out


class Games:
    """The games in play, by id."""

    def __init__(self):
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.ids = itertools.count(1)
        self.lock = threading.Lock()

    def new(self, body: dict) -> Game:
        import agents
        rules = body.get("rules", "standard_en")
        if rules not in PRESETS:
            raise ApiError(400, f"'rules' must be one of {', '.join(PRESETS)}, got {rules!r}")
        players = body.get("players", 4)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise ApiError(400, f"'players' must be an integer from 2 to 10, got {players!r}")
        opp = body.get("opponents", "random")
        names = split_names(opp) if isinstance(opp, str) else opp
        allowed = agents.available()
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n in allowed for n in names):
            raise ApiError(400, f"'opponents' must name agents among {', '.join(allowed)} (a list, or a string "
                                f"with commas), got {opp!r}")
        seat = body.get("seat", 0)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ApiError(400, f"'seat' must be an integer from 0 to {players - 1}, got {seat!r}")
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ApiError(400, f"'seed' must be a non-negative integer or absent, got {seed!r}")
        unknown = set(body) - {"rules", "players", "opponents", "seat", "seed"}
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(sorted(unknown))}; fields are rules, players, "
                                f"opponents, seat, seed")
        gid = str(next(self.ids))
        game = Game(gid, rules, players, names, seat, seed)
        with self.lock:
            self.games[gid] = game
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)
        return game

    def get(self, gid: str) -> Game:
        game = self.games.get(gid)
        if game is None:
            raise ApiError(404, f"no game {gid!r} (games end when the server restarts or after {MAX_GAMES} newer ones)")
        return game


async def _body(request: Request) -> dict:
    try:
        body = json.loads(await request.body() or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"the request body must be JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the request body must be a JSON object, got {type(body).__name__}")
    return body


def create_app() -> Starlette:
    games = Games()

    async def index(request: Request):
        return HTMLResponse(INDEX.replace("@@CSS@@", static("uno.css")).replace("@@JS@@", static("uno.js")))

    async def options(request: Request):
        import agents
        return JSONResponse({"presets": list(PRESETS), "agents": agents.available(), "players": [2, 10]})

    async def new_game(request: Request):
        body = await _body(request)
        game = await run_in_threadpool(games.new, body)
        return JSONResponse(game.state(faces=True), status_code=201)

    async def get_game(request: Request):
        return JSONResponse(games.get(request.path_params["gid"]).state(faces=True))

    async def act(request: Request):
        game = games.get(request.path_params["gid"])
        body = await _body(request)
        action = body.get("action")
        if not isinstance(action, str):
            raise ApiError(400, f"'action' must be an action's text such as 'play R5' or 'draw', got {action!r}")

        def run():
            with game.lock:
                t = game.table
                if t.over:
                    raise ApiError(409, "the round is over: POST .../next deals the next one")
                if t.actor != game.seat:
                    raise ApiError(409, f"it is not your turn (seat {t.actor} is asked)")
                legal = t.legal()
                if action not in legal:
                    raise ApiError(400, f"{action!r} is not one of your moves; they are: {', '.join(legal)}")
                t.step(action)
                game.play_agents()
                return game.state()
        return JSONResponse(await run_in_threadpool(run))

    async def next_round(request: Request):
        game = games.get(request.path_params["gid"])

        def run():
            with game.lock:
                if not game.table.over:
                    raise ApiError(409, "the round is still in play")
                game.table.next_round()
                game.play_agents()
                return game.state()
        return JSONResponse(await run_in_threadpool(run))

    async def end_game(request: Request):
        games.get(request.path_params["gid"])
        games.games.pop(request.path_params["gid"], None)
        return JSONResponse({"ended": request.path_params["gid"]})

    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def server_error(request: Request, exc: Exception):
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    routes = [
        Route("/", index),
        Route("/api/options", options),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{gid}", get_game, methods=["GET"]),
        Route("/api/games/{gid}", end_game, methods=["DELETE"]),
        Route("/api/games/{gid}/actions", act, methods=["POST"]),
        Route("/api/games/{gid}/next", next_round, methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers={ApiError: api_error, HTTPException: http_error,
                                                         Exception: server_error})


INDEX = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>UNO</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>@@CSS@@</style></head>
<body><header><h1>UNO</h1>
<label>rules <select id="rules"></select></label>
<label>players <input id="players" type="number" min="2" max="10" value="4" style="width:4em"></label>
<label>opponents <select id="opponents"></select></label>
<label>seed <input id="seed" type="number" min="0" placeholder="random" style="width:7em"></label>
<button id="new">new game</button><span id="gameid"></span></header>
<main><div id="table"><p>Choose the rules and your opponents, then <b>new game</b>. You play seat 0.</p></div>
<div id="side"><div id="status"></div><div id="moves"></div><div id="log"></div></div></main>
<script>@@JS@@</script></body></html>
"""


def run(host: str = "127.0.0.1", port: int = 8000, out=print) -> int:
    import uvicorn
    out(f"UNO at http://{host}:{port}/ (Ctrl-C stops the server)")
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    return 0

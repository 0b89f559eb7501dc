"""``uno serve``: play UNO in the browser, alone against agents or with other people at one table
(Starlette on uvicorn).

Bound to 127.0.0.1 unless ``--host`` says otherwise.  Whoever makes a game gets its seat's token and a join
link for every other person's seat, and a spectator link; the browser only ever receives what the token's
seat may see.  ``guard.Guard`` checks the Host, the Origin and the body of every request, ``games.Games``
the seats, turns and limits; every request that is malformed or not allowed gets a 4xx and
``{"error": message}``, never a traceback.

API (JSON; a game's routes need ``Authorization: Bearer TOKEN``, a seat's token or the spectator token):

=======================================  ==========================================================
``GET /api/options``                     presets, agents (and what each fits), player counts, limits
``GET /api/faces/{rules}``               the card drawings of a preset's deck
``POST /api/games``                      ``{"rules", "players", "opponents", "seat", "seed"}``: a new game
``GET /api/games/{id}[?since=TURN]``     the game as the token's seat sees it (``{"unchanged"}`` at ``since``)
``POST /api/games/{id}/actions``         ``{"action": "play R5", "turn": N}``: act; the agents answer
``POST /api/games/{id}/next``            ``{"turn": N, "new_game": false}``: deal the next round
``POST /api/games/{id}/name``            ``{"name": "ann"}``: the name of the token's seat
``DELETE /api/games/{id}``               end the game (its maker's token)
=======================================  ==========================================================

``server.server_options`` are the uvicorn settings ``uno serve`` runs with (deadlines on slow requests, a
connection cap far above the game cap, JSON for uvicorn's own errors).
"""

from __future__ import annotations

import functools
import json

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from uno_env.core.config import PRESETS
from uno_env.render import face_table

from .games import HUMAN, MAX_PLAYERS, MIN_PLAYERS, NEW_FIELDS, ApiError, Games, fits, short, unknown_fields
from .guard import LOCAL_NAMES, MAX_BODY, Guard
from .page import static
from .words import PUBLIC

PAGE_HEADERS = {  # the page runs its own inline script only, talks only to this server, and is never framed
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                               "img-src data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}


async def _body(request: Request, fields) -> dict:
    """The request's JSON object, with no field but ``fields`` (the Guard has already limited its size)."""
    raw = await request.body()
    try:
        body = json.loads(raw or b"{}", parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # bad JSON or UTF-8, a number past the digit limit, deep nesting
        what = "nested too deeply" if isinstance(exc, RecursionError) else short(str(exc), 80)
        raise ApiError(400, f"the request body must be a JSON object: {what}") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the request body must be a JSON object; got a {type(body).__name__}")
    unknown_fields(body, fields)
    return body


def _no_constant(name: str):
    raise ApiError(400, f"the request body must be plain JSON; {name} is no JSON number")


def _query(request: Request, allowed=()) -> dict:
    extra = [k for k in request.query_params if k not in allowed]
    if extra:
        raise ApiError(400, f"unknown query parameter {short(extra[0], 24)}; "
                            + (f"this route takes {', '.join(allowed)}" if allowed else "this route takes none"))
    return dict(request.query_params)


def _token(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


@functools.cache
def _faces(rules: str) -> bytes:
    from uno_env import VecGame
    return json.dumps(face_table(VecGame(rules, 2, batch_size=1).engine.deck)).encode()


def options_document(games: Games) -> dict:
    import agents
    names = agents.available()
    return {"presets": list(PRESETS), "players": [MIN_PLAYERS, MAX_PLAYERS], "human": HUMAN, "agents": names,
            "fits": {n: fits(n) for n in names},
            "limits": {"body_bytes": MAX_BODY, "games": games.max_games, "games_per_client": games.per_creator,
                       "unplayed_minutes": games.unplayed_s / 60, "idle_minutes": games.idle_s / 60}}


def create_app(hosts=LOCAL_NAMES, port: int | None = None, any_ip: bool = False,
               games: Games | None = None, proxied=()) -> Starlette:
    """The app, answering to ``hosts`` (and, with ``any_ip``, any IP address) on ``port`` (``None``: any), and
    to ``proxied`` (names a reverse proxy passes on) on any port."""
    games = games or Games()

    async def index(request: Request):  # (a query, as a link may carry, changes nothing)
        page = INDEX.replace("@@CSS@@", static("uno.css")).replace("@@JS@@", static("uno.js"))
        return HTMLResponse(page, headers=PAGE_HEADERS)

    async def options(request: Request):
        _query(request)
        return JSONResponse(await run_in_threadpool(options_document, games))

    async def faces(request: Request):
        _query(request)
        rules = request.path_params["rules"]
        if rules not in PRESETS:
            raise ApiError(404, f"no rules {short(rules, 30)}; presets are {', '.join(PRESETS)}")
        return Response(await run_in_threadpool(_faces, rules), media_type="application/json")

    async def new_game(request: Request):
        _query(request)
        body = await _body(request, NEW_FIELDS)
        creator = request.client.host if request.client else ""  # behind a proxy: its X-Forwarded-For
        game = await run_in_threadpool(games.create, body, creator)
        return JSONResponse(game.state(game.owner, games.clock()), status_code=201)

    async def get_game(request: Request):
        since = _query(request, ("since",)).get("since")
        game, viewer = games.find(request.path_params["gid"], _token(request))
        if since is not None:
            turn = await run_in_threadpool(game.turn_of, viewer)
            if since == str(turn):  # nothing moved as this viewer sees it: who is here is all that may have
                return JSONResponse({"id": game.id, "turn": turn, "unchanged": True,
                                     "people": game.people(games.clock())})
        return JSONResponse(await run_in_threadpool(game.state, viewer, games.clock()))

    def seat_of(game, viewer: int) -> int:
        if viewer == PUBLIC:
            raise ApiError(403, "the spectator token only watches; playing needs a seat's token")
        return viewer

    async def act(request: Request):
        _query(request)
        game, viewer = games.find(request.path_params["gid"], _token(request))
        seat = seat_of(game, viewer)
        body = await _body(request, ("action", "turn"))
        action, turn = body.get("action"), body.get("turn")
        if not isinstance(action, str):
            raise ApiError(400, f"'action' must be a move's text such as 'play R5' or 'draw'; got {short(action)}")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise ApiError(400, f"'turn' must be the integer 'turn' of the state this move answers; got "
                                f"{short(turn)}")
        await run_in_threadpool(game.act, seat, action, turn, games.clock())
        return JSONResponse(await run_in_threadpool(game.state, seat, games.clock()))

    async def next_round(request: Request):
        _query(request)
        game, viewer = games.find(request.path_params["gid"], _token(request))
        seat = seat_of(game, viewer)
        body = await _body(request, ("turn", "new_game"))
        turn, new = body.get("turn"), body.get("new_game", False)
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
            raise ApiError(400, f"'turn' must be an integer (the state's 'turn') or absent; got {short(turn)}")
        if not isinstance(new, bool):
            raise ApiError(400, f"'new_game' must be true or false; got {short(new)}")
        await run_in_threadpool(game.next_round, seat, turn, new, games.clock())
        return JSONResponse(await run_in_threadpool(game.state, seat, games.clock()))

    async def rename(request: Request):
        _query(request)
        game, viewer = games.find(request.path_params["gid"], _token(request))
        seat = seat_of(game, viewer)
        body = await _body(request, ("name",))
        await run_in_threadpool(game.rename, seat, body.get("name"), games.clock())
        return JSONResponse(await run_in_threadpool(game.state, seat, games.clock()))

    async def end_game(request: Request):
        _query(request)
        game, viewer = games.find(request.path_params["gid"], _token(request))
        if viewer != game.owner:
            raise ApiError(403, "only the seat that made the game can end it")
        games.end(game)
        return JSONResponse({"ended": game.id})

    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)

    async def http_error(request: Request, exc: HTTPException):
        where = short(request.url.path, 40)
        message = {404: f"no route {where}; the routes are /, /api/options, /api/faces/RULES, /api/games and "
                        f"/api/games/ID (/actions, /next, /name)",
                   405: f"{short(request.method, 10)} is not allowed on {where}; it takes "
                        f"{(exc.headers or {}).get('Allow', 'other methods')}"}.get(exc.status_code, exc.detail)
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)

    async def server_error(request: Request, exc: Exception):
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/api/options", options, methods=["GET"]),
        Route("/api/faces/{rules}", faces, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{gid}", get_game, methods=["GET"]),
        Route("/api/games/{gid}", end_game, methods=["DELETE"]),
        Route("/api/games/{gid}/actions", act, methods=["POST"]),
        Route("/api/games/{gid}/next", next_round, methods=["POST"]),
        Route("/api/games/{gid}/name", rename, methods=["POST"]),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts, port=port, any_ip=any_ip,
                                                          proxied=proxied)],
                    exception_handlers={ApiError: api_error, HTTPException: http_error, Exception: server_error})
    app.state.games = games
    return app


INDEX = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>UNO</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>@@CSS@@</style></head>
<body><header><h1>UNO</h1><span id="lobby">
<label>rules <select id="rules"></select></label>
<label>players <input id="players" type="number" min="2" max="10" value="4" style="width:4em"></label>
<label>your seat <select id="seat"></select></label>
<span id="seats"></span>
<label>your name <input id="name" maxlength="24" placeholder="player_0" style="width:8em"></label>
<label>seed <input id="seed" type="number" min="0" placeholder="random" style="width:7em"
 title="a chosen seed deals the same game again, and reveals the deal to whoever knows it"></label>
<span class="note" id="seednote">a seed is taken only at a table of you and agents: a table with other people is
dealt from fresh entropy, so nobody there can compute another's hand</span>
<button id="new">new game</button></span><span id="gameid"></span></header>
<main><div id="table"><p>Choose the rules and who sits at each other seat (an agent, or a person who joins by a
link), then <b>new game</b>.</p></div>
<div id="side"><div id="status"></div><div id="moves"></div><div id="people"></div><div id="links"></div>
<div id="log"></div></div></main>
<script>@@JS@@</script></body></html>
"""


def hosts_for(host: str) -> tuple[tuple[str, ...], bool]:
    """The names a server bound to ``host`` answers to, and whether any IP address is one."""
    import socket
    if host in ("0.0.0.0", "::", ""):
        return LOCAL_NAMES + (socket.gethostname().lower(), socket.getfqdn().lower()), True
    return LOCAL_NAMES + (host.lower(),), False


def run(host: str = "127.0.0.1", port: int = 8000, allow_hosts=(), out=print) -> int:
    import uvicorn

    from .server import server_options
    names, any_ip = hosts_for(host)
    if host not in ("127.0.0.1", "localhost", "::1"):
        out(f"warning: serving on {host}, beyond this machine: anyone who reaches port {port} can make games "
            f"(seats still need their tokens), and plain HTTP lets the network read the tokens")
    shown = "127.0.0.1" if any_ip else f"[{host}]" if ":" in host else host
    out(f"UNO at http://{shown}:{port}/ (Ctrl-C stops the server)")
    app = create_app(names, port=port, any_ip=any_ip, proxied=tuple(h.lower() for h in allow_hosts))
    uvicorn.run(app, host=host, port=port, **server_options())
    return 0

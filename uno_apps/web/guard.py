"""What every request to ``uno serve`` must pass before a route sees it (ASGI middleware).

* ``Host`` must name the address served: a page of another site whose DNS name is made to point at this
  machine (DNS rebinding) sends its own name, and is refused.  A server bound to every interface also
  answers IP literals, which no DNS trick can forge.
* A state-changing request (anything but GET, HEAD, OPTIONS) that carries an ``Origin`` must come from this
  server's own page: browsers send ``Origin`` with every cross-site POST, so a page elsewhere cannot make
  games or act (even with a ``text/plain`` body, which needs no CORS preflight).
* A body must be JSON (``Content-Type: application/json``) and at most ``max_body`` bytes: a longer one
  is refused with 413 as soon as its declared length, or what has arrived of it, passes the limit, before
  anything parses it.

Each refusal is a 4xx with ``{"error": message}`` naming what was wrong and what is allowed.  Every response
goes out with ``Cache-Control: no-store`` (a state carries a seat's token and hand: no cache may keep it) and
``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse

from .games import short

MAX_BODY = 64 * 1024
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")


def split_host(value: str) -> tuple[str, int | None] | None:
    """``("example.org", 8000)`` from a ``Host`` header (``None`` when it is not one)."""
    try:
        parts = urlsplit("//" + value)
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.path or parts.query or parts.fragment or parts.username is not None:
        return None
    return name, port


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """ASGI middleware (see the module docstring).

    Args:
        hosts: the names (or addresses) the server is reached by; ``any_ip``: also any IP literal (a server
            bound to every interface); ``port``: the port served (``None``: any); ``proxied``: names a reverse
            proxy passes on, with whatever port the proxy serves (or none).
    """

    def __init__(self, app, hosts=LOCAL_NAMES, port: int | None = None, any_ip: bool = False,
                 max_body: int = MAX_BODY, proxied=()):
        self.proxied = {h.lower() for h in proxied}
        self.app, self.hosts, self.port, self.any_ip = app, {h.lower() for h in hosts} | self.proxied, port, any_ip
        self.max_body = max_body

    def refusal(self, method: str, headers: Headers) -> tuple[int, str] | None:
        host = headers.get("host")
        if host is None:
            return 400, "a Host header is required"
        found = split_host(host)
        allowed = ", ".join(sorted(self.hosts)) + (" or any IP address" if self.any_ip else "")
        if found is None or not (found[0] in self.hosts or (self.any_ip and is_ip(found[0]))):
            return 400, f"Host {short(host)} is not an address of this server; it answers to {allowed}"
        if self.port is not None and found[1] != self.port and found[0] not in self.proxied:
            return 400, f"Host {short(host)} names another port; this server answers on port {self.port}"
        origin = headers.get("origin")
        if method not in SAFE_METHODS and origin is not None and origin.lower() not in (
                f"http://{host.lower()}", f"https://{host.lower()}"):
            return 403, (f"a {method} from the page of another site (Origin {short(origin)}) is refused: this "
                         f"server takes changes only from its own pages")
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 18:
                return 400, f"Content-Length must be a number of bytes; got {short(length)}"
            if int(length) > self.max_body:
                return 413, f"the body is {length} bytes; the limit is {self.max_body}"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _no_store(send)
        headers = Headers(scope=scope)
        refused = self.refusal(scope["method"], headers)
        body = b""
        if refused is None:  # read the body here, up to the limit, so no route ever holds more
            chunks, size, more = [], 0, True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_body:
                    refused = 413, f"the body is over the limit of {self.max_body} bytes"
                    break
                chunks.append(chunk)
                more = message.get("more_body", False)
            body = b"".join(chunks)
        if refused is None and body:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                refused = 415, f"the body must be JSON, sent with 'Content-Type: application/json'; got {short(kind)}"
        if refused is not None:
            await JSONResponse({"error": refused[1]}, status_code=refused[0])(scope, receive, send)
            return
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _no_store(send):
    """``send`` adding ``Cache-Control: no-store`` and ``X-Content-Type-Options: nosniff`` to a response."""
    async def sending(message):
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in ((b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff"))
                     if k not in names]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)
    return sending


__all__ = ["LOCAL_NAMES", "MAX_BODY", "Guard", "split_host"]

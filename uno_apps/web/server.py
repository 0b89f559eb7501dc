"""How ``uno serve`` meets the network: uvicorn on h11, with the limits a server open to strangers needs.

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive`` and caps a request's headers
(``h11_max_incomplete_event_size``), but it has no time limit on a request that is still arriving: a client
that opens a connection and sends nothing, or one header byte every few seconds, holds it for ever, and its
``limit_concurrency`` counts such connections, so a few hundred of them turn every player away with a
plain-text 503.  ``uno serve`` therefore runs uvicorn with the protocol below (uvicorn's ``http`` setting
takes a protocol class) and without ``limit_concurrency``:

* a request must arrive whole, headers and body, within ``REQUEST_TIMEOUT_S`` of the connection opening or
  of the previous response (the role of nginx's ``client_header_timeout`` and ``client_body_timeout``);
  otherwise the client gets a 408 and the connection closes.  Bytes dripping in do not extend it;
* idle keep-alive connections close after ``KEEP_ALIVE_S``;
* at most ``MAX_CONNECTIONS`` connections (bounded by the process's open-file limit): a connection past that
  gets a 503 with ``Retry-After``.  An idle connection costs the server no work, only a socket and a timer;
* what uvicorn itself would answer in plain text (a request that is not HTTP, headers over
  ``MAX_HEADER_BYTES``) is the JSON ``{"error": ...}`` that the page reads, as is every answer of the app.

A public deployment puts a reverse proxy (nginx, Caddy) in front as well; docs/play.md says how.
"""

from __future__ import annotations

import asyncio
import json
import resource

from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT_S = 10.0  # a request's headers and body, from the connection's start or the last response
KEEP_ALIVE_S = 5  # an idle keep-alive connection closes after this (uvicorn's default)
MAX_CONNECTIONS = 4096  # far above 100 tables of 10 seats with their spectators
MAX_HEADER_BYTES = 16 * 1024  # a request line and headers longer than this get a 400
SPARE_FILES = 64  # open files kept free of connections (the app's own files, logs)
JSON_HEADERS = (b"content-type: application/json\r\ncache-control: no-store\r\n"
                b"x-content-type-options: nosniff\r\nconnection: close\r\n")


def raw_error(status: int, reason: str, message: str, extra: bytes = b"") -> bytes:
    """A whole HTTP/1.1 response carrying ``{"error": message}``, for a connection about to close."""
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\n".encode() + JSON_HEADERS + extra
            + f"content-length: {len(body)}\r\n\r\n".encode() + body)


async def _busy(scope, receive, send) -> None:
    """The answer on a connection past ``max_connections``."""
    body = json.dumps({"error": "the server has too many connections open; try again in a few seconds"}).encode()
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store"),
                            (b"x-content-type-options", b"nosniff"), (b"retry-after", b"5"),
                            (b"connection", b"close"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def connection_cap(wanted: int = MAX_CONNECTIONS) -> int:
    """``wanted`` connections, or as many as the open-file limit allows once raised to its hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = wanted + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < want:
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else max(1, min(wanted, soft - SPARE_FILES))


def protocol(request_timeout: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS) -> type:
    """uvicorn's h11 protocol with a deadline on each request's arrival and a cap on connections."""

    class Protocol(H11Protocol):
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                self.app = _busy
            self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()  # the next request's time starts now
            self._follow()

        def send_400_response(self, msg: str) -> None:
            self.transport.write(raw_error(400, "Bad Request", "the request is not valid HTTP/1.1, or its "
                                           f"request line and headers pass {MAX_HEADER_BYTES} bytes"))
            self.transport.close()

        # the deadline
        def _arriving(self) -> bool:
            """Whether a request is still to come or still arriving (not one being answered)."""
            c = self.cycle
            return c is None or c.response_complete or c.more_body

        def _arm(self) -> None:
            self._disarm()
            if not self.transport.is_closing():
                self.deadline = self.loop.call_later(request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _follow(self) -> None:
            if self.transport.is_closing() or not self._arriving():
                self._disarm()
            elif self.deadline is None:
                self._arm()

        def _too_slow(self) -> None:
            self.deadline = None
            if self.transport.is_closing():
                return
            c = self.cycle
            if c is None or c.response_complete or not c.response_started:
                self.transport.write(raw_error(408, "Request Timeout", f"the request did not arrive whole within "
                                               f"{request_timeout:g} s"))
            self.transport.close()

    return Protocol


def server_options(request_timeout: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS) -> dict:
    """uvicorn's settings for ``uno serve`` (``uvicorn.run(app, **server_options(), host=..., port=...)``)."""
    return {"http": protocol(request_timeout, connection_cap(max_connections)), "timeout_keep_alive": KEEP_ALIVE_S,
            "limit_concurrency": None, "h11_max_incomplete_event_size": MAX_HEADER_BYTES, "log_level": "warning"}


__all__ = ["KEEP_ALIVE_S", "MAX_CONNECTIONS", "REQUEST_TIMEOUT_S", "protocol", "server_options"]

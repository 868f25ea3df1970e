"""The web table's HTTP server: uvicorn, with the connection limits of
:class:`~sevenbridge.web.Limits` (the ``web`` extra).

uvicorn bounds how many connections are served at once, how long a
kept-alive connection waits for its next request, and how large a WebSocket
message may be. It does not bound how long a client may take to send a
request's headers, so a client that opens connections and sends nothing (or
a byte a minute) would hold them for ever: :func:`timed_protocol` closes a
connection that has not sent a whole request head within the limit.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ._guard import Limits

__all__ = ["run", "timed_protocol"]


def timed_protocol(seconds: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection that is given ``seconds``
    and has not sent a whole request head by then (the first request's, or the
    next one's on a kept-alive connection)."""

    class Timed(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def _waiting(self) -> bool:
            """Whether the connection is between requests (none being answered)."""
            return self.cycle is None or self.cycle.response_complete

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _too_slow(self) -> None:
            self._head_timer = None
            # After a WebSocket upgrade the transport belongs to another protocol.
            transport = self.transport
            if transport is not None and transport.get_protocol() is self and self._waiting():
                self.transport.close()

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._arm()  # made as the connection is accepted

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._waiting():
                self._arm()  # part of a request head: it must be whole in time
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return Timed


def run(app: Any, sock: socket.socket, limits: Limits) -> None:
    """Serve ``app`` on the listening socket until interrupted."""
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        http=timed_protocol(limits.header_seconds),
        limit_concurrency=limits.connections,
        timeout_keep_alive=max(1, round(limits.idle_seconds)),
        ws_max_size=limits.socket_message_bytes,
        h11_max_incomplete_event_size=16 * 1024,
    )
    uvicorn.Server(config).run(sockets=[sock])

"""A web table: people play Seven Bridge (or Simple Mahjong) in their browsers,
with or against bots.

``sevenbridge serve`` (or :func:`serve`) starts a web server. Its lobby opens a
table (the game, the rules, the number of players, and for each seat a person
or a bot);
each person's seat has a link of its own, with a secret token in it. A seat's
page shows the table as that seat sees it, lists the legal moves, explains
why a move it tries is not allowed, and changes as soon as anybody moves (the
server pushes every seat its new view over a WebSocket). The tables live in
an SQLite file: a server started again on the same file finds every table
where it stood. See :doc:`/howto/web`.

The server needs the ``web`` extra (``pip install "sevenbridge[web]"``:
Starlette and uvicorn); this module imports them only when a server is made.

What each seat is sent is built from :func:`sevenbridge.observe` (or
:func:`sevenbridge.mahjong.observe`) of that seat alone: drawings, moves and
JSON of its own view, never a position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._kit.i18n import check_lang
from ..errors import InvalidArgumentError, Message, quote

__all__ = ["create_app", "serve"]


def _need_extra() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.web_needs_extra",
                'the web table needs the web extra: pip install "sevenbridge[web]"',
            )
        ) from None


def _seconds(value: object, name: str, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= high:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.web_seconds",
                "{name} must be a number of seconds from 0 to {high}, not {value}",
                name=name,
                high=high,
                value=quote(value, 40),
            )
        )
    return float(value)


def create_app(
    db: str | Path,
    *,
    lang: str = "en",
    pause: float = 0.8,
    move_seconds: float = 10.0,
    allow_commands: bool = False,
) -> Any:
    """The web table as an ASGI application (a Starlette app), for any ASGI server.

    Args:
        db: The SQLite file that keeps the tables (made if missing).
        lang: The language of the pages: ``"en"`` or ``"ja"``.
        pause: Seconds each bot waits before its move, so that people see it.
        move_seconds: How long an external bot may think about one decision.
        allow_commands: Whether the lobby may seat external bots (``cmd:``),
            which run a command on the server's machine: for a server that
            only trusted people reach.

    Raises:
        InvalidArgumentError: without the ``web`` extra, or for a bad language or
            number of seconds.
        StoreError: if ``db`` is not a tables database.

    Serve it with uvicorn (``uvicorn.run(create_app("tables.db"))``), or let
    :func:`serve` do it.
    """
    lang = check_lang(lang)
    pause = _seconds(pause, "pause", 60)
    move_seconds = _seconds(move_seconds, "move_seconds", 3600)
    _need_extra()
    from ._app import make_app

    return make_app(db, lang=lang, pause=pause, move_seconds=move_seconds,
                    allow_commands=allow_commands)  # fmt: skip


def serve(
    db: str | Path = "sevenbridge-tables.db",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    lang: str = "en",
    pause: float = 0.8,
    move_seconds: float = 10.0,
    allow_commands: bool = False,
    announce: Any = print,
) -> None:
    """Serve the web table until interrupted (what ``sevenbridge serve`` runs).

    Args:
        db: The SQLite file that keeps the tables.
        host: The address to listen on (``127.0.0.1``: this machine only;
            ``0.0.0.0``: every network the machine is on).
        port: The port (0: any free port; the address is announced).
        lang, pause, move_seconds, allow_commands: as for :func:`create_app`.
        announce: Called with the server's address once it listens.

    Raises:
        InvalidArgumentError: as :func:`create_app`, or for a port out of range.
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.web_port",
                "port must be 0 to 65535, not {port}",
                port=quote(port, 20),
            )
        )
    app = create_app(db, lang=lang, pause=pause, move_seconds=move_seconds,
                     allow_commands=allow_commands)  # fmt: skip
    import socket

    import uvicorn

    try:
        sock = socket.create_server((host, port))
    except OSError as error:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.web_listen",
                "cannot listen on {host} port {port}: {error}",
                host=host,
                port=port,
                error=error.strerror or str(error),
            )
        ) from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    announce(f"http://{shown}:{bound}/")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    server.run(sockets=[sock])

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

Every client is taken to be hostile: it chooses bots by name among those the
server offers and never names code, every request that changes anything
must come from the server's own pages, and every size is bounded before it
is read (see :doc:`/howto/deploy`).

What each seat is sent is built from :func:`sevenbridge.observe` (or
:func:`sevenbridge.mahjong.observe`) of that seat alone: drawings, moves and
JSON of its own view, never a position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._kit.i18n import check_lang
from ..errors import InvalidArgumentError, Message, quote
from ._bots import BotMenu
from ._guard import Limits, allowed_hosts_for

__all__ = ["Limits", "create_app", "serve"]


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
    claim_seconds: float = 15.0,
    bots: Mapping[str, str] | None = None,
    max_bot_seconds: float = 1.0,
    max_bot_iterations: int = 2000,
    move_seconds: float = 10.0,
    allowed_hosts: Sequence[str] = (),
    limits: Limits | None = None,
    allow_seed: bool = False,
) -> Any:
    """The web table as an ASGI application (a Starlette app), for any ASGI server.

    Clients choose bots by name from what the server offers, never name code:
    the built-in bots (``random``, ``greedy``, ``ismcts``, the search with at
    most ``max_bot_seconds`` and ``max_bot_iterations`` a decision) and the
    operator's own ``bots``.

    Args:
        db: The SQLite file that keeps the tables (made if missing).
        lang: The language of the pages: ``"en"`` or ``"ja"``.
        pause: Seconds each bot waits before its move, so that people see it.
        claim_seconds: The claim clock: how long each person asked whether
            they claim a discard has to decide, whether or not they could (a
            person who does not decide passes when it runs out). Every claim
            window lasts as long whatever anybody holds, so the table's pace
            tells nothing of the hidden cards.
        bots: The operator's own bots, NAME to spec: a built-in spec
            (``"ismcts:iterations=1000"``), ``"cmd:COMMAND"`` (an external bot,
            a program on the server's machine) or ``"py:MODULE:FACTORY"`` (a
            Python bot, played in a process of its own). Clients see the names only.
        max_bot_seconds: The most processor seconds the built-in search thinks
            about one decision, whatever a client asks.
        max_bot_iterations: The most iterations of the search a client may ask for.
        move_seconds: How long an operator's external (or Python) bot may
            take to answer one decision.
        allowed_hosts: The host names the server answers to (its ``Host``);
            empty: any, as long as each request that changes anything comes
            from a page of that same host.
        limits: The limits on what clients may make the server hold or do
            (:class:`Limits`; its defaults when ``None``).
        allow_seed: Whether a table of several people may be opened with a
            seed of the opener's choice. Whoever chooses the seed can deal the
            cards again and know every hand, so by default only a table of one
            person takes one (for tests and demonstrations, where everyone
            trusts the opener).

    Raises:
        InvalidArgumentError: without the ``web`` extra, or for a bad language,
            number of seconds, bot or host.
        StoreError: if ``db`` is not a tables database.

    Serve it with uvicorn (``uvicorn.run(create_app("tables.db"))``), or let
    :func:`serve` do it (which also bounds connections and their timeouts).
    """
    lang = check_lang(lang)
    pause = _seconds(pause, "pause", 60)
    claim_seconds = _seconds(claim_seconds, "claim_seconds", 600)
    move_seconds = _seconds(move_seconds, "move_seconds", 3600)
    menu = BotMenu(dict(bots or {}), max_seconds=max_bot_seconds, max_iterations=max_bot_iterations,
                   move_seconds=max(move_seconds, 0.001))  # fmt: skip
    hosts = allowed_hosts_for("", allowed_hosts) if allowed_hosts else frozenset()
    _need_extra()
    from ._app import make_app

    return make_app(db, lang=lang, pause=pause, claim_seconds=claim_seconds, bots=menu,
                    allowed_hosts=hosts, limits=limits, allow_seed=allow_seed)  # fmt: skip


def serve(
    db: str | Path = "sevenbridge-tables.db",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    lang: str = "en",
    pause: float = 0.8,
    claim_seconds: float = 15.0,
    bots: Mapping[str, str] | None = None,
    max_bot_seconds: float = 1.0,
    max_bot_iterations: int = 2000,
    move_seconds: float = 10.0,
    allowed_hosts: Sequence[str] = (),
    limits: Limits | None = None,
    allow_seed: bool = False,
    announce: Any = print,
) -> None:
    """Serve the web table until interrupted (what ``sevenbridge serve`` runs).

    Args:
        db: The SQLite file that keeps the tables.
        host: The address to listen on (``127.0.0.1``: this machine only;
            ``0.0.0.0``: every network the machine is on).
        port: The port (0: any free port; the address is announced).
        allowed_hosts: The host names the server answers to. By default, a
            server on this machine only answers to ``127.0.0.1``,
            ``localhost`` and ``[::1]``, and a server on every network to
            any name (name yours, as people reach it, to refuse the others).
        limits: As for :func:`create_app`; here :class:`Limits` also bounds
            the connections served at once, and how long a client may take to
            send a request or keep an idle connection.
        lang: As for :func:`create_app`, and so are ``pause``,
            ``claim_seconds``, ``bots``, ``max_bot_seconds``,
            ``max_bot_iterations``, ``move_seconds`` and ``allow_seed``.
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
    limits = limits if limits is not None else Limits()
    hosts = allowed_hosts_for(host, allowed_hosts)
    app = create_app(db, lang=lang, pause=pause, claim_seconds=claim_seconds, bots=bots,
                     max_bot_seconds=max_bot_seconds,
                     max_bot_iterations=max_bot_iterations, move_seconds=move_seconds,
                     allowed_hosts=sorted(hosts), limits=limits, allow_seed=allow_seed)  # fmt: skip
    import socket

    from ._server import run

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
    run(app, sock, limits)

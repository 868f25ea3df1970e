"""The web server: a Starlette application (the ``web`` extra).

Routes:

- ``GET /``: the lobby; ``POST /tables``: open a table from the lobby's form
  (``POST /api/tables`` does the same with JSON and answers JSON);
- ``GET /table/{id}/{seat}?token=…``: a seat's page;
- ``GET /api/table/{id}/{seat}?token=…``: the seat's view as JSON;
- ``POST /api/table/{id}/{seat}/move``, ``…/undo``, ``…/next``: what the seat
  does (JSON with the ``token``);
- ``WS /ws/table/{id}/{seat}?token=…``: the seat's view after every change.

Every request about a seat needs that seat's token: without it, or with
another seat's, the answer is 403 and nothing of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .._kit.i18n import check_lang, translate, translator
from .._kit.rng import fresh_seed
from ..arena import make_bot
from ..errors import SevenBridgeError
from ._db import GHOST, HUMAN, Seat, TableRecord, TableStore
from ._games import TABLE_GAMES
from ._pages import LOBBY_BOTS, error_page, links_page, lobby_page, seat_page
from ._room import Refusal, Room, seat_names

__all__ = ["make_app"]

_log = logging.getLogger("sevenbridge.web")

#: The most bytes a request body may hold (a move or a new table is far smaller).
MAX_BODY = 64 * 1024


class Tables:
    """The tables of one server: the store, and the rooms of the tables in play
    (loaded on first use)."""

    def __init__(
        self, store: TableStore, *, lang: str, pause: float, move_seconds: float,
        allow_commands: bool,
    ) -> None:  # fmt: skip
        self.store = store
        self.lang = lang
        self.pause = pause
        self.move_seconds = move_seconds
        self.allow_commands = allow_commands
        self.rooms: dict[str, Room] = {}

    def room(self, table_id: str) -> Room | None:
        """The room of a table (``None``: no such table)."""
        room = self.rooms.get(table_id)
        if room is None:
            loaded = self.store.load(table_id)
            if loaded is None:
                return None
            table, moves = loaded
            room = Room(TABLE_GAMES[table.game], table, moves, self.store, lang=self.lang,
                        pause=self.pause, move_seconds=self.move_seconds)  # fmt: skip
            self.rooms[table_id] = room
            room.wake()
        return room

    def open(self, form: dict[str, Any]) -> TableRecord:
        """Open a table from the lobby's choices.

        Raises:
            Refusal: naming the first choice that is not right.
        """
        _ = translator(self.lang)
        game = TABLE_GAMES.get(str(form.get("game") or next(iter(TABLE_GAMES))))
        if game is None:
            raise Refusal(_("There is no such game."))
        preset = str(form.get("rules") or "standard")
        if preset not in game.presets():
            raise Refusal(_("There are no rules called {name}.").format(name=preset[:40]))
        try:
            players = int(form.get("players") or game.default_players)
            deals_text = str(form.get("deals") or "").strip()
            deals = int(deals_text) if deals_text else None
            seed_text = str(form.get("seed") or "").strip()
            seed = int(seed_text) if seed_text else fresh_seed()
        except (TypeError, ValueError):
            raise Refusal(_("Players, deals and seed are whole numbers.")) from None
        if players not in game.player_counts:
            raise Refusal(
                _("A table seats {low} to {high} players.").format(
                    low=min(game.player_counts), high=max(game.player_counts)
                )
            )
        specs = list(form.get("seats") or [])
        if len(specs) != players:
            raise Refusal(_("Say who plays each of the {n} seats.").format(n=players))
        try:
            rules = game.make_rules(preset, deals)
            game.start(rules, players, seed)  # checks the seed and the table size
        except SevenBridgeError as error:
            raise Refusal(translate(error, self.lang)) from None
        # The players sit at the real seats, in order (a mahjong table's ghosts sit between).
        seats = [Seat(GHOST)] * game.seat_total(rules, players)
        for seat, spec in zip(game.real_seats(rules, players), specs, strict=True):
            spec = str(spec).strip()
            if spec == HUMAN:
                seats[seat] = Seat(HUMAN, secrets.token_urlsafe(18))
                continue
            spec = dict(LOBBY_BOTS).get(spec, spec)
            if spec.startswith("cmd:") and not self.allow_commands:
                raise Refusal(
                    _("This server runs no external bots (start it with --allow-commands).")
                )
            try:
                make_bot(spec, 0)
            except SevenBridgeError as error:
                raise Refusal(f"P{seat}: {translate(error, self.lang)}") from None
            seats[seat] = Seat(spec)
        if not any(s.human for s in seats):
            raise Refusal(_("A table needs at least one person."))
        table = TableRecord(
            id=secrets.token_urlsafe(6), game=game.name, rules=game.rules_json(rules),
            players=players, seed=seed, practice=bool(form.get("practice")),
            seats=tuple(seats), created=time.time(),
        )  # fmt: skip
        self.store.create(table)
        return table

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        self.store.close()


def _seat_of(tables: Tables, table_id: str, seat_text: str, token: object) -> tuple[Room, int]:
    """The room and seat a request is about, if its token opens that seat.

    Raises:
        Refusal: 404 for a table that does not exist, 403 for any token but the seat's.
    """
    _ = translator(tables.lang)
    room = tables.room(table_id)
    if room is None:
        raise Refusal(_("There is no table {table}.").format(table=table_id[:20]), 404)
    seats = room.table.seats
    if not seat_text.isdigit() or int(seat_text) >= len(seats):
        raise Refusal(_("This link does not open a seat of this table."), 403)
    seat = int(seat_text)
    secret = seats[seat].token
    if (
        not seats[seat].human
        or secret is None
        or not isinstance(token, str)
        or not secrets.compare_digest(secret.encode(), token.encode())
    ):
        raise Refusal(_("This link does not open a seat of this table."), 403)
    return room, seat


def make_app(
    db: str | Path,
    *,
    lang: str = "en",
    pause: float = 0.8,
    move_seconds: float = 10.0,
    allow_commands: bool = False,
) -> Starlette:
    """The web table as an ASGI application (see :func:`sevenbridge.web.create_app`)."""
    lang = check_lang(lang)
    _ = translator(lang)
    tables = Tables(TableStore(db), lang=lang, pause=pause, move_seconds=move_seconds,
                    allow_commands=allow_commands)  # fmt: skip

    def headers(nonce: str) -> dict[str, str]:
        return {
            "Content-Security-Policy": (
                f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; "
                "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
                "frame-ancestors 'none'"
            ),
            "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        }

    def page(make: Callable[[str], str], status: int = 200) -> HTMLResponse:
        nonce = secrets.token_urlsafe(12)
        return HTMLResponse(make(nonce), status_code=status, headers=headers(nonce))

    def refused(refusal: Refusal) -> HTMLResponse:
        return page(lambda n: error_page(refusal.status, refusal.message, lang=lang, nonce=n),
                    refusal.status)  # fmt: skip

    def answer(data: dict[str, Any], status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})

    async def body_of(request: Request) -> bytes:
        body: bytes = await request.body()
        if len(body) > MAX_BODY:
            raise Refusal(_("The request is too large."), 413)
        return body

    async def json_of(request: Request) -> dict[str, Any]:
        try:
            data = json.loads(await body_of(request) or b"{}")
        except ValueError:
            raise Refusal(_("The request is not JSON.")) from None
        if not isinstance(data, dict):
            raise Refusal(_("The request is not a JSON object."))
        return data

    def links(table: TableRecord) -> list[tuple[int, str]]:
        return [
            (seat, f"/table/{table.id}/{seat}?token={s.token}")
            for seat, s in enumerate(table.seats)
            if s.human
        ]

    async def lobby(request: Request) -> Response:
        return page(lambda n: lobby_page(TABLE_GAMES, lang=lang, nonce=n,
                                         allow_commands=allow_commands))  # fmt: skip

    async def open_from_form(request: Request) -> Response:
        try:
            fields = parse_qs((await body_of(request)).decode("utf-8", "replace"))
            form: dict[str, Any] = {k: v[-1] for k, v in fields.items()}
            players = int(form.get("players") or 0) if str(form.get("players", "")).isdigit() else 0
            form["seats"] = [
                "cmd:" + str(form.get(f"cmd{p}", "")).strip()
                if form.get(f"seat{p}") == "cmd"
                else str(form.get(f"seat{p}", ""))
                for p in range(players)
            ]
            table = tables.open(form)
        except Refusal as refusal:
            return refused(refusal)
        return page(
            lambda n: links_page(
                table.id, links(table), seat_names(table, lang), lang=lang, nonce=n
            )
        )

    async def open_from_json(request: Request) -> Response:
        try:
            table = tables.open(await json_of(request))
        except Refusal as refusal:
            return answer({"ok": False, "message": refusal.message}, refusal.status)
        return answer(
            {"ok": True, "table": table.id,
             "seats": [{"seat": seat, "url": url} for seat, url in links(table)]}
        )  # fmt: skip

    async def seat_view_page(request: Request) -> Response:
        p = request.path_params
        token = request.query_params.get("token")
        try:
            _seat_of(tables, p["table"], p["seat"], token)
        except Refusal as refusal:
            return refused(refusal)
        assert token is not None
        return page(lambda n: seat_page(p["table"], int(p["seat"]), token, lang=lang, nonce=n))

    async def view(request: Request) -> Response:
        p = request.path_params
        try:
            room, seat = _seat_of(tables, p["table"], p["seat"], request.query_params.get("token"))
        except Refusal as refusal:
            return answer({"ok": False, "message": refusal.message}, refusal.status)
        return answer(room.view(seat))

    def acting(
        do: Callable[[Room, int, dict[str, Any]], Awaitable[None]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            p = request.path_params
            room: Room | None = None
            seat = -1
            try:
                data = await json_of(request)
                room, seat = _seat_of(tables, p["table"], p["seat"], data.get("token"))
                await do(room, seat, data)
            except Refusal as refusal:
                shown = room.view(seat) if room is not None and refusal.status < 403 else None
                return answer(
                    {"ok": False, "message": refusal.message, "view": shown}, refusal.status
                )
            return answer({"ok": True, "view": room.view(seat)})

        return endpoint

    async def move(room: Room, seat: int, data: dict[str, Any]) -> None:
        index, ply, target = data.get("index"), data.get("ply"), data.get("target")
        cards = data.get("cards") or []
        kind = data.get("kind")
        if (
            (index is not None and type(index) is not int)
            or (ply is not None and type(ply) is not int)
            or (target is not None and type(target) is not int)
            or (kind is not None and not isinstance(kind, str))
            or not isinstance(cards, list)
            or not all(isinstance(c, str) and len(c) <= 4 for c in cards)
            or len(cards) > 20
        ):
            raise Refusal(_("That is not a move."))
        await room.play(seat, ply, index=index, kind=kind, cards=tuple(cards), target=target)

    async def undo(room: Room, seat: int, data: dict[str, Any]) -> None:
        await room.undo(seat)

    async def next_deal(room: Room, seat: int, data: dict[str, Any]) -> None:
        await room.next_deal(seat)

    async def socket(websocket: WebSocket) -> None:
        p = websocket.path_params
        try:
            room, seat = _seat_of(
                tables, p["table"], p["seat"], websocket.query_params.get("token")
            )
        except Refusal:
            await websocket.close(code=1008)  # before the handshake: the client gets a 403
            return
        await websocket.accept()
        queue = room.listen(seat)

        async def reader() -> None:
            with contextlib.suppress(WebSocketDisconnect):
                while True:
                    await websocket.receive_text()  # the page says nothing; this notices it leave

        gone = asyncio.create_task(reader())
        try:
            while True:
                news = asyncio.create_task(queue.get())
                done, _pending = await asyncio.wait(
                    {news, gone}, return_when=asyncio.FIRST_COMPLETED
                )
                if news not in done:
                    news.cancel()
                    break
                await websocket.send_text(json.dumps(news.result(), ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            room.leave(seat, queue)
            gone.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            tables.close()

    async def no_such_page(request: Request, error: Exception) -> Response:
        """A path the table does not serve, or a method it does not take: the
        refusal in the server's language (as a page, or JSON under /api/)."""
        status = getattr(error, "status_code", 404)
        message = _("There is no such page.") if status == 404 else _("The request is not allowed.")
        if request.url.path.startswith("/api/"):
            return answer({"ok": False, "message": message}, status)
        return refused(Refusal(message, status))

    app = Starlette(
        exception_handlers={404: no_such_page, 405: no_such_page},
        routes=[
            Route("/", lobby),
            Route("/tables", open_from_form, methods=["POST"]),
            Route("/api/tables", open_from_json, methods=["POST"]),
            Route("/table/{table}/{seat}", seat_view_page),
            Route("/api/table/{table}/{seat}", view),
            Route("/api/table/{table}/{seat}/move", acting(move), methods=["POST"]),
            Route("/api/table/{table}/{seat}/undo", acting(undo), methods=["POST"]),
            Route("/api/table/{table}/{seat}/next", acting(next_deal), methods=["POST"]),
            WebSocketRoute("/ws/table/{table}/{seat}", socket),
        ],
        lifespan=lifespan,
    )
    app.state.tables = tables
    return app

"""The web server: a Starlette application (the ``web`` extra).

Routes:

- ``GET /``: the lobby; ``POST /tables``: open a table from the lobby's form,
  answered with a redirect to the table's links page ``GET /links/{id}?key=…``
  (``POST /api/tables`` does the same with JSON and answers JSON);
- ``GET /rules/{game}/{preset}``: a rules sheet;
- ``GET /table/{id}/{seat}?token=…``: a seat's page (``&lang=ja``: in
  Japanese, from then on, for that seat);
- ``GET /api/table/{id}/{seat}?token=…``: the seat's view as JSON;
- ``POST /api/table/{id}/{seat}/move``, ``…/undo``, ``…/next``, ``…/again``:
  what the seat does (JSON with the ``token``);
- ``WS /ws/table/{id}/{seat}?token=…``: the seat's view after every change.

Every request about a seat needs that seat's token: without it, with
another seat's, or for a table that does not exist, the answer is the same
404, and nothing of the table (its bots are not even woken). Every request
that changes anything must come from the server's own pages
(:mod:`sevenbridge.web._guard`), and every size is bounded before it is read.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import attrs
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .._kit.i18n import LANGUAGES, N_, check_lang, translate, translator
from .._kit.rng import fresh_seed
from ..errors import SevenBridgeError
from ._bots import LOBBY_BOTS, BotMenu
from ._db import GHOST, HUMAN, Seat, TableRecord, TableStore
from ._games import TABLE_GAMES
from ._guard import CreationLimiter, FormTokens, Limits, host_of, same_origin
from ._pages import error_page, links_page, lobby_page, rules_page, seat_page
from ._room import Refusal, Room, seat_names

__all__ = ["make_app"]

_log = logging.getLogger("sevenbridge.web")

#: What a table's id looks like (the server makes them with ``secrets.token_urlsafe``).
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: The longest seat token a request may carry (the server's are 24 characters).
_MAX_TOKEN = 64
#: A move request that names no move (in the seat's language).
_NOT_A_MOVE = N_("That is not a move.")
#: The pace a table may be opened with: seconds a bot waits before it moves.
MOST_PAUSE = 5.0
#: The longest ``Accept-Language`` header read (the rest is ignored).
_MAX_ACCEPT = 200


def browser_lang(query: object, accept: str | None) -> str | None:
    """The language a request asks for: ``lang`` in its query if it is one
    we have, else the first of ours in its ``Accept-Language`` (by weight),
    else ``None`` (the server's language then)."""
    if isinstance(query, str) and query in LANGUAGES:
        return query
    wanted: list[tuple[float, int, str]] = []
    for k, part in enumerate((accept or "")[:_MAX_ACCEPT].split(",")[:20]):
        tag, _sep, rest = part.strip().partition(";")
        weight = 1.0
        if rest.strip().startswith("q="):
            try:
                weight = float(rest.strip()[2:7])
            except ValueError:
                continue
        lang = tag.strip().split("-", 1)[0].lower()
        if lang in LANGUAGES and weight > 0:
            wanted.append((-weight, k, lang))
    return min(wanted)[2] if wanted else None


def _pace(value: object) -> float | bool | None:
    """A table's pace from the lobby (seconds, from 0 to :data:`MOST_PAUSE`),
    bounded before it is read: ``None`` when it is missing, ``False`` when it
    is no such number."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        text = value.strip()
        if len(text) > 5 or not text.replace(".", "", 1).isdigit() or not text.isascii():
            return False
        value = float(text)
    if isinstance(value, (int, float)) and 0 <= value <= MOST_PAUSE:
        return round(float(value), 2)
    return False


def again_id(table: TableRecord) -> str:
    """The id of the table that plays again after ``table`` (the same for
    everybody who asks, and after a restart)."""
    digest = hashlib.blake2b(
        (table.id + "\n" + links_key(table)).encode(), digest_size=6, person=b"7bridge-again"
    )
    return base64.urlsafe_b64encode(digest.digest()).decode()


class Tables:
    """The tables of one server: the store, and the rooms of the tables in play
    (loaded on first use, the least recently used idle ones let go past
    :attr:`Limits.rooms <sevenbridge.web.Limits.rooms>`)."""

    def __init__(
        self, store: TableStore, *, lang: str, pause: float, claim_seconds: float,
        menu: BotMenu, limits: Limits, allow_seed: bool = False,
    ) -> None:  # fmt: skip
        self.store = store
        self.allow_seed = allow_seed
        self.lang = lang
        self.pause = pause
        self.claim_seconds = claim_seconds
        self.menu = menu
        self.limits = limits
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        #: Tables whose stored rows cannot be played (what went wrong is in the log).
        self.damaged: set[str] = set()
        self.creations = CreationLimiter(limits.tables_per_client, limits.tables_per_hour)

    def record(self, table_id: str) -> tuple[TableRecord, list[str]] | None:
        """A table as stored (or as its room holds it); ``None``: no such table.

        Raises:
            Refusal: 409 for a table whose stored rows cannot be read.
        """
        room = self.rooms.get(table_id)
        if room is not None:
            return room.table, room.moves
        try:
            return self.store.load(table_id)
        except Exception as error:  # an edited row of the wrong type
            self._damage(table_id, error)
            raise self._damaged_refusal() from None

    def _damage(self, table_id: str, error: object) -> None:
        _log.warning("table %s cannot be played: %s", table_id, error)
        self.damaged.add(table_id)

    def _damaged_refusal(self) -> Refusal:
        _ = translator(self.lang)
        return Refusal(_("This table's stored record is damaged: it cannot be played."), 409)

    def room(self, table: TableRecord, moves: list[str]) -> Room:
        """The room of a stored table, loaded if it is not in memory.

        Raises:
            Refusal: 409 for a table whose stored rows cannot be played.
        """
        if table.id in self.damaged:
            raise self._damaged_refusal()
        room = self.rooms.get(table.id)
        if room is None:
            try:
                room = Room(TABLE_GAMES[table.game], table, list(moves), self.store,
                            lang=self.lang, pause=self.pause, bots=self.menu,
                            claim_seconds=self.claim_seconds)  # fmt: skip
            except Exception as error:  # a stored row that does not replay
                self._damage(table.id, error)
                raise self._damaged_refusal() from None
            with contextlib.suppress(Exception):  # a damaged next table is not this one's
                if self.store.load(again_id(table)) is not None:
                    room.again = again_id(table)
            self.rooms[table.id] = room
            self._let_go()
        self.rooms.move_to_end(table.id)
        return room

    def _let_go(self) -> None:
        """Let the least recently used idle rooms go, past the limit."""
        extra = len(self.rooms) - self.limits.rooms
        for table_id, room in list(self.rooms.items()):
            if extra <= 0:
                break
            if room.idle:
                room.close()
                del self.rooms[table_id]
                extra -= 1

    def open(self, form: dict[str, Any], client: str) -> TableRecord:
        """Open a table from the lobby's choices, for the client at address ``client``.

        Raises:
            Refusal: naming the first choice that is not right, or 429 when the
                client (or the server) has opened as many tables as it may this hour.
        """
        _ = translator(self.lang)
        game_name = form.get("game") or next(iter(TABLE_GAMES))
        game = TABLE_GAMES.get(game_name) if isinstance(game_name, str) else None
        if game is None:
            raise Refusal(_("There is no such game."))
        preset = form.get("rules") or "standard"
        if not isinstance(preset, str) or preset not in game.presets():
            raise Refusal(_("There are no rules called {name}.").format(name=str(preset)[:40]))
        players = _whole(form.get("players"), 2, game.default_players)
        deals = _whole(form.get("deals"), 3, None)
        seed = _whole(form.get("seed"), 20, None)
        if players is None or players is False or deals is False or seed is False:
            raise Refusal(_("Players, deals and seed are whole numbers."))
        pause = _pace(form.get("pause"))
        if pause is False:
            raise Refusal(
                _("The pace is a number of seconds from 0 to {most}.").format(most=int(MOST_PAUSE))
            )
        if players not in game.player_counts:
            raise Refusal(
                _("A table seats {low} to {high} players.").format(
                    low=min(game.player_counts), high=max(game.player_counts)
                )
            )
        specs = form.get("seats") or []
        if not isinstance(specs, list) or len(specs) != players:
            raise Refusal(_("Say who plays each of the {n} seats.").format(n=players))
        chosen_seed = seed is not None
        if seed is not None and seed >= 2**63:  # the tables' database keeps 63 bits
            raise Refusal(_("A table's seed is a whole number from 0 to 2**63 - 1."))
        try:
            rules = game.make_rules(preset, deals)
            if seed is None:
                seed = fresh_seed()
            game.start(rules, players, seed)  # checks the seed and the table size
        except SevenBridgeError as error:
            raise Refusal(translate(error, self.lang)) from None
        # The players sit at the real seats, in order (a mahjong table's ghosts sit between).
        seats = [Seat(GHOST)] * game.seat_total(rules, players)
        for seat, spec in zip(game.real_seats(rules, players), specs, strict=True):
            if isinstance(spec, str) and spec.strip() == HUMAN:
                seats[seat] = Seat(HUMAN, secrets.token_urlsafe(18))
                continue
            refusal = self.menu.refusal(spec, self.lang)  # a name the server offers
            if refusal is not None:
                raise Refusal(f"P{seat}: {refusal}")
            assert isinstance(spec, str)
            seats[seat] = Seat(spec.strip())
        people = sum(s.human for s in seats)
        if not people:
            raise Refusal(_("A table needs at least one person."))
        if people > 1 and chosen_seed and not self.allow_seed:
            raise Refusal(
                _("A seed can be chosen only at a table of one person: whoever chooses it "
                  "knows every card.")
            )  # fmt: skip
        if people > 1 and form.get("practice"):
            raise Refusal(
                _("A practice table is for one person: an undo shows cards the others "
                  "have not seen.")
            )  # fmt: skip
        if self.creations.full(client):
            raise Refusal(
                _("This server has opened as many tables as it may for now: try again later."),
                429,
            )
        table = TableRecord(
            id=secrets.token_urlsafe(6), game=game.name, rules=game.rules_json(rules),
            players=players, seed=seed, practice=bool(form.get("practice")),
            seats=tuple(seats), created=time.time(),
            pause=pause if isinstance(pause, float) else None,
        )  # fmt: skip
        self.store.create(table)
        self.creations.count(client)
        return table

    def again(self, room: Room, seat: int, client: str) -> str:
        """The table that plays again after ``room``'s match: the same game,
        rules, seats (each person's link changes only in the table's id) and
        bots, the next seed; opened by the first who asks, the same for the others.

        Raises:
            Refusal: before the match is over, or 429 when the client (or the
                server) has opened as many tables as it may this hour.
        """
        _ = translator(room.lang_of(seat))
        if not (room.paused and room.game.series_over(room.series)):
            raise Refusal(_("The match is not over yet."))
        table = room.table
        new_id = again_id(table)
        if room.again is None and self.store.load(new_id) is None:
            if self.creations.full(client):
                raise Refusal(
                    _("This server has opened as many tables as it may for now: try again later."),
                    429,
                )
            self.store.create(attrs.evolve(
                table, id=new_id, seed=(table.seed + 1) % 2**63, seen=0, created=time.time(),
            ))  # fmt: skip
            for s, lang in room.langs.items():
                self.store.set_lang(new_id, s, lang)
            self.creations.count(client)
        room.set_again(new_id)
        return new_id

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        self.store.close()


def _whole(value: object, digits: int, default: int | None) -> int | bool | None:
    """A whole number of a form or a JSON request, bounded in its digits before
    it is read: ``default`` when it is missing, ``False`` when it is no such number."""
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value if 0 <= value < 10**digits else False
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= digits:
            return int(text)
    return False


def links_key(table: TableRecord) -> str:
    """The key of a table's links page: a digest of its people's secret tokens,
    so that only who was handed every link (whoever opened the table) has it,
    and a restarted server works it out again."""
    tokens = "\n".join(s.token or "" for s in table.seats if s.human)
    return hashlib.blake2b(tokens.encode(), digest_size=16, person=b"7bridge-links").hexdigest()


def _same_secret(secret: object, given: object) -> bool:
    return (
        isinstance(secret, str)
        and isinstance(given, str)
        and secrets.compare_digest(secret.encode(), given.encode())
    )


def _seat_of(tables: Tables, table_id: str, seat_text: str, token: object) -> tuple[Room, int]:
    """The room and seat a request is about, if its token opens that seat.
    Nothing of the table is loaded into play (nor are its bots woken) before
    the token is checked.

    Raises:
        Refusal: the same 404 for a table that does not exist and for any
            token but the seat's; 409 for a table whose stored record is damaged.
    """
    _ = translator(tables.lang)
    refusal = Refusal(_("This link does not open a seat of this table."), 404)
    if (
        not _TABLE_ID.fullmatch(table_id)
        or not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 2)
        or not isinstance(token, str)
        or len(token) > _MAX_TOKEN
    ):
        raise refusal
    stored = tables.record(table_id)
    if stored is None:
        raise refusal
    table, moves = stored
    seat = int(seat_text)
    if seat >= len(table.seats):
        raise refusal
    if not table.seats[seat].human or not _same_secret(table.seats[seat].token, token):
        raise refusal
    room = tables.room(table, moves)
    room.wake()
    return room, seat


def make_app(
    db: str | Path,
    *,
    lang: str = "en",
    pause: float = 0.8,
    claim_seconds: float = 15.0,
    bots: BotMenu | None = None,
    allowed_hosts: frozenset[str] = frozenset(),
    limits: Limits | None = None,
    allow_seed: bool = False,
) -> Any:
    """The web table as an ASGI application (see :func:`sevenbridge.web.create_app`)."""
    lang = check_lang(lang)
    _ = translator(lang)
    menu = bots if bots is not None else BotMenu()
    limits = limits if limits is not None else Limits()
    tables = Tables(TableStore(db), lang=lang, pause=pause, claim_seconds=claim_seconds,
                    menu=menu, limits=limits, allow_seed=allow_seed)  # fmt: skip
    forms = FormTokens()

    def headers(nonce: str) -> dict[str, str]:
        return {
            "Content-Security-Policy": (
                f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; "
                "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
                "frame-ancestors 'none'"
            ),
            "Referrer-Policy": "same-origin",
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        }

    def page(make: Callable[[str], str], status: int = 200) -> HTMLResponse:
        nonce = secrets.token_urlsafe(12)
        return HTMLResponse(make(nonce), status_code=status,
                            headers={**headers(nonce), **closing(status)})  # fmt: skip

    def closing(status: int) -> dict[str, str]:
        """A too-large request's connection is closed after the answer, so the
        rest of its body is never read."""
        return {"Connection": "close"} if status in (408, 413) else {}

    def refused(refusal: Refusal) -> HTMLResponse:
        return page(lambda n: error_page(refusal.status, refusal.message, lang=lang, nonce=n),
                    refusal.status)  # fmt: skip

    def answer(data: dict[str, Any], status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status,
                            headers={"Cache-Control": "no-store", **closing(status)})  # fmt: skip

    async def body_of(request: Request) -> bytes:
        """The request's body, refused (413) as soon as it is past the limit:
        by its declared length before a byte is read, else while it streams in."""
        most = limits.body_bytes
        too_large = Refusal(_("The request is too large."), 413)
        declared = request.headers.get("content-length")
        if declared is not None and (
            not declared.isascii() or not declared.isdigit() or len(declared) > 12
            or int(declared) > most
        ):  # fmt: skip
            raise too_large
        chunks: list[bytes] = []

        async def read() -> None:
            size = 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > most:
                    raise too_large
                chunks.append(chunk)

        try:
            # A body sent a byte at a time holds a connection no longer than this.
            await asyncio.wait_for(read(), limits.header_seconds)
        except asyncio.TimeoutError:
            raise Refusal(_("The request took too long to send."), 408) from None
        except ClientDisconnect:  # gone: whatever is answered goes nowhere
            raise Refusal(_("The request took too long to send."), 400) from None
        return b"".join(chunks)

    async def json_of(request: Request) -> dict[str, Any]:
        media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if media != "application/json":
            # text/plain and the form types need no preflight: a page of another
            # site could send them, so the API takes JSON as JSON only.
            raise Refusal(_("The request must be JSON (Content-Type: application/json)."), 415)
        try:
            data = json.loads(await body_of(request) or b"{}")
        except (ValueError, RecursionError):
            raise Refusal(_("The request is not JSON.")) from None
        if not isinstance(data, dict):
            raise Refusal(_("The request is not a JSON object."))
        return data

    def client_of(request: Request) -> str:
        return request.client.host if request.client is not None else "?"

    def links(table: TableRecord) -> list[tuple[int, str]]:
        return [
            (seat, f"/table/{table.id}/{seat}?token={s.token}")
            for seat, s in enumerate(table.seats)
            if s.human
        ]

    def links_url(table: TableRecord) -> str:
        return f"/links/{table.id}?key={links_key(table)}"

    def lang_of(request: Request) -> str:
        """The language a page is made in: the request's (its ``lang`` or its
        browser's), else the server's."""
        asked = browser_lang(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        return asked or lang

    def base_of(request: Request) -> str:
        return str(request.base_url).rstrip("/")  # as the browser reached the server

    async def lobby(request: Request) -> Response:
        here = lang_of(request)
        return page(lambda n: lobby_page(TABLE_GAMES, lang=here, nonce=n,
                                         bots=tuple(menu.operator), form_token=forms.make(),
                                         pause=tables.pause, most_pause=MOST_PAUSE))  # fmt: skip

    async def rules_sheet(request: Request) -> Response:
        game = TABLE_GAMES.get(request.path_params["game"])
        preset = request.path_params["preset"]
        if game is None or preset not in game.presets():
            return refused(Refusal(_("There is no such page."), 404))
        here = lang_of(request)
        return page(lambda n: rules_page(game, preset, lang=here, nonce=n))

    async def open_from_form(request: Request) -> Response:
        try:
            fields = parse_qs((await body_of(request)).decode("utf-8", "replace"),
                              max_num_fields=64)  # fmt: skip
            form: dict[str, Any] = {k: v[-1] for k, v in fields.items()}
            if not forms.valid(form.get("form_token")):
                raise Refusal(_("This form is out of date: open the lobby again."), 403)
            players = _whole(form.get("players"), 2, 0)
            most = max(n for g in TABLE_GAMES.values() for n in g.player_counts)
            count = players if isinstance(players, int) and 0 < players <= most else 0
            by_name = dict(LOBBY_BOTS)
            form["seats"] = [
                by_name.get(str(form.get(f"seat{p}", "")), str(form.get(f"seat{p}", "")))
                for p in range(count)
            ]
            table = tables.open(form, client_of(request))
        except ValueError:  # parse_qs: more fields than any lobby form has
            return refused(Refusal(_("The request is too large."), 413))
        except Refusal as refusal:
            return refused(refusal)
        # Post/Redirect/Get: a reload of the links page opens no second table.
        asked = form.get("lang")
        here = f"&lang={asked}" if isinstance(asked, str) and asked in LANGUAGES else ""
        return RedirectResponse(links_url(table) + here, status_code=303,
                                headers={"Cache-Control": "no-store"})  # fmt: skip

    async def links_view(request: Request) -> Response:
        table_id = request.path_params["table"]
        key = request.query_params.get("key")
        refusal = Refusal(_("This link does not open a seat of this table."), 404)
        try:
            stored = tables.record(table_id) if _TABLE_ID.fullmatch(table_id) else None
            if stored is None or not _same_secret(links_key(stored[0]), key):
                raise refusal
        except Refusal as no:
            return refused(no)
        table = stored[0]
        here = lang_of(request)
        return page(
            lambda n: links_page(
                table.id, links(table), seat_names(table, here), lang=here, nonce=n,
                base=base_of(request), title=translator(here)(TABLE_GAMES[table.game].title)
                if table.game in TABLE_GAMES else "", links_url=links_url(table),
            )
        )  # fmt: skip

    async def open_from_json(request: Request) -> Response:
        try:
            table = tables.open(await json_of(request), client_of(request))
        except Refusal as refusal:
            return answer({"ok": False, "message": refusal.message}, refusal.status)
        base = base_of(request)
        return answer(
            {"ok": True, "table": table.id, "links": links_url(table),
             "links_address": base + links_url(table),
             "seats": [{"seat": seat, "url": url, "address": base + url}
                       for seat, url in links(table)]}
        )  # fmt: skip

    async def seat_view_page(request: Request) -> Response:
        p = request.path_params
        token = request.query_params.get("token")
        try:
            room, seat = _seat_of(tables, p["table"], p["seat"], token)
        except Refusal as refusal:
            return refused(refusal)
        assert token is not None
        # The seat's language: asked for in the link (a switch), else the one
        # the seat chose before, else the browser's; kept for the seat.
        asked = request.query_params.get("lang")
        here = (
            asked if isinstance(asked, str) and asked in LANGUAGES
            else room.langs.get(seat) or lang_of(request)
        )  # fmt: skip
        room.set_lang(seat, here)
        title = translator(here)(room.game.title)
        return page(lambda n: seat_page(p["table"], seat, token, lang=here, nonce=n,
                                        rules_link=room.rules_link(here), title=title))  # fmt: skip

    async def view(request: Request) -> Response:
        p = request.path_params
        try:
            room, seat = _seat_of(tables, p["table"], p["seat"], request.query_params.get("token"))
        except Refusal as refusal:
            return answer({"ok": False, "message": refusal.message}, refusal.status)
        return answer(room.view(seat))

    def acting(
        do: Callable[[Room, int, dict[str, Any]], Awaitable[None]] | None,
    ) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint of what a seat does (``None``: play again)."""

        async def endpoint(request: Request) -> Response:
            p = request.path_params
            room: Room | None = None
            seat = -1
            try:
                data = await json_of(request)
                room, seat = _seat_of(tables, p["table"], p["seat"], data.get("token"))
                await (again(client_of(request)) if do is None else do)(room, seat, data)
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
            (index is not None and (type(index) is not int or not 0 <= index < 10_000))
            or (ply is not None and (type(ply) is not int or not 0 <= ply < 10**9))
            or (target is not None and (type(target) is not int or not 0 <= target < 1_000))
            or (kind is not None and (not isinstance(kind, str) or len(kind) > 20))
            or not isinstance(cards, list)
            or len(cards) > 20
            or not all(isinstance(c, str) and len(c) <= 4 for c in cards)
        ):
            raise Refusal(translator(room.lang_of(seat))(_NOT_A_MOVE))
        await room.play(seat, ply, index=index, kind=kind, cards=tuple(cards), target=target)

    async def undo(room: Room, seat: int, data: dict[str, Any]) -> None:
        await room.undo(seat)

    async def next_deal(room: Room, seat: int, data: dict[str, Any]) -> None:
        await room.next_deal(seat)

    def again(client: str) -> Callable[[Room, int, dict[str, Any]], Awaitable[None]]:
        async def play_again(room: Room, seat: int, data: dict[str, Any]) -> None:
            async with room.lock:
                tables.again(room, seat, client)

        return play_again

    async def socket(websocket: WebSocket) -> None:
        p = websocket.path_params
        try:
            room, seat = _seat_of(
                tables, p["table"], p["seat"], websocket.query_params.get("token")
            )
        except Refusal:
            await websocket.close(code=1008)  # before the handshake: the client gets a 403
            return
        if len(room.listeners.get(seat, ())) >= limits.watchers_per_seat:
            await websocket.close(code=1008)  # as many pages on this seat as it may have
            return
        await websocket.accept()
        queue = room.listen(seat)

        async def reader() -> None:
            """The page says nothing: this notices it leave, and ends a
            connection that sends too much or too often."""
            times: list[float] = []
            with contextlib.suppress(WebSocketDisconnect):
                while True:
                    message = await websocket.receive()
                    if message["type"] == "websocket.disconnect":
                        return
                    data = message.get("text") or message.get("bytes") or ""
                    now = time.monotonic()
                    times = [t for t in times if t > now - 60] + [now]
                    if (
                        len(data) > limits.socket_message_bytes
                        or len(times) > limits.socket_messages_per_minute
                    ):
                        await websocket.close(code=1008)
                        return

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
            Route("/rules/{game}/{preset}", rules_sheet),
            Route("/tables", open_from_form, methods=["POST"]),
            Route("/links/{table}", links_view),
            Route("/api/tables", open_from_json, methods=["POST"]),
            Route("/table/{table}/{seat}", seat_view_page),
            Route("/api/table/{table}/{seat}", view),
            Route("/api/table/{table}/{seat}/move", acting(move), methods=["POST"]),
            Route("/api/table/{table}/{seat}/undo", acting(undo), methods=["POST"]),
            Route("/api/table/{table}/{seat}/next", acting(next_deal), methods=["POST"]),
            Route("/api/table/{table}/{seat}/again", acting(None), methods=["POST"]),
            WebSocketRoute("/ws/table/{table}/{seat}", socket),
        ],
        lifespan=lifespan,
    )
    app.state.tables = tables
    return Gate(app, allowed_hosts, lang, limits)


class Gate:
    """The ASGI application that lets through only what may reach the table:
    a request whose ``Host`` the server answers to (any other gets 421); a
    request that changes anything (a ``POST``, or a WebSocket) from one of the
    server's own pages, by its ``Origin`` (any other gets 403, a WebSocket a
    refused handshake; see :func:`sevenbridge.web._guard.same_origin`); and no
    more requests in progress from one client address than
    :attr:`Limits.requests_per_client <sevenbridge.web.Limits.requests_per_client>`
    (more get 503)."""

    def __init__(self, app: Starlette, allowed: frozenset[str], lang: str, limits: Limits) -> None:
        self.app = app
        self.state = app.state
        self.allowed = allowed
        self.lang = lang
        self.limits = limits
        #: Requests in progress, by client address.
        self.in_progress: dict[str, int] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        found: dict[bytes, str] = {}
        for name, value in scope.get("headers", ()):
            if name in (b"host", b"origin") and name not in found:
                found[name] = value.decode("latin-1")
        host, origin = found.get(b"host"), found.get(b"origin")
        changes = scope["type"] == "websocket" or scope.get("method") not in ("GET", "HEAD")
        client = str((scope.get("client") or ("?",))[0])
        if host is None or (self.allowed and host_of(host) not in self.allowed):
            status = 421
        elif changes and not same_origin(origin, host, self.allowed):
            status = 403
        elif self.in_progress.get(client, 0) >= self.limits.requests_per_client:
            status = 503
        else:
            self.in_progress[client] = self.in_progress.get(client, 0) + 1
            try:
                await self.app(scope, receive, send)
            finally:
                left = self.in_progress.pop(client) - 1
                if left:
                    self.in_progress[client] = left
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        _ = translator(self.lang)
        message = {
            421: _("This server does not answer to that host name."),
            403: _("The request did not come from this server's pages."),
            503: _("Too many requests from your address at once: try again in a moment."),
        }[status]
        body = json.dumps({"ok": False, "message": message}, ensure_ascii=False).encode()
        await send({
            "type": "http.response.start", "status": status,
            "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store"),
                        (b"content-length", str(len(body)).encode())],
        })  # fmt: skip
        await send({"type": "http.response.body", "body": body})

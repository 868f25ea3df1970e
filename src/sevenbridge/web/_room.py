"""A table in play: its position, its bots and the seats watching it.

A :class:`Room` holds one table's series of deals in memory (rebuilt from the
stored moves), takes the people's moves, lets the bots play theirs with a
visible pause, and hands every watching seat its own view after each change:
what :func:`~sevenbridge.observe` gives that seat, drawn and listed, never the
position itself. It needs nothing but asyncio: the web server wires it to
HTTP and WebSockets.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

import attrs

from .._kit.i18n import N_, name_text, translate, translator
from .._kit.rng import derive
from ..arena import bot_seed
from ..bots import GreedyPlayer, Player
from ..errors import SevenBridgeError
from ..external import ExternalPlayer
from ._base import TableGame
from ._bots import BotMenu
from ._db import GHOST, TableRecord, TableStore

__all__ = ["Refusal", "Room", "seat_names"]

_log = logging.getLogger("sevenbridge.web")

#: Moves shown in a seat's list of recent moves.
LOG_LENGTH = 14
#: Lines of the logs a room keeps told (then it tells them again).
_MOST_LINES = 20_000


class Refusal(Exception):
    """A request the table turns down, with the reason for the person and an
    HTTP status (400: a move that cannot be played, 409: the table moved on)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def bot_label(choice: str) -> str:
    """A bot's short name for the seat labels: ``greedy``, ``ismcts``, the
    name of a server's own bot (``cmd`` for a table stored with a command)."""
    return choice.split(":", 1)[0].strip()[:24]


def seat_names(table: TableRecord, lang: str = "en") -> list[str]:
    """The seats' names at a table: ``P0`` for a person (or a mahjong ghost,
    which the drawings mark), ``P1 greedy`` for a bot (its name in the
    language: ``P1 欲張り``; ``cmd`` for an external bot)."""
    _ = translator(lang)
    names = []
    for p, s in enumerate(table.seats):
        if s.human or s.player == GHOST:
            names.append(f"P{p}")
            continue
        label = bot_label(s.player)
        names.append(f"P{p} " + (_("cmd") if label == "cmd" else name_text(label, lang)))
    return names


class Room:
    """One table in play (see the module's docstring).

    Args:
        game: The game's side of the table.
        table: The stored table.
        moves: Its stored moves, in notation.
        store: Where new moves go.
        lang: The language of the seats' views, for each seat that has not
            chosen its own (:meth:`set_lang`).
        pause: Seconds a bot waits before it moves, so that people see it
            (unless the table was opened with a pace of its own).
        bots: The bots the server offers (the built-in ones by default). A
            stored seat whose bot the server does not offer is never run: the
            greedy bot plays it, and the table says so.
        claim_seconds: The claim clock: how long a person asked about a claim
            has to decide (whether or not they could claim), after which they
            pass. A bot asked about a claim answers after the pause and the
            server's thinking budget, whatever it holds.

    Nothing a seat sees depends on the hidden cards through the table's pace:
    each claim window stays open for a time fixed by who is asked (a person's
    clock, or a bot's pause and budget), not by what anybody could claim.
    """

    def __init__(
        self,
        game: TableGame,
        table: TableRecord,
        moves: list[str],
        store: TableStore,
        *,
        lang: str = "en",
        pause: float = 0.8,
        bots: BotMenu | None = None,
        claim_seconds: float = 15.0,
    ) -> None:
        self.game = game
        self.table = table
        self.store = store
        self.lang = lang
        #: The language each seat chose (the others see ``lang``).
        self.langs: dict[int, str] = dict(table.langs)
        self.pause = pause if table.pause is None else table.pause
        #: The table opened to play again, once somebody asked (its id).
        self.again: str | None = None
        self.menu = bots if bots is not None else BotMenu()
        self.claim_seconds = claim_seconds
        #: The running claim clock: the move count it is for and when it ends
        #: (the event loop's time), or ``None``.
        self.clock: tuple[int, float] | None = None
        #: Set at every change, so that a waiting clock or pause looks again.
        self.moved = asyncio.Event()
        #: The table's own thread for its bots' decisions: one table's bots
        #: never wait for another table's.
        self.thinker = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix=f"table-{table.id}"
        )
        self.rules = game.read_rules(table.rules)
        #: The log's lines as told, by move number, seat and language.
        self.lines: dict[tuple[int, int, str], str] = {}
        self.moves: list[str] = []
        #: Each move with the positions before and after it (to tell it in words).
        self.steps: list[tuple[Any, Any, Any]] = []
        #: Who made each move, and whether it was a choice (not a lone pass played for them).
        self.choices: list[tuple[int, bool]] = []
        #: Where each deal's moves begin (the last: the deal in play, or none
        #: once the match is over).
        self.deal_starts = [0]
        self.series = game.start(self.rules, table.players, table.seed)
        for text in moves:
            self._play(game.parse_move(text), keep=False)
        self.version = 0
        #: Changes with every start of the room (a restarted server counts
        #: its versions from 0 again): a page keeps the newest view of an epoch.
        self.epoch = secrets.token_hex(4)
        self.lock = asyncio.Lock()
        self.listeners: dict[int, set[asyncio.Queue[dict[str, Any]]]] = {}
        self.bots: dict[int, Player] = {}
        #: Seats whose bot was replaced by the greedy one.
        self.replaced: set[int] = set()
        self.bot_deal: dict[int, int] = {}
        #: What the table says of a replaced bot: the message and the seat.
        self.notice: tuple[str, int] | None = None
        self.runner: asyncio.Task[None] | None = None
        self.names = seat_names(table, lang)
        for seat, s in enumerate(table.seats):
            if not s.human and s.player != GHOST and self.menu.refusal(s.player, lang):
                _log.warning("table %s: seat %d's bot is not offered here", table.id, seat)
                self._replace_bot(seat, "not offered", failed=False)

    # -- the series of deals -------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether the table shows a finished deal's result and waits for
        somebody to ask for the next deal (or for nobody: the match is over)."""
        return len(self.game.finished(self.series)) > self.table.seen

    def shown_position(self) -> Any:
        """The position the seats see: the finished deal while the table waits
        on its result, else the deal in play."""
        if self.paused:
            return self.game.finished(self.series)[-1]
        return self.game.position(self.series)

    def _play(self, action: Any, *, keep: bool = True) -> None:
        """Apply a legal move (and keep it in the store)."""
        done = len(self.game.finished(self.series))
        before = self.game.position(self.series)
        legal = self.game.legal_actions(before)
        self.series = self.game.apply(self.series, action)
        text = self.game.format_move(action)
        if keep:
            self.store.add_move(self.table.id, len(self.moves), text)
        self.moves.append(text)
        finished = self.game.finished(self.series)
        after = finished[-1] if len(finished) > done else self.game.position(self.series)
        self.steps.append((before, action, after))
        self.choices.append((self.game.player(action), self.game.automatic(legal) is None))
        if len(self.game.finished(self.series)) > done:
            self.deal_starts.append(len(self.moves))
            if keep:
                self._end_external_deals()

    def _rebuild(self, moves: list[str]) -> None:
        self.series = self.game.start(self.rules, self.table.players, self.table.seed)
        self.moves, self.steps, self.choices, self.deal_starts = [], [], [], [0]
        self.lines.clear()
        for text in moves:
            self._play(self.game.parse_move(text), keep=False)

    # -- what a seat sees -------------------------------------------------------

    def lang_of(self, seat: int) -> str:
        """The language of a seat: its own choice, else the table's."""
        return self.langs.get(seat, self.lang)

    def set_lang(self, seat: int, lang: str) -> None:
        """Keep the language a seat chose (``lang``: a language we have), and
        send the seat its view in it."""
        if self.langs.get(seat) != lang:
            self.langs[seat] = lang
            self.store.set_lang(self.table.id, seat, lang)
            self._changed()

    def rules_link(self, lang: str) -> str:
        """The address of the table's rules sheet in ``lang``: its preset's,
        or the standard one for rules of no preset."""
        name = self.game.preset_name(self.rules)
        preset = name if name in self.game.presets() else "standard"
        return f"/rules/{self.game.name}/{preset}?lang={lang}"

    def _log(self, seat: int, lang: str, names: list[str], start: int, end: int) -> list[str]:
        """The last :data:`LOG_LENGTH` lines of ``seat``'s log of moves
        ``start`` to ``end`` (each line told once, then kept)."""
        if len(self.lines) > _MOST_LINES:
            self.lines.clear()
        out: list[str] = []
        for ply in range(end - 1, start - 1, -1):
            key = (ply, seat, lang)
            line = self.lines.get(key)
            if line is None:
                line = self.game.log_line(*self.steps[ply], names, seat, lang)
                self.lines[key] = line
            if line:
                out.append(line)
                if len(out) == LOG_LENGTH:
                    break
        return out[::-1]

    def set_again(self, table_id: str) -> None:
        """Tell every seat that the table ``table_id`` plays again after this one."""
        if self.again != table_id:
            self.again = table_id
            self._changed()

    def view(self, seat: int) -> dict[str, Any]:
        """Everything one seat's page shows, built from that seat's view alone,
        in the seat's language."""
        game, lang = self.game, self.lang_of(seat)
        _ = translator(lang)
        names = seat_names(self.table, lang)
        paused = self.paused
        position = self.shown_position()
        view = game.observe(position, seat)
        legal = game.legal_actions(position) if not paused else ()
        # Every person asked about a claim is offered the pass, whether or not
        # they could claim: the prompt tells nobody what they hold.
        your_turn = bool(legal) and game.player(legal[0]) == seat
        moves = []
        if your_turn:
            for index, action in enumerate(legal):
                moves.append({"index": index, **game.describe(action, lang, view, names)})
        starts = self.deal_starts
        shown = self.steps[starts[-2] : starts[-1]] if paused else self.steps[starts[-1] :]
        first = starts[-2] if paused else starts[-1]
        log = self._log(seat, lang, names, first, first + len(shown))
        # What the last move did, for a page that animates it (from the seat's view).
        events = game.events(*shown[-1], seat) if shown else []
        finished = game.finished(self.series)
        result = None
        if paused:
            over = game.series_over(self.series)
            result = {
                **game.deal_result(position, seat, names, lang),
                "title": _(game.deal_over).format(k=len(finished)),
                "hand_word": _(game.hand_word),
                "deal": len(finished),
                "totals": list(game.totals(self.series)),
                "over": over,
                "winners": list(game.winners(self.series)) if over else [],
            }
        human = [s.human for s in self.table.seats]
        return {
            "type": "view",
            "table": self.table.id,
            "seat": seat,
            "epoch": self.epoch,
            "version": self.version,
            "ply": len(self.moves),
            "deal": len(finished) + (0 if paused else 1),
            "title": _(game.title),
            "deal_word": _(game.deal_word),
            "hand_head": _(game.hand_head),
            "rules": name_text(game.preset_name(self.rules), lang),
            "rules_url": self.rules_link(lang),
            "lang": lang,
            "names": names,
            "humans": human,
            "status": game.status(view, names, lang),
            "your_turn": your_turn,
            "svg": game.draw(view, names=names, lang=lang),
            "svg_narrow": game.draw(view, names=names, lang=lang, layout="narrow"),
            "hand": game.hand(view, lang),
            "kinds": [[k, _(label)] for k, label in game.kinds],
            "choosable": list(game.choosable),
            "moves": moves,
            "log": log,
            "events": events,
            "practice": self.table.practice,
            "can_undo": self._undo_point(seat) is not None,
            "result": result,
            "clock": self._clock_left(),
            "notice": None
            if self.notice is None
            else _(self.notice[0]).format(seat=names[self.notice[1]]),
            "again": self.again,
            "observation": json.loads(view.to_json()),
        }

    @property
    def idle(self) -> bool:
        """Whether nobody watches the table and no bot is thinking: the room
        can be let go (the store keeps the table)."""
        return not any(self.listeners.values()) and (self.runner is None or self.runner.done())

    def listen(self, seat: int) -> asyncio.Queue[dict[str, Any]]:
        """A queue that gets the seat's view after every change (the newest
        only, when the reader falls behind)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        self.listeners.setdefault(seat, set()).add(queue)
        queue.put_nowait(self.view(seat))
        return queue

    def leave(self, seat: int, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending views to ``queue``."""
        self.listeners.get(seat, set()).discard(queue)

    def _claim_window(self, legal: Any) -> bool:
        """Whether the decision is about a claim (pass is one of its moves)."""
        return self.game.passing(legal) is not None

    def _clock_left(self) -> float | None:
        """Seconds left on the running claim clock (``None``: none runs)."""
        if self.clock is None or self.clock[0] != len(self.moves) or self.paused:
            return None
        return round(max(0.0, self.clock[1] - asyncio.get_running_loop().time()), 1)

    def _start_clock(self) -> bool:
        """Start the claim clock if a person is now asked about a claim (and
        say whether it started now)."""
        if self.paused:
            return False
        legal = self.game.legal_actions(self.game.position(self.series))
        if (
            legal
            and self.table.seats[self.game.player(legal[0])].human
            and self._claim_window(legal)
            and (self.clock is None or self.clock[0] != len(self.moves))
        ):
            loop = asyncio.get_running_loop()
            self.clock = (len(self.moves), loop.time() + self.claim_seconds)
            return True
        return False

    def _changed(self) -> None:
        """Send every watching seat its new view."""
        self.moved.set()
        with contextlib.suppress(RuntimeError):  # no event loop: a room built for a test
            self._start_clock()
        self.version += 1
        for seat, queues in self.listeners.items():
            if not queues:
                continue
            view = self.view(seat)
            for queue in queues:
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()  # the reader has not taken the older view: drop it
                queue.put_nowait(view)

    # -- what a person does ---------------------------------------------------

    async def play(
        self,
        seat: int,
        ply: int | None,
        *,
        index: int | None = None,
        kind: str | None = None,
        cards: tuple[str, ...] = (),
        target: int | None = None,
    ) -> None:
        """Play a seat's move: one of its legal moves by ``index``, or the move
        of ``kind`` with the chosen ``cards``.

        Raises:
            Refusal: with the engine's reason when the move is not legal, or
                when the table has moved on since the page's view (``ply``).
        """
        _ = translator(self.lang_of(seat))
        async with self.lock:
            if ply is not None and ply != len(self.moves):
                raise Refusal(_("The table has moved on: look again and choose again."), 409)
            if self.paused:
                raise Refusal(_("This deal is over: ask for the next deal."))
            position = self.game.position(self.series)
            legal = list(self.game.legal_actions(position))
            if index is not None:
                if not 0 <= index < len(legal) or self.game.player(legal[index]) != seat:
                    raise Refusal(_("It is not your turn."))
                action = legal[index]
            else:
                if kind is None:
                    raise Refusal(_("Choose a move."))
                try:
                    action = self.game.selection(seat, kind, cards, target)
                except SevenBridgeError as error:
                    raise Refusal(translate(error, self.lang_of(seat))) from None
                if action not in legal:
                    same = [a for a in legal if self.game.same_cards(a, action)]
                    if len(same) == 1:
                        action = same[0]  # the one way to play those cards (a joker's value)
                    elif same:
                        raise Refusal(
                            _(
                                "Those cards can be played in more than one way: choose one of the moves listed."
                            )
                        )
                    else:
                        raise Refusal(self.game.explain(position, action, self.lang_of(seat)))
            self._play(action)
            self._changed()
        self.wake()

    def _undo_point(self, seat: int) -> int | None:
        """Where an undo of ``seat``'s last move in this deal goes back to."""
        if not self.table.practice or self.paused:
            return None
        for ply in range(len(self.moves) - 1, self.deal_starts[-1] - 1, -1):
            if self.choices[ply] == (seat, True):
                return ply
        return None

    async def undo(self, seat: int) -> None:
        """Take back the seat's last move in this deal and every move since
        (practice tables only).

        Raises:
            Refusal: on a table that is not for practice, or with nothing to undo.
        """
        _ = translator(self.lang_of(seat))
        async with self.lock:
            if not self.table.practice:
                raise Refusal(_("Undo is for practice tables."))
            ply = self._undo_point(seat)
            if ply is None:
                raise Refusal(_("Nothing to undo in this deal."))
            self.store.truncate(self.table.id, ply)
            self._rebuild(self.moves[:ply])
            self._changed()
        self.wake()

    async def next_deal(self, seat: int) -> None:
        """Move on from a finished deal's result to the next deal.

        Raises:
            Refusal: while a deal is in play, or once the match is over.
        """
        _ = translator(self.lang_of(seat))
        async with self.lock:
            if not self.paused:
                raise Refusal(_("The deal is still in play."))
            if self.game.series_over(self.series):
                raise Refusal(_("The match is over."))
            seen = len(self.game.finished(self.series))
            self.store.set_seen(self.table.id, seen)
            self.table = _with_seen(self.table, seen)
            self._changed()
        self.wake()

    # -- the bots -------------------------------------------------------------

    def wake(self) -> None:
        """Let the bots play if one is to move (a running loop goes on)."""
        if self.runner is None or self.runner.done():
            self.runner = asyncio.get_running_loop().create_task(self._run_bots())

    def _bot(self, seat: int) -> Player:
        """The bot of a seat, made on first use from the seat's stored choice.
        Its seeds are one-way (:func:`sevenbridge.arena.bot_seed`): a bot that
        is told its seed (an external bot) learns nothing of the table's
        seed, so it cannot deal the cards again."""
        deal = len(self.game.finished(self.series))
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.menu.make(self.table.seats[seat].player, bot_seed(self.table.seed, 0, seat))
            self.bots[seat] = bot
        if isinstance(bot, ExternalPlayer) and self.bot_deal.get(seat) != deal:
            bot.new_deal(seat=seat, players=self.table.players,
                         seed=bot_seed(self.table.seed, deal, seat), rules=self.rules)  # fmt: skip
            self.bot_deal[seat] = deal
        return bot

    def _bot_turn(self) -> tuple[int, Callable[[], Any], int, float, float] | None:
        """Who moves now without a person's click, how the move is found, the
        move count, and when it may be played: a bot's move after the pause
        (and in a claim window, not before the server's thinking budget is
        spent too, so that a quick pass tells nothing), a person's pass when
        the claim clock runs out. ``None`` if it is nobody's."""
        if self.paused:
            return None
        position = self.game.position(self.series)
        legal = self.game.legal_actions(position)
        if not legal:
            return None
        seat, ply = self.game.player(legal[0]), len(self.moves)
        loop = asyncio.get_running_loop()
        if self.table.seats[seat].human:
            if not self._claim_window(legal):
                return None
            if self._start_clock():
                self._changed()  # a table loaded in a window: the pages learn the clock
            assert self.clock is not None
            passing = self.game.passing(legal)
            return seat, lambda: passing, ply, self.clock[1], self.clock[1]
        try:
            bot = self._bot(seat)
        except SevenBridgeError as error:  # an external bot that does not start
            self._replace_bot(seat, error)
            bot = self.bots[seat]
        view = self.game.bot_view(position)
        start = loop.time() + self.pause
        # A replaced bot is the greedy one, whatever the seat was stored with.
        choice = self.table.seats[seat].player if seat not in self.replaced else "greedy"
        claim = self._claim_window(legal)
        done = start + (self.menu.answer_seconds(choice) if claim else 0.0)
        return seat, lambda: bot(view), ply, start, done

    async def _until(self, when: float, ply: int) -> bool:
        """Wait until the loop's time ``when``; ``False`` as soon as the table
        moves on from move count ``ply`` (a person played, or undid)."""
        loop = asyncio.get_running_loop()
        while len(self.moves) == ply:
            left = when - loop.time()
            if left <= 0:
                return True
            self.moved.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.moved.wait(), left)
        return False

    async def _run_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock:
                turn = self._bot_turn()
            if turn is None:
                return
            seat, decide, ply, start, done = turn
            if not await self._until(start, ply):
                continue  # the table moved on meanwhile: look again
            try:
                action = await loop.run_in_executor(self.thinker, decide)
            except Exception as error:  # a crashed external bot, or a bot's bug
                self._replace_bot(seat, error)
                continue
            if not await self._until(done, ply):
                continue
            async with self.lock:
                if len(self.moves) != ply:
                    continue  # an undo came in while the bot thought
                position = self.game.position(self.series)
                if action not in self.game.legal_actions(position):
                    self._replace_bot(seat, self.game.explain(position, action, self.lang))
                    continue
                self._play(action)
                self._changed()

    def _replace_bot(self, seat: int, why: object, *, failed: bool = True) -> None:
        """A failed (or refused) bot's seat is played by the greedy bot from
        now on, and the table says so. The notice names the seat, never what
        the bot ran or why it failed (an illegal move's reason could tell its
        cards): the server's log has that."""
        old = self.bots.pop(seat, None)
        if isinstance(old, ExternalPlayer):
            old.close()
        if failed:
            _log.warning("table %s: the bot of seat %d failed: %s", self.table.id, seat, why)
        self.bots[seat] = GreedyPlayer(derive(self.table.seed, 9, seat))
        self.replaced.add(seat)
        self.notice = (_REPLACED if failed else _NOT_OFFERED, seat)

    def _end_external_deals(self) -> None:
        final = self.game.finished(self.series)[-1]
        for bot in self.bots.values():
            if isinstance(bot, ExternalPlayer):
                with contextlib.suppress(SevenBridgeError):
                    bot.end_deal(final)

    def close(self) -> None:
        """Stop the bots (an external bot's process ends)."""
        if self.runner is not None:
            self.runner.cancel()
        self.thinker.shutdown(wait=False, cancel_futures=True)
        for bot in self.bots.values():
            if isinstance(bot, ExternalPlayer):
                bot.close()


_REPLACED = N_("The bot of {seat} failed; the greedy bot plays that seat now.")
_NOT_OFFERED = N_("This server does not offer the bot of {seat}; the greedy bot plays that seat.")


def _with_seen(table: TableRecord, seen: int) -> TableRecord:
    return attrs.evolve(table, seen=seen)

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
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

import attrs

from .._kit.i18n import N_, name_text, translate, translator
from .._kit.rng import derive
from ..arena import make_bot
from ..bots import GreedyPlayer, Player
from ..errors import SevenBridgeError
from ..external import ExternalPlayer
from ._base import TableGame
from ._db import GHOST, TableRecord, TableStore

__all__ = ["Refusal", "Room", "seat_names"]

_log = logging.getLogger("sevenbridge.web")

#: Moves shown in a seat's list of recent moves.
LOG_LENGTH = 14


class Refusal(Exception):
    """A request the table turns down, with the reason for the person and an
    HTTP status (400: a move that cannot be played, 409: the table moved on)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def bot_label(spec: str) -> str:
    """A bot's short name for the seat labels: ``greedy``, ``ismcts``, ``cmd``."""
    return spec.split(":", 1)[0].strip()


def seat_names(table: TableRecord, lang: str = "en") -> list[str]:
    """The seats' names at a table: ``P0`` for a person (or a mahjong ghost,
    which the drawings mark), ``P1 greedy`` for a bot (its name in the
    language: ``P1 貪欲``; ``cmd`` for an external bot)."""
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
        lang: The language of the seats' views.
        pause: Seconds a bot waits before it moves, so that people see it.
        move_seconds: How long an external bot may think about one decision.
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
        move_seconds: float = 10.0,
    ) -> None:
        self.game = game
        self.table = table
        self.store = store
        self.lang = lang
        self.pause = pause
        self.move_seconds = move_seconds
        self.rules = game.read_rules(table.rules)
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
        self.bot_deal: dict[int, int] = {}
        self.notice: str | None = None
        self.runner: asyncio.Task[None] | None = None
        self.names = seat_names(table, lang)

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
        for text in moves:
            self._play(self.game.parse_move(text), keep=False)

    # -- what a seat sees -------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """Everything one seat's page shows, built from that seat's view alone."""
        game, lang = self.game, self.lang
        _ = translator(lang)
        paused = self.paused
        position = self.shown_position()
        view = game.observe(position, seat)
        legal = game.legal_actions(position) if not paused else ()
        # A person's lone pass is played for them after the table's pause, so it is
        # never offered: a page would show a button about to vanish under the click.
        your_turn = (
            bool(legal)
            and game.player(legal[0]) == seat
            and not (self.table.seats[seat].human and game.automatic(legal) is not None)
        )
        moves = []
        if your_turn:
            for index, action in enumerate(legal):
                moves.append({"index": index, **game.describe(action, lang, view, self.names)})
        starts = self.deal_starts
        shown = self.steps[starts[-2] : starts[-1]] if paused else self.steps[starts[-1] :]
        told = [step for step in shown if type(step[1]).__name__ not in game.quiet]
        log = [
            game.words(before, action, after, self.names, seat, lang)
            for before, action, after in told[-LOG_LENGTH:]
        ]
        finished = game.finished(self.series)
        result = None
        if paused:
            over = game.series_over(self.series)
            result = {
                **game.deal_result(position, seat, self.names, lang),
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
            "names": self.names,
            "humans": human,
            "status": game.status(view, self.names, lang),
            "your_turn": your_turn,
            "svg": game.draw(view, names=self.names, lang=lang),
            "hand": game.hand(view, lang),
            "kinds": [[k, _(label)] for k, label in game.kinds],
            "choosable": list(game.choosable),
            "moves": moves,
            "log": log,
            "practice": self.table.practice,
            "can_undo": self._undo_point(seat) is not None,
            "result": result,
            "notice": self.notice,
            "observation": json.loads(view.to_json()),
        }

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

    def _changed(self) -> None:
        """Send every watching seat its new view."""
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
        _ = translator(self.lang)
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
                    raise Refusal(translate(error, self.lang)) from None
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
                        raise Refusal(self.game.explain(position, action, self.lang))
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
        _ = translator(self.lang)
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
        _ = translator(self.lang)
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
        bot = self.bots.get(seat)
        if bot is None:
            spec = self.table.seats[seat].player
            bot = make_bot(spec, derive(self.table.seed, 7, seat), move_seconds=self.move_seconds)
            self.bots[seat] = bot
        deal = len(self.game.finished(self.series))
        if isinstance(bot, ExternalPlayer) and self.bot_deal.get(seat) != deal:
            bot.new_deal(seat=seat, players=self.table.players,
                         seed=derive(self.table.seed, 8, deal, seat), rules=self.rules)  # fmt: skip
            self.bot_deal[seat] = deal
        return bot

    def _bot_turn(self) -> tuple[int, Callable[[], Any], int] | None:
        """Who moves now without a person's click (a bot, or a person's lone
        pass), how the move is found, and the move count; ``None`` if nobody."""
        if self.paused:
            return None
        position = self.game.position(self.series)
        legal = self.game.legal_actions(position)
        if not legal:
            return None
        seat = self.game.player(legal[0])
        if self.table.seats[seat].human:
            forced = self.game.automatic(legal)
            return None if forced is None else (seat, lambda: forced, len(self.moves))
        bot, view = self._bot(seat), self.game.bot_view(position)
        return seat, lambda: bot(view), len(self.moves)

    async def _run_bots(self) -> None:
        while True:
            async with self.lock:
                turn = self._bot_turn()
            if turn is None:
                return
            seat, decide, ply = turn
            await asyncio.sleep(self.pause)
            try:
                action = await asyncio.to_thread(decide)
            except Exception as error:  # a crashed external bot, or a bot's bug
                _log.warning("table %s: the bot of seat %d failed: %s", self.table.id, seat, error)
                self._replace_bot(seat, error)
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

    def _replace_bot(self, seat: int, why: object) -> None:
        """A failed bot's seat is played by the greedy bot from now on, and the
        table says so."""
        _ = translator(self.lang)
        failed = self.bots.pop(seat, None)
        if isinstance(failed, ExternalPlayer):
            failed.close()
        self.bots[seat] = GreedyPlayer(derive(self.table.seed, 9, seat))
        self.notice = _(_REPLACED).format(seat=self.names[seat], why=translate(str(why), self.lang))

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
        for bot in self.bots.values():
            if isinstance(bot, ExternalPlayer):
                bot.close()


_REPLACED = N_("The bot of {seat} failed ({why}); the greedy bot plays that seat now.")


def _with_seen(table: TableRecord, seen: int) -> TableRecord:
    return attrs.evolve(table, seen=seen)

"""Running a tournament: the run checked, its bots tried, its decks played
where the run says and kept in its database, its results summed up."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs

from .._store import Store
from ..errors import Message
from ..external import ExternalBotError, ExternalPlayer
from ..games import CARD_GAME
from ._backends import Task, batch_size, batches, check_backend, play
from ._database import claim, factory_specs, secret_seed, sharing, stored_games
from ._entrants import Bot, import_factory, sendable, shown_names
from ._play import seatings
from ._progress import Progress
from ._results import GameResult, TournamentResult
from ._settings import Settings, drawn_seed, entrants, make_entrant, settings_of
from ._statistics import summarize


def run_tournament(
    bots: Sequence[Bot] | None = None,
    rules: Any = None,
    *,
    game: str = CARD_GAME,
    players: int | None = None,
    deals: int = 300,
    seed: int | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    db: str | Path | None = None,
    move_seconds: float = 10.0,
    handshake_seconds: float = 30.0,
    keep_going: bool = False,
    fair: bool | None = None,
    isolate: bool = False,
    progress: bool = True,
    progress_file: TextIO | None = None,
    on_games: Callable[[list[GameResult]], None] | None = None,
    settings: Settings | None = None,
) -> TournamentResult:
    """Play a duplicate tournament and return its results.

    Args:
        bots: One bot per seat: a name (see :func:`make_bot`: a built-in
            bot, ``cmd:COMMAND``, ``py:package.module:factory``), or a pair
            ``(label, factory)``, where ``factory(seed)`` makes a
            :class:`~sevenbridge.bots.Player` (a class such as
            :class:`~sevenbridge.bots.GreedyPlayer` will do). Names and labels
            may repeat (``["ismcts", "greedy", "greedy"]``); figures are per
            name or label. A label is the bot's name in the results and the
            store, which also keeps its factory's import path; with workers,
            Ray or ``isolate``, the factory must pickle (defined at a
            module's top level).
        rules: The rules, the game's own ``Rules`` (default: the game's standard).
        game: The game, a name of :data:`sevenbridge.GAMES`: ``"seven_bridge"``
            (the card game, default) or ``"mahjong"`` (rounds of Simple Mahjong).
        players: The table size; by default one seat per bot. Must equal
            ``len(bots)`` and be one of the game's ``PLAYER_COUNTS``.
        deals: How many deals to play at least; rounded up to whole decks
            (each deck is played once per distinct seating).
        seed: Fixes every deck, seat and choice: the same seed plays the
            same games. ``None`` (the default) draws a secret one from the
            operating system, so that no bot can know the deals beforehand;
            with ``db`` holding a tournament already, its seed (the run
            resumes). The result's ``seed`` tells it, to replay the games.
        workers: Processes to play in (1: in this process), or for
            ``backend="ray"`` without an address, the CPUs of the local Ray
            instance started for the run.
        backend: ``"local"`` (processes on this machine) or ``"ray"`` (Ray
            tasks; needs the ``ray`` extra).
        address: With ``backend="ray"``, the address of an existing Ray
            cluster (``"auto"``, ``"ray://host:10001"``); sevenbridge must be
            installed on its nodes.
        db: An SQLite file for the results. Each batch of decks is written
            as it finishes; a run with the same settings resumes from what the file
            holds, and a file made with other settings is refused
            (:class:`StoreError`). The number of deals may differ between
            runs: the decks are the same. Runs with the same settings may
            use one file at the same time: each claims the decks it plays,
            and each returns the whole tournament.
        move_seconds: Time limit per decision for external bots.
        handshake_seconds: Time limit for an external bot to start and answer
            the handshake (not part of a store's settings).
        keep_going: Play on when an external bot fails to start: its deals
            are forfeits. By default each external bot is started once, and
            must answer the handshake, before any deal is played (and before
            the store is opened); one that fails stops the run with
            :class:`~sevenbridge.external.ExternalBotError`.
        fair: Start each external bot afresh for every deal, so that it
            carries nothing from one seating of a deck to the next (it would
            otherwise know the hands it saw). ``None`` (the default): fair
            when any bot is external (``cmd:``) or Python code of the user's
            (``py:``, a factory). A Python bot is then made afresh for every
            deal too; without, one bot object plays every seating of a deck.
            Part of a store's settings.
        isolate: Play each Python bot (``py:``, a factory) in a process of
            its own, over the external bots' protocol, so that it sees only
            what the protocol sends: not the tournament's process, where the
            whole position lies. With ``fair``, a new process for every deal.
            A ``py:`` bot's module is then imported only in those processes.
            Not part of a store's settings: an honest bot plays the same
            games either way.
        progress: Show a progress bar (tqdm if installed) on standard error.
        progress_file: Where the progress bar goes instead of standard error.
        on_games: Called in the main process with each deck's games as they
            finish (in the order they finish).
        settings: What to play, as one value (:class:`Settings`), in place
            of ``bots``, ``rules``, ``game``, ``players``, ``deals``,
            ``seed``, ``move_seconds``, ``handshake_seconds``, ``fair`` and
            ``isolate``, which are then left out.

    Raises:
        InvalidArgumentError: for a bad bot name, label, table size or option,
            a ``py:`` bot that does not import, a factory that cannot be sent
            where it must go or that makes something that is not a Player.
        StoreError: for a database made with other settings (or another game,
            or other factories behind the same labels),
            or one that cannot be used: not SQLite, another program's,
            damaged, newer, read-only or locked. The message names the file
            and what to do.
        ExternalBotError: for an external bot that fails to start (unless
            ``keep_going``).
        TypeError: for a value of the wrong type, or a setting given both in
            ``settings`` and as an argument.
    """
    settings = settings_of(
        settings,
        {
            "bots": bots, "rules": rules, "game": game, "players": players, "deals": deals,
            "seed": seed, "move_seconds": move_seconds, "handshake_seconds": handshake_seconds,
            "fair": fair, "isolate": isolate,
        },
    )  # fmt: skip
    workers = check_backend(backend, address, workers)
    announced = _check_bots(settings, keep_going, backend, workers)
    labels = settings.labels
    per_deck = len(seatings(labels))
    decks = -(-settings.deals // per_deck)
    results: dict[int, list[GameResult]] = {}
    held = 0  # decks the store holds
    store = Store(db) if db is not None else None
    try:
        if settings.seed is None:
            settings = attrs.evolve(settings, seed=secret_seed(store))
        if store is not None:
            claim(store, settings)
            if announced:
                store.write_names(announced)
            announced = {**store.names(), **announced}
            results = stored_games(store, labels, decks)
        played: set[int] = set()  # by this run
        missing = [deck for deck in range(decks) if deck not in results]
        bar = Progress(decks * per_deck, len(results) * per_deck, progress,
                       progress_file or sys.stderr)  # fmt: skip
        start = time.perf_counter()

        def play_batches(groups: Iterable[Sequence[int]]) -> None:
            tasks: Iterable[Task] = ((settings, tuple(group)) for group in groups)
            stream = play(tasks, backend, address, workers)
            try:
                for batch in stream:
                    if store is not None:  # one transaction per batch of decks
                        store.write_decks([(d, [g.to_row() for g in gs], t) for d, gs, t in batch])
                    for deck, games, _ in batch:
                        results[deck] = games
                        played.add(deck)
                        if on_games is not None:
                            on_games(games)
                        bar.update(len(games))
            finally:
                stream.close()  # a stop ends the workers and their bots now

        def seen(stored: int) -> None:
            bar.update(max(0, stored * per_deck - bar.done))

        try:
            if store is None:
                play_batches(batches(missing, workers))
            else:
                # Runs sharing the store each claim the decks they play; when
                # nothing is left to claim, wait for the others' decks (or take
                # over those of a run that died).
                size = batch_size(len(missing), workers)
                while missing:
                    play_batches(sharing(store, store.take_decks(missing, size), backend, workers))
                    missing = store.wait_for_others(decks, seen)
                store.stop_sharing()
                others = [deck for deck in range(decks) if deck not in results]
                results.update(stored_games(store, labels, decks, others))
                held = store.deck_count()
        finally:
            bar.close()
    finally:
        if store is not None:
            store.close()
    ordered = tuple(g for deck in sorted(results) for g in results[deck])
    return TournamentResult(
        settings.rules, settings.players, drawn_seed(settings), decks, len(ordered),
        summarize(ordered), ordered, time.perf_counter() - start, len(results) - len(played),
        settings.game, settings.fair, shown_names(labels, announced), held,
        factory_specs(settings),
    )  # fmt: skip


def _check_bots(settings: Settings, keep_going: bool, backend: str, workers: int) -> dict[str, str]:
    """Refuse a bot that cannot play before any work: an unknown name, a
    ``py:`` bot that does not import, a factory the workers cannot be sent,
    an external bot that does not start (unless ``keep_going``). Returns the
    names the external (``cmd:``) bots give."""
    announced: dict[str, str] = {}
    isolate = settings.isolate
    if isolate:
        where: Message | None = Message("where.own_process", "a process of its own (isolate)")
    elif backend == "ray":
        where = Message("where.ray", "Ray's workers")
    elif workers > 1:
        where = Message("where.workers", "worker processes")
    else:
        where = None
    for entrant in entrants(settings).values():
        if entrant.factory is not None:
            if where is not None:
                sendable(entrant, where)
            if not isolate:
                continue
        elif entrant.spec.startswith("py:") and not isolate:
            import_factory(entrant.spec)  # imported here: what it lacks is said at once
            continue
        bot = make_entrant(settings, entrant, 0)
        if isinstance(bot, ExternalPlayer):
            with contextlib.suppress(ExternalBotError) if keep_going else contextlib.nullcontext():
                name = _try_start(bot)
                if not entrant.python:
                    announced[entrant.label] = name
    return announced


def _try_start(bot: ExternalPlayer) -> str:
    """Start an external bot and shake hands, then close it; raise if it fails.
    Returns the name the bot gave."""
    try:
        bot.start()
        return bot.name
    except ExternalBotError as error:
        raise ExternalBotError(
            error.kind,
            Message(
                "external_bot.failed_to_start_no_deal",
                "{error}; no deal was played (keep_going=True, or --keep-going, "
                "plays on and the bot forfeits its deals)",
                error=error.message,
            ),
        ) from None
    finally:
        bot.close()

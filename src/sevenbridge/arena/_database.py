"""A tournament's results database: the settings it keeps, the decks it
holds, the decks that runs sharing it claim, and the results read back."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from .._kit import checks as _checks
from .._kit.rng import fresh_seed
from .._kit.version import version
from .._store import Store
from ..errors import Message, SevenBridgeError, StoreError
from ..games import CARD_GAME, GAMES, game_module
from ._entrants import shown_names
from ._play import ARENA_VERSION, seatings
from ._results import GameResult, TournamentResult
from ._settings import Settings, drawn_seed, entrants
from ._statistics import summarize


def _kept(settings: Settings) -> dict[str, Any]:
    """What a database keeps of a tournament's settings (with its seed drawn):
    a run with other settings is refused."""
    stored = {
        "game": settings.game,
        "arena_version": ARENA_VERSION,
        "sevenbridge": version(),
        "bots": sorted(settings.labels),  # the same bots in any order play the same games
        "rules": settings.rules.to_json(),
        "players": settings.players,
        "seed": drawn_seed(settings),
        "move_seconds": settings.move_seconds,
        "fair": settings.fair,
    }
    # What stands behind the label of a bot given as a factory: its import
    # path (a store without factory bots has no such setting).
    specs = factory_specs(settings)
    if specs:
        stored["specs"] = specs
    return stored


def factory_specs(settings: Settings) -> dict[str, str]:
    """The import path of each bot given as a factory, by its label."""
    return {e.label: e.spec for e in entrants(settings).values() if e.factory is not None}


def secret_seed(store: Store | None) -> int:
    """The seed of a run given none: the seed of the tournament the store holds
    (to resume it), else a new one from the operating system's secure source."""
    held = store.settings() if store is not None else {}
    seed = held.get("seed")
    if type(seed) is int and 0 <= seed <= _checks.MAX_SEED:
        return seed
    return fresh_seed()


def claim(store: Store, settings: Settings) -> None:
    """Claim the store for a run's settings (with its seed drawn); a store of
    another game is refused first, with a message that says so (a store
    written before the game was recorded holds the card game)."""
    kept = _kept(settings)
    held = store.settings()
    if held:
        held_game = held.get("game", CARD_GAME)
        if held_game != kept["game"]:
            raise StoreError(
                Message(
                    "store.holds_other_game",
                    "{path} holds a tournament of {held}, not {game}; use another database file",
                    path=store.path,
                    held=held_game,
                    game=kept["game"],
                )
            )
        if "game" not in held:
            kept = {k: v for k, v in kept.items() if k != "game"}
    store.claim(kept)


def sharing(
    store: Store, batches: Iterable[list[int]], backend: str, workers: int
) -> Iterator[list[int]]:
    """The claimed ``batches``, with the heartbeat that keeps the claims alive
    started in time: at once, or for a pool of local processes, once the first
    batch is handed out, by when the pool has forked its workers (a process
    that runs a thread should not fork)."""
    if backend == "ray" or workers == 1:
        store.start_sharing()
    for batch in batches:
        yield batch
        store.start_sharing()


def stored_games(
    store: Store, bots: tuple[str, ...], below: int | None, among: Iterable[int] | None = None
) -> dict[int, list[GameResult]]:
    """The games a store holds (decks below ``below``, of ``among`` if given), by
    deck; each deck must hold one game per seating of ``bots``."""
    expected = list(enumerate(seatings(bots)))
    out: dict[int, list[GameResult]] = {}
    for row in store.games(below, None if among is None else set(among)):
        out.setdefault(row["deck"], []).append(GameResult.from_row(row))
    for deck, games in out.items():
        if [(g.seating, g.bots) for g in games] != expected:
            raise store.damaged_deck(
                deck,
                Message(
                    "store.problem.seatings",
                    "its games are not one per seating of the bots {bots}",
                    bots=" ".join(bots),
                ),
            )
    return out


def _open(db: str | Path) -> Store:
    """A tournament database opened for reading."""
    path = Path(db)
    if not path.is_file():
        raise StoreError(
            Message("store.no_such_results_database", "{path}: no such results database", path=path)
        )
    return Store(path, readonly=True)


def report(db: str | Path) -> TournamentResult:
    """The results held in a tournament database, as :func:`run_tournament` gave them.

    Raises:
        StoreError: if the file is not a tournament database, or a damaged one.
    """
    with _open(db) as store:
        settings = store.settings()
        if not settings:
            raise store.no_tournament()
        game = settings.get("game", CARD_GAME)
        if not isinstance(game, str) or game not in GAMES:
            raise store.bad_setting("game", game, Message("store.expect.game", "a game's name"))
        module = game_module(game)
        text = store.setting(settings, "rules")
        try:
            rules = module.Rules.from_json(text)
        except SevenBridgeError as error:
            raise store.bad_setting(
                "rules", text, Message("store.expect.rules", "rules ({error})", error=error)
            ) from None
        players = store.setting(settings, "players")
        if type(players) is not int or players not in module.PLAYER_COUNTS:
            raise store.bad_setting(
                "players", players,
                Message("store.expect.players", "one of {counts}", counts=module.PLAYER_COUNTS),
            )  # fmt: skip
        seed = store.setting(settings, "seed")
        if type(seed) is not int or not 0 <= seed <= _checks.MAX_SEED:
            raise store.bad_setting("seed", seed, Message("store.expect.seed", "a seed"))
        bots = store.setting(settings, "bots")
        if not (
            isinstance(bots, list)
            and len(bots) == players
            and all(isinstance(b, str) for b in bots)
        ):
            raise store.bad_setting(
                "bots", bots,
                Message("store.expect.bot_names", "a list of {n} bot names", n=players),
            )  # fmt: skip
        fair = settings.get("fair", False)  # written since arena version 2
        if type(fair) is not bool:
            raise store.bad_setting("fair", fair, Message("store.expect.fair", "true or false"))
        specs = settings.get("specs", {})  # only with bots given as factories
        if not (
            isinstance(specs, dict)
            and all(k in bots and isinstance(v, str) for k, v in specs.items())
        ):
            raise store.bad_setting(
                "specs", specs,
                Message("store.expect.specs", "the import path of each factory bot, by label"),
            )  # fmt: skip
        stored = stored_games(store, tuple(bots), None)
        announced = store.names()
    games = tuple(g for deck in sorted(stored) for g in stored[deck])
    return TournamentResult(
        rules, players, seed, len(stored), len(games), summarize(games), games,
        0.0, len(stored), game, fair, shown_names(bots, announced), len(stored), specs,
    )  # fmt: skip


def export_csv(db: str | Path, out: TextIO) -> int:
    """Write a tournament database's deals as CSV (one row per deal); returns the row count.

    The columns are ``deck, seating, bots, winner, winner_bot, scores,
    returns, end_reason, decisions, failure, ms_per_move, max_ms,
    cpu_ms_per_move, cpu_max_ms`` (lists space-separated, one entry per seat;
    the times are each seat's mean and longest decision in milliseconds, by
    the wall clock and in processor time, ``-`` where not known).
    """
    with _open(db) as store:
        return store.export_csv(out)

"""Playing a tournament's decks: the seatings, the seeds, and each deal
played, timed and recorded."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import time
from collections.abc import Sequence
from typing import Any

from .._kit.rng import derive
from ..bots import Player
from ..external import ExternalBotError, ExternalPlayer
from ..games import game_module, outcome
from ._results import GameResult, Timing
from ._settings import Settings, drawn_seed, entrants, make_entrant

#: The seeding's version (:data:`sevenbridge.arena.ARENA_VERSION`).
ARENA_VERSION = 2
#: The cost of a forfeit (:data:`sevenbridge.arena.FORFEIT_POINTS`).
FORFEIT_POINTS = 100.0


def seatings(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct way of seating ``bots`` (one per seat), in a fixed order.

    >>> seatings(["ismcts", "greedy", "greedy"])
    [('greedy', 'greedy', 'ismcts'), ('greedy', 'ismcts', 'greedy'), ('ismcts', 'greedy', 'greedy')]
    """
    return sorted(set(itertools.permutations(bots)))


def _secret(seed: int) -> bytes:
    """The tournament's secret: a key that only its seed gives."""
    return hashlib.blake2b(
        seed.to_bytes(8, "big"), digest_size=32, person=b"7bridge-arena"
    ).digest()


def bot_seed(seed: int, deck: int, place: int) -> int:
    """The seed of the bot at ``place`` (in the seating, from 0) of ``deck``, in
    a tournament seeded ``seed``.

    It is BLAKE2b of the deck and the place, keyed with a secret drawn from
    the tournament seed: one-way, so that a bot that knows its seed (an
    external bot is sent it) learns nothing of the deck's seed or of any
    other seed, and cannot deal the cards again. The deck itself is seeded
    from the tournament seed, so whoever knows that seed can replay every
    game: keep it secret (``run_tournament`` draws one when none is given).

    >>> bot_seed(7, 0, 1) == bot_seed(7, 0, 1) != bot_seed(7, 0, 2)
    True
    """
    data = deck.to_bytes(8, "big") + place.to_bytes(2, "big")
    digest = hashlib.blake2b(data, key=_secret(seed), digest_size=8, person=b"7bridge-bot")
    return int.from_bytes(digest.digest(), "big")


def _forfeit(players: int, seat: int) -> tuple[float, ...]:
    share = FORFEIT_POINTS / (players - 1)
    return tuple(-FORFEIT_POINTS if s == seat else share for s in range(players))


def play_deck(settings: Settings, deck: int) -> list[GameResult]:
    """Play one deck of a tournament under every seating (what one worker
    task does for each of its decks).

    With ``settings.fair``, each bot of the user's (an external bot's
    process, a Python bot) plays one deal: a new one is made for the next,
    so that nothing carries from one seating of the deck to the next;
    otherwise one bot plays every deal of the deck it is seated in (an
    external bot gets a new ``deal`` message for each) and is closed when
    the deck is done. Either way an external bot is closed when the play
    stops for any reason (its process group is killed). With
    ``settings.isolate``, a Python bot plays in a process of its own, as an
    external bot.
    """
    table = _Deck(settings, deck)
    try:
        return [table.play(index, seating) for index, seating in enumerate(seatings(table.labels))]
    finally:
        table.close()


#: What a task gives back: each deck it played, with its games and its time.
Done = list[tuple[int, list[GameResult], float]]


def play_decks(settings: Settings, decks: tuple[int, ...]) -> Done:
    """Play a batch of decks (one worker task); each deck with its time."""
    out = []
    for deck in decks:
        start = time.perf_counter()
        games = play_deck(settings, deck)
        out.append((deck, games, time.perf_counter() - start))
    return out


def deck_deal(settings: Settings, deck: int) -> Any:
    """The deal that every seating of ``deck`` plays: the deck's cards, the
    dealer turning with the deck's number."""
    module = game_module(settings.game)
    players = settings.players
    seed = derive(drawn_seed(settings), deck + 1)
    # The seat of each bot: a table with ghosts (mahjong for 2 or 3) seats the
    # bots at the real players' seats, in order.
    seats = module.seats(module.deal(settings.rules, players=players, seed=seed))
    return module.deal(settings.rules, players=players, dealer=seats[deck % players], seed=seed)


class _Deck:
    """One deck in play: its seeds, its bots, and (without ``fair``) the
    bots that wait for the deck's next seating."""

    def __init__(self, settings: Settings, deck: int) -> None:
        seed = drawn_seed(settings)
        self.settings, self.deck = settings, deck
        self.labels, self.entrants = settings.labels, entrants(settings)
        self.seeds = [bot_seed(seed, deck, place) for place in range(settings.players)]
        self.idle: dict[str, list[Player]] = {}

    def close(self) -> None:
        """Close the external bots that wait for a seating."""
        for waiting in self.idle.values():
            for bot in waiting:
                if isinstance(bot, ExternalPlayer):
                    bot.close()

    def _seat(self, place: int, name: str, seat: int) -> Player:
        """The bot ``name`` for ``place`` of a seating, at ``seat`` of the table."""
        settings = self.settings
        pool = self.idle.get(name)
        bot = pool.pop() if pool else make_entrant(settings, self.entrants[name], self.seeds[place])
        if isinstance(bot, ExternalPlayer):
            bot.new_deal(seat=seat, players=settings.players, seed=self.seeds[place],
                         rules=settings.rules)  # fmt: skip
        return bot

    def play(self, index: int, seating: tuple[str, ...]) -> GameResult:
        """The deal of seating ``index``, with the bots seated as ``seating`` says."""
        settings, deck, players = self.settings, self.deck, self.settings.players
        module = game_module(settings.game)
        state = deck_deal(settings, deck)
        seats = module.seats(state)
        seated = {seats[place]: self._seat(place, name, seats[place])
                  for place, name in enumerate(seating)}  # fmt: skip
        observe, legal_actions, apply = module.observe, module.legal_actions, module.apply
        decisions = 0
        failure: str | None = None
        clocks = [_Clock() for _ in seats]
        try:
            while not state.is_over:
                view = observe(state)
                choice = len(legal_actions(view)) > 1
                decisions += choice
                bot = seated[view.viewer]
                try:
                    clock = clocks[seats.index(view.viewer)]
                    action = clock.time(bot, view) if choice else bot(view)
                except ExternalBotError as error:
                    name = seating[seats.index(view.viewer)]
                    failure = f"seat {view.viewer} ({name}) {error.kind}: {error}"
                    break
                state = apply(state, action)
        finally:
            for seat, bot in seated.items():
                name = seating[seats.index(seat)]
                if isinstance(bot, ExternalPlayer):
                    if state.is_over and failure is None:
                        with contextlib.suppress(ExternalBotError):  # too late to lose it
                            bot.end_deal(state)
                    if settings.fair:
                        bot.close()
                    elif bot.running:
                        self.idle.setdefault(name, []).append(bot)
                elif not settings.fair and self.entrants[name].python:
                    self.idle.setdefault(name, []).append(bot)
        if failure is None:
            scores, reason = outcome(state)
            returns = module.returns(state)
            return GameResult(
                deck, index, seating,
                None if state.winner is None else seats.index(state.winner),
                tuple(scores[s] for s in seats), tuple(returns[s] for s in seats),
                reason, decisions, None, module.record(state),
                tuple(c.timing() for c in clocks),
            )  # fmt: skip
        seat = state.current_player if state.current_player is not None else seats[0]
        return GameResult(
            deck, index, seating, None, (0,) * players, _forfeit(players, seats.index(seat)),
            "forfeit", decisions, failure, module.record(state), tuple(c.timing() for c in clocks),
        )  # fmt: skip


class _Clock:
    """One seat's time over a deal's decisions."""

    def __init__(self) -> None:
        self.decisions = 0
        self.wall = self.wall_max = 0.0
        self.cpu: float | None = 0.0
        self.cpu_max: float | None = 0.0

    def time(self, bot: Player, view: Any) -> Any:
        """``bot``'s action for ``view``, timed."""
        if isinstance(bot, ExternalPlayer):
            bot.start()  # its start and handshake are no part of a decision
            cpu = bot.cpu_seconds
        else:
            cpu = time.thread_time
        cpu_start, start = cpu(), time.perf_counter()
        action = bot(view)
        wall, cpu_end = time.perf_counter() - start, cpu()
        self.decisions += 1
        self.wall += wall
        self.wall_max = max(self.wall_max, wall)
        if cpu_start is None or cpu_end is None or self.cpu is None or self.cpu_max is None:
            self.cpu = self.cpu_max = None
        else:
            used = max(0.0, cpu_end - cpu_start)
            self.cpu, self.cpu_max = self.cpu + used, max(self.cpu_max, used)
        return action

    def timing(self) -> Timing:
        return Timing(self.decisions, self.wall, self.wall_max, self.cpu, self.cpu_max)

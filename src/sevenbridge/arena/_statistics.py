"""A tournament's statistics: each bot's figures with 95% intervals over
decks, and two bots compared deck by deck."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence

from ..errors import InvalidArgumentError, Message, quote
from ._results import (
    MIN_DECKS,
    BotStats,
    Comparison,
    Estimate,
    GameResult,
    Timing,
    TournamentResult,
)

_Z95 = statistics.NormalDist().inv_cdf(0.975)


def _estimate(
    values: Sequence[float], lo: float = -math.inf, hi: float = math.inf, *, interval: bool = True
) -> Estimate:
    """The mean of deck figures and its normal 95% interval, kept within ``lo``
    and ``hi`` (a share cannot be below 0 or above 1); no interval below
    :data:`MIN_DECKS` decks, or without ``interval``."""
    mean = statistics.fmean(values)
    if len(values) < MIN_DECKS or not interval:
        return Estimate(mean, None, None)
    half = _Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(mean, max(lo, mean - half), min(hi, mean + half))


_Row = tuple[float, float, float]


def _per_deck(results: Iterable[GameResult]) -> dict[str, dict[int, list[_Row]]]:
    """Each bot's seat-games (won, return, score) by deck."""
    out: dict[str, dict[int, list[_Row]]] = {}
    for game in results:
        for seat, name in enumerate(game.bots):
            row = (float(game.winner == seat), game.returns[seat], float(game.scores[seat]))
            out.setdefault(name, {}).setdefault(game.deck, []).append(row)
    return out


def _deck_means(decks: dict[int, list[_Row]]) -> dict[int, list[float]]:
    return {
        deck: [statistics.fmean(col) for col in zip(*rows, strict=True)]
        for deck, rows in decks.items()
    }


def summarize(results: Iterable[GameResult]) -> dict[str, BotStats]:
    """Per-bot figures, with intervals over deck means."""
    results = list(results)
    forfeits: dict[str, int] = {}
    seats: dict[str, int] = {}
    for game in results:
        failed = None
        if game.failure is not None:
            failed = min(range(len(game.returns)), key=game.returns.__getitem__)
        for seat, name in enumerate(game.bots):
            forfeits[name] = forfeits.get(name, 0) + (seat == failed)
            seats[name] = game.bots.count(name)
    out = {}
    per_deck = _per_deck(results)
    # A bot in every seat plays itself: its figures say nothing of its play.
    alone = len(per_deck) == 1
    timed: dict[str, list[Timing]] = {}
    untimed = {name for game in results if not game.timing for name in game.bots}
    for game in results:
        for name, timing in zip(game.bots, game.timing, strict=False):
            timed.setdefault(name, []).append(timing)
    for name, decks in sorted(per_deck.items()):
        rows = [r for deck in decks.values() for r in deck]
        means = list(_deck_means(decks).values())
        out[name] = BotStats(
            name,
            len(rows),
            int(sum(r[0] for r in rows)),
            _estimate([m[0] for m in means], lo=0.0, hi=1.0, interval=not alone),
            _estimate([m[1] for m in means], interval=not alone),
            _estimate([m[2] for m in means], interval=not alone),
            forfeits[name],
            seats[name],
            *_times([] if name in untimed else timed.get(name, [])),
        )
    return out


_Times = tuple[int, float | None, float | None, float | None, float | None]


def _times(timings: list[Timing]) -> _Times:
    """Decisions, mean and most wall seconds, mean and most processor seconds
    per decision, over ``timings`` (``None`` where unknown)."""
    decisions = sum(t.decisions for t in timings)
    if not decisions:
        return (0, None, None, None, None)
    wall = sum(t.wall for t in timings) / decisions
    wall_max = max(t.wall_max for t in timings)
    cpus = [t for t in timings if t.decisions]
    if any(t.cpu is None or t.cpu_max is None for t in cpus):
        return (decisions, wall, wall_max, None, None)
    cpu = sum(t.cpu or 0.0 for t in cpus) / decisions
    return (decisions, wall, wall_max, cpu, max(t.cpu_max or 0.0 for t in cpus))


def cannot_compare(name: str, bots: Iterable[str]) -> InvalidArgumentError:
    """The error for comparing a bot that is not one of ``bots``."""
    return InvalidArgumentError(
        Message(
            "invalid_argument.compare_unknown_bot",
            "cannot compare {name}: the bots are {bots}",
            name=quote(name),
            bots=", ".join(sorted(set(bots))),
        )
    )


def compare(result: TournamentResult, first: str, second: str) -> Comparison:
    """Compare two bots of a tournament deck by deck: in each deck, the first's
    win share and mean return less the second's (both played the same cards
    from the same seats), with 95% intervals over those differences.

    A paired comparison: the luck of each deck falls on both bots and
    cancels, so its interval is narrower than the two bots' intervals side
    by side suggest. An interval wholly above 0 says the first is the stronger.

    Args:
        result: The tournament (:func:`run_tournament`, :func:`report`).
        first, second: Two bots, each by its name in the tournament or the
            name the table shows.

    Raises:
        InvalidArgumentError: for a bot the tournament did not have, or the
            same bot twice.
    """
    by_label = {result.label(bot): bot for bot in result.bots}
    chosen = []
    for name in (first, second):
        bot = name if name in result.bots else by_label.get(name)
        if bot is None:
            raise cannot_compare(name, by_label)
        chosen.append(bot)
    if chosen[0] == chosen[1]:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.compare_same_bot",
                "compare two different bots, not {name} with itself",
                name=quote(first),
            )
        )
    per_deck = _per_deck(result.results)
    a, b = (_deck_means(per_deck[bot]) for bot in chosen)
    decks = sorted(set(a) & set(b))
    wins = [a[d][0] - b[d][0] for d in decks]
    returns = [a[d][1] - b[d][1] for d in decks]
    return Comparison(
        result.label(chosen[0]), result.label(chosen[1]), len(decks),
        _estimate(wins, lo=-1.0, hi=1.0), _estimate(returns),
    )  # fmt: skip

"""A ladder: every bot that tournament databases hold, rated from all its games.

:func:`ladder` reads one or more results databases (:func:`sevenbridge.arena.run_tournament`
with ``db=``) and rates each bot by the Bradley-Terry model: in every deal,
each pair of seats held by two different bots is one contest, won by the seat
with the higher return (:func:`sevenbridge.returns`; equal returns are a draw,
half a win each), and each bot's strength is the one that makes the contests'
results likeliest. A bot that played in several databases is rated from all
of them at once, so bots that never sat at one table are still placed on one
scale, through the bots they both met.

Ratings are on the Elo scale: a bot rated 200 points above another finishes
ahead of it in about three deals out of four (``1 / (1 + 10 ** (-200 / 400))``).
Only differences mean something; the ratings are placed so that their mean
is 1500. The 95% intervals come from the bootstrap over decks: the decks of
each database are drawn again with replacement, the ratings fitted again,
and the interval runs from the 2.5th to the 97.5th percentile. The deck is
the unit, as in the tournament's own statistics: the games of one deck share
their cards and are not independent.

>>> from sevenbridge.arena import run_tournament
>>> import tempfile, pathlib
>>> db = pathlib.Path(tempfile.mkdtemp()) / "t.sqlite"
>>> _ = run_tournament(["greedy", "random"], deals=20, seed=1, db=db, progress=False)
>>> board = ladder([db])
>>> [r.bot for r in board.ratings]
['greedy', 'random']
>>> board.ratings[0].rating > 1500 > board.ratings[1].rating
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path

import attrs

from ._kit import checks as _checks
from .arena import report
from .arena._plots import pyplot, save
from .errors import InvalidArgumentError, Message
from .games import game_module

__all__ = ["ELO_MEAN", "RESAMPLES", "Ladder", "Rating", "ladder", "plot"]

#: The mean of the ratings of a ladder.
ELO_MEAN = 1500.0
#: How many times the decks are drawn again for the intervals, by default.
RESAMPLES = 200
#: Drawn contests added to each pair of bots that met (the prior), so that
#: a bot that won (or lost) every contest still has a finite rating.
PRIOR_DRAWS = 1.0

_ELO = 400.0 / math.log(10.0)  # Elo points per unit of the natural log of strength


@attrs.frozen
class Rating:
    """One bot's place on a ladder."""

    bot: str
    """The bot, by the name the tables show."""
    rating: float
    """Its Bradley-Terry rating, on the Elo scale."""
    low: float
    """The 95% interval's low end (bootstrap over decks)."""
    high: float
    """The interval's high end."""
    games: int
    """Seat-games it played."""
    ahead: int
    """Contests won (pairs of seats in one deal, its own and another bot's,
    where its return was the higher)."""
    level: int
    """Contests with equal returns (a draw)."""
    behind: int
    """Contests lost."""
    spec: str
    """Its name in the tournaments (a built-in bot's name, ``cmd:...``), or for a
    bot given as a factory, its label and import path."""


@attrs.frozen
class Ladder:
    """What :func:`ladder` returns."""

    ratings: tuple[Rating, ...]
    """Best first."""
    databases: tuple[str, ...]
    game: str
    """The game of every database (a name of :data:`sevenbridge.GAMES`)."""
    deals: int
    decks: int
    resamples: int
    settings: tuple[str, ...]
    """Each database's rules and table size, as ``"standard rules, 3 players"``."""

    def table(self, lang: str | None = None) -> str:
        """The ladder as a text table, its headings and note in ``lang``."""
        from ._kit.i18n import name_text, translator, width

        _ = translator(lang)
        head = (_("rank"), _("bot"), _("rating [95%]"), _("seat-games"), _("ahead"), _("level"),
                _("behind"))  # fmt: skip
        rows: list[tuple[str, ...]] = [head]
        for rank, r in enumerate(self.ratings, 1):
            rows.append((str(rank), name_text(r.bot, lang), f"{r.rating:.0f} [{r.low:.0f}, {r.high:.0f}]",
                         str(r.games), str(r.ahead), str(r.level), str(r.behind)))  # fmt: skip
        widths = [max(width(row[i]) for row in rows) for i in range(len(head))]
        lines = [
            "  ".join(c + " " * (w - width(c)) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in rows
        ]
        lines.insert(1, "  ".join("-" * w for w in widths))
        note = _(
            "{deals} deals ({decks} decks) from {databases} databases ({settings}); "
            "Bradley-Terry over the pairs of bots in each deal (the higher return wins), "
            "Elo scale with mean {mean}; 95% intervals from {resamples} resamples of the decks"
        ).format(
            deals=self.deals, decks=self.decks, databases=len(self.databases),
            settings="; ".join(sorted(set(self.settings))), mean=f"{ELO_MEAN:.0f}",
            resamples=self.resamples,
        )  # fmt: skip
        shown = [f"{r.bot}: {r.spec}" for r in self.ratings if r.spec != r.bot]
        return "\n".join([*lines, note, *shown])


# A bot on the ladder: its name in the tournaments and, for a factory, its import path.
_Key = tuple[str, str]
# Contests of one deck: (winner, loser) -> wins (a draw is half a win each way).
_Deck = dict[tuple[int, int], float]


def ladder(databases: Sequence[str | Path], *, resamples: int = RESAMPLES, seed: int = 0) -> Ladder:
    """Rate every bot the ``databases`` hold from all their games.

    Args:
        databases: Results databases of tournaments of one game.
        resamples: How many times the decks are drawn again for the
            intervals (from 20 to 100,000).
        seed: Seeds those draws: the same databases and seed give the same
            ladder.

    Raises:
        StoreError: for a file that is not a results database (as
            :func:`sevenbridge.arena.report` says).
        InvalidArgumentError: for no database, databases of different
            games, no two bots that ever met, or bots that fall into groups
            that never met, directly or through others.
    """
    if isinstance(databases, (str, Path)) or not databases:
        raise InvalidArgumentError(
            Message("invalid_argument.ladder_needs_database", "a ladder needs a database or more")
        )
    resamples = _checks.integer(resamples, "resamples", 20, 100_000)
    seed = _checks.seed(seed) or 0
    keys: dict[_Key, int] = {}
    shown: dict[_Key, str] = {}
    games: dict[int, int] = {}
    record: dict[int, list[int]] = {}  # each bot's contests ahead, level and behind
    decks: list[list[_Deck]] = []  # by database, then deck
    settings = []
    game = None
    deals = 0
    for path in databases:
        result = report(path)
        if game is None:
            game = result.game
        elif result.game != game:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.ladder_other_game",
                    "{path} holds a tournament of {held}, the others of {game}: rate each game "
                    "on its own",
                    path=path,
                    held=result.game,
                    game=game,
                )
            )
        settings.append(f"{result.rules_name} rules, {result.players} players")
        deals += result.games
        index = {}
        for name in result.bots:
            key = (name, result.specs.get(name, ""))
            index[name] = keys.setdefault(key, len(keys))
            shown.setdefault(key, result.label(name))
        by_deck: dict[int, _Deck] = {}
        for g in result.results:
            seats = [index[name] for name in g.bots]
            for seat in seats:
                games[seat] = games.get(seat, 0) + 1
            contests = by_deck.setdefault(g.deck, {})
            for i, a in enumerate(seats):
                for j in range(i + 1, len(seats)):
                    b = seats[j]
                    if a == b:
                        continue
                    ra, rb = g.returns[i], g.returns[j]
                    if ra != rb:
                        first, second = (a, b) if ra > rb else (b, a)
                        contests[(first, second)] = contests.get((first, second), 0.0) + 1.0
                        record.setdefault(first, [0, 0, 0])[0] += 1
                        record.setdefault(second, [0, 0, 0])[2] += 1
                    else:  # half a win each way
                        contests[(a, b)] = contests.get((a, b), 0.0) + 0.5
                        contests[(b, a)] = contests.get((b, a), 0.0) + 0.5
                        record.setdefault(a, [0, 0, 0])[1] += 1
                        record.setdefault(b, [0, 0, 0])[1] += 1
        decks.append(list(by_deck.values()))
    n = len(keys)
    total = _sum([deck for db in decks for deck in db], n)
    _check_connected(total, n, {keys[k]: shown[k] for k in keys})
    strengths = _fit(total, n)
    rng = random.Random(seed)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(resamples):
        sample = [deck for db in decks for deck in rng.choices(db, k=len(db)) if db]
        for bot, value in enumerate(_fit(_sum(sample, n), n)):
            draws[bot].append(value)
    ratings = []
    names = _unique(shown)
    for key, bot in keys.items():
        ordered = sorted(draws[bot])
        ahead, level, behind = record.get(bot, [0, 0, 0])
        ratings.append(
            Rating(
                names[key], strengths[bot], _quantile(ordered, 0.025), _quantile(ordered, 0.975),
                games.get(bot, 0), ahead, level, behind,
                key[0] if not key[1] else f"{key[0]}: {key[1]}",
            )
        )  # fmt: skip
    ratings.sort(key=lambda r: (-r.rating, r.bot))
    return Ladder(
        tuple(ratings), tuple(str(p) for p in databases), game or "", deals,
        sum(len(db) for db in decks), resamples, tuple(settings),
    )  # fmt: skip


def _unique(shown: dict[_Key, str]) -> dict[_Key, str]:
    """The name each bot is shown by: its label, or where two bots share one,
    the label with what stands behind it."""
    count: dict[str, int] = {}
    for label in shown.values():
        count[label] = count.get(label, 0) + 1
    return {
        key: label if count[label] == 1 else f"{label} ({key[1] or key[0]})"
        for key, label in shown.items()
    }


def _sum(decks: Sequence[_Deck], n: int) -> _Deck:
    """The contests of ``decks`` added up (a deck drawn twice counts twice)."""
    total: _Deck = {}
    for deck in decks:
        for pair, wins in deck.items():
            total[pair] = total.get(pair, 0.0) + wins
    return total


def _check_connected(total: _Deck, n: int, names: dict[int, str]) -> None:
    """Refuse bots that cannot be placed on one scale: no contests at all, or
    groups of bots that never met, directly or through others."""
    if not total:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.ladder_no_contests",
                "no two different bots ever played a deal together: nothing to rate",
            )
        )
    group = list(range(n))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for a, b in total:
        group[root(a)] = root(b)
    groups: dict[int, list[str]] = {}
    for bot in range(n):
        groups.setdefault(root(bot), []).append(names[bot])
    if len(groups) > 1:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.ladder_groups",
                "the bots fall into groups that never met: {groups}; play a tournament that "
                "seats a bot of each",
                groups=" | ".join(sorted(", ".join(sorted(g)) for g in groups.values())),
            )
        )


def _fit(total: _Deck, n: int) -> list[float]:
    """The Bradley-Terry ratings (Elo scale, mean :data:`ELO_MEAN`) from the
    contests: Hunter's minorization-maximization, with :data:`PRIOR_DRAWS`."""
    wins = [0.0] * n
    met: dict[tuple[int, int], float] = {}
    for (a, b), w in total.items():
        wins[a] += w
        pair = (min(a, b), max(a, b))
        met[pair] = met.get(pair, 0.0) + w
    for pair in met:  # the prior: one drawn contest more
        met[pair] += PRIOR_DRAWS
        wins[pair[0]] += PRIOR_DRAWS / 2
        wins[pair[1]] += PRIOR_DRAWS / 2
    strength = [1.0] * n
    for _ in range(10_000):
        denominator = [0.0] * n
        for (a, b), count in met.items():
            share = count / (strength[a] + strength[b])
            denominator[a] += share
            denominator[b] += share
        new = [wins[i] / denominator[i] if denominator[i] else strength[i] for i in range(n)]
        centre = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / centre for s in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if done:
            break
    return [ELO_MEAN + _ELO * math.log(s) for s in strength]


def _quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values (linear between neighbours)."""
    place = q * (len(ordered) - 1)
    low = math.floor(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (place - low)


def _plot_title(board: Ladder) -> str:
    """The title of a ladder's plot: its bots, deals, databases and game."""
    game = f"{board.game}, " if game_module(board.game).GAME.label else ""  # a game named
    dbs = len(board.databases)
    return (
        f"Ladder of {len(board.ratings)} bots: {board.deals} deals ({board.decks} decks), "
        f"{dbs} database{'s' * (dbs != 1)}\n"
        f"{game}Bradley-Terry ratings, Elo scale, 95% intervals over decks"
    )


def plot(board: Ladder, path: str | Path) -> None:
    """Draw the ladder's ratings with their 95% intervals to an image file.

    Needs matplotlib (``pip install "sevenbridge[plot]"``).
    """
    plt = pyplot()
    ratings = board.ratings
    fig, ax = plt.subplots(figsize=(6.4, 1.0 + 0.5 * len(ratings)), layout="constrained")
    places = list(range(len(ratings)))
    ax.errorbar(
        [r.rating for r in ratings], places,
        xerr=[[r.rating - r.low for r in ratings], [r.high - r.rating for r in ratings]],
        fmt="o", color="#4477aa", capsize=4,
    )  # fmt: skip
    ax.set_yticks(places, [r.bot for r in ratings])
    ax.invert_yaxis()
    ax.axvline(ELO_MEAN, color="#bbbbbb", linestyle="--", linewidth=1)
    ax.set_xlabel("rating (Elo scale; 200 points: ahead in 76% of deals)")
    save(fig, path, _plot_title(board))

"""Tournaments between bots: duplicate deals, seats rotated, honest statistics.

:func:`run_tournament` deals a series of decks and plays each deck once for
every way of seating the bots (the *duplicate* format), so a good or bad deal
falls to every bot alike and the luck of the cards mostly cancels. Every deck,
every seat's bot and every bot's choices are seeded from the tournament seed,
so the same seed gives the same games and the same numbers whatever the number
of workers or the backend (local processes or Ray). A bot's seed is drawn
one-way from a secret that only the tournament seed gives (:func:`bot_seed`),
so nothing a bot is handed leads back to the cards: not even its own seed.

The statistics treat the deck as the unit: the games of one deck share their
cards and are not independent, so each bot's figures are averaged per deck
first, and the 95% interval is the normal one over those deck means
(mean ± 1.96 standard errors). With fewer than 30 decks the interval is rough;
the report says so.

The same tournaments play every game of :data:`sevenbridge.GAMES`:
``run_tournament(..., game="mahjong")`` plays rounds of Simple Mahjong with
the same bots (:mod:`sevenbridge.bots` play both games), seatings and
statistics (a mahjong "deal" is a round).

Results can go to an SQLite database (``db=``) as the decks finish; a run
that is stopped and started again with the same settings plays only what is
missing and ends with the same numbers, and two runs started at once on one
database share the decks between them.

A tournament's settings (the bots, the game, its rules, the deals, the seed,
the bots' time limits, ``fair`` and ``isolate``) are one frozen value,
:class:`Settings`, which ``run_tournament`` takes as ``settings=`` in place
of those arguments, and which goes with every task to the process that
plays its decks.

>>> from sevenbridge.arena import run_tournament
>>> result = run_tournament(["greedy", "random"], players=2, deals=8, seed=1, progress=False)
>>> result.games, sorted(result.bots)
(8, ['greedy', 'random'])
>>> result.bots["greedy"].win_share.mean > result.bots["random"].win_share.mean
True
"""

from __future__ import annotations

from ..errors import StoreError
from . import _backends, _entrants, _play, _results
from ._database import export_csv, report
from ._entrants import import_factory, make_bot
from ._evaluation import (
    EVALUATION_DECKS,
    EVALUATION_SEED,
    EVALUATION_VERSION,
    EvaluationSet,
    evaluation_set,
)
from ._play import bot_seed, seatings
from ._play import play_deck as play_deck  # importable, not in the reference
from ._plots import plot
from ._results import BotStats, Comparison, Estimate, GameResult, Timing, TournamentResult
from ._settings import Settings
from ._statistics import compare
from ._statistics import summarize as summarize  # importable, not in the reference
from ._tournament import run_tournament

# The constants are defined where they are used; they are described here.

#: The bots a tournament knows by name; ``cmd:COMMAND`` names an external bot,
#: ``py:package.module:factory`` a Python one.
BOT_NAMES = _entrants.BOT_NAMES
#: One seat of a tournament, a bot's name (:func:`make_bot`) or a pair of a
#: label and a factory that makes the bot of a deal from its seed.
Bot = _entrants.Bot
#: Where the deals are played.
BACKENDS = _backends.BACKENDS
#: Version of the way decks, seats and bots are seeded; part of a store's settings
#: (2: bots' seeds drawn one-way, :func:`bot_seed`).
ARENA_VERSION = _play.ARENA_VERSION
#: The cost of a forfeit. The seat whose bot failed gets ``-FORFEIT_POINTS`` as
#: its return and the others share ``+FORFEIT_POINTS`` equally.
FORFEIT_POINTS = _play.FORFEIT_POINTS
#: How long a run may take to connect to a Ray cluster given by its address.
RAY_CONNECT_SECONDS = _backends.RAY_CONNECT_SECONDS
#: The iterations per decision of an ``ismcts`` bot named without a budget, those
#: of :class:`~sevenbridge.bots.ISMCTSPlayer` given none
#: (:data:`sevenbridge.bots.DEFAULT_ITERATIONS`; it stops sooner at
#: :data:`ISMCTS_SECONDS` of processor time).
ISMCTS_ITERATIONS = _entrants.ISMCTS_ITERATIONS
#: The processor time per decision of an ``ismcts`` bot named without a budget,
#: at most (:data:`sevenbridge.bots.DEFAULT_SECONDS`).
ISMCTS_SECONDS = _entrants.ISMCTS_SECONDS
#: Below this many decks, no interval is given (the mean alone).
MIN_DECKS = _results.MIN_DECKS

__all__ = [
    "ARENA_VERSION",
    "BACKENDS",
    "BOT_NAMES",
    "EVALUATION_DECKS",
    "EVALUATION_SEED",
    "EVALUATION_VERSION",
    "FORFEIT_POINTS",
    "ISMCTS_ITERATIONS",
    "ISMCTS_SECONDS",
    "MIN_DECKS",
    "RAY_CONNECT_SECONDS",
    "Bot",
    "BotStats",
    "Comparison",
    "Estimate",
    "EvaluationSet",
    "GameResult",
    "Settings",
    "StoreError",
    "Timing",
    "TournamentResult",
    "bot_seed",
    "compare",
    "evaluation_set",
    "export_csv",
    "import_factory",
    "make_bot",
    "plot",
    "report",
    "run_tournament",
    "seatings",
]

"""A tournament's results drawn: each bot's win share with its interval."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError, Message
from ..games import game_module
from ._results import TournamentResult


def _plot_title(result: TournamentResult) -> str:
    """The title of a tournament's plot: its bots, deals, seed, game, rules and
    table size.

    >>> from sevenbridge.arena import run_tournament
    >>> print(_plot_title(run_tournament(["greedy", "random"], deals=4, seed=3, progress=False)))
    greedy, random: 4 deals (2 decks), seed 3
    standard rules, 2 players
    """
    bots = ", ".join(
        result.label(s.name) + (f" x{s.seats}" if s.seats > 1 else "")
        for s in sorted(result.bots.values(), key=lambda s: s.name)
    )
    game = f"{result.game}, " if game_module(result.game).GAME.label else ""  # a game named
    deals = f"{result.games} deal{'s' * (result.games != 1)}"
    decks = f"{result.decks} deck{'s' * (result.decks != 1)}"
    return (
        f"{bots}: {deals} ({decks}), seed {result.seed}\n"
        f"{game}{result.rules_name} rules, {result.players} players"
    )


def pyplot() -> Any:
    """matplotlib's pyplot, drawing to files (a library error without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.plotting_needs_matplotlib_pip",
                'plotting needs matplotlib: pip install "sevenbridge[plot]"',
            )
        ) from None
    return plt


def save(figure: Any, path: str | Path, title: str) -> None:
    """Title a figure, write it to ``path`` with the title in the file's
    metadata, and close it."""
    figure.axes[0].set_title(title, fontsize="medium")
    figure.savefig(path, dpi=120, metadata={"Title": title.replace("\n", "; ")})
    pyplot().close(figure)


def plot(result: TournamentResult, path: str | Path) -> None:
    """Draw each bot's win share with its 95% interval, and the fair share, to an image file.

    Needs matplotlib (``pip install "sevenbridge[plot]"``).
    """
    plt = pyplot()
    stats = sorted(result.bots.values(), key=lambda s: -s.win_share.mean)
    names = [result.label(s.name) for s in stats]
    means = [s.win_share.mean for s in stats]
    errors = [
        [
            m - (m if s.win_share.low is None else s.win_share.low)
            for m, s in zip(means, stats, strict=True)
        ],
        [
            (m if s.win_share.high is None else s.win_share.high) - m
            for m, s in zip(means, stats, strict=True)
        ],
    ]
    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.6 * len(stats)), layout="constrained")
    ax.barh(names, means, xerr=errors, color="#4477aa", capsize=4)
    ax.axvline(1 / result.players, color="#cc6677", linestyle="--", label="fair share")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of deals won (95% interval over decks)")
    ax.legend(loc="lower right")
    save(fig, path, _plot_title(result))

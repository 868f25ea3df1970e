"""What a tournament gives: each deal's result, each bot's figures, and the
table that shows them."""

from __future__ import annotations

from typing import Any

import attrs

from ..games import CARD_GAME

#: The fewest decks for an interval (:data:`sevenbridge.arena.MIN_DECKS`).
MIN_DECKS = 5


@attrs.frozen
class Timing:
    """The time one seat's bot took over its decisions in one deal (moves with
    two or more legal actions; a lone move costs nothing)."""

    decisions: int
    wall: float
    """Seconds by the clock on the wall, all its decisions together. For an
    external bot, a decision lasts from the request's first byte to the
    answer's newline."""
    wall_max: float
    """The longest decision, in seconds by the wall clock."""
    cpu: float | None
    """Seconds of processor time it used for them. For a bot in this process
    they are its thread's, for an external bot its process's (``None`` where
    the system does not tell, for external bots off Linux)."""
    cpu_max: float | None
    """The most processor time one decision took."""


@attrs.frozen
class GameResult:
    """One deal of a tournament."""

    deck: int
    """Which dealt deck (from 0)."""
    seating: int
    """Which seating of the bots (an index into :func:`seatings`)."""
    bots: tuple[str, ...]
    """The bot in each seat."""
    winner: int | None
    """The seat that went out (``None``: a void deal or a forfeit)."""
    scores: tuple[int, ...]
    """The deal's scores as the rules count them (zeros after a forfeit)."""
    returns: tuple[float, ...]
    """:func:`~sevenbridge.returns`: one zero-sum number per seat, higher is better."""
    end_reason: str
    decisions: int
    """Moves with two or more legal actions."""
    failure: str | None
    """Why the deal was forfeited (an external bot crashed, answered nonsense
    or ran out of time), else ``None``."""
    record: str = attrs.field(repr=False)
    """The deal's record, which :func:`~sevenbridge.replay` reads back (up to the
    failure, for a forfeit)."""
    timing: tuple[Timing, ...] = attrs.field(default=(), eq=False, repr=False)
    """Each seat's time (empty in a store written before times were kept).
    Not part of equality: the same seed plays the same games, never in quite
    the same time."""

    def to_row(self) -> dict[str, Any]:
        """The result as the store keeps it."""
        return {
            "seating": self.seating,
            "bots": list(self.bots),
            "winner": self.winner,
            "scores": list(self.scores),
            "returns": list(self.returns),
            "end_reason": self.end_reason,
            "decisions": self.decisions,
            "failure": self.failure,
            "record": self.record,
            "timing": [attrs.astuple(t) for t in self.timing],
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> GameResult:
        """A result read back from the store."""
        return cls(
            row["deck"],
            row["seating"],
            tuple(row["bots"]),
            row["winner"],
            tuple(row["scores"]),
            tuple(float(r) for r in row["returns"]),
            row["end_reason"],
            row["decisions"],
            row["failure"],
            row["record"],
            tuple(Timing(*t) for t in row.get("timing", ())),
        )


@attrs.frozen
class Estimate:
    """A mean with its 95% interval, over decks."""

    mean: float
    low: float | None
    """The interval's low end; ``None`` where there is no interval: fewer
    than :data:`MIN_DECKS` decks, or a bot that fills every seat (its
    figures are then fixed by the game, not by its play)."""
    high: float | None

    def __str__(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.mean:.3f}"
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


@attrs.frozen
class Comparison:
    """Two bots compared deck by deck (:func:`compare`): the first's figures
    less the second's, averaged per deck, with 95% intervals over decks."""

    first: str
    """The first bot, by the name the table shows."""
    second: str
    """The second bot, likewise."""
    decks: int
    """The decks both played."""
    win_share: Estimate
    """The difference of win shares, from -1 to 1 (0 when as strong)."""
    mean_return: Estimate
    """Difference of mean returns."""


@attrs.frozen
class BotStats:
    """One bot's figures over a tournament (per seat it held)."""

    name: str
    games: int
    """Seat-games played (a bot seated twice in a deal counts twice)."""
    wins: int
    win_share: Estimate
    """Share of its seat-games won; the fair share is ``1 / players``."""
    mean_return: Estimate
    """Mean :func:`~sevenbridge.returns` per seat-game (higher is better)."""
    mean_score: Estimate
    """Mean deal score per seat-game, as the rules count it."""
    forfeits: int = 0
    """Seat-games it lost by failing (external bots only)."""
    seats: int = 1
    """Seats it fills in each deal. The figures are per seat, averaged over
    its seats within each deck, and the intervals are over decks; a bot in
    every seat gets no interval."""
    decisions: int = 0
    """Decisions it was timed over (moves with two or more legal actions)."""
    wall_mean: float | None = None
    """Mean seconds per decision by the wall clock (``None``: not timed, as
    in a store written before times were kept)."""
    wall_max: float | None = None
    """The longest decision, in seconds by the wall clock."""
    cpu_mean: float | None = None
    """Mean processor seconds per decision (``None`` where not known; see
    :attr:`Timing.cpu`)."""
    cpu_max: float | None = None
    """The most processor seconds one decision took."""


@attrs.frozen
class TournamentResult:
    """What :func:`run_tournament` and :func:`report` return."""

    rules: Any
    """The rules (the game's own ``Rules``)."""
    players: int
    seed: int
    decks: int
    games: int
    bots: dict[str, BotStats]
    results: tuple[GameResult, ...] = attrs.field(repr=False)
    seconds: float
    """Time this run took (a resumed run counts only its own part)."""
    resumed: int = 0
    """How many decks this run did not play itself (it found them in the store,
    or another run sharing the store played them meanwhile)."""
    game: str = CARD_GAME
    """The game played (a name of :data:`sevenbridge.GAMES`)."""
    fair: bool = False
    """Whether each external bot was started afresh for every deal."""
    names: dict[str, str] = attrs.Factory(dict)
    """The name shown for each bot. An external bot's is its own name, from
    its handshake (made unique, and marked when it could be taken for a
    built-in bot's); a built-in bot's is its name in the tournament. A bot
    missing here is shown by its name in the tournament."""

    held: int = 0
    """The decks the database holds, 0 without one. It is more than
    :attr:`decks` when a run asked for fewer deals than an earlier one played."""
    specs: dict[str, str] = attrs.Factory(dict)
    """The import path (``py:package.module:name``) behind the label of each
    bot given as a factory."""

    @property
    def rules_name(self) -> str:
        """The rules' preset name, or ``"custom"``."""
        kind = type(self.rules)
        return next((p for p in kind.presets() if kind.preset(p) == self.rules), "custom")

    def label(self, bot: str) -> str:
        """The name shown for ``bot`` (its name in the tournament)."""
        return self.names.get(bot, bot)

    def table(self, lang: str | None = None, *, times: bool = True) -> str:
        """The results as a text table, its headings and note in ``lang``
        (``None`` or ``"en"``: English; ``"ja"``: Japanese); with ``times``,
        each bot's time per decision (the mean and the longest, by the wall
        clock and in processor time), which differs from run to run."""
        from .._kit.i18n import name_text, translator, width

        _ = translator(lang)
        head = (
            _("bot"), _("seat-games"), _("wins"), _("win share [95%]"),
            _("mean return [95%]"), _("score/deal"), _("ms/move [max]"), _("CPU ms/move [max]"),
        )[: 8 if times else 6]  # fmt: skip
        rows: list[tuple[str, ...]] = [head]
        for stats in sorted(self.bots.values(), key=lambda s: (-s.win_share.mean, s.name)):
            why = _("every seat") if stats.seats == self.players else _("too few decks")
            shown = [
                str(e)
                if e.low is not None
                else _("{value} ({why})").format(value=f"{e.mean:.3f}", why=why)
                for e in (stats.win_share, stats.mean_return)
            ]
            rows.append(
                (name_text(self.label(stats.name), lang), str(stats.games), str(stats.wins), *shown,
                 f"{stats.mean_score.mean:.2f}", _milliseconds(stats.wall_mean, stats.wall_max),
                 _milliseconds(stats.cpu_mean, stats.cpu_max))[: len(head)]
            )  # fmt: skip
        widths = [max(width(r[i]) for r in rows) for i in range(len(head))]
        lines = [
            "  ".join(c + " " * (w - width(c)) for c, w in zip(row, widths, strict=True))
            for row in rows
        ]
        lines = [line.rstrip() for line in lines]
        lines.insert(1, "  ".join("-" * w for w in widths))
        per_deck = self.games // max(self.decks, 1)
        note = _("{deals} ({decks} x {seatings}), {players} players; fair share {share}").format(
            deals=(_("1 deal") if self.games == 1 else _("{n} deals")).format(n=self.games),
            decks=(_("1 deck") if self.decks == 1 else _("{n} decks")).format(n=self.decks),
            seatings=(_("1 seating") if per_deck == 1 else _("{n} seatings")).format(n=per_deck),
            players=self.players, share=f"{1 / self.players:.3f}",
        )  # fmt: skip
        if self.decks < MIN_DECKS:
            note += _("; too few decks for intervals (fewer than {n})").format(n=MIN_DECKS)
        elif self.decks < 30:
            note += _("; fewer than 30 decks: the intervals are rough")
        forfeits = sum(s.forfeits for s in self.bots.values())
        if forfeits:
            note += _("; {n} forfeits").format(n=forfeits)
        if self.held > self.decks:
            note += _(
                "; the database holds {held} decks: this table shows the first {decks} "
                "(--report shows them all)"
            ).format(held=self.held, decks=self.decks)
        commands = [
            f"{self.label(bot)}: {bot}" for bot in sorted(self.bots) if self.label(bot) != bot
        ] + [f"{bot}: {self.specs[bot]}" for bot in sorted(self.bots) if bot in self.specs]
        return "\n".join([*lines, note, *commands])


def _milliseconds(mean: float | None, most: float | None) -> str:
    """A time per decision and the longest, in milliseconds (``-``: unknown)."""
    if mean is None or most is None:
        return "-"
    return f"{mean * 1000:.2f} [{most * 1000:.1f}]"

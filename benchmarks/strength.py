"""How strong each built-in bot is, on the fixed evaluation sets.

Every bot plays the same decks (:func:`sevenbridge.arena.evaluation_set`:
2,000 decks a preset from a stated seed, versioned by a digest of their
deals) against the same panel (two greedy players by default), each deck in
every seating. For each preset and bot it prints:

- the bot's win share with its 95% interval over decks;
- its points (mean return per deal) less the panel's, deck by deck, with
  the interval of that paired difference: above 0 means it scores more than
  the panel on the same cards;
- the processor time of its decisions.

Run ``python benchmarks/strength.py`` for the whole sets (hours for
``ismcts`` on a small machine), ``--decks 200`` for a first look, ``--decks-of
ismcts=200`` for fewer decks of one bot, ``--bots random,greedy,neural`` for
the quick bots, ``--quick`` (seconds; the test
suite runs it). With ``--db-dir DIR`` each (preset, bot) tournament keeps
its results in a file of its own, and a rerun plays only the missing decks;
``--docs FILE`` writes the table for the documentation, ``--json FILE``
the figures; ``--ladder`` (with ``--db-dir``) also rates every bot of a
preset and the panel on one ladder (:func:`sevenbridge.ladder.ladder`) from
all their deals on the set. Two runs on the same set and decks, by different versions of
a bot, can be compared deck by deck from their databases with
:func:`sevenbridge.arena.report` and :func:`sevenbridge.arena.compare`.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sevenbridge import GAMES
from sevenbridge.arena import compare, evaluation_set, make_bot
from sevenbridge.games import CARD_GAME, game_module
from sevenbridge.ladder import ladder

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

#: The bots measured by default: every built-in one that plays the game
#: (the shipped neural networks play Seven Bridge only).
DEFAULT_BOTS = {
    "seven_bridge": ("random", "greedy", "neural", "ismcts"),
    "mahjong": ("random", "greedy", "ismcts"),
}
#: The panel's label in the tables (the panel's bots are one entrant).
PANEL = "panel"


def measure(
    game: str, preset: str, bot: str, panel: str, decks: int, workers: int, db: Path | None
) -> dict[str, Any]:
    """One row: ``bot`` against the panel on the first ``decks`` decks of the
    preset's evaluation set."""
    chosen = evaluation_set(preset, game=game)
    seat = (PANEL, functools.partial(make_bot, panel))
    bots: list[Any] = [bot] + [seat] * (chosen.players - 1)
    result = chosen.tournament(bots, decks=decks, workers=workers, db=db, progress=False)
    mine, theirs = result.bots[bot], result.bots[PANEL]
    versus = compare(result, bot, PANEL)
    return {
        "set": chosen.name,
        "preset": preset,
        "bot": bot,
        "panel": panel,
        "decks": versus.decks,
        "win_share": [mine.win_share.mean, mine.win_share.low, mine.win_share.high],
        "panel_win_share": theirs.win_share.mean,
        "points_difference": [
            versus.mean_return.mean,
            versus.mean_return.low,
            versus.mean_return.high,
        ],
        "cpu_ms": None if mine.cpu_mean is None else 1000 * mine.cpu_mean,
    }


def _interval(values: Sequence[float | None], scale: float = 1.0, digits: int = 1) -> str:
    mean, low, high = values
    assert mean is not None
    text = f"{scale * mean:.{digits}f}"
    if low is None or high is None:
        return text
    return f"{text} [{scale * low:.{digits}f}, {scale * high:.{digits}f}]"


def rows_of(figures: list[dict[str, Any]]) -> list[list[str]]:
    """The table's rows."""
    return [
        [
            f["preset"],
            f["bot"],
            str(f["decks"]),
            _interval(f["win_share"], 100.0),
            f"{100 * f['panel_win_share']:.1f}",
            _interval(f["points_difference"], digits=2),
            "n/a" if f["cpu_ms"] is None else f"{f['cpu_ms']:.2f}",
        ]
        for f in figures
    ]


LADDER_HEAD = ("bot", "rating [95%]", "seat-games", "ahead", "level", "behind")


def ladder_rows(databases: Sequence[Path]) -> list[list[str]]:
    """The ladder (:func:`sevenbridge.ladder.ladder`) of one preset's
    tournaments: every bot and the panel rated on one scale from all their
    deals on the set."""
    board = ladder(databases)
    return [
        [r.bot, f"{r.rating:.0f} [{r.low:.0f}, {r.high:.0f}]", str(r.games), str(r.ahead),
         str(r.level), str(r.behind)]
        for r in board.ratings
    ]  # fmt: skip


def _bot_decks(text: str) -> tuple[str, int]:
    """``BOT=N`` from the command line: a bot and its number of decks."""
    bot, sep, count = text.rpartition("=")
    if not sep or not bot or not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(f"expected BOT=N with N a whole number above 0: {text!r}")
    return bot, int(count)


HEAD = (
    "preset", "bot", "decks", "win % [95%]", "panel win %",
    "points − panel [95%]", "CPU ms/decision",
)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, default=CARD_GAME)
    parser.add_argument("--presets", help="comma-separated presets (default: all)")
    parser.add_argument("--bots", help="comma-separated bots (default: every built-in one)")
    parser.add_argument("--panel", default="greedy", help="the panel's bot (default: greedy)")
    parser.add_argument("--decks", type=int, help="the first N decks of each set (default: all)")
    parser.add_argument(
        "--decks-of",
        action="append",
        default=[],
        metavar="BOT=N",
        type=_bot_decks,
        help="the first N decks for this bot alone (repeatable), e.g. ismcts=200",
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--db-dir", type=Path, help="keep each tournament's results here")
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="also rate every bot of each preset on one ladder from its databases (needs --db-dir)",
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the table as Markdown")
    args = parser.parse_args(argv)
    if args.ladder and not args.db_dir:
        parser.error("--ladder reads the tournaments' databases: give --db-dir")
    presets = (
        args.presets.split(",") if args.presets else list(game_module(args.game).Rules.presets())
    )
    bots = args.bots.split(",") if args.bots else list(DEFAULT_BOTS[args.game])
    if args.quick:
        presets, bots = presets[:1], [b for b in bots if b != "ismcts"][:2] or bots[:1]
    decks_of = dict(args.decks_of)
    if args.db_dir:
        args.db_dir.mkdir(parents=True, exist_ok=True)
    figures = []
    databases: dict[str, list[Path]] = {}
    print(" | ".join(HEAD))
    for preset in presets:
        chosen = evaluation_set(preset, game=args.game)
        chosen.check()
        for bot in bots:
            db = None
            if args.db_dir:
                db = args.db_dir / f"{args.game}-{preset}-{bot.replace(':', '_')}.sqlite"
                databases.setdefault(preset, []).append(db)
            count = decks_of.get(bot, args.decks) or chosen.decks
            if args.quick:
                count = min(count, 3)  # a smoke run
            row = measure(args.game, preset, bot, args.panel, count, args.workers, db)
            figures.append(row)
            print(" | ".join(rows_of([row])[0]), flush=True)
    ladders = {preset: ladder_rows(dbs) for preset, dbs in databases.items()} if args.ladder else {}
    for preset, rows in ladders.items():
        print(f"\nLadder, {preset}:")
        print(" | ".join(LADDER_HEAD))
        for line in rows:
            print(" | ".join(line))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2), encoding="utf-8")
    if args.docs:
        sets = sorted({f["set"] for f in figures})
        _docs.write(
            args.docs,
            [
                _docs.provenance("strength.py", argv),
                f"**On the evaluation sets** ({', '.join(f'`{s}`' for s in sets)}; each bot "
                f"against a panel of {args.panel} players, every deck in every seating; the "
                "intervals are 95% over decks, the points difference deck by deck):",
                _docs.table(HEAD, rows_of(figures)),
                *(
                    block
                    for preset, rows in ladders.items()
                    for block in (
                        f"**Ladder, {preset}** (every bot and the panel on one scale, from "
                        "all their deals above: Bradley-Terry over the pairs of seats in each "
                        "deal, the higher return ahead; Elo scale, mean 1500; 95% intervals "
                        "from 200 resamples of the decks):",
                        _docs.table(LADDER_HEAD, rows),
                    )
                ),
            ],
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

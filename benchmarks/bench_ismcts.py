"""How strong ``ISMCTSPlayer`` is: duplicate tournaments, three players.

Run ``python benchmarks/bench_ismcts.py`` for the figures of the docs (600 deals
for each table row), ``--deals 60`` for a first look, or ``--quick`` (seconds;
the test suite runs it). It prints two tables:

- **against greedy players**: the tournament's ``ismcts`` bot (its default
  budget) with two ``GreedyPlayer`` seats, under each preset: its win share
  and mean return with their 95% intervals over decks, the greedy players'
  figures, and the processor time of its decisions;
- **head to head**: ``ismcts``, the flat Monte Carlo bot of
  ``examples/flat_monte_carlo.py`` (played as an external bot, given
  ``--flat-playouts`` playouts per decision: about the same processor time)
  and one greedy player, each deck in all six seatings; the deck-by-deck
  difference of ISMCTS less flat Monte Carlo
  (:func:`sevenbridge.arena.compare`) and both bots' processor time;
- with ``--ceiling``, **the opponents' hands open**: how much the search
  would gain from knowing the cards it cannot see. On the same decks (a third
  as many as ``--deals``, at least five, each played in the three seatings
  against two greedy players, with the same seeds) it plays once with its own
  worlds and once with worlds that hold the true hands (``ISMCTSPlayer(worlds=...)``; the
  stock's order stays hidden), at ``--ceiling-iterations`` iterations a
  decision; the deck-by-deck difference bounds what any belief model could
  add to it. With ``--ceiling-lean K,...`` (numbers above 1, or ``inf``,
  the hands open: the default) the same decks are also played with worlds
  dealt from beliefs that lean towards the truth: for each card the view
  hides, the even prior's chance of the place where the card really lies
  (:func:`sevenbridge.inference.place_prior`) is multiplied by K before the
  worlds are dealt from those chances (``sample_state``'s ``weights``), so
  each world still fits the view exactly. A belief that leans by K has a
  known log-loss (printed beside the prior's), so the table says how good a
  belief model would have to be before the search gains from it.

The full run takes three to four hours with one worker on a two-core machine
with the pure-Python build (the processor times are only right when the
machine has a core free for each worker). It can be split, by preset and by table, and each
part resumed where it stopped: with ``--db-dir`` every tournament keeps its
results in a file of its own there, and a rerun of the same command plays only
what is missing; ``--from-json`` then puts the parts' tables together::

    python benchmarks/bench_ismcts.py --presets nintendo --skip-duel \
        --db-dir ismcts-runs --json ismcts-runs/greedy-nintendo.json
    ...  # the same for seven_rummy and standard, and with --skip-greedy
    python benchmarks/bench_ismcts.py --from-json ismcts-runs/*.json \
        --docs docs/_generated/figures-ismcts.md

Two runs of the greedy table with the same seed play the same decks, so two
versions of the bot (``--bot ismcts:worlds=uniform`` in another ``--db-dir``,
say) can be set side by side deck by deck, each pair of databases a row,
which is far surer than reading their tables against each other::

    python benchmarks/bench_ismcts.py --paired runs/greedy-nintendo.sqlite \
        uniform-runs/greedy-nintendo.sqlite --paired-names ismcts uniform

Every tournament is seeded (``--seed``). The default ``ismcts`` bot stops a
search at 2,000 iterations or at its processor-time limit, whichever comes
first, so where the limit ends some searches (most with the pure-Python build,
a few with the compiled one) a rerun may differ a little; a bot with an
iterations budget alone (``--bot ismcts:iterations=2000``) replays exactly on
any machine with the same version of the library, and only the times differ.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from sevenbridge import GameState, Observation, Rules, apply, deal, observe, returns, sample_state
from sevenbridge._kit.rng import derive, shuffled
from sevenbridge._tables import bits
from sevenbridge.arena import (
    MIN_DECKS,
    BotStats,
    Estimate,
    TournamentResult,
    compare,
    report,
    run_tournament,
)
from sevenbridge.arena._statistics import _deck_means, _estimate, _per_deck
from sevenbridge.bots import DEFAULT_ITERATIONS, GreedyPlayer, ISMCTSPlayer, Player
from sevenbridge.inference import place_prior

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "flat_monte_carlo.py"
PRESETS = tuple(Rules.presets())
#: The flat Monte Carlo bot's playouts per decision: as many as the search's
#: iterations, about the same processor time (the tables give both bots' times).
FLAT_PLAYOUTS = DEFAULT_ITERATIONS


def _flat_bot(playouts: int) -> str:
    return f"cmd:{sys.executable} {EXAMPLE} --serve --playouts {playouts}"


def _figures(stats: BotStats) -> dict[str, Any]:
    def est(e: Estimate) -> list[float | None]:
        return [e.mean, e.low, e.high]

    return {
        "win_share": est(stats.win_share),
        "mean_return": est(stats.mean_return),
        "cpu_ms": None if stats.cpu_mean is None else 1000 * stats.cpu_mean,
        "cpu_max_ms": None if stats.cpu_max is None else 1000 * stats.cpu_max,
        "decisions": stats.decisions,
    }


def _db(db_dir: str | None, table: str, preset: str) -> Path | None:
    """Where a tournament keeps its results, to resume (``None``: in memory)."""
    if db_dir is None:
        return None
    Path(db_dir).mkdir(parents=True, exist_ok=True)
    return Path(db_dir) / f"{table}-{preset}.sqlite"


def against_greedy(
    preset: str, deals: int, seed: int, workers: int, bot: str, db: Path | None = None
) -> dict[str, Any]:
    """ISMCTS with two greedy players under ``preset``."""
    start = time.perf_counter()
    result = run_tournament([bot, "greedy", "greedy"], Rules.preset(preset), deals=deals,
                            seed=seed, workers=workers, db=db, progress=False)  # fmt: skip
    return _row(preset, bot, seed, result, start)


def _row(
    preset: str, bot: str, seed: int, result: TournamentResult, start: float, **more: Any
) -> dict[str, Any]:
    """A table row: the tournament, the figures of ISMCTS and greedy, and ``more``."""
    return {
        "preset": preset,
        "bot": bot,
        "seed": seed,
        "deals": result.games,
        "decks": result.decks,
        "ismcts": _figures(result.bots[bot]),
        "greedy": _figures(result.bots["greedy"]),
        **more,
        "seconds": time.perf_counter() - start,
    }


def head_to_head(
    preset: str,
    deals: int,
    seed: int,
    workers: int,
    bot: str,
    playouts: int,
    db: Path | None = None,
) -> dict[str, Any]:
    """ISMCTS, flat Monte Carlo and a greedy player under ``preset``."""
    start = time.perf_counter()
    flat = _flat_bot(playouts)
    result: TournamentResult = run_tournament(
        [bot, flat, "greedy"], Rules.preset(preset), deals=deals, seed=seed,
        workers=workers, fair=False, db=db, progress=False,
    )  # fmt: skip
    diff = compare(result, bot, flat)
    difference = {
        "win_share": [diff.win_share.mean, diff.win_share.low, diff.win_share.high],
        "mean_return": [diff.mean_return.mean, diff.mean_return.low, diff.mean_return.high],
    }
    return _row(preset, bot, seed, result, start, playouts=playouts,
                flat=_figures(result.bots[flat]), difference=difference)  # fmt: skip


class _HandsOpen:
    """Worlds that hold the true hands: the deal's ``state`` as it stands, its
    stock shuffled (the hands as they lie, not the draws to come)."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __call__(self, view: Observation, key: int) -> GameState:
        return attrs.evolve(self.state, stock_cards=shuffled(self.state.stock_cards, key))


class _Leaning(_HandsOpen):
    """Worlds dealt from beliefs that lean ``lean`` times towards the truth:
    for each card the view hides, the even prior's chance of the place where
    the card lies in ``state`` is multiplied by ``lean`` (``sample_state``
    scales each card's weights to chances). The beliefs' log-loss and the
    even prior's (nats, summed over the hidden cards with two places or more
    at each decision) are added up in :attr:`loss`, with the cards counted."""

    def __init__(self, state: GameState, lean: float) -> None:
        super().__init__(state)
        self.lean = lean
        self.loss = [0.0, 0.0, 0]  # the leaning beliefs', the even prior's, the cards
        self._view: Observation | None = None
        self._weights: list[list[float]] = []

    def __call__(self, view: Observation, key: int) -> GameState:
        if view is not self._view:  # a new decision: the search asks with one view
            self._view, self._weights = view, self._lean(view)
        return sample_state(view, key, weights=self._weights)

    def _lean(self, view: Observation) -> list[list[float]]:
        state, stock = self.state, view.players
        where = {c: p for p, hand in enumerate(state.hand_masks) for c in bits(hand)}
        where.update((c, stock) for c in state.stock_cards)
        weights = []
        for card, row in enumerate(place_prior(view)):
            weight = list(row)
            if sum(1 for x in row if x > 0) >= 2:
                truth = where[card]
                weight[truth] *= self.lean
                self.loss[0] -= math.log(weight[truth] / sum(weight))
                self.loss[1] -= math.log(row[truth] / sum(row))
                self.loss[2] += 1
            weights.append(weight)
        return weights


#: Hands open in the ceiling table (a lean of infinity).
OPEN: Final = math.inf


def _ceiling_deck(
    job: tuple[str, int, int, int, float | None],
) -> tuple[list[tuple[float, float]], list[float]]:
    """One deck of the ceiling table, in the three seatings: the search's
    (won, return) in each, with its own worlds (``lean`` ``None``), with the
    hands open (:data:`OPEN`) or with worlds that lean towards the truth
    (:class:`_Leaning`); and the leaning beliefs' log-loss figures."""
    preset, seed, deck, iterations, lean = job
    key = derive(seed, deck)
    out = []
    loss = [0.0, 0.0, 0]
    for seat in range(3):
        state = deal(Rules.preset(preset), players=3, seed=key)
        truth = _HandsOpen(state) if lean is None or lean == OPEN else _Leaning(state, lean)
        bots: list[Player] = [GreedyPlayer(derive(key, seat, other)) for other in range(3)]
        bots[seat] = ISMCTSPlayer(derive(key, seat), iterations=iterations,
                                  worlds=None if lean is None else truth)  # fmt: skip
        while not state.is_over:
            truth.state = state
            state = apply(state, bots[state.current_player or 0](observe(state)))
        out.append((float(state.winner == seat), returns(state)[seat]))
        if isinstance(truth, _Leaning):
            loss = [a + b for a, b in zip(loss, truth.loss, strict=True)]
    return out, loss


def _mean(values: Sequence[float], lo: float, hi: float) -> list[Any]:
    """The mean of deck figures and its 95% interval, as the tournaments give
    theirs (:mod:`sevenbridge.arena`'s estimate, kept within ``lo`` and ``hi``)."""
    found = _estimate(values, lo, hi)
    return [found.mean, found.low, found.high]


def _side_by_side(
    first: Sequence[Sequence[float]], second: Sequence[Sequence[float]], names: tuple[str, str]
) -> dict[str, Any]:
    """Two sets of deck figures on the same decks, in the same order (each deck
    its mean win, then its mean return): for the win share and the mean return,
    each set's mean and interval under its name, and those of the deck-by-deck
    difference (the first less the second) under ``"difference"``."""
    figures: dict[str, Any] = {}
    for what, column, low, high in (("win_share", 0, 0.0, 1.0),
                                    ("mean_return", 1, -math.inf, math.inf)):  # fmt: skip
        ones, others = ([deck[column] for deck in side] for side in (first, second))
        gains = [x - y for x, y in zip(ones, others, strict=True)]
        figures[what] = {names[0]: _mean(ones, low, high), names[1]: _mean(others, low, high),
                         "difference": _mean(gains, low - high, high - low)}  # fmt: skip
    return figures


def ceiling(
    preset: str,
    decks: int,
    seed: int,
    workers: int,
    iterations: int,
    leans: Sequence[float] = (OPEN,),
) -> list[dict[str, Any]]:
    """The search with its own worlds and, on the same decks, with the
    opponents' hands open or worlds leaning towards them: a row for each of
    ``leans`` (:data:`OPEN` for the hands open), each paired deck by deck with
    the same own-worlds games."""
    start = time.perf_counter()
    arms: list[float | None] = [None, *leans]
    jobs = [(preset, seed, d, iterations, lean) for d in range(decks) for lean in arms]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            played = pool.map(_ceiling_deck, jobs)
    else:
        played = [_ceiling_deck(job) for job in jobs]
    # The jobs take turns: each deck with its own worlds, then with each lean.
    results = [
        [
            [statistics.fmean(c) for c in zip(*games, strict=True)]
            for games, _ in played[a :: len(arms)]
        ]
        for a in range(len(arms))
    ]
    rows = []
    for a, lean in enumerate(leans, start=1):
        figures = _side_by_side(results[a], results[0], ("open", "fair"))
        row = {"preset": preset, "seed": seed, "decks": decks, "deals": 3 * decks,
               "iterations": iterations, "lean": None if lean == OPEN else lean, **figures,
               "seconds": time.perf_counter() - start}  # fmt: skip
        if lean != OPEN:
            mine, prior, cards = (
                sum(x) for x in zip(*(loss for _, loss in played[a :: len(arms)]), strict=True)
            )
            row["log_loss"] = {"lean": mine / max(cards, 1), "prior": prior / max(cards, 1),
                               "cards": int(cards)}  # fmt: skip
        rows.append(row)
    return rows


def _searcher_decks(result: TournamentResult) -> tuple[str, dict[int, list[float]]]:
    """The bot of a greedy-table run that is not greedy, and its mean win,
    return and score on each deck (as the tournament's own figures count them)."""
    (bot,) = [name for name in result.bots if name != "greedy"]
    return bot, _deck_means(_per_deck(result.results)[bot])


def paired(first: str, second: str, names: Sequence[str] | None) -> dict[str, Any]:
    """Two greedy-table runs of the same decks (the same seed), deck by deck:
    the first's search bot less the second's."""
    runs = [report(first), report(second)]
    if len({(r.rules, r.seed) for r in runs}) != 1:
        raise SystemExit("--paired: the two databases hold other rules or another seed")
    (bot_a, a), (bot_b, b) = (_searcher_decks(r) for r in runs)
    decks = sorted(set(a) & set(b))
    figures = _side_by_side([a[d] for d in decks], [b[d] for d in decks], ("first", "second"))
    first_name, second_name = names if names else (bot_a, bot_b)
    return {"preset": runs[0].rules_name, "seed": runs[0].seed, "decks": len(decks),
            "deals": 3 * len(decks), "first": first_name, "second": second_name,
            **figures}  # fmt: skip


def _interval(values: Sequence[float | None], digits: int, sign: bool = False) -> str:
    mean, low, high = values
    assert mean is not None
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    if low is None or high is None:
        return f.format(mean)
    return f"{f.format(mean)} [{f.format(low)}, {f.format(high)}]"


def _ms(figures: dict[str, Any]) -> str:
    if figures["cpu_ms"] is None:
        return "-"
    return f"{figures['cpu_ms']:.0f} ({figures['cpu_max_ms']:.0f})"


def greedy_rows(rows: Sequence[dict[str, Any]], bold: bool) -> list[tuple[str, ...]]:
    b = "**" if bold else ""
    return [
        (
            r["preset"],
            str(r["deals"]),
            f"{b}{_interval(r['ismcts']['win_share'], 3)}{b}",
            f"{r['greedy']['win_share'][0]:.3f}",
            f"{b}{_interval(r['ismcts']['mean_return'], 2, sign=True)}{b}",
            f"{r['greedy']['mean_return'][0]:+.2f}",
            _ms(r["ismcts"]),
        )
        for r in rows
    ]


GREEDY_HEAD = ("preset", "deals", "ISMCTS win share [95%]", "each greedy",
               "ISMCTS mean return [95%]", "each greedy", "ISMCTS CPU ms/decision (max)")  # fmt: skip


def duel_rows(rows: Sequence[dict[str, Any]], bold: bool) -> list[tuple[str, ...]]:
    b = "**" if bold else ""
    return [
        (
            r["preset"],
            str(r["deals"]),
            f"{r['ismcts']['win_share'][0]:.3f} / {r['flat']['win_share'][0]:.3f} / "
            f"{r['greedy']['win_share'][0]:.3f}",
            f"{b}{_interval(r['difference']['win_share'], 3, sign=True)}{b}",
            f"{b}{_interval(r['difference']['mean_return'], 2, sign=True)}{b}",
            f"{_ms(r['ismcts'])} / {_ms(r['flat'])}",
        )
        for r in rows
    ]


def ceiling_rows(rows: Sequence[dict[str, Any]], bold: bool) -> list[tuple[str, ...]]:
    b = "**" if bold else ""
    return [
        (
            r["preset"],
            str(r["decks"]),
            f"{_interval(r['win_share']['fair'], 3)} / {_interval(r['win_share']['open'], 3)}",
            f"{b}{_interval(r['win_share']['difference'], 3, sign=True)}{b}",
            f"{r['mean_return']['fair'][0]:+.2f} / {r['mean_return']['open'][0]:+.2f}",
            f"{b}{_interval(r['mean_return']['difference'], 2, sign=True)}{b}",
        )
        for r in rows
    ]


def _pair_cells(r: dict[str, Any], bold: bool, one: str, other: str) -> tuple[str, ...]:
    """A row's two sides set side by side (``one`` and ``other`` of its win
    share and mean return) and the deck-by-deck difference of each."""
    b = "**" if bold else ""
    return (
        f"{r['win_share'][one][0]:.3f} / {r['win_share'][other][0]:.3f}",
        f"{b}{_interval(r['win_share']['difference'], 3, sign=True)}{b}",
        f"{r['mean_return'][one][0]:+.2f} / {r['mean_return'][other][0]:+.2f}",
        f"{b}{_interval(r['mean_return']['difference'], 2, sign=True)}{b}",
    )


def paired_rows(rows: Sequence[dict[str, Any]], bold: bool) -> list[tuple[str, ...]]:
    return [(r["preset"], str(r["decks"]), *_pair_cells(r, bold, "first", "second")) for r in rows]


PAIRED_HEAD = ("preset", "decks", "win share: first / second",
               "first less second: win share [95%]", "mean return: first / second",
               "difference [95%]")  # fmt: skip


def lean_rows(rows: Sequence[dict[str, Any]], bold: bool) -> list[tuple[str, ...]]:
    return [
        (
            r["preset"],
            str(r["decks"]),
            f"{r['lean']:g}",
            f"{r['log_loss']['prior']:.3f} / {r['log_loss']['lean']:.3f}",
            *_pair_cells(r, bold, "fair", "open"),
        )
        for r in sorted(rows, key=lambda r: (r["preset"], r["lean"]))
    ]


LEAN_HEAD = ("preset", "decks", "K", "log-loss: even prior / leaning",
             "win share: own worlds / leaning", "leaning less own worlds: win share [95%]",
             "mean return: own worlds / leaning", "difference [95%]")  # fmt: skip


def _leans(text: str) -> tuple[float, ...]:
    """``--ceiling-lean``: numbers above 1, or ``inf``, comma-separated."""
    leans = []
    for part in text.split(","):
        try:
            lean = float(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {part!r}") from None
        if not lean > 1:  # NaN too
            raise argparse.ArgumentTypeError(f"a lean is a number above 1 (or inf), not {part!r}")
        leans.append(lean)
    if len(set(leans)) != len(leans):
        raise argparse.ArgumentTypeError("a lean is named twice")
    return tuple(leans)


CEILING_HEAD = ("preset", "decks", "win share [95%]: own worlds / hands open",
                "hands open less own worlds: win share [95%]",
                "mean return: own worlds / hands open", "difference [95%]")  # fmt: skip


DUEL_HEAD = ("preset", "deals", "win share: ISMCTS / flat MC / greedy",
             "ISMCTS less flat MC: win share [95%]", "mean return [95%]",
             "CPU ms/decision (max): ISMCTS / flat MC")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deals", type=int, default=600, help="deals per table row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes per tournament")
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated")
    parser.add_argument("--bot", default="ismcts", help="the ISMCTS bot's tournament name")
    parser.add_argument("--flat-playouts", type=int, default=FLAT_PLAYOUTS)
    parser.add_argument("--skip-duel", action="store_true", help="only the greedy table")
    parser.add_argument("--skip-greedy", action="store_true", help="only the head-to-head table")
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="also the table of the search with the opponents' hands open",
    )
    parser.add_argument("--ceiling-iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument(
        "--ceiling-lean",
        type=_leans,
        default=(OPEN,),
        metavar="K,...",
        help="with --ceiling: worlds leaning K times towards the true hands (numbers above 1; "
        "inf: the hands open, the default)",
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the tables as Markdown")
    parser.add_argument(
        "--db-dir",
        metavar="DIR",
        help="keep each tournament's results there: a stopped run resumes",
    )
    parser.add_argument(
        "--paired",
        metavar="DB",
        nargs=2,
        action="append",
        help="play nothing: two greedy-table databases of the same decks, deck by deck "
        "(the first's search bot less the second's); may be given once a preset",
    )
    parser.add_argument(
        "--paired-names",
        metavar="NAME",
        nargs=2,
        help="the two bots' names in the --paired table (by default their labels)",
    )
    parser.add_argument(
        "--from-json",
        metavar="FILE",
        nargs="+",
        help="play nothing: the tables of earlier runs' --json files",
    )
    args = parser.parse_args(argv)
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    bot, deals, playouts = args.bot, args.deals, args.flat_playouts
    iterations = args.ceiling_iterations
    if args.quick:
        bot, deals, playouts, iterations = "ismcts:iterations=8", 6, 8, 8
    figures: dict[str, list[dict[str, Any]]] = {
        "greedy": [], "duel": [], "ceiling": [], "paired": [],
    }  # fmt: skip
    for first, second in args.paired or ():
        figures["paired"].append(paired(first, second, args.paired_names))
        args.skip_greedy = args.skip_duel = True
        args.ceiling = False
    if args.from_json:
        for name in args.from_json:
            earlier = json.loads(Path(name).read_text())
            for table in figures:
                figures[table] += earlier.get(table, [])
        args.skip_greedy = args.skip_duel = True
        args.ceiling = False
    if not args.skip_greedy:
        for preset in presets:
            db = _db(args.db_dir, "greedy", preset)
            row = against_greedy(preset, deals, args.seed, args.workers, bot, db)
            figures["greedy"].append(row)
            print(f"{preset}: against two greedy players, {row['deals']} deals "
                  f"({row['seconds']:.0f} s)", flush=True)  # fmt: skip
    if not args.skip_duel:
        for preset in presets:
            db = _db(args.db_dir, "duel", preset)
            row = head_to_head(preset, deals, args.seed, args.workers, bot, playouts, db)
            figures["duel"].append(row)
            print(f"{preset}: head to head, {row['deals']} deals ({row['seconds']:.0f} s)",
                  flush=True)  # fmt: skip
    if args.ceiling:
        for preset in presets:
            rows = ceiling(preset, max(MIN_DECKS, deals // 3), args.seed, args.workers,
                           iterations, args.ceiling_lean)  # fmt: skip
            figures["ceiling"] += rows
            print(f"{preset}: hands open or leaning, {rows[0]['decks']} decks "
                  f"({rows[-1]['seconds']:.0f} s)", flush=True)  # fmt: skip
    blocks = tables(figures, markdown=False)
    print("\n\n".join(blocks))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(figures, indent=2))
    if args.docs:
        _docs.write(args.docs, [_docs.provenance("bench_ismcts.py", argv),
                                *tables(figures, markdown=True)])  # fmt: skip
    return 0


def tables(figures: dict[str, list[dict[str, Any]]], markdown: bool) -> list[str]:
    """The tables (Markdown, or plain text for the terminal); each row's bot, seed
    and playouts are named above its table (a table per set of them)."""
    out = []
    for bot, seed in dict.fromkeys((r["bot"], r["seed"]) for r in figures["greedy"]):
        rows = [r for r in figures["greedy"] if (r["bot"], r["seed"]) == (bot, seed)]
        out.append(f"**`{bot}` against two greedy players** (seed {seed}; the greedy "
                   "players' figures are each one's):")  # fmt: skip
        out.append(_table(GREEDY_HEAD, greedy_rows(rows, markdown), markdown))
    for bot, seed, playouts in dict.fromkeys(
        (r["bot"], r["seed"], r["playouts"]) for r in figures["duel"]
    ):
        rows = [
            r
            for r in figures["duel"]
            if (r["bot"], r["seed"], r["playouts"]) == (bot, seed, playouts)
        ]
        out.append(f"**Head to head: `{bot}`, flat Monte Carlo ({playouts} greedy playouts a "
                   f"decision) and one greedy player** (seed {seed}):")  # fmt: skip
        out.append(_table(DUEL_HEAD, duel_rows(rows, markdown), markdown))
    leaning = [r for r in figures["ceiling"] if r.get("lean") is not None]
    hands_open = [r for r in figures["ceiling"] if r.get("lean") is None]
    for seed, iterations in dict.fromkeys((r["seed"], r["iterations"]) for r in hands_open):
        rows = [r for r in hands_open if (r["seed"], r["iterations"]) == (seed, iterations)]
        out.append(f"**The opponents' hands open: `ISMCTSPlayer(iterations={iterations})` against "
                   "two greedy players with its own worlds, and on the same decks with worlds "
                   f"that hold the true hands (the stock's order still hidden)** (seed {seed}):")  # fmt: skip
        out.append(_table(CEILING_HEAD, ceiling_rows(rows, markdown), markdown))
    for seed, iterations in dict.fromkeys((r["seed"], r["iterations"]) for r in leaning):
        rows = [r for r in leaning if (r["seed"], r["iterations"]) == (seed, iterations)]
        out.append(f"**Beliefs that lean towards the true hands: `ISMCTSPlayer(iterations="
                   f"{iterations})` against two greedy players with its own worlds, and on the "
                   "same decks with worlds dealt from the even prior with the chance of each "
                   "hidden card's true place multiplied by K (log-loss in nats a hidden card "
                   f"with two places or more, at the search's decisions)** (seed {seed}):")  # fmt: skip
        out.append(_table(LEAN_HEAD, lean_rows(rows, markdown), markdown))
    for first, second, seed in dict.fromkeys(
        (r["first"], r["second"], r["seed"]) for r in figures["paired"]
    ):
        rows = [
            r
            for r in figures["paired"]
            if (r["first"], r["second"], r["seed"]) == (first, second, seed)
        ]
        out.append(f"**Deck by deck, each against two greedy players: `{first}` (first) less "
                   f"`{second}` (second)** (seed {seed}):")  # fmt: skip
        out.append(_table(PAIRED_HEAD, paired_rows(rows, markdown), markdown))
    return out


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> str:
    if markdown:
        return _docs.table(head, rows)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

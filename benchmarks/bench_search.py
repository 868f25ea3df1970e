"""What a decision of the search bot costs: processor time per decision of
:class:`sevenbridge.bots.ISMCTSPlayer` at the budget the docs state.

Run ``python benchmarks/bench_search.py`` once with the pure-Python build and
once with the compiled one (``--docs`` writes the figures of the docs:
``docs/_generated/figures-search-pure.md`` and ``...-compiled.md``), or
``--quick`` (seconds; the test suite runs it).

The searching seat plays deals against greedy players, and only its decisions
(moves with two or more legal actions: a lone move costs the search nothing)
are timed, with :func:`time.process_time` around the call, so a busy machine
lengthens the wall-clock time but not the figures. For the card game, every
preset at three players with the tournament's default budget
(:data:`sevenbridge.bots.DEFAULT_ITERATIONS`, or
:data:`sevenbridge.bots.DEFAULT_SECONDS` of processor time if that ends the
search first: the table gives the mean iterations run); for Simple Mahjong,
four players at the small budget its section of the bots guide uses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import sevenbridge
from sevenbridge import Rules, mahjong
from sevenbridge.bots import DEFAULT_ITERATIONS, DEFAULT_SECONDS, GreedyPlayer, ISMCTSPlayer

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

#: The mahjong budget of the bots guide's mahjong table.
MAHJONG_ITERATIONS = 50


def decision_times(
    start: Callable[[int], Any],
    legal: Callable[[Any], Sequence[Any]],
    play: Callable[[Any, Any], Any],
    observe: Callable[[Any, int], Any],
    bots: Callable[[int], list[Any]],
    decisions: int,
    iterations: list[int] | None = None,
) -> list[float]:
    """Seconds of processor time of seat 0's first ``decisions`` decisions,
    over as many seeded deals as that takes (and in ``iterations``, those
    each decision ran)."""
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        state, players = start(seed), bots(seed)
        while not state.is_over and len(times) < decisions:
            actions = legal(state)
            seat = state.current_player
            if seat == 0 and len(actions) > 1:
                before = time.process_time()
                action = players[0](observe(state, 0))
                times.append(time.process_time() - before)
                if iterations is not None:
                    iterations.append(players[0].last_iterations)
            else:
                action = players[seat](observe(state, seat))
            state = play(state, action)
        seed += 1
    return times


def card_game(
    preset: str, iterations: int | None, decisions: int, ran: list[int] | None = None
) -> list[float]:
    """The card game's decisions, at ``iterations`` (``None``: the default budget)."""
    rules = Rules.preset(preset)
    return decision_times(
        lambda seed: sevenbridge.deal(rules, players=3, seed=seed),
        sevenbridge.legal_actions,
        sevenbridge.apply,
        sevenbridge.observe,
        lambda seed: [
            ISMCTSPlayer(seed) if iterations is None else ISMCTSPlayer(seed, iterations=iterations),
            GreedyPlayer(seed + 1),
            GreedyPlayer(seed + 2),
        ],
        decisions,
        ran,
    )


def mahjong_game(iterations: int, decisions: int, ran: list[int] | None = None) -> list[float]:
    return decision_times(
        lambda seed: mahjong.deal(seed=seed),
        mahjong.legal_actions,
        mahjong.apply,
        mahjong.observe,
        lambda seed: (
            [ISMCTSPlayer(seed, iterations=iterations)]
            + [mahjong.GreedyPlayer(seed + k) for k in (1, 2, 3)]
        ),
        decisions,
        ran,
    )


def summary(times: Sequence[float]) -> dict[str, float]:
    ms = sorted(1000 * t for t in times)
    return {
        "decisions": len(ms),
        "mean_ms": statistics.fmean(ms),
        "median_ms": statistics.median(ms),
        "p90_ms": ms[min(len(ms) - 1, (9 * len(ms)) // 10)],
        "max_ms": ms[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--decisions", type=int, default=100, help="timed decisions per row")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    decisions = 4 if args.quick else args.decisions
    card_budget = 20 if args.quick else None
    mahjong_budget = 5 if args.quick else MAHJONG_ITERATIONS
    build = "compiled (mypyc)" if sevenbridge.COMPILED else "pure Python"
    print(f"ISMCTSPlayer, processor time per decision ({build} build):")
    rows: dict[str, dict[str, Any]] = {}
    budget = (
        str(card_budget)
        if card_budget is not None
        else f"{DEFAULT_ITERATIONS} or {DEFAULT_SECONDS:g} s"
    )
    for preset in Rules.presets():
        ran: list[int] = []
        figures = summary(card_game(preset, card_budget, decisions, ran))
        rows[f"seven_bridge/{preset}"] = {
            "iterations": budget,
            "mean_iterations": statistics.fmean(ran),
            **figures,
        }
    ran = []
    rows["mahjong/standard"] = {
        "iterations": str(mahjong_budget),
        **summary(mahjong_game(mahjong_budget, max(2, decisions // 2), ran)),
        "mean_iterations": statistics.fmean(ran),
    }
    head = ["game", "rules", "players", "budget (iterations)", "iterations run (mean)",
            "decisions", "mean ms", "median ms", "90% under ms", "max ms"]  # fmt: skip
    table = []
    for key, f in rows.items():
        game, rules = key.split("/")
        players = 4 if game == "mahjong" else 3
        table.append([game, rules, players, f["iterations"], f"{f['mean_iterations']:.0f}",
                      f["decisions"], f"{f['mean_ms']:.0f}", f"{f['median_ms']:.0f}",
                      f"{f['p90_ms']:.0f}", f"{f['max_ms']:.0f}"])  # fmt: skip
    text = _docs.table(head, table)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"compiled": sevenbridge.COMPILED, "rows": rows}, out, indent=1)
    if args.docs:
        intro = (
            f"**ISMCTSPlayer's processor time per decision** ({build} build; seat 0 of "
            "seeded deals against greedy players; only decisions with two or more legal "
            "moves are timed):"
        )
        _docs.write(args.docs, [_docs.provenance("bench_search.py", argv), intro, text])
    return 0


if __name__ == "__main__":
    sys.exit(main())

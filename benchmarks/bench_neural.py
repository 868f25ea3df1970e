"""The strength of the shipped NeuralPlayer: against two greedy players, every preset.

``python benchmarks/bench_neural.py`` plays, for each preset, the seeded
duplicate tournament ``sevenbridge tournament --bots neural,greedy,greedy
--rules PRESET --deals 600 --seed 1`` in one process and prints the table of
:doc:`/howto/learning` (win share with its 95% interval, each greedy player's
share, mean return, time per decision); under a minute a preset on one core.
``--deals`` and ``--presets`` choose less; ``--quick`` plays a few deals of
each preset (seconds; the test suite runs it); ``--json`` keeps the figures.
The tournaments are seeded, so the same version of the library gives the same
figures on any machine (the times aside).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sevenbridge import Rules
from sevenbridge.arena import run_tournament


def measure(preset: str, deals: int, seed: int, bot: str = "neural") -> dict[str, Any]:
    """One preset's tournament of ``bot`` against two greedy players, as figures."""
    bots = [bot, "greedy", "greedy"]
    result = run_tournament(bots, Rules.preset(preset), deals=deals, seed=seed, progress=False)
    neural, greedy = result.bots[bot], result.bots["greedy"]
    return {
        "preset": preset,
        "deals": result.games,
        "decks": result.decks,
        "win_share": neural.win_share.mean,
        "low": neural.win_share.low,
        "high": neural.win_share.high,
        "greedy_share": greedy.win_share.mean,
        "mean_return": neural.mean_return.mean,
        "return_low": neural.mean_return.low,
        "return_high": neural.mean_return.high,
        "ms_per_decision": None if neural.wall_mean is None else 1000 * neural.wall_mean,
    }


def _interval(low: float | None, high: float | None, digits: int) -> str:
    return "" if low is None or high is None else f" [{low:.{digits}f}, {high:.{digits}f}]"


def row(f: dict[str, Any]) -> str:
    """A line of the table in the docs."""
    above = f["low"] is not None and f["low"] > 1 / 3
    share = f"{f['win_share']:.3f}"
    ms = "" if f["ms_per_decision"] is None else f"{f['ms_per_decision']:.0f}"
    return (
        f"| {f['preset']} | {f['deals']} | {'**' + share + '**' if above else share}"
        f"{_interval(f['low'], f['high'], 3)} | {f['greedy_share']:.3f} | "
        f"{f['mean_return']:+.2f}{_interval(f['return_low'], f['return_high'], 2)} | {ms} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=600, help="deals per preset (default 600)")
    parser.add_argument("--presets", default=",".join(Rules.presets()), help="comma-separated")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    parser.add_argument(
        "--bot", default="neural", help="the bot, with options (neural:margin=0.05)"
    )
    parser.add_argument("--quick", action="store_true", help="a few deals of each preset")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    deals = 3 if args.quick else args.deals
    print("| preset | deals | neural win share [95%] | each greedy | neural mean return [95%] | ms a decision |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    figures = []
    for preset in args.presets.split(","):
        figures.append(measure(preset, deals, args.seed, args.bot))
        print(row(figures[-1]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

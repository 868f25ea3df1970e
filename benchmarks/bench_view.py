"""Replay viewer benchmark: the memory and time ``sevenbridge view`` takes on long records.

Run ``python benchmarks/bench_view.py`` (a minute or two) or ``--quick`` (a few
seconds; the test suite runs it). Each record is written by the library, then
``sevenbridge view`` runs on it in a process of its own, and its peak memory
(resident set size, from ``getrusage``), its processor time and its wall-clock
time are printed, with the size of the page:

- a match of ten deals of four players who never meld, under the standard
  rules (each deal lasts until the stock has run out three times): 4,540
  moves, a 42 kB record;
- one deal of two such players under ``reshuffle_limit=100`` (the most the
  rules allow): 11,210 moves, a 112 kB record;
- an eight-round match of Simple Mahjong between four random players;
- with ``--at-limit``, also a match of four such long deals: 44,840 moves,
  near :data:`sevenbridge.html.MAX_MOVES`.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from sevenbridge import Match, Rules, apply, deal, legal_actions, mahjong, record, record_match
from sevenbridge.actions import Action, Discard, Draw, Pass
from sevenbridge.state import GameState

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

SRC = Path(__file__).resolve().parent.parent / "src"


def _never_melds(rng: random.Random) -> Callable[[GameState], Action]:
    """A player who only draws, discards and passes (at random), so that a deal
    runs until the stock has been reshuffled as often as the rules allow."""

    def play(state: GameState) -> Action:
        actions = legal_actions(state)
        calm = [a for a in actions if isinstance(a, (Draw, Discard, Pass))]
        return rng.choice(calm or actions)

    return play


def long_deal(reshuffles: int = 100, players: int = 2, seed: int = 1) -> str:
    """The record of one deal of players who never meld, under ``reshuffle_limit``
    ``reshuffles`` (100 gives 11,210 moves)."""
    rules = Rules.preset("standard").replace(reshuffle_limit=reshuffles)
    state, play = deal(rules, players=players, seed=seed), _never_melds(random.Random(seed))
    while not state.is_over:
        state = apply(state, play(state))
    return record(state)


def long_match(deals: int = 10, players: int = 4, reshuffles: int = 3, seed: int = 1) -> str:
    """The record of a match of ``deals`` deals (no play-off) of players who never
    meld, under ``reshuffle_limit`` ``reshuffles`` (3: the standard rules')."""
    rules = Rules.preset("standard").replace(
        deals=deals, reshuffle_limit=reshuffles, play_off_ties=False
    )
    match, play = Match.start(rules, players=players, seed=seed), _never_melds(random.Random(seed))
    while not match.is_over:
        match = match.apply(play(match.state))
    return record_match(match)


def mahjong_match(rounds: int = 8, seed: int = 2) -> str:
    """The record of a match of Simple Mahjong between four random players."""
    rules = mahjong.Rules.preset("standard").replace(rounds=rounds)
    bots = [mahjong.RandomPlayer(seed=s) for s in range(4)]
    return mahjong.record_match(mahjong.play_match(bots, rules=rules, seed=seed))


#: What a process of its own runs: ``sevenbridge view`` as its child, then the
#: child's peak memory (kB on Linux, bytes on macOS) and processor time.
_MEASURE = """
import resource, subprocess, sys, json
done = subprocess.run([sys.executable, "-m", "sevenbridge", "view", *sys.argv[1:]],
                      capture_output=True, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"status": done.returncode, "stderr": done.stderr,
                  "maxrss": usage.ru_maxrss, "cpu": usage.ru_utime + usage.ru_stime}))
"""


def measure(text: str, folder: Path, name: str = "record") -> dict[str, float]:
    """Run ``sevenbridge view`` on the record ``text`` in a process of its own:
    its peak memory in MB, its processor and wall-clock seconds, the page's size."""
    source, page = folder / f"{name}.txt", folder / f"{name}.html"
    source.write_text(text, encoding="utf-8")
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(source), "-o", str(page)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    wall = time.perf_counter() - start
    child = json.loads(done.stdout)
    if child["status"] != 0:
        raise RuntimeError(f"sevenbridge view failed: {child['stderr']}")
    unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, kB elsewhere
    return {
        "moves": sum(1 for line in text.splitlines() if line and not line.startswith("[")),
        "record_kb": len(text.encode("utf-8")) / 1024,
        "page_kb": page.stat().st_size / 1024,
        "peak_mb": child["maxrss"] * unit / 2**20,
        "cpu_s": child["cpu"],
        "wall_s": wall,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--at-limit", action="store_true", help="also a record near MAX_MOVES")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    records: dict[str, Callable[[], str]]
    if args.quick:
        records = {
            "a match of two deals, 2 players": lambda: long_match(2, 2, reshuffles=0),
            "one deal, reshuffle_limit 1": lambda: long_deal(reshuffles=1),
            "Simple Mahjong, one round": lambda: mahjong_match(rounds=1),
        }
    else:
        records = {
            "a match of ten deals, 4 players": long_match,
            "one deal, reshuffle_limit 100": long_deal,
            "Simple Mahjong, eight rounds": mahjong_match,
        }
        if args.at_limit:
            records["a match of four such deals"] = lambda: long_match(4, 2, reshuffles=100)
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for k, (name, make) in enumerate(records.items()):
            figures[name] = measure(make(), Path(folder), f"r{k}")
    print(
        f"{'record':32} {'moves':>7} {'record':>9} {'page':>9} {'peak':>8} {'cpu':>7} {'wall':>7}"
    )
    for name, f in figures.items():
        print(
            f"{name:32} {f['moves']:7,.0f} {f['record_kb']:6,.0f} kB {f['page_kb']:6,.0f} kB "
            f"{f['peak_mb']:5,.0f} MB {f['cpu_s']:6.1f}s {f['wall_s']:6.1f}s"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    if args.docs:
        _docs.write(args.docs, docs_blocks(figures, argv))
    return 0


def docs_blocks(figures: dict[str, dict[str, float]], argv: Sequence[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    rows = [
        (name, f"{f['moves']:,.0f}", f"{f['record_kb']:,.0f} kB", f"{f['page_kb']:,.0f} kB",
         f"**{f['peak_mb']:,.0f} MB**", f"{f['cpu_s']:.1f} s", f"{f['wall_s']:.1f} s")
        for name, f in figures.items()
    ]  # fmt: skip
    head = ("record", "moves", "record size", "page size", "peak memory", "processor", "wall clock")
    return [_docs.provenance("bench_view.py", argv), _docs.table(head, rows)]


if __name__ == "__main__":
    sys.exit(main())

"""Tournament benchmark: worker scaling, the cost of the SQLite store, the external-bot protocol.

Run ``python benchmarks/bench_arena.py`` (a few minutes) or ``--quick`` (seconds;
the test suite runs it). It prints:

- a greedy tournament's deals per second with 1 and with 2 worker processes,
  and the speed-up (on a machine with at least 2 free cores);
- the same tournament with and without ``db=`` (the SQLite store), and the
  store's share of the time;
- the time per decision of ``examples/external_bot.py`` through the
  ``sevenbridge-bot`` protocol, of the same choice made in this process, and the
  difference: what the protocol adds (JSON of the view, the pipe, the bot's
  parsing).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from sevenbridge import Rules, apply, deal, legal_actions, observe
from sevenbridge.arena import run_tournament
from sevenbridge.bots import GreedyPlayer
from sevenbridge.external import ExternalPlayer

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "external_bot.py"


def _tournament_seconds(deals: int, workers: int, db: Path | None) -> float:
    start = time.perf_counter()
    run_tournament(["greedy", "greedy", "greedy"], Rules(), deals=deals, seed=5, workers=workers,
                   db=db, progress=False)  # fmt: skip
    return time.perf_counter() - start


def workers_figures(deals: int, rounds: int) -> dict[str, float]:
    one = min(_tournament_seconds(deals, 1, None) for _ in range(rounds))
    two = min(_tournament_seconds(deals, 2, None) for _ in range(rounds))
    return {"deals": deals, "one_worker_s": one, "two_workers_s": two, "speedup": one / two}


def store_figures(deals: int, rounds: int) -> dict[str, float]:
    plain, stored = [], []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(rounds):  # alternate, so that a noisy neighbour hits both alike
            plain.append(_tournament_seconds(deals, 1, None))
            stored.append(_tournament_seconds(deals, 1, Path(folder) / f"r{r}.sqlite"))
    p, s = statistics.median(plain), statistics.median(stored)
    return {"deals": deals, "plain_s": p, "stored_s": s, "store_share": (s - p) / s}


def external_figures(deals: int) -> dict[str, float]:
    spec = importlib.util.spec_from_file_location("external_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    import random

    bot = ExternalPlayer([sys.executable, str(EXAMPLE)])
    remote, local, decisions = 0.0, 0.0, 0
    greedy = GreedyPlayer(1)
    bot.start()  # the process's start-up is not part of a decision
    try:
        for seed in range(deals):
            state = deal(Rules(), players=3, seed=seed)
            bot.new_deal(seat=0, players=3, seed=seed, rules=state.rules)
            rng = random.Random(seed)
            while not state.is_over:
                view = observe(state)
                legal = legal_actions(view)
                if view.viewer != 0 or len(legal) < 2:
                    state = apply(state, greedy(view) if view.viewer else legal[0])
                    continue
                start = time.perf_counter()
                action = bot(view)
                remote += time.perf_counter() - start
                # The same choice in this process: the bot's own function on the
                # same documents, without JSON over a pipe.
                start = time.perf_counter()
                docs = [json.loads(a.to_json()) for a in legal]
                legal[example.choose(docs, rng)]
                local += time.perf_counter() - start
                decisions += 1
                state = apply(state, action)
            bot.end_deal(state)
    finally:
        bot.close()
    return {
        "decisions": decisions,
        "external_us": 1e6 * remote / decisions,
        "in_process_us": 1e6 * local / decisions,
        "added_us": 1e6 * (remote - local) / decisions,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    deals, rounds, ext = (30, 1, 3) if args.quick else (2000, 3, 100)
    figures = {
        "workers": workers_figures(deals, rounds),
        "store": store_figures(deals if args.quick else 1000, rounds if args.quick else 5),
        "external": external_figures(ext),
    }
    w, s, e = figures["workers"], figures["store"], figures["external"]
    print(f"greedy tournament, {w['deals']:.0f} deals (3 players, standard rules)")
    print(
        f"  1 worker     {w['one_worker_s']:8.2f} s   {w['deals'] / w['one_worker_s']:8.1f} deals/s"
    )
    print(
        f"  2 workers    {w['two_workers_s']:8.2f} s   {w['deals'] / w['two_workers_s']:8.1f} deals/s"
    )
    print(f"  speed-up     {w['speedup']:8.2f} x   (target 1.8 on 2 free cores)")
    print(f"SQLite store, {s['deals']:.0f} deals, 1 worker (medians)")
    print(f"  without      {s['plain_s']:8.2f} s")
    print(f"  with --db    {s['stored_s']:8.2f} s")
    print(f"  store share  {100 * s['store_share']:8.1f} %   (target under 5)")
    print(f"external bot (examples/external_bot.py), {e['decisions']:.0f} decisions")
    print(f"  over the protocol {e['external_us']:8.1f} us per decision")
    print(f"  in this process   {e['in_process_us']:8.1f} us per decision")
    print(f"  added             {e['added_us']:8.1f} us per decision   (target under 200)")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    if args.docs:
        _docs.write(args.docs, docs_blocks(figures, argv))
    return 0


def docs_blocks(figures: dict[str, dict[str, float]], argv: Sequence[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    w, s, e = figures["workers"], figures["store"], figures["external"]
    rows = [
        (f"greedy tournament, {w['deals']:,.0f} deals, 1 worker",
         f"{w['deals'] / w['one_worker_s']:,.0f} deals/s"),
        ("the same, 2 workers", f"{w['deals'] / w['two_workers_s']:,.0f} deals/s"),
        ("speed-up", f"**{w['speedup']:.2f}×**"),
        (f"the SQLite store's share of the time ({s['deals']:,.0f} deals, 1 worker, medians)",
         f"**{100 * s['store_share']:.1f} %**"),
        (f"external bot, per decision over the protocol ({e['decisions']:,.0f} decisions)",
         f"{e['external_us']:,.0f} µs"),
        ("the same choice in this process", f"{e['in_process_us']:,.0f} µs"),
        ("added by the protocol", f"**{e['added_us']:,.0f} µs**"),
    ]  # fmt: skip
    return [_docs.provenance("bench_arena.py", argv), _docs.table(("figure", "value"), rows)]


if __name__ == "__main__":
    sys.exit(main())

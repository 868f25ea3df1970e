"""Tournament benchmark: worker scaling, the cost of the SQLite store, the external-bot protocol.

Run ``python benchmarks/bench_arena.py`` (a few minutes) or ``--quick`` (seconds;
the test suite runs it). It prints:

- a greedy tournament's deals per second with 1 and with 2 worker processes
  in alternating rounds, and the speed-up by the wall clock; as that only
  means something on two free cores, also the machine's load average, how
  much of a core each run had and the processor time both spent, the
  two-worker run's split between the main process and its workers, and from
  these the speed-up two free cores would allow;
- the same tournament with and without ``db=`` (the SQLite store), and the
  store's share of the processor time;
- the time per decision of ``examples/external_bot.py`` through the
  ``sevenbridge-bot`` protocol, of the same choice made in this process, and the
  difference: what the protocol adds (JSON of the view, the pipe, the bot's
  parsing).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
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


def _tournament_times(deals: int, workers: int, db: Path | None) -> tuple[float, float, float]:
    """Wall seconds of one greedy tournament, and the processor seconds of
    this process and of its workers (user and system time)."""
    before, start = os.times(), time.perf_counter()
    run_tournament(["greedy", "greedy", "greedy"], Rules(), deals=deals, seed=5, workers=workers,
                   db=db, progress=False)  # fmt: skip
    wall, after = time.perf_counter() - start, os.times()
    own = (after.user - before.user) + (after.system - before.system)
    children = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, own, children


def _tournament_cpu_seconds(deals: int, workers: int, db: Path | None) -> float:
    """Processor seconds of one greedy tournament."""
    _, own, children = _tournament_times(deals, workers, db)
    return own + children


def workers_figures(deals: int, rounds: int) -> dict[str, float]:
    """One worker against two, in alternating rounds: the wall-clock speed-up
    (the median of the rounds' ratios, with their range), the processor
    time both spend (the pool's own cost), how much of a core each run
    got, and the machine's load average before and after. A speed-up only
    means something when both cores were free: the figures say when they
    were not, and what two free cores would allow (Amdahl's law, with the
    main process's processor time counted as serial)."""
    ratios, one_wall, two_wall, one_cpu, two_cpu, parent_cpu, pool_cpu = ([] for _ in range(7))
    load_before = os.getloadavg()[0]
    for _ in range(rounds):
        w1, own1, children1 = _tournament_times(deals, 1, None)
        w2, own2, children2 = _tournament_times(deals, 2, None)
        ratios.append(w1 / w2)
        one_wall.append(w1)
        two_wall.append(w2)
        one_cpu.append(own1 + children1)
        two_cpu.append(own2 + children2)
        parent_cpu.append(own2)
        pool_cpu.append(children2)
    load_after = os.getloadavg()[0]
    one, two = statistics.median(one_wall), statistics.median(two_wall)
    cpu1, cpu2 = statistics.median(one_cpu), statistics.median(two_cpu)
    parent, pool = statistics.median(parent_cpu), statistics.median(pool_cpu)
    return {
        "deals": deals,
        "rounds": rounds,
        "one_worker_s": one,
        "two_workers_s": two,
        "speedup": statistics.median(ratios),
        "speedup_min": min(ratios),
        "speedup_max": max(ratios),
        "one_worker_cpu_s": cpu1,
        "two_workers_cpu_s": cpu2,
        # Cores each run had: processor seconds over wall seconds (1 and 2 when free).
        "one_worker_cores": cpu1 / one,
        "two_workers_cores": cpu2 / two,
        # The speed-up two free cores would give: twice the work, less the pool's cost.
        "free_cores_speedup": 2 * cpu1 / cpu2,
        # The two-worker run's processor time: the main process (handing out
        # tasks, reading results back) and the two workers together.
        "two_workers_parent_cpu_s": parent,
        "two_workers_pool_cpu_s": pool,
        # The main process's share of the work, counted as serial although
        # most of it overlaps the workers' play; and Amdahl's law with it:
        # the work of one worker over the parent's time and the workers' half.
        "serial_share": parent / cpu1,
        "amdahl_speedup": cpu1 / (parent + pool / 2),
        "load_before": load_before,
        "load_after": load_after,
    }


def store_figures(deals: int, rounds: int) -> dict[str, float]:
    plain, stored = [], []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(rounds):  # alternate, so that a noisy neighbour hits both alike
            plain.append(_tournament_cpu_seconds(deals, 1, None))
            stored.append(_tournament_cpu_seconds(deals, 1, Path(folder) / f"r{r}.sqlite"))
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


def _autogroup() -> bool:
    """Whether Linux shares the processors between sessions (autogroup) rather
    than between processes."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


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
    print(f"  speed-up     {w['speedup']:8.2f} x   (rounds {w['speedup_min']:.2f} to "
          f"{w['speedup_max']:.2f}; target 1.7 on 2 free cores)")  # fmt: skip
    print(
        f"  cores used   {w['one_worker_cores']:8.2f} and {w['two_workers_cores']:.2f}"
        f"   processor time {w['one_worker_cpu_s']:.2f} s and {w['two_workers_cpu_s']:.2f} s"
    )
    print(f"  2 workers    main process {w['two_workers_parent_cpu_s']:.2f} s, workers "
          f"{w['two_workers_pool_cpu_s']:.2f} s of processor time (the main process "
          f"{100 * w['serial_share']:.1f} % of one worker's)")  # fmt: skip
    print(f"  at most on 2 free cores (twice the work over the processor time both spend): "
          f"{w['free_cores_speedup']:.2f} x; by Amdahl's law with the main process serial: "
          f"{w['amdahl_speedup']:.2f} x")  # fmt: skip
    print(f"  load average {w['load_before']:.2f} before, {w['load_after']:.2f} after "
          f"({os.cpu_count()} CPUs)")  # fmt: skip
    if w["two_workers_cores"] < 1.8:
        print("  note: the two workers did not have two free cores; the wall-clock speed-up "
              "is the machine's, not the tournament's")  # fmt: skip
        if _autogroup():
            print("  (Linux shares the processors between sessions here, sched_autogroup: while "
                  "another session keeps a core busy, a run gets about one core, whatever "
                  "its workers)")  # fmt: skip
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
        ("speed-up by the wall clock (median of alternating rounds; range)",
         f"**{w['speedup']:.2f}×** ({w['speedup_min']:.2f} to {w['speedup_max']:.2f})"),
        ("cores the runs had (processor time over wall time)",
         f"{w['one_worker_cores']:.2f} and {w['two_workers_cores']:.2f}"),
        ("processor time, 1 worker and 2 (the pool's own cost)",
         f"{w['one_worker_cpu_s']:.2f} s and {w['two_workers_cpu_s']:.2f} s"),
        ("processor time of the 2-worker run: main process and workers",
         f"{w['two_workers_parent_cpu_s']:.2f} s and {w['two_workers_pool_cpu_s']:.2f} s"),
        ("the most two free cores could give (twice the work over the processor time)",
         f"**{w['free_cores_speedup']:.2f}×**"),
        ("the same by Amdahl's law, the main process counted as serial "
         f"({100 * w['serial_share']:.1f} % of the work)",
         f"{w['amdahl_speedup']:.2f}×"),
        ("the machine's load average (1 minute) before and after the rounds",
         f"{w['load_before']:.2f} and {w['load_after']:.2f}"),
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

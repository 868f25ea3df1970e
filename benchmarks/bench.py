"""Benchmark of the sevenbridge engine (stdlib only; ``open-spiel`` optional).

Run ``python benchmarks/bench.py`` for the full table, ``--quick`` for a smoke
run of a few seconds, ``--vs-openspiel`` to race OpenSpiel's C++ ``gin_rummy``
in the same process, ``--docs FILE`` to write the figures for the docs. See
docs/explanation/performance.md for what each figure means.
Every rate is per second of this process's CPU time (``time.process_time``),
so other work on a shared machine does not lower it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import sevenbridge as sb

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

PLAYER_COUNTS = (2, 3, 4, 5)


def random_deal(
    rules: sb.Rules, players: int, seed: int, keep: list[sb.GameState] | None = None
) -> tuple[int, float, float, list[float]]:
    """One deal of uniform random legal actions.

    Returns (steps, seconds in legal_actions, seconds in apply, per-step seconds).
    """
    rng = random.Random(seed)
    clock = time.process_time
    state = sb.deal(rules, players=players, seed=seed)
    legal_time = apply_time = 0.0
    per_step: list[float] = []
    steps = 0
    legal_actions, apply = sb.legal_actions, sb.apply
    while not state.is_over:
        t0 = clock()
        actions = legal_actions(state)
        t1 = clock()
        action = actions[rng.randrange(len(actions))]
        t2 = clock()
        state = apply(state, action)
        t3 = clock()
        legal_time += t1 - t0
        apply_time += t3 - t2
        per_step.append(t3 - t0)
        steps += 1
        if keep is not None:
            keep.append(state)
    return steps, legal_time, apply_time, per_step


def playout_rate(rules: sb.Rules, players: int, seconds: float, seed0: int = 0) -> dict[str, float]:
    """Steps, decisions and deals per second of the plain loop (legal_actions +
    choice + apply). A decision is a step with two or more legal actions."""
    rng = random.Random(seed0)
    legal_actions, apply = sb.legal_actions, sb.apply
    steps = decisions = deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = sb.deal(rules, players=players, seed=seed0 + deals)
        while not state.is_over:
            actions = legal_actions(state)
            n = len(actions)
            if n > 1:
                decisions += 1
            state = apply(state, actions[rng.randrange(n)])
            steps += 1
        deals += 1
    elapsed = time.process_time() - start
    return {
        "steps_per_s": steps / elapsed,
        "decisions_per_s": decisions / elapsed,
        "deals_per_s": deals / elapsed,
        "steps": steps,
        "decisions": decisions,
    }


def call_rates(rules: sb.Rules, players: int, deals: int) -> dict[str, float]:
    legal = apply = 0.0
    steps = 0
    early: list[float] = []
    late: list[float] = []
    for seed in range(deals):
        n, lt, at, per_step = random_deal(rules, players, 1000 + seed)
        steps += n
        legal += lt
        apply += at
        q = max(1, n // 4)
        early.extend(per_step[:q])
        late.extend(per_step[-q:])
    return {
        "legal_per_s": steps / legal,
        "apply_per_s": steps / apply,
        "step_us": 1e6 * (legal + apply) / steps,
        "late_over_early": statistics.mean(late) / statistics.mean(early),
    }


def late_by_melds(rules: sb.Rules, players: int, deals: int) -> float:
    """Per-step cost with 6+ melds on the table over the cost with none."""
    by_melds: dict[bool, list[float]] = {False: [], True: []}
    clock = time.process_time
    for seed in range(deals):
        rng = random.Random(seed)
        state = sb.deal(rules, players=players, seed=5000 + seed)
        while not state.is_over:
            crowded = len(state.table) >= 6
            t0 = clock()
            actions = sb.legal_actions(state)
            state = sb.apply(state, actions[rng.randrange(len(actions))])
            by_melds[crowded].append(clock() - t0)
    if not by_melds[True]:
        return float("nan")
    return statistics.median(by_melds[True]) / statistics.median(by_melds[False])


def memory_per_state(rules: sb.Rules, players: int, deals: int) -> float:
    gc.collect()
    total = count = 0
    for seed in range(deals):
        keep: list[sb.GameState] = []
        tracemalloc.start()
        random_deal(rules, players, 7000 + seed, keep)
        current, _peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        total += current
        count += len(keep)
        del keep
    return total / count


def import_time() -> float:
    """Seconds that ``import sevenbridge`` adds to a fresh interpreter (best of 5,
    with bytecode caches written first, as an installed package has them)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(code: str) -> float:
        subprocess.run([sys.executable, "-c", code], check=True, env=env)  # warm the caches
        best = float("inf")
        for _ in range(5):  # the child's own CPU time, user and system
            before = os.times()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            after = os.times()
            spent = (after.children_user - before.children_user) + (
                after.children_system - before.children_system
            )
            best = min(best, spent)
        return best

    return run("import sevenbridge") - run("pass")


def optional_rates(rules: sb.Rules, players: int) -> dict[str, float | None]:
    """observe() and JSON round trips, where the library has them."""
    out: dict[str, float | None] = {"observe_per_s": None, "json_per_s": None}
    states: list[sb.GameState] = []
    random_deal(rules, players, 9000, states)
    observe = getattr(sb, "observe", None)
    if observe is not None:
        t0 = time.process_time()
        for s in states:
            observe(s, 0)
        out["observe_per_s"] = len(states) / (time.process_time() - t0)
    if hasattr(sb.GameState, "to_json"):
        t0 = time.process_time()
        for s in states:
            sb.GameState.from_json(s.to_json())
        out["json_per_s"] = len(states) / (time.process_time() - t0)
    return out


def fast_playout_rates(rounds: int, seconds: float, say: Callable[[str], None]) -> dict[str, float]:
    """Deals per second of :func:`sevenbridge.playout.playout` (random policy, with
    and without history) against the public random loop, standard rules, 3
    players; alternating rounds, medians.

    Two ways: from dealt positions (the deals are made before the clock runs,
    so both sides time only the play of a deal to its end, which is what a
    search's rollouts pay: they start from a sampled position, not a new deal),
    and with the deal (``deal`` then the play, both timed).
    """
    from sevenbridge.playout import playout

    clock = time.process_time

    def deals_per_s(
        seed0: int, with_deal: bool, play: Callable[[sb.GameState, int], object]
    ) -> float:
        """Deals per second of ``play(state, i)`` on the i-th deal; with
        ``with_deal`` the deal is made on the clock, else from a stock of deals
        made in chunks while the clock is stopped."""
        made: list[sb.GameState] = []
        deals = 0
        spent = 0.0
        while spent < seconds:
            if with_deal:
                t0 = clock()
                state = sb.deal(players=3, seed=seed0 + deals)
            else:
                while deals >= len(made):
                    made.extend(
                        sb.deal(players=3, seed=seed0 + len(made) + k) for k in range(2_000)
                    )
                state = made[deals]
                t0 = clock()
            play(state, deals)
            spent += clock() - t0
            deals += 1
        return deals / spent

    def public(seed0: int, with_deal: bool) -> float:
        rng = random.Random(seed0)
        legal_actions, apply = sb.legal_actions, sb.apply

        def play(state: sb.GameState, _: int) -> None:
            while not state.is_over:
                actions = legal_actions(state)
                state = apply(state, actions[rng.randrange(len(actions))])

        return deals_per_s(seed0, with_deal, play)

    def fast(seed0: int, with_deal: bool, history: bool) -> float:
        return deals_per_s(
            seed0, with_deal, lambda state, i: playout(state, "random", seed=i, history=history)
        )

    runs: dict[str, list[float]] = {}
    for r in range(rounds):
        seed0 = r * 100_000
        for with_deal in (False, True):
            tag = "_with_deal" if with_deal else ""
            rates = {
                "public": public(seed0, with_deal),
                "playout": fast(seed0, with_deal, True),
                "playout_no_history": fast(seed0, with_deal, False),
            }
            for name, rate in rates.items():
                runs.setdefault(f"{name}{tag}_deals_per_s", []).append(rate)
                if name != "public":
                    runs.setdefault(f"{name}{tag}_ratio", []).append(rate / rates["public"])
    out = {key: statistics.median(values) for key, values in runs.items()}
    for key, values in runs.items():
        if key.endswith("_ratio"):
            out[f"{key}_min"], out[f"{key}_max"] = min(values), max(values)
    for tag, what in (("", "from dealt positions"), ("_with_deal", "deal included")):
        ratios = runs[f"playout_no_history{tag}_ratio"]
        say(f"playout (standard, 3 players, random; {what}): public loop "
            f"{out[f'public{tag}_deals_per_s']:,.0f} deals/s; "
            f"playout {out[f'playout{tag}_deals_per_s']:,.0f} ({out[f'playout{tag}_ratio']:.2f}x), "
            f"history=False {out[f'playout_no_history{tag}_deals_per_s']:,.0f} "
            f"({out[f'playout_no_history{tag}_ratio']:.2f}x; rounds {min(ratios):.2f}-{max(ratios):.2f})")  # fmt: skip
    return out


def openspiel_round(seconds: float, rng: random.Random) -> dict[str, float]:
    """Steps and decisions per second of the same loop on OpenSpiel's ``gin_rummy``
    (chance steps, the deal's cards, are steps but never decisions)."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("gin_rummy")
    steps = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                actions = state.legal_actions()
                n = len(actions)
                if n > 1:
                    decisions += 1
                action = actions[rng.randrange(n)]
            state.apply_action(action)
            steps += 1
    elapsed = time.process_time() - start
    return {"steps_per_s": steps / elapsed, "decisions_per_s": decisions / elapsed}


def versus_openspiel(
    rounds: int, seconds: float, say: Callable[[str], None]
) -> dict[str, float] | None:
    """Alternating rounds of our random loop and OpenSpiel's; the medians and their ratios."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        say("--vs-openspiel: open-spiel is not installed (pip install open-spiel); skipped")
        return None
    rng = random.Random(1)
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    rules = sb.Rules()
    say(f"versus OpenSpiel gin_rummy (standard rules, 3 players; compiled={sb.COMPILED}):")
    for r in range(rounds):
        ours.append(playout_rate(rules, 3, seconds, seed0=r * 100_000))
        theirs.append(openspiel_round(seconds, rng))
        say(f"  round {r + 1}: sevenbridge {ours[-1]['steps_per_s']:,.0f} steps/s "
            f"{ours[-1]['decisions_per_s']:,.0f} decisions/s; OpenSpiel "
            f"{theirs[-1]['steps_per_s']:,.0f} steps/s {theirs[-1]['decisions_per_s']:,.0f} "
            "decisions/s")  # fmt: skip
    out: dict[str, float] = {"rounds": rounds, "seconds": seconds}
    for unit in ("steps", "decisions"):
        key = f"{unit}_per_s"
        mine = statistics.median(o[key] for o in ours)
        other = statistics.median(t[key] for t in theirs)
        out[f"sevenbridge_{key}"] = mine
        out[f"openspiel_{key}"] = other
        out[f"{unit}_ratio"] = mine / other
        ratios = [o[key] / t[key] for o, t in zip(ours, theirs, strict=True)]
        out[f"{unit}_ratio_min"], out[f"{unit}_ratio_max"] = min(ratios), max(ratios)
        say(f"median {unit}/s: sevenbridge {mine:,.0f}, OpenSpiel {other:,.0f}: "
            f"ratio {mine / other:.2f}")  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--vs-openspiel", action="store_true", help="race OpenSpiel's gin_rummy")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per playout figure")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    quick = args.quick
    seconds = args.seconds or (0.2 if quick else 3.0)
    deals = 3 if quick else 60
    say = print
    build = "compiled (mypyc)" if sb.COMPILED else "pure Python"
    say(f"sevenbridge {sb.__version__} ({build}) on Python {sys.version.split()[0]}")
    imported = import_time()
    say(f"import time: {imported * 1000:.0f} ms")
    figures: dict[str, Any] = {"presets": {}, "compiled": sb.COMPILED, "import_s": imported}
    header = (f"{'preset':<12}{'players':>8}{'steps/s':>10}{'dec/s':>9}{'deals/s':>9}{'legal/s':>10}"
              f"{'apply/s':>10}{'us/step':>9}{'late/early':>11}{'B/state':>9}"
              f"{'observe/s':>11}{'json/s':>9}")  # fmt: skip
    say(header)
    for name in sb.Rules.presets():
        rules = sb.Rules.preset(name)
        for players in PLAYER_COUNTS:
            play = playout_rate(rules, players, seconds)
            calls = call_rates(rules, players, deals)
            mem = memory_per_state(rules, players, 2 if quick else 10)
            extra = optional_rates(rules, players)
            obs = extra["observe_per_s"]
            js = extra["json_per_s"]
            say(f"{name:<12}{players:>8}{play['steps_per_s']:>10,.0f}"
                f"{play['decisions_per_s']:>9,.0f}{play['deals_per_s']:>9,.1f}"
                f"{calls['legal_per_s']:>10,.0f}{calls['apply_per_s']:>10,.0f}"
                f"{calls['step_us']:>9.1f}{calls['late_over_early']:>11.2f}{mem:>9,.0f}"
                f"{(f'{obs:,.0f}' if obs else 'n/a'):>11}{(f'{js:,.0f}' if js else 'n/a'):>9}")  # fmt: skip
            figures["presets"][f"{name}/{players}"] = {**play, **calls, "bytes_per_state": mem,
                                                        **extra}  # fmt: skip
    std = figures["presets"]
    five_vs_three = std["standard/5"]["step_us"] / std["standard/3"]["step_us"]
    crowded = late_by_melds(sb.Rules(), 3, 10 if quick else 200)
    say(f"standard: per-step cost 5 players / 3 players = {five_vs_three:.2f} (bound 1.5)")
    say(
        f"standard 3p: per-step cost with 6+ melds on the table / with none = {crowded:.2f} (bound 2)"
    )
    figures["playout"] = fast_playout_rates(3, 0.3 if quick else 3.0, say)
    figures["five_over_three"] = five_vs_three
    figures["crowded_over_empty"] = crowded
    if args.vs_openspiel:
        figures["vs_openspiel"] = versus_openspiel(3 if quick else 7, 0.5 if quick else 5.0, say)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=2)
    if args.docs:
        _docs.write(args.docs, docs_blocks(figures, argv))
    return 0


def docs_blocks(figures: dict[str, Any], argv: list[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    blocks = [_docs.provenance("bench.py", argv)]
    versus = figures.get("vs_openspiel")
    if versus:
        blocks.append(
            f"**Against OpenSpiel's `gin_rummy`** (standard rules, 3 players, uniform "
            f"random play from Python, {versus['rounds']:.0f} alternating rounds of "
            f"{versus['seconds']:g} s, medians; the range is the rounds' ratios):"
        )
        blocks.append(_docs.table(
            ("per second", "sevenbridge", "OpenSpiel", "ratio", "range"),
            [(unit, f"{versus[f'sevenbridge_{unit}_per_s']:,.0f}",
              f"{versus[f'openspiel_{unit}_per_s']:,.0f}", f"**{versus[f'{unit}_ratio']:.2f}**",
              f"{versus[f'{unit}_ratio_min']:.2f} to {versus[f'{unit}_ratio_max']:.2f}")
             for unit in ("steps", "decisions")],
        ))  # fmt: skip
    blocks.append("**Every preset and table size** (uniform random play; the columns are "
                  "explained above):")  # fmt: skip
    rows = []
    for key, row in figures["presets"].items():
        preset, players = key.split("/")
        observed, json_rate = row["observe_per_s"], row["json_per_s"]
        rows.append((
            preset, players, f"{row['steps_per_s']:,.0f}", f"{row['decisions_per_s']:,.0f}",
            f"{row['deals_per_s']:,.1f}", f"{row['legal_per_s']:,.0f}",
            f"{row['apply_per_s']:,.0f}", f"{row['step_us']:.1f}",
            f"{row['late_over_early']:.2f}", f"{row['bytes_per_state']:,.0f}",
            f"{observed:,.0f}" if observed else "n/a", f"{json_rate:,.0f}" if json_rate else "n/a",
        ))  # fmt: skip
    blocks.append(_docs.table(
        ("preset", "players", "steps/s", "dec/s", "deals/s", "legal/s", "apply/s", "µs/step",
         "late/early", "B/state", "observe/s", "json/s"),
        rows,
    ))  # fmt: skip
    standard = figures["presets"]["standard/3"]
    late = [row["late_over_early"] for row in figures["presets"].values()]
    p = figures["playout"]
    items = [
        f"Import time: {figures['import_s'] * 1000:.0f} ms.",
        f"Decisions are {standard['decisions'] / standard['steps']:.0%} of the steps of a "
        "random standard 3-player deal.",
        f"Standard rules, per-step cost with 5 players / with 3 players: "
        f"**{figures['five_over_three']:.2f}**.",
        f"Standard rules, 3 players, per-step cost with six or more melds on the table / with "
        f"none: **{figures['crowded_over_empty']:.2f}**; the last quarter of a deal's steps / "
        f"the first quarter, over every preset and table size: {min(late):.2f} to "
        f"{max(late):.2f}.",
    ]
    for tag, what in (("", "from dealt positions"), ("_with_deal", "with the deal in the time")):
        items.append(
            f"Fast playouts (standard rules, 3 players, random policy), {what}, against the "
            f"public random loop's {p[f'public{tag}_deals_per_s']:,.0f} deals/s: "
            f"**{p[f'playout_no_history{tag}_deals_per_s']:,.0f}** deals/s without history "
            f"(**{p[f'playout_no_history{tag}_ratio']:.2f}x**, rounds "
            f"{p[f'playout_no_history{tag}_ratio_min']:.2f} to "
            f"{p[f'playout_no_history{tag}_ratio_max']:.2f}), "
            f"{p[f'playout{tag}_deals_per_s']:,.0f} with history "
            f"({p[f'playout{tag}_ratio']:.2f}x)."
        )
    blocks.append("\n".join(f"- {item}" for item in items))
    return blocks


if __name__ == "__main__":
    sys.exit(main())

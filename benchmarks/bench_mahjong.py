"""Benchmark of the Simple Mahjong engine (stdlib only; ``rlcard`` optional).

Run ``python benchmarks/bench_mahjong.py`` for the figures, ``--quick`` for a
smoke run of a second or two. It prints, from one run:

* random play: uniform random legal actions from a seeded deal to the end of
  the round, in steps (actions) per second; once with the engine alone
  (``legal_actions`` + ``apply``) and once also building the acting player's
  ``observe`` view every step (what a bot or an RL loop needs);
* ``is_mahjong`` on random 14-tile hands drawn from a full set, in hands per
  second;
* when ``rlcard`` is importable, RLCard's ``mahjong`` environment driven the
  same way (a random legal action each step), and the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from sevenbridge import mahjong as mj

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]


def random_play(seconds: float, *, views: bool, players: int = 4, seed: int = 0) -> float:
    """Steps per second of uniform random play, rounds dealt one after another."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    game = 0
    while time.perf_counter() < deadline:
        state = mj.deal(players=players, seed=seed + game)
        game += 1
        while not state.is_over:
            actions = mj.observe(state).legal_actions if views else mj.legal_actions(state)
            state = mj.apply(state, actions[rng.randrange(len(actions))])
            steps += 1
    return steps / (time.perf_counter() - start)


def is_mahjong_rate(seconds: float, *, seed: int = 0) -> tuple[float, int]:
    """Hands per second of ``is_mahjong`` on random hands (and how many won)."""
    rng = random.Random(seed)
    wall = list(mj.full_wall())
    hands = [tuple(sorted(rng.sample(wall, 14))) for _ in range(20_000)]
    checked = wins = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for hand in hands:
            wins += mj.is_mahjong(hand)
        checked += len(hands)
    return checked / (time.perf_counter() - start), wins


def rlcard_play(seconds: float, *, seed: int = 0) -> float | None:
    """Steps per second of RLCard's mahjong environment under random legal
    actions, or ``None`` when rlcard is not installed."""
    try:
        import rlcard
    except ImportError:
        return None
    rng = random.Random(seed)
    env = rlcard.make("mahjong", config={"seed": seed})
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures; ``--json FILE`` also saves them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per figure")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the RLCard comparison")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 5.0)
    figures: dict[str, Any] = {}
    figures["random_steps_per_s"] = random_play(seconds, views=False)
    figures["random_steps_with_views_per_s"] = random_play(seconds, views=True)
    rate, wins = is_mahjong_rate(seconds)
    figures["is_mahjong_hands_per_s"] = rate
    figures["rlcard_steps_per_s"] = None if args.no_rlcard else rlcard_play(seconds)
    print(f"Simple Mahjong, 4 players, {seconds:g} s per figure (Python {sys.version.split()[0]})")
    print(f"  random play, engine only:        {figures['random_steps_per_s']:>12,.0f} steps/s")
    print(
        "  random play, with observe():     "
        f"{figures['random_steps_with_views_per_s']:>12,.0f} steps/s"
    )
    print(f"  is_mahjong on random hands:      {rate:>12,.0f} hands/s ({wins} wins)")
    rl = figures["rlcard_steps_per_s"]
    if rl is None:
        why = "--no-rlcard" if args.no_rlcard else "rlcard is not installed"
        print(f"  RLCard mahjong:                  not measured ({why})")
    else:
        print(f"  RLCard mahjong env, random play: {rl:>12,.0f} steps/s")
        print(f"  ratio, engine only / RLCard:     {figures['random_steps_per_s'] / rl:>12.1f}x")
        ratio = figures["random_steps_with_views_per_s"] / rl
        print(f"  ratio, with observe() / RLCard:  {ratio:>12.1f}x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=2)
    if args.docs:
        _docs.write(args.docs, docs_blocks(figures, seconds, argv))
    return 0


def docs_blocks(figures: dict[str, Any], seconds: float, argv: Sequence[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    engine, views = figures["random_steps_per_s"], figures["random_steps_with_views_per_s"]
    rl = figures["rlcard_steps_per_s"]
    rows = [
        ("random play, engine alone", f"{engine:,.0f} steps", f"{engine / rl:.1f}" if rl else ""),
        ("random play, a view built every step", f"{views:,.0f} steps",
         f"{views / rl:.1f}" if rl else ""),
        ("RLCard's `mahjong`, random play", f"{rl:,.0f} steps" if rl else "not measured", ""),
        ("`is_mahjong` on random hands", f"{figures['is_mahjong_hands_per_s']:,.0f} hands", ""),
    ]  # fmt: skip
    return [
        _docs.provenance("bench_mahjong.py", argv),
        f"Simple Mahjong, 4 players, {seconds:g} s per figure:",
        _docs.table(("figure", "per second", "× RLCard"), rows),
    ]


if __name__ == "__main__":
    raise SystemExit(main())

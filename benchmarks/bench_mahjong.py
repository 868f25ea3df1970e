"""Benchmark of the Simple Mahjong engine (stdlib only; ``rlcard`` optional).

Run ``python benchmarks/bench_mahjong.py`` for the figures, ``--quick`` for a
smoke run of a second or two. The loops are timed in alternating rounds
(``--rounds``, 5 by default, each loop's seconds shared among them), so that
every loop meets the same machine, and the figures are the rounds' medians;
a ratio to RLCard is the median of the rounds' ratios. It prints, from one run:

* random play: uniform random legal actions from a seeded deal to the end of
  the round, in steps (actions) per second; once with the engine alone
  (``legal_actions`` + ``apply``) and once also building the acting player's
  ``observe`` view every step (what a bot or an RL loop needs);
* the winning-hand test on random 14-tile hands drawn from a full set, in
  hands per second: ``is_mahjong`` given the tiles (checked), and
  ``is_mahjong_counts`` given each hand's 34 counts, computed beforehand
  (only their shape checked); when the ``mahjong`` package is importable, its
  ``Agari.is_agari`` given the same counts (unchecked: the like-for-like
  comparison is with ``is_mahjong_counts``), and the ratios;
* when ``rlcard`` is importable, RLCard's ``mahjong`` environment driven the
  same way (a random legal action each step), and the ratio.

Every rate is per second of this process's CPU time (``time.process_time``),
so other work on a shared machine does not lower it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from statistics import median
from typing import Any

from sevenbridge import mahjong as mj

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]


def random_play(
    seconds: float, *, views: bool, players: int = 4, seed: int = 0
) -> tuple[float, float]:
    """Steps and rounds per second of uniform random play, rounds dealt one
    after another (a round counts when it ends)."""
    rng = random.Random(seed)
    steps = rounds = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = mj.deal(players=players, seed=seed + rounds)
        while not state.is_over:
            actions = mj.observe(state).legal_actions if views else mj.legal_actions(state)
            state = mj.apply(state, actions[rng.randrange(len(actions))])
            steps += 1
        rounds += 1
    elapsed = time.process_time() - start
    return steps / elapsed, rounds / elapsed


def pettingzoo_play(
    seconds: float, *, auto_forced: bool = True, seed: int = 0
) -> tuple[float, float] | None:
    """Steps and rounds per second of ``sevenbridge.envs.pettingzoo.env(game=
    "mahjong")`` (four players, wrapped as users get it: lone passes and draws
    played by the env; every move asked with ``auto_forced=False``) under
    random legal actions read from each observation's mask, or ``None``
    without pettingzoo.
    The agent finds the legal ids with ``nonzero`` on a boolean view of the
    int8 mask (as ``bench_rl.py``'s does: numpy's ``nonzero`` is several times
    faster on booleans)."""
    try:
        import numpy as np

        from sevenbridge.envs.pettingzoo import env
    except ImportError:
        return None
    rng = random.Random(seed)
    table = (
        env(game="mahjong", players=4)
        if auto_forced
        else env(game="mahjong", players=4, auto_forced=False)
    )
    steps = rounds = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        table.reset(seed=seed + rounds)
        for _agent in table.agent_iter():
            observation, _reward, done, cut, _info = table.last()
            if done or cut:
                table.step(None)
                continue
            legal = observation["action_mask"].view(np.bool_).nonzero()[0]
            table.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        rounds += 1
    elapsed = time.process_time() - start
    return steps / elapsed, rounds / elapsed


def random_hands(n: int = 20_000, *, seed: int = 0) -> list[tuple[mj.Tile, ...]]:
    """``n`` random 14-tile hands drawn from a full set, sorted."""
    rng = random.Random(seed)
    wall = list(mj.full_wall())
    return [tuple(sorted(rng.sample(wall, 14))) for _ in range(n)]


def hands_rate(seconds: float, test: Callable[[Any], bool], hands: Sequence[Any]) -> float:
    """Hands per second of ``test`` over ``hands``, gone through whole."""
    checked = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for hand in hands:
            test(hand)
        checked += len(hands)
    return checked / (time.process_time() - start)


def is_agari_test() -> Callable[[Any], bool] | None:
    """The ``mahjong`` package's ``Agari.is_agari``, or ``None`` without it."""
    try:
        from mahjong.agari import Agari
    except ImportError:
        return None
    test: Callable[[Any], bool] = Agari.is_agari
    return test


def rlcard_play(seconds: float, *, seed: int = 0) -> tuple[float, float] | None:
    """Steps and rounds per second of RLCard's mahjong environment under random
    legal actions, or ``None`` when rlcard is not installed."""
    try:
        import rlcard
    except ImportError:
        return None
    rng = random.Random(seed)
    env = rlcard.make("mahjong", config={"seed": seed})
    steps = rounds = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        rounds += 1
    elapsed = time.process_time() - start
    return steps / elapsed, rounds / elapsed


def _put_ratio(
    figures: dict[str, Any], key: str, mine: list[float | None], theirs: list[float | None]
) -> None:
    """The median ratio of ``mine`` to ``theirs`` over the rounds both ran, and
    its range, as ``figures[key]`` and ``figures[key + "_range"]``."""
    ratios = [a / b for a, b in zip(mine, theirs, strict=True) if a is not None and b is not None]
    if ratios:
        figures[key] = median(ratios)
        figures[f"{key}_range"] = [min(ratios), max(ratios)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures; ``--json FILE`` also saves them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per figure")
    parser.add_argument("--rounds", type=int, default=None, help="alternating rounds (5)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the RLCard comparison")
    parser.add_argument(
        "--no-agari", action="store_true", help="skip the mahjong package's is_agari"
    )
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 5.0)
    rounds = args.rounds if args.rounds is not None else (1 if args.quick else 5)
    chunk = seconds / rounds
    loops: dict[str, Callable[[], tuple[float, float] | None]] = {
        "random": lambda: random_play(chunk, views=False),
        "random_with_views": lambda: random_play(chunk, views=True),
        "pettingzoo": lambda: pettingzoo_play(chunk),
        "pettingzoo_every_move": lambda: pettingzoo_play(chunk, auto_forced=False),
        "rlcard": lambda: None if args.no_rlcard else rlcard_play(chunk),
    }
    hands = random_hands()
    counts = [mj.to_34_array(hand) for hand in hands]
    is_agari = None if args.no_agari else is_agari_test()
    hand_loops: dict[str, Callable[[], float | None]] = {
        "is_mahjong": lambda: hands_rate(chunk, mj.is_mahjong, hands),
        "is_mahjong_counts": lambda: hands_rate(chunk, mj.is_mahjong_counts, counts),
        "is_agari": lambda: None if is_agari is None else hands_rate(chunk, is_agari, counts),
    }
    runs: dict[str, list[tuple[float, float] | None]] = {name: [] for name in loops}
    hand_runs: dict[str, list[float | None]] = {name: [] for name in hand_loops}
    for _ in range(rounds):
        for name, loop in loops.items():
            runs[name].append(loop())
        for name, hand_loop in hand_loops.items():
            hand_runs[name].append(hand_loop())
    figures: dict[str, Any] = {"rounds": rounds, "seconds": seconds}
    rates: dict[str, tuple[float, float] | None] = {}
    for name, got in runs.items():
        done = [r for r in got if r is not None]
        rate = None if not done else (median(r[0] for r in done), median(r[1] for r in done))
        rates[name] = rate
        figures[f"{name}_steps_per_s"] = None if rate is None else rate[0]
        figures[f"{name}_rounds_per_s"] = None if rate is None else rate[1]
        if name != "rlcard":
            _put_ratio(
                figures,
                f"{name}_x_rlcard",
                [None if r is None else r[1] for r in got],
                [None if r is None else r[1] for r in runs["rlcard"]],
            )
    for name, hand_got in hand_runs.items():
        rated = [r for r in hand_got if r is not None]
        figures[f"{name}_hands_per_s"] = median(rated) if rated else None
        if name != "is_agari":
            _put_ratio(figures, f"{name}_x_is_agari", hand_got, hand_runs["is_agari"])
    wins = sum(map(mj.is_mahjong, hands))
    print(
        f"Simple Mahjong, 4 players, {rounds} alternating rounds of {chunk:g} s per loop, "
        f"medians (Python {sys.version.split()[0]})"
    )
    for name, label in _LABELS.items():
        rate = rates[name]
        if rate is None:
            why = "--no-rlcard" if name == "rlcard" and args.no_rlcard else "not installed"
            print(f"  {label:<40} not measured ({why})")
            continue
        ratio = figures.get(f"{name}_x_rlcard")
        versus = "" if ratio is None else f"  {_ratio(figures, f'{name}_x_rlcard')} RLCard"
        print(f"  {label:<40} {rate[0]:>10,.0f} steps/s {rate[1]:>8,.1f} rounds/s{versus}")
    print(f"  random 14-tile hands ({wins} of {len(hands):,} win):")
    for name, label in _HAND_LABELS.items():
        hands_per_s = figures[f"{name}_hands_per_s"]
        if hands_per_s is None:
            why = "--no-agari" if args.no_agari else "the mahjong package is not installed"
            print(f"    {label:<38} not measured ({why})")
            continue
        ratio = figures.get(f"{name}_x_is_agari")
        versus = "" if ratio is None else f"  {_ratio(figures, f'{name}_x_is_agari')} is_agari"
        print(f"    {label:<38} {hands_per_s:>10,.0f} hands/s{versus}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=2)
    if args.docs:
        _docs.write(args.docs, docs_blocks(figures, argv))
    return 0


_LABELS = {
    "random": "random play, engine alone",
    "random_with_views": "random play, a view built every step",
    "pettingzoo": "PettingZoo env(), lone moves unasked",
    "pettingzoo_every_move": "PettingZoo env(auto_forced=False)",
    "rlcard": "RLCard's mahjong env, random play",
}


_HAND_LABELS = {
    "is_mahjong": "is_mahjong(tiles), checked",
    "is_mahjong_counts": "is_mahjong_counts(counts), shape checked",
    "is_agari": "Agari.is_agari(counts), unchecked",
}


def _ratio(figures: dict[str, Any], key: str) -> str:
    """A ratio's median and, over several rounds, its range: ``9.3x (9.0-9.6)``."""
    low, high = figures[f"{key}_range"]
    spread = f" ({low:.2f}-{high:.2f})" if figures["rounds"] > 1 else ""
    return f"{figures[key]:.2f}x{spread}"


def docs_blocks(figures: dict[str, Any], argv: Sequence[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    rows = []
    for name, label in _LABELS.items():
        steps, rounds = figures[f"{name}_steps_per_s"], figures[f"{name}_rounds_per_s"]
        if rounds is None:
            rows.append((label, "not measured", "", ""))
            continue
        ratio = f"{name}_x_rlcard"
        rows.append(
            (
                label,
                f"{rounds:,.1f}",
                f"{steps:,.0f}",
                _ratio(figures, ratio) if ratio in figures else "",
            )
        )
    hand_rows = []
    for name, label in _HAND_LABELS.items():
        hands_per_s = figures[f"{name}_hands_per_s"]
        ratio = f"{name}_x_is_agari"
        hand_rows.append(
            (
                "`{}`, {}".format(*label.split(", ")),
                "not measured" if hands_per_s is None else f"{hands_per_s:,.0f}",
                _ratio(figures, ratio) if ratio in figures else "",
            )
        )
    chunk = figures["seconds"] / figures["rounds"]
    return [
        _docs.provenance("bench_mahjong.py", argv),
        f"Simple Mahjong, 4 players, random legal moves, {figures['rounds']} alternating rounds "
        f"of {chunk:g} s per loop, medians (a ratio is the median of the rounds' ratios, "
        "their range in parentheses):",
        _docs.table(("loop", "rounds per second", "steps per second", "rounds × RLCard"), rows),
        "The winning-hand test on random 14-tile hands from a full set, in the same rounds "
        "(the counts computed beforehand; `is_mahjong_counts` and the `mahjong` package's "
        "`Agari.is_agari` take the same counts, the first checking only that they are 34 "
        "counts of 0 or more, the second nothing):",
        _docs.table(("test", "hands per second", "× is_agari"), hand_rows),
    ]


if __name__ == "__main__":
    raise SystemExit(main())

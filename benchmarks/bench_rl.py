"""Benchmark of the learning interfaces (sevenbridge.rl and the PettingZoo env).

Run ``python benchmarks/bench_rl.py`` (about a minute) or ``--quick`` for a smoke
run. Needs numpy; the PettingZoo figure needs pettingzoo (it is skipped
without). On standard-rules 3-player positions from random deals it prints:

- the engine step (``legal_actions`` + ``apply`` on a fresh state) per second;
- ``mask`` + ``observation_tensor`` per second for one view, two ways: from a
  fresh Observation (``mask`` then works the legal actions out itself), and as
  an environment does it (the mask from the state, whose legal actions the
  engine has already worked out, and the tensor of the view);
- ``information_state_tensor`` per second;
- ``encode`` and ``decode`` per second over every legal action;
- random play through the PettingZoo env (``last()``, a random legal id from
  the mask, ``step()``) in steps per second, against the raw engine loop.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

import sevenbridge as sb
from sevenbridge.rl import ActionSpace, information_state_tensor, observation_tensor

_INIT = [f.name for f in attrs.fields(sb.GameState) if f.init]


def fresh(state: sb.GameState) -> sb.GameState:
    """An equal state with no cached legal actions (as ``apply`` returns them)."""
    return sb.GameState(*[getattr(state, name) for name in _INIT])


def positions(deals: int, seed: int = 0) -> list[sb.GameState]:
    """Every position of random standard 3-player deals."""
    rng = random.Random(seed)
    out = []
    for i in range(deals):
        state = sb.deal(players=3, seed=seed + i)
        while not state.is_over:
            out.append(state)
            state = sb.apply(state, rng.choice(sb.legal_actions(state)))
    return out


def rate(run: Callable[[], int], seconds: float) -> float:
    """Items per second of ``run`` (which returns how many items it did), best of
    repeated runs over about ``seconds``."""
    best = 0.0
    end = time.perf_counter() + seconds
    while True:
        t0 = time.perf_counter()
        n = run()
        elapsed = time.perf_counter() - t0
        best = max(best, n / elapsed)
        if time.perf_counter() >= end:
            return best


def engine_loop(steps: int, seed: int) -> int:
    """The raw random loop: legal_actions, a random choice, apply."""
    rng = random.Random(seed)
    done = 0
    i = 0
    while done < steps:
        state = sb.deal(players=3, seed=seed + i)
        i += 1
        while not state.is_over and done < steps:
            actions = sb.legal_actions(state)
            state = sb.apply(state, actions[rng.randrange(len(actions))])
            done += 1
    return done


def pettingzoo_loop(steps: int, seed: int) -> int:
    """Random play through the PettingZoo AEC env, choosing among the mask's ids."""
    import numpy as np

    from sevenbridge.envs.pettingzoo import raw_env

    env: Any = raw_env(players=3)
    rng = random.Random(seed)
    done = 0
    env.reset(seed=seed)
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        legal = obs["action_mask"].view(np.bool_).nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        done += 1
    return done


def measure(quick: bool, seconds: float) -> dict[str, float | None]:
    space = ActionSpace(sb.Rules.standard(), 3)
    states = positions(10 if quick else 60)
    moves = [random.Random(1).choice(sb.legal_actions(s)) for s in states]
    figures: dict[str, float | None] = {"positions": float(len(states))}

    def engine_timed() -> int:
        batch = [fresh(s) for s in states]
        t0 = time.perf_counter()
        for s, a in zip(batch, moves, strict=True):
            sb.legal_actions(s)
            sb.apply(s, a)
        return int(len(states) / (time.perf_counter() - t0))

    def mask_obs_fresh_view() -> int:
        views = [sb.observe(fresh(s)) for s in states]
        t0 = time.perf_counter()
        for v in views:
            space.mask(v)
            observation_tensor(v)
        return int(len(views) / (time.perf_counter() - t0))

    def mask_obs_env() -> int:
        pairs = [(s, sb.observe(s)) for s in states]
        t0 = time.perf_counter()
        for s, v in pairs:
            space.mask(s)
            observation_tensor(v)
        return int(len(pairs) / (time.perf_counter() - t0))

    views = [sb.observe(s) for s in states]

    def info_tensor() -> int:
        for v in views:
            information_state_tensor(v)
        return len(views)

    actions = [(a, s) for s in states for a in sb.legal_actions(s)]
    ids = [(space.encode(a), s) for a, s in actions]

    def encode() -> int:
        for a, _ in actions:
            space.encode(a)
        return len(actions)

    def decode() -> int:
        for i, s in ids:
            space.decode(i, s)
        return len(ids)

    # The "timed" runs return a rate themselves (their set-up is not timed).
    repeats = 3 if quick else 7
    figures["engine_step_per_s"] = float(max(engine_timed() for _ in range(repeats)))
    figures["mask_obs_fresh_view_per_s"] = float(max(mask_obs_fresh_view() for _ in range(repeats)))
    figures["mask_obs_env_per_s"] = float(max(mask_obs_env() for _ in range(repeats)))
    figures["information_state_tensor_per_s"] = rate(info_tensor, seconds)
    figures["encode_per_s"] = rate(encode, seconds)
    figures["decode_per_s"] = rate(decode, seconds)
    steps = 500 if quick else 5_000
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        has_pettingzoo = False
    else:
        has_pettingzoo = True
    raw = zoo = 0.0
    for _ in range(2 if quick else 10):  # interleaved too
        raw = max(raw, rate(lambda: engine_loop(steps, 7), 0))
        if has_pettingzoo:
            zoo = max(zoo, rate(lambda: pettingzoo_loop(steps, 7), 0))
    figures["engine_random_play_steps_per_s"] = raw
    figures["pettingzoo_random_play_steps_per_s"] = zoo if has_pettingzoo else None
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per figure")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.05 if args.quick else 2.0)
    f = measure(args.quick, seconds)
    step = f["engine_step_per_s"] or 1.0

    def show(name: str, key: str, versus: float | None = None) -> None:
        value = f[key]
        if value is None:
            print(f"{name:<52} skipped (package not installed)")
            return
        extra = f"  ({value / versus:.2f} x)" if versus else ""
        print(f"{name:<52} {value:>12,.0f}{extra}")

    print(f"standard rules, 3 players, {int(f['positions'] or 0)} positions")
    show("engine step (legal_actions + apply) /s", "engine_step_per_s")
    show("mask + observation_tensor, fresh view /s  (vs step)", "mask_obs_fresh_view_per_s", step)
    show("mask + observation_tensor, as an env /s   (vs step)", "mask_obs_env_per_s", step)
    show("information_state_tensor /s", "information_state_tensor_per_s")
    show("encode /s", "encode_per_s")
    show("decode /s", "decode_per_s")
    raw = f["engine_random_play_steps_per_s"] or 1.0
    show("random play, raw engine steps/s", "engine_random_play_steps_per_s")
    show(
        "random play, PettingZoo env steps/s   (vs raw)", "pettingzoo_random_play_steps_per_s", raw
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(f, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark of the learning interfaces (sevenbridge.rl and the PettingZoo env).

Run ``python benchmarks/bench_rl.py`` (a minute or two) or ``--quick`` for a
smoke run. Needs numpy; the PettingZoo figures need pettingzoo (they are
skipped without). On standard-rules 3-player positions from random deals it
prints:

- the engine step (``legal_actions`` + ``apply`` on a fresh state) per second;
- ``mask`` + ``observation_tensor`` per second for one view, two ways: from a
  fresh Observation (``mask`` then works the legal actions out itself), and as
  an environment does it (the mask from the state, whose legal actions the
  engine has already worked out, and the tensor of the view);
- ``information_state_tensor`` per second;
- ``encode`` and ``decode`` per second over every legal action;
- random play through the PettingZoo env (``last()``, a random legal id from
  the mask, ``step()``) in steps per second, unwrapped (``raw_env``) and with
  PettingZoo's standard wrappers (``env()``), against the raw engine loop; and
  ``raw_env`` without observations (``last(observe=False)``, the ids from
  ``legal_ids``), which shows what the AEC bookkeeping alone costs.

Every rate is per second of the process's CPU time (the machine may be
shared). The runs compared with each other are interleaved round by round, and
each figure is the median over the rounds; each ratio is the median of the
rounds' ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

import sevenbridge as sb
from sevenbridge.rl import ActionSpace, information_state_tensor, observation_tensor

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

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


def _elapsed(t0: float) -> float:
    """The process's CPU time since ``t0`` (a ``time.process_time()``): every
    figure is per CPU-second of the process, as the machine may be shared."""
    return max(time.process_time() - t0, 1e-9)


def rate(run: Callable[[], int], seconds: float) -> float:
    """Items per CPU-second of ``run`` (which returns how many items it did),
    best of repeated runs over about ``seconds`` of CPU time."""
    best = 0.0
    end = time.process_time() + seconds
    while True:
        t0 = time.process_time()
        n = run()
        elapsed = _elapsed(t0)
        best = max(best, n / elapsed)
        if time.process_time() >= end:
            return best


def engine_loop(steps: int, seed: int, decisions: bool = False) -> int:
    """The raw random loop: legal_actions, a random choice, apply. With
    ``decisions`` it counts (and stops after ``steps``) decisions only: steps
    with two or more legal actions."""
    rng = random.Random(seed)
    done = 0
    i = 0
    while done < steps:
        state = sb.deal(players=3, seed=seed + i)
        i += 1
        while not state.is_over and done < steps:
            actions = sb.legal_actions(state)
            n = len(actions)
            state = sb.apply(state, actions[rng.randrange(n)])
            if n > 1 or not decisions:
                done += 1
    return done


def pettingzoo_loop(
    steps: int, seed: int, wrapped: bool = False, observe: bool = True, auto_forced: bool = False
) -> int:
    """Random play through the PettingZoo AEC env, choosing among the mask's ids.

    The agent finds the legal ids with ``nonzero`` on a boolean view of the
    int8 mask: numpy's ``nonzero`` is several times faster on booleans. With
    ``observe=False`` (unwrapped only) it calls ``last(observe=False)`` and
    takes the legal ids from ``legal_ids``: no tensor, no mask, what is left
    is the AEC bookkeeping (the floor under the env's rate). With
    ``auto_forced`` the env plays lone Pass and Draw moves itself, the agent
    sees only decisions, and the loop counts decisions (steps with two or more
    legal ids).
    """
    import numpy as np

    from sevenbridge.envs.pettingzoo import env as wrapped_env
    from sevenbridge.envs.pettingzoo import raw_env

    make = wrapped_env if wrapped else raw_env
    table: Any = make(players=3, auto_forced=auto_forced)
    rng = random.Random(seed)
    done = 0
    table.reset(seed=seed)
    while done < steps:
        obs, _, terminated, truncated, _ = table.last(observe)
        if terminated or truncated:
            table.step(None)
            if not table.agents:
                table.reset()
            continue
        if observe:
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            n = len(legal)
            table.step(int(legal[rng.randrange(n)]))
        else:
            ids = table.space.legal_ids(table.state)
            n = len(ids)
            table.step(ids[rng.randrange(n)])
        if n > 1 or not auto_forced:
            done += 1
    return done


def timed(run: Callable[[], int]) -> float:
    """Items per CPU-second of one call of ``run`` (which returns how many it did)."""
    t0 = time.process_time()
    n = run()
    return n / _elapsed(t0)


def measure(quick: bool, seconds: float) -> dict[str, Any]:
    space = ActionSpace(sb.Rules.standard(), 3)
    states = positions(10 if quick else 60)
    moves = [random.Random(1).choice(sb.legal_actions(s)) for s in states]
    figures: dict[str, Any] = {"positions": float(len(states))}

    def engine_timed() -> int:
        batch = [fresh(s) for s in states]
        t0 = time.process_time()
        for s, a in zip(batch, moves, strict=True):
            sb.legal_actions(s)
            sb.apply(s, a)
        return int(len(states) / _elapsed(t0))

    def mask_obs_fresh_view() -> int:
        views = [sb.observe(fresh(s)) for s in states]
        t0 = time.process_time()
        for v in views:
            space.mask(v)
            observation_tensor(v)
        return int(len(views) / _elapsed(t0))

    def mask_obs_env() -> int:
        pairs = [(s, sb.observe(s)) for s in states]
        t0 = time.process_time()
        for s, v in pairs:
            space.mask(s)
            observation_tensor(v)
        return int(len(pairs) / _elapsed(t0))

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

    # Interleaved rounds: the figures compared with each other are measured in
    # turn, so a change in the machine's load hits them alike. The "timed" runs
    # return a rate themselves (their set-up is not timed).
    rounds = 3 if quick else 9
    runs: dict[str, list[float]] = {
        "engine_step_per_s": [],
        "mask_obs_fresh_view_per_s": [],
        "mask_obs_env_per_s": [],
    }
    for _ in range(rounds):
        runs["engine_step_per_s"].append(float(engine_timed()))
        runs["mask_obs_fresh_view_per_s"].append(float(mask_obs_fresh_view()))
        runs["mask_obs_env_per_s"].append(float(mask_obs_env()))
    for key, values in runs.items():
        figures[key] = statistics.median(values)
    for key in ("mask_obs_fresh_view_per_s", "mask_obs_env_per_s"):
        figures[key.replace("_per_s", "_vs_step")] = statistics.median(
            a / b for a, b in zip(runs[key], runs["engine_step_per_s"], strict=True)
        )
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
    raw: list[float] = []
    zoo: list[float] = []
    wrapped: list[float] = []
    bare: list[float] = []
    raw_decisions: list[float] = []
    forced: list[float] = []
    if has_pettingzoo:
        pettingzoo_loop(steps, 7)  # warm the caches once
    for _ in range(3 if quick else 11):
        raw.append(timed(lambda: engine_loop(steps, 7)))
        raw_decisions.append(timed(lambda: engine_loop(steps // 3, 7, decisions=True)))
        if has_pettingzoo:
            zoo.append(timed(lambda: pettingzoo_loop(steps, 7)))
            wrapped.append(timed(lambda: pettingzoo_loop(steps, 7, wrapped=True)))
            bare.append(timed(lambda: pettingzoo_loop(steps, 7, observe=False)))
            forced.append(timed(lambda: pettingzoo_loop(steps // 3, 7, auto_forced=True)))
    figures["engine_random_play_steps_per_s"] = statistics.median(raw)
    figures["engine_random_play_decisions_per_s"] = statistics.median(raw_decisions)
    if has_pettingzoo:
        figures["pettingzoo_auto_forced_decisions_per_s"] = statistics.median(forced)
        figures["pettingzoo_auto_forced_vs_raw_decisions"] = statistics.median(
            a / b for a, b in zip(forced, raw_decisions, strict=True)
        )
    else:
        figures["pettingzoo_auto_forced_decisions_per_s"] = None
        figures["pettingzoo_auto_forced_vs_raw_decisions"] = None
    for key, values in (
        ("pettingzoo", zoo),
        ("pettingzoo_wrapped", wrapped),
        ("pettingzoo_no_observation", bare),
    ):
        if has_pettingzoo:
            figures[f"{key}_random_play_steps_per_s"] = statistics.median(values)
            figures[f"{key}_vs_raw"] = statistics.median(
                a / b for a, b in zip(values, raw, strict=True)
            )
        else:
            figures[f"{key}_random_play_steps_per_s"] = figures[f"{key}_vs_raw"] = None
    return figures


# --- The environments against OpenSpiel's gin_rummy, per decision ----------
#
# A decision is a move with two or more legal actions (a lone legal move,
# such as the card game's many passes in a claim window, is not one). Each
# contender plays random deals, choosing uniformly among the legal actions,
# and pays for what a learner gets at each of its steps: the observation
# tensor and the legal-action mask. Rates are decisions per second of the
# process's CPU time; the contenders run in turn, round by round.


def openspiel_gin_rummy(decisions: int, seed: int) -> int:
    """OpenSpiel's gin_rummy: random play to ``decisions`` decisions, with the
    current player's ``observation_tensor`` and ``legal_actions_mask`` (as
    numpy arrays, float32 and int8) at every player's step. Chance nodes (the
    deal, the stock's cards) are sampled as OpenSpiel's own random
    simulation does."""
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    done = 0
    while done < decisions:
        state = game.new_initial_state()
        while not state.is_terminal() and done < decisions:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            np.asarray(state.observation_tensor(), np.float32)
            np.asarray(state.legal_actions_mask(), np.int8)
            n = len(legal)
            state.apply_action(legal[rng.randrange(n)])
            if n > 1:
                done += 1
    return done


def pettingzoo_decisions(decisions: int, seed: int, auto_forced: bool = True) -> int:
    """The PettingZoo env as ``env()`` hands it out (3 players; the env plays
    lone passes and draws itself), random play to ``decisions`` decisions, the
    observation and mask of every step read with ``last()``; with
    ``auto_forced=False`` the agent is asked every move."""
    import numpy as np

    from sevenbridge.envs.pettingzoo import env

    table = env(players=3) if auto_forced else env(players=3, auto_forced=False)
    rng = random.Random(seed)
    done = 0
    table.reset(seed=seed)
    while done < decisions:
        obs, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            if not table.agents:
                table.reset()
            continue
        legal = obs["action_mask"].view(np.bool_).nonzero()[0]
        n = len(legal)
        table.step(int(legal[rng.randrange(n)]))
        if n > 1:
            done += 1
    return done


def gymnasium_decisions(decisions: int, seed: int, auto_forced: bool = True) -> tuple[int, float]:
    """The Gymnasium env as ``SevenBridgeEnv`` makes it (3 players; the
    library's ``RandomPlayer`` at the other seats), random play by the learner
    from ``info["action_mask"]`` until the deals have about ``decisions``
    decisions: the learner's and the bots' (as OpenSpiel's count takes both
    players'). With ``auto_forced=False`` the learner is asked every move.

    Returns the decisions and the CPU seconds of the play alone: the bots'
    decisions are counted after the clock stops, by replaying each deal's
    moves and counting the positions with two or more legal actions (the
    bots are the game's own, which the env asks at the state, so nothing
    else sees their choices)."""
    import numpy as np

    from sevenbridge.bots import RandomPlayer
    from sevenbridge.envs.gymnasium import SevenBridgeEnv

    table = SevenBridgeEnv(players=3, opponents=RandomPlayer, auto_forced=auto_forced)
    rng = random.Random(seed)
    played: list[Any] = []
    mine = 0  # the learner's decisions, to stop near ``decisions`` in all
    t0 = time.process_time()
    _, info = table.reset(seed=seed)
    while mine * 3 < decisions:
        legal = info["action_mask"].view(np.bool_).nonzero()[0]
        n = len(legal)
        _, _, terminated, truncated, info = table.step(int(legal[rng.randrange(n)]))
        if n > 1:
            mine += 1
        if terminated or truncated:
            played.append(table.state)
            _, info = table.reset()
    played.append(table.state)
    seconds = _elapsed(t0)
    return sum(_decisions_of(state) for state in played), seconds


def _decisions_of(state: Any) -> int:
    """The positions with two or more legal actions on the way to ``state``,
    replayed from its deal."""
    replay = sb.deal(state.rules, players=state.players, dealer=state.dealer, seed=state.seed)
    count = 0
    for action in state.history:
        count += len(sb.legal_actions(replay)) > 1
        replay = sb.apply(replay, action)
    assert replay == state, "the replay did not reach the deal's position"
    return count


def cpu_rate(run: Callable[[], int | tuple[int, float]]) -> float:
    """Items per CPU-second of the process of one call of ``run``, which
    returns how many items it did (or those and the CPU seconds they took)."""
    t0 = time.process_time()
    result = run()
    if isinstance(result, tuple):
        return result[0] / result[1]
    return result / _elapsed(t0)


def versus_openspiel(quick: bool) -> dict[str, Any]:
    """Decisions per CPU-second of each environment and of OpenSpiel's
    gin_rummy, in interleaved rounds; for each environment the median of the
    rounds' ratios and their range. ``None`` without pyspiel."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return {}
    n = 300 if quick else 6_000
    contenders: dict[str, Callable[[], int | tuple[int, float]]] = {
        "openspiel_gin_rummy": lambda: openspiel_gin_rummy(n, 3),
    }
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        pass
    else:
        contenders["pettingzoo"] = lambda: pettingzoo_decisions(n, 3)
        contenders["pettingzoo_every_move"] = lambda: pettingzoo_decisions(n, 3, False)
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        pass
    else:
        contenders["gymnasium"] = lambda: gymnasium_decisions(n, 3)
        contenders["gymnasium_every_move"] = lambda: gymnasium_decisions(n, 3, False)
    for run in contenders.values():
        run()  # warm the caches and imports
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(3 if quick else 9):
        for name, run in contenders.items():
            rates[name].append(cpu_rate(run))
    base = rates["openspiel_gin_rummy"]
    out: dict[str, Any] = {}
    for name, values in rates.items():
        ratios = [a / b for a, b in zip(values, base, strict=True)]
        out[name] = {
            "decisions_per_cpu_s": statistics.median(values),
            "ratio": statistics.median(ratios),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per figure")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.05 if args.quick else 2.0)
    f = measure(args.quick, seconds)
    f["versus_openspiel"] = versus_openspiel(args.quick)

    def show(name: str, key: str, ratio: str | None = None, versus: str = "") -> None:
        value = f[key]
        if value is None:
            print(f"{name:<44} skipped (package not installed)")
            return
        extra = f"  ({f[ratio]:.2f} x {versus})" if ratio else ""
        print(f"{name:<44} {value:>12,.0f}{extra}")

    print(
        f"standard rules, 3 players, {int(f['positions'] or 0)} positions (medians, per CPU-second)"
    )
    show("engine step (legal_actions + apply) /s", "engine_step_per_s")
    show("mask + observation_tensor, fresh view /s", "mask_obs_fresh_view_per_s",
         "mask_obs_fresh_view_vs_step", "step")  # fmt: skip
    show("mask + observation_tensor, as an env /s", "mask_obs_env_per_s",
         "mask_obs_env_vs_step", "step")  # fmt: skip
    show("information_state_tensor /s", "information_state_tensor_per_s")
    show("encode /s", "encode_per_s")
    show("decode /s", "decode_per_s")
    show("random play, raw engine steps/s", "engine_random_play_steps_per_s")
    show("random play, PettingZoo env steps/s", "pettingzoo_random_play_steps_per_s",
         "pettingzoo_vs_raw", "raw")  # fmt: skip
    show("random play, wrapped PettingZoo env steps/s",
         "pettingzoo_wrapped_random_play_steps_per_s", "pettingzoo_wrapped_vs_raw", "raw")  # fmt: skip
    show("  the same, raw_env without observations",
         "pettingzoo_no_observation_random_play_steps_per_s", "pettingzoo_no_observation_vs_raw",
         "raw")  # fmt: skip
    show("random play, raw engine decisions/s", "engine_random_play_decisions_per_s")
    show("random play, PettingZoo env auto_forced=True decisions/s",
         "pettingzoo_auto_forced_decisions_per_s", "pettingzoo_auto_forced_vs_raw_decisions",
         "raw decisions")  # fmt: skip
    versus = f["versus_openspiel"]
    if versus:
        print("decisions per CPU-second against OpenSpiel's gin_rummy (median ratio, range):")
        for key, name in _VERSUS_ROWS:
            v = versus.get(key)
            if v is None:
                print(f"  {name:<42} skipped (package not installed)")
                continue
            print(f"  {name:<42} {v['decisions_per_cpu_s']:>10,.0f}  {_ratio(v)}")
    else:
        print("decisions against OpenSpiel's gin_rummy: skipped (open_spiel not installed)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(f, fh, indent=2)
    if args.docs:
        _docs.write(args.docs, docs_blocks(f, argv))
    return 0


#: The rows of the docs' table: the figure, its key, and its ratio's key and unit.
_DOCS_ROWS = (
    ("engine step (`legal_actions` + `apply`)", "engine_step_per_s", None, ""),
    ("`mask` + `observation_tensor`, fresh view", "mask_obs_fresh_view_per_s",
     "mask_obs_fresh_view_vs_step", "a step"),
    ("`mask` + `observation_tensor`, as an environment", "mask_obs_env_per_s",
     "mask_obs_env_vs_step", "a step"),
    ("`information_state_tensor`", "information_state_tensor_per_s", None, ""),
    ("`encode`", "encode_per_s", None, ""),
    ("`decode`", "decode_per_s", None, ""),
    ("random play, raw engine (steps)", "engine_random_play_steps_per_s", None, ""),
    ("random play, PettingZoo `raw_env` (steps)", "pettingzoo_random_play_steps_per_s",
     "pettingzoo_vs_raw", "the raw engine"),
    ("random play, PettingZoo `env()` (steps)", "pettingzoo_wrapped_random_play_steps_per_s",
     "pettingzoo_wrapped_vs_raw", "the raw engine"),
    ("random play, `raw_env` without observations (steps)",
     "pettingzoo_no_observation_random_play_steps_per_s", "pettingzoo_no_observation_vs_raw",
     "the raw engine"),
    ("random play, raw engine (decisions)", "engine_random_play_decisions_per_s", None, ""),
    ("random play, PettingZoo with `auto_forced=True` (decisions)",
     "pettingzoo_auto_forced_decisions_per_s", "pettingzoo_auto_forced_vs_raw_decisions",
     "the raw engine's decisions"),
)  # fmt: skip


#: The rows of the table against OpenSpiel: the contender's key and name.
_VERSUS_ROWS = (
    ("openspiel_gin_rummy", "OpenSpiel gin_rummy"),
    ("pettingzoo", "PettingZoo env()"),
    ("pettingzoo_every_move", "PettingZoo env(auto_forced=False)"),
    ("gymnasium", "Gymnasium SevenBridgeEnv"),
    ("gymnasium_every_move", "Gymnasium SevenBridgeEnv(auto_forced=False)"),
)


def _ratio(v: dict[str, float]) -> str:
    """A median ratio with its range."""
    return f"{v['ratio']:.2f} ({v['ratio_min']:.2f} to {v['ratio_max']:.2f})"


def docs_blocks(f: dict[str, Any], argv: Sequence[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    rows = []
    for name, key, ratio, unit in _DOCS_ROWS:
        if f[key] is None:
            rows.append((name, "not measured (package not installed)", ""))
        else:
            rows.append((name, f"{f[key]:,.0f}", f"**{f[ratio]:.2f}** × {unit}" if ratio else ""))
    blocks = [
        _docs.provenance("bench_rl.py", argv),
        f"Standard rules, 3 players, every position of random deals "
        f"({int(f['positions'] or 0):,} positions); medians of interleaved rounds:",
        _docs.table(("figure", "per CPU-second", "ratio"), rows),
    ]
    versus = f.get("versus_openspiel")
    if versus:
        blocks += [
            "Against OpenSpiel's `gin_rummy` (a two-player rummy): decisions (moves with two "
            "or more legal actions) per second of the process's CPU time, random play, with the "
            "observation tensor and the legal-action mask of every step the agent is asked "
            "(3-player standard deals; the environments as they are made by default, which "
            "play lone passes and draws without asking, and with `auto_forced=False`, which "
            "asks every move; the Gymnasium env has the library's `RandomPlayer` at the other "
            "seats and counts their decisions too); the contenders take turns round by round, "
            "and the ratio is the median of the rounds' ratios, with their range:",
            _docs.table(
                ("contender", "decisions per CPU-second", "× OpenSpiel (range)"),
                [
                    (name, f"{versus[key]['decisions_per_cpu_s']:,.0f}", _ratio(versus[key]))
                    if key in versus
                    else (name, "not measured (package not installed)", "")
                    for key, name in _VERSUS_ROWS
                ],
            ),
        ]
    return blocks


if __name__ == "__main__":
    raise SystemExit(main())

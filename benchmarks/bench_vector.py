"""Benchmark of the vector environment (``SevenBridgeVectorEnv``) by batch size.

Run ``python benchmarks/bench_vector.py`` (a few minutes) or ``--quick`` for a
smoke run. Needs numpy and gymnasium. It prints:

- env steps (a learner's decision in one deal, with the opponents' moves up
  to its next decision) per CPU-second of the process, for 1, 16, 64 and 256
  deals, for the card game (3 players) and Simple Mahjong (4 players), with
  the default ``GreedyPlayer`` opponents and with ``RandomPlayer`` ones, and
  each size's gain over one deal. The learner picks a random legal id in
  every row of the batch's masks by a few numpy calls (its time counts);
- where a step's time goes at 1 and at 256 deals: the microseconds per deal
  and step of the whole step, of writing the observations and masks, and of
  the learner's choice, and how many moves the engine makes per env step;
- with pgx installed (it needs jax), pgx's ``sparrow_mahjong`` on the CPU
  (``jit(vmap(step))`` with pgx's auto-reset, a random legal action per
  deal, the observation and mask read as numpy arrays), side by side with the
  same batch sizes of ours, in the same rounds;
- with ``--workers``, the wall-clock rate of 256 deals with ``workers=1`` and
  ``workers=2`` (a speed-up needs two free cores: the load average is printed
  before and after).

Rates are per second of the process's CPU time (the machine may be shared),
except the workers' wall-clock rates. The contenders take turns round by
round; each figure is the median over the rounds, each gain or ratio the
median of the rounds' ratios with their range.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

#: The batch sizes measured.
SIZES = (1, 16, 64, 256)

#: The games measured: name, environment arguments.
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("seven_bridge", {"players": 3}),
    ("mahjong", {"game": "mahjong", "players": 4}),
)


def random_ids(masks: Any, rng: Any) -> Any:
    """A uniformly random legal id in each row of ``masks`` (a batch of
    masks), by a few numpy calls over the whole batch."""
    import numpy as np

    rows, cols = np.nonzero(masks.view(np.bool_))  # faster on booleans than on int8
    counts = np.bincount(rows, minlength=len(masks))
    starts = np.cumsum(counts) - counts
    return cols[starts + (rng.random(len(masks)) * counts).astype(np.int64)]


def _opponents(game: str, kind: str) -> dict[str, Any]:
    """The environment argument for the opponents ``kind`` (``"greedy"``,
    the default, or ``"random"``)."""
    if kind == "greedy":
        return {}
    if game == "mahjong":
        from sevenbridge.mahjong import RandomPlayer as MahjongRandom

        return {"opponents": MahjongRandom}
    from sevenbridge.bots import RandomPlayer

    return {"opponents": RandomPlayer}


def vector_player(
    num_envs: int, seed: int, game: str = "seven_bridge", opponents: str = "greedy", **kw: Any
) -> tuple[Any, Callable[[int], int]]:
    """The vector env of ``num_envs`` deals of ``game`` (dealt) and a
    function ``run(steps)`` that plays it for at least ``steps`` env steps,
    ids chosen at random from ``info["action_mask"]``, and returns how many
    it played."""
    import numpy as np

    from sevenbridge.envs.gymnasium import SevenBridgeVectorEnv

    kwargs = dict(GAMES)[game] | _opponents(game, opponents) | kw
    envs = SevenBridgeVectorEnv(num_envs, **kwargs)
    rng = np.random.default_rng(seed)
    masks = [envs.reset(seed=seed)[1]["action_mask"]]

    def run(steps: int) -> int:
        done = 0
        while done < steps:
            masks[0] = envs.step(random_ids(masks[0], rng))[4]["action_mask"]
            done += num_envs
        return done

    return envs, run


def cpu_rate(run: Callable[[int], int], steps: int) -> float:
    """Env steps per CPU-second of the process of one call ``run(steps)``."""
    t0 = time.process_time()
    n = run(steps)
    return n / max(time.process_time() - t0, 1e-9)


def _summary(values: list[float], base: list[float]) -> dict[str, float]:
    ratios = [x / y for x, y in zip(values, base, strict=True)]
    return {
        "steps_per_cpu_s": statistics.median(values),
        "ratio": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }


def pgx_player(num_envs: int, seed: int) -> Callable[[int], int] | None:
    """pgx's ``sparrow_mahjong`` with ``num_envs`` deals on the CPU, played
    like ours (a random legal action per deal, the observations and masks
    read as numpy arrays at every step), or ``None`` without pgx."""
    import numpy as np

    try:  # optional, and without type information: imported by name
        jax: Any = importlib.import_module("jax")
        jnp: Any = importlib.import_module("jax.numpy")
        pgx: Any = importlib.import_module("pgx")
        auto_reset = importlib.import_module("pgx.experimental").auto_reset
    except ImportError:
        return None
    env = pgx.make("sparrow_mahjong")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    def choose(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)

    act = jax.jit(choose)

    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    box = [init(jax.random.split(sub, num_envs)), key]

    def run(steps: int) -> int:
        state, key = box
        done = 0
        while done < steps:
            key, k1, k2 = jax.random.split(key, 3)
            state = step(state, act(k1, state.legal_action_mask), jax.random.split(k2, num_envs))
            np.asarray(state.observation)  # what a numpy learner reads
            np.asarray(state.legal_action_mask)
            done += num_envs
        box[0], box[1] = state, key
        return done

    return run


def scaling(quick: bool, steps: int, with_pgx: bool) -> dict[str, Any]:
    """Env steps per CPU-second by game, opponents and batch size (and pgx's
    sparrow_mahjong, when installed), every contender in every round."""
    contenders: dict[str, Callable[[int], int]] = {}
    for game, _ in GAMES:
        for kind in ("greedy", "random"):
            for b in SIZES:
                contenders[f"{game}/{kind}/{b}"] = vector_player(b, b, game, kind)[1]
    if with_pgx:
        for b in SIZES:
            run = pgx_player(b, b)
            if run is not None:
                contenders[f"pgx_sparrow_mahjong/{b}"] = run
    for run in contenders.values():
        run(max(steps // 8, 256))  # warm up (and compile pgx's functions)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(2 if quick else 5):
        for name, run in contenders.items():
            rates[name].append(cpu_rate(run, steps))
    out: dict[str, Any] = {}
    for name, values in rates.items():
        out[name] = _summary(values, rates[name.rsplit("/", 1)[0] + "/1"])
    if "pgx_sparrow_mahjong/256" in rates:
        pgx = rates["pgx_sparrow_mahjong/256"]
        for game, _ in GAMES:
            out[f"{game}/greedy/256"]["vs_pgx"] = _summary(rates[f"{game}/greedy/256"], pgx)
            out[f"{game}/random/256"]["vs_pgx"] = _summary(rates[f"{game}/random/256"], pgx)
    return out


def breakdown(steps: int) -> dict[str, Any]:
    """Microseconds per deal and env step at 1 and 256 deals (default
    opponents): the whole step with the learner's choice, writing the
    observations and masks (``_write``), and the learner's choice; and the
    engine's moves per env step."""
    import numpy as np

    out: dict[str, Any] = {}
    for game, _ in GAMES:
        for b in (1, 256):
            envs, run = vector_player(b, 7, game)
            run(steps // 4)
            n = max(8, steps // b)
            t0 = time.process_time()
            for _ in range(n):
                envs._write()
            write = (time.process_time() - t0) / (n * b)
            masks = envs._masks.copy()
            rng = np.random.default_rng(0)
            t0 = time.process_time()
            for _ in range(n):
                random_ids(masks, rng)
            learner = (time.process_time() - t0) / (n * b)
            t0 = time.process_time()
            done = run(steps)
            whole = (time.process_time() - t0) / done
            moves = _moves_per_step(envs, run, steps)
            out[f"{game}/{b}"] = {
                "step_us": whole * 1e6,
                "write_us": write * 1e6,
                "learner_us": learner * 1e6,
                "moves_per_step": moves,
            }
    return out


def _moves_per_step(envs: Any, run: Callable[[int], int], steps: int) -> float:
    """The engine's moves (``apply`` calls: the learner's, the opponents',
    dealing's none) per env step of ``run``, counted in a run of its own."""
    moves = [0]

    def counted(apply: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            moves[0] += 1
            return apply(*args)

        return call

    envs._apply = counted(envs._apply)
    for env in envs.envs:
        env._apply = counted(env._apply)
    done = run(steps)
    return moves[0] / done


def _cpu_seconds(envs: Any) -> float:
    """The CPU time so far of this process and of ``envs``'s worker
    processes (read from ``/proc``; this process's alone elsewhere)."""
    total = time.process_time()
    shards = envs._shards
    if shards is None:
        return total
    tick = os.sysconf("SC_CLK_TCK")
    for process in shards._processes:
        try:
            with open(f"/proc/{process.pid}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def workers_speedup(quick: bool, steps: int) -> dict[str, Any]:
    """Wall-clock env steps per second of 256 card-game deals with one and
    two worker processes (default opponents), in alternating rounds, with the
    load average before and after: of the whole loop (the learner's choice,
    made in this process, included) and of the time in ``step`` alone; and the
    CPU time per env step of every process with two workers against one
    process's (what sharing the deals out costs in all)."""
    import numpy as np

    load_before = os.getloadavg()
    # forkserver: a fork of a process with threads (jax's, say) may deadlock
    players = {w: vector_player(256, 256, workers=w, context="forkserver")[0] for w in (1, 2)}
    rng = np.random.default_rng(0)
    masks = {w: envs.reset(seed=256)[1]["action_mask"] for w, envs in players.items()}
    rates: dict[int, list[float]] = {1: [], 2: []}
    stepping: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    for round_ in range(-1, 3 if quick else 7):  # round -1 warms up
        for w, envs in players.items():
            t0, c0, in_step, n = time.perf_counter(), _cpu_seconds(envs), 0.0, 0
            while n < (steps // 4 if round_ < 0 else steps):
                actions = random_ids(masks[w], rng)
                t1 = time.perf_counter()
                masks[w] = envs.step(actions)[4]["action_mask"]
                in_step += time.perf_counter() - t1
                n += envs.num_envs
            if round_ >= 0:
                rates[w].append(n / (time.perf_counter() - t0))
                stepping[w].append(n / in_step)
                cpu[w].append((_cpu_seconds(envs) - c0) / n)
    for envs in players.values():
        envs.close()
    out: dict[str, Any] = dict(_summary(rates[2], rates[1]))
    del out["steps_per_cpu_s"]  # these rates are by the wall clock
    out["one_worker_steps_per_s"] = statistics.median(rates[1])
    out["two_workers_steps_per_s"] = statistics.median(rates[2])
    out["step_alone"] = _summary(stepping[2], stepping[1])
    out["cpu_per_step"] = _summary(cpu[2], cpu[1])
    out["load_before"] = list(load_before)
    out["load_after"] = list(os.getloadavg())
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--steps", type=int, default=None, help="env steps per round and size")
    parser.add_argument("--no-pgx", action="store_true", help="leave pgx out even if installed")
    parser.add_argument("--workers", action="store_true", help="also time workers=2 (wall clock)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    steps = args.steps or (512 if args.quick else 8_192)
    load = os.getloadavg()
    f: dict[str, Any] = {
        "scaling": scaling(args.quick, steps, not args.no_pgx),
        "breakdown": breakdown(steps),
    }
    f["load"] = [load[0], os.getloadavg()[0]]  # one-minute load averages, before and after
    if args.workers:
        f["workers"] = workers_speedup(args.quick, steps)
    for line in report(f):
        print(line)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(f, fh, indent=2)
    if args.docs:
        _docs.write(args.docs, docs_blocks(f, argv))
    return 0


def _ratio(v: dict[str, float]) -> str:
    """A median ratio with its range."""
    return f"{v['ratio']:.2f} ({v['ratio_min']:.2f} to {v['ratio_max']:.2f})"


def _rows(s: dict[str, Any]) -> list[tuple[str, ...]]:
    """The scaling table's rows: one per batch size."""
    rows = []
    for b in SIZES:
        row = [str(b)]
        for game, _ in GAMES:
            for kind in ("greedy", "random"):
                v = s[f"{game}/{kind}/{b}"]
                row.append(f"{v['steps_per_cpu_s']:,.0f} ({_ratio(v)})")
        pgx = s.get(f"pgx_sparrow_mahjong/{b}")
        if pgx is not None:
            row.append(f"{pgx['steps_per_cpu_s']:,.0f} ({_ratio(pgx)})")
        rows.append(tuple(row))
    return rows


_HEAD = (
    "deals",
    "Seven Bridge, greedy",
    "Seven Bridge, random",
    "Simple Mahjong, greedy",
    "Simple Mahjong, random",
)


def report(f: dict[str, Any]) -> list[str]:
    """The figures as lines of text."""
    s = f["scaling"]
    lines = ["env steps per CPU-second (gain over one deal, range), by number of deals:"]
    head = _HEAD + (("pgx sparrow_mahjong",) if "pgx_sparrow_mahjong/1" in s else ())
    lines.append("  " + " | ".join(head))
    lines += ["  " + " | ".join(row) for row in _rows(s)]
    for game, _ in GAMES:
        for kind in ("greedy", "random"):
            versus = s[f"{game}/{kind}/256"].get("vs_pgx")
            if versus:
                lines.append(f"  {game} ({kind}) at 256 deals x pgx at 256: {_ratio(versus)}")
    if "load" in f:
        lines.append(f"  (load average {f['load'][0]:.2f} before, {f['load'][1]:.2f} after)")
    lines.append("microseconds per deal and env step (default opponents):")
    for key, v in f["breakdown"].items():
        lines.append(
            f"  {key:<16} step {v['step_us']:6.1f}  observations+masks {v['write_us']:5.1f}"
            f"  learner {v['learner_us']:5.1f}  engine moves/step {v['moves_per_step']:.2f}"
        )
    w = f.get("workers")
    if w:
        lines.append(
            f"workers=2 x workers=1, 256 deals, wall clock: {_ratio(w)}"
            f" ({w['one_worker_steps_per_s']:,.0f} env steps/s with one;"
            f" load {w['load_before'][0]:.2f} before, {w['load_after'][0]:.2f} after)"
        )
        lines.append(f"  the time in step() alone: {_ratio(w['step_alone'])}")
        lines.append(
            f"  CPU time per env step, all processes, workers=2 x one process:"
            f" {_ratio(w['cpu_per_step'])}"
        )
    return lines


def docs_blocks(f: dict[str, Any], argv: Sequence[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    s = f["scaling"]
    has_pgx = "pgx_sparrow_mahjong/1" in s
    head = _HEAD + (("pgx `sparrow_mahjong`",) if has_pgx else ())
    blocks = [
        _docs.provenance("bench_vector.py", argv),
        "`SevenBridgeVectorEnv`: env steps (a learner's decision in one deal, with the "
        "opponents' moves up to the next) per CPU-second, by number of deals, and in "
        "brackets the gain over one deal (median of the rounds' ratios, with their range); "
        "Seven Bridge at 3 players, Simple Mahjong at 4, with `GreedyPlayer` opponents (the "
        "default) and `RandomPlayer` ones; the learner picks a random legal id in each row "
        "of the masks"
        + (
            "; pgx's `sparrow_mahjong` on the CPU (`jit(vmap(step))` with auto-reset, a random "
            "legal action per deal, its observations and masks read as numpy arrays), where "
            "an env step is one player's move:"
            if has_pgx
            else ":"
        ),
        _docs.table(head, _rows(s)),
    ]
    versus = [
        f"{title} with {kind} opponents {_ratio(s[f'{game}/{kind}/256']['vs_pgx'])}"
        for game, title in (("seven_bridge", "Seven Bridge"), ("mahjong", "Simple Mahjong"))
        for kind in ("greedy", "random")
        if "vs_pgx" in s[f"{game}/{kind}/256"]
    ]
    if versus:
        blocks.append(
            "At 256 deals, env steps per CPU-second as a share of pgx's at 256 (median of the "
            "rounds' ratios, with their range): " + "; ".join(versus) + "."
        )
    if "load" in f:
        blocks.append(
            f"The machine (2 cores, shared) had a one-minute load average of {f['load'][0]:.2f} "
            f"when the run began and {f['load'][1]:.2f} when it ended."
        )
    rows = [
        (
            key.replace("seven_bridge", "Seven Bridge").replace("mahjong", "Simple Mahjong"),
            f"{v['step_us']:.1f}",
            f"{v['write_us']:.1f}",
            f"{v['learner_us']:.1f}",
            f"{v['moves_per_step']:.2f}",
        )
        for key, v in f["breakdown"].items()
    ]
    blocks += [
        "Where an env step's time goes (default opponents), in microseconds per deal and "
        "step: the whole step with the learner's choice; of it, writing the observations and "
        "masks, and the learner's choice; and the engine's moves per env step (the learner's "
        "and the opponents'):",
        _docs.table(
            ("game / deals", "step", "observations and masks", "learner", "moves per step"),
            rows,
        ),
    ]
    w = f.get("workers")
    if w:
        blocks.append(
            f"With `workers=2`, 256 card-game deals played **{_ratio(w)}** times as many env "
            f"steps per wall-clock second as with one process "
            f"({w['one_worker_steps_per_s']:,.0f}), on a machine whose load average was "
            f"{w['load_before'][0]:.2f} before the run and {w['load_after'][0]:.2f} after "
            f"(counting only the time in `step`, not the learner's choice between steps: "
            f"{_ratio(w['step_alone'])}); "
            f"the CPU time per env step of the three processes together was "
            f"{_ratio(w['cpu_per_step'])} times one process's."
        )
    return blocks


if __name__ == "__main__":
    raise SystemExit(main())

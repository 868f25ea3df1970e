"""Soak test: many random deals, a sampled world from every seat at every step.

Run by hand (``python benchmarks/soak.py --deals 2000``); the test suite runs a
few deals of it. Every preset under either claim window, and table sizes from
2 to 5 players, take turns. At every step of every deal, ``sample_state``
deals a world from each seat's observation, and the world is checked: the
engine's own JSON reader takes it back, it looks the same from that seat,
every card is in one place, and it breaks nothing the history shows of the
hidden cards (the checks of ``GameState.from_json(..., verify=True)``). Every
``--certify-every``-th sample also comes with the deal it was built from, which
is played forward through the whole history to the sampled world: the proof
that the engine could have reached it. Now and then a sampled world is played
on to the end and checked again. Any failure is printed with the seed to
reproduce it, and the exit status is 1.

Only the standard library and sevenbridge are used, so it runs anywhere the
package does (the certificates come from the sampler's own module,
``sevenbridge.inference._worlds``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import attrs

import sevenbridge.inference._worlds as _worlds
from sevenbridge import (
    Action,
    Discard,
    Draw,
    GameState,
    Pass,
    Rules,
    apply,
    deal,
    legal_actions,
    mahjong,
    observe,
    sample_state,
)
from sevenbridge.cards import CARDS
from sevenbridge.rules import ClaimWindow

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]


@dataclass
class Figures:
    deals: int = 0
    steps: int = 0
    samples: int = 0
    playouts: int = 0
    reshuffled_deals: int = 0
    waiting_pons: int = 0
    certified: int = 0
    by_rules: Counter[str] = field(default_factory=Counter)
    """Samples checked, by preset and claim window."""
    failures: list[str] = field(default_factory=list)


def _check(world: GameState, viewer: int, state: GameState) -> str | None:
    if observe(world, viewer) != observe(state, viewer):
        return "the sample looks different from the viewer's seat"
    if GameState.from_json(world.to_json()) != world:
        return "the sample does not survive a JSON round trip"
    reason = _worlds.conflict(world)
    if reason is not None:
        return f"the sample breaks what the history shows: {reason}"
    return None


def _certify(state: GameState, viewer: int, key: int) -> str | None:
    """Sample with the deal it comes from, and play that deal through the
    history: it must reach the sampled world."""
    view = observe(state, viewer)
    world, cert = _worlds.sample(view, key, 1, certify=True)
    if cert is None:
        return None if view.shown_hands is not None else "no deal came with the sample"
    first = deal(state.rules, players=state.players, dealer=state.dealer,
                 deck=[CARDS[c] for c in cert.deck])  # fmt: skip
    reached = _worlds.replay(first, view.history, cert)
    if attrs.evolve(reached, seed=world.seed) != world:
        return "the deal the sample comes with does not lead to it"
    return None


def _play_on(world: GameState, rng: random.Random) -> GameState:
    while not world.is_over:
        actions = legal_actions(world)
        world = apply(world, actions[rng.randrange(len(actions))])
    GameState.from_json(world.to_json())  # every card once, scores that fit
    return world


def soak(
    deals: int,
    seed: int,
    playout_every: int = 50,
    verbose: bool = False,
    certify_every: int = 10,
) -> Figures:
    """Play ``deals`` deals and check a sampled world at every step."""
    figures = Figures()
    kinds = [
        Rules.preset(name).replace(claim_window=window)
        for name in Rules.presets()
        for window in ClaimWindow
    ]
    rng = random.Random(seed)
    for k in range(deals):
        rules = kinds[k % len(kinds)]
        if k % 7 == 3:
            rules = rules.replace(reshuffle_limit=8)  # long deals that reshuffle often
        players = 2 + (k // len(kinds)) % 4
        kind = f"{_preset_of(rules)}, claim_window={rules.claim_window.value}"
        deal_seed = rng.getrandbits(32)
        quiet = k % 5 == 4  # only draws, passes and discards: runs the stock out
        state = deal(rules, players=players, seed=deal_seed)
        where = f"deal {k}: {rules.changes() or 'standard'}, {players} players, seed {deal_seed}"
        try:
            while True:
                for viewer in range(players):
                    world = sample_state(observe(state, viewer), rng.getrandbits(32))
                    figures.samples += 1
                    figures.by_rules[kind] += 1
                    problem = _check(world, viewer, state)
                    if not problem and figures.samples % certify_every == 0:
                        problem = _certify(state, viewer, rng.getrandbits(64))
                        figures.certified += problem is None
                    if problem:
                        figures.failures.append(f"{where}, step {figures.steps}: {problem}")
                    if figures.samples % playout_every == 0:
                        _play_on(world, rng)
                        figures.playouts += 1
                figures.waiting_pons += state.pending_pon is not None
                if state.is_over:
                    break
                actions: Sequence[Action] = legal_actions(state)
                if quiet:
                    actions = [
                        a for a in actions if isinstance(a, (Draw, Pass, Discard))
                    ] or actions
                state = apply(state, actions[rng.randrange(len(actions))])
                figures.steps += 1
        except Exception as error:  # report, with the seed, and go on
            figures.failures.append(f"{where}: {type(error).__name__}: {error}")
        figures.deals += 1
        figures.reshuffled_deals += state.reshuffles > 0
        if verbose and (k + 1) % 100 == 0:
            print(f"  {k + 1} deals, {figures.samples} samples", file=sys.stderr)
    return figures


#: The rules whose claim windows tell the most of the hidden hands: the
#: Nintendo preset with its joker-holder pons, asked only when able to pon, with
#: and without many reshuffles, and the standard rules asking only the able.
WORLD_RULES: Final = (
    Rules.nintendo().replace(claim_window="able_only"),
    Rules.nintendo().replace(claim_window="able_only", reshuffle_limit=8),
    Rules().replace(claim_window="able_only", reshuffle_limit=8),
    Rules.nintendo().replace(reshuffle_limit=8),
)


@dataclass
class WorldFigures:
    """What :func:`worlds` saw."""

    deals: int = 0
    states: int = 0
    samples: int = 0
    certified: int = 0
    times: list[float] = field(default_factory=list)
    """Process CPU time of each sample, in seconds."""
    failures: list[str] = field(default_factory=list)
    slow: list[dict[str, object]] = field(default_factory=list)
    """The samples that took at least ``slow_ms`` (see :func:`worlds`): the
    position, the viewer, the key and the time, the slowest first."""

    def percentile(self, q: float) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _policy(actions: Sequence[Action], style: int, rng: random.Random) -> Action:
    """A move: at random (0), claims and melds first (1), or only draws,
    passes and discards where it can (2: runs the stock out)."""
    if style == 1:
        eager = [a for a in actions if not isinstance(a, (Draw, Pass, Discard))]
        actions = eager or actions
    elif style == 2:
        actions = [a for a in actions if isinstance(a, (Draw, Pass, Discard))] or actions
    return actions[rng.randrange(len(actions))]


def worlds(
    deals: int,
    seed: int,
    every: int = 1,
    sample: bool = True,
    rules_list: Sequence[Rules] = (),
    table: int = 0,
    prove: bool = True,
    slow_ms: float = 0.0,
) -> WorldFigures:
    """Play ``deals`` deals under :data:`WORLD_RULES` (or ``rules_list``), 2 to
    5 players (or ``table``), random, eager and passive play, and, at every
    ``every``-th step, sample a world from each seat's view and prove the
    position itself reachable (:func:`sevenbridge.inference.certify`; not
    without ``prove``); without ``sample``, only that. With ``slow_ms``, the
    samples that took at least that long are kept (:attr:`WorldFigures.slow`)."""
    figures = WorldFigures()
    rng = random.Random(seed)
    rules_list = rules_list or WORLD_RULES
    for k in range(deals):
        rules = rules_list[k % len(rules_list)]
        style = k % 3
        players = table or 2 + (k // (3 * len(rules_list))) % 4
        deal_seed = rng.getrandbits(32)
        state = deal(rules, players=players, seed=deal_seed)
        where = f"deal {k}: {rules.changes() or 'standard'}, {players} players, seed {deal_seed}"
        step = 0
        while True:
            if step % every == 0 and prove:
                figures.states += 1
                if _worlds.certify(state) is None:
                    figures.failures.append(f"{where}, step {step}: certify found no deal")
                elif GameState.from_json(state.to_json(), verify=True) != state:
                    figures.failures.append(f"{where}, step {step}: does not read back")
                else:
                    figures.certified += 1
            if step % every == 0:
                for viewer in range(players if sample else 0):
                    _timed_sample(
                        figures, state, observe(state, viewer), rng.getrandbits(32),
                        f"{where}, step {step}, viewer {viewer}", slow_ms,
                    )  # fmt: skip
            if state.is_over:
                break
            state = apply(state, _policy(legal_actions(state), style, rng))
            step += 1
        figures.deals += 1
    return figures


#: The most keys ``--retime`` takes for each view, and the largest file it reads.
RETIME_KEYS_MOST: Final = 10_000
RETIME_FILE_MOST: Final = 256 << 20


def retime(
    cases: Sequence[dict[str, object]], keys: int, seed: int, slow_ms: float = 0.0
) -> tuple[WorldFigures, list[tuple[float, int]]]:
    """Sample again each view that ``--save-slow`` wrote (``cases``), from
    ``keys`` fresh keys each, drawn from ``seed``: whether a view is slow for
    any key or was slow for one key only, and how a change of the sampler
    does on the views that were slow before. The figures (with ``slow_ms``,
    the samples that took at least that long, in the same form), and each
    view's median time in seconds with its place in ``cases``."""
    figures = WorldFigures()
    rng = random.Random(seed)
    medians: list[tuple[float, int]] = []
    for number, case in enumerate(cases):
        state = GameState.from_json(json.dumps(case["state"]))
        viewer = case["viewer"]
        if type(viewer) is not int or not 0 <= viewer < state.players:
            raise ValueError(f"case {number}: viewer {viewer!r} is not a seat of its position")
        view = observe(state, viewer)
        times = sorted(
            _timed_sample(figures, state, view, rng.getrandbits(32), f"case {number}", slow_ms)
            for _ in range(keys)
        )
        figures.deals += 1
        medians.append((times[len(times) // 2], number))
    return figures, medians


def _read_cases(path: str) -> list[dict[str, object]]:
    """The cases of a ``--save-slow`` file, checked for their form (a list of
    objects with a position and a viewer) and size before they are used."""
    with open(path, "rb") as source:
        text = source.read(RETIME_FILE_MOST + 1)
    if len(text) > RETIME_FILE_MOST:
        raise ValueError(f"{path}: larger than {RETIME_FILE_MOST:,} bytes")
    cases = json.loads(text)
    if not isinstance(cases, list) or not all(
        isinstance(case, dict) and "state" in case and "viewer" in case for case in cases
    ):
        raise ValueError(f"{path}: not a list of saved samples (each with a state and a viewer)")
    return cases


def _main_retime(
    path: str,
    keys: int,
    seed: int,
    docs: str | None,
    argv: list[str] | None,
    save_slow: str | None = None,
    slow_ms: float = 0.0,
) -> int:
    start = time.perf_counter()
    figures, medians = retime(_read_cases(path), keys, seed, slow_ms if save_slow else 0.0)
    elapsed = time.perf_counter() - start
    if save_slow:
        _save_slow(figures, save_slow)
    medians.sort(reverse=True)
    rows = [
        ("views", f"{figures.deals:,}"),
        ("samples", f"{figures.samples:,}"),
        *_time_rows(figures),
        ("views whose median is over 200 ms", f"{sum(m > 0.2 for m, _ in medians):,}"),
        ("failures", f"{len(figures.failures):,}"),
        ("time", f"{elapsed:,.0f} s"),
    ]
    status = _report(rows, figures.failures, docs, argv)
    print("slowest views by median (case: ms):")
    print("  " + ", ".join(f"{number}: {median * 1000:.0f}" for median, number in medians[:10]))
    return status


def _timed_sample(
    figures: WorldFigures, state: GameState, view: Any, key: int, where: str, slow_ms: float
) -> float:
    """Sample a world from ``view`` (of ``state``) with ``key`` into ``figures``:
    its process CPU time, kept with the position where it took at least
    ``slow_ms`` (not without), and a failure (named ``where``, with the key)
    if it raised or the world looks different from the seat. The time."""
    start = time.process_time()
    try:
        world = sample_state(view, key)
    except Exception as error:  # report, with the key, and go on
        figures.failures.append(f"{where}, key {key}: {error}")
        world = None
    spent = time.process_time() - start
    figures.times.append(spent)
    figures.samples += 1
    if slow_ms and spent * 1000 >= slow_ms:
        figures.slow.append(
            {"state": json.loads(state.to_json()), "viewer": view.viewer, "key": key,
             "ms": round(spent * 1000, 1)}
        )  # fmt: skip
    if world is not None and observe(world, view.viewer) != view:
        figures.failures.append(f"{where}, key {key}: the sample looks different")
    return spent


def _save_slow(figures: WorldFigures, path: str) -> None:
    """Write the slow samples of ``figures`` to ``path`` as JSON, the slowest first."""
    figures.slow.sort(key=lambda case: -float(case["ms"]))  # type: ignore[arg-type]
    with open(path, "w", encoding="utf-8") as out:
        json.dump(figures.slow, out)


def _time_rows(figures: WorldFigures) -> list[tuple[str, str]]:
    """The figures' rows of sample times."""
    return [
        ("sample time, median", f"{figures.percentile(0.5) * 1000:.1f} ms"),
        ("sample time, 99th percentile", f"{figures.percentile(0.99) * 1000:.1f} ms"),
        ("sample time, most", f"{max(figures.times, default=0.0) * 1000:.0f} ms"),
        ("samples over 200 ms", f"{sum(t > 0.2 for t in figures.times):,}"),
    ]


def _preset_of(rules: Rules) -> str:
    """The preset ``rules`` start from (claim window and reshuffle limit aside)."""
    for name in Rules.presets():
        preset = Rules.preset(name)
        if (
            rules.replace(claim_window=preset.claim_window, reshuffle_limit=preset.reshuffle_limit)
            == preset
        ):
            return name
    return "other"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playout-every", type=int, default=50, help="play on every Nth sample")
    parser.add_argument(
        "--certify-every", type=int, default=10, help="replay the deal of every Nth sample"
    )
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--worlds",
        type=int,
        default=0,
        metavar="DEALS",
        help="instead: sample every seat at every step of DEALS deals whose windows tell most",
    )
    parser.add_argument("--every", type=int, default=1, help="with --worlds: every Nth step")
    parser.add_argument(
        "--no-certify",
        action="store_true",
        help="with --worlds: sample only (do not also prove each position reachable)",
    )
    parser.add_argument(
        "--latency",
        type=int,
        default=0,
        metavar="DEALS",
        help="instead: sample every seat at every step of DEALS deals of three players "
        "under the standard rules, and print how long a sample takes",
    )
    parser.add_argument(
        "--mahjong",
        type=int,
        default=0,
        metavar="DEALS",
        help="instead: Simple Mahjong, a sampled world from every seat at every step of DEALS "
        "deals under every rules combination that constrains hidden hands",
    )
    parser.add_argument(
        "--save-slow",
        metavar="FILE",
        help="with --worlds, --latency or --retime: write the samples that took at least --slow-ms "
        "(position, viewer, key, time; the slowest first) to FILE as JSON",
    )
    parser.add_argument("--slow-ms", type=float, default=50.0, help="with --save-slow (50)")
    parser.add_argument(
        "--retime",
        metavar="FILE",
        help="instead: sample each view saved by --save-slow in FILE again, from --keys fresh "
        "keys each (drawn from --seed), and print how long the samples take",
    )
    parser.add_argument(
        "--keys",
        type=int,
        default=4,
        help=f"with --retime: keys a view (1 to {RETIME_KEYS_MOST:,})",
    )
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    if args.retime:
        if not 1 <= args.keys <= RETIME_KEYS_MOST:
            parser.error(f"--keys must be from 1 to {RETIME_KEYS_MOST:,}")
        try:
            return _main_retime(
                args.retime, args.keys, args.seed, args.docs, argv,
                save_slow=args.save_slow, slow_ms=args.slow_ms,
            )  # fmt: skip
        except (OSError, ValueError, RecursionError) as error:  # (JSON nested too deep)
            parser.error(f"--retime: {error or type(error).__name__}")
    if args.mahjong:
        return _main_mahjong(args.mahjong, args.seed, args.every, args.docs, argv)
    if args.worlds:
        return _main_worlds(
            args.worlds, args.seed, args.every, args.docs, argv, prove=not args.no_certify,
            save_slow=args.save_slow, slow_ms=args.slow_ms,
        )  # fmt: skip
    if args.latency:
        return _main_worlds(
            args.latency, args.seed, args.every, args.docs, argv, standard=True,
            save_slow=args.save_slow, slow_ms=args.slow_ms,
        )  # fmt: skip
    start = time.perf_counter()
    figures = soak(args.deals, args.seed, args.playout_every, args.verbose, args.certify_every)
    elapsed = time.perf_counter() - start
    print(f"deals played        {figures.deals:>10,}")
    print(f"steps               {figures.steps:>10,}")
    print(f"samples checked     {figures.samples:>10,}")
    print(f"samples played out  {figures.playouts:>10,}")
    print(f"deals reshuffled    {figures.reshuffled_deals:>10,}")
    print(f"waiting-pon steps   {figures.waiting_pons:>10,}")
    print(f"samples certified   {figures.certified:>10,}")
    for kind, count in sorted(figures.by_rules.items()):
        print(f"  {kind:<45}{count:>9,}")
    print(f"time                {elapsed:>10.1f} s")
    print(f"failures            {len(figures.failures):>10,}")
    for failure in figures.failures[:20]:
        print("  " + failure)
    if args.docs:
        rows = [
            ("deals played", f"{figures.deals:,}"),
            ("steps", f"{figures.steps:,}"),
            ("sampled worlds checked", f"{figures.samples:,}"),
            ("sampled worlds played out to the end", f"{figures.playouts:,}"),
            ("deals with a reshuffle of the discards", f"{figures.reshuffled_deals:,}"),
            ("steps with a waiting pon", f"{figures.waiting_pons:,}"),
            ("sampled worlds proved reachable (their deal replayed)", f"{figures.certified:,}"),
            *(
                (f"sampled worlds, {kind}", f"{count:,}")
                for kind, count in sorted(figures.by_rules.items())
            ),
            ("time", f"{elapsed:,.0f} s"),
            ("failures", f"**{len(figures.failures):,}**"),
        ]
        _docs.write(
            args.docs,
            [_docs.provenance("soak.py", argv), _docs.table(("figure", "value"), rows)],
        )
    return 1 if figures.failures else 0


def _main_worlds(
    deals: int,
    seed: int,
    every: int,
    docs: str | None,
    argv: list[str] | None,
    standard: bool = False,
    prove: bool = True,
    save_slow: str | None = None,
    slow_ms: float = 0.0,
) -> int:
    start = time.perf_counter()
    slow_ms = slow_ms if save_slow else 0.0
    if standard:
        figures = worlds(
            deals, seed, every, rules_list=(Rules(),), table=3, prove=False, slow_ms=slow_ms
        )
    else:
        figures = worlds(deals, seed, every, prove=prove, slow_ms=slow_ms)
    elapsed = time.perf_counter() - start
    if save_slow:
        _save_slow(figures, save_slow)
    rows = [
        ("deals played", f"{figures.deals:,}"),
        *(
            [("positions certified reachable", f"{figures.certified:,} of {figures.states:,}")]
            if figures.states
            else []
        ),
        ("samples", f"{figures.samples:,}"),
        *_time_rows(figures),
        ("failures", f"{len(figures.failures):,}"),
        ("time", f"{elapsed:,.0f} s"),
    ]
    return _report(rows, figures.failures, docs, argv)


def mahjong_rules() -> tuple[mahjong.Rules, ...]:
    """Every combination of the mahjong rules that constrain hidden hands
    (claim windows, declining a win, self-drawn wins), on the standard and the
    full presets."""
    return tuple(
        mahjong.Rules.preset(preset).replace(
            claim_window=window, may_decline_win=decline, self_draw_win=draw
        )
        for preset in ("standard", "full")
        for window in ("able_only", "every_eligible")
        for decline in (False, True)
        for draw in ("automatic", "declared")
    )


def mahjong_worlds(deals: int, seed: int, every: int = 1) -> WorldFigures:
    """Play ``deals`` Simple Mahjong deals over :func:`mahjong_rules`, 2 to 4
    players, random, eager and passive play, and at every ``every``-th step
    sample a world from each real seat's view. Each world must look the same
    from that seat, pass the sampler's own tests of what the engine could
    have reached, hold one full set of tiles, and play on."""
    figures = WorldFigures()
    rng = random.Random(seed)
    combos = mahjong_rules()
    eager_kinds = (mahjong.Draw, mahjong.Pass, mahjong.Discard)
    for k in range(deals):
        rules = combos[k % len(combos)]
        style = k % 3
        players = 2 + (k // (3 * len(combos))) % 3
        deal_seed = rng.getrandbits(32)
        state = mahjong.deal(rules, players=players, seed=deal_seed)
        where = f"deal {k}: {rules.changes() or 'standard'}, {players} players, seed {deal_seed}"
        step = 0
        while True:
            figures.states += 1
            for viewer in state.real_seats if step % every == 0 else ():
                view = mahjong.observe(state, viewer)
                key = rng.getrandbits(32)
                start = time.process_time()
                try:
                    world = mahjong.sample_state(view, key)
                except Exception as error:  # report, with the seed, and go on
                    figures.failures.append(
                        f"{where}, step {step}, viewer {viewer}, key {key}: {error!r}"
                    )
                    continue
                finally:
                    figures.times.append(time.process_time() - start)
                    figures.samples += 1
                problem = _mahjong_check(world, view)
                if problem:
                    figures.failures.append(f"{where}, step {step}, viewer {viewer}: {problem}")
                else:
                    figures.certified += 1
            if state.is_over:
                break
            actions: list[mahjong.Action] = list(mahjong.legal_actions(state))
            if style == 1:
                actions = [a for a in actions if not isinstance(a, eager_kinds)] or actions
            elif style == 2:
                actions = [a for a in actions if isinstance(a, eager_kinds)] or actions
            state = mahjong.apply(state, actions[rng.randrange(len(actions))])
            step += 1
        figures.deals += 1
    return figures


def _mahjong_check(world: mahjong.GameState, view: mahjong.Observation) -> str | None:
    """What is wrong with a sampled mahjong world, if anything."""
    from sevenbridge.mahjong import views as _mj_views
    from sevenbridge.mahjong.engine import check_state

    if mahjong.observe(world, view.viewer) != view:
        return "the sample looks different"
    if not _mj_views._reachable(world, view):
        return "the sample fails the sampler's tests of a reachable position"
    try:
        check_state(world)
        if not world.is_over:
            mahjong.apply(world, mahjong.legal_actions(world)[0])
    except Exception as error:
        return f"the sample is broken: {error!r}"
    return None


def _main_mahjong(
    deals: int, seed: int, every: int, docs: str | None, argv: list[str] | None
) -> int:
    start = time.perf_counter()
    figures = mahjong_worlds(deals, seed, every)
    elapsed = time.perf_counter() - start
    rows = [
        ("deals played", f"{figures.deals:,}"),
        ("positions", f"{figures.states:,}"),
        ("samples", f"{figures.samples:,}"),
        ("samples checked", f"{figures.certified:,}"),
        ("sample time, median", f"{figures.percentile(0.5) * 1000:.2f} ms"),
        ("sample time, 99th percentile", f"{figures.percentile(0.99) * 1000:.2f} ms"),
        ("sample time, most", f"{max(figures.times, default=0.0) * 1000:.1f} ms"),
        ("failures", f"{len(figures.failures):,}"),
        ("time", f"{elapsed:,.0f} s"),
    ]
    return _report(rows, figures.failures, docs, argv)


def _report(
    rows: list[tuple[str, str]], failures: list[str], docs: str | None, argv: list[str] | None
) -> int:
    """Print ``rows`` and the first failures, write the docs' table if asked:
    1 if anything failed."""
    for name, value in rows:
        print(f"{name:<32}{value:>20}")
    for failure in failures[:20]:
        print("  " + failure)
    if docs:
        _docs.write(
            docs, [_docs.provenance("soak.py", argv), _docs.table(("figure", "value"), rows)]
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

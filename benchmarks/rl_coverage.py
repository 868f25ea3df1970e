"""How much of each action numbering and tensor layout a learner ever uses.

Run ``python benchmarks/rl_coverage.py`` (a few minutes: 3,000 deals per preset
at three players, half of them random, half greedy) or ``--quick`` for a smoke
run. Needs numpy. For each preset it counts, over every position of the deals:

- the ids of :class:`sevenbridge.rl.ActionSpace` and of
  :class:`sevenbridge.rl.CompactActionSpace` that were legal at least once,
  out of the numbering's size;
- the share of the entries of the observation tensor, full and compact, that
  are not zero on average (the tensor of the player to act).

Random play tries every legal move sooner or later; greedy play (the bots'
:class:`~sevenbridge.bots.GreedyPlayer` at every seat) melds and lays off
much more. Counts, not timings: the figures are the same on any machine.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

import sevenbridge as sb
from sevenbridge.bots import GreedyPlayer
from sevenbridge.rl import ActionSpace, CompactActionSpace, observation_tensor

try:
    from benchmarks import _docs
except ModuleNotFoundError:  # run as a script: benchmarks/ itself is on the path
    import _docs  # type: ignore[import-not-found, no-redef]

PLAYERS = 3


def survey(preset: str, deals: int, seed: int = 0) -> dict[str, Any]:
    """The counts of one preset over ``deals`` deals (half random, half greedy)."""
    rules = sb.Rules.preset(preset)
    full = ActionSpace(rules, PLAYERS)
    compact = CompactActionSpace(rules, PLAYERS)
    seen_full: set[int] = set()
    seen_compact: set[int] = set()
    positions = 0
    nonzero_full = nonzero_compact = 0.0
    rng = random.Random(seed)
    for i in range(deals):
        greedy = GreedyPlayer(seed + i) if i % 2 else None
        state = sb.deal(rules, players=PLAYERS, seed=seed + i)
        while not state.is_over:
            legal = sb.legal_actions(state)
            seen_full.update(full.legal_ids(state))
            seen_compact.update(compact.legal_ids(state))
            if i % 10 == 0:  # the tensors of a tenth of the deals
                view = sb.observe(state)
                nonzero_full += float(np.count_nonzero(observation_tensor(view))) / full_len(rules)
                nonzero_compact += float(
                    np.count_nonzero(observation_tensor(view, compact=True))
                ) / compact_len(rules)
                positions += 1
            action = greedy(sb.observe(state)) if greedy else rng.choice(legal)
            state = sb.apply(state, action)
    return {
        "preset": preset,
        "deals": deals,
        "full_size": full.size,
        "full_ever_legal": len(seen_full),
        "compact_size": compact.size,
        "compact_ever_legal": len(seen_compact),
        "full_tensor": full_len(rules),
        "compact_tensor": compact_len(rules),
        "full_nonzero_share": nonzero_full / max(1, positions),
        "compact_nonzero_share": nonzero_compact / max(1, positions),
    }


def full_len(rules: sb.Rules) -> int:
    from sevenbridge.rl import observation_tensor_size

    return observation_tensor_size(rules, PLAYERS)


def compact_len(rules: sb.Rules) -> int:
    from sevenbridge.rl import observation_tensor_size

    return observation_tensor_size(rules, PLAYERS, compact=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few deals")
    parser.add_argument("--deals", type=int, default=None, help="deals per preset")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    deals = args.deals if args.deals is not None else (6 if args.quick else 3000)
    results = [survey(preset, deals) for preset in ("standard", "seven_rummy", "nintendo")]
    for r in results:
        print(
            f"{r['preset']:<12} ids ever legal: full {r['full_ever_legal']:,} of "
            f"{r['full_size']:,}, compact {r['compact_ever_legal']:,} of {r['compact_size']:,}; "
            f"tensor entries not zero: full {r['full_nonzero_share']:.1%} of "
            f"{r['full_tensor']:,}, compact {r['compact_nonzero_share']:.1%} of "
            f"{r['compact_tensor']:,}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
    if args.docs:
        _docs.write(args.docs, docs_blocks(results, argv))
    return 0


def docs_blocks(results: list[dict[str, Any]], argv: Sequence[str] | None) -> list[str]:
    """The figures as Markdown blocks, for ``--docs``."""
    rows = []
    for r in results:
        rows.append(
            (
                f"`{r['preset']}`",
                f"{r['full_ever_legal']:,} of {r['full_size']:,} "
                f"({r['full_ever_legal'] / r['full_size']:.0%})",
                f"{r['compact_ever_legal']:,} of {r['compact_size']:,} "
                f"({r['compact_ever_legal'] / r['compact_size']:.0%})",
                f"{r['full_nonzero_share']:.1%} of {r['full_tensor']:,}",
                f"{r['compact_nonzero_share']:.1%} of {r['compact_tensor']:,}",
            )
        )
    return [
        _docs.provenance("rl_coverage.py", argv),
        f"Three players, {results[0]['deals']:,} deals per preset (half random, half greedy):"
        " the ids legal at least once, and the share of the observation tensor's entries"
        " that are not zero (on average, over the positions of a tenth of the deals):",
        _docs.table(
            (
                "preset",
                "full ids ever legal",
                "compact ids ever legal",
                "full tensor, not zero",
                "compact tensor, not zero",
            ),
            rows,
        ),
    ]


if __name__ == "__main__":
    raise SystemExit(main())

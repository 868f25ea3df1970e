"""How well the shipped belief model places the hidden cards, on fresh deals.

``python benchmarks/bench_beliefs.py`` plays new self-play deals the way
``examples/train_beliefs.py`` records them (greedy, search and network seats
mixed, every preset in turn, 2 to 5 players), from another seed than the
training's, and prints, per preset and overall, the mean log-loss (nats per
hidden card with two places or more) of the shipped model
(:func:`sevenbridge.rl.shipped_belief_model`) and of the even prior
(:func:`sevenbridge.inference.place_prior`), with the mean difference and its
95% interval over deals (the cards of one deal are not independent). ``--deals
30`` is a first look; ``--quick`` runs in seconds. Needs numpy.
"""

from __future__ import annotations

import argparse
import math
import runpy
import statistics
from pathlib import Path
from typing import Any

import numpy as np

from sevenbridge.rl import shipped_belief_model

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_beliefs.py"


def losses(data: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Per recorded card: the model's and the even prior's log-loss."""
    model = shipped_belief_model()
    x, mask, label = data["x"], data["mask"], data["label"]
    n = len(label)
    chances = model.probabilities_of(x, mask)
    mine = -np.log(chances[np.arange(n), label] + 1e-12)
    prior = -x[np.arange(n), label, -1]
    return mine, prior


def _interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+.4f}"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=float, default=0.05)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.keep, args.iterations = 6, 0.2, 4
    example = runpy.run_path(str(EXAMPLE), run_name="train_beliefs")
    data = example["record"](args.deals, args.keep, args.iterations, args.seed)
    mine, prior = losses(data)
    presets = example["PRESETS"]
    print(f"{len(mine)} hidden cards of {args.deals} deals (seed {args.seed}), "
          f"{shipped_belief_model().name}: log-loss in nats a card")  # fmt: skip
    print("preset        cards   model   even prior   model less prior, by deal [95%]")
    groups = [(p, [d for d in range(args.deals) if d % len(presets) == i])
              for i, p in enumerate(presets)] + [("all", list(range(args.deals)))]  # fmt: skip
    for name, deals in groups:
        keep = np.isin(data["deal"], deals)
        if not keep.any():
            continue
        per_deal = [
            float((mine[data["deal"] == d] - prior[data["deal"] == d]).mean())
            for d in deals
            if (data["deal"] == d).any()
        ]
        print(f"{name:<12} {int(keep.sum()):>6}  {mine[keep].mean():.4f}   {prior[keep].mean():.4f}"
              f"       {_interval(per_deal)}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

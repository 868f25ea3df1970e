"""Self-play REINFORCE with numpy alone, measured against RandomPlayer.

A linear softmax policy reads :func:`sevenbridge.rl.observation_tensor` and
scores only the legal ids of :class:`sevenbridge.rl.ActionSpace` (the mask). It
plays every seat of a three-player deal against itself; each seat's moves are
reinforced by the seat's :func:`sevenbridge.returns` at the end of the deal.
Every ``--every`` training deals it is evaluated (sampling its moves) against two
RandomPlayers, rotating its seat; the final evaluation reports the mean return
per deal with a 95% confidence interval (a RandomPlayer in its place averages
0, as returns are zero-sum and the seats symmetric).

Run ``python examples/train_reinforce.py`` (a few minutes on two cores), or with
``--deals 200 --eval 100`` for a quick look; ``--plot curve.png`` draws the
learning curve (needs matplotlib). Needs numpy (``pip install "sevenbridge[rl]"``).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from sevenbridge import Rules, apply, deal, observe, returns
from sevenbridge.bots import RandomPlayer
from sevenbridge.rl import ActionSpace, observation_tensor, observation_tensor_size

PLAYERS = 3
SCALE = 50.0  # returns are card points; this brings them near 1


class Policy:
    """Logits ``W[id] @ x + b[id]`` over the legal ids only."""

    def __init__(self, actions: int, features: int) -> None:
        self.w = np.zeros((actions, features), dtype=np.float32)
        self.b = np.zeros(actions, dtype=np.float32)

    def probabilities(
        self, x: npt.NDArray[np.float32], legal: list[int]
    ) -> npt.NDArray[np.float64]:
        logits = self.w[legal] @ x + self.b[legal]
        logits = logits.astype(np.float64) - logits.max()
        p = np.exp(logits)
        return np.asarray(p / p.sum(), dtype=np.float64)


#: One decision: (the seat's return, or the seat before the deal ends; the
#: observation; the legal ids; the index chosen among them; their probabilities).
Step = tuple[float, npt.NDArray[np.float32], list[int], int, npt.NDArray[np.float64]]


def play_training_deal(
    policy: Policy, space: ActionSpace, rules: Rules, seed: int, rng: np.random.Generator
) -> list[Step]:
    """One self-play deal: every real decision, with its seat's return."""
    state = deal(rules, players=PLAYERS, seed=seed)
    steps: list[Step] = []
    while not state.is_over:
        legal = space.legal_ids(state)
        p = state.current_player
        assert p is not None
        if len(legal) == 1:  # a forced move teaches nothing
            state = apply(state, space.decode(legal[0], state))
            continue
        x = observation_tensor(observe(state, p))
        probs = policy.probabilities(x, legal)
        k = int(rng.choice(len(legal), p=probs))
        steps.append((float(p), x, legal, k, probs))
        state = apply(state, space.decode(legal[k], state))
    final = returns(state)
    return [(final[int(p)], x, legal, k, probs) for p, x, legal, k, probs in steps]


def update(policy: Policy, steps: Sequence[Step], lr: float) -> None:
    """The REINFORCE step: raise the log-probability of each move by its seat's return."""
    for g, x, legal, k, probs in steps:
        advantage = g / SCALE
        grad = -probs
        grad[k] += 1.0
        step = (lr * advantage * grad).astype(np.float32)
        policy.w[legal] += np.outer(step, x)
        policy.b[legal] += step


def evaluate(
    policy: Policy, space: ActionSpace, rules: Rules, deals: int, seed: int
) -> tuple[float, float, float]:
    """Mean return per deal of the policy (sampling its moves, as in training)
    against RandomPlayers, its 95% confidence half-width, and the share of deals
    it won. Untrained, the policy is uniform over the legal ids: a RandomPlayer."""
    results = []
    wins = 0
    rng = np.random.default_rng(seed)
    for i in range(deals):
        seat = i % PLAYERS
        bots = [RandomPlayer(seed + 7 * i + q) for q in range(PLAYERS)]
        state = deal(rules, players=PLAYERS, seed=seed + i)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            if p == seat:
                legal = space.legal_ids(state)
                x = observation_tensor(observe(state, p))
                k = int(rng.choice(len(legal), p=policy.probabilities(x, legal)))
                state = apply(state, space.decode(legal[k], state))
            else:
                state = apply(state, bots[p](observe(state, p)))
        results.append(returns(state)[seat])
        wins += state.winner == seat
    mean = float(np.mean(results))
    half = 1.96 * float(np.std(results, ddof=1)) / math.sqrt(deals)
    return mean, half, wins / deals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=6000, help="self-play training deals")
    parser.add_argument("--eval", type=int, default=2000, help="deals of the final evaluation")
    parser.add_argument("--every", type=int, default=500, help="evaluate every N training deals")
    parser.add_argument("--checkpoint-eval", type=int, default=300, help="deals per checkpoint")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="write the learning curve to this image (matplotlib)")
    args = parser.parse_args(argv)
    rules = Rules.standard()
    space = ActionSpace(rules, PLAYERS)
    policy = Policy(space.size, observation_tensor_size(rules, PLAYERS))
    rng = np.random.default_rng(args.seed)
    curve: list[tuple[int, float, float]] = []
    start = time.perf_counter()
    mean, half, _ = evaluate(policy, space, rules, args.checkpoint_eval, 10**6)
    curve.append((0, mean, half))
    print(f"deals 0: mean return {mean:+.2f} ± {half:.2f} against RandomPlayer")
    for i in range(1, args.deals + 1):
        update(
            policy,
            play_training_deal(policy, space, rules, (args.seed * 10**6 + i) % 2**64, rng),
            args.lr,
        )
        if i % args.every == 0 or i == args.deals:
            mean, half, _ = evaluate(policy, space, rules, args.checkpoint_eval, 10**6)
            curve.append((i, mean, half))
            print(
                f"deals {i}: mean return {mean:+.2f} ± {half:.2f} against RandomPlayer "
                f"({time.perf_counter() - start:.0f} s)"
            )
    mean, half, won = evaluate(policy, space, rules, args.eval, 2 * 10**6)
    print(
        f"final, {args.eval} deals: mean return {mean:+.2f} ± {half:.2f} (95% CI) per deal, "
        f"won {won:.0%} of deals (a RandomPlayer averages 0 and wins about 33%); "
        f"{time.perf_counter() - start:.0f} s in all"
    )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        xs = [c[0] for c in curve]
        ys = np.array([c[1] for c in curve])
        err = np.array([c[2] for c in curve])
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot(xs, ys, marker="o", label="REINFORCE policy vs 2 RandomPlayers")
        ax.fill_between(xs, ys - err, ys + err, alpha=0.25, label="95% CI")
        ax.axhline(0.0, color="grey", linestyle="--", label="RandomPlayer")
        ax.set_xlabel("self-play training deals")
        ax.set_ylabel("mean return per deal")
        ax.legend(loc="lower right")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
        print(f"learning curve written to {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

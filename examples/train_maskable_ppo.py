"""Train sb3-contrib's MaskablePPO on the Gymnasium environment, with no wrapper.

Needs torch and sb3-contrib (``pip install sb3-contrib``, which brings
stable-baselines3; a CPU build of torch is enough). The environment gives
MaskablePPO what it asks for as it is: ``action_masks()`` for the legal ids, a
float32 observation between 0 and 1, and, with ``reward="normalized"``, a
reward between -1 and 1 worked out from the rules (no hand-picked scale). The
compact encoding (``encoding="compact"``) halves the numbering and the
observation.

The learner sits at seat 0 against two RandomPlayers for a few thousand steps,
then plays ``--eval`` deals against them through
:func:`sevenbridge.rl.policy_player` (the trained model as a library player)
and prints its mean return in points, where a RandomPlayer in its seat
averages 0.

Run ``python examples/train_maskable_ppo.py`` (a minute or two) or with
``--steps 256 --eval 4`` for a quick look.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Sequence
from typing import Any


def evaluate(model: Any, space: Any, deals: int, seed: int) -> list[float]:
    """The model's return in points at seat 0 against two RandomPlayers, per deal."""
    from sevenbridge import apply, deal, observe, returns
    from sevenbridge.bots import RandomPlayer
    from sevenbridge.rl import policy_player

    def policy(x: Any, mask: Any) -> int:
        action, _ = model.predict(x, action_masks=mask, deterministic=True)
        return int(action)

    learner = policy_player(policy, space)
    out = []
    for i in range(deals):
        seats: list[Any] = [learner, RandomPlayer(seed + 2 * i), RandomPlayer(seed + 2 * i + 1)]
        state = deal(space.rules, players=3, seed=seed + i)
        while state.current_player is not None:
            state = apply(state, seats[state.current_player](observe(state)))
        out.append(returns(state)[0])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=4096, help="training steps")
    parser.add_argument("--eval", type=int, default=200, help="evaluation deals")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO

    from sevenbridge.bots import RandomPlayer
    from sevenbridge.envs.gymnasium import SevenBridgeEnv  # (importing registers the environment)

    env = gymnasium.make(
        "sevenbridge/SevenBridge-v0",
        players=3,
        opponents=RandomPlayer,
        auto_forced=True,
        encoding="compact",
        reward="normalized",
    )
    torch.set_num_threads(1)  # a small network: one thread is the fastest
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=256, batch_size=64, seed=args.seed, device="cpu", verbose=0
    )
    model.learn(total_timesteps=args.steps)
    inner = env.unwrapped
    assert isinstance(inner, SevenBridgeEnv)
    results = evaluate(model, inner.space, args.eval, seed=10_000 + args.seed)
    mean = statistics.fmean(results)
    half = 1.96 * statistics.stdev(results) / math.sqrt(len(results)) if len(results) > 1 else 0.0
    print(
        f"MaskablePPO after {args.steps} steps, {len(results)} deals against two RandomPlayers: "
        f"mean return {mean:+.1f} ± {half:.1f} points (95% CI; a RandomPlayer averages 0)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

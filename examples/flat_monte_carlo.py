"""A determinized flat Monte Carlo bot: the baseline that ISMCTSPlayer is measured against.

For each of its worlds it deals the cards it cannot see at random
(``sample_state``), tries every legal action in that world, and plays the deal
on to its end with the fast greedy playout (``sevenbridge.playout``, every seat
played by ``GreedyPlayer``'s moves); it keeps the action with the best mean
return (``returns``: the deal's result under the rules' scoring, higher always
better). Every action meets the same worlds, so the luck of the hidden cards
falls on all of them alike. It has no tree: its own later moves, and the
others', are the greedy policy's.

Play one deal against two greedy bots::

    python examples/flat_monte_carlo.py

Or play it in a tournament, as an external bot (``--playouts`` per decision,
spread over the legal actions; more costs more time)::

    sevenbridge tournament --bots "cmd:python examples/flat_monte_carlo.py --serve,ismcts,greedy"
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from sevenbridge import (
    Action,
    GameState,
    Observation,
    Rules,
    apply,
    deal,
    legal_actions,
    observe,
    returns,
    sample_state,
)
from sevenbridge.bots import GreedyPlayer, Player
from sevenbridge.playout import playout

#: Playouts per decision unless told otherwise.
DEFAULT_PLAYOUTS = 300


class FlatMonteCarloPlayer:
    """Flat Monte Carlo with greedy playouts, reproducible from its seed.

    Args:
        seed: Seeds the worlds and the playouts' tie-breaks.
        playouts: Playouts per decision, shared equally among the legal
            actions (each gets at least one world).
    """

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self._rng = random.Random(seed)
        self.playouts = playouts

    def __call__(self, view: Observation) -> Action:
        actions = legal_actions(view)
        if len(actions) == 1:
            return actions[0]
        me = view.viewer
        totals = [0.0] * len(actions)
        for _ in range(max(1, self.playouts // len(actions))):
            world = sample_state(view, self._rng.getrandbits(63))
            for i, action in enumerate(actions):
                end = playout(
                    apply(world, action), "greedy", seed=self._rng.getrandbits(63), history=False
                )
                totals[i] += returns(end)[me]
        best = max(range(len(actions)), key=totals.__getitem__)
        return actions[best]


def play_one(seed: int, playouts: int) -> GameState:
    """A deal of the bot (seat 0) against two greedy bots."""
    state = deal(Rules(), players=3, seed=seed)
    bots: list[Player] = [
        FlatMonteCarloPlayer(seed, playouts),
        GreedyPlayer(seed + 1),
        GreedyPlayer(seed + 2),
    ]
    while not state.is_over:
        state = apply(state, bots[state.current_player or 0](observe(state)))
    return state


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--serve", action="store_true", help="play over the sevenbridge-bot protocol"
    )
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.serve:
        from sevenbridge.external import serve

        return serve(lambda seed: FlatMonteCarloPlayer(seed, args.playouts), name="flat-mc")
    end = play_one(args.seed, min(args.playouts, 40))
    print(f"{end.end_reason}; scores {end.deal_scores}; returns {returns(end)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

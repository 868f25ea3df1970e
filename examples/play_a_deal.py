"""Play one deal between two greedy bots and a random one, then print the table."""

from __future__ import annotations

from sevenbridge import Rules, apply, deal, observe
from sevenbridge.bots import GreedyPlayer, Player, RandomPlayer


def main() -> None:
    state = deal(Rules.nintendo(), players=3, seed=2026)
    players: list[Player] = [GreedyPlayer(seed=1), GreedyPlayer(seed=2), RandomPlayer(seed=3)]
    while not state.is_over:
        assert state.current_player is not None
        state = apply(state, players[state.current_player](observe(state)))
    print(state)
    print(f"{len(state.history)} actions; {state.end_reason}")


if __name__ == "__main__":
    main()

"""A small search bot: for each legal action, sample the hidden cards from the
player's observation and play the deal out at random; keep the action that
scores best on average. It shows observe(), sample_state() and the pure engine
working together; it is a sketch, not a strong player."""

from __future__ import annotations

import random

from sevenbridge import Action, GameState, Rules, apply, deal, legal_actions, observe, sample_state
from sevenbridge.bots import RandomPlayer


def rollout(state: GameState, rng: random.Random) -> GameState:
    while not state.is_over:
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
    return state


def choose(state: GameState, samples: int, rng: random.Random) -> Action:
    me = state.current_player
    assert me is not None
    view = observe(state, me)  # the bot only uses what it may know
    actions = legal_actions(view)
    if len(actions) == 1:
        return actions[0]
    best, best_value = actions[0], float("-inf")
    for action in actions:
        total = 0
        for _ in range(samples):
            guess = sample_state(view, rng)
            end = rollout(apply(guess, action), rng)
            total += (end.deal_scores or ())[me] if end.deal_scores else 0
        if total > best_value:
            best, best_value = action, total
    return best


def main(seed: int = 7, samples: int = 4) -> None:
    rng = random.Random(seed)
    state = deal(Rules(), players=3, seed=seed)
    opponent = RandomPlayer(seed)
    while not state.is_over:
        if state.current_player == 0:
            state = apply(state, choose(state, samples, rng))
        else:
            state = apply(state, opponent(observe(state)))
    print(f"{state.end_reason}; scores {state.deal_scores}")


if __name__ == "__main__":
    main()

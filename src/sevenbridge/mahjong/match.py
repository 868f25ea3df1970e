"""Matches: a number of rounds (16 by default) with a rotating dealer.

>>> from sevenbridge.mahjong import Rules
>>> from sevenbridge.mahjong.bots import GreedyPlayer
>>> result = play_match([GreedyPlayer(seed=s) for s in range(3)], rules=Rules(rounds=4), seed=9)
>>> len(result.rounds), sum(result.totals) == sum(r.points for r in result.rounds)
(4, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from .._kit import checks as _checks
from .._kit.rng import derive, fresh_seed
from ..errors import Message
from .actions import Action
from .engine import apply, deal, ghost_seats
from .rules import DealerRotation, Rules, require_rules
from .state import GameState, outcome, seats
from .views import Observation, observe

__all__ = ["MatchResult", "RoundResult", "match_end", "next_dealer", "play_match"]


@attrs.frozen
class RoundResult:
    """How one round of a match went."""

    number: int
    """The round's number, from 0."""
    dealer: int
    """The dealer's seat."""
    seed: int
    """The round's seed (``deal(rules, players=..., dealer=..., seed=seed)`` deals it again)."""
    winner: int | None
    """The winner's seat, or ``None`` for a drawn round."""
    points: int
    """The winner's points (0 for a drawn round)."""
    self_drawn: bool
    """Whether the winning tile came from the wall."""
    moves: tuple[Action, ...]
    """Every action of the round, in order."""
    final: GameState
    """The round's last position."""


@attrs.frozen
class MatchResult:
    """A finished match: its rounds and each seat's total."""

    rules: Rules
    """The rules."""
    players: int
    """Real players."""
    seed: int
    """The match's seed."""
    rounds: tuple[RoundResult, ...]
    """The rounds in order."""
    totals: tuple[int, ...]
    """Each seat's points (ghosts' seats stay 0)."""
    ghosts: tuple[int, ...] = ()
    """The ghosts' seats."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The real players' seats with the highest total."""
        real = [s for s in range(len(self.totals)) if s not in self.ghosts]
        top = max(self.totals[s] for s in real)
        return tuple(s for s in real if self.totals[s] == top)


def _round_seed(key: int, number: int) -> int:
    """The seed of round ``number`` (from 0) of a match with the seed ``key``."""
    return derive(key, number) >> 1


def next_dealer(rules: Rules, state: GameState) -> int:
    """Who deals after the round that ended in ``state``: the next real player
    clockwise, unless the rules let a winning dealer deal again.

    >>> from sevenbridge.mahjong import deal
    >>> next_dealer(Rules(ghosts=True), deal(Rules(ghosts=True), players=2, seed=1))
    2
    """
    if rules.dealer_rotation is DealerRotation.DEALER_KEEPS_ON_WIN and state.winner == state.dealer:
        return state.dealer
    seat = (state.dealer + 1) % state.seats
    while seat in state.ghosts:
        seat = (seat + 1) % state.seats
    return seat


def match_end(positions: Sequence[GameState]) -> tuple[int, ...] | None:
    """Who won a match, from its positions in order (what
    :func:`~sevenbridge.mahjong.replay_match` gives): the real players with the
    highest total once every round is played, ``None`` while the match goes on.

    >>> from sevenbridge.mahjong import record_match, replay_match
    >>> from sevenbridge.mahjong.bots import GreedyPlayer
    >>> result = play_match([GreedyPlayer(seed=s) for s in range(3)], rules=Rules(rounds=2), seed=9)
    >>> match_end(replay_match(record_match(result))) == result.winners
    True
    """
    ended = [found for state in positions if (found := outcome(state)) is not None]
    if not positions or len(ended) < positions[0].rules.rounds:
        return None
    totals = [sum(column) for column in zip(*(found.scores for found in ended), strict=True)]
    real = seats(positions[0])
    top = max(totals[s] for s in real)
    return tuple(s for s in real if totals[s] == top)


def play_match(
    players: Sequence[Callable[[Observation], Action]],
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    dealer: int = 0,
    on_action: Callable[[GameState, Action, GameState], None] | None = None,
) -> MatchResult:
    """Play ``rules.rounds`` rounds between bots (one for each real player, in
    seat order of the real seats) and add up the points.

    Args:
        players: 2 to 4 players, each called with the view of its seat.
        rules: The rules (standard by default).
        seed: The match's seed; round ``k`` is dealt from ``derive(seed, k)``.
        dealer: The first dealer (a real seat).
        on_action: Called after every action with the state before, the action
            and the state after (for printing a game as it goes).

    Raises:
        InvalidArgumentError: for a table size, seed or dealer out of range.
    """
    rules = Rules() if rules is None else require_rules(rules)
    bots = list(players)
    n = _checks.integer(
        len(bots),
        "players",
        2,
        4,
        Message("why.mahjong_players", " (mahjong is for 2 to 4 players)"),
    )
    key = _checks.seed(seed)
    key = fresh_seed() if key is None else key
    ghosts = ghost_seats(n, rules.ghosts)
    seats = 4 if ghosts else n
    real = [s for s in range(seats) if s not in ghosts]
    by_seat = dict(zip(real, bots, strict=True))
    totals = [0] * seats
    results = []
    current = dealer
    for number in range(rules.rounds):
        seed_k = _round_seed(key, number)
        state = deal(rules, players=n, dealer=current, seed=seed_k)
        moves = []
        while not state.is_over:
            action = by_seat[state.current_player](observe(state))
            after = apply(state, action)
            if on_action is not None:
                on_action(state, action, after)
            moves.append(action)
            state = after
        if state.winner is not None:
            totals[state.winner] += state.points
        results.append(
            RoundResult(
                number=number,
                dealer=current,
                seed=seed_k,
                winner=state.winner,
                points=state.points,
                self_drawn=state.self_drawn,
                moves=tuple(moves),
                final=state,
            )
        )
        current = next_dealer(rules, state)
    return MatchResult(
        rules=rules, players=n, seed=key, rounds=tuple(results), totals=tuple(totals), ghosts=ghosts
    )

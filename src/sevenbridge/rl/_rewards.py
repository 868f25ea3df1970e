"""Rewards for learners: the returns in points, normalized, or win/loss, and
the bounds of each, worked out from the scoring rules.

:func:`utility_bounds` is the least and the most any player's
:func:`sevenbridge.returns` can be under a set of rules and a table size,
:func:`rewards` a finished deal's rewards of one kind (:data:`REWARDS`), and
:func:`reward_bounds` the bounds of that kind. Re-exported by
:mod:`sevenbridge.rl`; the environments take the kind as their ``reward``
option.

Why the bounds hold (the docs' "Learning and search" page says it at length):
a loser holds at most seven cards when a deal ends (every turn starts with at
most seven, adds one card by a draw and ends with a discard; a claim only
takes cards from the hand), so what the losers hold together is at most the
best split of the deck into ``players - 1`` disjoint hands of seven cards,
which :func:`_most_held` finds exactly. The returns are then linear in what
the losers hold, the bonus and the table size.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from .._kit import checks as _checks
from ..cards import JOKER_INDEX
from ..errors import InvalidArgumentError, Message
from ..rules import Rules, Scoring
from ..scoring import points_of_indexes

__all__ = ["REWARDS", "reward_bounds", "rewards", "utility_bounds"]

#: The kinds of reward the environments offer: ``"points"``,
#: :func:`sevenbridge.returns` itself; ``"normalized"``, the returns divided by
#: the largest size :func:`utility_bounds` allows, so that they lie in [-1, 1];
#: ``"win"``, 1 for the player who goes out and ``-1 / (players - 1)`` for each
#: other (0 for everyone in a void deal).
REWARDS = ("points", "normalized", "win")

#: The most cards a loser holds when a deal ends.
HAND_AT_END = 7
#: The points a Nintendo winner who goes out at once takes off.
_PENALTY_BONUS = 50


def check_reward(value: Any) -> str:
    """``value`` if it is one of :data:`REWARDS`.

    Raises:
        InvalidArgumentError: for anything else.
    """
    if not isinstance(value, str) or value not in REWARDS:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.reward_must_be",
                "reward must be 'points', 'normalized' or 'win', not {reward}",
                reward=repr(value),
            )
        )
    return value


def _most_held(rules: Rules, hands: int, joker: bool = True) -> int:
    """The most hand points that ``hands`` disjoint hands of at most
    :data:`HAND_AT_END` cards of the rules' deck can hold together (without
    the joker when not ``joker``).

    A hand's points are its cards' values times a factor (a doubling for each
    seven under the alternate and Nintendo values, the joker's multiplier), so
    the split is chosen by the sevens and the joker: for each way to share the
    four sevens and the joker among the hands, the other cards go, best first,
    to the hands in order of their factor (given the factors, that is the best
    fill: swapping two cards between hands can only lose). Every order of the
    hands is tried, so no factor needs to be known here: the hands are counted
    by :func:`sevenbridge.scoring.points_of_indexes` itself.
    """
    sevens = [s * 13 + 6 for s in range(4)]
    others = sorted(
        (c for c in range(52) if c % 13 != 6),
        key=lambda c: (-points_of_indexes((c,), rules), c),
    )
    joker_places: list[int | None] = [None]
    if rules.jokers and joker:
        joker_places += list(range(hands))
    best = 0
    for shares in itertools.product(range(5), repeat=hands):
        if sum(shares) > 4 or any(k > HAND_AT_END for k in shares):
            continue
        for place in joker_places:
            base: list[list[int]] = []
            taken = 0
            for h, k in enumerate(shares):
                base.append(sevens[taken : taken + k] + ([JOKER_INDEX] if place == h else []))
                taken += k
            if any(len(b) > HAND_AT_END for b in base):
                continue
            for order in itertools.permutations(range(hands)):
                hand = [list(b) for b in base]
                pool = iter(others)
                for h in order:
                    while len(hand[h]) < HAND_AT_END:
                        hand[h].append(next(pool))
                best = max(best, sum(points_of_indexes(cards, rules) for cards in hand))
    return best


def _least_single(rules: Rules) -> int:
    """The fewest points a hand of one natural card counts."""
    return min(points_of_indexes((c,), rules) for c in range(52))


@functools.lru_cache(maxsize=256)
def _card_bounds(rules: Rules, players: int) -> tuple[float, float]:
    # Each bound is the return of a seat whose score is ``mine`` when the
    # deal's scores add up to ``total``, worked out as returns() does it (the
    # same float operations in the same order, so a return equal to a bound
    # is equal to it exactly).
    n = players
    losers = _most_held(rules, n - 1)
    if rules.scoring is Scoring.WINNER_SCORES:
        won = losers * (2 if rules.going_out_bonus else 1)
        return (0 - won / n, won - won / n)
    bonus = _PENALTY_BONUS if rules.going_out_bonus else 0
    # The best return: the winner's, who takes the bonus off.
    high = -1.0 * (-bonus - (losers - bonus) / n)
    # The worst: a loser holding the most a hand can count while the other
    # losers hold one card each, as little as a card counts (or the joker
    # alone, which counts 0, when the worst hand does without it).
    least = _least_single(rules)
    worst = _most_held(rules, 1)
    low = -1.0 * (worst - (worst + (n - 2) * least - bonus) / n)
    if rules.jokers and n >= 3:
        worst = _most_held(rules, 1, joker=False)
        low = min(low, -1.0 * (worst - (worst + (n - 3) * least - bonus) / n))
    return (low, high)


def _mahjong_points(rules: Any) -> int:
    """The most points a mahjong winner can score: one, a point for each of the
    three dragons' pungs, and one for a concealed self-drawn hand."""
    return 1 + 3 * bool(rules.dragon_pung_bonus) + bool(rules.concealed_bonus)


def utility_bounds(rules: Any, players: int) -> tuple[float, float]:
    """The least and the most any player's :func:`sevenbridge.returns` can be
    under ``rules`` at a table of ``players``, as ``(low, high)``.

    Worked out from the scoring rules, not measured: no deal can pass them,
    and the highest is reached by a deal in which the losers are left with the
    best cards the deck has for them (the test suite plays one). Typical deals
    stay far inside (see the docs' "Learning and search" page). The mahjong
    :class:`~sevenbridge.mahjong.Rules` give the bounds of
    :func:`sevenbridge.mahjong.returns`, ``players`` then counting the real
    players.

    Raises:
        TypeError: if ``rules`` is neither game's rules.
        InvalidArgumentError: for a table size out of range.

    >>> from sevenbridge import Rules
    >>> utility_bounds(Rules.standard(), 3)
    (-120.0, 240.0)
    >>> utility_bounds(Rules.nintendo(), 2)
    (-1945.0, 1945.0)
    """
    if type(rules) is not Rules:
        from ._mahjong import is_mahjong

        if is_mahjong(rules):
            from .._kit.checks import integer

            n = integer(players, "players", 2, 4)
            points = _mahjong_points(rules)
            return (0 - points / n, points - points / n)  # as mahjong.returns works them out
    _checks.instance(rules, Rules, "rules", "a Rules value")
    return _card_bounds(rules, _checks.players(players))


def reward_bounds(rules: Any, players: int, reward: str = "points") -> tuple[float, float]:
    """The least and the most reward of the kind ``reward`` (one of
    :data:`REWARDS`) a player can get, as ``(low, high)``.

    >>> from sevenbridge import Rules
    >>> reward_bounds(Rules.standard(), 3, "normalized")
    (-0.5, 1.0)
    >>> reward_bounds(Rules.standard(), 3, "win")
    (-0.5, 1.0)
    """
    kind = check_reward(reward)
    low, high = utility_bounds(rules, players)
    if kind == "points":
        return (low, high)
    if kind == "normalized":
        scale = max(high, -low)
        return (low / scale, high / scale)
    return (-1 / (players - 1), 1.0)


def rewards(state: Any, reward: str = "points") -> tuple[float, ...]:
    """Each player's reward of the kind ``reward`` (one of :data:`REWARDS`)
    for a finished deal (or round of mahjong), one number per seat; zeros for
    a deal in progress or a void deal.

    ``"points"`` is :func:`sevenbridge.rl.returns`; ``"normalized"`` the same
    divided by the larger size of :func:`utility_bounds` (so between -1 and
    1, still adding up to zero); ``"win"`` is 1 for the winner and
    ``-1 / (players - 1)`` for every other player (a mahjong ghost's seat
    gets 0).

    Raises:
        TypeError: if ``state`` is neither game's state or observation.
        InvalidArgumentError: for an unknown kind.

    >>> from sevenbridge import apply, deal, observe
    >>> from sevenbridge.bots import GreedyPlayer
    >>> state, bot = deal(seed=1), GreedyPlayer(1)
    >>> while not state.is_over:
    ...     state = apply(state, bot(observe(state)))
    >>> state.deal_scores, rewards(state, "win")
    ((0, 0, 55), (-0.5, -0.5, 1.0))
    >>> [round(r, 4) for r in rewards(state, "normalized")]   # the returns / 240
    [-0.0764, -0.0764, 0.1528]
    """
    from ._mahjong import returns

    kind = check_reward(reward)
    points = returns(state)
    if kind == "points":
        return points
    rules = state.rules
    if type(rules) is Rules:
        real = tuple(range(state.players))
    else:
        real = state.real_seats if hasattr(state, "real_seats") else _real_seats(state)
    if kind == "normalized":
        low, high = utility_bounds(rules, len(real))
        scale = max(high, -low)
        return tuple(p / scale for p in points)
    winner = state.winner
    if winner is None:
        return (0.0,) * len(points)
    lose = -1 / (len(real) - 1)
    return tuple(1.0 if s == winner else lose if s in real else 0.0 for s in range(len(points)))


def _real_seats(view: Any) -> tuple[int, ...]:
    """The real players' seats of a mahjong view."""
    ghosts = view.ghosts
    return tuple(s for s in range(view.seats) if s not in ghosts)

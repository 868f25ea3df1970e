"""Simple mahjong players for demos, tests and baselines.

A player is any callable that takes an :class:`~sevenbridge.mahjong.Observation`
(what the seat to act may know) and returns one of its legal actions. The bots
here also accept a whole :class:`~sevenbridge.mahjong.GameState` and then look only
at the view of the player to act.

>>> from sevenbridge.mahjong import deal, apply, observe
>>> bots = [GreedyPlayer(seed=1), RandomPlayer(seed=2)]
>>> state = deal(players=2, seed=1)
>>> while not state.is_over:
...     state = apply(state, bots[state.current_player](observe(state)))
>>> state.is_over
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from .._kit import checks as _checks
from ..errors import Message
from .actions import Action, Chow, Discard, Kong, Mahjong, Pass, Pung
from .errors import InvalidArgumentError
from .hands import wait_kinds
from .legal import legal_actions
from .state import GameState, Phase
from .tiles import N_KINDS, Tile
from .views import Observation, observe

__all__ = ["GreedyPlayer", "Player", "RandomPlayer", "shanten", "shortlist"]


class Player(Protocol):
    """Anything that picks a legal action for the seat whose view it is given."""

    def __call__(self, view: Observation, /) -> Action: ...


def _view(position: Observation | GameState) -> Observation:
    if isinstance(position, GameState):
        if position.is_over:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.round_over_player_has",
                    "the round is over: a player has no action to choose",
                )
            )
        position = observe(position)
    if not isinstance(position, Observation):
        raise TypeError(
            f"view must be a mahjong Observation (or GameState), not {_checks.type_name(position)}"
        )
    if not position.legal_actions:
        if position.is_over:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.round_over_player_has",
                    "the round is over: a player has no action to choose",
                )
            )
        raise InvalidArgumentError(
            Message(
                "invalid_argument.it_seat_decision_not",
                "it is seat {current_player}'s decision, not seat {viewer}'s",
                current_player=str(position.current_player),
                viewer=str(position.viewer),
            )
        )
    return position


class RandomPlayer:
    """Picks uniformly among the legal actions, from a seed."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = _checks.seeded_rng(seed)

    def __call__(self, view: Observation | GameState, /) -> Action:
        return self._rng.choice(_view(view).legal_actions)

    def _choose_at(self, state: GameState, player: int) -> Action:
        """``self(observe(state, player))`` without building the view, for the
        current ``player`` of a running round (what the environments'
        opponents call)."""
        return self._rng.choice(legal_actions(state))


# --- a hand's distance from a win ---------------------------------------------------


@lru_cache(maxsize=200_000)
def _group_options(counts: tuple[int, ...], runs: bool) -> frozenset[tuple[int, int]]:
    """Every (sets, partial sets) a group of counts can be cut into (Pareto best)."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return frozenset({(0, 0)})
    c = list(counts)
    found: set[tuple[int, int]] = set()

    def take(tiles: tuple[int, ...], sets: int, partials: int) -> None:
        for k in tiles:
            c[k] -= 1
        if all(c[k] >= 0 for k in tiles):
            for m, t in _group_options(tuple(c), runs):
                found.add((m + sets, t + partials))
        for k in tiles:
            c[k] += 1

    take((i,), 0, 0)  # the tile stays alone
    take((i, i, i), 1, 0)
    take((i, i), 0, 1)
    if runs:
        if i + 2 < len(c):
            take((i, i + 1, i + 2), 1, 0)
            take((i, i + 2), 0, 1)
        if i + 1 < len(c):
            take((i, i + 1), 0, 1)
    return _pareto(found)


def _pareto(found: set[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """The (sets, partial sets) pairs no other pair beats on both counts."""
    return frozenset(
        (m, t)
        for m, t in found
        if not any(m2 >= m and t2 >= t and (m2, t2) != (m, t) for m2, t2 in found)
    )


@lru_cache(maxsize=200_000)
def _group_options_with_pair(counts: tuple[int, ...], runs: bool) -> frozenset[tuple[int, int]]:
    """Like :func:`_group_options` once the hand's pair is taken from this group
    (empty when the group holds no pair)."""
    found: set[tuple[int, int]] = set()
    for k, c in enumerate(counts):
        if c >= 2:
            found |= _group_options((*counts[:k], c - 2, *counts[k + 1 :]), runs)
    return _pareto(found)


def _groups(counts: list[int]) -> list[tuple[tuple[int, ...], bool]]:
    return [
        (tuple(counts[0:9]), True),
        (tuple(counts[9:18]), True),
        (tuple(counts[18:27]), True),
        (tuple(counts[27:34]), False),
    ]


@lru_cache(maxsize=100_000)
def _distance(options: tuple[frozenset[tuple[int, int]], ...], melds: int) -> int:
    """Tiles from waiting, given each group's options and the sets on the table:
    each set counts two, each partial set one, at most four sets and partials.
    (Few option sets exist, so their combinations repeat: hence the cache.)"""
    room = 4 - melds
    totals = {(0, 0)}
    for group in options:
        totals = {(m + a, t + b) for m, t in totals for a, b in group}
    best = 0
    for m, t in totals:
        m = min(m, room)
        best = max(best, 2 * m + min(t, room - m))
    return 8 - 2 * melds - best


def shanten(tiles: tuple[Tile, ...] | list[Tile], melds: int = 0) -> int:
    """How many tiles a hand is from waiting to win (0: it waits; -1: it has won),
    counting its ``melds`` sets already on the table.

    >>> from sevenbridge.mahjong import parse_tiles
    >>> shanten(parse_tiles("123m 456m 789m 111p 5s"))
    0
    >>> shanten(parse_tiles("123m 456m 789m 111p 55s"))
    -1

    A hand whose only waits are on tiles it holds all four of waits for
    nothing (there is no fifth copy): it is one tile away, like
    :func:`~sevenbridge.mahjong.waits` says.

    >>> shanten(parse_tiles("111444m 7777p SSS"))
    1
    """
    return _shanten(tuple(sorted(tiles)), melds)


@lru_cache(maxsize=100_000)
def _shanten(tiles: tuple[Tile, ...], melds: int) -> int:
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    groups = _groups(counts)
    plain = [_group_options(group, runs) for group, runs in groups]
    paired = [_group_options_with_pair(group, runs) for group, runs in groups]
    best = _best(plain, paired, melds)
    if best == 0 and not _really_waits(list(tiles), counts, len(tiles) + 3 * melds):
        return 1
    return best


def _best(
    plain: list[frozenset[tuple[int, int]]],
    paired: list[frozenset[tuple[int, int]]],
    melds: int,
) -> int:
    """The distance of the best cut: with no pair, or the pair from one group."""
    best = _distance(tuple(plain), melds)
    for i, options in enumerate(paired):
        if options:
            best = min(best, _distance((*plain[:i], options, *plain[i + 1 :]), melds) - 1)
    return best


def _shanten_after_discards(hand: tuple[Tile, ...], melds: int) -> dict[Tile, int]:
    """:func:`shanten` of the hand less one tile, for each kind it holds: a
    discard changes one group, so the other groups' cuts are reused."""
    counts = [0] * N_KINDS
    for t in hand:
        counts[t] += 1
    groups = _groups(counts)
    plain = [_group_options(group, runs) for group, runs in groups]
    paired = [_group_options_with_pair(group, runs) for group, runs in groups]
    found: dict[Tile, int] = {}
    for tile in set(hand):
        g, i = divmod(int(tile), 9)
        group, runs = groups[g]
        less = (*group[:i], group[i] - 1, *group[i + 1 :])
        p, q = list(plain), list(paired)
        p[g], q[g] = _group_options(less, runs), _group_options_with_pair(less, runs)
        best = _best(p, q, melds)
        if best == 0:  # the fifth-copy check of a hand that seems to wait
            rest = list(hand)
            rest.remove(tile)
            best = shanten(rest, melds)
        found[tile] = best
    return found


def _really_waits(tiles: list[Tile], counts: list[int], size: int) -> bool:
    """Whether a hand the count of sets and pairs calls one tile from a win
    has a wait on a tile that still exists (after a discard, for 14 tiles)."""
    if size % 3 == 0:  # no hand size of the game: the count stands
        return True
    if size % 3 == 1:
        return bool(wait_kinds(tiles, counts))
    for k in set(tiles):
        rest = list(tiles)
        rest.remove(k)
        counts[k] -= 1
        found = bool(wait_kinds(rest, counts))
        counts[k] += 1
        if found:
            return True
    return False


def _links(hand: tuple[Tile, ...], tile: Tile) -> int:
    """How well a tile fits the hand: copies and neighbours within two."""
    score = 3 * (hand.count(tile) - 1)
    if tile < 27:
        for d in (-2, -1, 1, 2):
            other = tile + d
            if 0 <= other < 27 and other // 9 == tile // 9 and other in hand:
                score += 2 if abs(d) == 1 else 1
    return score


def shortlist(view: Observation) -> tuple[Action, ...]:
    """The moves a search should weigh for the viewer (a subset of its legal
    actions): a win when there is one; in the play phase the discards that keep
    the hand closest to a win, and any kong; in a claim window every option.

    >>> from sevenbridge.mahjong import deal, apply, observe, Draw
    >>> view = observe(apply(deal(seed=7), Draw(0)))
    >>> len(shortlist(view)) < len(view.legal_actions)
    True
    """
    actions = view.legal_actions
    wins = tuple(a for a in actions if isinstance(a, Mahjong))
    if wins:
        return wins
    if view.phase is not Phase.PLAY:
        return actions
    distances = _shanten_after_discards(view.hand, len(view.melds_of(view.viewer)))
    low = min(distances[a.tile] for a in actions if isinstance(a, Discard))
    return tuple(a for a in actions if not isinstance(a, Discard) or distances[a.tile] == low)


class GreedyPlayer:
    """Always wins when it can; otherwise discards the tile whose loss keeps the
    hand closest to a win (the least connected one among equals), and claims or
    makes a set only when that brings the hand closer to a win."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = _checks.seeded_rng(seed)

    def __call__(self, view: Observation | GameState, /) -> Action:
        view = _view(view)
        return self._decide(view, view.viewer, view.legal_actions, view.hand)

    def _choose_at(self, state: GameState, player: int) -> Action:
        """``self(observe(state, player))`` without building the view, for the
        current ``player`` of a running round: the same choice and the same
        draws of the generator (what the environments' opponents call)."""
        return self._decide(state, player, legal_actions(state), state.hands[player])

    def _decide(
        self,
        view: Observation | GameState,
        viewer: int,
        actions: tuple[Action, ...],
        hand: tuple[Tile, ...],
    ) -> Action:
        """The choice of :meth:`__call__` from a view or a state (the
        player's public fields are the same in both)."""
        if len(actions) == 1:
            return actions[0]
        for action in actions:
            if isinstance(action, Mahjong):
                return action
        melds = len(view.melds_of(viewer))
        if view.phase is Phase.CLAIM:
            assert view.last_discard is not None
            now = shanten(hand, melds)
            best: Action = next(a for a in actions if isinstance(a, Pass))
            for action in actions:
                if isinstance(action, (Pung, Kong, Chow)):
                    rest = list(hand)
                    used = (
                        list(action.tiles)
                        if isinstance(action, Chow)
                        else [view.last_discard] * (3 if isinstance(action, Kong) else 2)
                    )
                    for t in used:
                        rest.remove(t)
                    after = (
                        min(
                            shanten([*rest[:i], *rest[i + 1 :]], melds + 1)
                            for i in range(len(rest))
                        )
                        if not isinstance(action, Kong)
                        else shanten(rest, melds + 1)
                    )
                    if after < now:
                        best, now = action, after
            return best
        discards = [a for a in actions if isinstance(a, Discard)]
        distances = _shanten_after_discards(hand, melds)
        scored = [(distances[a.tile], _links(hand, a.tile), a) for a in discards]
        low = min(s[:2] for s in scored)
        best_discards = [a for s, links, a in scored if (s, links) == low]
        for action in actions:
            if isinstance(action, Kong):
                rest = [t for t in hand if t != action.tile]
                if shanten(rest, melds + 1) <= low[0]:
                    return action
        return self._rng.choice(best_discards)

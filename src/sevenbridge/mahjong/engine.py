"""The pure mahjong engine: :func:`deal`, :func:`legal_actions` and :func:`apply`.

Every function takes a frozen :class:`~sevenbridge.mahjong.GameState` and returns a
new one; nothing is changed in place, and randomness comes only from the seed
(or the wall) given to :func:`deal`. The rules of play (the legal actions and
the step) live in a module for each family of rules, which the compiled
build compiles: ``turn`` (drawing, discarding, kongs from the hand, the wall
running out), ``claims`` (what a discard may be claimed for, whom the window
asks, which claim wins), ``legal`` (the legal actions and their cache) and
``step`` (:func:`apply`), over ``_fields`` (the one module that knows how a
state keeps its fields) and ``_ops`` (the engine's form of an action). This
module deals; ``explain`` says why an action is illegal.

>>> from sevenbridge.mahjong import deal, legal_actions, apply
>>> state = deal(seed=7)
>>> legal_actions(state)
(Draw(0),)
>>> state = apply(state, legal_actions(state)[0])
>>> state.phase.value, len(state.hands[0])
('play', 14)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .._kit import checks as _checks
from .._kit.rng import derive, fresh_seed, shuffled
from ..errors import Message
from .errors import InvalidArgumentError, InvalidStateError
from .legal import legal_actions
from .rules import Rules, require_rules
from .state import GameState, Phase, lying
from .step import apply
from .tiles import N_KINDS, Tile, full_wall, tile_list

__all__ = [
    "PLAYER_COUNTS",
    "apply",
    "check_table",
    "deal",
    "ghost_seats",
    "legal_actions",
    "stacked_wall",
]

#: Tiles dealt to each seat.
HAND_SIZE = 13
#: The table sizes :func:`deal` accepts: 2 to 4 real players (with ghosts in
#: the empty seats when the rules ask for them).
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)


def ghost_seats(players: int, ghosts: bool) -> tuple[int, ...]:
    """Where ghosts sit: seats 1 and 3 at a table of two, seat 3 at a table of
    three, none at four (or without ghosts).

    >>> ghost_seats(2, True), ghost_seats(3, True), ghost_seats(3, False)
    ((1, 3), (3,), ())
    """
    if not ghosts or players == 4:
        return ()
    return (1, 3) if players == 2 else (3,)


# --- dealing -----------------------------------------------------------------------


def check_table(rules: Rules | None, players: int) -> tuple[Rules, int]:
    """The rules (``None``: the standard rules) and the number of real players
    of a round, checked as :func:`deal` checks them: the game protocol's
    question (:class:`~sevenbridge.games.GameModule`), asked by a tournament
    before it deals.

    >>> check_table(None, 2)[1]
    2

    Raises:
        TypeError: for rules that are not a mahjong :class:`Rules` value, or a
            number of players that is not an int.
        InvalidArgumentError: for a number of players other than 2 to 4.
    """
    rules = Rules() if rules is None else require_rules(rules)
    players = _checks.integer(
        players,
        "players",
        PLAYER_COUNTS[0],
        PLAYER_COUNTS[-1],
        Message("why.mahjong_players", " (mahjong is for 2 to 4 players)"),
    )
    return rules, players


def deal(
    rules: Rules | None = None,
    *,
    players: int = 4,
    dealer: int = 0,
    seed: int | None = None,
    wall: Iterable[Tile | str] | str | None = None,
) -> GameState:
    """Shuffle (or take) a wall and deal a round: 13 tiles to every seat.

    The wall is dealt 13 tiles at a time, starting with the dealer and going
    clockwise; the rest is the wall to draw from. Bonus tiles in a hand are set
    aside and replaced from the back of the wall, seat by seat from the dealer.

    Args:
        players: Real players, 2 to 4. With ``rules.ghosts`` a table of two or
            three gets ghosts in the empty seats (see :func:`ghost_seats`), and
            the real players sit at the other seats.
        dealer: The dealer's seat (a real player's).
        rules: The rules (``None``: the standard rules).
        seed: Seeds the shuffle and the ghosts' discards (a fresh one if ``None``);
            the state keeps it (:attr:`~GameState.seed`).
        wall: A stacked wall: every tile of the set in the order to deal, used
            instead of shuffling (for tests and puzzles).

    Raises:
        InvalidArgumentError: for a table size, dealer or seed out of range, or a
            wall that is not exactly the rules' set of tiles.

    >>> state = deal(players=2, seed=5, rules=Rules(ghosts=True))
    >>> state.seats, state.ghosts
    (4, (1, 3))
    """
    rules, n = check_table(rules, players)
    ghosts = ghost_seats(n, rules.ghosts)
    seats = 4 if ghosts else n
    first = _checks.seat(dealer, seats, "dealer")
    if first in ghosts:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.dealer_must_real_player",
                "dealer must be a real player's seat, not ghost seat {first}",
                first=str(first),
            )
        )
    key = _checks.seed(seed)
    full = full_wall(flowers=rules.flowers, seasons=rules.seasons)
    if wall is None:
        key = fresh_seed() if key is None else key
        order = shuffled(full, derive(key, 0))
    else:
        order = tile_list(wall, "wall")
        if Counter(order) != Counter(full):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.wall",
                    "wall: {wall_problem}",
                    wall_problem=_wall_problem(order, full),
                )
            )
        key = 0 if key is None else key
    hands: list[list[Tile]] = []
    place = [0] * seats
    for k in range(seats):
        seat = (first + k) % seats
        place[seat] = k
    for seat in range(seats):
        k = place[seat]
        hands.append(list(order[HAND_SIZE * k : HAND_SIZE * (k + 1)]))
    rest = list(order[HAND_SIZE * seats :])
    bonus: list[list[Tile]] = [[] for _ in range(seats)]
    for k in range(seats):
        seat = (first + k) % seats
        hand = hands[seat]
        while any(t >= N_KINDS for t in hand):
            kept = [t for t in hand if t < N_KINDS]
            bonus[seat].extend(t for t in hand if t >= N_KINDS)
            need = len(hand) - len(kept)
            hand = kept + [rest.pop() for _ in range(need)]
        hands[seat] = hand
    return GameState(
        rules=rules,
        players=n,
        seats=seats,
        ghosts=ghosts,
        dealer=first,
        hands=tuple(tuple(sorted(h)) for h in hands),
        wall=tuple(rest),
        discards=((),) * seats,
        melds=(),
        bonus=tuple(tuple(b) for b in bonus),
        phase=Phase.DRAW,
        turn=first,
        current_player=first,
        last_discard=None,
        claims=(),
        asking=(),
        drew=False,
        winner=None,
        self_drawn=False,
        ghost_key=derive(key, 1),
        seed=key,
        move_log=None,
    )


def stacked_wall(
    hands: Iterable[str | Iterable[Tile | str]],
    draws: str | Iterable[Tile | str] = (),
    *,
    rules: Rules | None = None,
    dealer: int = 0,
    back: str | Iterable[Tile | str] = (),
) -> tuple[Tile, ...]:
    """A wall that deals the given hands and draws, for :func:`deal`'s ``wall``.

    Args:
        hands: Each seat's 13 tiles, seat 0 first.
        draws: The next tiles drawn from the front of the wall, in order.
        rules: The rules (whose set of tiles the wall must hold).
        dealer: The dealer, as it will be given to :func:`deal`.
        back: Tiles for the back of the wall, the first one drawn first (the
            replacements after kongs and bonus tiles).

    The tiles not named fill the middle in set order.

    Raises:
        InvalidArgumentError: if a hand does not have 13 tiles, or the tiles
            named are more than the set has.

    >>> from sevenbridge.mahjong import Draw
    >>> wall = stacked_wall(["111222333m 4445p", "123567p 99p 123s 56s"], draws="5p")
    >>> state = apply(deal(players=2, wall=wall), Draw(0))
    >>> legal_actions(state)[-1]
    Mahjong(0)
    """
    rules = Rules() if rules is None else require_rules(rules)
    seat_hands = [tile_list(h, "hands") for h in hands]
    seats = len(seat_hands)
    for seat, hand in enumerate(seat_hands):
        if len(hand) != HAND_SIZE:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.hands_tiles_hand_has",
                    "hands[{seat}]: {n_hand} tiles, a hand has 13",
                    seat=seat,
                    n_hand=len(hand),
                )
            )
    front = tile_list(draws, "draws")
    tail = tile_list(back, "back")
    pool = Counter(full_wall(flowers=rules.flowers, seasons=rules.seasons))
    named = Counter([t for h in seat_hands for t in h] + list(front) + list(tail))
    over = named - pool
    if over:
        t = min(over)
        raise InvalidArgumentError(
            Message(
                "invalid_argument.stacked_wall_named_set",
                "stacked_wall: {named} of {t} named, the set has {pool}",
                named=str(named[t]),
                t=str(t),
                pool=str(pool[t]),
            )
        )
    middle = sorted((pool - named).elements())
    dealt = [seat_hands[(dealer + k) % seats] for k in range(seats)]
    return tuple(t for h in dealt for t in h) + front + tuple(middle) + tuple(reversed(tail))


def _wall_problem(order: tuple[Tile, ...], full: tuple[Tile, ...]) -> str:
    have, want = Counter(order), Counter(full)
    for t in sorted(set(have) | set(want)):
        if have[t] != want[t]:
            return Message(
                "mahjong.wall_count",
                "{have} of {tile} where the set has {want} ({given} tiles given, the set has {size})",
                have=have[t],
                tile=t,
                want=want[t],
                given=len(order),
                size=len(full),
            )
    return Message("mahjong.wall_set", "not the set of tiles")  # pragma: no cover


def check_state(state: GameState) -> None:
    """Raise InvalidStateError unless the state's tiles are exactly the rules' set."""
    seen: Counter[Tile] = Counter(state.wall)
    seen.update(lying(state.discards, state.taken))
    for seat in range(state.seats):
        seen.update(state.hands[seat])
        seen.update(state.bonus[seat])
    for m in state.melds:
        seen.update(m.tiles)
    full = Counter(full_wall(flowers=state.rules.flowers, seasons=state.rules.seasons))
    if seen != full:
        problem = _wall_problem(tuple(seen.elements()), tuple(full.elements()))
        raise InvalidStateError(
            Message(
                "invalid_state.state_tiles_are_not",
                "state: the tiles are not one full set: {problem}",
                problem=problem,
            )
        )

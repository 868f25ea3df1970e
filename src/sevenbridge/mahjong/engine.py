"""The pure mahjong engine: :func:`deal`, :func:`legal_actions` and :func:`apply`.

Every function takes a frozen :class:`~sevenbridge.mahjong.GameState` and returns a
new one; nothing is changed in place, and randomness comes only from the seed
(or the wall) given to :func:`deal`. The rules of play (the legal actions and
the step) live in the engine's kernel, ``sevenbridge.mahjong._kernel``, which
the compiled build compiles; this module deals, and says why an action is
illegal.

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
from .._kit import hooks as _hooks
from .._kit.rng import derive, fresh_seed, shuffled
from ..errors import Message
from ._kernel import apply, can_draw, legal_actions
from .actions import Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .errors import InvalidArgumentError, InvalidStateError
from .rules import Rules, require_rules
from .state import GameState, Phase, lying
from .tiles import N_KINDS, Tile, format_tiles, full_wall, tile_list

__all__ = ["PLAYER_COUNTS", "apply", "deal", "ghost_seats", "legal_actions", "stacked_wall"]

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
    rules = Rules() if rules is None else require_rules(rules)
    n = _checks.integer(
        players,
        "players",
        PLAYER_COUNTS[0],
        PLAYER_COUNTS[-1],
        Message("why.mahjong_players", " (mahjong is for 2 to 4 players)"),
    )
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


# --- why an action is illegal ------------------------------------------------------


def _why(state: GameState, action: Action) -> str:
    """Plain words naming the rule an illegal action breaks."""
    seat = action.player
    if state.phase is Phase.OVER:
        return Message("mahjong.round_over", "the round is over")
    if seat >= state.seats:
        return Message(
            "mahjong.there_no_seat_at",
            "there is no seat {seat} at a table of {seats}",
            seat=seat,
            seats=str(state.seats),
        )
    if seat != state.current_player:
        who = (
            Message("mahjong.who_asked", "asked about the discard")
            if state.phase is Phase.CLAIM
            else Message("mahjong.who_in_turn", "in turn")
        )
        return Message(
            "mahjong.it_seat_who_must",
            "it is seat {current_player} who must act ({who}), not seat {seat}",
            current_player=str(state.current_player),
            who=who,
            seat=seat,
        )
    phase = state.phase
    if legal_actions(state) == (Mahjong(seat),) and not isinstance(action, Mahjong):
        return Message(
            "mahjong.player_who_can_win",
            "a player who can win must declare it (Rules.may_decline_win is off)",
        )
    if isinstance(action, Draw):
        return Message(
            "mahjong.draw_starts_turn_now",
            "a draw starts a turn; now the {value} phase waits for another action",
            value=phase.value,
        )
    if isinstance(action, Discard):
        if phase is not Phase.PLAY:
            return Message(
                "mahjong.discard_ends_turn_after", "a discard ends a turn, after a draw or a claim"
            )
        return Message("mahjong.not_in_hand", "{tile} is not in the hand", tile=str(action.tile))
    if isinstance(action, Pass):
        return Message(
            "mahjong.only_player_asked_about", "only a player asked about a discard may pass"
        )
    if isinstance(action, Mahjong):
        if phase is Phase.PLAY and not state.drew:
            return Message(
                "mahjong.mahjong_one_own_needs",
                "a mahjong of one's own needs a tile drawn from the wall (a claim for a set is not one)",
            )
        if phase not in (Phase.PLAY, Phase.CLAIM):
            return Message(
                "mahjong.mahjong_declared_after_drawing",
                "a mahjong is declared after drawing, or by claiming a discard",
            )
        return Message(
            "mahjong.hand_with_claimed_tile",
            "the hand (with the claimed tile) is not four sets and a pair",
        )
    if isinstance(action, (Pung, Chow)) and phase is not Phase.CLAIM:
        return Message(
            "mahjong.claims_discard_none_open",
            "a {claim} claims a discard; none is open",
            claim=str(type(action).__name__.lower()),
        )
    if isinstance(action, Pung):
        return Message(
            "mahjong.pung_needs_two_in",
            "a pung needs two {last_discard} in the hand",
            last_discard=str(state.last_discard),
        )
    if isinstance(action, Chow):
        if seat != (state.turn + 1) % state.seats:
            return Message(
                "mahjong.only_player_next_after",
                "only the player next after the discarder may chow",
            )
        assert state.last_discard is not None
        tiles = sorted((*action.tiles, state.last_discard))
        if not (
            tiles[0] < 27
            and tiles[1] == tiles[0] + 1
            and tiles[2] == tiles[1] + 1
            and tiles[0] % 9 <= 6
        ):
            return Message(
                "mahjong.not_run_three_in",
                "{tiles} is not a run of three in one suit (honours never chow)",
                tiles=str(format_tiles(tiles)),
            )
        return Message(
            "mahjong.hand_does_not_hold",
            "the hand does not hold {tiles}",
            tiles=str(format_tiles(action.tiles)),
        )
    if isinstance(action, Kong):
        if not state.rules.kong:
            return Message(
                "mahjong.kongs_are_not_played", "kongs are not played (Rules.kong is off)"
            )
        if phase in (Phase.CLAIM, Phase.PLAY) and not can_draw(len(state.wall), state.rules):
            return Message(
                "mahjong.kong_needs_replacement",
                "a kong needs a replacement tile, and the wall has no tile left to draw",
            )
        if phase is Phase.CLAIM:
            if action.tile != state.last_discard:
                return Message(
                    "mahjong.kong_on_discard_must",
                    "a kong on a discard must be of the discard, {last_discard}",
                    last_discard=str(state.last_discard),
                )
            return Message(
                "mahjong.kong_on_discard_needs",
                "a kong on a discard needs three {tile} in the hand",
                tile=str(action.tile),
            )
        if phase is Phase.PLAY:
            return Message(
                "mahjong.kong_from_hand_needs",
                "a kong from the hand needs four {tile}, or one and an own pung of it",
                tile=str(action.tile),
            )
        return Message(
            "mahjong.kong_made_by_claim", "a kong is made by a claim or in the play phase"
        )
    return Message("mahjong.not_legal_action_here", "not a legal action here")  # pragma: no cover


_hooks.register("mahjong_diagnose", _why)


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

"""The pure mahjong engine: :func:`deal`, :func:`legal_actions` and :func:`apply`.

Every function takes a frozen :class:`~sevenbridge.mahjong.GameState` and returns a
new one; nothing is changed in place, and randomness comes only from the seed
(or the wall) given to :func:`deal`.

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
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from .._kit import checks as _checks
from .._kit.history import History
from .._kit.rng import derive, fresh_seed, shuffled
from ..errors import Message
from .actions import MAX_SEATS, Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .errors import IllegalActionError, InvalidArgumentError, InvalidStateError
from .hands import Meld, MeldKind, winning
from .rules import ClaimWindow, Rules, SelfDrawWin, require_rules
from .state import GameState, Phase, lying
from .tiles import N_KINDS, TILE_KINDS, Tile, format_tiles, full_wall, tile_list

__all__ = ["PLAYER_COUNTS", "apply", "deal", "ghost_seats", "legal_actions", "stacked_wall"]

#: Tiles dealt to each seat.
HAND_SIZE = 13
#: The table sizes :func:`deal` accepts: 2 to 4 real players (with ghosts in
#: the empty seats when the rules ask for them).
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)

# Shared action values: legal_actions hands out the same objects every time.
_DRAW = tuple(Draw(p) for p in range(MAX_SEATS))
_PASS = tuple(Pass(p) for p in range(MAX_SEATS))
_PUNG = tuple(Pung(p) for p in range(MAX_SEATS))
_MAHJONG = tuple(Mahjong(p) for p in range(MAX_SEATS))
_DISCARD = tuple(tuple(Discard(p, t) for t in TILE_KINDS) for p in range(MAX_SEATS))
_KONG = tuple(tuple(Kong(p, t) for t in TILE_KINDS) for p in range(MAX_SEATS))
_CHOW: dict[tuple[int, int, int], Chow] = {}


def _chow(player: int, a: int, b: int) -> Chow:
    key = (player, a, b)
    action = _CHOW.get(key)
    if action is None:
        action = _CHOW[key] = Chow(player, (TILE_KINDS[a], TILE_KINDS[b]))
    return action


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


# --- legal actions -------------------------------------------------------------------


def _counts(hand: tuple[Tile, ...]) -> list[int]:
    counts = [0] * N_KINDS
    for t in hand:
        counts[t] += 1
    return counts


def _can_draw(state: GameState) -> bool:
    """Whether the wall still has a tile to draw (beyond the reserve): a turn
    starts with a draw, and a kong needs a replacement, only then."""
    return len(state.wall) > state.rules.reserve


def _claim_options(
    state: GameState, seat: int, tile: Tile, discarder: int | None = None
) -> list[Action]:
    """What ``seat`` may do with the open discard ``tile``, Pass first."""
    hand = state.hands[seat]
    out: list[Action] = [_PASS[seat]]
    win = winning((*hand, tile))
    have = hand.count(tile)
    if have >= 2:
        out.append(_PUNG[seat])
    if have >= 3 and state.rules.kong and _can_draw(state):
        out.append(_KONG[seat][tile])
    turn = state.turn if discarder is None else discarder
    if tile < 27 and seat == (turn + 1) % state.seats:
        n = tile % 9
        held = set(hand)
        for lo in (n - 2, n - 1, n):
            if lo >= 0 and lo + 2 <= 8:
                base = tile - n + lo
                pair = [base + d for d in range(3) if base + d != tile]
                if pair[0] in held and pair[1] in held:
                    out.append(_chow(seat, pair[0], pair[1]))
    if win:
        if not state.rules.may_decline_win:
            return [_MAHJONG[seat]]
        out.append(_MAHJONG[seat])
    return out


def _rank(action: Action) -> int:
    """Claim precedence: mahjong 3, pung and kong 2, chow 1, pass 0."""
    if isinstance(action, Mahjong):
        return 3
    if isinstance(action, (Pung, Kong)):
        return 2
    return 1 if isinstance(action, Chow) else 0


#: What a seat may do with an open discard, and the precedence of claims, for
#: :func:`~sevenbridge.mahjong.sample_state`.
claim_options = _claim_options
claim_rank = _rank


def _play_options(state: GameState) -> list[Action]:
    seat = state.turn
    hand = state.hands[seat]
    if state.drew and winning(hand):
        if not state.rules.may_decline_win:
            return [_MAHJONG[seat]]
        win: list[Action] = [_MAHJONG[seat]]
    else:
        win = []
    discards = _DISCARD[seat]
    out: list[Action] = []
    previous = -1
    for t in hand:
        if t != previous:
            out.append(discards[t])
            previous = t
    if state.rules.kong and _can_draw(state):
        kongs = _KONG[seat]
        counts = _counts(hand)
        for kind in range(N_KINDS):
            if counts[kind] == 4:
                out.append(kongs[kind])
        for m in state.melds:
            if m.owner == seat and m.kind is MeldKind.PUNG and counts[m.tiles[0]]:
                out.append(kongs[m.tiles[0]])
    return out + win


def legal_actions(state: GameState | Any) -> tuple[Action, ...]:
    """The actions the player to act may take, in a fixed order (none once the
    round is over).

    In the draw phase: :class:`Draw`. In the play phase: a :class:`Discard` of
    each kind of tile held, then any :class:`Kong` from the hand, then
    :class:`Mahjong` when the drawn tile completes the hand. In the claim phase:
    :class:`Pass`, then :class:`Pung`, :class:`Kong`, :class:`Chow` and
    :class:`Mahjong` as the hand allows. When the rules forbid declining a win,
    :class:`Mahjong` is then the only action.

    ``state`` may also be an :class:`~sevenbridge.mahjong.Observation`: then the
    actions are the viewer's when the decision is theirs, and none otherwise.

    Raises:
        TypeError: for anything but a state or an observation.

    >>> from sevenbridge.mahjong import deal, observe
    >>> state = apply(deal(seed=7), Draw(0))
    >>> [str(a) for a in legal_actions(state)][:4]
    ['Discard 1m', 'Discard 3p', 'Discard 7p', 'Discard 9p']
    >>> legal_actions(observe(state, 0)) == legal_actions(state), legal_actions(observe(state, 1))
    (True, ())
    """
    if not isinstance(state, GameState):
        if hasattr(state, "viewer") and hasattr(state, "own_claims"):
            # An Observation: observe() stored the viewer's actions in it.
            view_actions: tuple[Action, ...] = state.legal_actions
            return view_actions
        raise TypeError(
            "legal_actions needs a mahjong GameState or Observation, not "
            + _checks.type_name(state)
        )
    cached: tuple[Action, ...] | None = state._legal
    if cached is not None:
        return cached
    phase = state.phase
    if phase is Phase.DRAW:
        out: tuple[Action, ...] = (_DRAW[state.current_player],)
    elif phase is Phase.PLAY:
        out = tuple(_play_options(state))
    elif phase is Phase.CLAIM:
        assert state.last_discard is not None
        out = tuple(_claim_options(state, state.current_player, state.last_discard))
    else:
        out = ()
    _set(state, "_legal", out)
    return out


# --- applying actions --------------------------------------------------------------


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
    if legal_actions(state) == (_MAHJONG[seat],) and not isinstance(action, Mahjong):
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
        if phase in (Phase.CLAIM, Phase.PLAY) and not _can_draw(state):
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


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action`` (added to its :attr:`~GameState.history`);
    ``state`` itself is never changed.

    Raises:
        IllegalActionError: if the action is not legal here; the reason names the rule.
        TypeError: if ``action`` is not a mahjong action.

    >>> from sevenbridge.mahjong import deal
    >>> apply(deal(seed=7), Pass(0))
    Traceback (most recent call last):
    ...
    sevenbridge.errors.IllegalActionError: illegal action Pass(0): only a player asked about a discard may pass
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a mahjong GameState, not {_checks.type_name(state)}")
    if action not in legal_actions(state):
        if not isinstance(action, (Draw, Discard, Chow, Pung, Kong, Mahjong, Pass)):
            raise TypeError(f"action must be a mahjong action, not {_checks.type_name(action)}")
        raise IllegalActionError(action, _why(state, action))
    after = _step(state, action)
    _set(after, "move_log", History(state.move_log, action))
    return after


def _step(state: GameState, action: Action) -> GameState:
    """Apply a legal action (unchecked)."""
    if isinstance(action, Draw):
        return _draw(state)
    if isinstance(action, Discard):
        return _discard(state, action.tile)
    if isinstance(action, Mahjong) and state.phase is Phase.PLAY:
        return _evolve(state, phase=Phase.OVER, winner=action.player, self_drawn=True)
    if isinstance(action, Kong) and state.phase is Phase.PLAY:
        return _kong_from_hand(state, action.tile)
    return _claim(state, action)


def _remove(hand: tuple[Tile, ...], tile: int, n: int = 1) -> tuple[Tile, ...]:
    out = list(hand)
    for _ in range(n):
        out.remove(tile)  # type: ignore[arg-type]
    return tuple(out)


_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.name != "_legal")
_new = object.__new__
_set = object.__setattr__


def _make_evolve() -> Callable[..., GameState]:
    """``attrs.evolve`` for the engine's own states, written out field by field
    with the slots' own setters and without re-running ``__init__`` (the engine's
    values are right by construction); the cached legal actions are cleared."""
    lines = ["def _evolve(state, **changes):", "    new = _new(GameState)"]
    namespace: dict[str, Any] = {"_new": _new, "GameState": GameState}
    for name in (*_FIELDS, "_legal"):
        namespace[f"set_{name}"] = GameState.__dict__[name].__set__
        value = "None" if name == "_legal" else f"changes.get({name!r}, state.{name})"
        lines.append(f"    set_{name}(new, {value})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)
    evolve: Callable[..., GameState] = namespace["_evolve"]
    return evolve


_evolve = _make_evolve()


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _take(state: GameState, seat: int, *, back: bool) -> dict[str, Any] | None:
    """Draw a tile for ``seat`` (from the front, or the back for a replacement),
    setting bonus tiles aside and replacing them: the changed fields, or ``None``
    when the wall is exhausted (the round is then drawn)."""
    wall = state.wall
    reserve = state.rules.reserve
    bonus = state.bonus
    while True:
        if len(wall) <= reserve:
            return None
        if back:
            tile, wall = wall[-1], wall[:-1]
        else:
            tile, wall = wall[0], wall[1:]
        if tile < N_KINDS:
            break
        bonus = _replace_at(bonus, seat, bonus[seat] + (tile,))
        back = True
    hand = tuple(sorted((*state.hands[seat], tile)))
    return {
        "wall": wall, "bonus": bonus, "hands": _replace_at(state.hands, seat, hand),
        "last_drawn": tile,
    }  # fmt: skip


def _drawn_out(state: GameState, **changes: Any) -> GameState:
    return _evolve(
        state, **changes, phase=Phase.OVER, last_discard=None, claims=(), asking=(), winner=None,
        last_drawn=None,
    )  # fmt: skip


def _after_draw(state: GameState, seat: int, taken: dict[str, Any]) -> GameState:
    """The player has just taken a tile from the wall: a win may end the round."""
    if (
        state.rules.self_draw_win is SelfDrawWin.AUTOMATIC
        and seat not in state.ghosts
        and winning(taken["hands"][seat])
    ):
        return _evolve(
            state, **taken, phase=Phase.OVER, winner=seat, self_drawn=True, turn=seat,
            current_player=seat,
        )  # fmt: skip
    return _evolve(
        state, **taken, phase=Phase.PLAY, turn=seat, current_player=seat, drew=True,
        last_discard=None, claims=(), asking=(),
    )  # fmt: skip


def _draw(state: GameState) -> GameState:
    seat = state.current_player
    taken = _take(state, seat, back=False)
    if taken is None:  # pragma: no cover - a draw phase always has a tile
        return _drawn_out(state)
    return _after_draw(state, seat, taken)


def _next_turn(state: GameState, seat: int, **changes: Any) -> GameState:
    """Start the turn of ``seat`` (with ``changes`` to the state): a real player is
    asked to draw; a ghost draws and discards a random tile at once (it never wins)."""
    if _can_draw(state) and seat not in state.ghosts:
        return _evolve(
            state, **changes, phase=Phase.DRAW, turn=seat, current_player=seat, drew=False,
            last_discard=None, claims=(), asking=(),
        )  # fmt: skip
    state = _evolve(
        state, **changes, turn=seat, current_player=seat, drew=False, last_discard=None,
        claims=(), asking=(),
    )  # fmt: skip
    taken = _take(state, seat, back=False)
    if taken is None:
        return _drawn_out(state)
    state = _evolve(state, **taken)
    hand = state.hands[seat]
    pick = derive(state.ghost_key, len(state.wall), seat) % len(hand)
    return _open_claims(state, seat, hand[pick])


def _discard(state: GameState, tile: Tile) -> GameState:
    return _open_claims(state, state.turn, tile)


def _open_claims(state: GameState, seat: int, tile: Tile) -> GameState:
    """``seat`` discards ``tile``: ask the other real players (all of them, or
    with ``able_only`` windows those who could claim it), or move on."""
    hands = _replace_at(state.hands, seat, _remove(state.hands[seat], tile))
    discards = _replace_at(state.discards, seat, state.discards[seat] + (tile,))
    asking: list[int] = []
    if seat not in state.ghosts or state.rules.ghost_discards_claimable:
        every = state.rules.claim_window is ClaimWindow.EVERY_ELIGIBLE
        for k in range(1, state.seats):
            other = (seat + k) % state.seats
            if other in state.ghosts:
                continue
            if every:
                asking.append(other)
                continue
            options = _claim_options(state, other, tile, seat)
            if len(options) > 1 or options[0] is not _PASS[other]:
                asking.append(other)
    if not asking:
        return _next_turn(
            state, (seat + 1) % state.seats, hands=hands, discards=discards, last_drawn=None
        )
    return _evolve(
        state,
        hands=hands,
        discards=discards,
        last_drawn=None,
        turn=seat,
        drew=False,
        phase=Phase.CLAIM,
        current_player=asking[0],
        asking=tuple(asking[1:]),
        last_discard=tile,
        claims=(),
    )


def _claim(state: GameState, action: Action) -> GameState:
    """Record a claim (or a pass); ask the next player (with ``able_only`` windows,
    the next who could still beat the best claim), or settle the claims. A
    mahjong claim ends the questions at once: nothing beats it."""
    claims = state.claims if isinstance(action, Pass) else (*state.claims, action)
    best = max((_rank(c) for c in claims), default=0)
    asking = list(state.asking)
    tile = state.last_discard
    assert tile is not None
    if best < 3 and state.rules.claim_window is ClaimWindow.ABLE_ONLY:
        while asking:
            options = _claim_options(state, asking[0], tile)
            if max(_rank(a) for a in options) > best:
                break
            asking.pop(0)
    elif best == 3:
        asking = []
    if asking:
        return _evolve(state, claims=claims, current_player=asking[0], asking=tuple(asking[1:]))
    if not claims:
        return _next_turn(state, (state.turn + 1) % state.seats)
    winner = next(c for c in claims if _rank(c) == best)
    return _settle(state, winner, tile)


def _settle(state: GameState, claim: Action, tile: Tile) -> GameState:
    """The winning claim takes the discard."""
    seat = claim.player
    discarder = state.turn
    # The claimed tile stays in its row, marked as taken.
    taken = (*state.taken, (discarder, len(state.discards[discarder]) - 1))
    base: dict[str, Any] = dict(
        taken=taken, claims=(), asking=(), last_discard=None, last_drawn=None
    )
    hand = state.hands[seat]
    if isinstance(claim, Mahjong):
        return _evolve(
            state,
            **base,
            hands=_replace_at(state.hands, seat, tuple(sorted((*hand, tile)))),
            phase=Phase.OVER,
            winner=seat,
            self_drawn=False,
            turn=seat,
            current_player=seat,
        )
    if isinstance(claim, Chow):
        a, b = claim.tiles
        rest = _remove(_remove(hand, a), b)
        meld = Meld(MeldKind.CHOW, (a, b, tile), owner=seat, claimed=tile, claimed_from=discarder)
    elif isinstance(claim, Pung):
        rest = _remove(hand, tile, 2)
        meld = Meld(
            MeldKind.PUNG, (tile, tile, tile), owner=seat, claimed=tile, claimed_from=discarder
        )
    else:
        rest = _remove(hand, tile, 3)
        meld = Meld(MeldKind.KONG, (tile,) * 4, owner=seat, claimed=tile, claimed_from=discarder)
    state = _evolve(
        state,
        **base,
        hands=_replace_at(state.hands, seat, rest),
        melds=(*state.melds, meld),
        phase=Phase.PLAY,
        turn=seat,
        current_player=seat,
        drew=False,
    )
    if isinstance(claim, Kong):
        return _replacement(state, seat)
    return state


def _replacement(state: GameState, seat: int) -> GameState:
    taken = _take(state, seat, back=True)
    if taken is None:
        return _drawn_out(state)
    return _after_draw(state, seat, taken)


def _kong_from_hand(state: GameState, tile: Tile) -> GameState:
    seat = state.turn
    hand = state.hands[seat]
    melds = state.melds
    if hand.count(tile) == 4:
        rest = _remove(hand, tile, 4)
        melds = (*melds, Meld(MeldKind.KONG, (tile,) * 4, owner=seat, concealed=True))
    else:
        rest = _remove(hand, tile)
        index = next(
            i
            for i, m in enumerate(melds)
            if m.owner == seat and m.kind is MeldKind.PUNG and m.tiles[0] == tile
        )
        old = melds[index]
        melds = _replace_at(
            melds,
            index,
            Meld(
                MeldKind.KONG, (tile,) * 4, owner=seat, claimed=old.claimed,
                claimed_from=old.claimed_from,
            ),
        )  # fmt: skip
    state = _evolve(state, hands=_replace_at(state.hands, seat, rest), melds=melds)
    return _replacement(state, seat)


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

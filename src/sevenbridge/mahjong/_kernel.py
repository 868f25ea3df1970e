"""The mahjong engine's kernel: the legal actions, the claim window and the step.

This is the engine's hot code, compiled by the compiled build (see the
performance page), built like the card game's kernel. Here an action has an
internal form, an *operation*: one small int that packs what the action does
and where (see :func:`_op`). The legal actions of a position are computed
once, as operations and, in the same order, the shared action objects, and
cached on the state. A transition works on a copy of the state's field
dictionary, changed in place and then made the dictionary of a new state:
one C-level copy instead of passing every field to ``__init__``.

:func:`legal_actions` and :func:`apply` are defined here and re-exported by
:mod:`sevenbridge.mahjong.engine`; dealing and the explanation of an illegal
action are plain Python there. Every rule of play is written here once.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Final, NoReturn

import attrs

from .._kit import checks as _checks
from .._kit import hooks as _hooks
from .._kit.history import History
from .._kit.rng import derive
from ._tables import WEIGHT, key_of, key_wins
from .actions import MAX_SEATS, Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .errors import IllegalActionError
from .hands import Meld, MeldKind
from .rules import ClaimWindow, Rules, SelfDrawWin
from .state import GameState, Phase
from .tiles import N_KINDS, TILE_KINDS, Tile

__all__ = ["apply", "claim_options", "claim_rank", "legal_actions"]

# Enum members as module constants: ``Phase.PLAY`` and the like cost a
# metaclass lookup at every use (Python 3.11), a module constant does not.
_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
_CLAIM: Final = Phase.CLAIM
_OVER: Final = Phase.OVER
_EVERY: Final = ClaimWindow.EVERY_ELIGIBLE
_AUTOMATIC: Final = SelfDrawWin.AUTOMATIC
_PUNG_MELD: Final = MeldKind.PUNG
_KONG_MELD: Final = MeldKind.KONG
_CHOW_MELD: Final = MeldKind.CHOW

# The keys of a state's field dictionary, each taken from the class's attrs
# fields by name, so that a renamed field fails here, at import.
_F: Final = attrs.fields(GameState)
RULES: Final[str] = _F.rules.name
SEATS: Final[str] = _F.seats.name
GHOSTS: Final[str] = _F.ghosts.name
HANDS: Final[str] = _F.hands.name
WALL: Final[str] = _F.wall.name
DISCARDS: Final[str] = _F.discards.name
MELDS: Final[str] = _F.melds.name
BONUS: Final[str] = _F.bonus.name
PHASE: Final[str] = _F.phase.name
TURN: Final[str] = _F.turn.name
CURRENT: Final[str] = _F.current_player.name
LAST_DISCARD: Final[str] = _F.last_discard.name
CLAIMS: Final[str] = _F.claims.name
ASKING: Final[str] = _F.asking.name
DREW: Final[str] = _F.drew.name
WINNER: Final[str] = _F.winner.name
SELF_DRAWN: Final[str] = _F.self_drawn.name
GHOST_KEY: Final[str] = _F.ghost_key.name
LOG: Final[str] = _F.move_log.name
TAKEN: Final[str] = _F.taken.name
LAST_DRAWN: Final[str] = _F.last_drawn.name
#: What a state holds besides its fields: the legal-action cache, and each
#: seat's hand as a count key (see :mod:`sevenbridge.mahjong._tables`): the
#: winning-hand test reads the key, and a transition that changes a hand
#: changes its key by the tiles' weights, instead of counting the hand again.
_LEGAL_KEY: Final[str] = _F._legal.name
KEYS: Final[str] = _F._keys.name
#: Where a state keeps its cached ``is_over`` (written into every new state).
IS_OVER: Final[str] = vars(GameState)["is_over"].attrname
_new: Final = object.__new__
# Sets a new state's dictionary (the descriptor itself: no attribute lookup).
_set_dict: Final = vars(GameState)["__dict__"].__set__
# A history node is a tuple (prev, action, length) (see History), built here by
# tuple.__new__ itself: History's own __new__ would add a Python call per step.
_new_node: Final = tuple.__new__

# ----------------------------------------------------------------------------------
# operations
# ----------------------------------------------------------------------------------
# An operation is ``code | seat << 4 | a << 6 | b << 12``: what is done, by
# whom, and the tiles it names (a Discard's or a Kong's tile as ``a``, a Chow's
# two tiles from the hand as ``a`` and ``b``). A Kong and a Mahjong have one
# code on one's own turn and another as a claim, since they play differently.
OP_DRAW: Final = 0
OP_PASS: Final = 1
OP_DISCARD: Final = 2
OP_KONG: Final = 3  # from the hand: four concealed, or the fourth added to one's pung
OP_WIN: Final = 4  # on one's own draw
OP_CHOW: Final = 5
OP_PUNG: Final = 6
OP_CLAIM_KONG: Final = 7
OP_CLAIM_WIN: Final = 8


def _op(code: int, seat: int, a: int = 0, b: int = 0) -> int:
    return code | seat << 4 | a << 6 | b << 12


def _build_action(op: int) -> Action:
    code, seat, a, b = op & 15, op >> 4 & 3, op >> 6 & 63, op >> 12
    if code == OP_DRAW:
        return Draw(seat)
    if code == OP_PASS:
        return Pass(seat)
    if code == OP_DISCARD:
        return Discard(seat, TILE_KINDS[a])
    if code in (OP_KONG, OP_CLAIM_KONG):
        return Kong(seat, TILE_KINDS[a])
    if code in (OP_WIN, OP_CLAIM_WIN):
        return Mahjong(seat)
    if code == OP_CHOW:
        return Chow(seat, (TILE_KINDS[a], TILE_KINDS[b]))
    return Pung(seat)


def _chow_pairs() -> list[tuple[int, int]]:
    """The two tiles of every chow taken from a hand: one or two apart in a suit."""
    return [
        (s * 9 + n, s * 9 + n + gap) for s in range(3) for n in range(9) for gap in (1, 2)
        if n + gap < 9
    ]  # fmt: skip


def _interned() -> dict[int, Action]:
    """The action of every operation. The two kongs (and the two mahjongs) of
    a seat and tile share one action."""
    out: dict[int, Action] = {}
    by_value: dict[Action, Action] = {}
    for seat in range(MAX_SEATS):
        ops = [_op(code, seat) for code in (OP_DRAW, OP_PASS, OP_WIN, OP_PUNG, OP_CLAIM_WIN)]
        for code in (OP_DISCARD, OP_KONG, OP_CLAIM_KONG):
            ops += [_op(code, seat, t) for t in range(N_KINDS)]
        ops += [_op(OP_CHOW, seat, a, b) for a, b in _chow_pairs()]
        for op in ops:
            action = _build_action(op)
            out[op] = by_value.setdefault(action, action)
    return out


#: The action of every operation, built once: legal actions are these shared
#: objects, so that ``apply`` finds the one it is given by identity, without
#: hashing it (a Python-level ``__hash__``).
_ACTION: Final = _interned()

#: Every action the kernel hands out, by itself (an equal action finds it).
_SHARED: Final[dict[Action, Action]] = {a: a for a in _ACTION.values()}


def shared_action(action: Action) -> Action:
    """The kernel's own object equal to ``action`` (``action`` itself when it
    has none): :func:`apply` finds its own objects quickest."""
    return _SHARED.get(action, action)


_DRAW_OP: Final = [_op(OP_DRAW, s) for s in range(MAX_SEATS)]
_PASS_OP: Final = [_op(OP_PASS, s) for s in range(MAX_SEATS)]
_PUNG_OP: Final = [_op(OP_PUNG, s) for s in range(MAX_SEATS)]
_WIN_OP: Final = [_op(OP_WIN, s) for s in range(MAX_SEATS)]
_CLAIM_WIN_OP: Final = [_op(OP_CLAIM_WIN, s) for s in range(MAX_SEATS)]
_DISCARD_OP: Final = [[_op(OP_DISCARD, s, t) for t in range(N_KINDS)] for s in range(MAX_SEATS)]
_KONG_OP: Final = [[_op(OP_KONG, s, t) for t in range(N_KINDS)] for s in range(MAX_SEATS)]
_CLAIM_KONG_OP: Final = [
    [_op(OP_CLAIM_KONG, s, t) for t in range(N_KINDS)] for s in range(MAX_SEATS)
]

#: The precedence of each operation code as a claim (see :func:`claim_rank`).
_RANK: Final = tuple(
    {OP_CHOW: 1, OP_PUNG: 2, OP_CLAIM_KONG: 2, OP_CLAIM_WIN: 3}.get(code, 0) for code in range(16)
)

# The legal actions of a position: their operations and the (shared) actions,
# in the same order.
_Legal = tuple[list[int], tuple[Action, ...]]
#: The legal actions when one Draw, Pass or Mahjong is all (most steps), built
#: once: the same tuple every time, which a learner's mask can be keyed by.
_ONLY: Final[dict[int, _Legal]] = {
    op: ([op], (_ACTION[op],)) for op in (*_DRAW_OP, *_PASS_OP, *_WIN_OP, *_CLAIM_WIN_OP)
}
_ONLY_DRAW: Final = [_ONLY[op] for op in _DRAW_OP]
_NO_LEGAL: Final[_Legal] = ([], ())


# ----------------------------------------------------------------------------------
# legal actions
# ----------------------------------------------------------------------------------
def can_draw(wall: int, rules: Rules) -> bool:
    """Whether a wall of ``wall`` tiles still has one to draw (beyond the
    reserve): a turn starts with a draw, and a kong needs a replacement, only then."""
    return wall > rules.reserve


def _keys_of(v: dict[str, Any]) -> tuple[int, ...]:
    """Each seat's count key, from the fields ``v`` (counted and kept there
    the first time: a state made by ``GameState(...)`` has none yet)."""
    keys: tuple[int, ...] | None = v[KEYS]
    if keys is None:
        keys = v[KEYS] = tuple([key_of(hand) for hand in v[HANDS]])
    return keys


def _claim_ops(
    rules: Rules, hand: tuple[Tile, ...], key: int, tile: Tile, seat: int, discarder: int,
    seats: int, wall: int,
) -> list[int]:  # fmt: skip
    """What ``seat``, holding ``hand`` (of count key ``key``), may do with
    ``discarder``'s open discard ``tile``, as operations: Pass, then Pung, Kong, the Chows (only the player after the
    discarder, honours never) and Mahjong as the hand allows; a win alone when
    the rules forbid declining it."""
    out = [_PASS_OP[seat]]
    have = hand.count(tile)
    if have >= 2:
        out.append(_PUNG_OP[seat])
        if have >= 3 and rules.kong and can_draw(wall, rules):
            out.append(_CLAIM_KONG_OP[seat][tile])
    if tile < 27 and seat == (discarder + 1) % seats:
        # The runs with the tile, lowest first: each needs its neighbour below
        # or above (two tiles below, one each side, two above).
        n = tile % 9
        below = n >= 1 and tile - 1 in hand
        above = n <= 7 and tile + 1 in hand
        if below and n >= 2 and tile - 2 in hand:
            out.append(_op(OP_CHOW, seat, tile - 2, tile - 1))
        if below and above:
            out.append(_op(OP_CHOW, seat, tile - 1, tile + 1))
        if above and n <= 6 and tile + 2 in hand:
            out.append(_op(OP_CHOW, seat, tile + 1, tile + 2))
    if key_wins(key + WEIGHT[tile]):
        if not rules.may_decline_win:
            return [_CLAIM_WIN_OP[seat]]
        out.append(_CLAIM_WIN_OP[seat])
    return out


def _play_ops(
    rules: Rules, hand: tuple[Tile, ...], key: int, seat: int, drew: bool,
    melds: tuple[Meld, ...], wall: int,
) -> list[int]:  # fmt: skip
    """What the player in turn may do, as operations: a Discard of each kind of
    tile held, then the Kongs from the hand (four held, in tile order; then the
    fourth tile of an own pung, in the melds' order), then Mahjong when the
    tile drawn completes the hand (alone when the rules forbid declining it)."""
    win = drew and key_wins(key)
    if win and not rules.may_decline_win:
        return [_WIN_OP[seat]]
    row = _DISCARD_OP[seat]
    out = list(map(row.__getitem__, dict.fromkeys(hand)))  # the hand is sorted
    if rules.kong and can_draw(wall, rules):
        kongs = _KONG_OP[seat]
        for i in range(len(hand) - 3):
            if hand[i] == hand[i + 3]:
                out.append(kongs[hand[i]])
        for m in melds:
            if m.owner == seat and m.kind is _PUNG_MELD and m.tiles[0] in hand:
                out.append(kongs[m.tiles[0]])
    if win:
        out.append(_WIN_OP[seat])
    return out


def _compute(state: GameState) -> _Legal:
    """The legal actions of a state, with their operations."""
    v = state.__dict__  # the fields, read by key (cheaper than attributes)
    phase = v[PHASE]
    p: int = v[CURRENT]
    if phase is _DRAW:
        return _ONLY_DRAW[p]
    keys: tuple[int, ...] | None = v[KEYS]
    if keys is None:
        keys = _keys_of(v)
    if phase is _CLAIM:
        ops = _claim_ops(
            v[RULES], v[HANDS][p], keys[p], v[LAST_DISCARD], p, v[TURN], v[SEATS], len(v[WALL])
        )
    elif phase is _PLAY:
        p = v[TURN]
        ops = _play_ops(v[RULES], v[HANDS][p], keys[p], p, v[DREW], v[MELDS], len(v[WALL]))
    else:
        return _NO_LEGAL
    if len(ops) == 1:  # most often a lone Pass: the shared result
        only = _ONLY.get(ops[0])
        if only is not None:
            return only
    return ops, tuple(map(_ACTION.__getitem__, ops))


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

    >>> from sevenbridge.mahjong import apply, deal, observe, Draw
    >>> state = apply(deal(seed=7), Draw(0))
    >>> [str(a) for a in legal_actions(state)][:4]
    ['Discard 1m', 'Discard 3p', 'Discard 7p', 'Discard 9p']
    >>> legal_actions(observe(state, 0)) == legal_actions(state), legal_actions(observe(state, 1))
    (True, ())
    """
    if type(state) is GameState or isinstance(state, GameState):
        cached = state._legal
        if cached is None:
            cached = _compute(state)
            # Written straight into the fields' dictionary: object.__setattr__
            # costs three times as much (the cache is not a field of the value).
            state.__dict__[_LEGAL_KEY] = cached
        return cached[1]  # type: ignore[no-any-return]
    if hasattr(state, "viewer") and hasattr(state, "own_claims"):
        # An Observation: observe() stored the viewer's actions in it.
        view_actions: tuple[Action, ...] = state.legal_actions
        return view_actions
    raise TypeError(
        "legal_actions needs a mahjong GameState or Observation, not " + _checks.type_name(state)
    )


def legal_ops(state: GameState) -> list[int]:
    """The operations of :func:`legal_actions`, in the same order."""
    legal_actions(state)  # computes and caches both
    ops: list[int] = state._legal[0]
    return ops


def claim_options(
    state: GameState, seat: int, tile: Tile, discarder: int | None = None
) -> list[Action]:
    """What ``seat`` may do with the open discard ``tile`` (thrown by
    ``discarder``, by default the player in turn), Pass first."""
    turn = state.turn if discarder is None else discarder
    key = _keys_of(state.__dict__)[seat]
    ops = _claim_ops(
        state.rules, state.hands[seat], key, tile, seat, turn, state.seats, len(state.wall)
    )
    return [_ACTION[op] for op in ops]


def claim_rank(action: Action) -> int:
    """Claim precedence: mahjong 3, pung and kong 2, chow 1, pass 0."""
    kind = type(action)
    if kind is Mahjong:
        return 3
    if kind is Pung or kind is Kong:
        return 2
    return 1 if kind is Chow else 0


# ----------------------------------------------------------------------------------
# applying actions
# ----------------------------------------------------------------------------------
# ``apply`` and ``legal_actions`` take ``Any``: compiled, a function refuses an
# argument of another type than its annotation before its body runs, with a
# message of its own; these check their arguments themselves, with the
# library's messages, in both builds.
def apply(state: GameState | Any, action: Action | Any) -> GameState:
    """The state after ``action`` (added to its :attr:`~GameState.history`);
    ``state`` itself is never changed.

    Raises:
        IllegalActionError: if the action is not legal here; the reason names the rule.
        TypeError: if ``action`` is not a mahjong action.

    >>> from sevenbridge.mahjong import deal, Pass
    >>> apply(deal(seed=7), Pass(0))
    Traceback (most recent call last):
    ...
    sevenbridge.errors.IllegalActionError: illegal action Pass(0): only a player asked about a discard may pass
    """
    if type(state) is not GameState and not isinstance(state, GameState):
        raise TypeError(f"state must be a mahjong GameState, not {_checks.type_name(state)}")
    cached = state._legal
    if cached is None:
        cached = _compute(state)
        state.__dict__[_LEGAL_KEY] = cached
    # The action taken is most often the first legal one (every forced step).
    actions = cached[1]
    op = cached[0][0] if actions and actions[0] is action else _find(cached, action)
    if op < 0:
        _refuse(state, action)
    v = state.__dict__.copy()
    prev = v[LOG]
    v[LOG] = _new_node(History, (prev, action, 1 if prev is None else prev[2] + 1))
    v[_LEGAL_KEY] = None
    asking: tuple[int, ...] = v[ASKING]
    if op & 15 == OP_PASS and asking and not v[CLAIMS] and v[RULES].claim_window is _EVERY:
        # The commonest step, spelled out here (a call saved): with the
        # default claim windows every other player is asked about every
        # discard, most pass, and the next is asked.
        v[CURRENT] = asking[0]
        v[ASKING] = asking[1:]
    else:
        _step(v, op)
    v[IS_OVER] = v[PHASE] is _OVER  # the cached property, right for the new state
    new: GameState = _new(GameState)
    _set_dict(new, v)
    return new


def _find(legal: _Legal, action: Action) -> int:
    """The operation of ``action`` among the legal ones (the shared object
    itself, or failing that an equal action), or -1."""
    actions = legal[1]
    for i, other in enumerate(actions):
        if other is action:
            return legal[0][i]
    for i, other in enumerate(actions):
        if other == action:
            return legal[0][i]
    return -1


def _refuse(state: GameState, action: Any) -> NoReturn:
    if not isinstance(action, (Draw, Discard, Chow, Pung, Kong, Mahjong, Pass)):
        raise TypeError(f"action must be a mahjong action, not {_checks.type_name(action)}")
    # The reason is found by the uncompiled diagnosis in the engine module,
    # which registers itself under this name when it loads.
    raise IllegalActionError(action, _hooks.call("mahjong_diagnose", state, action))


def _step(v: dict[str, Any], op: int) -> None:
    """Play the legal operation ``op`` on the fields ``v`` in place."""
    code = op & 15
    if code == OP_PASS:
        _close_or_ask(v, v[CLAIMS])
        return
    seat = op >> 4 & 3
    if code == OP_DRAW:
        if _take(v, seat, False):
            _after_draw(v, seat)
        else:  # a draw phase has a tile, but bonus tiles may use up the rest
            _drawn_out(v)
    elif code == OP_DISCARD:
        _discard(v, seat, TILE_KINDS[op >> 6 & 63])
    elif code == OP_WIN:
        v[PHASE] = _OVER
        v[WINNER] = seat
        v[SELF_DRAWN] = True
    elif code == OP_KONG:
        _kong_from_hand(v, seat, TILE_KINDS[op >> 6 & 63])
    else:  # a claim: recorded; nothing beats a mahjong
        _close_or_ask(v, (*v[CLAIMS], _ACTION[op]))


def _without(hand: tuple[Tile, ...], tile: Tile, n: int) -> tuple[Tile, ...]:
    """The sorted ``hand`` less ``n`` copies of ``tile``."""
    i = hand.index(tile)
    return hand[:i] + hand[i + n :]


def _with(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """The sorted ``hand`` with ``tile`` added in its place."""
    i = bisect_right(hand, tile)
    return hand[:i] + (tile,) + hand[i:]  # noqa: RUF005 (concatenation is quicker)


def _set_hand(v: dict[str, Any], seat: int, hand: tuple[Tile, ...], change: int) -> None:
    """Give ``seat`` the ``hand`` whose count key is the old one plus ``change``."""
    hands = list(v[HANDS])
    hands[seat] = hand
    v[HANDS] = tuple(hands)
    keys: tuple[int, ...] | None = v[KEYS]
    if keys is not None:
        changed = list(keys)
        changed[seat] += change
        v[KEYS] = tuple(changed)


def _take(v: dict[str, Any], seat: int, back: bool) -> bool:
    """Draw a tile for ``seat`` (from the front of the wall, or the back for a
    replacement), setting bonus tiles aside and replacing them from the back;
    False, with nothing changed, when the wall runs out first."""
    wall: tuple[Tile, ...] = v[WALL]
    rules: Rules = v[RULES]
    bonus: tuple[tuple[Tile, ...], ...] = v[BONUS]
    while True:
        if not can_draw(len(wall), rules):
            return False
        if back:
            tile = wall[-1]
            wall = wall[:-1]
        else:
            tile = wall[0]
            wall = wall[1:]
        if tile < N_KINDS:
            break
        piles = list(bonus)
        piles[seat] = (*piles[seat], tile)
        bonus = tuple(piles)
        back = True
    v[WALL] = wall
    v[BONUS] = bonus
    _set_hand(v, seat, _with(v[HANDS][seat], tile), WEIGHT[tile])
    v[LAST_DRAWN] = tile
    return True


def _drawn_out(v: dict[str, Any]) -> None:
    """The wall has run out: the round ends, nobody wins."""
    v[PHASE] = _OVER
    v[LAST_DISCARD] = None
    v[CLAIMS] = ()
    v[ASKING] = ()
    v[WINNER] = None
    v[LAST_DRAWN] = None


def _after_draw(v: dict[str, Any], seat: int) -> None:
    """``seat`` has just taken a tile from the wall: with automatic self-drawn
    wins a winning hand ends the round, else the player plays."""
    rules: Rules = v[RULES]
    v[TURN] = seat
    v[CURRENT] = seat
    if rules.self_draw_win is _AUTOMATIC and seat not in v[GHOSTS] and key_wins(_keys_of(v)[seat]):
        v[PHASE] = _OVER
        v[WINNER] = seat
        v[SELF_DRAWN] = True
        return
    v[PHASE] = _PLAY
    v[DREW] = True
    v[LAST_DISCARD] = None
    v[CLAIMS] = ()
    v[ASKING] = ()


#: The other real players after a seat, in order: by (seats, ghosts, seat).
_OTHERS: Final[dict[tuple[int, tuple[int, ...], int], tuple[int, ...]]] = {}


def _others(seats: int, ghosts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    key = (seats, ghosts, seat)
    found = _OTHERS.get(key)
    if found is None:
        order = [(seat + k) % seats for k in range(1, seats)]
        found = _OTHERS[key] = tuple([o for o in order if o not in ghosts])
    return found


def _discard(v: dict[str, Any], seat: int, tile: Tile) -> None:
    """``seat`` discards ``tile``: ask the other real players about it (all of
    them, or with ``able_only`` windows those who could claim it; nobody when
    a ghost threw it and the rules make ghosts' discards dead), or move on."""
    _set_hand(v, seat, _without(v[HANDS][seat], tile, 1), -WEIGHT[tile])
    discards = list(v[DISCARDS])
    discards[seat] = (*discards[seat], tile)
    v[DISCARDS] = tuple(discards)
    v[LAST_DRAWN] = None
    rules: Rules = v[RULES]
    ghosts: tuple[int, ...] = v[GHOSTS]
    seats: int = v[SEATS]
    asking: tuple[int, ...] = ()
    if seat not in ghosts or rules.ghost_discards_claimable:
        asking = _others(seats, ghosts, seat)
        if rules.claim_window is not _EVERY:
            hands: tuple[tuple[Tile, ...], ...] = v[HANDS]
            keys = _keys_of(v)
            wall = len(v[WALL])
            asking = tuple([
                o for o in asking
                if _claim_ops(rules, hands[o], keys[o], tile, o, seat, seats, wall)
                != [_PASS_OP[o]]
            ])  # fmt: skip
    if not asking:
        _next_turn(v, (seat + 1) % seats)
        return
    v[TURN] = seat
    v[DREW] = False
    v[PHASE] = _CLAIM
    v[CURRENT] = asking[0]
    v[ASKING] = asking[1:]
    v[LAST_DISCARD] = tile
    v[CLAIMS] = ()


def _next_turn(v: dict[str, Any], seat: int) -> None:
    """Start the turn of ``seat``: a real player is asked to draw; a ghost
    draws and discards a random tile at once (it never wins); the round is
    drawn when the wall has no tile left to draw."""
    v[TURN] = seat
    v[CURRENT] = seat
    v[DREW] = False
    v[LAST_DISCARD] = None
    v[CLAIMS] = ()
    v[ASKING] = ()
    if can_draw(len(v[WALL]), v[RULES]) and seat not in v[GHOSTS]:
        v[PHASE] = _DRAW
        return
    if not _take(v, seat, False):
        _drawn_out(v)
        return
    hand: tuple[Tile, ...] = v[HANDS][seat]
    _discard(v, seat, hand[derive(v[GHOST_KEY], len(v[WALL]), seat) % len(hand)])


def _close_or_ask(v: dict[str, Any], claims: tuple[Action, ...]) -> None:
    """The claims on the open discard so far are ``claims``: ask the next
    player (with ``able_only`` windows, the next who could still beat the best
    claim), or settle the claims. A mahjong claim ends the questions at once:
    nothing beats it."""
    best = max([claim_rank(c) for c in claims], default=0)
    asking: tuple[int, ...] = v[ASKING]
    tile: Tile = v[LAST_DISCARD]
    rules: Rules = v[RULES]
    if best == 3:
        asking = ()
    elif rules.claim_window is not _EVERY:
        hands: tuple[tuple[Tile, ...], ...] = v[HANDS]
        keys = _keys_of(v)
        turn: int = v[TURN]
        seats: int = v[SEATS]
        wall = len(v[WALL])
        while asking:
            seat = asking[0]
            ops = _claim_ops(rules, hands[seat], keys[seat], tile, seat, turn, seats, wall)
            if max([_RANK[op & 15] for op in ops]) > best:
                break
            asking = asking[1:]
    if asking:
        v[CLAIMS] = claims
        v[CURRENT] = asking[0]
        v[ASKING] = asking[1:]
    elif not claims:
        _next_turn(v, (v[TURN] + 1) % v[SEATS])
    else:
        _settle(v, next(c for c in claims if claim_rank(c) == best), tile)


def _settle(v: dict[str, Any], claim: Action, tile: Tile) -> None:
    """The winning claim takes the discard; it stays in its row, marked as taken."""
    seat = claim.player
    discarder: int = v[TURN]
    v[TAKEN] = (*v[TAKEN], (discarder, len(v[DISCARDS][discarder]) - 1))
    v[CLAIMS] = ()
    v[ASKING] = ()
    v[LAST_DISCARD] = None
    v[LAST_DRAWN] = None
    v[TURN] = seat
    v[CURRENT] = seat
    hand: tuple[Tile, ...] = v[HANDS][seat]
    if type(claim) is Mahjong:
        _set_hand(v, seat, _with(hand, tile), WEIGHT[tile])
        v[PHASE] = _OVER
        v[WINNER] = seat
        v[SELF_DRAWN] = False
        return
    if type(claim) is Chow:
        a, b = claim.tiles
        rest = _without(_without(hand, a, 1), b, 1)
        change = -WEIGHT[a] - WEIGHT[b]
        meld = _meld(0, (a, b, tile), seat, tile, discarder)
    elif type(claim) is Pung:
        rest = _without(hand, tile, 2)
        change = -2 * WEIGHT[tile]
        meld = _meld(1, (tile,) * 3, seat, tile, discarder)
    else:
        rest = _without(hand, tile, 3)
        change = -3 * WEIGHT[tile]
        meld = _meld(2, (tile,) * 4, seat, tile, discarder)
    _set_hand(v, seat, rest, change)
    v[MELDS] = (*v[MELDS], meld)
    v[PHASE] = _PLAY
    v[DREW] = False
    if type(claim) is Kong:
        _replacement(v, seat)


#: Melds by what they are made of: a meld is a value, and building one checks
#: its tiles (tens of microseconds), so the kernel builds each only once.
_MELDS: Final[dict[tuple[int, tuple[Tile, ...], int, Tile | None, int | None], Meld]] = {}
_MELD_KINDS: Final = (_CHOW_MELD, _PUNG_MELD, _KONG_MELD, _KONG_MELD)


def _meld(
    kind: int, tiles: tuple[Tile, ...], seat: int, claimed: Tile | None, discarder: int | None
) -> Meld:
    """The meld of ``kind`` (0 a chow, 1 a pung, 2 a kong, 3 a concealed kong)
    of ``seat``, ``claimed`` from ``discarder``."""
    key = (kind, tiles, seat, claimed, discarder)
    meld = _MELDS.get(key)
    if meld is None:
        meld = _MELDS[key] = Meld(
            _MELD_KINDS[kind], tiles, owner=seat, claimed=claimed, concealed=kind == 3,
            claimed_from=discarder,
        )  # fmt: skip
    return meld


def _replacement(v: dict[str, Any], seat: int) -> None:
    """After a kong: a tile from the back of the wall."""
    if _take(v, seat, True):
        _after_draw(v, seat)
    else:
        _drawn_out(v)


def _kong_from_hand(v: dict[str, Any], seat: int, tile: Tile) -> None:
    """A kong on one's own turn: four concealed tiles, or the fourth added to
    one's own claimed pung; then a replacement tile."""
    hand: tuple[Tile, ...] = v[HANDS][seat]
    melds: tuple[Meld, ...] = v[MELDS]
    if hand.count(tile) == 4:
        _set_hand(v, seat, _without(hand, tile, 4), -4 * WEIGHT[tile])
        melds = (*melds, _meld(3, (tile,) * 4, seat, None, None))
    else:
        _set_hand(v, seat, _without(hand, tile, 1), -WEIGHT[tile])
        i = next(
            i for i, m in enumerate(melds)
            if m.owner == seat and m.kind is _PUNG_MELD and m.tiles[0] == tile
        )  # fmt: skip
        old = melds[i]
        kong = _meld(2, (tile,) * 4, seat, old.claimed, old.claimed_from)
        melds = (*melds[:i], kong, *melds[i + 1 :])
    v[MELDS] = melds
    _replacement(v, seat)

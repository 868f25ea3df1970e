"""The legal actions of a position, and their cache on the state (compiled in
the compiled build).

:func:`legal_actions` is defined here and re-exported by
:mod:`sevenbridge.mahjong.engine`. A position's legal actions are worked out
once, as operations (see ``_ops``) and, in the same order, the shared action
objects, and kept on the state.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Final

from .._kit import checks as _checks
from ._fields import (
    CLAIM,
    CURRENT,
    DRAW,
    DREW,
    HANDS,
    KEYS,
    LAST_DISCARD,
    LEGAL_KEY,
    MELDS,
    PHASE,
    PLAY,
    RULES,
    SEATS,
    TURN,
    WALL,
    hand_keys,
)
from ._ops import (
    ACTION,
    CLAIM_WIN_OP,
    DISCARD_ACTION,
    DISCARD_OP,
    DRAW_OP,
    KONG_OP,
    OP_OF_ID,
    PASS_OP,
    WIN_OP,
)
from ._tables import key_wins
from .actions import Action
from .claims import claim_ops
from .hands import Meld, MeldKind
from .rules import Rules
from .state import GameState
from .tiles import Tile
from .turn import can_draw

__all__ = ["find", "legal_actions", "legal_ops"]

_PUNG_MELD: Final = MeldKind.PUNG

#: The legal actions of a position: their operations and the (shared) actions,
#: in the same order.
Legal = tuple[list[int], tuple[Action, ...]]
#: The legal actions when one Draw, Pass or Mahjong is all (most steps), built
#: once: the same tuple every time, which a learner's mask can be keyed by.
_ONLY: Final[dict[int, Legal]] = {
    o: ([o], (ACTION[o],)) for o in (*DRAW_OP, *PASS_OP, *WIN_OP, *CLAIM_WIN_OP)
}
_ONLY_DRAW: Final = [_ONLY[o] for o in DRAW_OP]
_NO_LEGAL: Final[Legal] = ([], ())


def _play_legal(
    rules: Rules, hand: tuple[Tile, ...], key: int, seat: int, drew: bool,
    melds: tuple[Meld, ...], wall: int,
) -> Legal:  # fmt: skip
    """What the player in turn may do: a Discard of each kind of tile held,
    then the Kongs from the hand (four held, in tile order; then the fourth
    tile of an own pung, in the melds' order), then Mahjong when the tile
    drawn completes the hand (alone when the rules forbid declining it)."""
    win = drew and key_wins(key)
    if win and not rules.may_decline_win:
        return _ONLY[WIN_OP[seat]]
    kinds = dict.fromkeys(hand)  # the hand is sorted
    ops: list[int]
    actions: tuple[Action, ...]
    if len(kinds) > 1:
        # The discards' operations and actions read by one itemgetter, in C
        # (interpreted, a third of the time of a map() over the kinds for each).
        pick = itemgetter(*kinds)
        ops = list(pick(DISCARD_OP[seat]))
        actions = pick(DISCARD_ACTION[seat])
    else:
        ops = [DISCARD_OP[seat][hand[0]]]
        actions = (DISCARD_ACTION[seat][hand[0]],)
    more: list[int] = []
    if rules.kong and can_draw(wall, rules):
        kongs = KONG_OP[seat]
        for i in range(len(hand) - 3):
            if hand[i] == hand[i + 3]:
                more.append(kongs[hand[i]])
        for m in melds:
            if m.owner == seat and m.kind is _PUNG_MELD and m.tiles[0] in hand:
                more.append(kongs[m.tiles[0]])
    if win:
        more.append(WIN_OP[seat])
    if more:
        ops += more
        actions += tuple(map(ACTION.__getitem__, more))
    return ops, actions


def _compute(v: dict[str, Any]) -> Legal:
    """The legal actions of a state, with their operations, from its fields
    ``v`` (read by key: cheaper than attributes)."""
    phase = v[PHASE]
    p: int = v[CURRENT]
    if phase is DRAW:
        return _ONLY_DRAW[p]
    keys: tuple[int, ...] | None = v[KEYS]
    if keys is None:
        keys = hand_keys(v)
    if phase is CLAIM:
        ops = claim_ops(
            v[RULES], v[HANDS][p], keys[p], v[LAST_DISCARD], p, v[TURN], v[SEATS], len(v[WALL])
        )
    elif phase is PLAY:
        p = v[TURN]
        return _play_legal(v[RULES], v[HANDS][p], keys[p], p, v[DREW], v[MELDS], len(v[WALL]))
    else:
        return _NO_LEGAL
    if len(ops) == 1:  # most often a lone Pass: the shared result
        only = _ONLY.get(ops[0])
        if only is not None:
            return only
    return ops, tuple(map(ACTION.__getitem__, ops))


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
        v = state.__dict__
        cached = v[LEGAL_KEY]
        if cached is None:
            # Kept in the fields' dictionary, which _compute reads too:
            # object.__setattr__ costs three times as much (the cache is not
            # a field of the value).
            cached = v[LEGAL_KEY] = _compute(v)
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


def find(legal_now: Legal, action: Action) -> int:
    """The operation of ``action`` among the legal ones (the shared object
    itself, or failing that an equal action), or -1."""
    # A shared action of one operation: its operation by its id, then whether
    # that is legal (a search in C among ints).
    op = OP_OF_ID.get(id(action), -1)
    if op >= 0 and op in legal_now[0]:
        return op
    actions = legal_now[1]
    for i, other in enumerate(actions):
        if other is action:
            return legal_now[0][i]
    for i, other in enumerate(actions):
        if other == action:
            return legal_now[0][i]
    return -1

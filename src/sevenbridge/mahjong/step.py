"""The step from one position to the next: :func:`apply` (compiled in the
compiled build; re-exported by :mod:`sevenbridge.mahjong.engine`).

:func:`apply` finds the action among the position's legal ones (see
``legal``) and plays its operation on a copy of the state's fields, handing
each kind of action to its rule family, ``turn`` or ``claims``. An illegal
action is explained by ``explain``.
"""

from __future__ import annotations

from typing import Any, NoReturn

from .._kit import checks as _checks
from .._kit.history import History
from ._fields import CLAIMS, IS_OVER, LEGAL_KEY, LOG, OVER, PHASE, _new, _new_node, _set_dict
from ._ops import ACTION, OP_DISCARD, OP_DRAW, OP_KONG, OP_PASS, OP_WIN
from .actions import Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .claims import close_or_ask, open_window
from .errors import IllegalActionError
from .explain import diagnose
from .legal import find, legal_actions
from .state import GameState
from .tiles import TILE_KINDS
from .turn import discard, draw, kong_from_hand, win_on_draw

__all__ = ["apply"]


# ``apply`` takes ``Any``: compiled, a function refuses an argument of another
# type than its annotation before its body runs, with a message of its own;
# it checks its arguments itself, with the library's messages, in both builds.
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
    legal = state._legal
    if legal is None:
        legal_actions(state)  # works them out and keeps them on the state
        legal = state._legal
    # find(), its first test spelled out: the action taken is most often the
    # first legal one (every forced step).
    actions = legal[1]
    op = legal[0][0] if actions and actions[0] is action else find(legal, action)
    if op < 0:
        _refuse(state, action)
    # The new state's fields (see _fields): a copy with the move logged.
    v = state.__dict__.copy()
    prev = v[LOG]
    v[LOG] = _new_node(History, (prev, action, 1 if prev is None else prev[2] + 1))
    # The operation played on the fields, by its rule family.
    code = op & 15
    if code == OP_PASS:
        close_or_ask(v, v[CLAIMS])
    elif code == OP_DRAW:
        draw(v, op >> 4 & 3)
    elif code == OP_DISCARD:
        seat, tile = op >> 4 & 3, TILE_KINDS[op >> 6 & 63]
        discard(v, seat, tile)
        open_window(v, seat, tile)
    elif code == OP_WIN:
        win_on_draw(v, op >> 4 & 3)
    elif code == OP_KONG:
        kong_from_hand(v, op >> 4 & 3, TILE_KINDS[op >> 6 & 63])
    else:  # a claim: recorded; nothing beats a mahjong
        close_or_ask(v, (*v[CLAIMS], ACTION[op]))
    # The new state: no legal actions yet, and is_over (a cached property)
    # right for it.
    v[LEGAL_KEY] = None
    v[IS_OVER] = v[PHASE] is OVER
    new: GameState = _new(GameState)
    _set_dict(new, v)
    return new


def _refuse(state: GameState, action: Any) -> NoReturn:
    if not isinstance(action, (Draw, Discard, Chow, Pung, Kong, Mahjong, Pass)):
        raise TypeError(f"action must be a mahjong action, not {_checks.type_name(action)}")
    raise IllegalActionError(action, diagnose(state, action))

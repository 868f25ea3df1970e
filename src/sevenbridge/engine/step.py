"""The step from one position to the next: :func:`apply` (compiled in the
compiled build; re-exported by :mod:`sevenbridge.engine`).

:func:`apply` finds the action among the position's legal ones (see
:mod:`~sevenbridge.engine.legal`) and plays its operation key on a copy of the
state's fields: :func:`step` hands each kind of action to its rule family,
:mod:`~sevenbridge.engine.turn` or :mod:`~sevenbridge.engine.claims`. An
illegal action is explained by :mod:`~sevenbridge.engine.explain`.
"""

from __future__ import annotations

from typing import Any

from .._kit import checks as _checks
from .._tables import RUN
from ..actions import ACTION_TYPES, Action
from ..errors import IllegalActionError
from ..state import GameState, History
from ._fields import HASH_KEY, LEGAL_KEY, LOG, PLAYERS, _new, _new_node, _set_dict
from ._keys import OP_CHI, OP_DISCARD, OP_DRAW, OP_LAY, OP_OFF, OP_PASS, canonical
from .claims import AFTER, claim, next_in_window, open_window, pon
from .explain import diagnose
from .legal import Legal, find, legal
from .turn import discard, draw, lay_down, lay_off

__all__ = ["apply", "check_state", "step"]


def apply(state: GameState, action: Action) -> GameState:
    """The position after ``action``; ``state`` itself is never changed.

    Raises:
        IllegalActionError: if the action is not legal now, with the rule that
            forbids it. A finished deal accepts no action.

    >>> from sevenbridge import deal, apply, Discard
    >>> apply(deal(seed=1), Discard(1, "AS"))
    Traceback (most recent call last):
    ...
    sevenbridge.errors.IllegalActionError: illegal action Discard(1, 'AS'): a turn begins by drawing from the stock (or with a chi); discarding comes last
    """
    if type(state) is not GameState:
        check_state(state, "apply")
    d: dict[str, Any] = state.__dict__  # read as a dictionary: see legal._compute_legal
    # The cache, else worked out and kept. The locals' types here and in the
    # transitions let the compiled build index and compute without generic calls.
    legal_now: Legal = d[LEGAL_KEY] or legal(state)
    # find(), its first test spelled out: the action taken is most often the
    # first legal one (every forced step).
    first: tuple[Action, ...] = legal_now[1]
    op = legal_now[0][0] if first and first[0] is action else find(legal_now, action)
    if op is None:
        # An action equal to a legal one but not the interned object itself.
        same = canonical(action)
        if same is not None:
            op = find(legal_now, same)
    if op is None:
        if not isinstance(action, ACTION_TYPES):
            raise TypeError(
                f"action must be a Draw, Pass, Chi, Pon, LayDown, LayOff or Discard, "
                f"not {_checks.type_name(action)}"
            )
        raise IllegalActionError(action, diagnose(state, action))
    # fields_of and new_state (see _fields), written out: the public loop's
    # two calls per step cost 3% of its decisions per CPU-second (pure build).
    v = d.copy()
    step(v, op, action)
    v[LEGAL_KEY] = v[HASH_KEY] = None
    new: GameState = _new(GameState)
    _set_dict(new, v)
    return new


def check_state(state: Any, function: str) -> None:
    """A TypeError for anything but a GameState (an Observation is not enough)."""
    if isinstance(state, GameState):
        return
    hint = ""
    if type(state).__name__ == "Observation":
        hint = (
            "; an Observation hides the other hands, so it cannot be played on "
            "(sample_state(view) deals them at random)"
        )
    raise TypeError(f"{function}() needs a GameState, not {_checks.type_name(state)}{hint}")


def step(v: dict[str, Any], op: tuple[int, ...], action: Action | None) -> None:
    """Play ``op`` (``action`` in the engine's form) on the fields ``v`` in place.

    With ``action`` None (a playout without history) the history is left as it is.
    """
    if action is not None:  # the move logged: a history node (see _fields)
        prev: tuple[Any, ...] | None = v[LOG]  # a History, read as the tuple it is
        length: int = 0 if prev is None else prev[2]
        v[LOG] = _new_node(History, (prev, action, length + 1))
    code = op[0]
    if code == OP_PASS:  # the commonest step: most players pass most discards
        next_in_window(v)
        return
    p = op[1]
    if code == OP_DRAW:
        draw(v, p)
    elif code == OP_DISCARD:
        if not discard(v, p, op[2]):
            n = v[PLAYERS]
            open_window(v, p, AFTER[n][p], (p + 1) % n)
    elif code == OP_LAY:
        lay_down(v, p, op[2], op[3], op[4])
    elif code == OP_OFF:
        lay_off(v, p, op[2], op[3], op[4])
    elif code == OP_CHI:
        claim(v, p, op[2], op[3], RUN)
    else:  # OP_PON
        pon(v, p, op[2], op[3])

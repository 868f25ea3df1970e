"""The state's fields as the engine's transitions hold them: the one module
that knows how a :class:`~sevenbridge.GameState` keeps its fields.

A transition works on a copy of the state's field dictionary (one C-level
copy), changes it in place and then makes it the dictionary of a new state:
much cheaper than reading and passing every field. The keys below are taken
from the class's attrs fields by name, so that a renamed field fails here, at
import. A move log is a linked list of history nodes, built here too.
Compiled in the compiled build.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from ..actions import Action
from ..state import GameState, History, Phase

__all__ = ["fields_of", "history_extend", "new_fields", "new_state"]

# Enum members as module constants: ``Phase.PLAY`` and the like cost a
# metaclass lookup at every use (Python 3.11), a module constant does not.
CLAIM: Final = Phase.CLAIM
DRAW: Final = Phase.DRAW
PLAY: Final = Phase.PLAY
OVER: Final = Phase.OVER

_F: Final = attrs.fields(GameState)
FIELDS: Final = tuple(f.name for f in _F if f.init)
RULES: Final[str] = _F.rules.name
PLAYERS: Final[str] = _F.players.name
DEALER: Final[str] = _F.dealer.name
PHASE: Final[str] = _F.phase.name
CURRENT: Final[str] = _F.current_player.name
HANDS: Final[str] = _F.hand_masks.name
STOCK: Final[str] = _F.stock_cards.name
DISCARDS: Final[str] = _F.discard_cards.name
TABLE: Final[str] = _F.table.name
OWNERS: Final[str] = _F.meld_owners.name
PLAYED: Final[str] = _F.played.name
NORMAL: Final[str] = _F.normal_turns.name
TURNS: Final[str] = _F.turns_done.name
DISCARDER: Final[str] = _F.discarder.name
QUEUE: Final[str] = _F.claim_queue.name
PENDING: Final[str] = _F.pending_pon.name
CLEAN: Final[str] = _F.turn_clean.name
BY_CLAIM: Final[str] = _F.turn_by_claim.name
RESHUFFLES: Final[str] = _F.reshuffles.name
RESHUFFLED: Final[str] = _F.reshuffled.name
SEED: Final[str] = _F.seed.name
WINNER: Final[str] = _F.winner.name
SCORES: Final[str] = _F.deal_scores.name
BONUS: Final[str] = _F.bonus.name
REASON: Final[str] = _F.end_reason.name
LOG: Final[str] = _F.move_log.name
# What a new state holds besides its fields: the legal-action cache (kept in the
# dictionary under LEGAL_KEY by legal_actions, written straight in, as
# object.__setattr__ costs three times as much) and attrs' cached hash, both
# None in a fresh state (tests/test_engine_fields.py checks
# that a new attrs still keeps its cached hash this way).
LEGAL_KEY: Final[str] = _F._legal.name
# GameState.is_over, once read, is kept in the dictionary under OVER_KEY (see
# GameState): a new state copies it, and the end of the deal sets it.
OVER_KEY: Final[str] = "is_over"
_BLANK: Final[dict[str, Any]] = dict.fromkeys(FIELDS)
HASH_KEY: Final[str] = next(
    k for k in GameState(**_BLANK).__dict__ if k not in FIELDS and k != LEGAL_KEY
)
_new: Final = object.__new__
# Sets a new state's dictionary (the descriptor itself: no attribute lookup).
_set_dict: Final = vars(GameState)["__dict__"].__set__


def new_fields(values: dict[str, Any]) -> dict[str, Any]:
    """A field dictionary with ``values`` (keyed as above) and every other field None."""
    v = dict(_BLANK)
    v.update(values)
    return v


def fields_of(state: GameState) -> dict[str, Any]:
    """A fresh copy of a state's fields, for a transition to change."""
    return state.__dict__.copy()


def new_state(v: dict[str, Any]) -> GameState:
    """The state whose fields are ``v`` (taken over, not copied)."""
    v[LEGAL_KEY] = v[HASH_KEY] = None
    state: GameState = _new(GameState)
    _set_dict(state, v)
    return state


# A history node is a tuple (prev, action, length) (see History), built here by
# tuple.__new__ itself: History's own __new__ would add a Python call per step.
_new_node: Final = tuple.__new__


def history_extend(prev: History | None, actions: list[Action]) -> History | None:
    """``prev`` with ``actions`` added in order (nodes added one by one, as apply adds one)."""
    length = 0 if prev is None else prev[2]
    for action in actions:
        length += 1
        prev = _new_node(History, (prev, action, length))
    return prev

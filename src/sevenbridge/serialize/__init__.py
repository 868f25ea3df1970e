"""JSON documents for states, observations, rules and actions.

Every document is an object with ``"format"`` (what it is) and ``"version"``
(currently 1). ``from_json`` is meant for untrusted input: it checks every
field (well-formed JSON without duplicate keys, known fields, real cards, each
card once, hand and pile sizes that fit the rules and the phase, melds that are
valid melds, a history that fits the turn counters) and raises
:class:`~sevenbridge.InvalidStateError` saying what is wrong and where. It
never returns a half-built value and never uses pickle or eval.

The fields of each document are declared once (in ``_schema``); the reader checks them
and :func:`json_schema` publishes them as a JSON Schema for programs in other
languages. The schema checks each field on its own; what ties fields together
(each card once, sizes per phase, a legal history) only the reader checks.

>>> from sevenbridge import GameState, deal
>>> state = deal(seed=1)
>>> GameState.from_json(state.to_json()) == state
True
>>> GameState.from_json('{"format": "sevenbridge.state", "version": 1}')
Traceback (most recent call last):
...
sevenbridge.errors.InvalidStateError: state: missing field 'rules'
"""

from __future__ import annotations

import enum
import json
from typing import Any

import attrs

from .. import _tables as T
from .._kit import hooks as _hooks
from .._kit import jsonread as J
from ..actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS
from ..errors import InvalidStateError, Message, quote
from ..notation import format_move
from ..rules import Rules
from ..state import KINDS, GameState, History, Phase, TableMeld, meld_cards
from ..views import Observation
from . import _consistency as P
from ._schema import (
    ACTION_DOCS,
    ACTION_TYPES,
    FORMAT_VERSION,
    RULES_DOC,
    json_schema,
    make_rules,
    max_history,
    max_turns,
    observation_object,
    state_object,
)

__all__ = [
    "FORMAT_VERSION",
    "action_from_json",
    "action_to_json",
    "json_schema",
    "max_history",
    "max_turns",
    "observation_from_json",
    "observation_to_json",
    "rules_from_json",
    "rules_to_json",
    "state_from_json",
    "state_to_json",
]


# --------------------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------------------
def _rules_dict(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in attrs.fields(Rules):
        value = getattr(rules, f.name)
        out[f.name] = value.value if isinstance(value, enum.Enum) else value
    return out


def _names(cards: Any) -> list[str]:
    return [str(CARDS[c]) for c in cards]


def _meld_dict(tm: TableMeld) -> dict[str, Any]:
    return {
        "owner": tm.owner,
        "kind": KINDS[tm.kind].value,
        "cards": _names(meld_cards(tm)),
        "joker_as": None if tm.joker < 0 else str(CARDS[tm.joker]),
    }


def _common(state: GameState | Observation) -> dict[str, Any]:
    pending = state.pending_pon
    return {
        "rules": _rules_dict(state.rules),
        "players": state.players,
        "dealer": state.dealer,
        "phase": state.phase.value,
        "current_player": state.current_player,
        "discard_pile": _names(state.discard_cards),
        "melds": [_meld_dict(tm) for tm in state.table],
        "played": T.bits(state.played),
        "normal_turns": T.bits(state.normal_turns),
        "turns_done": state.turns_done,
        "discarder": state.discarder,
        "claim_queue": list(state.claim_queue),
        "pending_pon": None if pending is None else {
            "player": pending[0],
            "cards": _names(T.bits(pending[1])),
            "joker_as": None if pending[2] < 0 else str(CARDS[pending[2]]),
        },
        "turn_clean": state.turn_clean,
        "turn_by_claim": state.turn_by_claim,
        "reshuffles": state.reshuffles,
        "reshuffled": _names(T.bits(state.reshuffled)),
        "winner": state.winner,
        "deal_scores": None if state.deal_scores is None else list(state.deal_scores),
        "bonus": state.bonus,
        "end_reason": state.end_reason,
        "history": [format_move(a) for a in state.history],
    }  # fmt: skip


def _dump(doc: dict[str, Any], indent: int | None) -> str:
    return json.dumps(doc, indent=indent, ensure_ascii=False)


def state_to_json(state: GameState, *, indent: int | None = None) -> str:
    """The state as a JSON document (see :meth:`sevenbridge.GameState.to_json`)."""
    doc = {"format": "sevenbridge.state", "version": FORMAT_VERSION, **_common(state)}
    doc["hands"] = [_names(T.bits(h)) for h in state.hand_masks]
    doc["stock"] = _names(state.stock_cards)
    doc["seed"] = state.seed
    return _dump(doc, indent)


def observation_to_json(view: Observation, *, indent: int | None = None) -> str:
    """The observation as a JSON document."""
    doc = {"format": "sevenbridge.observation", "version": FORMAT_VERSION, **_common(view)}
    doc["viewer"] = view.viewer
    doc["hand"] = _names(T.bits(view.hand_mask))
    doc["hand_sizes"] = list(view.hand_sizes)
    doc["stock_size"] = view.stock_size
    doc["shown_hands"] = (
        None if view.shown_hands is None else [_names(T.bits(h)) for h in view.shown_hands]
    )
    return _dump(doc, indent)


def rules_to_json(rules: Rules, *, indent: int | None = None) -> str:
    """The rules as a JSON document."""
    doc = {"format": "sevenbridge.rules", "version": FORMAT_VERSION, **_rules_dict(rules)}
    return _dump(doc, indent)


def _action_dict(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(action).__name__, "player": action.player}
    if isinstance(action, (Chi, Pon, LayDown)):
        out["cards"] = [str(c) for c in action.cards]
        out["joker_as"] = None if action.joker_as is None else str(action.joker_as)
    elif isinstance(action, LayOff):
        out["card"] = str(action.card)
        out["target"] = action.target
        out["joker_as"] = None if action.joker_as is None else str(action.joker_as)
    elif isinstance(action, Discard):
        out["card"] = str(action.card)
    return out


def action_to_json(action: Action) -> str:
    """The action as a JSON document."""
    doc = {"format": "sevenbridge.action", "version": FORMAT_VERSION, **_action_dict(action)}
    return _dump(doc, None)


# --------------------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------------------
def rules_from_json(text: str | bytes) -> Rules:
    """Read rules written by :func:`rules_to_json` (every field must be present)."""
    return make_rules(RULES_DOC.read(J.parse(text, "rules"), "rules"), "rules")


def _action_from(value: Any, path: str) -> Action:
    if not isinstance(value, dict):
        raise InvalidStateError(
            Message(
                "invalid_state.expected_json_object_found",
                "{path}: expected a JSON object, found {value}",
                path=path,
                value=J.kind_of(value),
            )
        )
    name = value.get("type")
    if not isinstance(name, str) or name not in ACTION_DOCS:
        shown = "nothing" if "type" not in value else quote(name, 40)
        raise InvalidStateError(
            Message(
                "invalid_state.type_not_action_type",
                "{path}.type: {shown} is not an action type",
                path=path,
                shown=shown,
            )
        )
    f = ACTION_DOCS[name].read(value, path)
    player = f["player"]
    kind = ACTION_TYPES[name]
    if kind is Draw or kind is Pass:
        return kind(player)
    joker = None if f.get("joker_as") is None else CARDS[f["joker_as"]]
    if kind is Discard:
        return Discard(player, CARDS[f["card"]])
    if kind is LayOff:
        return LayOff(player, CARDS[f["card"]], f["target"], joker)
    cards = f["cards"]
    if len(set(cards)) != len(cards):
        raise InvalidStateError(
            Message(
                "invalid_state.cards_card_given_twice",
                "{path}.cards: a card is given twice",
                path=path,
            )
        )
    group: type[Chi] | type[Pon] | type[LayDown] = kind  # type: ignore[assignment]
    return group(player, tuple(CARDS[c] for c in cards), joker)


def action_from_json(text: str | bytes) -> Action:
    """Read an action written by :func:`action_to_json`."""
    return _action_from(J.parse(text, "action"), "action")


def state_from_json(text: str | bytes, *, verify: bool = False) -> GameState:
    """Read and check a state written by :func:`state_to_json` (see
    :meth:`sevenbridge.GameState.from_json` for ``verify``)."""
    f = P.read_fields(J.parse(text, "state"), "state", state_object)
    rules: Rules = f["rules"]
    n = f["players"]
    hands_lists = f["hands"]
    if len(hands_lists) != n:
        raise InvalidStateError(
            Message(
                "invalid_state.state_hands_hands_for",
                "state.hands: {n_hands_lists} hands for {n} players",
                n_hands_lists=len(hands_lists),
                n=n,
            )
        )
    stock = f["stock"]
    places = [(f"hands[{p}]", h) for p, h in enumerate(hands_lists)]
    places += [("stock", stock)]
    where = P.each_card_once(places, f, "state")
    missing = [c for c in range(rules.deck_size) if c not in where]
    if missing:
        raise InvalidStateError(
            Message(
                "invalid_state.state_cards_are_nowhere",
                "state: {n_missing} cards are nowhere, such as {card}; a {deck_size}-card deal has every card somewhere",
                n_missing=len(missing),
                card=str(CARDS[missing[0]]),
                deck_size=rules.deck_size,
            )
        )
    hands = [P.mask(h) for h in hands_lists]
    f["hand_sizes"] = [len(h) for h in hands_lists]
    if f["reshuffles"] and not f["reshuffled"]:
        f["reshuffled"] = list(stock)  # a document written before the field existed
    strays = [c for c in stock if c not in f["reshuffled"]] if f["reshuffles"] else []
    if strays:
        raise InvalidStateError(
            Message(
                "invalid_state.state_stock_in_stock",
                "state.stock: {card} is in the stock but was not reshuffled into it",
                card=str(CARDS[strays[0]]),
            )
        )
    P.check_position(f, hands, len(stock), "state")
    state = GameState(
        rules=rules, players=n, dealer=f["dealer"], phase=Phase(f["phase"]),
        current_player=f["current_player"], hand_masks=tuple(hands), stock_cards=tuple(stock),
        discard_cards=tuple(f["discard_pile"]), table=P.table(f), meld_owners=P.owners(f),
        played=f["played"], normal_turns=f["normal_turns"], turns_done=f["turns_done"],
        discarder=f["discarder"], claim_queue=f["claim_queue"], pending_pon=P.pending(f),
        turn_clean=f["turn_clean"], turn_by_claim=f["turn_by_claim"],
        reshuffles=f["reshuffles"], reshuffled=P.mask(f["reshuffled"]), seed=f["seed"],
        winner=f["winner"],
        deal_scores=None if f["deal_scores"] is None else tuple(f["deal_scores"]),
        bonus=f["bonus"], end_reason=f["end_reason"], move_log=History.of(f["history"]),
    )  # fmt: skip
    if verify:
        P.verify(state)
    return state


def observation_from_json(text: str | bytes) -> Observation:
    """Read and check an observation written by :func:`observation_to_json`."""
    f = P.read_fields(J.parse(text, "observation"), "observation", observation_object)
    rules: Rules = f["rules"]
    n = f["players"]
    viewer, hand, sizes = f["viewer"], f["hand"], f["hand_sizes"]
    if len(sizes) != n:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_hand_sizes_sizes",
                "observation.hand_sizes: {n_sizes} sizes for {n} players",
                n_sizes=len(sizes),
                n=n,
            )
        )
    if sizes[viewer] != len(hand):
        raise InvalidStateError(
            Message(
                "invalid_state.observation_hand_sizes_viewer",
                "observation.hand_sizes: the viewer's size differs from the hand",
            )
        )
    shown = f["shown_hands"]
    places = [("hand", hand)]
    if shown is None and Phase(f["phase"]) is Phase.OVER:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_shown_hands_over",
                "observation.shown_hands: a finished deal shows every hand",
            )
        )
    if shown is not None:
        if Phase(f["phase"]) is not Phase.OVER or len(shown) != n:
            raise InvalidStateError(
                Message(
                    "invalid_state.observation_shown_hands_only",
                    "observation.shown_hands: only a finished deal shows its hands, one per player",
                )
            )
        if sorted(shown[viewer]) != sorted(hand):
            raise InvalidStateError(
                Message(
                    "invalid_state.observation_shown_hands_viewer",
                    "observation.shown_hands: the viewer's hand differs",
                )
            )
        if [len(h) for h in shown] != list(sizes):
            raise InvalidStateError(
                Message(
                    "invalid_state.observation_shown_hands_do",
                    "observation.shown_hands: do not match hand_sizes",
                )
            )
        places += [(f"shown_hands[{p}]", h) for p, h in enumerate(shown) if p != viewer]
    seen = P.each_card_once(places, f, "observation")
    others = sum(s for p, s in enumerate(sizes) if p != viewer)
    if shown is not None:
        others = 0
    if len(seen) + others + f["stock_size"] != rules.deck_size:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_hands_stock_discards",
                "observation: hands, stock, discards and melds do not add up to {deck_size} cards",
                deck_size=rules.deck_size,
            )
        )
    hands = [P.mask(hand) if p == viewer else -1 for p in range(n)]
    if shown is not None:
        hands = [P.mask(h) for h in shown]
    candidates = [c for c in f["reshuffled"] if c not in seen]
    if f["reshuffled"] and len(candidates) < f["stock_size"]:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_reshuffled_unseen_cards",
                "observation.reshuffled: {n_candidates} unseen cards were reshuffled, too few for a stock of {stock_size}",
                n_candidates=len(candidates),
                stock_size=str(f["stock_size"]),
            )
        )
    P.check_position(f, hands, f["stock_size"], "observation")
    return Observation(
        rules=rules, players=n, dealer=f["dealer"], viewer=viewer, phase=Phase(f["phase"]),
        current_player=f["current_player"], hand_mask=P.mask(hand), hand_sizes=tuple(sizes),
        stock_size=f["stock_size"], discard_cards=tuple(f["discard_pile"]), table=P.table(f),
        meld_owners=P.owners(f), played=f["played"], normal_turns=f["normal_turns"],
        turns_done=f["turns_done"], discarder=f["discarder"], claim_queue=f["claim_queue"],
        pending_pon=P.pending(f), turn_clean=f["turn_clean"], turn_by_claim=f["turn_by_claim"],
        reshuffles=f["reshuffles"], reshuffled=P.mask(f["reshuffled"]), winner=f["winner"],
        deal_scores=None if f["deal_scores"] is None else tuple(f["deal_scores"]),
        bonus=f["bonus"], end_reason=f["end_reason"], move_log=History.of(f["history"]),
        shown_hands=None if shown is None else tuple(P.mask(h) for h in shown),
    )  # fmt: skip


_hooks.register("state_to_json", state_to_json)
_hooks.register("state_from_json", state_from_json)
_hooks.register("observation_to_json", observation_to_json)
_hooks.register("observation_from_json", observation_from_json)
_hooks.register("rules_to_json", rules_to_json)
_hooks.register("rules_from_json", rules_from_json)
_hooks.register("action_to_json", action_to_json)
_hooks.register("action_from_json", action_from_json)

"""The fields of each JSON document, declared once.

The reader (:mod:`sevenbridge.serialize`) checks documents with these
declarations and :func:`json_schema` publishes them as JSON Schemas, so the two
cannot drift apart. Bounds come from the rules and the table size; the schema
takes the widest ones.
"""

from __future__ import annotations

import enum
from functools import cache, lru_cache
from typing import Any

import attrs

from .._kit import jsonread as J
from .._kit.checks import MAX_PLAYERS, MAX_SEED, MIN_PLAYERS
from ..actions import MAX_TARGET, Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS, JOKER_INDEX, Card
from ..errors import InvalidCardError, InvalidStateError, Message, RulesConfigError, quote
from ..melds import MeldKind
from ..notation import NotationError, parse_move
from ..rules import MAX_RESHUFFLE_LIMIT, Rules
from ..state import Phase

__all__ = ["FORMAT_VERSION", "json_schema", "max_history", "max_turns"]

FORMAT_VERSION = 1
#: Action types by name.
ACTION_TYPES: dict[str, type[Action]] = {
    k.__name__: k for k in (Draw, Pass, Chi, Pon, LayDown, LayOff, Discard)
}
#: A deal's score never comes near this (the largest hand under the largest
#: joker multiplier scores well under a million).
MAX_SCORE = 10**9
#: Fields added to version 1 after it was first written, with the value a
#: document without them gets ("reshuffled": no stock cards known).
ADDED_FIELDS: dict[str, Any] = {"reshuffled": [], "shown_hands": None}


@cache
def card_check(deck_size: int = JOKER_INDEX + 1) -> J.Check[int]:
    """A card such as ``"7H"`` of a ``deck_size``-card deck, read as its index
    (the schema lists the cards as this library writes them)."""

    def read(value: Any, path: str) -> int:
        if not isinstance(value, str):
            raise InvalidStateError(
                Message(
                    "invalid_state.expected_card_such_as",
                    "{path}: expected a card such as '7H', found {value}",
                    path=path,
                    value=J.kind_of(value),
                )
            )
        try:
            card = Card.parse(value)
        except InvalidCardError as error:
            raise InvalidStateError(
                Message("invalid_state.error", "{path}: {error}", path=path, error=error)
            ) from None
        if card.index >= deck_size:
            raise InvalidStateError(
                Message(
                    "invalid_state.not_in_card_deck",
                    "{path}: {card} is not in a {deck_size}-card deck",
                    path=path,
                    card=str(card),
                    deck_size=deck_size,
                )
            )
        return card.index

    return J.Check(read, {"enum": [str(c) for c in CARDS[:deck_size]]})


def _rules_field(f: attrs.Attribute[Any]) -> J.Check[Any]:
    """The check of one Rules field, from its type and the bounds kept with it."""
    if isinstance(f.default, bool):
        return J.boolean
    if isinstance(f.default, enum.Enum):
        return J.string(enum=tuple(m.value for m in type(f.default)))
    check: J.Check[Any] = J.integer(f.metadata["minimum"], f.metadata["maximum"])
    return J.nullable(check) if f.metadata.get("nullable") else check


def make_rules(values: dict[str, Any], path: str) -> Rules:
    try:
        return Rules(**values)
    except RulesConfigError as error:
        raise InvalidStateError(
            Message("invalid_state.error", "{path}: {error}", path=path, error=error)
        ) from None


_RULES_FIELDS = {f.name: _rules_field(f) for f in attrs.fields(Rules)}
_RULES = J.Object(_RULES_FIELDS, title="Seven Bridge rules")
RULES_DOC = J.Object(_RULES_FIELDS, header=("sevenbridge.rules", FORMAT_VERSION))
RULES_CHECK: J.Check[Rules] = J.Check(lambda v, p: make_rules(_RULES.read(v, p), p), _RULES.schema)


def _action_objects(players: int) -> dict[str, J.Object]:
    player = J.integer(0, players - 1)
    card = card_check()
    out = {}
    for name, kind in ACTION_TYPES.items():
        fields: dict[str, J.Check[Any]] = {"type": J.string(enum=(name,)), "player": player}
        if kind in (Chi, Pon, LayDown):
            fields["cards"] = J.array(card, 13)
            fields["joker_as"] = J.nullable(card)
        elif kind is LayOff:
            fields["card"] = card
            fields["target"] = J.integer(0, MAX_TARGET)
            fields["joker_as"] = J.nullable(card)
        elif kind is Discard:
            fields["card"] = card
        out[name] = J.Object(fields, title=name)
    return out


_ACTIONS = _action_objects(MAX_PLAYERS)
ACTION_DOCS = {
    name: J.Object(obj.fields, header=("sevenbridge.action", FORMAT_VERSION))
    for name, obj in _ACTIONS.items()
}


def max_turns(rules: Rules) -> int:
    """The most turns a deal under ``rules`` can have.

    A turn starts with a draw or a claim. Every drawn card was in a stock, and
    the stocks of a deal hold at most the deck once and once more per
    reshuffle; every claim puts at least three cards on the table for good.
    """
    deck = rules.deck_size
    return deck * (rules.reshuffle_limit + 1) + deck // 3


def max_history(rules: Rules, players: int) -> int:
    """The most actions a deal under ``rules`` at ``players`` can have.

    Per turn: its start, its discard and an answer from each other player in
    the claim window; one more window for the upcard; and each card at most
    once laid down or laid off.
    """
    return (max_turns(rules) + 1) * (players + 1) + rules.deck_size


def _history(rules: Rules, players: int) -> J.Check[list[Action]]:
    def read_move(value: Any, path: str) -> Action:
        try:
            action = parse_move(value)
        except NotationError as error:
            raise InvalidStateError(
                Message("invalid_state.error_2", "{path}: {reason}", path=path, reason=error.reason)
            ) from None
        if action.player >= players:
            raise InvalidStateError(
                Message(
                    "invalid_state.there_no_player",
                    "{path}: there is no player {player}",
                    path=path,
                    player=action.player,
                )
            )
        return action

    move = J.string(80).then(read_move, description="a move such as 'P1 Discard 7H'")
    return J.array(move, max_history(rules, players))


def _common_fields(rules: Rules, players: int, reading: bool) -> dict[str, J.Check[Any]]:
    """The fields states and observations share, with bounds from the rules
    and the table size. When ``reading``, the rules are already read."""
    player = J.integer(0, players - 1)
    card = card_check(rules.deck_size)
    seats = J.array(player, players)
    meld = J.Object({
        "owner": player,
        "kind": J.string(enum=tuple(k.value for k in MeldKind)),
        "cards": J.array(card, 14),
        "joker_as": J.nullable(card_check(JOKER_INDEX)),
    })  # fmt: skip
    pending = J.Object(
        {
            "player": player,
            "cards": J.array(card, 5),
            "joker_as": J.nullable(card_check(JOKER_INDEX)),
        }
    )
    return {
        "rules": J.raw({}) if reading else RULES_CHECK,
        "players": J.integer(MIN_PLAYERS, MAX_PLAYERS),
        "dealer": player,
        "phase": J.string(enum=tuple(p.value for p in Phase)),
        "current_player": J.nullable(player),
        "discard_pile": J.array(card, rules.deck_size),
        "melds": J.array(J.Check(meld.read, meld.schema), rules.deck_size),
        "played": seats,
        "normal_turns": seats,
        "turns_done": J.integer(0, max_turns(rules)),
        "discarder": J.integer(-1, players - 1),
        "claim_queue": J.array(player, players - 1),
        "pending_pon": J.nullable(J.Check(pending.read, pending.schema)),
        "turn_clean": J.boolean,
        "turn_by_claim": J.boolean,
        "reshuffles": J.integer(0, rules.reshuffle_limit),
        "reshuffled": J.array(card, rules.deck_size),
        "winner": J.nullable(player),
        "deal_scores": J.nullable(J.array(J.integer(-MAX_SCORE, MAX_SCORE), players)),
        "bonus": J.boolean,
        "end_reason": J.nullable(J.string()),
        "history": _history(rules, players),
    }  # fmt: skip


@lru_cache(maxsize=256)
def state_object(rules: Rules, players: int, reading: bool = True) -> J.Object:
    card = card_check(rules.deck_size)
    fields = _common_fields(rules, players, reading)
    fields["hands"] = J.array(J.array(card, 14), players)
    fields["stock"] = J.array(card, rules.deck_size)
    fields["seed"] = J.integer(0, MAX_SEED)
    return J.Object(
        fields,
        header=("sevenbridge.state", FORMAT_VERSION),
        title="Seven Bridge state",
        defaults=ADDED_FIELDS,
    )


@lru_cache(maxsize=256)
def observation_object(rules: Rules, players: int, reading: bool = True) -> J.Object:
    fields = _common_fields(rules, players, reading)
    fields["viewer"] = J.integer(0, players - 1)
    fields["hand"] = J.array(card_check(rules.deck_size), 14)
    fields["hand_sizes"] = J.array(J.integer(0, 14), players)
    fields["stock_size"] = J.integer(0, rules.deck_size)
    fields["shown_hands"] = J.nullable(J.array(J.array(card_check(rules.deck_size), 14), players))
    return J.Object(
        fields,
        header=("sevenbridge.observation", FORMAT_VERSION),
        title="Seven Bridge observation",
        defaults=ADDED_FIELDS,
    )


def json_schema(document: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a document: ``"state"``,
    ``"observation"``, ``"rules"`` or ``"action"``.

    It is built from the same field declarations the reader checks, with the
    widest bounds (five players, the joker, the most reshuffles). Each field is
    checked on its own; relations between fields are the reader's to check.

    >>> json_schema("action")["oneOf"][0]["properties"]["type"]
    {'enum': ['Draw']}
    """
    loosest = Rules(jokers=1, reshuffle_limit=MAX_RESHUFFLE_LIMIT)
    if document == "state":
        schema = state_object(loosest, MAX_PLAYERS, False).schema
    elif document == "observation":
        schema = observation_object(loosest, MAX_PLAYERS, False).schema
    elif document == "rules":
        schema = RULES_DOC.schema
        schema["title"] = "Seven Bridge rules"
    elif document == "action":
        variants = []
        for obj in _ACTIONS.values():
            one = obj.schema
            one["properties"] = {
                "format": {"const": "sevenbridge.action"},
                "version": {"const": FORMAT_VERSION},
                **one["properties"],
            }
            one["required"] = list(one["properties"])
            variants.append(one)
        schema = {"title": "Seven Bridge action", "oneOf": variants}
    else:
        raise InvalidStateError(
            Message(
                "invalid_state.no_schema_for_choose",
                "no schema for {document}: choose 'state', 'observation', 'rules' or 'action'",
                document=quote(document),
            )
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://sevenbridge.readthedocs.io/schema/v{FORMAT_VERSION}/{document}.json",
        **schema,
    }

"""JSON documents for states, observations, rules and actions.

Every document is an object with ``"format"`` (what it is) and ``"version"``
(currently 1). ``from_json`` is meant for untrusted input: it checks every
field (well-formed JSON without duplicate keys, known fields, real cards, each
card once, hand and pile sizes that fit the rules and the phase, melds that are
valid melds, a history that fits the turn counters) and raises
:class:`~sevenbridge.InvalidStateError` saying what is wrong and where. It
never returns a half-built value and never uses pickle or eval.

The fields of each document are declared once, below; the reader checks them
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
from functools import cache, lru_cache
from typing import Any

import attrs

from . import _hooks
from . import _jsonread as J
from . import _tables as T
from ._checks import MAX_PLAYERS, MAX_SEED, MIN_PLAYERS
from .actions import MAX_TARGET, Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import CARDS, JOKER_INDEX, Card
from .engine import _may_claim, apply, deal
from .errors import (
    IllegalActionError,
    InvalidCardError,
    InvalidStateError,
    RulesConfigError,
    quote,
)
from .melds import MeldKind, analyse
from .notation import NotationError, format_move, parse_move
from .rules import MAX_RESHUFFLE_LIMIT, PonTieBreak, Rules
from .scoring import score_deal
from .state import KINDS, GameState, History, Phase, TableMeld, meld_cards, table_meld
from .views import Observation

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

FORMAT_VERSION = 1
_KIND_CODES = {kind: code for code, kind in enumerate(KINDS)}
_ACTION_TYPES: dict[str, type[Action]] = {
    k.__name__: k for k in (Draw, Pass, Chi, Pon, LayDown, LayOff, Discard)
}
#: A deal's score never comes near this (the largest hand under the largest
#: joker multiplier scores well under a million).
MAX_SCORE = 10**9


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
# the fields of each document
# --------------------------------------------------------------------------------------
@cache
def _card(deck_size: int = JOKER_INDEX + 1) -> J.Check[int]:
    """A card such as ``"7H"`` of a ``deck_size``-card deck, read as its index
    (the schema lists the cards as this library writes them)."""

    def read(value: Any, path: str) -> int:
        if not isinstance(value, str):
            raise InvalidStateError(
                f"{path}: expected a card such as '7H', found {J.kind_of(value)}"
            )
        try:
            card = Card.parse(value)
        except InvalidCardError as error:
            raise InvalidStateError(f"{path}: {error}") from None
        if card.index >= deck_size:
            raise InvalidStateError(f"{path}: {card} is not in a {deck_size}-card deck")
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


def _make_rules(values: dict[str, Any], path: str) -> Rules:
    try:
        return Rules(**values)
    except RulesConfigError as error:
        raise InvalidStateError(f"{path}: {error}") from None


_RULES_FIELDS = {f.name: _rules_field(f) for f in attrs.fields(Rules)}
_RULES = J.Object(_RULES_FIELDS, title="Seven Bridge rules")
_RULES_DOC = J.Object(_RULES_FIELDS, header=("sevenbridge.rules", FORMAT_VERSION))
_RULES_CHECK: J.Check[Rules] = J.Check(
    lambda v, p: _make_rules(_RULES.read(v, p), p), _RULES.schema
)


def _action_objects(players: int) -> dict[str, J.Object]:
    player = J.integer(0, players - 1)
    card = _card()
    out = {}
    for name, kind in _ACTION_TYPES.items():
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
_ACTION_DOCS = {
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
            raise InvalidStateError(f"{path}: {error.reason}") from None
        if action.player >= players:
            raise InvalidStateError(f"{path}: there is no player {action.player}")
        return action

    move = J.string(80).then(read_move, description="a move such as 'P1 Discard 7H'")
    return J.array(move, max_history(rules, players))


def _common_fields(rules: Rules, players: int, reading: bool) -> dict[str, J.Check[Any]]:
    """The fields states and observations share, with bounds from the rules
    and the table size. When ``reading``, the rules are already read."""
    player = J.integer(0, players - 1)
    card = _card(rules.deck_size)
    seats = J.array(player, players)
    meld = J.Object({
        "owner": player,
        "kind": J.string(enum=tuple(k.value for k in MeldKind)),
        "cards": J.array(card, 14),
        "joker_as": J.nullable(_card(JOKER_INDEX)),
    })  # fmt: skip
    pending = J.Object(
        {"player": player, "cards": J.array(card, 5), "joker_as": J.nullable(_card(JOKER_INDEX))}
    )
    return {
        "rules": J.raw({}) if reading else _RULES_CHECK,
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
        "winner": J.nullable(player),
        "deal_scores": J.nullable(J.array(J.integer(-MAX_SCORE, MAX_SCORE), players)),
        "bonus": J.boolean,
        "end_reason": J.nullable(J.string()),
        "history": _history(rules, players),
    }  # fmt: skip


@lru_cache(maxsize=256)
def _state_object(rules: Rules, players: int, reading: bool = True) -> J.Object:
    card = _card(rules.deck_size)
    fields = _common_fields(rules, players, reading)
    fields["hands"] = J.array(J.array(card, 14), players)
    fields["stock"] = J.array(card, rules.deck_size)
    fields["seed"] = J.integer(0, MAX_SEED)
    return J.Object(
        fields, header=("sevenbridge.state", FORMAT_VERSION), title="Seven Bridge state"
    )


@lru_cache(maxsize=256)
def _observation_object(rules: Rules, players: int, reading: bool = True) -> J.Object:
    fields = _common_fields(rules, players, reading)
    fields["viewer"] = J.integer(0, players - 1)
    fields["hand"] = J.array(_card(rules.deck_size), 14)
    fields["hand_sizes"] = J.array(J.integer(0, 14), players)
    fields["stock_size"] = J.integer(0, rules.deck_size)
    return J.Object(
        fields, header=("sevenbridge.observation", FORMAT_VERSION), title="Seven Bridge observation"
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
        schema = _state_object(loosest, MAX_PLAYERS, False).schema
    elif document == "observation":
        schema = _observation_object(loosest, MAX_PLAYERS, False).schema
    elif document == "rules":
        schema = _RULES_DOC.schema
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
            f"no schema for {document!r}: choose 'state', 'observation', 'rules' or 'action'"
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://sevenbridge.readthedocs.io/schema/v{FORMAT_VERSION}/{document}.json",
        **schema,
    }


# --------------------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------------------
def rules_from_json(text: str | bytes) -> Rules:
    """Read rules written by :func:`rules_to_json` (every field must be present)."""
    return _make_rules(_RULES_DOC.read(J.parse(text, "rules"), "rules"), "rules")


def _action_from(value: Any, path: str) -> Action:
    if not isinstance(value, dict):
        raise InvalidStateError(f"{path}: expected a JSON object, found {J.kind_of(value)}")
    name = value.get("type")
    if not isinstance(name, str) or name not in _ACTION_DOCS:
        shown = "nothing" if "type" not in value else quote(name, 40)
        raise InvalidStateError(f"{path}.type: {shown} is not an action type")
    f = _ACTION_DOCS[name].read(value, path)
    player = f["player"]
    kind = _ACTION_TYPES[name]
    if kind is Draw or kind is Pass:
        return kind(player)
    joker = None if f.get("joker_as") is None else CARDS[f["joker_as"]]
    if kind is Discard:
        return Discard(player, CARDS[f["card"]])
    if kind is LayOff:
        return LayOff(player, CARDS[f["card"]], f["target"], joker)
    cards = f["cards"]
    if len(set(cards)) != len(cards):
        raise InvalidStateError(f"{path}.cards: a card is given twice")
    group: type[Chi] | type[Pon] | type[LayDown] = kind  # type: ignore[assignment]
    return group(player, tuple(CARDS[c] for c in cards), joker)


def action_from_json(text: str | bytes) -> Action:
    """Read an action written by :func:`action_to_json`."""
    return _action_from(J.parse(text, "action"), "action")


def _mask(cards: list[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _read(raw: Any, path: str, build: Any) -> dict[str, Any]:
    """Read a state or observation: rules and table size first, then every
    field with bounds that depend on them."""
    J.Object({}, header=(f"sevenbridge.{path}", FORMAT_VERSION)).read_header(raw, path)
    rules = _RULES_CHECK(raw["rules"], f"{path}.rules") if "rules" in raw else Rules()
    players = raw.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        players = MAX_PLAYERS
    players = min(max(players, MIN_PLAYERS), MAX_PLAYERS)
    obj: J.Object = build(rules, players)
    f = obj.read(raw, path)
    f["rules"] = rules
    _check_melds(f, path)
    _check_unique(f, path)
    return f


def _check_melds(f: dict[str, Any], path: str) -> None:
    rules: Rules = f["rules"]
    melds = []
    for i, m in enumerate(f["melds"]):
        cards, joker = m["cards"], m["joker_as"]
        where = f"{path}.melds[{i}]"
        if not cards:
            raise InvalidStateError(f"{where}.cards: a meld needs cards")
        readings, reason = analyse(cards, rules)
        if reason is not None:
            raise InvalidStateError(f"{where}: not a meld: {reason}")
        want = -1 if joker is None else joker
        kind = MeldKind(m["kind"])
        if not any(r[0] is kind and r[2] == want for r in readings):
            raise InvalidStateError(
                f"{where}: {' '.join(_names(cards))} is not a {kind.value}"
                + ("" if joker is None else f" with the joker as {CARDS[joker]}")
            )
        melds.append((m["owner"], _KIND_CODES[kind], _mask(cards), want, cards))
    f["melds"] = melds
    pending = f["pending_pon"]
    if pending is not None:
        joker = pending["joker_as"]
        f["pending_pon"] = (
            pending["player"], _mask(pending["cards"]), -1 if joker is None else joker,
            pending["cards"],
        )  # fmt: skip


def _check_unique(f: dict[str, Any], path: str) -> None:
    for key in ("played", "normal_turns", "claim_queue"):
        if len(set(f[key])) != len(f[key]):
            raise InvalidStateError(f"{path}.{key}: a player is listed twice")
    f["played"] = _mask(f["played"])
    f["normal_turns"] = _mask(f["normal_turns"])
    f["claim_queue"] = tuple(f["claim_queue"])


def _check_position(f: dict[str, Any], hands: list[int], stock: int, path: str) -> None:
    """Checks across fields: the position must be one the engine can be in.

    ``hands`` are the hand masks (or, for an observation, -1 for hidden hands),
    ``stock`` the stock's size.
    """
    rules: Rules = f["rules"]
    n = f["players"]
    phase = Phase(f["phase"])
    cur = f["current_player"]
    sizes = f["hand_sizes"]
    if (cur is None) != (phase is Phase.OVER):
        raise InvalidStateError(
            f"{path}.current_player: must be null exactly when the phase is 'over'"
        )
    for p, size in enumerate(sizes):
        limit = 8 if (phase is Phase.PLAY and p == cur) or phase is Phase.OVER else 7
        if size > limit:
            raise InvalidStateError(
                f"{path}: player {p} holds {size} cards; at most {limit} in the {phase.value} phase"
            )
    if phase is Phase.PLAY and sizes[cur] == 0:
        raise InvalidStateError(f"{path}: player {cur} is to play but holds no card")
    if phase is Phase.DRAW and stock == 0:
        raise InvalidStateError(
            f"{path}.stock: empty in the draw phase (the deal would have ended or reshuffled)"
        )
    if phase is Phase.CLAIM and not f["discard_pile"]:
        raise InvalidStateError(f"{path}.discard_pile: empty while a discard is open to claims")
    if phase in (Phase.CLAIM, Phase.DRAW) and (f["turn_clean"] or f["turn_by_claim"]):
        raise InvalidStateError(
            f"{path}: turn_clean and turn_by_claim describe a turn in progress; they are "
            "false between turns"
        )
    if f["claim_queue"] and phase is not Phase.CLAIM:
        raise InvalidStateError(f"{path}.claim_queue: only the claim phase has players waiting")
    if cur is not None and cur in f["claim_queue"]:
        raise InvalidStateError(f"{path}.claim_queue: holds the player asked now")
    if phase is Phase.CLAIM and (cur == f["discarder"] or f["discarder"] in f["claim_queue"]):
        raise InvalidStateError(f"{path}: the discarder cannot be asked to pon their own discard")
    if phase is Phase.CLAIM:
        for q in (cur, *f["claim_queue"]):
            if not _may_claim(rules.pon_timing, q, f["normal_turns"], f["turns_done"], n):
                raise InvalidStateError(
                    f"{path}: player {q} may not pon yet (pon_timing="
                    f"'{rules.pon_timing.value}'), so cannot be asked"
                )
    _check_pending(f, hands, path)
    if _owners(f) & ~f["played"]:
        raise InvalidStateError(f"{path}.played: must include every meld's owner")
    if f["normal_turns"].bit_count() > f["turns_done"]:
        raise InvalidStateError(f"{path}.turns_done: fewer turns than players who have had one")
    if f["reshuffles"] and rules.stock_exhaustion.value == "void":
        raise InvalidStateError(f"{path}.reshuffles: these rules never reshuffle")
    _check_history(f, path)
    _check_end(f, hands, path)


def _check_pending(f: dict[str, Any], hands: list[int], path: str) -> None:
    pending = f["pending_pon"]
    if pending is None:
        return
    rules: Rules = f["rules"]
    who, used, joker, cards = pending
    if Phase(f["phase"]) is not Phase.CLAIM or rules.pon_tie_break is not PonTieBreak.JOKER_HOLDER:
        raise InvalidStateError(
            f"{path}.pending_pon: a pon waits only in the claim phase under the "
            "joker-holder tie-break"
        )
    if who == f["current_player"] or who in f["claim_queue"] or who == f["discarder"]:
        raise InvalidStateError(f"{path}.pending_pon: player {who} cannot hold a waiting pon now")
    if hands[who] >= 0 and used & ~hands[who]:
        raise InvalidStateError(f"{path}.pending_pon: player {who} does not hold those cards")
    group = [*cards, f["discard_pile"][-1]]
    readings, _ = analyse(group, rules)
    if not any(r[0] is MeldKind.SET and r[2] == joker for r in readings):
        raise InvalidStateError(f"{path}.pending_pon: those cards do not pon the top discard")


def _check_history(f: dict[str, Any], path: str) -> None:
    """A history is empty (a set-up position) or agrees with the turn counters:
    one discard per completed turn, and no more turn starts than turns."""
    history: list[Action] = f["history"]
    if not history:
        return
    discards = sum(1 for a in history if type(a) is Discard)
    if discards != f["turns_done"]:
        raise InvalidStateError(
            f"{path}.history: holds {discards} discards, but turns_done says {f['turns_done']} "
            "turns ended (each turn ends with one discard)"
        )
    starts = sum(1 for a in history if type(a) in (Draw, Chi))
    if starts > f["turns_done"] + 1:
        raise InvalidStateError(
            f"{path}.history: {starts} draws and chis for {f['turns_done']} completed turns"
        )


def _check_end(f: dict[str, Any], hands: list[int], path: str) -> None:
    rules: Rules = f["rules"]
    n = f["players"]
    sizes = f["hand_sizes"]
    winner, scores = f["winner"], f["deal_scores"]
    if Phase(f["phase"]) is not Phase.OVER:
        if winner is not None or scores is not None or f["bonus"] or f["end_reason"] is not None:
            raise InvalidStateError(
                f"{path}: winner, deal_scores, bonus and end_reason belong to a finished deal"
            )
        return
    if scores is None or len(scores) != n:
        raise InvalidStateError(f"{path}.deal_scores: a finished deal has one score per player")
    if f["end_reason"] is None:
        raise InvalidStateError(f"{path}.end_reason: a finished deal says why it ended")
    if winner is None:
        if any(scores) or f["bonus"]:
            raise InvalidStateError(f"{path}.deal_scores: a void deal scores nothing")
    elif sizes[winner] != 0:
        raise InvalidStateError(f"{path}.winner: player {winner} still holds cards")
    elif all(h >= 0 for h in hands) and tuple(scores) != score_deal(
        [T.bits(h) for h in hands], winner, f["bonus"], rules
    ):
        raise InvalidStateError(f"{path}.deal_scores: do not match the hands left")


def _table(f: dict[str, Any]) -> tuple[TableMeld, ...]:
    rules: Rules = f["rules"]
    return tuple(
        table_meld(owner, kind, mask, joker, rules.ace_high, rules.joker_lay_off)
        for owner, kind, mask, joker, _cards in f["melds"]
    )


def _owners(f: dict[str, Any]) -> int:
    out = 0
    for owner, *_ in f["melds"]:
        out |= 1 << owner
    return out


def _pending(f: dict[str, Any]) -> tuple[int, int, int] | None:
    p = f["pending_pon"]
    return None if p is None else (p[0], p[1], p[2])


def _each_card_once(
    places: list[tuple[str, list[int]]], f: dict[str, Any], path: str
) -> dict[int, str]:
    """Where each card is; a card in two places is an error."""
    places = [*places, ("discard_pile", f["discard_pile"])]
    places += [(f"melds[{i}]", m[4]) for i, m in enumerate(f["melds"])]
    where: dict[int, str] = {}
    for name, cards in places:
        for c in cards:
            if c in where:
                raise InvalidStateError(
                    f"{path}.{name}: {CARDS[c]} is also in {where[c]}; each card is in one place"
                )
            where[c] = name
    return where


def state_from_json(text: str | bytes, *, verify: bool = False) -> GameState:
    """Read and check a state written by :func:`state_to_json` (see
    :meth:`sevenbridge.GameState.from_json` for ``verify``)."""
    f = _read(J.parse(text, "state"), "state", _state_object)
    rules: Rules = f["rules"]
    n = f["players"]
    hands_lists = f["hands"]
    if len(hands_lists) != n:
        raise InvalidStateError(f"state.hands: {len(hands_lists)} hands for {n} players")
    stock = f["stock"]
    places = [(f"hands[{p}]", h) for p, h in enumerate(hands_lists)]
    places += [("stock", stock)]
    where = _each_card_once(places, f, "state")
    missing = [c for c in range(rules.deck_size) if c not in where]
    if missing:
        raise InvalidStateError(
            f"state: {len(missing)} cards are nowhere, such as {CARDS[missing[0]]}; "
            f"a {rules.deck_size}-card deal has every card somewhere"
        )
    hands = [_mask(h) for h in hands_lists]
    f["hand_sizes"] = [len(h) for h in hands_lists]
    _check_position(f, hands, len(stock), "state")
    state = GameState(
        rules, n, f["dealer"], Phase(f["phase"]), f["current_player"], tuple(hands),
        tuple(stock), tuple(f["discard_pile"]), _table(f), _owners(f), f["played"],
        f["normal_turns"], f["turns_done"], f["discarder"], f["claim_queue"], _pending(f),
        f["turn_clean"], f["turn_by_claim"], f["reshuffles"], f["seed"], f["winner"],
        None if f["deal_scores"] is None else tuple(f["deal_scores"]), f["bonus"],
        f["end_reason"], History.of(f["history"]),
    )  # fmt: skip
    if verify:
        _verify(state)
    return state


def _verify(state: GameState) -> None:
    """Replay the history from the seed; the replay must reach ``state``."""
    if not state.history and state.turns_done:
        raise InvalidStateError(
            "state.history: empty, so the position cannot be verified from the seed"
        )
    replayed = deal(state.rules, players=state.players, dealer=state.dealer, seed=state.seed)
    for i, action in enumerate(state.history):
        try:
            replayed = apply(replayed, action)
        except IllegalActionError as error:
            raise InvalidStateError(
                f"state.history[{i}]: {format_move(action)} is not legal when the deal is "
                f"replayed from seed {state.seed}: {error.reason}"
            ) from None
    if replayed != state:
        differ = next(
            (f.name for f in attrs.fields(GameState) if f.eq
             and getattr(replayed, f.name) != getattr(state, f.name)),
            "the position",
        )  # fmt: skip
        raise InvalidStateError(
            f"state: the history replayed from seed {state.seed} does not lead to this "
            f"position ({differ} differs)"
        )


def observation_from_json(text: str | bytes) -> Observation:
    """Read and check an observation written by :func:`observation_to_json`."""
    f = _read(J.parse(text, "observation"), "observation", _observation_object)
    rules: Rules = f["rules"]
    n = f["players"]
    viewer, hand, sizes = f["viewer"], f["hand"], f["hand_sizes"]
    if len(sizes) != n:
        raise InvalidStateError(f"observation.hand_sizes: {len(sizes)} sizes for {n} players")
    if sizes[viewer] != len(hand):
        raise InvalidStateError("observation.hand_sizes: the viewer's size differs from the hand")
    seen = _each_card_once([("hand", hand)], f, "observation")
    others = sum(s for p, s in enumerate(sizes) if p != viewer)
    if len(seen) + others + f["stock_size"] != rules.deck_size:
        raise InvalidStateError(
            f"observation: hands, stock, discards and melds do not add up to {rules.deck_size} cards"
        )
    hands = [_mask(hand) if p == viewer else -1 for p in range(n)]
    _check_position(f, hands, f["stock_size"], "observation")
    return Observation(
        rules, n, f["dealer"], viewer, Phase(f["phase"]), f["current_player"], _mask(hand),
        tuple(sizes), f["stock_size"], tuple(f["discard_pile"]), _table(f), _owners(f),
        f["played"], f["normal_turns"], f["turns_done"], f["discarder"], f["claim_queue"],
        _pending(f), f["turn_clean"], f["turn_by_claim"], f["reshuffles"], f["winner"],
        None if f["deal_scores"] is None else tuple(f["deal_scores"]), f["bonus"],
        f["end_reason"], History.of(f["history"]),
    )  # fmt: skip


_hooks.register("state_to_json", state_to_json)
_hooks.register("state_from_json", state_from_json)
_hooks.register("observation_to_json", observation_to_json)
_hooks.register("observation_from_json", observation_from_json)
_hooks.register("rules_to_json", rules_to_json)
_hooks.register("rules_from_json", rules_from_json)
_hooks.register("action_to_json", action_to_json)
_hooks.register("action_from_json", action_from_json)

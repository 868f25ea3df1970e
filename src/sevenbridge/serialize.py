"""JSON documents for states, observations, rules and actions.

Every document is an object with ``"format"`` (what it is) and ``"version"``
(currently 1). ``from_json`` is meant for untrusted input: it checks every
field (well-formed JSON, known fields, real cards, each card once, hand and pile
sizes that fit the rules and the phase, melds that are valid melds) and raises
:class:`~sevenbridge.InvalidStateError` saying what is wrong and where. It never
returns a half-built value and never uses pickle or eval.

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

import json
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from . import _tables as T
from .actions import ACTION_TYPES, Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import CARDS, Card
from .engine import _may_claim
from .errors import InvalidCardError, InvalidStateError, RulesConfigError
from .melds import MeldKind, analyse
from .notation import NotationError, format_move, parse_move
from .rules import PonTieBreak, Rules
from .scoring import score_deal
from .state import KINDS, GameState, History, Phase, TableMeld, meld_cards, table_meld
from .views import Observation

__all__ = [
    "FORMAT_VERSION",
    "action_from_json",
    "action_to_json",
    "observation_from_json",
    "observation_to_json",
    "rules_from_json",
    "rules_to_json",
    "state_from_json",
    "state_to_json",
]

FORMAT_VERSION = 1
_KIND_CODES = {kind: code for code, kind in enumerate(KINDS)}
_X = TypeVar("_X")


# --------------------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------------------
def _rules_dict(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in attrs.fields(Rules):
        value = getattr(rules, f.name)
        out[f.name] = value.value if hasattr(value, "value") else value
    return out


def _cards(cards: Any) -> list[str]:
    return [str(CARDS[c]) for c in cards]


def _meld_dict(tm: TableMeld) -> dict[str, Any]:
    return {
        "owner": tm.owner,
        "kind": KINDS[tm.kind].value,
        "cards": _cards(meld_cards(tm)),
        "joker_as": None if tm.joker < 0 else str(CARDS[tm.joker]),
    }


def _players(mask: int) -> list[int]:
    return T.bits(mask)


def _common(state: GameState | Observation) -> dict[str, Any]:
    pending = state.pending_pon
    return {
        "rules": _rules_dict(state.rules),
        "players": state.players,
        "dealer": state.dealer,
        "phase": state.phase.value,
        "current_player": state.current_player,
        "discard_pile": _cards(state.discard_cards),
        "melds": [_meld_dict(tm) for tm in state.table],
        "played": _players(state.played),
        "normal_turns": _players(state.normal_turns),
        "turns_done": state.turns_done,
        "discarder": state.discarder,
        "claim_queue": list(state.claim_queue),
        "pending_pon": None if pending is None else {
            "player": pending[0],
            "cards": _cards(T.bits(pending[1])),
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


def state_to_json(state: GameState, *, indent: int | None = None) -> str:
    """The state as a JSON document (see :meth:`sevenbridge.GameState.to_json`)."""
    doc = {"format": "sevenbridge.state", "version": FORMAT_VERSION, **_common(state)}
    doc["hands"] = [_cards(T.bits(h)) for h in state.hand_masks]
    doc["stock"] = _cards(state.stock_cards)
    doc["seed"] = state.seed
    return json.dumps(doc, indent=indent, ensure_ascii=False)


def observation_to_json(view: Observation, *, indent: int | None = None) -> str:
    """The observation as a JSON document."""
    doc = {"format": "sevenbridge.observation", "version": FORMAT_VERSION, **_common(view)}
    doc["viewer"] = view.viewer
    doc["hand"] = _cards(T.bits(view.hand_mask))
    doc["hand_sizes"] = list(view.hand_sizes)
    doc["stock_size"] = view.stock_size
    return json.dumps(doc, indent=indent, ensure_ascii=False)


def rules_to_json(rules: Rules, *, indent: int | None = None) -> str:
    """The rules as a JSON document."""
    doc = {"format": "sevenbridge.rules", "version": FORMAT_VERSION, **_rules_dict(rules)}
    return json.dumps(doc, indent=indent)


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
    return json.dumps(doc)


# --------------------------------------------------------------------------------------
# reading and checking
# --------------------------------------------------------------------------------------
class _Doc:
    """A JSON object being read, with the path used in error messages."""

    def __init__(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise InvalidStateError(f"{path}: expected a JSON object, found {_kind(value)}")
        self.value = value
        self.path = path
        self.used: set[str] = set()

    def take(self, key: str, check: Callable[[Any, str], _X]) -> _X:
        if key not in self.value:
            raise InvalidStateError(f"{self.path}: missing field {key!r}")
        self.used.add(key)
        return check(self.value[key], f"{self.path}.{key}")

    def done(self) -> None:
        extra = sorted(set(self.value) - self.used)
        if extra:
            raise InvalidStateError(f"{self.path}: unknown field {extra[0]!r}")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), "a value")  # fmt: skip


def _int(lo: int, hi: int | None = None) -> Callable[[Any, str], int]:
    def check(value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidStateError(f"{path}: expected an integer, found {_kind(value)}")
        if value < lo or (hi is not None and value > hi):
            bound = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            raise InvalidStateError(f"{path}: {value} is out of range ({bound})")
        return value

    return check


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidStateError(f"{path}: expected true or false, found {_kind(value)}")
    return value


def _str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise InvalidStateError(f"{path}: expected a string, found {_kind(value)}")
    return value


def _optional(check: Callable[[Any, str], _X]) -> Callable[[Any, str], _X | None]:
    def inner(value: Any, path: str) -> _X | None:
        return None if value is None else check(value, path)

    return inner


def _list(check: Callable[[Any, str], _X], max_len: int = 200) -> Callable[[Any, str], list[_X]]:
    def inner(value: Any, path: str) -> list[_X]:
        if not isinstance(value, list):
            raise InvalidStateError(f"{path}: expected a list, found {_kind(value)}")
        if len(value) > max_len:
            raise InvalidStateError(f"{path}: {len(value)} items is too many")
        return [check(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return inner


def _card(deck_size: int) -> Callable[[Any, str], int]:
    def check(value: Any, path: str) -> int:
        if not isinstance(value, str):
            raise InvalidStateError(f"{path}: expected a card such as '7H', found {_kind(value)}")
        try:
            card = Card.parse(value)
        except InvalidCardError as error:
            raise InvalidStateError(f"{path}: {error}") from None
        if card.index >= deck_size:
            raise InvalidStateError(f"{path}: {card} is not in a {deck_size}-card deck")
        return card.index

    return check


def _parse(text: str | bytes, what: str) -> Any:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InvalidStateError(f"{what}: not UTF-8 text ({error.reason})") from None
    if not isinstance(text, str):
        raise InvalidStateError(f"{what}: expected JSON text, found {type(text).__name__}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidStateError(
            f"{what}: not well-formed JSON: {error.msg} at line {error.lineno}, "
            f"column {error.colno}"
        ) from None
    except RecursionError:
        raise InvalidStateError(f"{what}: not well-formed JSON: nested too deeply") from None


def _header(doc: _Doc, fmt: str) -> None:
    found = doc.take("format", _str)
    if found != fmt:
        raise InvalidStateError(f"{doc.path}.format: expected {fmt!r}, found {found!r}")
    version = doc.take("version", _int(0))
    if version != FORMAT_VERSION:
        raise InvalidStateError(
            f"{doc.path}.version: version {version} is not supported (this library reads "
            f"version {FORMAT_VERSION})"
        )


def _rules_from(value: Any, path: str) -> Rules:
    doc = _Doc(value, path)
    known = {f.name for f in attrs.fields(Rules)}
    fields = {}
    for key in doc.value:
        if key in ("format", "version"):
            continue
        if key not in known:
            raise InvalidStateError(f"{path}: unknown field {key!r}")
        fields[key] = doc.value[key]
    missing = sorted(known - set(fields))
    if missing:
        raise InvalidStateError(f"{path}: missing field {missing[0]!r}")
    try:
        return Rules(**fields)
    except RulesConfigError as error:
        raise InvalidStateError(f"{path}: {error}") from None
    except TypeError as error:  # pragma: no cover - attrs refuses something unexpected
        raise InvalidStateError(f"{path}: {error}") from None


def rules_from_json(text: str | bytes) -> Rules:
    """Read rules written by :func:`rules_to_json` (every field must be present)."""
    raw = _parse(text, "rules")
    doc = _Doc(raw, "rules")
    _header(doc, "sevenbridge.rules")
    return _rules_from(raw, "rules")


def _action_from(value: Any, path: str, players: int = 5) -> Action:
    doc = _Doc(value, path)
    name = doc.take("type", _str)
    kinds = {k.__name__: k for k in ACTION_TYPES}
    kind = kinds.get(name)
    if kind is None:
        raise InvalidStateError(f"{path}.type: {name!r} is not an action type")
    player = doc.take("player", _int(0, players - 1))
    card = _card(53)
    action: Action
    if kind in (Draw, Pass):
        action = kind(player)
    elif kind is Discard:
        action = Discard(player, CARDS[doc.take("card", card)])
    elif kind is LayOff:
        c = doc.take("card", card)
        target = doc.take("target", _int(0, 60))
        j = doc.take("joker_as", _optional(card))
        action = LayOff(player, CARDS[c], target, None if j is None else CARDS[j])
    else:
        cards = doc.take("cards", _list(card, 13))
        if len(set(cards)) != len(cards):
            raise InvalidStateError(f"{path}.cards: a card is given twice")
        j = doc.take("joker_as", _optional(card))
        group: type[Chi] | type[Pon] | type[LayDown] = kind  # type: ignore[assignment]
        action = group(player, tuple(CARDS[c] for c in cards), None if j is None else CARDS[j])
    for key in ("format", "version"):
        doc.used.add(key)
    doc.done()
    return action


def action_from_json(text: str | bytes) -> Action:
    """Read an action written by :func:`action_to_json`."""
    raw = _parse(text, "action")
    doc = _Doc(raw, "action")
    _header(doc, "sevenbridge.action")
    return _action_from(raw, "action")


def _mask(cards: list[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _read_common(doc: _Doc) -> dict[str, Any]:
    """Fields shared by states and observations, each checked on its own."""
    path = doc.path
    rules = doc.take("rules", _rules_from)
    n = doc.take("players", _int(2, 5))
    player = _int(0, n - 1)
    card = _card(rules.deck_size)
    out: dict[str, Any] = {"rules": rules, "players": n}
    out["dealer"] = doc.take("dealer", player)
    phase_text = doc.take("phase", _str)
    try:
        out["phase"] = Phase(phase_text)
    except ValueError:
        raise InvalidStateError(
            f"{path}.phase: {phase_text!r} is not one of claim, draw, play, over"
        ) from None
    out["current_player"] = doc.take("current_player", _optional(player))
    out["discard_pile"] = doc.take("discard_pile", _list(card, 60))
    melds = []
    for i, raw in enumerate(doc.take("melds", _list(lambda v, p: v, 60))):
        m = _Doc(raw, f"{path}.melds[{i}]")
        owner = m.take("owner", player)
        kind_text = m.take("kind", _str)
        kinds = {k.value: k for k in MeldKind}
        if kind_text not in kinds:
            raise InvalidStateError(f"{m.path}.kind: {kind_text!r} is not set, run or seven")
        cards = m.take("cards", _list(card, 14))
        joker = m.take("joker_as", _optional(_card(52)))
        m.done()
        if not cards:
            raise InvalidStateError(f"{m.path}.cards: a meld needs cards")
        readings, reason = analyse(cards, rules)
        if reason is not None:
            raise InvalidStateError(f"{m.path}: not a meld: {reason}")
        want = -1 if joker is None else joker
        if not any(r[0] is kinds[kind_text] and r[2] == want for r in readings):
            raise InvalidStateError(
                f"{m.path}: {' '.join(_cards(cards))} is not a {kind_text}"
                + ("" if joker is None else f" with the joker as {CARDS[joker]}")
            )
        melds.append((owner, _KIND_CODES[kinds[kind_text]], _mask(cards), want, cards))
    out["melds"] = melds
    out["played"] = _mask_players(doc.take("played", _list(player, 5)), f"{path}.played")
    out["normal_turns"] = _mask_players(
        doc.take("normal_turns", _list(player, 5)), f"{path}.normal_turns"
    )
    out["turns_done"] = doc.take("turns_done", _int(0, 100_000))
    out["discarder"] = doc.take("discarder", _int(-1, n - 1))
    queue = doc.take("claim_queue", _list(player, 4))
    if len(set(queue)) != len(queue):
        raise InvalidStateError(f"{path}.claim_queue: a player is listed twice")
    out["claim_queue"] = tuple(queue)
    pending_raw = doc.take("pending_pon", lambda v, p: v)
    pending = None
    if pending_raw is not None:
        pd = _Doc(pending_raw, f"{path}.pending_pon")
        who = pd.take("player", player)
        cards = pd.take("cards", _list(card, 5))
        joker = pd.take("joker_as", _optional(_card(52)))
        pd.done()
        pending = (who, _mask(cards), -1 if joker is None else joker, cards)
    out["pending_pon"] = pending
    out["turn_clean"] = doc.take("turn_clean", _bool)
    out["turn_by_claim"] = doc.take("turn_by_claim", _bool)
    out["reshuffles"] = doc.take("reshuffles", _int(0, rules.reshuffle_limit))
    out["winner"] = doc.take("winner", _optional(player))
    out["deal_scores"] = doc.take("deal_scores", _optional(_list(_int(-(10**9), 10**9), 5)))
    out["bonus"] = doc.take("bonus", _bool)
    out["end_reason"] = doc.take("end_reason", _optional(_str))
    history = []
    for i, line in enumerate(doc.take("history", _list(_str, 100_000))):
        try:
            action = parse_move(line)
        except NotationError as error:
            raise InvalidStateError(f"{path}.history[{i}]: {error.reason}") from None
        if action.player >= n:
            raise InvalidStateError(f"{path}.history[{i}]: there is no player {action.player}")
        history.append(action)
    out["history"] = history
    return out


def _mask_players(players: list[int], path: str) -> int:
    if len(set(players)) != len(players):
        raise InvalidStateError(f"{path}: a player is listed twice")
    return _mask(players)


def _check_position(f: dict[str, Any], hands: list[int], stock: int, path: str) -> None:
    """Checks across fields: the position must be one the engine can be in.

    ``hands`` are the hand masks (or, for an observation, only what is known),
    ``stock`` the stock's size.
    """
    rules: Rules = f["rules"]
    n = f["players"]
    phase: Phase = f["phase"]
    cur = f["current_player"]
    sizes = f["hand_sizes"]
    if (cur is None) != (phase is Phase.OVER):
        raise InvalidStateError(
            f"{path}.current_player: must be null exactly when the phase is 'over'"
        )
    # sizes
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
    pending = f["pending_pon"]
    if pending is not None:
        who, used, joker, cards = pending
        if phase is not Phase.CLAIM or rules.pon_tie_break is not PonTieBreak.JOKER_HOLDER:
            raise InvalidStateError(
                f"{path}.pending_pon: a pon waits only in the claim phase under the "
                "joker-holder tie-break"
            )
        if who == cur or who in f["claim_queue"] or who == f["discarder"]:
            raise InvalidStateError(
                f"{path}.pending_pon: player {who} cannot hold a waiting pon now"
            )
        if hands[who] >= 0 and used & ~hands[who]:
            raise InvalidStateError(f"{path}.pending_pon: player {who} does not hold those cards")
        group = [*cards, f["discard_pile"][-1]]
        readings, _ = analyse(group, rules)
        if not any(r[0] is MeldKind.SET and r[2] == joker for r in readings):
            raise InvalidStateError(f"{path}.pending_pon: those cards do not pon the top discard")
    if _owners(f) & ~f["played"]:
        raise InvalidStateError(f"{path}.played: must include every meld's owner")
    if f["normal_turns"].bit_count() > f["turns_done"]:
        raise InvalidStateError(f"{path}.turns_done: fewer turns than players who have had one")
    if f["reshuffles"] and rules.stock_exhaustion.value == "void":
        raise InvalidStateError(f"{path}.reshuffles: these rules never reshuffle")
    # the end
    winner, scores = f["winner"], f["deal_scores"]
    if phase is not Phase.OVER:
        if winner is not None or scores is not None or f["bonus"] or f["end_reason"] is not None:
            raise InvalidStateError(
                f"{path}: winner, deal_scores, bonus and end_reason belong to a finished deal"
            )
    else:
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


def _log(history: list[Action]) -> History | None:
    return History.of(history)


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


def state_from_json(text: str | bytes) -> GameState:
    """Read and check a state written by :func:`state_to_json`."""
    raw = _parse(text, "state")
    doc = _Doc(raw, "state")
    _header(doc, "sevenbridge.state")
    f = _read_common(doc)
    rules: Rules = f["rules"]
    card = _card(rules.deck_size)
    n = f["players"]
    hands_lists = doc.take("hands", _list(_list(card, 14), 5))
    if len(hands_lists) != n:
        raise InvalidStateError(f"state.hands: {len(hands_lists)} hands for {n} players")
    stock = doc.take("stock", _list(card, 60))
    seed = doc.take("seed", _int(0, 2**64 - 1))
    doc.done()
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
    return GameState(
        rules, n, f["dealer"], f["phase"], f["current_player"], tuple(hands), tuple(stock),
        tuple(f["discard_pile"]), _table(f), _owners(f), f["played"], f["normal_turns"],
        f["turns_done"], f["discarder"], f["claim_queue"], _pending(f), f["turn_clean"],
        f["turn_by_claim"], f["reshuffles"], seed, f["winner"],
        None if f["deal_scores"] is None else tuple(f["deal_scores"]), f["bonus"],
        f["end_reason"], _log(f["history"]),
    )  # fmt: skip


def observation_from_json(text: str | bytes) -> Observation:
    """Read and check an observation written by :func:`observation_to_json`."""
    raw = _parse(text, "observation")
    doc = _Doc(raw, "observation")
    _header(doc, "sevenbridge.observation")
    f = _read_common(doc)
    rules: Rules = f["rules"]
    n = f["players"]
    viewer = doc.take("viewer", _int(0, n - 1))
    hand = doc.take("hand", _list(_card(rules.deck_size), 14))
    sizes = doc.take("hand_sizes", _list(_int(0, 14), 5))
    stock_size = doc.take("stock_size", _int(0, rules.deck_size))
    doc.done()
    if len(sizes) != n:
        raise InvalidStateError(f"observation.hand_sizes: {len(sizes)} sizes for {n} players")
    if sizes[viewer] != len(hand):
        raise InvalidStateError("observation.hand_sizes: the viewer's size differs from the hand")
    seen = _each_card_once([("hand", hand)], f, "observation")
    if (
        len(seen) + sum(s for p, s in enumerate(sizes) if p != viewer) + stock_size
        != rules.deck_size
    ):
        raise InvalidStateError(
            f"observation: hands, stock, discards and melds do not add up to {rules.deck_size} cards"
        )
    f["hand_sizes"] = sizes
    hands = [_mask(hand) if p == viewer else -1 for p in range(n)]
    _check_position(f, hands, stock_size, "observation")
    return Observation(
        rules, n, f["dealer"], viewer, f["phase"], f["current_player"], _mask(hand),
        tuple(sizes), stock_size, tuple(f["discard_pile"]), _table(f), _owners(f),
        f["played"], f["normal_turns"], f["turns_done"], f["discarder"], f["claim_queue"],
        _pending(f), f["turn_clean"], f["turn_by_claim"], f["reshuffles"], f["winner"],
        None if f["deal_scores"] is None else tuple(f["deal_scores"]), f["bonus"],
        f["end_reason"], _log(f["history"]),
    )  # fmt: skip

"""JSON documents for mahjong rules, states and actions.

Every document is an object with ``"format"`` and ``"version"`` (currently 1).
Reading is meant for untrusted input, with the same discipline as the card
game's: well-formed JSON without duplicate keys, known fields only, real tiles,
every tile of the set exactly once, hand sizes that fit the phase, melds that
are real sets, and a phase whose fields agree. A problem raises
:class:`~sevenbridge.InvalidStateError` naming the field.

>>> from sevenbridge.mahjong import GameState, deal
>>> GameState.from_json(deal(seed=1).to_json()) == deal(seed=1)
True
>>> GameState.from_json('{"format": "sevenbridge.mahjong.state", "version": 1}')
Traceback (most recent call last):
...
sevenbridge.errors.InvalidStateError: state: missing field 'rules'
"""

from __future__ import annotations

import enum
import json
from typing import Any

import attrs

from .._kit import jsonread as J
from .._kit.history import History
from ..errors import InvalidStateError, Message, RulesConfigError, SevenBridgeError
from .actions import Action, parse_action
from .engine import check_state, ghost_seats, legal_actions
from .hands import Meld, MeldKind
from .rules import Rules
from .state import GameState, Phase
from .tiles import _NAMES, Tile
from .views import Observation, observe, sample_state

__all__ = [
    "FORMAT_VERSION",
    "action_from_json",
    "action_to_json",
    "json_schema",
    "observation_from_json",
    "observation_to_json",
    "rules_from_json",
    "rules_to_json",
    "state_from_json",
    "state_to_json",
]

#: The version of every mahjong document this library writes and reads.
FORMAT_VERSION = 1

_TILE_BY_NAME = {name: Tile(i) for i, name in enumerate(_NAMES)}
_tile: J.Check[Tile] = J.string(2, tuple(_NAMES)).then(lambda v, p: _TILE_BY_NAME[v])


def _tiles(max_items: int) -> J.Check[tuple[Tile, ...]]:
    return J.array(_tile, max_items).then(lambda v, p: tuple(v))


def _per_seat(check: J.Check[Any]) -> J.Check[tuple[Any, ...]]:
    return J.array(check, 4).then(lambda v, p: tuple(v), minItems=2)


# --- rules ------------------------------------------------------------------------------


def _rules_fields() -> dict[str, J.Check[Any]]:
    fields: dict[str, J.Check[Any]] = {}
    for f in attrs.fields(Rules):
        if f.type in ("bool", bool):
            fields[f.name] = J.boolean
        elif f.type in ("int", int):
            fields[f.name] = J.integer(f.metadata["minimum"], f.metadata["maximum"])
        else:
            enum_type = type(f.default)
            assert issubclass(enum_type, enum.Enum)
            fields[f.name] = J.string(40, tuple(m.value for m in enum_type))
    return fields


RULES_DOC = J.Object(
    _rules_fields(),
    header=("sevenbridge.mahjong.rules", FORMAT_VERSION),
    # Fields added after version 1 was published: older documents lack them, and
    # were played with the engine of their time (it asked only able players).
    defaults={"claim_window": "able_only"},
)


def _rules_dict(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in attrs.fields(Rules):
        value = getattr(rules, f.name)
        out[f.name] = value.value if isinstance(value, enum.Enum) else value
    return out


def _make_rules(values: dict[str, Any], path: str) -> Rules:
    try:
        return Rules(**values)
    except RulesConfigError as error:
        raise InvalidStateError(
            Message("invalid_state.error", "{path}: {error}", path=path, error=error)
        ) from None


def rules_to_json(rules: Rules, *, indent: int | None = None) -> str:
    """The rules as a JSON document (see :meth:`sevenbridge.mahjong.Rules.to_json`)."""
    doc = {"format": "sevenbridge.mahjong.rules", "version": FORMAT_VERSION}
    doc.update(_rules_dict(rules))
    return json.dumps(doc, indent=indent)


def rules_from_json(text: str | bytes) -> Rules:
    """Read rules (see :meth:`sevenbridge.mahjong.Rules.from_json`).

    >>> rules_from_json(rules_to_json(Rules(kong=True))).kong
    True
    """
    value = J.parse(text, "rules")
    return _make_rules(RULES_DOC.read(value, "rules"), "rules")


# --- actions ----------------------------------------------------------------------------

ACTION_DOC = J.Object(
    {"action": J.string(40)}, header=("sevenbridge.mahjong.action", FORMAT_VERSION)
)


def action_to_json(action: Action) -> str:
    """An action as a JSON document: its text with the seat, such as ``"P1 Chow 46m"``."""
    return json.dumps(
        {
            "format": "sevenbridge.mahjong.action",
            "version": FORMAT_VERSION,
            "action": f"P{action.player} {action}",
        }
    )


def _read_action(text: str, path: str) -> Action:
    try:
        return parse_action(text)
    except SevenBridgeError as error:
        raise InvalidStateError(
            Message("invalid_state.error", "{path}: {error}", path=path, error=error)
        ) from None


def action_from_json(text: str | bytes) -> Action:
    """Read an action written by :func:`action_to_json`.

    >>> from sevenbridge.mahjong import Chow
    >>> action_from_json(action_to_json(Chow(1, "46m")))
    Chow(1, '4m 6m')
    """
    fields = ACTION_DOC.read(J.parse(text, "action"), "action")
    return _read_action(fields["action"], "action.action")


# --- states -----------------------------------------------------------------------------

_meld_object = J.Object(
    {
        "kind": J.string(10, ("chow", "pung", "kong")),
        "tiles": _tiles(4),
        "owner": J.integer(0, 3),
        "claimed": J.nullable(_tile),
        "concealed": J.boolean,
        "claimed_from": J.nullable(J.integer(0, 3)),
    },
    # Added after version 1 was published: older documents lack it.
    defaults={"claimed_from": None},
)


def _read_meld(value: Any, path: str) -> Meld:
    fields = _meld_object.read(value, path)
    try:
        return Meld(
            MeldKind(fields["kind"]),
            fields["tiles"],
            owner=fields["owner"],
            claimed=fields["claimed"],
            concealed=fields["concealed"],
            claimed_from=fields["claimed_from"],
        )
    except SevenBridgeError as error:
        raise InvalidStateError(
            Message("invalid_state.error", "{path}: {error}", path=path, error=error)
        ) from None


_meld: J.Check[Meld] = J.Check(_read_meld, _meld_object.schema)

#: Most actions a round's history may hold in a document: every tile of the
#: largest wall drawn and discarded, each discard answered by three players.
MAX_HISTORY = 144 * 5

#: The claimed discards: [seat, place in the row] pairs, at most one a meld.
_TAKEN = J.array(
    J.array(J.integer(0, 143), 2).then(lambda v, p: (v[0], v[1]), minItems=2), 16
).then(lambda v, p: tuple(v))

STATE_DOC = J.Object(
    {
        "rules": J.raw(RULES_DOC.schema),
        "players": J.integer(2, 4),
        "seats": J.integer(2, 4),
        "ghosts": J.array(J.integer(0, 3), 2),
        "dealer": J.integer(0, 3),
        "hands": _per_seat(_tiles(14)),
        "wall": _tiles(144),
        "discards": _per_seat(_tiles(144)),
        "melds": J.array(_meld, 16),
        "bonus": _per_seat(_tiles(8)),
        "phase": J.string(10, tuple(p.value for p in Phase)),
        "turn": J.integer(0, 3),
        "current_player": J.integer(0, 3),
        "last_discard": J.nullable(_tile),
        "claims": J.array(J.string(40), 3),
        "asking": J.array(J.integer(0, 3), 3),
        "drew": J.boolean,
        "winner": J.nullable(J.integer(0, 3)),
        "self_drawn": J.boolean,
        "ghost_key": J.integer(0, 2**64 - 1),
        "seed": J.integer(0, 2**64 - 1),
        "history": J.array(J.string(40), MAX_HISTORY),
        "taken": _TAKEN,
        "last_drawn": J.nullable(_tile),
    },
    header=("sevenbridge.mahjong.state", FORMAT_VERSION),
    # Fields added after version 1 was published: older documents lack them.
    defaults={"seed": 0, "history": [], "taken": (), "last_drawn": None},
)


def state_to_json(state: GameState, *, indent: int | None = None) -> str:
    """The state as a JSON document (see :meth:`sevenbridge.mahjong.GameState.to_json`)."""
    doc: dict[str, Any] = {"format": "sevenbridge.mahjong.state", "version": FORMAT_VERSION}
    doc.update(
        rules={"format": "sevenbridge.mahjong.rules", "version": FORMAT_VERSION}
        | _rules_dict(state.rules),
        players=state.players,
        seats=state.seats,
        ghosts=list(state.ghosts),
        dealer=state.dealer,
        hands=[[str(t) for t in h] for h in state.hands],
        wall=[str(t) for t in state.wall],
        discards=[[str(t) for t in d] for d in state.discards],
        melds=[_meld_dict(m) for m in state.melds],
        bonus=[[str(t) for t in b] for b in state.bonus],
        phase=state.phase.value,
        turn=state.turn,
        current_player=state.current_player,
        last_discard=None if state.last_discard is None else str(state.last_discard),
        claims=[f"P{c.player} {c}" for c in state.claims],
        asking=list(state.asking),
        drew=state.drew,
        winner=state.winner,
        self_drawn=state.self_drawn,
        ghost_key=state.ghost_key,
        seed=state.seed,
        history=[f"P{a.player} {a}" for a in state.history],
        taken=[list(t) for t in state.taken],
        last_drawn=None if state.last_drawn is None else str(state.last_drawn),
    )
    return json.dumps(doc, indent=indent)


def state_from_json(text: str | bytes) -> GameState:
    """Read a state (see :meth:`sevenbridge.mahjong.GameState.from_json`), checking that it is a real position."""
    fields = STATE_DOC.read(J.parse(text, "state"), "state")
    rules = _make_rules(RULES_DOC.read(fields["rules"], "state.rules"), "state.rules")
    fields["rules"] = rules
    fields["phase"] = Phase(fields["phase"])
    fields["ghosts"] = tuple(fields["ghosts"])
    fields["asking"] = tuple(fields["asking"])
    fields["hands"] = tuple(tuple(sorted(h)) for h in fields["hands"])
    fields["melds"] = tuple(fields["melds"])
    fields["claims"] = tuple(
        _read_action(c, f"state.claims[{i}]") for i, c in enumerate(fields["claims"])
    )
    history = [_read_action(a, f"state.history[{i}]") for i, a in enumerate(fields["history"])]
    for i, action in enumerate(history):
        if action.player >= fields["seats"] or action.player in fields["ghosts"]:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_history_seat",
                    "state.history[{i}]: seat {seat} plays no moves at this table",
                    i=i,
                    seat=str(action.player),
                )
            )
    fields["move_log"] = History.of(history)
    del fields["history"]
    _check_shape(fields)
    state = GameState(**fields)
    _check_position(state)
    return state


def _check_shape(f: dict[str, Any]) -> None:
    players, seats = f["players"], f["seats"]
    ghosts = ghost_seats(players, f["rules"].ghosts)
    if f["ghosts"] != ghosts or seats != (4 if ghosts else players):
        raise InvalidStateError(
            Message(
                "invalid_state.state_seats_players_with",
                "state.seats: {players} players with these rules sit at {expected_seats} seats with ghosts at {expected_ghosts}, not {seats} seats with ghosts at {ghosts}",
                players=players,
                expected_seats=str(4 if ghosts else players),
                expected_ghosts=str(list(ghosts)),
                seats=str(seats),
                ghosts=str(list(f["ghosts"])),
            )
        )
    for name in ("hands", "discards", "bonus"):
        if len(f[name]) != seats:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_entries_for_seats",
                    "state.{name}: {count} entries for {seats} seats",
                    name=name,
                    count=len(f[name]),
                    seats=str(seats),
                )
            )
    for name in ("dealer", "turn", "current_player"):
        if f[name] >= seats:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_no_seat_at",
                    "state.{name}: no seat {seat} at {seats} seats",
                    name=name,
                    seat=str(f[name]),
                    seats=str(seats),
                )
            )
    if f["dealer"] in ghosts:
        raise InvalidStateError(
            Message("invalid_state.state_dealer_ghost_never", "state.dealer: a ghost never deals")
        )
    for i, m in enumerate(f["melds"]):
        if m.owner >= seats or m.owner in ghosts:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_melds_owner_seat",
                    "state.melds[{i}].owner: seat {owner} cannot own a meld",
                    i=i,
                    owner=str(m.owner),
                )
            )
        if m.kind is MeldKind.KONG and not f["rules"].kong:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_melds_kong_but",
                    "state.melds[{i}]: a kong, but Rules.kong is off",
                    i=i,
                )
            )
        if m.kind is not MeldKind.KONG and (m.claimed is None or m.concealed):
            raise InvalidStateError(
                Message(
                    "invalid_state.state_melds_chow_or",
                    "state.melds[{i}]: a chow or pung is made by a claim",
                    i=i,
                )
            )
        if m.concealed and m.claimed is not None:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_melds_concealed_kong",
                    "state.melds[{i}]: a concealed kong claims no discard",
                    i=i,
                )
            )
    places = f["taken"]
    for i, (seat, place) in enumerate(places):
        if seat >= seats or place >= len(f["discards"][seat]) or places.index((seat, place)) < i:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_taken_place",
                    "state.taken[{i}]: no untaken discard at seat {seat}, place {place}",
                    i=i,
                    seat=str(seat),
                    place=str(place),
                )
            )
    drawn = f["last_drawn"]
    if drawn is not None and drawn not in f["hands"][f["turn"]]:
        raise InvalidStateError(
            Message(
                "invalid_state.state_last_drawn_hand",
                "state.last_drawn: {tile} is not in the hand of the player in turn",
                tile=str(drawn),
            )
        )


def _check_position(state: GameState) -> None:
    check_state(state)
    phase = state.phase
    acting = state.current_player
    if phase is not Phase.OVER and acting in state.ghosts:
        raise InvalidStateError(
            Message(
                "invalid_state.state_current_player_ghost",
                "state.current_player: a ghost never waits for a decision",
            )
        )
    if (state.winner is not None or state.self_drawn) and phase is not Phase.OVER:
        raise InvalidStateError(
            Message(
                "invalid_state.state_winner_only_finished",
                "state.winner: only a finished round has a winner",
            )
        )
    if state.winner is not None and state.winner in state.ghosts:
        raise InvalidStateError(
            Message("invalid_state.state_winner_ghost_never", "state.winner: a ghost never wins")
        )
    if phase is Phase.CLAIM:
        if state.last_discard is None or state.discards[state.turn][-1:] != (state.last_discard,):
            raise InvalidStateError(
                Message(
                    "invalid_state.state_last_discard_claim",
                    "state.last_discard: a claim phase needs the discarder's last discard",
                )
            )
        if acting == state.turn or acting in state.asking:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_asking_discarder_never",
                    "state.asking: the discarder is never asked, nor anyone twice",
                )
            )
        if any(c.player == acting for c in state.claims):
            raise InvalidStateError(
                Message(
                    "invalid_state.state_claims_asked_player",
                    "state.claims: the asked player has not answered yet",
                )
            )
        if not legal_actions(state):  # pragma: no cover - the sizes above make one
            raise InvalidStateError(
                Message(
                    "invalid_state.state_asked_player_has", "state: the asked player has no answer"
                )
            )
    else:
        if state.last_discard is not None or state.claims or state.asking:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_last_discard_only",
                    "state.last_discard: only a claim phase has an open discard, not {value}",
                    value=str(phase.value),
                )
            )
        if phase is not Phase.OVER and acting != state.turn:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_current_player_outside",
                    "state.current_player: outside claims, the player in turn acts",
                )
            )
    if phase is Phase.DRAW and len(state.wall) <= state.rules.reserve:
        raise InvalidStateError(
            Message(
                "invalid_state.state_wall_draw_phase",
                "state.wall: a draw phase needs a tile to draw",
            )
        )
    for seat in range(state.seats):
        hand = state.hands[seat]
        if any(t.is_bonus for t in hand):
            raise InvalidStateError(
                Message(
                    "invalid_state.state_hands_bonus_tile",
                    "state.hands[{seat}]: a bonus tile is never held",
                    seat=seat,
                )
            )
        held = len(hand) + 3 * len(state.melds_of(seat))
        full = (phase is Phase.PLAY and seat == state.turn) or state.winner == seat
        if held != (14 if full else 13):
            raise InvalidStateError(
                Message(
                    "invalid_state.state_hands_tiles_and",
                    "state.hands[{seat}]: {n_hand} tiles and {n_melds_of} melds do not fit the {value} phase",
                    seat=seat,
                    n_hand=len(hand),
                    n_melds_of=len(state.melds_of(seat)),
                    value=str(phase.value),
                )
            )


# --- observations -------------------------------------------------------------------

OBSERVATION_DOC = J.Object(
    {
        "rules": J.raw(RULES_DOC.schema),
        "players": J.integer(2, 4),
        "seats": J.integer(2, 4),
        "ghosts": J.array(J.integer(0, 3), 2),
        "dealer": J.integer(0, 3),
        "viewer": J.integer(0, 3),
        "hand": _tiles(14),
        "hand_sizes": _per_seat(J.integer(0, 14)),
        "wall_size": J.integer(0, 144),
        "discards": _per_seat(_tiles(144)),
        "melds": J.array(_meld, 16),
        "bonus": _per_seat(_tiles(8)),
        "phase": J.string(10, tuple(p.value for p in Phase)),
        "turn": J.integer(0, 3),
        "current_player": J.integer(0, 3),
        "last_discard": J.nullable(_tile),
        "own_claims": J.array(J.string(40), 1),
        "asking": J.array(J.integer(0, 3), 3),
        "drew": J.boolean,
        "winner": J.nullable(J.integer(0, 3)),
        "self_drawn": J.boolean,
        "shown_hands": J.nullable(_per_seat(_tiles(14))),
        "legal_actions": J.array(J.string(40), 40),
        "taken": _TAKEN,
        "last_drawn": J.nullable(_tile),
    },
    header=("sevenbridge.mahjong.observation", FORMAT_VERSION),
    # Fields added after version 1 was published: older documents lack them.
    defaults={"taken": (), "last_drawn": None},
)


def observation_to_json(view: Observation, *, indent: int | None = None) -> str:
    """A player's view as a JSON document (see :meth:`sevenbridge.mahjong.Observation.to_json`)."""
    doc: dict[str, Any] = {"format": "sevenbridge.mahjong.observation", "version": FORMAT_VERSION}
    doc.update(
        rules={"format": "sevenbridge.mahjong.rules", "version": FORMAT_VERSION}
        | _rules_dict(view.rules),
        players=view.players,
        seats=view.seats,
        ghosts=list(view.ghosts),
        dealer=view.dealer,
        viewer=view.viewer,
        hand=[str(t) for t in view.hand],
        hand_sizes=list(view.hand_sizes),
        wall_size=view.wall_size,
        discards=[[str(t) for t in d] for d in view.discards],
        melds=[_meld_dict(m) for m in view.melds],
        bonus=[[str(t) for t in b] for b in view.bonus],
        phase=view.phase.value,
        turn=view.turn,
        current_player=view.current_player,
        last_discard=None if view.last_discard is None else str(view.last_discard),
        own_claims=[f"P{c.player} {c}" for c in view.own_claims],
        asking=list(view.asking),
        drew=view.drew,
        winner=view.winner,
        self_drawn=view.self_drawn,
        shown_hands=None
        if view.shown_hands is None
        else [[str(t) for t in h] for h in view.shown_hands],
        legal_actions=[f"P{a.player} {a}" for a in view.legal_actions],
        taken=[list(t) for t in view.taken],
        last_drawn=None if view.last_drawn is None else str(view.last_drawn),
    )
    return json.dumps(doc, indent=indent)


def observation_from_json(text: str | bytes) -> Observation:
    """Read a view (see :meth:`sevenbridge.mahjong.Observation.from_json`). It is
    checked by dealing the unseen tiles into a full state and checking that state
    like a state document; the legal actions must be the ones the rules give."""
    fields = OBSERVATION_DOC.read(J.parse(text, "observation"), "observation")
    rules = _make_rules(RULES_DOC.read(fields["rules"], "observation.rules"), "observation.rules")
    path = "observation"
    viewer = fields["viewer"]
    if viewer >= fields["seats"] or len(fields["hand_sizes"]) != fields["seats"]:
        raise InvalidStateError(
            Message(
                "invalid_state.viewer_no_seat_at",
                "{path}.viewer: no seat {viewer} at {seats} seats",
                path=path,
                viewer=str(viewer),
                seats=str(fields["seats"]),
            )
        )
    if fields["hand_sizes"][viewer] != len(fields["hand"]):
        raise InvalidStateError(
            Message(
                "invalid_state.hand_sizes_viewer_hand",
                "{path}.hand_sizes: the viewer's hand has {n_hand}",
                path=path,
                n_hand=len(fields["hand"]),
            )
        )
    claims = tuple(
        _read_action(c, f"{path}.own_claims[{i}]") for i, c in enumerate(fields["own_claims"])
    )
    if any(c.player != viewer for c in claims):
        raise InvalidStateError(
            Message(
                "invalid_state.own_claims_only_viewer",
                "{path}.own_claims: only the viewer's own claim is shown",
                path=path,
            )
        )
    shown = fields["shown_hands"]
    if (shown is None) == (fields["phase"] == Phase.OVER.value):
        raise InvalidStateError(
            Message(
                "invalid_state.mahjong_shown_hands_over",
                "{path}.shown_hands: a finished round shows every hand, and only a finished round",
                path=path,
            )
        )
    view = Observation(
        rules=rules,
        players=fields["players"],
        seats=fields["seats"],
        ghosts=tuple(fields["ghosts"]),
        dealer=fields["dealer"],
        viewer=viewer,
        hand=tuple(sorted(fields["hand"])),
        hand_sizes=tuple(fields["hand_sizes"]),
        wall_size=fields["wall_size"],
        discards=tuple(fields["discards"]),
        melds=tuple(fields["melds"]),
        bonus=tuple(fields["bonus"]),
        phase=Phase(fields["phase"]),
        turn=fields["turn"],
        current_player=fields["current_player"],
        last_discard=fields["last_discard"],
        own_claims=claims,
        asking=tuple(fields["asking"]),
        drew=fields["drew"],
        winner=fields["winner"],
        self_drawn=fields["self_drawn"],
        shown_hands=None if shown is None else tuple(tuple(sorted(h)) for h in shown),
        legal_actions=(),
        taken=fields["taken"],
        last_drawn=fields["last_drawn"],
    )
    unseen = view.unseen()
    if sum(1 for t in unseen if t < 34) < sum(
        size for seat, size in enumerate(view.hand_sizes) if seat != viewer
    ) or len(unseen) != view.wall_size + sum(
        size for seat, size in enumerate(view.hand_sizes) if seat != viewer
    ):
        raise InvalidStateError(
            Message(
                "invalid_state.unseen_tiles_do_not",
                "{path}: the unseen tiles ({n_unseen}) do not fill the other hands and the wall ({wall_size})",
                path=path,
                n_unseen=len(unseen),
                wall_size=str(view.wall_size),
            )
        )
    sampled = sample_state(view, 0)
    doc = json.loads(state_to_json(sampled))
    try:
        full = state_from_json(json.dumps(doc))
    except InvalidStateError as error:
        raise InvalidStateError(str(error).replace("state", path, 1)) from None
    checked = observe(full, viewer)
    written = [
        _read_action(a, f"{path}.legal_actions[{i}]") for i, a in enumerate(fields["legal_actions"])
    ]
    if tuple(written) != checked.legal_actions:
        raise InvalidStateError(
            Message(
                "invalid_state.legal_actions_not_actions",
                "{path}.legal_actions: not the actions the rules give here",
                path=path,
            )
        )
    return checked


def _meld_dict(m: Meld) -> dict[str, Any]:
    return {
        "kind": m.kind.value,
        "tiles": [str(t) for t in m.tiles],
        "owner": m.owner,
        "claimed": None if m.claimed is None else str(m.claimed),
        "concealed": m.concealed,
        "claimed_from": m.claimed_from,
    }


def json_schema(document: str) -> dict[str, Any]:
    """The JSON Schema of a mahjong document: ``"rules"``, ``"state"``,
    ``"observation"`` or ``"action"``. It checks each field on its own; what
    ties fields together (one full set of tiles, sizes per phase) only the
    readers check.

    Raises:
        InvalidArgumentError: for another document name.

    >>> json_schema("action")["properties"]["format"]
    {'const': 'sevenbridge.mahjong.action'}
    """
    from .errors import InvalidArgumentError

    docs = {
        "rules": RULES_DOC,
        "state": STATE_DOC,
        "observation": OBSERVATION_DOC,
        "action": ACTION_DOC,
    }
    if document not in docs:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.document_must_one_not",
                "document must be one of {docs}, not {document}",
                docs=", ".join(docs),
                document=format(repr(document), ".40"),
            )
        )
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    schema.update(docs[document].schema)
    return schema

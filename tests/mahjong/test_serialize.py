"""JSON documents round-trip, and malformed or impossible ones are refused clearly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given

from sevenbridge import InvalidStateError
from sevenbridge.mahjong import (
    Action,
    Chow,
    Discard,
    Draw,
    GameState,
    Kong,
    Mahjong,
    Observation,
    Pass,
    Pung,
    Rules,
    deal,
    observe,
)

from .helpers import play, start
from .strategies import mahjong_rules, reachable_states


@given(reachable_states())
def test_states_round_trip(played: tuple[GameState, list[GameState]]) -> None:
    state, _ = played
    assert GameState.from_json(state.to_json()) == state
    assert GameState.from_json(state.to_json(indent=2).encode()) == state


@given(mahjong_rules())
def test_rules_round_trip(rules: Rules) -> None:
    assert Rules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    "action",
    [Draw(0), Discard(1, "Rd"), Chow(2, "46m"), Pung(3), Kong(0, "E"), Mahjong(1), Pass(2)],
)
def test_actions_round_trip(action: Action) -> None:
    assert type(action).from_json(action.to_json()) == action
    with pytest.raises(InvalidStateError, match="expected a"):
        (Draw if not isinstance(action, Draw) else Pass).from_json(action.to_json())


def _doc(state: GameState) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(state.to_json())
    return doc


def _refused(doc: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidStateError, match=match):
        GameState.from_json(json.dumps(doc))


def test_malformed_documents_are_refused() -> None:
    doc = _doc(deal(seed=3))
    with pytest.raises(InvalidStateError, match="not well-formed JSON"):
        GameState.from_json("{")
    with pytest.raises(InvalidStateError, match="appears twice"):
        GameState.from_json('{"format": 1, "format": 2}')
    with pytest.raises(InvalidStateError, match="format"):
        GameState.from_json(json.dumps({**doc, "format": "sevenbridge.state"}))
    _refused({**doc, "extra": 1}, "unknown field 'extra'")
    _refused({k: v for k, v in doc.items() if k != "wall"}, "missing field 'wall'")
    _refused({**doc, "wall": ["1m", "10m"]}, r"state\.wall\[1\]: '10m' is not one of")
    _refused({**doc, "players": 7}, r"state\.players: 7 is out of range")
    _refused({**doc, "phase": "dance"}, r"state\.phase")
    _refused({**doc, "rules": {**doc["rules"], "rounds": 0}}, r"state\.rules\.rounds")
    _refused({**doc, "claims": ["P1 Dance"]}, "unknown verb")


def test_impossible_positions_are_refused() -> None:
    state = deal(seed=3)
    doc = _doc(state)
    wall = list(doc["wall"])
    _refused({**doc, "wall": wall[:-1]}, "not one full set")
    swapped = [list(h) for h in doc["hands"]]
    swapped[0][0], wall[0] = wall[0], swapped[0][0]
    swapped[0].append(wall.pop())
    _refused({**doc, "hands": swapped, "wall": wall}, r"state\.hands\[0\].*draw phase")
    _refused({**doc, "current_player": 2}, "player in turn acts")
    _refused({**doc, "winner": 1}, "only a finished round")
    _refused({**doc, "seats": 3}, r"state\.seats")
    _refused({**doc, "dealer": 5}, "out of range")
    _refused({**doc, "last_discard": "E"}, "only a claim phase")


def test_a_claim_window_document_is_checked() -> None:
    hands = ["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"]
    state = play(start(hands, "5s", players=2), "P0 Draw", "P0 Discard 5s")
    assert GameState.from_json(state.to_json()) == state
    doc = _doc(state)
    _refused({**doc, "last_discard": "E"}, "last discard")
    _refused({**doc, "current_player": 0}, "discarder is never asked")
    bad_meld = {**doc, "melds": [{"kind": "pung", "tiles": ["1m", "2m", "3m"], "owner": 0,
                                  "claimed": "1m", "concealed": False}]}  # fmt: skip
    _refused(bad_meld, r"state\.melds\[0\].*not a pung")


@given(reachable_states())
def test_observations_round_trip(played: tuple[GameState, list[GameState]]) -> None:
    state, _ = played
    for viewer in range(state.seats):
        view = observe(state, viewer)
        assert Observation.from_json(view.to_json()) == view


def test_tampered_observations_are_refused() -> None:
    hands = ["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"]
    state = play(start(hands, "5s", players=2), "P0 Draw", "P0 Discard 5s")
    doc = json.loads(observe(state, 1).to_json())

    def refused(changed: dict[str, Any], match: str) -> None:
        with pytest.raises(InvalidStateError, match=match):
            Observation.from_json(json.dumps(changed))

    refused({**doc, "legal_actions": ["P1 Pass"]}, "not the actions the rules give")
    refused({**doc, "own_claims": ["P0 Pung"]}, "only the viewer's own claim")
    refused({**doc, "hand": doc["hand"][:-1]}, "the viewer's hand has 12")
    refused({**doc, "wall_size": 5}, "do not fill the other hands")
    refused({**doc, "viewer": 3}, "no seat 3")
    refused({**doc, "phase": "draw"}, r"observation\.")


def test_documents_follow_their_json_schemas() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from sevenbridge.mahjong.serialize import json_schema

    hands = ["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"]
    state = play(start(hands, "5s", players=2, rules=Rules.full().replace(ghosts=False)), "P0 Draw")
    state = play(state, "P0 Discard 5s", "P1 Pung")
    documents = {
        "state": state.to_json(),
        "observation": observe(state, 0).to_json(),
        "rules": Rules.full().to_json(),
        "action": Pung(1).to_json(),
    }
    for name, text in documents.items():
        schema = json_schema(name)
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.validate(json.loads(text), schema)
    bad = {**json.loads(documents["state"]), "phase": "dance"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, json_schema("state"))


def test_history_and_seed_round_trip_and_older_documents_read() -> None:
    state = play(start(["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"], "5s"), "P0 Draw")
    state = play(state, "P0 Discard 5s", "P1 Pung")
    doc = _doc(state)
    assert doc["history"] == ["P0 Draw", "P0 Discard 5s", "P1 Pung"] and doc["seed"] == 0
    assert GameState.from_json(state.to_json()).history == state.history
    older = {k: v for k, v in doc.items() if k not in ("seed", "history")}
    read = GameState.from_json(json.dumps(older))
    assert read.history == () and read.seed == 0 and read.hands == state.hands
    _refused({**doc, "history": ["P0 Fly"]}, "state.history")
    _refused({**doc, "history": ["P3 Draw"]}, "seat 3 plays no moves")


def test_the_move_log_round_trips_and_older_documents_read() -> None:
    hands = ["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"]
    state = play(start(hands, "5s 1s"), "P0 Draw", "P0 Discard 5s", "P1 Pung", "P1 Discard W")
    state = play(state, "P0 Pass", "P0 Draw")
    doc = _doc(state)
    assert doc["taken"] == [[0, 0]] and doc["last_drawn"] == "1s"
    assert doc["melds"][0]["claimed_from"] == 0
    again = GameState.from_json(state.to_json())
    assert again == state and again.melds[0].claimed_from == 0
    view = observe(state, 0)
    assert view.last_drawn == state.last_drawn and observe(state, 1).last_drawn is None
    assert Observation.from_json(view.to_json()) == view
    # A document from before the move log: the claimed tile out of the row.
    older = {k: v for k, v in doc.items() if k not in ("taken", "last_drawn")}
    older["discards"] = [[], doc["discards"][1]]
    older["melds"] = [{k: v for k, v in m.items() if k != "claimed_from"} for m in doc["melds"]]
    read = GameState.from_json(json.dumps(older))
    assert read.taken == () and read.last_drawn is None and read.melds[0].claimed_from is None
    _refused({**doc, "taken": [[0, 5]]}, "state.taken")
    _refused({**doc, "taken": [[0, 0], [0, 0]]}, "state.taken")
    _refused({**doc, "last_drawn": "5m"}, "state.last_drawn")

"""JSON round trips, and rejection of documents that are not real positions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import (
    Chi,
    Discard,
    Draw,
    GameState,
    InvalidStateError,
    LayDown,
    LayOff,
    Observation,
    Pass,
    Pon,
    Rules,
    apply,
    deal,
    legal_actions,
    observe,
)
from sevenbridge.actions import _JsonAction
from sevenbridge.bots import GreedyPlayer
from sevenbridge.serialize import action_from_json

from .budgets import THOROUGH
from .strategies import reachable_states, rules


@given(reachable_states())
def test_states_round_trip_exactly(state: GameState) -> None:
    again = GameState.from_json(state.to_json())
    assert again == state and hash(again) == hash(state)
    assert again.history == state.history
    assert legal_actions(again) == legal_actions(state)
    assert again.to_json() == state.to_json()


@given(reachable_states(), st.data())
def test_observations_round_trip_exactly(state: GameState, data: st.DataObject) -> None:
    view = observe(state, data.draw(st.integers(0, state.players - 1)))
    again = Observation.from_json(view.to_json(indent=2))
    assert again == view
    assert legal_actions(again) == legal_actions(view)


@given(rules)
def test_rules_round_trip(r: Rules) -> None:
    assert Rules.from_json(r.to_json()) == r


@pytest.mark.parametrize(
    "action",
    [Draw(1), Pass(0), Chi(2, "5H 6H"), Pon(3, "9S JK", "9C"), LayDown(0, "4S 5S JK", "6S"),
     LayOff(1, "JK", 2, "9H"), LayOff(1, "8H", 0), Discard(4, "KS")],
)  # fmt: skip
def test_actions_round_trip(action: _JsonAction) -> None:
    assert type(action).from_json(action.to_json()) == action
    assert action_from_json(action.to_json()) == action


def test_action_from_json_checks_the_type() -> None:
    with pytest.raises(InvalidStateError, match="expected a Pon, found a Draw"):
        Pon.from_json(Draw(1).to_json())


# --- rejection -------------------------------------------------------------------------------
def doc_of(state: GameState) -> dict[str, Any]:
    value = json.loads(state.to_json())
    assert isinstance(value, dict)
    return value


def reject(doc: dict[str, Any] | str, *words: str) -> str:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(InvalidStateError) as info:
        GameState.from_json(text)
    for word in words:
        assert word in str(info.value), str(info.value)
    return str(info.value)


@pytest.fixture
def mid_deal() -> GameState:
    state = deal(Rules(), players=3, seed=21)
    for _ in range(40):
        state = apply(state, legal_actions(state)[-1])
    return state


def test_truncated_documents_are_rejected(mid_deal: GameState) -> None:
    text = mid_deal.to_json()
    for cut in range(0, len(text) - 1, max(1, len(text) // 97)):
        reject(text[:cut], "not well-formed JSON")


def test_not_json_and_wrong_header() -> None:
    reject("{", "not well-formed JSON: ", "line 1")
    reject("[]", "expected a JSON object")
    good = doc_of(deal(seed=1))
    reject({**good, "format": "sevenbridge.rules"}, "expected 'sevenbridge.state'")
    reject({**good, "version": 99}, "version 99 is not supported")


def test_unknown_and_missing_fields(mid_deal: GameState) -> None:
    doc = doc_of(mid_deal)
    reject({**doc, "colour": "red"}, "unknown field 'colour'")
    missing = dict(doc)
    del missing["stock"]
    reject(missing, "missing field 'stock'")
    bad_rules = {**doc, "rules": {**doc["rules"], "jokers_wild": True}}
    reject(bad_rules, "state.rules: unknown field 'jokers_wild'")


def test_duplicated_and_missing_cards(mid_deal: GameState) -> None:
    doc = doc_of(mid_deal)
    dup = json.loads(json.dumps(doc))
    dup["stock"][0] = dup["hands"][0][0]
    reject(dup, "is also in", "each card is in one place")
    lost = json.loads(json.dumps(doc))
    lost["stock"].pop()
    reject(lost, "cards are nowhere")
    unreal = json.loads(json.dumps(doc))
    unreal["stock"][0] = "11H"
    reject(unreal, "state.stock[0]", "'11H' is not a card")
    joker = json.loads(json.dumps(doc))
    joker["stock"][0] = "JK"
    reject(joker, "JK is not in a 52-card deck")


def test_inconsistent_positions(mid_deal: GameState) -> None:
    doc = doc_of(mid_deal)

    def changed(**fields: Any) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(json.dumps(doc))
        out.update(fields)
        return out

    reject(changed(current_player=None), "must be null exactly when the phase is 'over'")
    reject(changed(phase="over"), "must be null exactly when")
    reject(changed(phase="nap"), "'nap' is not one of")
    reject(changed(players=7), "state.players: 7 is out of range")
    reject(changed(dealer=True), "state.dealer: expected an integer")
    reject(changed(winner=1), "belong to a finished deal")
    reject(changed(claim_queue=[1, 1]), "listed twice")
    big = json.loads(json.dumps(doc))
    other = (mid_deal.current_player + 1) % 3 if mid_deal.current_player is not None else 0
    big["hands"][other] += big["stock"][:2]
    big["stock"] = big["stock"][2:]
    reject(big, "cards; at most")
    empty_stock = json.loads(json.dumps(doc))
    empty_stock["phase"] = "draw"
    empty_stock["discard_pile"] += empty_stock["stock"]
    empty_stock["stock"] = []
    reject(empty_stock)
    bad_meld = json.loads(json.dumps(doc))
    if bad_meld["melds"]:
        bad_meld["melds"][0]["kind"] = "seven" if bad_meld["melds"][0]["kind"] != "seven" else "run"
        reject(bad_meld, "melds[0]")


def test_finished_deal_scores_are_checked() -> None:
    state = deal(Rules(), players=2, seed=3)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0 if len(legal_actions(state)) == 1 else -1])
    doc = doc_of(state)
    assert GameState.from_json(json.dumps(doc)) == state
    doc["deal_scores"] = [s + 1 for s in doc["deal_scores"]]
    reject(doc, "deal_scores")


def _mutations() -> st.SearchStrategy[Any]:
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["7H", "JK", "x", ""]),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
        max_leaves=5,
    )  # fmt: skip
    return json_values


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@THOROUGH
@given(reachable_states(), st.data())
def test_fuzzed_documents_are_refused_cleanly_or_are_real_positions(
    state: GameState, data: st.DataObject
) -> None:
    text = _mutate(doc_of(state), data)
    try:
        loaded = GameState.from_json(text)
    except InvalidStateError as error:
        assert str(error)
        return
    # Accepted: it must be a position the engine can play from.
    assert GameState.from_json(loaded.to_json()) == loaded
    for act in legal_actions(loaded):
        apply(loaded, act)


def _mutate(doc: Any, data: st.DataObject) -> str:
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        how = data.draw(st.sampled_from(["replace", "delete", "swap"]))
        if how == "delete":
            del parent[path[-1]]
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = data.draw(st.integers(0, len(parent) - 1))
            parent[path[-1]], parent[j] = parent[j], parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(_mutations())
    text = json.dumps(doc)
    if data.draw(st.booleans()):
        text = text[: data.draw(st.integers(0, len(text)))]
    return text


@THOROUGH
@given(reachable_states(), st.data())
def test_fuzzed_observations_are_refused_cleanly_or_are_real_views(
    state: GameState, data: st.DataObject
) -> None:
    view = observe(state, data.draw(st.integers(0, state.players - 1)))
    text = _mutate(json.loads(view.to_json()), data)
    try:
        loaded = Observation.from_json(text)
    except InvalidStateError as error:
        assert str(error)
        return
    assert Observation.from_json(loaded.to_json()) == loaded
    legal_actions(loaded)


@given(st.data())
def test_fuzzed_rules_and_actions_are_refused_cleanly(data: st.DataObject) -> None:
    for original in (Rules.nintendo().to_json(), Pon(1, "9S JK", "9C").to_json()):
        text = _mutate(json.loads(original), data)
        try:
            loaded = Rules.from_json(text) if "rules" in original else action_from_json(text)
        except InvalidStateError as error:
            assert str(error)
            continue
        assert loaded is not None


# --- the JSON readers on odd numbers, tampered states and finished views ------------------
def _state_doc(seed: int = 3) -> dict[str, object]:
    import json

    from sevenbridge.bots import GreedyPlayer

    state, bot = deal(seed=seed, players=3), GreedyPlayer(seed)
    for _ in range(25):
        state = apply(state, bot(state))
    doc: dict[str, object] = json.loads(state.to_json())
    return doc


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "sevenbridge.rules", "version": ' + "9" * 5000 + "}",
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": 1'
        + "0" * 4400
        + "}",
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": NaN}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": Infinity}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": 1, "player": 0}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Discard", "player": 1, "card": "²H"}',
        '{"format": "sevenbridge.action", "version": 1, "type": "LayOff", "player": 1, '
        '"card": "8H", "target": 1.0, "joker_as": null}',
        '{"format": "sevenbridge.action", "version": 1, "type": "LayOff", "player": 1, '
        '"card": "8H", "target": 53, "joker_as": null}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Pass", "player": true}',
        b"\xff\xfe",
    ],
)
def test_action_and_rules_readers_raise_library_errors(text: str | bytes) -> None:
    from sevenbridge import Draw, InvalidStateError, Rules

    for read in (Draw.from_json, Rules.from_json):
        with pytest.raises(InvalidStateError) as info:
            read(text)
        assert len(str(info.value)) < 300


def test_state_reader_refuses_duplicate_keys_and_long_numbers() -> None:
    import json

    from sevenbridge import GameState, InvalidStateError, Observation, observe

    text = json.dumps(_state_doc())
    assert GameState.from_json(text)
    with pytest.raises(InvalidStateError, match="appears twice"):
        GameState.from_json(text[:-1] + ', "seed": 3}')
    with pytest.raises(InvalidStateError, match="more than 20 digits"):
        GameState.from_json(text.replace('"seed": 3', '"seed": 1' + "0" * 30))
    view = observe(GameState.from_json(text), 0).to_json()
    with pytest.raises(InvalidStateError, match="appears twice"):
        Observation.from_json(view[:-1] + ', "viewer": 0}')


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_every_seed_deal_accepts_is_read_back(seed: int) -> None:
    from sevenbridge import GameState

    state = deal(seed=seed)
    assert GameState.from_json(state.to_json(), verify=True) == state


def test_long_deals_and_large_scores_read_back() -> None:
    from sevenbridge import GameState, Rules
    from sevenbridge.bots import RandomPlayer
    from sevenbridge.serialize import max_history

    rules = Rules(reshuffle_limit=100, joker_multiplier=100, jokers=1)
    longest = 0
    for seed in range(6):
        state, bot = deal(rules, players=5, seed=seed), RandomPlayer(seed)
        while not state.is_over:
            state = apply(state, bot(state))
        longest = max(longest, len(state.history))
        assert len(state.history) <= max_history(rules, 5)
        assert GameState.from_json(state.to_json(), verify=True) == state
    # a deal where nobody melds runs through every reshuffle: the longest kind
    state = deal(rules, players=5, seed=1)
    while not state.is_over:
        moves = legal_actions(state)
        quiet = [m for m in moves if isinstance(m, (Draw, Pass, Discard))]
        state = apply(state, quiet[0])
    assert state.reshuffles == 100 and state.winner is None
    longest = max(longest, len(state.history))
    assert longest <= max_history(rules, 5)
    assert GameState.from_json(state.to_json(), verify=True) == state
    assert longest > 10_000


def test_tampered_states_are_refused() -> None:
    import json

    from sevenbridge import GameState, InvalidStateError

    doc = _state_doc()
    good = json.dumps(doc)
    assert GameState.from_json(good, verify=True)
    hands = doc["hands"]
    assert isinstance(hands, list)
    # cards swapped between two hands: consistent on its face, refused by verify
    swapped = json.loads(good)
    a, b = swapped["hands"][0][0], swapped["hands"][1][0]
    swapped["hands"][0][0], swapped["hands"][1][0] = b, a
    GameState.from_json(json.dumps(swapped))
    with pytest.raises(InvalidStateError, match="does not lead to this position"):
        GameState.from_json(json.dumps(swapped), verify=True)
    # a reversed stock
    reversed_stock = json.loads(good)
    reversed_stock["stock"] = reversed_stock["stock"][::-1]
    with pytest.raises(InvalidStateError, match="stock_cards differs"):
        GameState.from_json(json.dumps(reversed_stock), verify=True)
    # a made-up history of 5,000 draws: refused even without verify
    drawn = json.loads(good)
    drawn["history"] = ["P0 Draw"] * 5000
    with pytest.raises(InvalidStateError, match="history"):
        GameState.from_json(json.dumps(drawn))
    # a history whose moves do not replay
    shuffled = json.loads(good)
    shuffled["history"] = shuffled["history"][::-1]
    with pytest.raises(InvalidStateError, match=r"history\[0\]"):
        GameState.from_json(json.dumps(shuffled), verify=True)
    # another seed
    reseeded = json.loads(good)
    reseeded["seed"] = 4
    with pytest.raises(InvalidStateError):
        GameState.from_json(json.dumps(reseeded), verify=True)


def _finished_views() -> list[Any]:
    from sevenbridge import mahjong, observe

    state = deal(seed=4)
    bot = GreedyPlayer(1)
    while not state.is_over:
        state = apply(state, bot(observe(state)))
    tiles = mahjong.deal(seed=4, players=2)
    tile_bot = mahjong.GreedyPlayer(seed=1)
    while not tiles.is_over:
        tiles = mahjong.apply(tiles, tile_bot(mahjong.observe(tiles)))
    return [observe(state, 0), mahjong.observe(tiles, 0)]


@pytest.mark.parametrize("how", ["null", "missing"])
def test_observation_reader_wants_the_hands_of_a_finished_deal(how: str) -> None:
    import json

    from sevenbridge.errors import InvalidStateError

    for view in _finished_views():
        assert type(view).from_json(view.to_json()) == view
        doc = json.loads(view.to_json())
        if how == "null":
            doc["shown_hands"] = None
        else:
            del doc["shown_hands"]
        with pytest.raises(InvalidStateError, match="shown_hands"):
            type(view).from_json(json.dumps(doc))


def test_observation_reader_refuses_hands_shown_before_the_end() -> None:
    import json

    from sevenbridge import mahjong, observe
    from sevenbridge.errors import InvalidStateError

    starts: list[Any] = [
        observe(deal(seed=4), 0),
        mahjong.observe(mahjong.deal(seed=4, players=2), 0),
    ]
    for final, start in zip(
        _finished_views(),
        starts,
        strict=True,
    ):
        doc = json.loads(start.to_json())
        doc["shown_hands"] = json.loads(final.to_json())["shown_hands"]
        with pytest.raises(InvalidStateError, match="shown_hands"):
            type(start).from_json(json.dumps(doc))

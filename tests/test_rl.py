"""sevenbridge.rl: action ids, masks and tensors (needs the ``rl`` extra, numpy)."""

from __future__ import annotations

import functools
import gc
import os
import pickle
import random
import weakref
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from hypothesis import given

from .helpers import optional_module

np = optional_module("numpy")

from sevenbridge import (  # noqa: E402
    Chi,
    Discard,
    Draw,
    GameState,
    InvalidArgumentError,
    LayDown,
    LayOff,
    Observation,
    Pass,
    Rules,
    apply,
    deal,
    legal_actions,
    observe,
    sample_state,
)
from sevenbridge import _tables as T  # noqa: E402
from sevenbridge.rl import (  # noqa: E402
    ACTION_SPACE_VERSION,
    MAX_LAY_OFF_TARGETS,
    ActionSpace,
    _actions,
    _caches,
    _tensors,
    clear_caches,
    information_state_tensor,
    information_state_tensor_size,
    observation_tensor,
    observation_tensor_size,
    tensor_fields,
)
from sevenbridge.rl._actions import _catalogue  # noqa: E402
from sevenbridge.rl._tensors import _history_summary, _layout, _of_state  # noqa: E402
from sevenbridge.state import History  # noqa: E402

from .strategies import reachable_states, varied_states  # noqa: E402

PRESETS = Rules.presets()

#: Random deals for the round-trip test; ``SEVENBRIDGE_RL_DEALS=10000`` runs the
#: full check by hand.
DEALS = int(os.environ.get("SEVENBRIDGE_RL_DEALS", "300"))

#: The id tables, pinned: a change here changes what trained agents' outputs
#: mean, so it needs a new ACTION_SPACE_VERSION (and a changelog line).
DIGESTS = {
    "standard": (2971, "922bd41d338b"),
    "seven_rummy": (2987, "c7c6224fb628"),
    "nintendo": (20940, "da78fe225ad7"),
}


def _random_positions(deals: int, seed: int = 0) -> Iterator[tuple[ActionSpace, GameState]]:
    """Every position of random deals over all presets and 2-5 players."""
    rng = random.Random(seed)
    for i in range(deals):
        rules = Rules.preset(PRESETS[i % len(PRESETS)])
        players = 2 + (i // len(PRESETS)) % 4
        space = ActionSpace(rules, players)
        state = deal(rules, players=players, seed=rng.getrandbits(32))
        while not state.is_over:
            yield space, state
            state = apply(state, rng.choice(legal_actions(state)))


def test_every_legal_action_round_trips_and_the_mask_is_the_legal_set() -> None:
    positions = 0
    for space, state in _random_positions(DEALS):
        actions = legal_actions(state)
        ids = [space.encode(a) for a in actions]
        assert len(set(ids)) == len(ids)
        assert all(0 <= i < space.size for i in ids)
        assert [space.decode(i, state) for i in ids] == list(actions)
        mask = space.mask(state)
        assert mask.dtype == np.bool_ and mask.shape == (space.size,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
        assert space.legal_ids(state) == ids
        view = observe(state)
        assert space.legal_ids(view) == ids
        positions += 1
    assert positions > 30 * DEALS


@pytest.mark.parametrize("preset", PRESETS)
def test_the_id_table_is_pinned(preset: str) -> None:
    size, digest = DIGESTS[preset]
    for players in (2, 3, 4, 5):
        space = ActionSpace(Rules.preset(preset), players)
        assert space.version == ACTION_SPACE_VERSION == 1
        assert space.size == size == len(space.labels)
        assert space.digest.startswith(digest)
    assert len(set(space.labels)) == space.size


def test_the_blocks_of_the_numbering() -> None:
    space = ActionSpace(Rules.standard())
    assert space.label(0) == "draw" and space.label(1) == "pass"
    assert space.encode(Draw(4)) == 0 and space.encode(Pass(2)) == 1
    assert [space.label(2 + c) for c in (0, 12, 13, 51)] == [
        "discard AC",
        "discard KC",
        "discard AD",
        "discard KS",
    ]
    assert space.label(space.encode(LayDown(0, "5H 6H 7H"))) == "laydown 5H.6H.7H"
    assert space.label(space.encode(LayOff(1, "8H", 18))) == "layoff 8H>18"
    # the same id means the same move for whoever is to act
    assert space.encode(Discard(0, "9D")) == space.encode(Discard(3, "9D"))
    # a chi is numbered by the hand's cards: 5H 6H with a 4H or a 7H discard
    assert space.label(space.encode(Chi(1, "5H 6H"))) == "chi 5H.6H"


def test_joker_readings_are_distinct_ids() -> None:
    space = ActionSpace(Rules.nintendo())
    a = space.encode(LayDown(0, "4H 5H JK", "6H"))
    b = space.encode(LayDown(0, "4H 5H JK", "3H"))
    assert a != b
    assert space.label(a) == "laydown 4H.5H.JK=6H"
    c = space.encode(LayOff(0, "JK", 3, "9S"))
    assert space.label(c) == "layoff JK=9S>3"


@pytest.mark.parametrize("preset", PRESETS)
def test_the_catalogue_is_exactly_the_engines_melds(preset: str) -> None:
    rules = Rules.preset(preset)
    everything = (1 << rules.deck_size) - 1
    engine = {(m, j) for m, _, j in T.melds_in(everything, rules.ace_high, bool(rules.jokers))}
    ours = [(m, j) for m, j, _ in _catalogue(rules.ace_high, bool(rules.jokers))]
    assert len(ours) == len(set(ours))
    assert set(ours) == engine


@pytest.mark.parametrize("preset", PRESETS)
def test_the_lay_off_target_bound(preset: str) -> None:
    # The proof's lemma: a meld of fewer than three cards holds a natural seven.
    rules = Rules.preset(preset)
    sevens = sum(1 << (s * 13 + 6) for s in range(4))
    for mask, _, _ in _catalogue(rules.ace_high, bool(rules.jokers)):
        assert mask.bit_count() >= 3 or mask & sevens
    # The proof's count: with h sevens and o other cards off the table, h + o >= 2.
    others = 49
    best = max(
        (4 - h) + (others - o) // 3 for h in range(5) for o in range(others + 1) if h + o >= 2
    )
    assert best == MAX_LAY_OFF_TARGETS == 19


def test_random_play_stays_inside_the_bound() -> None:
    for _, state in _random_positions(60, seed=5):
        if any(isinstance(a, LayOff) for a in legal_actions(state)):
            assert len(state.table) <= MAX_LAY_OFF_TARGETS


def test_bad_input_gets_clear_errors() -> None:
    space = ActionSpace(Rules.standard())
    with pytest.raises(InvalidArgumentError, match="lay-off target"):
        space.encode(LayOff(0, "8H", 19))
    with pytest.raises(InvalidArgumentError, match="no action id"):
        space.encode(LayDown(0, "4H 5H JK", "6H"))  # no joker in the standard deck
    with pytest.raises(TypeError, match="action must be an Action"):
        space.encode("Draw")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="action must be an Action"):
        space.encode([1])  # type: ignore[arg-type]
    state = deal(seed=1)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        space.decode(space.size, state)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        space.decode(-1, state)
    with pytest.raises(TypeError, match="action id must be an int"):
        space.decode("3", state)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position must be a GameState"):
        space.decode(0, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position must be a GameState or an Observation"):
        space.mask("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ActionSpace("standard")  # type: ignore[call-overload]
    with pytest.raises(InvalidArgumentError):
        ActionSpace(Rules(), players=6)
    with pytest.raises(TypeError, match="must be an Observation"):
        observation_tensor(state)  # type: ignore[arg-type]
    over = state
    rng = random.Random(1)
    while not over.is_over:
        over = apply(over, rng.choice(legal_actions(over)))
    with pytest.raises(InvalidArgumentError, match="over") as info:
        space.decode(0, over)
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args
    assert not space.mask(over).any()
    assert space.decode(np.int64(0), state) == Draw(1)


def test_tensor_shapes_and_fields() -> None:
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for players in (2, 3, 4, 5):
            state = deal(rules, players=players, seed=players)
            for p in range(players):
                x = observation_tensor(observe(state, p))
                y = information_state_tensor(observe(state, p))
                assert x.dtype == np.float32 and y.dtype == np.float32
                assert x.shape == (observation_tensor_size(rules, players),)
                assert y.shape == (information_state_tensor_size(rules, players),)
                for f in tensor_fields(rules, players):
                    name = f.rsplit(": ", 1)[0]
                    assert _field(rules, players, x, name) == _field(
                        rules, players, y, name, info=True
                    )
            widths = [int(f.rsplit(": ", 1)[1]) for f in tensor_fields(rules, players)]
            assert sum(widths) == observation_tensor_size(rules, players)
            widths = [int(f.rsplit(": ", 1)[1]) for f in tensor_fields(rules, players, info=True)]
            assert sum(widths) == information_state_tensor_size(rules, players)


@functools.cache
def _offsets(rules: Rules, players: int, info: bool) -> dict[str, tuple[int, int]]:
    out = {}
    start = 0
    for f in tensor_fields(rules, players, info=info):
        label, width = f.rsplit(": ", 1)
        out[label] = (start, int(width))
        start += int(width)
    return out


def _field(rules: Rules, players: int, x: object, name: str, info: bool = False) -> list[float]:
    """The values of one named field of a tensor, as Python floats."""
    start, width = _offsets(rules, players, info)[name]
    return [float(v) for v in x[start : start + width]]  # type: ignore[index]


def test_the_tensor_fields_say_what_the_docs_say() -> None:
    checked = 0
    for i, (_, state) in enumerate(_random_positions(24, seed=9)):
        if i % 4:
            continue
        rules, n = state.rules, state.players
        deck = rules.deck_size
        for me in range(n):
            view = observe(state, me)
            x = observation_tensor(view)

            def plane(name: str, x: object = x, rules: Rules = rules, n: int = n) -> int:
                return sum(1 << i for i, v in enumerate(_field(rules, n, x, name)) if v)

            assert plane("hand") == state.hand_masks[me]
            for k in range(n):
                owner = (me + k) % n
                mine = sum(tm.mask for tm in state.table if tm.owner == owner)
                assert plane(f"melds[{k}]") == mine
                assert _field(rules, n, x, f"hand_size[{k}]") == [
                    float(np.float32(state.hand_masks[owner].bit_count() / 10))
                ]
                turn = _field(rules, n, x, f"turn[{k}]")
                assert turn == [float(state.current_player == owner)]
            assert plane("discards") == sum(1 << c for c in state.discard_cards)
            top = state.discard_cards[-1] if state.discard_cards else None
            assert plane("top") == (0 if top is None else 1 << top)
            for t in range(MAX_LAY_OFF_TARGETS):
                ext = state.table[t].ext if t < len(state.table) else 0
                assert plane(f"targets[{t}]") == ext
            assert _field(rules, n, x, f"phase.{state.phase.value}") == [1.0]
            assert _field(rules, n, x, "stock_size") == [float(np.float32(state.stock_size / 52))]
            assert deck in (52, 53)
            # the environments' shortcut gives the same tensors
            assert (_of_state(state, me, False) == x).all()
            assert (_of_state(state, me, True) == information_state_tensor(view)).all()
            # nothing hidden leaks: a sampled world with the same view gives the same tensor
            world = sample_state(view, checked)
            assert (observation_tensor(observe(world, me)) == x).all()
            assert (
                information_state_tensor(observe(world, me)) == information_state_tensor(view)
            ).all()
            checked += 1
    assert checked > 300


def _walk_history(history: Any, n: int) -> tuple[list[int], list[int]]:
    """The cards each player discarded and the discards each player passed on
    (declined to pon), by absolute seat, from a walk over the actions."""
    discarded, passed, top = [0] * n, [0] * n, -1
    for action in history:
        if isinstance(action, Discard):
            top = action.card.index
            discarded[action.player] |= 1 << top
        elif isinstance(action, Pass) and top >= 0:
            passed[action.player] |= 1 << top
        elif type(action).__name__ in ("Chi", "Pon"):
            top = -1
    return discarded, passed


def _summary(state: GameState) -> tuple[list[int], list[int]]:
    """The history summary the information state tensor uses, as the two lists
    of :func:`_walk_history`."""
    n, log = state.players, state.move_log
    assert log is not None
    layout = _layout(state.rules.deck_size, n, True)
    summary = _history_summary(log, layout, keep=True)
    assert layout.histories.data[id(log)] == (summary, log)
    return list(summary[:n]), list(summary[n : 2 * n])


def test_the_history_summary_matches_a_fresh_walk() -> None:
    checked = 0
    for _, state in _random_positions(12, seed=3):
        if state.move_log is not None:
            assert _summary(state) == _walk_history(state.history, state.players)
            checked += 1
    assert checked > 500
    clear_caches()
    assert _summary(state) == _walk_history(state.history, state.players)


VARIANTS = [
    Rules.standard().replace(ace_high=True, jokers=1),
    Rules.standard().replace(jokers=1, joker_lay_off=False, claim_min_hand_cards=1),
    Rules.nintendo().replace(ace_high=False),
    Rules.seven_rummy(),
]


@given(state=varied_states())
def test_property_mask_and_round_trip_on_varied_states(state: GameState) -> None:
    space = ActionSpace(state.rules, state.players)
    actions = legal_actions(state)
    ids = space.legal_ids(state)
    assert [space.decode(i, state) for i in ids] == list(actions)
    assert sorted(np.flatnonzero(space.mask(state)).tolist()) == sorted(ids)
    for p in range(state.players):
        view = observe(state, p)
        x = observation_tensor(view)
        assert ((x >= 0) & (x <= 1)).all()
        assert (observation_tensor(observe(sample_state(view, p), p)) == x).all()


@given(state=reachable_states(VARIANTS))
def test_property_rule_variants_round_trip(state: GameState) -> None:
    space = ActionSpace(state.rules, state.players)
    ids = space.legal_ids(state)
    assert len(set(ids)) == len(ids)
    assert [space.decode(i, state) for i in ids] == list(legal_actions(state))


def test_the_tensor_caches_change_no_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planes cached by tuple identity (table, discard pile) and the packed
    hand sizes give the same tensors as a cold start, also while the caches
    overflow and are emptied all the time (so ids of dead tuples come back)."""
    monkeypatch.setattr(_tensors, "PARTS", 3)
    monkeypatch.setattr(_tensors, "HISTORIES", 3)
    clear_caches()  # the layouts are built again, with caches of 3 entries
    assert _layout(52, 3, True).piles.limit == _layout(52, 3, True).histories.limit == 3
    checked = 0
    for i, (_, state) in enumerate(_random_positions(9, seed=21)):
        if i % 3:
            continue
        over = state
        while not over.is_over and i % 7 == 0:  # finished deals too (hands shown)
            over = apply(over, legal_actions(over)[-1])
        for position in {state, over}:
            me = checked % position.players
            view = observe(position, me)
            warm = [observation_tensor(view), information_state_tensor(view)]
            warm += [_of_state(position, me, False), _of_state(position, me, True)]
            clear_caches()
            cold = [observation_tensor(view), information_state_tensor(view)]
            clear_caches()
            cold += [_of_state(position, me, False), _of_state(position, me, True)]
            assert all((a == b).all() for a, b in zip(warm, cold, strict=True))
            assert (warm[2] == warm[0]).all() and (warm[3] == warm[1]).all()
            checked += 1
    assert checked > 100
    clear_caches()  # no layout with tiny caches is left to the other tests


def test_ids_by_identity_survive_the_cache_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_actions, "ACTIONS", 4)
    checked = 0
    for space, state in _random_positions(6, seed=5):
        legal = legal_actions(state)
        assert space.legal_ids(state) == [space.encode(a) for a in legal]
        assert space.mask(state).nonzero()[0].tolist() == sorted(space.legal_ids(state))
        assert space._by_id.limit == 4 and len(space._by_id) <= 4  # emptied when full
        assert len(space._encoded) <= 4 and len(space._decoded) <= 4
        checked += 1
    assert checked > 100


def _bits(indexes: Iterable[int]) -> int:
    return sum(1 << i for i in indexes)


def _slow_tensor(view: Observation, info: bool) -> list[float]:
    """The tensor of ``view``, built the slow way from its public fields (Card
    objects, Meld objects, the history's actions) and the field names of
    :func:`tensor_fields`: the reference the fast bit-twiddling must equal."""
    v: Any = view
    rules: Rules = v.rules
    n: int = v.players
    me: int = v.viewer
    deck = rules.deck_size
    f32 = np.float32

    def seat(k: int) -> int:
        return (me + k) % n

    planes: dict[str, int] = {"hand": _bits(c.index for c in v.hand)}
    melds = v.melds
    shown = v.shown_hands
    pending = v.pending_pon
    for k in range(n):
        planes[f"melds[{k}]"] = _bits(c.index for m in melds if m.owner == seat(k) for c in m.cards)
        known = 0
        if shown is not None:
            known = shown[seat(k)]
        elif pending is not None and pending[0] == seat(k):
            known = pending[1]
        planes[f"known[{k}]"] = known
    planes["discards"] = _bits(c.index for c in v.discard_pile)
    top = v.top_discard
    planes["top"] = 0 if top is None else 1 << top.index
    planes["jokers"] = _bits(m.joker_as.index for m in melds if m.joker_as is not None)
    planes["reshuffled"] = v.reshuffled
    table = v.table
    for t in range(MAX_LAY_OFF_TARGETS):
        planes[f"targets[{t}]"] = table[t].ext if t < len(table) else 0
    if info:
        discarded, passed = _walk_history(v.history, n)
        for k in range(n):
            planes[f"discarded_by[{k}]"] = discarded[seat(k)]
            planes[f"passed_by[{k}]"] = passed[seat(k)]
    phase = v.phase.value
    flags = {f"phase.{p}": phase == p for p in ("claim", "draw", "play", "over")}
    discarder = v.discarder
    flags["discarder.upcard"] = discarder == -1
    for k in range(n):
        flags[f"turn[{k}]"] = v.current_player == seat(k)
        flags[f"discarder[{k}]"] = discarder == seat(k)
        flags[f"meld_owner[{k}]"] = bool(v.meld_owners >> seat(k) & 1)
        flags[f"played[{k}]"] = bool(v.played >> seat(k) & 1)
        flags[f"normal_turn[{k}]"] = bool(v.normal_turns >> seat(k) & 1)
        flags[f"pending_pon[{k}]"] = pending is not None and pending[0] == seat(k)
    flags["turn_clean"] = v.turn_clean
    flags["turn_by_claim"] = v.turn_by_claim
    counts = {f"hand_size[{k}]": v.hand_sizes[seat(k)] / 10 for k in range(n)}
    counts["stock_size"] = v.stock_size / 52
    counts["discard_size"] = len(v.discard_pile) / 52
    counts["table_size"] = len(melds) / MAX_LAY_OFF_TARGETS
    counts["reshuffles"] = v.reshuffles / max(1, rules.reshuffle_limit)
    out: list[float] = []
    for f in tensor_fields(rules, n, info=info):
        name, width = f.rsplit(": ", 1)
        if name in planes:
            assert int(width) == deck
            out.extend(float(planes[name] >> c & 1) for c in range(deck))
        elif name in flags:
            out.append(float(flags[name]))
        else:
            out.append(float(f32(counts[name])))
    return out


def _check_against_the_slow_tensor(state: GameState) -> None:
    for me in range(state.players):
        view = observe(state, me)
        for info, tensor in ((False, observation_tensor), (True, information_state_tensor)):
            want = _slow_tensor(view, info)
            assert tensor(view).tolist() == want
            assert _of_state(state, me, info).tolist() == want


def test_the_tensors_equal_a_slow_reference() -> None:
    checked = 0
    for i, (_, state) in enumerate(_random_positions(20, seed=13)):
        if i % 5:
            continue
        _check_against_the_slow_tensor(state)
        over = state
        while not over.is_over:
            over = apply(over, legal_actions(over)[-1])
        if i % 35 == 0:
            _check_against_the_slow_tensor(over)  # every hand shown
        checked += 1
    assert checked > 100


@given(state=varied_states())
def test_property_tensors_equal_the_slow_reference_and_masks_the_legal_ids(
    state: GameState,
) -> None:
    _check_against_the_slow_tensor(state)
    space = ActionSpace(state.rules, state.players)
    ids = {space.encode(a) for a in legal_actions(state)}
    assert set(np.flatnonzero(space.mask(state)).tolist()) == ids
    for me in range(state.players):
        view = observe(state, me)
        want = ids if state.current_player == me else set()
        assert set(np.flatnonzero(space.mask(view)).tolist()) == want


def test_masks_are_fresh_arrays_even_when_kept_for_lone_actions() -> None:
    """The masks of a lone legal action come from a kept array: each call must
    still give a new array the caller may change."""
    space = ActionSpace(Rules.standard(), 3)
    state = deal(seed=1)  # the first decision is a lone draw
    assert len(legal_actions(state)) == 1
    first = space.mask(state)
    first[:] = True
    second = space.mask(state)
    assert second is not first and second.sum() == 1 and second[0]
    wide = space._masked(legal_actions(state), np.dtype(np.int8))
    assert wide.dtype == np.int8 and wide.tolist() == second.astype(np.int8).tolist()
    wide[5] = 1
    assert space._masked(legal_actions(state), np.dtype(np.int8)).sum() == 1
    other = space._masked(legal_actions(state), np.dtype(np.float32))
    assert other.dtype == np.float32 and other.tolist() == second.astype(np.float32).tolist()
    assert space.mask(observe(state, 0)).sum() == 0  # not the viewer's decision
    assert space.mask(observe(state, 1)).tolist() == second.tolist()


def test_a_pickled_space_starts_without_its_identity_caches() -> None:
    """The caches by object identity mean nothing in another process, where an
    id may be any object's: a pickled (or copied) space must not carry them."""
    import copy

    space = ActionSpace(Rules.standard(), 3)
    rng = random.Random(8)
    states = []
    for seed in range(3):
        state = deal(Rules.standard(), players=3, seed=seed)
        while not state.is_over:
            states.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
    assert len(states) > 30
    masks = [space.mask(s).tolist() for s in states]
    assert space._by_id and space._lone
    for other in (pickle.loads(pickle.dumps(space)), copy.deepcopy(space), copy.copy(space)):
        assert type(other) is ActionSpace and other.digest == space.digest
        assert (other.rules, other.players) == (space.rules, space.players)
        assert not other._by_id and not other._lone and not other._encoded
        assert [other.mask(s).tolist() for s in states] == masks


def _every_kind_of_call(states: list[GameState], space: ActionSpace) -> list[list[float]]:
    """Masks, ids and both tensors, from states and from views, of ``states``:
    every path that fills a cache of sevenbridge.rl."""
    out = []
    for state in states:
        out.append(space.mask(state).tolist())
        out.append([float(i) for i in space.legal_ids(state)])
        out.append([float(space.encode(space.decode(i, state))) for i in space.legal_ids(state)])
        for me in range(state.players):
            view = observe(state, me)
            out.append(observation_tensor(view).tolist())
            out.append(information_state_tensor(view).tolist())
            out.append(_of_state(state, me, False).tolist())
            out.append(_of_state(state, me, True).tolist())
    return out


def _one_deal(seed: int, rules: Rules | None = None, players: int = 3) -> list[GameState]:
    rng = random.Random(seed)
    state = deal(rules or Rules.standard(), players=players, seed=seed)
    states = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


def test_the_cache_type() -> None:
    """Bounded, emptied when full; an entry by identity keeps its object alive;
    a cache of one entry keeps it in ``last``; a copy or a pickle starts
    empty; clear empties."""
    import copy

    cache: _caches.Cache[Any, Any] = _caches.Cache(3)
    for key in "abc":
        assert cache.put(key, key.upper()) == key.upper()
    assert cache.data == {"a": "A", "b": "B", "c": "C"} and len(cache) == 3
    cache.put("d", "D")  # full: emptied first
    assert cache.data == {"d": "D"}
    by_id: _caches.Cache[int, tuple[str, object]] = _caches.Cache(2)
    things = [object(), object(), object()]
    thing = _Thing()
    thing_ref = weakref.ref(thing)
    assert by_id.keep(thing, "kept") == "kept"
    del thing
    gc.collect()
    assert thing_ref() is not None  # kept by its entry
    assert by_id.data == {id(thing_ref()): ("kept", thing_ref())}
    by_id.keep(things[1], "one")
    by_id.keep(things[2], "two")  # full: emptied first, the kept object let go
    gc.collect()
    assert thing_ref() is None and by_id.data == {id(things[2]): ("two", things[2])}
    del by_id.data[id(things[2])]
    assert not by_id.data and len(by_id) == 0
    by_id.keep(things[0], "zero")
    for other in (copy.copy(by_id), copy.deepcopy(by_id), pickle.loads(pickle.dumps(by_id))):
        assert type(other) is _caches.Cache and other.limit == 2 and not other.data
    assert repr(by_id) == "<Cache of 1 entries, at most 2>"
    by_id.clear()
    assert not by_id.data
    one: _caches.Cache[tuple[int, ...], int] = _caches.Cache(1, empty=((), 0))
    assert one.last == ((), 0) and len(one) == 0
    one.last = ((5,), 32)
    assert len(one) == 1 and repr(one) == "<Cache of 1 entries, at most 1>"
    again = pickle.loads(pickle.dumps(one))
    assert again.last == ((), 0) and again.limit == 1 and len(again) == 0
    one.clear()
    assert one.last == ((), 0) and len(one) == 0


class _Thing:
    """An object that takes weak references."""


def test_clear_caches_empties_every_cache_and_changes_no_result() -> None:
    space = ActionSpace(Rules.standard(), 3)
    states = _one_deal(4)[:-1]
    warm = _every_kind_of_call(states, space)
    # the module's caches and the space's: ids, masks, tables, piles, hands, histories
    filled = {id(c) for c in list(_caches._LIVE.values()) if c}
    layout = _layout(52, 3, True)
    mine: list[Any] = [space._by_id, space._encoded, space._decoded, space._lone]
    mine += [layout.tables, layout.piles, layout.pile_cards, layout.hands, layout.hand_sizes]
    mine += [layout.histories, layout.by_viewer[0][0], _actions._TABLES, _tensors._LAYOUTS]
    assert {id(c) for c in mine} <= filled
    clear_caches()
    assert not any(_caches._LIVE.values())
    assert _every_kind_of_call(states, space) == warm


def _history_nodes() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is History)


def _histories_in_caches() -> int:
    """How many history nodes the entries of sevenbridge.rl's caches hold."""
    found = 0
    for cache in list(_caches._LIVE.values()):
        for key, value in list(cache.data.items()):
            items = (key, *value) if isinstance(value, tuple) else (key, value)
            found += sum(type(item) is History for item in items)
    return found


def test_a_finished_deal_leaves_nothing_in_the_caches() -> None:
    """Play deals through every kind of call, to the end; once the caller drops
    them, no state, view or history node of theirs is left alive by the module."""
    clear_caches()
    before = _history_nodes()
    space = ActionSpace(Rules.nintendo(), 4)
    alive = []
    for seed in range(3):
        states = _one_deal(seed, Rules.nintendo(), 4)
        _every_kind_of_call(states, space)  # the last state is the finished deal
        views = [observe(s, seed) for s in states]
        for view in views:
            information_state_tensor(view)
        alive += [weakref.ref(x) for x in states + views]
        assert _history_nodes() > before
        assert _histories_in_caches() == 0
    del states, views, view
    assert _history_nodes() == before
    assert not [r for r in alive if r() is not None]
    # a deal given up before its end is held (by the summaries of its history)
    # until the cache fills or clear_caches empties it
    _every_kind_of_call(_one_deal(7, Rules.nintendo(), 4)[:40], space)
    assert _history_nodes() > before and _histories_in_caches() > 0
    clear_caches()
    assert _history_nodes() == before


def test_the_caches_hold_in_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads that share tiny caches, emptied all the time, get the results of a
    cold start: every entry is one tuple, whole or absent."""
    import sys
    import threading

    reference = {}
    deals = {
        seed: _one_deal(seed, Rules.preset(PRESETS[seed % 3]), 2 + seed % 4) for seed in range(4)
    }
    for seed, states in deals.items():
        clear_caches()
        reference[seed] = _every_kind_of_call(
            states, ActionSpace(states[0].rules, states[0].players)
        )
    monkeypatch.setattr(_tensors, "PARTS", 3)
    monkeypatch.setattr(_tensors, "HISTORIES", 3)
    monkeypatch.setattr(_actions, "ACTIONS", 5)
    clear_caches()
    spaces = {seed: ActionSpace(s[0].rules, s[0].players) for seed, s in deals.items()}
    results: dict[tuple[int, int], list[list[float]]] = {}

    def run(worker: int) -> None:
        for seed in (worker, (worker + 1) % 4):
            results[worker, seed] = _every_kind_of_call(deals[seed], spaces[seed])

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can
    try:
        threads = [threading.Thread(target=run, args=(w,)) for w in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(results) == 8
    for (_, seed), got in results.items():
        assert got == reference[seed]
    clear_caches()


@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("compact", [False, True])
def test_a_batchs_rows_are_the_single_tensors(preset: str, compact: bool) -> None:
    """The vector env's writer puts each state's tensor in its row (padded to
    whole bytes, the padding zero), for every table size, whoever is asked."""
    from sevenbridge.rl._tensors import row_writer

    rules = Rules.preset(preset)
    rng = random.Random(preset)
    for players in range(2, 6):
        states = []
        for seed in range(3):
            state = deal(rules, players=players, seed=seed)
            while not state.is_over:
                states.append(state)
                actions = legal_actions(state)
                state = apply(state, actions[rng.randrange(len(actions))])
            states.append(state)  # the end, with every hand shown
        writer = row_writer(rules, players, compact)
        size = observation_tensor_size(rules, players, compact=compact)
        assert writer.size == size and writer.width % 8 == 0 and writer.width - size < 8
        for seat in range(players):
            rows = np.full((len(states) + 1, writer.width), 7.0, np.float32)
            writer.write(states, seat, rows)
            for state, row in zip(states, rows, strict=False):
                assert (row[:size] == _of_state(state, seat, False, compact)).all()
                assert not row[size:].any()
            assert (rows[-1] == 7.0).all()  # the rows past the batch are left alone

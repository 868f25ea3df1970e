"""sevenbridge.rl's compact numbering and compact tensors."""

from __future__ import annotations

import os
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

from .helpers import optional_module, pass_window, play, stacked

np = optional_module("numpy")

from sevenbridge import (  # noqa: E402
    Chi,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    LayDown,
    LayOff,
    Rules,
    apply,
    deal,
    legal_actions,
    mahjong,
    observe,
    sample_state,
)
from sevenbridge import _tables as T  # noqa: E402
from sevenbridge.rl import (  # noqa: E402
    COMPACT_ACTION_SPACE_VERSION,
    COMPACT_TENSOR_VERSION,
    SLOT_NAMES,
    TENSOR_VERSION,
    ActionSpace,
    CompactActionSpace,
    information_state_tensor,
    information_state_tensor_size,
    observation_tensor,
    observation_tensor_size,
    tensor_digest,
    tensor_fields,
)
from sevenbridge.rl._tensors import _of_state  # noqa: E402

#: Random deals for the round-trip test (``SEVENBRIDGE_RL_DEALS`` raises it by hand).
DEALS = int(os.environ.get("SEVENBRIDGE_RL_DEALS", "120"))

#: The compact id tables, pinned: a change needs a new COMPACT_ACTION_SPACE_VERSION.
DIGESTS = {
    "standard": (1295, "23b5bf8fee27"),
    "seven_rummy": (1311, "37b5cb00e4b7"),
    "nintendo": (7869, "6b2f48bd4cbe"),
}

#: The tensors' layouts at three players, pinned: (observation size and digest,
#: information state size and digest) for the full and the compact layout. A
#: change needs a new TENSOR_VERSION or COMPACT_TENSOR_VERSION.
LAYOUTS = {
    (52, False): ((1592, "750b3ab7cb03"), (1904, "e809ab6a961e")),
    (52, True): ((776, "a1c3d2417fc1"), (1088, "58e28baaf918")),
    (53, False): ((1622, "fb473198d0e9"), (1940, "00463887b7a3")),
    (53, True): ((790, "f08d08f0588b"), (1108, "fd29a329ca28")),
}

#: Rules beyond the presets whose numbering differs: no final discard (bigger
#: lay-downs and claims), Ace high with a joker, everything loose at once.
VARIANTS = [Rules.preset(p) for p in Rules.presets()] + [
    Rules(final_discard=False),
    Rules(ace_high=True, jokers=1),
    Rules.nintendo().replace(
        final_discard=False, claim_min_hand_cards=1, lay_off_needs_own_meld=False
    ),
]


def _positions(deals: int, seed: int = 0) -> Iterator[tuple[CompactActionSpace, GameState]]:
    rng = random.Random(seed)
    for i in range(deals):
        rules = VARIANTS[i % len(VARIANTS)]
        players = 2 + (i // len(VARIANTS)) % 4
        space = CompactActionSpace(rules, players)
        state = deal(rules, players=players, seed=rng.getrandbits(32))
        while not state.is_over:
            yield space, state
            state = apply(state, rng.choice(legal_actions(state)))


def test_every_legal_action_round_trips_and_the_mask_is_the_legal_set() -> None:
    positions = lay_offs = 0
    for space, state in _positions(DEALS):
        actions = legal_actions(state)
        ids = [space.encode(a, state) for a in actions]
        assert len(set(ids)) == len(ids)
        assert [space.decode(i, state) for i in ids] == list(actions)
        mask = space.mask(state)
        assert mask.dtype == np.bool_ and mask.shape == (space.size,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
        view = observe(state)
        assert space.legal_ids(state) == ids == space.legal_ids(view)
        assert (space.mask(view) == mask).all()
        lay_offs += sum(type(a) is LayOff for a in actions)
        positions += 1
    assert positions > 25 * DEALS and lay_offs > 5 * DEALS


@pytest.mark.parametrize("preset", Rules.presets())
def test_the_id_table_is_pinned(preset: str) -> None:
    size, digest = DIGESTS[preset]
    for players in (2, 3, 4, 5):
        space = CompactActionSpace(Rules.preset(preset), players)
        assert space.version == COMPACT_ACTION_SPACE_VERSION == 1
        assert space.size == size == len(space.labels) == len(set(space.labels))
        assert space.digest.startswith(digest)
    assert space.size < ActionSpace(Rules.preset(preset)).size / 2


def test_what_can_never_be_legal_has_no_id() -> None:
    full, compact = ActionSpace(Rules()), CompactActionSpace(Rules())
    loose = CompactActionSpace(Rules(final_discard=False))
    eight = LayDown(0, "AH 2H 3H 4H 5H 6H 7H 8H")
    seven = LayDown(0, "AH 2H 3H 4H 5H 6H 7H")
    full.encode(eight)  # the full numbering has every meld
    with pytest.raises(InvalidArgumentError, match="no compact action id") as info:
        compact.encode(eight)  # a hand of eight must keep a card for the final discard
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args
    assert compact.label(compact.encode(seven)) == "laydown AH.2H.3H.4H.5H.6H.7H"
    assert loose.label(loose.encode(eight)) == "laydown AH.2H.3H.4H.5H.6H.7H.8H"
    # a chi takes at most six cards from a hand of seven (seven without a final discard)
    with pytest.raises(InvalidArgumentError, match="no compact action id"):
        compact.encode(Chi(0, "AH 2H 3H 4H 5H 6H 7H"))
    assert loose.encode(Chi(0, "AH 2H 3H 4H 5H 6H 7H")) >= 0
    for space in (compact, loose):
        labels = space.labels
        most = 7 if space is compact else 8
        lays = [lb for lb in labels if lb.startswith("laydown")]
        assert max(lb.count(".") + 1 for lb in lays) == most
        claims = [lb for lb in labels if lb.startswith(("chi", "pon"))]
        assert max(lb.count(".") + 1 for lb in claims) == most - 1
    # lay-off slots no meld offers: a 2 after a run's top, a King before its bottom,
    # an Ace after a King (Ace low)
    offs = [lb for lb in compact.labels if lb.startswith("layoff")]
    assert "layoff 2H high" not in offs and "layoff KH low" not in offs
    assert "layoff AH high" not in offs and "layoff AH low" in offs
    assert "layoff AH high" in CompactActionSpace(Rules(ace_high=True)).labels
    assert {lb.split(" ", 2)[2] for lb in offs} == set(SLOT_NAMES)


def _two_melds_take_the_8h() -> GameState:
    """A lone 7H and the run 5H 6H JK (the joker standing for 7H) on the
    table: both take the 8H, which player 1 holds."""
    state = stacked(Rules(jokers=1), ["5H 6H JK", "7H 8H"], upcard="2S", stock="3S 4S 9S")
    state = pass_window(play(state, "1 Draw", "1 LayDown 7H", "1 Discard 3S"))
    state = pass_window(play(state, "0 Draw", "0 LayDown 5H 6H JK=7H", "0 Discard 4S"))
    return play(state, "1 Draw")


def test_a_lone_seven_and_a_run_ending_in_its_joker_take_the_same_card() -> None:
    state = _two_melds_take_the_8h()
    space = CompactActionSpace(Rules(jokers=1), 2)
    offs = [a for a in legal_actions(state) if type(a) is LayOff]
    assert sorted(a.target for a in offs) == [0, 1]
    ids = [space.encode(a, state) for a in offs]
    assert sorted(space.label(i) for i in ids) == ["layoff 8H high", "layoff 8H seven"]
    assert [space.decode(i, state) for i in ids] == offs


def test_lay_offs_need_their_position_and_a_meld_that_takes_the_card() -> None:
    state = _two_melds_take_the_8h()
    space = CompactActionSpace(Rules(jokers=1), 2)
    with pytest.raises(InvalidArgumentError, match="give the position"):
        space.encode(LayOff(1, "8H", 0))
    for bad in (LayOff(1, "9H", 0), LayOff(1, "8H", 2), LayOff(1, "JK", 0, "8H")):
        with pytest.raises(InvalidArgumentError, match="no compact action id"):
            space.encode(bad, state)
    # an id whose slot no meld of the table fills decodes past the table's end
    low = space.labels.index("layoff 9S low")
    decoded = space.decode(low, state)
    assert decoded == LayOff(1, "9S", 2)
    with pytest.raises(IllegalActionError):
        apply(state, decoded)
    with pytest.raises(TypeError, match="position must be"):
        space.encode(LayOff(1, "8H", 0), "the table")  # type: ignore[arg-type]
    copy = pickle.loads(pickle.dumps(space))
    assert type(copy) is CompactActionSpace and copy.digest == space.digest
    assert repr(copy) == f"<CompactActionSpace of {space.size} ids, version 1, 2 players>"


def _plane(layout: dict[str, tuple[int, int]], x: Any, name: str) -> int:
    start, width = layout[name]
    return sum(1 << i for i in range(width) if x[start + i])


def _offsets(fields: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    out, start = {}, 0
    for f in fields:
        name, width = f.rsplit(": ", 1)
        out[name] = (start, int(width))
        start += int(width)
    return out


def test_the_compact_tensors_say_what_their_fields_say() -> None:
    checked = slots_seen = 0
    for i, (space, state) in enumerate(_positions(30, seed=4)):
        if i % 3:
            continue
        rules, n = state.rules, state.players
        full_at = _offsets(tensor_fields(rules, n))
        at = _offsets(tensor_fields(rules, n, compact=True))
        for me in range(n):
            view = observe(state, me)
            x = observation_tensor(view, compact=True)
            y = observation_tensor(view)
            assert x.shape == (observation_tensor_size(rules, n, compact=True),)
            # every field but the lay-off planes is the full tensor's
            for name, (start, width) in full_at.items():
                if not name.startswith("targets"):
                    s2, w2 = at[name]
                    assert (x[s2 : s2 + w2] == y[start : start + width]).all(), name
            # the lay-off planes and the seven flags, from the table itself
            high = low = same = 0
            sevens = [[0] * 4 for _ in range(4)]
            for tm in state.table:
                if tm.kind == T.RUN:
                    bottom = 1 << (tm.key * 13 + (tm.lo - 2) % 13) if tm.lo > 1 else 0
                    low |= tm.ext & bottom
                    high |= tm.ext & ~bottom
                    continue
                same |= tm.ext & (T.SEVENS if tm.kind == T.SEVEN else ~0)
                natural = [c for c in T.bits(tm.mask & T.SEVENS)]
                for c in natural:
                    sevens[natural[0] // 13][c // 13] = 1
            assert _plane(at, x, "layoff_high") == high
            assert _plane(at, x, "layoff_low") == low
            assert _plane(at, x, "layoff_same_rank") == same
            got = [[_plane(at, x, f"seven_meld[{y_}].{x_}") for x_ in "CDHS"] for y_ in "CDHS"]
            assert got == sevens
            # the planes say where the legal lay-offs go
            if me == state.current_player:
                for action in legal_actions(state):
                    if type(action) is LayOff and action.joker_as is None:
                        slot = space.label(space.encode(action, state)).split(" ", 2)[2]
                        c = action.card.index
                        plane = {"high": high, "low": low, "seven": -1}.get(slot, same)
                        if slot == "seven":
                            assert sevens[c // 13][c // 13] and sum(sevens[c // 13]) == 1
                        else:
                            assert plane >> c & 1
                        slots_seen += 1
            # the environments' shortcut, the information state, and nothing hidden
            assert (_of_state(state, me, False, True) == x).all()
            info = information_state_tensor(view, compact=True)
            assert info.shape == (information_state_tensor_size(rules, n, compact=True),)
            assert (_of_state(state, me, True, True) == info).all()
            world = sample_state(view, checked)
            assert (observation_tensor(observe(world, me), compact=True) == x).all()
            assert (information_state_tensor(observe(world, me), compact=True) == info).all()
            checked += 1
    assert checked > 300 and slots_seen > 20


@pytest.mark.parametrize(("deck", "compact"), sorted(LAYOUTS))
def test_the_tensor_layouts_are_pinned(deck: int, compact: bool) -> None:
    rules = Rules() if deck == 52 else Rules.nintendo()
    (obs_size, obs_digest), (info_size, info_digest) = LAYOUTS[deck, compact]
    assert observation_tensor_size(rules, 3, compact=compact) == obs_size
    assert information_state_tensor_size(rules, 3, compact=compact) == info_size
    assert tensor_digest(rules, 3, compact=compact).startswith(obs_digest)
    assert tensor_digest(rules, 3, info=True, compact=compact).startswith(info_digest)
    assert TENSOR_VERSION == COMPACT_TENSOR_VERSION == 1
    for players in (2, 4, 5):
        widths = [int(f.rsplit(": ", 1)[1]) for f in tensor_fields(rules, players, compact=True)]
        assert sum(widths) == observation_tensor_size(rules, players, compact=True)


def test_mahjong_has_one_layout() -> None:
    rules = mahjong.Rules()
    view = mahjong.observe(mahjong.deal(players=2, seed=1), 0)
    for call in (
        lambda: observation_tensor(view, compact=True),
        lambda: observation_tensor_size(rules, 2, compact=True),
        lambda: tensor_fields(rules, 2, compact=True),
    ):
        with pytest.raises(InvalidArgumentError, match="one layout"):
            call()
    assert tensor_digest(rules, 2) == tensor_digest(rules, 2)

"""Tiles, their notation, and winning hands checked against a brute-force reference."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given

from sevenbridge import InvalidArgumentError, SevenBridgeError
from sevenbridge.mahjong import (
    TILE_KINDS,
    InvalidTileError,
    Meld,
    MeldKind,
    Tile,
    TileSuit,
    decompositions,
    format_tiles,
    full_wall,
    is_mahjong,
    is_mahjong_counts,
    parse_tiles,
    to_34_array,
    waits,
)

from ..budgets import THOROUGH
from ..helpers import optional_module
from .strategies import built_hands, random_hands

# --- a slow, obviously correct reference -----------------------------------------


def _sets_only(tiles: list[int]) -> list[list[tuple[int, ...]]]:
    """Every multiset of sets the sorted tiles split into (the smallest tile must
    start a pung or a chow)."""
    if not tiles:
        return [[]]
    first = tiles[0]
    out: list[list[tuple[int, ...]]] = []
    candidates: list[tuple[int, ...]] = [(first, first, first)]
    if first < 27 and first % 9 <= 6:
        candidates.append((first, first + 1, first + 2))
    for group in candidates:
        rest = list(tiles)
        try:
            for t in group:
                rest.remove(t)
        except ValueError:
            continue
        for tail in _sets_only(rest):
            out.append([group, *tail])
    return out


def reference_splits(tiles: list[int]) -> set[tuple[tuple[int, ...], ...]]:
    """Every (pair, sorted sets) split of 14 tiles, by brute force."""
    found: set[tuple[tuple[int, ...], ...]] = set()
    if len(tiles) != 14:
        return found
    for pair in set(tiles):
        if tiles.count(pair) < 2:
            continue
        rest = sorted(tiles)
        rest.remove(pair)
        rest.remove(pair)
        for sets in _sets_only(rest):
            found.add(((pair, pair), *sorted(sets)))
    return found


def _as_tuples(split: tuple[Meld, ...]) -> tuple[tuple[int, ...], ...]:
    pair = [tuple(int(t) for t in m.tiles) for m in split if m.kind is MeldKind.PAIR]
    sets = sorted(tuple(int(t) for t in m.tiles) for m in split if m.kind is not MeldKind.PAIR)
    return (pair[0], *sets)


# --- tiles ---------------------------------------------------------------------------


def test_a_set_has_136_tiles_four_of_each_kind() -> None:
    wall = full_wall()
    assert len(wall) == 136
    assert Counter(wall) == {t: 4 for t in TILE_KINDS}
    assert len(full_wall(flowers=True)) == 140
    assert len(full_wall(flowers=True, seasons=True)) == 144
    assert sum(t.is_suited for t in TILE_KINDS) == 27
    assert [str(t) for t in TILE_KINDS if t.is_honour] == ["E", "S", "W", "N", "Wd", "Gd", "Rd"]


def test_every_tile_round_trips_through_its_text() -> None:
    for i in range(42):
        tile = Tile(i)
        assert Tile.parse(str(tile)) is tile
        assert eval(repr(tile)) is tile
        assert pickle.loads(pickle.dumps(tile)) is tile
    assert parse_tiles(format_tiles(full_wall())) == full_wall()


def test_compact_and_spaced_notation() -> None:
    assert parse_tiles("123m") == parse_tiles("1m 2m 3m") == parse_tiles("1m,2m, 3m")
    assert parse_tiles("WdWWd") == (Tile.parse("Wd"), Tile.parse("W"), Tile.parse("Wd"))
    assert parse_tiles(["1m", Tile(1), "EE"]) == parse_tiles("1m2mEE")
    assert format_tiles(parse_tiles("5p5p 6s E Gd"), compact=False) == "5p 5p 6s E Gd"
    assert Tile.parse("3f").suit is TileSuit.BONUS and Tile.parse("3f").is_bonus
    assert Tile.parse("Rd").name == "Red dragon" and Tile.parse("Rd").is_dragon
    assert Tile.parse("7s").number == 7 and Tile.parse("N").number is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0m", "numbered 1 to 9"),
        ("9f", "numbered 1 to 8"),
        ("12", "no suit letter"),
        ("1M", "lower case"),
        ("rd", "Wd, Gd, Rd"),
        ("X", "cannot read"),
    ],
)
def test_bad_tile_text_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(InvalidTileError, match=reason) as info:
        parse_tiles(text)
    assert isinstance(info.value, SevenBridgeError)
    assert info.value.text == text


def test_parse_refuses_other_types() -> None:
    with pytest.raises(TypeError, match="tiles must be text"):
        parse_tiles(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a tile must be"):
        parse_tiles([1.5])  # type: ignore[list-item]
    with pytest.raises(InvalidTileError, match="2 tiles"):
        Tile.parse("EE")
    with pytest.raises(InvalidTileError, match="0 to 41"):
        Tile(42)


def test_melds_know_their_shape() -> None:
    assert Meld.parse("456s").kind is MeldKind.CHOW
    assert Meld.parse("NNN").kind is MeldKind.PUNG
    assert Meld.parse("NNNN").kind is MeldKind.KONG
    assert Meld.parse("7p7p").kind is MeldKind.PAIR
    with pytest.raises(InvalidTileError, match="no chow"):
        Meld.parse("ESW")  # honours never form chows
    with pytest.raises(InvalidTileError, match="no chow"):
        Meld.parse("891m")
    with pytest.raises(InvalidTileError, match="not a pung"):
        Meld(MeldKind.PUNG, parse_tiles("123m"))
    with pytest.raises(InvalidTileError, match="claimed tile"):
        Meld(MeldKind.PUNG, parse_tiles("111m"), claimed=Tile.parse("2m"))


# --- winning hands ---------------------------------------------------------------------


def test_known_hands() -> None:
    assert is_mahjong("123m 456m 789m 555p EE")
    assert is_mahjong("111m 222m 333m 444m 55m")
    assert is_mahjong("WdWdWd GdGdGd RdRdRd EEE NN")
    assert not is_mahjong("123m 456m 789m 555p ES")
    assert not is_mahjong("ESWESWESW 123m 11p 5s")  # honours make no chows
    assert not is_mahjong("123m 456m 789m 555p E")  # 13 tiles
    assert is_mahjong("11m 22m 33m 44m 55m 66m 77m")  # 123 123 456 456 77
    assert not is_mahjong("11m 22m 44m 55m 77m 88m EE")  # seven pairs is not a pattern here


def test_melds_count_as_sets() -> None:
    melds = [Meld.parse("123s"), Meld.parse("EEE")]
    assert is_mahjong("456p 789p 55m", melds)
    assert not is_mahjong("456p 789p 56m", melds)
    kong = [Meld.parse("1111s"), Meld.parse("2222s"), Meld.parse("3333s"), Meld.parse("4444s")]
    assert is_mahjong("55s", kong)
    (split,) = decompositions("55s", kong)
    assert split[0].kind is MeldKind.PAIR and split[1:] == tuple(kong)


def test_impossible_hands_are_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="5 copies of 1m"):
        is_mahjong("11111m 234m 567m 99m E")
    with pytest.raises(InvalidArgumentError, match="bonus tile"):
        is_mahjong("1f 123m 456m 789m 55p EE")
    # The same as tuples of tiles (read without parsing), a lone honour in each.
    with pytest.raises(InvalidArgumentError, match="5 copies of 1m"):
        is_mahjong(parse_tiles("11111m 234m 567m 99m E"))
    with pytest.raises(InvalidArgumentError, match="bonus tile"):
        is_mahjong(parse_tiles("1f 123m 456m 789m 55p E"))
    with pytest.raises(TypeError, match="a tile must be a Tile or text, not int"):
        is_mahjong((0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 27))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="melds"):
        is_mahjong("55s", "123m")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="13 tiles"):
        waits("123m")


@THOROUGH
@given(built_hands())
def test_is_mahjong_and_decompositions_match_the_reference_on_built_hands(
    hand: tuple[Tile, ...],
) -> None:
    expected = reference_splits([int(t) for t in hand])
    assert is_mahjong(hand) == bool(expected)
    assert {_as_tuples(s) for s in decompositions(hand)} == expected
    assert len(decompositions(hand)) == len(expected)


@THOROUGH
@given(random_hands())
def test_is_mahjong_matches_the_reference_on_random_hands(hand: tuple[Tile, ...]) -> None:
    assert is_mahjong(hand) == bool(reference_splits([int(t) for t in hand]))


def test_many_random_hands_against_the_reference() -> None:
    rng = random.Random(13)
    wall = list(full_wall())
    wins = 0
    for _ in range(3000):
        # Concentrated hands (few kinds) win far more often than uniform ones.
        kinds = rng.sample(range(34), rng.choice([4, 5, 6, 34]))
        pool = [t for t in wall if t in kinds]
        hand = sorted(rng.sample(pool, 14)) if len(pool) >= 14 else sorted(rng.sample(wall, 14))
        expected = reference_splits([int(t) for t in hand])
        assert is_mahjong(hand) == bool(expected), format_tiles(hand)
        wins += bool(expected)
    assert wins > 50  # the sample really tests winning hands too


def _answer(tiles: object) -> object:
    """What ``is_mahjong`` makes of ``tiles``: its answer, or its error's type and text."""
    try:
        return is_mahjong(tiles)  # type: ignore[arg-type]
    except (TypeError, SevenBridgeError) as error:
        return type(error), str(error)


def test_a_tuple_of_fourteen_tiles_is_answered_as_the_same_tiles_in_a_list() -> None:
    # A tuple of 14 tiles (no melds) takes the winning-hand tables' quick path,
    # which reads the tiles with builtins interpreted and in a native loop
    # compiled; a list takes the checked path. They agree on 20,000 uniform
    # random hands (as the benchmark draws them, unsorted as well as sorted),
    # on concentrated hands (many of which win), and on hands with a fifth
    # copy, a bonus tile or an item that is not a tile, which raise the same error.
    rng = random.Random(41)
    wall = list(full_wall())
    bonus = list(full_wall(flowers=True, seasons=True))[len(wall) :]
    answers: Counter[object] = Counter()
    for i in range(20_000):
        if i % 4 == 3:
            kinds = rng.sample(range(34), rng.choice([4, 5, 6]))
            pool = [t for t in wall if t in kinds]
            hand = rng.sample(pool, 14) if len(pool) >= 14 else rng.sample(wall, 14)
        else:
            hand = rng.sample(wall, 14)
        if i % 2:
            hand.sort()
        if i % 50 == 7:  # a fifth copy of a tile
            hand[rng.randrange(14)] = hand[0] = hand[1] = hand[2] = hand[3] = hand[4]
        elif i % 50 == 17:  # a bonus tile
            hand[rng.randrange(14)] = rng.choice(bonus)
        elif i % 50 == 27:  # an int, or text, among the tiles
            hand[rng.randrange(14)] = rng.choice([int(hand[0]), str(hand[0]), True])  # type: ignore[call-overload]
        got = _answer(tuple(hand))
        assert got == _answer(list(hand)), hand
        answers[got if isinstance(got, bool) else got[0]] += 1  # type: ignore[index]
    assert answers[True] > 200 and answers[False] > 15_000
    assert answers[InvalidArgumentError] > 500 and answers[TypeError] > 100


@THOROUGH
@given(random_hands(13))
def test_waits_are_exactly_the_completing_tiles(hand: tuple[Tile, ...]) -> None:
    counts = Counter(hand)
    expected = [
        t for t in TILE_KINDS if counts[t] < 4 and reference_splits([int(x) for x in (*hand, t)])
    ]
    assert list(waits(hand)) == expected


def test_nine_gates_waits_on_every_tile_of_its_suit() -> None:
    assert [str(t) for t in waits("1112345678999p")] == [f"{n}p" for n in range(1, 10)]
    assert waits("1111m 456p 789p EEE") == ()  # only a fifth 1m would do
    assert waits("111m 456p 789p EEE 2m") == parse_tiles("2m 3m")  # 22 or 123


def test_copies_count_the_melds_too() -> None:
    with pytest.raises(InvalidArgumentError, match="5 copies of E"):
        is_mahjong("EE 123p 456p 789p", [Meld.parse("EEE")])


# --- interop: the z notation, and the 34 and 136 arrays of other mahjong software -----------


def test_the_z_notation_names_the_honours_east_to_north_then_white_green_red() -> None:
    from sevenbridge.mahjong import InvalidTileError

    assert parse_tiles("1234567z") == parse_tiles("E S W N Wd Gd Rd")
    assert parse_tiles("11z 5z 123m") == parse_tiles("EE Wd 123m")
    with pytest.raises(InvalidTileError, match="honours are numbered 1 to 7"):
        parse_tiles("8z")


def test_34_and_136_arrays() -> None:
    from sevenbridge.mahjong import from_34_array, from_136_array, to_34_array, to_136_array

    hand = parse_tiles("123m 55p 789s E Gd Rd Rd")
    counts = to_34_array(hand)
    assert len(counts) == 34 and sum(counts) == len(hand)
    assert counts[0] == counts[1] == counts[2] == 1 and counts[9 + 4] == 2
    assert counts[27] == 1 and counts[32] == 1 and counts[33] == 2
    assert from_34_array(counts) == tuple(sorted(hand))
    assert to_136_array("1m 1m 9s E Wd Rd") == [0, 1, 104, 108, 124, 132]
    assert from_136_array([135, 0, 3]) == parse_tiles("Rd 1m 1m")
    assert sorted(from_136_array(to_136_array(full_wall()))) == sorted(full_wall())
    assert to_136_array(full_wall()) == list(range(136))
    with pytest.raises(InvalidArgumentError, match="bonus tile 1f"):
        to_34_array("1f")
    with pytest.raises(InvalidArgumentError, match="more than four of 1m"):
        to_136_array("11111m")
    with pytest.raises(InvalidArgumentError, match="34 counts"):
        from_34_array([0] * 33)
    with pytest.raises(InvalidArgumentError, match="34 counts"):
        from_34_array([5] + [0] * 33)
    with pytest.raises(InvalidArgumentError, match="different indexes"):
        from_136_array([1, 1])
    with pytest.raises(InvalidArgumentError, match="different indexes"):
        from_136_array([136])
    with pytest.raises(TypeError, match="ints"):
        from_136_array(["1m"])  # type: ignore[list-item]


@THOROUGH
@given(random_hands(14))
def test_arrays_round_trip(hand: tuple[Tile, ...]) -> None:
    from sevenbridge.mahjong import from_34_array, from_136_array, to_34_array, to_136_array

    assert from_34_array(to_34_array(hand)) == tuple(sorted(hand))
    indexes = to_136_array(hand)
    assert len(set(indexes)) == len(hand) and tuple(sorted(from_136_array(indexes))) == hand
    assert to_34_array(from_136_array(indexes)) == to_34_array(hand)


def test_arrays_round_trip_through_the_mahjong_package() -> None:
    converter = optional_module("mahjong.tile").TilesConverter
    from sevenbridge.mahjong import from_34_array, from_136_array, to_34_array, to_136_array

    hand = parse_tiles("123m 456p 789s 1z 5z 77z")
    text = converter.to_one_line_string(to_136_array(hand))
    assert parse_tiles(text) == tuple(sorted(hand))
    assert converter.to_34_array(to_136_array(hand)) == to_34_array(hand)
    back = converter.one_line_string_to_136_array("123m456p789s1z5z77z")
    assert tuple(sorted(from_136_array(back))) == tuple(sorted(hand))
    assert from_34_array(converter.to_34_array(back)) == tuple(sorted(hand))


# --- agreement with the mahjong package's Agari.is_agari --------------------------------


def _winning_hand(rng: random.Random) -> list[int]:
    """Four random sets and a pair, no kind past four copies."""
    while True:
        counts = [0] * 34
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.choice([s * 9 + n for s in range(3) for n in range(7)])
                tiles += [start, start + 1, start + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4:
            return tiles


def _agreement_hands(n: int, seed: int) -> list[tuple[Tile, ...]]:
    """Random hands from a full wall, concentrated hands (few kinds), and
    winning hands with one tile, or with one or two tiles, swapped (some still
    win: a swap may give back the same kind, or another split)."""
    rng = random.Random(seed)
    wall = list(full_wall())
    out: list[tuple[Tile, ...]] = []
    while len(out) < n:
        shape = len(out) % 4
        if shape == 0:
            tiles = [int(t) for t in rng.sample(wall, 14)]
        elif shape == 1:
            kinds = rng.sample(range(34), rng.choice([4, 5, 6, 9]))
            pool = [t for k in kinds for t in [k] * 4]
            tiles = rng.sample(pool, 14) if len(pool) >= 14 else _winning_hand(rng)
        else:
            tiles = _winning_hand(rng)
            for _ in range(shape - 2 + rng.choice([0, 1])):
                tiles[rng.randrange(14)] = rng.randrange(34)
            if max(Counter(tiles).values()) > 4:
                continue
        out.append(tuple(sorted(TILE_KINDS[t] for t in tiles)))
    return out


def _special_shape(counts: list[int]) -> bool:
    """Seven pairs or thirteen orphans: wins for ``is_agari`` (riichi's special
    hands), not patterns of Simple Mahjong."""
    if sorted(c for c in counts if c) == [2] * 7:
        return True
    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    return (
        sum(counts) == 14
        and all(counts[t] for t in orphans)
        and sum(counts[t] for t in orphans) == 14
    )


def test_is_mahjong_agrees_with_the_mahjong_packages_is_agari() -> None:
    is_agari = optional_module("mahjong.agari").Agari.is_agari
    wins = near = special = 0
    for i, hand in enumerate(_agreement_hands(40_000, seed=41)):
        counts = to_34_array(hand)
        ours = is_mahjong(hand)
        assert is_mahjong_counts(counts) == ours, format_tiles(hand)
        assert is_mahjong(list(hand)) == ours  # the parsing path, not the tuple's fast one
        if _special_shape(counts):
            special += 1
            assert ours == bool(reference_splits([int(t) for t in hand])), format_tiles(hand)
            continue
        assert ours == is_agari(counts), format_tiles(hand)
        wins += ours
        near += not ours and i % 4 >= 2  # a win with a tile or two swapped
    # The sample holds plenty of wins, and of hands a tile or two from one.
    assert wins > 5000 and near > 10_000, (wins, near, special)


def test_the_special_hands_of_is_agari_are_no_patterns_here() -> None:
    is_agari = optional_module("mahjong.agari").Agari.is_agari
    for text in ("1133m 5577p 99s EE RdRd", "19m 19p 19s ESWN WdGdRd 1m"):
        counts = to_34_array(text)
        assert _special_shape(counts) and is_agari(counts)
        assert not is_mahjong(text) and not is_mahjong_counts(counts)
    # Seven pairs that also split into sets and a pair win in both.
    assert is_mahjong("11223344556677m") and is_agari(to_34_array("11223344556677m"))


def test_is_mahjong_counts_answers_any_sequence_of_34_ints_alike() -> None:
    """A winning hand's counts win however they come (a numpy array's slices
    are not its ints as bytes), and a count above four never splits."""
    np = optional_module("numpy")
    win = to_34_array("123m 456m 789m 555p EE")
    near = to_34_array("123m 456m 789m 555p ES")
    makers: list[Any] = [list, tuple, np.array, lambda c: np.array(c, dtype=np.int8), range_like]
    for kind in makers:
        assert is_mahjong_counts(kind(win)) is True, kind
        assert is_mahjong_counts(kind(near)) is False, kind
    big = list(win)
    big[27] = 300  # East: beyond a byte, read as "more than four"
    assert is_mahjong_counts(big) is False
    big[27] = 5
    assert is_mahjong_counts(big) is False
    assert is_mahjong_counts([True] + [False] * 33) is False


def range_like(counts: list[int]) -> object:
    """The counts as a sequence that is neither a list nor a tuple."""
    return Counter(dict(enumerate(counts))).values()


@pytest.mark.parametrize(
    ("counts", "error", "words"),
    [
        ([0] * 33, InvalidArgumentError, "33 counts; give 34"),
        ([0] * 35, InvalidArgumentError, "35 counts; give 34"),
        ([], InvalidArgumentError, "0 counts; give 34"),
        ([0] * 33 + [-1], InvalidArgumentError, "a count of -1"),
        ([-2] + [0] * 33, InvalidArgumentError, "a count of -2"),
        ([0] * 33 + [1.0], TypeError, "counts must hold ints, not float"),
        ([0] * 33 + ["1"], TypeError, "counts must hold ints, not str"),
        ("0" * 34, TypeError, "not str"),
        (b"\x00" * 34, TypeError, "not bytes"),
        (None, TypeError, "not NoneType"),
        (34, TypeError, "not int"),
    ],
)
def test_is_mahjong_counts_refuses_what_is_not_34_counts(
    counts: Any, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words) as caught:
        is_mahjong_counts(counts)
    if isinstance(caught.value, SevenBridgeError):
        again = pickle.loads(pickle.dumps(caught.value))
        assert type(again) is type(caught.value) and str(again) == str(caught.value)

"""The winning-hand test: lookup tables read with packed count keys.

A hand's *key* packs how many of each kind of tile it holds into one integer,
four bits a kind (kind ``t`` at bits ``4t`` to ``4t + 3``; the bonus tiles,
which no hand holds, above the 34 playing kinds). The nine kinds of a suit are
then one 36-bit group of the key, the seven honours a 28-bit group, and a
precomputed table per group knows which counts split into sets and at most one
pair. A hand wins when its four groups split, with exactly one pair among
them. The key of a hand with one more tile is the key plus that tile's weight,
so the engine tests a discard against a hand with one addition and four
dictionary lookups. The same tables, keyed by a group's counts as bytes, answer
for a hand given as 34 counts (:func:`is_mahjong_counts`), and
:func:`tiles_win` counts a tuple of tiles for ``is_mahjong``. This module is
compiled by the compiled build, with the engine's rules of play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import countOf, index, itemgetter
from typing import Any, Final

from ..errors import InvalidArgumentError, Message

__all__ = [
    "BONUS_AT",
    "HONOURS_AT",
    "WEIGHT",
    "is_mahjong_counts",
    "key_of",
    "key_wins",
    "overflows",
    "tables",
    "tiles_win",
    "winning",
]

#: Kinds of playing tile, and of every tile (the eight bonus tiles come after).
_KINDS: Final = 34
_ALL: Final = 42
#: Each tile's weight in a key: 1 << 4t (a bonus tile's lies above bit 136).
WEIGHT: Final[tuple[int, ...]] = tuple(1 << (4 * t) for t in range(_ALL))
#: A suit's group of a key (nine 4-bit counts), and where the honours' begins.
_SUIT_MASK: Final = (1 << 36) - 1
HONOURS_AT: Final = 108
#: Where the bonus tiles' counts begin.
BONUS_AT: Final = 4 * _KINDS

# The two tables, built on first use (about 35 ms): keys that split into sets
# and at most one pair, each mapped to its number of pairs; a key that is not
# in a table counts as 9 pairs, so that no sum of four lookups with one in it
# comes to 1.
_SUIT: Final[dict[int, int]] = {}
_HONOUR: Final[dict[int, int]] = {}
# The same tables keyed by a group's counts as bytes, one byte a kind (built
# with them), for is_mahjong_counts: a count array's slice is its key there.
_SUIT_BYTES: Final[dict[bytes, int]] = {}
_HONOUR_BYTES: Final[dict[bytes, int]] = {}


def _build(sets: list[list[int]], places: int) -> dict[int, int]:
    found: dict[int, int] = {}
    counts = [0] * places

    def add(first: int, made: int) -> None:
        if any(c > 4 for c in counts):
            return
        key = sum(c << (4 * i) for i, c in enumerate(counts))
        found[key] = 0
        for p in range(places):
            if counts[p] <= 2:
                found[key + (2 << (4 * p))] = 1
        if made == 4:
            return
        for s in range(first, len(sets)):
            for p in sets[s]:
                counts[p] += 1
            add(s, made + 1)
            for p in sets[s]:
                counts[p] -= 1

    add(0, 0)
    return found


def tables() -> tuple[dict[int, int], dict[int, int]]:
    """The group keys that split into sets and at most one pair, for a suit and
    for the honours, each mapped to its number of pairs (0 or 1)."""
    if not _SUIT:
        suit_sets = [[i, i, i] for i in range(9)] + [[i, i + 1, i + 2] for i in range(7)]
        _HONOUR.update(_build([[i, i, i] for i in range(7)], 7))
        _HONOUR_BYTES.update({_as_bytes(k, 7): p for k, p in _HONOUR.items()})
        suit = _build(suit_sets, 9)
        _SUIT_BYTES.update({_as_bytes(k, 9): p for k, p in suit.items()})
        _SUIT.update(suit)  # filled last: it says the tables are ready
    return _SUIT, _HONOUR


def _as_bytes(key: int, places: int) -> bytes:
    """A group's key as its counts, one byte a kind."""
    return bytes([key >> (4 * i) & 15 for i in range(places)])


def key_of(tiles: Iterable[int]) -> int:
    """The key of some tiles (ints 0-41)."""
    items = tiles if type(tiles) is tuple else tuple(tiles)
    if len(items) < 2:  # itemgetter() of one index gives the item, not a tuple
        return WEIGHT[items[0]] if items else 0
    # The weights read by one itemgetter, in C: several times quicker,
    # interpreted, than map() calling the tuple's __getitem__ for each tile.
    weights: tuple[int, ...] = itemgetter(*items)(WEIGHT)
    return sum(weights)


def key_wins(key: int) -> bool:
    """Whether the tiles of ``key`` split into sets and exactly one pair (a
    key with a bonus tile or more than four of a kind never does)."""
    suit = _SUIT if _SUIT else tables()[0]
    # Group by group, honours first, stopping at the first that does not
    # split (most hands in play have a lone honour or a stray suit tile).
    pairs = _HONOUR.get(key >> HONOURS_AT, 9)
    if pairs > 1:
        return False
    pairs += suit.get(key & _SUIT_MASK, 9)
    if pairs > 1:
        return False
    pairs += suit.get(key >> 36 & _SUIT_MASK, 9)
    if pairs > 1:
        return False
    return pairs + suit.get(key >> 72 & _SUIT_MASK, 9) == 1


def is_mahjong_counts(counts: Sequence[int]) -> bool:
    """Whether a hand given as 34 counts splits into sets and exactly one pair:
    the unchecked form of :func:`~sevenbridge.mahjong.is_mahjong`, for search
    and for programs that keep hands as count arrays.

    The counts are those of :func:`~sevenbridge.mahjong.to_34_array` (how many
    of each kind, characters, dots, bamboos, then the honours), as the
    ``mahjong`` package's ``Agari.is_agari`` and RLCard take them. The counts
    are not checked against a set of tiles: give the 34 counts of 14 concealed
    tiles, less 3 for each set already melded (whose tiles are left out). A
    count above four never splits. A list or tuple of ints is answered at full
    speed; any other sequence of integers (a numpy array, say) is read into a
    list first, so ``array.tolist()`` is the quicker way to pass one.

    Args:
        counts: How many of each of the 34 kinds of playing tile the hand holds.

    Returns:
        Whether the tiles split into sets (chows and pungs) and one pair.

    Raises:
        TypeError: for something that is not a sequence of integers.
        InvalidArgumentError: for other than 34 counts, or a count below 0.

    >>> from sevenbridge.mahjong import is_mahjong_counts, to_34_array
    >>> is_mahjong_counts(to_34_array("123m 456m 789m 555p EE"))
    True
    >>> is_mahjong_counts(to_34_array("123m 456m 789m 555p ES"))
    False
    """
    if not _SUIT:
        tables()
    if (type(counts) is not list and type(counts) is not tuple) or len(counts) != _KINDS:
        counts = _counts_read(counts)
    # Each group's slice of the counts, as bytes, is its key in the bytes
    # tables (no packing into an int first); honours first, as in key_wins:
    # a random hand most often has a lone honour. bytes() refuses a count
    # below 0 or above 255, and an item that is not an int: such counts are
    # read (and refused, or capped) by _counts_read.
    try:
        pairs = _HONOUR_BYTES.get(bytes(counts[27:34]), 9)
        if pairs > 1:
            return False
        pairs += _SUIT_BYTES.get(bytes(counts[0:9]), 9)
        if pairs > 1:
            return False
        pairs += _SUIT_BYTES.get(bytes(counts[9:18]), 9)
        if pairs > 1:
            return False
        return pairs + _SUIT_BYTES.get(bytes(counts[18:27]), 9) == 1
    except (TypeError, ValueError):
        return is_mahjong_counts(_counts_read(counts))


def _counts_read(counts: Any) -> list[int]:
    """Counts given otherwise than as 34 small ints in a list or tuple, read
    into one (a count above four, which never splits, read as 5), or refused
    with an error that says what is wrong."""
    if isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
        raise TypeError(f"counts must be a sequence of 34 ints, not {type(counts).__name__}")
    values: list[int] = []
    for count in counts:
        try:
            value = index(count)
        except TypeError:
            raise TypeError(f"counts must hold ints, not {type(count).__name__}") from None
        if value < 0:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.counts_count_below",
                    "counts: a count of {value}; a hand holds 0 or more of each kind",
                    value=str(value),
                )
            )
        values.append(min(value, 5))
    if len(values) != _KINDS:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.counts_counts_give",
                "counts: {n} counts; give 34, one for each kind of playing tile",
                n=str(len(values)),
            )
        )
    return values


def winning(tiles: Iterable[int]) -> bool:
    """The unchecked test: do these concealed tiles (2 mod 3 of them) split into
    sets and one pair?"""
    return key_wins(key_of(tiles))


#: Adding 3 to every 4-bit count sets its high bit when the count is 5 to 7;
#: counts of 8 or more have it set already.
_ADD3: Final = int("3" * 34, 16)
_HIGH: Final = int("8" * 34, 16)


#: _HIGH and every bit of the bonus tiles' counts (fifteen tiles at most:
#: no count carries past them): one test for a fifth copy or a bonus tile.
_HIGH_OR_BONUS: Final = _HIGH | (((1 << 36) - 1) << BONUS_AT)


def overflows(key: int) -> bool:
    """Whether some count of a key may exceed four (false alarms are fine: the
    caller then counts exactly)."""
    return bool((key | (key + _ADD3)) & _HIGH)


def tiles_win(tiles: tuple[Any, ...], tile_type: type[int]) -> int:
    """For :func:`~sevenbridge.mahjong.is_mahjong`: 1 when a tuple of tiles
    (fewer than 16: a count has four bits) splits into sets and one pair, 0
    when it does not, and -1 when the tiles need the caller's checks (an item
    whose type is not ``tile_type``, the :class:`~sevenbridge.mahjong.Tile`
    class, which this module sits below; a bonus tile; more than four of a
    kind)."""
    if not _COMPILED:
        # Interpreted, builtins read the tiles: countOf compares each item's
        # type with tile_type by identity first, in C (quicker than a set of
        # the types, which hashes them).
        if countOf(map(type, tiles), tile_type) != len(tiles) or len(tiles) < 2:
            return -1
        # key_of(), inline: one itemgetter reads the weights in C.
        key: int = sum(itemgetter(*tiles)(WEIGHT))
        if (key | (key + _ADD3)) & _HIGH_OR_BONUS:  # overflows() or a bonus tile
            return -1
        if not _SUIT:
            tables()
        # key_wins's first lookup, inline: most random hands fail there.
        if _HONOUR.get(key >> HONOURS_AT, 9) > 1:
            return 0
        return 1 if key_wins(key) else 0
    # Each group's counts apart, as native ints (36 bits at most; a bonus
    # tile's count lands above the honours' 28 bits).
    m = p = s = z = 0
    for item in tiles:
        if type(item) is not tile_type:
            return -1
        t: int = item
        if t < 9:
            m += 1 << 4 * t
        elif t < 18:
            p += 1 << 4 * (t - 9)
        elif t < 27:
            s += 1 << 4 * (t - 18)
        else:
            z += 1 << 4 * (t - 27)
    if (
        z >> 28
        or (m | p | s | z | (m + _ADD3_9) | (p + _ADD3_9) | (s + _ADD3_9) | (z + _ADD3_9)) & _HIGH_9
    ):
        return -1
    if not _SUIT:
        tables()
    # key_wins's first lookup, on the native int: most random hands fail there.
    if _HONOUR.get(z, 9) > 1:
        return 0
    return 1 if key_wins(m + (p << 36) + (s << 72) + (z << HONOURS_AT)) else 0


#: overflows() for one group of nine counts at most.
_ADD3_9: Final = int("3" * 9, 16)
_HIGH_9: Final = int("8" * 9, 16)
# Whether this module runs compiled (mypyc). Compiled, tiles_win reads the
# tiles in a loop of a few nanoseconds a tile, on native ints; interpreted,
# key_of's builtins are quicker than that loop (random 14-tile hands, CPython
# 3.11: the loop 0.3 us compiled and 2 us interpreted, key_of with the check
# of the types 1.2 us interpreted).
_COMPILED: Final = not __file__.endswith(".py")

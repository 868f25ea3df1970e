"""Sets, pairs and winning hands.

A winning hand (a *mahjong*) is four sets and a pair: fourteen tiles, or more
when sets are kongs. :func:`is_mahjong` answers with table lookups: each suit's
counts become one integer, four bits a tile, and a precomputed table knows which
of those integers split into sets (and at most one pair).
:func:`is_mahjong_counts` asks the same of a hand given as 34 counts (the form
search and other mahjong software keep hands in), checking only the counts'
shape, not that they are tiles of one set.
:func:`decompositions` lists every split, and :func:`waits` the tiles that
would complete a hand.

>>> from sevenbridge.mahjong import is_mahjong, waits, parse_tiles
>>> is_mahjong("123m 456m 789m 555p EE")
True
>>> [str(t) for t in waits("1112345678999m")]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import attrs

from .._kit import hooks as _hooks
from .._kit.i18n import register_format
from ..errors import Message
from ._tables import BONUS_AT, WEIGHT, is_mahjong_counts, key_of, key_wins, overflows, tiles_win
from .errors import InvalidArgumentError, InvalidTileError
from .tiles import N_KINDS, TILE_KINDS, Tile, format_tiles, parse_tiles, tile_list

__all__ = [
    "Meld",
    "MeldKind",
    "decompositions",
    "is_mahjong",
    "is_mahjong_counts",
    "waits",
]


class MeldKind(str, enum.Enum):
    """The shapes of tile groups."""

    CHOW = "chow"
    """Three tiles in sequence in one suit, such as ``345p``."""
    PUNG = "pung"
    """Three identical tiles."""
    KONG = "kong"
    """Four identical tiles (only when the rules allow kongs)."""
    PAIR = "pair"
    """Two identical tiles, the eye of a winning hand."""


def _shape(tiles: tuple[Tile, ...]) -> MeldKind | None:
    n = len(tiles)
    first = tiles[0] if tiles else None
    if first is None or first >= N_KINDS:
        return None
    if all(t == first for t in tiles):
        return {2: MeldKind.PAIR, 3: MeldKind.PUNG, 4: MeldKind.KONG}.get(n)
    if n == 3 and first < 27 and first % 9 <= 6 and tiles[1] == first + 1 and tiles[2] == first + 2:
        return MeldKind.CHOW
    return None


def _kind(value: Any) -> MeldKind:
    try:
        return MeldKind(value)
    except ValueError:
        kinds = ", ".join(k.value for k in MeldKind)
        raise InvalidArgumentError(
            Message(
                "invalid_argument.kind_must_one_not",
                "kind must be one of {kinds}, not {value}",
                kinds=str(kinds),
                value=format(repr(value), ".40"),
            )
        ) from None


def _meld_tiles(value: Any) -> tuple[Tile, ...]:
    return tuple(sorted(tile_list(value, "tiles")))


def _owner(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"owner must be an int or None, not {type(value).__name__}")
    if not 0 <= value <= 3:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.owner_must_seat_from",
                "owner must be a seat from 0 to 3, not {value}",
                value=str(value),
            )
        )
    return int(value)


def _claimed(value: Any) -> Tile | None:
    return None if value is None else Tile.parse(value) if isinstance(value, str) else Tile(value)


@attrs.frozen(cache_hash=True)
class Meld:
    """A group of tiles: a set (chow, pung, kong) or a pair.

    Tiles are kept sorted. A meld on the table names its ``owner``, the
    discard it ``claimed`` (``None`` for a kong declared from the hand, which
    is ``concealed`` when all four came from the hand) and the seat it was
    ``claimed_from`` (the discarder; ``None`` when nothing was claimed, or
    unknown in a document older than the field).

    Raises:
        InvalidTileError: if the tiles do not form the group (or any group).

    >>> Meld.parse("345p")
    Meld(kind=<MeldKind.CHOW: 'chow'>, tiles=(Tile('3p'), Tile('4p'), Tile('5p')), owner=None, claimed=None, concealed=False, claimed_from=None)
    >>> str(Meld.parse("EEE"))
    'EEE'
    >>> Meld.parse("EFG")
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidTileError: 'EFG' is not a tile: cannot read 'FG'; tiles are 1m-9m, 1p-9p, 1s-9s, E S W N, Wd Gd Rd, 1f-8f
    """

    kind: MeldKind = attrs.field(converter=_kind)
    tiles: tuple[Tile, ...] = attrs.field(converter=_meld_tiles)
    owner: int | None = attrs.field(default=None, converter=_owner)
    claimed: Tile | None = attrs.field(default=None, converter=_claimed)
    concealed: bool = attrs.field(default=False, converter=bool)
    claimed_from: int | None = attrs.field(default=None, converter=_owner)

    def __attrs_post_init__(self) -> None:
        shape = _shape(self.tiles)
        text = format_tiles(self.tiles)
        if shape is None:
            raise InvalidTileError(
                text,
                Message(
                    "invalid_tile.these_tiles_form_no",
                    "these tiles form no chow, pung, kong or pair",
                ),
            )
        if shape is not self.kind:
            raise InvalidTileError(
                text,
                Message(
                    "invalid_tile.these_tiles_form_not",
                    "these tiles form a {found}, not a {kind}",
                    found=str(shape.value),
                    kind=str(self.kind.value),
                ),
            )
        if self.claimed is not None and self.claimed not in self.tiles:
            raise InvalidTileError(
                text,
                Message(
                    "invalid_tile.claimed_tile_not_in",
                    "the claimed tile {claimed} is not in the meld",
                    claimed=str(self.claimed),
                ),
            )

    @classmethod
    def parse(cls, text: str | Iterable[Tile | str]) -> Meld:
        """A meld from its tiles, its kind read from their shape.

        >>> Meld.parse("5m5m5m5m").kind
        <MeldKind.KONG: 'kong'>
        """
        tiles = tuple(sorted(parse_tiles(text)))
        shape = _shape(tiles)
        if shape is None:
            raise InvalidTileError(
                format_tiles(tiles),
                Message(
                    "invalid_tile.these_tiles_form_no",
                    "these tiles form no chow, pung, kong or pair",
                ),
            )
        return cls(shape, tiles)

    @property
    def is_set(self) -> bool:
        """Whether the group is a set (not a pair)."""
        return self.kind is not MeldKind.PAIR

    def __str__(self) -> str:
        return format_tiles(self.tiles)

    def _repr_svg_(self) -> str:
        """The meld drawn as SVG (:func:`sevenbridge.mahjong.svg.meld`), for notebooks."""
        return str(_hooks.call("mahjong_repr_svg", self))

    def _repr_html_(self) -> str:
        """The meld drawn inline in HTML, its title and description kept, for notebooks."""
        return str(_hooks.call("mahjong_repr_html", self))


def _meld_text(meld: Meld, lang: str) -> str:
    """A meld in a translated message, its honours in kanji in Japanese (``東東東``)."""
    return format_tiles(meld.tiles, lang=lang)


register_format(Meld, _meld_text)


def _melds(value: Any) -> tuple[Meld, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"melds must be an iterable of Meld values, not {type(value).__name__}")
    out = tuple(value)
    for m in out:
        if not isinstance(m, Meld):
            raise TypeError(f"melds must hold Meld values, not {type(m).__name__}")
        if not m.is_set:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.melds_pair_melds_on",
                    "melds: {m} is a pair; melds on the table are sets",
                    m=str(m),
                )
            )
    return out


def _check_copies(tiles: tuple[Tile, ...], melds: tuple[Meld, ...], name: str) -> list[int]:
    counts = [0] * N_KINDS
    for t in tiles:
        if t >= N_KINDS:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bonus_tile_flowers_and",
                    "{name}: {t} is a bonus tile; flowers and seasons are set aside, never held",
                    name=name,
                    t=str(t),
                )
            )
        counts[t] += 1
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    for kind, c in enumerate(counts):
        if c > 4:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.copies_set_has",
                    "{name}: {c} copies of {tile}; a set has 4",
                    name=name,
                    c=str(c),
                    tile=str(TILE_KINDS[kind]),
                )
            )
    return counts


def is_mahjong(tiles: str | Iterable[Tile | str], melds: Iterable[Meld] = ()) -> bool:
    """Whether the tiles, with the sets already melded, make a winning hand:
    four sets and a pair.

    Args:
        tiles: The concealed tiles: 14 less 3 for each meld.
        melds: Sets already on the table (kongs count as one set).

    Returns:
        ``False`` for any other number of tiles.

    Raises:
        InvalidArgumentError: for more than four copies of a tile, or a bonus tile.

    >>> is_mahjong("111222333m 44p 555s")
    True
    >>> is_mahjong("11m 44p", [Meld.parse("123s"), Meld.parse("EEE"), Meld.parse("RdRdRd")])
    False
    >>> is_mahjong("11m 444p", [Meld.parse("123s"), Meld.parse("EEE"), Meld.parse("RdRdRdRd")])
    True
    """
    if type(tiles) is tuple and len(tiles) == 14 and melds == ():
        # The commonest call, 14 tiles and no melds, answered by the tables'
        # module without parsing (-1: the tiles need the checks below).
        won = tiles_win(tiles, Tile)
        if won >= 0:
            return won == 1
    hand = tile_list(tiles, "tiles")
    sets = _melds(melds) if melds != () else ()
    key = key_of(hand)
    if key >> BONUS_AT or sets or overflows(key):
        _check_copies(hand, sets, "tiles")
    if len(hand) + 3 * len(sets) != 14:
        return False
    return key_wins(key)


def _split(
    counts: list[int], start: int, pair_done: bool, acc: list[Meld], out: set[tuple[Meld, ...]]
) -> None:
    i = start
    while i < N_KINDS and counts[i] == 0:
        i += 1
    if i == N_KINDS:
        if pair_done:
            out.add(tuple(sorted(acc, key=_meld_order)))
        return
    t = TILE_KINDS[i]
    if not pair_done and counts[i] >= 2:
        counts[i] -= 2
        acc.append(Meld(MeldKind.PAIR, (t, t)))
        _split(counts, i, True, acc, out)
        acc.pop()
        counts[i] += 2
    if counts[i] >= 3:
        counts[i] -= 3
        acc.append(Meld(MeldKind.PUNG, (t, t, t)))
        _split(counts, i, pair_done, acc, out)
        acc.pop()
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        acc.append(Meld(MeldKind.CHOW, TILE_KINDS[i : i + 3]))
        _split(counts, i, pair_done, acc, out)
        acc.pop()
        for j in (i, i + 1, i + 2):
            counts[j] += 1


def _meld_order(m: Meld) -> tuple[int, int, str]:
    return (0 if m.kind is MeldKind.PAIR else 1, m.tiles[0], m.kind.value)


def decompositions(
    tiles: str | Iterable[Tile | str], melds: Iterable[Meld] = ()
) -> tuple[tuple[Meld, ...], ...]:
    """Every way the tiles split into one pair and sets, each split followed by
    the melds already on the table; none when the hand is not a mahjong.

    Each split lists the pair first, then the concealed sets in tile order, then
    ``melds`` as given. Splits are sorted and never repeat.

    Raises:
        InvalidArgumentError: for more than four copies of a tile, or a bonus tile.

    >>> for split in decompositions("111222333999m EE"):
    ...     print(" ".join(str(m) for m in split))
    EE 123m 123m 123m 999m
    EE 111m 222m 333m 999m
    >>> decompositions("11m")
    ()
    """
    hand = tile_list(tiles, "tiles")
    sets = _melds(melds)
    counts = _check_copies(hand, sets, "tiles")
    if len(hand) + 3 * len(sets) != 14:
        return ()
    own = [0] * N_KINDS
    for t in hand:
        own[t] += 1
    found: set[tuple[Meld, ...]] = set()
    _split(own, 0, False, [], found)
    del counts
    return tuple(
        sorted(
            (split + sets for split in found),
            key=lambda s: [(_meld_order(m)[1], m.kind.value) for m in s],
        )
    )


def waits(tiles: str | Iterable[Tile | str], melds: Iterable[Meld] = ()) -> tuple[Tile, ...]:
    """The tiles that would complete the hand to a mahjong, in tile order.

    A tile whose four copies are all in the hand or its melds is not a wait
    (no fifth copy exists).

    Args:
        tiles: The concealed tiles: 13 less 3 for each meld.
        melds: Sets already on the table.

    Raises:
        InvalidArgumentError: for a hand of the wrong size, more than four copies
            of a tile, or a bonus tile.

    >>> [str(t) for t in waits("123m 456p 789s EEE 5s")]
    ['5s']
    >>> waits("1234m")
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidArgumentError: tiles: a hand waiting to win has 13 tiles less 3 for each meld, not 4 (with 0 melds)
    """
    hand = tile_list(tiles, "tiles")
    sets = _melds(melds)
    counts = _check_copies(hand, sets, "tiles")
    if len(hand) + 3 * len(sets) != 13:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.tiles_hand_waiting_win",
                "tiles: a hand waiting to win has 13 tiles less 3 for each meld, not {n_hand} (with {n_sets} melds)",
                n_hand=len(hand),
                n_sets=len(sets),
            )
        )
    return tuple(TILE_KINDS[t] for t in wait_kinds(hand, counts))


def wait_kinds(hand: Iterable[int], counts: list[int]) -> list[int]:
    """The kinds that complete ``hand`` (unchecked), leaving out those of which
    ``counts`` (the hand and its melds) already hold all four copies: a wait
    on a fifth copy is no wait. The one place that rule is written; :func:`waits`
    and :func:`~sevenbridge.mahjong.shanten` both use it."""
    key = key_of(hand)
    return [t for t in range(N_KINDS) if counts[t] < 4 and key_wins(key + WEIGHT[t])]

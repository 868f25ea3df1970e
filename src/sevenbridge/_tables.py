"""Precomputed meld tables over card bitmasks (the engine's fast path).

Bit ``i`` of a mask is the card of index ``i`` (suit * 13 + rank - 1; the joker
is bit 52). Everything here is checked against :func:`sevenbridge.melds.analyse`
by the test suite.
"""

from __future__ import annotations

from functools import cache
from typing import Final

JOKER_BIT: Final = 1 << 52
SUIT_BITS: Final = (1 << 13) - 1
RANK_MASK: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))

# Meld kinds as small ints (MeldKind order in the public API: SEVEN, SET, RUN).
SEVEN: Final = 0
SET: Final = 1
RUN: Final = 2


def bits(mask: int) -> list[int]:
    """The indexes of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _to_pattern(interval: int) -> int:
    """A 14-position interval (bit 13 is the high Ace) as a 13-bit suit pattern."""
    return (interval & SUIT_BITS) | (interval >> 13 & 1)


@cache
def runs_in(pattern: int, ace_high: bool) -> tuple[int, ...]:
    """Every natural run inside a 13-bit suit pattern, as suit patterns."""
    ext = pattern | ((pattern & 1) << 13) if ace_high else pattern
    top = 14 if ace_high else 13
    out = []
    for i in range(top):
        if not ext >> i & 1:
            continue
        j = i
        while j + 1 < top and ext >> (j + 1) & 1:
            j += 1
            length = j - i + 1
            if length == 14:
                break
            if length >= 3 or (length == 2 and (i == 6 or j == 6)):
                out.append(_to_pattern(((1 << (j + 1)) - 1) ^ ((1 << i) - 1)))
    return tuple(out)


@cache
def joker_runs_in(pattern: int, ace_high: bool) -> tuple[tuple[int, int], ...]:
    """Every run of three or more made of natural cards of a suit pattern plus the joker.

    The joker may stand for any one place of the run, even for a card the
    pattern holds. Returns ``(natural suit pattern, position 0-12 the joker
    stands for)`` pairs.
    """
    ext = pattern | ((pattern & 1) << 13) if ace_high else pattern
    top = 14 if ace_high else 13
    out = []
    for i in range(top):
        for j in range(i + 2, min(top, i + 13)):
            interval = ((1 << (j + 1)) - 1) ^ ((1 << i) - 1)
            missing = interval & ~ext
            if missing & (missing - 1):
                continue  # two or more places missing: one joker cannot fill them
            holes = [missing.bit_length() - 1] if missing else range(i, j + 1)
            for hole in holes:
                naturals = interval & ~(1 << hole)
                out.append((_to_pattern(naturals), hole % 13))
    return tuple(dict.fromkeys(out))


@cache
def sets_of_rank(rank: int, pattern: int) -> tuple[tuple[int, int], ...]:
    """Natural sets (or single sevens) in a 4-bit suit pattern of one rank.

    Returns ``(card mask, kind)`` pairs; rank is 0-12 (6 is the seven).
    """
    out = []
    for sub in range(1, 16):
        if sub & ~pattern:
            continue
        n = bin(sub).count("1")
        mask = sum(1 << (s * 13 + rank) for s in range(4) if sub >> s & 1)
        if rank == 6:
            out.append((mask, SEVEN if n == 1 else SET))
        elif n >= 3:
            out.append((mask, SET))
    return tuple(out)


@cache
def joker_sets_of_rank(rank: int, pattern: int) -> tuple[tuple[int, int], ...]:
    """Sets with the joker: two or more naturals of the rank plus the joker.

    Returns ``(card mask with the joker bit, card the joker stands for)`` pairs.
    """
    out: list[tuple[int, int]] = []
    for sub in range(1, 16):
        if sub & ~pattern or bin(sub).count("1") < 2:
            continue
        mask = sum(1 << (s * 13 + rank) for s in range(4) if sub >> s & 1) | JOKER_BIT
        missing = [s for s in range(4) if not sub >> s & 1] or list(range(4))
        out.extend((mask, s * 13 + rank) for s in missing)
    return tuple(out)


def rank_pattern(mask: int, rank: int) -> int:
    """The 4-bit suit pattern of one rank (0-12) in a card mask."""
    return (
        (mask >> rank & 1)
        | (mask >> (12 + rank) & 2)
        | (mask >> (24 + rank) & 4)
        | (mask >> (36 + rank) & 8)
    )


# melds_in's lookups, filled on first use: the melds of one suit pattern (runs)
# or one rank pattern (sets), already in the output's form. Lists indexed by
# [ace_high][joker][key] (a list index is the cheapest lookup there is).
_Found = tuple[tuple[int, int, int], ...]
_SUIT_MELDS: Final[list[list[list[_Found | None]]]] = [
    [[None] * (4 << 13) for _joker in (False, True)] for _high in (False, True)
]
_RANK_MELDS: Final[list[list[_Found | None]]] = [[None] * (13 << 4) for _joker in (False, True)]


def _suit_melds(key: int, ace_high: bool, joker: bool) -> tuple[tuple[int, int, int], ...]:
    """The runs of suit ``key >> 13`` with pattern ``key & SUIT_BITS``, in melds_in's form."""
    p, shift = key & SUIT_BITS, 13 * (key >> 13)
    out = [(sub << shift, RUN, -1) for sub in runs_in(p, ace_high)]
    if joker:
        out.extend(
            ((sub << shift) | JOKER_BIT, RUN, shift + pos)
            for sub, pos in joker_runs_in(p, ace_high)
        )
    found = _SUIT_MELDS[ace_high][joker][key] = tuple(out)
    return found


def _rank_melds(key: int, joker: bool) -> tuple[tuple[int, int, int], ...]:
    """The sets of rank ``key >> 4`` with suit pattern ``key & 15``, in melds_in's form."""
    r, rp = key >> 4, key & 15
    out = [(m, kind, -1) for m, kind in sets_of_rank(r, rp)]
    if joker:
        out.extend((m, SET, j) for m, j in joker_sets_of_rank(r, rp))
    found = _RANK_MELDS[joker][key] = tuple(out)
    return found


#: The four sevens (a seven alone is a meld).
SEVENS: Final = sum(1 << (suit * 13 + 6) for suit in range(4))


#: Where a run of three can start inside a suit (ace to jack), and the aces.
_RUN_STARTS: Final = sum(((1 << 11) - 1) << (suit * 13) for suit in range(4))
_ACES: Final = sum(1 << (suit * 13) for suit in range(4))


def may_hold_meld(hand: int, ace_high: bool) -> bool:
    """Whether a hand without the joker might hold a meld (False: it holds none).

    Every meld with a seven holds a seven; every other meld is three natural
    cards of a rank or a run of three or more of a suit (Q-K-A too when the ace
    is high): a test checks this against :func:`melds_in`.
    """
    if hand & (SEVENS | (hand >> 1 & hand >> 2 & _RUN_STARTS)):
        return True
    if ace_high and hand & hand >> 11 & hand >> 12 & _ACES:
        return True
    s0 = hand & SUIT_BITS
    s1 = hand >> 13 & SUIT_BITS
    s2 = hand >> 26 & SUIT_BITS
    s3 = hand >> 39 & SUIT_BITS
    return bool((s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3))


# count_melds' lookup: the number of natural runs in a suit pattern (-1: not
# worked out yet), by [ace_high][pattern].
_RUN_COUNTS: Final[list[list[int]]] = [[-1] * (1 << 13) for _high in (False, True)]


def count_melds(mask: int, ace_high: bool) -> int:
    """``len(melds_in(mask, ace_high, False))`` without building the melds.

    Runs are counted by suit pattern from a table; sets by arithmetic: a rank
    other than the seven held in three suits makes one set, in four suits five
    (four sets of three and one of four); ``m`` sevens make ``2 ** m - 1``
    melds (each seven alone, and every set of them). A test checks it against
    :func:`melds_in`.
    """
    counts = _RUN_COUNTS[ace_high]
    s0 = mask & SUIT_BITS
    s1 = mask >> 13 & SUIT_BITS
    s2 = mask >> 26 & SUIT_BITS
    s3 = mask >> 39 & SUIT_BITS
    total = 0
    for s in (s0, s1, s2, s3):
        if s:
            c = counts[s]
            if c < 0:
                c = counts[s] = len(runs_in(s, ace_high))
            total += c
    three = ((s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)) & ~64
    if three:
        total += three.bit_count() + 4 * (s0 & s1 & s2 & s3 & ~64).bit_count()
    sevens = mask & SEVENS
    if sevens:
        total += (1 << sevens.bit_count()) - 1
    return total


def melds_in(mask: int, ace_high: bool, joker: bool) -> list[tuple[int, int, int]]:
    """Every meld inside a card mask: ``(mask, kind, joker card or -1)``.

    ``joker`` says whether the joker bit may be used (the rules have one and it
    is in ``mask``). Runs come first, suit by suit, then sets by rank.
    """
    out: list[tuple[int, int, int]] = []
    runs = _SUIT_MELDS[ace_high][joker]
    s0 = mask & SUIT_BITS
    s1 = mask >> 13 & SUIT_BITS
    s2 = mask >> 26 & SUIT_BITS
    s3 = mask >> 39 & SUIT_BITS
    for key in (s0, s1 | 1 << 13, s2 | 2 << 13, s3 | 3 << 13):
        if key & SUIT_BITS:
            found = runs[key]
            out.extend(_suit_melds(key, ace_high, joker) if found is None else found)
    # A set needs two natural cards of its rank at least (three, or two and the
    # joker); a seven alone is a meld too. Other ranks have none.
    ranks = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3) | ((s0 | s1 | s2 | s3) & 64)
    sets = _RANK_MELDS[joker]
    while ranks:
        low = ranks & -ranks
        r = low.bit_length() - 1
        ranks ^= low
        key = r << 4 | (s0 >> r & 1) | (s1 >> r & 1) << 1 | (s2 >> r & 1) << 2 | (s3 >> r & 1) << 3
        found = sets[key]
        out.extend(_rank_melds(key, joker) if found is None else found)
    return out

"""The bytes of the mahjong observation tensor, and its fields.

:func:`sevenbridge.rl.observation_tensor` of a mahjong view, and the
environments' tensor of a state, are these bytes read by numpy as float32
(:mod:`sevenbridge.rl._mahjong`). The compiled build compiles this module
with the engine's kernel: it runs at every step of a learning loop. It
imports neither numpy nor the mahjong package: it reads the view's (or the
state's) fields by name.
"""

from __future__ import annotations

import struct
from typing import Any, Final

__all__ = ["CLAIM_KINDS", "KINDS", "PHASES", "fields", "tensor_bytes"]

#: Kinds of playing tile (the width of a plane of tiles).
KINDS: Final = 34
#: The phases, in the order of the phase field.
PHASES: Final = ("draw", "play", "claim", "over")
#: The kinds of claim, in the order of the own_claim_kind field.
CLAIM_KINDS: Final = ("Chow", "Pung", "Kong", "Mahjong")

_FIELDS: Final[dict[int, tuple[str, ...]]] = {}


def fields(n: int) -> tuple[str, ...]:
    """The fields of the tensor at a table of ``n`` seats, in order, as
    ``"name: width"`` (a number in brackets is a relative seat)."""
    found = _FIELDS.get(n)
    if found is None:
        out = ["hand: 34", "own_claim: 34", "own_claim_kind: 4", "last_discard: 34"]
        for name, width in (("discards", 34), ("melds", 34), ("concealed_kongs", 34),
                            ("bonus", 8), ("shown_hand", 34)):  # fmt: skip
            out += [f"{name}[{k}]: {width}" for k in range(n)]
        out.append("phase: 4")
        for name in ("turn", "to_act", "dealer", "asking", "winner", "ghost"):
            out.append(f"{name}: {n}")
        out += ["drew: 1", "self_drawn: 1", f"hand_sizes: {n}", "wall_size: 1"]
        found = _FIELDS[n] = tuple(out)
    return found


# How the tensor is built: as the bytes of its float32 entries (in the
# machine's byte order, as numpy reads them), put together from prebuilt
# pieces. Every value is the float32 nearest the entry, as
# ``np.float32(count / scale)`` is.
#
# - A plane of tiles is the bytes of its counts / 4, kept by the tuple of
#   tiles it counts (a hand, a row of discards).
# - A field with a plane per seat (the discards, the melds, the bonus tiles,
#   the hand sizes) is kept whole, in seat order and twice over, by the
#   identity of what it shows (the state's discards, melds, bonus piles: they
#   stay the same objects until a step changes them), so that the field in a
#   viewer's order, which starts at the viewer's seat, is one slice of it.
# - The flags by seat come from tables by the bitmask of the seats flagged.
_PACK: Final = struct.Struct("=f").pack
#: Entries kept in each cache below before it is emptied.
_CACHE_LIMIT: Final = 4096


def _f32(values: Any) -> bytes:
    """The bytes of ``values`` as float32 (each the float32 nearest the value)."""
    return b"".join([_PACK(x) for x in values])


class _Planes(dict[tuple[Any, ...], bytes]):
    """The plane (``width`` entries from tile ``first``, each the tile's count /
    ``scale``) of the tiles of a tuple (all of them of the plane's tiles), by
    the tuple, each made on first use."""

    def __init__(self, width: int, first: int, scale: int) -> None:
        super().__init__()
        self.width, self.first = width, first
        self.entries = [_PACK(c / scale) for c in range(16)]

    def __missing__(self, tiles: tuple[Any, ...]) -> bytes:
        counts = bytearray(self.width)
        first = self.first
        for t in tiles:  # tiles of the plane's kind: a pile holds no other
            counts[t - first] += 1
        if len(self) >= 16 * _CACHE_LIMIT:
            self.clear()
        found = self[tiles] = b"".join(map(self.entries.__getitem__, counts))
        return found


#: The planes of the playing tiles of a tuple, and of its bonus tiles.
_PLANES = _Planes(KINDS, 0, 4)
_BONUS = _Planes(8, KINDS, 1)
_NO_TILES = _PLANES[()]
#: By table size and bitmask of relative seats, the flags of those seats.
_FLAGS = [[_f32([m >> k & 1 for k in range(n)]) for m in range(1 << n)] for n in range(5)]
#: The phase's flags, by phase; whether the player in turn drew and whether
#: the winner drew, by ``2 * drew + self_drawn``; a hand's size / 14 by size.
_PHASE_FLAGS = [_f32([int(i == k) for k in range(len(PHASES))]) for i in range(len(PHASES))]
_DREW = [_f32([d >> 1, d & 1]) for d in range(4)]
_SIZES = [_f32([size / 14]) for size in range(40)]
#: The kind of the viewer's claim: none, or by kind.
_NO_KIND = _f32([0] * len(CLAIM_KINDS))
_KIND = {k: _f32([int(k == j) for j in CLAIM_KINDS]) for k in CLAIM_KINDS}
#: The wall's size / the full wall, by full wall and size.
_WALLS: dict[int, list[bytes]] = {}
#: The fields with a plane per seat, whole (seat order, twice over): by the
#: identity of the discards, of the bonus piles and of the melds (the object
#: kept, so that its id stays its own), and by the hand sizes.
_DISCARD_FIELDS: dict[int, tuple[object, bytes]] = {}
_BONUS_FIELDS: dict[int, tuple[object, bytes]] = {}
_MELD_FIELDS: dict[int, tuple[object, bytes, bytes]] = {}
_SIZE_FIELDS: dict[tuple[int, ...], bytes] = {}


def _twice(planes: list[bytes]) -> bytes:
    whole = b"".join(planes)
    return whole + whole


def _by_seat(
    cache: dict[int, tuple[object, bytes]], piles: tuple[Any, ...], rows: _Planes
) -> bytes:
    """The field of ``piles`` (a tuple of tiles per seat), whole, twice over."""
    found = cache.get(id(piles))
    if found is not None and found[0] is piles:
        return found[1]
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    whole = _twice([rows[pile] for pile in piles])
    cache[id(piles)] = (piles, whole)
    return whole


def _meld_fields(melds: tuple[Any, ...], n: int) -> tuple[bytes, bytes]:
    """The melds' tiles and the concealed kongs of every seat, whole, twice over."""
    found = _MELD_FIELDS.get(id(melds))
    if found is not None and found[0] is melds and len(found[1]) == 8 * n * KINDS:
        return found[1], found[2]
    tiles: list[list[Any]] = [[] for _ in range(n)]
    kongs = [[0.0] * KINDS for _ in range(n)]
    for m in melds:
        if m.owner is not None:
            tiles[m.owner] += m.tiles
            if m.concealed and m.kind == "kong":  # MeldKind.KONG, a str enum
                kongs[m.owner][m.tiles[0]] = 1.0
    if len(_MELD_FIELDS) >= _CACHE_LIMIT:
        _MELD_FIELDS.clear()
    fields = _twice([_PLANES[tuple(t)] for t in tiles]), _twice([_f32(k) for k in kongs])
    _MELD_FIELDS[id(melds)] = (melds, *fields)
    return fields


def tensor_bytes(
    v: Any, me: int, hand: tuple[Any, ...], own_claims: tuple[Any, ...],
    shown: tuple[tuple[Any, ...], ...] | None, hand_sizes: tuple[int, ...], wall_size: int,
) -> bytearray:  # fmt: skip
    """The bytes of the float32 tensor of seat ``me``'s view, from ``v`` (a
    view, or a state: the fields they share) and the view's own fields given
    beside it."""
    n: int = v.seats
    claim = _NO_TILES
    kind = _NO_KIND
    for c in own_claims:  # none, or the viewer's one claim
        name = type(c).__name__
        claim = _PLANES[c.tiles] if name == "Chow" else _NO_TILES
        kind = _KIND.get(name, _NO_KIND)
    last = v.last_discard
    # The fields with a plane per seat start at the viewer's plane.
    tile_plane = KINDS * 4
    start, stop = me * tile_plane, (me + n) * tile_plane
    melds = v.melds
    if melds:
        meld_tiles, kongs = _meld_fields(melds, n)
        meld_tiles, kongs = meld_tiles[start:stop], kongs[start:stop]
    else:
        meld_tiles = kongs = _NO_TILES * n
    sizes = _SIZE_FIELDS.get(hand_sizes)
    if sizes is None:
        if len(_SIZE_FIELDS) >= _CACHE_LIMIT:
            _SIZE_FIELDS.clear()
        sizes = _SIZE_FIELDS[hand_sizes] = _twice([_SIZES[size] for size in hand_sizes])
    asking = ghosts = 0
    for seat in v.asking:
        asking |= 1 << (seat - me) % n
    for seat in v.ghosts:
        ghosts |= 1 << (seat - me) % n
    phase = v.phase
    winner = v.winner
    flags = _FLAGS[n]
    rules = v.rules
    full = 136 + 4 * rules.flowers + 4 * rules.seasons  # rules.wall_size, without a call
    walls = _WALLS.get(full)
    if walls is None:
        walls = _WALLS[full] = [_f32([size / full]) for size in range(full + 1)]
    return bytearray().join((
            _PLANES[hand], claim, kind, _NO_TILES if last is None else _PLANES[(last,)],
            _by_seat(_DISCARD_FIELDS, v.discards, _PLANES)[start:stop],
            meld_tiles, kongs,
            _by_seat(_BONUS_FIELDS, v.bonus, _BONUS)[me * 32 : (me + n) * 32],
            _NO_TILES * n if shown is None else _twice([_PLANES[h] for h in shown])[start:stop],
            _PHASE_FLAGS[PHASES.index(phase)],  # a str enum: compared as text
            flags[1 << (v.turn - me) % n],
            flags[0 if phase == "over" else 1 << (v.current_player - me) % n],
            flags[1 << (v.dealer - me) % n],
            flags[asking],
            flags[0 if winner is None else 1 << (winner - me) % n],
            flags[ghosts],
            _DREW[2 * v.drew + v.self_drawn],
            sizes[me * 4 : (me + n) * 4],
            walls[wall_size],
    ))  # fmt: skip

"""The bytes of the learners' observation tensor of a mahjong view, and its fields.

:func:`sevenbridge.rl.observation_tensor` of a mahjong view, and the
environments' tensor of a state, are these bytes read by numpy as float32
(see ``sevenbridge.rl._mahjong``, which documents the tensor). The compiled
build compiles this module with the engine's rules of play: it runs at every step of
a learning loop. It needs no numpy, and imports nothing: it reads the view's
(or the state's) fields by name.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, Final

__all__ = [
    "CLAIM_KINDS", "KINDS", "PHASES", "clear", "fields", "mask_bytes", "state_tensor_bytes",
    "tensor_bytes",
]  # fmt: skip

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
#: The plane of one tile, by tile; the bytes of a plane.
_ONE_TILE = [_PLANES[(t,)] for t in range(KINDS)]
_PLANE_BYTES: Final = 4 * KINDS
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
_SIZE_FIELDS: dict[int, tuple[object, bytes]] = {}


def _planes_of(piles: tuple[Any, ...]) -> bytes:
    """The planes of the tiles of each of ``piles``, one after the other."""
    return b"".join([_PLANES[pile] for pile in piles])


def _bonus_of(piles: tuple[Any, ...]) -> bytes:
    """The bonus planes of each of ``piles``, one after the other."""
    return b"".join([_BONUS[pile] for pile in piles])


def _sizes_of(sizes: tuple[Any, ...]) -> bytes:
    """The hand sizes / 14 of a view's ``hand_sizes``, or of a state's hands."""
    return b"".join([_SIZES[s if type(s) is int else len(s)] for s in sizes])


def _by_seat(
    cache: dict[int, tuple[object, bytes]], piles: tuple[Any, ...],
    build: Callable[[tuple[Any, ...]], bytes],
) -> bytes:  # fmt: skip
    """The field of ``piles`` (something per seat), whole and twice over, made
    by ``build`` and kept by the identity of ``piles``."""
    found = cache.get(id(piles))
    if found is not None and found[0] is piles:
        return found[1]
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    whole = build(piles * 2)
    cache[id(piles)] = (piles, whole)  # the tuple kept: its id stays its own
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
    fields = _planes_of(tuple(map(tuple, tiles * 2))), _f32([x for k in kongs * 2 for x in k])
    _MELD_FIELDS[id(melds)] = (melds, *fields)
    return fields


def tensor_bytes(
    v: Any, me: int, hand: tuple[Any, ...], own_claims: tuple[Any, ...],
    shown: tuple[tuple[Any, ...], ...] | None, sizes: tuple[Any, ...], wall_size: int,
) -> bytearray:  # fmt: skip
    """The bytes of the float32 tensor of seat ``me``'s view, from ``v`` (a
    view, or a state: the fields they share) and the view's own fields given
    beside it: the viewer's hand and claims, the hands shown (or None), and
    the hand sizes (a view's) or the hands (a state's)."""
    n: int = v.seats
    claim = _NO_TILES
    kind = _NO_KIND
    for c in own_claims:  # none, or the viewer's one claim
        name = type(c).__name__
        claim = _PLANES[c.tiles] if name == "Chow" else _NO_TILES
        kind = _KIND.get(name, _NO_KIND)
    last = v.last_discard
    # The fields with a plane per seat start at the viewer's plane.
    start, stop = me * _PLANE_BYTES, (me + n) * _PLANE_BYTES
    melds = v.melds
    if melds:
        meld_tiles, kongs = _meld_fields(melds, n)
        meld_tiles, kongs = meld_tiles[start:stop], kongs[start:stop]
    else:
        meld_tiles = kongs = _NO_TILES * n
    # Seats as ints (read once: compiled, they are then native numbers).
    turn: int = v.turn
    current: int = v.current_player
    dealer: int = v.dealer
    winner: int | None = v.winner
    asking = ghosts = 0
    for seat in v.asking:
        asking |= 1 << (seat - me) % n
    for seat in v.ghosts:
        ghosts |= 1 << (seat - me) % n
    phase: str = v.phase
    flags = _FLAGS[n]
    rules = v.rules
    full: int = 136 + 4 * rules.flowers + 4 * rules.seasons  # rules.wall_size, without a call
    walls = _WALLS.get(full)
    if walls is None:
        walls = _WALLS[full] = [_f32([size / full]) for size in range(full + 1)]
    return bytearray().join((
        _PLANES[hand], claim, kind, _NO_TILES if last is None else _ONE_TILE[last],
        _by_seat(_DISCARD_FIELDS, v.discards, _planes_of)[start:stop],
        meld_tiles, kongs,
        _by_seat(_BONUS_FIELDS, v.bonus, _bonus_of)[me * 32 : (me + n) * 32],
        _NO_TILES * n if shown is None else _planes_of(shown * 2)[start:stop],
        _PHASE_FLAGS[PHASES.index(phase)],  # a str enum: compared as text
        flags[1 << (turn - me) % n],
        flags[0 if phase == "over" else 1 << (current - me) % n],
        flags[1 << (dealer - me) % n],
        flags[asking],
        flags[0 if winner is None else 1 << (winner - me) % n],
        flags[ghosts],
        _DREW[2 * v.drew + v.self_drawn],
        _by_seat(_SIZE_FIELDS, sizes, _sizes_of)[me * 4 : (me + n) * 4],
        walls[wall_size],
    ))  # fmt: skip


def state_tensor_bytes(state: Any, seat: int) -> bytearray:
    """:func:`tensor_bytes` of ``observe(state, seat)``, from the state itself."""
    claims: tuple[Any, ...] = state.claims
    own = tuple([c for c in claims if c.player == seat]) if claims else ()
    hands: tuple[Any, ...] = state.hands
    shown = hands if state.phase == "over" else None
    return tensor_bytes(state, seat, hands[seat], own, shown, hands, len(state.wall))


def mask_bytes(legal: tuple[Any, ...], ids: dict[int, int], size: int) -> bytearray | None:
    """A mask of ``size`` bytes, 1 at the ids of the ``legal`` actions, found
    by their identity in ``ids`` (None if one is not there)."""
    out = bytearray(size)
    for action in legal:
        found = ids.get(id(action))
        if found is None:
            return None
        out[found] = 1
    return out


def clear() -> None:
    """Empty the caches of pieces (:func:`sevenbridge.rl.clear_caches` calls this)."""
    for cache in (_PLANES, _BONUS, _DISCARD_FIELDS, _BONUS_FIELDS, _MELD_FIELDS, _SIZE_FIELDS):
        cache.clear()
    _WALLS.clear()

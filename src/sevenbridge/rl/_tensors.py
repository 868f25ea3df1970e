"""The tensors: a player's view, and with the public history its information
state, as float32 vectors of a fixed length per deck and table size.

The layout of each tensor (:class:`_Layout`, one per deck size, table size and
kind), :func:`observation_tensor`, :func:`information_state_tensor`, their
sizes and :func:`tensor_fields`. Re-exported by :mod:`sevenbridge.rl`.
"""

from __future__ import annotations

import functools
import hashlib
import weakref
from collections.abc import Callable
from struct import Struct, pack
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .. import _tables as T
from .._kit import checks as _checks
from ..actions import Chi, Discard, Pass, Pon
from ..errors import InvalidArgumentError, Message
from ..rules import Rules
from ..state import GameState, History, Phase
from ..views import Observation
from ._actions import MAX_LAY_OFF_TARGETS
from ._caches import HISTORIES, PARTS, SETUPS, Cache
from ._compact import lay_off_slot

if TYPE_CHECKING:
    from ..mahjong.rules import Rules as MahjongRules
    from ..mahjong.views import Observation as MahjongObservation

__all__ = [
    "COMPACT_TENSOR_VERSION",
    "TENSOR_VERSION",
    "information_state_tensor",
    "information_state_tensor_size",
    "observation_tensor",
    "observation_tensor_size",
    "tensor_digest",
    "tensor_fields",
]

#: The version of the full tensors' layout (:func:`observation_tensor`,
#: :func:`information_state_tensor`). It changes only when a field moves,
#: changes width or changes meaning; the test suite pins :func:`tensor_digest`.
TENSOR_VERSION = 1
#: The version of the compact layout (``compact=True``), likewise.
COMPACT_TENSOR_VERSION = 1

_SUITS = "CDHS"

_PHASES = (Phase.CLAIM, Phase.DRAW, Phase.PLAY, Phase.OVER)
_OVER = Phase.OVER


class _Layout:
    """Where each field of the tensors sits, for one deck size and table size.

    The binary fields are gathered into one big integer, ``deck`` bits per card
    plane, then the flags, and unpacked at once; the counts are written after.
    """

    def __init__(self, deck: int, n: int, info: bool, compact: bool = False) -> None:
        planes = [("hand", 1)]
        planes += [("melds", n), ("known", n), ("discards", 1), ("top", 1)]
        planes += [("jokers", 1), ("reshuffled", 1)]
        if compact:
            planes += [("layoff_high", 1), ("layoff_low", 1), ("layoff_same_rank", 1)]
        else:
            planes += [("targets", MAX_LAY_OFF_TARGETS)]
        if info:
            planes += [("discarded_by", n), ("passed_by", n)]
        self.deck = deck
        self.info = info
        self.compact = compact
        self.shift: dict[str, int] = {}
        names: list[str] = []
        plane = 0
        for name, count in planes:
            self.shift[name] = plane * deck
            names.extend(
                f"{name}[{k}]: {deck}" if count > 1 else f"{name}: {deck}" for k in range(count)
            )
            plane += count
        self.flags = plane * deck
        self.flag_names = (
            [f"phase.{p.value}" for p in _PHASES]
            + [f"turn[{k}]" for k in range(n)]
            + [f"discarder[{k}]" for k in range(n)]
            + ["discarder.upcard"]
            + [f"meld_owner[{k}]" for k in range(n)]
            + [f"played[{k}]" for k in range(n)]
            + [f"normal_turn[{k}]" for k in range(n)]
            + [f"pending_pon[{k}]" for k in range(n)]
            + ["turn_clean", "turn_by_claim"]
        )
        # The compact layout's seven melds: flag (y, x) says that the seven of
        # suit x is in the meld whose lowest natural seven is of suit y.
        self.at_sevens = self.flags + len(self.flag_names)
        if compact:
            self.flag_names += [
                f"seven_meld[{_SUITS[y]}].{_SUITS[x]}" for y in range(4) for x in range(4)
            ]
        self.binary = self.flags + len(self.flag_names)
        self.bytes = (self.binary + 7) // 8
        self.counts = [f"hand_size[{k}]" for k in range(n)]
        self.counts += ["stock_size", "discard_size", "table_size", "reshuffles"]
        self.size = self.binary + len(self.counts)
        self.fields = (
            names + [f"{f}: 1" for f in self.flag_names] + [f"{c}: 1" for c in self.counts]
        )
        # Offsets worked out once: by viewer, then by absolute seat or target.
        sh = self.shift
        seats = range(n)

        def by_seat(plane: str) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(sh[plane] + (o - me) % n * deck for o in seats) for me in seats)

        self.at_melds = by_seat("melds")
        self.at_reshuffled = sh["reshuffled"]
        self.at_known = by_seat("known")
        # The history planes' offsets by viewer: discarded_by then passed_by,
        # by absolute seat (the order of a history summary's values).
        self.at_history: tuple[tuple[int, ...], ...] = (
            tuple(d + p for d, p in zip(by_seat("discarded_by"), by_seat("passed_by"), strict=True))
            if info
            else ()
        )
        # The flags' bits by viewer, counted from the first flag: they make a
        # small integer, shifted into the big one once (big-integer operations
        # cost by the length of the integer).
        f0 = 0
        self.phase_bits = {phase: 1 << (f0 + i) for i, phase in enumerate(_PHASES)}
        b = f0 + 4 + 2 * n + 1  # the seat sets: meld owners, played, normal turns

        def rotated(field: int, me: int, at: int) -> int:
            return sum(1 << (at + (o - me) % n) for o in seats if field >> o & 1)

        self.by_viewer: tuple[tuple[Any, ...], ...] = tuple(
            (
                Cache(PARTS),  # this viewer's cache of table planes
                self.at_known[me],
                tuple(1 << (f0 + 4 + (o - me) % n) for o in seats),
                tuple(1 << (f0 + 4 + n + ((o - me) % n if o >= 0 else n)) for o in range(-1, n)),
                tuple(rotated(field, me, b) for field in range(1 << n)),
                tuple(rotated(field, me, b + n) for field in range(1 << n)),
                tuple(rotated(field, me, b + 2 * n) for field in range(1 << n)),
                tuple(1 << (b + 3 * n + (o - me) % n) for o in seats),
            )
            for me in seats
        )
        self.clean_bit = 1 << (b + 4 * n)
        self.claim_bit = 1 << (b + 4 * n + 1)
        # The big integer's bytes (the counts' places are zero bits) become 8
        # entries each through _BYTE_ROWS; the counts are then packed in place.
        self.rows = (self.size + 7) // 8
        self.exact = self.rows * 8 == self.size
        # the hand sizes' packed bytes, then 4 counts
        # (typed Any: an ndarray is a writable buffer, which its stubs do not say)
        self.pack_counts: Any = Struct(f"={4 * n}s4f").pack_into
        self.count_offset = self.binary * 4
        self.n = n
        self.at_targets = sh.get("targets", 0)
        self.at_slots: tuple[int, int, int] = (
            (sh["layoff_high"], sh["layoff_low"], sh["layoff_same_rank"]) if compact else (0, 0, 0)
        )
        self.at_jokers = sh["jokers"]
        self.at_discards = sh["discards"]
        self.at_top = sh["top"]
        # The caches (see sevenbridge.rl._caches). By the identity of the
        # (immutable) object an entry is worked out from: ``tables``, the
        # table's planes that do not depend on the viewer and the cards each
        # seat owns; the first item of ``by_viewer``, the table's planes as
        # that viewer sees them; ``piles``, the discard pile's planes;
        # ``histories``, the summary of each history node. By value:
        # ``hand_sizes``, the packed hand sizes by the hand sizes; and of one
        # entry, ``pile_cards``, the last discard pile and its cards, and
        # ``hands``, a state's last hands and their packed sizes.
        self.tables: Cache[int, tuple[tuple[int, tuple[int, ...]], object]] = Cache(PARTS)
        self.piles: Cache[int, tuple[int, object]] = Cache(PARTS)
        self.histories: Cache[int, tuple[tuple[int, ...], object]] = Cache(HISTORIES)
        # The summaries of finished deals, by the identity of the state or view
        # they were asked for and with a weak reference to it: they hold
        # nothing of the deal.
        self.finished: Cache[int, tuple[tuple[int, ...], weakref.ref[Any]]] = Cache(PARTS)
        self.pile_cards: Cache[tuple[int, ...], int] = Cache(1, empty=((), 0))
        self.hands: Cache[tuple[int, ...], tuple[bytes, ...]] = Cache(1, empty=((), ()))
        self.hand_sizes: Cache[tuple[int, ...], tuple[bytes, ...]] = Cache(PARTS)
        # What _fill reads, by viewer: one tuple to unpack instead of a dozen
        # attribute look-ups (the caches in it, their dictionaries, are emptied
        # in place, never replaced).
        shared = (
            self.phase_bits, self.clean_bit, self.claim_bit, self.flags, self.at_reshuffled,
            self.piles.data,
        )  # fmt: skip
        self.fill_args: tuple[tuple[Any, ...], ...] = tuple(
            (viewer[0].data, *viewer[1:], *shared) for viewer in self.by_viewer
        )


#: The layouts by deck size, table size, kind and compactness.
_LAYOUTS: Cache[tuple[int, int, bool, bool], _Layout] = Cache(SETUPS)
_LAYOUTS_GET = _LAYOUTS.data.get  # for the tensors' calls: no call of _layout when known


def _layout(deck: int, n: int, info: bool, compact: bool = False) -> _Layout:
    """The layout of a tensor (built once per deck size, table size, kind and
    compactness)."""
    key = (deck, n, info, compact)
    layout = _LAYOUTS.data.get(key)
    if layout is None:
        layout = _LAYOUTS.put(key, _Layout(deck, n, info, compact))
    return layout


def observation_tensor_size(
    rules: Rules | MahjongRules, players: int, *, compact: bool = False
) -> int:
    """The length of :func:`observation_tensor` for these rules and table size
    (the card game's :class:`~sevenbridge.Rules` or the mahjong
    :class:`~sevenbridge.mahjong.Rules`), in the full or the ``compact`` layout.

    >>> from sevenbridge import Rules, mahjong
    >>> observation_tensor_size(Rules.standard(), 3), observation_tensor_size(mahjong.Rules(), 4)
    (1592, 717)
    >>> observation_tensor_size(Rules.standard(), 3, compact=True)
    776
    """
    if type(rules) is not Rules:
        from ._mahjong import is_mahjong, mahjong_observation_tensor_size

        if is_mahjong(rules):
            _one_mahjong_layout(compact)
            return mahjong_observation_tensor_size(rules, players)
    return _card_layout(rules, players, False, compact).size


def information_state_tensor_size(rules: Rules, players: int, *, compact: bool = False) -> int:
    """The length of :func:`information_state_tensor` for these rules and table size.

    >>> from sevenbridge import Rules
    >>> information_state_tensor_size(Rules.standard(), 3)
    1904
    """
    return _card_layout(rules, players, True, compact).size


def tensor_fields(
    rules: Rules | MahjongRules, players: int, *, info: bool = False, compact: bool = False
) -> tuple[str, ...]:
    """The fields of :func:`observation_tensor` (or, with ``info``, of
    :func:`information_state_tensor`) in order, in the full or the ``compact``
    layout, as ``"name: width"``; a number in brackets is a relative seat
    (``0`` the viewer) or a lay-off target, a letter a suit.
    The mahjong :class:`~sevenbridge.mahjong.Rules` give the fields of the
    mahjong observation tensor (there is no mahjong information-state tensor).

    >>> from sevenbridge import Rules
    >>> fields = tensor_fields(Rules.standard(), 3)
    >>> fields[:3], fields[-2:]
    (('hand: 52', 'melds[0]: 52', 'melds[1]: 52'), ('table_size: 1', 'reshuffles: 1'))
    >>> [f for f in tensor_fields(Rules.standard(), 3, compact=True) if "layoff" in f]
    ['layoff_high: 52', 'layoff_low: 52', 'layoff_same_rank: 52']
    """
    if type(rules) is not Rules and not info:
        from ._mahjong import is_mahjong, mahjong_tensor_fields

        if is_mahjong(rules):
            _one_mahjong_layout(compact)
            return mahjong_tensor_fields(rules, players)  # type: ignore[arg-type]
    return tuple(_card_layout(rules, players, info, compact).fields)


def tensor_digest(
    rules: Rules | MahjongRules, players: int, *, info: bool = False, compact: bool = False
) -> str:
    """A SHA-256 digest of :func:`tensor_fields` (every field's name and width,
    in order): the test suite pins it for each preset, so a layout changes only
    with a new :data:`TENSOR_VERSION` (or :data:`COMPACT_TENSOR_VERSION`).

    >>> from sevenbridge import Rules
    >>> tensor_digest(Rules.standard(), 3)[:12]
    '750b3ab7cb03'
    """
    fields = tensor_fields(rules, players, info=info, compact=compact)
    return hashlib.sha256("\n".join(fields).encode()).hexdigest()


def _card_layout(rules: Any, players: Any, info: bool, compact: bool) -> _Layout:
    card: Rules = _checks.instance(rules, Rules, "rules", "a Rules value")
    return _layout(card.deck_size, _checks.players(players), info, bool(compact))


def _one_mahjong_layout(compact: bool) -> None:
    if compact:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.mahjong_one_layout",
                "the mahjong tensor has one layout, already compact: ask for compact=False",
            )
        )


#: Each byte value's 8 bits, least significant first, as a float32 row.
_BYTE_ROWS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)
_UINT8 = np.dtype(np.uint8)


def _table_bits(table: tuple[Any, ...], me: int, layout: _Layout) -> int:
    """The table's planes (melds by owner, lay-off targets, joker readings) as
    viewer ``me`` sees them, as bits of the big integer, kept in ``me``'s cache
    under ``id(table)``. The planes that every viewer sees alike are worked
    out once per table, in ``layout.tables``."""
    entry = layout.tables.data.get(id(table))
    if entry is not None:
        shared = entry[0]
    else:
        owned = [0] * layout.n
        at, d = layout.at_targets, layout.deck
        bits = 0
        jokers = 0
        for t, tm in enumerate(table):
            owned[tm.owner] |= tm.mask
            if layout.compact:
                bits |= _compact_bits(tm, layout)
            else:
                bits |= tm.ext << (at + t * d)
            if tm.joker >= 0:
                jokers |= 1 << tm.joker
        shared = (bits | jokers << layout.at_jokers, tuple(owned))
        tables = layout.tables.data
        if len(tables) >= layout.tables.limit:  # Cache.keep written out (a call costs more)
            tables.clear()
        tables[id(table)] = (shared, table)
    bits = shared[0]
    for at, mask in zip(layout.at_melds[me], shared[1]):  # noqa: B905 (both n long)
        bits |= mask << at
    viewer: Cache[int, tuple[int, object]] = layout.by_viewer[me][0]
    data = viewer.data
    if len(data) >= viewer.limit:  # Cache.keep written out (a call costs more)
        data.clear()
    data[id(table)] = (bits, table)
    return bits


def _compact_bits(tm: Any, layout: _Layout) -> int:
    """A table meld's part of the compact layout's lay-off planes and seven
    flags, as bits of the big integer. Each natural card the meld takes goes
    in the plane of its slot (:func:`sevenbridge.rl.lay_off_slot`): a run's
    high or low end, or the same rank (a set, or a seven onto a seven meld);
    a lone seven's 6 and 8 are in no plane (the seven flags show the lone
    sevens)."""
    high, low, same = layout.at_slots
    bits = 0
    ext = tm.ext
    while ext:
        c = (ext & -ext).bit_length() - 1
        ext &= ext - 1
        slot = lay_off_slot(tm, c)
        if slot == 0:
            bits |= 1 << (high + c)
        elif slot == 1:
            bits |= 1 << (low + c)
        elif slot != 3:
            bits |= 1 << (same + c)
    sevens = tm.mask & T.SEVENS
    if sevens and tm.kind != T.RUN:
        y = ((sevens & -sevens).bit_length() - 1) // 13
        for x in range(4):
            if sevens >> (x * 13 + 6) & 1:
                bits |= 1 << (layout.at_sevens + y * 4 + x)
    return bits


def _pile_bits(pile: tuple[int, ...], layout: _Layout) -> int:
    """The discard pile's planes (every card in it, its top card), as bits of
    the big integer, kept under ``id(pile)``. A new pile is most often the
    last one seen (``layout.pile_cards``) with a card more (a discard) or less
    (a claim): then its cards come from the last pile's in one step, not a walk."""
    known = layout.pile_cards
    last: tuple[int, ...]
    cards: int
    last, cards = known.last
    k = len(pile)
    if k == len(last) + 1 and pile[:-1] == last:
        cards |= 1 << pile[-1]
    elif k == len(last) - 1 and last[:-1] == pile:
        cards ^= 1 << last[-1]
    elif pile != last:
        cards = 0
        for c in pile:
            cards |= 1 << c
    known.last = (pile, cards)  # one tuple, replaced whole (threads)
    bits = cards << layout.at_discards
    if pile:
        bits |= 1 << (layout.at_top + pile[-1])
    data = layout.piles.data
    if len(data) >= layout.piles.limit:  # Cache.keep written out
        data.clear()
    data[id(pile)] = (bits, pile)
    return bits


def _hand_sizes(sizes: tuple[int, ...], layout: _Layout) -> tuple[bytes, ...]:
    """The hand sizes / 10 by relative seat, packed as float32, for each viewer
    (stored in ``layout.hand_sizes``)."""
    n = len(sizes)
    fmt = f"={n}f"
    packed = tuple(pack(fmt, *[sizes[(me + k) % n] / 10 for k in range(n)]) for me in range(n))
    data = layout.hand_sizes.data
    if len(data) >= layout.hand_sizes.limit:  # Cache.put written out (a call costs more)
        data.clear()
    data[sizes] = packed
    return packed


def _big(
    src: Any, me: int, hand: int, shown: tuple[int, ...] | None, layout: _Layout, extra: int
) -> int:
    """The binary entries of player ``me``'s tensor, as one big integer, from
    the public fields of ``src`` (a state or a view) and what ``me`` knows
    (``hand``, the ``shown`` hands once the deal is over, the ``extra`` bits of
    the history planes).

    Every binary entry is a bit of the integer, put together from bits worked
    out in advance (the layout's tables by viewer, the cached planes of the
    table and the discard pile)."""
    (tables, known_at, turn_bits, discarder_bits, owner_bits, played_bits, normal_bits,
     pending_bits, phase_bits, clean_bit, claim_bit, at_flags, at_reshuffled,
     piles) = layout.fill_args[me]  # fmt: skip
    table = src.table
    entry = tables.get(id(table))
    table_bits = _table_bits(table, me, layout) if entry is None else entry[0]
    pile = src.discard_cards
    entry = piles.get(id(pile))
    pile_bits = _pile_bits(pile, layout) if entry is None else entry[0]
    flags = (
        phase_bits[src.phase]
        | discarder_bits[src.discarder + 1]
        | owner_bits[src.meld_owners]
        | played_bits[src.played]
        | normal_bits[src.normal_turns]
    )
    current = src.current_player
    if current is not None:
        flags |= turn_bits[current]
    pending = src.pending_pon
    if pending is not None:
        flags |= pending_bits[pending[0]]
    if src.turn_clean:
        flags |= clean_bit
    if src.turn_by_claim:
        flags |= claim_bit
    big: int = table_bits | pile_bits | ((flags << at_flags) | extra | hand)
    reshuffled = src.reshuffled
    if reshuffled:
        big |= reshuffled << at_reshuffled
    if shown is not None:
        for p, mask in enumerate(shown):
            big |= mask << known_at[p]
    elif pending is not None:
        big |= pending[1] << known_at[pending[0]]
    return big


def _pack_counts(
    out: Any, offset: int, src: Any, me: int, sizes: tuple[bytes, ...], stock: int, layout: _Layout
) -> None:
    """Write the counts of player ``me``'s tensor (the packed hand ``sizes`` of
    :func:`_hand_sizes`, the ``stock`` size, the pile's and the table's sizes,
    the reshuffles) into ``out`` at byte ``offset`` (the tensor's first byte)."""
    reshuffles = src.reshuffles
    layout.pack_counts(
        out,
        offset + layout.count_offset,
        sizes[me],
        stock / 52,
        len(src.discard_cards) / 52,
        len(src.table) / MAX_LAY_OFF_TARGETS,
        reshuffles and reshuffles / max(1, src.rules.reshuffle_limit),
    )


def _fill(
    src: Any,
    me: int,
    hand: int,
    sizes: tuple[bytes, ...],
    stock: int,
    shown: tuple[int, ...] | None,
    layout: _Layout,
    extra: int,
) -> npt.NDArray[np.float32]:
    """The tensor of player ``me`` (see :func:`_big` and :func:`_pack_counts`).

    The big integer's bytes become rows of ``_BYTE_ROWS`` by one
    ``numpy.take``, and the counts are packed in place. Numpy's cost per call
    is most of what a tensor costs, so there are as few calls as can be.

    The tensor is rebuilt, not updated: keeping each viewer's last tensor and
    rewriting only the entries whose bits changed since (5 bits at the median
    between two tensors of a viewer in random 3-player play) measured slower
    in the pure build, 6.3 against 5.8 microseconds a tensor, whether the
    changed entries are found bit by bit or byte by byte: the Python loop
    over them, and the copy handed out, cost more than the one ``take``.
    """
    big = _big(src, me, hand, shown, layout, extra)
    out = _BYTE_ROWS.take(np.frombuffer(big.to_bytes(layout.rows, "little"), _UINT8), 0).ravel()
    if not layout.exact:
        out = out[: layout.size]
    _pack_counts(out, 0, src, me, sizes, stock, layout)
    return out


def _of_view(view: Any, info: bool, compact: bool = False) -> npt.NDArray[np.float32]:
    if type(view) is not Observation:
        raise TypeError(
            f"view must be an Observation (observe(state, player)), not {_checks.type_name(view)}"
        )
    key = (view.rules.deck_size, view.players, info, compact is True)
    layout = _LAYOUTS_GET(key) or _layout(*key)
    extra = _history_planes(view, view.viewer, layout) if info else 0
    sizes = view.hand_sizes
    packed = layout.hand_sizes.data.get(sizes)
    if packed is None:
        packed = _hand_sizes(sizes, layout)
    return _fill(
        view, view.viewer, view.hand_mask, packed, view.stock_size, view.shown_hands, layout, extra
    )


def _of_state(
    state: GameState, player: int, info: bool, compact: bool = False
) -> npt.NDArray[np.float32]:
    """The tensor of ``observe(state, player)``, without building the Observation
    (what the environments use)."""
    key = (state.rules.deck_size, state.players, info, compact)
    return _state_tensor(state, player, _LAYOUTS_GET(key) or _layout(*key))


def _state_tensor(state: GameState, player: int, layout: _Layout) -> npt.NDArray[np.float32]:
    """:func:`_of_state` with the layout already looked up: what the
    environments call at every step.

    :func:`_fill`, :func:`_state_sizes` (its usual case) and
    :func:`_pack_counts` written out: three calls fewer at every step of an
    environment, where the tensor is most of a step's cost."""
    extra = _history_planes(state, player, layout) if layout.info else 0
    hands = state.hand_masks
    big = _big(state, player, hands[player], hands if state.phase is _OVER else None, layout, extra)
    out = _BYTE_ROWS.take(np.frombuffer(big.to_bytes(layout.rows, "little"), _UINT8), 0).ravel()
    if not layout.exact:
        out = out[: layout.size]
    last = layout.hands.last  # the hands change at about every other step
    packed: tuple[bytes, ...] = last[1] if hands == last[0] else _state_sizes(hands, layout)
    reshuffles = state.reshuffles
    layout.pack_counts(
        out,
        layout.count_offset,
        packed[player],
        len(state.stock_cards) / 52,
        len(state.discard_cards) / 52,
        len(state.table) / MAX_LAY_OFF_TARGETS,
        reshuffles and reshuffles / max(1, state.rules.reshuffle_limit),
    )
    return out


def _state_sizes(hands: tuple[int, ...], layout: _Layout) -> tuple[bytes, ...]:
    """The packed hand sizes of :func:`_hand_sizes` for a state's ``hands``."""
    last = layout.hands.last  # the hands change at about every other step
    if hands == last[0]:
        known: tuple[bytes, ...] = last[1]
        return known
    # A list, not map(int.bit_count, ...): compiled, the generic map call costs
    # twice the typed loop (the same in the pure build).
    sizes = tuple([h.bit_count() for h in hands])
    packed = layout.hand_sizes.data.get(sizes) or _hand_sizes(sizes, layout)
    layout.hands.last = (hands, packed)  # one tuple, replaced whole (threads)
    return packed


class RowWriter:
    """Writes the tensors of a batch of states into the rows of one array.

    ``width`` is the length of a row of the array :meth:`write` fills (the
    tensor's size, rounded up to whole bytes of the card game's bit planes);
    the tensor is the row's first ``size`` entries. Another game's tensors
    (no ``layout``) come from its ``single(state, seat)`` function, as
    float32 bytes. For the card game, the
    batch's big integers (:func:`_big`) are joined into one byte string that
    a single ``numpy.take`` turns into every row at once, so numpy's cost per
    call is paid once per batch instead of once per deal.
    """

    def __init__(
        self,
        layout: _Layout | None,
        size: int,
        single: Callable[[Any, int], bytes | bytearray] | None = None,
    ) -> None:
        self._layout = layout
        self.size = size
        self.width = size if layout is None else layout.rows * 8
        self._single = single

    def write(self, states: list[Any], seat: int, out: npt.NDArray[np.float32]) -> None:
        """Fill the first ``len(states)`` rows of ``out`` (shape ``(B, width)``,
        C-contiguous float32) with seat ``seat``'s tensors of ``states``."""
        layout = self._layout
        k = len(states)
        single = self._single
        if single is not None:  # another game's tensor: its bytes a row, copied in at once
            data = b"".join([single(state, seat) for state in states])
            out[:k] = np.frombuffer(data, np.float32).reshape(k, self.width)
            return
        assert layout is not None  # the card game's writer
        rows = layout.rows
        info = layout.info
        chunks = []
        for state in states:
            hands = state.hand_masks
            extra = _history_planes(state, seat, layout) if info else 0
            shown = hands if state.phase is _OVER else None
            big = _big(state, seat, hands[seat], shown, layout, extra)
            chunks.append(big.to_bytes(rows, "little"))
        codes = np.frombuffer(b"".join(chunks), _UINT8)
        _BYTE_ROWS.take(codes, 0, out=out[:k].reshape(k * rows, 8))
        stride = self.width * 4
        for i, state in enumerate(states):
            hands = state.hand_masks
            sizes = _state_sizes(hands, layout)
            _pack_counts(out, i * stride, state, seat, sizes, len(state.stock_cards), layout)


def row_writer(rules: Any, players: int, compact: bool = False) -> RowWriter:
    """The :class:`RowWriter` of the observation tensor of these rules' game
    and table size (the card game's, in the full or the compact layout, or
    another game's own)."""
    if not card_encodings(rules):
        from ._mahjong import _tensor, is_mahjong, mahjong_observation_tensor_size

        if is_mahjong(rules):
            size = mahjong_observation_tensor_size(rules, players)
            return RowWriter(None, size, _tensor().state_tensor_bytes)
    layout = _layout(rules.deck_size, players, False, compact)
    return RowWriter(layout, layout.size)


def observation_tensor(
    view: Observation | MahjongObservation, *, compact: bool = False
) -> npt.NDArray[np.float32]:
    """A player's view as a float32 vector of fixed length per deck and table size.

    Seats are relative: seat ``k`` is the player ``k`` places to the viewer's
    left (``0`` is the viewer). Card planes have one entry per card of the deck
    (index ``suit * 13 + rank - 1``, the joker last). In order: own hand; the
    table's cards by owner (``players`` planes); cards known to be in each hand
    (a pon waiting in the claim window; every hand once the deal is over); the
    discard pile; its top card; the cards the table's jokers stand for; the
    cards the last reshuffle put in the stock; for each lay-off target ``t`` (0
    to 18) the natural cards meld ``t`` takes; then flags: the phase (claim,
    draw, play, over), whose decision it is, who threw the top discard (or the
    upcard), who owns a meld, who has put a card on the table, who has had a
    normal turn, who has a pon waiting, and the turn's clean and by-claim
    flags; then the counts: each hand's size / 10, the stock's and the discard
    pile's sizes / 52, the number of table melds / 19, and the reshuffles so far / the rules'
    ``reshuffle_limit`` (so every entry is between 0 and 1).
    The docs' "Learning and search" page lists every field.

    With ``compact``, the lay-off target planes (most of the tensor, and mostly
    zeros) give way to the compact layout's: three planes of the natural cards
    the table takes at a run's high end, at a run's low end, and of the same
    rank (onto a set, or a seven onto a seven meld), as the slots of
    :class:`CompactActionSpace` name them, and sixteen flags that say which
    sevens lie together (``seven_meld[Y].X``: the seven of suit ``X`` is in the
    meld whose lowest natural seven is of suit ``Y``; a lone seven is alone
    in its group).

    A mahjong :class:`~sevenbridge.mahjong.Observation` gives the mahjong
    tensor instead (:func:`tensor_fields` of the mahjong rules lists its fields).

    Raises:
        TypeError: if ``view`` is neither game's observation.
        InvalidArgumentError: for ``compact`` with a mahjong view (its tensor
            has one layout).

    >>> from sevenbridge import deal, mahjong, observe
    >>> x = observation_tensor(observe(deal(seed=1), 0))
    >>> x.dtype.name, x.shape, int(x[:52].sum())
    ('float32', (1592,), 7)
    >>> observation_tensor(mahjong.observe(mahjong.deal(seed=1), 0)).shape
    (717,)
    >>> observation_tensor(observe(deal(seed=1), 0), compact=True).shape
    (776,)
    """
    if type(view) is not Observation:
        from ._mahjong import is_mahjong_view, mahjong_observation_tensor

        if is_mahjong_view(view):
            _one_mahjong_layout(compact)
            return mahjong_observation_tensor(view)  # type: ignore[arg-type]
    return _of_view(view, False, compact)


def information_state_tensor(
    view: Observation, *, compact: bool = False
) -> npt.NDArray[np.float32]:
    """:func:`observation_tensor` with what the public history adds.

    Two more groups of card planes, by relative seat, come after the
    observation's card planes (before its flags and counts): every card each
    player has discarded this deal (claimed or reshuffled since, or not), and
    every discard each player declined to pon when asked (a hint at what they
    lack; passes on the upcard are not counted). The order of play beyond these
    is left out: the engine's rules make the position depend on no more of it.
    :func:`tensor_fields` with ``info=True`` lists the fields in order;
    ``compact`` gives the compact layout (see :func:`observation_tensor`).

    Raises:
        TypeError: if ``view`` is not an :class:`~sevenbridge.Observation`.

    >>> from sevenbridge import deal, observe
    >>> x = information_state_tensor(observe(deal(seed=1), 0))
    >>> x.shape
    (1904,)
    """
    return _of_view(view, True, compact)


def _history_planes(src: Any, me: int, layout: _Layout) -> int:
    """The information state's history planes of viewer ``me``, as bits of the
    big integer, from the summary of ``src``'s public history (``src`` is a
    state or a view).

    Once the deal is over, the summary is worked out without going into the
    cache, and the summaries of the deal's history leave it: nothing of a
    finished deal stays in the module's caches."""
    log = src.move_log
    if log is None:
        return 0
    if src.phase is _OVER:
        # The summary, for every viewer of this state, under the state's
        # identity, and the deal's history out of the cache.
        done = layout.finished.data.get(id(src))
        if done is None or done[1]() is not src:
            summary = _history_summary(log, layout, keep=False)
            layout.finished.put(id(src), (summary, weakref.ref(src)))
            _forget_history(log, layout.histories)
        else:
            summary = done[0]
    else:
        entry = layout.histories.data.get(id(log))
        summary = _history_summary(log, layout, keep=True) if entry is None else entry[0]
    extra = 0
    for value, at in zip(summary, layout.at_history[me]):  # noqa: B905 (top, last, left out)
        extra |= value << at
    return extra


def _history_summary(log: History, layout: _Layout, keep: bool) -> tuple[int, ...]:
    """The public history ``log`` summed up, as ``(discarded..., passed...,
    top)``: by absolute seat the cards each player has discarded, then the
    discards each player declined to pon, then the discard a pass would
    decline (or -1).

    It is worked out from the nearest node before ``log`` whose summary
    ``layout.histories`` holds (most often the position asked for just
    before: the cost does not grow with the length of the deal); with
    ``keep``, the summary goes into that cache, under ``log``'s identity (the
    nodes passed on the way are not asked for, and stay out)."""
    memo = layout.histories
    data = memo.data
    get = data.get
    pending: list[History] = []
    node: History | None = log
    while node is not None:
        entry = get(id(node))
        if entry is not None:
            if not pending:
                return entry[0]
            values = list(entry[0])
            break
        pending.append(node)
        node = node.prev
    else:
        values = [0] * (2 * layout.n) + [-1]
    n = layout.n
    at_top = 2 * n
    for node in reversed(pending):
        action = node.action
        kind = type(action)
        if kind is Discard:
            top = values[at_top] = action.card.index
            values[action.player] |= 1 << top
        elif kind is Pass:
            top = values[at_top]
            if top >= 0:
                values[n + action.player] |= 1 << top
        elif kind is Chi or kind is Pon:
            values[at_top] = -1
    summary = tuple(values)
    if keep:
        if len(data) >= memo.limit:  # Cache.keep written out (a call costs more)
            data.clear()
        data[id(log)] = (summary, log)
    return summary


def _forget_history(log: History, memo: Cache[int, tuple[tuple[int, ...], object]]) -> None:
    """Take the summaries of ``log`` and of every node before it out of ``memo``
    (an entry under the id of a live node is that node's, so each goes by its
    id alone)."""
    pop = memo.data.pop
    node: History | None = log
    while node is not None:
        pop(id(node), None)
        node = node.prev


def card_encodings(rules: object) -> bool:
    """Whether these rules' game has the compact encoding and the
    information-state tensor (the card game's rules)."""
    return type(rules) is Rules


def state_tensor_of(
    rules: Any, players: int, info: bool = False, compact: bool = False
) -> Callable[[Any, int], npt.NDArray[np.float32]]:
    """The function ``(state, seat) -> float32 tensor`` of the seat's view of a
    state, for these rules' game and table size: the card game's observation
    tensor (its information-state tensor with ``info``, the compact layout with
    ``compact``), or another game's own, without building the view."""
    if not card_encodings(rules):
        from ._mahjong import is_mahjong, mahjong_state_tensor

        if is_mahjong(rules):
            return mahjong_state_tensor
    layout = _layout(rules.deck_size, players, info, compact)
    return functools.partial(_state_tensor, layout=layout)

"""Fixed action ids, legal-action masks and observation tensors for learning and search.

This module needs numpy (``pip install "sevenbridge[rl]"``); the rest of the
library does not. It gives every action the rules allow a fixed integer id
(:class:`ActionSpace`), a boolean mask of the legal ids, and float32 tensors of
a player's view (:func:`observation_tensor`, :func:`information_state_tensor`)
built from the engine's card bitmasks. ``returns`` (:func:`sevenbridge.returns`,
re-exported here) turns a finished deal into one zero-sum number per player.

>>> from sevenbridge import Rules, deal, legal_actions
>>> from sevenbridge.rl import ActionSpace, observation_tensor
>>> space = ActionSpace(Rules.standard(), players=3)
>>> state = deal(seed=1)
>>> ids = [space.encode(a) for a in legal_actions(state)]
>>> ids, space.decode(ids[0], state)
([0], Draw(1))
>>> space.mask(state).nonzero()[0].tolist() == ids
True
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from struct import Struct, pack
from typing import Any

import numpy as np
import numpy.typing as npt

from ._kit import checks as _checks
from .actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import CARDS, JOKER_INDEX
from .engine import legal_actions
from .errors import InvalidArgumentError, Message
from .rules import Rules
from .scoring import returns
from .state import GameState, History, Phase
from .views import Observation

__all__ = [
    "ACTION_SPACE_VERSION",
    "MAX_LAY_OFF_TARGETS",
    "ActionSpace",
    "information_state_tensor",
    "information_state_tensor_size",
    "observation_tensor",
    "observation_tensor_size",
    "returns",
    "tensor_fields",
]

#: The version of the action numbering. It changes only when the id of some
#: action changes; the test suite pins a digest of every preset's id table.
ACTION_SPACE_VERSION = 1

#: How many table melds a lay-off can target (ids exist for targets 0 to 18).
#:
#: Proof that no legal lay-off names a meld index of 19 or more. Each card is
#: in at most one meld, and a deal goes on only while every player holds a
#: card, so while anyone can lay off at least two cards are off the table
#: (two players, one card each at least). A meld of one or two cards always
#: holds a natural seven (a lone 7, 7-7, 6-7 or 7-8; a joker never makes a
#: meld of fewer than three cards), so at most four melds hold a seven, and
#: every other meld holds three or more of the 49 other cards (48 naturals and
#: the joker). With ``h`` sevens and ``o`` other cards off the table
#: (``h + o >= 2``) there are at most ``(4 - h) + (49 - o) // 3`` melds, which
#: is largest, 19, at ``h = 0, o = 2`` or ``h = 1, o = 1``.
MAX_LAY_OFF_TARGETS = 19

_JOKER_BIT = 1 << JOKER_INDEX
_ID_CACHE_LIMIT = 200_000  # action objects an ActionSpace remembers by identity
_BOOL = np.dtype(np.bool_)
_INT8 = np.dtype(np.int8)
_CACHE_LIMIT = 4096  # entries of a cache by identity (emptied when full)
_RUN, _SET, _SEVEN = "run", "set", "seven"


# ----------------------------------------------------------------------------------
# the meld catalogue
# ----------------------------------------------------------------------------------
def _card_at(suit: int, position: int) -> int:
    """The card index of run position 1-14 (14 is the high Ace) of a suit."""
    return suit * 13 + (position - 1) % 13


def _catalogue(ace_high: bool, jokers: bool) -> list[tuple[int, int, str]]:
    """Every meld the rules allow, as ``(card mask, joker card or -1, kind)``, in
    the fixed order of the numbering: natural runs (suit, length, start), natural
    sets and sevens (rank, suits), then with a joker the runs (suit, length,
    start, joker place) and the sets (rank, suits, joker reading)."""
    out: dict[tuple[int, int], str] = {}
    top = 14 if ace_high else 13
    for suit in range(4):
        for length in range(2, 14):
            for start in range(1, top - length + 2):
                places = range(start, start + length)
                if length == 2 and 7 not in places:
                    continue
                mask = sum(1 << _card_at(suit, p) for p in places)
                out.setdefault((mask, -1), _RUN)
    for rank in range(13):
        for suits in range(1, 16):
            n = suits.bit_count()
            if n >= 3 or (rank == 6 and n >= 1):
                mask = sum(1 << (s * 13 + rank) for s in range(4) if suits >> s & 1)
                out.setdefault((mask, -1), _SEVEN if n == 1 else _SET)
    if jokers:
        for suit in range(4):
            for length in range(3, 14):
                for start in range(1, top - length + 2):
                    places = range(start, start + length)
                    for hole in places:
                        mask = _JOKER_BIT | sum(1 << _card_at(suit, p) for p in places if p != hole)
                        out.setdefault((mask, _card_at(suit, hole)), _RUN)
        for rank in range(13):
            for suits in range(1, 16):
                if suits.bit_count() < 2:
                    continue
                mask = _JOKER_BIT | sum(1 << (s * 13 + rank) for s in range(4) if suits >> s & 1)
                readings = [s for s in range(4) if not suits >> s & 1] or list(range(4))
                for s in readings:
                    out.setdefault((mask, s * 13 + rank), _SET)
    return [(mask, joker, kind) for (mask, joker), kind in out.items()]


def _claims(
    melds: list[tuple[int, int, str]], kinds: tuple[str, ...], least: int
) -> list[tuple[int, int]]:
    """The ``(hand cards mask, joker card or -1)`` of every claim making one of
    ``melds`` of the given kinds with at least ``least`` cards from the hand."""
    out: dict[tuple[int, int], None] = {}
    for mask, joker, kind in melds:
        if kind not in kinds:
            continue
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            used = mask ^ low
            if used.bit_count() >= least:
                out.setdefault((used, joker), None)
    return list(out)


def _names(mask: int, joker: int) -> str:
    names = []
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        c = low.bit_length() - 1
        names.append(f"JK={CARDS[joker]}" if c == JOKER_INDEX else str(CARDS[c]))
    if joker >= 0 and not mask & _JOKER_BIT:
        names.append(f"(JK={CARDS[joker]})")
    return ".".join(names)


class _Table:
    """The id table of one set of rules (shared by every ActionSpace of them)."""

    def __init__(self, rules: Rules) -> None:
        jokers = bool(rules.jokers)
        melds = _catalogue(rules.ace_high, jokers)
        need = rules.claim_min_hand_cards
        chis = _claims(melds, (_RUN,), need)
        pons = _claims(melds, (_SET,), need)
        deck = rules.deck_size
        labels = ["draw", "pass"]
        labels += [f"discard {CARDS[c]}" for c in range(deck)]
        self.discard_base = 2
        self.lay_base = len(labels)
        labels += [f"laydown {_names(m, j)}" for m, j, _ in melds]
        self.chi_base = len(labels)
        labels += [f"chi {_names(m, j)}" for m, j in chis]
        self.pon_base = len(labels)
        labels += [f"pon {_names(m, j)}" for m, j in pons]
        self.off_base = len(labels)
        labels += [f"layoff {CARDS[c]}>{t}" for t in range(MAX_LAY_OFF_TARGETS) for c in range(52)]
        self.joker_off_base = len(labels)
        if jokers and rules.joker_lay_off:
            labels += [
                f"layoff JK={CARDS[c]}>{t}" for t in range(MAX_LAY_OFF_TARGETS) for c in range(52)
            ]
        self.labels = tuple(labels)
        self.size = len(labels)
        self.joker_lay_off = jokers and rules.joker_lay_off
        self.melds = [(m, j) for m, j, _ in melds]
        self.chis = chis
        self.pons = pons
        self.lay_ids = {key: self.lay_base + i for i, key in enumerate(self.melds)}
        self.chi_ids = {key: self.chi_base + i for i, key in enumerate(chis)}
        self.pon_ids = {key: self.pon_base + i for i, key in enumerate(pons)}
        self.digest = hashlib.sha256("\n".join(labels).encode()).hexdigest()


@lru_cache(maxsize=64)
def _table(rules: Rules) -> _Table:
    return _Table(rules)


def _mask_of(cards: tuple[Any, ...]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    return mask


# ----------------------------------------------------------------------------------
# the action space
# ----------------------------------------------------------------------------------
class ActionSpace:
    """A fixed numbering of every action the rules allow, with legal-action masks.

    The ids, in blocks (the docs' "Learning and search" page lists them):
    ``0`` Draw; ``1`` Pass; then one Discard per card of the deck (by card
    index); one LayDown per meld of the catalogue; one Chi and one Pon per way
    to claim (by the cards taken from the hand and the joker's reading: with
    the claimed top discard they make the meld); one LayOff per natural card
    and target meld ``0`` to ``MAX_LAY_OFF_TARGETS - 1``; and, when the rules
    have a joker that may be laid off, one per target and card the joker
    stands for. An id means the same action for every player: the player is
    the one to act in the position given to :meth:`decode`.

    The numbering depends only on the rules' deck (joker or not), ``ace_high``,
    ``claim_min_hand_cards`` and ``joker_lay_off``, not on the table size; it
    is versioned by :data:`ACTION_SPACE_VERSION` and :attr:`digest` pins it.

    Args:
        rules: The rules of the deals.
        players: The table size (2 to 5).

    Attributes:
        rules: The rules the numbering is for (a :class:`sevenbridge.Rules`).
        players: The table size.

    Raises:
        TypeError: if ``rules`` is not a :class:`~sevenbridge.Rules`.
        InvalidArgumentError: if ``players`` is out of range.

    >>> from sevenbridge import Discard, Rules
    >>> space = ActionSpace(Rules.standard())
    >>> space.size, space.version
    (2971, 1)
    >>> space.encode(Discard(2, "7H")), space.label(space.encode(Discard(2, "7H")))
    (34, 'discard 7H')
    """

    __slots__ = ("_by_id", "_decoded", "_encoded", "_kept", "_lone", "_t", "players", "rules")

    def __init__(self, rules: Rules | None = None, players: int = 3) -> None:
        if rules is None:
            rules = Rules()
        _checks.instance(rules, Rules, "rules", "a Rules value")
        self.rules: Rules = rules  # documented in the class's Attributes
        self.players: int = _checks.players(players)
        self._t = _table(rules)
        self._encoded: dict[Any, int] = {}
        self._decoded: dict[tuple[int, int], Action] = {}
        # The ids of the action objects the engine hands out (it interns them),
        # by object identity: ``_kept`` holds every such object, so no other
        # live object can have the same ``id()`` while its entry exists.
        self._by_id: dict[int, int] = {}
        self._kept: list[Action] = []
        # The masks of lone legal actions, by the identity of the engine's tuple.
        self._lone: dict[
            int, tuple[tuple[Action, ...], npt.NDArray[np.bool_], npt.NDArray[np.int8]]
        ] = {}

    @property
    def size(self) -> int:
        """How many ids there are (the length of a mask)."""
        return self._t.size

    @property
    def version(self) -> int:
        """The numbering's version, :data:`ACTION_SPACE_VERSION`."""
        return ACTION_SPACE_VERSION

    @property
    def digest(self) -> str:
        """A SHA-256 digest of the id table (every :meth:`label` in order)."""
        return self._t.digest

    def label(self, action_id: int) -> str:
        """The id's action as short text, without the player (``"discard 7H"``,
        ``"chi 5H.6H"``, ``"layoff 8H>2"``).

        Raises:
            InvalidArgumentError: for an id out of range.
        """
        return self._t.labels[self._check_id(action_id)]

    @property
    def labels(self) -> tuple[str, ...]:
        """Every id's :meth:`label`, in id order."""
        return self._t.labels

    def _check_id(self, action_id: int) -> int:
        if type(action_id) is not int:
            if isinstance(action_id, (int, np.integer)) and not isinstance(action_id, bool):
                action_id = int(action_id)
            else:
                raise TypeError(f"action id must be an int, not {_checks.type_name(action_id)}")
        if not 0 <= action_id < self._t.size:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.action_id_out_range",
                    "action id {action_id} is out of range (0 to {value})",
                    action_id=str(action_id),
                    value=str(self._t.size - 1),
                )
            )
        return action_id

    def encode(self, action: Action) -> int:
        """The id of ``action`` (the same for every player).

        Raises:
            TypeError: if ``action`` is not an action.
            InvalidArgumentError: if no id stands for it (a meld the rules do
                not allow, or a lay-off target out of range).

        >>> from sevenbridge import Chi, Rules
        >>> space = ActionSpace(Rules.standard())
        >>> space.label(space.encode(Chi(1, "5H 6H")))
        'chi 5H.6H'
        """
        try:
            return self._encoded[action]
        except KeyError:
            pass
        except TypeError:
            raise TypeError(f"action must be an Action, not {_checks.type_name(action)}") from None
        action_id = self._compute_id(action)
        if len(self._encoded) < 200_000:
            self._encoded[action] = action_id
        return action_id

    def _compute_id(self, action: Any) -> int:
        t = self._t
        kind = type(action)
        found: int | None = None
        if kind is Draw:
            found = 0
        elif kind is Pass:
            found = 1
        elif kind is Discard:
            if action.card.index < self.rules.deck_size:
                found = t.discard_base + action.card.index
        elif kind is LayOff:
            c = action.card.index
            target = action.target
            if target < MAX_LAY_OFF_TARGETS:
                if c == JOKER_INDEX:
                    if t.joker_lay_off and action.joker_as is not None:
                        found = t.joker_off_base + target * 52 + action.joker_as.index
                elif action.joker_as is None:
                    found = t.off_base + target * 52 + c
        elif kind in (LayDown, Chi, Pon):
            joker = -1 if action.joker_as is None else action.joker_as.index
            key = (_mask_of(action.cards), joker)
            ids = t.lay_ids if kind is LayDown else t.chi_ids if kind is Chi else t.pon_ids
            found = ids.get(key)
        else:
            raise TypeError(f"action must be an Action, not {_checks.type_name(action)}")
        if found is None:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.no_action_id_stands",
                    "no action id stands for {action} under these rules (a meld the rules do not allow, or a lay-off target of {limit} or more)",
                    action=repr(action),
                    limit=str(MAX_LAY_OFF_TARGETS),
                )
            )
        return found

    def decode(self, action_id: int, position: GameState | Observation) -> Action:
        """The action of ``action_id`` for the player to act in ``position``.

        The action is not checked for legality (:func:`~sevenbridge.apply` does
        that); :meth:`mask` says which ids are legal.

        Raises:
            TypeError: if ``position`` is not a GameState or an Observation.
            InvalidArgumentError: for an id out of range, or a finished deal.

        >>> from sevenbridge import Rules, deal
        >>> space = ActionSpace(Rules.standard())
        >>> space.decode(34, deal(seed=1))
        Discard(1, '7H')
        """
        player = _player_of(position)
        try:
            return self._decoded[(action_id, player)]
        except (KeyError, TypeError):
            pass
        action_id = self._check_id(action_id)
        action = self._build(action_id, player)
        self._decoded[(action_id, player)] = action
        self._encoded.setdefault(action, action_id)
        return action

    def _build(self, i: int, p: int) -> Action:
        t = self._t
        if i == 0:
            return Draw(p)
        if i == 1:
            return Pass(p)
        if i < t.lay_base:
            return Discard(p, CARDS[i - t.discard_base])
        if i < t.off_base:
            cls: type[LayDown] | type[Chi] | type[Pon]
            if i < t.chi_base:
                (mask, joker), cls = t.melds[i - t.lay_base], LayDown
            elif i < t.pon_base:
                (mask, joker), cls = t.chis[i - t.chi_base], Chi
            else:
                (mask, joker), cls = t.pons[i - t.pon_base], Pon
            cards = tuple(CARDS[c] for c in range(53) if mask >> c & 1)
            return cls(p, cards, None if joker < 0 else CARDS[joker])
        if i < t.joker_off_base:
            target, c = divmod(i - t.off_base, 52)
            return LayOff(p, CARDS[c], target)
        target, c = divmod(i - t.joker_off_base, 52)
        return LayOff(p, CARDS[JOKER_INDEX], target, CARDS[c])

    def legal_ids(self, position: GameState | Observation) -> list[int]:
        """The ids of the legal actions, in :func:`~sevenbridge.legal_actions`'
        order (an observation has them only when the decision is its viewer's).

        >>> from sevenbridge import deal
        >>> ActionSpace().legal_ids(deal(seed=1))
        [0]
        """
        kind = type(position)
        if kind is not GameState and kind is not Observation:
            _player_of(position)  # raises the TypeError
        return self._ids(legal_actions(position))

    def _ids(self, legal: tuple[Action, ...]) -> list[int]:
        """The ids of the engine's ``legal`` actions."""
        get = self._by_id.get
        ids: list[Any] = [get(id(a)) for a in legal]
        if None in ids:
            return [self._learn(a) for a in legal]
        return ids

    def _learn(self, action: Action) -> int:
        """The id of an action the engine handed out, remembered by the object's
        identity (the engine interns its actions, so the same objects come back)."""
        by_id = self._by_id
        i = by_id.get(id(action))
        if i is not None:
            return i
        if len(by_id) > _ID_CACHE_LIMIT:
            by_id.clear()
            self._kept.clear()
        i = self.encode(action)
        self._kept.append(action)
        by_id[id(action)] = i
        return i

    def _mark(self, out: npt.NDArray[Any], legal: tuple[Action, ...]) -> npt.NDArray[Any]:
        """Set ``out`` (all zeros) to 1 at the ids of the engine's ``legal``
        actions, and return it. Item by item: there are 2.3 legal actions on
        average, for which numpy's fancy indexing would cost more."""
        get = self._by_id.get
        for action in legal:
            i = get(id(action))
            out[self._learn(action) if i is None else i] = 1
        return out

    def _masked(self, legal: tuple[Action, ...], dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """A fresh array of ``dtype`` (bool or int8), 1 at the ids of the engine's
        ``legal`` actions. Most decisions have one legal action (a pass or a
        draw) in a tuple the engine shares: its arrays are kept by the tuple's
        identity and copied, which costs less than filling new zeros."""
        if len(legal) != 1:
            return self._mark(np.zeros(self._t.size, dtype), legal)
        lone = self._lone
        hit = lone.get(id(legal))
        if hit is None or hit[0] is not legal:
            base = self._mark(np.zeros(self._t.size, _BOOL), legal)
            if len(lone) >= _CACHE_LIMIT:
                lone.clear()
            hit = lone[id(legal)] = (legal, base, base.view(_INT8))
        if dtype == _BOOL:
            out: npt.NDArray[Any] = hit[1].copy()
        else:
            out = hit[2].copy() if dtype == _INT8 else hit[1].astype(dtype)
        return out

    def mask(self, position: GameState | Observation) -> npt.NDArray[np.bool_]:
        """A boolean array of length :attr:`size`, true exactly at the legal ids.

        >>> from sevenbridge import deal
        >>> m = ActionSpace().mask(deal(seed=1))
        >>> m.dtype.name, m.shape, int(m.sum())
        ('bool', (2971,), 1)
        """
        kind = type(position)
        if kind is not GameState and kind is not Observation:
            _player_of(position)  # raises the TypeError
        return self._masked(legal_actions(position), _BOOL)

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy starts with empty caches: the ones by object identity would
        # mean nothing in another process (an id there may be any object's).
        return (ActionSpace, (self.rules, self.players))

    def __repr__(self) -> str:
        return f"<ActionSpace of {self.size} ids, version {self.version}, {self.players} players>"


def _player_of(position: Any) -> int:
    kind = type(position)
    if kind is not GameState and kind is not Observation:
        raise TypeError(
            f"position must be a GameState or an Observation, not {_checks.type_name(position)}"
        )
    p = position.current_player
    if p is None:
        raise InvalidArgumentError(
            Message("invalid_argument.deal_over_no_player", "the deal is over: no player is to act")
        )
    return p  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------------
# tensors
# ----------------------------------------------------------------------------------
_PHASES = (Phase.CLAIM, Phase.DRAW, Phase.PLAY, Phase.OVER)
_OVER = Phase.OVER


class _Layout:
    """Where each field of the tensors sits, for one deck size and table size.

    The binary fields are gathered into one big integer, ``deck`` bits per card
    plane, then the flags, and unpacked at once; the counts are written after.
    """

    def __init__(self, deck: int, n: int, info: bool) -> None:
        planes = [("hand", 1)]
        planes += [("melds", n), ("known", n), ("discards", 1), ("top", 1)]
        planes += [("jokers", 1), ("reshuffled", 1), ("targets", MAX_LAY_OFF_TARGETS)]
        if info:
            planes += [("discarded_by", n), ("passed_by", n)]
        self.deck = deck
        self.info = info
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
        if info:
            self.at_discarded_by = by_seat("discarded_by")
            self.at_passed_by = by_seat("passed_by")
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
                {},  # this viewer's cache of table planes
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
        self.at_targets = sh["targets"]
        self.at_jokers = sh["jokers"]
        self.at_discards = sh["discards"]
        self.at_top = sh["top"]
        # Caches of what changes seldom, by the identity of the (immutable)
        # tuple it comes from: each entry keeps its tuple, so an id is never
        # reused while its entry lives. ``tables`` holds the table's planes
        # that do not depend on the viewer (and the cards each seat owns), the
        # first item of ``by_viewer`` the table's planes by viewer, ``piles``
        # the discard pile's planes; ``last_pile`` is the last new pile and
        # its cards, ``last_hands`` a state's last hands and their packed sizes;
        # by value, ``hand_sizes`` holds the packed hand sizes for each viewer.
        self.tables: dict[int, tuple[tuple[Any, ...], int, tuple[int, ...]]] = {}
        self.piles: dict[int, tuple[tuple[int, ...], int]] = {}
        self.last_pile: tuple[tuple[int, ...], int] = ((), 0)
        self.last_hands: tuple[tuple[int, ...], tuple[bytes, ...]] = ((), ())
        self.hand_sizes: dict[tuple[int, ...], tuple[bytes, ...]] = {}
        # What _fill reads, by viewer: one tuple to unpack instead of a dozen
        # attribute look-ups (the caches in it are emptied in place, never
        # replaced).
        shared = (
            self.phase_bits, self.clean_bit, self.claim_bit, self.flags, self.at_reshuffled,
            self.piles, self.rows, None if self.exact else self.size, self.pack_counts,
            self.count_offset,
        )  # fmt: skip
        self.fill_args: tuple[tuple[Any, ...], ...] = tuple(
            (*viewer, *shared) for viewer in self.by_viewer
        )

    def clear(self) -> None:
        """Empty every cache (the tensors stay the same, only slower)."""
        for cache in (self.tables, self.piles, self.hand_sizes):
            cache.clear()
        self.last_pile = ((), 0)
        self.last_hands = ((), ())
        for viewer in self.by_viewer:
            viewer[0].clear()


@lru_cache(maxsize=64)
def _layout(deck: int, n: int, info: bool) -> _Layout:
    return _Layout(deck, n, info)


def observation_tensor_size(rules: Rules, players: int) -> int:
    """The length of :func:`observation_tensor` for these rules and table size.

    >>> from sevenbridge import Rules
    >>> observation_tensor_size(Rules.standard(), 3)
    1592
    """
    _checks.instance(rules, Rules, "rules", "a Rules value")
    return _layout(rules.deck_size, _checks.players(players), False).size


def information_state_tensor_size(rules: Rules, players: int) -> int:
    """The length of :func:`information_state_tensor` for these rules and table size.

    >>> from sevenbridge import Rules
    >>> information_state_tensor_size(Rules.standard(), 3)
    1904
    """
    _checks.instance(rules, Rules, "rules", "a Rules value")
    return _layout(rules.deck_size, _checks.players(players), True).size


def tensor_fields(rules: Rules, players: int, *, info: bool = False) -> tuple[str, ...]:
    """The fields of :func:`observation_tensor` (or, with ``info``, of
    :func:`information_state_tensor`) in order, as ``"name: width"``; a number
    in brackets is a relative seat (``0`` the viewer) or a lay-off target.

    >>> from sevenbridge import Rules
    >>> fields = tensor_fields(Rules.standard(), 3)
    >>> fields[:3], fields[-2:]
    (('hand: 52', 'melds[0]: 52', 'melds[1]: 52'), ('table_size: 1', 'reshuffles: 1'))
    """
    _checks.instance(rules, Rules, "rules", "a Rules value")
    return tuple(_layout(rules.deck_size, _checks.players(players), info).fields)


#: Each byte value's 8 bits, least significant first, as a float32 row.
_BYTE_ROWS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)
_UINT8 = np.dtype(np.uint8)


def _table_bits(
    table: tuple[Any, ...], me: int, layout: _Layout, cache: dict[int, Any]
) -> tuple[Any, int]:
    """The table's planes (melds by owner, lay-off targets, joker readings) as
    viewer ``me`` sees them, as a cache entry ``(table, bits)`` stored in
    ``me``'s ``cache`` under ``id(table)``. The planes that every viewer sees
    alike are worked out once per table, in ``layout.tables``."""
    shared = layout.tables.get(id(table))
    if shared is None or shared[0] is not table:
        owned = [0] * layout.n
        at, d = layout.at_targets, layout.deck
        bits = 0
        jokers = 0
        for t, tm in enumerate(table):
            owned[tm.owner] |= tm.mask
            bits |= tm.ext << (at + t * d)
            if tm.joker >= 0:
                jokers |= 1 << tm.joker
        shared = (table, bits | jokers << layout.at_jokers, tuple(owned))
        if len(layout.tables) >= _CACHE_LIMIT:
            layout.tables.clear()
        layout.tables[id(table)] = shared
    bits = shared[1]
    for at, mask in zip(layout.at_melds[me], shared[2]):  # noqa: B905 (both n long)
        bits |= mask << at
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    entry = cache[id(table)] = (table, bits)
    return entry


def _pile_bits(pile: tuple[int, ...], layout: _Layout) -> tuple[Any, int]:
    """The discard pile's planes (every card in it, its top card), as a cache
    entry ``(pile, bits)`` stored under ``id(pile)``. A new pile is most often
    the last one seen with a card more (a discard) or less (a claim): then its
    cards come from the last pile's in one step, not a walk."""
    last, cards = layout.last_pile
    k = len(pile)
    if k == len(last) + 1 and pile[:-1] == last:
        cards |= 1 << pile[-1]
    elif k == len(last) - 1 and last[:-1] == pile:
        cards ^= 1 << last[-1]
    elif pile != last:
        cards = 0
        for c in pile:
            cards |= 1 << c
    layout.last_pile = (pile, cards)  # one tuple, replaced whole (threads)
    bits = cards << layout.at_discards
    if pile:
        bits |= 1 << (layout.at_top + pile[-1])
    if len(layout.piles) >= _CACHE_LIMIT:
        layout.piles.clear()
    entry = layout.piles[id(pile)] = (pile, bits)
    return entry


def _hand_sizes(sizes: tuple[int, ...], layout: _Layout) -> tuple[bytes, ...]:
    """The hand sizes / 10 by relative seat, packed as float32, for each viewer
    (stored in ``layout.hand_sizes``)."""
    n = len(sizes)
    fmt = f"={n}f"
    packed = tuple(pack(fmt, *[sizes[(me + k) % n] / 10 for k in range(n)]) for me in range(n))
    if len(layout.hand_sizes) >= _CACHE_LIMIT:
        layout.hand_sizes.clear()
    layout.hand_sizes[sizes] = packed
    return packed


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
    """The tensor of player ``me`` from the public fields of ``src`` (a state or a
    view) and what ``me`` knows (``hand``, the packed hand ``sizes`` of
    :func:`_hand_sizes`, the ``stock`` size, the ``shown`` hands once the deal
    is over).

    Every binary entry is a bit of one big integer, put together from bits
    worked out in advance (the layout's tables by viewer, the cached planes of
    the table and the discard pile); its bytes become rows of ``_BYTE_ROWS`` by
    one ``numpy.take``, and the counts are packed in place. Numpy's cost per
    call is most of what a tensor costs, so there are as few calls as can be.
    """
    (tables, known_at, turn_bits, discarder_bits, owner_bits, played_bits, normal_bits,
     pending_bits, phase_bits, clean_bit, claim_bit, at_flags, at_reshuffled, piles, rows, cut,
     pack_counts, count_offset) = layout.fill_args[me]  # fmt: skip
    table = src.table
    hit = tables.get(id(table))
    if hit is None or hit[0] is not table:
        hit = _table_bits(table, me, layout, tables)
    pile = src.discard_cards
    pit = piles.get(id(pile))
    if pit is None or pit[0] is not pile:
        pit = _pile_bits(pile, layout)
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
    big = hit[1] | pit[1] | ((flags << at_flags) | extra | hand)
    reshuffled = src.reshuffled
    if reshuffled:
        big |= reshuffled << at_reshuffled
    if shown is not None:
        for p, mask in enumerate(shown):
            big |= mask << known_at[p]
    elif pending is not None:
        big |= pending[1] << known_at[pending[0]]
    out = _BYTE_ROWS.take(np.frombuffer(big.to_bytes(rows, "little"), _UINT8), 0).ravel()
    if cut is not None:
        out = out[:cut]
    reshuffles = src.reshuffles
    pack_counts(
        out,
        count_offset,
        sizes[me],
        stock / 52,
        len(pile) / 52,
        len(table) / MAX_LAY_OFF_TARGETS,
        reshuffles and reshuffles / max(1, src.rules.reshuffle_limit),
    )
    return out


def _of_view(view: Any, info: bool) -> npt.NDArray[np.float32]:
    if type(view) is not Observation:
        raise TypeError(
            f"view must be an Observation (observe(state, player)), not {_checks.type_name(view)}"
        )
    layout = _layout(view.rules.deck_size, view.players, info)
    extra = _history_planes(view.move_log, view.viewer, view.players, layout) if info else 0
    sizes = view.hand_sizes
    packed = layout.hand_sizes.get(sizes)
    if packed is None:
        packed = _hand_sizes(sizes, layout)
    return _fill(
        view, view.viewer, view.hand_mask, packed, view.stock_size, view.shown_hands, layout, extra
    )


def _of_state(state: GameState, player: int, info: bool) -> npt.NDArray[np.float32]:
    """The tensor of ``observe(state, player)``, without building the Observation
    (what the environments use)."""
    return _state_tensor(state, player, _layout(state.rules.deck_size, state.players, info))


def _state_tensor(state: GameState, player: int, layout: _Layout) -> npt.NDArray[np.float32]:
    """:func:`_of_state` with the layout already looked up."""
    extra = _history_planes(state.move_log, player, state.players, layout) if layout.info else 0
    hands = state.hand_masks
    last = layout.last_hands  # the hands change at about every other step
    if hands == last[0]:
        packed = last[1]
    else:
        sizes = tuple(map(int.bit_count, hands))
        known = layout.hand_sizes.get(sizes)
        packed = _hand_sizes(sizes, layout) if known is None else known
        layout.last_hands = (hands, packed)  # one tuple, replaced whole (threads)
    return _fill(
        state, player, hands[player], packed, len(state.stock_cards),
        hands if state.phase is _OVER else None, layout, extra,
    )  # fmt: skip


def observation_tensor(view: Observation) -> npt.NDArray[np.float32]:
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

    Raises:
        TypeError: if ``view`` is not an :class:`~sevenbridge.Observation`.

    >>> from sevenbridge import deal, observe
    >>> x = observation_tensor(observe(deal(seed=1), 0))
    >>> x.dtype.name, x.shape, int(x[:52].sum())
    ('float32', (1592,), 7)
    """
    return _of_view(view, False)


# The public history, summed up: for each node of a History, the cards each
# player discarded and the cards each player declined to pon (by absolute seat).
_HISTORY_CACHE: dict[int, tuple[History, tuple[int, ...], tuple[int, ...], int]] = {}


def _history_summary(log: History | None, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if log is None:
        return (0,) * n, (0,) * n
    hit = _HISTORY_CACHE.get(id(log))
    if hit is not None and hit[0] is log and len(hit[1]) == n:
        return hit[1], hit[2]
    pending: list[History] = []
    node: History | None = log
    base: tuple[History, tuple[int, ...], tuple[int, ...], int] | None = None
    while node is not None:
        hit = _HISTORY_CACHE.get(id(node))
        if hit is not None and hit[0] is node and len(hit[1]) == n:
            base = hit
            break
        pending.append(node)
        node = node.prev
    discarded = list(base[1]) if base else [0] * n
    passed = list(base[2]) if base else [0] * n
    top = base[3] if base else -1
    if len(_HISTORY_CACHE) > 200_000:
        _HISTORY_CACHE.clear()
    for node in reversed(pending):
        action = node.action
        kind = type(action)
        if kind is Discard:
            top = action.card.index
            discarded[action.player] |= 1 << top
        elif kind is Pass and top >= 0:
            passed[action.player] |= 1 << top
        elif kind is Chi or kind is Pon:
            top = -1
        _HISTORY_CACHE[id(node)] = (node, tuple(discarded), tuple(passed), top)
    return tuple(discarded), tuple(passed)


def information_state_tensor(view: Observation) -> npt.NDArray[np.float32]:
    """:func:`observation_tensor` with what the public history adds.

    Two more groups of card planes, by relative seat, come after the
    observation's card planes (before its flags and counts): every card each
    player has discarded this deal (claimed or reshuffled since, or not), and
    every discard each player declined to pon when asked (a hint at what they
    lack; passes on the upcard are not counted). The order of play beyond these
    is left out: the engine's rules make the position depend on no more of it.
    :func:`tensor_fields` with ``info=True`` lists the fields in order.

    Raises:
        TypeError: if ``view`` is not an :class:`~sevenbridge.Observation`.

    >>> from sevenbridge import deal, observe
    >>> x = information_state_tensor(observe(deal(seed=1), 0))
    >>> x.shape
    (1904,)
    """
    return _of_view(view, True)


def _history_planes(log: History | None, me: int, n: int, layout: _Layout) -> int:
    """The information state's history planes, as bits of the big integer."""
    discarded, passed = _history_summary(log, n)
    extra = 0
    d_at, p_at = layout.at_discarded_by[me], layout.at_passed_by[me]
    for p in range(n):
        extra |= (discarded[p] << d_at[p]) | (passed[p] << p_at[p])
    return extra

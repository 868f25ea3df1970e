"""The action catalogue: fixed ids for every action the rules allow, and masks.

The meld catalogue of a set of rules, its id table (:class:`_Table`, shared by
every :class:`ActionSpace` of the same rules), and :class:`ActionSpace`, which
encodes, decodes and masks. Re-exported by :mod:`sevenbridge.rl`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from .._kit import checks as _checks
from ..actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS, JOKER_INDEX
from ..engine import legal_actions
from ..engine._keys import canonical
from ..errors import InvalidArgumentError, Message
from ..rules import Rules
from ..state import GameState
from ..views import Observation
from ._caches import ACTIONS, PARTS, SETUPS, Cache

if TYPE_CHECKING:
    from typing_extensions import Self

    from ..mahjong.actions import Action as MahjongAction
    from ..mahjong.rules import Rules as MahjongRules
    from ..mahjong.state import GameState as MahjongState
    from ..mahjong.views import Observation as MahjongObservation

__all__ = ["ACTION_SPACE_VERSION", "MAX_LAY_OFF_TARGETS", "ActionSpace"]

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

#: The numberings of the other games: functions giving the ActionSpace
#: subclass for another game's rules, or None (sevenbridge.rl._mahjong adds the
#: mahjong one when sevenbridge.rl is imported).
OTHER_GAMES: list[Callable[[Any], type[ActionSpace] | None]] = []

_JOKER_BIT = 1 << JOKER_INDEX
_BOOL = np.dtype(np.bool_)
_INT8 = np.dtype(np.int8)
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
        self.joker_lay_off = jokers and rules.joker_lay_off
        offs = [f"layoff {CARDS[c]}>{t}" for t in range(MAX_LAY_OFF_TARGETS) for c in range(52)]
        joker_offs = []
        if self.joker_lay_off:
            joker_offs = [
                f"layoff JK={CARDS[c]}>{t}" for t in range(MAX_LAY_OFF_TARGETS) for c in range(52)
            ]
        self._fill(
            rules,
            melds,
            _claims(melds, (_RUN,), need),
            _claims(melds, (_SET,), need),
            offs,
            joker_offs,
        )

    def _fill(
        self,
        rules: Rules,
        melds: list[tuple[int, int, str]],
        chis: list[tuple[int, int]],
        pons: list[tuple[int, int]],
        offs: list[str],
        joker_offs: list[str],
    ) -> None:
        """The blocks in id order, from the catalogue's melds and claims that
        get an id and the lay-offs' labels: draw, pass, the discards, the
        lay-downs, the chis, the pons, the lay-offs, the joker's lay-offs."""
        labels = ["draw", "pass"]
        labels += [f"discard {CARDS[c]}" for c in range(rules.deck_size)]
        self.discard_base = 2
        self.lay_base = len(labels)
        labels += [f"laydown {_names(m, j)}" for m, j, _ in melds]
        self.chi_base = len(labels)
        labels += [f"chi {_names(m, j)}" for m, j in chis]
        self.pon_base = len(labels)
        labels += [f"pon {_names(m, j)}" for m, j in pons]
        self.off_base = len(labels)
        labels += offs
        self.joker_off_base = len(labels)
        labels += joker_offs
        self.labels = tuple(labels)
        self.size = len(labels)
        self.melds = [(m, j) for m, j, _ in melds]
        self.chis = chis
        self.pons = pons
        self.lay_ids = {key: self.lay_base + i for i, key in enumerate(self.melds)}
        self.chi_ids = {key: self.chi_base + i for i, key in enumerate(chis)}
        self.pon_ids = {key: self.pon_base + i for i, key in enumerate(pons)}
        self.digest = hashlib.sha256("\n".join(labels).encode()).hexdigest()


#: The id tables by rules.
_TABLES: Cache[Rules, _Table] = Cache(SETUPS)


def _table(rules: Rules) -> _Table:
    """The id table of ``rules`` (built once, shared by every ActionSpace of them)."""
    table = _TABLES.data.get(rules)
    if table is None:
        table = _TABLES.put(rules, _Table(rules))
    return table


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

    __slots__ = ("_by_id", "_decoded", "_encoded", "_lone", "_t", "players", "rules")

    @overload
    def __new__(cls, rules: MahjongRules, players: int = ...) -> _MahjongActionSpace: ...
    @overload
    def __new__(cls, rules: Rules | None = None, players: int = ...) -> Self: ...
    def __new__(cls, rules: Any = None, players: int = 3) -> ActionSpace:
        # The mahjong rules get the mahjong numbering (sevenbridge.rl._mahjong,
        # imported only then: card-game users never load the mahjong package).
        if cls is ActionSpace and rules is not None and type(rules) is not Rules:
            for space_for in OTHER_GAMES:
                found = space_for(rules)
                if found is not None:
                    return object.__new__(found)
        return object.__new__(cls)

    if not TYPE_CHECKING:
        # Hidden from the type checker, which then takes the constructor's
        # signature from the overloads of __new__ (a mahjong Rules gives a
        # MahjongActionSpace); _setup is the checked body.
        def __init__(self, rules: Rules | None = None, players: int = 3) -> None:
            self._setup(rules, players)

    def _setup(self, rules: Rules | None, players: int) -> None:
        if rules is None:
            rules = Rules()
        _checks.instance(rules, Rules, "rules", "a Rules value")
        self.rules: Rules = rules  # documented in the class's Attributes
        self.players: int = _checks.players(players)
        self._t = _table(rules)
        # Its caches (see sevenbridge.rl._caches): ids by action, actions by id
        # and seat, and by object identity the ids of the action objects the
        # engine hands out (it interns them) and the masks of lone legal
        # actions, by the engine's tuple (as bool and as int8).
        self._encoded: Cache[Any, int] = Cache(ACTIONS)
        self._decoded: Cache[tuple[int, int], Action] = Cache(ACTIONS)
        self._by_id: Cache[int, tuple[int, object]] = Cache(ACTIONS)
        self._lone: Cache[
            int, tuple[tuple[npt.NDArray[np.bool_], npt.NDArray[np.int8]], object]
        ] = Cache(PARTS)

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
        encoded = self._encoded.data
        try:
            return encoded[action]
        except KeyError:
            pass
        except TypeError:
            raise TypeError(f"action must be an Action, not {_checks.type_name(action)}") from None
        action_id = self._compute_id(action)
        if len(encoded) >= self._encoded.limit:  # Cache.put written out (a call costs more)
            encoded.clear()
        encoded[action] = action_id
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

    def _by_id_and_seat(self) -> dict[tuple[int, int], Any]:
        """The actions decoded so far by (id, player): the environments' own
        lookup, filled as :meth:`decode` decodes."""
        return self._decoded.data

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
            return self._decoded.data[(action_id, player)]
        except (KeyError, TypeError):
            pass
        action_id = self._check_id(action_id)
        action = self._build(action_id, player)
        # The engine's own equal action object, once it has built one (it has,
        # for every legal action): apply then finds it by identity, without
        # hashing it, at every step an environment plays it.
        action = canonical(action) or action
        decoded, encoded = self._decoded.data, self._encoded.data
        if len(decoded) >= self._decoded.limit:  # Cache.put written out (a call costs more)
            decoded.clear()
        decoded[(action_id, player)] = action
        if action not in encoded:
            if len(encoded) >= self._encoded.limit:
                encoded.clear()
            encoded[action] = action_id
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
        return self._ids_at(position, legal_actions(position))

    def _ids_at(self, position: Any, legal: tuple[Action, ...]) -> list[int]:
        """The ids of the engine's ``legal`` actions in ``position`` (the full
        numbering's ids do not depend on the position; the compact one's do)."""
        return self._ids(legal)

    def _mask_at(
        self, position: Any, legal: tuple[Action, ...], dtype: np.dtype[Any]
    ) -> npt.NDArray[Any]:
        """:meth:`_masked` of the engine's ``legal`` actions in ``position``
        (what the environments call)."""
        return self._masked(legal, dtype)

    def _ids(self, legal: tuple[Action, ...]) -> list[int]:
        """The ids of the engine's ``legal`` actions."""
        get = self._by_id.data.get
        try:
            return [get(id(a))[0] for a in legal]  # type: ignore[index]
        except TypeError:  # an action not seen yet (its entry is None)
            return [self._learn(a) for a in legal]

    def _learn(self, action: Action) -> int:
        """The id of an action the engine handed out, remembered by the object's
        identity (the engine interns its actions, so the same objects come back)."""
        by_id = self._by_id.data
        entry = by_id.get(id(action))
        if entry is not None:
            return entry[0]
        action_id = self.encode(action)
        if len(by_id) >= self._by_id.limit:  # Cache.keep written out (a call costs more)
            by_id.clear()
        by_id[id(action)] = (action_id, action)
        return action_id

    def _mark(self, out: npt.NDArray[Any], legal: tuple[Action, ...]) -> npt.NDArray[Any]:
        """Set ``out`` (all zeros) to 1 at the ids of the engine's ``legal``
        actions, and return it. Item by item: there are 2.3 legal actions on
        average, for which numpy's fancy indexing would cost more."""
        get = self._by_id.data.get
        for action in legal:
            entry = get(id(action))
            out[self._learn(action) if entry is None else entry[0]] = 1
        return out

    def _masked(self, legal: tuple[Action, ...], dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """A fresh array of ``dtype`` (bool or int8), 1 at the ids of the engine's
        ``legal`` actions. Most decisions have one legal action (a pass or a
        draw) in a tuple the engine shares: its arrays are kept by the tuple's
        identity and copied, which costs less than filling new zeros."""
        if len(legal) != 1:
            return self._mark(np.zeros(self._t.size, dtype), legal)
        lone = self._lone
        entry = lone.data.get(id(legal))
        if entry is None:
            base = self._mark(np.zeros(self._t.size, _BOOL), legal)
            kept = lone.keep(legal, (base, base.view(_INT8)))
        else:
            kept = entry[0]
        # The environments' dtypes by identity first: comparing dtypes with
        # == costs more than the copy.
        if dtype is _INT8:
            out: npt.NDArray[Any] = kept[1].copy()
        elif dtype is _BOOL or dtype == _BOOL:
            out = kept[0].copy()
        else:
            out = kept[1].copy() if dtype == _INT8 else kept[0].astype(dtype)
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
        return self._mask_at(position, legal_actions(position), _BOOL)

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


if TYPE_CHECKING:
    # What the type checker knows of sevenbridge.rl.MahjongActionSpace, the
    # space ActionSpace(mahjong.Rules()) gives. The class itself is in
    # sevenbridge.rl._mahjong, which imports this module (so this one may not
    # import it back, even for types); it derives from this declaration for the
    # type checker, which checks it against these signatures, and
    # sevenbridge.rl exports this declaration to type checkers under its name.
    class _MahjongActionSpace(ActionSpace):
        def __init__(self, rules: MahjongRules | None = None, players: int = 4) -> None: ...
        @property
        def rules(self) -> MahjongRules: ...  # type: ignore[override]
        def encode(self, action: MahjongAction) -> int: ...  # type: ignore[override]
        def decode(  # type: ignore[override]
            self, action_id: int, position: MahjongState | MahjongObservation
        ) -> MahjongAction: ...
        def legal_ids(self, position: MahjongState | MahjongObservation) -> list[int]:  # type: ignore[override]
            ...
        def mask(self, position: MahjongState | MahjongObservation) -> npt.NDArray[np.bool_]:  # type: ignore[override]
            ...

"""The compact action numbering: no id that can never be legal, and lay-offs
named by where the card goes rather than by the index of the target meld.

:class:`CompactActionSpace` has :class:`ActionSpace`'s interface. Its blocks
are the full numbering's, less what the rules never allow:

- lay-downs of more cards than a hand can put down (seven while a final
  discard is needed, else eight: a turn starts with at most seven cards and a
  draw adds one), and claims taking more cards from the hand than it holds
  less the final discard (six, else seven);
- lay-offs by *slot* (:func:`lay_off_slot`): the end of a run the card
  extends (``high``: after the run's top card; ``low``: before its bottom
  card), the set of its rank (``set``), the lone seven of its suit (for a 6 or
  an 8, ``seven``), or for a seven the seven meld whose lowest natural seven
  is of a given suit (``on 7C`` ...); only the slots some meld of the
  catalogue offers the card. A lay-off's id then depends on the table:
  :meth:`CompactActionSpace.encode` takes the position, and
  :meth:`~CompactActionSpace.decode` finds the target meld in it.

Why a slot names one meld of the table at most: a natural card is in one meld
at most and there is one joker. Two runs ending just below a card would both
hold the card below it (or the joker standing for it), and the card below that
(a run of two cards holds a natural seven; a run with the joker has three
cards or more), which is one natural card or the joker twice. Two sets of
one rank other than 7 would need five natural cards of it; a seven meld is
named by its lowest natural seven, which no other meld holds; and there is at
most one lone seven of each suit. A lone seven is kept apart from runs
(``seven`` rather than ``high`` or ``low``) because a run whose end is the
joker standing for that seven takes the same 6 or 8.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _tables as T
from .._kit import checks as _checks
from ..actions import Action, LayOff
from ..cards import CARDS, JOKER_INDEX
from ..errors import InvalidArgumentError, Message
from ..rules import Rules
from ..state import GameState, Phase, TableMeld, table_meld
from ..views import Observation
from ._actions import _RUN as _RUNS
from ._actions import _SET as _SETS
from ._actions import ActionSpace, _catalogue, _claims, _player_of, _Table
from ._caches import SETUPS, Cache

__all__ = ["COMPACT_ACTION_SPACE_VERSION", "SLOT_NAMES", "CompactActionSpace", "lay_off_slot"]

#: The version of the compact numbering. It changes only when the id of some
#: action changes; the test suite pins a digest of every preset's id table.
COMPACT_ACTION_SPACE_VERSION = 1

#: The lay-off slots by number: a run's high end, its low end, the set of the
#: card's rank, the lone seven of the card's suit, then the seven meld whose
#: lowest natural seven is of each suit.
SLOT_NAMES = ("high", "low", "set", "seven", "on 7C", "on 7D", "on 7H", "on 7S")
_HIGH, _LOW, _SET, _SEVEN, _ON7 = 0, 1, 2, 3, 4
_PLAY = Phase.PLAY


def lay_off_slot(meld: TableMeld, card: int) -> int:
    """The slot (an index of :data:`SLOT_NAMES`) in which ``card`` (a natural
    card's index, or the card the joker would stand for) goes onto ``meld``,
    which must take it.

    >>> from sevenbridge.state import table_meld
    >>> from sevenbridge._tables import RUN
    >>> run = table_meld(0, RUN, 0b111 << 2, -1, False, True)   # 3C 4C 5C
    >>> [SLOT_NAMES[lay_off_slot(run, c)] for c in (1, 5)]      # 2C, 6C
    ['low', 'high']
    """
    kind = meld.kind
    if kind == T.RUN:
        # The card before the run's lowest place, if that is the card (with
        # the Ace high, a run from 2 to King takes the Ace at either end: it is
        # named by the low end); otherwise the card after its highest place.
        low = meld.lo > 1 and card == meld.key * 13 + (meld.lo - 2) % 13
        return _LOW if low else _HIGH
    if card % 13 == 6:  # a seven onto a seven meld (a lone seven or a set of sevens)
        naturals = meld.mask & ~T.JOKER_BIT
        return _ON7 + ((naturals & -naturals).bit_length() - 1) // 13
    return _SEVEN if kind == T.SEVEN else _SET


class _CompactTable(_Table):
    """The compact id table of one set of rules (the full table's attributes,
    which :class:`ActionSpace`'s methods read, and the lay-offs by slot)."""

    def __init__(self, rules: Rules) -> None:  # (not the full table's: other ids)
        jokers = bool(rules.jokers)
        most_laid = 7 if rules.final_discard else 8
        most_claimed = most_laid - 1
        melds = [m for m in _catalogue(rules.ace_high, jokers) if m[0].bit_count() <= most_laid]
        need = rules.claim_min_hand_cards
        chis = [c for c in _claims(melds, (_RUNS,), need) if c[0].bit_count() <= most_claimed]
        pons = [c for c in _claims(melds, (_SETS,), need) if c[0].bit_count() <= most_claimed]
        # The slots some meld of the catalogue (every meld that can be on the
        # table) offers each card, natural or as the joker's reading.
        self.joker_lay_off = jokers and rules.joker_lay_off
        natural: set[tuple[int, int]] = set()
        joker: set[tuple[int, int]] = set()
        everything = (1 << rules.deck_size) - 1
        for mask, kind, j in T.melds_in(everything, rules.ace_high, jokers):
            tm = table_meld(0, kind, mask, j, rules.ace_high, rules.joker_lay_off)
            natural.update((c, lay_off_slot(tm, c)) for c in T.bits(tm.ext))
            if self.joker_lay_off:
                joker.update((c, lay_off_slot(tm, c)) for c in tm.joker_options)
        #: The lay-offs in id order, as (card, slot, joker?).
        self.offs = [(c, s, False) for c, s in sorted(natural)]
        self.offs += [(c, s, True) for c, s in sorted(joker)]
        labels = [f"layoff {'JK=' if j else ''}{CARDS[c]} {SLOT_NAMES[s]}" for c, s, j in self.offs]
        self._fill(rules, melds, chis, pons, labels[: len(natural)], labels[len(natural) :])
        self.off_ids = {key: self.off_base + i for i, key in enumerate(self.offs)}


_TABLES: Cache[Rules, _CompactTable] = Cache(SETUPS)


def _compact_table(rules: Rules) -> _CompactTable:
    table = _TABLES.data.get(rules)
    if table is None:
        table = _TABLES.put(rules, _CompactTable(rules))
    return table


def _no_id(action: Any) -> InvalidArgumentError:
    return InvalidArgumentError(
        Message(
            "invalid_argument.no_compact_action_id",
            "no compact action id stands for {action} here: it can never be legal under these rules, or its target meld does not take the card",
            action=repr(action),
        )
    )


class CompactActionSpace(ActionSpace):
    """:class:`ActionSpace`'s interface over the compact numbering: no id the
    rules can never make legal, and lay-offs by slot (see
    :func:`lay_off_slot`), whose ids depend on the table.

    The blocks, in order: ``0`` Draw; ``1`` Pass; one Discard per card of the
    deck; one LayDown per meld of the catalogue that a hand can put down; one
    Chi and one Pon per way to claim that leaves the hand a card for the final
    discard (when one is needed); one LayOff per natural card and slot that
    some meld offers it; then, when the joker may be laid off, one per card
    the joker stands for and slot. The numbering depends on the rules' deck,
    ``ace_high``, ``claim_min_hand_cards``, ``joker_lay_off`` and
    ``final_discard``; it is versioned by :data:`COMPACT_ACTION_SPACE_VERSION`
    and :attr:`digest` pins it.

    >>> from sevenbridge import Rules
    >>> space = CompactActionSpace(Rules.standard())
    >>> space.size, space.version
    (1295, 1)
    >>> [label for label in space.labels if label.startswith("layoff 8H")]
    ['layoff 8H high', 'layoff 8H low', 'layoff 8H set', 'layoff 8H seven']
    """

    __slots__ = ("_c",)

    def _setup(self, rules: Rules | None, players: int) -> None:
        super()._setup(rules, players)
        self._c = self._t = _compact_table(self.rules)

    @property
    def version(self) -> int:
        """The numbering's version, :data:`COMPACT_ACTION_SPACE_VERSION`."""
        return COMPACT_ACTION_SPACE_VERSION

    def encode(self, action: Action, position: GameState | Observation | None = None) -> int:
        """The id of ``action``. A lay-off's id depends on the table: give the
        ``position`` the action is taken in (it is needed for lay-offs only).

        Raises:
            TypeError: if ``action`` is not an action.
            InvalidArgumentError: if no id stands for it (an action the rules
                never allow; a lay-off without its position, or onto a meld
                that does not take the card).
        """
        if type(action) is LayOff:
            if position is None:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.lay_off_id_needs_position",
                        "the compact id of a lay-off depends on the table: give the position of {action}",
                        action=repr(action),
                    )
                )
            return self._lay_off_id(action, _table_of(position))
        return super().encode(action)

    def _compute_id(self, action: Any) -> int:
        if type(action) is LayOff:  # reached only through encode's check
            raise _no_id(action)
        try:
            return super()._compute_id(action)
        except InvalidArgumentError:
            raise _no_id(action) from None

    def _lay_off_id(self, action: LayOff, table: tuple[TableMeld, ...]) -> int:
        target = action.target
        if target >= len(table):
            raise _no_id(action)
        meld = table[target]
        c = action.card.index
        if c == JOKER_INDEX:
            reading = -1 if action.joker_as is None else action.joker_as.index
            if reading not in meld.joker_options:
                raise _no_id(action)
            found = self._c.off_ids.get((reading, lay_off_slot(meld, reading), True))
        else:
            if action.joker_as is not None or not meld.ext >> c & 1:
                raise _no_id(action)
            found = self._c.off_ids.get((c, lay_off_slot(meld, c), False))
        if found is None:
            raise _no_id(action)
        return int(found)

    def decode(self, action_id: int, position: GameState | Observation) -> Action:
        """The action of ``action_id`` for the player to act in ``position``
        (for a lay-off, onto the meld of the table in that slot; if none is,
        onto the index past the table's last meld, which
        :func:`~sevenbridge.apply` refuses). Not checked for legality:
        :meth:`mask` says which ids are legal.

        Raises:
            TypeError: if ``position`` is not a GameState or an Observation.
            InvalidArgumentError: for an id out of range, or a finished deal.
        """
        t = self._c
        if type(action_id) is int and 0 <= action_id < t.off_base:
            return super().decode(action_id, position)
        player = _player_of(position)
        action_id = self._check_id(action_id)
        if action_id < t.off_base:
            return super().decode(action_id, position)
        card, slot, joker = t.offs[action_id - t.off_base]
        table = _table_of(position)
        target = len(table)
        for i, meld in enumerate(table):
            takes = card in meld.joker_options if joker else meld.ext >> card & 1
            if takes and lay_off_slot(meld, card) == slot:
                target = i
                break
        if joker:
            return LayOff(player, CARDS[JOKER_INDEX], target, CARDS[card])
        return LayOff(player, CARDS[card], target)

    def _ids_at(self, position: Any, legal: tuple[Action, ...]) -> list[int]:
        if position.phase is not _PLAY:
            return self._ids(legal)
        table = position.table
        get = self._by_id.data.get
        out = []
        for action in legal:
            if type(action) is LayOff:
                out.append(self._lay_off_id(action, table))
            else:
                entry = get(id(action))
                out.append(self._learn(action) if entry is None else entry[0])
        return out

    def _mask_at(
        self, position: Any, legal: tuple[Action, ...], dtype: np.dtype[Any]
    ) -> npt.NDArray[Any]:
        if position.phase is not _PLAY:
            return self._masked(legal, dtype)
        out = np.zeros(self._t.size, dtype)
        out[self._ids_at(position, legal)] = 1
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (CompactActionSpace, (self.rules, self.players))

    def __repr__(self) -> str:
        return (
            f"<CompactActionSpace of {self.size} ids, version {self.version}, "
            f"{self.players} players>"
        )


def _table_of(position: Any) -> tuple[TableMeld, ...]:
    kind = type(position)
    if kind is not GameState and kind is not Observation:
        raise TypeError(
            f"position must be a GameState or an Observation, not {_checks.type_name(position)}"
        )
    table: tuple[TableMeld, ...] = position.table
    return table

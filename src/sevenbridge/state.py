"""The :class:`GameState` value and the :class:`Phase` of a deal."""

from __future__ import annotations

import enum
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import attrs

from . import _tables as T
from ._kit import checks as _checks
from ._kit import hooks as _hooks
from ._kit.history import History
from ._kit.outcome import Outcome
from .cards import CARDS, JOKER_INDEX, Card
from .melds import Meld, MeldKind
from .rules import Rules

__all__ = ["GameState", "History", "Outcome", "Phase", "TableView", "outcome", "seats"]


class Phase(str, enum.Enum):
    """Which decision the deal is waiting for."""

    CLAIM = "claim"
    """A discard may be claimed, and the asked player says pon or pass."""
    DRAW = "draw"
    """The player in turn draws from the stock, or claims the discard with a chi."""
    PLAY = "play"
    """The player in turn melds, lays off, and ends the turn with a discard."""
    OVER = "over"
    """The deal has ended (someone went out, or it was void)."""


# Read at every step of a loop (``while not state.is_over``): a module constant
# is cheaper than ``Phase.OVER``, a metaclass lookup on Python 3.11.
_OVER = Phase.OVER

#: Meld kinds by the engine's kind codes (_tables.SEVEN, SET, RUN).
KINDS = (MeldKind.SEVEN, MeldKind.SET, MeldKind.RUN)


class TableMeld(NamedTuple):
    """A meld on the table, in the engine's representation."""

    owner: int
    kind: int  # _tables.SEVEN, SET or RUN
    mask: int  # every card in it, the joker's bit included
    joker: int  # the card the joker stands for, or -1
    key: int  # the suit (run, seven) or the rank 0-12 (set)
    lo: int  # lowest run position, 1-14 (runs only)
    hi: int  # highest run position, 1-14 (runs only)
    ext: int  # natural cards that can be laid off onto it
    joker_options: tuple[int, ...]  # cards the joker could stand for if laid off


@lru_cache(maxsize=65536)
def table_meld(
    owner: int, kind: int, mask: int, joker: int, ace_high: bool, joker_lay_off: bool
) -> TableMeld:
    """Build (and cache) a table meld with its lay-off data."""
    naturals = mask & ~T.JOKER_BIT
    cards = T.bits(naturals)
    if kind == T.SEVEN:
        (seven,) = cards
        suit = seven // 13
        ext = (T.RANK_MASK[6] & ~mask) | (1 << (suit * 13 + 5)) | (1 << (suit * 13 + 7))
        return TableMeld(owner, kind, mask, joker, suit, 7, 7, ext, ())
    if kind == T.SET:
        rank = cards[0] % 13
        ext = T.RANK_MASK[rank] & ~mask
        options: tuple[int, ...] = ()
        if joker < 0 and joker_lay_off:
            present = {c // 13 for c in cards}
            suits = [s for s in range(4) if s not in present] or list(range(4))
            options = tuple(s * 13 + rank for s in suits)
        return TableMeld(owner, kind, mask, joker, rank, 0, 0, ext, options)
    suit = cards[0] // 13
    ranks = [c % 13 + 1 for c in cards]
    if joker >= 0:
        ranks.append(joker % 13 + 1)
    pos = sorted(ranks)
    if pos[-1] - pos[0] + 1 != len(pos):
        pos = sorted(14 if r == 1 else r for r in ranks)
    lo, hi = pos[0], pos[-1]
    top = 14 if ace_high else 13
    ends = []
    if lo > 1 and not (lo - 1 == 1 and hi == 14):
        ends.append(lo - 1)
    if hi < top and not (hi + 1 == 14 and lo == 1):
        ends.append(hi + 1)
    end_cards = [suit * 13 + (p - 1) % 13 for p in ends]
    ext = 0
    for c in end_cards:
        ext |= 1 << c
    options = tuple(end_cards) if joker < 0 and joker_lay_off else ()
    return TableMeld(owner, kind, mask, joker, suit, lo, hi, ext, options)


def meld_cards(tm: TableMeld) -> tuple[int, ...]:
    """The card indexes of a table meld in meld order (the joker at its place)."""
    if tm.kind == T.RUN:
        out = []
        for p in range(tm.lo, tm.hi + 1):
            c = tm.key * 13 + (p - 1) % 13
            out.append(JOKER_INDEX if c == tm.joker else c)
        return tuple(out)
    naturals = T.bits(tm.mask & ~T.JOKER_BIT)
    return tuple(naturals + ([JOKER_INDEX] if tm.joker >= 0 else []))


def public_meld(tm: TableMeld) -> Meld:
    """The :class:`Meld` value of a table meld."""
    return Meld(
        KINDS[tm.kind],
        tuple(CARDS[c] for c in meld_cards(tm)),
        None if tm.joker < 0 else CARDS[tm.joker],
        tm.owner,
    )


def _hand_cards(mask: int) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in T.bits(mask))


class TableView:
    """What a full state and a player's view share: the public table.

    Subclasses have the fields ``phase``, ``discard_cards``, ``table`` and
    ``move_log``.
    """

    __slots__ = ()
    phase: Phase
    discard_cards: tuple[int, ...]
    table: tuple[TableMeld, ...]
    move_log: History | None

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.phase is _OVER

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, top card last."""
        return tuple(CARDS[c] for c in self.discard_cards)

    @property
    def top_discard(self) -> Card | None:
        """The top card of the discard pile, if any."""
        return CARDS[self.discard_cards[-1]] if self.discard_cards else None

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The melds on the table, in the order laid, each with its ``owner``."""
        return tuple(public_meld(tm) for tm in self.table)

    @property
    def history(self) -> tuple[Any, ...]:
        """Every action since the deal, oldest first (public, so a draw does not show
        the card drawn). It is not part of a state's equality."""
        return () if self.move_log is None else self.move_log.actions()

    def __str__(self) -> str:
        return str(_hooks.call("render", self))

    def _repr_svg_(self) -> str:
        """The table drawn as SVG (:func:`sevenbridge.svg.table`), for notebooks."""
        return str(_hooks.call("repr_svg", self))

    def _repr_html_(self) -> str:
        """The table drawn inline in HTML, its title and description kept, for notebooks."""
        return str(_hooks.call("repr_html", self))


# Not slotted: the engine builds a new state by copying the old one's field
# dictionary in one call and changing a few entries (see engine._fields).
@attrs.frozen(repr=False, cache_hash=True, slots=False)
class GameState(TableView):
    """One position of a deal: a frozen value, hashable and equal by value.

    Build one with :func:`sevenbridge.deal`; move on with
    :func:`sevenbridge.apply`. The public properties give cards as
    :class:`Card` values; the ``*_mask`` and ``*_cards`` fields hold the same
    information as bitmasks and card indexes for fast code.

    >>> from sevenbridge import deal
    >>> state = deal(seed=7)
    >>> state.phase, state.current_player, [len(h) for h in state.hands]
    (<Phase.DRAW: 'draw'>, 1, [7, 7, 7])
    """

    rules: Rules
    players: int
    dealer: int
    phase: Phase
    current_player: int | None
    """Who must act now; ``None`` once the deal is over."""
    hand_masks: tuple[int, ...]
    """Each player's hand as a bitmask of card indexes."""
    stock_cards: tuple[int, ...]
    """The stock as card indexes, top card first."""
    discard_cards: tuple[int, ...]
    """The discard pile as card indexes, top card last."""
    table: tuple[TableMeld, ...]
    meld_owners: int
    """Bitmask of players who own a meld on the table."""
    played: int
    """Bitmask of players who have put any card on the table (meld or lay-off)."""
    normal_turns: int
    """Bitmask of players who have had a normal turn (drew from the stock, discarded)."""
    turns_done: int
    """Turns completed in this deal (each ended with a discard)."""
    discarder: int
    """Who threw the top discard (a player, or -1 for the upcard)."""
    claim_queue: tuple[int, ...]
    """Players still to be asked in the claim window, after the current one."""
    pending_pon: tuple[int, int, int] | None
    """A pon waiting for the window to close, as (player, hand cards mask, joker card or -1)."""
    turn_clean: bool
    """Whether the player in turn had put no card on the table before this turn
    (false between turns)."""
    turn_by_claim: bool
    """Whether the turn in progress began with a chi or pon (false between turns)."""
    reshuffles: int
    reshuffled: int
    """The cards the last reshuffle put in the stock, as a bitmask (0 before any
    reshuffle): public, since everyone saw the discard pile turned over. The
    stock holds only such cards until the deal ends."""
    seed: int
    """The deal's seed (drives reshuffles); hidden from players."""
    winner: int | None
    """Who went out; ``None`` while playing and for a void deal."""
    deal_scores: tuple[int, ...] | None
    """What each player gets from this deal under the rules' scoring; ``None`` until it ends."""
    bonus: bool
    """Whether the winner went out at once and earned the bonus."""
    end_reason: str | None
    """Why the deal ended, in plain words."""
    move_log: History | None = attrs.field(eq=False)
    """The actions so far (not part of equality); ``history`` gives them as a tuple."""
    _legal: Any = attrs.field(default=None, eq=False, init=False, repr=False)

    # Read at every step of a loop (``while not state.is_over``): kept in the
    # state's dictionary after the first read, where an attribute lookup finds
    # it without a call (the property it overrides runs a Python function each
    # time). The engine copies the entry to the next state and sets it when the
    # deal ends (engine._fields.OVER_KEY).
    @cached_property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.phase is _OVER

    # --- public views ----------------------------------------------------------------
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each player's cards, in display order."""
        return tuple(_hand_cards(m) for m in self.hand_masks)

    def hand(self, player: int) -> tuple[Card, ...]:
        """One player's cards, in display order.

        Raises:
            InvalidArgumentError: if ``player`` is not a seat of the deal.
        """
        return _hand_cards(self.hand_masks[_checks.seat(player, self.players)])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top card first."""
        return tuple(CARDS[c] for c in self.stock_cards)

    @property
    def stock_size(self) -> int:
        """How many cards are left in the stock."""
        return len(self.stock_cards)

    def to_json(self, *, indent: int | None = None) -> str:
        """The state as a JSON document (cards as text such as ``"7H"``), with a
        format version; :meth:`from_json` reads it back to an equal state."""
        return str(_hooks.call("state_to_json", self, indent=indent))

    @classmethod
    def from_json(cls, text: str | bytes, *, verify: bool = False) -> GameState:
        """Read a state written by :meth:`to_json`, checking everything.

        Args:
            text: The document.
            verify: Also replay the history from the document's seed and
                refuse the document unless the replay reaches exactly this
                position (cards swapped between hands, a reordered stock or a
                made-up history are found). Before that, what the history
                shows of the hidden cards is checked, so that the error says
                why no deal could lead to the position: a hand holding cards
                of a reshuffled stock it never drew, or a claim window that
                would have gone otherwise with these hands (under
                ``claim_window='able_only'``, a player asked who cannot pon or
                one passed over who can; under the joker-holder tie-break, a
                pon that waited although its caller held the joker, or one
                taken at once without it). This costs one :func:`apply` per
                action of the history (a whole deal takes a few milliseconds).

        Raises:
            InvalidStateError: saying what is wrong and where, for a document
                that is not well-formed, has unknown or missing fields, unreal
                cards, a card twice, a position the rules cannot reach (such
                as a player asked in an ``able_only`` window who cannot pon,
                or a waiting pon whose caller holds the joker), or a history
                that does not fit the turn counters (or, with ``verify``, does
                not lead to the position from the seed).
        """
        state: GameState = _hooks.call("state_from_json", text, verify=verify)
        return state

    def __repr__(self) -> str:
        who = "over" if self.current_player is None else f"player {self.current_player}"
        return (
            f"<GameState {self.phase.value}, {who}, {self.players} players, "
            f"stock {self.stock_size}, {len(self.table)} melds>"
        )


def seats(state: GameState) -> tuple[int, ...]:
    """The seats of a deal's players, in order: every seat, since the card
    game has no empty ones (the game protocol's question; a Simple Mahjong
    table with ghosts leaves theirs out).

    >>> from sevenbridge import deal
    >>> seats(deal(players=4, seed=1))
    (0, 1, 2, 3)
    """
    if not isinstance(state, GameState):
        raise TypeError(f"seats needs a GameState, not {type(state).__name__}")
    return tuple(range(state.players))


def outcome(state: GameState) -> Outcome | None:
    """How a finished deal ended: each player's score, who went out (``None``
    for a void deal) and why, in words; ``None`` while the deal is in play.

    >>> from sevenbridge import deal, apply, legal_actions
    >>> state = deal(seed=1)
    >>> outcome(state) is None
    True
    >>> while not state.is_over:
    ...     state = apply(state, legal_actions(state)[0])
    >>> outcome(state)
    Outcome(scores=(...), winner=..., reason='...')
    """
    if not isinstance(state, GameState):
        raise TypeError(f"outcome needs a GameState, not {type(state).__name__}")
    if not state.is_over:
        return None
    scores = state.deal_scores if state.deal_scores is not None else (0,) * state.players
    return Outcome(scores=tuple(scores), winner=state.winner, reason=state.end_reason or "")

"""The :class:`Rules` configuration: every documented variant as a typed field.

A :class:`Rules` value is frozen and compares by value. Presets gather the
options of each rule book; every field can then be changed with
:meth:`Rules.replace` (or :func:`attrs.evolve`).

>>> from sevenbridge import Rules
>>> Rules() == Rules.standard()
True
>>> Rules.preset("nintendo").jokers
1
>>> Rules(ace_high=True).ace_high
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from ._kit import checks as _checks
from ._kit import hooks as _hooks
from ._kit.presets import check_bool as _check_bool
from ._kit.presets import convert as _convert
from ._kit.presets import find_preset, rules_html
from ._kit.presets import int_field as _int_field
from ._kit.presets import optional_int_field as _optional_int_field
from .errors import Message, RulesConfigError, quote

__all__ = [
    "CardValues",
    "ClaimTiming",
    "ClaimWindow",
    "FirstDealer",
    "FirstPlayer",
    "PonTieBreak",
    "Rules",
    "Scoring",
    "StockExhaustion",
    "check_table",
]


class FirstPlayer(str, enum.Enum):
    """Who plays first in a deal."""

    LEFT_OF_DEALER = "left_of_dealer"
    """The player on the dealer's left (pagat, Denexa)."""
    DEALER = "dealer"
    """The dealer (the Nintendo rule sheet)."""


class FirstDealer(str, enum.Enum):
    """How the first dealer of a match is chosen."""

    CHOSEN = "chosen"
    """Anyone; the caller names the dealer (player 0 unless told otherwise)."""
    LOWEST_CUT = "lowest_cut"
    """Every player cuts a card and the lowest (Ace low) deals; ties cut again."""


class ClaimTiming(str, enum.Enum):
    """From when in a deal a player may claim a discard (per claim type)."""

    AFTER_OWN_TURN = "after_own_turn"
    """Only after the player has had one normal turn (drew from the stock, then discarded)."""
    AFTER_FIRST_ROUND = "after_first_round"
    """Only once the first round is over, that is once as many turns completed as there are players."""
    ANY_TIME = "any_time"
    """From the first discard of the deal."""


class PonTieBreak(str, enum.Enum):
    """Who wins when several players pon the same discard."""

    NEAREST_LEFT = "nearest_left"
    """The claimant nearest to the discarder's left."""
    JOKER_HOLDER = "joker_holder"
    """The claimant holding the joker; otherwise the nearest to the discarder's left."""


class ClaimWindow(str, enum.Enum):
    """Which players the engine asks, after a discard, whether they pon."""

    EVERY_ELIGIBLE = "every_eligible"
    """Every player the rules allow to claim now, whatever they hold, so a question
    reveals nothing about anybody's cards (a player who cannot pon simply passes)."""
    ABLE_ONLY = "able_only"
    """Only players who hold the cards for a pon. Fewer decisions, but being asked
    tells the other players that you hold a pon."""


class Scoring(str, enum.Enum):
    """How a finished deal is scored."""

    WINNER_SCORES = "winner_scores"
    """The winner scores the sum of the losers' hand points; highest total wins."""
    PENALTY = "penalty"
    """Each loser takes their hand points as penalty points; lowest total wins."""


class CardValues(str, enum.Enum):
    """What each card left in hand counts."""

    STANDARD = "standard"
    """A 1, J/Q/K 10, 7 20, other cards their face value."""
    ALTERNATE_ACE_11 = "alternate_ace_11"
    """A 11, J/Q/K 10, others face value; each 7 counts 7 and doubles the hand."""
    ALTERNATE_ACE_15 = "alternate_ace_15"
    """A 15, J/Q/K 10, others face value; each 7 counts 7 and doubles the hand."""
    NINTENDO = "nintendo"
    """A/J/Q/K 10, 2-10 face value; each 7 counts 7 and doubles the hand."""


class StockExhaustion(str, enum.Enum):
    """What happens when a player must draw and the stock is empty."""

    RESHUFFLE = "reshuffle"
    """The discard pile, less its top card, is shuffled into a new stock."""
    VOID = "void"
    """The deal ends with no winner and no score."""


def _to_first_player(value: Any) -> FirstPlayer:
    return _convert(FirstPlayer, value)


def _to_first_dealer(value: Any) -> FirstDealer:
    return _convert(FirstDealer, value)


def _to_claim_timing(value: Any) -> ClaimTiming:
    return _convert(ClaimTiming, value)


def _to_pon_tie_break(value: Any) -> PonTieBreak:
    return _convert(PonTieBreak, value)


def _to_claim_window(value: Any) -> ClaimWindow:
    return _convert(ClaimWindow, value)


def _to_scoring(value: Any) -> Scoring:
    return _convert(Scoring, value)


def _to_card_values(value: Any) -> CardValues:
    return _convert(CardValues, value)


def _to_stock_exhaustion(value: Any) -> StockExhaustion:
    return _convert(StockExhaustion, value)


#: Upper bounds of the numeric options. They keep every position and score
#: within what the JSON documents accept: a deal's length grows with
#: ``reshuffle_limit``, a hand's count with ``joker_multiplier``.
MAX_JOKER_MULTIPLIER = 100
MAX_RESHUFFLE_LIMIT = 100
MAX_DEALS = 1000
MAX_TARGET_SCORE = 10**6


@attrs.frozen(kw_only=True)
class Rules:
    """Every rule option of Seven Bridge, with the standard (pagat) rules as defaults.

    Sources are named as in the project's rules page: *pagat* (the main English
    description), *Taylor* (a second English description), *Nintendo* (the rule
    sheet from Nintendo's playing cards, via a Japanese page) and *Denexa*
    ("Seven Rummy").

    Raises:
        RulesConfigError: if a field has the wrong type or options clash.

    >>> Rules(jokers=2)
    Traceback (most recent call last):
    ...
    sevenbridge.errors.RulesConfigError: Rules.jokers must be 0 to 1, not 2
    """

    # --- components and deal -------------------------------------------------
    jokers: int = _int_field(0, 0, 1)
    """Jokers in the deck, 0 (52 cards) or 1 (53 cards). pagat's "joker's wild"
    option; the Nintendo rules always play with one. The joker is wild in sets and
    runs of three or more cards, and counts against a hand that holds it."""

    ace_high: bool = attrs.field(default=False, validator=_check_bool)
    """Whether an Ace may also follow the King (Q-K-A). Ace is low by default in
    pagat, Taylor and Denexa; high or low is a pagat option and the Nintendo rule.
    K-A-2 is never a run."""

    upcard: bool = attrs.field(default=True, validator=_check_bool)
    """Whether the card after the deal is turned up to start the discard pile
    (pagat, Taylor, Denexa). The Nintendo sheet mentions none."""

    first_player: FirstPlayer = attrs.field(
        default=FirstPlayer.LEFT_OF_DEALER, converter=_to_first_player
    )
    """Who plays first, left of the dealer (pagat, Denexa) or the dealer (Nintendo)."""

    first_dealer: FirstDealer = attrs.field(default=FirstDealer.CHOSEN, converter=_to_first_dealer)
    """How a match picks its first dealer, either anyone (pagat, Nintendo) or the
    lowest card cut (Taylor). The deal passes left after each deal in every source."""

    # --- melds and laying off --------------------------------------------------
    joker_lay_off: bool = attrs.field(default=True, validator=_check_bool)
    """Whether the joker may be laid off onto a meld on the table (a gap in the
    sources: allowed by default). It then stands for a card the meld can take, of
    the player's choosing, and stays there for the rest of the deal."""

    lay_off_needs_own_meld: bool = attrs.field(default=True, validator=_check_bool)
    """Whether laying off needs a meld of your own on the table (one laid in the
    same turn counts): pagat and Nintendo. Denexa states no such condition."""

    final_discard: bool = attrs.field(default=True, validator=_check_bool)
    """Whether going out needs a final discard (pagat, Denexa). pagat's option
    "no final discard" lets a player go out by melding their last card. While a
    final discard is needed, a play that would leave no card to discard is illegal."""

    # --- claiming discards -------------------------------------------------------
    claim_min_hand_cards: int = _int_field(2, 1, 2)
    """Fewest cards from the hand that a chi or pon must use with the claimed card:
    2 (pagat, Taylor) or 1 (Denexa, so 6-7 by chi or 7-7 by pon)."""

    chi_timing: ClaimTiming = attrs.field(
        default=ClaimTiming.AFTER_OWN_TURN, converter=_to_claim_timing
    )
    """From when a player may chi, either after a normal turn of their own (pagat,
    Taylor, Denexa) or after the first round (Nintendo)."""

    pon_timing: ClaimTiming = attrs.field(
        default=ClaimTiming.AFTER_OWN_TURN, converter=_to_claim_timing
    )
    """From when a player may pon, either after a normal turn of their own (pagat,
    Taylor, Denexa) or at any time (Nintendo states no limit)."""

    upcard_claimable: bool = attrs.field(default=True, validator=_check_bool)
    """Whether the upcard may be claimed at all (a gap in the sources). By default
    the claim timing decides, as for any discard: under the standard rules nobody
    has had a turn yet, so it cannot be. The upcard has no discarder, so anyone
    may pon it and the first player may chi it."""

    pon_tie_break: PonTieBreak = attrs.field(
        default=PonTieBreak.NEAREST_LEFT, converter=_to_pon_tie_break
    )
    """Who wins when several players pon one discard, either the nearest to the
    discarder's left (Taylor) or the joker's holder (Nintendo). Pon always beats
    chi (every source)."""

    claim_window: ClaimWindow = attrs.field(
        default=ClaimWindow.EVERY_ELIGIBLE, converter=_to_claim_window
    )
    """Which players the engine asks "pon or pass?" after each discard (an engine
    choice the sources leave open; see the rules page)."""

    # --- scoring -----------------------------------------------------------------------
    scoring: Scoring = attrs.field(default=Scoring.WINNER_SCORES, converter=_to_scoring)
    """Winner scores the losers' points (pagat, Taylor, Denexa) or every loser
    takes penalty points (Nintendo)."""

    card_values: CardValues = attrs.field(default=CardValues.STANDARD, converter=_to_card_values)
    """What cards left in hand count, either standard (pagat, Taylor, Denexa), pagat's
    alternate values (Ace 11 or 15, a 7 counts 7 and doubles the hand), or the
    Nintendo values (A/J/Q/K 10, a 7 doubles the hand)."""

    joker_multiplier: int = _int_field(5, 1, MAX_JOKER_MULTIPLIER)
    """A joker left in hand counts nothing itself but multiplies the hand's count
    by this (5 in pagat's option and in Nintendo; 1 turns it off). 1 to 100."""

    going_out_bonus: bool = attrs.field(default=True, validator=_check_bool)
    """Whether going out in one turn with no meld on the table before it is
    rewarded: the deal's score is doubled (winner scores), or the winner gets 50
    penalty points off (Nintendo)."""

    going_out_bonus_after_claim: bool = attrs.field(default=True, validator=_check_bool)
    """Whether that bonus also counts when the winning turn began with a chi or
    pon (a gap in the sources: yes by default, since the player still had no meld
    before that turn)."""

    # --- end of the stock and of the match -----------------------------------------
    stock_exhaustion: StockExhaustion = attrs.field(
        default=StockExhaustion.RESHUFFLE, converter=_to_stock_exhaustion
    )
    """When a player must draw from an empty stock, either the discards less the top
    card are reshuffled into a new stock (Japanese rule books, pagat), or the
    deal is void."""

    reshuffle_limit: int = _int_field(3, 0, MAX_RESHUFFLE_LIMIT)
    """How many reshuffles a deal may have; when the stock runs out once more,
    the deal ends void. This bound makes every deal end. 0 to 100."""

    deals: int | None = _optional_int_field(1, MAX_DEALS)
    """Deals in a match, 1 to 1000; ``None`` means one deal per player (Taylor)."""

    target_score: int | None = _optional_int_field(1, MAX_TARGET_SCORE)
    """If set, a match also ends after the deal in which a player's total reaches
    this score (Nintendo, Denexa). 1 to 1,000,000."""

    play_off_ties: bool = attrs.field(default=True, validator=_check_bool)
    """Whether a match that ends level at the top goes on, deal by deal, until
    the tie is broken (Taylor)."""

    _PRESETS: ClassVar[dict[str, Callable[[], Rules]]]
    _ALIASES: ClassVar[dict[str, str]]

    def __attrs_post_init__(self) -> None:
        if self.pon_tie_break is PonTieBreak.JOKER_HOLDER and self.jokers == 0:
            raise RulesConfigError(
                Message(
                    "rules_config.pon_tie_break_joker",
                    "pon_tie_break='joker_holder' needs a joker in the deck (jokers=1)",
                )
            )

    # --- presets ---------------------------------------------------------------------------
    @classmethod
    def standard(cls) -> Rules:
        """pagat's main rules; the same as ``Rules()``.

        52 cards, Ace low, an upcard, left of the dealer plays first, a final
        discard, laying off only after an own meld, claims with two or more hand
        cards after a first normal turn, pon over chi, nearest-left tie-break,
        winner scores with the going-out-at-once double.

        >>> Rules.standard().claim_min_hand_cards
        2
        """
        return cls()

    @classmethod
    def seven_rummy(cls) -> Rules:
        """Denexa's "Seven Rummy": as standard, but a claim needs only one hand card
        and laying off needs no meld of your own.

        >>> r = Rules.seven_rummy()
        >>> r.claim_min_hand_cards, r.lay_off_needs_own_meld
        (1, False)
        """
        return cls(claim_min_hand_cards=1, lay_off_needs_own_meld=False)

    @classmethod
    def nintendo(cls) -> Rules:
        """The rules sheet of Nintendo's playing cards.

        53 cards with a joker, Ace high or low, no upcard, the dealer plays first,
        laying off only after an own meld, penalty points with the 50-point bonus,
        the joker's holder wins a tie between pons, pon from the first discard, chi
        only after the first round.

        >>> r = Rules.nintendo()
        >>> r.scoring.value, r.first_player.value
        ('penalty', 'dealer')
        """
        return cls(
            jokers=1,
            ace_high=True,
            upcard=False,
            first_player=FirstPlayer.DEALER,
            pon_tie_break=PonTieBreak.JOKER_HOLDER,
            pon_timing=ClaimTiming.ANY_TIME,
            chi_timing=ClaimTiming.AFTER_FIRST_ROUND,
            scoring=Scoring.PENALTY,
            card_values=CardValues.NINTENDO,
        )

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset of that name (or alias), such as ``"nintendo"``.

        Raises:
            RulesConfigError: for an unknown name, listing the known ones.

        >>> Rules.preset("seven-rummy") == Rules.seven_rummy()
        True
        >>> Rules.preset("bridge")
        Traceback (most recent call last):
        ...
        sevenbridge.errors.RulesConfigError: no preset named 'bridge'; known: nintendo, seven_rummy, standard
        """
        return find_preset(cls._PRESETS, cls._ALIASES, name)()

    @classmethod
    def presets(cls) -> tuple[str, ...]:
        """The preset names, sorted.

        >>> Rules.presets()
        ('nintendo', 'seven_rummy', 'standard')
        """
        return tuple(sorted(cls._PRESETS))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like a new value).

        >>> Rules.nintendo().replace(ace_high=False).ace_high
        False
        """
        return attrs.evolve(self, **changes)

    def changes(self, base: Rules | None = None) -> dict[str, Any]:
        """The fields that differ from ``base`` (the standard rules by default).

        Raises:
            TypeError: if ``base`` is not a Rules value.

        >>> Rules(final_discard=False).changes()
        {'final_discard': False}
        """
        base = Rules() if base is None else require_rules(base, "base")
        return {
            f.name: getattr(self, f.name)
            for f in attrs.fields(Rules)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    def _repr_html_(self) -> str:
        """The options as a table, for notebooks: the preset these rules are, or
        the nearest one with the options that differ from it in bold."""
        return rules_html(self, self._PRESETS, "Seven Bridge")

    def to_json(self, *, indent: int | None = None) -> str:
        """The rules as a JSON document with every field.

        >>> Rules.from_json(Rules.nintendo().to_json()) == Rules.nintendo()
        True
        """
        return str(_hooks.call("rules_to_json", self, indent=indent))

    @classmethod
    def from_json(cls, text: str | bytes) -> Rules:
        """Read rules written by :meth:`to_json`.

        Raises:
            InvalidStateError: for a malformed document, a missing or unknown
                field, or options that do not fit together.
        """
        rules: Rules = _hooks.call("rules_from_json", text)
        return rules

    @property
    def deck_size(self) -> int:
        """52, or 53 with the joker."""
        return 52 + self.jokers


Rules._PRESETS = {
    "standard": Rules.standard,
    "seven_rummy": Rules.seven_rummy,
    "nintendo": Rules.nintendo,
}
Rules._ALIASES = {
    "default": "standard",
    "pagat": "standard",
    "seven_bridge": "standard",
    "denexa": "seven_rummy",
    "sevenrummy": "seven_rummy",
}


def require_rules(value: object, name: str = "rules") -> Rules:
    """``value`` if it is a :class:`Rules`, else a TypeError that names ``name``
    (and suggests ``Rules.preset`` for a preset's name)."""
    if isinstance(value, Rules):
        return value
    hint = ""
    if isinstance(value, str):
        hint = f"; for a preset write Rules.preset({quote(value)})"
    kind = "None" if value is None else type(value).__name__
    raise TypeError(f"{name} must be a Rules value, not {kind}{hint}")


def check_table(rules: Rules | None, players: int) -> tuple[Rules, int]:
    """The rules (``None``: the default :class:`Rules`) and the table size of a
    deal, checked as :func:`~sevenbridge.deal` checks them: the game protocol's
    question (:class:`~sevenbridge.games.GameModule`), asked by a tournament
    before it deals.

    >>> check_table(None, 4)[1]
    4

    Raises:
        TypeError: for rules that are not a :class:`Rules` value, or a table
            size that is not an int.
        InvalidArgumentError: for a table size other than 2 to 5.
    """
    return (Rules() if rules is None else require_rules(rules)), _checks.players(players)

"""The mahjong :class:`Rules`: every option of Simple Mahjong as a typed field.

The defaults are the plain game of the rule source, with the choices real
tables make where it is silent. Presets gather common tables; any field can
then be changed with :meth:`Rules.replace`.

>>> from sevenbridge.mahjong import Rules
>>> Rules() == Rules.standard()
True
>>> Rules.preset("full").kong
True
>>> Rules(rounds=8).rounds
8
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from .._kit import hooks as _hooks
from .._kit.presets import check_bool as _check_bool
from .._kit.presets import convert as _convert
from .._kit.presets import find_preset, rules_html
from .._kit.presets import int_field as _int_field
from ..errors import quote

__all__ = ["ClaimWindow", "DealerRotation", "Rules", "SelfDrawWin"]


class SelfDrawWin(str, enum.Enum):
    """What happens when a draw from the wall completes a player's hand."""

    DECLARED = "declared"
    """The player declares it with a :class:`~sevenbridge.mahjong.Mahjong`
    action (or, when :attr:`Rules.may_decline_win` allows, discards instead):
    what real tables do."""
    AUTOMATIC = "automatic"
    """The round ends at once with that player's win (the rule source's literal
    wording)."""


class DealerRotation(str, enum.Enum):
    """Who deals the next round of a match."""

    EVERY_ROUND = "every_round"
    """The deal passes to the next player after every round (the rule source)."""
    DEALER_KEEPS_ON_WIN = "dealer_keeps_on_win"
    """The dealer deals again after winning a round (many Chinese tables)."""


class ClaimWindow(str, enum.Enum):
    """Which players the engine asks about a discard (the names are the card
    game's :class:`sevenbridge.rules.ClaimWindow`)."""

    EVERY_ELIGIBLE = "every_eligible"
    """Every other real player, in seat order from the discarder, whatever they
    hold (a player who cannot claim simply passes), so being asked, and the order
    of the questions, reveal nothing about anybody's tiles."""
    ABLE_ONLY = "able_only"
    """Only the players who could claim the discard, and only while their claim
    could still beat the best one made: fewer decisions and faster play, but
    every view then shows who holds a pair of the discard, the tiles for a chow,
    or waits on it -- a leak of hidden information traded for speed."""


def _to_claim_window(value: Any) -> ClaimWindow:
    return _convert(ClaimWindow, value)


def _to_self_draw_win(value: Any) -> SelfDrawWin:
    return _convert(SelfDrawWin, value)


def _to_dealer_rotation(value: Any) -> DealerRotation:
    return _convert(DealerRotation, value)


#: Most rounds a match may have, and most tiles a wall may keep back.
MAX_ROUNDS = 1000
MAX_RESERVE = 20


@attrs.frozen(kw_only=True)
class Rules:
    """Every rule option of Simple Mahjong; the defaults are the plain game.

    Raises:
        RulesConfigError: if a field has the wrong type or is out of range.

    >>> Rules(rounds=0)
    Traceback (most recent call last):
    ...
    sevenbridge.errors.RulesConfigError: Rules.rounds must be 1 to 1000, not 0
    """

    # --- tiles ------------------------------------------------------------------
    flowers: bool = attrs.field(default=False, validator=_check_bool)
    """Whether the four flowers (``1f``-``4f``) are in the wall. A bonus tile is
    set aside face up as soon as it is dealt or drawn, and replaced by a tile from
    the back of the wall."""

    seasons: bool = attrs.field(default=False, validator=_check_bool)
    """Whether the four seasons (``5f``-``8f``) are in the wall; handled like flowers."""

    # --- sets ----------------------------------------------------------------------
    kong: bool = attrs.field(default=False, validator=_check_bool)
    """Whether kongs (four identical tiles) may be made. A kong counts as one set;
    whoever makes one takes a replacement tile from the back of the wall before
    discarding. A kong is made by claiming a discard with three in hand, or on
    one's own turn from the hand: four concealed tiles, or a fourth tile added to
    one's own claimed pung. Nobody may rob a kong, and no kong is made when the
    wall has no tile left for the replacement (beyond the reserve)."""

    # --- winning ---------------------------------------------------------------------
    self_draw_win: SelfDrawWin = attrs.field(
        default=SelfDrawWin.DECLARED, converter=_to_self_draw_win
    )
    """Whether a hand completed by a draw from the wall must be declared (real
    tables) or ends the round at once (the source's wording)."""

    may_decline_win: bool = attrs.field(default=True, validator=_check_bool)
    """Whether a player may pass up a win, on a discard or (when declared) on a
    draw, hoping for a better hand: allowed at real tables. When not, a player who
    can win must."""

    # --- claims ----------------------------------------------------------------------
    claim_window: ClaimWindow = attrs.field(
        default=ClaimWindow.EVERY_ELIGIBLE, converter=_to_claim_window
    )
    """Who is asked about each discard. By default every other real player, in
    a fixed order, so the questions reveal nothing; with ``"able_only"`` only
    those able to claim it (quicker, but it leaks who can claim). Ghosts are
    never asked."""

    # --- scoring -------------------------------------------------------------------
    dragon_pung_bonus: bool = attrs.field(default=False, validator=_check_bool)
    """Whether a winning hand scores one more point for each pung or kong of dragons."""

    concealed_bonus: bool = attrs.field(default=False, validator=_check_bool)
    """Whether a mahjong made without claiming any discard (every tile drawn from
    the wall, the last one too) scores one more point."""

    # --- players -------------------------------------------------------------------
    ghosts: bool = attrs.field(default=False, validator=_check_bool)
    """Whether a table of two or three players fills the empty seats with ghosts:
    a ghost draws and discards a random tile on its turn, never claims and never
    wins. With two players the ghosts sit between them (seats 1 and 3); with three,
    one ghost sits at seat 3, between the last player and the first."""

    ghost_discards_claimable: bool = attrs.field(default=True, validator=_check_bool)
    """Whether a ghost's discard may be claimed like any other (yes by default:
    it is an ordinary discard on the table)."""

    # --- the wall, and the match -----------------------------------------------------
    reserve: int = _int_field(0, 0, MAX_RESERVE)
    """Tiles at the end of the wall that are never drawn. A round in which a
    player must draw while only these remain ends drawn: nobody scores. 0 (the
    whole wall is played) to 20; some tables keep back 14."""

    rounds: int = _int_field(16, 1, MAX_ROUNDS)
    """Rounds in a match, 16 by tradition (1 to 1000)."""

    dealer_rotation: DealerRotation = attrs.field(
        default=DealerRotation.EVERY_ROUND, converter=_to_dealer_rotation
    )
    """Whether the deal passes on after every round, or stays with a winning dealer."""

    _PRESETS: ClassVar[dict[str, Callable[[], Rules]]]
    _ALIASES: ClassVar[dict[str, str]]

    @classmethod
    def standard(cls) -> Rules:
        """The plain game with real tables' choices: 136 tiles, no kongs, a
        self-drawn win is declared and may be declined, one point a win.

        >>> Rules.standard().kong
        False
        """
        return cls()

    @classmethod
    def literal(cls) -> Rules:
        """The rule source read word for word: a self-drawn mahjong ends the round
        at once, and ghosts fill a table of two or three.

        >>> Rules.literal().self_draw_win.value
        'automatic'
        """
        return cls(self_draw_win=SelfDrawWin.AUTOMATIC, ghosts=True)

    @classmethod
    def full(cls) -> Rules:
        """Every option of the source: kongs, flowers and seasons (144 tiles), both
        bonus points, and ghosts.

        >>> Rules.full().wall_size
        144
        """
        return cls(
            kong=True,
            flowers=True,
            seasons=True,
            dragon_pung_bonus=True,
            concealed_bonus=True,
            ghosts=True,
        )

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset of that name (or alias).

        Raises:
            RulesConfigError: for an unknown name, listing the known ones.

        >>> Rules.preset("source") == Rules.literal()
        True
        """
        return find_preset(cls._PRESETS, cls._ALIASES, name)()

    @classmethod
    def presets(cls) -> tuple[str, ...]:
        """The preset names, sorted.

        >>> Rules.presets()
        ('full', 'literal', 'standard')
        """
        return tuple(sorted(cls._PRESETS))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like a new value).

        >>> Rules().replace(kong=True).kong
        True
        """
        return attrs.evolve(self, **changes)

    def changes(self, base: Rules | None = None) -> dict[str, Any]:
        """The fields that differ from ``base`` (the standard rules by default).

        Raises:
            TypeError: if ``base`` is not a Rules value.

        >>> Rules(kong=True).changes()
        {'kong': True}
        """
        base = Rules() if base is None else require_rules(base, "base")
        return {
            f.name: getattr(self, f.name)
            for f in attrs.fields(Rules)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    @property
    def wall_size(self) -> int:
        """136 tiles, plus 4 with flowers and 4 with seasons."""
        return 136 + 4 * self.flowers + 4 * self.seasons

    def _repr_html_(self) -> str:
        """The options as a table, for notebooks: the preset these rules are, or
        the nearest one with the options that differ from it in bold."""
        return rules_html(self, self._PRESETS, "Simple Mahjong")

    def to_json(self, *, indent: int | None = None) -> str:
        """The rules as a JSON document with every field.

        >>> Rules.from_json(Rules.full().to_json()) == Rules.full()
        True
        """
        return str(_hooks.call("mahjong_rules_to_json", self, indent=indent))

    @classmethod
    def from_json(cls, text: str | bytes) -> Rules:
        """Read rules written by :meth:`to_json`.

        Raises:
            InvalidStateError: for a malformed document, or a missing or unknown field.
        """
        rules: Rules = _hooks.call("mahjong_rules_from_json", text)
        return rules


Rules._PRESETS = {"standard": Rules.standard, "literal": Rules.literal, "full": Rules.full}
Rules._ALIASES = {"default": "standard", "simple": "standard", "source": "literal", "all": "full"}


def require_rules(value: object, name: str = "rules") -> Rules:
    """``value`` if it is a mahjong :class:`Rules`, else a TypeError naming ``name``."""
    if isinstance(value, Rules):
        return value
    kind = "None" if value is None else type(value).__name__
    hint = ""
    if kind == "Rules":
        hint = " (that is Seven Bridge's Rules; use sevenbridge.mahjong.Rules)"
    elif isinstance(value, str):
        hint = f"; for a preset write Rules.preset({quote(value)})"
    raise TypeError(f"{name} must be a mahjong Rules value, not {kind}{hint}")

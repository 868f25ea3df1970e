"""A turn's transitions: drawing from the wall (bonus tiles set aside and
replaced), the discard, a kong from the hand and its replacement tile, a win
on one's own draw, and the wall running out (compiled in the compiled build).

Each works in place on a field dictionary (see ``_fields``); the claim window
a discard opens, and the turn that follows it, are
:mod:`~sevenbridge.mahjong.claims`'.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Final

from ._fields import (
    ASKING,
    BONUS,
    CLAIMS,
    CURRENT,
    DISCARDS,
    DREW,
    GHOSTS,
    HANDS,
    LAST_DISCARD,
    LAST_DRAWN,
    MELDS,
    OVER,
    PHASE,
    PLAY,
    RULES,
    SELF_DRAWN,
    TURN,
    WALL,
    WINNER,
    hand_keys,
    set_hand,
)
from ._tables import WEIGHT, key_wins
from .hands import Meld, MeldKind
from .rules import Rules, SelfDrawWin
from .tiles import N_KINDS, Tile

__all__ = [
    "can_draw", "discard", "draw", "drawn_out", "kong_from_hand", "meld", "replacement", "take",
    "win_on_draw", "with_tile", "without",
]  # fmt: skip

_AUTOMATIC: Final = SelfDrawWin.AUTOMATIC
_PUNG_MELD: Final = MeldKind.PUNG
_KONG_MELD: Final = MeldKind.KONG
_CHOW_MELD: Final = MeldKind.CHOW


def can_draw(wall: int, rules: Rules) -> bool:
    """Whether a wall of ``wall`` tiles still has one to draw (beyond the
    reserve): a turn starts with a draw, and a kong needs a replacement, only then."""
    return wall > rules.reserve


def without(hand: tuple[Tile, ...], tile: Tile, n: int) -> tuple[Tile, ...]:
    """The sorted ``hand`` less ``n`` copies of ``tile``."""
    i = hand.index(tile)
    return hand[:i] + hand[i + n :]


def with_tile(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """The sorted ``hand`` with ``tile`` added in its place."""
    i = bisect_right(hand, tile)
    return hand[:i] + (tile,) + hand[i:]  # noqa: RUF005 (concatenation is quicker)


def take(v: dict[str, Any], seat: int, back: bool) -> bool:
    """Draw a tile for ``seat`` (from the front of the wall, or the back for a
    replacement), setting bonus tiles aside and replacing them from the back;
    False, with nothing changed, when the wall runs out first."""
    wall: tuple[Tile, ...] = v[WALL]
    rules: Rules = v[RULES]
    bonus: tuple[tuple[Tile, ...], ...] = v[BONUS]
    while True:
        if not can_draw(len(wall), rules):
            return False
        if back:
            tile = wall[-1]
            wall = wall[:-1]
        else:
            tile = wall[0]
            wall = wall[1:]
        if tile < N_KINDS:
            break
        piles = list(bonus)
        piles[seat] = (*piles[seat], tile)
        bonus = tuple(piles)
        back = True
    v[WALL] = wall
    v[BONUS] = bonus
    set_hand(v, seat, with_tile(v[HANDS][seat], tile), WEIGHT[tile])
    v[LAST_DRAWN] = tile
    return True


def drawn_out(v: dict[str, Any]) -> None:
    """The wall has run out: the round ends, nobody wins."""
    v[PHASE] = OVER
    v[LAST_DISCARD] = None
    v[CLAIMS] = ()
    v[ASKING] = ()
    v[WINNER] = None
    v[LAST_DRAWN] = None


def after_draw(v: dict[str, Any], seat: int) -> None:
    """``seat`` has just taken a tile from the wall: with automatic self-drawn
    wins a winning hand ends the round, else the player plays."""
    rules: Rules = v[RULES]
    v[TURN] = seat
    v[CURRENT] = seat
    if rules.self_draw_win is _AUTOMATIC and seat not in v[GHOSTS] and key_wins(hand_keys(v)[seat]):
        win_on_draw(v, seat)
        return
    v[PHASE] = PLAY
    v[DREW] = True
    v[LAST_DISCARD] = None
    v[CLAIMS] = ()
    v[ASKING] = ()


def draw(v: dict[str, Any], seat: int) -> None:
    """``seat`` draws from the wall (a draw phase has a tile, but bonus tiles
    may use up the rest: then the round is drawn)."""
    if take(v, seat, False):
        after_draw(v, seat)
    else:
        drawn_out(v)


def win_on_draw(v: dict[str, Any], seat: int) -> None:
    """``seat`` wins on a tile of their own draw."""
    v[PHASE] = OVER
    v[WINNER] = seat
    v[SELF_DRAWN] = True


def discard(v: dict[str, Any], seat: int, tile: Tile) -> None:
    """``seat`` discards ``tile`` (the claim window it opens is claims')."""
    set_hand(v, seat, without(v[HANDS][seat], tile, 1), -WEIGHT[tile])
    discards = list(v[DISCARDS])
    discards[seat] = discards[seat] + (tile,)  # concatenation: quicker than (*row, tile)
    v[DISCARDS] = tuple(discards)
    v[LAST_DRAWN] = None


#: Melds by what they are made of: a meld is a value, and building one checks
#: its tiles (tens of microseconds), so the engine builds each only once.
_MELDS: Final[dict[tuple[int, tuple[Tile, ...], int, Tile | None, int | None], Meld]] = {}
_MELD_KINDS: Final = (_CHOW_MELD, _PUNG_MELD, _KONG_MELD, _KONG_MELD)


def meld(
    kind: int, tiles: tuple[Tile, ...], seat: int, claimed: Tile | None, discarder: int | None
) -> Meld:
    """The meld of ``kind`` (0 a chow, 1 a pung, 2 a kong, 3 a concealed kong)
    of ``seat``, ``claimed`` from ``discarder``."""
    key = (kind, tiles, seat, claimed, discarder)
    found = _MELDS.get(key)
    if found is None:
        found = _MELDS[key] = Meld(
            _MELD_KINDS[kind], tiles, owner=seat, claimed=claimed, concealed=kind == 3,
            claimed_from=discarder,
        )  # fmt: skip
    return found


def replacement(v: dict[str, Any], seat: int) -> None:
    """After a kong: a tile from the back of the wall."""
    if take(v, seat, True):
        after_draw(v, seat)
    else:
        drawn_out(v)


def kong_from_hand(v: dict[str, Any], seat: int, tile: Tile) -> None:
    """A kong on one's own turn: four concealed tiles, or the fourth added to
    one's own claimed pung; then a replacement tile."""
    hand: tuple[Tile, ...] = v[HANDS][seat]
    melds: tuple[Meld, ...] = v[MELDS]
    if hand.count(tile) == 4:
        set_hand(v, seat, without(hand, tile, 4), -4 * WEIGHT[tile])
        melds = (*melds, meld(3, (tile,) * 4, seat, None, None))
    else:
        set_hand(v, seat, without(hand, tile, 1), -WEIGHT[tile])
        i = next(
            i for i, m in enumerate(melds)
            if m.owner == seat and m.kind is _PUNG_MELD and m.tiles[0] == tile
        )  # fmt: skip
        old = melds[i]
        kong = meld(2, (tile,) * 4, seat, old.claimed, old.claimed_from)
        melds = (*melds[:i], kong, *melds[i + 1 :])
    v[MELDS] = melds
    replacement(v, seat)

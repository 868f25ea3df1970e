"""A turn's transitions: who begins, the draw, the discard, laying down,
laying off, going out and the stock running out (compiled in the compiled
build).

Each works in place on a field dictionary (see ``_fields``); the claims
(chi, pon and the claim window) are :mod:`~sevenbridge.engine.claims`'.
"""

from __future__ import annotations

from typing import Any, Final

from .._kit.rng import derive, shuffled
from .._tables import RUN, SET, SEVEN, bits
from ..cards import JOKER_INDEX
from ..rules import FirstPlayer, Rules, StockExhaustion
from ..scoring import score_deal
from ..state import table_meld
from ._fields import (
    BONUS,
    BY_CLAIM,
    CLEAN,
    CURRENT,
    DISCARDER,
    DISCARDS,
    DRAW,
    HANDS,
    NORMAL,
    OVER,
    OVER_KEY,
    OWNERS,
    PENDING,
    PHASE,
    PLAY,
    PLAYED,
    PLAYERS,
    QUEUE,
    REASON,
    RESHUFFLED,
    RESHUFFLES,
    RULES,
    SCORES,
    SEED,
    STOCK,
    TABLE,
    TURNS,
    WINNER,
)

__all__ = [
    "HAND_SIZE", "discard", "draw", "enter_draw", "first_player", "go_out", "lay_down", "lay_off",
]  # fmt: skip

#: The cards dealt to each player.
HAND_SIZE: Final = 7
_DEALER_FIRST: Final = FirstPlayer.DEALER
_VOID_EXHAUSTION: Final = StockExhaustion.VOID
#: Each card's bit.
_BIT: Final = [1 << c for c in range(53)]


def first_player(rules: Rules, dealer: int, players: int) -> int:
    """Who plays first: the dealer or the player on their left, by the rules."""
    return dealer if rules.first_player is _DEALER_FIRST else (dealer + 1) % players


def draw(v: dict[str, Any], p: int) -> None:
    """Player ``p`` draws the top card of the stock."""
    stock: tuple[int, ...] = v[STOCK]
    hands: list[int] = list(v[HANDS])
    hands[p] = hands[p] | 1 << stock[0]
    v[HANDS] = tuple(hands)
    v[STOCK] = stock[1:]
    v[PHASE] = PLAY
    played: int = v[PLAYED]
    v[CLEAN] = not played >> p & 1
    v[BY_CLAIM] = False


def discard(v: dict[str, Any], p: int, c: int) -> bool:
    """Player ``p`` discards card ``c``, ending the turn; True if that was
    their last card (they went out), else the claim window opens next."""
    hands: list[int] = list(v[HANDS])
    hands[p] = hands[p] & ~(1 << c)
    v[HANDS] = tuple(hands)
    discards: tuple[int, ...] = v[DISCARDS]
    v[DISCARDS] = (*discards, c)
    if not v[BY_CLAIM]:
        normal: int = v[NORMAL]
        v[NORMAL] = normal | 1 << p
    turns: int = v[TURNS]
    v[TURNS] = turns + 1
    v[DISCARDER] = p
    if not hands[p]:
        go_out(v, p)
        return True
    v[CLEAN] = v[BY_CLAIM] = False  # these describe a turn in progress only
    return False


def lay_down(v: dict[str, Any], p: int, mask: int, joker: int, kind: int) -> None:
    """Player ``p`` lays down the cards ``mask`` as a new meld of ``kind``."""
    rules: Rules = v[RULES]
    hands = list(v[HANDS])
    hands[p] &= ~mask
    v[HANDS] = tuple(hands)
    v[TABLE] = (*v[TABLE], table_meld(p, kind, mask, joker, rules.ace_high, rules.joker_lay_off))
    v[OWNERS] |= 1 << p
    v[PLAYED] |= 1 << p
    if not hands[p]:
        go_out(v, p)


def lay_off(v: dict[str, Any], p: int, c: int, i: int, j: int) -> None:
    """Player ``p`` lays card ``c`` off onto meld ``i`` (``j``: what a joker stands for)."""
    rules: Rules = v[RULES]
    hands = list(v[HANDS])
    hands[p] &= ~(1 << c)
    v[HANDS] = tuple(hands)
    table = v[TABLE]
    tm = table[i]
    kind = tm.kind
    if kind == SEVEN:
        kind = SET if c % 13 == 6 else RUN
    mask = tm.mask | (1 << c)
    joker = j if c == JOKER_INDEX else tm.joker
    if joker == c:
        # The natural card the joker stood for joins a set: the joker now
        # stands for a suit the set lacks (or stays, with all four present).
        joker = next((x for x in range(c % 13, 52, 13) if not mask >> x & 1), c)
    new = table_meld(tm.owner, kind, mask, joker, rules.ace_high, rules.joker_lay_off)
    v[TABLE] = (*table[:i], new, *table[i + 1 :])
    v[PLAYED] |= 1 << p
    if not hands[p]:
        go_out(v, p)


def enter_draw(v: dict[str, Any], player: int) -> None:
    """The draw of ``player`` begins; when the stock is empty the discards
    are reshuffled into it, or the deal ends void, by the rules."""
    v[QUEUE] = ()
    v[PENDING] = None
    if not v[STOCK]:
        rules: Rules = v[RULES]
        discards = v[DISCARDS]
        if rules.stock_exhaustion is _VOID_EXHAUSTION:
            _void(v, "the stock ran out (stock_exhaustion='void')")
            return
        if v[RESHUFFLES] >= rules.reshuffle_limit:
            _void(v, f"the stock ran out after {v[RESHUFFLES]} reshuffles (reshuffle_limit)")
            return
        if len(discards) < 2:
            _void(v, "the stock ran out with no discards to reshuffle")
            return
        v[RESHUFFLES] += 1
        v[STOCK] = shuffled(discards[:-1], derive(v[SEED], v[RESHUFFLES]))
        v[RESHUFFLED] = sum(map(_BIT.__getitem__, discards[:-1]))  # distinct cards: a sum is an or
        v[DISCARDS] = discards[-1:]
    v[PHASE] = DRAW
    v[CURRENT] = player


def go_out(v: dict[str, Any], p: int) -> None:
    """Player ``p`` has no card left: the deal ends and is scored."""
    rules: Rules = v[RULES]
    bonus = bool(
        rules.going_out_bonus
        and v[CLEAN]
        and (rules.going_out_bonus_after_claim or not v[BY_CLAIM])
    )
    v[WINNER] = p
    v[BONUS] = bonus
    v[SCORES] = score_deal([bits(h) for h in v[HANDS]], p, bonus, rules)
    v[PHASE] = OVER
    v[OVER_KEY] = True  # the state's cached is_over (see _fields)
    v[CURRENT] = None
    v[QUEUE] = ()
    v[PENDING] = None
    v[REASON] = f"player {p} went out" + (" at once" if bonus else "")


def _void(v: dict[str, Any], reason: str) -> None:
    v[WINNER] = None
    v[SCORES] = (0,) * v[PLAYERS]
    v[PHASE] = OVER
    v[OVER_KEY] = True  # the state's cached is_over (see _fields)
    v[CURRENT] = None
    v[QUEUE] = ()
    v[PENDING] = None
    v[REASON] = f"void deal: {reason}"

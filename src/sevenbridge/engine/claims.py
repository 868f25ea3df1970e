"""Claims: who may chi or pon a discard, with which cards, whom a claim window
asks and which pon wins it (compiled in the compiled build).

The one home of these rules: the legal actions, the transitions, the fast
playout, the explanation of illegal actions, the sampler of worlds,
:func:`sevenbridge.text.position` and the consistency check of stored states
all call the functions here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .._tables import (
    JOKER_BIT,
    RANK_MASK,
    RUN,
    SET,
    SUIT_BITS,
    joker_runs_in,
    joker_sets_of_rank,
    melds_in,
    rank_pattern,
    runs_in,
    sets_of_rank,
)
from ..cards import JOKER_INDEX
from ..rules import ClaimTiming, ClaimWindow, PonTieBreak, Rules
from ..state import GameState, Phase, table_meld
from ._fields import (
    BONUS,
    BY_CLAIM,
    CLAIM,
    CLEAN,
    CURRENT,
    DEALER,
    DISCARDER,
    DISCARDS,
    HANDS,
    LOG,
    NORMAL,
    OWNERS,
    PENDING,
    PHASE,
    PLAY,
    PLAYED,
    PLAYERS,
    QUEUE,
    RESHUFFLED,
    RESHUFFLES,
    RULES,
    SEED,
    STOCK,
    TABLE,
    TURNS,
    WINNER,
    new_fields,
)
from ._keys import OP_PASS, OP_PON
from .turn import enter_draw, first_player, go_out

__all__ = [
    "AFTER",
    "NEAR",
    "can_pon",
    "chi_allowed",
    "chi_open",
    "claim",
    "claims",
    "may_chi",
    "may_claim",
    "may_pon",
    "next_in_window",
    "open_window",
    "play_window",
    "pon",
    "pon_open",
    "pon_takes_at_once",
    "window_asks",
]  # fmt: skip

_AFTER_FIRST_ROUND: Final = ClaimTiming.AFTER_FIRST_ROUND
_AFTER_OWN_TURN: Final = ClaimTiming.AFTER_OWN_TURN
_ABLE_ONLY: Final = ClaimWindow.ABLE_ONLY
_NEAREST_LEFT: Final = PonTieBreak.NEAREST_LEFT
_JOKER: Final = JOKER_BIT

#: The other players after player p at a table of n, in turn order: AFTER[n][p].
AFTER: Final = [[tuple((p + k) % n for k in range(1, n)) for p in range(n)] for n in range(6)]


# ----------------------------------------------------------------------------------
# who may claim, with which cards
# ----------------------------------------------------------------------------------
def may_claim(timing: ClaimTiming, player: int, normal_turns: int, turns: int, n: int) -> bool:
    """Whether the claim timing lets ``player`` claim now (``normal_turns``:
    who has had a normal turn, as a bit mask; ``turns``: turns done)."""
    if timing is _AFTER_OWN_TURN:
        return bool(normal_turns >> player & 1)
    if timing is _AFTER_FIRST_ROUND:
        return turns >= n
    return True


def _near(card: int, ace_high: bool) -> int:
    """Cards of the same suit within two places of ``card`` (those a run with it needs)."""
    suit, rank = divmod(card, 13)
    out = 0
    for d in (-2, -1, 1, 2):
        pos = rank + 1 + d
        if 1 <= pos <= 13 or (ace_high and pos == 14):
            out |= 1 << (suit * 13 + (pos - 1) % 13)
        if ace_high and rank == 0 and 12 <= 14 + d <= 13:
            out |= 1 << (suit * 13 + 13 + d)
    return out


#: :func:`_near` of each card, by whether the Ace is also high.
NEAR: Final = {high: [_near(c, high) for c in range(52)] for high in (False, True)}


def claims(hand: int, card: int, rules: Rules, kind: int) -> list[tuple[int, int]]:
    """Ways to claim ``card`` into a new meld of ``kind`` (RUN for chi, SET for pon).

    Returns ``(hand cards mask, joker card or -1)`` pairs.
    """
    cbit = 1 << card
    joker_ok = bool(rules.jokers and hand & _JOKER)
    need = rules.claim_min_hand_cards
    keep = 1 if rules.final_discard else 0
    out: list[tuple[int, int]] = []
    if card != JOKER_INDEX and not joker_ok:
        if kind == RUN:
            if not hand & NEAR[rules.ace_high][card]:
                return out
        else:
            r = card % 13
            least = max(need, 1 if r == 6 else 2)
            if (hand & RANK_MASK[r]).bit_count() < least:
                return out
    if card == JOKER_INDEX:
        candidates = [
            (m, j) for m, k, j in melds_in(hand | cbit, rules.ace_high, True)
            if k == kind and m & cbit
        ]  # fmt: skip
    elif kind == RUN:
        s = card // 13
        shift = 13 * s
        pattern = (hand | cbit) >> shift & SUIT_BITS
        inner = cbit >> shift
        candidates = [(sub << shift, -1) for sub in runs_in(pattern, rules.ace_high) if sub & inner]
        if joker_ok:
            for sub, pos in joker_runs_in(pattern, rules.ace_high):
                if sub & inner:
                    candidates.append(((sub << shift) | _JOKER, shift + pos))
    else:
        r = card % 13
        rp = rank_pattern(hand | cbit, r)
        candidates = [(m, -1) for m, k in sets_of_rank(r, rp) if k == SET and m & cbit]
        if joker_ok:
            candidates.extend((m, j) for m, j in joker_sets_of_rank(r, rp) if m & cbit)
    for mask, j in candidates:
        used = mask & ~cbit
        if used.bit_count() >= need and (hand & ~used).bit_count() >= keep:
            out.append((used, j))
    return out


def can_pon(hand: int, card: int, rules: Rules) -> bool:
    """Whether ``hand`` can pon ``card``: what an able_only window asks of each
    player (:func:`window_asks`), and the sampler and the consistency check test."""
    return bool(claims(hand, card, rules, SET))


def may_chi(hand: int, card: int, near: list[int]) -> bool:
    """Whether ``hand`` might chi ``card`` (False: it cannot), before the exact
    enumeration of :func:`claims` (``near``: :data:`NEAR` of the rules). Without
    the joker, a run with the card needs two cards of the hand near it (within
    two places in its suit), or a seven and its neighbour (a two-card run with
    a seven is a meld)."""
    if hand & _JOKER or card == JOKER_INDEX:
        return True
    close = hand & near[card]
    return bool(close & (close - 1)) or (bool(close) and 5 <= card % 13 <= 7)


def may_pon(hand: int, card: int) -> bool:
    """Whether ``hand`` might pon ``card`` (False: it cannot), before the exact
    enumeration of :func:`claims`: the claim window's quick refusal, used by
    the engine and both playout loops. Without the joker, a set with the card
    needs two more of its rank in the hand, or one more for a seven (two 7s
    are a set)."""
    if hand & _JOKER or card == JOKER_INDEX:
        return True
    r = card % 13
    same = hand & RANK_MASK[r]
    return bool(same) and (r == 6 or bool(same & (same - 1)))


def chi_allowed(
    rules: Rules, p: int, discarder: int, normal_turns: int, turns: int, n: int
) -> bool:
    """Whether the rules let player ``p`` chi the top discard (there is one):
    the upcard only if it is claimable, and the chi timing."""
    return (discarder >= 0 or rules.upcard_claimable) and may_claim(
        rules.chi_timing, p, normal_turns, turns, n
    )


def chi_open(state: GameState | Any, p: int) -> bool:
    """Whether player ``p`` may chi the top discard of ``state`` (a state or a view)."""
    return bool(state.discard_cards) and chi_allowed(
        state.rules, p, state.discarder, state.normal_turns, state.turns_done, state.players
    )


# ----------------------------------------------------------------------------------
# the claim window: whom it asks, which pon wins, the claim itself
# ----------------------------------------------------------------------------------
def window_asks(
    rules: Rules,
    order: Sequence[int],
    normal: int,
    turns: int,
    n: int,
    hands: Sequence[int],
    card: int,
) -> Sequence[int]:
    """The players of ``order`` the claim window asks about ``card``: those the
    pon timing allows (``normal`` and ``turns`` as after the discard), and with
    ``claim_window='able_only'`` only those who can pon it. The one home of who
    a window asks: the engine, the playout and the text's positions call it."""
    timing = rules.pon_timing
    asked = order
    if timing is _AFTER_OWN_TURN:
        if normal != (1 << n) - 1:  # not everyone has had a normal turn yet
            asked = [q for q in order if may_claim(timing, q, normal, turns, n)]
    elif timing is _AFTER_FIRST_ROUND and turns < n:
        asked = ()
    if asked and rules.claim_window is _ABLE_ONLY:
        asked = [q for q in asked if can_pon(hands[q], card, rules)]
    return asked


def pon_open(pending_pon: tuple[int, int, int] | None, hand: int) -> bool:
    """Whether a player holding ``hand`` may still call pon in a window where
    ``pending_pon`` waits (None: none does). Under the joker-holder tie-break
    a pon waits for the rest of the window, and only the joker's holder can
    overtake it."""
    return pending_pon is None or bool(hand & _JOKER)


def pon_takes_at_once(rules: Rules, hand: int, others_to_ask: bool) -> bool:
    """Whether a pon called by a player holding ``hand`` takes the discard at
    once, rather than waiting for the rest of the window (the tie-break): at
    once under the nearest-left tie-break, for the joker's holder, and when
    no one else is left to ask."""
    return rules.pon_tie_break is _NEAREST_LEFT or bool(hand & _JOKER) or not others_to_ask


def open_window(v: dict[str, Any], discarder: int, order: Sequence[int], next_player: int) -> None:
    """After a discard (or the upcard), on the fields ``v``: ask who may pon,
    else go to the draw of ``next_player``."""
    discards: tuple[int, ...] = v[DISCARDS]
    asked = window_asks(v[RULES], order, v[NORMAL], v[TURNS], v[PLAYERS], v[HANDS], discards[-1])
    v[DISCARDER] = discarder
    v[PENDING] = None
    if asked:
        v[PHASE] = CLAIM
        v[CURRENT] = asked[0]
        v[QUEUE] = tuple(asked[1:])
    else:
        enter_draw(v, next_player)


def next_in_window(v: dict[str, Any]) -> None:
    """After a pass (or a pon that waits): ask the next player in the window;
    at its end the waiting pon takes the discard, else the next player draws."""
    queue: tuple[int, ...] = v[QUEUE]
    if queue:
        v[CURRENT] = queue[0]
        v[QUEUE] = queue[1:]
        return
    pending = v[PENDING]
    if pending is not None:
        claim(v, pending[0], pending[1], pending[2], SET)
        return
    n: int = v[PLAYERS]
    d: int = v[DISCARDER]
    enter_draw(v, (d + 1) % n if d >= 0 else first_player(v[RULES], v[DEALER], n))


def pon(v: dict[str, Any], p: int, used: int, joker: int) -> None:
    """Player ``p``'s pon with the cards ``used`` (and the joker's stand-in):
    it takes the discard at once or waits, by the tie-break."""
    if pon_takes_at_once(v[RULES], v[HANDS][p], bool(v[QUEUE])):
        claim(v, p, used, joker, SET)
    else:
        v[PENDING] = (p, used, joker)
        next_in_window(v)


def claim(v: dict[str, Any], p: int, used: int, joker: int, kind: int) -> None:
    """Player ``p`` takes the top discard into a new meld of ``kind`` with the
    cards ``used`` (and the joker's stand-in), and plays on (or goes out)."""
    rules: Rules = v[RULES]
    discards = v[DISCARDS]
    card = discards[-1]
    v[DISCARDS] = discards[:-1]
    hands = list(v[HANDS])
    hands[p] &= ~used
    v[HANDS] = tuple(hands)
    mask = used | (1 << card)
    v[TABLE] = (*v[TABLE], table_meld(p, kind, mask, joker, rules.ace_high, rules.joker_lay_off))
    v[CLEAN] = not v[PLAYED] >> p & 1
    v[BY_CLAIM] = True
    v[OWNERS] |= 1 << p
    v[PLAYED] |= 1 << p
    v[PHASE] = PLAY
    v[CURRENT] = p
    v[QUEUE] = ()
    v[PENDING] = None
    if not hands[p]:
        go_out(v, p)


def play_window(
    rules: Rules,
    players: int,
    dealer: int,
    hands: Sequence[int],
    normal: int,
    turns: int,
    card: int,
    discarder: int,
    order: Sequence[int],
    next_player: int,
    run: Sequence[tuple[int, tuple[int, ...]]],
) -> tuple[Phase, int | None, tuple[int, ...], tuple[int, int, int] | None, int | None] | None:
    """A claim window played on its own, as the engine plays it (for the
    sampler of worlds): opened on ``card``, the discard of ``discarder`` (-1:
    the upcard), with ``hands``, ``normal`` and ``turns`` as after it, asking
    the players of ``order`` (``next_player`` draws when it ends unclaimed);
    then the moves of ``run``, each the player and the operation key of their
    Pass or Pon. None when a move of ``run`` is not the asked player's or not
    legal; else how the window ends: the phase, the player to act, the queue,
    the waiting pon and the winner (a pon that went out)."""
    v = new_fields(
        {
            RULES: rules, PLAYERS: players, DEALER: dealer, HANDS: tuple(hands), STOCK: (0,),
            TABLE: (), OWNERS: 0, PLAYED: 0, NORMAL: normal, TURNS: turns, RESHUFFLES: 0,
            RESHUFFLED: 0, DISCARDS: (card,), CLEAN: False, BY_CLAIM: False, SEED: 0,
            BONUS: False, LOG: None,
        }
    )  # fmt: skip
    open_window(v, discarder, order, next_player)
    for p, key in run:
        if v[PHASE] is not CLAIM or v[CURRENT] != p:
            return None
        code = key[0]
        if code == OP_PASS:
            next_in_window(v)
            continue
        hand = v[HANDS][p]
        if (
            code != OP_PON
            or not pon_open(v[PENDING], hand)
            or (key[2], key[3]) not in claims(hand, card, rules, SET)
        ):
            return None
        pon(v, p, key[2], key[3])
    return v[PHASE], v[CURRENT], v[QUEUE], v[PENDING], v[WINNER]

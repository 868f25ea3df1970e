"""Claims: what a player may do with an open discard, whom the claim window
asks, which claim wins and what it takes, and the turn that follows a
discard nobody claims (compiled in the compiled build).

The one home of these rules: the legal actions, the step, the views and the
explanation of illegal actions call the functions here.
"""

from __future__ import annotations

from typing import Any, Final

from .._kit.rng import derive
from ._fields import (
    ASKING,
    CLAIM,
    CLAIMS,
    CURRENT,
    DISCARDS,
    DRAW,
    DREW,
    GHOST_KEY,
    GHOSTS,
    HANDS,
    LAST_DISCARD,
    LAST_DRAWN,
    MELDS,
    OVER,
    PHASE,
    PLAY,
    RULES,
    SEATS,
    SELF_DRAWN,
    TAKEN,
    TURN,
    WALL,
    WINNER,
    hand_keys,
    set_hand,
)
from ._ops import ACTION, CLAIM_KONG_OP, CLAIM_WIN_OP, OP_CHOW, PASS_OP, PUNG_OP, RANK, op
from ._tables import WEIGHT, key_wins
from .actions import Action, Chow, Kong, Mahjong, Pung
from .rules import ClaimWindow, Rules
from .state import GameState
from .tiles import Tile
from .turn import can_draw, discard, drawn_out, meld, replacement, take, with_tile, without

__all__ = ["claim_ops", "claim_options", "claim_rank", "close_or_ask", "next_turn", "open_window"]

_EVERY: Final = ClaimWindow.EVERY_ELIGIBLE


def claim_ops(
    rules: Rules, hand: tuple[Tile, ...], key: int, tile: Tile, seat: int, discarder: int,
    seats: int, wall: int,
) -> list[int]:  # fmt: skip
    """What ``seat``, holding ``hand`` (of count key ``key``), may do with
    ``discarder``'s open discard ``tile``, as operations: Pass, then Pung, Kong,
    the Chows (only the player after the discarder, honours never) and Mahjong
    as the hand allows; a win alone when the rules forbid declining it."""
    out = [PASS_OP[seat]]
    have = hand.count(tile)
    if have >= 2:
        out.append(PUNG_OP[seat])
        if have >= 3 and rules.kong and can_draw(wall, rules):
            out.append(CLAIM_KONG_OP[seat][tile])
    if tile < 27 and seat == (discarder + 1) % seats:
        # The runs with the tile, lowest first: each needs its neighbour below
        # or above (two tiles below, one each side, two above).
        n = tile % 9
        below = n >= 1 and tile - 1 in hand
        above = n <= 7 and tile + 1 in hand
        if below and n >= 2 and tile - 2 in hand:
            out.append(op(OP_CHOW, seat, tile - 2, tile - 1))
        if below and above:
            out.append(op(OP_CHOW, seat, tile - 1, tile + 1))
        if above and n <= 6 and tile + 2 in hand:
            out.append(op(OP_CHOW, seat, tile + 1, tile + 2))
    if key_wins(key + WEIGHT[tile]):
        if not rules.may_decline_win:
            return [CLAIM_WIN_OP[seat]]
        out.append(CLAIM_WIN_OP[seat])
    return out


def claim_options(
    state: GameState, seat: int, tile: Tile, discarder: int | None = None
) -> list[Action]:
    """What ``seat`` may do with the open discard ``tile`` (thrown by
    ``discarder``, by default the player in turn), Pass first."""
    turn = state.turn if discarder is None else discarder
    key = hand_keys(state.__dict__)[seat]
    ops = claim_ops(
        state.rules, state.hands[seat], key, tile, seat, turn, state.seats, len(state.wall)
    )
    return [ACTION[o] for o in ops]


def claim_rank(action: Action) -> int:
    """Claim precedence: mahjong 3, pung and kong 2, chow 1, pass 0."""
    kind = type(action)
    if kind is Mahjong:
        return 3
    if kind is Pung or kind is Kong:
        return 2
    return 1 if kind is Chow else 0


#: The other real players after a seat, in order: by (seats, ghosts, seat).
_OTHERS: Final[dict[tuple[int, tuple[int, ...], int], tuple[int, ...]]] = {}


def _others(seats: int, ghosts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    key = (seats, ghosts, seat)
    found = _OTHERS.get(key)
    if found is None:
        order = [(seat + k) % seats for k in range(1, seats)]
        found = _OTHERS[key] = tuple([o for o in order if o not in ghosts])
    return found


def open_window(v: dict[str, Any], seat: int, tile: Tile) -> None:
    """After ``seat``'s discard of ``tile``: ask the other real players about
    it (all of them, or with ``able_only`` windows those who could claim it;
    nobody when a ghost threw it and the rules make ghosts' discards dead),
    or move on to the next turn."""
    rules: Rules = v[RULES]
    ghosts: tuple[int, ...] = v[GHOSTS]
    seats: int = v[SEATS]
    asking: tuple[int, ...] = ()
    if seat not in ghosts or rules.ghost_discards_claimable:
        asking = _others(seats, ghosts, seat)
        if rules.claim_window is not _EVERY:
            hands: tuple[tuple[Tile, ...], ...] = v[HANDS]
            keys = hand_keys(v)
            wall = len(v[WALL])
            asking = tuple([
                o for o in asking
                if claim_ops(rules, hands[o], keys[o], tile, o, seat, seats, wall)
                != [PASS_OP[o]]
            ])  # fmt: skip
    if not asking:
        next_turn(v, (seat + 1) % seats)
        return
    v[TURN] = seat
    v[DREW] = False
    v[PHASE] = CLAIM
    v[CURRENT] = asking[0]
    v[ASKING] = asking[1:]
    v[LAST_DISCARD] = tile
    v[CLAIMS] = ()


def next_turn(v: dict[str, Any], seat: int) -> None:
    """Start the turn of ``seat``: a real player is asked to draw; a ghost
    draws and discards a random tile at once (it never wins), which opens the
    next claim window; the round is drawn when the wall has no tile left to draw."""
    v[TURN] = seat
    v[CURRENT] = seat
    v[DREW] = False
    v[LAST_DISCARD] = None
    v[CLAIMS] = ()
    v[ASKING] = ()
    if can_draw(len(v[WALL]), v[RULES]) and seat not in v[GHOSTS]:
        v[PHASE] = DRAW
        return
    if not take(v, seat, False):
        drawn_out(v)
        return
    hand: tuple[Tile, ...] = v[HANDS][seat]
    tile = hand[derive(v[GHOST_KEY], len(v[WALL]), seat) % len(hand)]
    discard(v, seat, tile)
    open_window(v, seat, tile)


def close_or_ask(v: dict[str, Any], claims: tuple[Action, ...]) -> None:
    """The claims on the open discard so far are ``claims``: ask the next
    player (with ``able_only`` windows, the next who could still beat the best
    claim), or settle the claims. A mahjong claim ends the questions at once:
    nothing beats it."""
    asking: tuple[int, ...] = v[ASKING]
    rules: Rules = v[RULES]
    if not claims and asking and rules.claim_window is _EVERY:
        # The commonest step first: with the default claim windows every other
        # player is asked about every discard, most pass, and the next is asked.
        v[CURRENT] = asking[0]
        v[ASKING] = asking[1:]
        return
    best = max([claim_rank(c) for c in claims]) if claims else 0
    tile: Tile = v[LAST_DISCARD]
    if best == 3:
        asking = ()
    elif rules.claim_window is not _EVERY:
        hands: tuple[tuple[Tile, ...], ...] = v[HANDS]
        keys = hand_keys(v)
        turn: int = v[TURN]
        seats: int = v[SEATS]
        wall = len(v[WALL])
        while asking:
            seat = asking[0]
            ops = claim_ops(rules, hands[seat], keys[seat], tile, seat, turn, seats, wall)
            if max([RANK[o & 15] for o in ops]) > best:
                break
            asking = asking[1:]
    if asking:
        v[CLAIMS] = claims
        v[CURRENT] = asking[0]
        v[ASKING] = asking[1:]
    elif not claims:
        next_turn(v, (v[TURN] + 1) % v[SEATS])
    else:
        _settle(v, next(c for c in claims if claim_rank(c) == best), tile)


def _settle(v: dict[str, Any], claim: Action, tile: Tile) -> None:
    """The winning claim takes the discard; it stays in its row, marked as taken."""
    seat = claim.player
    discarder: int = v[TURN]
    v[TAKEN] = (*v[TAKEN], (discarder, len(v[DISCARDS][discarder]) - 1))
    v[CLAIMS] = ()
    v[ASKING] = ()
    v[LAST_DISCARD] = None
    v[LAST_DRAWN] = None
    v[TURN] = seat
    v[CURRENT] = seat
    hand: tuple[Tile, ...] = v[HANDS][seat]
    if type(claim) is Mahjong:
        set_hand(v, seat, with_tile(hand, tile), WEIGHT[tile])
        v[PHASE] = OVER
        v[WINNER] = seat
        v[SELF_DRAWN] = False
        return
    if type(claim) is Chow:
        a, b = claim.tiles
        rest = without(without(hand, a, 1), b, 1)
        change = -WEIGHT[a] - WEIGHT[b]
        made = meld(0, (a, b, tile), seat, tile, discarder)
    elif type(claim) is Pung:
        rest = without(hand, tile, 2)
        change = -2 * WEIGHT[tile]
        made = meld(1, (tile,) * 3, seat, tile, discarder)
    else:
        rest = without(hand, tile, 3)
        change = -3 * WEIGHT[tile]
        made = meld(2, (tile,) * 4, seat, tile, discarder)
    set_hand(v, seat, rest, change)
    v[MELDS] = (*v[MELDS], made)
    v[PHASE] = PLAY
    v[DREW] = False
    if type(claim) is Kong:
        replacement(v, seat)

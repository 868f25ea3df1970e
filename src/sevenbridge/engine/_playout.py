"""The inner loop of :func:`sevenbridge.playout.playout` (compiled in the
compiled build; the public function, which checks its arguments, is not).

It plays on the engine's field dictionary (``_fields``) and operation keys
(``_keys``), with the engine's own rules: the legal moves of
:mod:`~sevenbridge.engine.legal`, the claims and claim windows of
:mod:`~sevenbridge.engine.claims`, the step of :mod:`~sevenbridge.engine.step`.
Its quick path plays draws, discards and passes on local variables (see
:func:`_quick_turns`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .._heuristics import card_points, keep_value
from .._kit.rng import GOLDEN, MASK, Rng, mix
from .._tables import (
    JOKER_BIT,
    RANK_MASK,
    RUN,
    SET,
    SUIT_BITS,
    count_melds,
    may_hold_meld,
    melds_in,
)
from ..actions import Action
from ..rules import ClaimWindow, Rules
from ..state import GameState, TableMeld
from ._fields import (
    BY_CLAIM,
    CLAIM,
    CLEAN,
    CURRENT,
    DISCARDER,
    DISCARDS,
    DRAW,
    HANDS,
    LOG,
    NORMAL,
    OVER,
    OWNERS,
    PENDING,
    PHASE,
    PLAY,
    PLAYED,
    PLAYERS,
    QUEUE,
    RULES,
    STOCK,
    TABLE,
    TURNS,
    fields_of,
    history_extend,
    new_state,
)
from ._keys import (
    DISCARD_KEYS,
    DISCARD_MOVES,
    DRAWS,
    OP_CHI,
    OP_DISCARD,
    OP_LAY,
    OP_OFF,
    OP_PON,
    PASSES,
    intern,
)
from .claims import AFTER, NEAR, chi_allowed, claims, may_chi, may_pon, pon_open, window_asks
from .legal import keys_for, table_takes
from .step import step
from .turn import enter_draw

__all__ = ["greedy_key", "greedy_moves", "play"]

# The generator's step (kit.rng), as module constants of the compiled code.
_GOLDEN: Final[int] = GOLDEN
_MASK: Final[int] = MASK
_PASS_KEYS: Final = [key for _, key in PASSES]
_JOKER: Final = JOKER_BIT
_ABLE_ONLY: Final = ClaimWindow.ABLE_ONLY
_DRAW_KEYS: Final = [key for _, key in DRAWS]


def _legal_keys(v: dict[str, Any]) -> list[tuple[int, ...]]:
    """The legal moves at the field list ``v``, as operation keys."""
    phase = v[PHASE]
    p = v[CURRENT]
    rules = v[RULES]
    discards = v[DISCARDS]
    chi_open = (
        phase is DRAW
        and bool(discards)
        and chi_allowed(rules, p, v[DISCARDER], v[NORMAL], v[TURNS], v[PLAYERS])
    )
    return keys_for(
        phase, p, rules, v[HANDS][p], v[OWNERS], v[TABLE], discards, v[PENDING], chi_open
    )


def greedy_key(keys: list[tuple[int, ...]], hand: int, rules: Rules, rng: Rng) -> tuple[int, ...]:
    """The greedy policy's choice among the legal moves ``keys`` (operation keys,
    in legal_actions' order) of a player holding ``hand``: the one spelling of
    :class:`~sevenbridge.bots.GreedyPlayer`, which calls it too, so the greedy
    playout makes the same choices with the same numbers of ``rng``.

    A claim or a new meld using the most cards of the hand, else a lay-off, else
    the discard with the most points left over once its use towards melds is
    counted; ties broken by ``rng``."""
    return _greedy(keys, hand, card_points(rules), rules.ace_high, rng)


def greedy_moves(keys: list[tuple[int, ...]], hand: int, rules: Rules) -> list[tuple[int, ...]]:
    """The moves among ``keys`` (as for :func:`greedy_key`) between which the
    greedy policy chooses at random; empty when none is a claim, a new meld, a
    lay-off or a discard (then it makes the first move)."""
    return _greedy_best(keys, hand, card_points(rules), rules.ace_high)


def _greedy(
    keys: list[tuple[int, ...]], hand: int, points: tuple[int, ...], high: bool, rng: Rng
) -> tuple[int, ...]:
    """:func:`greedy_key` with the card points and the Ace's rule looked up."""
    best = _greedy_best(keys, hand, points, high)
    return best[rng.below(len(best))] if best else keys[0]


def _greedy_best(
    keys: list[tuple[int, ...]], hand: int, points: tuple[int, ...], high: bool
) -> list[tuple[int, ...]]:
    """:func:`greedy_moves` with the card points and the Ace's rule looked up."""
    melds: list[tuple[int, ...]] = []  # the best claims, else the best new melds
    offs: list[tuple[int, ...]] = []
    discards: list[tuple[int, ...]] = []
    claim = False
    most = 0
    for k in keys:
        code = k[0]
        if code == OP_DISCARD:
            discards.append(k)
        elif code == OP_OFF:
            offs.append(k)
        elif code in (OP_PON, OP_CHI, OP_LAY):
            is_claim = code != OP_LAY
            if claim and not is_claim:
                continue
            size = k[2].bit_count()
            if is_claim and not claim:
                claim, most, melds = True, size, [k]
            elif size > most:
                most, melds = size, [k]
            elif size == most:
                melds.append(k)
    if melds:
        return melds
    if offs:
        return offs  # lay-offs carry no cards to count: all tie
    worst = -(1 << 30)
    chosen: list[tuple[int, ...]] = []
    for k in discards:
        w = points[k[2]] - keep_value(hand, k[2], high)
        if w > worst:
            worst, chosen = w, [k]
        elif w == worst:
            chosen.append(k)
    return chosen


def _greedy_discard(hand: int, points: tuple[int, ...], high: bool, x: int) -> tuple[int, int]:
    """The card :func:`_greedy` discards from ``hand`` (no joker in it) when a
    discard is its choice, and the generator's state after: the same card,
    with the same number, as :func:`_greedy` with an ``Rng`` at state ``x``
    (discards are listed lowest card first). :func:`keep_value` is the rank's
    partners plus the suit neighbours, which depend on the suit's pattern
    alone: those are looked up by pattern."""
    near = _NEIGHBOURS[high]
    worst = -(1 << 30)
    chosen: list[int] = []
    for shift in (0, 13, 26, 39):
        pattern = hand >> shift & SUIT_BITS
        if not pattern:
            continue
        values = near.get(pattern)
        if values is None:
            values = near[pattern] = [keep_value(pattern, r, high) for r in range(13)]
        rest = pattern
        while rest:
            low = rest & -rest
            rest ^= low
            r = low.bit_length() - 1
            c = shift + r
            w = points[c] - 12 * ((hand & RANK_MASK[r]).bit_count() - 1) - values[r]
            if w > worst:
                worst, chosen = w, [c]
            elif w == worst:
                chosen.append(c)
    return chosen[(mix(x) * len(chosen)) >> 64], (x + _GOLDEN) & _MASK


#: The suit-neighbour part of keep_value of each rank, by suit pattern (and
#: whether the Ace is also high), filled as patterns are met.
_NEIGHBOURS: Final[tuple[dict[int, list[int]], dict[int, list[int]]]] = ({}, {})


def _claim_chosen(
    x: int, ways: list[tuple[int, int]], code: int, player: int
) -> tuple[Action, tuple[int, ...]] | None:
    """The chi or pon (``code``) that the random number of ``x`` picks among a
    Draw or Pass followed by ``claims``, as legal_actions lists them; None
    when it picks the Draw or Pass."""
    k = (mix(x) * (len(ways) + 1)) >> 64
    if not k:
        return None
    used, j = ways[k - 1]
    key = (code, player, used, j)
    return intern(key), key


def _greedy_claim(
    x: int, ways: list[tuple[int, int]], code: int, player: int
) -> tuple[Action, tuple[int, ...]]:
    """The chi or pon (``code``) that :func:`_greedy` picks among ``claims``
    with an ``Rng`` at state ``x``: one using the most cards of the hand."""
    most = max(used.bit_count() for used, _ in ways)
    best = [(used, j) for used, j in ways if used.bit_count() == most]
    used, j = best[(mix(x) * len(best)) >> 64]
    key = (code, player, used, j)
    return intern(key), key


def _quick_turns(
    v: dict[str, Any],
    x: int,
    steps: int,
    limit: int,
    history: bool,
    greedy: bool,
    points: tuple[int, ...],
    stop: int = -1,
) -> tuple[int, int, bool]:
    """Random (or greedy) play from a draw or the play of a turn, on local variables.

    The playout's one copy of the engine's steps, for the general loop's
    bookkeeping per move that it spares: a random playout without history
    plays about 4.5 times the deals per second of the public loop compiled,
    and 3.2 times pure (bench.py's playout figure, CPython 3.11.7). Its draws,
    discards and passes follow ``turn.draw``, ``turn.discard`` and
    ``claims.window_asks``; the differential tests
    (tests/test_playout_speedpath.py) fail if they part.

    Every move is chosen here, with the same choices and the same stream of
    numbers as the general loop (the moves counted in ``legal_actions``' order,
    only the chosen one built): draws, discards and passes are played on the
    local variables; a chosen chi, pon, lay-down, lay-off or going out by the
    engine's ``step`` on the fields, which are written back first and read
    again after. What the quick path leaves to the general loop (the joker in
    hand, a pon waiting in the claim window) ends it, as do the end of the
    deal and the move limit. Returns ``(x, steps, general)``: ``general`` is
    True when the position reached needs one move of the general loop.

    With ``greedy`` the moves are :func:`_greedy`'s, with the numbers it
    draws (only to break ties: none for a forced move), ``x`` being the
    state of its ``Rng``: a chi or pon whenever one is legal, and a discard
    when the hand holds no new meld and nothing to lay off; a lay-down or
    lay-off to choose is left to the general loop, as is every choice of
    the player ``stop``.
    """
    rules: Rules = v[RULES]
    n: int = v[PLAYERS]
    ace_high = rules.ace_high
    near = NEAR[ace_high]
    needs_own = rules.lay_off_needs_own_meld
    final_discard = rules.final_discard
    after = AFTER[n]
    everyone = (1 << n) - 1
    # Once everyone has had a normal turn, every pon timing asks every other
    # player (claims.window_asks), unless only those able to pon are asked.
    plain_window = rules.claim_window is not _ABLE_ONLY
    while True:  # until the position needs the general loop (or the deal or the limit is reached)
        # Typed, so that the compiled build works on native ints (the field
        # dictionary's values are Any, and an Any makes every operation generic).
        hands: list[int] = list(v[HANDS])
        stock: tuple[int, ...] = v[STOCK]
        si = 0
        discards: list[int] = list(v[DISCARDS])
        table: tuple[TableMeld, ...] = v[TABLE]
        takes = table_takes(table)  # the natural cards some meld on the table takes
        owners: int = v[OWNERS]
        played: int = v[PLAYED]
        normal: int = v[NORMAL]
        turns: int = v[TURNS]
        discarder: int = v[DISCARDER]
        clean: bool = v[CLEAN]
        by_claim: bool = v[BY_CLAIM]
        log = v[LOG]
        moves: list[Action] = []  # played since log, added to it in one go
        phase = v[PHASE]
        p: int = v[CURRENT]
        queue: tuple[int, ...] = ()
        general = True
        # A move for the engine to play once the fields are written back: a chi,
        # a pon, or a discard that goes out.
        last: tuple[Action, tuple[int, ...]] | None = None
        key: tuple[int, ...]
        while steps != limit:
            hand = hands[p]
            if phase is DRAW:
                if discards:
                    top = discards[-1]
                    if may_chi(hand, top, near) and chi_allowed(
                        rules, p, discarder, normal, turns, n
                    ):
                        chis = claims(hand, top, rules, RUN)
                        if chis:
                            if p == stop:
                                break
                            if greedy:
                                last = _greedy_claim(x, chis, OP_CHI, p)
                            else:
                                last = _claim_chosen(x, chis, OP_CHI, p)
                            if last is not None:  # the engine plays it below
                                x = (x + _GOLDEN) & _MASK
                                general = False
                                break
                if not greedy:
                    x = (x + _GOLDEN) & _MASK
                if history:
                    moves.append(DRAWS[p][0])
                hand |= 1 << stock[si]
                hands[p] = hand
                si += 1
                phase = PLAY
                clean = not played >> p & 1
                by_claim = False
                steps += 1
                if steps == limit:
                    general = False
                    break
            # The play of a turn.
            if hand & _JOKER or p == stop:
                break
            # The moves in legal_actions' order: new melds, lay-offs (by meld, card
            # by card), discards (lowest card first); counted, and built only when
            # the number falls on one of them (new melds by melds_in).
            lays: list[tuple[int, int, int]] | None = None
            count = 0
            if may_hold_meld(hand, ace_high):
                count = count_melds(hand, ace_high)
            if count != 0 and final_discard:
                # The whole hand is not a new meld (its last card is discarded):
                # only a hand of one suit or one rank can be one.
                low = (hand & -hand).bit_length() - 1
                if not hand & ~(SUIT_BITS << (low - low % 13)) or not hand & ~RANK_MASK[low % 13]:
                    lays = [m for m in melds_in(hand, ace_high, False) if m[0] != hand]
                    count = len(lays)
            offs = 0
            if (
                (not needs_own or owners >> p & 1)
                and (not final_discard or hand & (hand - 1))
                and hand & takes
            ):
                for tm in table:
                    offs += (hand & tm.ext).bit_count()
            if greedy:
                if count or offs:
                    break  # a lay-down or lay-off for the general loop to choose
                c, x = _greedy_discard(hand, points, ace_high, x)
                k = count + offs + (hand & ((1 << c) - 1)).bit_count()  # its place
            else:
                # mix(x) (kit.rng, the generator's one definition) written out: this
                # is the playout's commonest draw, and a call here costs the pure
                # build about 3 % of a playout and the compiled build about 8 %
                # (random playouts from dealt positions, CPython 3.11.7: 4,690
                # against 4,330 deals/s; kit.rng stays uncompiled). The move-for-move
                # tests against RandomPlayer, which draws through mix, fail if the
                # two differ.
                x = (x + _GOLDEN) & _MASK
                z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                k = ((z ^ (z >> 31)) * (count + offs + hand.bit_count())) >> 64
            if k < count + offs:
                if k < count:
                    if lays is None:
                        lays = melds_in(hand, ace_high, False)
                    mask, kind, j = lays[k]
                    key = (OP_LAY, p, mask, j, kind)
                else:
                    k -= count
                    for i, tm in enumerate(table):
                        cand = hand & tm.ext
                        size = cand.bit_count()
                        if k < size:
                            while k:
                                cand &= cand - 1
                                k -= 1
                            key = (OP_OFF, p, (cand & -cand).bit_length() - 1, i, -1)
                            break
                        k -= size
                # Played by the engine on the fields.
                v[PHASE] = PLAY
                v[CURRENT] = p
                v[HANDS] = tuple(hands)
                if moves:
                    v[LOG] = log = history_extend(log, moves)
                    moves.clear()
                v[CLEAN] = clean
                v[BY_CLAIM] = by_claim
                step(v, key, intern(key) if history else None)
                steps += 1
                if v[PHASE] is OVER:
                    v[STOCK] = stock[si:] if si else stock
                    v[DISCARDS] = tuple(discards)
                    v[NORMAL] = normal
                    v[TURNS] = turns
                    v[DISCARDER] = discarder
                    return x, steps, False
                hands = list(v[HANDS])
                log = v[LOG]
                table = v[TABLE]
                takes = table_takes(table)
                owners = v[OWNERS]
                played = v[PLAYED]
                continue
            k -= count + offs
            h = hand
            while k:
                h &= h - 1
                k -= 1
            c = (h & -h).bit_length() - 1
            hand &= ~(1 << c)
            if not hand:  # going out: the engine scores it below
                last = DISCARD_MOVES[p][c]
                general = False
                break
            if history:
                moves.append(DISCARD_MOVES[p][c][0])
            hands[p] = hand
            discards.append(c)
            if not by_claim:
                normal |= 1 << p
            turns += 1
            discarder = p
            clean = by_claim = False
            steps += 1
            # The claim window (claims.open_window, then the quick refusals of
            # the general loop for each player asked).
            asked: Sequence[int]
            if plain_window and normal == everyone:
                asked = after[p]
            else:
                asked = window_asks(rules, after[p], normal, turns, n, hands, c)
            rank = RANK_MASK[c % 13]  # most hands hold none of it: may_pon not asked
            i = 0  # the players who have passed
            for q in asked:
                held = hands[q]
                if held & _JOKER or steps == limit:
                    break  # the general loop asks q
                if held & rank and may_pon(held, c):
                    pons = claims(held, c, rules, SET)
                    if pons:
                        if q == stop:
                            break  # the general loop stops there
                        if greedy:
                            last = _greedy_claim(x, pons, OP_PON, q)
                        else:
                            last = _claim_chosen(x, pons, OP_PON, q)
                        if last is not None:  # the engine plays it below
                            x = (x + _GOLDEN) & _MASK
                            break
                if not greedy:
                    x = (x + _GOLDEN) & _MASK
                steps += 1
                if history:
                    moves.append(PASSES[q][0])
                i += 1
            if i < len(asked):
                phase = CLAIM
                p = asked[i]
                queue = tuple(asked[i + 1 :])
                general = False
                break
            p = (p + 1) % n
            phase = DRAW
            if si == len(stock):
                general = False
                break  # enter_draw below reshuffles or ends the deal
        else:
            general = False
        v[HANDS] = tuple(hands)
        v[STOCK] = stock[si:] if si else stock
        v[DISCARDS] = tuple(discards)
        v[TABLE] = table
        v[OWNERS] = owners
        v[PLAYED] = played
        v[NORMAL] = normal
        v[TURNS] = turns
        v[DISCARDER] = discarder
        v[CLEAN] = clean
        v[BY_CLAIM] = by_claim
        v[LOG] = history_extend(log, moves) if moves else log
        v[PHASE] = phase
        v[CURRENT] = p
        v[QUEUE] = queue
        if last is not None:
            step(v, last[1], last[0] if history else None)
            steps += 1
        elif phase is DRAW and not general and si == len(stock):
            enter_draw(v, p)
        if general or steps == limit or not (v[PHASE] is DRAW or v[PHASE] is PLAY):
            return x, steps, general


def play(
    state: GameState, greedy: bool, rng: Rng, limit: int, history: bool, stop: int = -1
) -> GameState:
    """Play on from ``state`` for at most ``limit`` moves (-1: to the end); with
    the greedy policy, stop before any choice of the player ``stop`` (-1: none)
    that the quick refusals do not settle. ``rng`` is left where the policy's
    numbers end."""
    v = fields_of(state)
    # The policy's stream, kept here as Rng keeps it: rng.below(n) is
    # mix(x) * n >> 64, and each number moves x on by _GOLDEN. The random
    # policy draws one number per move, forced or not (like RandomPlayer); the
    # greedy one only to break ties (like GreedyPlayer).
    x: int = rng.state
    rules: Rules = v[RULES]
    near = NEAR[rules.ace_high]
    points = card_points(rules)
    high = rules.ace_high
    needs_own = rules.lay_off_needs_own_meld
    final_discard = rules.final_discard
    steps = 0
    general = False  # whether the next move needs the general loop
    while v[PHASE] is not OVER and steps != limit:
        phase = v[PHASE]
        if not general and (phase is DRAW or phase is PLAY):
            x, steps, general = _quick_turns(v, x, steps, limit, history, greedy, points, stop)
            continue
        general = False
        p: int = v[CURRENT]
        hand: int = v[HANDS][p]
        # A lone Pass or Draw, found by the quick refusals of
        # legal._compute_legal (the same checks, on the field dictionary).
        key: tuple[int, ...] | None = None
        if phase is CLAIM:
            if not (pon_open(v[PENDING], hand) and may_pon(hand, v[DISCARDS][-1])):
                key = _PASS_KEYS[p]
        elif phase is DRAW:
            discards = v[DISCARDS]
            if not discards:
                key = _DRAW_KEYS[p]
            else:
                if not may_chi(hand, discards[-1], near):
                    key = _DRAW_KEYS[p]
        elif (
            # The play of a turn: when the hand holds no new meld and nothing it
            # could lay off (the tests of legal.keys_for), the greedy choice is a
            # discard, found without listing the moves.
            greedy
            and p != stop
            and not hand & _JOKER
            and not (may_hold_meld(hand, high) and count_melds(hand, high))
            and not (
                (not needs_own or v[OWNERS] >> p & 1)
                and (not final_discard or hand & (hand - 1))
                and hand & table_takes(v[TABLE])
            )
        ):
            c, x = _greedy_discard(hand, points, high, x)
            key = DISCARD_KEYS[p][c]
        if key is None:
            if p == stop:
                break
            keys = _legal_keys(v)
            if greedy:
                rng.state = x
                key = _greedy(keys, v[HANDS][p], points, high, rng)
                x = rng.state
            else:
                key = keys[(mix(x) * len(keys)) >> 64]
                x = (x + _GOLDEN) & _MASK
        elif not greedy:
            x = (x + _GOLDEN) & _MASK
        step(v, key, intern(key) if history else None)
        steps += 1
    rng.state = x
    return new_state(v)

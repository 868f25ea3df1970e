"""The exact search behind :func:`~sevenbridge.mahjong.sample_state`: hands for
the seats a view constrains, found whenever they exist.

A view constrains a few hidden hands through what the engine would have done
with them: under ``able_only`` claim windows a seat asked about the open
discard can claim it (or beat the claims made), a seat the window skipped
cannot; with ``may_decline_win`` off a seat asked before the current one cannot
win the discard; under automatic self-draw wins a drawn hand waiting for its
discard does not win. Each is a condition on one seat's *claim rank* on the
discard: 3 when the hand wins with it, else 2 with a pair of it, else 1 when
the seat may chow it, else 0 (for a drawn hand, 3 when it wins, else 0).

Each seat's question is answered by going through the 34 kinds of playing
tile in order, deciding how many of each kind the seat holds (at most the
unseen tiles of the kind). The seat carries its count so far, the state of a
winning-hand automaton, and what it holds near the discard (a pair of it, the
neighbours for a chow). The automaton is the standard split of a hand into
sets and one pair, read kind by kind: its state is the set of ways the kinds
so far can be split, each way being (runs started at the previous kind, runs
started at the one before, whether the pair is used); a hand wins exactly when
the last state holds (0, 0, 1), which is what the engine's lookup tables
answer (:func:`~sevenbridge.mahjong._tables.key_wins`: sets and exactly one
pair, the only winning hand of these rules). Counting the fitting hands from
each state (the copies of a kind told apart) gives an exact uniform draw of a
fitting hand, and a count of 0 the proof that none exists.

Several constrained seats share the unseen tiles: their hands are drawn apart
and kept together with the ratio of the chances a uniform deal gives them
together and apart (at most 1), which makes the kept hands a uniform fitting
deal. Should every joint draw collide, a search through every split of each
kind among the seats, remembering each joint state it found without a way
on, finds a fitting deal if one exists, or shows that none does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from ._tables import winning
from .tiles import N_KINDS

__all__ = ["Need", "completes", "hands", "rank"]

#: A seat's wins automaton: the ways the kinds so far split into sets and at
#: most one pair (runs from the previous kind, runs from the one before, pair).
Aut = frozenset[tuple[int, int, int]]
_START: Final[Aut] = frozenset({(0, 0, 0)})
_STEPS: dict[tuple[Aut, int, bool], Aut] = {}

#: What a seat still asks of its hand once its features near the discard are
#: known: nothing more (``_DONE``), a win (``_WIN``) or no win (``_NO_WIN``).
_OPEN: Final = 0
_DONE: Final = 1
_WIN: Final = 2
_NO_WIN: Final = 3


def step(aut: Aut, count: int, starts: bool) -> Aut:
    """The automaton after a kind held ``count`` times (``starts``: whether a
    run may begin at this kind, a suited tile 1 to 7)."""
    found = _STEPS.get((aut, count, starts))
    if found is not None:
        return found
    out: set[tuple[int, int, int]] = set()
    for r1, r2, pair in aut:
        rem = count - r1 - r2
        if rem < 0:
            continue
        for new in range(rem + 1 if starts else 1):
            left = rem - new
            if left in (0, 3):
                out.add((new, r1, pair))
            elif left == 2 and not pair:
                out.add((new, r1, 1))
    made = _STEPS[(aut, count, starts)] = frozenset(out)
    return made


def wins(aut: Aut) -> bool:
    """Whether the kinds read split into sets and exactly one pair."""
    return (0, 0, 1) in aut


def _starts(kind: int) -> bool:
    return kind < 27 and kind % 9 <= 6


def completes(counts: list[int]) -> bool:
    """The automaton's answer for 34 counts (what :func:`winning` answers)."""
    aut = _START
    for kind in range(N_KINDS):
        aut = step(aut, counts[kind], _starts(kind))
        if not aut:
            return False
    return wins(aut)


class Need:
    """What a view asks of one hidden hand.

    Args:
        seat: The seat.
        size: How many tiles it holds.
        tile: The open discard its claim rank is about, or ``None`` for a drawn
            hand (rank 3 when it wins, else 0).
        chows: Whether the seat may chow the discard (the next seat, a suited tile).
        allowed: The claim ranks the hand may have.
        what: Which condition this is, for the error message.
    """

    __slots__ = ("allowed", "chows", "last", "seat", "size", "tile", "what")

    def __init__(
        self,
        seat: int,
        size: int,
        tile: int | None,
        chows: bool,
        allowed: frozenset[int],
        what: str,
    ) -> None:
        self.seat = seat
        self.size = size
        self.tile = tile
        self.chows = chows and tile is not None and tile < 27
        self.allowed = allowed
        self.what = what
        #: The last kind that decides the features near the discard.
        if tile is None:
            self.last = -1
        elif self.chows:
            self.last = min(tile + 2, tile - tile % 9 + 8)
        else:
            self.last = tile

    def features(self, hand: list[int]) -> int:
        """The rank without the win (2 pair, 1 chow, 0) of 34 counts."""
        t = self.tile
        if t is None:
            return 0
        if hand[t] >= 2:
            return 2
        if self.chows:
            n = t % 9
            below = n >= 1 and hand[t - 1] > 0
            above = n <= 7 and hand[t + 1] > 0
            if (below and n >= 2 and hand[t - 2]) or (below and above):
                return 1
            if above and n <= 6 and hand[t + 2]:
                return 1
        return 0


def rank(need: Need, hand: Sequence[int]) -> int:
    """The claim rank of ``hand`` (tiles) for ``need``: what the engine's
    claim options give (a drawn hand: 3 when it wins, else 0)."""
    t = need.tile
    if winning(hand if t is None else (*hand, t)):
        return 3
    counts = [0] * N_KINDS
    for tile in hand:
        counts[tile] += 1
    return need.features(counts)


# A seat's state between kinds: (count, automaton, what it still asks,
# features near the discard as bits: 1 a pair, 2/4/8/16 holding the tiles two
# below, one below, one above, two above).
SeatState = tuple[int, Aut, int, int]


class _Seat:
    """One constrained seat in the search, with its own exact answers."""

    def __init__(
        self,
        need: Need,
        pool: list[int],
        left: list[int],
        branch: tuple[frozenset[int], int] | None = None,
    ) -> None:
        self.need = need
        self.pool = pool
        self.left = left
        #: A part of the need alone: the ranks without the win it allows, and
        #: whether the hand must win (_MUST), must not (_MUST_NOT), or either (_ANY).
        self.branch = branch
        #: The need's parts, once counted, and the seat that counts the
        #: hands of its part that must not win, once needed.
        self.counted: list[tuple[int, frozenset[int], _Seat, bool]] | None = None
        self.exact: _Seat | None = None
        self.known: dict[tuple[int, SeatState], int] = {}
        self.possible: dict[tuple[int, SeatState], bool] = {}
        self.tiles = [k for k in range(N_KINDS) for _ in range(pool[k])]

    def advance(self, kind: int, state: SeatState, held: int) -> SeatState | None:
        """The state after holding ``held`` of ``kind``, or ``None`` when the
        hand can no longer meet the need."""
        count, aut, asks, bits = state
        need = self.need
        count += held
        if count > need.size:
            return None
        if aut is not _DEAD_MARK:
            extra = 1 if kind == need.tile else 0
            aut = step(aut, held + extra, _starts(kind))
        t = need.tile
        if asks == _OPEN and t is not None:
            if kind == t and held >= 2:
                bits |= 1
            elif need.chows and held and kind // 9 == t // 9:
                bits |= {-2: 2, -1: 4, 1: 8, 2: 16}.get(kind - t, 0)
        if asks == _OPEN and kind >= need.last:
            asks = self._settle(bits, aut)
            if asks < 0:
                return None
        elif asks == _OPEN and not aut and self.branch and self.branch[1] == _MUST:
            return None
        if asks == _DONE:
            return (count, _DEAD_MARK, _DONE, 0)
        if asks == _WIN and not aut:
            return None
        if asks == _NO_WIN and not aut:
            return (count, _DEAD_MARK, _DONE, 0)
        return (count, aut, asks, bits)

    def _settle(self, bits: int, aut: Aut) -> int:
        """What the hand must still do once its features near the discard are
        known (-1: nothing can meet the need)."""
        need = self.need
        if bits & 1:
            base = 2
        elif (bits & 4 and bits & (2 | 8)) or (bits & 8 and bits & 16):
            base = 1
        else:
            base = 0
        if self.branch is not None:
            bases, win = self.branch
            if base not in bases:
                return -1
            if win == _ANY:
                return _DONE
            if not aut:
                return -1 if win == _MUST else _DONE
            return _WIN if win == _MUST else _NO_WIN
        base_ok = base in need.allowed
        win_ok = 3 in need.allowed
        if not aut:  # it cannot win
            return _DONE if base_ok else -1
        if base_ok and win_ok:
            return _DONE
        if win_ok:
            return _WIN
        return _NO_WIN if base_ok else -1

    def final(self, state: SeatState) -> bool:
        count, aut, asks, _bits = state
        if count != self.need.size:
            return False
        if asks == _WIN:
            return wins(aut)
        if asks == _NO_WIN:
            return not wins(aut)
        return asks == _DONE

    def can(self, kind: int, state: SeatState) -> bool:
        """Whether the seat alone can meet its need with the unseen tiles of
        ``kind`` onwards (exact, remembered)."""
        if kind == N_KINDS:
            return self.final(state)
        key = (kind, state)
        found = self.possible.get(key)
        if found is None:
            found = self.known[key] > 0 if key in self.known else False
            room = self.need.size - state[0]
            if not found and room <= self.left[kind]:
                for held in range(min(self.pool[kind], room, 4) + 1):
                    after = self.advance(kind, state, held)
                    if after is not None and self.can(kind + 1, after):
                        found = True
                        break
            self.possible[key] = found
        return found

    def sample(self, start: SeatState, rng: random.Random) -> list[int] | None:
        """A hand (34 counts) that meets the need, each drawn as often as a
        uniform deal of the unseen tiles gives it to the seat among those
        that do; ``None`` when no hand does. A few uniform hands are tried
        first (most needs are met by most hands); the count of every fitting
        hand is made only when they all miss, and then used for every later
        draw."""
        need = self.need
        if self.counted is None:
            for _ in range(SEAT_TRIES):
                hand = rng.sample(self.tiles, need.size)
                if rank(need, hand) in need.allowed:
                    counts = [0] * N_KINDS
                    for t in hand:
                        counts[t] += 1
                    return counts
        # (Once counted, the counts draw at once: either way a draw is uniform.)
        return self._counted(rng)

    def _counted(self, rng: random.Random) -> list[int] | None:
        """A fitting hand drawn from the counts of every fitting hand. The
        need splits into parts each counted with little to track: hands whose
        pair or chow of the discard meets it (the win does not matter: no
        automaton), hands that must win (the automaton, each dead state
        dropped at once), and hands that must not win, counted as all hands of
        their part less those that win, and drawn from all of them until one
        does not win."""
        need = self.need
        parts = self.parts()
        total = sum(part[0] for part in parts)
        if not total:
            return None
        pick = rng.randrange(total)
        for ways, bases, whole, no_win in parts:
            if pick >= ways:
                pick -= ways
                continue
            if not no_win:
                return whole.draw(whole.first(), rng)
            for _ in range(SEAT_TRIES):
                hand = whole.draw(whole.first(), rng)
                if rank(need, [k for k in range(N_KINDS) for _ in range(hand[k])]) != 3:
                    return hand
            # Nearly every hand of this part wins: count those that do not.
            if self.exact is None:
                self.exact = _Seat(need, self.pool, self.left, (bases, _MUST_NOT))
            return self.exact.draw(self.exact.first(), rng)
        raise AssertionError("the pick lies within the total")

    def parts(self) -> list[tuple[int, frozenset[int], _Seat, bool]]:
        """The need's parts: for each, how many fitting hands it has (the
        copies of a kind told apart), its ranks without the win, the seat
        that draws its hands, and whether a drawn hand must then not win."""
        if self.counted is not None:
            return self.counted
        need = self.need
        parts: list[tuple[int, frozenset[int], _Seat, bool]] = []
        for bases, win in _parts(need.allowed):
            whole = _Seat(need, self.pool, self.left, (bases, _ANY if win == _MUST_NOT else win))
            ways = whole.ways(0, whole.first())
            if win == _MUST_NOT:
                winners = _Seat(need, self.pool, self.left, (bases, _MUST))
                ways -= winners.ways(0, winners.first())
            parts.append((ways, bases, whole, win == _MUST_NOT))
        self.counted = parts
        return parts

    def first(self) -> SeatState:
        """The state before the first kind."""
        aut = _DEAD_MARK if self.branch is not None and self.branch[1] == _ANY else _START
        state: SeatState = (0, aut, _OPEN, 0)
        if self.need.last < 0:
            state = (0, aut, self._settle(0, _START), 0)
        return state

    def ways(self, kind: int, state: SeatState) -> int:
        """In how many ways the seat alone can meet its need with the unseen
        tiles of ``kind`` onwards, the copies of a kind told apart (exact,
        remembered)."""
        if kind == N_KINDS:
            return 1 if self.final(state) else 0
        key = (kind, state)
        found = self.known.get(key)
        if found is None:
            found = 0
            room = self.need.size - state[0]
            if room <= self.left[kind]:
                have = self.pool[kind]
                for held in range(min(have, room, 4) + 1):
                    after = self.advance(kind, state, held)
                    if after is not None:
                        found += math.comb(have, held) * self.ways(kind + 1, after)
            self.known[key] = found
        return found

    def draw(self, state: SeatState, rng: random.Random) -> list[int]:
        """A hand (34 counts) that meets the need, each drawn as often as a
        uniform deal of the unseen tiles gives it to the seat."""
        out = [0] * N_KINDS
        for kind in range(N_KINDS):
            pick = rng.randrange(self.ways(kind, state))
            have = self.pool[kind]
            for held in range(min(have, self.need.size - state[0], 4) + 1):
                after = self.advance(kind, state, held)
                if after is None:
                    continue
                weight = math.comb(have, held) * self.ways(kind + 1, after)
                if pick < weight:
                    out[kind] = held
                    state = after
                    break
                pick -= weight
        return out


#: The automaton of a seat that no longer needs one.
_DEAD_MARK: Final[Aut] = frozenset({(-1, -1, -1)})


def _start(seat: _Seat) -> SeatState | None:
    state: SeatState = (0, _START, _OPEN, 0)
    if seat.need.last < 0:
        asks = seat._settle(0, _START)
        if asks < 0:
            return None
        state = (0, _START, asks, 0)
    return state


def hands(
    needs: list[Need], pool: list[int], rng: random.Random
) -> tuple[list[list[int]] | None, Need | None]:
    """Counts of 34 kinds for each need's seat, drawn from ``pool`` (the
    unseen playing tiles, 34 counts), meeting every need: or ``None`` and the
    first need no hand meets on its own (``None`` when only their sum fails).

    Each seat's hand is drawn exactly as a uniform deal gives it, among the
    hands that meet its need; with several seats, their hands are drawn apart
    and kept together with the chance that a uniform deal would give them
    together rather than apart (never more than 1), so what is kept is a
    uniform fitting deal. When :data:`JOINT_TRIES` draws are all refused, the
    seats compete for a few tiles: then a search through every split of each
    kind among them finds a fitting deal if there is one (trying the splits in
    a random order that follows a uniform deal's odds, but not weighted
    exactly as one)."""
    left = [0] * (N_KINDS + 1)
    for kind in range(N_KINDS - 1, -1, -1):
        left[kind] = left[kind + 1] + pool[kind]
    seats = [_Seat(need, pool, left) for need in needs]
    starts: list[SeatState] = []
    for seat in seats:
        first = _start(seat)
        if first is None:
            return None, seat.need
        starts.append(first)
    for _ in range(JOINT_TRIES if len(seats) > 1 else 1):
        drawn: list[list[int]] = []
        for seat, first in zip(seats, starts, strict=True):
            hand = seat.sample(first, rng)
            if hand is None:
                return None, seat.need
            drawn.append(hand)
        if _together(drawn, pool, rng):
            return drawn, None
    for seat, first in zip(seats, starts, strict=True):
        if not seat.can(0, first):
            return None, seat.need
    failed: set[tuple[int, tuple[SeatState, ...]]] = set()
    chosen: list[tuple[int, ...]] = []

    def search(kind: int, states: tuple[SeatState, ...]) -> bool:
        if kind == N_KINDS:
            return True
        if (kind, states) in failed:
            return False
        rooms = [s.need.size - st[0] for s, st in zip(seats, states, strict=True)]
        if sum(rooms) <= left[kind]:
            for split in _splits(pool[kind], rooms, left[kind], rng):
                after: list[SeatState] = []
                for seat, state, held in zip(seats, states, split, strict=True):
                    moved = seat.advance(kind, state, held)
                    if moved is None or not seat.can(kind + 1, moved):
                        break
                    after.append(moved)
                else:
                    chosen.append(split)
                    if search(kind + 1, tuple(after)):
                        return True
                    chosen.pop()
        failed.add((kind, states))
        return False

    if not search(0, tuple(starts)):
        return None, None
    out = [[0] * N_KINDS for _ in needs]
    for kind, split in enumerate(chosen):
        for k, held in enumerate(split):
            out[k][kind] = held
    return out, None


_ANY: Final = 0
_MUST: Final = 1
_MUST_NOT: Final = 2


def _parts(allowed: frozenset[int]) -> list[tuple[frozenset[int], int]]:
    """A need's allowed claim ranks as disjoint parts: the ranks the hand has
    without a win (2 a pair, 1 a chow, 0) and what it asks of the win."""
    every = frozenset({0, 1, 2})
    if 3 in allowed:
        below = frozenset(r for r in allowed if r < 3)
        parts = [(below, _ANY)] if below else []
        if every - below:
            parts.append((every - below, _MUST))
        return parts
    return [(allowed & every, _MUST_NOT)]


#: Uniform hands a seat tries before it counts every fitting hand.
SEAT_TRIES: Final = 20
#: Joint draws of the constrained hands before the search of every split.
JOINT_TRIES: Final = 100


def _together(drawn: list[list[int]], pool: list[int], rng: random.Random) -> bool:
    """Whether to keep hands drawn apart: with the chance that a uniform deal
    gives them together, over the chance it gives each apart, for each kind
    the product over seats of (have - held)! over have!^(seats - 1) times
    (have - all held)!, which is at most 1 (0 when they hold more than there is)."""
    num = den = 1
    others = len(drawn) - 1
    for kind, have in enumerate(pool):
        held = [hand[kind] for hand in drawn]
        rest = have - sum(held)
        if rest < 0:
            return False
        if others and any(held):
            for h in held:
                num *= math.factorial(have - h)
            den *= math.factorial(have) ** others * math.factorial(rest)
    return num == den or rng.randrange(den) < num


def _splits(have: int, rooms: list[int], left: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Every way to give the seats some of the ``have`` unseen tiles of a kind
    (at most each seat's room), in a random order weighted by the chance that a
    uniform deal of the ``left`` tiles still unseen splits the kind that way."""
    splits: list[tuple[int, ...]] = [()]
    for room in rooms:
        splits = [(*s, k) for s in splits for k in range(min(room, 4) + 1) if sum(s) + k <= have]
    rest = left - sum(rooms)
    keyed: list[tuple[float, tuple[int, ...]]] = []
    for split in splits:
        weight = math.comb(rest, have - sum(split))
        for room, held in zip(rooms, split, strict=True):
            weight *= math.comb(room, held)
        if weight:
            keyed.append((rng.random() ** (1.0 / weight), split))
        else:
            keyed.append((-1.0, split))
    keyed.sort(reverse=True)
    return [split for _key, split in keyed]

"""One player's past in a deal's record: which card of their hand they drew
at each draw, going back from the end, so that every claim window says of
their hand what it did (:class:`PastSearch`), and the facts a window states
of a hand.

This is where the sampler (:mod:`._worlds`) spends most of its time, so it is
among the modules the compiled build compiles with mypyc (``hatch_build.py``):
the plan's fields it reads in its loops are copied to typed attributes once,
and it calls only compiled code (the engine's ``can_pon``) and integers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from .._kit.rng import Rng
from .._tables import JOKER_BIT, RANK_MASK, bits
from ..cards import JOKER_INDEX
from ..engine.claims import can_pon
from ..rules import Rules

# What a claim window says of one player's hand as it opened.
ABLE: Final = 0  # (value) whether they could pon the discard
JOKER: Final = 1  # (value) whether they held the joker
HELD: Final = 2  # (always true) they held the cards of a pon of theirs that lost


#: Every card but the joker.
_NATURALS: Final = (1 << 52) - 1
#: By card (the joker's is unused): the cards whose presence in a hand
#: decides whether it can pon the card, its rank's and the joker.
_PON_MASK: Final = tuple(RANK_MASK[c % 13] | JOKER_BIT for c in range(52))


def pon_in(hand: int, card: int, rules: Rules, memo: dict[int, bool] | None) -> bool:
    """The engine's ``can_pon(hand, card, rules)``, remembered in ``memo`` (one
    per rules; ``None``: not remembered). A speed trick, not a second home of
    the rule: for any card but the joker the engine's answer depends only on
    the hand's cards of the card's rank, its joker, and whether it holds
    another card (it must keep one to discard), so those make the key, and a
    hand with the same ones gets the same answer (at most 2^5 x 2 x 52 keys).
    For the joker (a pair of any rank may pon it) the key is the whole hand:
    those keys are many, so the memo is emptied when it holds
    :data:`_MEMO_MOST` (on views where the joker was discarded, most of the
    engine's answers were for the joker, and two in three were asked before)."""
    if memo is None:
        return can_pon(hand, card, rules)
    if card == JOKER_INDEX:
        key = hand << 7 | card
        got = memo.get(key)
        if got is None:
            if len(memo) >= _MEMO_MOST:
                memo.clear()
            got = memo[key] = can_pon(hand, card, rules)
        return got
    mask = _PON_MASK[card]
    key = (hand & mask) << 7 | (64 if hand & ~mask else 0) | card
    got = memo.get(key)
    if got is None:
        got = memo[key] = can_pon(hand, card, rules)
    return got


#: How many answers a memo of :func:`pon_in` holds at most.
_MEMO_MOST: Final = 1 << 16

#: :func:`pon_in`'s memos, by rules (see :func:`pons_of`).
_PONS: dict[Rules, dict[int, bool]] = {}


def pons_of(rules: Rules) -> dict[int, bool]:
    """The memo of :func:`pon_in` for ``rules``, shared by every search (a
    few thousand answers at most but for the joker's; a speed trick: the
    searches of one sample are many, and a memo of their own asked the
    engine a third of the time). The memos of the last few rules are kept."""
    memo = _PONS.get(rules)
    if memo is None:
        if len(_PONS) >= 16:
            del _PONS[next(iter(_PONS))]
        memo = _PONS[rules] = {}
    return memo


def padded_pon_in(hand: int, card: int, rules: Rules, memo: dict[int, bool]) -> bool:
    """:func:`pon_in` of ``hand`` with a card of another rank added
    (:func:`pad_card`): whether the hand's cards of the rank and its joker
    could pon ``card`` whatever its other cards."""
    if card == JOKER_INDEX:
        return pon_in(hand | pad_card(hand, card), card, rules, memo)
    key = (hand & _PON_MASK[card]) << 7 | 64 | card
    got = memo.get(key)
    if got is None:
        got = memo[key] = can_pon(hand | pad_card(hand, card), card, rules)
    return got


def fact_fits(
    hand: int, card: int, kind: int, value: bool, rules: Rules, memo: dict[int, bool] | None = None
) -> bool:
    if kind == JOKER:
        return bool(hand & JOKER_BIT) == value
    return pon_in(hand, card, rules, memo) == value


def segment_fits(
    p: int,
    hand: int,
    segment: Sequence[tuple[int, int, int, bool]],
    held: dict[tuple[int, int], int],
    cards: Sequence[int],
    rules: Rules,
    memo: dict[int, bool] | None = None,
) -> bool:
    """Whether player ``p`` holding ``hand`` (after the segment) meets every
    fact of the segment, going back through their outs (``memo``: see
    :func:`pon_in`)."""
    for _, outs, fact, value in segment:
        if outs >= 0:
            hand |= outs
        elif fact & 3 == HELD:
            named = held[fact >> 2, p]
            if hand & named != named:
                return False
        elif not fact_fits(hand, cards[fact >> 2], fact & 3, value, rules, memo):
            return False
    return True


def pad_card(hand: int, card: int) -> int:
    """A card of another rank than ``card`` and not in ``hand``: it stands for
    the hand's other cards, so that ``_claims`` does not refuse a pon for
    want of a card left to discard."""
    free = _NATURALS & ~hand & ~RANK_MASK[card % 13 if card < 52 else 0]
    return free & -free  # the lowest such card


JOKER_TYPE: Final = 13
ALL_TYPES: Final = (1 << 14) - 1


def type_of(card: int) -> int:
    return JOKER_TYPE if card == JOKER_INDEX else card % 13


def able_at_best(
    hand: int,
    wild: Sequence[int],
    types: Sequence[int],
    card: int,
    rules: Rules,
    memo: dict[int, bool] | None = None,
) -> bool:
    """Whether a hand of the cards ``hand`` and ``wild[j]`` cards of class
    ``j`` not chosen yet, each of one of the types ``types[j]`` (bit t: rank
    t, bit 13: the joker), can pon ``card`` for the best choice of those cards
    (pon is monotone: more cards never take it away). It may answer yes
    wrongly, never no."""
    total = sum(wild)
    union = 0
    for j, count in enumerate(wild):
        if count:
            union |= types[j]
    if card == JOKER_INDEX:
        # A pair of any rank pons the joker.
        if total >= 2 and union:
            return True
        for r in range(13):
            if union >> r & 1 and hand & RANK_MASK[r]:
                return True
        return pon_in(hand | pad_card(hand, card), card, rules, memo)
    r = card % 13
    of_rank = sum(count for j, count in enumerate(wild) if types[j] >> r & 1)
    fill = hand
    left = total
    for c in bits(RANK_MASK[r] & ~hand & ~(1 << card)):
        if not of_rank or not left:
            break
        fill |= 1 << c
        of_rank -= 1
        left -= 1
    if left and rules.jokers and union >> JOKER_TYPE & 1 and not hand & JOKER_BIT:
        fill |= JOKER_BIT
        left -= 1
    while left:
        pad = pad_card(fill, card)
        if not pad:
            break
        fill |= pad
        left -= 1
    return pon_in(fill, card, rules, memo)


#: By draw, the checks of :meth:`PastSearch._ahead_ok` (see :meth:`PastSearch._build_ahead_orders`).
_Ahead = tuple[
    tuple[tuple[int, int], ...],
    tuple[tuple[int, int, int, int, tuple[tuple[int, int, int], ...]], ...],
]

#: What a past search reads and never changes (see :meth:`PastSearch._fixed`).
_Fixed = tuple[
    list[_Ahead],
    list[int],
    list[int],
    list[tuple[int, ...]],
    list[tuple[tuple[int, ...], ...]],
    list[int],
    list[int],
    tuple[tuple[int, int, int, int, int], ...],
    list[int],
]


class PastSearch:
    """An exhaustive search of one player's past: which card of their hand
    they drew at each draw, going back from the end, so that every window
    says of their hand what it did. The hand may hold *wild* cards, by class
    (the stock a card came from), whose rank is not chosen yet: the search
    then answers whether some choice of them may fit, checking each window
    as if they were the best cards for it (a bound that never refuses a
    hand that fits). With no wild cards the answer is exact. The states
    that failed (a draw, the hand after it) are kept for the next questions:
    a search of the player's past from a draw depends on nothing else."""

    def __init__(
        self,
        p: int,
        plan: Any,
        masks: Sequence[int],
        rules: Rules,
        epochs: int,
        rng: Rng,
        tick: Callable[[], None] | None = None,
    ) -> None:
        self.p = p
        self.pons: dict[int, bool] = pons_of(rules)
        """The engine's pon answers, remembered (:func:`pon_in`)."""
        self.bests: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], bool] = {}
        """:func:`able_at_best`'s answers for a discard other than the joker,
        remembered by what decides them (see :meth:`_segment_ok`)."""
        self.tick = tick
        """Called at every step of the search: it may raise :class:`OutOfSteps`
        (what failed so far is kept, so a later :meth:`fits` goes further)."""
        # The plan's fields read in the loops (``_record.Plan``), typed.
        self.cards: tuple[int, ...] = plan.cards
        self.held: dict[tuple[int, int], int] = plan.held
        self.tail: tuple[tuple[int, int, int, bool], ...] = plan.tails[p]
        self.tail_outs: int = plan.tail_outs[p]
        self.masks: Sequence[int] = masks
        self.rules = rules
        self.epochs = epochs
        self.rng = rng
        self.draws: tuple[
            tuple[int, int, tuple[tuple[int, int, int, bool], ...] | None, int], ...
        ] = plan.draws[p]
        self.failed: set[tuple[int, tuple[int, int], tuple[int, ...], tuple[int, ...]]] = set()
        self.passed: set[tuple[int, tuple[int, int], tuple[int, ...], tuple[int, ...]]] = set()
        """The states of a question with wild cards (a bound, whose path
        nobody reads) that passed: asked again, they pass at once."""
        self.aheads: dict[int, bool] = {}
        """:meth:`_ahead_ok`'s answers, by draw ``k`` and what of the hand
        decides them (see :meth:`_ahead_fits`; a speed trick: most hands that
        pass are asked again, on other paths to the same draw)."""
        self.segments: dict[int, bool] = {}
        """By draw ``k`` and the cards of the hand after it that decide its
        segment's facts (:attr:`decides`), with :data:`_OTHERS` if it holds
        any other, as ``k << 54 | cards``: whether the hand without wild
        cards meets them (a speed trick: the same hands come back on other
        paths and in other questions)."""
        self.types: tuple[int, ...] = ()
        self.passed_near: set[tuple[int, tuple[int, int], tuple[int, ...], tuple[int, ...]]] = set()
        """:attr:`passed` of the questions that go back :attr:`limit` draws only
        (see :meth:`fits`); a state that fails there fails for the whole past
        too, so those share :attr:`failed`."""
        self.limit = len(self.draws)
        """How many draws the current question goes back through."""
        self.passing = self.passed
        self.path: list[int] = [0] * len(self.draws)
        # What the search reads and never changes: a function of the plan,
        # the masks and the player, so kept on the plan for every search of
        # this player's past (one per sample and try; a speed trick).
        fixed = plan.fixed.get(p)
        if fixed is None:
            fixed = plan.fixed[p] = self._fixed(plan)
        (self.ahead, self.sooner, self.later, self.kind, self.tally, self.special,
         self.decides, self.musts, self.looks) = fixed  # fmt: skip

    def _fixed(self, plan: Any) -> _Fixed:
        """:attr:`ahead`, :attr:`sooner`, :attr:`later`, :attr:`kind`,
        :attr:`tally`, :attr:`special`, :attr:`decides`, :attr:`musts` and
        :attr:`looks`, made."""
        p, masks, epochs = self.p, self.masks, self.epochs
        # The look-ahead checks and what they say of the draws' cards read
        # the player's draws and the discards of the windows that say
        # something of them only: made once for the plans of every guess of
        # an unknown upcard that agree on those (``plan.shared``).
        discards, facts = self.cards, plan.facts
        key = (p, tuple(discards[w] for w in plan.guessed if any(q == p for q, _, _ in facts[w])))
        shared: dict[Any, Any] = plan.shared
        found = shared.get(key)
        if found is None:
            found = shared[key] = self._build_ahead_orders()
        ahead: list[_Ahead] = found[0]
        soon: list[int] = found[1]
        late: list[int] = found[2]
        looks: list[int] = found[3]
        # By draw: each card's kind there, its type and the reshuffled stocks
        # it was in of those the draws still to go back through took from
        # (the draws come latest first, so their stocks never grow): two
        # cards in no other such stock are alike to all those draws.
        by_epoch: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = []
        kinds = [type_of(c) for c in range(53)]
        for j in range(epochs):
            if j:
                for c in bits(masks[j]):
                    kinds[c] |= 1 << (4 + j)
            frozen = tuple(kinds)
            by_epoch.append((frozen, _tally_tables(frozen)))
        kind = [by_epoch[epoch][0] for _, epoch, _, _ in self.draws]
        tally = [by_epoch[epoch][1] for _, epoch, _, _ in self.draws]
        # By draw: the cards the record names for this player before it (put
        # out), and those of their pons that did not take the discard.
        held = 0
        for (_, q), cards in self.held.items():
            if q == p:
                held |= cards
        # (The draws come latest first, the outs in order.)
        draws, outs = self.draws, plan.outs_of[p]
        special = [0] * len(draws)
        named, i = held, 0
        for k in range(len(draws) - 1, -1, -1):
            while i < len(outs) and outs[i][0] < draws[k][0]:
                named |= outs[i][1]
                i += 1
            special[k] = named
        # By draw: the cards whose presence decides its segment's facts
        # (see :meth:`_segment_ok`; all of them where a fact is about the joker).
        decided: list[int] = []
        for draw in self.draws:
            decides = 0
            for _, outs, fact, _ in draw[2] or ():
                if outs >= 0:
                    continue
                if fact & 3 == HELD:
                    decides |= self.held[fact >> 2, p]
                elif fact & 3 == JOKER:
                    decides |= JOKER_BIT
                else:
                    card = self.cards[fact >> 2]
                    decides |= _ALL_CARDS if card == JOKER_INDEX else _PON_MASK[card]
            decided.append(decides)
        # What each window that says the player held something asks of the
        # hand now: the cards it may have held then are those of the stocks
        # it had drawn from by then, less the draws since, plus the outs since.
        of_class = [0] * epochs
        later_stocks = 0
        for j in range(epochs - 1, 0, -1):
            of_class[j] = masks[j] & ~later_stocks
            later_stocks |= masks[j]
        of_class[0] = _ALL_CARDS & ~later_stocks
        musts: list[tuple[int, int, int, int, int]] = []
        for _, w, fact, usable, classes in plan.positives[p]:
            allowed = 0
            for j in range(epochs):
                if classes >> j & 1:
                    allowed |= of_class[j]
            musts.append((fact, self.cards[w], usable, allowed, classes))
        return ahead, soon, late, kind, tally, special, decided, tuple(musts), looks

    def _build_ahead_orders(
        self,
    ) -> tuple[list[_Ahead], list[int], list[int], list[int]]:
        """:attr:`ahead`, :attr:`sooner`, :attr:`later` and :attr:`looks`, made."""
        ahead = self._build_ahead()
        # By draw: the cards best taken as its card (a window a few draws back
        # says the player could not pon their rank), and those best kept
        # (a window there says they could).
        soon: list[int] = []
        late: list[int] = []
        for checks in ahead:
            sooner = later = 0
            for _, card, value, _ in checks:
                if card == JOKER_INDEX:
                    continue
                if value:
                    later |= RANK_MASK[card % 13] | JOKER_BIT
                else:
                    sooner |= RANK_MASK[card % 13]
            soon.append(sooner & ~later)
            late.append(later & ~sooner)
        # By draw: the cards of the hand whose presence decides
        # :meth:`_ahead_ok` (the rest count only by their number): the
        # discards' ranks, the joker and the outs between; every card where
        # a check is that the player could pon the joker (a pair of any rank).
        looks: list[int] = []
        for checks in ahead:
            look = JOKER_BIT
            for _, card, value, outs in checks:
                if card == JOKER_INDEX:
                    if value:
                        look = _ALL_CARDS
                else:
                    look |= RANK_MASK[card % 13]
                look |= outs
            looks.append(look)
        # By draw, the checks as :meth:`_ahead_ok` reads them: those that the
        # player could pon (discard, outs between), then by rank those that
        # they could not (the rank's cards, the fewest draws between, how
        # many cards of the rank a pon takes, every out between, and each
        # check as (draws between, discard, outs between)).
        split: list[_Ahead] = []
        for checks in ahead:
            ables: list[tuple[int, int]] = []
            by_rank: dict[int, list[tuple[int, int, int]]] = {}
            for d, card, value, outs in checks:
                if value:
                    ables.append((card, outs))
                elif card != JOKER_INDEX:
                    by_rank.setdefault(card % 13, []).append((d, card, outs))
            unables: list[tuple[int, int, int, int, tuple[tuple[int, int, int], ...]]] = []
            for r, of_rank in by_rank.items():
                outs_all = 0
                for _, _, outs in of_rank:
                    outs_all |= outs
                nearest = min(d for d, _, _ in of_rank)
                unables.append(
                    (RANK_MASK[r], nearest, 1 if r == 6 else 2, outs_all, tuple(of_rank))
                )
            split.append((tuple(ables), tuple(unables)))
        return split, soon, late, looks

    def _build_ahead(self) -> list[tuple[tuple[int, int, bool, int], ...]]:
        """By draw: the pon facts of the windows a few draws back, as (draws
        between, discard, value, the player's outs between)."""
        draws = self.draws
        # By draw: its outs and pon facts, in order ((outs, -2, False) for outs).
        items: list[list[tuple[int, int, bool]]] = []
        for _, _, segment, outs in draws:
            if segment is None:
                items.append([(outs, -2, False)])
                continue
            row: list[tuple[int, int, bool]] = []
            for _, cards, fact, value in segment:
                if cards >= 0:
                    row.append((cards, -2, False))
                elif fact & 3 == ABLE:
                    row.append((0, self.cards[fact >> 2], value))
            items.append(row)
        ahead: list[tuple[tuple[int, int, bool, int], ...]] = []
        for k in range(len(draws)):
            checks: list[tuple[int, int, bool, int]] = []
            outs = 0
            for m in range(k, min(len(draws), k + AHEAD)):
                for cards, card, value in items[m]:
                    if card == -2:
                        outs |= cards
                    else:
                        checks.append((m - k + 1, card, value, outs))
            ahead.append(tuple(checks))
        return ahead

    def _ahead_fits(self, k: int, hand: int) -> bool:
        """:meth:`_ahead_ok`, remembered in :attr:`aheads`: its answer depends
        only on the cards :attr:`looks` names and on how many others the hand
        holds (a speed trick: one answer for all hands alike so)."""
        look = self.looks[k]
        key = (k << 6 | (hand & ~look).bit_count()) << 53 | hand & look
        ok = self.aheads.get(key)
        if ok is None:
            ok = self.aheads[key] = self._ahead_ok(k, hand)
        return ok

    def _ahead_ok(self, k: int, hand: int) -> bool:
        """A quick refusal of the hand just after draw ``k``: a window a few
        draws back that must show a pon no card of the hand and of the outs
        since can make, or that must show none while so many cards of the
        discard's rank stay that the draws since cannot have brought them all
        (the hand then was this hand and the outs since, less one card a draw)."""
        rules, memo = self.rules, self.pons
        ables, unables = self.ahead[k]
        for card, outs in ables:
            if not padded_pon_in(hand | outs, card, rules, memo):
                return False
        for mask, nearest, need, outs_all, checks in unables:
            # (None of the rank's checks refuses where, with every out since
            # and the fewest draws, the cards of the rank are too few.)
            if ((hand | outs_all) & mask).bit_count() - nearest < need:
                continue
            for d, card, outs in checks:
                every = hand | outs
                same = every & mask & ~(1 << card)
                if (
                    same.bit_count() - d >= need
                    and (every & ~mask & ~JOKER_BIT).bit_count() - d >= 1
                ):
                    witness = 0
                    for c in bits(same)[:need]:
                        witness |= 1 << c
                    if padded_pon_in(witness, card, rules, memo):
                        return False
        return True

    def _segment_fits(
        self, k: int, hand: int, segment: Sequence[tuple[int, int, int, bool]]
    ) -> bool:
        """Whether ``hand``, without wild cards, meets draw ``k``'s ``segment``,
        remembered in :attr:`segments`: the answer depends only on the cards
        of the hand that decide the segment's facts (:attr:`decides`) and on
        whether it holds any other (:func:`pon_in`; a speed trick)."""
        decides = self.decides[k]
        key = k << 54 | hand & decides | (_OTHERS if hand & ~decides else 0)
        fit = self.segments.get(key)
        if fit is None:
            fit = self.segments[key] = self._segment_ok(hand, (), segment)
        return fit

    def _segment_ok(
        self, hand: int, wild: Sequence[int], segment: Sequence[tuple[int, int, int, bool]]
    ) -> bool:
        rules, p, types = self.rules, self.p, self.types
        if not any(wild):
            return segment_fits(p, hand, segment, self.held, self.cards, rules, self.pons)
        joker = -1  # whether a wild card may be the joker (-1: not asked yet)
        for _, outs, fact, value in segment:
            if outs >= 0:
                hand |= outs
                continue
            kind = fact & 3
            if kind == HELD:
                cards = self.held[fact >> 2, p]
                if hand & cards != cards:
                    return False
                continue
            card = self.cards[fact >> 2]
            if kind == JOKER:
                if hand & JOKER_BIT:
                    if not value:
                        return False
                elif value:
                    if joker < 0:
                        joker = int(
                            any(
                                count and types[j] >> JOKER_TYPE & 1 for j, count in enumerate(wild)
                            )
                        )
                    if not joker:
                        return False
            elif not value:
                if pon_in(hand, card, rules, self.pons):
                    return False
            elif card != JOKER_INDEX:
                # able_at_best fills the hand with cards of the discard's rank,
                # the joker and cards of other ranks: its answer depends only
                # on the hand's cards of the rank, its joker and whether it
                # holds another card (pon_in), and the wild cards (a speed trick).
                mask = _PON_MASK[card]
                key = (card, hand & mask | (_OTHERS if hand & ~mask else 0), tuple(wild), types)
                best = self.bests.get(key)
                if best is None:
                    best = self.bests[key] = able_at_best(hand, wild, types, card, rules, self.pons)
                if not best:
                    return False
            elif not able_at_best(hand, wild, types, card, rules, self.pons):
                return False
        return True

    def fits(
        self, hand: int, wild: Sequence[int], types: Sequence[int] = (), near: int = 0
    ) -> bool:
        """Whether the player, holding ``hand`` and ``wild[j]`` cards of class
        ``j`` not chosen yet, each of one of the types ``types[j]`` (bit t:
        rank t, bit 13: the joker), may have a past that fits (exact without
        wild cards; :attr:`path` then holds the card of each draw).

        ``near`` (with wild cards only; 0: all of them): go back through that
        many draws at most, a weaker bound that never refuses a hand that
        fits, for the checks asked again and again while a hand is chosen.
        What refutes most hands is near the end, and a search that passes
        must go back through every draw: the whole past would cost the same
        per pass, and passes are most of the answers."""
        self.types = tuple(types) if any(wild) else ()
        if not self.types and not self.may_fit(hand):
            return False
        if self.types and not self.may_fit_wild(hand, wild, self.types):
            return False
        if not self._segment_ok(hand, wild, self.tail):
            return False
        if near and self.types and near < len(self.draws):
            self.limit, self.passing = near, self.passed_near
        else:
            self.limit, self.passing = len(self.draws), self.passed
        start, left = hand | self.tail_outs, tuple(wild)
        if self.types:
            return self._bound_back(start, left)
        return self._back(0, start, left)

    def _bound_back(self, hand: int, wild: tuple[int, ...]) -> bool:
        """:meth:`_back` from the first draw for a bound (a question with wild
        cards, whose options come in a fixed order), its first path followed
        in a loop: without the states :meth:`_back` keeps, as far as that path
        goes, then :meth:`_back` from each draw of it back to the first, the
        last first, where it stops short (each such search finds the
        states after it failed, so together they search what :meth:`_back`
        from the first draw would, in the same order). A speed trick: a bound
        passes far more often than not, mostly on its first path, and each
        pass goes back through every draw to the limit."""
        draws, masks, tick = self.draws, self.masks, self.tick
        hands: list[int] = []
        wilds: list[tuple[int, ...]] = []
        for k in range(self.limit):
            hands.append(hand)
            wilds.append(wild)
            if tick is not None:
                tick()
            exact = not any(wild)
            if exact and not self._ahead_fits(k, hand):
                break
            _, epoch, segment, outs = draws[k]
            cards = hand if epoch == 0 else hand & masks[epoch]
            sooner, later = self.sooner[k], self.later[k]
            pick = cards & sooner or cards & ~sooner & ~later
            if pick or not wild[epoch]:
                pick = pick or cards & later
                if not pick:
                    break
                rest, left = hand & ~(pick & -pick), wild
            else:
                rest, left = hand, (*wild[:epoch], wild[epoch] - 1, *wild[epoch + 1 :])
            if segment is not None:
                if exact:
                    if not self._segment_fits(k, rest, segment):
                        break
                elif not self._segment_ok(rest, left, segment):
                    break
            hand, wild = rest | outs, left
        else:
            if self.limit < len(draws) or not any(wild[1:]):
                return True
            hands.append(hand)
            wilds.append(wild)
        return any(self._back(k, hands[k], wilds[k]) for k in range(len(hands) - 1, -1, -1))

    def may_fit(self, hand: int) -> bool:
        """A quick check of ``hand`` (no wild cards) without a search: whether
        every window that says the player held something (able to pon, the
        joker) finds it among the cards they may have held then (the hand's
        cards of the stocks they had drawn from by then, and their outs
        since). ``False`` only for a hand :meth:`fits` refuses."""
        rules, memo = self.rules, self.pons
        for fact, card, usable, allowed, _ in self.musts:
            cards = hand & allowed | usable
            if fact == JOKER:
                if not cards & JOKER_BIT:
                    return False
            elif not padded_pon_in(cards, card, rules, memo):
                return False
        return True

    def may_fit_wild(self, hand: int, wild: Sequence[int], types: Sequence[int]) -> bool:
        """:meth:`may_fit` of ``hand`` and ``wild[j]`` cards of class ``j``
        not chosen yet, each of one of the types ``types[j]``: the wild cards
        of the classes the player had drawn from by a window count as the
        best cards for it there (:func:`able_at_best`). ``False`` only where
        :meth:`fits` says no."""
        rules, memo = self.rules, self.pons
        epochs = self.epochs
        for fact, card, usable, allowed, classes in self.musts:
            cards = hand & allowed | usable
            some = [wild[j] if classes >> j & 1 else 0 for j in range(epochs)]
            if fact == JOKER:
                if cards & JOKER_BIT:
                    continue
                if not any(count and types[j] >> JOKER_TYPE & 1 for j, count in enumerate(some)):
                    return False
            elif not any(some):
                if not padded_pon_in(cards, card, rules, memo):
                    return False
            elif not able_at_best(cards, some, types, card, rules, memo):
                return False
        return True

    def _back(self, k: int, hand: int, wild: tuple[int, ...]) -> bool:
        if k == self.limit:
            return k < len(self.draws) or not any(wild[1:])
        # The hand up to cards alike: the cards the record names before the
        # draw (:attr:`special`), and how many of each kind of the others. A
        # card's kind is its type (rank, or the joker) and the reshuffled
        # stocks it was in (which draws may have taken it): two cards of one
        # kind meet every window, stock and draw before the draw alike, so a
        # hand that failed fails with one swapped for the other. The counts
        # by the bytes of the hand (:func:`_tally_tables`), inline (a speed
        # trick: this runs at every step).
        special, tally = self.special[k], self.tally[k]
        others = hand & ~special
        alike = (
            hand & special,
            tally[0][others & 255]
            + tally[1][others >> 8 & 255]
            + tally[2][others >> 16 & 255]
            + tally[3][others >> 24 & 255]
            + tally[4][others >> 32 & 255]
            + tally[5][others >> 40 & 255]
            + tally[6][others >> 48 & 255],
        )
        state = (k, alike, wild, self.types)
        if state in self.failed:
            return False
        bound = bool(self.types)
        if bound and state in self.passing:
            return True
        if self.tick is not None:
            self.tick()
        exact = not any(wild)
        if exact and not self._ahead_fits(k, hand):
            self.failed.add(state)
            return False
        _, epoch, segment, outs = self.draws[k]
        cards = hand if epoch == 0 else hand & self.masks[epoch]
        sooner, later = self.sooner[k], self.later[k]
        # The cards best taken first, the others (and a wild card), then
        # those best kept: each group in a random order, but for a bound,
        # whose answer is the same in any order (the order changes only which
        # failed states are kept on the way) and whose path is never read
        # (the first option passes almost always: shuffling was time spent
        # for nothing).
        options = bits(cards & ~sooner & ~later)
        if wild[epoch]:
            options.append(-1)
        first = bits(cards & sooner) if cards & sooner else []
        last = bits(cards & later) if cards & later else []
        if not bound:
            shuffle = self.rng.shuffle
            for group in (options, first, last):  # (in this order: the same draws)
                if len(group) > 1:
                    shuffle(group)
        if first:
            options = first + options
        if last:
            options += last
        # Cards of one kind (see above) are alike to everything before this
        # draw: one of each kind is enough.
        kind, tried = self.kind[k], set()
        for c in options:
            if c >= 0 and not special >> c & 1:
                if kind[c] in tried:
                    continue
                tried.add(kind[c])
            if c < 0:
                rest, left = hand, (*wild[:epoch], wild[epoch] - 1, *wild[epoch + 1 :])
            else:
                rest, left = hand & ~(1 << c), wild
            if segment is None:
                pass
            elif exact:
                if not self._segment_fits(k, rest, segment):
                    continue
            elif not self._segment_ok(rest, left, segment):
                continue
            if self._back(k + 1, rest | outs, left):
                self.path[k] = c
                if bound:
                    self.passing.add(state)
                return True
        self.failed.add(state)
        return False

    def choices(self) -> dict[int, int]:
        """The draws of the last exact :meth:`fits` that answered yes."""
        return {self.draws[k][0]: c for k, c in enumerate(self.path)}


#: Every card (see :attr:`PastSearch.decides`), and a bit above them all.
_ALL_CARDS: Final = (1 << 53) - 1
_OTHERS: Final = 1 << 53

#: :func:`_tally_tables` by the cards' kinds.
_TALLIES: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def _tally_tables(kind: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For each byte of a hand (cards 0-7, 8-15, ..., 48-52), the hand's count
    of cards of each kind (``kind``, by card) in that byte, four bits a kind
    (a kind has at most four cards): the seven added up make a key of the
    hand's kinds, as :meth:`PastSearch._back` wants (a speed trick: no loop
    over the cards)."""
    found = _TALLIES.get(kind)
    if found is None:
        place = {k: i for i, k in enumerate(sorted(set(kind)))}
        tables: list[tuple[int, ...]] = []
        for b in range(7):
            table = [0]
            for c in range(8 * b, min(8 * b + 8, 53)):
                weight = 1 << 4 * place[kind[c]]
                table += [t + weight for t in table]  # the bytes with card c
            table += [0] * (256 - len(table))  # (the last byte's unused bits)
            tables.append(tuple(table))
        found = _TALLIES[kind] = tuple(tables)
        if len(_TALLIES) > 256:
            del _TALLIES[next(iter(_TALLIES))]
    return found


#: How many draws back :meth:`PastSearch._ahead_ok` looks.
AHEAD: Final = 8


class OutOfSteps(Exception):
    """A :class:`_WorldSearch` used up the steps it was given."""

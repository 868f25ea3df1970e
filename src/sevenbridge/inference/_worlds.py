"""Worlds the engine could have reached: what a deal's public record reveals
about the hidden cards, :func:`sample` (behind :func:`sevenbridge.sample_state`)
and :func:`conflict` (behind ``GameState.from_json(..., verify=True)``).

Cards move out of sight in one way only: a player draws from the stock. Every
other move shows its cards (discards, melds, lay-offs, claims), and a
reshuffle turns the shown discards into the next stock. So a deal's public
record (its history) fixes, for every player, how many of the cards they hold
came from the deal or from each reshuffled stock (their *classes* below), and
the claim windows tell more where the rules make them depend on the hands:

* with ``claim_window='able_only'`` the engine asks only players who can pon,
  so being asked shows a pon, and being passed over shows none;
* with ``pon_tie_break='joker_holder'`` a pon waits in the window unless its
  caller holds the joker, so a waiting pon shows no joker, and a pon taken
  while others were still to be asked shows it;
* a pon that does not take the discard (it lost to another pon, or still
  waits) shows the cards it named, and they stay in the caller's hand until
  the record shows them played.

A world is reachable when some deal and some draws lead through the very same
record to it. :func:`sample` builds one: it deals the hidden cards of the
present with the right classes (uniformly at random for a few tries, then by
:class:`_WorldSearch`, which misses none), searches each player's past
exhaustively (:class:`PastSearch`), then walks the record backwards,
putting each drawn card back on the stock, and checks every claim window on
the way with the engine's own window code (``engine.claims.play_window``). What it ends with is a whole deal: a deck order and
the order of every reshuffled stock, which :func:`replay` plays forward with
the engine to the sampled world (the tests do).
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any, Final, NamedTuple

import attrs

from .._kit.rng import Rng, derive, shuffled
from .._tables import JOKER_BIT, RANK_MASK, bits
from ..actions import Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS, JOKER_INDEX
from ..engine._keys import OP_PON, PASSES
from ..engine.claims import AFTER, may_claim, play_window, pon_takes_at_once
from ..engine.step import apply
from ..engine.turn import HAND_SIZE, first_player
from ..errors import InvalidStateError, Message
from ..rules import ClaimWindow, PonTieBreak, Rules
from ..state import GameState, Phase
from ._past import (
    ABLE,
    HELD,
    JOKER,
    JOKER_TYPE,
    OutOfSteps,
    PastSearch,
    fact_fits,
    type_of,
)
from ._record import (
    DRAW,
    OUT,
    RESHUFFLE,
    UPCARD,
    WINDOW,
    Certificate,
    Plan,
    Timeline,
    Window,
)

__all__ = [
    "SAMPLE_TRIES", "Timeline", "certify", "conflict", "replay", "sample", "timeline",
]  # fmt: skip

#: Uniform deals of the hidden cards :func:`sample` tries before its search.
SAMPLE_TRIES: Final = 8


class _Unfit(Exception):
    """The history does not replay on the public cards (a made-up document)."""


def _cards_mask(cards: Sequence[Any]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card.index
    return out


def _pon_key(action: Pon) -> tuple[int, ...]:
    joker = -1 if action.joker_as is None else action.joker_as.index
    return (OP_PON, action.player, _cards_mask(action.cards), joker)


def timeline(position: Any) -> Timeline:
    """Replay ``position``'s history (a GameState or an Observation) on the
    public cards.

    Raises:
        _Unfit: if the history does not lead to the position's public part.
    """
    rules: Rules = position.rules
    n: int = position.players
    history = position.history
    first = first_player(rules, position.dealer, n)
    stock = rules.deck_size - HAND_SIZE * n - (1 if rules.upcard else 0)
    pile: list[int] = [UPCARD] if rules.upcard else []
    sizes = [HAND_SIZE] * n
    normal = turns = 0
    by_claim = False
    epoch = 0
    reshuffled: list[int] = [0]
    upcard_reshuffled = False
    events: list[tuple[int, ...]] = []
    windows: list[Window] = []
    open_state = None
    end = len(history)
    over = False
    claim_of_upcard: tuple[int, int] | None = None  # (claimer, hand cards) of the upcard

    def window(discarder: int, card: int, order: Sequence[int], nxt: int, i: int) -> int:
        nonlocal by_claim, open_state, over, claim_of_upcard
        run: list[tuple[int, tuple[int, ...]]] = []
        claimer = None
        used = 0
        while i < end and type(history[i]) in (Pass, Pon):
            action = history[i]
            if type(action) is Pon:
                key = _pon_key(action)
                claimer, used = action.player, key[2]
            else:
                key = PASSES[action.player][1]
            run.append((action.player, key))
            i += 1
        is_open = i == end and position.phase is Phase.CLAIM
        events.append((WINDOW, len(windows)))
        windows.append(
            Window(
                index=i - len(run), discarder=discarder, card=card, order=tuple(order),
                next_player=nxt, normal=normal, turns=turns, run=tuple(run),
                claimer=None if is_open else claimer, is_open=is_open,
            )
        )  # fmt: skip
        if is_open:
            open_state = (position.current_player, position.claim_queue, position.pending_pon)
        elif claimer is not None:
            claim(claimer, used)
        return i

    def claim(p: int, used: int) -> None:
        nonlocal by_claim, over, claim_of_upcard
        if not pile or used & ~_ALL:
            raise _Unfit
        card = pile.pop()
        if card == UPCARD:
            claim_of_upcard = (p, used)
        events.append((OUT, p, used))
        sizes[p] -= used.bit_count()
        by_claim = True
        if sizes[p] < 0:
            raise _Unfit
        over = sizes[p] == 0

    def reshuffle() -> int:
        """The discards less the top card become the stock (at the start of a turn)."""
        nonlocal epoch, upcard_reshuffled
        if len(pile) < 2:
            raise _Unfit
        mask = 0
        for c in pile[:-1]:
            if c == UPCARD:
                upcard_reshuffled = True
            else:
                mask |= 1 << c
        size = len(pile) - 1
        del pile[:-1]
        epoch += 1
        reshuffled.append(mask)
        events.append((RESHUFFLE, epoch))
        return size

    i = 0
    if rules.upcard and rules.upcard_claimable:
        i = window(-1, UPCARD, [(first + k) % n for k in range(n)], first, 0)
    while i < end:
        if over:
            raise _Unfit
        action = history[i]
        kind = type(action)
        p = action.player
        if kind is Draw or kind is Chi:
            if stock == 0:
                stock = reshuffle()
            if kind is Draw:
                stock -= 1
                sizes[p] += 1
                by_claim = False
                events.append((DRAW, p, epoch))
            else:
                claim(p, _cards_mask(action.cards))
            i += 1
            continue
        if kind is LayDown or kind is LayOff or kind is Discard:
            cards = _cards_mask(action.cards) if kind is LayDown else 1 << action.card.index
            events.append((OUT, p, cards))
            sizes[p] -= cards.bit_count()
            if sizes[p] < 0:
                raise _Unfit
            i += 1
            if kind is Discard:
                pile.append(action.card.index)
                turns += 1
                if not by_claim:
                    normal |= 1 << p
                by_claim = False
                if sizes[p]:
                    i = window(p, action.card.index, AFTER[n][p], (p + 1) % n, i)
                else:
                    over = True
            else:
                over = sizes[p] == 0
            continue
        raise _Unfit  # a pass or a pon outside a claim window
    if stock == 0 and position.phase is Phase.DRAW:
        stock = reshuffle()  # the record ends at the start of a turn, just reshuffled
    # Which card was the upcard: the final pile's first (never moved), the
    # table's first meld less its hand cards and lay-offs (claimed at once),
    # or the card of the only reshuffle not discarded before it.
    upcard: int | None = None
    candidates = 0
    if rules.upcard:
        if claim_of_upcard is not None:
            laid = 0
            for action in history:
                if type(action) is LayOff and action.target == 0:
                    laid |= 1 << action.card.index
            if not position.table:
                raise _Unfit
            rest = position.table[0].mask & ~claim_of_upcard[1] & ~laid
            if rest.bit_count() != 1:
                raise _Unfit
            upcard = rest.bit_length() - 1
        elif not upcard_reshuffled:
            if not position.discard_cards or pile[0] != UPCARD:
                raise _Unfit
            upcard = position.discard_cards[0]
        elif epoch == 1:
            rest = position.reshuffled & ~reshuffled[1]
            if rest.bit_count() != 1:
                raise _Unfit
            upcard = rest.bit_length() - 1
        else:
            upcard = UPCARD
            # Not shown before the first reshuffle (the upcard lay in the pile).
            seen = reshuffled[1]
            for event in events:
                if event[0] == RESHUFFLE:
                    break
                if event[0] == OUT:
                    seen |= event[2]
            candidates = _ALL & ~seen & ((1 << rules.deck_size) - 1)
    final_pile = [upcard if c == UPCARD else c for c in pile]
    if (
        tuple(final_pile) != tuple(position.discard_cards)
        or epoch != position.reshuffles
        or (epoch and upcard != UPCARD and _last(reshuffled, upcard_reshuffled, upcard)
            != position.reshuffled)
        or stock != _stock_size(position)
    ):  # fmt: skip
        raise _Unfit
    return Timeline(
        rules=rules, players=n, dealer=position.dealer, events=tuple(events),
        windows=tuple(windows), reshuffled=tuple(reshuffled), upcard=upcard,
        upcard_reshuffled=upcard_reshuffled, upcard_candidates=candidates,
        open_state=open_state,
    )  # fmt: skip


_ALL: Final = (1 << 53) - 1


def _last(reshuffled: list[int], upcard_reshuffled: bool, upcard: int | None) -> int:
    mask = reshuffled[-1]
    if len(reshuffled) == 2 and upcard_reshuffled and upcard is not None and upcard >= 0:
        mask |= 1 << upcard
    return mask


def _stock_size(position: Any) -> int:
    return int(position.stock_size)


# ----------------------------------------------------------------------------------
# claim windows, checked by the engine's own window code
# ----------------------------------------------------------------------------------
def reveals(rules: Rules) -> bool:
    """Whether the claim windows of these rules depend on the hands (and so
    tell something about them)."""
    return rules.claim_window is ClaimWindow.ABLE_ONLY or (
        rules.pon_tie_break is PonTieBreak.JOKER_HOLDER and rules.jokers > 0
    )


def window_fits(tl: Timeline, w: Window, hands: Sequence[int], upcard: int) -> bool:
    """Whether, with ``hands`` as the window opened, the engine asks the
    players the record shows, in its order, takes each pon at once or lets it
    wait as the record shows, and ends the window as it did."""
    card = upcard if w.card == UPCARD else w.card
    end = play_window(
        tl.rules, tl.players, tl.dealer, hands, w.normal, w.turns, card, w.discarder, w.order,
        w.next_player, w.run,
    )  # fmt: skip
    if end is None:
        return False
    phase, current, queue, pending, winner = end
    if w.is_open:
        return (phase is Phase.CLAIM and tl.open_state is not None
                and (current, queue, pending) == tl.open_state)  # fmt: skip
    if w.claimer is not None:
        return (phase is Phase.PLAY and current == w.claimer) or (
            phase is Phase.OVER and winner == w.claimer
        )
    return phase is Phase.DRAW and current == w.next_player


# ----------------------------------------------------------------------------------
# sampling
# ----------------------------------------------------------------------------------
def _no_world() -> Message:
    return Message(
        "invalid_state.sample_state_no_world",
        "sample_state: no deal of the unseen cards fits this view and its history (what the claim windows showed of the hands cannot all hold at once)",
    )


def _no_hand(player: int, viewer: bool) -> Message:
    if viewer:
        return Message(
            "invalid_state.sample_state_viewer_past",
            "sample_state: no draws of player {p} (the viewer) lead to their hand through what the claim windows showed of it",
            p=player,
        )
    return Message(
        "invalid_state.sample_state_no_hand",
        "sample_state: no hand of player {p} fits what the claim windows showed of it, with the cards the view leaves unseen",
        p=player,
    )


def _unfit_message() -> Message:
    return Message(
        "invalid_state.observation_history_does_not_fit",
        "observation.history: does not lead to this view (the cards it shows, the "
        "discard pile, the stock's size or the reshuffles differ)",
    )


def _unfit_view() -> InvalidStateError:
    return InvalidStateError(_unfit_message())


def sample(
    view: Any,
    key: int,
    seed: int,
    certify: bool = False,
    weights: Sequence[Sequence[float]] | None = None,
) -> tuple[GameState, Certificate | None]:
    """A world consistent with ``view`` (see :func:`sevenbridge.sample_state`),
    with (if ``certify``, or if it had to be built anyway) the deal that leads
    to it through the view's history. With ``weights`` (by card, a weight for
    each seat and then the stock) the quick tries deal by
    :func:`_deal_weighted` instead of evenly; the search after them does not
    read the weights.

    Raises:
        InvalidStateError: if the view's history does not lead to it, or no
            deal fits it (:class:`_WorldSearch` says so, and what stands in the way).
    """
    try:
        tl: Timeline | None = _shared_timeline(view)
    except _Unfit:
        if view.history:
            raise _unfit_view() from None
        tl = None  # a position set up without a history
    if tl is None or view.shown_hands is not None:
        return _simple(view, key, seed), None
    check = reveals(view.rules)
    # Which card was the upcard, where the record no longer shows it: any that
    # fits the counts (the viewer's own draws are searched when one is tried).
    upcards: list[int | None] = (
        [u for u in bits(tl.upcard_candidates) if _split(view, tl, u) is not None]
        if tl.upcard == UPCARD
        else [tl.upcard]
    )
    if not upcards:
        raise _unfit_view()  # the viewer's hand fits no card as the upcard
    # Quick tries: every hidden card placed uniformly at random (within its
    # class), kept if every hand's past fits exactly and the deal walks back
    # through the windows; so the worlds are drawn uniformly from those that fit.
    tries = SAMPLE_TRIES if check or tl.upcard == UPCARD else 1
    # What this sample learns of each player's past (kept for this sample
    # only: what earlier samples learned would change which world a key gives).
    pasts: _Pasts = {}
    asked: set[int] = set()  # the upcards whose viewer's past this sample looked up
    # The steps of the quick tries' past searches, all tries together (the
    # viewer's own counted once per upcard): a view whose hands' pasts take
    # longer is left to the search, which goes on from what they learned.
    quick = _Steps(_QUICK_STEPS)
    for attempt in range(tries):
        if quick.left <= 0:
            break
        k = derive(key, attempt) if attempt else key
        upcard = upcards[derive(k, 9) % len(upcards)]
        card = -1 if upcard is None else upcard
        plan = _plan(tl, card) if check else None
        if plan is not None and not any(plan.depends):
            plan = None  # no window of this record depends on the hands
        decided, mine, steps = _viewer_past(view, tl, card)
        if card not in asked:
            asked.add(card)
            quick.left -= steps
        if mine is None:
            if tl.upcard == UPCARD or not decided:
                continue  # a wrong guess of the upcard, or left to the search
            if _split(view, tl, card) is not None:
                raise InvalidStateError(_no_hand(view.viewer, True))
            raise _unfit_view()
        dealt = (
            _deal_uniform(view, tl, card, k)
            if weights is None
            else _deal_weighted(view, tl, card, k, weights)
        )
        if dealt is None:  # pragma: no cover - the split fits
            continue
        hands, stock = dealt
        choices = dict(mine)
        if plan is not None:
            rng = Rng(derive(k, 4))
            searches = [
                (p, _past_search(tl, pasts, card, p, rng, quick.tick))
                for p in range(tl.players)
                if p != view.viewer
            ]
            # Every hand's quick check before any search of a past.
            fit = all(past.may_fit(hands[p]) for p, past in searches)
            for p, past in searches if fit else ():
                try:
                    fit = past.fits(hands[p], [0] * tl.epochs)
                except OutOfSteps:
                    fit = False  # left to the search
                if not fit:
                    break
                choices.update(past.choices())
            if not fit:
                continue
        cert = None
        if plan is not None or certify or tl.upcard == UPCARD:
            cert = _walk(tl, hands, stock, upcard, plan, choices, k)
            if cert is None:
                continue
        return _world(view, hands, stock, seed), cert

    # The quick tries missed: the search that misses none (the upcards the
    # viewer's own draws are known to fit first, those known not to left out;
    # known from this sample's tries only, so that what earlier samples
    # looked up changes nothing).
    def known(u: int | None) -> tuple[bool, dict[int, int] | None]:
        card = -1 if u is None else u
        if card not in asked:
            return (False, None)
        return tl.viewer_pasts[_viewer_key(view, card)][:2]

    order = [u for u in shuffled(upcards, derive(key, 8)) if known(u) != (True, None)]
    order.sort(key=lambda u: known(u)[1] is None)
    found_world = _search_world(view, tl, order or upcards, key, pasts=pasts)
    if isinstance(found_world, Message):
        raise InvalidStateError(found_world)
    hands, stock, cert = found_world
    return _world(view, hands, stock, seed), cert


#: The latest timelines built, newest last: (history, the public fields, timeline).
_TIMELINES: list[tuple[Any, tuple[Any, ...], Timeline]] = []


def _shared_timeline(position: Any) -> Timeline:
    """:func:`timeline` of a position, kept for the next ones with the same
    history and public fields: a search samples one view many times, and the
    views of all players at one moment share their timeline (which holds
    only public information; what is kept per viewer is keyed by viewer).

    Raises:
        _Unfit: as :func:`timeline`.
    """
    log = position.move_log
    public = (
        position.rules, position.players, position.dealer, position.phase,
        position.current_player, position.claim_queue, position.pending_pon,
        position.discard_cards, position.table, position.reshuffled, position.reshuffles,
        position.stock_size,
    )  # fmt: skip
    for i in range(len(_TIMELINES) - 1, -1, -1):  # the newest first
        kept_log, kept, found = _TIMELINES[i]
        if kept_log is log and kept == public:
            hit: Timeline = found
            return hit
    tl = timeline(position)
    _TIMELINES.append((log, public, tl))
    del _TIMELINES[:-16]
    return tl


def _world(view: Any, hands: Sequence[int], stock: Sequence[int], seed: int) -> GameState:
    o = view
    return GameState(
        rules=o.rules, players=o.players, dealer=o.dealer, phase=o.phase,
        current_player=o.current_player, hand_masks=tuple(hands), stock_cards=tuple(stock),
        discard_cards=o.discard_cards, table=o.table, meld_owners=o.meld_owners,
        played=o.played, normal_turns=o.normal_turns, turns_done=o.turns_done,
        discarder=o.discarder, claim_queue=o.claim_queue, pending_pon=o.pending_pon,
        turn_clean=o.turn_clean, turn_by_claim=o.turn_by_claim, reshuffles=o.reshuffles,
        reshuffled=o.reshuffled, seed=seed, winner=o.winner, deal_scores=o.deal_scores,
        bonus=o.bonus, end_reason=o.end_reason, move_log=o.move_log,
    )  # fmt: skip


def _unseen(view: Any) -> int:
    seen = view.hand_mask
    for c in view.discard_cards:
        seen |= 1 << c
    for tm in view.table:
        seen |= tm.mask
    return int(((1 << view.rules.deck_size) - 1) & ~seen)


def _simple(view: Any, key: int, seed: int) -> GameState:
    """A finished deal (every hand shown: only the stock's order is hidden) or
    a position without a record (the unseen cards anywhere they fit)."""
    o = view
    unseen = _unseen(o)
    hidden = sum(size for p, size in enumerate(o.hand_sizes) if p != o.viewer)
    if unseen.bit_count() != hidden + o.stock_size:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_card_counts_do",
                "observation: the card counts do not add up to the deck",
            )
        )
    known = [0 if o.shown_hands is None else o.shown_hands[p] for p in range(o.players)]
    if o.pending_pon is not None and o.pending_pon[0] != o.viewer:
        known[o.pending_pon[0]] |= o.pending_pon[1]
    known[o.viewer] = o.hand_mask
    forced = 0
    for mask in known:
        forced |= mask
    free = bits(unseen & ~forced)
    candidates = [c for c in free if o.reshuffled >> c & 1] if o.reshuffled else free
    if len(candidates) < o.stock_size:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_too_few_unseen",
                "observation: too few unseen cards can be in the stock",
            )
        )
    stock = shuffled(candidates, derive(key, 1))[: o.stock_size]
    in_stock = sum(1 << c for c in stock)
    rest = shuffled([c for c in free if not in_stock >> c & 1], key)
    hands = []
    i = 0
    for p, size in enumerate(o.hand_sizes):
        mask = known[p]
        take = size - mask.bit_count()
        for c in rest[i : i + take]:
            mask |= 1 << c
        hands.append(mask)
        i += take
    return _world(o, hands, stock, seed)


def _window_facts(
    tl: Timeline, w: Window, eligible: list[int]
) -> tuple[tuple[int, int, bool], ...]:
    """What window ``w`` says of each player's hand on its own (what depends on
    several hands at once, :func:`window_fits` alone checks), given the
    players the pon timing let it ask."""
    rules = tl.rules
    actors = [p for p, _ in w.run]
    at_once = not w.is_open and bool(w.run) and w.run[-1][1][0] == OP_PON
    asked = actors
    if w.is_open and tl.open_state is not None:
        current, queue, _ = tl.open_state
        asked = [*actors, *([] if current is None else [current]), *queue]
    out: list[tuple[int, int, bool]] = []
    if rules.claim_window is ClaimWindow.ABLE_ONLY:
        told = eligible
        if at_once and not (
            # A pon of the joker itself: its caller cannot hold the joker, so
            # where the engine lets such a pon wait while another player may
            # be asked, one taken at once says that the players after its
            # caller could not pon it.
            w.card == JOKER_INDEX and not pon_takes_at_once(rules, 0, True)
        ):  # the players after the caller were never named
            told = eligible[: eligible.index(actors[-1]) + 1] if actors[-1] in eligible else []
        out.extend((q, ABLE, q in asked) for q in told)
    if rules.pon_tie_break is PonTieBreak.JOKER_HOLDER and rules.jokers:
        waiting = False
        for k, (p, key) in enumerate(w.run):
            if key[0] != OP_PON:
                continue
            if waiting:  # only the joker's holder may pon over a waiting pon
                out.append((p, JOKER, True))
            elif k < len(w.run) - 1 or w.is_open:  # it waited
                out.append((p, JOKER, False))
                waiting = True
            elif rules.claim_window is ClaimWindow.EVERY_ELIGIBLE and eligible[-1:] != [p]:
                out.append((p, JOKER, True))  # taken at once with players still to ask
    return tuple(out)


def _lost_pons(w: Window) -> list[tuple[int, int]]:
    """The pons said in window ``w`` that did not take its discard, as
    (caller, the cards of their hand the pon named): all but the last, and
    the last too while the window is open."""
    pons = [(p, key[2]) for p, key in w.run if key[0] == OP_PON]
    return pons if w.is_open else pons[:-1]


def _still_held(tl: Timeline, player: int) -> int:
    """The cards the record shows ``player`` holding now: those of a pon they
    said that did not take the discard, not put out since (kept on ``tl``)."""
    cards = tl.still_held.get(player)
    if cards is None:
        cards = 0
        for event in tl.events:
            if event[0] == WINDOW:
                for p, mask in _lost_pons(tl.windows[event[1]]):
                    if p == player:
                        cards |= mask
            elif event[0] == OUT and event[1] == player:
                cards &= ~event[2]
        tl.still_held[player] = cards
    return cards


_Said = tuple[
    list[tuple[tuple[int, int, bool], ...]], list[bool], dict[tuple[int, int], int], list[list[int]]
]


def _window_said(tl: Timeline) -> _Said:
    """What the windows of ``tl`` say, whatever the upcard (for :func:`_plan`):
    by window, its facts and whether it depends on the hands; the cards of
    the pons that lost, by (window, player), and by window who said them."""
    n = tl.players
    facts: list[tuple[tuple[int, int, bool], ...]] = []
    depends: list[bool] = []
    rules = tl.rules
    joker_rule = rules.pon_tie_break is PonTieBreak.JOKER_HOLDER and rules.jokers > 0
    held: dict[tuple[int, int], int] = {}
    held_by: list[list[int]] = []
    for number, w in enumerate(tl.windows):
        lost = _lost_pons(w)
        held.update(((number, p), mask) for p, mask in lost)
        held_by.append([p for p, _ in lost])
        eligible = [
            q for q in w.order if may_claim(rules.pon_timing, q, w.normal, w.turns, n)
        ]  # the players the pon timing lets the window ask
        facts.append(_window_facts(tl, w, eligible))
        # Whom the window asks depends on the hands only with able_only
        # windows (and someone the timing allows), whether a pon waits only
        # under the joker-holder rule.
        depends.append(
            (rules.claim_window is ClaimWindow.ABLE_ONLY and bool(eligible))
            or (joker_rule and any(key[0] == OP_PON for _, key in w.run))
        )
    return facts, depends, held, held_by


def _plan(tl: Timeline, upcard: int) -> Plan:
    """What the claim windows of ``tl`` say, for the walk (kept on ``tl``)."""
    cached = tl.plans.get(upcard)
    if cached is not None:
        return cached
    if tl.upcard == UPCARD and tl.upcard_reshuffled and upcard >= 0:
        plan = _plan_of_upcard(tl, _plan(tl, -1), upcard)
    else:
        plan = _make_plan(tl, upcard)
    tl.plans[upcard] = plan
    return plan


def _plan_of_upcard(tl: Timeline, unknown: Plan, upcard: int) -> Plan:
    """:func:`_make_plan` for a guess ``upcard`` of an upcard the record no
    longer shows, from the plan with it unknown (``unknown``): the guess
    changes only the discard of the windows on the upcard and the class of
    the card ``upcard`` (it went into the first reshuffle, where the other
    guesses hold it since the deal). That card was not seen before the first
    reshuffle, so it can only first be put out after it; if a player puts
    it out then, the windows before, in which they had drawn from no
    reshuffled stock yet, no longer count it among the cards put out since
    that they may have held. Everything else is the same (a speed trick:
    one plan is made for every guess)."""
    cards = tuple(upcard if w.card == UPCARD else w.card for w in tl.windows)
    refusals = unknown.refusals
    if cards != unknown.cards:
        refusals = _refusals(tl, unknown.facts, cards)
    positives = unknown.positives
    reshuffled = False
    bit = 1 << upcard
    for e, event in enumerate(tl.events):
        if event[0] == RESHUFFLE:
            reshuffled = True
        elif reshuffled and event[0] == OUT and event[2] & bit:
            p = event[1]
            mine = tuple(
                (at, w, fact, usable & ~bit if at < e and not classes & 2 else usable, classes)
                for at, w, fact, usable, classes in positives[p]
            )
            positives = (*positives[:p], mine, *positives[p + 1 :])
            break
    return attrs.evolve(
        unknown, cards=cards, refusals=refusals, positives=positives, fixed={},
        shared=unknown.shared,
    )  # fmt: skip


def _refusals(
    tl: Timeline, facts: Sequence[tuple[tuple[int, int, bool], ...]], cards: Sequence[int]
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:attr:`Plan.refusals`."""
    refusals: list[list[tuple[int, int]]] = [[] for _ in range(tl.players)]
    for e, event in enumerate(tl.events):
        if event[0] == WINDOW:
            card = cards[event[1]]
            for p, fact, value in facts[event[1]]:
                if fact == ABLE and not value:
                    refusals[p].append((e, _ALL if card == JOKER_INDEX else RANK_MASK[card % 13]))
    return tuple(map(tuple, refusals))


def _make_plan(tl: Timeline, upcard: int) -> Plan:
    """:func:`_plan`, made."""
    n = tl.players
    cards = [upcard if w.card == UPCARD else w.card for w in tl.windows]
    if not tl.said:
        tl.said.append(_window_said(tl))
    facts, depends, held, held_by = tl.said[0]
    # Forward: each event's stock, the class of each card put out (the stock
    # it was drawn from), and the classes each player may hold at a window
    # (the deal's, and those of the stocks they drew from before it).
    epoch_at: list[int] = []
    out_classes: list[list[int]] = []
    newest: list[list[int]] = []
    masks = tl.reshuffle_masks(upcard)
    cls = [0] * 53
    drawn = [1] * n  # by player, the stocks they hold cards of so far (bit j: stock j)
    epoch = 0
    for event in tl.events:
        kind = event[0]
        if kind == RESHUFFLE:
            epoch = event[1]
            for c in bits(masks[epoch]):
                cls[c] = epoch
        elif kind == DRAW:
            drawn[event[1]] |= 1 << epoch
        epoch_at.append(epoch)
        out_classes.append([cls[c] for c in bits(event[2])] if kind == OUT else [])
        newest.append(list(drawn) if kind == WINDOW else [])
    segments: list[tuple[tuple[int, int, int, bool], ...] | None] = [None] * len(tl.events)
    items: list[list[tuple[int, int, int, bool]]] = [[] for _ in range(n)]
    positives: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(n)]
    outs_after = [[0] * tl.epochs for _ in range(n)]  # by player and class
    for e in range(len(tl.events) - 1, -1, -1):
        event = tl.events[e]
        kind = event[0]
        if kind == OUT:
            p = event[1]
            items[p].append((e, event[2], -1, False))
            for c, j in zip(bits(event[2]), out_classes[e], strict=True):
                outs_after[p][j] |= 1 << c
        elif kind == WINDOW:
            for p, fact, value in facts[event[1]]:
                items[p].append((e, -1, event[1] * 4 + fact, value))
                if value:
                    classes = newest[e][p]
                    usable = 0
                    for j in range(tl.epochs):
                        if classes >> j & 1:
                            usable |= outs_after[p][j]
                    positives[p].append((e, event[1], fact, usable, classes))
            for p in held_by[event[1]]:
                items[p].append((e, -1, event[1] * 4 + HELD, True))
        elif kind == DRAW:
            p = event[1]
            segments[e] = ()  # filled below, once the interval is known
            items[p].append((e, -2, -1, False))
    # Split each player's items (latest first) at their draws.
    tails: list[tuple[tuple[int, int, int, bool], ...]] = []
    for p in range(n):
        current: list[tuple[int, int, int, bool]] = []
        draw_at = -1
        for item in items[p]:
            if item[1] == -2:
                if draw_at < 0:
                    tails.append(tuple(current))
                else:
                    segments[draw_at] = tuple(current)
                current = []
                draw_at = item[0]
            else:
                current.append(item)
        if draw_at < 0:
            tails.append(tuple(current))
        else:
            segments[draw_at] = tuple(current)
    draws: list[list[tuple[int, int, tuple[tuple[int, int, int, bool], ...] | None, int]]] = [
        [] for _ in range(n)
    ]
    for e in range(len(tl.events) - 1, -1, -1):
        event = tl.events[e]
        if event[0] != DRAW:
            continue
        segment = segments[e] or ()
        outs = 0
        for _, mask, _, _ in segment:
            if mask >= 0:
                outs |= mask
        facts_in = any(fact >= 0 for _, _, fact, _ in segment)
        draws[event[1]].append((e, epoch_at[e], segment if facts_in else None, outs))
        if not facts_in:
            segments[e] = None  # no window says anything there: any card will do
    tail_outs = [0] * n
    for p in range(n):
        for _, mask, _, _ in tails[p]:
            if mask >= 0:
                tail_outs[p] |= mask
    outs_of: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, event in enumerate(tl.events):
        if event[0] == OUT:
            outs_of[event[1]].append((e, event[2]))
    return Plan(
        facts=tuple(facts), depends=tuple(depends), cards=tuple(cards), epoch_at=tuple(epoch_at),
        segments=tuple(segments), tails=tuple(tails),
        draws=tuple(tuple(d) for d in draws), tail_outs=tuple(tail_outs),
        refusals=_refusals(tl, facts, cards), outs_of=tuple(map(tuple, outs_of)),
        positives=tuple(tuple(ps) for ps in positives), held=held,
        guessed=tuple(number for number, w in enumerate(tl.windows) if w.card == UPCARD),
    )  # fmt: skip


class _Split(NamedTuple):
    """How the unseen cards of a view must be split, for one upcard."""

    need: list[list[int]]
    """By player and class: the cards still to deal (the viewer's: none)."""
    hands: list[int]
    """The cards each hand is known to hold (the viewer's, a waiting pon's)."""
    pools: list[list[int]]
    """By class: the unseen cards to deal."""
    unseen: int
    """The unseen cards to deal, as a mask."""
    cls: list[int]
    """Each card's class at the end of the record."""


def _split(view: Any, tl: Timeline, upcard: int) -> _Split | None:
    """How many cards of each class each hidden hand and the stock take, or
    ``None`` if the counts do not fit the view (the viewer's own hand does
    not hold the classes the record gives it, say)."""
    o = view
    if not tl.draws_fit(upcard):
        return None
    held, cls = tl.holdings(upcard)
    n = o.players
    mine = [0] * tl.epochs
    for c in bits(o.hand_mask):
        if cls[c] < 0:
            return None
        mine[cls[c]] += 1
    if mine != held[o.viewer]:
        return None
    unseen = _unseen(o)
    need = [list(held[p]) for p in range(n)]
    need[o.viewer] = [0] * tl.epochs
    hands = [0] * n
    hands[o.viewer] = o.hand_mask
    for p in range(n):
        if p == o.viewer:
            continue
        # The cards of a pon said in a window that did not take the discard
        # (the waiting pon of an open window among them) and not played since.
        cards = _still_held(tl, p)
        if cards & ~unseen:
            return None
        hands[p] = cards
        unseen &= ~cards
        for c in bits(cards):
            need[p][cls[c]] -= 1
    if upcard >= 0 and cls[upcard] < 0 and unseen >> upcard & 1:
        return None  # the upcard (never in the stock) cannot be hidden
    pools: list[list[int]] = [[] for _ in range(tl.epochs)]
    for c in bits(unseen):
        pools[cls[c]].append(c)
    last = tl.epochs - 1
    for j, pool in enumerate(pools):
        want = sum(need[p][j] for p in range(n))
        if any(need[p][j] < 0 for p in range(n)) or len(pool) - want != (
            o.stock_size if j == last else 0
        ):
            return None
    return _Split(need, hands, pools, unseen, cls)


def _viewer_past(view: Any, tl: Timeline, upcard: int) -> tuple[bool, dict[int, int] | None, int]:
    """The viewer's draws (by event) for this upcard, if the view fits it:
    ``{}`` when no window depends on the hands, ``None`` if the counts or the
    viewer's windows do not fit (their past searched exhaustively, for
    :data:`_QUICK_STEPS` steps at most, or :data:`_GUESS_STEPS` for a guess
    of an upcard the record no longer shows). With whether that was decided
    (``False``: the search ran out of steps, and :func:`_search_world` will
    tell), and the steps the search took. Found once per view and upcard,
    from a key of its own, so that samples stay a function of the view and
    their seed."""
    mine = _viewer_key(view, upcard)
    if mine in tl.viewer_pasts:
        return tl.viewer_pasts[mine]
    found: tuple[bool, dict[int, int] | None, int] = (True, None, 0)
    if _split(view, tl, upcard) is not None:
        found = (True, {}, 0)
        plan = _plan(tl, upcard) if reveals(view.rules) else None
        if plan is not None and any(plan.depends):
            rng = Rng(derive(view.hand_mask, view.viewer, upcard + 1))
            masks = tl.reshuffle_masks(upcard)
            steps = _GUESS_STEPS if tl.upcard == UPCARD else _QUICK_STEPS
            budget = _Steps(steps)
            past = PastSearch(view.viewer, plan, masks, view.rules, tl.epochs, rng, budget.tick)
            try:
                fits = past.fits(view.hand_mask, [0] * tl.epochs)
                found = (True, past.choices() if fits else None, steps - budget.left)
            except OutOfSteps:
                found = (False, None, steps)
    tl.viewer_pasts[mine] = found
    return found


def _viewer_key(view: Any, upcard: int) -> tuple[int, int, int]:
    """Where :func:`_viewer_past` keeps its answer on the timeline."""
    return (view.viewer, view.hand_mask, upcard)


#: By (upcard, player): :func:`_past_search`.
_Pasts = dict[tuple[int, int], PastSearch]


def _past_search(
    tl: Timeline, pasts: _Pasts, upcard: int, p: int, rng: Rng, tick: Callable[[], None] | None
) -> PastSearch:
    """The search of player ``p``'s past for ``upcard``, kept in ``pasts`` for
    the next questions of one sample (of its next tries and its search): what
    failed in it fails whatever the other hands are, so it holds for every
    question, and only the random choices and the step budget are new. (Not
    kept for the next samples: a kept failure skips the random choices and
    the steps its search took, so it would change the world a key gives.)"""
    found = pasts.get((upcard, p))
    if (
        found is None
        or len(found.failed) + len(found.passed) + len(found.passed_near) > _KEEP_FAILED
    ):
        found = pasts[upcard, p] = PastSearch(
            p, _plan(tl, upcard), tl.reshuffle_masks(upcard), tl.rules, tl.epochs, rng, tick
        )
    else:
        found.rng, found.tick = rng, tick
    return found


#: Failed (and passed) states a kept :class:`PastSearch` may hold before it starts afresh.
_KEEP_FAILED: Final = 200_000


class _Steps:
    """A budget of steps for :class:`PastSearch` (:meth:`tick`)."""

    __slots__ = ("left",)

    def __init__(self, steps: int) -> None:
        self.left = steps

    def tick(self) -> None:
        """Count a step: :class:`OutOfSteps` once past the budget."""
        self.left -= 1
        if self.left < 0:
            raise OutOfSteps


#: Steps of a past search in a quick try of :func:`sample` (a hand whose past
#: takes longer to find is left to :func:`_search_world`).
_QUICK_STEPS: Final = 3000

#: Steps of the search of the viewer's past under a guess of an upcard the
#: record no longer shows, in a quick try: the pasts that fit nearly all take
#: under a hundred, and a wrong guess may take thousands to refute (a guess
#: left undecided is searched by :func:`_search_world`, in its turns).
_GUESS_STEPS: Final = 1000


def _deal_uniform(
    view: Any, tl: Timeline, upcard: int, key: int
) -> tuple[list[int], list[int]] | None:
    """The hidden hands and the stock, each hand holding as many cards of each
    class as the record says, the cards of each class placed uniformly at
    random. ``None`` if the counts do not fit the view with this upcard."""
    split = _split(view, tl, upcard)
    if split is None:
        return None
    need, hands, pools, _, _ = split
    last = tl.epochs - 1
    stock: list[int] = []
    for j, pool in enumerate(pools):
        order = shuffled(pool, derive(key, 2, j))
        i = 0
        for p in range(view.players):
            for c in order[i : i + need[p][j]]:
                hands[p] |= 1 << c
            i += need[p][j]
        if j == last:
            stock = list(order[i:])
    return hands, stock


#: The least weight :func:`_deal_weighted` gives a place the record allows, as
#: a share of the card's greatest weight (so a weight of 0 there stays possible).
WEIGHT_FLOOR: Final = 1e-4


def _deal_weighted(
    view: Any, tl: Timeline, upcard: int, key: int, weights: Sequence[Sequence[float]]
) -> tuple[list[int], list[int]] | None:
    """As :func:`_deal_uniform`, but each hidden card, taken in a random
    order, goes to one of the places that still need a card of its class
    with a chance proportional to its weight there (``weights[card][seat]``,
    ``weights[card][players]`` for the stock; at least :data:`WEIGHT_FLOOR`
    times the card's greatest weight). The counts of every class come out as
    the record says, whatever the weights."""
    split = _split(view, tl, upcard)
    if split is None:
        return None
    need, hands, pools, _, _ = split
    n = view.players
    last = tl.epochs - 1
    rng = Rng(derive(key, 2, 0x5EED))
    stock: list[int] = []
    for j, pool in enumerate(pools):
        left = [need[p][j] for p in range(n)]
        left.append(len(pool) - sum(left))  # the stock's (none before the last class)
        kept: list[int] = []
        for c in shuffled(pool, derive(key, 2, j)):
            row = weights[c]
            top = max(row[: n + 1])
            floor = top * WEIGHT_FLOOR if top > 0 else 1.0
            ws = [max(float(row[q]), floor) if left[q] else 0.0 for q in range(n + 1)]
            x = rng.next64() / 2.0**64 * sum(ws)
            q = 0
            while q < n and (x >= ws[q] or not left[q]):
                x -= ws[q]
                q += 1
            while not left[q]:  # pragma: no cover - rounding at the very end
                q -= 1
            left[q] -= 1
            if q == n:
                kept.append(c)
            else:
                hands[q] |= 1 << c
        if j == last:
            stock = kept
    return hands, stock


def _pick(pool: list[int], count: int, rng: Rng) -> list[int]:
    """``count`` cards of ``pool`` at random."""
    pool = list(pool)
    for i in range(count):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:count]


def _of_classes(hand: int, classes: int, by_class: Sequence[int]) -> int:
    """The cards of ``hand`` whose class is in ``classes`` (a mask of classes)."""
    keep = 0
    for j, mask in enumerate(by_class):
        if classes >> j & 1:
            keep |= mask
    return hand & keep


def certify(state: GameState, key: int = 0) -> Certificate | None:
    """A deal that leads through ``state``'s history to ``state`` itself (its
    hands and stock), found by the search :func:`sample` falls back on
    (:class:`_WorldSearch`, with every hand given): ``None`` if the history
    does not replay on the public cards or no deal leads there. The tests
    check that it finds one for every real position."""
    try:
        tl = timeline(state)
    except _Unfit:
        return None
    from ..views import observe  # the viewer's side of the search: any seat will do

    view = observe(state, 0)
    upcards: list[int | None] = (
        [tl.upcard] if tl.upcard != UPCARD else list(bits(tl.upcard_candidates))
    )
    found = _search_world(view, tl, upcards, key, state)
    return None if isinstance(found, Message) else found[2]


def _walk(
    tl: Timeline,
    hands: list[int],
    stock: list[int],
    upcard: int | None,
    plan: Plan | None,
    choices: dict[int, int],
    key: int,
) -> Certificate | None:
    """Walk the record backwards from ``hands`` and ``stock``, putting every
    drawn card back on the stock, and reach the deal: the certificate.

    A draw puts back the card ``choices`` gives for it (see
    :class:`PastSearch`), else a card of that stock's class at random. With a
    plan, every window whose course depends on the hands is checked with the
    engine's window code. ``None`` if that fails."""
    rng = Rng(derive(key, 5))
    rules = tl.rules
    masks = tl.reshuffle_masks(-1 if upcard is None else upcard)
    held = list(hands)
    back: list[int] = list(reversed(stock))  # the stock as a stack: its top last
    epoch = tl.epochs - 1
    stocks: list[tuple[int, ...]] = [()] * tl.epochs
    card = -1 if upcard is None else upcard
    events = tl.events
    for e in range(len(events) - 1, -1, -1):
        event = events[e]
        kind = event[0]
        if kind == OUT:
            held[event[1]] |= event[2]
        elif kind == DRAW:
            p = event[1]
            c = choices.get(e, -1)
            if c < 0:
                allowed = held[p] if epoch == 0 else held[p] & masks[epoch]
                if not allowed:
                    return None
                options = bits(allowed)
                c = options[rng.below(len(options))]
            held[p] &= ~(1 << c)
            back.append(c)
        elif kind == RESHUFFLE:
            order = tuple(reversed(back))
            if sum(1 << c for c in order) != masks[epoch] or len(order) != len(set(order)):
                return None
            stocks[epoch] = order
            back = []
            epoch -= 1
        elif (
            plan is not None
            and plan.depends[event[1]]
            and not window_fits(tl, tl.windows[event[1]], held, card)
        ):
            return None
    n = tl.players
    if any(h.bit_count() != HAND_SIZE for h in held):
        return None
    deck: list[int] = []
    dealt = [bits(h) for h in held]
    for r in range(HAND_SIZE):
        for k in range(1, n + 1):
            deck.append(dealt[(tl.dealer + k) % n][r])
    if upcard is not None:
        deck.append(upcard)
    deck.extend(reversed(back))
    if sorted(deck) != list(range(rules.deck_size)):
        return None
    return Certificate(deck=tuple(deck), stocks=tuple(stocks))


def replay(first: GameState, history: Sequence[Any], cert: Certificate) -> GameState:
    """Play ``history`` forward from ``first`` (the deal of ``cert.deck``),
    giving each reshuffled stock the order of ``cert``: the proof that a
    sample is reachable.

    Raises:
        IllegalActionError: if an action of the record is illegal on the way.
        ValueError: if a reshuffled stock of the certificate holds other cards.
    """
    state = first
    for action in history:
        before = state.reshuffles
        state = apply(state, action)
        if state.reshuffles != before:
            order = cert.stocks[state.reshuffles]
            if sorted(order) != sorted(state.stock_cards):
                raise ValueError("a reshuffled stock of the certificate has other cards")
            state = attrs.evolve(state, stock_cards=order)
    return state


# ----------------------------------------------------------------------------------
# checking a full position
# ----------------------------------------------------------------------------------
def conflict(state: GameState, path: str = "state") -> Message | None:
    """What makes ``state`` a position its own record cannot reach, or
    ``None``. It checks what the record shows of the hidden cards for sure:

    * how many cards of each stock each hand holds (when the record still
      shows which card the upcard was);
    * every claim window as far as the hands then are known: a player's hand
      is known back to their last draw (the cards they hold now, and those
      they have played since), and the whole window is checked with the
      engine's window code when nobody has drawn since;
    * a joker that a window showed in a hand and that nobody has shown since
      is still in that hand.

    ``None`` also when the record does not replay on the public cards: the
    full replay from the seed reports that.
    """
    try:
        tl = _shared_timeline(state)
    except _Unfit:
        return None
    rules = state.rules
    hands = list(state.hand_masks)
    if tl.upcard != UPCARD:
        upcard = -1 if tl.upcard is None else tl.upcard
        held, cls = tl.holdings(upcard)
        for p, hand in enumerate(hands):
            have = [0] * tl.epochs
            for c in bits(hand):
                have[max(cls[c], 0)] += 1
            for j, (got, want) in enumerate(zip(have, held[p], strict=True)):
                if got != want:
                    return Message(
                        "invalid_state.hand_classes",
                        "{path}.hands[{p}]: by the history, player {p} holds {want} cards from {source}, not {got} (cards leave the stock only by a draw, and a hand only by a play everyone sees)",
                        path=path, p=p, want=want, got=got, source=_source(j),
                    )  # fmt: skip
    else:
        upcard = -1
    if not reveals(rules):
        return None
    plan = _plan(tl, upcard)
    exact = [True] * state.players
    at = list(hands)
    joker_shown = False
    for e in range(len(tl.events) - 1, -1, -1):
        event = tl.events[e]
        kind = event[0]
        if kind == OUT:
            at[event[1]] |= event[2]
            joker_shown = joker_shown or bool(event[2] & JOKER_BIT)
        elif kind == DRAW:
            exact[event[1]] = False
        elif kind == WINDOW:
            w = tl.windows[event[1]]
            card = plan.cards[event[1]]
            for p, fact, value in plan.facts[event[1]]:
                known = exact[p] or (fact == JOKER and value and not joker_shown)
                if known and not fact_fits(
                    at[p] if exact[p] else hands[p], card, fact, value, rules
                ):
                    return _fact_message(path, w, card, p, fact, value, exact[p])
            if all(exact) and not window_fits(tl, w, at, upcard):
                return Message(
                    "invalid_state.claim_window_would_differ",
                    "{path}: with these hands the claim window on {card} ({where}) would not go as the history says",
                    path=path, card=str(CARDS[card]), where=_where(w),
                )  # fmt: skip
    return None


def _where(w: Window) -> Message:
    """Which window: the upcard's, or the one after a discard of the history."""
    if w.discarder < 0:
        return Message("window_place.upcard", "on the upcard")
    return Message("window_place.history", "after history[{i}]", i=w.index - 1)


def _source(epoch: int) -> Message:
    if epoch == 0:
        return Message("card_source.deal", "the deal and the first stock")
    return Message("card_source.reshuffle", "the stock of reshuffle {n}", n=epoch)


def _fact_message(
    path: str, w: Window, card: int, p: int, fact: int, value: bool, exact: bool
) -> Message:
    """Why a position breaks what a claim window showed of player ``p``'s hand."""
    params: dict[str, Any] = dict(path=path, p=p, card=str(CARDS[card]), where=_where(w))
    if fact == ABLE and value:
        return Message(
            "invalid_state.asked_but_cannot_pon",
            "{path}: player {p} was asked whether to pon {card} ({where}), so could pon it (claim_window='able_only'), but cannot with the cards this position gives them",
            **params,
        )  # fmt: skip
    if fact == ABLE:
        return Message(
            "invalid_state.not_asked_but_can_pon",
            "{path}: player {p} was not asked whether to pon {card} ({where}), so could not pon it (claim_window='able_only'), but can with the cards this position gives them",
            **params,
        )  # fmt: skip
    if not value:
        return Message(
            "invalid_state.waiting_pon_with_joker",
            "{path}: player {p}'s pon of {card} ({where}) waited in the window, so they held no joker (pon_tie_break='joker_holder'), but this position gives them the joker then",
            **params,
        )  # fmt: skip
    if exact:
        return Message(
            "invalid_state.pon_at_once_without_joker",
            "{path}: player {p}'s pon of {card} ({where}) was taken at once while others were still to be asked, so they held the joker (pon_tie_break='joker_holder'), but this position does not give it to them",
            **params,
        )  # fmt: skip
    return Message(
        "invalid_state.joker_left_hand_unseen",
        "{path}: player {p} held the joker when their pon of {card} ({where}) was taken at once while others were still to be asked (pon_tie_break='joker_holder'), and nobody has shown it since, so they still hold it, but this position puts it elsewhere",
        **params,
    )  # fmt: skip


# ----------------------------------------------------------------------------------
# the complete search
# ----------------------------------------------------------------------------------
#: The card types of the complete search: the thirteen ranks, and the joker.
#: Pasts of one deal of the hands that the search tries against the windows
#: that depend on several hands at once.
_WALK_TRIES: Final = 20
#: Hands of one player, at random from the cards left, that the search tries
#: before it enumerates that player's hands.
_HAND_QUICK: Final = 4
#: Hands a look for a later player's hand (see :meth:`_WorldSearch._later_fit`)
#: tries first, each made from one of the latest kinds of hand found to fit
#: them (:attr:`_WorldSearch.witnesses`, in the order first found): as many
#: cards of each kind as it holds where the cards left have them, the rest at
#: random from the same classes.
_REPAIRS: Final = 2
#: How many draws back the bounds checked while hands are chosen go (see
#: :meth:`PastSearch.fits`): on the sampler's slowest views, 12 to 24 cost
#: about a fifth less time than the whole past, with the tail no longer.
_NEAR: Final = 16
#: How many of a player's hands found to fit :class:`_WorldSearch` keeps.
_PROVEN: Final = 32
#: How many of the hands that a sample's searches found to fit a player a
#: look for their hand tries first (:attr:`_WorldSearch.shared`): on the
#: sampler's slowest views, 3 to 32 cost alike.
_SHARED: Final = 8


#: Bits of :func:`_stock_code` for each kind of card (class and type): as
#: many cards as a deck holds of one type (four).
_KIND_BITS: Final = 4
_KIND_MASK: Final = (1 << _KIND_BITS) - 1


def _stock_code(kinds: Sequence[int]) -> int:
    """How many cards of each kind there are (:meth:`_WorldSearch._kinds`), as
    bits: ``m`` cards of a kind set the lowest ``m`` of its :data:`_KIND_BITS`.
    So ``a & ~b == 0`` says that ``a`` has no more cards of any kind than ``b``."""
    code = 0
    for at, m in enumerate(kinds):
        if m:
            code |= ((1 << m) - 1) << at * _KIND_BITS
    return code


class _ProbeOver(Exception):
    """A check that a later player still has a hand took too long to tell."""


#: Steps a check that a later player still has a hand may take (a bound:
#: past them it lets the search go on, which finds out itself).
_PROBE_STEPS: Final = 400

#: Steps the check that a player has a hand from all the cards may take
#: where the guesses of a search may fit no world (see :meth:`_WorldSearch.advance`).
_SOLO_STEPS: Final = 1000


def _search_world(
    view: Any,
    tl: Timeline,
    upcards: Sequence[int | None],
    key: int,
    whole: Any = None,
    pasts: _Pasts | None = None,
) -> tuple[list[int], list[int], Certificate] | Message:
    """A world for ``view`` by :class:`_WorldSearch`, one search per group of
    possible upcards that split the unseen cards alike (:func:`_groups`;
    one upcard when the record shows it), run in short turns that restart
    it (what failed is kept, so each turn goes further, and each search
    ends). Each search's turns have
    budgets that follow Luby's sequence: searches of this kind have a long
    tail (a bad early choice costs much more than starting again with other
    random choices), and restarts on Luby's budgets are within a logarithmic
    factor of the best restart schedule for any tail (Luby, Sinclair and
    Zuckerman 1993). Every second turn goes to the groups by the ruler
    sequence (the first group every fourth turn, the second every eighth,
    and so on; the last takes the rest), the others to each group in turn:
    when the first groups fit a world, one is found for little more than
    its own search costs; when they fit none but cannot be refuted soon
    (which happens: a few groups of many may fit none), each group that
    fits still gets its share, so the cost stays within a factor of the
    number of groups of the cheapest fitting one's instead of doubling at
    every group before it. The groups of fewest guesses come first (a group's
    checks each cost a check under every guess open that refutes it, so a
    small group goes further in a turn). What stood in the way if none fits.
    (``pasts``: what the sample's quick tries learned of the players' pasts,
    see :func:`_past_search`.)

    A search that has spent :data:`_FRESH_STEPS` steps without a world gets a
    fresh search of its guesses beside it (:meth:`_WorldSearch.afresh`: its
    own random choices, nothing learned), and another each time its steps
    double, :data:`_FRESH_MOST` at most: a search's restarts are not
    independent (what it learned leads each turn back to where the last
    ones looked: the players that failed most first, the hands found to fit
    first), so a search that started badly stays slow for many turns, which
    a fresh one cuts short. The first search goes on beside them, so nothing
    is lost: every search ends, and each misses no world. (A trick for the
    tail, measured by steps on keys other than those that made the views
    slow: with two fresh searches, the second after four times the steps,
    on 100 slow views with 13 keys each, 2% more steps in all than none, as
    many samples over 10,000 steps, the slowest 22,697 steps instead of
    29,193; with four, each after twice the steps, on the 40 hardest of 152
    slow views with 100 keys each, 1% fewer steps than with two, 6 samples
    of 4,000 over 25,000 steps instead of 11, the slowest 34,814 instead of
    66,931.)

    The interpreter's collector of reference cycles is paused while the
    searches run (as :mod:`timeit` pauses it), and set back as it was after:
    what they learn is kept in many small containers that outlive the young
    collections, so the collector would otherwise go over them, and over the
    whole heap of the process, again and again while they grow. When they
    end, each search lets go of the players' past searches
    (:meth:`_WorldSearch.close`), so that in the pure build what they built
    is freed at once (mypyc's nested functions still leave cycles, which the
    first collection after frees). (A trick for the tail, measured on the
    slowest samples of the long soak: see the views how-to.)"""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    made: list[_WorldSearch] = []
    try:
        return _search_worlds(view, tl, upcards, key, whole, pasts, made)
    finally:
        for search in made:
            search.close()
        if paused:
            gc.enable()


def _search_worlds(
    view: Any,
    tl: Timeline,
    upcards: Sequence[int | None],
    key: int,
    whole: Any,
    pasts: _Pasts | None,
    made: list[_WorldSearch],
) -> tuple[list[int], list[int], Certificate] | Message:
    """:func:`_search_world`, the collector left as it is (and each search
    that gets turns put in ``made``)."""
    why: Message | None = None
    pending: list[_WorldSearch] = []
    lacking: Counter[int] = Counter()  # by player: groups they had no hand in on their own
    shared: dict[int, list[int]] = {}  # by player: hands any search found to fit them
    pasts = {} if pasts is None else pasts
    # Each group's search draws its own random choices: the searches of
    # upcards that the record treats alike would otherwise make the same
    # choices, and fail the same way, turn after turn.
    for number, group in sorted(_groups(view, tl, upcards), key=lambda g: len(g[1])):
        search = _WorldSearch(
            view, tl, group, derive(key, 10, number), pasts, whole,
            refutable=len(upcards) > 1, lacking=lacking, shared=shared,
        )  # fmt: skip
        problem = search.setup()
        if problem is None:
            pending.append(search)
            made.append(search)
        else:
            why = why or problem
            continue
        # Beside it, where the joker's holder wins a tie of pons and the joker
        # is hidden, a search for each place the joker may be in (each hand
        # that takes a card of its class, and the stock), that place fixed.
        for branch, place in enumerate(_joker_places(search) if whole is None else ()):
            fixed = _WorldSearch(
                view, tl, group, derive(key, 10, number, branch), {}, None,
                refutable=True, lacking=lacking, joker=place, shared=shared,
            )  # fmt: skip
            if fixed.setup() is None:
                pending.append(fixed)
                made.append(fixed)
    turn = 0
    cursor = 0  # the round robin's next search
    while pending:
        turn += 1
        if turn % 2:  # the ruler sequence, on every second turn
            half = (turn + 1) // 2
            at = min((half & -half).bit_length() - 1, len(pending) - 1)
        else:  # each group in turn
            at = cursor = cursor % len(pending)
            cursor += 1
        search = pending[at]
        search.turns += 1
        found = search.advance(_FIRST_BUDGET * _luby(search.turns))
        if found is None:
            # A fresh search beside one slow to find a world (see above).
            search.steps += search.spent
            if search.fresh < _FRESH_MOST and search.steps > _FRESH_STEPS << search.fresh:
                search.fresh += 1
                again = search.afresh(derive(search.key, 12, search.fresh))
                if again.setup() is None:
                    pending.append(again)
                    made.append(again)
            continue
        if isinstance(found, Message):
            why = why or found
            del pending[at]
            if at < cursor:
                cursor -= 1
            continue
        return found
    return why or _no_world()


#: The stock, as a place of the joker (see :func:`_joker_places`).
STOCK: Final = -1


def _joker_places(search: _WorldSearch) -> list[int]:
    """Where the joker may be in a world of ``search`` (set up, without a
    whole position) where it is hidden and decides ties of pons: each hidden
    hand that takes a card of the joker's class, and the stock (:data:`STOCK`)
    if the joker's class is the stock's; none otherwise.

    A speed trick, measured: on such views the players often need the joker
    in turn (a pair to pon with, the tie to win), and a hand dealt early
    takes it from one dealt later, which the search then finds out hand
    after hand. A search with the joker's place fixed, beside the search of
    all places (which alone misses no world, so these only find one
    sooner): on the 135 joker-holder views among the sampler's slowest
    (eight fresh keys each), 4% fewer steps with four players and 2.5% with
    five, a third as many four-player samples over 8,000 steps (18 -> 6,
    five players alike: 19 -> 20), and the slowest 71,271 -> 52,279 steps."""
    view = search.view
    rules = view.rules
    if not (
        rules.pon_tie_break is PonTieBreak.JOKER_HOLDER
        and rules.jokers
        and search.unseen >> JOKER_INDEX & 1
    ):
        return []
    epoch = search.cls[JOKER_INDEX]
    places = [p for p in range(view.players) if p != view.viewer and search.need[p][epoch] > 0]
    if epoch == search.epochs - 1 and view.stock_size > 0:
        places.append(STOCK)
    return places


def _groups(
    view: Any, tl: Timeline, upcards: Sequence[int | None]
) -> list[tuple[int, list[int | None]]]:
    """The upcards in groups that split the unseen cards alike (the same
    cards to deal, as many of each class to each hand: :func:`_split`), in
    the order of their first, each with the number of its first."""
    groups: dict[Any, tuple[int, list[int | None]]] = {}
    for number, upcard in enumerate(upcards):
        split = _split(view, tl, -1 if upcard is None else upcard)
        alike: Any = (
            number
            if split is None
            else (
                split.unseen, tuple(map(tuple, split.need)), tuple(split.hands),
                tuple(split.cls[c] for c in bits(split.unseen)),
            )
        )  # fmt: skip
        groups.setdefault(alike, (number, []))[1].append(upcard)
    return list(groups.values())


def _luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


#: The steps each search of :func:`_search_world` gets in its first turn.
_FIRST_BUDGET: Final = 1000

#: The steps a search of :func:`_search_world` spends without a world before
#: a fresh search of its guesses starts beside it (:meth:`_WorldSearch.afresh`),
#: and how many it starts at most, each after twice the steps of the last.
_FRESH_STEPS: Final = 4000
_FRESH_MOST: Final = 4


class _Guess:
    """One guess of the upcard in a :class:`_WorldSearch`: its plan, and the
    searches of the players' pasts under it. (The guesses of one search split
    the unseen cards alike: the same cards to deal, as many of each class to
    each hand; they differ in what the windows say of the hands.)"""

    __slots__ = ("card", "masks", "plan", "searches", "upcard", "viewer_choices", "why")

    def __init__(self, tl: Timeline, upcard: int | None) -> None:
        self.upcard = upcard
        self.card = -1 if upcard is None else upcard
        self.masks = tl.reshuffle_masks(self.card)
        self.plan: Plan
        self.searches: dict[int, PastSearch] = {}
        self.viewer_choices: dict[int, int] | None = None
        """The viewer's past under this guess, once found."""
        self.why: Message | None = None
        """What refuted this guess before any hand was dealt, if anything."""


#: By guess of a :class:`_WorldSearch` (its index), the draws of a player's
#: past that fit a hand under it.
_Fits = dict[int, dict[int, int]]


def _guesses_of(fits: _Fits) -> int:
    """The guesses of ``fits`` (their indexes), as a mask."""
    mask = 0
    for i in fits:
        mask |= 1 << i
    return mask


class _WorldSearch:
    """A search that misses no world: the hidden hands player after player,
    each player's hands enumerated by kinds of card (class and type: the cards
    of one rank and one stock are alike for every claim window) with a bound
    (:class:`PastSearch` with the cards not chosen yet as wild cards) that
    never refuses a hand that fits, every hand checked exactly (its past
    searched exhaustively) and the whole deal by the engine's window code
    (:func:`_walk`). A state of the search that failed (the players still to
    deal, the kinds of card left and the guesses still open) is not searched
    again, so it ends; it finds a world whenever one exists with one of its
    upcards.

    Several guesses of an upcard the record no longer shows are searched at
    once where they split the unseen cards alike (:func:`_search_world`): the
    hands are enumerated once, each check asked under every guess still open
    on that path, and a guess is dropped from a path where a check refutes
    it. The guesses that fit no world are then refuted together, on the
    paths that also look for a world under the guess that fits one, instead
    of each by a search of its own (a speed trick: on the views with many
    guesses, most fit none and took the time). Every other turn searches one
    guess alone, each in turn: a check that every guess refutes costs a check
    under each, so where several fit a world, the search of all together is
    several times slower than that of one."""

    def __init__(
        self,
        view: Any,
        tl: Timeline,
        upcards: Sequence[int | None],
        key: int,
        pasts: _Pasts,
        whole: Any = None,
        *,
        refutable: bool = False,
        lacking: Counter[int] | None = None,
        joker: int | None = None,
        shared: dict[int, list[int]] | None = None,
    ) -> None:
        self.view = view
        self.joker = joker
        """Where the joker is in every world it looks for (a player, or
        :data:`STOCK`; see :func:`_joker_places`), or ``None`` (anywhere)."""
        self.pasts = pasts
        self.whole = whole
        """A whole position whose hands and stock are the only ones to try
        (:func:`certify`), or ``None``."""
        self.tl = tl
        self.guesses = [_Guess(tl, upcard) for upcard in upcards]
        self.alive = -1
        """The guesses not ruled out (by the viewer's past, a hand on its own,
        or a whole search under the guess alone), as a mask (-1: not known
        yet)."""
        self.key = key
        self.rng = Rng(derive(key, 6))
        self.rules: Rules = view.rules
        self.epochs = tl.epochs
        self.dead: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        """By state (the players still to deal, the kinds of card left): the
        guesses under which it has no world, as a mask."""
        self.failed: Counter[int] = Counter()
        """By player: how often they had no hand left by the others'."""
        self.alone: dict[int, list[tuple[int, int]]] = {}
        """By player: the kinds of card left that they need (:meth:`_stock_code`)
        from which a hand fits them under one of some guesses (a mask). From
        any more cards of each kind (fewer of none) a hand fits them too."""
        self.lonely: dict[int, list[tuple[int, int]]] = {}
        """By player: the kinds of card left that they need (:meth:`_stock_code`)
        from which no hand fits them under some guesses (a mask). From any
        fewer cards of each kind (more of none) none fits them either."""
        self.witnesses: dict[int, dict[int, int]] = {}
        """By player: the kinds of card (:func:`_stock_code`) of hands found
        to fit them beyond their known cards, each with the guesses it fits
        (a mask). Cards left with as many of each kind hold a hand of the
        same kinds, which the search takes to fit alike (its enumeration
        tries one card of each kind); a look then passes without a search."""
        self.probe = -1  # steps left to a check of a later player's hand (-1: none)
        self.refutable = refutable
        """Whether its guesses may fit no world (some upcards of a view fit
        none): then each player's hand on its own is looked for first."""
        self.lacking: Counter[int] = Counter() if lacking is None else lacking
        """By player: how many searches of the sample's other groups of
        guesses they had no hand on their own in (shared by those searches:
        where :attr:`refutable`, each looks at the players who lacked one
        most often first)."""
        self.looks: list[int] = []  # the players whose hands on their own to look for, in turn
        self.solo = 0  # how many of them have one
        self.turns = 0  # how many turns :func:`_search_world` gave it
        self.rotation: Counter[int] = Counter()
        """By a turn's budget: how many turns of that length went to one
        guess alone (see :meth:`advance`)."""
        self.shared: dict[int, list[int]] = {} if shared is None else shared
        """By player: the hands found to fit them by this search and the
        sample's others (each group's, each place of the joker's), newest
        first, :data:`_PROVEN` at most (shared by those searches: a look for
        a player's hand tries the first :data:`_SHARED` of them first, see
        :meth:`_hands`)."""
        self.misfits: dict[int, int] = {}
        """By hand of :attr:`shared`: the guesses under which this search found
        it not to fit (a mask; it is not asked again under them)."""
        self.proven: dict[int, list[tuple[int, int, _Fits]]] = {}
        """By player: hands found to fit (their pasts searched exactly), with
        the guesses they were checked under and their pasts under those they
        fit, newest first: the first tried wherever the cards left hold them."""
        self.result: tuple[list[int], list[int], Certificate] | None = None
        self.steps = 0  # over all its turns
        self.fresh = 0
        """How many fresh searches beside it it started (:meth:`afresh`)."""

    def afresh(self, key: int) -> _WorldSearch:
        """A search of the same guesses (and the same place of the joker) with
        random choices of its own from ``key`` and nothing learned yet, to run
        beside this one (see :func:`_search_world`); it starts none itself."""
        upcards = [g.upcard for g in self.guesses]
        again = _WorldSearch(
            self.view, self.tl, upcards, key, {} if self.joker is not None else self.pasts,
            self.whole, refutable=self.refutable, lacking=self.lacking, joker=self.joker,
            shared=self.shared,
        )  # fmt: skip
        again.fresh = _FRESH_MOST
        return again

    def close(self) -> None:
        """Let go of the searches of the players' pasts: while they count this
        search's steps (:meth:`_step`), they are in a reference cycle with it
        that would keep all it learned alive until the cycle collector's next
        pass."""
        self._count_pasts(None)

    def _count_pasts(self, tick: Callable[[], None] | None) -> None:
        """Have the searches of the players' pasts count their steps with
        ``tick`` (``None``: not at all) and draw their random choices from
        this search's generator. They are the sample's (see
        :func:`_past_search`), shared with a fresh search of the same guesses
        (:meth:`afresh`)."""
        for g in self.guesses:
            for past in g.searches.values():
                past.tick, past.rng = tick, self.rng

    def setup(self) -> Message | None:
        """Ready the search: what stands in the way from the start, if anything."""
        view, tl = self.view, self.tl
        split = _split(view, tl, self.guesses[0].card)
        if split is None:
            return _unfit_message()
        self.need, self.known, _, self.unseen, self.cls = split
        if self.whole is not None and not self._take_whole():
            return _unfit_message()
        if self.joker is not None:
            joker = 1 << JOKER_INDEX
            if self.joker != STOCK:  # one of the cards of its class that hand takes
                self.known[self.joker] |= joker
                self.need[self.joker][self.cls[JOKER_INDEX]] -= 1
            self.unseen &= ~joker  # (in the stock, :meth:`_finish` puts it back there)
        self.ready = False
        return None

    def _ready(self) -> None:
        """What the search needs that :meth:`setup` does not, made at its first
        turn (an upcard whose search never gets a turn costs little)."""
        view, tl, rng = self.view, self.tl, self.rng
        n, viewer, epochs = tl.players, view.viewer, self.epochs
        for g in self.guesses:
            g.plan = _plan(tl, g.card)
            g.searches = {
                p: _past_search(tl, self.pasts, g.card, p, rng, self._step) for p in range(n)
            }
        plan = self.guesses[0].plan
        others = [p for p in range(n) if p != viewer]
        # The most told about first: their hands prune the search soonest.
        weight = {p: 4 * len(plan.positives[p]) + len(plan.refusals[p]) for p in others}
        order = list(shuffled(others, rng.next64()))
        order.sort(key=lambda p: -weight[p])
        self.order = order
        self.hands = list(self.known)
        self.chosen: dict[int, _Fits] = {}
        by_class = [0] * epochs
        for c in bits(self.unseen):
            by_class[self.cls[c]] |= 1 << c
        self.by_class = by_class
        # By player, the bits of :func:`_stock_code` of the classes they need.
        whole = (1 << 14 * _KIND_BITS) - 1
        self.fields = [
            sum(whole << j * 14 * _KIND_BITS for j in range(epochs) if self.need[p][j])
            for p in range(n)
        ]
        self.wanted = [0] * n  # by player, the types their windows show them holding
        for g in self.guesses:
            for p in others:
                for _, w, fact, _, _ in g.plan.positives[p]:
                    card = g.plan.cards[w]
                    self.wanted[p] |= 1 << (
                        JOKER_TYPE if fact == JOKER or card == JOKER_INDEX else card % 13
                    )
        # By player, the guesses whose plans say something else of them than
        # the first guess's, or whose card they put out (see :meth:`_odd`).
        self.guessed = 0
        for g in self.guesses:
            if g.card >= 0:
                self.guessed |= 1 << g.card
        self.odd = [0] * n
        first = self.guesses[0].plan
        for p in range(n):
            shown = 0
            for _, cards in first.outs_of[p]:
                shown |= cards
            for (_, q), cards in first.held.items():
                if q == p:
                    shown |= cards
            told = [w for w in first.guessed if any(q == p for q, _, _ in first.facts[w])]
            for i, g in enumerate(self.guesses):
                plan = g.plan
                if (
                    (g.card >= 0 and shown >> g.card & 1)
                    or plan.positives[p] != first.positives[p]
                    or plan.refusals[p] != first.refusals[p]
                    or any(plan.cards[w] != first.cards[w] for w in told)
                ):
                    self.odd[p] |= 1 << i
        self.ready = True

    def advance(self, budget: int) -> tuple[list[int], list[int], Certificate] | Message | None:
        """Search for ``budget`` steps at most: a world (hands, stock,
        certificate), :func:`_no_world` if none exists (or what refuted every
        guess), or ``None`` if the budget ran out (what failed is kept: the
        next call goes further)."""
        if not self.ready:
            self._ready()
        self._count_pasts(self._step)  # (shared with a fresh search: its own while it has the turn)
        self.spent, self.budget = 0, budget
        try:
            if self.alive < 0:
                # The guesses in turn until one fits on its own: the others
                # are checked where a deal reaches them (:meth:`_finish`).
                for g in self.guesses:
                    if g.viewer_choices is None and g.why is None:
                        g.why = self._check(g)
                    if g.why is None:
                        break
                self.alive = sum(1 << i for i, g in enumerate(self.guesses) if g.why is None)
                if not self.alive:
                    why = self.guesses[0].why
                    assert why is not None
                    return why
            # Where the guesses may fit no world, each player's hand on its own
            # (for :data:`_SOLO_STEPS` steps at most): on the views with many
            # groups of guesses, most groups that fit none have a player
            # without a hand from all the cards, which this tells in a few
            # hundred steps (their search tells it only after trying every
            # hand of the players dealt first). The players who had no hand in
            # other groups first: it is often the same one.
            if self.refutable and not self.solo:
                self.looks = sorted(self.order, key=lambda q: -self.lacking[q])
            while self.refutable and self.solo < len(self.looks):
                p = self.looks[self.solo]
                # The look runs to its end (or its probe's) past the turn's
                # budget, which grows to let it: cut off there, it would start
                # again at the next turn (on the sampler's slowest views, a
                # third of these looks' steps went to looks cut off; ending
                # the turn where the look ends past the budget cost 1% more
                # steps than letting the turn go on).
                self.budget = max(self.budget, self.spent + _SOLO_STEPS + 2)
                self.alive = self._later_fit((p,), self.unseen, self.alive, probe=_SOLO_STEPS)
                if not self.alive:
                    self.lacking[p] += 1
                    return _no_hand(p, False)
                self.solo += 1
            while self.alive:
                # Every other turn, one guess still open alone, each in turn:
                # a check refuted under every guess open costs as many checks,
                # so where several guesses fit a world, one alone finds it
                # several times sooner than all together. A turn that
                # searches to the end without a world under it rules it out.
                # The guesses take turns of each length in rotation (the long
                # turns of Luby's sequence come at regular places, which a
                # single rotation would give to the same guesses).
                focus = self.alive
                if self.turns % 2 and focus & (focus - 1):
                    open_ = bits(focus)
                    i = open_[self.rotation[budget] % len(open_)]
                    self.rotation[budget] += 1
                    focus = 1 << i
                    # Its viewer's past first (the others' hands are checked
                    # as they are dealt).
                    if not self._viewer_settled(self.guesses[i]):
                        self.alive &= ~focus
                        continue
                if self._deal(tuple(self.order), self.unseen, focus):
                    assert self.result is not None
                    return self.result
                if focus == self.alive:
                    break
                self.alive &= ~focus  # no world under it
        except OutOfSteps:
            return None
        return _no_world()

    def _check(self, g: _Guess) -> Message | None:
        """Whether the viewer's hand, and each other hand on its own, fit
        under guess ``g``: what stands in the way if not (else the viewer's
        past is kept on ``g``)."""
        epochs = self.epochs
        choices = self._viewer_fits(g)
        if choices is None:
            return _no_hand(self.view.viewer, True)
        # The cards still to deal each hand are wild cards of their class, of
        # the types that class's unseen cards have (no other can be dealt): a
        # bound that never refuses a hand that fits, and where a window wants
        # a rank none of whose cards is left to deal, it refuses at once.
        types = [0] * epochs
        for c in bits(self.unseen):
            types[self.cls[c]] |= 1 << type_of(c)
        for p in self.order:
            if not g.searches[p].fits(self.known[p], self.need[p], types):
                return _no_hand(p, False)
        g.viewer_choices = choices
        return None

    def _viewer_settled(self, g: _Guess) -> bool:
        """Whether guess ``g`` is still open once the viewer's past under it is
        known (looked up once, then kept on ``g``: its past, or what refuted it)."""
        if g.viewer_choices is None and g.why is None:
            g.viewer_choices = self._viewer_fits(g)
            if g.viewer_choices is None:
                g.why = _no_hand(self.view.viewer, True)
        return g.why is None

    def _viewer_fits(self, g: _Guess) -> dict[int, int] | None:
        """The viewer's past under guess ``g``, or ``None`` if their hand fits
        none: as :func:`_viewer_past` found it for this view (a function of
        the view alone, kept on the timeline), else searched here."""
        decided, choices, _ = _viewer_past(self.view, self.tl, g.card)
        if not (decided and reveals(self.rules) and any(g.plan.depends)):
            mine = g.searches[self.view.viewer]
            choices = mine.choices() if mine.fits(self.view.hand_mask, [0] * self.epochs) else None
        return choices

    def _step(self) -> None:
        self.spent += 1
        if self.spent > self.budget:
            raise OutOfSteps
        if self.probe >= 0:
            self.probe -= 1
            if self.probe < 0:
                raise _ProbeOver

    def _take_whole(self) -> bool:
        """Every hand is given (:attr:`whole`): whether each holds the cards the
        record says it does, as many of each class, and the stock the rest."""
        cls, whole, viewer = self.cls, self.whole, self.view.viewer
        left = self.unseen
        for p in range(self.tl.players):
            if p == viewer:
                continue
            hand = whole.hand_masks[p]
            rest = hand & ~self.known[p]
            if self.known[p] & ~hand or rest & ~left:
                return False
            have = [0] * self.epochs
            for c in bits(rest):
                have[cls[c]] += 1
            if have != self.need[p]:
                return False
            self.known[p] = hand
            self.need[p] = [0] * self.epochs
            left &= ~rest
        stock: int = sum(1 << c for c in whole.stock_cards)
        return left == stock

    def _kinds(self, left: int) -> tuple[int, ...]:
        """How many cards of each class and type are left (the search's memo)."""
        out = [0] * (self.epochs * 14)
        cls = self.cls
        for c in bits(left):
            out[cls[c] * 14 + type_of(c)] += 1
        return tuple(out)

    def _deal(self, rest: tuple[int, ...], left: int, alive: int, checked: int = -1) -> bool:
        """Deal the players ``rest`` from the cards ``left`` under the guesses
        ``alive`` (a mask): next the one that most often had no hand left by
        the others' (so that a hard hand is chosen before the easy ones that
        starve it). ``checked``: the guesses that every hand dealt before
        was checked to fit (the others may have been left open unchecked: a
        world under them may fail for those hands, not for this state, so
        :attr:`dead` keeps only the checked ones)."""
        if not rest:
            return self._finish(left, alive)
        memo = (rest, self._kinds(left))
        alive &= ~self.dead.get(memo, 0)
        if not alive:
            return False
        failed = self.failed
        p = max(rest, key=lambda q: (failed[q], -self.order.index(q)))
        after = tuple(q for q in rest if q != p)
        dealt = False
        for hand, fits, open_ in self._hands(p, left, alive, after):
            dealt = True
            self.hands[p] = hand
            self.chosen[p] = fits
            still = self._later_fit(after, left & ~hand, open_)
            if still and self._deal(after, left & ~hand, still, checked & _guesses_of(fits)):
                return True
        if not dealt:
            # No hand of theirs was left by the others' (a check that they
            # had one, :meth:`_later_fit`, may have run out of steps).
            self.failed[p] += 1
            if not after:  # every hand of theirs was tried: as that check would say
                self._lonely(p, _stock_code(self._kinds(left)), alive)
        if alive & checked:
            self.dead[memo] = self.dead.get(memo, 0) | alive & checked
        return False

    def _later_fit(
        self, later: tuple[int, ...], left: int, alive: int, probe: int = _PROBE_STEPS
    ) -> int:
        """The guesses of ``alive`` under which each player still to deal
        (``later``) has a hand that fits, from the cards ``left``, each on
        their own (the cards they take from one another are the search's to
        try), as a mask: one such hand is looked for, for ``probe`` steps at
        most, where what was found before does not tell (kept by the kinds
        of card left in the classes they need, and by the kinds of the hands
        found to fit them: :attr:`witnesses`). (A bound of their hand with
        every card still to choose refuted about one check in eight and cost
        a sixth of the search's steps: the look for a hand tells those too.)"""
        if not later:
            return alive
        code = _stock_code(self._kinds(left))
        for q in later:
            mine = code & self.fields[q]
            for more, under in self.lonely.get(q, ()):
                if mine & ~more == 0:  # no more of any kind than where none fit
                    alive &= ~under
            if any(
                kinds & ~mine == 0 and under & alive
                for kinds, under in self.witnesses.get(q, {}).items()
            ):
                continue
            alone = self.alone.setdefault(q, [])
            if alive and not any(
                fewer & ~mine == 0 and under & ~alive == 0 for fewer, under in alone
            ):
                self._step()
                self.probe = probe
                try:
                    if next(self._hands(q, left, alive), None) is not None:
                        alone.append((mine, alive))
                    else:
                        self._lonely(q, code, alive)
                        alive = 0
                except _ProbeOver:
                    # Not decided in time: the search will tell. A player
                    # whose hands are slow to tell apart counts as failed, so
                    # that they are dealt sooner (where their own enumeration
                    # tells at once).
                    self.failed[q] += 1
                finally:
                    self.probe = -1
            if not alive:
                self.failed[q] += 1
                return 0
        return alive

    def _lonely(self, p: int, code: int, alive: int) -> None:
        """Remember that player ``p`` has no hand under the guesses ``alive``
        from the cards left whose :func:`_stock_code` is ``code`` (only the
        classes they need count: see :attr:`lonely`)."""
        self.lonely.setdefault(p, []).append((code & self.fields[p], alive))

    def _hands(
        self, p: int, left: int, alive: int, later: tuple[int, ...] | None = None
    ) -> Iterator[tuple[int, _Fits, int]]:
        """Player ``p``'s hands that fit their windows under one of the
        guesses ``alive`` at least, from the cards ``left``: a few at random,
        then all of them (by kinds of card, in a random order; for a look, see
        :meth:`_later_fit`, the most cards of each kind first). Each with its
        past under the guesses it was found to fit, and the guesses not
        refuted for it (a mask: the guesses are tried in turn until one fits,
        the others left open). With ``later`` (the players still to deal
        after them), a hand that takes the last of a kind they need is
        checked against them at once, and so is each choice of the hand's
        cards of one class before the next class's."""
        rng, epochs, need, known = self.rng, self.epochs, self.need[p], self.known[p]
        guesses = self.guesses
        zeros = [0] * epochs
        # (The cards of a class they take none of are never chosen: left out.)
        pools = [bits(left & self.by_class[j]) if need[j] else [] for j in range(epochs)]
        if any(len(pools[j]) < need[j] for j in range(epochs)):
            return

        def exact(hand: int, under: int, fits: _Fits) -> int:
            # The guesses of ``under`` in turn until one fits the hand (its
            # past added to ``fits``): those not refuted.
            def fit(i: int) -> bool:
                search = guesses[i].searches[p]
                if not search.fits(hand, zeros):
                    return False
                fits[i] = search.choices()
                return True

            return self._in_turn(p, hand, under, fit)

        # The hands already found to fit this player, where the cards left
        # hold them: a check of a later player's hand (_later_fit) and the
        # deal itself mostly ask about cards left that differ by a few.
        proven = self.proven.setdefault(p, [])
        for hand, refuted, fits in list(proven):
            if hand & ~known & ~left == 0:
                self._step()
                open_ = alive & ~refuted
                if not any(open_ >> i & 1 for i in fits):
                    open_ = exact(hand, open_, fits)
                if open_:
                    yield hand, fits, open_
        tried = {hand for hand, _, _ in proven}  # each hand is yielded once

        witnesses = self.witnesses.setdefault(p, {})

        def found(hand: int, open_: int, under: int, fits: _Fits) -> tuple[int, _Fits, int]:
            tried.add(hand)
            proven.insert(0, (hand, under & ~open_, fits))
            del proven[_PROVEN:]
            shared = self.shared.setdefault(p, [])
            if hand not in shared:
                shared.insert(0, hand)
                del shared[_PROVEN:]
            code = _stock_code(self._kinds(hand & ~known))
            witnesses[code] = witnesses.get(code, 0) | _guesses_of(fits)
            return hand, fits, open_

        # A look for a later player's hand (is there one at all?, see
        # :meth:`_later_fit`): any hand will do.
        looking = self.probe >= 0 and later is None
        if looking:
            # First, the latest hands the sample's other searches found to
            # fit them, where the cards left hold them, as many of each class
            # as this search deals them (the searches' guesses and places of
            # the joker differ little: what fits under one mostly fits under
            # another).
            by_class = self.by_class
            for hand in self.shared.get(p, [])[:_SHARED]:
                more = hand & ~known
                if hand in tried or hand & known != known or more & ~left:
                    continue
                if any((more & by_class[j]).bit_count() != need[j] for j in range(epochs)):
                    continue
                under = alive & ~self.misfits.get(hand, 0)
                if not under:
                    continue
                self._step()
                other: _Fits = {}
                open_ = exact(hand, under, other)
                if open_:
                    yield found(hand, open_, under, other)
                else:
                    self.misfits[hand] = self.misfits.get(hand, 0) | under
            # Then hands made from the latest kinds of hand found to fit
            # them (in the order first found), which fit more often than
            # hands at random.
            for code in list(islice(reversed(witnesses), _REPAIRS)):
                self._step()
                hand = self._mended(p, code, pools)
                if hand not in tried:
                    mended: _Fits = {}
                    open_ = exact(hand, alive, mended)
                    if open_:
                        yield found(hand, open_, alive, mended)
        for _ in range(_HAND_QUICK):
            self._step()
            hand = known
            for j in range(epochs):
                for c in _pick(pools[j], need[j], rng):
                    hand |= 1 << c
            if hand not in tried:
                picked: _Fits = {}
                open_ = exact(hand, alive, picked)
                if open_:
                    yield found(hand, open_, alive, picked)
        # Every hand, by kinds: the cards of each class and type left, in a
        # random order; the ranks the windows show the player holding first.
        kinds: list[list[list[int]]] = [[[] for _ in range(14)] for _ in range(epochs)]
        for j in range(epochs):
            for c in shuffled(pools[j], rng.next64()):
                kinds[j][type_of(c)].append(c)
        # The types this player's windows show them holding first, those the
        # players still to deal need last (so that their hands are left).
        wanted, others = self.wanted[p], 0
        for q in later or ():
            others |= self.wanted[q]
        rank = [0 if wanted >> t & 1 else 2 if others >> t & 1 else 1 for t in range(14)]
        orders = [
            sorted(shuffled(range(14), rng.next64()), key=lambda t: rank[t]) for _ in range(epochs)
        ]

        # By class, from each place of its order on: how many cards are left
        # and of which types (a speed trick: every step of the fill asks; on
        # the sampler's slow views, 3% less time than summing them each time).
        counts_from: list[list[int]] = []
        types_from: list[list[int]] = []
        for j in range(epochs):
            count, types = [0] * 15, [0] * 15
            for at in range(13, -1, -1):
                t = orders[j][at]
                count[at] = count[at + 1] + len(kinds[j][t])
                types[at] = types[at + 1] | (1 << t if kinds[j][t] else 0)
            counts_from.append(count)
            types_from.append(types)

        def ahead(j: int, at: int, wild: list[int]) -> list[int]:
            # The types still to choose from in each class with cards to choose.
            types = [0] * epochs
            for jj in range(j, epochs):
                if wild[jj]:
                    types[jj] = types_from[jj][at if jj == j else 0]
            return types

        def room(j: int, at: int, wild: list[int]) -> bool:
            return counts_from[j][at] >= wild[j]

        # ``fill`` calls itself through this list, which is emptied when the
        # hands end: through its own name it would be in a reference cycle
        # (the function, the closure that holds it), which keeps the tables
        # above alive until the cycle collector's next pass.
        deeper: list[Callable[[int, int, int, list[int], int], Iterator[tuple[int, _Fits, int]]]]
        deeper = []

        def fill(
            j: int, at: int, hand: int, wild: list[int], alive: int
        ) -> Iterator[tuple[int, _Fits, int]]:
            if j < epochs and not wild[j]:
                while j < epochs and not wild[j]:
                    j, at = j + 1, 0
                # This class's cards are chosen: the players still to deal
                # must still have hands with the cards left (those of the
                # classes to come, still to choose from, count too: a bound
                # that never refuses a hand that fits). Else no choice of
                # the classes to come helps: they are not tried.
                if j < epochs and later and hand != known:
                    alive = self._later_fit(later, left & ~hand, alive)
                    if not alive:
                        return
            if j == epochs:
                if hand not in tried:
                    whole: _Fits = {}
                    open_ = exact(hand, alive, whole)
                    if open_:
                        yield found(hand, open_, alive, whole)
                return
            if at == 14:
                return
            t = orders[j][at]
            most = min(len(kinds[j][t]), wild[j])
            counts = list(range(most + 1))
            if looking:
                # As many cards of each kind as it may first: a hand of few
                # kinds, those the windows show the player holding first,
                # fits soonest (on the sampler's slowest views, 10% fewer
                # steps than counts in a random order, which hands dealt keep).
                counts.reverse()
            else:
                rng.shuffle(counts)
            for m in counts:
                more = hand
                for c in kinds[j][t][:m]:
                    more |= 1 << c
                rest = list(wild)
                rest[j] -= m
                if not room(j, at + 1, rest):
                    continue
                self._step()
                # (A hand with every card chosen gets its exact check once,
                # where it is complete, below.)
                still = alive
                if m and any(rest):
                    types = ahead(j, at + 1, rest)
                    still = self._bound(p, more, rest, types, alive)
                    if not still:
                        continue
                if m and later and rank[t] == 2 and len(kinds[j][t]) - m < 2:
                    # It takes the last of a kind the players still to deal need.
                    still = self._later_fit(later, left & ~more, still)
                    if not still:
                        continue
                yield from deeper[0](j, at + 1, more, rest, still)

        deeper.append(fill)
        try:
            yield from fill(0, 0, known, list(need), alive)
        finally:
            deeper.clear()

    def _mended(self, p: int, code: int, pools: list[list[int]]) -> int:
        """A hand of player ``p`` from the cards ``pools`` (by class) near a
        hand of kinds ``code`` (:func:`_stock_code`, see :attr:`witnesses`):
        as many cards of each of its kinds as are left (at random among
        them), the rest at random from the cards left of the same classes."""
        rng, hand, short = self.rng, self.known[p], list(self.need[p])
        for j, pool in enumerate(pools):
            if not short[j]:
                continue
            of_kind: dict[int, list[int]] = {}
            for c in pool:
                of_kind.setdefault(type_of(c), []).append(c)
            for t, cards in of_kind.items():
                wanted = (code >> (j * 14 + t) * _KIND_BITS & _KIND_MASK).bit_count()
                for c in _pick(cards, min(wanted, len(cards), short[j]), rng):
                    hand |= 1 << c
                    short[j] -= 1
                if not short[j]:
                    break
        for j, pool in enumerate(pools):
            if short[j]:
                for c in _pick([c for c in pool if not hand >> c & 1], short[j], rng):
                    hand |= 1 << c
        return hand

    def _finish(self, left: int, alive: int) -> bool:
        """The stock from the cards left, and the whole deal walked back with
        the engine's window code (windows that depend on several hands at
        once) under each guess ``alive`` in turn (where every hand fits it);
        other pasts of the same hands are tried if it refuses."""
        if self.whole is not None:
            stock = list(self.whole.stock_cards)
        else:
            stock = bits(left | (1 << JOKER_INDEX if self.joker == STOCK else 0))
            self.rng.shuffle(stock)
        zeros = [0] * self.epochs
        for i in bits(alive):
            g = self.guesses[i]
            if not self._viewer_settled(g):
                self.alive &= ~(1 << i)
                continue
            choices = dict(g.viewer_choices or {})
            for p, fits in self.chosen.items():
                if i not in fits:  # a hand found to fit another guess first
                    search = g.searches[p]
                    if not search.fits(self.hands[p], zeros):
                        break
                    fits[i] = search.choices()
                choices.update(fits[i])
            else:
                if self._walks(g, stock, choices):
                    return True
        return False

    def _bound(self, p: int, hand: int, wild: list[int], types: list[int], alive: int) -> int:
        """The guesses of ``alive`` (a mask) less those under which player
        ``p``'s bound refutes ``hand`` and ``wild`` (see :meth:`PastSearch.fits`),
        asked in turn until one passes: the rest stay open."""
        guesses = self.guesses
        return self._in_turn(
            p, hand, alive, lambda i: guesses[i].searches[p].fits(hand, wild, types, near=_NEAR)
        )

    def _in_turn(self, p: int, hand: int, alive: int, fits: Callable[[int], bool]) -> int:
        """The guesses of ``alive`` (a mask) less those refuted, asking
        ``fits`` of each in turn until one passes (the rest stay open); of
        the guesses alike for player ``p`` and a hand holding ``hand`` (see
        :meth:`_odd`), the first asked answers for all."""
        refuted = 0
        odd = self._odd(p, hand)
        plain = False  # whether a guess alike to the others for this hand was asked
        for i in bits(alive):
            if not odd >> i & 1:
                if plain:
                    refuted |= 1 << i  # it answers as the one asked did
                    continue
                plain = True
            if fits(i):
                return alive & ~refuted
            refuted |= 1 << i
        return 0

    def _odd(self, p: int, hand: int) -> int:
        """The guesses under which player ``p``'s past may answer otherwise
        than under the others for a hand holding ``hand`` (a mask): those
        whose windows say something else of ``p`` or whose card ``p`` put out
        (:attr:`odd`), and those whose card the hand holds. Under the others
        the search of the past reads the same: their plans agree on ``p``,
        and their stocks differ only in the guessed cards, which it never
        meets (a speed trick: one of them is asked for all)."""
        odd = self.odd[p]
        if hand & self.guessed:
            for i, g in enumerate(self.guesses):
                if g.card >= 0 and hand >> g.card & 1:
                    odd |= 1 << i
        return odd

    def _walks(self, g: _Guess, stock: list[int], choices: dict[int, int]) -> bool:
        """:meth:`_finish` under guess ``g``, from the players' pasts ``choices``."""
        tl = self.tl
        for _ in range(_WALK_TRIES):
            self._step()
            cert = _walk(tl, list(self.hands), list(stock), g.upcard, g.plan, choices, self.key)
            if cert is not None:
                self.result = (list(self.hands), stock, cert)
                return True
            if not any(g.plan.depends):
                return False
            # Another past for every player (the viewer too), in another order.
            choices = {}
            for p in range(tl.players):
                hand = self.view.hand_mask if p == self.view.viewer else self.hands[p]
                past = PastSearch(p, g.plan, g.masks, self.rules, self.epochs, self.rng, self._step)
                if not past.fits(hand, [0] * self.epochs):
                    return False
                choices.update(past.choices())
        return False

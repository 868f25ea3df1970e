"""The pure game engine: :func:`deal`, :func:`legal_actions` and :func:`apply`.

Every function takes a :class:`GameState` and never changes it; :func:`apply`
returns a new state. The cross-cutting policy (a finished deal accepts nothing,
whose decision it is, what each phase allows) lives in :func:`apply` and
:func:`legal_actions`; each action's effect is a private helper.

>>> from sevenbridge import deal, legal_actions, apply, Draw
>>> state = deal(seed=1)
>>> legal_actions(state)
(Draw(1),)
>>> state = apply(state, Draw(1))
>>> state.phase.value, len(state.hand(1))
('play', 8)
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any

import attrs

from . import _checks
from . import _tables as T
from ._random import derive, fresh_seed, shuffled
from .actions import ACTION_TYPES, Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import CARDS, JOKER_INDEX, Card, parse_cards
from .errors import IllegalActionError, InvalidStateError
from .errors import Message as M
from .melds import analyse
from .rules import ClaimTiming, ClaimWindow, FirstPlayer, PonTieBreak, Rules, StockExhaustion
from .scoring import score_deal
from .state import GameState, History, Phase, TableMeld, table_meld

__all__ = ["apply", "deal", "legal_actions"]

HAND_SIZE = 7
_DEFAULT_RULES = Rules()

# Positions of GameState's fields in the working list used by transitions.
_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.init)
_get_fields = attrgetter(*_FIELDS)
(
    RULES, PLAYERS, DEALER, PHASE, CURRENT, HANDS, STOCK, DISCARDS, TABLE,
    OWNERS, PLAYED, NORMAL, TURNS, DISCARDER, QUEUE, PENDING, CLEAN, BY_CLAIM,
    RESHUFFLES, RESHUFFLED, SEED, WINNER, SCORES, BONUS, REASON, LOG,
) = range(len(_FIELDS))  # fmt: skip
assert _FIELDS[LOG] == "move_log" and _FIELDS[HANDS] == "hand_masks"

# Operation codes: the engine's own form of an action.
OP_DRAW, OP_PASS, OP_CHI, OP_PON, OP_LAY, OP_OFF, OP_DISCARD = range(7)

_JOKER = T.JOKER_BIT


# ----------------------------------------------------------------------------------
# dealing
# ----------------------------------------------------------------------------------
def _first_player(rules: Rules, dealer: int, players: int) -> int:
    return dealer if rules.first_player is FirstPlayer.DEALER else (dealer + 1) % players


def _deck_order(
    rules: Rules, seed: int | None, deck: str | Iterable[Card | str] | None
) -> tuple[tuple[int, ...], int]:
    size = rules.deck_size
    if deck is None:
        if seed is None:
            seed = fresh_seed()
        return shuffled(range(size), derive(seed, 0)), seed
    cards = parse_cards(deck)
    order = tuple(c.index for c in cards)
    if sorted(order) != list(range(size)):
        seen: set[int] = set()
        for c in order:
            if c in seen:
                raise InvalidStateError(
                    M("invalid_state.deck_twice", "deck: {card} appears twice", card=str(CARDS[c]))
                )
            if c >= size:
                raise InvalidStateError(
                    M(
                        "invalid_state.deck_not_in_deck",
                        "deck: {card} is not in a {size}-card deck",
                        card=str(CARDS[c]),
                        size=size,
                    )
                )
            seen.add(c)
        missing = " ".join(str(CARDS[c]) for c in range(size) if c not in seen)
        raise InvalidStateError(
            M(
                "invalid_state.deck_size",
                "deck: {given} cards given, {size} needed; missing {missing}",
                given=len(order),
                size=size,
                missing=missing,
            )
        )
    if seed is None:
        seed = 0
        for c in order:
            seed = derive(seed, c + 1)
    return order, seed


def deal(
    rules: Rules = _DEFAULT_RULES,
    *,
    players: int = 3,
    dealer: int = 0,
    seed: int | None = None,
    deck: str | Iterable[Card | str] | None = None,
) -> GameState:
    """Shuffle (or take ``deck``), deal seven cards each and return the first position.

    Args:
        rules: The rules of the deal.
        players: 2 to 5.
        dealer: Who deals (0 to ``players - 1``).
        seed: Makes the shuffle and any later reshuffle reproducible on every
            machine and Python version. ``None`` picks a random seed (kept in the
            state, so the deal can still be replayed).
        deck: The complete deck in order, top card first, instead of a shuffle.
            It is dealt one card at a time from the dealer's left, clockwise,
            seven rounds; then the upcard if the rules have one; the rest is the
            stock, drawn from the front.

    Raises:
        InvalidStateError: for a deck that is not exactly the rules' cards.
        TypeError: for arguments of the wrong type.
        InvalidArgumentError: for a player count, dealer or seed out of range
            (seeds are 0 to 2**64 - 1).

    >>> from sevenbridge import deal, full_deck
    >>> state = deal(players=2, deck=full_deck())
    >>> [str(c) for c in state.hand(1)]
    ['AC', '3C', '5C', '7C', '9C', 'JC', 'KC']
    >>> [str(c) for c in state.hand(0)]
    ['2C', '4C', '6C', '8C', '10C', 'QC', 'AD']
    >>> str(state.top_discard), str(state.stock[0])
    ('2D', '3D')
    """
    _checks.instance(rules, Rules, "rules", "a Rules value")
    players = _checks.players(players)
    dealer = _checks.seat(dealer, players, "dealer")
    seed = _checks.seed(seed)
    order, seed = _deck_order(rules, seed, deck)
    hands = [0] * players
    i = 0
    for _ in range(HAND_SIZE):
        for k in range(1, players + 1):
            hands[(dealer + k) % players] |= 1 << order[i]
            i += 1
    discards: tuple[int, ...] = ()
    if rules.upcard:
        discards = (order[i],)
        i += 1
    v: list[Any] = [
        rules, players, dealer, Phase.DRAW, None, tuple(hands), tuple(order[i:]),
        discards, (), 0, 0, 0, 0, -1, (), None, False, False, 0, 0, seed, None, None,
        False, None, None,
    ]  # fmt: skip
    first = _first_player(rules, dealer, players)
    if discards and rules.upcard_claimable:
        _open_window(v, -1, [(first + k) % players for k in range(players)], first)
    else:
        _enter_draw(v, first)
    return GameState(*v)


# ----------------------------------------------------------------------------------
# legal actions
# ----------------------------------------------------------------------------------
_ACTIONS: dict[tuple[int, ...], Action] = {}


def _intern(key: tuple[int, ...]) -> Action:
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = _build_action(key)
    return action


def _build_action(key: tuple[int, ...]) -> Action:
    code, p = key[0], key[1]
    if code == OP_DRAW:
        return Draw(p)
    if code == OP_PASS:
        return Pass(p)
    if code == OP_DISCARD:
        return Discard(p, CARDS[key[2]])
    if code == OP_OFF:
        j = key[4]
        return LayOff(p, CARDS[key[2]], key[3], None if j < 0 else CARDS[j])
    cards = tuple(CARDS[c] for c in T.bits(key[2]))
    joker_as = None if key[3] < 0 else CARDS[key[3]]
    if code == OP_CHI:
        return Chi(p, cards, joker_as)
    if code == OP_PON:
        return Pon(p, cards, joker_as)
    return LayDown(p, cards, joker_as)


def _prebuilt(key: tuple[int, ...]) -> tuple[Action, tuple[int, ...]]:
    return _intern(key), key


_DRAWS = [_prebuilt((OP_DRAW, p)) for p in range(5)]
_PASSES = [_prebuilt((OP_PASS, p)) for p in range(5)]
_DISCARDS = [[_prebuilt((OP_DISCARD, p, c)) for c in range(53)] for p in range(5)]
_DISCARD_KEYS = [[key for _, key in row] for row in _DISCARDS]


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


_NEAR = {high: [_near(c, high) for c in range(52)] for high in (False, True)}


def _may_claim(timing: ClaimTiming, player: int, normal_turns: int, turns: int, n: int) -> bool:
    if timing is ClaimTiming.AFTER_OWN_TURN:
        return bool(normal_turns >> player & 1)
    if timing is ClaimTiming.AFTER_FIRST_ROUND:
        return turns >= n
    return True


def _claims(hand: int, card: int, rules: Rules, kind: int) -> list[tuple[int, int]]:
    """Ways to claim ``card`` into a new meld of ``kind`` (RUN for chi, SET for pon).

    Returns ``(hand cards mask, joker card or -1)`` pairs.
    """
    cbit = 1 << card
    joker_ok = bool(rules.jokers and hand & _JOKER)
    need = rules.claim_min_hand_cards
    keep = 1 if rules.final_discard else 0
    out: list[tuple[int, int]] = []
    if card != JOKER_INDEX and not joker_ok:
        if kind == T.RUN:
            if not hand & _NEAR[rules.ace_high][card]:
                return out
        else:
            r = card % 13
            least = max(need, 1 if r == 6 else 2)
            if (hand & T.RANK_MASK[r]).bit_count() < least:
                return out
    if card == JOKER_INDEX:
        candidates = [
            (m, j) for m, k, j in T.melds_in(hand | cbit, rules.ace_high, True)
            if k == kind and m & cbit
        ]  # fmt: skip
    elif kind == T.RUN:
        s = card // 13
        shift = 13 * s
        pattern = (hand | cbit) >> shift & T.SUIT_BITS
        inner = cbit >> shift
        candidates = [
            (sub << shift, -1) for sub in T.runs_in(pattern, rules.ace_high) if sub & inner
        ]
        if joker_ok:
            for sub, pos in T.joker_runs_in(pattern, rules.ace_high):
                if sub & inner:
                    candidates.append(((sub << shift) | _JOKER, shift + pos))
    else:
        r = card % 13
        rp = T.rank_pattern(hand | cbit, r)
        candidates = [(m, -1) for m, k in T.sets_of_rank(r, rp) if k == T.SET and m & cbit]
        if joker_ok:
            candidates.extend((m, j) for m, j in T.joker_sets_of_rank(r, rp) if m & cbit)
    for mask, j in candidates:
        used = mask & ~cbit
        if used.bit_count() >= need and (hand & ~used).bit_count() >= keep:
            out.append((used, j))
    return out


def _legal_keys(
    phase: Phase,
    p: int,
    rules: Rules,
    hand: int,
    owners: int,
    table: tuple[TableMeld, ...],
    discards: tuple[int, ...],
    pending_pon: tuple[int, int, int] | None,
    chi_open: bool,
) -> list[tuple[int, ...]]:
    """The legal actions of player ``p``, holding ``hand``, as operation keys in
    the public order of :func:`legal_actions` (the core shared by states, views
    and playouts)."""
    out: list[tuple[int, ...]] = []
    add = out.append
    if phase is Phase.PLAY:
        joker_ok = bool(rules.jokers and hand & _JOKER)
        full = hand if rules.final_discard else -1
        for mask, kind, j in T.melds_in(hand, rules.ace_high, joker_ok):
            if mask != full:
                add((OP_LAY, p, mask, j, kind))
        if (not rules.lay_off_needs_own_meld or owners >> p & 1) and (
            not rules.final_discard or hand & (hand - 1)
        ):
            for i, tm in enumerate(table):
                cand = hand & tm.ext
                while cand:
                    low = cand & -cand
                    add((OP_OFF, p, low.bit_length() - 1, i, -1))
                    cand ^= low
                if tm.joker_options and hand & _JOKER:
                    for j in tm.joker_options:
                        add((OP_OFF, p, JOKER_INDEX, i, j))
        keys = _DISCARD_KEYS[p]
        cand = hand
        while cand:
            low = cand & -cand
            add(keys[low.bit_length() - 1])
            cand ^= low
    elif phase is Phase.DRAW:
        add(_DRAWS[p][1])
        if chi_open:
            for used, j in _claims(hand, discards[-1], rules, T.RUN):
                add((OP_CHI, p, used, j))
    elif phase is Phase.CLAIM:
        add(_PASSES[p][1])
        if pending_pon is None or hand & _JOKER:
            for used, j in _claims(hand, discards[-1], rules, T.SET):
                add((OP_PON, p, used, j))
    return out


def _compute_legal(
    state: GameState | Any, hand: int
) -> tuple[dict[Action, tuple[int, ...]], tuple[Action, ...]]:
    """The legal actions of the player to act, holding ``hand``.

    ``state`` is a GameState or anything with the same public fields (an
    Observation): only the acting player's hand is needed.
    """
    phase = state.phase
    if phase is Phase.OVER:
        return {}, ()
    p = state.current_player
    assert p is not None
    keys = _legal_keys(
        phase, p, state.rules, hand, state.meld_owners, state.table, state.discard_cards,
        state.pending_pon, phase is Phase.DRAW and _chi_open(state, p),
    )  # fmt: skip
    get = _ACTIONS.get
    out = {get(key) or _intern(key): key for key in keys}
    return out, tuple(out)


def _chi_open(state: GameState | Any, p: int) -> bool:
    rules = state.rules
    return bool(
        state.discard_cards
        and (state.discarder >= 0 or rules.upcard_claimable)
        and _may_claim(rules.chi_timing, p, state.normal_turns, state.turns_done, state.players)
    )


def _legal(state: GameState) -> tuple[dict[Action, tuple[int, ...]], tuple[Action, ...]]:
    cached = state._legal
    if cached is None:
        p = state.current_player
        cached = _compute_legal(state, 0 if p is None else state.hand_masks[p])
        object.__setattr__(state, "_legal", cached)
    return cached  # type: ignore[no-any-return]


def legal_actions(state: GameState | Any) -> tuple[Action, ...]:
    """Every action the player in :attr:`~GameState.current_player` may take now.

    ``state`` may also be an :class:`~sevenbridge.Observation`: then the actions
    are the viewer's when the decision is theirs, and none otherwise.

    The order is deterministic: in the claim window ``Pass`` then the pons; at
    the start of a turn ``Draw`` then the chis; during the turn the new melds,
    then the lay-offs (by meld index), then the discards. A finished deal has
    none. Each distinct way to play a card is its own action (a 7 as a new meld
    or laid off; several 7s as one set or as singles; each joker stand-in).

    >>> from sevenbridge import deal, legal_actions, apply
    >>> state = apply(deal(seed=3), legal_actions(deal(seed=3))[0])
    >>> [str(a) for a in legal_actions(state)][-3:]
    ['Discard QH', 'Discard KH', 'Discard AS']
    """
    if state.__class__ is GameState:
        return _legal(state)[1]
    return _view_legal(state)


def _view_legal(view: Any) -> tuple[Action, ...]:
    """Legal actions from an Observation: its viewer's, when the decision is theirs."""
    if not hasattr(view, "viewer") or not hasattr(view, "hand_mask"):
        raise TypeError(f"legal_actions needs a GameState or an Observation, not {view!r}")
    if view.current_player != view.viewer:
        return ()
    cached = view._legal
    if cached is None:
        cached = _compute_legal(view, view.hand_mask)
        object.__setattr__(view, "_legal", cached)
    return cached[1]  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------------
# transitions
# ----------------------------------------------------------------------------------
def apply(state: GameState, action: Action) -> GameState:
    """The position after ``action``; ``state`` itself is never changed.

    Raises:
        IllegalActionError: if the action is not legal now, with the rule that
            forbids it. A finished deal accepts no action.

    >>> from sevenbridge import deal, apply, Discard
    >>> apply(deal(seed=1), Discard(1, "AS"))
    Traceback (most recent call last):
    ...
    sevenbridge.errors.IllegalActionError: illegal action Discard(1, 'AS'): a turn begins by drawing from the stock (or with a chi); discarding comes last
    """
    if type(state) is not GameState:
        _check_state(state, "apply")
    try:
        op = _legal(state)[0].get(action)
    except TypeError:  # unhashable
        op = None
    if op is None:
        if not isinstance(action, ACTION_TYPES):
            raise TypeError(
                f"action must be a Draw, Pass, Chi, Pon, LayDown, LayOff or Discard, "
                f"not {_checks.type_name(action)}"
            )
        raise IllegalActionError(action, _diagnose(state, action))
    return _apply_op(state, op, action)


def _check_state(state: Any, function: str) -> None:
    """A TypeError for anything but a GameState (an Observation is not enough)."""
    if isinstance(state, GameState):
        return
    hint = ""
    if type(state).__name__ == "Observation":
        hint = (
            "; an Observation hides the other hands, so it cannot be played on "
            "(sample_state(view) deals them at random)"
        )
    raise TypeError(f"{function}() needs a GameState, not {_checks.type_name(state)}{hint}")


def _apply_op(state: GameState, op: tuple[int, ...], action: Action) -> GameState:
    v: list[Any] = list(_get_fields(state))
    _step(v, op, action)
    return GameState(*v)


def _step(v: list[Any], op: tuple[int, ...], action: Action) -> None:
    """Play ``op`` (``action`` in the engine's form) on the field list ``v`` in place."""
    v[LOG] = History(v[LOG], action)
    code = op[0]
    p = op[1]
    rules: Rules = v[RULES]
    if code == OP_DRAW:
        stock = v[STOCK]
        hands = list(v[HANDS])
        hands[p] |= 1 << stock[0]
        v[HANDS] = tuple(hands)
        v[STOCK] = stock[1:]
        v[PHASE] = Phase.PLAY
        v[CLEAN] = not v[PLAYED] >> p & 1
        v[BY_CLAIM] = False
    elif code == OP_DISCARD:
        c = op[2]
        hands = list(v[HANDS])
        hands[p] &= ~(1 << c)
        v[HANDS] = tuple(hands)
        v[DISCARDS] = (*v[DISCARDS], c)
        if not v[BY_CLAIM]:
            v[NORMAL] |= 1 << p
        v[TURNS] += 1
        v[DISCARDER] = p
        if not hands[p]:
            _go_out(v, p)
        else:
            v[CLEAN] = v[BY_CLAIM] = False  # these describe a turn in progress only
            n = v[PLAYERS]
            _open_window(v, p, [(p + k) % n for k in range(1, n)], (p + 1) % n)
    elif code == OP_LAY:
        mask = op[2]
        hands = list(v[HANDS])
        hands[p] &= ~mask
        v[HANDS] = tuple(hands)
        v[TABLE] = (
            *v[TABLE],
            table_meld(p, op[4], mask, op[3], rules.ace_high, rules.joker_lay_off),
        )
        v[OWNERS] |= 1 << p
        v[PLAYED] |= 1 << p
        if not hands[p]:
            _go_out(v, p)
    elif code == OP_OFF:
        c, i, j = op[2], op[3], op[4]
        hands = list(v[HANDS])
        hands[p] &= ~(1 << c)
        v[HANDS] = tuple(hands)
        table = v[TABLE]
        tm = table[i]
        kind = tm.kind
        if kind == T.SEVEN:
            kind = T.SET if c % 13 == 6 else T.RUN
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
            _go_out(v, p)
    elif code == OP_PASS:
        _next_in_window(v)
    elif code == OP_CHI:
        _claim(v, p, op[2], op[3], T.RUN)
    else:  # OP_PON
        if rules.pon_tie_break is PonTieBreak.NEAREST_LEFT or v[HANDS][p] & _JOKER or not v[QUEUE]:
            _claim(v, p, op[2], op[3], T.SET)
        else:
            v[PENDING] = (p, op[2], op[3])
            _next_in_window(v)


def _claim(v: list[Any], p: int, used: int, joker: int, kind: int) -> None:
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
    v[PHASE] = Phase.PLAY
    v[CURRENT] = p
    v[QUEUE] = ()
    v[PENDING] = None
    if not hands[p]:
        _go_out(v, p)


def _open_window(v: list[Any], discarder: int, order: list[int], next_player: int) -> None:
    """After a discard (or the upcard): ask who may pon, else go to the draw."""
    rules: Rules = v[RULES]
    timing = rules.pon_timing
    normal, turns, n = v[NORMAL], v[TURNS], v[PLAYERS]
    asked = [q for q in order if _may_claim(timing, q, normal, turns, n)]
    if asked and rules.claim_window is ClaimWindow.ABLE_ONLY:
        card = v[DISCARDS][-1]
        asked = [q for q in asked if _claims(v[HANDS][q], card, rules, T.SET)]
    v[DISCARDER] = discarder
    v[PENDING] = None
    if asked:
        v[PHASE] = Phase.CLAIM
        v[CURRENT] = asked[0]
        v[QUEUE] = tuple(asked[1:])
    else:
        _enter_draw(v, next_player)


def _next_in_window(v: list[Any]) -> None:
    queue = v[QUEUE]
    if queue:
        v[CURRENT] = queue[0]
        v[QUEUE] = queue[1:]
        return
    pending = v[PENDING]
    if pending is not None:
        _claim(v, pending[0], pending[1], pending[2], T.SET)
        return
    n = v[PLAYERS]
    d = v[DISCARDER]
    _enter_draw(v, (d + 1) % n if d >= 0 else _first_player(v[RULES], v[DEALER], n))


def _enter_draw(v: list[Any], player: int) -> None:
    v[QUEUE] = ()
    v[PENDING] = None
    if not v[STOCK]:
        rules: Rules = v[RULES]
        discards = v[DISCARDS]
        if rules.stock_exhaustion is StockExhaustion.VOID:
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
        v[RESHUFFLED] = sum(1 << c for c in discards[:-1])
        v[DISCARDS] = discards[-1:]
    v[PHASE] = Phase.DRAW
    v[CURRENT] = player


def _go_out(v: list[Any], p: int) -> None:
    rules: Rules = v[RULES]
    bonus = bool(
        rules.going_out_bonus
        and v[CLEAN]
        and (rules.going_out_bonus_after_claim or not v[BY_CLAIM])
    )
    v[WINNER] = p
    v[BONUS] = bonus
    v[SCORES] = score_deal([T.bits(h) for h in v[HANDS]], p, bonus, rules)
    v[PHASE] = Phase.OVER
    v[CURRENT] = None
    v[QUEUE] = ()
    v[PENDING] = None
    v[REASON] = f"player {p} went out" + (" at once" if bonus else "")


def _void(v: list[Any], reason: str) -> None:
    v[WINNER] = None
    v[SCORES] = (0,) * v[PLAYERS]
    v[PHASE] = Phase.OVER
    v[CURRENT] = None
    v[QUEUE] = ()
    v[PENDING] = None
    v[REASON] = f"void deal: {reason}"


# ----------------------------------------------------------------------------------
# why an action is illegal
# ----------------------------------------------------------------------------------
def _diagnose(state: GameState, action: Any) -> str:
    """The rule an illegal action breaks, in plain words."""
    if not isinstance(action, ACTION_TYPES):
        return M(
            "not_an_action",
            "{action} is not an action (Draw, Pass, Chi, Pon, LayDown, LayOff, Discard)",
            action=repr(action),
        )
    if state.phase is Phase.OVER:
        return M(
            "deal_over",
            "the deal is over ({reason}); no action is accepted",
            reason=state.end_reason,
        )
    p = state.current_player
    assert p is not None
    who = action.player
    if who != p:
        doing = {
            Phase.CLAIM: M("doing.claim", "to say pon or pass"),
            Phase.DRAW: M("doing.draw", "to draw or chi"),
            Phase.PLAY: M("doing.play", "to play their turn"),
        }[state.phase]
        return M(
            "not_your_decision",
            "it is player {p}'s decision ({doing}), not player {who}'s",
            p=p,
            doing=doing,
            who=who,
        )
    rules = state.rules
    hand = state.hand_masks[p]
    kind = type(action)
    if state.phase is Phase.CLAIM and kind not in (Pon, Pass):
        return M(
            "claim_phase", "a discard is open to claims: the asked player can only pon or pass"
        )
    if state.phase is Phase.DRAW and kind not in (Draw, Chi):
        if kind is Pon or kind is Pass:
            return M(
                "claim_window_closed",
                "the claim window has closed: the next player has to draw or chi",
            )
        return M(
            "draw_first",
            "a turn begins by drawing from the stock (or with a chi); discarding comes last",
        )
    if state.phase is Phase.PLAY and kind in (Draw, Chi, Pon, Pass):
        return M(
            "already_drew",
            "this player has already taken a card this turn; now meld, lay off or discard",
        )
    cards = getattr(action, "cards", None)
    if cards is None:
        cards = (action.card,)  # type: ignore[union-attr]
    missing = [c for c in cards if not hand >> c.index & 1]
    if missing:
        return M("not_in_hand", "player {p} does not hold {cards}", p=p, cards=tuple(missing))
    used = sum(1 << c.index for c in cards)
    joker_as = getattr(action, "joker_as", None)
    if joker_as is not None and not any(c.is_joker for c in cards):
        top_is_joker = bool(state.discard_cards) and state.discard_cards[-1] == JOKER_INDEX
        if not (isinstance(action, (Chi, Pon)) and top_is_joker):
            return M(
                "joker_as_without_joker",
                "joker_as={joker_as} says what a joker stands for, but {cards} holds no "
                "joker: leave joker_as out for natural cards",
                joker_as=joker_as,
                cards=tuple(cards),
            )
    if isinstance(action, (Chi, Pon)):
        if not state.discard_cards:
            return M("no_discard", "there is no discard to claim")
        top = state.discard_cards[-1]
        name = M("call.chi", "chi") if kind is Chi else M("call.pon", "pon")
        timing = rules.chi_timing if kind is Chi else rules.pon_timing
        if not _may_claim(timing, p, state.normal_turns, state.turns_done, state.players):
            when = {
                ClaimTiming.AFTER_OWN_TURN: M(
                    "when.after_own_turn",
                    "after a normal turn of one's own (drew and discarded)",
                ),
                ClaimTiming.AFTER_FIRST_ROUND: M("when.after_first_round", "after the first round"),
                ClaimTiming.ANY_TIME: M("when.any_time", "at any time"),
            }[timing]
            return M(
                "claim_timing",
                "a {call} is allowed only {when} ({option}='{timing}')",
                call=name,
                when=when,
                option=f"{name}_timing",
                timing=timing.value,
            )
        if kind is Chi and not _chi_open(state, p):
            return M(
                "upcard_not_claimable",
                "there is no discard to chi: the upcard cannot be claimed here",
            )
        if kind is Pon and state.pending_pon is not None and not hand & _JOKER:
            return M(
                "pon_waiting",
                "player {p} has already called pon; under the joker-holder tie-break only the "
                "joker's holder can overtake it",
                p=state.pending_pon[0],
            )
        if len(cards) < rules.claim_min_hand_cards:
            return M(
                "claim_min_hand_cards",
                "a {call} must use at least {n} cards from the hand (claim_min_hand_cards={n})",
                call=name,
                n=rules.claim_min_hand_cards,
            )
        if rules.final_discard and not hand & ~used:
            return M(
                "claim_leaves_no_discard",
                "the claim would leave no card for the final discard (final_discard=True)",
            )
        group = [*(c.index for c in cards), top]
        readings, reason = analyse(group, rules)
        want = "run" if kind is Chi else "set"
        fits = [r for r in readings if r[0].value == want]
        if reason is None and not fits:
            reason = M(
                "claim_wrong_kind",
                "{cards} is not a {kind}: a chi makes a run, a pon makes a set",
                cards=tuple(CARDS[c] for c in group),
                kind=M("kind.run", "run") if want == "run" else M("kind.set", "set"),
            )
        if reason is None:
            reason = M(
                "joker_cannot_stand_for",
                "the joker cannot stand for {joker_as} in {cards}",
                joker_as=joker_as,
                cards=tuple(CARDS[c] for c in group),
            )
        return M(
            "claim_invalid",
            "{call} with the discard {card}: {reason}",
            call=name,
            card=CARDS[top],
            reason=reason,
        )
    if isinstance(action, LayDown):
        readings, reason = analyse([c.index for c in cards], rules)
        if reason is not None:
            return reason
        if rules.final_discard and used == hand:
            return M(
                "lay_down_leaves_no_discard",
                "laying down every card would leave none for the final discard (final_discard=True)",
            )
        return M(
            "joker_cannot_stand_for",
            "the joker cannot stand for {joker_as} in {cards}",
            joker_as=joker_as,
            cards=tuple(cards),
        )
    if isinstance(action, LayOff):
        if rules.lay_off_needs_own_meld and not state.meld_owners >> p & 1:
            return M(
                "lay_off_needs_own_meld",
                "laying off needs a meld of one's own on the table (lay_off_needs_own_meld=True)",
            )
        if not 0 <= action.target < len(state.table):
            return M(
                "no_such_meld",
                "there is no meld {target} on the table (melds are 0 to {last})",
                target=action.target,
                last=len(state.table) - 1,
            )
        if rules.final_discard and used == hand:
            return M(
                "lay_off_leaves_no_discard",
                "laying off the last card would leave none for the final discard "
                "(final_discard=True)",
            )
        tm = state.table[action.target]
        if action.card.is_joker:
            if not rules.joker_lay_off:
                return M(
                    "joker_lay_off",
                    "the joker cannot be laid off onto a table meld (joker_lay_off=False)",
                )
            if tm.kind == T.SEVEN:
                return M(
                    "joker_on_single_seven",
                    "the joker cannot join a single 7: a joker never makes a two-card meld",
                )
            if tm.joker >= 0:
                return M("meld_has_joker", "that meld already holds the joker")
            return M(
                "joker_cannot_stand_for_in_meld",
                "the joker cannot stand for {joker_as} in meld {target}",
                joker_as=joker_as,
                target=action.target,
            )
        target = state.melds[action.target]
        if tm.kind == T.SEVEN:
            return M(
                "single_seven_lay_off",
                "a single 7 on the table takes another 7 (making a set) or the 6 or 8 of its "
                "suit (making a run), not {card}",
                card=action.card,
            )
        if tm.kind == T.SET:
            return M(
                "set_lay_off",
                "{card} does not fit the set {meld}: a set takes only its rank",
                card=action.card,
                meld=target,
            )
        return M(
            "run_lay_off",
            "{card} does not extend the run {meld}: only the next card at either end fits",
            card=action.card,
            meld=target,
        )
    return M("not_legal", "that action is not among the legal actions here")

"""The engine's kernel: the state's fields, the legal actions and the step.

This is the engine's hot code, compiled by the compiled build (see the
performance page). Actions have an internal form here, an operation key
(a tuple of ints), and a transition works on a copy of the state's field
dictionary. The public functions :func:`legal_actions` and :func:`apply` are
defined here and re-exported by :mod:`sevenbridge.engine`; dealing and the
explanation of illegal actions are plain Python beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from .._kit import checks as _checks
from .._kit import hooks as _hooks
from .._kit.rng import derive, shuffled
from .._tables import (
    JOKER_BIT,
    RANK_MASK,
    RUN,
    SET,
    SEVEN,
    SUIT_BITS,
    bits,
    joker_runs_in,
    joker_sets_of_rank,
    may_hold_meld,
    melds_in,
    rank_pattern,
    runs_in,
    sets_of_rank,
)
from ..actions import ACTION_TYPES, Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS, JOKER_INDEX
from ..errors import IllegalActionError
from ..rules import ClaimTiming, ClaimWindow, FirstPlayer, PonTieBreak, Rules, StockExhaustion
from ..scoring import score_deal
from ..state import GameState, History, Phase, TableMeld, table_meld

__all__ = ["apply", "legal_actions"]

HAND_SIZE: Final = 7
# Enum members as module constants: ``Phase.PLAY`` and the like cost a
# metaclass lookup at every use (Python 3.11), a module constant does not.
_CLAIM: Final = Phase.CLAIM
_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_AFTER_FIRST_ROUND: Final = ClaimTiming.AFTER_FIRST_ROUND
_AFTER_OWN_TURN: Final = ClaimTiming.AFTER_OWN_TURN
_ANY_TIME: Final = ClaimTiming.ANY_TIME
_ABLE_ONLY: Final = ClaimWindow.ABLE_ONLY
_DEALER_FIRST: Final = FirstPlayer.DEALER
_NEAREST_LEFT: Final = PonTieBreak.NEAREST_LEFT
_VOID_EXHAUSTION: Final = StockExhaustion.VOID

# Transitions work on a copy of the state's field dictionary (one C-level copy),
# changed in place and then made the dictionary of a new state: much cheaper
# than reading and passing every field. These are the keys, each taken from the
# class's attrs fields by name, so that a renamed field fails here, at import.
_F: Final = attrs.fields(GameState)
_FIELDS: Final = tuple(f.name for f in _F if f.init)
RULES: Final[str] = _F.rules.name
PLAYERS: Final[str] = _F.players.name
DEALER: Final[str] = _F.dealer.name
PHASE: Final[str] = _F.phase.name
CURRENT: Final[str] = _F.current_player.name
HANDS: Final[str] = _F.hand_masks.name
STOCK: Final[str] = _F.stock_cards.name
DISCARDS: Final[str] = _F.discard_cards.name
TABLE: Final[str] = _F.table.name
OWNERS: Final[str] = _F.meld_owners.name
PLAYED: Final[str] = _F.played.name
NORMAL: Final[str] = _F.normal_turns.name
TURNS: Final[str] = _F.turns_done.name
DISCARDER: Final[str] = _F.discarder.name
QUEUE: Final[str] = _F.claim_queue.name
PENDING: Final[str] = _F.pending_pon.name
CLEAN: Final[str] = _F.turn_clean.name
BY_CLAIM: Final[str] = _F.turn_by_claim.name
RESHUFFLES: Final[str] = _F.reshuffles.name
RESHUFFLED: Final[str] = _F.reshuffled.name
SEED: Final[str] = _F.seed.name
WINNER: Final[str] = _F.winner.name
SCORES: Final[str] = _F.deal_scores.name
BONUS: Final[str] = _F.bonus.name
REASON: Final[str] = _F.end_reason.name
LOG: Final[str] = _F.move_log.name
# What a new state holds besides its fields: the legal-action cache and attrs'
# cached hash, both None in a fresh state (tests/test_engine_kernel.py checks
# that a new attrs still keeps its cached hash this way).
_LEGAL_KEY: Final[str] = _F._legal.name
_BLANK: Final[dict[str, Any]] = dict.fromkeys(_FIELDS)
_HASH_KEY: Final[str] = next(
    k for k in GameState(**_BLANK).__dict__ if k not in _FIELDS and k != _LEGAL_KEY
)
_new: Final = object.__new__
# Sets a new state's dictionary (the descriptor itself: no attribute lookup).
_set_dict: Final = vars(GameState)["__dict__"].__set__


def _fields_of(state: GameState) -> dict[str, Any]:
    """A fresh copy of a state's fields, for a transition to change."""
    return state.__dict__.copy()


# A history node is a tuple (prev, action, length) (see History), built here by
# tuple.__new__ itself: History's own __new__ would add a Python call per step.
_new_node: Final = tuple.__new__


def _history_add(prev: History | None, action: Action) -> History:
    """``History(prev, action)``, built quickly."""
    return _new_node(History, (prev, action, 1 if prev is None else prev[2] + 1))


def _history_extend(prev: History | None, actions: list[Action]) -> History | None:
    """``prev`` with ``actions`` added in order (:func:`_history_add` in a loop)."""
    length = 0 if prev is None else prev[2]
    for action in actions:
        length += 1
        prev = _new_node(History, (prev, action, length))
    return prev


def _state(v: dict[str, Any]) -> GameState:
    """The state whose fields are ``v`` (taken over, not copied)."""
    v[_LEGAL_KEY] = v[_HASH_KEY] = None
    state: GameState = _new(GameState)
    _set_dict(state, v)
    return state


# Operation codes: the engine's own form of an action.
OP_DRAW: Final = 0
OP_PASS: Final = 1
OP_CHI: Final = 2
OP_PON: Final = 3
OP_LAY: Final = 4
OP_OFF: Final = 5
OP_DISCARD: Final = 6

_JOKER: Final = JOKER_BIT
#: Each card's bit.
_BIT: Final = [1 << c for c in range(53)]


# ----------------------------------------------------------------------------------
# dealing
# ----------------------------------------------------------------------------------
def _first_player(rules: Rules, dealer: int, players: int) -> int:
    return dealer if rules.first_player is _DEALER_FIRST else (dealer + 1) % players


# ----------------------------------------------------------------------------------
# legal actions
# ----------------------------------------------------------------------------------
class _Interned(dict[tuple[int, ...], Action]):
    """Action objects by operation key, each built on first use (and kept, so
    that an interned action's ``id`` is never reused)."""

    def __missing__(self, key: tuple[int, ...]) -> Action:
        action = self[key] = _build_action(key)
        _CANONICAL[action] = action
        return action


_ACTIONS: Final = _Interned()
_intern: Final = _ACTIONS.__getitem__
# Every interned action by itself: an equal action built by the caller finds
# the interned one here.
_CANONICAL: Final[dict[Action, Action]] = {}


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
    cards = tuple(CARDS[c] for c in bits(key[2]))
    joker_as = None if key[3] < 0 else CARDS[key[3]]
    if code == OP_CHI:
        return Chi(p, cards, joker_as)
    if code == OP_PON:
        return Pon(p, cards, joker_as)
    return LayDown(p, cards, joker_as)


def _prebuilt(key: tuple[int, ...]) -> tuple[Action, tuple[int, ...]]:
    return _intern(key), key


_DRAWS: Final = [_prebuilt((OP_DRAW, p)) for p in range(5)]
_PASSES: Final = [_prebuilt((OP_PASS, p)) for p in range(5)]
_DISCARDS: Final = [[_prebuilt((OP_DISCARD, p, c)) for c in range(53)] for p in range(5)]
_DISCARD_KEYS: Final = [[key for _, key in row] for row in _DISCARDS]
# The legal actions of a position: their operation keys and the (interned)
# actions, in the same order. ``apply`` finds an action by identity, which
# spares hashing the actions (a Python-level __hash__ each) and building a
# dictionary per position.
_Legal = tuple[list[tuple[int, ...]], tuple[Action, ...]]
# The legal actions when a lone Draw or Pass is (a forced step), built once.
_ONLY: Final[dict[tuple[int, ...], _Legal]] = {
    key: ([key], (action,)) for action, key in _DRAWS + _PASSES
}
_NO_LEGAL: Final[_Legal] = ([], ())
_ONLY_PASS: Final = [_ONLY[key] for _, key in _PASSES]
_ONLY_DRAW: Final = [_ONLY[key] for _, key in _DRAWS]


def _discard_keys(p: int, key: int) -> tuple[tuple[int, ...], ...]:
    """Discard keys of player ``p`` for the cards of suit ``key >> 13`` in pattern
    ``key & SUIT_BITS``, lowest first."""
    shift = 13 * (key >> 13)
    found = _DISCARD_SUITS[p][key] = tuple(
        _DISCARD_KEYS[p][shift + r] for r in bits(key & SUIT_BITS)
    )
    return found


# By player and suit key (suit << 13 | pattern), filled on first use.
_DISCARD_SUITS: Final[list[list[tuple[tuple[int, ...], ...] | None]]] = [
    [None] * (4 << 13) for _ in range(5)
]


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


_NEAR: Final = {high: [_near(c, high) for c in range(52)] for high in (False, True)}


def may_claim(timing: ClaimTiming, player: int, normal_turns: int, turns: int, n: int) -> bool:
    if timing is _AFTER_OWN_TURN:
        return bool(normal_turns >> player & 1)
    if timing is _AFTER_FIRST_ROUND:
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
        if kind == RUN:
            if not hand & _NEAR[rules.ace_high][card]:
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


# The last table seen by _table_takes and what it takes (a table is shared,
# unchanged, by every state until a meld changes). One tuple, replaced whole,
# so that threads never see a table with another table's cards.
_last_table: tuple[tuple[TableMeld, ...], int] = ((), 0)


def can_pon(hand: int, card: int, rules: Rules) -> bool:
    """Whether ``hand`` can pon ``card``: what an able_only window asks of each
    player (:func:`window_asks`), and the sampler and the consistency check test."""
    return bool(_claims(hand, card, rules, SET))


def _table_takes(table: tuple[TableMeld, ...]) -> int:
    """Every natural card that some meld of ``table`` takes (the union of their ``ext``)."""
    global _last_table
    last = _last_table
    if table is last[0]:
        return last[1]
    takes = 0
    for tm in table:
        takes |= tm.ext
    _last_table = (table, takes)
    return takes


def lay_downs(hand: int, rules: Rules) -> list[tuple[int, int, int]]:
    """The melds a player holding ``hand`` may lay down, as :func:`melds_in`
    gives them: not the whole hand when the rules want a final discard."""
    joker_ok = bool(rules.jokers and hand & _JOKER)
    if not joker_ok and not may_hold_meld(hand, rules.ace_high):
        return []
    full = hand if rules.final_discard else -1
    return [meld for meld in melds_in(hand, rules.ace_high, joker_ok) if meld[0] != full]


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
    if phase is _PLAY:
        for mask, kind, j in lay_downs(hand, rules):
            out.append((OP_LAY, p, mask, j, kind))
        if (
            (not rules.lay_off_needs_own_meld or owners >> p & 1)
            and (not rules.final_discard or hand & (hand - 1))
            and hand & (_table_takes(table) | _JOKER)
        ):
            for i, tm in enumerate(table):
                cand = hand & tm.ext
                while cand:
                    low = cand & -cand
                    out.append((OP_OFF, p, low.bit_length() - 1, i, -1))
                    cand ^= low
                if tm.joker_options and hand & _JOKER:
                    for j in tm.joker_options:
                        out.append((OP_OFF, p, JOKER_INDEX, i, j))
        by_suit = _DISCARD_SUITS[p]
        for key in (
            hand & SUIT_BITS,
            (hand >> 13 & SUIT_BITS) | 1 << 13,
            (hand >> 26 & SUIT_BITS) | 2 << 13,
            (hand >> 39 & SUIT_BITS) | 3 << 13,
        ):
            if key & SUIT_BITS:
                found = by_suit[key]
                out.extend(_discard_keys(p, key) if found is None else found)
        if hand & _JOKER:
            out.append(_DISCARD_KEYS[p][JOKER_INDEX])
    elif phase is _DRAW:
        out.append(_DRAWS[p][1])
        if chi_open:
            for used, j in _claims(hand, discards[-1], rules, RUN):
                out.append((OP_CHI, p, used, j))
    elif phase is _CLAIM:
        out.append(_PASSES[p][1])
        if pending_pon is None or hand & _JOKER:
            for used, j in _claims(hand, discards[-1], rules, SET):
                out.append((OP_PON, p, used, j))
    return out


def _compute_legal(state: GameState | Any, p: int | None, hand: int) -> _Legal:
    """The legal actions of ``p``, the player to act, holding ``hand``, with their keys.

    ``state`` is a GameState or anything with the same public fields (an
    Observation): only the acting player's hand is needed.
    """
    phase = state.phase
    if p is None:  # the deal is over
        return _NO_LEGAL
    # Most claim windows and draws offer one action: spot them before the
    # general enumeration (with the first, exact refusals of _claims).
    chi_open = False
    if phase is _CLAIM:
        if not hand & _JOKER and (
            state.pending_pon is not None or not _may_pon(hand, state.discard_cards[-1])
        ):
            return _ONLY_PASS[p]
    elif phase is _DRAW:
        discards = state.discard_cards
        if not discards:
            return _ONLY_DRAW[p]
        if not _may_chi(hand, discards[-1], _NEAR[state.rules.ace_high]):
            return _ONLY_DRAW[p]
        if not _chi_open(state, p):
            return _ONLY_DRAW[p]
        chi_open = True
    elif phase is _OVER:
        return _NO_LEGAL
    keys = _legal_keys(
        phase, p, state.rules, hand, state.meld_owners, state.table, state.discard_cards,
        state.pending_pon, chi_open,
    )  # fmt: skip
    if len(keys) == 1:
        only = _ONLY.get(keys[0])
        if only is not None:
            return only
    return keys, tuple(map(_intern, keys))


def _chi_open(state: GameState | Any, p: int) -> bool:
    return bool(state.discard_cards) and _chi_allowed(
        state.rules, p, state.discarder, state.normal_turns, state.turns_done, state.players
    )


def _chi_allowed(
    rules: Rules, p: int, discarder: int, normal_turns: int, turns: int, n: int
) -> bool:
    """Whether the rules let player ``p`` chi the top discard (there is one):
    the upcard only if it is claimable, and the chi timing."""
    return (discarder >= 0 or rules.upcard_claimable) and may_claim(
        rules.chi_timing, p, normal_turns, turns, n
    )


def _may_chi(hand: int, card: int, near: list[int]) -> bool:
    """Whether ``hand`` might chi ``card`` (False: it cannot), before the exact
    enumeration of :func:`_claims`. Without the joker, a run with the card
    needs two cards of the hand near it (within two places in its suit), or a
    seven and its neighbour (a two-card run with a seven is a meld)."""
    if hand & _JOKER or card == JOKER_INDEX:
        return True
    close = hand & near[card]
    return bool(close & (close - 1)) or (bool(close) and 5 <= card % 13 <= 7)


def _may_pon(hand: int, card: int) -> bool:
    """Whether ``hand`` might pon ``card`` (False: it cannot), before the exact
    enumeration of :func:`_claims`: the claim window's quick refusal, used by
    the engine and both playout loops. Without the joker, a set with the card
    needs two more of its rank in the hand, or one more for a seven (two 7s
    are a set)."""
    if hand & _JOKER or card == JOKER_INDEX:
        return True
    r = card % 13
    same = hand & RANK_MASK[r]
    return bool(same) and (r == 6 or bool(same & (same - 1)))


def _legal(state: GameState) -> _Legal:
    """The legal actions of a state (cached on it), with their keys."""
    cached = state._legal
    if cached is None:
        p = state.current_player
        cached = _compute_legal(state, p, 0 if p is None else state.hand_masks[p])
        # Written straight into the fields' dictionary: object.__setattr__
        # costs three times as much (the cache is not a field of the value).
        state.__dict__[_LEGAL_KEY] = cached
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
    if type(state) is GameState:
        cached = state._legal
        if cached is None:  # _legal, spelled out
            p = state.current_player
            cached = _compute_legal(state, p, 0 if p is None else state.hand_masks[p])
            state.__dict__[_LEGAL_KEY] = cached
        return cached[1]  # type: ignore[no-any-return]
    return _view_legal(state)


def legal_keys(position: GameState | Any) -> list[tuple[int, ...]]:
    """The operation keys of :func:`legal_actions`, in the same order (for the
    policies that choose on keys: the greedy bot and the playout)."""
    legal_actions(position)  # computes and caches both
    return position._legal[0] if position._legal is not None else []


def _view_legal(view: Any) -> tuple[Action, ...]:
    """Legal actions from an Observation: its viewer's, when the decision is theirs."""
    if not hasattr(view, "viewer") or not hasattr(view, "hand_mask"):
        raise TypeError(f"legal_actions needs a GameState or an Observation, not {view!r}")
    if view.current_player != view.viewer:
        return ()
    cached = view._legal
    if cached is None:
        cached = _compute_legal(view, view.current_player, view.hand_mask)
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
        check_state(state, "apply")
    cached = state._legal
    if cached is None:
        cached = _legal(state)
    # _find, its first test spelled out: the action taken is most often the
    # first legal one (every forced step).
    first = cached[1]
    op = cached[0][0] if first and first[0] is action else _find(cached, action)
    if op is None:
        # An action equal to a legal one but not the interned object itself.
        try:
            canonical = _CANONICAL.get(action)
        except TypeError:  # unhashable
            canonical = None
        if canonical is not None:
            op = _find(cached, canonical)
    if op is None:
        if not isinstance(action, ACTION_TYPES):
            raise TypeError(
                f"action must be a Draw, Pass, Chi, Pon, LayDown, LayOff or Discard, "
                f"not {_checks.type_name(action)}"
            )
        # The reason is found by the uncompiled diagnosis (engine._diagnosis),
        # which registers itself under this name when the engine loads.
        raise IllegalActionError(action, _hooks.call("diagnose", state, action))
    v = state.__dict__.copy()
    _step(v, op, action)
    v[_LEGAL_KEY] = v[_HASH_KEY] = None  # _state, spelled out
    new: GameState = _new(GameState)
    _set_dict(new, v)
    return new


def _find(legal: _Legal, action: Action) -> tuple[int, ...] | None:
    """The operation key of ``action`` if it is one of ``legal``'s (interned)
    actions itself, else None."""
    actions = legal[1]
    if actions and actions[0] is action:  # a forced step, or the first choice
        return legal[0][0]
    for i, other in enumerate(actions):
        if other is action:
            return legal[0][i]
    return None


def check_state(state: Any, function: str) -> None:
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


def _step(v: dict[str, Any], op: tuple[int, ...], action: Action | None) -> None:
    """Play ``op`` (``action`` in the engine's form) on the fields ``v`` in place.

    With ``action`` None (a playout without history) the history is left as it is.
    """
    if action is not None:  # _history_add, spelled out (a call per step saved)
        prev = v[LOG]
        v[LOG] = _new_node(History, (prev, action, 1 if prev is None else prev[2] + 1))
    code = op[0]
    if code == OP_PASS:  # the commonest step: most players pass most discards
        queue = v[QUEUE]
        if queue:  # the next player in the window is asked (_next_in_window)
            v[CURRENT] = queue[0]
            v[QUEUE] = queue[1:]
        else:
            _next_in_window(v)
        return
    p = op[1]
    rules: Rules = v[RULES]
    if code == OP_DRAW:
        stock = v[STOCK]
        hands = list(v[HANDS])
        hands[p] |= 1 << stock[0]
        v[HANDS] = tuple(hands)
        v[STOCK] = stock[1:]
        v[PHASE] = _PLAY
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
            _open_window(v, p, _AFTER[n][p], (p + 1) % n)
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
            _go_out(v, p)
    elif code == OP_CHI:
        _claim(v, p, op[2], op[3], RUN)
    else:  # OP_PON
        if rules.pon_tie_break is _NEAREST_LEFT or v[HANDS][p] & _JOKER or not v[QUEUE]:
            _claim(v, p, op[2], op[3], SET)
        else:
            v[PENDING] = (p, op[2], op[3])
            _next_in_window(v)


def _claim(v: dict[str, Any], p: int, used: int, joker: int, kind: int) -> None:
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
    v[PHASE] = _PLAY
    v[CURRENT] = p
    v[QUEUE] = ()
    v[PENDING] = None
    if not hands[p]:
        _go_out(v, p)


#: The other players after player p at a table of n, in turn order: _AFTER[n][p].
_AFTER: Final = [[tuple((p + k) % n for k in range(1, n)) for p in range(n)] for n in range(6)]


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
    # may_claim for each player, spelled out for speed.
    asked = order
    if timing is _AFTER_OWN_TURN:
        if normal != (1 << n) - 1:  # not everyone has had a normal turn yet
            asked = [q for q in order if normal >> q & 1]
    elif timing is _AFTER_FIRST_ROUND and turns < n:
        asked = ()
    if asked and rules.claim_window is _ABLE_ONLY:
        asked = [q for q in asked if can_pon(hands[q], card, rules)]
    return asked


def _open_window(v: dict[str, Any], discarder: int, order: Sequence[int], next_player: int) -> None:
    """After a discard (or the upcard): ask who may pon, else go to the draw."""
    asked = window_asks(v[RULES], order, v[NORMAL], v[TURNS], v[PLAYERS], v[HANDS], v[DISCARDS][-1])
    v[DISCARDER] = discarder
    v[PENDING] = None
    if asked:
        v[PHASE] = _CLAIM
        v[CURRENT] = asked[0]
        v[QUEUE] = tuple(asked[1:])
    else:
        _enter_draw(v, next_player)


def _next_in_window(v: dict[str, Any]) -> None:
    queue = v[QUEUE]
    if queue:
        v[CURRENT] = queue[0]
        v[QUEUE] = queue[1:]
        return
    pending = v[PENDING]
    if pending is not None:
        _claim(v, pending[0], pending[1], pending[2], SET)
        return
    n = v[PLAYERS]
    d = v[DISCARDER]
    _enter_draw(v, (d + 1) % n if d >= 0 else _first_player(v[RULES], v[DEALER], n))


def _enter_draw(v: dict[str, Any], player: int) -> None:
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
    v[PHASE] = _DRAW
    v[CURRENT] = player


def _go_out(v: dict[str, Any], p: int) -> None:
    rules: Rules = v[RULES]
    bonus = bool(
        rules.going_out_bonus
        and v[CLEAN]
        and (rules.going_out_bonus_after_claim or not v[BY_CLAIM])
    )
    v[WINNER] = p
    v[BONUS] = bonus
    v[SCORES] = score_deal([bits(h) for h in v[HANDS]], p, bonus, rules)
    v[PHASE] = _OVER
    v[CURRENT] = None
    v[QUEUE] = ()
    v[PENDING] = None
    v[REASON] = f"player {p} went out" + (" at once" if bonus else "")


def _void(v: dict[str, Any], reason: str) -> None:
    v[WINNER] = None
    v[SCORES] = (0,) * v[PLAYERS]
    v[PHASE] = _OVER
    v[CURRENT] = None
    v[QUEUE] = ()
    v[PENDING] = None
    v[REASON] = f"void deal: {reason}"

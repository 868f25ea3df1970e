"""The legal actions of a position, and their cache on the state (compiled in
the compiled build).

:func:`legal_actions` is defined here and re-exported by
:mod:`sevenbridge.engine`. A position's legal actions are computed once, as
operation keys (see ``_keys``) with the interned action of each, in the same
order, and kept on the state; :func:`~sevenbridge.apply` finds the action
taken among them by identity.
"""

from __future__ import annotations

from typing import Any, Final

from .._tables import JOKER_BIT, RUN, SET, SUIT_BITS, bits, may_hold_meld, melds_in
from ..actions import Action
from ..cards import JOKER_INDEX
from ..rules import Rules
from ..state import GameState, Phase, TableMeld
from ._fields import (
    CLAIM,
    CURRENT,
    DISCARDER,
    DISCARDS,
    DRAW,
    HANDS,
    LEGAL_KEY,
    NORMAL,
    OVER,
    OWNERS,
    PENDING,
    PHASE,
    PLAY,
    PLAYERS,
    RULES,
    TABLE,
    TURNS,
)
from ._keys import (
    DISCARD_ACTIONS,
    DISCARD_KEYS,
    DRAWS,
    OP_CHI,
    OP_DISCARD,
    OP_LAY,
    OP_OFF,
    OP_PON,
    PASSES,
    intern,
)
from .claims import NEAR, chi_allowed, claims, may_chi, may_pon, pon_open

__all__ = ["find", "keys_for", "lay_downs", "legal_actions", "legal_keys", "table_takes"]

_JOKER: Final = JOKER_BIT

#: The legal actions of a position: their operation keys and the (interned)
#: actions, in the same order. ``apply`` finds an action by identity, which
#: spares hashing the actions (a Python-level __hash__ each) and building a
#: dictionary per position.
Legal = tuple[list[tuple[int, ...]], tuple[Action, ...]]
# The legal actions when a lone Draw or Pass is (a forced step), built once.
_ONLY: Final[dict[tuple[int, ...], Legal]] = {
    key: ([key], (action,)) for action, key in DRAWS + PASSES
}
_NO_LEGAL: Final[Legal] = ([], ())
_ONLY_PASS: Final = [_ONLY[key] for _, key in PASSES]
_ONLY_DRAW: Final = [_ONLY[key] for _, key in DRAWS]


def _discard_keys(p: int, key: int) -> tuple[tuple[int, ...], ...]:
    """Discard keys of player ``p`` for the cards of suit ``key >> 13`` in pattern
    ``key & SUIT_BITS``, lowest first."""
    shift = 13 * (key >> 13)
    found = _DISCARD_SUITS[p][key] = tuple(
        DISCARD_KEYS[p][shift + r] for r in bits(key & SUIT_BITS)
    )
    return found


# By player and suit key (suit << 13 | pattern), filled on first use.
_DISCARD_SUITS: Final[list[list[tuple[tuple[int, ...], ...] | None]]] = [
    [None] * (4 << 13) for _ in range(5)
]

# The last table seen by table_takes and what it takes (a table is shared,
# unchanged, by every state until a meld changes). One tuple, replaced whole,
# so that threads never see a table with another table's cards.
_last_table: tuple[tuple[TableMeld, ...], int] = ((), 0)


def table_takes(table: tuple[TableMeld, ...]) -> int:
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


def keys_for(
    phase: Phase,
    p: int,
    rules: Rules,
    hand: int,
    owners: int,
    table: tuple[TableMeld, ...],
    discards: tuple[int, ...],
    pending_pon: tuple[int, int, int] | None,
    chi_is_open: bool,
) -> list[tuple[int, ...]]:
    """The legal actions of player ``p``, holding ``hand``, as operation keys in
    the public order of :func:`legal_actions` (the core shared by states, views,
    playouts and the sampler)."""
    out: list[tuple[int, ...]] = []
    if phase is PLAY:
        for mask, kind, j in lay_downs(hand, rules):
            out.append((OP_LAY, p, mask, j, kind))
        if (
            (not rules.lay_off_needs_own_meld or owners >> p & 1)
            and (not rules.final_discard or hand & (hand - 1))
            and hand & (table_takes(table) | _JOKER)
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
            out.append(DISCARD_KEYS[p][JOKER_INDEX])
    elif phase is DRAW:
        out.append(DRAWS[p][1])
        if chi_is_open:
            for used, j in claims(hand, discards[-1], rules, RUN):
                out.append((OP_CHI, p, used, j))
    elif phase is CLAIM:
        out.append(PASSES[p][1])
        if pon_open(pending_pon, hand):
            for used, j in claims(hand, discards[-1], rules, SET):
                out.append((OP_PON, p, used, j))
    return out


def _compute_legal(v: dict[str, Any], p: int | None, hand: int) -> Legal:
    """The legal actions of ``p``, the player to act, holding ``hand``, with their keys.

    ``v`` is a state's field dictionary (see ``_fields``), or a view's fields
    keyed the same way (:func:`_view_fields`): only the acting player's hand is
    needed. Read from the dictionary, not the state's attributes: a dictionary
    lookup by a field's name costs half an attribute lookup (compiled build).
    """
    if p is None:  # the deal is over
        return _NO_LEGAL
    phase = v[PHASE]
    # Most claim windows and draws offer one action: spot them before the
    # general enumeration (with the first, exact refusals of claims).
    is_open = False
    discards: tuple[int, ...] = v[DISCARDS]
    if phase is CLAIM:
        if not (pon_open(v[PENDING], hand) and may_pon(hand, discards[-1])):
            return _ONLY_PASS[p]
    elif phase is DRAW:
        if not discards:
            return _ONLY_DRAW[p]
        rules: Rules = v[RULES]
        if not may_chi(hand, discards[-1], NEAR[rules.ace_high]):
            return _ONLY_DRAW[p]
        # chi_open, its first test (a top discard) passed above.
        if not chi_allowed(rules, p, v[DISCARDER], v[NORMAL], v[TURNS], v[PLAYERS]):
            return _ONLY_DRAW[p]
        is_open = True
    elif phase is OVER:
        return _NO_LEGAL
    keys = keys_for(phase, p, v[RULES], hand, v[OWNERS], v[TABLE], discards, v[PENDING], is_open)
    if len(keys) == 1:
        only = _ONLY.get(keys[0])
        if only is not None:
            return only
    # The actions of the keys: a discard's from its table (most of a turn's
    # actions are discards), any other interned by its key (a hash of the key).
    actions: list[Action] = []
    for key in keys:
        if key[0] == OP_DISCARD:
            actions.append(DISCARD_ACTIONS[key[1]][key[2]])
        else:
            actions.append(intern(key))
    return keys, tuple(actions)


def _view_fields(view: Any) -> dict[str, Any]:
    """The fields of a view that :func:`_compute_legal` reads, keyed as a state's."""
    return {
        PHASE: view.phase, PENDING: view.pending_pon, DISCARDS: view.discard_cards,
        RULES: view.rules, DISCARDER: view.discarder, NORMAL: view.normal_turns,
        TURNS: view.turns_done, PLAYERS: view.players, OWNERS: view.meld_owners,
        TABLE: view.table,
    }  # fmt: skip


def legal(state: GameState) -> Legal:
    """The legal actions of a state (cached on it), with their keys."""
    v: dict[str, Any] = state.__dict__
    cached = v[LEGAL_KEY]
    if cached is None:
        p = v[CURRENT]
        cached = _compute_legal(v, p, 0 if p is None else v[HANDS][p])
        v[LEGAL_KEY] = cached  # the cache (see _fields.LEGAL_KEY)
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
        # legal(state), written out: a call fewer per step of the public loop
        # (3% of its decisions per CPU-second, pure build).
        v: dict[str, Any] = state.__dict__
        cached: Legal | None = v[LEGAL_KEY]
        if cached is None:
            p: int | None = v[CURRENT]
            hands: tuple[int, ...] = v[HANDS]
            cached = _compute_legal(v, p, 0 if p is None else hands[p])
            v[LEGAL_KEY] = cached
        return cached[1]
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
        cached = _compute_legal(_view_fields(view), view.current_player, view.hand_mask)
        object.__setattr__(view, "_legal", cached)
    return cached[1]  # type: ignore[no-any-return]


def find(legal: Legal, action: Action) -> tuple[int, ...] | None:
    """The operation key of ``action`` if it is one of ``legal``'s (interned)
    actions itself, else None."""
    actions = legal[1]
    if actions and actions[0] is action:  # a forced step, or the first choice
        return legal[0][0]
    for i, other in enumerate(actions):
        if other is action:
            return legal[0][i]
    return None

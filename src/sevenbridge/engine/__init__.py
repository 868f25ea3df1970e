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

The engine is a package, a module for each family of rules: ``turn`` (the
draw, the discard, laying down and off, going out, the stock running out),
``claims`` (who may chi or pon, whom a claim window asks, which pon wins),
``legal`` (the legal actions and their cache) and ``step`` (:func:`apply`),
over ``_fields`` (the one module that knows how a state keeps its fields)
and ``_keys`` (the engine's form of an action); these and the fast
playout's inner loop (``_playout``) are compiled in the compiled build.
Plain Python for what is not hot: dealing (here) and why an action is
illegal (``explain``). Dealing worlds from a view
(:func:`sevenbridge.sample_state`) is not the engine's: it is
``sevenbridge.inference``, which replays records through the engine's rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._kit import checks as _checks
from .._kit.rng import derive, fresh_seed, shuffled
from ..cards import CARDS, Card, parse_cards
from ..errors import InvalidStateError
from ..errors import Message as M
from ..rules import Rules
from ..state import GameState, Phase
from .claims import open_window
from .legal import legal_actions
from .step import apply
from .turn import HAND_SIZE, enter_draw, first_player

__all__ = ["apply", "deal", "legal_actions"]

_DEFAULT_RULES = Rules()


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
    rules: Rules | None = None,
    *,
    players: int = 3,
    dealer: int = 0,
    seed: int | None = None,
    deck: str | Iterable[Card | str] | None = None,
) -> GameState:
    """Shuffle (or take ``deck``), deal seven cards each and return the first position.

    Args:
        rules: The rules of the deal (``None``: the default :class:`Rules`).
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
    if rules is None:
        rules = _DEFAULT_RULES
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
    v: dict[str, Any] = dict(
        rules=rules, players=players, dealer=dealer, phase=Phase.DRAW, current_player=None,
        hand_masks=tuple(hands), stock_cards=tuple(order[i:]), discard_cards=discards,
        table=(), meld_owners=0, played=0, normal_turns=0, turns_done=0, discarder=-1,
        claim_queue=(), pending_pon=None, turn_clean=False, turn_by_claim=False,
        reshuffles=0, reshuffled=0, seed=seed, winner=None, deal_scores=None, bonus=False,
        end_reason=None, move_log=None,
    )  # fmt: skip
    first = first_player(rules, dealer, players)
    if discards and rules.upcard_claimable:
        open_window(v, -1, [(first + k) % players for k in range(players)], first)
    else:
        enter_draw(v, first)
    # Built by the class (not _fields.new_state) so that the states of the deal share one
    # compact key table for their dictionaries.
    return GameState(**v)

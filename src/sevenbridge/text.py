"""Rule questions in a REPL: :func:`explain`, :func:`position` and table drawings.

>>> from sevenbridge import position, explain, Pon
>>> table = position('''
... P0: 9H 2C 3D
... P1: 5S 6S
... P2: 9C 9D 4H KS
... discards: 9S
... turn: P2 pon
... ''')
>>> print(explain(table, Pon(2, "9C 9D")))
Legal. P2 calls pon on P1's discard 9S with 9C 9D: the set 9C 9D 9S goes on the table at once; P2 plays the turn from here (more melds, lay-offs, a discard), and play then continues from P2's left.
>>> print(explain(table, Pon(0, "9H")))
Illegal: it is player 2's decision (to say pon or pass), not player 0's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, overload

from . import _tables as T
from ._kit import hooks as _hooks
from ._kit.i18n import N_, check_lang, translate, translator
from ._kit.words import Listing, points_words, said, seat_name, whose
from .actions import KIND_WORDS, Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import CARDS, Card, card_text, parse_cards
from .engine import apply
from .engine.claims import window_asks
from .engine.step import check_state
from .errors import IllegalActionError, InvalidCardError, InvalidStateError, RulesConfigError, quote
from .errors import Message as M
from .games import DocumentLike, game_of, game_part
from .melds import InvalidMeldError, Meld, MeldKind
from .rules import Rules, Scoring, require_rules
from .scoring import explain_hand_points, hand_points
from .serialize import _rules_dict, state_from_json
from .state import GameState, Phase
from .views import Observation

__all__ = [
    "MOVE_KINDS", "deal_message", "deal_words", "explain", "move_label", "move_message",
    "move_words", "position", "position_text", "render", "seat_name", "waiting_pon_message",
]  # fmt: skip


def kind_name(kind: MeldKind) -> str:
    """How a meld kind reads in sentences ("single seven", "set", "run")."""
    return "single seven" if kind is MeldKind.SEVEN else kind.value


_KIND_WORD = {
    MeldKind.SEVEN: M("kind.seven", "single seven"),
    MeldKind.SET: M("kind.set", "set"),
    MeldKind.RUN: M("kind.run", "run"),
}


def _cat(first: str, second: str) -> str:
    """Two messages, one after the other: a message itself (so both translate),
    with the first one's code (``explain.legal`` for every legal answer)."""
    code = first.code if isinstance(first, M) else "join"
    return M(code, "{first}{second}", first=first, second=second)


def _meld_name(meld: Meld) -> str:
    return M("meld_name", "{kind} {meld}", kind=_KIND_WORD[meld.kind], meld=meld)


@overload
def explain(state: GameState, action: Action, *, lang: str | None = None) -> str: ...
@overload
def explain(state: DocumentLike, action: Any, *, lang: str | None = None) -> str: ...
def explain(state: Any, action: Any, *, lang: str | None = None) -> str:
    """What a legal action does, or which rule forbids an illegal one.

    The answer is a :class:`~sevenbridge.errors.Message` (English text with a
    code and parameters); with ``lang="ja"`` it comes in Japanese instead.

    >>> from sevenbridge import deal, Draw
    >>> print(explain(deal(seed=1), Draw(1)))
    Legal. P1 draws the top card of the stock (30 cards) and goes on with the turn: melds and lay-offs if any, then a discard.
    >>> print(explain(deal(seed=1), Draw(1), lang="ja"))
    合法。P1は山札（30枚）の一番上を引いて手番を続けます。できればメルドや付け札をして、最後に1枚捨てます。
    """
    words = game_part(game_of(state), "text")
    if words.__name__ != __name__:  # another game's value: that game's words
        return str(words.explain(state, action, lang=lang))
    check_state(state, "explain")
    return _explain(state, action, lang)


def _explain(state: GameState, action: Action, lang: str | None) -> str:
    """:func:`explain` for the card game."""
    try:
        after = apply(state, action)
    except IllegalActionError as error:
        illegal = M("explain.illegal", "Illegal: {reason}.", reason=error.reason)
        return illegal if lang is None else translate(illegal, lang)
    p = f"P{action.player}"
    out: str = M("explain.legal", "Legal. ")
    if isinstance(action, Draw):
        out = _cat(out, M(
            "explain.draw",
            "{p} draws the top card of the stock ({n} cards) and goes on with the turn: melds "
            "and lay-offs if any, then a discard.",
            p=p, n=state.stock_size,
        ))  # fmt: skip
    elif isinstance(action, Pass):
        top = state.top_discard
        out = _cat(out, M("explain.pass", "{p} does not pon {card}.", p=p, card=top))
        if after.phase is Phase.CLAIM:
            out = _cat(out, M("explain.pass.next", " P{q} is asked next.", q=after.current_player))
        elif after.phase is Phase.PLAY and after.current_player != action.player:
            out = _cat(out, M(
                "explain.pass.pon_stands",
                " The window closes and P{q}'s waiting pon stands.", q=after.current_player,
            ))  # fmt: skip
        elif after.phase is Phase.DRAW:
            out = _cat(out, M(
                "explain.pass.window_closes",
                " The window closes: P{q} draws or calls chi.", q=after.current_player,
            ))  # fmt: skip
    elif isinstance(action, (Chi, Pon)):
        top = state.top_discard
        whose = (
            M("explain.the_upcard", "the upcard")
            if state.discarder < 0
            else M("explain.discard_of", "P{q}'s discard", q=state.discarder)
        )
        call = M("call.chi", "chi") if isinstance(action, Chi) else M("call.pon", "pon")
        used = action.cards
        if len(after.melds) == len(state.melds):
            out = _cat(out, M(
                "explain.pon_waits",
                "{p} calls pon on {whose} {card} with {used}. It waits: under the joker-holder "
                "tie-break the players still to be asked may overtake it if they hold the joker.",
                p=p, whose=whose, card=top, used=used,
            ))  # fmt: skip
        else:
            meld = after.melds[-1]
            out = _cat(out, M(
                "explain.claim",
                "{p} calls {call} on {whose} {card} with {used}: the {meld} goes on the table at "
                "once; {p} plays the turn from here (more melds, lay-offs, a discard), and play "
                "then continues from {p}'s left.",
                p=p, call=call, whose=whose, card=top, used=used, meld=_meld_name(meld),
            ))  # fmt: skip
    elif isinstance(action, LayDown):
        out = _cat(out, M(
            "explain.lay_down", "{p} lays down a new {meld}.", p=p, meld=_meld_name(after.melds[-1])
        ))  # fmt: skip
    elif isinstance(action, LayOff):
        before, now = state.melds[action.target], after.melds[action.target]
        out = _cat(out, M(
            "explain.lay_off",
            "{p} lays off {card} on P{owner}'s {before}, making the {now}.",
            p=p, card=action.card, owner=before.owner, before=_meld_name(before),
            now=_meld_name(now),
        ))  # fmt: skip
        if before.kind is MeldKind.SEVEN:
            out = _cat(out, M(
                "explain.seven_now",
                " The single 7 is now a {kind} for the rest of the deal.",
                kind=_KIND_WORD[now.kind],
            ))  # fmt: skip
    elif isinstance(action, Discard):
        out = _cat(out, M(
            "explain.discard", "{p} discards {card}, ending the turn.", p=p, card=action.card
        ))  # fmt: skip
    if after.is_over and after.winner == action.player:
        scores = Listing(f"P{i} {s}" for i, s in enumerate(after.deal_scores or ()))
        out = _cat(out, M(
            "explain.goes_out_at_once",
            " {p} has no cards left and goes out at once (the going-out bonus). Deal scores: "
            "{scores}.", p=p, scores=scores,
        ) if after.bonus else M(
            "explain.goes_out",
            " {p} has no cards left and goes out. Deal scores: {scores}.", p=p, scores=scores,
        ))  # fmt: skip
    return out if lang is None else translate(out, lang)


def _count(n: int) -> str:
    return M("count.one", "{n} card", n=n) if n == 1 else M("count.many", "{n} cards", n=n)


def _shown(cards: tuple[Card, ...]) -> tuple[Card, ...] | str:
    return cards or "-"


# --- moves and deals in words -------------------------------------------------------

#: Each kind of move in words: (said of another player, said to the person
#: playing, ``you``). English verbs agree with "you"; other languages may not.
_MOVE_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "draw_card": (("move.draw_card", N_("{who} draws {card}")), ("move.draw_card.you", N_("You draw {card}"))),
    "draw": (("move.draw", N_("{who} draws from the stock")), ("move.draw.you", N_("You draw from the stock"))),
    "pass": (("move.pass", N_("{who} passes")), ("move.pass.you", N_("You pass"))),
    "claim": (
        ("move.claim", N_("{who} calls {call} on {card} with {cards}")),
        ("move.claim.you", N_("You call {call} on {card} with {cards}")),
    ),
    "claim_waits": (
        ("move.claim_waits", N_("{who} calls {call} on {card} with {cards}; it waits, as a player "
         "still to be asked may overtake it with the joker")),
        ("move.claim_waits.you", N_("You call {call} on {card} with {cards}; it waits, as a player "
         "still to be asked may overtake it with the joker")),
    ),
    "lay_down": (
        ("move.lay_down", N_("{who} lays down the {meld}")),
        ("move.lay_down.you", N_("You lay down the {meld}")),
    ),
    "lay_off": (
        ("move.lay_off", N_("{who} lays off {card} on {whose} {meld}")),
        ("move.lay_off.you", N_("You lay off {card} on {whose} {meld}")),
    ),
    "discard": (("move.discard", N_("{who} discards {card}")), ("move.discard.you", N_("You discard {card}"))),
    "pon_overridden": (
        ("move.pon_overridden", N_("{who}'s waiting pon gives way to this claim")),
        ("move.pon_overridden.you", N_("Your waiting pon gives way to this claim")),
    ),
}  # fmt: skip

_CALL_WORD = {Chi: M("call.chi", "chi"), Pon: M("call.pon", "pon")}


def _who(player: int, names: Sequence[str] | None, you: int | None) -> str:
    """A player in the middle of a sentence: ``you`` for the person playing."""
    return M("who.you", "you") if player == you else seat_name(player, names)


def _move_message(kind: str, player: int, names: Sequence[str] | None, you: int | None,
                  **params: Any) -> str:  # fmt: skip
    return said(_MOVE_WORDS, kind, player, names, you, **params)


def _joker_cards(cards: Sequence[Card], joker_as: Card | None) -> tuple[str | Card, ...]:
    """Cards as a move names them, the joker with the card it stands for (``JK=6♠``)."""
    return tuple(
        M("move.joker_as", "{joker}={card}", joker=c, card=joker_as)
        if c.is_joker and joker_as is not None
        else c
        for c in cards
    )


def _held(view: GameState | Observation, player: int) -> tuple[Card, ...] | None:
    """The player's hand, if ``view`` shows it."""
    if isinstance(view, GameState):
        return view.hand(player)
    if view.viewer == player:
        return view.hand
    if view.shown_hands is not None:
        return tuple(CARDS[c] for c in T.bits(view.shown_hands[player]))
    return None


def move_message(
    before: GameState | Observation | None,
    action: Action,
    after: GameState | Observation | None = None,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
    face_up: bool = False,
) -> str:
    """:func:`move_words` as a :class:`~sevenbridge.errors.Message` (to show
    with :func:`~sevenbridge.translate`). Without ``before`` (a drawing of one
    position knows only the position after the move), the words are read from
    ``after``: the card claimed from the meld it made, the meld laid off on as
    it is now."""
    if after is None:
        if not isinstance(before, GameState):
            raise TypeError("move_words needs the position after the move with a view")
        after = apply(before, action)
    if before is None:
        return _move_after(action, after, names, you)
    p = action.player
    out: str
    if isinstance(action, Draw):
        mine, then = _held(before, p), _held(after, p)
        told = p == you or face_up
        drawn = sorted(set(then) - set(mine)) if told and mine is not None and then else []
        if drawn:
            out = _move_message("draw_card", p, names, you, card=tuple(drawn))
        else:
            out = _move_message("draw", p, names, you)
    elif isinstance(action, Pass):
        out = _move_message("pass", p, names, you)
        if len(after.melds) > len(before.melds):  # the window closed on a waiting pon
            meld = after.melds[-1]
            out = M(
                "move.pon_stands", "{move}: {whose} pon stands, the {meld}", move=out,
                whose=whose(meld.owner or 0, names, you), meld=_meld_name(meld),
            )  # fmt: skip
    elif isinstance(action, (Chi, Pon)):
        waits = len(after.melds) == len(before.melds)
        out = _move_message(
            "claim_waits" if waits else "claim", p, names, you, call=_CALL_WORD[type(action)],
            card=before.top_discard, cards=_joker_cards(action.cards, action.joker_as),
        )  # fmt: skip
    elif isinstance(action, LayDown):
        out = _move_message("lay_down", p, names, you, meld=_meld_name(after.melds[-1]))
    elif isinstance(action, LayOff):
        meld = before.melds[action.target]
        out = _move_message(
            "lay_off", p, names, you, card=_joker_cards((action.card,), action.joker_as)[0],
            whose=whose(meld.owner or 0, names, you), meld=meld,
        )  # fmt: skip
    else:
        assert isinstance(action, Discard)
        out = _move_message("discard", p, names, you, card=action.card)
    if after.reshuffles > before.reshuffles and not after.is_over:
        out = M(
            "move.reshuffled",
            "{move} (the stock ran out: the discards make a new stock of {n})",
            move=out, n=after.stock_size,
        )  # fmt: skip
    return _ending(out, action, after)


def _pon_gave_way(
    player: int, *, names: Sequence[str] | None = None, you: int | None = None
) -> str:
    """That ``player``'s waiting pon gave way to the claim just made, as a
    :class:`~sevenbridge.errors.Message` (the words of a ``claim_overridden``
    event, :func:`sevenbridge.events`)."""
    return _move_message("pon_overridden", player, names, you)


def _move_after(
    action: Action, after: GameState | Observation, names: Sequence[str] | None, you: int | None
) -> str:
    """:func:`move_message` read from the position after the move alone."""
    p = action.player
    out: str
    if isinstance(action, Draw):
        out = _move_message("draw", p, names, you)
    elif isinstance(action, Pass):
        out = _move_message("pass", p, names, you)
    elif isinstance(action, (Chi, Pon)):
        made = len(after.melds) > 0 and after.pending_pon is None
        claimed = (
            next((c for c in after.melds[-1].cards if c not in action.cards), None)
            if made
            else after.top_discard
        )
        out = _move_message(
            "claim" if made else "claim_waits", p, names, you, call=_CALL_WORD[type(action)],
            card=claimed or "-", cards=_joker_cards(action.cards, action.joker_as),
        )  # fmt: skip
    elif isinstance(action, LayDown):
        out = _move_message("lay_down", p, names, you, meld=_meld_name(after.melds[-1]))
    elif isinstance(action, LayOff):
        meld = after.melds[action.target]
        rest = tuple(c for c in meld.cards if c != action.card)
        out = _move_message(
            "lay_off", p, names, you, card=_joker_cards((action.card,), action.joker_as)[0],
            whose=whose(meld.owner or 0, names, you), meld=rest,
        )  # fmt: skip
    else:
        assert isinstance(action, Discard)
        out = _move_message("discard", p, names, you, card=action.card)
    return _ending(out, action, after)


def _ending(out: str, action: Action, after: GameState | Observation) -> str:
    """A move's words, with how the deal ended if it did."""
    p = action.player
    if after.is_over and after.winner == p:
        out = (
            M("move.goes_out_at_once", "{move}, going out at once", move=out)
            if after.bonus
            else M("move.goes_out", "{move}, going out", move=out)
        )
    elif after.is_over and after.winner is None:
        out = M("move.void", "{move}: the stock has run out and the deal is void", move=out)
    return out


def move_words(
    before: GameState | Observation,
    action: Action,
    after: GameState | Observation | None = None,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
    lang: str | None = None,
    symbols: bool = True,
    face_up: bool = False,
) -> str:
    """A move in words, as the terminal, the replay viewer and the web table tell it.

    Args:
        before: The position the move was played in (a state or a view).
        action: The move.
        after: The position after it (default: ``apply(before, action)``,
            which needs a state).
        names: The seats' names (default ``P0``, ``P1``, ...).
        you: The seat of the person reading: their moves are told as "You ...",
            and their draws name the card drawn.
        lang: ``None`` or ``"en"`` (English), or ``"ja"``.
        symbols: Write cards with suit symbols (``7♥``), not letters (``7H``).
        face_up: The hands are shown to the reader (a demo between bots): a
            draw names the card drawn, whoever drew it (given states).

    >>> from sevenbridge import position, Chi
    >>> table = position('''
    ... P0: 2C 3D
    ... P1: 4H 6H 9S
    ... P2: 9C 9D 4S
    ... discards: 5H
    ... turn: P1 draw
    ... ''')
    >>> print(move_words(table, Chi(1, "4H 6H")))
    P1 calls chi on 5♥ with 4♥ 6♥
    >>> print(move_words(table, Chi(1, "4H 6H"), names=["Ann", "Bo", "Cy"], you=1, lang="ja"))
    あなたが♥5を♥4 ♥6でチー
    """
    message = move_message(before, action, after, names=names, you=you, face_up=face_up)
    return translate(message, lang, symbols=symbols)


#: Each kind of move as a list of moves to choose from names it (the web
#: table's groups of buttons; the terminal's numbered moves in Japanese).
MOVE_KINDS = tuple(KIND_WORDS.items())


def _card_word(card: Card, lang: str) -> str:
    """A card as a list of moves writes it: ``7♥`` (``♥7`` in Japanese), ``JK`` for the joker."""
    if card.is_joker:
        return "JK"
    return card_text(card, lang) if lang != "en" else format(card, "u")


def _cards_words(cards: Sequence[Card], joker_as: Card | None, lang: str) -> str:
    """Cards as a list of moves writes them, the joker with the card it stands for."""
    words = []
    for c in cards:
        word = _card_word(c, lang)
        if c.is_joker and joker_as is not None:
            word += "=" + _card_word(joker_as, lang)
        words.append(word)
    return " ".join(words)


def move_label(
    action: Action,
    view: GameState | Observation,
    *,
    names: Sequence[str] | None = None,
    lang: str | None = None,
) -> str:
    """A move to choose, as a list of moves names it: its kind (:data:`MOVE_KINDS`),
    then the hand cards it uses; a lay-off names the meld it goes on by its
    owner and cards.

    Raises:
        InvalidArgumentError: for a language without a catalog.

    >>> from sevenbridge import deal, Discard, LayDown
    >>> state = deal(seed=1)
    >>> move_label(Discard(1, "7H"), state), move_label(LayDown(1, "6S 7S"), state, lang="ja")
    ('Discard 7♥', 'メルドを出す ♠6 ♠7')
    """
    lang = check_lang(lang)
    _ = translator(lang)
    label = _(dict(MOVE_KINDS)[type(action).__name__])
    if isinstance(action, (Chi, Pon, LayDown)):
        return label + " " + _cards_words(action.cards, action.joker_as, lang)
    if isinstance(action, LayOff):
        joker = action.joker_as if action.card.is_joker else None
        meld = view.melds[action.target]
        return (
            label
            + " "
            + _("{card} on {owner}'s {meld}").format(
                card=_cards_words((action.card,), joker, lang),
                owner=seat_name(meld.owner or 0, names),  # a meld on the table has its owner
                meld=_cards_words(meld.cards, meld.joker_as, lang),
            )
        )
    if isinstance(action, Discard):
        return label + " " + _card_word(action.card, lang)
    return label


def waiting_pon_message(
    view: GameState | Observation,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
) -> str | None:
    """What a pon that waits in an open claim window means, or ``None`` when none waits."""
    if view.phase is not Phase.CLAIM or view.pending_pon is None:
        return None
    caller = view.pending_pon[0]
    if caller == you:
        return M(
            "table.your_pon_waits",
            "Your pon on {card} waits until the players still to be asked pass: one "
            "holding the joker may overtake it.",
            card=view.top_discard,
        )
    return M(
        "table.pon_waits",
        "{who} has called pon on {card}; it waits until the players still to be asked "
        "pass, since one holding the joker may overtake it.",
        who=seat_name(caller, names), card=view.top_discard,
    )  # fmt: skip


def deal_message(
    final: GameState | Observation,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
    totals: Sequence[int] | None = None,
) -> list[str]:
    """:func:`deal_words` as :class:`~sevenbridge.errors.Message` values."""
    rules = final.rules
    winner = final.winner
    lines: list[str] = []
    if winner is None:
        lines.append(M("deal.void", "Nobody went out: the stock ran out and the deal is void."))
    elif winner == you:
        lines.append(
            M("deal.you_went_out_at_once", "You went out at once, with the going-out bonus!")
            if final.bonus
            else M("deal.you_went_out", "You went out!")
        )
    else:
        lines.append(
            M("deal.went_out_at_once", "{who} went out at once, with the going-out bonus.",
              who=seat_name(winner, names))
            if final.bonus
            else M("deal.went_out", "{who} went out.", who=seat_name(winner, names))
        )  # fmt: skip
    for p in range(final.players):
        hand = _held(final, p)
        who = (
            M("who.you_named", "{name} (you)", name=seat_name(p, names))
            if p == you
            else seat_name(p, names)
        )
        if p == winner:
            lines.append(M("deal.hand_out", "  {who}: no cards left", who=who))
        elif hand is not None:
            lines.append(M(
                "deal.hand", "  {who}: {points}: {why}", who=who,
                points=points_words(hand_points(hand, rules)), why=explain_hand_points(hand, rules),
            ))  # fmt: skip
    if final.deal_scores is not None:
        scores = Listing(f"{seat_name(p, names)} {s}" for p, s in enumerate(final.deal_scores))
        if rules.scoring is Scoring.PENALTY:
            lines.append(M("deal.penalties", "Deal penalty points: {scores}", scores=scores))
            lines.append(M(
                "deal.penalty_meaning",
                "(Each player who did not go out takes the points left in their hand as a "
                "penalty; the lowest total wins.)",
            ))  # fmt: skip
            if final.bonus:
                lines.append(M(
                    "deal.penalty_bonus", "(Going out at once takes 50 points off the winner.)"
                ))  # fmt: skip
        else:
            lines.append(M("deal.scores", "Deal score: {scores}", scores=scores))
            lines.append(M(
                "deal.winner_meaning", "(The winner scores the points left in the other hands.)"
            ))  # fmt: skip
            if final.bonus:
                lines.append(M("deal.winner_bonus", "(Going out at once doubles that score.)"))
    if totals is not None:
        lines.append(M(
            "deal.totals", "Totals: {totals}",
            totals=Listing(f"{seat_name(p, names)} {t}" for p, t in enumerate(totals)),
        ))  # fmt: skip
    return lines


def deal_words(
    final: GameState | Observation,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
    totals: Sequence[int] | None = None,
    lang: str | None = None,
    symbols: bool = True,
) -> list[str]:
    """The end of a deal in words, a line each: who went out ("You went out!"
    for ``you``), what each hand left counts and why
    (:func:`~sevenbridge.explain_hand_points`), the deal's scores and what they
    mean, and the match's running ``totals`` when given.

    >>> from sevenbridge import position, apply, Discard
    >>> table = position('''
    ... P0: 4S
    ... P1: 7H KS
    ... melds: P0 6D 7D 8D; P0 9C 10C JC
    ... turn: P0 play
    ... ''')
    >>> for line in deal_words(apply(table, Discard(0, "4S")), you=0):
    ...     print(line)
    You went out!
      P0 (you): no cards left
      P1: 30 points: 7♥ K♠ under standard card values: 7♥ 20 + K♠ 10 = 30
    Deal score: P0 30, P1 0
    (The winner scores the points left in the other hands.)
    """
    message = deal_message(final, names=names, you=you, totals=totals)
    return [translate(line, lang, symbols=symbols) for line in message]


@overload
def render(state: GameState | Observation, *, lang: str | None = None) -> str: ...
@overload
def render(state: DocumentLike, *, lang: str | None = None) -> str: ...
def render(state: Any, *, lang: str | None = None) -> str:
    """A drawing of the table: hands (or hand sizes), melds, piles and whose turn.

    ``str()`` of a state or an observation gives the same text. With
    ``lang="ja"`` it is in Japanese (see :func:`~sevenbridge.translate`).

    >>> from sevenbridge import deal, observe
    >>> print(render(observe(deal(seed=2), 0)))
    Seven Bridge (standard rules), 3 players, dealer P0: P1 to draw or chi
      P0  2C 8C 9C 8D 6H 10H JH  (you)
    > P1  7 cards
      P2  7 cards
    Table: no melds
    Discard pile: 1 card, top QH
    Stock: 30 cards
    >>> print(render(observe(deal(seed=2), 0), lang="ja"))
    セブンブリッジ（標準ルール）、3人、ディーラーはP0。P1の番：山札から引くかチー
      P0  ♣2 ♣8 ♣9 ♦8 ♥6 ♥10 ♥J  （あなた）
    > P1  7枚
      P2  7枚
    場：メルドなし
    捨て札：1枚、一番上は♥Q
    山札：30枚
    """
    words = game_part(game_of(state), "text")
    if words.__name__ != __name__:  # another game's value: that game's words
        return str(words.render(state, lang=lang))
    if not isinstance(state, (GameState, Observation)):
        kind = "None" if state is None else type(state).__name__
        raise TypeError(f"render needs a GameState or an Observation, not {kind}")
    return _render(state, lang)


def _render(state: GameState | Observation, lang: str | None) -> str:
    """:func:`render` for the card game."""
    rules = state.rules
    preset = next((n for n in Rules.presets() if Rules.preset(n) == rules), "custom")
    if state.phase is Phase.OVER:
        status = M("render.over", "deal over: {reason}", reason=state.end_reason)
    else:
        doing = {
            Phase.CLAIM: M("render.doing.claim", "pon or pass"),
            Phase.DRAW: M("render.doing.draw", "draw or chi"),
            Phase.PLAY: M("render.doing.play", "meld, lay off, discard"),
        }
        status = M("render.to", "P{p} to {doing}", p=state.current_player, doing=doing[state.phase])
    lines: list[str] = [
        M(
            "render.heading",
            "Seven Bridge ({preset} rules), {n} players, dealer P{dealer}: {status}",
            preset=_PRESETS.get(preset, preset), n=state.players, dealer=state.dealer,
            status=status,
        )
    ]  # fmt: skip
    for p in range(state.players):
        mark = ">" if p == state.current_player else " "
        if isinstance(state, Observation):
            if p == state.viewer:
                lines.append(M(
                    "render.you", "{mark} P{p}  {cards}  (you)",
                    mark=mark, p=p, cards=_shown(state.hand),
                ))  # fmt: skip
            elif state.shown_hands is not None:
                shown = tuple(CARDS[c] for c in T.bits(state.shown_hands[p]))
                lines.append(M(
                    "render.shown", "{mark} P{p}  {cards}  (shown)",
                    mark=mark, p=p, cards=_shown(shown),
                ))  # fmt: skip
            else:
                lines.append(M(
                    "render.count", "{mark} P{p}  {count}",
                    mark=mark, p=p, count=_count(state.hand_sizes[p]),
                ))  # fmt: skip
        else:
            lines.append(M(
                "render.hand", "{mark} P{p}  {cards}", mark=mark, p=p, cards=_shown(state.hand(p))
            ))  # fmt: skip
    if state.melds:
        lines.append(M("render.table", "Table:"))
        for i, meld in enumerate(state.melds):
            lines.append(M(
                "render.meld", "  [{i}] P{owner} {meld}", i=i, owner=meld.owner,
                meld=_meld_name(meld),
            ))  # fmt: skip
    else:
        lines.append(M("render.no_melds", "Table: no melds"))
    pile = state.discard_pile
    if pile:
        lines.append(M(
            "render.pile_top", "Discard pile: {count}, top {card}",
            count=_count(len(pile)), card=pile[-1],
        ))  # fmt: skip
    else:
        lines.append(M("render.pile", "Discard pile: {count}", count=_count(len(pile))))
    lines.append(M("render.stock", "Stock: {count}", count=_count(state.stock_size)))
    if state.phase is Phase.CLAIM and state.claim_queue:
        lines.append(M(
            "render.queue", "Still to be asked: {players}",
            players=Listing(f"P{q}" for q in state.claim_queue),
        ))  # fmt: skip
    if state.deal_scores is not None:
        lines.append(M(
            "render.scores", "Deal scores: {scores}",
            scores=Listing(f"P{p} {s}" for p, s in enumerate(state.deal_scores)),
        ))  # fmt: skip
    if lang is None:
        return "\n".join(lines)
    return "\n".join(translate(line, lang) for line in lines)


_PRESETS = {
    "standard": M("preset.standard", "standard"),
    "seven_rummy": M("preset.seven_rummy", "seven_rummy"),
    "nintendo": M("preset.nintendo", "nintendo"),
    "custom": M("preset.custom", "custom"),
}


#: The longest text :func:`position` reads, in characters (a position takes a
#: few hundred; comments may add some).
MAX_POSITION_TEXT = 100_000

_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?|P[0-9])\s*:\s*(.*?)\s*$")
_PLAYER = re.compile(r"^[Pp]([0-9])$")
_NUMBER = re.compile(r"[0-9]{1,9}")


def _error(line: int, message: str) -> InvalidStateError:
    return InvalidStateError(
        M("invalid_state.line", "line {line}: {message}", line=line, message=message)
    )


def _player(token: str, line: int) -> int:
    m = _PLAYER.match(token)
    if not m:
        raise _error(
            line,
            M(
                "invalid_state.not_player_such_as",
                "{token} is not a player such as P1",
                token=quote(token),
            ),
        )
    return int(m.group(1))


def _number(value: str, line: int, what: str) -> int:
    """A whole number written with the digits 0-9 (at most nine of them)."""
    value = value.strip()
    if not _NUMBER.fullmatch(value):
        raise _error(
            line,
            M(
                "invalid_state.whole_number_such_as",
                "{what} is a whole number such as 3, not {value}",
                what=what,
                value=quote(value),
            ),
        )
    return int(value)


def position(text: str, rules: Rules | None = None) -> GameState:
    """Set up a position from text, for "can she pon here?" questions.

    One ``key: value`` per line::

        rules: nintendo          (a preset; or pass rules=...)
        players: 3               (optional; must match the hand lines)
        dealer: 0                (default 0)
        P0: 9C 9D 2S             (each hand; their number gives the players)
        melds: P1 6H 7H 8H; P0 7S; P2 4S 5S JK=6S
        discards: 3C 9H          (bottom to top)
        discarder: P1            (who threw the top card; default the player before the turn)
        stock: 2D 5C             (top first; default every card not named elsewhere)
        turn: P2 pon             (P2 pon, P2 draw or P2 play)
        turns done: 6            (default: one round, everyone has had a normal turn)
        normal turns: P0 P1 P2   (default: everyone)

    The position is checked like :meth:`GameState.from_json`. Each key may be
    given once, and the text may be at most 100,000 characters long
    (``sevenbridge.text.MAX_POSITION_TEXT``).

    Raises:
        InvalidStateError: naming the line, or what does not fit the rules.
        TypeError: if ``text`` is not a string or ``rules`` not a Rules value.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, not {type(text).__name__}")
    if len(text) > MAX_POSITION_TEXT:
        raise InvalidStateError(
            M(
                "invalid_state.position_too_long",
                "position: {length} characters is too long (at most {most})",
                length=str(len(text)),
                most=str(MAX_POSITION_TEXT),
            )
        )
    if rules is not None:
        require_rules(rules)
    fields: dict[str, tuple[str, int]] = {}
    hands: dict[int, tuple[str, int]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        content = raw.split("#", 1)[0]
        if not content.strip():
            continue
        m = _LINE.match(content)
        if not m:
            raise _error(
                number,
                M(
                    "invalid_state.expected_key_value_found",
                    "expected 'key: value', found {line}",
                    line=quote(raw.strip()),
                ),
            )
        key, value = m.group(1).strip().lower(), m.group(2)
        if _PLAYER.match(key):
            if int(key[1:]) in hands:
                raise _error(
                    number,
                    M(
                        "invalid_state.second_line_for_give",
                        "a second line for {player}; give each hand once",
                        player=str(key.upper()),
                    ),
                )
            hands[int(key[1:])] = (value, number)
        elif key in ("rules", "dealer", "melds", "discards", "discarder", "stock", "turn",
                     "turns done", "normal turns", "players"):  # fmt: skip
            if key in fields:
                raise _error(
                    number,
                    M(
                        "invalid_state.second_line_first_line",
                        "a second {key} line (the first is line {first})",
                        key=quote(key),
                        first=str(fields[key][1]),
                    ),
                )
            fields[key] = (value, number)
        else:
            raise _error(
                number, M("invalid_state.unknown_key", "unknown key {key}", key=quote(key))
            )
    if "rules" in fields:
        try:
            preset = Rules.preset(fields["rules"][0])
        except RulesConfigError as error:
            raise _error(fields["rules"][1], M("error", "{error}", error=error)) from None
        if rules is not None and rules != preset:
            raise _error(
                fields["rules"][1],
                M(
                    "invalid_state.rules_given_as_argument",
                    "the rules given as an argument differ from the ones named here",
                ),
            )
        rules = preset
    rules = rules or Rules()
    n = len(hands)
    if sorted(hands) != list(range(n)) or not 2 <= n <= 5:
        raise InvalidStateError(
            M(
                "invalid_state.give_hand_line_for",
                "give a hand line for each player, P0 to P1 at least and at most P4",
            )
        )
    if "players" in fields and _number(*fields["players"], "players") != n:
        raise _error(
            fields["players"][1],
            M(
                "invalid_state.players_says_but_hands",
                "players says {players}, but {n} hands are given",
                players=str(fields["players"][0].strip()),
                n=n,
            ),
        )

    def cards_of(value: str, line: int) -> list[str]:
        try:
            return [str(c) for c in parse_cards(value)]
        except InvalidCardError as error:
            raise _error(line, M("error", "{error}", error=error)) from None

    hand_cards = [cards_of(*hands[p]) for p in range(n)]
    melds: list[dict[str, Any]] = []
    if "melds" in fields:
        value, line = fields["melds"]
        for piece in filter(None, (x.strip() for x in value.split(";"))):
            who, _, rest = piece.partition(" ")
            owner = _player(who, line)
            try:
                meld = Meld.parse(rest, rules)
            except (InvalidMeldError, InvalidCardError) as error:
                raise _error(
                    line,
                    M("invalid_state.error", "{piece}: {error}", piece=quote(piece), error=error),
                ) from None
            melds.append({
                "owner": owner, "kind": meld.kind.value, "cards": [str(c) for c in meld.cards],
                "joker_as": None if meld.joker_as is None else str(meld.joker_as),
            })  # fmt: skip
    discards = cards_of(*fields["discards"]) if "discards" in fields else []
    turn_text, turn_line = fields.get("turn", ("", 0))
    parts = turn_text.split()
    if len(parts) != 2 or parts[1].lower() not in ("pon", "draw", "play"):
        raise _error(
            turn_line or 1,
            M(
                "invalid_state.say_whose_turn_it",
                "say whose turn it is and what they do: 'turn: P2 pon', 'P2 draw' or 'P2 play'",
            ),
        )
    current = _player(parts[0], turn_line)
    phase = {"pon": "claim", "draw": "draw", "play": "play"}[parts[1].lower()]
    discarder = (current - 1) % n
    if "discarder" in fields:
        discarder = _player(*fields["discarder"])
    dealer = 0
    if "dealer" in fields:
        dealer = _number(*fields["dealer"], "dealer")
        if dealer >= n:
            raise _error(
                fields["dealer"][1],
                M(
                    "invalid_state.dealer_must_player_from",
                    "dealer must be a player from 0 to {value}",
                    value=str(n - 1),
                ),
            )
    turns_done = n
    if "turns done" in fields:
        turns_done = _number(*fields["turns done"], "turns done")
    normal = list(range(n))
    if "normal turns" in fields:
        value, line = fields["normal turns"]
        normal = [_player(t, line) for t in value.split()]
    named = {c for h in hand_cards for c in h} | set(discards)
    named |= {c for m in melds for c in m["cards"]}
    if "stock" in fields and fields["stock"][0].strip().lower() not in ("", "rest"):
        stock = cards_of(*fields["stock"])
    else:
        stock = [str(c) for c in CARDS[: rules.deck_size] if str(c) not in named]
    normal_mask = sum(1 << p for p in set(normal))
    queue: list[int] = []
    if phase == "claim" and discards:
        # Those after the player asked now, up to the discarder, whom the engine's
        # window would ask too (the pon timing, and under able_only who can pon).
        after = []
        for k in range(1, n):
            q = (current + k) % n
            if q == discarder:
                break
            after.append(q)
        hands_mask = [sum(1 << Card.parse(c).index for c in hand) for hand in hand_cards]
        card = Card.parse(discards[-1]).index
        queue = list(window_asks(rules, after, normal_mask, turns_done, n, hands_mask, card))
    owners = sorted({m["owner"] for m in melds})
    doc = {
        "format": "sevenbridge.state", "version": 1, "rules": _rules_dict(rules),
        "players": n, "dealer": dealer, "phase": phase, "current_player": current,
        "discard_pile": discards, "melds": melds, "played": owners, "normal_turns": normal,
        "turns_done": turns_done, "discarder": discarder, "claim_queue": queue,
        "pending_pon": None, "turn_clean": phase == "play" and current not in owners, "turn_by_claim": False,
        "reshuffles": 0, "winner": None, "deal_scores": None, "bonus": False,
        "end_reason": None, "history": [], "hands": hand_cards, "stock": stock, "seed": 0,
    }  # fmt: skip
    return state_from_json(json.dumps(doc))


def position_text(state: GameState) -> str:
    """A position written as the text :func:`position` reads: read back with
    the same rules, it is the same position as far as the text can say (the
    same hands, melds, piles, turn, claim window and legal actions; not the
    record or the seed).

    >>> from sevenbridge import apply, deal, position, legal_actions
    >>> state = deal(seed=4)
    >>> state = apply(state, legal_actions(state)[0])    # P1 draws
    >>> state = apply(state, legal_actions(state)[-1])   # and discards
    >>> text = position_text(state)
    >>> text.splitlines()[0], text.splitlines()[-1]
    ('players: 3', 'turn: P2 draw')
    >>> legal_actions(position(text)) == legal_actions(state)
    True

    Raises:
        InvalidArgumentError: for a position the text cannot say: a deal that
            is over, a pon waiting in its window, a reshuffled stock, a turn
            begun with a claim, a lay-off by a player who has no meld, or the
            upcard still on top of the discard pile.
        TypeError: if ``state`` is not a :class:`GameState`.
    """
    from .errors import InvalidArgumentError

    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    owners = {m.owner for m in state.melds}
    played = {p for p in range(state.players) if state.played >> p & 1}
    cannot = (
        (M("position_text.over", "a deal that is over"), state.is_over),
        (M("position_text.pending", "a pon waiting in its window"), state.pending_pon is not None),
        (M("position_text.reshuffled", "a reshuffled stock"), state.reshuffles > 0),
        (M("position_text.by_claim", "a turn begun with a claim"), state.turn_by_claim),
        (M("position_text.lay_off", "a lay-off by a player who has no meld"), played != owners),
        (
            M("position_text.upcard", "the upcard on the discard pile"),
            state.discarder < 0 and bool(state.discard_pile),
        ),
    )
    unsaid = [what for what, shown in cannot if shown]
    if unsaid:
        raise InvalidArgumentError(
            M(
                "invalid_argument.position_text_cannot_say",
                "position text cannot say {what}",
                what=unsaid[0],
            )
        )
    turn = {Phase.CLAIM: "pon", Phase.DRAW: "draw", Phase.PLAY: "play"}[state.phase]
    lines = [f"players: {state.players}", f"dealer: {state.dealer}"]
    lines += [f"P{p}: {' '.join(map(str, state.hand(p)))}" for p in range(state.players)]
    if state.melds:
        lines.append("melds: " + "; ".join(f"P{m.owner} {m}" for m in state.melds))
    lines += [
        f"discards: {' '.join(map(str, state.discard_pile))}",
        f"stock: {' '.join(map(str, state.stock))}",
        f"turns done: {state.turns_done}",
        " ".join(
            ["normal turns:"]
            + [f"P{p}" for p in range(state.players) if state.normal_turns >> p & 1]
        ),
    ]
    if state.discarder >= 0:
        lines.append(f"discarder: P{state.discarder}")
    lines.append(f"turn: P{state.current_player} {turn}")
    return "\n".join(lines)


_hooks.register("render", render)

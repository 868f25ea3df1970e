"""Why an action is illegal: the rule it breaks, in plain (translatable) words.

:func:`~sevenbridge.apply` refuses an illegal action at once and only then
calls :func:`diagnose` for the reason, so this module is plain Python, never
compiled, and costs nothing on the legal path. The rules it names are asked
of the engine's own rule families (:mod:`~sevenbridge.engine.claims`).
"""

from __future__ import annotations

from typing import Any

from .._tables import SET, SEVEN
from ..actions import ACTION_TYPES, Chi, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS, JOKER_INDEX
from ..errors import Message as M
from ..errors import quote
from ..melds import analyse
from ..rules import ClaimTiming
from ..state import GameState, Phase
from .claims import chi_open, may_claim, pon_open

__all__ = ["diagnose"]

_CLAIM = Phase.CLAIM
_DRAW = Phase.DRAW
_PLAY = Phase.PLAY
_OVER = Phase.OVER
_AFTER_OWN_TURN = ClaimTiming.AFTER_OWN_TURN
_AFTER_FIRST_ROUND = ClaimTiming.AFTER_FIRST_ROUND
_ANY_TIME = ClaimTiming.ANY_TIME


def diagnose(state: GameState, action: Any) -> str:
    """The rule an illegal action breaks, in plain words."""
    if not isinstance(action, ACTION_TYPES):
        return M(
            "not_an_action",
            "{action} is not an action (Draw, Pass, Chi, Pon, LayDown, LayOff, Discard)",
            action=quote(action),
        )
    if state.phase is _OVER:
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
            _CLAIM: M("doing.claim", "to say pon or pass"),
            _DRAW: M("doing.draw", "to draw or chi"),
            _PLAY: M("doing.play", "to play their turn"),
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
    if state.phase is _CLAIM and kind not in (Pon, Pass):
        return M(
            "claim_phase", "a discard is open to claims: the asked player can only pon or pass"
        )
    if state.phase is _DRAW and kind not in (Draw, Chi):
        if kind is Pon or kind is Pass:
            return M(
                "claim_window_closed",
                "the claim window has closed: the next player has to draw or chi",
            )
        return M(
            "draw_first",
            "a turn begins by drawing from the stock (or with a chi); discarding comes last",
        )
    if state.phase is _PLAY and kind in (Draw, Chi, Pon, Pass):
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
        if not may_claim(timing, p, state.normal_turns, state.turns_done, state.players):
            when = {
                _AFTER_OWN_TURN: M(
                    "when.after_own_turn",
                    "after a normal turn of one's own (drew and discarded)",
                ),
                _AFTER_FIRST_ROUND: M("when.after_first_round", "after the first round"),
                _ANY_TIME: M("when.any_time", "at any time"),
            }[timing]
            return M(
                "claim_timing",
                "a {call} is allowed only {when} ({option}='{timing}')",
                call=name,
                when=when,
                option=f"{name}_timing",
                timing=timing.value,
            )
        if kind is Chi and not chi_open(state, p):
            return M(
                "upcard_not_claimable",
                "there is no discard to chi: the upcard cannot be claimed here",
            )
        waiting = state.pending_pon
        if kind is Pon and waiting is not None and not pon_open(waiting, hand):
            return M(
                "pon_waiting",
                "player {p} has already called pon; under the joker-holder tie-break only the "
                "joker's holder can overtake it",
                p=waiting[0],
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
            if tm.kind == SEVEN:
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
        if tm.kind == SEVEN:
            return M(
                "single_seven_lay_off",
                "a single 7 on the table takes another 7 (making a set) or the 6 or 8 of its "
                "suit (making a run), not {card}",
                card=action.card,
            )
        if tm.kind == SET:
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

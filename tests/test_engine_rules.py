"""Scenario tests with stacked decks: one or more per rule of the rules page,
sections 1 and 3-6, and per option. Each is named after its rule. Then what the
engine's entry points (the actions, deal, apply, a state's seats) refuse."""

from __future__ import annotations

import attrs
import pytest

from sevenbridge import (
    ClaimWindow,
    Discard,
    Draw,
    GameState,
    IllegalActionError,
    InvalidStateError,
    LayDown,
    LayOff,
    MeldKind,
    Pass,
    Phase,
    Pon,
    Rules,
    apply,
    deal,
    full_deck,
    hand_points,
    legal_actions,
    parse_cards,
)
from sevenbridge.errors import InvalidArgumentError

from .helpers import find, is_legal, pass_window, play, stacked, turn

STANDARD = Rules()
SEVEN_RUMMY = Rules.seven_rummy()
NINTENDO = Rules.nintendo()
ANY_TIME = Rules(pon_timing="any_time", chi_timing="any_time")


def refused(state: GameState, action: object, *words: str) -> str:
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)  # type: ignore[arg-type]
    for word in words:
        assert word in info.value.reason, info.value.reason
    assert info.value.action == action
    return info.value.reason


# === Section 1: components and deal =========================================================
def test_deal_one_card_at_a_time_from_the_dealers_left_then_upcard_then_stock() -> None:
    deck = full_deck()
    state = deal(players=3, dealer=0, deck=deck)
    assert state.hand(1) == tuple(deck[0:21:3])
    assert state.hand(2) == tuple(deck[1:21:3])
    assert state.hand(0) == tuple(deck[2:21:3])
    assert state.discard_pile == (deck[21],)
    assert state.stock == tuple(deck[22:])
    other = deal(players=4, dealer=2, deck=deck)
    assert other.hand(3) == tuple(deck[0:28:4])
    assert other.hand(2) == tuple(deck[3:28:4])


def test_deal_gives_seven_cards_each_for_two_to_five_players() -> None:
    for n in range(2, 6):
        state = deal(players=n, seed=n)
        assert [len(h) for h in state.hands] == [7] * n
        assert state.stock_size == 52 - 7 * n - 1
    with pytest.raises(ValueError, match="2 to 5 players"):
        deal(players=6)
    with pytest.raises(ValueError, match="dealer"):
        deal(players=3, dealer=3)


def test_deck_has_53_cards_with_the_joker() -> None:
    state = deal(NINTENDO, players=3, seed=1)
    assert state.stock_size == 53 - 21


def test_no_upcard_under_nintendo_and_the_dealer_plays_first() -> None:
    state = deal(NINTENDO, players=4, dealer=2, seed=5)
    assert state.discard_pile == ()
    assert state.current_player == 2
    assert legal_actions(state) == (Draw(2),)


def test_the_player_left_of_the_dealer_plays_first() -> None:
    state = deal(players=4, dealer=3, seed=5)
    assert state.current_player == 0
    assert len(state.discard_pile) == 1


def test_a_seed_gives_the_same_deal_every_time_and_is_pinned() -> None:
    a, b = deal(seed=2026), deal(seed=2026)
    assert a == b and hash(a) == hash(b)
    assert a != deal(seed=2027)
    # Pinned: the shuffle must not change across machines or Python versions.
    assert " ".join(map(str, a.hand(1))) == "3C JC QC AD 10H AS 6S"
    assert str(a.top_discard) == "8S"


def test_a_bad_deck_is_refused_with_what_is_wrong() -> None:
    deck = list(full_deck())
    with pytest.raises(InvalidStateError, match="51 cards given, 52 needed; missing KS"):
        deal(deck=deck[:-1])
    with pytest.raises(InvalidStateError, match="AC appears twice"):
        deal(deck=[deck[0], *deck[:-1]])
    with pytest.raises(InvalidStateError, match="JK is not in a 52-card deck"):
        deal(deck=[*deck[:-1], "JK"])


# === Section 3: a turn ====================================================================
def test_turn_is_draw_then_meld_then_discard_and_passes_left() -> None:
    state = stacked(STANDARD, ["", "6H 7H 8H", ""], stock="2S 4S")
    assert legal_actions(state) == (Draw(1),)
    refused(state, Discard(1, "6H"), "a turn begins by drawing")
    refused(state, Draw(2), "player 1's decision")
    state = play(state, "1 Draw")
    assert state.phase is Phase.PLAY and parse_cards("2S")[0] in state.hand(1)
    refused(state, Draw(1), "already taken a card")
    state = play(state, "1 LayDown 6H 7H 8H", "1 Discard 2S")
    assert state.phase is Phase.DRAW and state.current_player == 2
    assert [str(m) for m in state.melds] == ["6H 7H 8H"]
    assert state.melds[0].owner == 1


def test_lay_off_only_after_an_own_meld_which_may_be_laid_this_turn() -> None:
    start = stacked(STANDARD, ["", "6H 7H 8H", "9H QC QD QS"], stock="2S 4S")
    state = play(start, "1 Draw", "1 LayDown 6H 7H 8H", "1 Discard 2S", "2 Draw")
    assert not is_legal(state, "2 LayOff 9H>0")
    refused(state, LayOff(2, "9H", 0), "lay_off_needs_own_meld=True")
    state = play(state, "2 LayDown QC QD QS")
    assert is_legal(state, "2 LayOff 9H>0")
    state = play(state, "2 LayOff 9H>0")
    assert str(state.melds[0]) == "6H 7H 8H 9H" and state.melds[0].owner == 1


def test_lay_off_without_an_own_meld_under_seven_rummy() -> None:
    start = stacked(SEVEN_RUMMY, ["", "6H 7H 8H", "9H QC QD QS"], stock="2S 4S")
    state = play(start, "1 Draw", "1 LayDown 6H 7H 8H", "1 Discard 2S", "2 Draw")
    assert is_legal(state, "2 LayOff 9H>0")


def test_lay_off_onto_sets_and_both_ends_of_runs() -> None:
    state = stacked(STANDARD, ["", "5H 6H 7H QC QD QS", ""], stock="8H 4S QH")
    state = play(state, "1 Draw", "1 LayDown 5H 6H 7H", "1 LayDown QC QD QS")
    assert is_legal(state, "1 LayOff 8H>0")
    assert not is_legal(state, "1 LayOff 8H>1")
    refused(state, LayOff(1, "8H", 1), "does not fit the set")
    refused(state, LayOff(1, "8H", 5), "no meld 5")


def test_single_seven_becomes_a_set_when_a_seven_is_added() -> None:
    state = stacked(STANDARD, ["", "7H 7S 7D 8S 6H 7C"], stock="4S")
    state = play(state, "1 Draw", "1 LayDown 7H", "1 LayDown 7S")
    assert state.melds[0].kind is MeldKind.SEVEN
    assert is_legal(state, "1 LayOff 6H>0") and is_legal(state, "1 LayOff 7D>0")
    state = play(state, "1 LayOff 7D>0")
    assert state.melds[0].kind is MeldKind.SET
    assert not is_legal(state, "1 LayOff 6H>0")
    reason = refused(state, LayOff(1, "6H", 0), "a set takes only its rank")
    assert reason
    assert is_legal(state, "1 LayOff 7C>0")


def test_single_seven_becomes_a_run_when_its_6_or_8_is_added() -> None:
    state = stacked(STANDARD, ["", "7H 7S 7D 8S 6H 7C"], stock="4S")
    state = play(state, "1 Draw", "1 LayDown 7S")
    refused(state, LayOff(1, "8H", 0), "does not hold 8H")
    refused(state, LayOff(1, "6H", 0), "the 6 or 8 of its suit")
    state = play(state, "1 LayOff 8S>0")
    assert state.melds[0].kind is MeldKind.RUN
    assert not is_legal(state, "1 LayOff 7C>0")
    refused(state, LayOff(1, "7C", 0), "does not extend the run")


def test_declaring_sevens_as_one_set_or_single_melds_or_a_lay_off() -> None:
    state = play(stacked(STANDARD, ["", "7H 7S"], stock="4S"), "1 Draw")
    texts = {str(a) for a in legal_actions(state)}
    assert {"LayDown 7H 7S", "LayDown 7H", "LayDown 7S"} <= texts
    state = play(state, "1 LayDown 7H")
    assert is_legal(state, "1 LayDown 7S") and is_legal(state, "1 LayOff 7S>0")


def test_final_discard_forbids_melding_the_last_card() -> None:
    state = stacked(STANDARD, ["", "7C 7D 7H QC QD QH QS"], stock="7S")
    state = play(state, "1 Draw", "1 LayDown QC QD QH QS")
    assert not is_legal(state, "1 LayDown 7C 7D 7H 7S")
    refused(state, LayDown(1, "7C 7D 7H 7S"), "final_discard=True")
    state = play(state, "1 LayDown 7C 7D 7H")
    refused(state, LayOff(1, "7S", 1), "final_discard=True")
    assert [str(a) for a in legal_actions(state)] == ["Discard 7S"]
    state = play(state, "1 Discard 7S")
    assert state.is_over and state.winner == 1 and state.current_player is None


def test_no_final_discard_lets_a_player_go_out_by_melding() -> None:
    rules = Rules(final_discard=False)
    state = stacked(rules, ["", "7C 7D 7H QC QD QH QS"], stock="7S")
    state = play(state, "1 Draw", "1 LayDown QC QD QH QS", "1 LayDown 7C 7D 7H 7S")
    assert state.is_over and state.winner == 1
    assert len(state.discard_pile) == 1  # nothing was discarded: only the upcard is there


def test_a_finished_deal_accepts_no_action() -> None:
    rules = Rules(final_discard=False)
    state = stacked(rules, ["", "7C 7D 7H QC QD QH QS"], stock="7S")
    state = play(state, "1 Draw", "1 LayDown QC QD QH QS", "1 LayDown 7C 7D 7H 7S")
    assert legal_actions(state) == ()
    refused(state, Draw(2), "the deal is over")


# === Section 4: chi and pon ================================================================
def _after_first_round(rules: Rules, hands: list[str], stock: str) -> GameState:
    """Every player has had a normal turn (discarding the card they drew)."""
    state = stacked(rules, hands, stock=stock)
    drawn = parse_cards(stock)
    for i in range(3):
        state = turn(state, str(drawn[i]))
    return state


def test_chi_takes_the_previous_players_discard_into_a_new_run() -> None:
    state = _after_first_round(STANDARD, ["", "4H", "5H 6H"], "2S 4S 6S 8S")
    state = play(state, "1 Draw", "1 Discard 4H")
    assert state.phase is Phase.CLAIM  # players 2 and 0 may pon, so they are asked
    state = pass_window(state)
    assert state.current_player == 2 and state.phase is Phase.DRAW
    assert is_legal(state, "2 Chi 5H 6H")
    state = play(state, "2 Chi 5H 6H")
    assert [str(m) for m in state.melds] == ["4H 5H 6H"]
    assert state.melds[0].owner == 2 and state.melds[0].kind is MeldKind.RUN
    assert state.phase is Phase.PLAY and state.current_player == 2
    assert not set(parse_cards("4H 5H 6H")) & set(state.hand(2))
    assert parse_cards("4H")[0] not in state.discard_pile


def test_chi_only_by_the_next_player() -> None:
    state = _after_first_round(STANDARD, ["5H 6H", "4H", ""], "2S 4S 6S 8S")
    state = pass_window(play(state, "1 Draw", "1 Discard 4H"))
    assert state.current_player == 2
    assert not any(a.player == 0 for a in legal_actions(state))


def test_chi_makes_a_run_not_a_set() -> None:
    state = _after_first_round(STANDARD, ["", "8H", "8C 8D"], "2S 4S 6S 8S")
    state = play(state, "1 Draw", "1 Discard 8H", "2 Pass", "0 Pass")
    assert [str(a) for a in legal_actions(state)] == ["Draw"]


def test_chi_needs_two_hand_cards_under_the_standard_rules() -> None:
    state = _after_first_round(STANDARD, ["", "7H", "6H"], "2S 4S 6S 8S")
    state = pass_window(play(state, "1 Draw", "1 Discard 7H"))
    assert not is_legal(state, "2 Chi 6H")
    from sevenbridge import Chi

    refused(state, Chi(2, "6H"), "at least 2 cards", "claim_min_hand_cards=2")


def test_chi_with_one_hand_card_under_seven_rummy() -> None:
    state = _after_first_round(SEVEN_RUMMY, ["", "7H", "6H"], "2S 4S 6S 8S")
    state = pass_window(play(state, "1 Draw", "1 Discard 7H"))
    state = play(state, "2 Chi 6H")
    assert str(state.melds[0]) == "6H 7H"


def test_pon_by_any_player_out_of_turn_skips_the_players_between() -> None:
    state = _after_first_round(STANDARD, ["9C 9D", "9H", ""], "2S 4S 6S 8S 10S")
    state = play(state, "1 Draw", "1 Discard 9H")
    assert state.current_player == 2  # nearest to the discarder's left is asked first
    state = play(state, "2 Pass")
    assert state.current_player == 0 and is_legal(state, "0 Pon 9C 9D")
    state = play(state, "0 Pon 9C 9D")
    assert str(state.melds[0]) == "9C 9D 9H" and state.melds[0].owner == 0
    assert state.phase is Phase.PLAY and state.current_player == 0
    state = play(state, "0 Discard KC")
    state = pass_window(state)
    assert state.current_player == 1  # the claimer's left: player 2 was skipped


def test_pon_is_not_open_to_the_discarder() -> None:
    state = _after_first_round(STANDARD, ["", "9H 9C 9D", ""], "2S 4S 6S 8S")
    state = play(state, "1 Draw", "1 Discard 9H")
    assert state.current_player != 1
    refused(state, Pon(1, "9C 9D"), "decision")


def test_pon_beats_chi() -> None:
    state = _after_first_round(STANDARD, ["4C 4D", "4H", "5H 6H"], "2S 4S 6S 8S 10S")
    state = play(state, "1 Draw", "1 Discard 4H", "2 Pass", "0 Pon 4C 4D", "0 Discard JC")
    state = pass_window(state)
    assert state.current_player == 1
    assert all(str(m) != "4H 5H 6H" for m in state.melds)


def test_pon_tie_goes_to_the_nearest_left_of_the_discarder() -> None:
    rules = STANDARD.replace(jokers=1)
    state = _after_first_round(rules, ["9C JK", "9H", "9D 9S"], "2S 4S 6S 8S")
    state = play(state, "1 Draw", "1 Discard 9H", "2 Pon 9D 9S")
    assert state.current_player == 2 and state.phase is Phase.PLAY
    assert state.melds[0].owner == 2


def test_pon_tie_goes_to_the_joker_holder_under_nintendo() -> None:
    state = stacked(NINTENDO, ["9H", "9C 9D", "9S JK"], stock="2S")
    state = play(state, "0 Draw", "0 Discard 9H", "1 Pon 9C 9D")
    # Player 1's pon waits: player 2 is still asked and, holding the joker, overtakes.
    assert state.phase is Phase.CLAIM and state.current_player == 2
    assert is_legal(state, "2 Pon 9S JK=9C")
    state = play(state, "2 Pon 9S JK=9C")
    assert state.melds[0].owner == 2 and state.current_player == 2
    assert str(state.melds[0]) == "9H 9S JK=9C"


def test_a_waiting_pon_is_made_when_the_joker_holder_passes() -> None:
    state = stacked(NINTENDO, ["9H", "9C 9D", "9S JK"], stock="2S")
    state = play(state, "0 Draw", "0 Discard 9H", "1 Pon 9C 9D", "2 Pass")
    assert state.melds[0].owner == 1 and state.current_player == 1


def test_after_a_waiting_pon_only_the_joker_holder_may_still_pon() -> None:
    state = stacked(NINTENDO, ["9H KD", "9C 9D", "9S JK", "KS KH"], stock="2S")
    state = play(state, "0 Draw", "0 Discard KD", "1 Pass", "2 Pass", "3 Pon KH KS")
    assert state.melds[0].owner == 3
    state = stacked(NINTENDO, ["KD", "KC KH", "KS", "JK"], stock="2S")
    state = play(state, "0 Draw", "0 Discard KD", "1 Pon KC KH")
    assert state.current_player == 2 and [str(a) for a in legal_actions(state)] == ["Pass"]
    refused(state, Pon(2, "KS"), "only the joker's holder")


def test_no_claim_before_an_own_normal_turn() -> None:
    state = stacked(STANDARD, ["9C 9D", "9H", "8H 10H"], stock="2S")
    state = play(state, "1 Draw", "1 Discard 9H")
    # Neither player 2 nor player 0 has had a turn: nobody is asked, no chi.
    assert state.phase is Phase.DRAW and state.current_player == 2
    assert legal_actions(state) == (Draw(2),)
    from sevenbridge import Chi

    refused(state, Chi(2, "8H 10H"), "chi_timing='after_own_turn'")


def test_nintendo_pon_from_the_first_discard_but_chi_only_after_the_first_round() -> None:
    state = stacked(NINTENDO, ["4H", "5H 6H 9C 9D", ""], stock="2S 3S 4S 5S 6S")
    state = play(state, "0 Draw", "0 Discard 4H")
    assert state.phase is Phase.CLAIM  # pon: any time, so everyone but the discarder is asked
    state = pass_window(state)
    assert state.current_player == 1 and not is_legal(state, "1 Chi 5H 6H")
    # After the first round (3 turns), a chi is allowed.
    state2 = stacked(NINTENDO, ["4S 5S", "4H", "5H 6H"], stock="2C 3C 4C 5C")
    state2 = turn(turn(turn(state2, "2C"), "3C"), "4C")
    state2 = pass_window(play(state2, "0 Draw", "0 Discard 4S"))
    assert state2.current_player == 1
    state2 = pass_window(play(state2, "1 Draw", "1 Discard 4H"))
    assert is_legal(state2, "2 Chi 5H 6H")


def test_the_claimed_card_is_melded_at_once_never_kept() -> None:
    state = _after_first_round(STANDARD, ["9C 9D", "9H", ""], "2S 4S 6S 8S")
    state = play(state, "1 Draw", "1 Discard 9H", "2 Pass", "0 Pon 9C 9D")
    assert parse_cards("9H")[0] not in state.hand(0)
    assert parse_cards("9H")[0] in state.melds[0].cards


def _two_fives_left(rules: Rules) -> GameState:
    state = stacked(rules, ["", "QC QD QH QS 7C 5H 5D", "5C"], stock="2S 4S")
    state = play(
        pass_window(state), "1 Draw", "1 LayDown QC QD QH QS", "1 LayDown 7C", "1 Discard 2S"
    )
    state = pass_window(state)
    return play(state, "2 Draw", "2 Discard 5C", "0 Pass")


def test_claim_must_leave_a_card_for_the_final_discard() -> None:
    state = _two_fives_left(STANDARD.replace(pon_timing="any_time"))
    assert state.current_player == 1 and [str(a) for a in legal_actions(state)] == ["Pass"]
    refused(state, Pon(1, "5D 5H"), "no card for the final discard")


def test_claim_may_empty_the_hand_without_final_discard() -> None:
    state = _two_fives_left(Rules(pon_timing="any_time", final_discard=False))
    state = play(state, "1 Pon 5D 5H")
    assert state.is_over and state.winner == 1


def test_upcard_cannot_be_claimed_under_the_standard_timing() -> None:
    state = stacked(STANDARD, ["9C 9D", "8H 10H", ""], upcard="9H")
    assert state.phase is Phase.DRAW and legal_actions(state) == (Draw(1),)


def test_upcard_can_be_claimed_when_timing_allows_by_anyone() -> None:
    state = stacked(ANY_TIME, ["9C 9D", "8H 10H", "9S"], upcard="9H")
    assert state.phase is Phase.CLAIM and state.current_player == 1
    assert state.claim_queue == (2, 0)  # the dealer is asked too: the upcard has no discarder
    state = play(state, "1 Pass", "2 Pass", "0 Pass")
    assert state.current_player == 1 and is_legal(state, "1 Chi 8H 10H")


def test_upcard_claimable_option_off() -> None:
    state = stacked(ANY_TIME.replace(upcard_claimable=False), ["9C 9D", "8H 10H"], upcard="9H")
    assert legal_actions(state) == (Draw(1),)


def test_claim_window_asks_every_eligible_player_whatever_they_hold() -> None:
    state = stacked(ANY_TIME, ["", "", ""], stock="2S", upcard="9H")
    state = play(state, "1 Pass", "2 Pass", "0 Pass", "1 Draw", "1 Discard 2S")
    assert state.phase is Phase.CLAIM and state.current_player == 2
    assert legal_actions(state) == (Pass(2),)


def test_claim_window_able_only_asks_only_players_holding_a_pon() -> None:
    rules = ANY_TIME.replace(claim_window=ClaimWindow.ABLE_ONLY)
    state = stacked(rules, ["2C 2D", "", ""], stock="2S", upcard="9H")
    assert state.phase is Phase.DRAW  # nobody holds a pair of 9s
    state = play(state, "1 Draw", "1 Discard 2S")
    assert state.phase is Phase.CLAIM and state.current_player == 0 and state.claim_queue == ()


# === Section 5: scoring ===================================================================
def _going_out_in_one_turn(rules: Rules) -> GameState:
    return play(
        stacked(rules, ["5C 6D", "7C 7D 7H QC QD QH QS", "KH 2S"], stock="9S"),
        "1 Draw", "1 LayDown QC QD QH QS", "1 LayDown 7C 7D 7H", "1 Discard 9S",
    )  # fmt: skip


def test_winner_scores_the_losers_points_doubled_for_going_out_at_once() -> None:
    state = _going_out_in_one_turn(STANDARD)
    assert state.winner == 1 and state.bonus
    losers = hand_points(state.hand(0)) + hand_points(state.hand(2))
    assert state.deal_scores == (0, 2 * losers, 0)


def test_going_out_bonus_option_off() -> None:
    state = _going_out_in_one_turn(Rules(going_out_bonus=False))
    losers = hand_points(state.hand(0)) + hand_points(state.hand(2))
    assert not state.bonus and state.deal_scores == (0, losers, 0)


def test_no_going_out_bonus_with_a_meld_on_the_table_before_the_turn() -> None:
    state = stacked(STANDARD, ["", "7C 7D 7H QC QD QH QS", ""], stock="9S 2S 3S 4S")
    state = turn(state, "9S", "LayDown QC QD QH QS")
    state = turn(turn(state, "2S"), "3S")
    state = play(state, "1 Draw", "1 LayDown 7C 7D 7H", "1 Discard 4S")
    assert state.winner == 1 and not state.bonus
    losers = hand_points(state.hand(0)) + hand_points(state.hand(2))
    assert state.deal_scores == (0, losers, 0)


def _out_after_pon(rules: Rules) -> GameState:
    state = _after_first_round(rules, ["9C 9D 3H 4H 5H 7D 7S", "9H", ""], "2S 4S 6S 8S")
    return play(
        state, "1 Draw", "1 Discard 9H", "2 Pass", "0 Pon 9C 9D",
        "0 LayDown 3H 4H 5H", "0 LayDown 7D", "0 Discard 7S",
    )  # fmt: skip


def test_going_out_bonus_after_a_claim_counts_by_default() -> None:
    state = _out_after_pon(STANDARD)
    assert state.winner == 0 and state.bonus


def test_going_out_bonus_after_a_claim_option_off() -> None:
    state = _out_after_pon(Rules(going_out_bonus_after_claim=False))
    assert state.winner == 0 and not state.bonus


def test_penalty_scoring_with_fifty_off_for_going_out_at_once() -> None:
    rules = NINTENDO
    state = stacked(rules, ["7C 7D 7H QC QD QH QS", "5C 6D 7S", "KH 2S JK"], stock="9S")
    state = play(state, "0 Draw", "0 LayDown QC QD QH QS", "0 LayDown 7C 7D 7H", "0 Discard 9S")
    assert state.winner == 0 and state.bonus
    assert state.deal_scores == (-50, hand_points(state.hand(1), rules),
                                 hand_points(state.hand(2), rules))  # fmt: skip
    assert state.deal_scores[2] == hand_points(state.hand(2), rules) > 0
    assert hand_points("KH 2S JK", rules) == 60


def test_alternate_card_values_in_a_deal() -> None:
    rules = Rules(card_values="alternate_ace_15")
    state = _going_out_in_one_turn(rules)
    losers = hand_points(state.hand(0), rules) + hand_points(state.hand(2), rules)
    assert state.deal_scores == (0, 2 * losers, 0)
    assert hand_points(state.hand(0), rules) != hand_points(state.hand(0))


# === Section 6: the stock running out ========================================================
def _run_stock_out(rules: Rules, seed: int = 4) -> GameState:
    state = deal(rules, players=5, seed=seed)
    while state.reshuffles == 0 and not state.is_over:
        p = state.current_player
        state = apply(state, Draw(p))  # type: ignore[arg-type]
        state = apply(state, Discard(p, state.hand(p)[0]))  # type: ignore[arg-type]
        state = pass_window(state)
    return state


def test_stock_exhaustion_reshuffles_the_discards_less_the_top_card() -> None:
    state = _run_stock_out(STANDARD)
    assert not state.is_over and state.reshuffles == 1
    assert len(state.discard_pile) == 1
    assert state.stock_size == 52 - 35 - 1
    again = _run_stock_out(STANDARD)
    assert again.stock == state.stock  # reproducible from the seed


def test_shuffles_draw_the_numbers_of_mix() -> None:
    """``mixes`` works the generator's numbers out together for speed: the
    same numbers as ``mix`` one state after another, and so the same deals and
    reshuffles as a shuffle drawing them one by one."""
    from sevenbridge._kit.rng import GOLDEN, MASK, mix, mixes, shuffled

    for seed in range(200):
        state = (seed * 0x9E3779B97F4A7C15**3) & MASK if seed % 3 else MASK - seed
        count = seed % 70
        expected = [mix((state + k * GOLDEN) & MASK) for k in range(count)]
        assert list(mixes(state, count)) == expected
        items = list(range(count + 1))
        for i, number in zip(range(count, 0, -1), expected, strict=True):
            j = (number * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        assert shuffled(range(count + 1), state) == tuple(items)
    assert shuffled((), 5) == () and shuffled("a", 5) == ("a",)


def test_stock_exhaustion_void_option_ends_the_deal_with_no_score() -> None:
    state = _run_stock_out(Rules(stock_exhaustion="void"))
    assert state.is_over and state.winner is None and state.deal_scores == (0,) * 5
    assert "void" in (state.end_reason or "")


def test_reshuffle_limit_bounds_the_deal() -> None:
    state = _run_stock_out(Rules(reshuffle_limit=0))
    assert state.is_over and state.winner is None
    assert "reshuffle" in (state.end_reason or "")


def test_illegal_action_reason_names_the_player_and_the_rule() -> None:
    state = deal(seed=9)
    reason = refused(state, Pass(1), "claim window has closed")
    assert reason
    with pytest.raises(TypeError, match="action must be a Draw"):
        apply(state, "Draw")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="player 1's decision"):
        apply(state, Draw(0))
    assert find(state, "1 Draw") == Draw(1)


def test_positions_reached_in_different_orders_are_equal() -> None:
    start = stacked(STANDARD, ["", "6H 7H QC QD QS 8H", ""], stock="QH")
    start = play(start, "1 Draw", "1 LayDown 6H 7H", "1 LayDown QC QD QS")
    one = play(start, "1 LayOff 8H>0", "1 LayOff QH>1")
    two = play(start, "1 LayOff QH>1", "1 LayOff 8H>0")
    assert one.history != two.history
    assert one == two and hash(one) == hash(two)
    assert legal_actions(one) == legal_actions(two)


def test_states_pickle_and_copy_by_value() -> None:
    import copy
    import pickle

    state = play(stacked(STANDARD, ["", "6H 7H 8H"], stock="2S"), "1 Draw", "1 LayDown 6H 7H 8H")
    legal_actions(state)
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert again == state and again.history == state.history
        assert legal_actions(again) == legal_actions(state)


# === Jokers and the Ace on the table ==========================================================
JOKER_RULES = Rules(jokers=1)


def test_joker_lay_off_offers_each_stand_in_as_its_own_action() -> None:
    state = stacked(JOKER_RULES, ["", "5H 6H 7H JK 7S"], stock="2S")
    state = play(state, "1 Draw", "1 LayDown 5H 6H 7H", "1 LayDown 7S")
    texts = {str(a) for a in legal_actions(state)}
    assert {"LayOff JK=4H>0", "LayOff JK=8H>0"} <= texts
    assert not any(t.startswith("LayOff JK") and t.endswith(">1") for t in texts)
    refused(state, LayOff(1, "JK", 1, "7H"), "never makes a two-card meld")
    state = play(state, "1 LayOff JK=8H>0")
    assert str(state.melds[0]) == "5H 6H 7H JK=8H"
    assert is_legal(state, "1 LayOff 2S>0") is False  # nothing else fits; the joker stays put


def test_joker_lay_off_option_off() -> None:
    state = stacked(JOKER_RULES.replace(joker_lay_off=False), ["", "5H 6H 7H JK"], stock="2S")
    state = play(state, "1 Draw", "1 LayDown 5H 6H 7H")
    assert not any(str(a).startswith("LayOff JK") for a in legal_actions(state))
    refused(state, LayOff(1, "JK", 0, "8H"), "joker_lay_off=False")


def test_joker_in_a_new_meld_records_its_stand_in() -> None:
    state = play(stacked(JOKER_RULES, ["", "4S 5S JK"], stock="2S"), "1 Draw")
    texts = {str(a) for a in legal_actions(state)}
    assert {"LayDown 4S 5S JK=3S", "LayDown 4S 5S JK=6S"} <= texts
    state = play(state, "1 LayDown 4S 5S JK=3S")
    assert state.melds[0].joker_as == parse_cards("3S")[0]
    assert is_legal(state, "1 LayOff 6S>0") is False  # 6S is not held; the run's ends are 2S and 6S
    assert is_legal(state, "1 LayOff 2S>0")


def test_ace_high_on_the_table() -> None:
    low = stacked(STANDARD, ["", "JH QH KH AH"], stock="2S")
    low = play(low, "1 Draw", "1 LayDown JH QH KH")
    assert not is_legal(low, "1 LayOff AH>0")
    high = stacked(Rules(ace_high=True), ["", "JH QH KH AH"], stock="2S")
    high = play(high, "1 Draw")
    assert is_legal(high, "1 LayDown JH QH KH AH") and is_legal(high, "1 LayDown QH KH AH")
    high = play(high, "1 LayDown JH QH KH", "1 LayOff AH>0")
    assert str(high.melds[0]) == "JH QH KH AH"
    assert not any(str(a).startswith("LayOff") for a in legal_actions(high))


# --- what the engine's entry points accept: actions, deal, apply, seats -------------------
def test_history_nodes_cannot_be_changed() -> None:
    state = apply(deal(seed=1), Draw(1))
    log = state.move_log
    assert log is not None
    for name in ("prev", "action", "length"):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(log, name, None)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            delattr(log, name)
    assert state.history == (Draw(1),)


@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_action_player_must_be_an_int(bad: object) -> None:
    from sevenbridge import Discard, Pass

    for build in (lambda: Draw(bad), lambda: Pass(bad), lambda: Discard(bad, "7H")):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="player must be an int"):
            build()


def test_action_player_and_target_ranges() -> None:
    from sevenbridge import LayOff
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="player must be from 0 to 4"):
        Draw(-1)
    with pytest.raises(TypeError, match="target must be an int"):
        LayOff(0, "8S", 1.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="target must be from 0 to 52"):
        LayOff(0, "8S", 53)
    assert LayOff(0, "8S", 52).target == 52


def test_an_int_subclass_player_is_stored_as_int() -> None:
    class Seat(int):
        pass

    action = Draw(Seat(1))
    assert type(action.player) is int


def test_apply_and_explain_refuse_an_observation() -> None:
    from sevenbridge import explain, observe

    view = observe(deal(seed=1), 1)
    with pytest.raises(TypeError, match=r"apply\(\) needs a GameState, not Observation"):
        apply(view, Draw(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"explain\(\) needs a GameState"):
        explain(view, Draw(1))


def test_apply_refuses_what_is_not_an_action() -> None:
    state = deal(seed=1)
    for bad in ([1], {"type": "Draw"}, "Draw", None):
        with pytest.raises(TypeError, match="action must be a Draw"):
            apply(state, bad)  # type: ignore[arg-type]


def test_deal_arguments_out_of_range() -> None:
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="players must be from 2 to 5"):
        deal(players=6)
    with pytest.raises(TypeError, match="players must be an int"):
        deal(players=3.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="dealer must be from 0 to 2"):
        deal(players=3, dealer=3)


@pytest.mark.parametrize("seed", [-5, 2**64, -(2**70)])
def test_deal_refuses_seeds_it_could_not_read_back(seed: int) -> None:
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="seeds are 64-bit"):
        deal(seed=seed)


@pytest.mark.parametrize("seat", [-1, 3, 99])
def test_seats_out_of_range_are_refused(seat: int) -> None:
    from sevenbridge import mahjong

    card = deal(seed=1)
    tiles = mahjong.deal(seed=1, players=3)
    view = mahjong.observe(tiles, 0)
    calls = [card.hand, tiles.hand, tiles.melds_of, tiles.is_ghost, view.melds_of]
    for call in calls:
        with pytest.raises(
            InvalidArgumentError, match=rf"(player|seat) must be from 0 to \d, not {seat}"
        ):
            call(seat)
    assert card.hand(2) == card.hands[2] and tiles.hand(2) == tiles.hands[2]


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_seats_of_the_wrong_type_are_refused(seat: object) -> None:
    from sevenbridge import mahjong

    tiles = mahjong.deal(seed=1, players=3)
    for call in (deal(seed=1).hand, tiles.hand, tiles.melds_of, tiles.is_ghost):
        with pytest.raises(TypeError, match="must be an int"):
            call(seat)  # type: ignore[arg-type]

"""explain(), position() and the table drawing."""

from __future__ import annotations

import pytest

from sevenbridge import (
    Chi,
    Discard,
    Draw,
    InvalidStateError,
    LayOff,
    Pass,
    Pon,
    Rules,
    apply,
    deal,
    explain,
    legal_actions,
    observe,
    position,
)

CAN_SHE_PON = """
P0: 9H 2C 3D
P1: 5S 6S 9D
P2: 9C KS 4H KD
melds: P0 7S
discards: 9S
discarder: P1
turn: P2 pon
"""


def test_position_from_text_answers_can_she_pon() -> None:
    state = position(CAN_SHE_PON)
    assert state.current_player == 2 and state.phase.value == "claim"
    assert Pon(2, "9C KS") not in legal_actions(state)
    assert "pon" in explain(state, Pon(2, "9C KS")).lower()
    # With a second nine she could:
    two = position(
        CAN_SHE_PON.replace("P2: 9C KS", "P2: 9C 9D KS").replace("P1: 5S 6S 9D", "P1: 5S 6S")
    )
    assert Pon(2, "9C 9D") in legal_actions(two)
    assert explain(two, Pon(2, "9C 9D")).startswith("Legal. P2 calls pon on P1's discard 9S")


def test_position_is_checked_like_from_json() -> None:
    with pytest.raises(InvalidStateError, match="line 2: 'XX' is not a card"):
        position("P0: 2C\nP1: XX\nturn: P0 play")
    with pytest.raises(InvalidStateError, match="is also in"):
        position("P0: 2C\nP1: 2C\nturn: P0 play")
    with pytest.raises(InvalidStateError, match="unknown key 'colour'"):
        position("colour: red\nP0: 2C\nP1: 3C\nturn: P0 play")
    with pytest.raises(InvalidStateError, match="say whose turn"):
        position("P0: 2C\nP1: 3C")
    with pytest.raises(InvalidStateError, match="a run of two cards is a meld only if"):
        position("P0: 2C\nP1: 3C\nmelds: P0 4S 5S\nturn: P0 play")


def test_position_respects_the_first_turn_rule() -> None:
    text = CAN_SHE_PON.replace("P2: 9C KS", "P2: 9C 9D KS").replace("P1: 5S 6S 9D", "P1: 5S 6S")
    with pytest.raises(InvalidStateError, match="player 2 may not pon yet"):
        position(text + "normal turns: P0 P1\n")


def test_explain_names_each_action_and_each_refusal() -> None:
    state = deal(seed=1)
    assert explain(state, Draw(1)).startswith("Legal. P1 draws")
    assert explain(state, Discard(1, "2C")).startswith("Illegal: a turn begins by drawing")
    drawn = apply(state, Draw(1))
    discard = next(a for a in legal_actions(drawn) if isinstance(a, Discard))
    assert explain(drawn, discard) == f"Legal. P1 discards {discard.card}, ending the turn."
    table = position("rules: seven_rummy\nP0: 7H 8S\nP1: 6S 2D KC\nmelds: P0 7S\nturn: P1 play")
    text = explain(table, LayOff(1, "6S", 0))
    assert "making the run 6S 7S" in text and "now a run for the rest of the deal" in text
    assert explain(table, Chi(1, "2D KC")).startswith("Illegal:")
    assert explain(table, Pass(0)).startswith("Illegal: it is player 1's decision")


def test_explain_going_out() -> None:
    table = position(
        "rules: standard\nP0: 7H 7D 7C 2S\nP1: 6S 2D KC\nturn: P0 play\nnormal turns: P0 P1",
        Rules(),
    )
    done = apply(table, legal_actions(table)[0])
    assert not done.is_over
    text = explain(position("P0: 2S\nP1: 6S 2D KC\nturn: P0 play"), Discard(0, "2S"))
    assert (
        "has no cards left and goes out" in text
        and "at once" in text
        and "Deal scores: P0 36, P1 0" in text
    )


def test_drawings_show_only_what_a_view_may_see() -> None:
    state = deal(seed=2)
    full = str(state)
    view = str(observe(state, 0))
    assert "P1 to draw or chi" in full
    for card in state.hand(1):
        assert str(card) in full.split("\n")[2]
    assert "P1  7 cards" in view and "(you)" in view
    assert repr(state).startswith("<GameState draw, player 1")

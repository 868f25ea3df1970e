"""explain(), position() and the table drawing; the text writers given None."""

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


ABLE_ONLY_PON = (
    "players: 3\nP0: 9C 9D 2S 4H 5H 6D 7D\nP1: 3C 4C 5S 8H 10H QH KS\n"
    "P2: 9S 2D 3D AH AS JC JD\ndiscards: 9H\ndiscarder: P2\nturn: P0 pon"
)


def test_position_asks_whom_the_engines_window_asks_under_able_only() -> None:
    """Under able_only only P0 holds a pon of 9H, so the window asks P0 alone
    (the position once queued P1 too, and refused itself)."""
    able = position(ABLE_ONLY_PON, Rules().replace(claim_window="able_only"))
    assert able.current_player == 0 and able.claim_queue == ()
    every = position(ABLE_ONLY_PON)
    assert every.current_player == 0 and every.claim_queue == (1,)


@pytest.mark.parametrize("window", ["every_eligible", "able_only"])
def test_position_text_of_a_played_claim_window_asks_as_the_engine(window: str) -> None:
    """Claim windows reached by play, written as text and read back: the text's
    window asks the same players, in the same order, as the engine's."""
    import contextlib
    import random

    from sevenbridge import Phase
    from sevenbridge.errors import InvalidArgumentError
    from sevenbridge.text import position_text

    checked = 0
    for preset in ("standard", "seven_rummy"):
        rules = Rules.preset(preset).replace(claim_window=window)
        for seed in range(120):
            rng = random.Random(seed)
            state = deal(rules, players=3 + seed % 3, seed=seed)
            while not state.is_over and checked < 600:
                text = ""
                if state.phase is Phase.CLAIM:
                    with contextlib.suppress(InvalidArgumentError):  # a pon waiting, a reshuffle
                        text = position_text(state)
                if text:
                    again = position(text, rules)
                    assert (again.current_player, again.claim_queue) == (
                        state.current_player,
                        state.claim_queue,
                    ), text
                    assert legal_actions(again) == legal_actions(state)
                    checked += 1
                state = apply(state, rng.choice(legal_actions(state)))
    assert checked >= 100


def test_position_text_reads_back_and_says_what_it_cannot_say() -> None:
    from sevenbridge.errors import InvalidArgumentError
    from sevenbridge.text import position_text

    state = deal(Rules.nintendo(), players=4, seed=9)
    said = 0
    for _ in range(40):
        try:
            text = position_text(state)
        except InvalidArgumentError:
            pass  # a turn begun with a claim, the upcard on the pile...
        else:
            again = position(text, state.rules)
            assert legal_actions(again) == legal_actions(state)
            assert [again.hand(p) for p in range(4)] == [state.hand(p) for p in range(4)]
            assert (again.stock, again.discard_pile, again.melds) == (
                state.stock, state.discard_pile, state.melds
            )  # fmt: skip
            said += 1
        state = apply(state, legal_actions(state)[-1])
    assert said >= 10
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    with pytest.raises(InvalidArgumentError, match="cannot say a deal that is over"):
        position_text(state)
    with pytest.raises(TypeError, match="must be a GameState"):
        position_text("P0: 2C")  # type: ignore[arg-type]


# --- explain() and position() on unclear input; writers given None ------------------------
def test_explain_natural_card_with_joker_as() -> None:
    from sevenbridge import LayOff, explain, position

    table = position(
        """
        P0: 2C 3D 4H
        P1: 8S 9D KC
        P2: 5C 6C 8C
        melds: P1 7S
        turn: P1 play
        """
    )
    text = explain(table, LayOff(1, "8S", 0, joker_as="8S"))
    assert "holds no joker" in text
    assert "single 7" not in text


_BASE = "P0: 2C 3D 4H\nP1: 8S 9D KC\nturn: P1 draw\n"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("dealer: x\n", "dealer is a whole number"),
        ("dealer: ²\n", "dealer is a whole number"),
        ("dealer: 5\n", "dealer must be a player from 0 to 1"),
        ("turns done: ²\n", "turns done is a whole number"),
        ("turns done: " + "9" * 5000 + "\n", "turns done is a whole number"),
        ("players: 3\n", "players says 3, but 2 hands are given"),
        ("P0: 5C\n", "a second line for P0"),
        ("dealer: 0\ndealer: 1\n", "a second 'dealer' line"),
        ("discarder: P٣\n", "is not a player"),
    ],
)
def test_position_refuses_unclear_lines(extra: str, message: str) -> None:
    from sevenbridge import InvalidStateError, position

    with pytest.raises(InvalidStateError, match=message):
        position(_BASE + extra)


def test_position_players_line_that_agrees() -> None:
    from sevenbridge import position

    assert position(_BASE + "players: 2\ndealer: 1\n").dealer == 1


def test_position_rules_twice() -> None:
    from sevenbridge import InvalidStateError, Rules, position

    with pytest.raises(InvalidStateError, match="given as an argument differ"):
        position(_BASE + "rules: nintendo\n", Rules())


def test_position_refuses_over_long_text_at_once() -> None:
    import time

    from sevenbridge import position
    from sevenbridge.errors import InvalidStateError
    from sevenbridge.text import MAX_POSITION_TEXT

    line = " ".join(["7H"] * 7_000_000)
    start = time.perf_counter()
    with pytest.raises(
        InvalidStateError,
        match=rf"position: {len(line) + 5} characters is too long \(at most {MAX_POSITION_TEXT}\)",
    ):
        position(f"P0: {line}\n")
    assert time.perf_counter() - start < 2.0
    # A long but fair position (comments included) is still read.
    fair = "P0: 2C 3D 4H\nP1: 8S 9D KC\nturn: P0 draw\n" + "# a comment\n" * 1000
    assert len(fair) < MAX_POSITION_TEXT
    assert position(fair).players == 2


def test_none_for_a_state_an_action_or_rules() -> None:
    from sevenbridge import format_move, mahjong, record, render

    with pytest.raises(TypeError, match=r"record\(\) needs a GameState, not None"):
        record(None)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match="record needs a mahjong GameState or its actions, not None"
    ):
        mahjong.record(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="render needs a GameState or an Observation, not None"):
        render(None)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="action must be an action, not None"):
        format_move(None)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError,
        match=r"base must be a Rules value, not str; for a preset write Rules\.preset\('x'\)",
    ):
        Rules().changes("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="base must be a mahjong Rules value, not str"):
        mahjong.Rules().changes("x")  # type: ignore[arg-type]
    assert Rules(jokers=1).changes(Rules.preset("standard")) == {"jokers": 1}

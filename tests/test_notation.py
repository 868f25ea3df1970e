"""Move notation: every legal action formats and parses back; bad text is located."""

from __future__ import annotations

import pytest
from hypothesis import given

from sevenbridge import GameState, legal_actions
from sevenbridge.notation import NotationError, format_move, parse_move

from .strategies import reachable_states


@given(reachable_states())
def test_every_legal_action_round_trips_through_notation(state: GameState) -> None:
    for action in legal_actions(state):
        text = format_move(action)
        assert parse_move(text) == action
        assert parse_move(text.lower()) == action
        assert eval(repr(action), vars(__import__("sevenbridge"))) == action


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("", 1, "a move is a player"),
        ("P1", 1, "a move is a player"),
        ("X1 Draw", 1, "is not a player"),
        ("P9 Draw", 1, "is not a player"),
        ("P1 Jump", 4, "is not an action"),
        ("P1 Draw 7H", 9, "takes no cards"),
        ("P1 Discard 7H 8H", 15, "exactly one card"),
        ("P1 Discard 7X", 12, "suit 'X'"),
        ("P1 LayOff 8H", 11, "CARD>MELD"),
        ("P1 LayOff 8H>x", 14, "not a meld number"),
        ("P1 Pon 9D 9D", 11, "named twice (9D)"),
        ("P1 Chi", 7, "needs cards"),
    ],
)
def test_bad_moves_name_the_column(text: str, column: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_move(text, line=3)
    assert info.value.line == 3 and info.value.column == column, str(info.value)
    assert words in str(info.value)


# --- odd digits and over-long moves -------------------------------------------------------
@pytest.mark.parametrize("text", ["P² Draw", "P1 LayOff 8H>²", "P1 Discard ²H", "P٣ Draw"])
def test_parse_move_refuses_unicode_digits(text: str) -> None:
    from sevenbridge.notation import NotationError, parse_move

    with pytest.raises(NotationError):
        parse_move(text)


def test_a_move_naming_a_card_twice_is_refused_at_the_second() -> None:
    import time

    from sevenbridge.notation import NotationError, parse_move

    with pytest.raises(NotationError, match=r"column 18: a card is named twice \(7H\)"):
        parse_move("P0 LayDown 7H 8H 7H 9H")
    start = time.perf_counter()
    with pytest.raises(NotationError, match=r"column 171: a move names at most 53 cards"):
        parse_move("P0 LayDown " + " ".join(["7H"] * 1_000_000))
    assert time.perf_counter() - start < 2.0
    deck = " ".join(
        ["JK", *(f"{r}{s}" for s in "CDHS" for r in ("A", *range(2, 11), "J", "Q", "K"))]
    )
    assert len(parse_move(f"P0 LayDown {deck}").cards) == 53  # type: ignore[union-attr]


def test_a_move_typed_without_its_player_is_read_for_the_seat() -> None:
    """``parse_move(text, player=...)``: the seat's own move without ``P<n>``,
    with it (the same seat), and a library error for another seat's or for a
    player that is no seat; both games read moves alike."""
    from sevenbridge import InvalidArgumentError, parse_move
    from sevenbridge import mahjong as mj

    assert parse_move("  discard 7h ", player=2) == parse_move("P2 Discard 7H")
    assert parse_move("p2 laydown 6s 7s", player=2) == parse_move("P2 LayDown 6S 7S")
    assert parse_move("P2 Draw", player=2) == parse_move("P2 Draw")
    with pytest.raises(InvalidArgumentError, match="is a move of P3, not of P2"):
        parse_move("P3 Draw", player=2)
    for wrong in (-1, 10, True, "2", 2.0):
        with pytest.raises(InvalidArgumentError, match="seat number"):
            parse_move("Draw", player=wrong)  # type: ignore[arg-type]
    assert mj.parse_move("Chow 46m", player=1) == mj.parse_move("P1 Chow 46m")
    with pytest.raises(InvalidArgumentError, match="not of P1"):
        mj.parse_move("P0 Draw", player=1)
    import pickle

    try:
        parse_move("P3 Draw", player=2)
    except InvalidArgumentError as error:
        assert str(pickle.loads(pickle.dumps(error))) == str(error)

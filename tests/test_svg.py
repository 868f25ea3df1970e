"""SVG drawings: pinned text, well-formed XML over thousands of positions, what
each drawing shows, and the names and sizes they refuse (both games)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from sevenbridge import (
    Card,
    Discard,
    GameState,
    InvalidArgumentError,
    Meld,
    Rules,
    apply,
    deal,
    hand_points,
    legal_actions,
    observe,
    position,
    svg,
)
from sevenbridge._kit import svgkit
from sevenbridge.bots import GreedyPlayer

from .strategies import varied_states
from .svgcheck import (
    NS,
    assert_golden,
    assert_shown_inline,
    check_svg,
    count_rects,
    description,
    hidden_count,
    random_play,
)

GOLDEN = Path(__file__).parent / "golden" / "svg"


def greedy_position(preset: str, players: int, seed: int, steps: int) -> GameState:
    state = deal(Rules.preset(preset), players=players, seed=seed)
    bot = GreedyPlayer(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = apply(state, bot(state))
    return state


def _golden_cases() -> dict[str, str]:
    mid = greedy_position("nintendo", 4, 72, 41)
    end = greedy_position("nintendo", 4, 72, 500)
    return {
        "card-7H.svg": svg.card("7H"),
        "card-QD-four-colour.svg": svg.card(Card.parse("QD"), four_color=True),
        "card-back.svg": svg.card("2C", face_down=True),
        "hand.svg": svg.hand("AS 10H 7D QC JK"),
        "meld-joker.svg": svg.meld("4S 5S JK=6S"),
        "table-state.svg": svg.table(mid),
        "table-view-four-colour.svg": svg.table(observe(mid, 0), four_color=True),
        "table-over-ja.svg": svg.table(end, lang="ja", names=["Aki", "Ben", "Chie", "Dan"]),
    }


@pytest.mark.parametrize("name", sorted(_golden_cases()))
def test_golden_svg(name: str) -> None:
    assert_golden(GOLDEN, name, _golden_cases()[name])


def _backs(root: ET.Element) -> int:
    return count_rects(root, svgkit.BACK)


def _check(picture: str, position: GameState | object) -> ET.Element:
    return check_svg(picture)


def test_thousands_of_random_positions_are_well_formed_and_show_the_right_cards() -> None:
    positions = 0
    for preset in Rules.presets():
        for players in (2, 3, 4, 5):
            start = deal(Rules.preset(preset), players=players, seed=0)
            for state in random_play(start, legal_actions, apply, 0):
                root = _check(svg.table(state), state)
                assert _backs(root) == (1 if state.stock_size else 0)
                view = observe(state, positions % players)
                root = _check(svg.table(view, four_color=positions % 2 == 0), view)
                hidden = hidden_count(view.hand_sizes, view.viewer, view.shown_hands)
                assert _backs(root) == hidden + (1 if state.stock_size else 0)
                positions += 1
    assert positions >= 2000, positions
    print(f"{positions} positions drawn, twice each")


@given(varied_states())
def test_varied_positions_draw_in_both_languages(state: GameState) -> None:
    for lang in ("en", "ja"):
        text = description(_check(svg.table(state, lang=lang), state))
        for p in range(state.players):
            assert f"P{p}" in text


def test_the_table_shows_every_card_of_a_state_face_up() -> None:
    state = greedy_position("nintendo", 4, 72, 41)
    text = svg.table(state)
    desc = ET.fromstring(text).find(f"{NS}desc")
    assert desc is not None and desc.text
    for p in range(state.players):
        for c in state.hand(p):
            assert svg.card_name(c) in desc.text
    for m in state.melds:
        assert svg._meld_desc(m, None) in desc.text


def test_a_view_hides_the_other_hands() -> None:
    state = greedy_position("standard", 3, 5, 10)
    view = observe(state, 0)
    desc = ET.fromstring(svg.table(view)).find(f"{NS}desc")
    assert desc is not None and desc.text
    assert "P0 (you)" in desc.text
    for c in state.hand(1) + state.hand(2):
        if c not in state.hand(0):
            assert f" {svg.card_name(c)}," not in desc.text
    assert desc.text.count("face down") == 2


def test_the_last_action_is_highlighted() -> None:
    state = deal(Rules(), players=3, seed=4)
    assert f'fill="{svgkit.HIGHLIGHT}"/>' not in svg.table(state)  # no frame before any move
    state = apply(state, legal_actions(state)[0])  # draw
    discard = legal_actions(state)[-1]
    assert isinstance(discard, Discard)
    after = apply(state, discard)
    text = svg.table(after)
    assert f"P{discard.player} discards {format(discard.card, 'u')}" in text
    assert f'fill="{svgkit.HIGHLIGHT}"/>' in text  # the frame around the top discard


def test_the_joker_shows_what_it_stands_for() -> None:
    text = svg.meld(Meld.parse("4S 5S JK=6S"))
    assert "joker as 6 of spades" in text
    assert ">6</text>" in text


def test_the_joker_tag_is_large_and_unlike_a_natural_card() -> None:
    """The card a joker stands for is written large, in white on the joker's
    purple (no natural card looks so), not as a small "=J♠" beside a real J♠."""
    text = svg.meld(Meld.parse("10S JK=JS QS", Rules(jokers=1)))
    tag = re.search(
        r'<rect x="2" y="26" width="30" height="54" rx="4" fill="#6a3d9a"/>'
        r'<text[^>]*font-size="([0-9]+)"[^>]*fill="#ffffff">J</text>',
        text,
    )
    assert tag is not None and int(tag.group(1)) >= 17
    assert "=J" not in text
    # Inside the part of the card a table's meld leaves visible (33 of its 60 units).
    assert 2 + 30 <= 20 / 0.6
    natural = svg.card("JS")
    assert 'fill="#ffffff">J</text>' not in natural and "#6a3d9a" not in natural


def test_a_divider_sets_the_hand_apart_from_the_melds() -> None:
    state = position("""
        P0: 2C 3D 9S
        P1: 4D 6D KD
        melds: P0 6H 7H 8H; P0 9C 10C JC; P0 QD QH QS; P0 5S 6S 7S 8S; P0 2H 3H 4H
        turn: P1 draw
    """)
    text = svg.table(state)
    dividers = re.findall(r'<rect x="([0-9.]+)" y="([0-9.]+)" width="2" height="([0-9.]+)"', text)
    assert len(dividers) == 1  # P0 alone has melds
    x, _y, tall = (float(v) for v in dividers[0])
    # Every meld of P0 lies right of the divider, its rows under one another.
    melds = [
        float(m)
        for m in re.findall(r'<g transform="translate\(([0-9.]+) [0-9.]+\) scale\(0.6\)">', text)
    ]
    hand_x, meld_xs = melds[0], melds[1:6]
    assert hand_x < x and all(mx > x for mx in meld_xs)
    assert tall > 60  # the melds wrapped into a second row, and the divider spans both
    # A wide hand puts the melds on rows below it, under a line across the panel.
    wide = position(
        """
        P0: 2D 3D 4D 5D 6D 8D 9D 10D
        P1: 2H 3H 4H
        melds: P0 AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC
        turn: P0 play
        """
    )
    line = re.findall(r'<rect x="14" y="[0-9.]+" width="([0-9.]+)" height="2"', svg.table(wide))
    assert len(line) == 1 and float(line[0]) > 400


def test_long_names_are_cut_with_an_ellipsis() -> None:
    long = "Bartholomew the Magnificent of the Northern Marches"
    text = svg.table(deal(seed=2), names=[long, "Ann", "Bo"])
    labels = re.findall(r'font-weight="bold" fill="#ffffff">([^<]*)</text>', text)
    seat = next(label for label in labels if label.startswith("Bartholomew"))
    assert seat.split(" · ")[0].endswith("…") and long not in seat
    assert all(svgkit.em(label) <= 41 for label in labels)
    heading = labels[0]
    assert heading.endswith("…") or svgkit.em(heading) <= 41
    assert svgkit.clip("Ann", 18) == "Ann"


def test_the_last_move_and_the_end_use_the_seat_names() -> None:
    state = greedy_position("nintendo", 4, 72, 500)
    assert state.is_over and state.winner is not None
    names = ["Aki", "Ben", "Chie", "Dan"]
    text = svg.table(state, names=names)
    winner = names[state.winner]
    assert f"Seven Bridge · nintendo rules · {winner} went out</text>" in text
    assert not re.search(r">P[0-9] ", text)  # every sentence names the seats by name
    # Each loser's hand: its points, and why, for screen readers; the result says what they mean.
    desc = text.split("<desc>")[1].split("</desc>")[0]
    assert "under nintendo card values" in desc
    assert "result: Deal penalty points: " in desc
    assert "the lowest total wins" in text
    for p in range(4):
        if p != state.winner:
            points = hand_points(state.hand(p), state.rules)
            assert f"{names[p]} · " in text and f" · {points} point" in text
    # A player's view says "you".
    mine = svg.table(observe(state, state.winner))
    assert "You went out" in mine


def test_four_colours_differ_for_every_suit() -> None:
    colours = {svg.FOUR_COLOURS[s] for s in svg.FOUR_COLOURS}
    assert len(colours) == 4
    assert svg.card("2D", four_color=True) != svg.card("2D")
    assert svg.FOUR_COLOURS[Card.parse("2D").suit] in svg.card("2D", four_color=True)  # type: ignore[index]


def test_japanese_labels() -> None:
    state = greedy_position("nintendo", 4, 72, 41)
    text = svg.table(state, lang="ja")
    for word in ("山札", "捨て札", "任天堂ルール", "セブンブリッジ", "直前の手"):
        assert word in text
    words = "".join(ET.fromstring(text).itertext())  # what a reader sees, not the ids
    assert "stock" not in words and "discard pile" not in words


def test_bad_arguments_get_clear_errors() -> None:
    state = deal(seed=1)
    with pytest.raises(TypeError, match="position must be a GameState or an Observation"):
        svg.table("P0: 2C")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="names: give 3 names"):
        svg.table(state, names=["a", "b"])
    with pytest.raises(InvalidArgumentError, match="lang must be one of en, ja, not 'xx'"):
        svg.table(state, lang="xx")
    with pytest.raises(TypeError, match="lang must be a string"):
        svg.card("7H", lang=5)  # type: ignore[arg-type]


def test_repr_svg_of_the_values_goes_through_the_drawings() -> None:
    state = greedy_position("standard", 3, 72, 30)
    assert state._repr_svg_() == svg.table(state)
    assert observe(state, 1)._repr_svg_() == svg.table(observe(state, 1))
    assert Card.parse("7H")._repr_svg_() == svg.card("7H")
    meld = Meld.parse("6H 7H 8H")
    assert meld._repr_svg_() == svg.meld(meld)


def test_values_and_drawings_show_as_inline_pictures_in_a_notebook() -> None:
    state = greedy_position("standard", 3, 72, 30)
    meld = Meld.parse("6H 7H 8H")
    shown = [
        (Card.parse("7H"), svg.card("7H")),
        (meld, svg.meld(meld)),
        (state, svg.table(state)),
        (observe(state, 1), svg.table(observe(state, 1))),
        # The drawings themselves, a hand of cards among them: str that show as pictures.
        (svg.hand(state.hand(0)), svg.hand(state.hand(0))),
        (svg.card("QS", face_down=True), svg.card("QS", face_down=True)),
        (svg.meld("4S 5S JK=6S"), svg.meld("4S 5S JK=6S")),
        (svg.table(state), svg.table(state)),
    ]
    assert_shown_inline(shown)


def test_the_pictures_in_the_docs_are_current() -> None:
    from .docs_pictures import PICTURES

    static = Path(__file__).parent.parent / "docs" / "_static"
    if not static.exists():
        pytest.skip("no docs folder (testing an installed package)")
    for name, make in PICTURES.items():
        assert (static / name).read_text(encoding="utf-8") == make(), (
            f"docs/_static/{name} is stale: run python tools/screenshots.py"
        )


def test_long_labels_wrap_by_width() -> None:
    assert svgkit.wrap("P1 discarded Queen of hearts", 14.5) == ["P1 discarded Queen of", "hearts"]
    assert svgkit.wrap("P0がスペードの3を捨てた", 14.5) == ["P0がスペードの3を捨てた"]
    lines = svgkit.wrap("P0がスペードのクイーンを場のメルドに付けた", 14.5)
    assert len(lines) == 2 and all(svgkit.em(line) <= 14.5 for line in lines)
    assert "".join(lines) == "P0がスペードのクイーンを場のメルドに付けた"


def test_four_color_is_taken_by_its_truth_as_any_flag() -> None:
    """The card drawings are kept under their colours; a truthy or falsy value
    that is no bool (even an unhashable one) draws as True or False does."""
    state = deal(seed=1)
    empty: Any = []
    full: Any = [1]
    assert svg.table(state, four_color=empty) == svg.table(state)
    assert svg.table(state, four_color=full) == svg.table(state, four_color=True)
    assert svg.card("7H", four_color=full) == svg.card("7H", four_color=True)
    assert svg.hand("7H 8D", four_color=empty) == svg.hand("7H 8D")
    assert svg.meld("7H 7D 7S", four_color=full) == svg.meld("7H 7D 7S", four_color=True)


# --- names and sizes the drawings refuse --------------------------------------------------
def _drawing_modules() -> list[Any]:
    from sevenbridge import mahjong, svg
    from sevenbridge.mahjong import svg as mahjong_svg

    return [(svg, deal(seed=2), "7H"), (mahjong_svg, mahjong.deal(seed=2), "5p")]


@pytest.mark.parametrize("bad", ["a\x00b", "\x1b[31mred", "lone \ud800", "\ufffe", "tab\x0bv"])
def test_svg_refuses_names_xml_cannot_carry(bad: str) -> None:
    for module, state, _one in _drawing_modules():
        names = [f"P{p}" for p in range(len(state.hands))]
        names[1] = bad
        with pytest.raises(InvalidArgumentError, match=r"names\[1\].*XML 1\.0"):
            module.table(state, names=names)


def test_svg_escapes_the_names_it_can_carry() -> None:
    from xml.etree import ElementTree

    for module, state, _one in _drawing_modules():
        names = ['<b>&"x"', "tab\tand\nnewline", "emoji 🀄 and ﬀ", "\x7f\x85"] + ["P"] * 3
        picture = module.table(state, names=names[: len(state.hands)])
        root = ElementTree.fromstring(picture)
        assert '<b>&"x"' in "".join(root.itertext())


@pytest.mark.parametrize("size", [float("nan"), float("inf"), -60, 0, 1e300, -0.0])
def test_svg_refuses_sizes_out_of_range(size: float) -> None:
    from sevenbridge import mahjong, svg
    from sevenbridge.mahjong import svg as mahjong_svg

    drawings: list[Callable[[], str]] = [
        lambda: svg.table(deal(seed=2), size=size),
        lambda: svg.card("7H", size=size),
        lambda: svg.hand("7H 8H", size=size),
        lambda: svg.meld("7H 8H 9H", size=size),
        lambda: mahjong_svg.table(mahjong.deal(seed=2), size=size),
        lambda: mahjong_svg.tile("5p", size=size),
        lambda: mahjong_svg.hand("5p 6p", size=size),
        lambda: mahjong_svg.meld("555p", size=size),
    ]
    for draw in drawings:
        with pytest.raises(InvalidArgumentError, match="size must be above 0"):
            draw()


@pytest.mark.parametrize("size", ["100", True, [60]])
def test_svg_refuses_sizes_that_are_no_number(size: object) -> None:
    for module, state, _one in _drawing_modules():
        with pytest.raises(TypeError, match="size must be a number"):
            module.table(state, size=size)


def test_a_table_without_a_size_takes_its_layouts_width() -> None:
    for module, state, _one in _drawing_modules():
        assert module.table(state, size=None) == module.table(state, size=720)


def test_svg_sizes_in_range() -> None:
    for module, state, _one in _drawing_modules():
        assert 'width="1"' in module.table(state, size=1)
        assert 'width="100000"' in module.table(state, size=100_000)
        assert 'width="720"' in module.table(state, size=720.0)


def test_svg_of_no_card_or_tile() -> None:
    from sevenbridge import svg
    from sevenbridge.errors import InvalidCardError, InvalidTileError
    from sevenbridge.mahjong import svg as mahjong_svg

    for text in ("", "7H 8H"):
        with pytest.raises(InvalidCardError, match="is not a card"):
            svg.card(text)
    for text in ("", "5p 6p"):
        with pytest.raises(InvalidTileError, match="is not a tile"):
            mahjong_svg.tile(text)

"""``sevenbridge view`` and :func:`record_page` for Simple Mahjong records, and a
failed ``view`` leaving no file behind, for either game."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import mahjong
from sevenbridge.cli import main
from sevenbridge.html import record_game, record_page
from sevenbridge.mahjong import svg

from . import browser as chromium


def _round() -> str:
    bots = [mahjong.GreedyPlayer(seed=s) for s in range(3)]
    state = mahjong.deal(players=3, seed=4)
    while not state.is_over:
        state = mahjong.apply(state, bots[state.current_player](mahjong.observe(state)))
    return mahjong.record(state)


def _match() -> str:
    rules = mahjong.Rules.preset("standard")
    bots = [mahjong.GreedyPlayer(seed=s) for s in range(2)]
    return mahjong.record_match(mahjong.play_match(bots, rules=rules, seed=2))


def test_the_game_of_a_record_is_read_from_its_tag() -> None:
    from sevenbridge import deal, record

    assert record_game(_round()) == "mahjong"
    assert record_game(record(deal(seed=1))) == "seven_bridge"


def test_a_mahjong_round_page_has_every_position_from_every_seat() -> None:
    text = _round()
    page = record_page(text)
    states = mahjong.replay(text)
    assert "Simple Mahjong replay: 3 players" in page
    told = [
        k
        for first, last in re.findall(r'<li[^>]*data-first="([0-9]+)" data-last="([0-9]+)"', page)
        for k in range(int(first), int(last) + 1)
    ]
    assert told == list(range(len(states)))
    assert (
        '<li class="deal" data-first="0" data-last="0"><span class="said">Round 1</span>'
        '<span class="quiet"></span></li>' in page
    )
    assert "P1 discards " in page
    assert page.count("<option") == 1 + 3


def test_a_mahjong_match_page_starts_each_round() -> None:
    text = _match()
    page = record_page(text, lang="ja")
    assert page.count('<li class="deal"') == text.count("[Round ")


def _run(argv: list[str]) -> int:
    import sys

    saved, sys.stdout = sys.stdout, io.StringIO()
    try:
        return main(argv)
    finally:
        sys.stdout = saved


def test_view_writes_a_mahjong_page(tmp_path: Path) -> None:
    game = tmp_path / "round.txt"
    game.write_text(_round(), encoding="utf-8")
    out = tmp_path / "round.html"
    assert _run(["view", str(game), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == record_page(game.read_text(encoding="utf-8"))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("kind", ["cards", "mahjong"])
def test_a_failed_view_leaves_no_file_and_an_old_one_as_it_was(tmp_path: Path, kind: str) -> None:
    bad = tmp_path / "bad.txt"
    text = _round() if kind == "mahjong" else '[Game "Seven Bridge"]\n[Players "3"]\n\nP0 Fly\n'
    bad.write_text(text.replace("Discard", "Dscard", 1), encoding="utf-8")
    out = tmp_path / "bad.html"
    assert _run(["view", str(bad), "-o", str(out)]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"]
    out.write_text("old", encoding="utf-8")
    assert _run(["view", str(bad), "-o", str(out)]) == 1
    assert out.read_text(encoding="utf-8") == "old"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium.browser()


def test_the_mahjong_viewer_steps_to_the_final_table(browser: Any, tmp_path: Path) -> None:
    text = _round()
    states = mahjong.replay(text)
    last = len(states) - 1
    page_file = tmp_path / "round.html"
    page_file.write_text(record_page(text), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#count") == f"0 / {last}"
    page.click("#end")
    assert page.inner_text("#count") == f"{last} / {last}"
    board = page.inner_html("#board")
    assert board.replace("'", '"')[:200] == svg.table(states[-1])[:200].replace("'", '"')
    page.select_option("#seat", "2")
    desc = svg.table(mahjong.observe(states[-1], states[-1].real_seats[1]))
    assert page.text_content("#board desc") == desc.split("<desc>")[1].split("</desc>")[0]
    page.close()

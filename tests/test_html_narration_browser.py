"""The replay viewer's words in headless Chromium: each step is told above the
table and in the move list, from the point of view chosen; on a phone (390 px)
both games are drawn in the narrow layout, no board text under 12 CSS px."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sevenbridge.html import record_page

from . import browser as chromium
from .docs_pictures import claim_round
from .test_html import greedy_record
from .test_svg_narrow_browser import page_measures


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium.browser()


def _open(browser: Any, tmp_path: Path, text: str, width: int, lang: str = "en") -> Any:
    page_file = tmp_path / f"page-{lang}.html"
    page_file.write_text(record_page(text, lang=lang), encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    return page


def test_a_claim_that_gives_way_is_told_from_each_point_of_view(
    browser: Any, tmp_path: Path
) -> None:
    page = _open(browser, tmp_path, claim_round(), 1100)
    page.keyboard.press("End")
    # All hands: every claim of the window, and whose chow gave way.
    said = page.inner_text("#said")
    assert "P1 declares mahjong on P3's 6m, winning 1 point" in said
    assert "P0's chow gives way" in said and "P1 calls mahjong" not in said
    assert page.inner_text("#moves li.now") == said
    # P0's view: its own chow (the line before), then the win and its chow giving way.
    page.select_option("#seat", "1")
    said = page.inner_text("#said")
    assert said.splitlines() == [
        "P1 answers the claim window",
        "P1 declares mahjong on P3's 6m, winning 1 point",
        "Your chow gives way",
    ]
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#said").startswith("You call chow on P3's 6m with")
    # P2's view: P0's chow was a secret answer, and stays one.
    page.select_option("#seat", "3")
    assert page.inner_text("#said") == "P0 answers the claim window"
    page.keyboard.press("ArrowRight")
    assert "gives way" not in page.inner_text("#said")
    moves = page.inner_text("#moves")
    assert "You call chow" not in moves and "P0 calls chow" not in moves
    page.close()


def test_draws_are_told_to_the_seat_that_drew(browser: Any, tmp_path: Path) -> None:
    """The card game: from P0's seat, its draw names the card; from another
    seat it does not; the all-hands view names every card drawn; in Japanese too."""
    text = greedy_record()
    page = _open(browser, tmp_path, text, 1100)
    page.keyboard.press("ArrowRight")
    everyone = page.inner_text("#said")
    assert everyone.startswith("P0 draws ") and "stock" not in everyone
    page.select_option("#seat", "1")
    assert page.inner_text("#said") == everyone.replace("P0 draws", "You draw")
    page.select_option("#seat", "2")
    assert page.inner_text("#said") == "P0 draws from the stock"
    # A line with passes folded into it: above the table, each step tells the
    # passes made so far, none yet at the discard.
    folded = page.locator("#moves li:not([data-first='0'])").filter(has_text=" pass").first
    first = int(folded.get_attribute("data-first") or -1)
    last = int(folded.get_attribute("data-last") or -1)
    assert last > first
    folded.click()
    discard = page.inner_text("#said")
    assert " · " not in discard and discard == folded.locator(".said").inner_text()
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#said").startswith(discard + " · ")
    page.close()
    page = _open(browser, tmp_path, text, 1100, lang="ja")
    page.keyboard.press("ArrowRight")
    page.select_option("#seat", "2")
    assert page.inner_text("#said") == "P0が山札から引いた"
    page.close()


@pytest.mark.parametrize("game", ["seven_bridge", "mahjong"])
def test_on_a_phone_the_table_is_narrow_and_told_above(
    browser: Any, tmp_path: Path, game: str
) -> None:
    text = greedy_record() if game == "seven_bridge" else claim_round()
    page = _open(browser, tmp_path, text, 390)
    page.select_option("#seat", "1")
    for key in ("ArrowRight", "End"):
        page.keyboard.press(key)
        assert page.get_attribute("#board", "data-layout") == "narrow"
        found = page_measures(page)
        assert found["font"] >= 12 and found["over"] <= 0.5, found
        said = page.locator("#said").bounding_box()
        board = page.locator("#board").bounding_box()
        assert said is not None and board is not None
        assert said["y"] + said["height"] <= board["y"] and page.inner_text("#said")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()

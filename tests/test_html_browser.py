"""The replay viewer in headless Chromium: it steps through a real record to
the final table, by buttons, keys and the move list, from any seat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import observe, replay, svg
from sevenbridge.html import record_page

from . import browser as chromium
from .pngread import pixels
from .test_html import greedy_record


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium.browser()


def _desc(picture: str) -> str:
    return picture.split("<desc>")[1].split("</desc>")[0]


def test_the_viewer_steps_to_the_final_table(browser: Any, tmp_path: Path) -> None:
    text = greedy_record()
    states = replay(text)
    last = len(states) - 1
    page_file = tmp_path / "game.html"
    page_file.write_text(record_page(text), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#count") == f"0 / {last}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.click("#next")
    assert page.inner_text("#count") == f"3 / {last}"
    assert page.text_content("#board desc") == _desc(svg.table(states[3]))
    page.click("#end")
    assert page.inner_text("#count") == f"{last} / {last}"
    final = states[-1]
    assert final.is_over
    shown = page.text_content("#board desc")
    assert shown == _desc(svg.table(final))
    assert f"deal over: {final.end_reason}" in page.text_content("#board title")
    # The final table as a player saw it.
    page.select_option("#seat", "2")
    assert page.text_content("#board desc") == _desc(svg.table(observe(final, 1)))
    # Keys and the move list move back.
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#count") == f"{last - 1} / {last}"
    page.click("#moves li:nth-child(6)")
    assert page.inner_text("#count") == f"5 / {last}"
    assert page.inner_text("#moves li.now") == page.inner_text("#moves li:nth-child(6)")
    page.keyboard.press("Home")
    assert page.inner_text("#count") == f"0 / {last}"
    page.keyboard.press("End")
    width, height, rgb = pixels(page.locator("#board svg").screenshot())
    assert width > 600 and height > 300
    assert len(set(rgb)) > 50  # a drawn table, not a blank box
    page.close()


def test_no_request_leaves_the_page(browser: Any, tmp_path: Path) -> None:
    page_file = tmp_path / "game.html"
    page_file.write_text(record_page(greedy_record(seed=5, preset="standard", players=3)))
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    page.click("#end")
    assert requests == [page_file.as_uri()]
    page.close()

"""The replay viewer in headless Chromium: it steps through a real record to
the final table, by buttons, keys and the move list, from any seat."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from benchmarks import bench_view

from sevenbridge import GameState, mahjong, observe, replay, svg
from sevenbridge.html import record_page
from sevenbridge.mahjong import svg as mahjong_svg

from . import browser as chromium
from .pngread import pixels
from .test_html import greedy_record
from .test_html_games import _round as _mahjong_round
from .test_svg_narrow_browser import page_measures


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
    assert f"P{final.winner} went out" in page.text_content("#board title")
    # The final table as a player saw it.
    page.select_option("#seat", "2")
    assert page.text_content("#board desc") == _desc(svg.table(observe(final, 1)))
    # Keys and the move list move back.
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#count") == f"{last - 1} / {last}"
    page.click("#moves li:nth-child(6)")
    first = page.get_attribute("#moves li:nth-child(6)", "data-first")
    assert page.inner_text("#count") == f"{first} / {last}"
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


#: Steps through the page with its own controls (the seat menu, Home and the
#: right arrow), from every seat, and gives each position's number, the drawing's
#: title, description and whole text, and how many elements it has.
_WALK = """() => {
  document.getElementById("board").style.display = "none";  // no layout: faster
  const seat = document.getElementById("seat");
  const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", {key: k}));
  const seen = [];
  for (const option of seat.options) {
    seat.value = option.value;
    seat.dispatchEvent(new Event("change"));
    key("Home");
    const rows = [];
    for (;;) {
      const board = document.getElementById("board");
      rows.push([Number(document.body.dataset.position),
                 board.querySelector("title").textContent,
                 board.querySelector("desc").textContent,
                 board.textContent,
                 board.getElementsByTagName("*").length]);
      const before = document.body.dataset.position;
      key("ArrowRight");
      if (document.body.dataset.position === before) break;
    }
    seen.push(rows);
  }
  return seen;
}"""


def _hand_words(game: str, view: Any, seat: int) -> str:
    """A seat's concealed hand in words, as the engine holds it."""
    if game == "mahjong":
        hand = view.hands[seat] if isinstance(view, mahjong.GameState) else view.hand
        return ", ".join(mahjong_svg.tile_name(t) for t in hand)
    hand = view.hand(seat) if isinstance(view, GameState) else view.hand
    return ", ".join(svg.card_name(c) for c in hand)


@pytest.mark.parametrize("game", ["seven_bridge", "mahjong"])
def test_every_position_from_every_seat_is_the_engines(
    browser: Any, tmp_path: Path, game: str
) -> None:
    """Stepping through a deal with reshuffles (or a round), the page shows each
    position as the engine has it, from every seat: the drawing's title and
    description are the drawing of that position, and each hand that seat may
    see holds the engine's cards."""
    if game == "mahjong":
        text = _mahjong_round()
        states: list[Any] = mahjong.replay(text)
        seats = list(states[0].real_seats)
        see: Any = mahjong.observe
        draw: Any = mahjong_svg.table
    else:
        text = bench_view.long_deal(reshuffles=1)
        states = replay(text)
        seats = list(range(states[0].players))
        see, draw = observe, svg.table
    page_file = tmp_path / "game.html"
    page_file.write_text(record_page(text), encoding="utf-8")
    page = browser.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    seen = page.evaluate(_WALK)
    page.close()
    assert len(seen) == 1 + len(seats)
    for v, rows in enumerate(seen):
        assert [row[0] for row in rows] == list(range(len(states)))
        for (_, title, desc, words, elements), state in zip(rows, states, strict=True):
            view = state if v == 0 else see(state, seats[v - 1])
            picture = draw(view)
            assert title == unescape(picture.split("<title>")[1].split("</title>")[0])
            assert desc == unescape(_desc(picture))
            assert words == unescape(re.sub(r"<[^>]*>", "", picture))
            assert elements == picture.count("<") - picture.count("</")
            for p in seats if v == 0 else [seats[v - 1]]:
                assert _hand_words(game, view, p) in desc


def test_the_viewer_fits_a_phone_and_steps_by_tap_swipe_and_autoplay(
    browser: Any, tmp_path: Path
) -> None:
    """At 390 x 844 the move list is under the table, which keeps most of the
    width; a tap on the table's right half steps forward, on its left half
    back, a swipe steps too, and Play steps on by itself until paused."""
    text = greedy_record()
    page_file = tmp_path / "game.html"
    page_file.write_text(record_page(text), encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    board = page.locator("#board").bounding_box()
    moves = page.locator("#moves").bounding_box()
    assert board is not None and moves is not None
    assert board["width"] >= 350
    assert moves["y"] >= board["y"] + board["height"]  # the list is below the table
    assert moves["width"] >= 350
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    # The table in its narrow layout, readable as drawn: no text under 12 px,
    # no card of a meld narrower than 28 (at the end of the deal).
    assert page.get_attribute("#board", "data-layout") == "narrow"
    page.keyboard.press("End")
    # Stepping scrolls the move list to the move, not the page away from the table.
    assert page.evaluate("window.scrollY") == 0
    seen = page.evaluate(
        "(() => { const l = document.getElementById('moves').getBoundingClientRect();"
        " const n = document.querySelector('#moves li.now').getBoundingClientRect();"
        " return n.top >= l.top - 1 && n.bottom <= l.bottom + 1; })()"
    )
    assert seen
    found = page_measures(page)
    assert found["font"] >= 12 and found["over"] <= 0.5, found
    assert found["cards"] and found["card"] >= 28, found
    page.keyboard.press("Home")
    # The step buttons sit on one row.
    tops = {
        round(page.locator(f"#{b}").bounding_box()["y"])
        for b in ("first", "prev", "next", "end", "play")
    }
    assert len(tops) == 1
    # Taps: the right half forward, the left half back.
    middle = board["height"] / 2
    page.tap("#board", position={"x": board["width"] * 0.8, "y": middle})
    page.tap("#board", position={"x": board["width"] * 0.8, "y": middle})
    assert page.inner_text("#count").startswith("2 / ")
    page.tap("#board", position={"x": board["width"] * 0.2, "y": middle})
    assert page.inner_text("#count").startswith("1 / ")
    # A swipe to the left steps forward.
    x, y = board["x"] + board["width"] * 0.8, board["y"] + middle
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 150, y, steps=5)
    page.mouse.up()
    assert page.inner_text("#count").startswith("2 / ")
    # Play steps on by itself; Pause stops it.
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "true"
    page.wait_for_function("Number(document.body.dataset.position) >= 4", timeout=10_000)
    page.click("#play")
    stopped = page.evaluate("Number(document.body.dataset.position)")
    page.wait_for_timeout(1500)
    assert page.evaluate("Number(document.body.dataset.position)") == stopped
    assert page.get_attribute("#play", "aria-pressed") == "false"
    # The line of the move list that tells the position shown is highlighted.
    now = page.locator("#moves li.now")
    first = int(now.get_attribute("data-first") or -1)
    last = int(now.get_attribute("data-last") or -1)
    assert first <= stopped <= last
    context.close()

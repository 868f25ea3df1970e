"""The narrow layout on a phone: drawings of both games shown 390 CSS pixels
wide (a 390 x 844 window) in headless Chromium, measured as drawn, after every
scaling: no text smaller than 12 pixels, no card or tile of a meld narrower
than 28, no text past the drawing's edge."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sevenbridge import mahjong as mj
from sevenbridge import observe, svg
from sevenbridge._kit import svgkit
from sevenbridge.mahjong import svg as mj_svg

from . import browser as chromium
from .mahjong.test_svg import greedy_position as mahjong_position
from .test_svg import greedy_position

#: What the page measures: the smallest font size and meld card's width in CSS
#: pixels, and how far any text reaches past the drawing's right edge.
MEASURE = """
([highlight, selector]) => {
  const svg = document.querySelector(selector);
  const edge = svg.getBoundingClientRect().right;
  let font = Infinity, over = -Infinity, card = Infinity, texts = 0, cards = 0;
  for (const t of svg.querySelectorAll("text")) {
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    font = Math.min(font, px);
    over = Math.max(over, t.getBoundingClientRect().right - edge);
    texts += 1;
  }
  for (const g of svg.querySelectorAll('[data-place="meld"]')) {
    const face = [...g.children].find((r) => r.tagName === "rect" && r.getAttribute("fill") !== highlight);
    const box = face.getBoundingClientRect();
    card = Math.min(card, box.width, box.height);
    cards += 1;
  }
  return {font, over, card, texts, cards, width: svg.getBoundingClientRect().width};
}
"""


def page_measures(page: Any, selector: str = "#board svg") -> dict[str, float]:
    """:data:`MEASURE` of the drawing ``selector`` finds on ``page``."""
    found: dict[str, float] = page.evaluate(MEASURE, [svgkit.HIGHLIGHT, selector])
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium.browser()


def _card_positions() -> list[tuple[str, str]]:
    out = []
    for preset, players, seed, steps in (("nintendo", 4, 72, 41), ("standard", 5, 9, 500)):
        state = greedy_position(preset, players, seed, steps)
        names = ["Bartholomew the Magnificent", *(f"P{p}" for p in range(1, players))]
        out.append((f"{preset} state", svg.table(state, layout="narrow", four_color=True)))
        out.append(
            (
                f"{preset} view ja",
                svg.table(observe(state, 1), layout="narrow", lang="ja", names=names),
            )
        )
    return out


def _mahjong_positions() -> list[tuple[str, str]]:
    out = []
    for seed, steps, players in ((5, 60, 4), (8, 10_000, 2), (6, 45, 3)):
        rules = mj.Rules.full() if players == 2 else mj.Rules()
        state = mahjong_position(seed, steps, players, rules)
        out.append((f"mahjong {seed} state", mj_svg.table(state, layout="narrow")))
        out.append(
            (
                f"mahjong {seed} view ja",
                mj_svg.table(mj.observe(state, 0), layout="narrow", lang="ja"),
            )
        )
    return out


@pytest.mark.parametrize(
    ("name", "picture"), _card_positions() + _mahjong_positions(), ids=lambda x: x[:24]
)
def test_narrow_tables_read_on_a_phone(browser: Any, name: str, picture: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        # As the web table and the replay viewer show it: 100% of a box in a
        # page with a little padding.
        page.set_content(
            "<!doctype html><meta name=viewport content='width=device-width'>"
            "<style>body{margin:0;padding:10px}svg{width:100%;height:auto;display:block}</style>"
            f"<div>{picture}</div>"
        )
        found = page_measures(page, "svg")
    finally:
        page.close()
    assert 360 <= found["width"] <= 390, (name, found)
    assert found["texts"] > 10 and found["font"] >= 12, (name, found)
    assert found["over"] <= 0.5, (name, found)
    if found["cards"]:
        assert found["card"] >= 28, (name, found)
    print(name, {k: round(v, 1) for k, v in found.items()})

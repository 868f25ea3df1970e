"""The mahjong drawings in a real browser: a few positions rendered by headless
Chromium, whose screenshots must show a table (not a blank or broken image)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from sevenbridge._kit.svgkit import FELT, PANEL
from sevenbridge.mahjong import Rules, Tile, observe, svg

from .. import browser as chromium
from ..pngread import pixels
from .test_svg import greedy_position


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium.browser()


def _rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _positions() -> list[tuple[str, str]]:
    mid = greedy_position(5, 60)
    end = greedy_position(8, 10_000, players=2, rules=Rules.full())
    return [
        ("standard state", svg.table(mid)),
        ("standard view, ja", svg.table(observe(mid, 0), lang="ja")),
        ("full rules, over", svg.table(end)),
    ]


@pytest.mark.parametrize(("name", "picture"), _positions(), ids=lambda x: x[:20])
def test_tables_render_in_chromium(browser: Any, name: str, picture: str) -> None:
    counts = chromium.table_colours(browser, picture)
    total = sum(counts.values())
    # Mostly felt and panels, with ivory tile faces, suit colours and text on them
    # (a view shows the other hands as backs: its faces are a few percent).
    assert counts[_rgb(FELT)] + counts[_rgb(PANEL)] > total * 0.3, name
    assert counts[_rgb(svg.FACE)] > total * 0.03, name
    assert len(counts) > 50, name


def test_a_tile_renders_with_its_suit_colour(browser: Any) -> None:
    page = browser.new_page()
    page.set_content(f"<body style='margin:0'>{svg.tile('8p', size=120)}</body>")
    _, _, rgb = pixels(page.locator("svg").screenshot())
    colours = Counter(rgb)
    assert colours[_rgb(svg.SUIT_COLOURS[Tile.parse("8p").suit])] > 200  # the 8 and 筒
    assert colours[_rgb(svg.FACE)] > len(rgb) // 3
    page.close()

"""The drawings in a real browser: a few positions rendered by headless Chromium,
whose screenshots must show a table (not a blank or broken image)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from sevenbridge import Rules, apply, deal, observe, svg
from sevenbridge._kit import svgkit
from sevenbridge.bots import GreedyPlayer

from . import browser as chromium
from .pngread import pixels


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium.browser()


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _positions() -> list[tuple[str, str]]:
    out = []
    for preset, players, seed, steps in (("nintendo", 4, 72, 41), ("standard", 3, 9, 80)):
        state = deal(Rules.preset(preset), players=players, seed=seed)
        bot = GreedyPlayer(seed)
        for _ in range(steps):
            if state.is_over:
                break
            state = apply(state, bot(state))
        out.append((f"{preset} state", svg.table(state)))
        out.append((f"{preset} view, ja", svg.table(observe(state, 0), lang="ja", four_color=True)))
    return out


@pytest.mark.parametrize(("name", "picture"), _positions(), ids=lambda x: x[:20])
def test_tables_render_in_chromium(browser: Any, name: str, picture: str) -> None:
    counts = chromium.table_colours(browser, picture)
    total = sum(counts.values())
    # Mostly felt and panels, with white card faces, suit colours and text on them.
    assert counts[(0x1F, 0x5C, 0x3D)] + counts[(0x2A, 0x72, 0x50)] > total * 0.3, name
    assert counts[(255, 255, 255)] > total * 0.03, name
    assert len(counts) > 50, name


def test_a_card_renders_with_its_suit_colour(browser: Any) -> None:
    page = browser.new_page()
    page.set_content(f"<body style='margin:0'>{svg.card('QH', size=120)}</body>")
    _, _, rgb = pixels(page.locator("svg").screenshot())
    colours = Counter(_hex(p) for p in rgb)
    assert colours[svgkit.RED] > 200  # the Q, the small and the large heart
    assert colours["#ffffff"] > len(rgb) // 3
    page.close()

"""A headless Chromium for the browser tests, driven by Playwright.

The tests use the system's Chromium (Debian's ``chromium`` package, which
``.ci/run`` installs), never a browser downloaded by Playwright. Where
Playwright or Chromium is missing (a downstream packager's machine), the tests
that need them are skipped."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import optional_module

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def chromium_path() -> str:
    """Debian's Chromium; a skip without it, a failure under ``SEVENBRIDGE_FULL_CI=1``."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium") or ""):
        if candidate and Path(candidate).exists():
            return candidate
    missing = "Chromium is not installed (Debian: apt-get install chromium)"
    if os.environ.get("SEVENBRIDGE_FULL_CI") == "1":
        pytest.fail(missing)
    pytest.skip(missing)


def browser() -> Iterator[Any]:
    """Yield a launched browser (for a module-scoped fixture)."""
    sync_api = optional_module("playwright.sync_api")
    path = chromium_path()
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def render(browser: Any, picture: str) -> tuple[Any, list[tuple[int, int, int]]]:
    """A drawing on a white page of a 800 x 1000 window: its bounding box and the
    RGB pixels of its screenshot."""
    from .pngread import pixels

    page = browser.new_page(viewport={"width": 800, "height": 1000})
    try:
        page.set_content(f"<!doctype html><body style='margin:0;background:#fff'>{picture}</body>")
        box = page.locator("svg").bounding_box()
        _, _, rgb = pixels(page.locator("svg").screenshot())
        return box, rgb
    finally:
        page.close()


def table_colours(browser: Any, picture: str) -> Counter[tuple[int, int, int]]:
    """How many pixels of each colour a table drawing (720 pixels wide, taller
    than 300) shows in Chromium."""
    box, rgb = render(browser, picture)
    assert box is not None and box["width"] == 720 and box["height"] > 300, box
    return Counter(rgb)

"""The example notebook runs, its cells show positions as drawings, and the
notebook exported to HTML keeps every drawing's title and description."""

from __future__ import annotations

import html.parser
from pathlib import Path
from typing import Any

import pytest

from .helpers import optional_module

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent

NOTEBOOK = Path(__file__).parent.parent / "examples" / "notebook.ipynb"


@pytest.fixture(scope="module")
def notebook() -> Any:
    """The example notebook, run once for the tests of this module."""
    nbformat = optional_module("nbformat")
    nbclient = optional_module("nbclient")
    optional_module("ipykernel")
    if not NOTEBOOK.exists():
        pytest.skip("no examples folder (testing an installed package)")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    return notebook


def outputs(notebook: Any, mime: str) -> list[str]:
    return [
        output["data"][mime]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if mime in output.get("data", {})
    ]


def test_the_notebook_runs_and_shows_svg_tables(notebook: Any) -> None:
    pictures = outputs(notebook, "image/svg+xml")
    # The card, the meld, the state, the hand, the view, the Japanese view, the last table.
    assert len(pictures) == 7
    assert "7 of hearts" in pictures[0]
    assert "joker as 6 of spades" in pictures[1]
    assert "face down" not in pictures[2]
    assert "a hand of" in pictures[3] and "face down" in pictures[4]
    assert "山札" in pictures[5] and "Aki" in pictures[5]
    assert " went out</text>" in pictures[6] and "result: " in pictures[6]
    assert not any(
        o.get("output_type") == "error" for c in notebook.cells for o in c.get("outputs", [])
    )


class _Drawings(html.parser.HTMLParser):
    """The title and description of every ``<svg>`` inline in a page, and the
    sources of its images."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self.images: list[str] = []
        self._svg_depth = 0
        self._in: str | None = None
        self._text: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self._svg_depth += 1
            self._text = {"title": "", "desc": ""}
        elif self._svg_depth and tag in ("title", "desc"):
            self._in = tag
        elif tag == "img":
            self.images.append(dict(attrs).get("src") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg" and self._svg_depth:
            self._svg_depth -= 1
            self.found.append((self._text["title"], self._text["desc"]))
        elif tag == self._in:
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self._text[self._in] += data


def test_the_notebook_exported_to_html_keeps_the_titles_and_descriptions(
    notebook: Any,
) -> None:
    nbconvert = optional_module("nbconvert")
    page, _ = nbconvert.HTMLExporter().from_notebook_node(notebook)
    drawings = _Drawings()
    drawings.feed(page)
    # Each drawing is inline in the page (not an image, whose words a reader
    # cannot reach), with the title and the description it has in the notebook.
    expected = []
    for picture in outputs(notebook, "image/svg+xml"):
        words = _Drawings()
        words.feed(picture)
        expected.extend(words.found)
    assert drawings.found == expected
    assert len(expected) == 7 and all(title and desc for title, desc in expected)
    assert not [src for src in drawings.images if src.startswith("data:image/svg+xml")]
    assert ("7 of hearts", "7 of hearts") in drawings.found
    assert drawings.found[-1][0].startswith("Seven Bridge: P") and drawings.found[-1][0].endswith(
        " went out"
    )


def test_the_rules_show_as_a_table_in_the_notebook_and_its_html(notebook: Any) -> None:
    nbconvert = optional_module("nbconvert")
    [table] = [h for h in outputs(notebook, "text/html") if h.startswith("<table")]
    assert table.startswith('<table class="sevenbridge-rules">')
    assert "the <code>nintendo</code> preset with 2 changes (in bold)" in table
    page, _ = nbconvert.HTMLExporter().from_notebook_node(notebook)
    assert table in page

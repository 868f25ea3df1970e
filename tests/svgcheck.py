"""Checks shared by the tests of the card and the mahjong drawings."""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .helpers import optional_module

NS = "{http://www.w3.org/2000/svg}"


def assert_golden(folder: Path, name: str, text: str) -> None:
    """``text`` equals the golden file ``folder/name`` (rewritten when the
    environment sets ``SEVENBRIDGE_REGOLD``)."""
    path = folder / name
    if os.environ.get("SEVENBRIDGE_REGOLD"):
        folder.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}: run with SEVENBRIDGE_REGOLD=1"
    assert text == path.read_text(encoding="utf-8")


def check_svg(picture: str) -> ET.Element:
    """The parsed drawing, after checking that it is one ``<svg>`` with a title
    and a description and that it links to nothing outside itself."""
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and title.text
    assert desc is not None and desc.text
    assert "href" not in picture and "url(" not in picture
    return root


def assert_shown_inline(shown: Sequence[tuple[object, str]]) -> None:
    """Each value shows in a notebook (IPython's display formatter) as its
    drawing: as SVG, and as the HTML that notebooks and their HTML export
    prefer, with the ``<svg>`` inline so its title and description stay in the page."""
    formatters = optional_module("IPython.core.formatters")
    for value, picture in shown:
        data, _ = formatters.DisplayFormatter().format(value)
        assert data["image/svg+xml"] == picture
        assert picture in data["text/html"]
        assert [e.tag for e in ET.fromstring(data["text/html"])] == [f"{NS}svg"]


def count_rects(root: ET.Element, fill: str) -> int:
    """How many rectangles of the drawing have the fill colour ``fill``."""
    return sum(1 for e in root.iter(f"{NS}rect") if e.get("fill") == fill)


class _Position(Protocol):
    @property
    def is_over(self) -> bool: ...


P = TypeVar("P", bound=_Position)


def random_play(
    state: P, legal: Callable[[P], Sequence[Any]], step: Callable[[P, Any], P], seed: int
) -> Iterator[P]:
    """Every position of a round played on from ``state`` by uniformly random
    legal actions (seeded), the final one included."""
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_over:
            return
        actions = legal(state)
        state = step(state, actions[rng.randrange(len(actions))])


def hidden_count(sizes: Sequence[int], viewer: int, shown: object) -> int:
    """How many cards or tiles a view shows face down: the other hands, unless
    they are ``shown``."""
    return 0 if shown is not None else sum(n for p, n in enumerate(sizes) if p != viewer)


def description(root: ET.Element) -> str:
    """The text of the drawing's ``<desc>``."""
    desc = root.find(f"{NS}desc")
    assert desc is not None and desc.text
    return desc.text

"""Doctests of the pages.

The learning page's examples need the learning extras; without them it is skipped.

A page may show a file for the reader to save: a ``{code-block}`` whose
``:caption:`` is the file's name (a caption ending in "(continued)" adds to it). That page's examples run in a fresh directory
holding those files (and importable from there), as the reader's would.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path

import pytest

_EXTRAS = ("numpy", "pettingzoo", "gymnasium", "pyspiel")

_MISSING = [name for name in _EXTRAS if importlib.util.find_spec(name) is None]
if _MISSING and os.environ.get("SEVENBRIDGE_FULL_CI") == "1":
    raise ImportError(f"CI installs every extra, but these are missing: {', '.join(_MISSING)}")
collect_ignore = ["howto/learning.md"] if _MISSING else []

_SAVED_FILE = re.compile(
    r"^```\{code-block\} \w+\n:caption: (?P<name>[\w.-]+)(?: \(continued\))?\n\n(?P<body>.*?)^```$",
    re.M | re.S,
)


def saved_files(page: Path) -> dict[str, str]:
    """The files a page shows for the reader to save, by name (tests of other
    languages' examples read them from here too, so that the page's code is what
    they run)."""
    files: dict[str, str] = {}
    for block in _SAVED_FILE.finditer(page.read_text("utf-8")):  # "(continued)" adds on
        files[block["name"]] = files.get(block["name"], "") + block["body"]
    return files


@pytest.fixture(autouse=True)
def _files_the_page_saves(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = getattr(request.node, "path", None)
    if not isinstance(page, Path) or page.suffix != ".md":
        return
    files = saved_files(page)
    if not files:
        return
    for name, body in files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
        sys.modules.pop(Path(name).stem, None)  # another page's file of the same name
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))

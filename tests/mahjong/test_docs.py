"""The mahjong reference pages name every public name of the subpackage."""

from __future__ import annotations

from pathlib import Path

from sevenbridge import mahjong

DOCS = Path(__file__).resolve().parents[2] / "docs"
REFERENCE = DOCS / "reference" / "mahjong"


def test_every_public_name_is_in_the_reference() -> None:
    text = "".join(page.read_text(encoding="utf-8") for page in sorted(REFERENCE.glob("*.md")))
    missing = [
        name
        for name in mahjong.__all__
        if name != "Action"
        and f"sevenbridge.mahjong.{name}\n" not in text
        and f"sevenbridge.mahjong.{name}\n   :" not in text
    ]
    assert not missing, "not in docs/reference/mahjong/: " + ", ".join(missing)


def test_the_page_is_in_the_table_of_contents() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "\nexplanation/mahjong\n" in index and "\nhowto/mahjong-repl\n" in index

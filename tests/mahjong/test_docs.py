"""The mahjong page's API reference names every public name of the subpackage."""

from __future__ import annotations

from pathlib import Path

from sevenbridge import mahjong

PAGE = Path(__file__).resolve().parents[2] / "docs" / "mahjong.md"


def test_every_public_name_is_in_the_reference() -> None:
    text = PAGE.read_text(encoding="utf-8")
    missing = [
        name
        for name in mahjong.__all__
        if name != "Action"
        and f"sevenbridge.mahjong.{name}\n" not in text
        and f"sevenbridge.mahjong.{name}\n   :" not in text
    ]
    assert not missing, "not in docs/mahjong.md: " + ", ".join(missing)


def test_the_page_is_in_the_table_of_contents() -> None:
    index = (PAGE.parent / "index.md").read_text(encoding="utf-8")
    assert "\nmahjong\n" in index and "\nmahjong-repl\n" in index

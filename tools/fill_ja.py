"""One-off helper: fill empty Japanese translations from a table (python tools/fill_ja.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

PO = Path(__file__).resolve().parent.parent / "src/sevenbridge/locale/ja/LC_MESSAGES/sevenbridge.po"


def fill(table: dict[str, str]) -> list[str]:
    text = PO.read_text(encoding="utf-8")
    left = []

    def put(m: re.Match[str]) -> str:
        key = m.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
        if key in table:
            value = table[key].replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
            return f'msgid "{m.group(1)}"\nmsgstr "{value}"'
        left.append(key)
        return m.group(0)

    text = re.sub(r'msgid "((?:[^"\\]|\\.)+)"\nmsgstr ""(?!\n")', put, text)
    PO.write_text(text, encoding="utf-8")
    return left


if __name__ == "__main__":
    import ast

    table = ast.literal_eval(Path(sys.argv[1]).read_text(encoding="utf-8"))
    for key in fill(table):
        print("untranslated:", key)

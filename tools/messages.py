"""Gather the translatable messages of the package and keep the catalogs in step.

``python tools/messages.py`` adds every message marked in the code (``_("...")``
or ``N_("...")``) that the Japanese ``.po`` lacks, with an empty translation,
and compiles every ``.po`` to its ``.mo``. ``tests/test_i18n.py`` fails while a
message has no translation or a ``.mo`` differs from its ``.po``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "sevenbridge"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from catalogs import CONTEXT, compile_po, marked_messages, read_po  # noqa: E402

from sevenbridge._kit.i18n import LOCALE_DIR  # noqa: E402


def messages() -> dict[str, str]:
    return marked_messages(PACKAGE)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def update(po: Path) -> int:
    """Append the missing messages to ``po``; return how many were added."""
    text = po.read_text(encoding="utf-8")
    have = read_po(text)
    missing = [(m, where) for m, where in messages().items() if m not in have]
    if missing:
        text = text.rstrip("\n") + "\n"
        for message, where in missing:
            context, _sep, msgid = message.rpartition(CONTEXT)
            head = f"msgctxt {_quote(context)}\n" if _sep else ""
            text += f'\n#: {where}\n{head}msgid {_quote(msgid)}\nmsgstr ""\n'
        po.write_text(text, encoding="utf-8")
    return len(missing)


def main() -> None:
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        added = update(po)
        po.with_suffix(".mo").write_bytes(compile_po(po.read_text(encoding="utf-8")))
        print(f"{po.relative_to(ROOT)}: {added} new messages; compiled")


if __name__ == "__main__":
    main()

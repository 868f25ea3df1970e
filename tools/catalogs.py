"""Read, compile and gather the translation catalogs (``.po`` to ``.mo``).

The tooling of the translations, kept out of the package: the package only
reads compiled ``.mo`` catalogs, through :mod:`gettext`. ``tools/messages.py``
uses it to keep the catalogs in step with the code, and ``tests/test_i18n.py``
to check them.
"""

from __future__ import annotations

import ast
import struct
from pathlib import Path

__all__ = [
    "CONTEXT", "CONTEXT_MARKERS", "MARKERS", "MESSAGE_MARKERS", "compile_po", "marked_messages",
    "read_po",
]  # fmt: skip

#: What joins a message's context to it in a catalog's keys (as in ``.mo`` files).
CONTEXT = "\x04"


def read_po(text: str) -> dict[str, str]:
    """The translations of a ``.po`` file: msgid to msgstr (the header under ``""``).

    Only what our catalogs use is read: ``msgid``/``msgstr`` pairs with
    continuation lines, a ``msgctxt`` (the key is then ``context\x04msgid``,
    as a ``.mo`` file keys it), comments and ``#,`` flags. A fuzzy entry counts
    as untranslated, as ``msgfmt`` treats it.
    """
    entries: dict[str, str] = {}
    msgctxt: list[str] | None = None
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal msgctxt, msgid, msgstr, fuzzy
        if msgid is not None and msgstr is not None:
            key = "".join(msgid)
            if msgctxt is not None:
                key = "".join(msgctxt) + CONTEXT + key
            entries[key] = "" if fuzzy and key else "".join(msgstr)
        msgctxt = msgid = msgstr = None
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if msgstr is not None:
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith("msgctxt "):
            flush_fuzzy = fuzzy
            flush()
            fuzzy = flush_fuzzy
            msgctxt = [ast.literal_eval(line[8:])]
            current = msgctxt
        elif line.startswith("msgid "):
            flush_fuzzy, context = fuzzy, msgctxt
            if msgstr is not None:
                flush()
                context = None
            fuzzy, msgctxt = flush_fuzzy, context
            msgid = [ast.literal_eval(line[6:])]
            current = msgid
        elif line.startswith("msgstr "):
            msgstr = [ast.literal_eval(line[7:])]
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
        else:
            raise ValueError(f"unexpected line in a .po file: {raw!r}")
    flush()
    return entries


def compile_po(text: str) -> bytes:
    """The ``.mo`` file (GNU gettext's binary catalog) of a ``.po`` file's text,
    as ``msgfmt`` writes it: entries sorted by msgid, untranslated ones left out."""
    entries = {k: v for k, v in read_po(text).items() if v}
    ids = sorted(entries)
    keys = [k.encode("utf-8") for k in ids]
    values = [entries[k].encode("utf-8") for k in ids]
    n = len(ids)
    key_start = 7 * 4 + 16 * n
    offsets: list[tuple[int, int]] = []
    blob = b""
    for item in keys:
        offsets.append((len(item), key_start + len(blob)))
        blob += item + b"\0"
    value_offsets: list[tuple[int, int]] = []
    for item in values:
        value_offsets.append((len(item), key_start + len(blob)))
        blob += item + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, key_start)
    table = b"".join(struct.pack("<2I", *o) for o in offsets + value_offsets)
    return header + table + blob


#: The names that mark a message in the code (the message is the first argument).
MARKERS = frozenset({"_", "N_"})
#: The names that build a :class:`Message` (the template is the second argument).
MESSAGE_MARKERS = frozenset({"M", "Message"})
#: The names that mark a message in a context (the context, then the message):
#: ``in_context("mahjong", "dealer", lang)``.
CONTEXT_MARKERS = frozenset({"in_context"})


def marked_messages(root: Path) -> dict[str, str]:
    """Every message marked in the code of the package at ``root``, its
    subpackages too (``_("...")``, ``N_("...")``, the template of
    ``Message(code, "...")``, or ``in_context("context", "...")``, keyed
    ``context\x04...``), with the first place it appears (``module.py:line``)."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(root).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name):
                name = node.func.id
            elif isinstance(node.func, ast.Attribute):  # self._("...")
                name = node.func.attr
            else:
                continue
            context = ""
            if name in MARKERS and len(node.args) == 1:
                argument = node.args[0]
            elif name in MESSAGE_MARKERS and len(node.args) >= 2:
                argument = node.args[1]
            elif name in CONTEXT_MARKERS and len(node.args) >= 2:
                first, argument = node.args[0], node.args[1]
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                    continue
                context = first.value + CONTEXT
            else:
                continue
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.setdefault(context + argument.value, f"{where}:{node.lineno}")
    return found

"""Translations of the texts people read, through standard ``gettext`` catalogs.

Messages are written in English in the code, marked with :func:`N_` where they
are defined and translated with :func:`translator` where they are shown. The
catalogs live in ``locale/<lang>/LC_MESSAGES/sevenbridge.po`` (the source) and
``sevenbridge.mo`` (compiled, what :mod:`gettext` reads); both ship with the
package. English is the default and needs no catalog.

>>> _ = translator("ja")
>>> _("stock")
'山札'
>>> translator("en")("stock")
'stock'
"""

from __future__ import annotations

import ast
import gettext
import struct
from collections.abc import Callable
from functools import cache
from pathlib import Path

from .errors import InvalidArgumentError

__all__ = [
    "DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "compile_po", "marked_messages", "read_po",
    "translator",
]  # fmt: skip

DOMAIN = "sevenbridge"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The languages a caller may ask for; English is the default.
LANGUAGES = ("en", "ja")


def N_(message: str) -> str:
    """Mark a message for translation where it is defined; translate it where shown."""
    return message


def check_lang(lang: object) -> str:
    """``lang`` itself if it is a language we have, else a clear error."""
    if lang is None:
        return "en"
    if not isinstance(lang, str):
        raise TypeError(f"lang must be a string such as 'ja', not {type(lang).__name__}")
    if lang not in LANGUAGES:
        raise InvalidArgumentError(f"lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])


def translator(lang: str | None = None) -> Callable[[str], str]:
    """The ``gettext`` function of a language (``None`` or ``"en"``: English).

    Raises:
        InvalidArgumentError: for a language without a catalog.
    """
    return _translations(check_lang(lang)).gettext


def read_po(text: str) -> dict[str, str]:
    """The translations of a ``.po`` file: msgid to msgstr (the header under ``""``).

    Only what our catalogs use is read: ``msgid``/``msgstr`` pairs with
    continuation lines, comments and ``#,`` flags. A fuzzy entry counts as
    untranslated, as ``msgfmt`` treats it.
    """
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr is not None:
            key = "".join(msgid)
            entries[key] = "" if fuzzy and key else "".join(msgstr)
        msgid = msgstr = None
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
        if line.startswith("msgid "):
            flush_fuzzy = fuzzy
            flush()
            fuzzy = flush_fuzzy
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


#: The names that mark a message in the code.
MARKERS = frozenset({"_", "N_"})


def marked_messages() -> dict[str, str]:
    """Every message marked in the package's code (``_("...")`` or ``N_("...")``),
    with the first place it appears (``module.py:line``)."""
    found: dict[str, str] = {}
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in MARKERS
                and len(node.args) == 1
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, f"{path.name}:{node.lineno}")
    return found

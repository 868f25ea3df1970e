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

import os
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from .errors import InvalidArgumentError, Message

if TYPE_CHECKING:
    import gettext
    from pathlib import Path

    from .cards import Card

# ast, gettext, struct and pathlib are imported where they are used, which keeps
# them out of ``import sevenbridge``.

__all__ = [
    "DOMAIN", "LANGUAGES", "N_", "compile_po", "marked_messages", "read_po",
    "translate", "translator", "width",
]  # fmt: skip

DOMAIN = "sevenbridge"
_HERE = os.path.dirname(os.path.abspath(__file__))


def __getattr__(name: str) -> Path:
    if name == "LOCALE_DIR":  # the catalogs' folder, as a Path
        from pathlib import Path

        return Path(_HERE) / "locale"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        raise InvalidArgumentError(
            Message(
                "invalid_argument.lang_must_one_not",
                "lang must be one of {languages}, not {lang}",
                languages=", ".join(LANGUAGES),
                lang=repr(lang),
            )
        )
    return lang


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    import gettext

    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=os.path.join(_HERE, "locale"), languages=[lang])


def translator(lang: str | None = None) -> Callable[[str], str]:
    """The ``gettext`` function of a language (``None`` or ``"en"``: English).

    Raises:
        InvalidArgumentError: for a language without a catalog.
    """
    return _translations(check_lang(lang)).gettext


def width(text: str) -> int:
    """The columns ``text`` takes in a terminal: two for each wide (East Asian) character.

    >>> width("bot"), width("ボット")
    (3, 6)
    """
    from unicodedata import east_asian_width

    return sum(2 if east_asian_width(c) in "WF" else 1 for c in text)


def _card_text(card: Card, lang: str) -> str:
    """A card as players of the language write it: ``7H`` in English, ``♥7`` in Japanese."""
    if lang == "en":
        return str(card)
    if card.suit is None:
        return translator(lang)("joker")
    rank = str(card)[:-1]
    return card.suit.symbol + rank


def translate_end_reason(reason: str, lang: str) -> str:
    """A deal's ``end_reason`` in the language (other text comes back as it is)."""
    _ = translator(lang)
    words = reason.split()
    if len(words) >= 4 and words[0] == "player" and words[2:4] == ["went", "out"]:
        if reason.endswith("at once"):
            return _("player {p} went out at once").format(p=words[1])
        return _("player {p} went out").format(p=words[1])
    if reason.startswith("void deal"):
        return _("void deal: the stock ran out")
    return reason


def _param(value: Any, lang: str) -> str:
    from .cards import Card
    from .melds import Meld

    if isinstance(value, (Message, BaseException)):
        return translate(value, lang)
    if isinstance(value, Card):
        return _card_text(value, lang)
    if isinstance(value, Meld):
        return " ".join(
            f"{_card_text(c, lang)}={_card_text(value.joker_as, lang)}"
            if c.is_joker and value.joker_as is not None
            else _card_text(c, lang)
            for c in value.cards
        )
    if isinstance(value, (tuple, list)):
        return " ".join(_param(v, lang) for v in value)
    if isinstance(value, str):
        return translate_end_reason(value, lang)
    return str(value)


def translate(text: str | BaseException, lang: str | None = None) -> str:
    """A message of the library in the given language.

    Messages (:class:`~sevenbridge.errors.Message`: the reasons of
    :class:`~sevenbridge.IllegalActionError`, the answers of
    :func:`~sevenbridge.explain`, the messages of every library error) are
    translated from their template, their parameters too (cards as Japanese
    players write them: ``♥7``); other text comes back as it is.

    A library error itself can be given too (any
    :class:`~sevenbridge.SevenBridgeError`; other exceptions come back as
    ``str(error)``).

    Args:
        text: A message, an error, or any text.
        lang: ``None`` or ``"en"`` (English), or ``"ja"``.

    Raises:
        InvalidArgumentError: for a language without a catalog.

    >>> from sevenbridge import deal, explain, Discard
    >>> answer = explain(deal(seed=1), Discard(1, "2C"))
    >>> answer.code
    'explain.illegal'
    >>> print(translate(answer, "ja"))
    不可：手番は山札から引く（またはチーする）ことから始まり、捨てるのは最後です。
    """
    lang = check_lang(lang)
    if isinstance(text, BaseException):
        return _error_text(text, lang)
    if not isinstance(text, Message) or lang == "en":
        return str(text)
    _ = translator(lang)
    return _(text.template).format(**{k: _param(v, lang) for k, v in text.params.items()})


def _error_text(error: BaseException, lang: str) -> str:
    """An error's message in the language: the library's errors carry a
    :class:`~sevenbridge.errors.Message`; other errors stay as they are."""
    from .errors import IllegalActionError

    if lang == "en":
        return str(error)
    if isinstance(error, IllegalActionError):
        _ = translator(lang)
        return _("illegal action {action}: {reason}").format(
            action=repr(error.action), reason=translate(error.reason, lang)
        )
    detail = getattr(error, "detail", None)
    return translate(detail, lang) if isinstance(detail, Message) else str(error)


def read_po(text: str) -> dict[str, str]:
    """The translations of a ``.po`` file: msgid to msgstr (the header under ``""``).

    Only what our catalogs use is read: ``msgid``/``msgstr`` pairs with
    continuation lines, comments and ``#,`` flags. A fuzzy entry counts as
    untranslated, as ``msgfmt`` treats it.
    """
    import ast

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
    import struct

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


def marked_messages() -> dict[str, str]:
    """Every message marked in the package's code, its subpackages too
    (``_("...")``, ``N_("...")``, or the template of ``Message(code, "...")``),
    with the first place it appears (``module.py:line``)."""
    import ast
    from pathlib import Path

    found: dict[str, str] = {}
    root = Path(_HERE)
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
            if name in MARKERS and len(node.args) == 1:
                argument = node.args[0]
            elif name in MESSAGE_MARKERS and len(node.args) >= 2:
                argument = node.args[1]
            else:
                continue
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.setdefault(argument.value, f"{where}:{node.lineno}")
    return found

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

from ..errors import InvalidArgumentError, Message, Quoted, quote

if TYPE_CHECKING:
    import gettext
    from pathlib import Path

# gettext and pathlib are imported where they are used, which keeps them out
# of ``import sevenbridge``. The tools that read and compile the ``.po``
# catalogs are not part of the package: see tools/catalogs.py.

__all__ = [
    "DOMAIN", "LANGUAGES", "NAMES", "N_", "check_lang", "in_context", "name_text", "quoted",
    "register_format", "translate", "translate_end_reason", "translator", "width",
]  # fmt: skip

DOMAIN = "sevenbridge"
# The package folder (the catalogs are in its locale/ folder).
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


#: The names a command line takes that people also read: the rule presets of
#: both games and the built-in bots (``--rules standard``, ``--bots greedy``).
NAMES = {
    "standard": N_("standard"),
    "nintendo": N_("nintendo"),
    "seven_rummy": N_("seven_rummy"),
    "literal": N_("literal"),
    "full": N_("full"),
    "custom": N_("custom"),
    "greedy": N_("greedy"),
    "random": N_("random"),
    "ismcts": N_("ismcts"),
}


def name_text(name: str, lang: str | None = None) -> str:
    """A rule preset's or a built-in bot's name as people read it in the
    language; a bot's options stay as they were written; any other name (an
    external bot's) comes back as it is.

    >>> name_text("nintendo", "ja"), name_text("ismcts:iterations=50", "ja")
    ('任天堂', 'ISMCTS:iterations=50')
    >>> name_text("greedy"), name_text("cmd:./bot", "ja")
    ('greedy', 'cmd:./bot')
    """
    base, colon, options = name.partition(":")
    if base not in NAMES:
        return name
    return translator(lang)(NAMES[base]) + colon + options


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
                lang=quote(lang),
            )
        )
    return lang


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    import gettext

    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=os.path.join(_HERE, "locale"), languages=[lang])


def in_context(context: str, message: str, lang: str | None = None) -> str:
    """A message that reads differently in a ``context`` (``gettext``'s
    ``pgettext``): the mahjong dealer is 親 in Japanese, the card game's ディーラー.

    >>> in_context("mahjong", "dealer", "ja"), in_context("mahjong", "dealer")
    ('親', 'dealer')
    """
    return _translations(check_lang(lang)).pgettext(context, message)


def quoted(text: object, lang: str | None = None, limit: int = 60) -> str:
    """Text quoted back to the reader as the language quotes it, cut in the
    middle when long (as :func:`~sevenbridge.errors.quote` cuts it).

    >>> quoted("Dscard"), quoted("Dscard", "ja")
    ("'Dscard'", '「Dscard」')
    """
    return _param(quote(text, limit), check_lang(lang))


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


#: How the games' own values are written in a language (a card as ``♥7`` in
#: Japanese), registered by the modules that define them: the kit knows no game.
_FORMATS: dict[type, Callable[[Any, str], str]] = {}
#: The same, as a table or a terminal shows them: with suit symbols (``7♥``).
_SYMBOL_FORMATS: dict[type, Callable[[Any, str], str]] = {}


def register_format(
    kind: type,
    write: Callable[[Any, str], str],
    *,
    symbols: Callable[[Any, str], str] | None = None,
) -> None:
    """Write the values of ``kind`` with ``write(value, lang)`` in translated
    messages, and with ``symbols(value, lang)`` where symbols are asked for
    (``translate(..., symbols=True)``; default: ``write``)."""
    _FORMATS[kind] = write
    _SYMBOL_FORMATS[kind] = symbols or write


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


def _param(value: Any, lang: str, symbols: bool = False) -> str:
    if isinstance(value, Message):
        return translate(value, lang, symbols=symbols)
    if isinstance(value, BaseException):
        return translate(value, lang)
    for kind, write in (_SYMBOL_FORMATS if symbols else _FORMATS).items():
        if isinstance(value, kind):
            return write(value, lang)
    if isinstance(value, (tuple, list)):
        return " ".join(_param(v, lang, symbols) for v in value)
    if isinstance(value, Quoted) and lang != "en":
        _ = translator(lang)
        return _("'{text}'").format(text=value[1:-1])
    if isinstance(value, str):
        return translate_end_reason(value, lang)
    return str(value)


def translate(text: str | BaseException, lang: str | None = None, *, symbols: bool = False) -> str:
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
        symbols: Write cards with suit symbols, as a table shows them
            (``7♥``), in English too (Japanese always does: ``♥7``).

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
    if not isinstance(text, Message) or (lang == "en" and not symbols):
        return str(text)
    _ = translator(lang)
    params = {k: _param(v, lang, symbols) for k, v in text.params.items()}
    return _(text.template).format(**params)


def _error_text(error: BaseException, lang: str) -> str:
    """An error's message in the language: the library's errors carry a
    :class:`~sevenbridge.errors.Message`; other errors stay as they are."""
    from ..errors import IllegalActionError

    if lang == "en":
        return str(error)
    if isinstance(error, IllegalActionError):
        _ = translator(lang)
        return _("illegal action {action}: {reason}").format(
            action=_param(error.action, lang), reason=translate(error.reason, lang)
        )
    detail = getattr(error, "detail", None)
    return translate(detail, lang) if isinstance(detail, Message) else str(error)

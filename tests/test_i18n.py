"""Translations: every message has a Japanese translation, the compiled catalogs
match their sources, and the game's words are the Japanese rule sheet's."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import subprocess

import pytest

from sevenbridge import InvalidArgumentError
from sevenbridge._i18n import (
    LOCALE_DIR,
    compile_po,
    marked_messages,
    read_po,
    translator,
)

PO = LOCALE_DIR / "ja" / "LC_MESSAGES" / "sevenbridge.po"
MO = PO.with_suffix(".mo")
FIELD = re.compile(r"\{([^{}]*)\}")


def test_every_message_has_a_japanese_translation() -> None:
    catalog = read_po(PO.read_text(encoding="utf-8"))
    messages = marked_messages()
    assert len(messages) > 100
    missing = [f"{where}: {m!r}" for m, where in messages.items() if not catalog.get(m)]
    assert not missing, "untranslated (run python tools/messages.py): " + "; ".join(missing)


def test_translations_keep_every_placeholder() -> None:
    catalog = read_po(PO.read_text(encoding="utf-8"))
    for msgid, msgstr in catalog.items():
        if msgid:
            assert sorted(FIELD.findall(msgid)) == sorted(FIELD.findall(msgstr)), msgid


def test_no_stale_entries() -> None:
    catalog = read_po(PO.read_text(encoding="utf-8"))
    stale = set(catalog) - set(marked_messages()) - {""}
    assert not stale, f"messages no longer in the code: {sorted(stale)}"


def test_the_mo_is_the_compiled_po() -> None:
    source = PO.read_text(encoding="utf-8")
    assert MO.read_bytes() == compile_po(source), "stale .mo: run python tools/messages.py"
    compiled = gettext.GNUTranslations(io.BytesIO(MO.read_bytes()))
    for msgid, msgstr in read_po(source).items():
        if msgid:
            assert compiled.gettext(msgid) == msgstr


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_gnu_msgfmt_accepts_the_catalog(tmp_path: object) -> None:
    result = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(PO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_compile_po_reads_continuations_escapes_and_fuzzy() -> None:
    source = (
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "a"\nmsgstr "エー"\n\n'
        'msgid "two "\n"lines\\n"\nmsgstr "二"\n"行"\n\n'
        '#, fuzzy\nmsgid "unsure"\nmsgstr "たぶん"\n\n'
        'msgid "quote \\"q\\""\nmsgstr "引用"\n'
    )
    compiled = gettext.GNUTranslations(io.BytesIO(compile_po(source)))
    assert compiled.gettext("a") == "エー"
    assert compiled.gettext("two lines\n") == "二行"
    assert compiled.gettext("unsure") == "unsure"  # fuzzy: not used
    assert compiled.gettext('quote "q"') == "引用"


def test_the_game_words_follow_the_japanese_rule_sheet() -> None:
    _ = translator("ja")
    assert _("stock") == "山札"
    assert _("discard pile") == "捨て札"
    assert _("Melds") == "メルド"
    assert _("pon") == "ポン" and _("chi") == "チー"
    assert _("went out") == "上がり"
    assert _("dealer") == "ディーラー"
    assert _("joker") == "ジョーカー"
    assert _("Penalty points") == "罰点"


def test_languages() -> None:
    assert translator(None)("stock") == "stock"
    assert translator("en")("stock") == "stock"
    with pytest.raises(InvalidArgumentError, match="lang must be one of en, ja"):
        translator("fr")

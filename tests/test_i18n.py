"""Translations: every message has a Japanese translation, the compiled catalogs
match their sources, and the game's words are the Japanese rule sheet's."""

from __future__ import annotations

import gettext
import importlib.util
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given

import sevenbridge
from sevenbridge import GameState, InvalidArgumentError
from sevenbridge._kit.i18n import LOCALE_DIR, translator

from .strategies import varied_states

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent

# The catalog tooling lives in tools/ (it is not part of the package).
_spec = importlib.util.spec_from_file_location(
    "catalogs", Path(__file__).resolve().parent.parent / "tools" / "catalogs.py"
)
assert _spec is not None and _spec.loader is not None
catalogs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(catalogs)
read_po = catalogs.read_po
compile_po = catalogs.compile_po
PACKAGE = Path(sevenbridge.__file__).resolve().parent


def marked_messages() -> dict[str, str]:
    return catalogs.marked_messages(PACKAGE)  # type: ignore[no-any-return]


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
        'msgid "quote \\"q\\""\nmsgstr "引用"\n\n'
        'msgctxt "mahjong"\nmsgid "a"\nmsgstr "親"\n'
    )
    compiled = gettext.GNUTranslations(io.BytesIO(compile_po(source)))
    assert compiled.gettext("a") == "エー"
    assert compiled.gettext("two lines\n") == "二行"
    assert compiled.gettext("unsure") == "unsure"  # fuzzy: not used
    assert compiled.gettext('quote "q"') == "引用"
    assert compiled.pgettext("mahjong", "a") == "親" and compiled.gettext("a") == "エー"


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


def _illegal_attempts() -> list[tuple[object, object]]:
    """(state, action) pairs that break many different rules."""
    import random

    from sevenbridge import (
        Chi,
        Discard,
        Draw,
        LayDown,
        LayOff,
        Pass,
        Pon,
        Rules,
        apply,
        deal,
        legal_actions,
    )
    from sevenbridge.cards import CARDS

    out: list[tuple[object, object]] = []
    rng = random.Random(5)
    for preset in Rules.presets():
        state = deal(Rules.preset(preset), players=3, seed=11)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            hand = state.hand(p)
            cards = [CARDS[i] for i in rng.sample(range(52), 3)]
            for action in (
                Draw(p), Pass(p), Draw((p + 1) % 3), Discard(p, cards[0]), Discard(p, hand[0]),
                LayDown(p, hand[:3]), LayDown(p, hand[:1]), LayOff(p, hand[0], 0),
                LayOff(p, hand[0], 9), Chi(p, hand[:2]), Pon(p, hand[:2]), Pon(p, hand[:1]),
            ):  # fmt: skip
                out.append((state, action))
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
        out.append((state, Draw(0)))
    return out


def test_illegal_actions_carry_a_code_and_read_in_japanese() -> None:
    from sevenbridge import IllegalActionError, apply, explain, translate
    from sevenbridge.errors import Message

    codes: set[str] = set()
    for state, action in _illegal_attempts():
        try:
            apply(state, action)  # type: ignore[arg-type]
        except IllegalActionError as error:
            reason = error.reason
            assert isinstance(reason, Message), reason
            codes.add(reason.code)
            japanese = translate(reason, "ja")
            assert japanese != str(reason) and "{" not in japanese
            assert not re.search(r"\b(the|a|is|not|player)\b", japanese), japanese
            assert reason.as_dict()["text"] == str(reason)
            if not isinstance(action, str):
                answer = explain(state, action)  # type: ignore[call-overload]
                assert isinstance(answer, Message) and answer.code == "explain.illegal"
                assert translate(answer, "ja").startswith("不可：")
    assert len(codes) >= 12, sorted(codes)


def test_explain_of_legal_moves_in_japanese() -> None:
    import random

    from sevenbridge import Rules, apply, deal, explain, legal_actions, translate
    from sevenbridge.errors import Message

    rng = random.Random(3)
    codes: set[str] = set()
    for preset in Rules.presets():
        for seed in range(3):
            state = deal(Rules.preset(preset), players=4, seed=seed)
            while not state.is_over:
                for action in legal_actions(state):
                    answer = explain(state, action)
                    assert isinstance(answer, Message) and str(answer).startswith("Legal. ")
                    japanese = translate(answer, "ja")
                    assert japanese.startswith("合法。") and "{" not in japanese
                    assert not re.search(r"\b(the|draws|discards|lays|calls)\b", japanese)
                    codes.add(answer.params["second"].code)
                actions = legal_actions(state)
                state = apply(state, actions[rng.randrange(len(actions))])
    assert {"explain.draw", "explain.discard", "explain.pass"} <= codes


def test_japanese_cards_in_messages() -> None:
    from sevenbridge import Discard, Draw, IllegalActionError, apply, deal, translate
    from sevenbridge.errors import Message

    state = apply(deal(seed=1), Draw(1))
    with pytest.raises(IllegalActionError) as info:
        apply(state, Discard(1, "JK"))
    assert isinstance(info.value.reason, Message)
    assert translate(info.value.reason, "ja") == "P1はジョーカーを持っていません"
    assert translate(info.value.reason) == "player 1 does not hold JK"
    with pytest.raises(IllegalActionError) as info:
        apply(state, Discard(1, "7H" if "7H" not in map(str, state.hand(1)) else "7S"))
    assert re.fullmatch(
        r"P1は♥7を持っていません|P1は♠7を持っていません", translate(info.value.reason, "ja")
    )
    text = Message("x", "{cards}", cards=("7H", "10S"))
    assert translate(text, "ja") == "7H 10S"  # text that is not a Card stays as it is
    assert translate("plain text", "ja") == "plain text"


@given(varied_states())
def test_render_in_japanese(state: GameState) -> None:
    from sevenbridge import observe, render

    for position in (state, observe(state, 0)):
        english, japanese = render(position), render(position, lang="ja")
        assert english == str(position)
        assert len(japanese.splitlines()) == len(english.splitlines())
        assert "{" not in japanese
        assert not re.search(r"\b(Stock|Table|Discard|cards?|players|rules|dealer|to)\b", japanese)
        assert "山札" in japanese and "捨て札" in japanese


def test_explain_and_render_refuse_unknown_languages() -> None:
    from sevenbridge import Draw, deal, explain, render

    with pytest.raises(InvalidArgumentError):
        explain(deal(seed=1), Draw(1), lang="xx")
    with pytest.raises(InvalidArgumentError):
        render(deal(seed=1), lang="xx")


@pytest.mark.parametrize("extra", [[], ["--match", "--players", "3", "--seed", "8"]])
def test_demo_in_japanese(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from sevenbridge.cli import main

    assert main(["demo", "--lang", "ja", "--rules", "nintendo", *extra]) == 0
    out = capsys.readouterr().out
    assert "セブンブリッジ" in out and "ディール終了" in out
    # Only move notation, seat names and numbers are left in Latin letters.
    words = set(re.findall(r"[A-Za-z]{2,}", out))
    assert not words, words


def test_an_illegal_action_error_in_japanese() -> None:
    from sevenbridge import Draw, IllegalActionError, apply, deal, translate

    with pytest.raises(IllegalActionError) as info:
        apply(deal(seed=1), Draw(0))
    assert translate(info.value) == str(info.value)
    assert translate(info.value, "ja") == (
        "不正な手（P0 引く）：いまはP0ではなくP1が決める番です（山札から引くかチー）"
    )
    assert translate(ValueError("x"), "ja") == "x"


# -- every library error reads in Japanese -------------------------------------------------------

#: Where the message is among a library error's arguments (the others take it first).
_MESSAGE_ARGUMENT = {
    "InvalidCardError": 1, "InvalidTileError": 1, "NotationError": 1, "RecordError": 1,
    "IllegalActionError": 1, "ExternalBotError": 1, "_error": 1, "_fail": 1,
}  # fmt: skip


def _library_error_names() -> set[str]:
    import importlib
    import pkgutil

    import sevenbridge
    from sevenbridge import SevenBridgeError

    names = {"_error", "_fail"}  # text._error and ExternalPlayer._fail build library errors
    for module in pkgutil.walk_packages(sevenbridge.__path__, "sevenbridge."):
        if module.name.startswith(("sevenbridge.envs", "sevenbridge.rl", "sevenbridge.web")):
            continue  # optional packages; their modules are still scanned below
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            if isinstance(value, type) and issubclass(value, SevenBridgeError):
                names.add(value.__name__)
    return names


def test_every_library_error_is_raised_with_a_message() -> None:
    """A library error built from a bare string or f-string would have no Japanese: the
    message must be an ``errors.Message`` (whose template ``marked_messages`` finds)."""
    import ast

    names = _library_error_names()
    assert {"InvalidStateError", "RecordError", "StoreError", "InvalidTileError"} <= names
    bare: list[str] = []
    checked = 0
    for path in sorted(LOCALE_DIR.parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in names:
                continue
            index = _MESSAGE_ARGUMENT.get(name, 0)
            if len(node.args) <= index:
                continue
            checked += 1
            argument = node.args[index]
            if isinstance(argument, (ast.JoinedStr, ast.BinOp)) or (
                isinstance(argument, ast.Constant) and isinstance(argument.value, str)
            ):
                bare.append(f"{path.name}:{node.lineno}")
    assert checked > 250
    assert not bare, "library errors raised with a bare string: " + ", ".join(bare)


def _raise(call: object) -> BaseException:
    assert callable(call)
    try:
        call()
    except Exception as error:
        return error
    raise AssertionError("no error")


def _errors(tmp_path: object) -> list[BaseException]:
    from pathlib import Path

    from sevenbridge import (
        Card,
        Meld,
        Rules,
        deal,
        parse_move,
        replay,
    )
    from sevenbridge import mahjong as mj
    from sevenbridge.arena import make_bot, report
    from sevenbridge.external import ExternalPlayer
    from sevenbridge.serialize import state_from_json

    assert isinstance(tmp_path, Path)
    return [
        _raise(lambda: Card.parse("11H")),
        _raise(lambda: Card.parse("7X")),
        _raise(lambda: parse_move("P1 Fly")),
        _raise(lambda: parse_move("P1 Discard 7X")),
        _raise(lambda: replay('[Players "2"]\n[Seed "x"]\n')),
        _raise(lambda: replay("P1 Draw\n")),
        _raise(lambda: state_from_json("{")),
        _raise(lambda: state_from_json("[]")),
        _raise(lambda: deal(players=7)),
        _raise(lambda: deal(seed=-1)),
        _raise(lambda: Rules(jokers=5)),
        _raise(lambda: Meld.parse("2H 5S 9D")),
        _raise(lambda: mj.Tile.parse("0m")),
        _raise(lambda: mj.deal(players=9)),
        _raise(lambda: mj.parse_action("P1 Chew 46m")),
        _raise(lambda: make_bot("nosuchbot", 0)),
        _raise(lambda: report(tmp_path / "missing.db")),
        _raise(lambda: ExternalPlayer(["false"]).start()),
    ]


def test_library_errors_read_in_japanese(tmp_path: object) -> None:
    from sevenbridge import SevenBridgeError, translate
    from sevenbridge.errors import Message

    kinds: set[str] = set()
    for error in _errors(tmp_path):
        assert isinstance(error, SevenBridgeError), repr(error)
        kinds.add(type(error).__name__)
        message = error.detail
        assert isinstance(message, Message) and message == str(error), repr(error)
        assert message.code.split(".")[0] and "{" not in message
        assert translate(error) == str(error)
        japanese = translate(error, "ja")
        assert japanese != str(error) and "{" not in japanese, japanese
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese), japanese
        assert not re.search(r"\b(is|not|the|must|cannot|expected)\b", japanese), japanese
        assert translate(pickle_copy(error), "ja") == japanese
    assert kinds >= {
        "InvalidCardError", "NotationError", "RecordError", "InvalidStateError",
        "InvalidArgumentError", "RulesConfigError", "InvalidMeldError", "InvalidTileError",
        "StoreError", "ExternalBotError",
    }, kinds  # fmt: skip


def pickle_copy(error: BaseException) -> BaseException:
    import pickle

    return pickle.loads(pickle.dumps(error))  # type: ignore[no-any-return]


def test_nested_messages_and_bounds_translate() -> None:
    from sevenbridge import Card, InvalidArgumentError, NotationError, deal, parse_move, translate

    with pytest.raises(InvalidArgumentError) as info:
        deal(players=7)
    assert str(info.value) == (
        "players must be from 2 to 5 (Seven Bridge is for 2 to 5 players), not 7"
    )
    assert translate(info.value, "ja") == (
        "playersは2から5でなければなりません（セブンブリッジは2人から5人で遊びます）。7は使えません"
    )
    with pytest.raises(NotationError) as notation:
        parse_move("P1 Discard 7X")
    assert "スート「X」はC D H S" in translate(notation.value, "ja")
    assert translate(notation.value, "ja").startswith("1行")
    with pytest.raises(Exception) as card:
        Card.parse("11H")
    assert translate(card.value, "ja") == (
        "「11H」はカードではありません：ランク「11」はA 2-10 T J Q Kのどれでもありません"
    )


def test_json_kinds_translate() -> None:
    from sevenbridge import InvalidStateError, translate
    from sevenbridge.serialize import state_from_json

    with pytest.raises(InvalidStateError) as info:
        state_from_json("[]")
    assert str(info.value) == "state: expected a JSON object, found a list"
    assert translate(info.value, "ja") == "state：JSONオブジェクトが必要ですが、リストでした"


def test_mahjong_illegal_actions_in_japanese() -> None:
    from sevenbridge import IllegalActionError, translate
    from sevenbridge import mahjong as mj

    state = mj.deal(seed=1)
    with pytest.raises(IllegalActionError) as info:
        mj.apply(state, mj.Pass(2))
    assert str(info.value) == (
        "illegal action Pass(2): it is seat 0 who must act (in turn), not seat 2"
    )
    assert translate(info.value, "ja") == (
        "不正な手（P2 パス）：動くのはP2ではなくP0です（手番の人）"
    )
    with pytest.raises(IllegalActionError) as info:
        mj.apply(state, mj.Discard(0, "9p"))
    assert translate(info.value, "ja").endswith("打牌は手番の終わりで、ツモか鳴きの後です")


def test_lists_quotes_names_and_tiles_in_japanese() -> None:
    import pickle

    from sevenbridge import mahjong as mj
    from sevenbridge import translate
    from sevenbridge._kit.i18n import name_text, quoted
    from sevenbridge._kit.words import Listing
    from sevenbridge.errors import Message, quote

    totals = Message("deal.totals", "Totals: {totals}", totals=Listing(["P0 1", "P1 0"]))
    assert str(totals) == "Totals: P0 1, P1 0"
    assert translate(totals, "ja") == translate(pickle.loads(pickle.dumps(totals)), "ja")
    assert translate(totals, "ja") == "累計：P0 1、P1 0"
    said = Message("x", "{text} is not a move", text=quote("Dscard"))
    assert str(said) == "'Dscard' is not a move" and "「Dscard」" in translate(said, "ja")
    assert quoted("it's", "ja") == "「it's」" and quoted("a" * 100, "ja").count("...") == 1
    assert (
        name_text("seven_rummy", "ja") == "セブンラミー" and name_text("full", "ja") == "全部入り"
    )
    tiles = mj.parse_tiles("123m E Wd 1f 5f")
    assert mj.format_tiles(tiles, lang="ja") == "123m東白梅春"
    assert mj.format_tiles(tiles) == "123mEWd15f"
    assert translate(Message("y", "{t}", t=tiles[3]), "ja") == "東"


def test_the_mahjong_dealer_reads_as_a_mahjong_player_says_it() -> None:
    from sevenbridge import deal, svg
    from sevenbridge import mahjong as mj
    from sevenbridge.mahjong import svg as mj_svg

    assert "dealer\x04" not in "".join(marked_messages())  # the context comes first
    assert "mahjong\x04dealer" in marked_messages()
    drawing = mj_svg.table(mj.deal(seed=1), lang="ja")
    assert "P0 · 親 · " in drawing and "ディーラー" not in drawing
    assert "P0 · dealer · " in mj_svg.table(mj.deal(seed=1))
    assert "ディーラー" in svg.table(deal(seed=1), lang="ja")

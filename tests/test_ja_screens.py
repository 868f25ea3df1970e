"""No English left on a Japanese screen, and no half-width punctuation in Japanese text.

Every screen a person reads with ``--lang ja`` is driven for real, for both
games: the demo's output, a whole game of ``play`` through a pseudo-terminal
(hint, why, rules, help, a word it does not know, then to the end), the
tournament's table, the replay viewer's page and the web table's pages in
Chromium (their visible text, their tooltips and labels), and the drawings'
text (``svg.table(..., lang="ja")``: labels, titles, descriptions). Each text
is checked for ASCII words of three letters or more.

What may stay in Latin letters, and why (the allow-list is :data:`ALLOWED`):

- card and tile codes, seat labels and numbers (``JK``, ``5m``, ``P0``): under
  three letters, so never a "word" here;
- what the person typed and the moves they may type, which the program
  quotes back in 「」 (``「Dscard」はわかりませんでした``);
- option names (``--seat``) and the terminal's commands (``hint``, ``why``,
  ``rules``, ``undo``, ``help``, ``quit``, ``table``), which are typed as they
  are, and the keys to press (``Ctrl``, ``Home``, ``End``, as keyboards label them);
- file paths and web addresses;
- ``CPU`` and ``ISMCTS``, which Japanese writes in Latin letters too;
- ``English``, the web table's switch to English, which names the language
  as it names itself (as the English pages name Japanese 日本語).
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from sevenbridge import Draw, Rules, apply, legal_actions, observe, svg
from sevenbridge import mahjong as mj
from sevenbridge._kit.i18n import translator
from sevenbridge.cli import main
from sevenbridge.mahjong import svg as mj_svg
from sevenbridge.mahjong import text as mj_text

_ = translator("ja")

#: Latin words a Japanese screen may show (see the module's docstring).
ALLOWED = frozenset(
    {"hint", "why", "rules", "undo", "help", "quit", "table", "Ctrl", "Home", "End", "CPU",
     "ISMCTS", "English"}
)  # fmt: skip
_WORD = re.compile(r"[A-Za-z]{3,}")
#: Half-width punctuation right after Japanese text (``山札: 32枚``): Japanese
#: writes ``：`` ``、`` ``；``.
_HALF_WIDTH = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff][:,;] ")
_QUOTED = re.compile(r"「[^」]*」")
_OPTION = re.compile(r"(?<![\w-])--?[a-z][a-z-]*")
_ADDRESS = re.compile(
    r"https?://[!-~]+|(?:/[\w.+?=&-]+)+/?|[A-Za-z0-9_.-]+\.(?:txt|html|db|csv|json)(?![A-Za-z0-9])"
)


def english(text: str) -> list[str]:
    """The Latin words of ``text`` outside :data:`ALLOWED`, with their line."""
    found = []
    for line in text.splitlines():
        bare = _ADDRESS.sub(" ", _OPTION.sub(" ", _QUOTED.sub(" ", line)))
        found += [f"{word} in {line.strip()!r}" for word in _WORD.findall(bare)
                  if word not in ALLOWED]  # fmt: skip
        found += [f"{mark!r} in {line.strip()!r}" for mark in _HALF_WIDTH.findall(bare)]
    return found


def check(text: str, where: str) -> None:
    left = english(text)
    assert not left, f"{where}: English left on a Japanese screen:\n  " + "\n  ".join(
        dict.fromkeys(left)
    )


def test_the_check_finds_english_and_lets_the_allowed_through() -> None:
    assert english("P0が♥7を捨てた") == []
    assert english("P0がDiscard 7Hを捨てた") == ["Discard in 'P0がDiscard 7Hを捨てた'"]
    assert english("「Dscard」はわかりません。hint、--seat、/tmp/x/sb.txt、CPU") == []
    assert english("standardルール、プレイヤーはgreedy") == [
        "standard in 'standardルール、プレイヤーはgreedy'",
        "greedy in 'standardルール、プレイヤーはgreedy'",
    ]
    assert english("123m55p東東東 5s") == [] and english("123mWdWd")
    assert english("山札：32枚、捨て札") == [] and english("山札: 32枚") == [
        "'札: ' in '山札: 32枚'"
    ]


# -- the terminal --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["demo"],
        ["demo", "--rules", "nintendo", "--bot", "random"],
        ["demo", "--match", "--players", "4", "--seed", "8"],
        ["demo", "--game", "mahjong", "--players", "3"],
        ["demo", "--game", "mahjong", "--rules", "full", "--players", "2"],
    ],
)
def test_demo(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    check(out, " ".join(argv))


@pytest.mark.parametrize("game", ["sevenbridge", "mahjong"])
def test_tournament(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    argv = ["tournament", "--game", game, "--bots", "greedy,random", "--deals", "2", "--quiet",
            "--db", str(db), "--seed", "0", "--lang", "ja"]  # fmt: skip
    assert main(argv) == 0
    assert main(["tournament", "--report", str(db), "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "欲張り" in out and "ランダム" in out
    check(out, "tournament")


def _play(tmp_path: Path, args: list[str], typed: list[str]) -> str:
    """A whole game of ``play --lang ja`` through a pseudo-terminal: ``typed``
    first, then 1 at every prompt to the end; what the screen showed."""
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable, ["-m", "sevenbridge", "play", *args, "--lang", "ja"], cwd=str(tmp_path),
        env=env, encoding="utf-8", timeout=60, dimensions=(50, 120),
    )  # fmt: skip
    prompt = _("your move> ")
    assert prompt != "your move> "
    asks = [prompt, _("Save the record? [y/N] "), _("File name [{name}]: ").split("[")[0]]
    out, queue = "", list(typed)
    while True:
        found = child.expect_exact([*asks, pexpect.EOF])
        out += child.before + (asks[found] if found < len(asks) else "")
        if found == len(asks):
            break
        child.sendline(queue.pop(0) if queue else "1")
    child.close()
    assert child.exitstatus == 0
    for ask in asks:  # what was typed there
        out = re.sub(re.escape(ask) + ".*", ask, out)
    return re.sub(r"\x1b\[[0-9;]*m", "", out.replace("\r", ""))


@pytest.mark.parametrize(
    ("args", "typed"),
    [
        (["--seed", "10", "--practice"],
         ["hint", "why 1", "why", "why Dscard 7H", "rules", "help", "Dscard", "99", "table",
          "undo", "2", "undo"]),
        (["--seed", "1", "--rules", "nintendo", "--players", "4", "--no-auto"], ["hint", "rules"]),
        (["--game", "mahjong", "--seed", "5"],
         ["hint", "why 1", "rules", "help", "Dscard", "undo", "Discard 9s", "table"]),
        (["--game", "mahjong", "--rules", "full", "--players", "2", "--seed", "3", "--no-auto"],
         ["hint", "rules"]),
    ],
    ids=["sevenbridge", "nintendo", "mahjong", "mahjong-full"],
)  # fmt: skip
def test_play_in_a_terminal(args: list[str], typed: list[str], tmp_path: Path) -> None:
    out = _play(tmp_path, [*args, "--record", "game.txt"], typed)
    assert (tmp_path / "game.txt").exists()
    check(out, "play " + " ".join(args))


def test_quitting_play(tmp_path: Path) -> None:
    out = _play(tmp_path, ["--seed", "3"], ["quit", "y", "saved.txt"])
    assert (tmp_path / "saved.txt").exists()
    check(out, "play, quit")


# -- the drawings ---------------------------------------------------------------------------

_SVG_TEXT = re.compile(r"<(text|title|desc|tspan)\b[^>]*>([^<]*)</\1>")
_SVG_ATTR = re.compile(r'\b(?:aria-label|title)="([^"]*)"')


def svg_text(picture: str) -> str:
    """What a drawing says: its text elements, titles, descriptions and labels."""
    import html

    parts = [m[2] for m in _SVG_TEXT.finditer(picture)] + _SVG_ATTR.findall(picture)
    return "\n".join(html.unescape(p) for p in parts)


def _positions(module: Any, rules: Any, players: int, seed: int) -> Iterator[Any]:
    rng = random.Random(seed)
    state = module.deal(rules, players=players, seed=seed)
    while True:
        yield state
        if state.is_over:
            return
        actions = module.legal_actions(state)
        state = module.apply(state, actions[rng.randrange(len(actions))])


@pytest.mark.parametrize("preset", ["standard", "nintendo"])
def test_card_drawings(preset: str) -> None:
    for k, state in enumerate(_positions(sys.modules["sevenbridge"], Rules.preset(preset), 4, 5)):
        if k % 7 and not state.is_over:
            continue
        for position in (state, observe(state, 1)):
            check(svg_text(svg.table(position, lang="ja")), f"svg.table {k}")
            check(svg_text(svg.table(position, lang="ja", names=["A", "B", "C", "D"])), "names")
        check(svg_text(svg.hand(state.hand(0), lang="ja")), "svg.hand")
        for meld in state.melds:
            check(svg_text(svg.meld(meld, lang="ja")), "svg.meld")
    check(svg_text(svg.card("JK", lang="ja") + svg.card("7H", face_down=True, lang="ja")), "card")


@pytest.mark.parametrize(("preset", "players"), [("standard", 4), ("full", 2)])
def test_mahjong_drawings(preset: str, players: int) -> None:
    for k, state in enumerate(_positions(mj, mj.Rules.preset(preset), players, 6)):
        if k % 11 and not state.is_over:
            continue
        for position in (state, mj.observe(state, 0)):
            check(svg_text(mj_svg.table(position, lang="ja")), f"mahjong svg.table {k}")
        check(svg_text(mj_svg.hand(state.hands[0], lang="ja")), "mahjong svg.hand")
        for meld in state.melds:
            check(svg_text(mj_svg.meld(meld, lang="ja")), "mahjong svg.meld")
    check(svg_text(mj_svg.tile("Rd", lang="ja") + mj_svg.tile("E", face_down=True, lang="ja")),
          "tile")  # fmt: skip


# -- what the library says: render, explain, refusals -----------------------------------------


def test_render_explain_and_refusals() -> None:
    from sevenbridge import IllegalActionError, explain, render, translate
    from sevenbridge.text import deal_words, move_words

    said: list[str] = []
    for preset in ("standard", "nintendo"):
        for state in _positions(sys.modules["sevenbridge"], Rules.preset(preset), 3, 2):
            said += [render(state, lang="ja"), render(observe(state, 0), lang="ja")]
            if state.is_over:
                said += deal_words(state, lang="ja")
                continue
            for action in legal_actions(state)[:6]:
                said += [explain(state, action, lang="ja"), move_words(state, action, lang="ja")]
            try:
                apply(state, Draw(((state.current_player or 0) + 1) % state.players))
            except IllegalActionError as error:
                said.append(translate(error, "ja"))
    for state in _positions(mj, mj.Rules.preset("full"), 3, 4):
        said += [mj.render(state, lang="ja"), mj.render(mj.observe(state, 1), lang="ja")]
        if state.is_over:
            said += mj_text.round_words(state, lang="ja")
            continue
        for move in mj.legal_actions(state)[:6]:
            said.append(mj.explain(state, move, lang="ja"))
            said.append(mj_text.move_words(state, move, lang="ja"))
        try:
            mj.apply(state, mj.Pass((state.current_player + 1) % state.seats))
        except IllegalActionError as error:
            said.append(translate(error, "ja"))
    check("\n".join(said), "render, explain, move_words, refusals")


# -- pages in Chromium ---------------------------------------------------------------------

#: The text of a page a person reads: what shows, and the tooltips and labels.
_PAGE_TEXT = """() => {
  const out = [document.title, document.body.innerText];
  for (const e of document.querySelectorAll('[title],[aria-label],[placeholder],[alt]'))
    for (const a of ['title', 'aria-label', 'placeholder', 'alt'])
      if (e.getAttribute(a)) out.push(e.getAttribute(a));
  return out.join('\\n');
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from . import browser as chromium

    yield from chromium.browser()


def page_text(page: Any) -> str:
    return str(page.evaluate(_PAGE_TEXT))


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--rules", "nintendo", "--match", "--players", "3", "--seed", "8"],
        ["demo", "--game", "mahjong", "--players", "3", "--rules", "full"],
    ],
)
def test_viewer(argv: list[str], browser: Any, tmp_path: Path) -> None:
    record, page_file = tmp_path / "game.txt", tmp_path / "game.html"
    assert main([*argv, "--quiet", "--record", str(record)]) == 0
    assert main(["view", str(record), "-o", str(page_file), "--lang", "ja"]) == 0
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    seen = [page_text(page)]
    for _step in range(30):
        page.keyboard.press("ArrowRight")
    page.select_option("#seat", "1")
    seen.append(page_text(page))
    page.click("#end")
    seen.append(page_text(page))
    page.close()
    check("\n".join(seen), "viewer")


def _web_round(page: Any, server: Any, game: str, rules: str, players: str) -> str:
    """A game opened from the lobby and played to its end; every screen's text
    (the table's name, random letters, taken out)."""
    from .test_web_browser import ANY_TURN, TIMEOUT_MS, click_first_move

    seen = []
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url + "/")
    page.select_option("#game", game)
    page.select_option("#rules", rules)
    page.select_option("#players", players)
    page.select_option("#deals", "1")
    seen.append(page_text(page))
    page.click("#open")
    page.wait_for_selector("a.seatlink")  # the lobby's new page, not the old one going
    seen.append(page_text(page))
    link = page.locator("a.seatlink").first
    table = urlsplit(str(link.get_attribute("href"))).path.split("/")[2]  # /table/ID/SEAT
    link.click()
    page.wait_for_selector("body[data-ready='1']")
    for k in range(300):
        page.wait_for_selector(ANY_TURN)
        if page.get_attribute("body", "data-over"):
            break
        if k == 0:  # a refusal: a card discarded before the draw
            page.click("#hand button >> nth=0")
            page.click("#selbar button[data-kind='Discard']")
            page.wait_for_selector("#message:not(:empty)")
            seen.append(page_text(page))
            page.click("#clear")
        if k % 5 == 0:
            seen.append(page_text(page))
        click_first_move(page)
    page.wait_for_selector("#result:not([hidden])")
    seen.append(page_text(page))
    return "\n".join(seen).replace(table, "")


@pytest.mark.parametrize(
    ("game", "rules", "players"),
    [("seven_bridge", "nintendo", "3"), ("mahjong", "full", "2")],
)
def test_web_table(game: str, rules: str, players: str, browser: Any, tmp_path: Path) -> None:
    from .web_server import Server

    server = Server(tmp_path / "tables.db", lang="ja").start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="ja-JP")
        check(_web_round(page, server, game, rules, players), f"web table, {game}")
        page.goto(server.url + "/nosuchpage")
        check(page_text(page), "web error page")
        page.close()
    finally:
        server.stop()

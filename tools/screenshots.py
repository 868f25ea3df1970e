"""Make the pictures of docs/howto/pictures.md (python tools/screenshots.py [GAME ...]).

The SVG drawings are written by :mod:`sevenbridge.svg` (a test checks they are
current); the PNG screenshots of the replay viewer and of a terminal game are
taken with headless Chromium (Debian's ``chromium``) through Playwright, and
the terminal game is played through a pseudo-terminal with pexpect. The
screenshots are of each game of :data:`SHOTS` (the card game's ``viewer.png``
and ``terminal.png``, Simple Mahjong's ``mahjong-viewer.png`` and
``mahjong-terminal.png``, and the card game in Japanese, ``ja-viewer.png`` and
``ja-terminal.png``; with Simple Mahjong, ``mahjong-viewer-claims-phone.png``, a
claim that gives way told on a phone), or only of the sets named on the command
line (``japanese``);
``notebook.png`` (a notebook run with nbclient, exported to HTML by nbconvert)
is taken with every game, or alone when ``notebook`` is named.
"""

from __future__ import annotations

import html
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "docs" / "_static"
EXTRA = ROOT / "docs" / "_extra"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.docs_pictures import (  # noqa: E402
    PICTURES,
    claim_round,
    example_record,
    mahjong_position,
)

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]  # fmt: skip


def mahjong_record() -> str:
    """The record of the whole round of :func:`mahjong_position`."""
    from sevenbridge import mahjong

    return mahjong.record(mahjong_position(10_000))


@dataclass(frozen=True)
class Shots:
    """What the two screenshots of one game show."""

    game: str  # the --game of ``sevenbridge play``
    record: Callable[[], str]  # the record the viewer replays
    steps: int  # moves stepped forward in the viewer
    viewport: tuple[int, int]  # the viewer's window
    page: Path | None  # where the viewer page is published (None: not published)
    seed: int  # the terminal game's --seed
    lines: tuple[str, ...]  # what is typed at the terminal game's prompts
    prefix: str  # of the PNGs' names: PREFIXviewer.png, PREFIXterminal.png
    lang: str = "en"  # the language of the viewer and the terminal game


_CARD_SHOTS = Shots(
    game="sevenbridge",
    record=example_record,
    steps=24,
    viewport=(1000, 700),
    page=EXTRA / "viewer" / "example.html",
    seed=72,
    lines=("hint", "why 4", "why LayDown 9H 10H JH"),
    prefix="",
)
SHOTS = {
    "sevenbridge": _CARD_SHOTS,
    "mahjong": Shots(
        game="mahjong",
        record=mahjong_record,
        steps=60,
        viewport=(1000, 720),
        page=None,
        seed=5,
        lines=("hint", "Discard 3s", "rd", "why 1"),
        prefix="mahjong-",
    ),
    # The card game in Japanese: ja-viewer.png, ja-viewer-phone.png, ja-terminal.png.
    "japanese": replace(_CARD_SHOTS, page=None, prefix="ja-", lang="ja"),
}


def terminal_transcript(shots: Shots) -> str:
    import pexpect

    from sevenbridge._kit.i18n import translator

    args = ["-m", "sevenbridge", "play", "--game", shots.game, "--seed", str(shots.seed),
            "--lang", shots.lang]  # fmt: skip
    prompt = translator(shots.lang)("your move> ")
    child = pexpect.spawn(
        sys.executable,
        [*args, "--practice"],
        env={"TERM": "xterm-256color", "PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin"},
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 100),
    )
    out = ""
    for line in shots.lines:
        child.expect_exact(prompt)
        out += child.before + prompt
        child.sendline(line)
    child.expect_exact(prompt)
    out += child.before + prompt
    child.sendline("quit")
    child.sendline("n")
    child.expect(pexpect.EOF)
    return str(out).replace("\r", "")


def ansi_to_html(text: str) -> str:
    text = html.escape(text)
    text = text.replace("\x1b[31m", '<span style="color:#ff6b6b">')
    text = text.replace("\x1b[32m", '<span style="color:#7bd88f">')
    text = text.replace("\x1b[34m", '<span style="color:#6cb6ff">')
    text = text.replace("\x1b[1m", '<span style="font-weight:bold;color:#ffd866">')
    text = text.replace("\x1b[0m", "</span>")
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def shoot(browser: Any, shots: Shots) -> None:
    """Write ``shots``' viewer and terminal screenshots (and its published viewer page)."""
    from sevenbridge.html import record_page

    with tempfile.TemporaryDirectory() as tmp:
        viewer = shots.page or Path(tmp) / "viewer.html"
        viewer.parent.mkdir(exist_ok=True)
        viewer.write_text(record_page(shots.record(), lang=shots.lang), encoding="utf-8")
        width, height = shots.viewport
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(viewer.as_uri())
        page.wait_for_selector("body[data-ready='1']")
        for _ in range(shots.steps):
            page.keyboard.press("ArrowRight")
        page.select_option("#seat", "1")
        page.screenshot(path=str(STATIC / f"{shots.prefix}viewer.png"))
        # The same page on a phone: the move list under the board.
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(viewer.as_uri())
        phone.wait_for_selector("body[data-ready='1']")
        for _ in range(shots.steps):
            phone.click("#next")
        phone.screenshot(path=str(STATIC / f"{shots.prefix}viewer-phone.png"))
    page_html = (
        "<body style='margin:0;background:#1e1e1e'><pre style='margin:0;padding:12px;"
        "color:#e6e6e6;font:14px DejaVu Sans Mono,monospace'>"
        + ansi_to_html(terminal_transcript(shots))
        + "</pre></body>"
    )
    page = browser.new_page(viewport={"width": 820, "height": 400})
    page.set_content(page_html)
    page.screenshot(path=str(STATIC / f"{shots.prefix}terminal.png"), full_page=True)


def shoot_claims(browser: Any) -> None:
    """``mahjong-viewer-claims-phone.png``: the viewer on a phone, from P0's
    seat, at the end of :func:`claim_round` (P0's chow gives way to a win)."""
    from sevenbridge.html import record_page

    with tempfile.TemporaryDirectory() as tmp:
        viewer = Path(tmp) / "viewer.html"
        viewer.write_text(record_page(claim_round()), encoding="utf-8")
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(viewer.as_uri())
        phone.wait_for_selector("body[data-ready='1']")
        phone.select_option("#seat", "1")
        phone.keyboard.press("End")
        phone.screenshot(path=str(STATIC / "mahjong-viewer-claims-phone.png"))


#: The cells of the notebook of ``notebook.png``: rules, a hand and a meld.
NOTEBOOK_CELLS = (
    "import sevenbridge as sb\nfrom sevenbridge import svg\n\n"
    "sb.Rules.nintendo().replace(ace_high=False, target_score=500)",
    "svg.hand(sb.deal(seed=2).hand(0))",
    'sb.Meld.parse("4S 5S JK=6S")',
)


def shoot_notebook(browser: Any) -> None:
    """Write ``notebook.png``: :data:`NOTEBOOK_CELLS` run, exported to HTML as
    ``jupyter nbconvert --to html`` does, and shown in Chromium."""
    import nbclient
    import nbconvert
    import nbformat

    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in NOTEBOOK_CELLS]
    )
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    exported, _ = nbconvert.HTMLExporter().from_notebook_node(notebook)
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "notebook.html"
        page_file.write_text(exported, encoding="utf-8")
        page = browser.new_page(viewport={"width": 820, "height": 400})
        page.goto(page_file.as_uri())
        page.screenshot(path=str(STATIC / "notebook.png"), full_page=True)


def main(games: list[str]) -> None:
    """Write the drawings, then the screenshots of ``games`` (default: of every
    game, and the notebook's)."""
    from playwright.sync_api import sync_playwright

    notebook = not games or "notebook" in games
    games = [g for g in games if g != "notebook"] if games else list(SHOTS)
    unknown = [g for g in games if g not in SHOTS]
    if unknown:
        raise SystemExit(
            f"no screenshots for {', '.join(unknown)}; known: {', '.join([*SHOTS, 'notebook'])}"
        )
    STATIC.mkdir(exist_ok=True)
    for name, make in PICTURES.items():
        (STATIC / name).write_text(make(), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for game in games:
            shoot(browser, SHOTS[game])
            if game == "mahjong":
                shoot_claims(browser)
        if notebook:
            shoot_notebook(browser)
        browser.close()
    print("pictures written to", STATIC)


if __name__ == "__main__":
    main(sys.argv[1:])

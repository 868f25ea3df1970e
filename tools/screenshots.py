"""Make the pictures of docs/howto/pictures.md (python tools/screenshots.py).

The SVG drawings are written by :mod:`sevenbridge.svg` (a test checks they are
current); the PNG screenshots of the replay viewer and of a terminal game are
taken with headless Chromium (Debian's ``chromium``) through Playwright, and
the terminal game is played through a pseudo-terminal with pexpect.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "docs" / "_static"
EXTRA = ROOT / "docs" / "_extra"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.docs_pictures import PICTURES, example_record  # noqa: E402

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]  # fmt: skip


def terminal_transcript() -> str:
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        ["-m", "sevenbridge", "play", "--seed", "72", "--practice"],
        env={"TERM": "xterm-256color", "PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin"},
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 100),
    )
    out = ""
    for line in ("hint", "Draw", "hint", "why LayDown 9H 10H JH"):
        child.expect_exact("your move> ")
        out += child.before + "your move> "
        child.sendline(line)
    child.expect_exact("your move> ")
    out += child.before + "your move> "
    child.sendline("quit")
    child.sendline("n")
    child.expect(pexpect.EOF)
    return str(out).replace("\r", "")


def ansi_to_html(text: str) -> str:
    text = html.escape(text)
    text = text.replace("\x1b[31m", '<span style="color:#ff6b6b">')
    text = text.replace("\x1b[1m", '<span style="font-weight:bold;color:#ffd866">')
    text = text.replace("\x1b[0m", "</span>")
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def main() -> None:
    from playwright.sync_api import sync_playwright

    from sevenbridge.html import record_page

    STATIC.mkdir(exist_ok=True)
    for name, make in PICTURES.items():
        (STATIC / name).write_text(make(), encoding="utf-8")
    viewer = EXTRA / "viewer" / "example.html"
    viewer.parent.mkdir(exist_ok=True)
    viewer.write_text(record_page(example_record()), encoding="utf-8")
    transcript = terminal_transcript()
    page_html = (
        "<body style='margin:0;background:#1e1e1e'><pre style='margin:0;padding:12px;"
        "color:#e6e6e6;font:14px DejaVu Sans Mono,monospace'>"
        + ansi_to_html(transcript)
        + "</pre></body>"
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        page.goto(viewer.as_uri())
        page.wait_for_selector("body[data-ready='1']")
        for _ in range(24):
            page.keyboard.press("ArrowRight")
        page.select_option("#seat", "1")
        page.screenshot(path=str(STATIC / "viewer.png"))
        page = browser.new_page(viewport={"width": 820, "height": 400})
        page.set_content(page_html)
        page.screenshot(path=str(STATIC / "terminal.png"), full_page=True)
        browser.close()
    print("pictures written to", STATIC)


if __name__ == "__main__":
    main()

"""The web table as people use it: Debian's Chromium, driven by Playwright,
against a real server (``sevenbridge serve`` in a subprocess).

A whole deal against bots at desktop and at phone size, two people at one
table in two browsers, a page reloaded mid-deal, and a server killed and
started again mid-deal. Each test keeps screenshots in its temporary folder;
``SEVENBRIDGE_SHOTS=docs/_static`` writes the documentation's pictures
(``web-*.png``) there instead.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import browser as chromium
from .pngread import pixels
from .test_svg_narrow_browser import page_measures
from .web_server import Server, need_web, wait_for

DESKTOP = {"width": 1280, "height": 900}
#: Each of two browsers side by side.
HALF = {"width": 960, "height": 820}
PHONE = {"width": 390, "height": 844}
#: Generous: the machine may be busy.
TIMEOUT_MS = 120_000
ANY_TURN = "body[data-turn='1'], body[data-over='deal'], body[data-over='match']"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_web()
    yield from chromium.browser()


def shot(page: Any, name: str, tmp_path: Path, *, full_page: bool = True) -> Path:
    """A screenshot, checked to show a drawn page (not a blank one)."""
    where = Path(os.environ.get("SEVENBRIDGE_SHOTS") or tmp_path)
    path = where / name
    page.screenshot(path=str(path), full_page=full_page)
    width, height, rgb = pixels(path.read_bytes())
    assert width > 300 and height > 300 and len(set(rgb)) > 40, name
    return path


def seat_page(browser: Any, url: str, viewport: dict[str, int], locale: str = "en-US") -> Any:
    page = browser.new_page(viewport=viewport, locale=locale)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def ply(page: Any) -> int:
    return int(page.get_attribute("body", "data-ply"))


def click_first_move(page: Any) -> None:
    """Play the first legal move the page offers and wait until the table shows it."""
    before = ply(page)
    page.click("#moves button.move[data-index='0']")
    page.wait_for_selector(f"body[data-ply]:not([data-ply='{before}'])")


def play_to_the_end(page: Any, *, most: int = 200) -> int:
    """Play the seat's first legal move at each of its turns until the deal ends."""
    for moves in range(most):
        page.wait_for_selector(ANY_TURN)
        if page.get_attribute("body", "data-over"):
            return moves
        click_first_move(page)
    raise AssertionError("the deal did not end")


def test_a_whole_deal_against_bots_on_a_desktop(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        page = browser.new_page(viewport=DESKTOP)
        page.set_default_timeout(TIMEOUT_MS)
        # The lobby opens the table: rules, players, who plays each seat.
        page.goto(server.url + "/")
        page.select_option("#rules", "standard")
        page.select_option("#players", "3")
        page.select_option("#deals", "1")
        page.select_option("#seat1", "greedy")
        page.select_option("#seat2", "random")
        page.fill("input[name=seed]", "3")
        assert page.locator("#seat3").is_hidden()
        page.click("#open")
        links = page.locator("a.seatlink")
        assert links.count() == 1
        links.first.click()
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("body[data-turn='1']")
        assert page.inner_text("#status").startswith("Your turn:")
        # A card chosen, a move the rules forbid: the engine's reason, and nothing played.
        at = ply(page)
        page.click("#hand button.card >> nth=0")
        assert page.get_attribute("#hand button.card >> nth=0", "aria-pressed") == "true"
        page.click("#selbar button[data-kind='Discard']")
        page.wait_for_selector("#message:has-text('a turn begins by drawing')")
        assert ply(page) == at
        page.click("#clear")
        # The legal moves, grouped by kind; after a draw, choosing a card shows its moves.
        assert page.locator("#moves [data-group='Draw'] button").count() == 1
        click_first_move(page)
        page.wait_for_selector("body[data-turn='1']")
        card = page.get_attribute("#hand button.card >> nth=0", "data-card")
        page.click(f"#hand button.card[data-card='{card}']")
        offered = page.locator("#moves button.move")
        assert offered.count() >= 1
        for k in range(offered.count()):
            assert card in (offered.nth(k).get_attribute("data-notation") or "")
        shot(page, "web-desktop.png", tmp_path)
        page.click("#clear")
        play_to_the_end(page)
        # The end of the deal: each hand, its points, the scores and the totals.
        page.wait_for_selector("#result:not([hidden])")
        rows = page.locator("#result tbody tr")
        assert rows.count() == 3
        assert "went out" in page.inner_text("#result h2")
        assert page.locator("#result tr.winner").count() == 1
        # Each loser's hand says why it counts what it does; the notes, what the score means.
        assert page.locator("#result .why").count() == 2
        assert "card values" in page.inner_text("#result .why >> nth=0")
        assert "scores" in page.inner_text("#result .notes")
        # The recent moves are told in words, the seat's own as "You".
        log = page.inner_text("#log")
        assert "You discard " in log and " discards " in log and ": Discard" not in log
        assert page.locator("#next").is_hidden()  # one deal: the match is over
        assert page.inner_text("#final").startswith("The match is over. Winner: ")
        shot(page, "web-end.png", tmp_path)
        page.close()
    finally:
        server.stop()


def test_a_whole_deal_at_phone_size(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        opened = server.open_table(["human", "greedy", "random"], deals=2, seed=14)
        page = seat_page(browser, server.url + opened["seats"][0]["url"], PHONE)
        # Everything fits the phone's width: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.wait_for_selector("body[data-turn='1']")
        box = page.locator("#hand button.card >> nth=0").bounding_box()
        assert box is not None and box["width"] >= 44  # big enough for a finger
        # The table in its narrow layout, readable as drawn: no text under 12 px.
        assert page.get_attribute("#board", "data-layout") == "narrow"
        found = page_measures(page)
        assert found["font"] >= 12 and found["over"] <= 0.5, found
        shot(page, "web-phone.png", tmp_path, full_page=False)
        play_to_the_end(page)
        found = page_measures(page)  # the end of the deal: every hand shown
        assert found["font"] >= 12 and found["card"] >= 28, found
        page.set_viewport_size(DESKTOP)  # turned into a wide window: the wide drawing
        page.wait_for_selector("#board[data-layout='wide']")
        page.set_viewport_size(PHONE)
        page.wait_for_selector("#board[data-layout='narrow']")
        play_to_the_end(page)
        page.wait_for_selector("#result:not([hidden])")
        assert page.inner_text("#result h2").startswith("Deal 1 is over")
        # A match of two deals: the next deal starts when asked.
        page.click("#next")
        page.wait_for_selector("#result", state="hidden")
        assert "deal 2" in page.inner_text("#who")
        page.close()
    finally:
        server.stop()


def test_two_people_at_one_table_see_each_others_moves(browser: Any, tmp_path: Path) -> None:
    # The same cards every run (for the documentation's picture): a seed chosen for
    # two people, which the server takes only when told to.
    server = Server(tmp_path / "tables.db", extra=("--allow-seed",)).start()
    try:
        opened = server.open_table(["human", "human", "greedy"], deals=1, seed=3)
        urls = {s["seat"]: server.url + s["url"] for s in opened["seats"]}
        first, second = browser.new_context(viewport=HALF), browser.new_context(viewport=HALF)
        pages = {}
        for seat, context in ((0, first), (1, second)):
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(urls[seat])
            page.wait_for_selector("body[data-live='1']")
            pages[seat] = page
        assert "P0" in pages[0].inner_text("#who") and "P1" in pages[1].inner_text("#who")
        shown = 0
        for _ in range(400):
            waiting = [s for s, p in pages.items() if p.get_attribute("body", "data-turn") == "1"]
            if pages[0].get_attribute("body", "data-over"):
                break
            if not waiting:
                pages[0].wait_for_timeout(50)
                continue
            seat = waiting[0]
            other = pages[1 - seat]
            before = ply(other)
            click_first_move(pages[seat])
            # The other browser sees the move as it happens, without a reload.
            other.wait_for_selector(f"body[data-ply]:not([data-ply='{before}'])")
            shown += 1
            if shown == 6:
                both = side_by_side(browser, pages[0], pages[1])
                shot(both, "web-two-players.png", tmp_path)
                both.close()
        assert shown > 4
        for page in pages.values():
            page.wait_for_selector("#result:not([hidden])")
        # Each browser saw only its own hand: the other's cards were face down.
        # Both see the same end, the winner told "You went out!", the other by name.
        headings = {seat: page.inner_text("#result h2") for seat, page in pages.items()}
        won = [seat for seat, h in headings.items() if h.endswith("You went out!")]
        if won:
            (winner,) = won
            (other,) = [seat for seat in headings if seat != winner]
            assert headings[other].endswith(f"P{winner} went out.")
        else:
            assert headings[0] == headings[1]
        first.close()
        second.close()
    finally:
        server.stop()


def side_by_side(browser: Any, left: Any, right: Any) -> Any:
    """A page showing two pages' screenshots side by side (for the docs)."""
    pictures = [base64.b64encode(p.screenshot()).decode() for p in (left, right)]
    page = browser.new_page(viewport={"width": 2 * HALF["width"] + 30, "height": HALF["height"]})
    page.set_content(
        "<body style='margin:0;background:#666;display:flex;gap:10px;padding:5px'>"
        + "".join(f"<img src='data:image/png;base64,{p}'>" for p in pictures)
        + "</body>"
    )
    return page


def test_a_tap_on_the_stock_draws_and_the_card_drawn_is_marked(
    browser: Any, tmp_path: Path
) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        opened = server.open_table(["human", "greedy", "random"], deals=1, seed=14)
        page = seat_page(browser, server.url + opened["seats"][0]["url"], PHONE)
        for _ in range(40):
            page.wait_for_selector(ANY_TURN)
            if page.locator("#moves [data-group='Draw']").count():
                break
            click_first_move(page)
        else:
            raise AssertionError("no turn to draw")
        before, cards = ply(page), page.locator("#hand button.card").count()
        assert page.locator("#hand button.card.drawn").count() == 0
        page.click("#board #stock [data-place='stock']")
        page.wait_for_selector(f"body[data-ply]:not([data-ply='{before}'])")
        assert page.locator("#hand button.card").count() == cards + 1
        marked = page.locator("#hand button.card.drawn")
        assert marked.count() == 1 and marked.get_attribute("data-drawn") == "1"
        assert "just drawn" in (marked.get_attribute("aria-label") or "")
        # The discard takes the mark away.
        click = page.locator("#moves [data-group='Discard'] button.move >> nth=0")
        before = ply(page)
        click.click()
        page.wait_for_selector(f"body[data-ply]:not([data-ply='{before}'])")
        assert page.locator("#hand button.card.drawn").count() == 0
        page.close()
    finally:
        server.stop()


def test_a_reloaded_page_comes_back_to_the_same_table(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", lang="ja").start()
    try:
        opened = server.open_table(["human", "greedy", "random"], deals=1, seed=7)
        # A browser that asks for no language of ours gets the server's (--lang ja).
        page = seat_page(browser, server.url + opened["seats"][0]["url"], DESKTOP, "fr-FR")
        page.wait_for_selector("body[data-turn='1']")
        click_first_move(page)
        page.wait_for_selector("body[data-turn='1']")
        before = ply(page)
        hand = page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        page.reload()
        page.wait_for_selector("body[data-live='1'][data-turn='1']")
        assert ply(page) == before
        after = page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        assert after == hand
        assert page.inner_text("#status").startswith("あなたの番")
        shot(page, "web-ja.png", tmp_path)
        click_first_move(page)
        page.close()
    finally:
        server.stop()


def test_a_server_restarted_mid_deal_and_the_page_plays_on(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        opened = server.open_table(["human", "greedy", "random"], deals=1, seed=4)
        page = seat_page(browser, server.url + opened["seats"][0]["url"], DESKTOP)
        for _ in range(3):
            page.wait_for_selector("body[data-turn='1']")
            click_first_move(page)
        page.wait_for_selector("body[data-live='1'][data-turn='1']")
        before = ply(page)
        server.kill()  # a crash, mid-deal
        page.wait_for_selector("body[data-live='0']")
        assert page.inner_text("#conn") == "reconnecting…"
        server.start()  # the same port, the same database
        page.wait_for_selector("body[data-live='1']")
        assert ply(page) == before and page.get_attribute("body", "data-turn") == "1"
        click_first_move(page)
        wait_for(lambda: ply(page) > before)
        page.close()
    finally:
        server.stop()


def test_a_round_of_simple_mahjong_from_the_lobby(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        page = browser.new_page(viewport=DESKTOP)
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server.url + "/")
        page.select_option("#game", "mahjong")
        # The lobby offers mahjong's presets and table sizes now.
        assert "full" in page.locator("#rules option").all_inner_texts()
        assert page.locator("#players option").all_inner_texts() == ["2", "3", "4"]
        page.select_option("#rules", "full")  # ghosts fill a table of two
        page.select_option("#players", "2")
        page.select_option("#deals", "1")
        page.fill("input[name=seed]", "11")
        page.click("#open")
        links = page.locator("a.seatlink")
        assert links.count() == 1
        links.first.click()
        page.wait_for_selector("body[data-turn='1']")
        assert page.inner_text("#title") == "Simple Mahjong"
        for _ in range(6):
            click_first_move(page)
            page.wait_for_selector("body[data-turn='1']")
        shot(page, "web-mahjong.png", tmp_path)
        play_to_the_end(page)
        page.wait_for_selector("#result:not([hidden])")
        assert page.inner_text("#result h2").startswith("Round 1 is over")
        assert page.locator("#result tbody tr").count() == 2  # two people; the ghosts play on
        page.close()
    finally:
        server.stop()


def test_a_person_asked_about_a_claim_sees_the_clock_and_may_pass(
    browser: Any, tmp_path: Path
) -> None:
    """The claim clock counts down in the status bar of the seat asked, beside a
    Pass button, whether or not the seat could claim; passing ends the window."""
    server = Server(tmp_path / "tables.db", pause=0.2, extra=("--claim-seconds", "60")).start()
    try:
        opened = server.open_table(["human", "greedy", "greedy"], seed=3, deals=1)
        page = seat_page(browser, server.url + opened["seats"][0]["url"], DESKTOP)
        for _ in range(100):  # the seat's own turns, until it is asked about a claim
            page.wait_for_selector(ANY_TURN)
            if page.inner_text("#clock"):
                break
            click_first_move(page)
        first = page.inner_text("#clock")
        assert first.endswith("s to decide on the claim"), first
        assert page.locator("#moves [data-group='Pass'] button").count() == 1
        page.wait_for_timeout(1500)
        later = page.inner_text("#clock")
        assert int(later.split()[0]) < int(first.split()[0])  # it counts down
        shot(page, "web-claim-clock.png", tmp_path, full_page=False)
        at = ply(page)
        page.click("#moves [data-group='Pass'] button")
        page.wait_for_selector(f"body[data-ply]:not([data-ply='{at}'])")
        assert page.inner_text("#clock") == "" or ply(page) > at + 1
    finally:
        server.stop()


# -- a table people come back to ------------------------------------------------


def board_fonts_at_least_12(page: Any) -> None:
    found = page_measures(page)
    assert found["font"] >= 12, found


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_person_reads_the_rules_plays_a_deal_and_plays_again(
    browser: Any, tmp_path: Path, size: str
) -> None:
    """From the lobby: the rules sheet in a new tab, a table with the pace
    chosen, a deal against bots on a board whose texts are all 12 px or more,
    then another deal with one tap; the lobby remembers the tables."""
    viewport = PHONE if size == "phone" else DESKTOP
    server = Server(tmp_path / "tables.db").start()
    try:
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server.url + "/")
        page.select_option("#rules", "nintendo")
        with context.expect_page() as opened:
            page.click("#ruleslink")
        sheet = opened.value
        sheet.wait_for_load_state()
        assert sheet.inner_text("#sheet-title") == "Seven Bridge: the nintendo rules"
        assert sheet.get_attribute("tr[data-field='jokers']", "data-value") == "1"
        assert "Jokers in the deck" in sheet.inner_text("tr.changed >> nth=0")
        if size == "phone":
            shot(sheet, "web-rules.png", tmp_path)
            assert sheet.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        sheet.close()
        page.select_option("#rules", "standard")
        page.select_option("#players", "2")
        page.select_option("#deals", "1")
        page.select_option("#seat1", "greedy")
        page.select_option("#pause", "0.3")
        page.fill("input[name=seed]", "5")
        page.click("#open")
        page.click("a.seatlink")
        page.wait_for_selector("body[data-ready='1']")
        first = page.url
        page.wait_for_selector("body[data-turn='1']")
        board_fonts_at_least_12(page)
        assert page.get_attribute("#rulesheet", "href") == "/rules/seven_bridge/standard?lang=en"
        assert page.get_attribute("#lobby", "href") == "/?lang=en"
        play_to_the_end(page)
        page.wait_for_selector("#result:not([hidden])")
        board_fonts_at_least_12(page)
        assert page.locator("#again").is_visible() and page.locator("#tolobby").is_visible()
        if size == "phone":
            shot(page, "web-again.png", tmp_path)
        page.click("#again")  # one tap: the next table, the same seats
        page.wait_for_url(lambda url: url != first)
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("body", "data-over") == ""
        assert page.url.split("/table/")[1].split("/")[0] != first.split("/table/")[1].split("/")[0]
        assert "P1 greedy" in page.inner_text("#board")
        # The lobby lists both tables, newest first, and forgets one when asked.
        page.click("#lobby")
        page.wait_for_selector("#remembered li >> nth=1")
        listed = page.locator("#remembered li")
        assert listed.count() == 2
        assert (listed.first.locator("a").get_attribute("href") or "").startswith(server.url)
        if size == "desktop":
            shot(page, "web-lobby.png", tmp_path)
        listed.first.locator("button.forget").click()
        assert page.locator("#remembered li").count() == 1
        page.reload()
        assert page.locator("#remembered li").count() == 1
        context.close()
    finally:
        server.stop()


def test_one_table_in_english_and_japanese_at_once(browser: Any, tmp_path: Path) -> None:
    """Each person reads the table in their browser's language; a switch on the
    page changes it for that seat only, and it stays."""
    server = Server(tmp_path / "tables.db", extra=("--allow-seed",)).start()
    try:
        opened = server.open_table(["human", "human", "greedy"], deals=1, seed=3)
        urls = {s["seat"]: server.url + s["url"] for s in opened["seats"]}
        english = browser.new_context(viewport=HALF, locale="en-US")
        japanese = browser.new_context(viewport=HALF, locale="ja-JP")
        pages = {}
        for seat, context in ((0, english), (1, japanese)):
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(urls[seat])
            page.wait_for_selector("body[data-live='1']")
            pages[seat] = page
        for _ in range(12):  # a few moves, so that both logs have lines
            waiting = [s for s, p in pages.items() if p.get_attribute("body", "data-turn") == "1"]
            if not waiting:
                pages[0].wait_for_timeout(50)
                continue
            click_first_move(pages[waiting[0]])
        for page in pages.values():
            page.wait_for_selector("#log li")
        jp = re.compile(r"[\u3040-\u30ff]")
        assert pages[1].get_attribute("html", "lang") == "ja"
        assert (
            pages[1].inner_text("#lobby") == "ロビー" and pages[0].inner_text("#lobby") == "Lobby"
        )
        assert jp.search(pages[1].inner_text("#status")) and not jp.search(
            pages[0].inner_text("#status")
        )
        assert all(jp.search(line) for line in pages[1].locator("#log li").all_inner_texts())
        assert not any(jp.search(line) for line in pages[0].locator("#log li").all_inner_texts())
        assert "P2 欲張り" in pages[1].inner_text("#board") and "P2 greedy" in pages[0].inner_text(
            "#board"
        )
        both = side_by_side(browser, pages[0], pages[1])
        shot(both, "web-two-languages.png", tmp_path)
        both.close()
        # The English reader switches to Japanese: that seat only, and it stays.
        pages[0].click("a.lang[data-lang='ja']")
        pages[0].wait_for_selector("html[lang='ja'] body[data-ready='1']")
        pages[0].goto(urls[0])
        pages[0].wait_for_selector("body[data-ready='1']")
        assert pages[0].get_attribute("html", "lang") == "ja"
        assert jp.search(pages[0].inner_text("#status"))
        pages[0].click("a.lang[data-lang='en']")
        pages[0].wait_for_selector("html[lang='en'] body[data-ready='1']")
        pages[1].reload()
        pages[1].wait_for_selector("body[data-ready='1']")
        assert pages[1].get_attribute("html", "lang") == "ja"
        english.close()
        japanese.close()
    finally:
        server.stop()


def _tap_then_wait(page: Any, where: str, cards: list[str]) -> None:
    before = ply(page)
    for card in cards:
        page.click(f"#hand button.card[data-card='{card}']")
    page.click(where)
    page.wait_for_selector(f"body[data-ply]:not([data-ply='{before}'])")


def test_taps_on_a_meld_the_discard_pile_and_the_mahjong_wall_choose_the_move(
    browser: Any, tmp_path: Path
) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        page = browser.new_page(viewport=PHONE)
        page.set_default_timeout(TIMEOUT_MS)
        done: set[str] = set()
        for seed in range(1, 30):
            opened = server.open_table(["human", "greedy", "greedy"], deals=1, seed=seed)
            page.goto(server.url + opened["seats"][0]["url"])
            page.wait_for_selector("body[data-ready='1']")
            for _ in range(200):
                page.wait_for_selector(ANY_TURN)
                if page.get_attribute("body", "data-over"):
                    break
                lay = page.locator("#moves [data-group='LayOff'] button.move")
                claim = page.locator("#moves [data-group='Chi'] button.move, "
                                     "#moves [data-group='Pon'] button.move")  # fmt: skip
                if "meld" not in done and lay.count():
                    target = lay.first.get_attribute("data-target")
                    card = (lay.first.get_attribute("data-cards") or "").split()
                    _tap_then_wait(page, f"#board #meld-{target} [data-card] >> nth=0", card)
                    assert "lay off" in page.inner_text("#log li >> nth=-1")
                    done.add("meld")
                elif "discards" not in done and claim.count():
                    cards = (claim.first.get_attribute("data-cards") or "").split()
                    kind = (
                        "chi"
                        if claim.first.evaluate("b => b.closest('[data-group]').dataset.group")
                        == "Chi"
                        else "pon"
                    )
                    _tap_then_wait(page, "#board #discards [data-card] >> nth=-1", cards)
                    assert kind in page.inner_text("#log").lower()
                    done.add("discards")
                else:
                    click_first_move(page)
            if done == {"meld", "discards"}:
                break
        assert done == {"meld", "discards"}, done
        # The mahjong wall: a tap draws.
        opened = server.open_table(["human", "greedy", "greedy", "greedy"], game="mahjong",
                                   deals=1, seed=4)  # fmt: skip
        page.goto(server.url + opened["seats"][0]["url"])
        page.wait_for_selector("body[data-ready='1']")
        for _ in range(100):
            page.wait_for_selector(ANY_TURN)
            if page.locator("#moves [data-group='Draw']").count():
                break
            click_first_move(page)
        tiles = page.locator("#hand button.card").count()
        _tap_then_wait(page, "#board #stock [data-place='stock'] >> nth=0", [])
        assert page.locator("#hand button.card").count() == tiles + 1
        assert page.inner_text("#log li >> nth=-1").startswith("You draw ")
        page.close()
    finally:
        server.stop()

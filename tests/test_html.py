"""The replay viewer page: self-contained, deterministic, every position inside."""

from __future__ import annotations

import base64
import gzip
import json
import re
from html import unescape
from itertools import pairwise
from pathlib import Path

import pytest

from sevenbridge import Match, RecordError, Rules, deal, observe, record, record_match, svg
from sevenbridge.bots import GreedyPlayer
from sevenbridge.cli import main
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.html import record_page


def greedy_record(seed: int = 72, preset: str = "nintendo", players: int = 4) -> str:
    from sevenbridge import apply

    state = deal(Rules.preset(preset), players=players, seed=seed)
    bot = GreedyPlayer(seed)
    while not state.is_over:
        state = apply(state, bot(state))
    return record(state)


def _views(page: str, layout: str = "wide") -> list[list[str]]:
    """Every drawing the page holds in a layout, ``views[view][position]``,
    rebuilt from its pieces as the page's script does: a piece is text where it
    first appears, its number (in order of appearance) after. A position's
    views are drawn wide, then narrow."""
    packed = re.search(r'<script type="application/octet-stream" id="data">(.*?)</script>', page)
    assert packed is not None
    frames = json.loads(gzip.decompress(base64.b64decode(packed.group(1))))
    pieces: list[str] = []
    drawings: list[list[str]] = []
    for frame in frames:
        drawings.append([])
        for parts in frame:
            for part in parts:
                if isinstance(part, str):
                    pieces.append(part)
            drawings[-1].append("".join(p if isinstance(p, str) else pieces[p] for p in parts))
    views = [list(view) for view in zip(*drawings, strict=True)]
    half = len(views) // 2
    return views[:half] if layout == "wide" else views[half:]


def test_the_page_holds_every_position_from_every_seat() -> None:
    from sevenbridge import replay

    text = greedy_record()
    page = record_page(text)
    states = replay(text)
    views = _views(page)
    assert len(views) == 5
    assert views[0] == [svg.table(s) for s in states]
    assert views[2][-1] == svg.table(observe(states[-1], 1))
    narrow = _views(page, "narrow")
    assert len(narrow) == 5
    assert narrow[0] == [svg.table(s, layout="narrow") for s in states]
    assert narrow[2][-1] == svg.table(observe(states[-1], 1), layout="narrow")
    # Each line of the move list tells a run of positions; together, every one once.
    told = [
        k
        for first, last in re.findall(r'<li[^>]*data-first="([0-9]+)" data-last="([0-9]+)"', page)
        for k in range(int(first), int(last) + 1)
    ]
    assert told == list(range(len(states)))
    assert "P0 draws " in page and "P0 Draw<" not in page


def test_the_page_is_self_contained_and_deterministic() -> None:
    text = greedy_record()
    page = record_page(text)
    assert page == record_page(text)
    assert not re.search(r'(src|href)="', page)
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page


def test_a_match_record_has_a_heading_for_each_deal() -> None:
    from sevenbridge import apply

    match = Match.start(Rules(deals=2), players=3, seed=4)
    bot = GreedyPlayer(4)
    while not match.is_over:
        match = match.apply(bot(observe(match.state)))
    del apply
    page = record_page(record_match(match))
    assert re.search(r'class="deal"[^>]*><span class="said">Deal 1<', page)
    assert re.search(r'class="deal"[^>]*><span class="said">Deal 2<', page)
    # The line above the board: the deal and the totals so far, the winner at the end.
    info = json.loads(re.findall(r'id="info-data">(.*?)</script>', page)[0])
    texts = [info["texts"][i] for i in info["at"]]
    assert texts[0] == "Deal 1 · totals: P0 0, P1 0, P2 0"
    totals = ", ".join(f"P{p} {t}" for p, t in enumerate(match.totals))
    assert match.winner is not None
    assert texts[-1] == f"Match over · totals: {totals} · P{match.winner} wins the match"
    assert any(t.startswith("Deal 2 · totals: ") for t in texts)
    # A deal record has no such line.
    single = json.loads(
        re.findall(r'id="info-data">(.*?)</script>', record_page(greedy_record()))[0]
    )
    assert single["texts"] == [""]


def _lines(page: str) -> list[str]:
    """The move list's lines, as text."""
    items = re.findall(
        r'<li[^>]*><span class="said">(.*?)</span><span class="quiet">(.*?)</span></li>',
        page,
        re.S,
    )
    return [unescape(said + (f" · {quiet}" if quiet else "")) for said, quiet in items]


def test_the_move_list_tells_moves_in_words_and_folds_forced_passes() -> None:
    from sevenbridge import legal_actions, replay
    from sevenbridge.actions import Pass

    text = greedy_record()
    lines = _lines(record_page(text))
    assert lines[0] == "Deal 1"
    assert not any(">" in line or " Pass" in line for line in lines)  # no raw notation
    assert any(" discards " in line for line in lines)
    # The forced passes (of a player who could only pass) ride on the line before them.
    states = replay(text)
    forced = 0
    for before, after in pairwise(states):
        assert after.move_log is not None
        if isinstance(after.move_log.action, Pass) and len(legal_actions(before)) == 1:
            forced += 1
    assert forced > 0
    assert len(lines) == len(states) - forced
    assert any(" · " in line and line.endswith((" pass", " passes")) for line in lines)


def test_seat_names_come_from_the_record_or_the_caller() -> None:
    text = greedy_record().replace('[Players "4"]', '[Players "4"]\n[Names "Ann" "Bo" "Cy" "Di"]')
    page = record_page(text)
    lines = _lines(page)
    assert any(line.startswith("Bo draws ") for line in lines)
    assert "view of Cy" in page and not any(line.startswith("P1 ") for line in lines)
    views = _views(page)
    assert "Ann" in views[0][0] and "P0 ·" not in views[0][0]
    other = record_page(greedy_record(), names=["W", "X", "Y", "Z"])
    assert any(line.startswith("X draws") for line in _lines(other))
    with pytest.raises(InvalidArgumentError, match="give 4 names"):
        record_page(greedy_record(), names=["A", "B"])


def test_japanese_page() -> None:
    page = record_page(greedy_record(), lang="ja")
    assert '<html lang="ja">' in page and "席" in page
    assert "山札" in _views(page)[0][0]


def test_bad_records_are_refused() -> None:
    with pytest.raises(RecordError):
        record_page('[Players "3"]\n[Seed "1"]\nP2 Draw\n')
    with pytest.raises(TypeError, match="text must be a record"):
        record_page(3)  # type: ignore[arg-type]


def test_view_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.txt"
    game.write_text(greedy_record(), encoding="utf-8")
    out = tmp_path / "game.html"
    assert main(["view", str(game), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == record_page(game.read_text(encoding="utf-8"))
    assert "wrote" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text('[Players "3"]\n[Seed "1"]\nP2 Draw\n', encoding="utf-8")
    assert main(["view", str(bad), "-o", str(tmp_path / "bad.html")]) == 1
    assert "line 3" in capsys.readouterr().err

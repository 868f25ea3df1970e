"""The replay viewer page: self-contained, deterministic, every position inside."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest

from sevenbridge import Match, RecordError, Rules, deal, observe, record, record_match, svg
from sevenbridge.bots import GreedyPlayer
from sevenbridge.cli import main
from sevenbridge.html import record_page


def greedy_record(seed: int = 72, preset: str = "nintendo", players: int = 4) -> str:
    from sevenbridge import apply

    state = deal(Rules.preset(preset), players=players, seed=seed)
    bot = GreedyPlayer(seed)
    while not state.is_over:
        state = apply(state, bot(state))
    return record(state)


def _views(page: str) -> list[list[str]]:
    """Every drawing the page holds, ``views[view][position]``, rebuilt from its
    pieces as the page's script does: a piece is text where it first appears,
    its number (in order of appearance) after."""
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
    return [list(view) for view in zip(*drawings, strict=True)]


def test_the_page_holds_every_position_from_every_seat() -> None:
    from sevenbridge import replay

    text = greedy_record()
    page = record_page(text)
    states = replay(text)
    views = _views(page)
    assert len(views) == 5
    assert views[0] == [svg.table(s) for s in states]
    assert views[2][-1] == svg.table(observe(states[-1], 1))
    assert page.count("<li") == len(states)
    assert "P0 Draw" in page


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
    assert 'class="deal">Deal 1<' in page and 'class="deal">Deal 2<' in page


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

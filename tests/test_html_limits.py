"""``sevenbridge view`` on bad, huge and long input, for both games: a record
that is not UTF-8 or is too long is refused with a library error naming the
file and the line, a failed run leaves an older page as it was and no stray
file, and a long record's memory stays bounded."""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest
from benchmarks import bench_view

from sevenbridge import RecordError, replay, svg
from sevenbridge.cli import main
from sevenbridge.cli import view as view_command
from sevenbridge.html import MAX_MOVES, record_page

from .test_html import _views, greedy_record
from .test_html_games import _round

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent

#: The peak memory (MB) ``sevenbridge view`` may take on the long deal of
#: :func:`test_a_long_deal_takes_bounded_memory` (about 60 MB is measured; the
#: page's drawings made in full took several hundred).
PEAK_MB = 150


def _run(argv: list[str]) -> tuple[int, str]:
    """Run the command line; its exit status and what it wrote to stderr."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        status = main(argv)
        return status, sys.stderr.getvalue()
    finally:
        sys.stdout, sys.stderr = saved


def _record(game: str) -> str:
    return _round() if game == "mahjong" else greedy_record()


@pytest.mark.parametrize("game", ["seven_bridge", "mahjong"])
def test_a_record_that_is_not_utf8_is_refused_naming_file_line_and_column(
    tmp_path: Path, game: str
) -> None:
    lines = _record(game).encode("utf-8").split(b"\n")
    lines[9] = lines[9][:4] + b"\xe9" + lines[9][4:]  # Latin-1, not UTF-8
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\n".join(lines))
    out = tmp_path / "page.html"
    out.write_bytes(b"an older page")
    status, err = _run(["view", str(bad), "-o", str(out)])
    assert status == 1
    assert err.startswith(f"sevenbridge view: {bad}: line 10, column 5: not UTF-8 text: byte 0xe9")
    assert out.read_bytes() == b"an older page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "page.html"]
    status, err = _run(["view", str(bad), "-o", str(out), "--lang", "ja"])
    assert status == 1 and "10行5列目：UTF-8のテキストではありません" in err


def test_a_byte_order_mark_is_no_part_of_the_record(tmp_path: Path) -> None:
    text = greedy_record()
    game = tmp_path / "game.txt"
    game.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    out = tmp_path / "game.html"
    assert _run(["view", str(game), "-o", str(out)])[0] == 0
    assert out.read_text(encoding="utf-8") == record_page(text)


def test_a_page_that_cannot_be_written_leaves_no_stray_file(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text(greedy_record(), encoding="utf-8")
    taken = tmp_path / "page.html"
    taken.mkdir()  # the page's name is a folder's: the last step, the rename, fails
    (taken / "inside").write_text("kept", encoding="utf-8")
    status, err = _run(["view", str(game), "-o", str(taken)])
    assert status == 1 and err.startswith(f"sevenbridge view: cannot write {taken}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt", "page.html"]
    assert (taken / "inside").read_text(encoding="utf-8") == "kept"
    status, err = _run(["view", str(game), "-o", str(tmp_path / "no" / "page.html")])
    assert status == 1 and "No such file or directory" in err


def test_the_page_is_readable_as_a_new_file_or_as_the_older_one_was(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text(greedy_record(), encoding="utf-8")
    new = tmp_path / "new.html"
    umask = os.umask(0o022)
    try:
        assert _run(["view", str(game), "-o", str(new)])[0] == 0
    finally:
        os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644  # not the temporary file's 0o600
    older = tmp_path / "older.html"
    older.write_text("an older page", encoding="utf-8")
    older.chmod(0o640)
    assert _run(["view", str(game), "-o", str(older)])[0] == 0
    assert stat.S_IMODE(older.stat().st_mode) == 0o640
    assert older.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("game", ["seven_bridge", "mahjong"])
def test_a_record_of_more_than_max_moves_is_refused_before_it_is_replayed(
    tmp_path: Path, game: str
) -> None:
    head, _, moves = _record(game).partition("\n\n")
    move = moves.splitlines()[0]
    # Far more moves than the deal has: replaying would fail on the first extra
    # one, so the error says the record was refused before it was replayed.
    text = head + "\n\n" + "\n".join([move] * (MAX_MOVES + 1)) + "\n"
    first = len(head.splitlines()) + 2  # the line of the first move
    with pytest.raises(RecordError) as refused:
        record_page(text)
    assert refused.value.line == first + MAX_MOVES
    assert f"at most {MAX_MOVES} moves" in str(refused.value)
    bad = tmp_path / "long.txt"
    bad.write_text(text, encoding="utf-8")
    status, err = _run(["view", str(bad), "-o", str(tmp_path / "long.html")])
    assert status == 1 and f"line {first + MAX_MOVES}, column 1: the replay viewer" in err


def test_the_command_refuses_a_file_far_longer_than_any_record_it_shows(tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    limit = view_command.MAX_RECORD_BYTES
    comment = b"# a comment line that fills the file\n"
    with huge.open("wb") as f:
        f.write(b'[Game "Seven Bridge"]\n')
        f.write(comment * (limit // len(comment) + 1))
    out = tmp_path / "huge.html"
    status, err = _run(["view", str(huge), "-o", str(out)])
    assert status == 1 and f"the file is longer than {limit} bytes" in err
    assert not out.exists()


def test_forgotten_pieces_are_stored_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the budget of remembered pieces the page stores a piece again
    instead of by its number; it still holds every drawing."""
    from sevenbridge import html

    text = greedy_record()
    states = replay(text)
    whole = record_page(text)
    monkeypatch.setattr(html, "_PIECES_KEPT", 2000)
    forgetful = record_page(text)
    assert len(forgetful) > len(whole)
    assert _views(forgetful) == _views(whole)
    assert _views(forgetful)[0] == [svg.table(s) for s in states]


def test_a_long_deal_takes_bounded_memory(tmp_path: Path) -> None:
    """``sevenbridge view`` in a process of its own, on a deal of thousands of
    moves (the stock reshuffled 35 times), stays under :data:`PEAK_MB`."""
    text = bench_view.long_deal(reshuffles=35)
    figures = bench_view.measure(text, tmp_path)
    assert figures["moves"] > 3500
    assert figures["peak_mb"] < PEAK_MB

"""The ladder: every bot in tournament databases, rated from all its games."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from sevenbridge.arena import run_tournament
from sevenbridge.bots import GreedyPlayer
from sevenbridge.cli import main
from sevenbridge.errors import InvalidArgumentError, StoreError
from sevenbridge.ladder import ELO_MEAN, PRIOR_DRAWS, Ladder, _fit, ladder, plot

from . import seat_bots
from .helpers import optional_module
from .test_arena_fair import _png_text

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent


def _expected_wins(ratings: list[float], met: dict[tuple[int, int], float], bot: int) -> float:
    """The contests ``bot`` wins on average against those it met, at ``ratings``."""
    total = 0.0
    for (a, b), count in met.items():
        if bot in (a, b):
            other = b if bot == a else a
            total += count / (1 + 10 ** ((ratings[other] - ratings[bot]) / 400))
    return total


def test_the_fit_is_the_bradley_terry_maximum_likelihood() -> None:
    # Two bots: 30 wins to 10, and the prior's drawn contest.
    a, b = _fit({(0, 1): 30.0, (1, 0): 10.0}, 2)
    assert a - b == pytest.approx(400 * math.log10((30 + PRIOR_DRAWS / 2) / (10 + PRIOR_DRAWS / 2)))
    assert (a + b) / 2 == pytest.approx(ELO_MEAN)
    # Three bots, not transitive: at the fit, each bot's expected wins are its wins.
    total = {(0, 1): 20.0, (1, 0): 5.0, (1, 2): 12.0, (2, 1): 8.0, (2, 0): 9.0, (0, 2): 6.0}
    ratings = _fit(total, 3)
    met: dict[tuple[int, int], float] = {}
    wins = [0.0] * 3
    for (x, y), w in total.items():
        met[(min(x, y), max(x, y))] = met.get((min(x, y), max(x, y)), 0.0) + w
        wins[x] += w
    for pair in met:
        met[pair] += PRIOR_DRAWS
        wins[pair[0]] += PRIOR_DRAWS / 2
        wins[pair[1]] += PRIOR_DRAWS / 2
    for bot in range(3):
        assert _expected_wins(ratings, met, bot) == pytest.approx(wins[bot], rel=1e-6)


def test_a_bot_that_wins_everything_has_a_finite_rating() -> None:
    high, low = _fit({(0, 1): 50.0}, 2)
    assert math.isfinite(high) and math.isfinite(low) and high > low


def _db(tmp_path: Path, name: str, bots: list[Any], deals: int, **options: Any) -> Path:
    db = tmp_path / f"{name}.sqlite"
    run_tournament(bots, deals=deals, seed=3, db=db, progress=False, **options)
    return db


def test_a_ladder_of_two_databases(tmp_path: Path) -> None:
    first = _db(tmp_path, "first", ["greedy", "random", "random"], 60)
    second = _db(tmp_path, "second", ["greedy", "ismcts:iterations=20"], 20)
    board = ladder([first, second])
    names = [r.bot for r in board.ratings]
    assert set(names) == {"greedy", "random", "ismcts:iterations=20"}
    assert names[-1] == "random"  # placed below the search through greedy, whom both met
    by_name = {r.bot: r for r in board.ratings}
    greedy = by_name["greedy"]
    assert greedy.games == 60 + 20  # every seat-game of both databases
    assert (board.deals, board.decks, board.databases) == (80, 20 + 10, (str(first), str(second)))
    for r in board.ratings:
        assert r.low <= r.rating <= r.high
        assert r.ahead + r.level + r.behind > 0
    assert sum(r.rating for r in board.ratings) / 3 == pytest.approx(ELO_MEAN)
    # Random never met the search: its contests are all with greedy, in the first.
    assert by_name["random"].ahead + by_name["random"].level + by_name["random"].behind == 2 * 60
    assert board == ladder([first, second])  # the same draws: the same ladder
    table = board.table()
    assert table.splitlines()[0].split() == ["rank", "bot", "rating", "[95%]", "seat-games",
                                             "ahead", "level", "behind"]  # fmt: skip
    assert "80 deals (30 decks) from 2 databases" in table


def test_the_intervals_are_over_decks(tmp_path: Path) -> None:
    """More decks, narrower intervals; and the resampled decks are the store's."""
    few = ladder([_db(tmp_path, "few", ["greedy", "random", "random"], 30)])
    many = ladder([_db(tmp_path, "many", ["greedy", "random", "random"], 300)])
    width = {b: [r.high - r.low for r in board.ratings] for b, board in (("few", few),
                                                                          ("many", many))}  # fmt: skip
    assert max(width["many"]) < min(width["few"])
    assert few.decks == 10 and many.decks == 100


def test_factories_are_told_apart_by_what_stands_behind_their_label(tmp_path: Path) -> None:
    one = _db(tmp_path, "one", [("mine", seat_bots.greedy), "random"], 10)
    two = _db(tmp_path, "two", [("mine", GreedyPlayer), "random"], 10)
    board = ladder([one, two])
    assert sorted(r.bot for r in board.ratings) == [
        "mine (py:sevenbridge.bots:GreedyPlayer)", "mine (py:tests.seat_bots:greedy)", "random"
    ]  # fmt: skip
    assert "mine: py:tests.seat_bots:greedy" in {r.spec for r in board.ratings}


def test_what_cannot_be_rated_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="needs a database"):
        ladder([])
    cards = _db(tmp_path, "cards", ["greedy", "random"], 2)
    tiles = _db(tmp_path, "tiles", ["greedy", "random"], 2, game="mahjong")
    with pytest.raises(InvalidArgumentError, match="holds a tournament of mahjong, the others "
                       "of seven_bridge"):  # fmt: skip
        ladder([cards, tiles])
    alone = _db(tmp_path, "alone", ["greedy", "greedy"], 2)
    with pytest.raises(InvalidArgumentError, match="no two different bots ever played"):
        ladder([alone])
    apart = _db(tmp_path, "apart", ["ismcts:iterations=5", "ismcts:iterations=6"], 2)
    with pytest.raises(InvalidArgumentError, match=r"groups that never met: greedy, random \| "
                       r"ismcts:iterations=5, ismcts:iterations=6"):  # fmt: skip
        ladder([cards, apart])
    (tmp_path / "text.sqlite").write_text("not a database")
    with pytest.raises(StoreError, match="not an SQLite database"):
        ladder([tmp_path / "text.sqlite"])
    with pytest.raises(InvalidArgumentError, match="resamples"):
        ladder([cards], resamples=3)


def test_the_ladder_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _db(tmp_path, "cli", ["greedy", "random"], 20)
    assert main(["ladder", str(db), "--resamples", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Ladder of 2 bots"
    assert out[3].split()[:2] == ["1", "greedy"] and out[4].split()[:2] == ["2", "random"]
    assert "95% intervals from 50 resamples of the decks" in out[5]
    assert main(["ladder", str(db), "--lang", "ja"]) == 0
    ja = capsys.readouterr().out
    assert "ボット" in ja and "resamples" not in ja
    with pytest.raises(SystemExit):
        main(["ladder", str(tmp_path / "missing.sqlite")])
    assert "no such results database" in capsys.readouterr().err


def test_the_plot_has_a_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    optional_module("matplotlib")
    db = _db(tmp_path, "plot", ["greedy", "random", "random"], 30)
    png = tmp_path / "ladder.png"
    assert main(["ladder", str(db), "--plot", str(png)]) == 0
    assert f"plot written to {png}" in capsys.readouterr().out
    title = _png_text(png.read_bytes())["Title"]
    assert title == ("Ladder of 2 bots: 30 deals (10 decks), 1 database; "
                     "Bradley-Terry ratings, Elo scale, 95% intervals over decks")  # fmt: skip
    board = ladder([db])
    plot(board, tmp_path / "again.png")
    assert isinstance(board, Ladder) and (tmp_path / "again.png").stat().st_size > 1000

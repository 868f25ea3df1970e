"""Tournaments: duplicate seating, reproducible numbers, the SQLite store, resuming, CSV."""

from __future__ import annotations

import io
import pickle
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sevenbridge import Observation, Rules, observe, replay
from sevenbridge.actions import Action
from sevenbridge.arena import (
    BotStats,
    GameResult,
    StoreError,
    TournamentResult,
    export_csv,
    make_bot,
    report,
    run_tournament,
    seatings,
    summarize,
)
from sevenbridge.bots import GreedyPlayer, ISMCTSPlayer, RandomPlayer
from sevenbridge.cli import main
from sevenbridge.errors import InvalidArgumentError

from .helpers import optional_module


def _table(result: TournamentResult) -> str:
    return result.table(times=False)


def test_every_seating_of_every_deck_is_played() -> None:
    result = run_tournament(["greedy", "random", "random"], deals=7, seed=3, progress=False)
    assert seatings(["greedy", "random", "random"]) == [
        ("greedy", "random", "random"),
        ("random", "greedy", "random"),
        ("random", "random", "greedy"),
    ]
    assert result.decks == 3 and result.games == 9  # 7 deals rounded up to whole decks
    for deck in range(3):
        games = [g for g in result.results if g.deck == deck]
        assert [g.bots for g in games] == seatings(["greedy", "random", "random"])
        ends = [replay(g.record)[-1] for g in games]
        assert len({(e.seed, e.dealer) for e in ends}) == 1  # the same deck under every seating
    assert result.bots["greedy"].games == 9 and result.bots["random"].games == 18
    assert sum(s.wins for s in result.bots.values()) == sum(
        g.winner is not None for g in result.results
    )


def test_same_seed_same_numbers_whatever_the_workers() -> None:
    one = run_tournament(["greedy", "random"], deals=24, seed=11, workers=1, progress=False)
    two = run_tournament(["greedy", "random"], deals=24, seed=11, workers=2, progress=False)
    assert one.results == two.results
    assert _table(one) == _table(two)
    other = run_tournament(["greedy", "random"], deals=24, seed=12, progress=False)
    assert other.results != one.results


def test_records_replay_to_the_results() -> None:
    result = run_tournament(["greedy", "random"], Rules.nintendo(), deals=6, seed=2, progress=False)
    for game in result.results:
        end = replay(game.record)[-1]
        assert end.is_over
        assert end.winner == game.winner and end.deal_scores == game.scores


def test_statistics_are_over_deck_means() -> None:
    games = [
        game
        for deck in range(0, 6, 2)
        for game in (
            GameResult(deck, 0, ("a", "b"), 0, (10, 0), (5.0, -5.0), "x", 3, None, ""),
            GameResult(deck, 1, ("b", "a"), 0, (10, 0), (5.0, -5.0), "x", 3, None, ""),
            GameResult(deck + 1, 0, ("a", "b"), 1, (0, 10), (-5.0, 5.0), "x", 3, None, ""),
            GameResult(deck + 1, 1, ("b", "a"), 1, (0, 10), (-5.0, 5.0), "x", 3, None, ""),
        )
    ]
    stats = summarize(games)
    # Each deck is a tie between a and b: deck means 0.5 and 0.5, no spread.
    assert stats["a"].win_share.mean == 0.5 and stats["a"].win_share.low == 0.5
    assert stats["a"].wins == 6 and stats["a"].games == 12
    assert stats["a"].mean_return.mean == 0.0


def test_store_writes_settings_and_every_deck(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    result = run_tournament(["greedy", "random"], deals=10, seed=5, db=db, progress=False)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT COUNT(*) FROM decks").fetchone()[0] == result.decks
    assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == result.games
    settings = dict(con.execute("SELECT key, value FROM settings").fetchall())
    assert settings["seed"] == "5" and settings["bots"] == '["greedy", "random"]'
    records = [r for (r,) in con.execute("SELECT record FROM games ORDER BY deck, seating")]
    con.close()
    assert records == [g.record for g in result.results]
    again = report(db)
    assert again.results == result.results and _table(again) == _table(result)


def test_other_settings_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    run_tournament(["greedy", "random"], deals=2, seed=5, db=db, progress=False)
    with pytest.raises(StoreError, match=r"other settings.*seed: the database has 5, this run 6"):
        run_tournament(["greedy", "random"], deals=2, seed=6, db=db, progress=False)
    with pytest.raises(StoreError, match="rules"):
        run_tournament(["greedy", "random"], Rules.nintendo(), deals=2, seed=5, db=db,
                       progress=False)  # fmt: skip
    try:
        run_tournament(["greedy", "greedy"], deals=2, seed=5, db=db, progress=False)
    except StoreError as error:
        copy = pickle.loads(pickle.dumps(error))
        assert str(copy) == str(error) and copy.code == "store"
    else:
        pytest.fail("a database with other bots was accepted")
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not an SQLite database"):
        run_tournament(["greedy", "random"], deals=2, db=tmp_path / "junk.sqlite", progress=False)
    with pytest.raises(StoreError, match="no such results database"):
        report(tmp_path / "missing.sqlite")


def test_interrupted_run_resumes_to_the_same_numbers(tmp_path: Path) -> None:
    whole = run_tournament(["greedy", "random", "random"], deals=30, seed=9, progress=False)
    db = tmp_path / "results.sqlite"
    seen = []

    def stop_after_four(games: list[GameResult]) -> None:
        seen.append(games)
        if len(seen) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(["greedy", "random", "random"], deals=30, seed=9, db=db,
                       progress=False, on_games=stop_after_four)  # fmt: skip
    resumed = run_tournament(["greedy", "random", "random"], deals=30, seed=9, db=db,
                             progress=False)  # fmt: skip
    assert resumed.resumed == 4
    assert resumed.results == whole.results and _table(resumed) == _table(whole)
    # More deals later: the first decks are reused, the rest played.
    longer = run_tournament(["greedy", "random", "random"], deals=45, seed=9, db=db,
                            progress=False)  # fmt: skip
    assert longer.resumed == 10 and longer.decks == 15
    assert longer.results[: whole.games] == whole.results


def test_a_killed_command_resumes_to_the_same_table(tmp_path: Path) -> None:
    """The real thing: the command is killed with SIGKILL mid-run, then run again."""
    db = tmp_path / "killed.sqlite"
    args = ["--bots", "greedy,greedy,random", "--rules", "nintendo", "--deals", "240",
            "--seed", "4", "--quiet"]  # fmt: skip
    command = [sys.executable, "-m", "sevenbridge", "tournament", *args, "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    done = 0
    while time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
        if db.exists():
            con = sqlite3.connect(db)
            try:
                done = con.execute("SELECT COUNT(*) FROM decks").fetchone()[0]
            except sqlite3.OperationalError:
                done = 0
            finally:
                con.close()
            if done >= 5:
                break
    assert process.poll() is None, "the tournament ended before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert 5 <= done < 80
    assert main(["tournament", *args, "--db", str(db)], prog="sevenbridge") == 0
    resumed = report(db)
    whole = run_tournament(["greedy", "greedy", "random"], Rules.nintendo(), deals=240, seed=4,
                           progress=False)  # fmt: skip
    assert resumed.results == whole.results
    assert _table(resumed) == _table(whole)


def test_csv_export_has_a_row_per_deal(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    result = run_tournament(["greedy", "random"], deals=6, seed=1, db=db, progress=False)
    out = io.StringIO()
    assert export_csv(db, out) == result.games
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("deck,seating,bots,winner,winner_bot,scores,returns")
    assert len(lines) == result.games + 1
    first = result.results[0]
    assert lines[1].startswith(f"0,0,{' '.join(first.bots)},")


def test_bots_by_name() -> None:
    assert isinstance(make_bot("random", 1), RandomPlayer)
    assert isinstance(make_bot("greedy", 1), GreedyPlayer)
    bot = make_bot("ismcts:iterations=40:rollout=random", 1)
    assert isinstance(bot, ISMCTSPlayer) and bot.iterations == 40 and bot.rollout == "random"
    with pytest.raises(InvalidArgumentError, match="unknown bot 'smart'"):
        make_bot("smart", 1)
    with pytest.raises(InvalidArgumentError, match="unknown option"):
        make_bot("greedy:depth=3", 1)
    with pytest.raises(InvalidArgumentError, match="takes a whole number"):
        make_bot("ismcts:iterations=many", 1)
    with pytest.raises(InvalidArgumentError, match="takes a number"):
        make_bot("ismcts:seconds=many", 1)
    with pytest.raises(InvalidArgumentError, match="needs a command"):
        make_bot("cmd:", 1)
    with pytest.raises(TypeError, match="named by a string"):
        make_bot(3, 1)  # type: ignore[arg-type]


def test_bad_tournament_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="3 bots for 2 seats"):
        run_tournament(["greedy", "random", "random"], players=2, progress=False)
    with pytest.raises(InvalidArgumentError, match="unknown bot"):
        run_tournament(["greedy", "nobody"], progress=False)
    with pytest.raises(InvalidArgumentError, match="backend"):
        run_tournament(["greedy", "random"], backend="cloud", progress=False)
    with pytest.raises(InvalidArgumentError, match="deals"):
        run_tournament(["greedy", "random"], deals=0, progress=False)
    with pytest.raises(TypeError, match="list of bot names"):
        run_tournament("greedy,random", progress=False)


class _Spy:
    """A bot that keeps every view it is handed."""

    def __init__(self, seen: list[Observation]) -> None:
        self.seen = seen
        self.inner = GreedyPlayer(0)

    def __call__(self, view: Observation, /) -> Action:
        self.seen.append(view)
        return self.inner(view)


def test_bots_are_handed_exactly_their_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each view a bot receives equals ``observe`` of the true position for its seat."""
    from sevenbridge.arena import _entrants

    seen: list[Observation] = []
    monkeypatch.setattr(_entrants, "make_bot", lambda name, seed, **kw: _Spy(seen))
    result = run_tournament(["greedy", "random", "random"], Rules.nintendo(), deals=3, seed=8,
                            progress=False)  # fmt: skip
    views = iter(seen)
    for game in result.results:
        # Every position of the deal but the last had a move: check the view there.
        for state in replay(game.record)[:-1]:
            view = next(views)
            assert view.viewer == state.current_player
            assert view == observe(state, state.current_player)
            assert view.to_json() == observe(state, state.current_player).to_json()
    assert next(views, None) is None


def test_tournament_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "r.sqlite"
    code = main(["tournament", "--bots", "greedy,random", "--deals", "8", "--quiet",
                 "--db", str(db), "--csv", str(tmp_path / "r.csv")])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "win share [95%]" in out and "greedy" in out and "8 deals written" in out
    assert main(["tournament", "--report", str(db)]) == 0
    again = capsys.readouterr().out
    table = out.split("\n", 1)[1].split("8 deals written")[0]
    assert table in again
    with pytest.raises(SystemExit) as stop:
        main(["tournament", "--bots", "greedy,wizard"])
    assert stop.value.code == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err


def test_progress_bar_shows_rate_and_time_left(tmp_path: Path) -> None:
    out = io.StringIO()
    run_tournament(["greedy", "random"], deals=4, seed=1, progress=True, progress_file=out)
    text = out.getvalue()
    assert "4/4" in text and "deal" in text


def test_plot_draws_the_win_shares(tmp_path: Path) -> None:
    optional_module("matplotlib")
    from sevenbridge.arena import plot

    result = run_tournament(["greedy", "random"], deals=10, seed=1, progress=False)
    assert all(isinstance(s, BotStats) for s in result.bots.values())
    plot(result, tmp_path / "shares.png")
    data = (tmp_path / "shares.png").read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 5000


def test_win_share_intervals_stay_between_0_and_1() -> None:
    games = [
        GameResult(d, 0, ("a", "b"), 0 if d else None, (1, 0), (d - 3.0, 3.0 - d), "x", 1, None, "")
        for d in range(5)
    ]
    stats = summarize(games)
    share, returned = stats["a"].win_share, stats["a"].mean_return
    assert stats["b"].win_share.mean == 0.0 and stats["b"].win_share.low == 0.0
    assert share.high is not None and share.low is not None and returned.low is not None
    assert share.high <= 1.0 and share.low < 0.8
    assert returned.low < -1.0  # returns are not clamped


# --- time limits checked before any deal --------------------------------------------------
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0, 0, 86401])
def test_tournament_time_limits_are_checked_before_any_deal_without_external_bots(
    bad: float,
) -> None:
    from sevenbridge.arena import run_tournament
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="move_seconds must be above 0"):
        run_tournament(["greedy", "random"], deals=2, progress=False, move_seconds=bad)
    with pytest.raises(InvalidArgumentError, match="handshake_seconds must be above 0"):
        run_tournament(["greedy", "random"], deals=2, progress=False, handshake_seconds=bad)
    with pytest.raises(TypeError, match="move_seconds must be a number"):
        run_tournament(["greedy", "random"], deals=2, progress=False, move_seconds="10")  # type: ignore[arg-type]

"""Fair tournaments: nothing a bot is handed leads back to the cards."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from statistics import fmean, stdev

import pytest

from sevenbridge import Observation, Rules, apply, deal, legal_actions, observe, replay
from sevenbridge._kit.rng import derive
from sevenbridge.actions import Action
from sevenbridge.arena import (
    Estimate,
    GameResult,
    TournamentResult,
    bot_seed,
    compare,
    export_csv,
    report,
    run_tournament,
    seatings,
    summarize,
)
from sevenbridge.bots import GreedyPlayer
from sevenbridge.cli import main
from sevenbridge.errors import InvalidArgumentError

from .helpers import one_decision, optional_module
from .seat_cheats import deck_seeds

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent


class Cheat:
    """A bot that tries to deal its deck again from what it is handed: its own
    seed, and the tournament seeds a careless organiser might use."""

    def __init__(self, seed: int, guesses: Iterable[int] = ()) -> None:
        self.seed = seed
        self.inner = GreedyPlayer(0)
        # The deck's seed, had the bot's seed been derive(deck_seed, place + 1),
        # or derive(tournament_seed, deck + 1) for a tournament seed it guesses.
        self.decks = deck_seeds(seed, guesses)
        self.rebuilt = 0
        self.played = False

    def __call__(self, view: Observation, /) -> Action:
        self.played = True
        if not view.history:  # the deal's first move: the hand is the one dealt
            for deck_seed in self.decks:
                dealt = deal(view.rules, players=view.players, dealer=view.dealer, seed=deck_seed)
                self.rebuilt += view.hand == dealt.hand(view.viewer)
        return self.inner(view)


def test_the_cheat_rebuilds_a_deal_from_a_seed_derived_the_old_way() -> None:
    """The cheat is real: handed derive(deck_seed, place + 1), it finds the deck."""
    for deck_seed, place in ((5, 0), (2**64 - 3, 2), (123456789, 1)):
        assert deck_seed in Cheat(derive(deck_seed, place + 1)).decks
    assert derive(9, 4) in Cheat(0, [9]).decks


def test_no_bot_can_deal_its_deck_again_from_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    from sevenbridge.arena import _entrants

    cheats: list[Cheat] = []

    def make(name: str, seed: int, **kw: object) -> Cheat:
        cheats.append(Cheat(seed))
        return cheats[-1]

    monkeypatch.setattr(_entrants, "make_bot", make)
    result = run_tournament(["greedy", "random", "random"], Rules.nintendo(), deals=9, seed=8,
                            progress=False)  # fmt: skip
    deck_seeds = {replay(g.record)[0].seed for g in result.results}
    assert len(deck_seeds) == result.decks == 3
    cheats = [c for c in cheats if c.played]
    tried = set().union(*(c.decks for c in cheats))
    assert not deck_seeds & tried
    assert sum(c.rebuilt for c in cheats) == 0
    # Each seat's seed is its own, the same in every seating of a deck.
    seeds = {c.seed for c in cheats}
    assert seeds == {bot_seed(8, deck, place) for deck in range(3) for place in range(3)}
    assert len(seeds) == 9


def test_without_a_seed_the_deals_are_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament given no seed draws one no bot can guess; given it, it replays."""
    from sevenbridge.arena import _entrants

    cheats: list[Cheat] = []

    def make(name: str, seed: int, **kw: object) -> Cheat:
        cheats.append(Cheat(seed, guesses=range(20)))  # 0 was the default seed
        return cheats[-1]

    with monkeypatch.context() as patch:
        patch.setattr(_entrants, "make_bot", make)
        secret = run_tournament(["greedy", "random"], deals=6, progress=False)
    deck_seeds = {replay(g.record)[0].seed for g in secret.results}
    assert not deck_seeds & set().union(*(c.decks for c in cheats))
    assert sum(c.rebuilt for c in cheats) == 0
    other = run_tournament(["greedy", "random"], deals=6, progress=False)
    assert len({secret.seed, other.seed, 0}) == 3 and secret.seed >= 20
    again = run_tournament(["greedy", "random"], deals=6, seed=other.seed, progress=False)
    assert again.results == other.results
    assert run_tournament(["greedy", "random"], deals=6, progress=False).results != other.results


def test_the_secret_seed_is_kept_in_the_store_and_shown_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "secret.sqlite"
    args = ["tournament", "--bots", "greedy,random", "--deals", "6"]
    assert main([*args, "--db", str(db)]) == 0
    captured = capsys.readouterr()
    seed = json.loads(dict(sqlite3.connect(db).execute("SELECT key, value FROM settings"))["seed"])
    assert isinstance(seed, int) and seed > 0
    assert f"seed {seed}," in captured.out.splitlines()[0]
    assert str(seed) not in captured.err  # the progress bar does not show it
    # The same command resumes the same tournament, with its seed.
    assert main([*args, "--db", str(db), "--deals", "10", "--quiet"]) == 0
    resumed = capsys.readouterr().out
    assert f"seed {seed}," in resumed and "3 decks resumed" in resumed
    # The seed replays it elsewhere.
    elsewhere = tmp_path / "elsewhere.sqlite"
    assert (
        main([*args, "--deals", "10", "--quiet", "--seed", str(seed), "--db", str(elsewhere)]) == 0
    )
    assert report(elsewhere).table(times=False) == report(db).table(times=False)


_BOT = """
import json, os, sys, time
name, how, log = sys.argv[1], sys.argv[2], sys.argv[3:]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": name, "protocol": "sevenbridge-bot",
                          "version": 1}), flush=True)
    elif message["type"] == "deal" and log:
        with open(log[0], "a") as out:
            print(os.getpid(), message["seat"], file=out)
    elif message["type"] == "decide":
        end = time.process_time() + 0.03
        while how == "busy" and time.process_time() < end:
            pass
        if how == "sleepy":
            time.sleep(0.03)
        print(json.dumps({"type": "action", "index": 0}), flush=True)
    elif message["type"] == "quit":
        break
"""


def _bot(tmp_path: Path, name: str, how: str = "quick", log: Path | None = None) -> str:
    """An external bot that gives ``name``, plays the first legal move (working
    or sleeping 30 ms first, as ``how`` says) and logs each deal's process."""
    script = tmp_path / "bot.py"
    script.write_text(_BOT)
    return f"cmd:{sys.executable} {script} '{name}' {how}" + (f" {log}" if log else "")


def _deals_per_process(tmp_path: Path, **options: object) -> list[int]:
    """How many deals each process of a bot that keeps a log played."""
    log = tmp_path / "deals.log"
    log.write_text("")
    bots = [_bot(tmp_path, "memory", log=log), "greedy"]
    result = run_tournament(bots, deals=4, seed=3, progress=False, **options)  # type: ignore[arg-type]
    assert result.games == 4 and not any(g.failure for g in result.results)
    pids = [line.split()[0] for line in log.read_text().splitlines()]
    return sorted(Counter(pids).values())


def test_an_external_bot_plays_one_deal_per_process_by_default(tmp_path: Path) -> None:
    """Nothing carries from one seating of a deck to the next: each deal its own process."""
    assert _deals_per_process(tmp_path) == [1, 1, 1, 1]
    assert _deals_per_process(tmp_path, fair=True) == [1, 1, 1, 1]
    # Without: one process plays both seatings of a deck, and remembers the hands.
    assert _deals_per_process(tmp_path, fair=False) == [2, 2]


def test_a_python_bot_served_out_of_process_plays_the_same_games(tmp_path: Path) -> None:
    """serve() runs a Player over the protocol: the same seeds, the same games."""
    script = tmp_path / "served_greedy.py"
    script.write_text(
        "from sevenbridge.bots import GreedyPlayer\n"
        "from sevenbridge.external import serve\n"
        "raise SystemExit(serve(GreedyPlayer, name='served greedy'))\n"
    )
    served = run_tournament([f"cmd:{sys.executable} {script}", "random", "random"],
                            Rules.nintendo(), deals=6, seed=2, progress=False)  # fmt: skip
    inside = run_tournament(["greedy", "random", "random"], Rules.nintendo(), deals=6, seed=2,
                            progress=False)  # fmt: skip
    assert [g.failure for g in served.results] == [None] * 6
    assert [(g.winner, g.scores, g.record) for g in served.results] == [
        (g.winner, g.scores, g.record) for g in inside.results
    ]


def test_serve_speaks_the_protocol() -> None:
    from sevenbridge.external import serve

    state = deal(Rules.nintendo(), players=2, seed=4)
    while len(legal_actions(state)) < 2:
        state = apply(state, legal_actions(state)[0])
    view = observe(state)
    messages = [*one_decision(state, seed=9), {"type": "decide"}]  # the last is never read
    out = io.StringIO()
    assert serve(GreedyPlayer, name="g", input=io.StringIO("".join(
        json.dumps(m) + "\n" for m in messages)), output=out) == 0  # fmt: skip
    ready, action = (json.loads(line) for line in out.getvalue().splitlines())
    assert ready == {"type": "ready", "name": "g", "protocol": "sevenbridge-bot", "version": 1}
    assert action == {"type": "action",
                      "index": legal_actions(view).index(GreedyPlayer(9)(view))}  # fmt: skip


def test_fair_is_a_setting_of_the_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "fair.sqlite"
    args = ["tournament", "--bots", "greedy,random", "--deals", "2", "--quiet", "--db", str(db)]
    assert main([*args, "--fair"]) == 0
    assert report(db).fair is True
    with pytest.raises(SystemExit):
        main([*args, "--no-fair"])
    assert "fair: the database has true, this run false" in capsys.readouterr().err
    assert run_tournament(["greedy", "random"], deals=2, progress=False).fair is False


# -- statistics that say what they mean ----------------------------------------


def _games(wins: Sequence[tuple[int, ...]], bots: tuple[str, ...]) -> list[GameResult]:
    """A deck per entry of ``wins``, one game per seating of ``bots``, each won
    by the seat given (a mean return of +1 for the winner)."""
    out = []
    for deck, winners in enumerate(wins):
        for index, (seating, winner) in enumerate(zip(seatings(bots), winners, strict=True)):
            n = len(bots)
            returns = tuple(1.0 if s == winner else -1.0 / (n - 1) for s in range(n))
            out.append(GameResult(deck, index, seating, winner, (0,) * n, returns, "x", 1,
                                  None, ""))  # fmt: skip
    return out


def test_one_deck_gives_no_interval_and_says_so() -> None:
    result = run_tournament(["greedy", "random"], deals=2, seed=1, progress=False)
    assert result.decks == 1
    assert result.bots["greedy"].win_share.low is None
    table = result.table()
    assert "inf" not in table and "1 decks" not in table
    assert "2 deals (1 deck x 2 seatings)" in table
    assert "too few decks" in table
    assert "インフ" not in result.table(lang="ja") and "inf" not in result.table(lang="ja")


def test_few_decks_are_too_few_and_five_give_an_interval() -> None:
    four = summarize(_games([(0, 1)] * 2 + [(1, 0)] * 2, ("a", "b")))
    assert four["a"].win_share == Estimate(0.5, None, None)
    assert str(four["a"].win_share) == "0.500"
    five = summarize(_games([(0, 1)] * 3 + [(0, 0)] * 2, ("a", "b")))
    assert five["a"].win_share.low is not None and five["a"].win_share.high is not None
    assert five["a"].win_share.low < 0.7 < five["a"].win_share.high


def test_a_bot_in_every_seat_gets_no_interval() -> None:
    result = run_tournament(["greedy", "greedy"], deals=12, seed=1, progress=False)
    stats = result.bots["greedy"]
    assert stats.seats == 2 and stats.games == 24
    assert stats.win_share.low is None and stats.mean_return.low is None
    assert "(every seat)" in result.table()


def test_a_bot_in_two_seats_has_its_interval_over_decks() -> None:
    """Its seats are averaged within each deck; the interval is over those deck means."""
    wins = [(0, 0, 1), (1, 0, 2), (2, 2, 2), (0, 1, 1), (0, 2, 0), (1, 1, 1), (2, 0, 0)]
    games = _games(wins, ("a", "a", "b"))
    stats = summarize(games)["a"]
    assert stats.seats == 2 and stats.games == 2 * 3 * len(wins)
    means = []
    for deck in range(len(wins)):
        seats = [(g.winner == s) for g in games if g.deck == deck
                 for s in range(3) if g.bots[s] == "a"]  # fmt: skip
        means.append(sum(seats) / len(seats))
    half = 1.959963984540054 * stdev(means) / len(means) ** 0.5
    assert stats.win_share.mean == pytest.approx(fmean(means))
    assert stats.win_share.low == pytest.approx(fmean(means) - half)
    assert stats.win_share.high == pytest.approx(fmean(means) + half)


def test_compare_pairs_the_bots_deck_by_deck() -> None:
    wins = [(0, 0), (0, 1), (0, 0), (1, 1), (0, 0), (0, 1)]  # seat 0 wins often
    games = _games(wins, ("a", "b"))
    result = TournamentResult(Rules(), 2, 1, len(wins), len(games), summarize(games),
                              tuple(games), 0.0)  # fmt: skip
    c = compare(result, "a", "b")
    diffs = []
    for deck in range(len(wins)):
        mine = [g.winner == g.bots.index("a") for g in games if g.deck == deck]
        diffs.append(2 * sum(mine) / len(mine) - 1)  # a's share less b's
    assert (c.first, c.second, c.decks) == ("a", "b", 6)
    assert c.win_share.mean == pytest.approx(fmean(diffs))
    half = 1.959963984540054 * stdev(diffs) / len(diffs) ** 0.5
    assert c.win_share.low == pytest.approx(fmean(diffs) - half)
    assert compare(result, "b", "a").win_share.mean == pytest.approx(-fmean(diffs))
    with pytest.raises(InvalidArgumentError, match="cannot compare 'c': the bots are a, b"):
        compare(result, "a", "c")
    with pytest.raises(InvalidArgumentError, match="not 'a' with itself"):
        compare(result, "a", "a")


def test_compare_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.sqlite"
    args = ["tournament", "--bots", "greedy,random", "--deals", "40", "--seed", "3", "--quiet"]
    assert main([*args, "--db", str(db), "--compare", "greedy", "random"]) == 0
    out = capsys.readouterr().out
    assert "greedy less random, deck by deck over 20 decks: win share +0." in out
    assert "greedy wins more: the interval lies above 0" in out
    assert main(["tournament", "--report", str(db), "--compare", "random", "greedy"]) == 0
    assert "greedy wins more: the interval lies below 0" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # refused before any deal
        main([*args, "--compare", "greedy", "ismcts"])
    assert "cannot compare 'ismcts': the bots are greedy, random" in capsys.readouterr().err


def test_external_bots_are_shown_by_the_name_they_give(tmp_path: Path) -> None:
    first, second = (_bot(tmp_path, name) for name in ("first bot", "greedy"))
    db = tmp_path / "names.sqlite"
    result = run_tournament([first, second, "greedy"], deals=6, seed=1, db=db, progress=False)
    assert result.names == {first: "first bot", second: "greedy (cmd)", "greedy": "greedy"}
    table = result.table()
    rows = [line.split("  ")[0] for line in table.splitlines()[2:5]]
    assert sorted(rows) == ["first bot", "greedy", "greedy (cmd)"]
    assert f"first bot: {first}" in table and f"greedy (cmd): {second}" in table
    assert report(db).table() == table
    assert compare(result, "first bot", "greedy (cmd)").decks == 1


# -- clean ends ------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (Linux's /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_workers_die_with_a_killed_run_and_the_run_resumes(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite"
    args = ["tournament", "--bots", "greedy,greedy,random", "--deals", "900", "--seed", "4",
            "--workers", "2", "--quiet", "--db", str(db)]  # fmt: skip
    # No pipes: a worker that outlived the run would hold them open.
    process = subprocess.Popen([sys.executable, "-m", "sevenbridge", *args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    workers: set[int] = set()
    try:
        _kill_mid_run(process, db, workers)
    finally:
        for pid in filter(_alive, workers):  # not to leave any behind, should the test fail
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    # Nothing holds the database: the same command resumes at once.
    start = time.monotonic()
    again = subprocess.run([sys.executable, "-m", "sevenbridge", *args], capture_output=True,
                           text=True, timeout=300)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "decks resumed" in again.stdout and time.monotonic() - start < 280
    assert report(db).decks == 300


def _kill_mid_run(process: subprocess.Popen[bytes], db: Path, workers: set[int]) -> None:
    """Kill the run with SIGKILL once a few decks are stored; its workers must end."""
    deadline = time.monotonic() + 120
    done = 0
    while time.monotonic() < deadline and process.poll() is None and done < 3:
        time.sleep(0.2)
        workers |= _children(process.pid)
        with contextlib.suppress(sqlite3.Error):
            con = sqlite3.connect(db)
            try:
                done = con.execute("SELECT COUNT(*) FROM decks").fetchone()[0]
            finally:
                con.close()
    workers |= _children(process.pid)
    assert process.poll() is None, "the tournament ended before it could be killed"
    assert len(workers) >= 2
    process.kill()  # SIGKILL: no clean-up in the run itself
    process.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(map(_alive, workers)):
        time.sleep(0.1)
    assert not any(map(_alive, workers)), "a worker outlived its run"


def test_a_stopped_run_says_the_same_command_resumes(tmp_path: Path) -> None:
    db = tmp_path / "stopped.sqlite"
    args = ["tournament", "--bots", "greedy,random", "--deals", "2000", "--seed", "2",
            "--quiet", "--db", str(db)]  # fmt: skip
    process = subprocess.Popen([sys.executable, "-m", "sevenbridge", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and not db.exists():
        time.sleep(0.1)
    time.sleep(1.0)
    assert process.poll() is None, "the tournament ended before it could be stopped"
    process.send_signal(signal.SIGINT)  # Ctrl-C
    err = process.communicate(timeout=60)[1]
    assert process.returncode == 130
    assert f"stopped: the decks finished so far are in {db}; the same command resumes" in err
    # Without a database, nothing is kept, and it says so.
    args = [a for a in args[:-2] if a != "--quiet"]
    process = subprocess.Popen([sys.executable, "-m", "sevenbridge", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert process.stderr is not None
    process.stderr.read(1)  # the progress bar: the run has begun
    process.send_signal(signal.SIGINT)
    err = process.communicate(timeout=60)[1]
    assert process.returncode == 130
    assert "stopped: nothing was kept; with --db FILE" in err


def test_the_same_bots_in_another_order_are_the_same_tournament(tmp_path: Path) -> None:
    db = tmp_path / "order.sqlite"
    first = run_tournament(["random", "greedy", "random"], deals=6, seed=5, db=db, progress=False)
    again = run_tournament(["greedy", "random", "random"], deals=9, seed=5, db=db, progress=False)
    assert again.resumed == 2 and again.results[:6] == first.results
    settings = dict(sqlite3.connect(db).execute("SELECT key, value FROM settings"))
    assert json.loads(settings["bots"]) == ["greedy", "random", "random"]
    assert report(db).table() == again.table()


def test_fewer_deals_than_the_database_holds_says_it_shows_a_subset(tmp_path: Path) -> None:
    db = tmp_path / "subset.sqlite"
    run_tournament(["greedy", "random"], deals=10, seed=5, db=db, progress=False)
    fewer = run_tournament(["greedy", "random"], deals=4, seed=5, db=db, progress=False)
    assert (fewer.decks, fewer.held) == (2, 5)
    assert "the database holds 5 decks: this table shows the first 2" in fewer.table()
    every = run_tournament(["greedy", "random"], deals=10, seed=5, db=db, progress=False)
    assert every.held == 5 and "this table shows" not in every.table()
    assert "this table shows" not in report(db).table()


def _png_text(data: bytes) -> dict[str, str]:
    """The tEXt chunks of a PNG."""
    out, pos = {}, 8
    while pos < len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind, chunk = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"tEXt":
            key, _, value = chunk.partition(b"\0")
            out[key.decode("latin-1")] = value.decode("latin-1")
        pos += 12 + length
    return out


def test_the_plot_names_bots_deals_seed_rules_and_players(tmp_path: Path) -> None:
    optional_module("matplotlib")
    from sevenbridge.arena import plot

    result = run_tournament(["greedy", "random", "random"], Rules.nintendo(), deals=6, seed=7,
                            progress=False)  # fmt: skip
    plot(result, tmp_path / "shares.png")
    title = _png_text((tmp_path / "shares.png").read_bytes())["Title"]
    assert title == "greedy, random x2: 6 deals (2 decks), seed 7; nintendo rules, 3 players"


def test_ismcts_has_one_default_budget() -> None:
    from sevenbridge.arena import ISMCTS_ITERATIONS, make_bot
    from sevenbridge.bots import DEFAULT_ITERATIONS, ISMCTSPlayer

    bot = make_bot("ismcts", 1)
    assert isinstance(bot, ISMCTSPlayer)
    assert ISMCTSPlayer().iterations == bot.iterations == DEFAULT_ITERATIONS == ISMCTS_ITERATIONS
    assert ISMCTSPlayer(seconds=0.5).iterations is None


# -- honest timing -----------------------------------------------------------------


def test_every_decision_is_timed_per_bot_and_game(tmp_path: Path) -> None:
    db = tmp_path / "times.sqlite"
    result = run_tournament(["ismcts:iterations=40", "random"], deals=4, seed=2, db=db,
                            progress=False)  # fmt: skip
    for game in result.results:
        assert len(game.timing) == 2
        assert sum(t.decisions for t in game.timing) == game.decisions
        for t in game.timing:
            assert t.cpu is not None and t.cpu_max is not None
            assert 0 <= t.wall_max <= t.wall and 0 <= t.cpu_max <= t.cpu
    search, rand = result.bots["ismcts:iterations=40"], result.bots["random"]
    assert search.decisions + rand.decisions == sum(g.decisions for g in result.results)
    assert search.wall_mean is not None and rand.wall_mean is not None
    assert search.cpu_mean is not None and rand.cpu_mean is not None
    assert search.wall_mean > 10 * rand.wall_mean and search.cpu_mean > 10 * rand.cpu_mean
    assert search.wall_max is not None and search.wall_max >= search.wall_mean
    # Kept in the store: --report shows the same table, --csv the times of each seat.
    stored = report(db)
    assert stored.table() == result.table() and "ms/move [max]" in result.table()
    assert [g.timing for g in stored.results] == [g.timing for g in result.results]
    out = io.StringIO()
    export_csv(db, out)
    header, first = out.getvalue().splitlines()[:2]
    assert header.endswith("failure,ms_per_move,max_ms,cpu_ms_per_move,cpu_max_ms")
    wall = first.split(",")[-4].split()
    timing = result.results[0].timing
    assert wall == [f"{t.wall / t.decisions * 1000:.3f}" for t in timing]
    # A store written before the times were kept shows none.
    con = sqlite3.connect(db)
    con.execute("DROP TABLE timings")
    con.commit()
    con.close()
    assert report(db).bots["random"].wall_mean is None
    assert "  -" in report(db).table()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_an_external_bot_is_timed_by_the_clock_and_by_its_processor_time(tmp_path: Path) -> None:
    """A bot that sleeps takes as long as one that works, but uses no processor time."""
    bots = [_bot(tmp_path, how, how) for how in ("busy", "sleepy")]
    result = run_tournament(bots, Rules.nintendo(), deals=2, seed=1, progress=False,
                            move_seconds=30)  # fmt: skip
    busy, sleepy = (result.bots[bot] for bot in bots)
    assert busy.decisions > 5 and sleepy.decisions > 5
    for stats in (busy, sleepy):
        assert stats.wall_mean is not None and stats.wall_mean >= 0.03
    assert busy.cpu_mean is not None and sleepy.cpu_mean is not None
    assert busy.cpu_mean >= 0.02 and sleepy.cpu_mean < 0.01

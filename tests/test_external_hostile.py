"""Hostile external bots: real programs that flood, stall, spawn, crash or lie.

Each bot is a small Python script written into the test's directory and run
as a ``cmd:`` bot by a real ``sevenbridge tournament`` command. The bots write
their own process id, and the id of every process they start, into a folder;
after the run every one of them must be gone. The command runs in a session
of its own, so that a run that hangs (the bug these tests guard against) is
killed, with whatever it started, and the test fails instead of hanging.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from sevenbridge import legal_actions, observe, translate
from sevenbridge.arena import FORFEIT_POINTS, report
from sevenbridge.external import (
    MAX_JSON_DEPTH,
    MAX_LINE_BYTES,
    ExternalBotError,
    ExternalPlayer,
    close_all,
)

from .test_external import _decision_state

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="process groups and signals are POSIX"),
    pytest.mark.build_independent,  # process control (see pyproject.toml)
]

#: What every hostile bot starts with: it records its process id; ``helper()``
#: starts a child that inherits the bot's standard input, output and error and
#: sleeps (its id recorded too).
_PRELUDE = """
import json, os, signal, subprocess, sys, time
PIDS = {pids!r}
def record(pid, name=None):
    with open(os.path.join(PIDS, name or str(pid)), "w") as f:
        f.write(str(pid))
record(os.getpid())
def helper():
    record(subprocess.Popen(["sleep", "300"]).pid)
def send(doc):
    sys.stdout.write(json.dumps(doc) + "\\n")
    sys.stdout.flush()
def handshake(name="hostile"):
    json.loads(sys.stdin.readline())
    send({{"type": "ready", "name": name, "protocol": "sevenbridge-bot", "version": 1}})
def requests():
    for line in sys.stdin:
        doc = json.loads(line)
        if doc["type"] == "quit":
            return
        yield doc
ANSWER = json.dumps({{"type": "action", "index": 0}}) + "\\n"
"""

BOTS = {
    # Writes answers without end and never reads again.
    "flood": """
        helper(); handshake()
        sys.stdin.readline()
        while True:
            sys.stdout.write(ANSWER * 100)
            sys.stdout.flush()
        """,
    # Reads everything, answers nothing, ignores quit, SIGTERM and the end of its input.
    "silent": """
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        helper(); handshake()
        for line in sys.stdin:
            pass
        time.sleep(300)
        """,
    # At its first decision it starts a child that holds its output open, and exits.
    "spawn_and_exit": """
        handshake()
        for doc in requests():
            if doc["type"] == "decide":
                helper()
                sys.exit(0)
        """,
    # Starts a child that holds its output open, and plays well.
    "spawn_and_play": """
        helper(); handshake()
        for doc in requests():
            if doc["type"] == "decide":
                sys.stdout.write(ANSWER)
                sys.stdout.flush()
        """,
    # Answers a decision with a line of 8 MiB.
    "huge_line": """
        helper(); handshake()
        for doc in requests():
            if doc["type"] == "decide":
                for _ in range(128):
                    sys.stdout.write("x" * 65536)
                sys.stdout.write("\\n")
                sys.stdout.flush()
        """,
    # Answers with binary garbage: every byte value, escape codes.
    "garbage": """
        helper(); handshake()
        for doc in requests():
            if doc["type"] == "decide":
                sys.stdout.buffer.write(bytes(range(1, 256)) + b"\\x1b[2J\\n")
                sys.stdout.flush()
        """,
    # Answers every decision twice.
    "double": """
        helper(); handshake()
        for doc in requests():
            if doc["type"] == "decide":
                sys.stdout.write(ANSWER * 2)
                sys.stdout.flush()
        """,
    # Escape codes in its name, on its standard error and in its answer.
    "escapes": """
        helper(); handshake(name="\\x1b[31mevil\\x1b[0m\\u202e\\x07")
        sys.stderr.write("\\x1b]0;pwned\\x07\\x1b[2Jerased\\n")
        sys.stderr.flush()
        for doc in requests():
            if doc["type"] == "decide":
                sys.stdout.write("\\x1b[31mI pon\\x1b[0m\\n")
                sys.stdout.flush()
        """,
    # Exits at once, with a word on standard error.
    "exits": """
        sys.stderr.write("boom\\n")
        sys.exit(3)
        """,
    # Answers the handshake with an extra field nested 5,000 deep.
    "deep_ready": """
        helper()
        sys.stdin.readline()
        sys.stdout.write('{"type": "ready", "name": "deep", "protocol": "sevenbridge-bot", '
                         '"version": 1, "more": ' + "[" * 5000 + "]" * 5000 + "}\\n")
        sys.stdout.flush()
        sys.stdin.read()
        """,
    # Plays slowly, with a helper, says when it is in a deal (for the signal
    # tests), and does not exit when it is told to or when its input ends.
    "slow": """
        helper(); handshake()
        for doc in requests():
            if doc["type"] == "decide":
                record(os.getpid(), "playing")
                time.sleep(0.05)
                sys.stdout.write(ANSWER)
                sys.stdout.flush()
        time.sleep(300)
        """,
}

#: A bot that plays the first legal action, except at seat 0, where it answers
#: every decision with the line ``{line}`` (a Python expression): its deals at
#: seat 0 are forfeits, the others are played.
_AT_SEAT_0 = """
    helper(); handshake()
    seat = 0
    for doc in requests():
        if doc["type"] == "deal":
            seat = doc["seat"]
        elif doc["type"] == "decide":
            sys.stdout.write(ANSWER if seat else {line} + "\\n")
            sys.stdout.flush()
    """
#: The lines the host must refuse, by bot: JSON nested 5,000 deep (a bare
#: array; objects and arrays in the answer's action) and a valid answer padded
#: to twice the line cap; each with what the refusal says after the bot's name.
_REFUSED = {
    "deep_list": ('"[" * 5000 + "]" * 5000',
                  "wrote JSON nested deeper than 64 levels: [[[[[[[[[["),
    "deep_action": ("""'{"type": "action", "action": ' + '{"a": [' * 2500 + ']}' * 2500 + '}'""",
                    'wrote JSON nested deeper than 64 levels: {"type": "action", "action": {"a": [{"a": ['),
    "long_line": (f'ANSWER[:-2] + " " * {2 * MAX_LINE_BYTES} + "}}"',
                  f"wrote a line longer than {MAX_LINE_BYTES} bytes"),
}  # fmt: skip
BOTS.update({name: _AT_SEAT_0.format(line=line) for name, (line, _) in _REFUSED.items()})


def _script(tmp_path: Path, name: str, body: str) -> Path:
    """A hostile bot's script: the prelude (which records its process ids in
    ``tmp_path / "pids"``), then ``body``."""
    path = tmp_path / f"{name}.py"
    path.write_text(_PRELUDE.format(pids=str(tmp_path / "pids")) + textwrap.dedent(body))
    return path


def _bot(tmp_path: Path, name: str) -> tuple[str, Path]:
    """The ``cmd:`` name of a hostile bot, and the folder where it records process ids."""
    path = _script(tmp_path, name, BOTS[name])
    return f"cmd:{sys.executable} {path}", tmp_path / "pids"


@pytest.fixture(autouse=True)
def _no_strays(tmp_path: Path) -> Iterator[None]:
    """Whatever a test's bots started is killed after the test, even one that failed."""
    (tmp_path / "pids").mkdir()
    yield
    for pid in _recorded(tmp_path / "pids"):
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not yet reaped by its parent, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:  # no /proc: count it as running
        return True


def _recorded(pids: Path) -> set[int]:
    return {int(text) for p in pids.iterdir() if (text := p.read_text())}


def _left_behind(pids: Path, within: float = 5.0) -> list[int]:
    """The recorded processes still running after ``within`` seconds."""
    recorded = _recorded(pids)
    assert recorded, "no bot ever started"
    deadline = time.monotonic() + within
    while (running := [p for p in sorted(recorded) if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return running


_THREADS = """\
import sys
import sevenbridge.external as external
external._PIPES = external._ThreadedPipes
from sevenbridge.cli import main
sys.exit(main(sys.argv[1:], prog="sevenbridge"))
"""


def _command(*args: str, threads: bool = False) -> list[str]:
    """``sevenbridge tournament ARGS``; with ``threads``, hosting its bots through
    the threaded pipes (the way of platforms without ``poll`` on pipes)."""
    start = ["-c", _THREADS] if threads else ["-m", "sevenbridge"]
    return [sys.executable, *start, "tournament", *args]


def _run(command: list[str], limit: float) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run the command, killing it (with its whole session) if it takes over ``limit`` s."""
    start = time.monotonic()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        errors="backslashreplace", start_new_session=True,
    )  # fmt: skip
    try:
        out, err = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.communicate(timeout=10)
        pytest.fail(f"the tournament still ran after {limit} s")
    seconds = time.monotonic() - start
    return subprocess.CompletedProcess(command, process.returncode, out, err), seconds


# bot, kind of failure, what the failure says (None: no failure)
CASES = [
    ("flood", "nonsense", "when no answer was asked for"),
    ("silent", "timeout", "did not answer a decision within 0.5 s"),
    ("spawn_and_exit", "crashed", "exited with status 0"),
    ("spawn_and_play", None, None),
    ("huge_line", "nonsense", f"wrote a line longer than {MAX_LINE_BYTES} bytes"),
    ("garbage", "nonsense", r"not JSON: \x01\x02\x03"),
    ("double", "nonsense", 'wrote {"type": "action", "index": 0} when no answer was asked'),
    ("escapes", "nonsense", r"not JSON: \x1b[31mI pon\x1b[0m"),
]


@pytest.mark.parametrize(("name", "kind", "reason"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_bot_cannot_hang_the_tournament_or_outlive_it(
    tmp_path: Path, name: str, kind: str | None, reason: str | None
) -> None:
    bot, pids = _bot(tmp_path, name)
    db, table = tmp_path / "results.sqlite", tmp_path / "deals.csv"
    # The bot that exits at its first decision would wait out a long move time
    # if its exit were not noticed; the others fail or answer at once.
    move = "20" if name == "spawn_and_exit" else "0.5"
    result, seconds = _run(
        _command("--bots", f"{bot},greedy", "--deals", "2", "--seed", "3", "--quiet",
                 "--move-seconds", move, "--handshake-seconds", "10",
                 "--db", str(db), "--csv", str(table)),
        limit=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert seconds < 15, f"the tournament took {seconds:.1f} s"
    assert _left_behind(pids) == []
    games = report(db).results
    assert len(games) == 2
    failures = [g.failure for g in games if g.failure is not None]
    if kind is None:
        assert failures == []
    else:
        assert failures, "the bot never failed"
        for failure in failures:
            assert reason is not None and f" {kind}: " in failure and reason in failure, failure
            assert failure.isprintable(), failure
    # Nothing the bot wrote reaches the store, the CSV or the terminal raw.
    rows = list(csv.reader(table.open(encoding="utf-8", newline="")))
    assert len(rows) == 3 and all(cell.isprintable() for row in rows for cell in row)
    assert all(line.isprintable() for line in (result.stdout + result.stderr).splitlines())


def test_the_bots_words_are_escaped_wherever_they_go(tmp_path: Path) -> None:
    bot, pids = _bot(tmp_path, "escapes")
    result, _ = _run(
        _command("--bots", f"{bot},greedy", "--deals", "2", "--quiet", "--move-seconds", "5"),
        limit=60,
    )
    assert result.returncode == 0, result.stderr
    # Its standard error is passed on, a line at a time, escaped.
    assert r"\x1b]0;pwned\x07\x1b[2Jerased" in result.stderr
    assert "\x1b" not in result.stderr + result.stdout and "\x07" not in result.stderr
    # Its name, in the player and in its errors.
    player = ExternalPlayer(bot[4:], move_seconds=5)
    try:
        state, seat = _decision_state()
        with pytest.raises(ExternalBotError) as caught:
            player(observe(state, seat))  # type: ignore[arg-type]
    finally:
        player.close()
    assert player.name == r"\x1b[31mevil\x1b[0m\u202e\x07"
    assert str(caught.value).isprintable() and r"\x1b[31mevil" in str(caught.value)
    assert _left_behind(pids) == []


@pytest.mark.parametrize("name", ["flood", "spawn_and_exit", "huge_line", "double"])
def test_the_threaded_pipes_hold_too(tmp_path: Path, name: str) -> None:
    """The pipes of platforms without ``poll`` (threads), run here on purpose."""
    bot, pids = _bot(tmp_path, name)
    db = tmp_path / "results.sqlite"
    kind, reason = next((k, r) for n, k, r in CASES if n == name)
    assert reason is not None
    move = "20" if name == "spawn_and_exit" else "0.5"
    result, seconds = _run(
        _command("--bots", f"{bot},greedy", "--deals", "2", "--quiet", "--move-seconds", move,
                 "--db", str(db), threads=True),
        limit=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert seconds < 15
    failures = [g.failure for g in report(db).results if g.failure is not None]
    assert failures and all(f" {kind}: " in f and reason in f for f in failures), failures
    assert _left_behind(pids) == []


def test_a_bot_that_fails_to_start_stops_the_run_before_any_deal(tmp_path: Path) -> None:
    bot, pids = _bot(tmp_path, "exits")
    db = tmp_path / "results.sqlite"
    args = ["--bots", f"{bot},greedy", "--deals", "4", "--quiet", "--db", str(db)]
    result, seconds = _run(_command(*args), limit=60)
    assert result.returncode == 2
    assert "exited with status 3; its standard error ended: boom" in result.stderr
    assert "no deal was played" in result.stderr and "--keep-going" in result.stderr
    assert not db.exists()  # nothing was written: the same command can be run again
    assert seconds < 15
    # Asked to go on, the run plays every deal, each a forfeit of the bot. (Of
    # a set seed: a deal the other player wins before the bot has a choice to
    # make, which a rare deck allows, is no forfeit, since the bot is started
    # at its first choice.)
    result, _ = _run(_command(*args, "--keep-going", "--seed", "1"), limit=60)
    assert result.returncode == 0, result.stderr
    games = report(db).results
    failures = [(g.end_reason, g.decisions, g.failure) for g in games]
    assert len(games) == 4, failures
    assert all(f and "crashed" in f for _, _, f in failures), failures
    assert _left_behind(pids) == []


@pytest.mark.parametrize(
    ("stop", "workers"),
    [(signal.SIGTERM, 1), (signal.SIGTERM, 2), (signal.SIGINT, 2)],
    ids=["SIGTERM", "SIGTERM-workers", "SIGINT-workers"],
)
def test_a_signal_to_the_tournament_ends_every_bot(
    tmp_path: Path, stop: signal.Signals, workers: int
) -> None:
    bot, pids = _bot(tmp_path, "slow")
    command = _command("--bots", f"{bot},greedy", "--deals", "400", "--quiet",
                       "--workers", str(workers), "--db", str(tmp_path / "results.sqlite"))  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 30
        while not (pids / "playing").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no bot started playing"
            time.sleep(0.05)
        process.send_signal(stop)  # to the command alone, as `kill` sends it
        _, err = process.communicate(timeout=20)
    finally:  # whatever is left of the command's session (its workers, say)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        if process.poll() is None:
            process.communicate()
    assert process.returncode == 128 + stop, err
    assert _left_behind(pids) == []


def test_an_answer_line_is_read_up_to_the_cap_only(tmp_path: Path) -> None:
    """The line cap is exact: a line of MAX_LINE_BYTES is read, one byte more is not."""
    script = _script(
        tmp_path,
        "long",
        """
            handshake()
            for doc in requests():
                if doc["type"] == "decide":
                    pad = int(sys.argv[1]) - (len(ANSWER) - 1)  # the line without its newline
                    sys.stdout.write(ANSWER[:-2] + " " * pad + "}\\n")
                    sys.stdout.flush()
            """,
    )
    state, seat = _decision_state()
    for size, fits in ((MAX_LINE_BYTES, True), (MAX_LINE_BYTES + 1, False)):
        player = ExternalPlayer([sys.executable, str(script), str(size)], move_seconds=10)
        try:
            if fits:
                player(observe(state, seat))  # type: ignore[arg-type]
            else:
                with pytest.raises(ExternalBotError, match="longer than 1048576 bytes"):
                    player(observe(state, seat))  # type: ignore[arg-type]
        finally:
            player.close()


def test_the_handshake_limit_is_an_option(tmp_path: Path) -> None:
    script = tmp_path / "sleepy.py"
    script.write_text("import time\ntime.sleep(30)\n")
    start = time.monotonic()
    result, _ = _run(
        _command("--bots", f"cmd:{sys.executable} {script},greedy", "--deals", "2", "--quiet",
                 "--handshake-seconds", "0.5"),
        limit=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert "did not answer the handshake within 0.5 s" in result.stderr
    assert time.monotonic() - start < 15
    with pytest.raises(ValueError, match="handshake_seconds"):
        ExternalPlayer(["true"], handshake_seconds=0)


def test_close_all_ends_every_bot_at_once(tmp_path: Path) -> None:
    bot, pids = _bot(tmp_path, "slow")
    players = [ExternalPlayer(bot[4:]) for _ in range(2)]
    for player in players:
        player.start()
    start = time.monotonic()
    close_all()  # no quit, no grace: the slow bot would not go
    assert time.monotonic() - start < 2
    assert len(_recorded(pids)) == 4 and _left_behind(pids) == []
    state, seat = _decision_state()
    with pytest.raises(ExternalBotError) as caught:
        players[0](observe(state, seat))  # type: ignore[arg-type]
    assert caught.value.kind == "crashed"
    players[1].close()  # closing it again does nothing


def test_a_stop_while_a_bot_starts_ends_that_bot_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's stop (its SIGTERM handler) that comes while a bot's process
    exists but is not yet recorded waits until it is, so that it ends too."""
    from sevenbridge import external

    class Exited(Exception):
        pass

    def fake_exit(code: int) -> NoReturn:
        raise Exited(code)

    monkeypatch.setattr("sevenbridge.external.os._exit", fake_exit)
    monkeypatch.setattr(external, "_exit_code", None)
    started: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def spawn_then_stop(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        process: subprocess.Popen[bytes] = popen(*args, **kwargs)
        started.append(process)
        external.exit_closing_all(7)  # the signal comes now: the exit must wait
        return process

    monkeypatch.setattr("sevenbridge.external.subprocess.Popen", spawn_then_stop)
    player = external.ExternalPlayer([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(Exited) as stop:
            player.start()
        assert stop.value.args == (7,)
        (process,) = started
        assert process.wait(timeout=5) == -signal.SIGKILL
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()


def _bot_check(bot: str, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """``sevenbridge bot-check`` of a ``cmd:`` bot, in a session of its own."""
    return _run([sys.executable, "-m", "sevenbridge", "bot-check", bot, *args], limit=120)


def _checks(out: str) -> list[tuple[str, str]]:
    """bot-check's report: each check's mark and what the bot did ("got: ...")."""
    lines = out.splitlines()
    marks = [(i, line.split()[0]) for i, line in enumerate(lines) if line[:1].strip()]
    return [(mark, lines[i + 2].strip().removeprefix("got: "))
            for i, mark in marks if i + 2 < len(lines) and mark in ("passed", "FAILED", "not")]  # fmt: skip


@pytest.mark.parametrize("keep_going", [False, True], ids=["stop", "keep-going"])
@pytest.mark.parametrize("name", list(_REFUSED))
def test_a_nested_or_oversized_answer_forfeits_its_deal_only(
    tmp_path: Path, name: str, keep_going: bool
) -> None:
    """JSON nested 5,000 deep (which Python's JSON reader cannot read without
    a RecursionError) or a line over the cap: the deal is a forfeit, recorded
    with what the bot did, and the tournament plays and stores the others."""
    bot, pids = _bot(tmp_path, name)
    db = tmp_path / "results.sqlite"
    result, seconds = _run(
        _command("--bots", f"{bot},greedy", "--deals", "4", "--seed", "3", "--quiet",
                 "--move-seconds", "5", "--db", str(db), *["--keep-going"] * keep_going),
        limit=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr
    assert seconds < 20, f"the tournament took {seconds:.1f} s"
    games = report(db).results
    assert len(games) == 4
    reason = _REFUSED[name][1]
    for game in games:
        if game.bots[0] == "greedy":  # the bot at seat 1 plays on
            assert game.failure is None and game.end_reason != "forfeit", game
        else:
            assert game.end_reason == "forfeit" and game.failure is not None, game
            assert game.failure.startswith(f"seat 0 ({bot}) nonsense: external bot 'hostile' ")
            assert reason in game.failure, game.failure
            assert game.returns == (-FORFEIT_POINTS, FORFEIT_POINTS)
    assert _left_behind(pids) == []


@pytest.mark.parametrize("name", list(_REFUSED))
def test_bot_check_reports_a_nested_or_oversized_answer(tmp_path: Path, name: str) -> None:
    bot, pids = _bot(tmp_path, name)
    result, _ = _bot_check(bot, "--move-seconds", "5")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr
    checks = _checks(result.stdout)
    assert len(checks) == 23 and checks[0] == ("passed", checks[0][1])  # the handshake
    failed = [got for mark, got in checks if mark == "FAILED"]
    assert failed, result.stdout
    for got in failed:  # the decisions at seat 0 (one after another's in a check of two)
        assert "external bot 'hostile' " + _REFUSED[name][1] in got, got
    assert [mark for mark, _ in checks].count("passed") == 23 - len(failed)
    assert _left_behind(pids) == []


def test_a_handshake_nested_too_deep_is_a_failed_start(tmp_path: Path) -> None:
    bot, pids = _bot(tmp_path, "deep_ready")
    db = tmp_path / "results.sqlite"
    args = ["--bots", f"{bot},greedy", "--deals", "2", "--quiet", "--db", str(db)]
    reason = "wrote JSON nested deeper than 64 levels: {"
    result, _ = _run(_command(*args), limit=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert reason in result.stderr and "no deal was played" in result.stderr
    assert not db.exists()
    result, _ = _run(_command(*args, "--keep-going"), limit=60)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    games = report(db).results
    assert len(games) == 2
    assert all(g.failure and " nonsense: " in g.failure and reason in g.failure for g in games)
    result, _ = _bot_check(bot)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    checks = _checks(result.stdout)
    assert checks[0][0] == "FAILED" and checks[0][1].startswith("external bot '")
    assert reason in checks[0][1] and checks[0][1].endswith("...")
    assert [mark for mark, _ in checks[1:-1]] == ["not"] * 21  # not run
    assert _left_behind(pids) == []


def test_an_answer_nests_up_to_the_cap_only(tmp_path: Path) -> None:
    """The depth cap is exact (the answer, an object, is the first level), and
    brackets in strings do not count, whatever their escapes."""
    script = _script(
        tmp_path,
        "nested",
        """
            handshake()
            for doc in requests():
                if doc["type"] == "decide":
                    with open(sys.argv[1], encoding="utf-8") as answer:
                        sys.stdout.write(answer.read() + "\\n")
                    sys.stdout.flush()
            """,
    )
    answer = tmp_path / "answer.json"

    def pad(depth: int) -> str:  # an answer whose arrays and objects nest ``depth`` deep
        inner = depth - 2
        return '{"type": "action", "index": 0, "pad": [' + '{"a": [' * (inner // 2) + "[" * (
            inner % 2) + "]" * (inner % 2) + "]}" * (inner // 2) + "]}"  # fmt: skip

    note = json.dumps({"type": "action", "index": 0,
                       "note": ['\\"' + "[" * 5000, "\\", '"{' * 5000]})  # fmt: skip
    state, seat = _decision_state()
    view = observe(state, seat)  # type: ignore[arg-type]
    for line, fits in ((pad(MAX_JSON_DEPTH), True), (note, True), (pad(MAX_JSON_DEPTH + 1), False)):
        answer.write_text(line, encoding="utf-8")
        player = ExternalPlayer([sys.executable, str(script), str(answer)], move_seconds=10)
        try:
            if fits:
                assert player(view) == legal_actions(view)[0]
                continue
            with pytest.raises(ExternalBotError) as caught:
                player(view)
        finally:
            player.close()
        error = caught.value
        assert error.kind == "nonsense"
        assert str(error) == (
            "external bot 'hostile' wrote JSON nested deeper than 64 levels: "
            '{"type": "action", "index": 0, "pad": [{"a": [{"a": [{"a": [{"a": [{"a": [{"a...'
        )
        assert error.detail is not None
        what = error.detail.params["what"]
        assert what.code == "external_bot.nested_too_deep" and what.params["limit"] == 64
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is ExternalBotError and copy.kind == error.kind
        assert str(copy) == str(error) and vars(copy) == vars(error)
        assert translate(copy, "ja").startswith(
            "外部ボット「hostile」が64段より深く入れ子になったJSONを書きました："
        )

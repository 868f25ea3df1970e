"""The kit for bots in other languages: the protocol's JSON Schemas, the example
message in the docs, ``sevenbridge schema``, ``sevenbridge bot-check`` and the
Node.js bot of the docs, with real bot processes."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import legal_actions, observe
from sevenbridge.arena import run_tournament
from sevenbridge.cli import main
from sevenbridge.cli.bot_check import DECISIONS, cases, check_bot
from sevenbridge.external import MESSAGES, SCHEMA_FOLDER, _decide_line, message_schema

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "external_bot.py"
BOTS_PAGE = ROOT / "docs" / "howto" / "bots.md"
DECIDE_EXAMPLE = ROOT / "docs" / "_generated" / "decide-message.json"

_READY = '{"type": "ready", "name": NAME, "protocol": "sevenbridge-bot", "version": 1}'


def _python_bot(tmp_path: Path, name: str, decide: str, *, quit: str = "break") -> str:
    """A bot in Python that answers the handshake as ``name`` and each decision
    with the code ``decide`` (``m`` is the message, ``n`` counts decisions)."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import json, os, sys, time\n"
        "def send(doc):\n    print(json.dumps(doc), flush=True)\n"
        "n = 0\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        f"        send({_READY.replace('NAME', repr(name))})\n"
        "    elif m['type'] == 'decide':\n"
        "        n += 1\n" + textwrap.indent(textwrap.dedent(decide).strip(), " " * 8) + "\n"
        "    elif m['type'] == 'quit':\n" + textwrap.indent(quit, " " * 8) + "\n"
    )
    return f"cmd:{sys.executable} {path}"


def _check(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    sys_out, sys.stdout = sys.stdout, out
    try:
        status = main(["bot-check", *args])
    finally:
        sys.stdout = sys_out
    return status, out.getvalue()


def _report(text: str) -> dict[str, tuple[str, str, str]]:
    """The report's checks by label: (mark, expected, got)."""
    lines = text.splitlines()
    found = {}
    for i, line in enumerate(lines):
        if line.startswith(("passed ", "FAILED ", "not run ")):
            mark, label = re.split(r"\s{2,}", line, maxsplit=1)
            expected = lines[i + 1].strip().removeprefix("expected: ")
            got = lines[i + 2].strip().removeprefix("got: ")
            found[label] = (mark, expected, got)
    return found


# -- the schemas of the messages, against what a real host sends -------------------


def test_every_message_a_tournament_sends_fits_its_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    log = tmp_path / "log.jsonl"
    answers = tmp_path / "answers.jsonl"
    bot = tmp_path / "logger.py"
    bot.write_text(textwrap.dedent(f"""
        import json, sys
        from sevenbridge.bots import GreedyPlayer
        from sevenbridge.external import serve

        class Tee:
            def __init__(self, stream, path):
                self.stream, self.path = stream, path
            def __iter__(self):
                for line in self.stream:
                    self.write_log(line)
                    yield line
            def write(self, text):
                self.write_log(text, {str(answers)!r})
                return self.stream.write(text)
            def flush(self):
                self.stream.flush()
            def write_log(self, line, path=None):
                with open(path or self.path, "a") as f:
                    f.write(line)

        serve(GreedyPlayer, name="logger", input=Tee(sys.stdin, {str(log)!r}),
              output=Tee(sys.stdout, {str(log)!r}))
        """))  # fmt: skip
    command = f"cmd:{sys.executable} {bot}"
    for game, rules in (("seven_bridge", None), ("mahjong", None)):
        run_tournament([command, "greedy"], rules, game=game, deals=2, seed=1, progress=False,
                       players=2)  # fmt: skip
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    answered = [json.loads(line) for line in answers.read_text().splitlines()]
    seen = {m["type"] for m in sent} | {m["type"] for m in answered}
    assert seen == set(MESSAGES)
    assert {m["game"] for m in sent if m["type"] == "deal"} == {"seven_bridge", "mahjong"}
    validators = {k: jsonschema.Draft202012Validator(message_schema(k)) for k in MESSAGES}
    for message in sent + answered:
        validators[message["type"]].validate(message)
    # The answers in another form: an action document of either game.
    for message in sent:
        if message["type"] == "decide":
            validators["action"].validate({"type": "action", "action": message["legal"][-1]})
    # What the schemas refuse: a card game observation with mahjong actions, a bad index,
    # a ready without a name, a field the host never sends.
    decides = [m for m in sent if m["type"] == "decide"]
    card = next(m for m in decides if m["observation"]["format"] == "sevenbridge.observation")
    mahjong = next(m for m in decides if "mahjong" in m["observation"]["format"])
    assert not validators["decide"].is_valid({**card, "legal": mahjong["legal"]})
    assert not validators["decide"].is_valid({**card, "legal": card["legal"][:1]})
    assert not validators["action"].is_valid({"type": "action", "index": -1})
    assert not validators["ready"].is_valid({"type": "ready", "protocol": "sevenbridge-bot",
                                             "version": 1})  # fmt: skip
    assert not validators["hello"].is_valid({"type": "hello", "protocol": "sevenbridge-bot",
                                             "version": 1, "extra": 0})  # fmt: skip
    end = next(m for m in sent if m["type"] == "end")
    assert validators["end"].is_valid({**end, "winner": None, "reason": "drawn"})
    assert not validators["end"].is_valid({**end, "winner": "nobody"})
    deal = next(m for m in sent if m["type"] == "deal" and m["game"] == "mahjong")
    assert not validators["deal"].is_valid({**deal, "game": "seven_bridge"})


def test_a_message_schema_of_no_message_is_refused() -> None:
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="no protocol message 'hi'; the messages are"):
        message_schema("hi")


# -- the example message in the docs -------------------------------------------------


def _pretty(value: Any, indent: int = 0, width: int = 100) -> str:
    """JSON laid out for reading: what fits in the width on one line, the rest
    a key or a run of items to a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_pretty(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(v, (dict, list)) for v in value):
        lines, line = [], ""
        for item in (json.dumps(v, ensure_ascii=False) for v in value):
            if line and len(pad) + len(line) + len(item) + 2 > width:
                lines.append(line + ",")
                line = ""
            line = f"{line}, {item}" if line else item
        lines.append(line)
        return "[\n" + "\n".join(pad + x for x in lines) + "\n" + " " * indent + "]"
    items = [pad + _pretty(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def test_the_docs_example_message_is_the_one_the_host_sends() -> None:
    """docs/_generated/decide-message.json is what bot-check sends for its first
    standard-rules case, as the host writes it (SEVENBRIDGE_REGOLD=1 rewrites it)."""
    case = next(c for c in cases("seven_bridge") if c.preset == "standard")
    view = observe(case.state, case.state.current_player)
    message = json.loads(_decide_line(view, legal_actions(view)))
    text = _pretty(message) + "\n"
    assert json.loads(text) == message
    if os.environ.get("SEVENBRIDGE_REGOLD"):
        DECIDE_EXAMPLE.write_text(text, encoding="utf-8")
    if not DECIDE_EXAMPLE.parent.exists():
        pytest.skip("the docs folder is not shipped here")
    assert DECIDE_EXAMPLE.read_text(encoding="utf-8") == text, "rewrite: SEVENBRIDGE_REGOLD=1"
    assert "decide-message.json" in BOTS_PAGE.read_text(encoding="utf-8")
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(message_schema("decide")).validate(message)


# -- sevenbridge schema --------------------------------------------------------------


def test_schema_lists_prints_and_writes_the_installed_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["schema"]) == 0
    listing = capsys.readouterr().out
    assert str(SCHEMA_FOLDER) in listing and "  protocol/decide.json" in listing
    assert main(["schema", "protocol/quit"]) == 0
    assert capsys.readouterr().out == (SCHEMA_FOLDER / "protocol" / "quit.json").read_text()
    assert main(["schema", "--out", str(tmp_path / "out")]) == 0
    # Each game's 4 documents, the event, 7 messages, the seat protocol's 5 and its declarations.
    assert "22 schemas written" in capsys.readouterr().out
    written = sorted(p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*.*"))
    installed = sorted(p.relative_to(SCHEMA_FOLDER) for p in SCHEMA_FOLDER.rglob("*.*"))
    assert written == installed and len(written) == 22
    assert main(["schema", "web/seat.d.ts"]) == 0
    assert "export type SeatView = {" in capsys.readouterr().out
    for path in written:
        assert (tmp_path / "out" / path).read_bytes() == (SCHEMA_FOLDER / path).read_bytes()
    with pytest.raises(SystemExit) as stop:
        main(["schema", "quit"])
    assert stop.value.code == 2
    assert "no schema named 'quit'; the schemas are state," in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["schema", "--out", str(tmp_path / "file")]) == 1
    assert "is not a folder" in capsys.readouterr().err


# -- sevenbridge bot-check --------------------------------------------------------------


def test_the_cases_cover_every_kind_of_decision_under_every_preset() -> None:
    card = [(c.preset, c.label) for c in cases("seven_bridge")]
    kinds = [d.label for d in DECISIONS["seven_bridge"]]
    assert card == [("nintendo", k) for k in kinds] + [
        (preset, k) for preset in ("seven_rummy", "standard") for k in kinds[:5]
    ]
    mahjong = [(c.preset, c.label) for c in cases("mahjong")]
    kinds = [d.label for d in DECISIONS["mahjong"]]
    assert mahjong == [("full", k) for k in kinds] + [
        ("literal", k) for k in kinds if "kong" not in k and "self-drawn" not in k
    ] + [("standard", k) for k in kinds if "kong" not in k]
    for case in cases("seven_bridge") + cases("mahjong"):
        fits = {d.label: d.fits for d in DECISIONS[_game(case.state)]}[case.label]
        assert fits(legal_actions(case.state) if _game(case.state) == "seven_bridge"
                    else _mahjong().legal_actions(case.state))  # fmt: skip


def _game(state: object) -> str:
    from sevenbridge.games import game_of

    return game_of(state)


def _mahjong() -> Any:
    import sevenbridge.mahjong

    return sevenbridge.mahjong


def test_the_example_bot_passes_every_check() -> None:
    status, out = _check(f"cmd:{sys.executable} {EXAMPLE}")
    report = _report(out)
    assert status == 0, out
    assert len(report) == len(cases("seven_bridge")) + 4
    assert all(mark == "passed" for mark, _, _ in report.values())
    _, expected, got = report["the handshake"]
    assert "named 'example-external'" in got and '"type": "ready"' in expected
    assert report["quit"][2].startswith("exited with status 0 in ")
    assert report["standard: a claim window (pon or pass)"][1].startswith(
        "one of the 2 legal actions: Pass, Pon "
    )
    assert out.rstrip().endswith("checks passed, 0 failed, 0 not run")


def test_a_served_python_player_passes_the_mahjong_checks(tmp_path: Path) -> None:
    script = tmp_path / "served.py"
    script.write_text("from sevenbridge.bots import GreedyPlayer\n"
                      "from sevenbridge.external import serve\n"
                      "serve(GreedyPlayer, name='served greedy')\n")  # fmt: skip
    checks = list(check_bot([sys.executable, str(script)], game="mahjong"))
    assert [c.passed for c in checks] == [True] * (len(cases("mahjong")) + 4), checks
    assert "full: a kong on one's own turn, or discard" in [c.label for c in checks]


def test_an_illegal_answer_fails_its_checks_and_the_bot_is_started_again(tmp_path: Path) -> None:
    bot = _python_bot(tmp_path, "pon-cheat", """
        if any(a["type"] == "Pon" for a in m["legal"]):
            send({"type": "action", "index": len(m["legal"])})
        elif any(a["type"] == "Chi" for a in m["legal"]):
            send({"type": "action", "action": {"format": "sevenbridge.action", "version": 1,
                  "type": "Discard", "player": m["observation"]["viewer"], "card": "JK"}})
        else:
            send({"type": "action", "index": 0})
        """)  # fmt: skip
    status, out = _check(bot)
    report = _report(out)
    assert status == 1
    failed = {label for label, (mark, _, _) in report.items() if mark == "FAILED"}
    assert failed == {label for label in report if "pon" in label or "chi" in label} | {
        "a new deal before the last one's end", "a decision within 1 s"
    }  # fmt: skip
    _, expected, got = report["standard: a claim window (pon or pass)"]
    assert expected.startswith("one of the 2 legal actions: Pass, Pon ")
    assert got == "external bot 'pon-cheat' answered index 2; there are 2 legal actions"
    assert report["nintendo: chi with the joker"][2] == (
        "external bot 'pon-cheat' answered Discard JK, which is not legal here"
    )
    assert report["standard: a discard"][0] == "passed"  # started again after a failure
    assert report["quit"][0] == "passed"
    assert re.search(r"^\d+ of 23 checks passed, \d+ failed, 0 not run$", out, re.M)


def test_a_bot_that_stops_answering_times_out_and_is_not_asked_again(tmp_path: Path) -> None:
    bot = _python_bot(tmp_path, "silent", "pass", quit="time.sleep(30)")
    status, out = _check(bot, "--move-seconds", "0.3")
    report = _report(out)
    assert status == 1
    first = "nintendo: the turn's start (draw or chi)"
    assert report[first][0] == "FAILED"
    assert report[first][2] == "external bot 'silent' did not answer a decision within 0.3 s"
    assert [mark for mark, _, _ in report.values()][2:-1] == ["not run"] * 20
    assert report["a decision within 1 s"][2] == ("not run: the bot did not answer in time before")
    assert report["quit"][:2] == ("FAILED", "exit with status 0 within 1 s")
    assert report["quit"][2] == "still running after 1 s: killed"
    assert out.rstrip().endswith("1 of 23 checks passed, 2 failed, 20 not run")


def test_a_bot_too_slow_for_the_short_deadline_fails_that_check_only(tmp_path: Path) -> None:
    slow_at = len(cases("seven_bridge")) + 3  # the decisions before the short deadline's
    bot = _python_bot(tmp_path, "slow", f"""
        if n == {slow_at}:
            time.sleep(1.0)
        send({{"type": "action", "index": 0}})
        """)  # fmt: skip
    status, out = _check(bot, "--short-seconds", "0.3")
    report = _report(out)
    assert status == 1
    failed = [label for label, (mark, _, _) in report.items() if mark != "passed"]
    assert failed == ["a decision within 0.3 s"]
    assert report["a decision within 0.3 s"][2] == (
        "external bot 'slow' did not answer a decision within 0.3 s"
    )


def test_a_crash_a_nameless_handshake_and_a_bad_exit_are_reported(tmp_path: Path) -> None:
    marker = tmp_path / "crashed-once"
    bot = _python_bot(tmp_path, "crash-once", f"""
        if not os.path.exists({str(marker)!r}):
            open({str(marker)!r}, "w").close()
            sys.exit("cannot decide")
        send({{"type": "action", "index": 0}})
        """, quit="sys.exit(3)")  # fmt: skip
    status, out = _check(bot)
    report = _report(out)
    assert status == 1
    failed = [label for label, (mark, _, _) in report.items() if mark != "passed"]
    assert failed == ["nintendo: the turn's start (draw or chi)", "quit"]
    assert report[failed[0]][2] == (
        "external bot 'crash-once' exited with status 1; its standard error ended: cannot decide"
    )
    assert report["quit"][2].startswith("exited with status 3 in ")
    # A ready answer without a name.
    path = tmp_path / "nameless.py"
    path.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'protocol': 'sevenbridge-bot', 'version': 1}),"
        " flush=True)\n"
        "    elif m['type'] == 'decide':\n"
        "        print(json.dumps({'type': 'action', 'index': 0}), flush=True)\n"
    )
    checks = list(check_bot([sys.executable, str(path)]))
    assert checks[0] == checks[0]._replace(passed=False, got="a ready answer without a name")
    assert all(c.passed for c in checks[1:])


def test_a_failed_handshake_runs_nothing_else_and_the_command_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "rude.py"
    path.write_text("import sys\nsys.stdin.readline()\nprint('{\"type\": \"ready\"}', flush=True)\n"
                    "sys.stdin.read()\n")  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "sevenbridge", "bot-check", f"cmd:{sys.executable} {path}",
         "--lang", "ja"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("不合格") and "ハンドシェイク" in lines[1]
    assert sum(line.startswith("未実施") for line in lines) == len(cases("seven_bridge")) + 2
    assert lines[-1] == "23件中0件合格、2件不合格、21件未実施"
    status = subprocess.run(
        [sys.executable, "-m", "sevenbridge", "bot-check", "cmd:"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert status.returncode == 2 and "needs the bot's command" in status.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["cmd:python bot.py", "--short-seconds", "0"], "short_seconds must be above 0"),
        (["cmd:python bot.py", "--move-seconds", "-1"], "move_seconds must be above 0"),
        (['cmd:python "bot.py'], "the external bot's command 'python \"bot.py' does not read"),
    ],
)
def test_bad_arguments_stop_bot_check_before_any_bot_starts(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["bot-check", *args])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err, err


# -- the Node.js bot of the docs ---------------------------------------------------------


def _docs_bot(tmp_path: Path) -> Path:
    """first_legal.js as docs/howto/bots.md shows it, saved as a reader would."""
    spec = importlib.util.spec_from_file_location("docs_conftest", ROOT / "docs" / "conftest.py")
    if spec is None or spec.loader is None or not BOTS_PAGE.exists():
        pytest.skip("the docs folder is not shipped here")
    docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(docs)
    path = tmp_path / "first_legal.js"
    path.write_text(docs.saved_files(BOTS_PAGE)["first_legal.js"], encoding="utf-8")
    return path


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        if os.environ.get("SEVENBRIDGE_FULL_CI") == "1":
            pytest.fail("CI installs Node.js (Debian's nodejs), but node is missing")
        pytest.skip("Node.js is not installed")
    return node


@pytest.mark.parametrize("game", ["sevenbridge", "mahjong"])
def test_the_docs_node_bot_passes_bot_check(tmp_path: Path, game: str) -> None:
    node, bot = _node(), _docs_bot(tmp_path)
    status, out = _check(f"cmd:{node} {bot}", "--game", game)
    assert status == 0, out
    assert "named 'first-legal.js'" in out
    if game == "sevenbridge":  # the report the docs show is this one (times aside)
        page = BOTS_PAGE.read_text(encoding="utf-8")
        shown = page.split('$ sevenbridge bot-check "cmd:node first_legal.js"\n')[1]
        shown = shown.split("```")[0]
        times = re.compile(r"\d+ ms")
        real = {times.sub("N ms", line.replace(f"{node} {bot}", "node first_legal.js"))
                for line in out.splitlines()}  # fmt: skip
        for line in shown.splitlines():
            if line != "...":
                assert times.sub("N ms", line) in real, line


def test_bot_check_fails_broken_node_bots(tmp_path: Path) -> None:
    node, bot = _node(), _docs_bot(tmp_path)
    source = bot.read_text(encoding="utf-8")
    assert "index: choose(message.legal)" in source
    illegal = tmp_path / "illegal.js"
    illegal.write_text(
        source.replace("index: choose(message.legal)", "index: message.legal.length")
    )
    checks = list(check_bot([node, str(illegal)]))
    assert checks[0].passed and checks[-1].passed  # the handshake and quit
    assert not any(c.passed for c in checks[1:-1])
    assert (
        checks[1].got == "external bot 'first-legal.js' answered index 2; there are 2 legal actions"
    )
    mute = tmp_path / "mute.js"
    mute.write_text(source.replace('send({ type: "action"', 'void ({ type: "action"'))
    checks = list(check_bot([node, str(mute)], move_seconds=0.3))
    assert [c.passed for c in checks[:2]] == [True, False]
    assert checks[1].got == "external bot 'first-legal.js' did not answer a decision within 0.3 s"
    assert {c.passed for c in checks[2:-1]} == {None}

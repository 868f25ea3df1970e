"""The examples keep working."""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent.parent / "examples"

#: Examples with a test of their own (a long run by default, an optional extra, or a
#: program that talks over stdin/stdout).
OWN_TESTS = {
    "train_reinforce.py",
    "external_bot.py",
    "train_maskable_ppo.py",
    "flat_monte_carlo.py",
    "train_neural.py",
    "train_beliefs.py",
    "own_table.py",
}
EXAMPLES = sorted(p for p in HERE.glob("*.py") if p.name not in OWN_TESTS)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out.strip()


def test_external_bot_example_shakes_hands_and_quits() -> None:
    hello = {"type": "hello", "protocol": "sevenbridge-bot", "version": 1}
    done = subprocess.run(
        [sys.executable, str(HERE / "external_bot.py")],
        input=json.dumps(hello) + "\n" + '{"type": "quit"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer["type"] == "ready" and answer["protocol"] == "sevenbridge-bot"
    assert answer["version"] == 1


def test_maskable_ppo_example_trains_and_evaluates(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib", reason="the example needs sb3-contrib and torch")
    module = runpy.run_path(str(HERE / "train_maskable_ppo.py"), run_name="train_maskable_ppo")
    assert module["main"](["--steps", "128", "--eval", "3"]) == 0
    out = capsys.readouterr().out
    assert "MaskablePPO after 128 steps, 3 deals" in out and "mean return" in out


def test_own_table_example_plays_explains_and_tells_events() -> None:
    """The "Build your own table" example, driven as a browser would (its
    Starlette app called over ASGI): the page draws the seat's view and lists
    its moves; a move typed without its player is played, the bots answer, and
    the page tells the events; an illegal move is explained, nonsense refused."""
    import asyncio
    import re

    pytest.importorskip("starlette")
    example = runpy.run_path(str(HERE / "own_table.py"), run_name="own_table")
    app, table = example["app"], example["table"]

    async def call(method: str, body: str = "") -> tuple[int, str]:
        scope = {
            "type": "http", "method": method, "path": "/", "raw_path": b"/",
            "query_string": b"", "headers": [(b"host", b"127.0.0.1")],
            "http_version": "1.1", "scheme": "http", "root_path": "",
            "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 1),
        }  # fmt: skip
        sent: list[dict[str, Any]] = []
        chunks = [{"type": "http.request", "body": body.encode(), "more_body": False}]

        async def receive() -> dict[str, Any]:
            return chunks.pop(0) if chunks else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(scope, receive, send)
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return status, text.decode()

    status, page = asyncio.run(call("GET"))
    assert status == 200 and "<svg" in page and "<li>" in page
    from sevenbridge import legal_actions

    state = table.state
    assert state.current_player == 0
    draw = "draw" if any(type(a).__name__ == "Draw" for a in legal_actions(state)) else None
    assert draw is not None
    assert asyncio.run(call("POST", "move=draw"))[0] == 303
    assert table.state.current_player == 0 and table.state.hand(0) != state.hand(0)
    assert "draw" in table.said.lower()
    asyncio.run(call("POST", "move=pon+2C+3C"))  # a move, but not now
    assert "Illegal" in table.said
    asyncio.run(call("POST", "move=P1+Draw"))  # another seat's move
    assert "not of P0" in table.said
    status, page = asyncio.run(call("GET"))
    assert status == 200 and re.search(r"not of P0", page)

"""External bots over the JSON-lines protocol: the example bot, and bots that misbehave."""

from __future__ import annotations

import json
import pickle
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sevenbridge import Rules, apply, deal, legal_actions, observe, replay
from sevenbridge.arena import run_tournament
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.external import PROTOCOL, ExternalBotError, ExternalPlayer

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "external_bot.py"

_HANDSHAKE = """
import json, sys
def send(doc):
    print(json.dumps(doc), flush=True)
def handshake():
    json.loads(sys.stdin.readline())
    send({"type": "ready", "name": "test", "protocol": "sevenbridge-bot", "version": 1})
"""


def _bot(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(_HANDSHAKE + textwrap.dedent(body))
    return f"{sys.executable} {path}"


def _decision_state() -> tuple[object, int]:
    state = deal(players=3, seed=7)
    while len(legal_actions(state)) < 2:
        state = apply(state, legal_actions(state)[0])
    assert state.current_player is not None
    return state, state.current_player


def test_example_bot_plays_legal_moves_over_the_protocol() -> None:
    bot = ExternalPlayer([sys.executable, str(EXAMPLE)])
    state = deal(Rules.nintendo(), players=3, seed=3)
    bot.new_deal(seat=0, players=3, seed=1, rules=state.rules)
    try:
        while not state.is_over:
            view = observe(state)
            action = bot(view) if view.viewer == 0 else legal_actions(view)[0]
            assert action in legal_actions(view)
            state = apply(state, action)
        bot.end_deal(state)
        assert bot.name == "example-external"
    finally:
        bot.close()


def test_the_bot_is_sent_its_seats_view_and_the_legal_actions(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    command = _bot(
        tmp_path,
        "logger",
        f"""
        handshake()
        with open({str(log)!r}, "a") as log:
            for line in sys.stdin:
                log.write(line)
                log.flush()
                doc = json.loads(line)
                if doc["type"] == "decide":
                    send({{"type": "action", "action": json.loads(json.dumps(doc["legal"][-1]))}})
        """,
    )
    result = run_tournament([f"cmd:{command}", "greedy"], deals=2, seed=3, progress=False)
    assert all(g.failure is None for g in result.results)
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    decides = [m for m in messages if m["type"] == "decide"]
    deals = [m for m in messages if m["type"] == "deal"]
    assert len(deals) == 2 and {d["seat"] for d in deals} == {0, 1}
    assert all(m["rules"] == json.loads(Rules().to_json()) for m in deals)
    assert [m["type"] for m in messages].count("end") == 2
    # Replay the deals and check every decision document against observe().
    expected = []
    for game in result.results:
        seat = game.bots.index(f"cmd:{command}")
        for state in replay(game.record)[:-1]:
            if state.current_player == seat and len(legal_actions(state)) > 1:
                view = observe(state, seat)
                expected.append((json.loads(view.to_json()), legal_actions(view)))
    assert len(decides) == len(expected) > 0
    for message, (view_doc, legal) in zip(decides, expected, strict=True):
        assert message["observation"] == view_doc
        assert message["legal"] == [json.loads(a.to_json()) for a in legal]


@pytest.mark.parametrize(
    ("name", "body", "kind", "reason"),
    [
        ("crash", "handshake()\nsys.stdin.readline()\nsys.stdin.readline()\nsys.exit(3)",
         "crashed", "exited with status 3"),
        ("garbage", "handshake()\nfor line in sys.stdin:\n    print('I think I will pon', flush=True)",
         "nonsense", "not JSON"),
        ("index", "handshake()\nfor line in sys.stdin:\n    send({'type': 'action', 'index': 99})",
         "nonsense", "answered index 99"),
        ("illegal", "handshake()\nfor line in sys.stdin:\n"
                    "    send({'type': 'action', 'action': {'format': 'sevenbridge.action', "
                    "'version': 1, 'type': 'Discard', 'player': 0, 'card': 'JK'}})",
         "nonsense", "not legal here"),
        ("slow", "import time\nhandshake()\nfor line in sys.stdin:\n    time.sleep(30)",
         "timeout", "did not answer a decision within 0.5 s"),
        ("rude", "json.loads(sys.stdin.readline())\nsend({'type': 'ready', 'version': 7})",
         "nonsense", "answered the handshake"),
    ],
)  # fmt: skip
def test_a_misbehaving_bot_loses_the_deal_and_the_tournament_goes_on(
    tmp_path: Path, name: str, body: str, kind: str, reason: str
) -> None:
    command = _bot(tmp_path, name, body)
    bot = ExternalPlayer(command, move_seconds=0.5, handshake_seconds=5)
    state, seat = _decision_state()
    with pytest.raises(ExternalBotError, match=reason) as caught:
        bot(observe(state, seat))  # type: ignore[arg-type]
    assert caught.value.kind == kind
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.kind, str(copy)) == (kind, str(caught.value))
    if kind == "nonsense" and "handshake" in reason:  # stops the run before any deal...
        with pytest.raises(ExternalBotError, match=r"handshake.*no deal was played"):
            run_tournament([f"cmd:{command}", "greedy"], deals=4, seed=1, progress=False)
    # ... unless asked to go on: then every deal the bot decides in is a forfeit.
    result = run_tournament([f"cmd:{command}", "greedy"], deals=4, seed=1, progress=False,
                            move_seconds=0.5, keep_going=True)  # fmt: skip
    assert result.games == 4
    forfeits = [g for g in result.results if g.failure is not None]
    assert forfeits, "the bad bot never had to decide"
    for game in forfeits:
        assert game.failure is not None and kind in game.failure
        assert game.end_reason == "forfeit" and game.winner is None
        bad = game.bots.index(f"cmd:{command}")
        assert game.returns[bad] == -100 and sum(game.returns) == pytest.approx(0)
        assert replay(game.record)  # the record up to the failure still reads
    stats = result.bots[f"cmd:{command}"]
    assert stats.forfeits == len(forfeits) and stats.wins == 0
    assert "forfeits" in result.table()


def test_a_bot_that_cannot_start() -> None:
    bot = ExternalPlayer(["/nonexistent/bot-program"])
    state, seat = _decision_state()
    with pytest.raises(ExternalBotError, match="could not start"):
        bot(observe(state, seat))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="command must be"):
        ExternalPlayer(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="move_seconds"):
        ExternalPlayer("bot", move_seconds=0)
    with pytest.raises(InvalidArgumentError, match=r"command 'python \"bot\.py' does not read"):
        ExternalPlayer('python "bot.py')
    with pytest.raises(InvalidArgumentError, match="does not read"):
        run_tournament(['cmd:python "bot.py', "greedy"], deals=2, progress=False)
    # A mistyped bot stops a tournament before any deal (and keep_going plays on).
    with pytest.raises(ExternalBotError, match=r"could not start.*no deal was played"):
        run_tournament(["cmd:/nonexistent/bot-program", "greedy"], deals=2, progress=False)
    result = run_tournament(["cmd:/nonexistent/bot-program", "greedy"], deals=2,
                            progress=False, keep_going=True)  # fmt: skip
    assert result.games == 2 and all("could not start" in (g.failure or "") for g in result.results)
    assert PROTOCOL == "sevenbridge-bot"


def test_bad_time_limits_stop_a_tournament_before_any_work(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    for limits in ({"move_seconds": 0}, {"handshake_seconds": -1}):
        with pytest.raises(InvalidArgumentError, match="must be above 0"):
            run_tournament([f"cmd:{sys.executable} {EXAMPLE}", "greedy"], deals=2, db=db,
                           progress=False, **limits)  # type: ignore[arg-type]  # fmt: skip
    assert not db.exists()


def test_the_handshake_time_is_a_tournament_setting(tmp_path: Path) -> None:
    command = _bot(tmp_path, "sleepy", "import time\ntime.sleep(30)")
    start = time.monotonic()
    with pytest.raises(ExternalBotError, match=r"did not answer the handshake within 0\.5 s"):
        run_tournament([f"cmd:{command}", "greedy"], deals=2, progress=False,
                       handshake_seconds=0.5)  # fmt: skip
    assert time.monotonic() - start < 10

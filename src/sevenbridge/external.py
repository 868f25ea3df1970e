"""Bots in any language: a JSON-lines protocol over a subprocess's stdin and stdout.

Like UCI for chess engines, the protocol lets a program written in any language
play: the host (this library) starts the bot as a subprocess, writes one JSON
document per line to its standard input, and reads one JSON document per line
from its standard output. The bot's standard error is passed through.

Protocol ``sevenbridge-bot``, version 1:

1. Handshake. The host sends ``{"type": "hello", "protocol": "sevenbridge-bot",
   "version": 1}``; the bot answers ``{"type": "ready", "name": "...",
   "protocol": "sevenbridge-bot", "version": 1}`` within the handshake time.
2. A new deal. The host sends ``{"type": "deal", "game": "seven_bridge",
   "seat": 0, "players": 3, "seed": 123, "rules": {...}}``: the game (a name of
   :data:`sevenbridge.GAMES`, ``"seven_bridge"`` or ``"mahjong"``; a mahjong
   "deal" is a round) and the rules document of that game's ``Rules.to_json``
   (:meth:`sevenbridge.Rules.to_json`); the seed is for the bot's own choices,
   so that tournaments replay exactly. No answer. A ``deal`` message may come
   before the previous deal's ``end`` (a deal cut short by another bot's
   failure): it always starts afresh.
3. A decision. The host sends ``{"type": "decide", "observation": {...},
   "legal": [{...}, ...]}``: the seat's :class:`~sevenbridge.Observation` as
   :meth:`~sevenbridge.Observation.to_json` writes it (for mahjong,
   :class:`sevenbridge.mahjong.Observation`), and the legal actions as
   action documents, in the engine's order. The bot answers ``{"type":
   "action", "index": 2}`` (a place in ``legal``) or ``{"type": "action",
   "action": {...}}`` (an action document) within the move time.
4. The end of a deal. The host sends ``{"type": "end", "scores": [...],
   "returns": [...], "winner": 1, "reason": "..."}`` (for mahjong the reason
   is ``"mahjong"`` or ``"drawn"``). No answer.
5. ``{"type": "quit"}``, or the end of standard input: the bot exits.

Forced moves (a lone legal action) are played by the host without asking.
A bot that exits, writes anything that is not such an answer (bad JSON, an
unknown index, an action that is not legal), or does not answer in time loses
the deal; :class:`ExternalBotError` says which of these happened.

``examples/external_bot.py`` is a complete bot in 60 lines of standard-library
Python. In a tournament, name it as ``cmd:`` followed by its command line::

    sevenbridge tournament --bots "cmd:python examples/external_bot.py,greedy" --deals 100

>>> PROTOCOL, PROTOCOL_VERSION
('sevenbridge-bot', 1)
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, NoReturn

from ._kit import checks as _checks
from ._kit import hooks as _hooks
from .actions import Action
from .errors import ExternalBotError, InvalidArgumentError, Message, SevenBridgeError
from .games import CARD_GAME, game_module, game_of, outcome
from .rules import Rules
from .serialize import action_from_json
from .state import GameState
from .views import Observation

__all__ = [
    "PROTOCOL",
    "PROTOCOL_VERSION",
    "ExternalBotError",
    "ExternalPlayer",
]

#: The protocol's name, sent in the handshake.
PROTOCOL = "sevenbridge-bot"
#: The protocol's version; a bot that answers another version is refused.
PROTOCOL_VERSION = 1

_EOF = object()


class _Lines:
    """The bot's output, a line at a time, with a time limit on every wait.

    On POSIX systems the pipe is read directly, waiting with ``select`` (no
    thread: the cheapest path, which keeps the protocol's cost per decision
    low); elsewhere a reader thread fills a queue.
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.buffer = b""
        self.queue: queue.SimpleQueue[object] | None = None
        if os.name != "posix":  # pragma: no cover - exercised on Windows only
            self.queue = queue.SimpleQueue()
            threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:  # pragma: no cover - Windows only
        assert self.queue is not None
        try:
            for line in self.stream:
                self.queue.put(line)
        except (OSError, ValueError):
            pass
        self.queue.put(_EOF)

    def get(self, timeout: float) -> object:
        """The next line (bytes), ``_EOF`` at the end, or raise :class:`queue.Empty`."""
        if self.queue is not None:  # pragma: no cover - Windows only
            return self.queue.get(timeout=timeout)
        import select

        deadline = time.monotonic() + timeout
        fd = self.stream.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise queue.Empty
            chunk = os.read(fd, 65536)
            if not chunk:
                return _EOF
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line


class ExternalPlayer:
    """A bot that runs as a subprocess and speaks the ``sevenbridge-bot`` protocol.

    It is a :class:`~sevenbridge.bots.Player`: call it with an observation and
    it returns the action the program chose. The subprocess starts on the first
    use and lives until :meth:`close` (or the end of the program), so one
    process plays many deals.

    Args:
        command: The program and its arguments, as a list or a shell-like
            string (``"python examples/external_bot.py"``).
        move_seconds: How long the bot may think about one decision.
        start_seconds: How long the bot may take to start and answer the
            handshake.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        move_seconds: float = 10.0,
        start_seconds: float = 30.0,
    ) -> None:
        if isinstance(command, str):
            args = shlex.split(command, posix=os.name == "posix")
        elif isinstance(command, Sequence) and all(isinstance(a, str) for a in command):
            args = list(command)
        else:
            raise TypeError(
                f"command must be a string or a list of strings, not {_checks.type_name(command)}"
            )
        if not args:
            raise ExternalBotError(
                "crashed",
                Message(
                    "external_bot.external_bot_needs_command",
                    "an external bot needs a command to run",
                ),
            )
        self.command = args
        self.move_seconds = _seconds(move_seconds, "move_seconds")
        self.start_seconds = _seconds(start_seconds, "start_seconds")
        self.name = args[-1]
        """The name the bot gave in its handshake (until then, its command)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._reader: _Lines | None = None
        self._seat = 0
        self._deal: bytes | None = None
        self._in_deal = False

    # -- the process -------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the bot's process is running (it starts on first use)."""
        return self._process is not None

    def start(self) -> None:
        """Start the bot and shake hands now, rather than at its first decision."""
        if self._process is None:
            self._start()

    def _start(self) -> None:
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
            )
        except OSError as error:
            raise ExternalBotError(
                "crashed",
                Message(
                    "external_bot.external_bot_could_not",
                    "external bot {name} could not start: {error}",
                    name=repr(self.name),
                    error=error,
                ),
            ) from None
        assert self._process.stdout is not None
        self._reader = _Lines(self._process.stdout)
        self._send({"type": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION})
        answer = self._receive(
            self.start_seconds, Message("external_bot.handshake", "the handshake")
        )
        if (
            answer.get("type") != "ready"
            or answer.get("protocol") != PROTOCOL
            or answer.get("version") != PROTOCOL_VERSION
        ):
            self._fail(
                "nonsense",
                Message(
                    "external_bot.answered_handshake_with_expected",
                    'answered the handshake with {short}; expected {{"type": "ready", "protocol": "{protocol}", "version": {version}}}',
                    short=str(_short(answer)),
                    protocol=str(PROTOCOL),
                    version=str(PROTOCOL_VERSION),
                ),
            )
        if isinstance(answer.get("name"), str) and answer["name"]:
            self.name = answer["name"][:80]

    def _send(self, message: dict[str, Any]) -> None:
        self._send_line(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def _send_line(self, line: bytes) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line)
        except (BrokenPipeError, OSError, ValueError):
            self._fail("crashed", self._exit_text())

    def _receive(self, seconds: float, what: str) -> dict[str, Any]:
        assert self._reader is not None
        try:
            line = self._reader.get(seconds)
        except queue.Empty:
            self._fail(
                "timeout",
                Message(
                    "external_bot.did_not_answer_within",
                    "did not answer {what} within {seconds} s",
                    what=what,
                    seconds=format(seconds, "g"),
                ),
            )
        if line is _EOF:
            self._fail("crashed", self._exit_text())
        assert isinstance(line, bytes)
        try:
            answer = json.loads(line)
        except (UnicodeDecodeError, ValueError):
            self._fail(
                "nonsense",
                Message(
                    "external_bot.wrote_line_that_not",
                    "wrote a line that is not JSON: {short}",
                    short=str(_short(line)),
                ),
            )
        if not isinstance(answer, dict):
            self._fail(
                "nonsense",
                Message(
                    "external_bot.wrote_not_json_object",
                    "wrote {short}, not a JSON object",
                    short=str(_short(answer)),
                ),
            )
        return dict(answer)

    def _exit_text(self) -> str:
        assert self._process is not None
        try:
            code = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return Message("external_bot.closed", "closed its output")
        return Message("external_bot.exited", "exited with status {code}", code=code)

    def _fail(self, kind: str, what: str) -> NoReturn:
        name = self.name
        self.close()
        raise ExternalBotError(
            kind,
            Message(
                "external_bot.external_bot",
                "external bot {name} {what}",
                name=repr(name),
                what=what,
            ),
        )

    def close(self) -> None:
        """Tell the bot to quit and end its process (it starts again if used)."""
        process, self._process, self._reader, self._deal = self._process, None, None, None
        self._in_deal = False
        if process is None:
            return
        try:
            assert process.stdin is not None
            process.stdin.write(b'{"type":"quit"}\n')
            process.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __del__(self) -> None:
        if getattr(self, "_process", None) is not None:
            self.close()

    # -- playing -------------------------------------------------------------

    def new_deal(self, *, seat: int, players: int, seed: int, rules: Rules | Any) -> None:
        """Tell the bot a new deal starts, where it sits and the seed for its choices
        (the game is the one ``rules`` belong to)."""
        message = {
            "type": "deal",
            "game": game_of(rules),
            "seat": seat,
            "players": players,
            "seed": seed,
            "rules": json.loads(rules.to_json()),
        }
        self._seat = seat
        # Sent with the first decision, so that a bot that never decides costs nothing.
        self._deal = json.dumps(message, separators=(",", ":")).encode() + b"\n"

    def end_deal(self, state: GameState) -> None:
        """Tell the bot how the deal ended (no answer is expected)."""
        if self._process is None or not self._in_deal:
            return  # the bot was never asked anything in this deal
        self._in_deal = False
        scores, reason = outcome(state)
        self._send(
            {
                "type": "end",
                "scores": list(scores),
                "returns": list(game_module(game_of(state)).returns(state)),
                "winner": state.winner,
                "reason": reason,
            }
        )

    def __call__(self, view: Observation | GameState, /) -> Action:
        from .bots import choices, view_of

        view = view_of(view)
        legal = choices(view)
        if len(legal) == 1:
            return legal[0]
        if self._process is None:
            self._start()
            if self._deal is None:
                self.new_deal(seat=view.viewer, players=view.players, seed=0, rules=view.rules)
        if self._deal is not None:
            self._send_line(self._deal)
            self._deal, self._in_deal = None, True
        legal_docs = ",".join(a.to_json() for a in legal)
        self._send_line(
            b'{"type":"decide","observation":'
            + view.to_json().encode()
            + b',"legal":['
            + legal_docs.encode()
            + b"]}\n"
        )
        answer = self._receive(self.move_seconds, Message("external_bot.decision", "a decision"))
        if answer.get("type") != "action":
            self._fail(
                "nonsense",
                Message(
                    "external_bot.answered_not",
                    'answered {short}, not {{"type": "action", ...}}',
                    short=str(_short(answer)),
                ),
            )
        if "index" in answer:
            index = answer["index"]
            if type(index) is not int or not 0 <= index < len(legal):
                self._fail(
                    "nonsense",
                    Message(
                        "external_bot.answered_index_there_are",
                        "answered index {short}; there are {count} legal actions",
                        short=str(_short(index)),
                        count=len(legal),
                    ),
                )
            return legal[int(index)]
        game = game_of(view)
        try:
            text = json.dumps(answer.get("action"))
            action: Action = (
                action_from_json(text)
                if game == CARD_GAME  # another game registers its reader as GAME_action_from_json
                else _hooks.call(f"{game}_action_from_json", text)
            )
        except SevenBridgeError as error:
            self._fail(
                "nonsense",
                Message(
                    "external_bot.answered_action_that_does",
                    "answered an action that does not read: {error}",
                    error=error,
                ),
            )
        if action not in legal:
            self._fail(
                "nonsense",
                Message(
                    "external_bot.answered_which_not_legal",
                    "answered {action}, which is not legal here",
                    action=str(action),
                ),
            )
        return action


def _seconds(value: Any, name: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"{name} must be a number, not {_checks.type_name(value)}")
    if not 0 < value <= 86400:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.must_above_and_at",
                "{name} must be above 0 and at most 86400, not {value}",
                name=name,
                value=str(value),
            )
        )
    return float(value)


def _short(value: object) -> str:
    text = value.decode(errors="replace") if isinstance(value, bytes) else repr(value)
    text = text.strip()
    return text if len(text) <= 80 else text[:77] + "..."

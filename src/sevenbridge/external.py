"""Bots in any language: a JSON-lines protocol over a subprocess's stdin and stdout.

Like UCI for chess engines, the protocol lets a program written in any language
play: the host (this library) starts the bot as a subprocess, writes one JSON
document per line to its standard input, and reads one JSON document per line
from its standard output. What the bot writes to its standard error is passed
on to the host's standard error, a line at a time, its control characters
escaped.

Protocol ``sevenbridge-bot``, version 1:

1. Handshake. The host sends ``{"type": "hello", "protocol": "sevenbridge-bot",
   "version": 1}``; the bot answers ``{"type": "ready", "name": "...",
   "protocol": "sevenbridge-bot", "version": 1}`` within the handshake time.
2. A new deal. The host sends ``{"type": "deal", "game": "seven_bridge",
   "seat": 0, "players": 3, "seed": 123, "rules": {...}}``: the game (a name of
   :data:`sevenbridge.GAMES`, ``"seven_bridge"`` or ``"mahjong"``; a mahjong
   "deal" is a round) and the rules document of that game's ``Rules.to_json``
   (:meth:`sevenbridge.Rules.to_json`); the seed is for the bot's own choices,
   so that tournaments replay exactly (it tells nothing of the cards:
   :func:`sevenbridge.arena.bot_seed`). No answer. A ``deal`` message may come
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

Limits. Every exchange has a deadline, writing included: the handshake
(``handshake_seconds``, 30 s by default) and each decision (``move_seconds``,
10 s by default; the time counts from the host's first byte of the request to
the bot's newline). A bot that does not read its input is as late as one that
does not answer. A line the bot writes may be at most :data:`MAX_LINE_BYTES`
bytes (1 MiB) long; the host reads it piece by piece and stops at the limit.
Its arrays and objects may nest at most ``MAX_JSON_DEPTH`` (64) deep, far
more than any message needs; the host measures the depth before it parses
the line.

A bot loses the deal when it

- exits or closes its output (*crashed*; the message gives its exit status
  and the last line it wrote to standard error);
- writes anything but the answer asked for: a line that is not JSON, a line
  longer than :data:`MAX_LINE_BYTES`, JSON nested deeper than
  ``MAX_JSON_DEPTH``, an answer of another type, an unknown
  index, an action that is not legal, or anything at all when no answer was
  asked for, such as a second answer to one decision (*nonsense*);
- does not answer, or does not read its input, in time (*timeout*).

:class:`ExternalBotError` says which of these happened. The bot's words in
its messages (its name, a quoted answer, its standard error) have their
control characters escaped (``\\x1b``), so that they cannot drive a
terminal or hide in a results file.

Processes. On POSIX systems each bot runs in a session and process group of
its own, so that whatever it starts can be ended with it. When the bot is
closed (:meth:`ExternalPlayer.close`: at the end of a tournament's deal, or
deck when it is not ``fair``; after a failure; at the end of the program) it is sent ``quit`` and has
:data:`QUIT_SECONDS` to exit; then its whole process group is killed
(``SIGKILL``), children and grandchildren included. A process that leaves the
group on purpose (``setsid``, a daemon) is beyond reach. :func:`close_all`
ends every bot at once, for a signal handler.

``examples/external_bot.py`` is a complete bot in 60 lines of standard-library
Python. In a tournament, name it as ``cmd:`` followed by its command line::

    sevenbridge tournament --bots "cmd:python examples/external_bot.py,greedy" --deals 100

The kit for bots in other languages: the JSON Schemas of every message and
document (:func:`message_schema`, :func:`schema_files`; the files are in
:data:`SCHEMA_FOLDER`, and ``sevenbridge schema --out DIR`` writes them), and
``sevenbridge bot-check "cmd:COMMAND"``, which runs a bot through the
protocol's cases with this host and reports each.

>>> PROTOCOL, PROTOCOL_VERSION, MAX_LINE_BYTES, MAX_JSON_DEPTH
('sevenbridge-bot', 1, 1048576, 64)
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import os
import queue
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from itertools import accumulate
from pathlib import Path
from typing import Any, NoReturn, TextIO

from ._kit import checks as _checks
from ._kit.events import EVENT_SCHEMA
from .actions import Action
from .errors import ExternalBotError, InvalidArgumentError, Message, SevenBridgeError, quote
from .games import CARD_GAME, GAMES, game_module, game_of, game_part, outcome
from .rules import Rules
from .state import GameState
from .views import Observation

__all__ = [
    "MAX_LINE_BYTES",
    "MESSAGES",
    "PROTOCOL",
    "PROTOCOL_VERSION",
    "QUIT_SECONDS",
    "SCHEMA_FOLDER",
    "ExternalBotError",
    "ExternalPlayer",
    "close_all",
    "exit_closing_all",
    "message_schema",
    "schema_files",
    "serve",
]

#: The protocol's name, sent in the handshake.
PROTOCOL = "sevenbridge-bot"
#: The protocol's version; a bot that answers another version is refused.
PROTOCOL_VERSION = 1
#: The longest line a bot may write, in bytes, its newline not counted; a longer
#: line is a protocol error (the host never holds more of it than this).
MAX_LINE_BYTES = 1 << 20
#: The deepest the arrays and objects of a line the bot writes may nest (the
#: line itself, an object, is one level; the protocol's answers need a few). A
#: deeper line is a protocol error, found by a scan of its brackets before it
#: is parsed, so that neither the JSON reader nor the code that reads the
#: answer recurses deeply.
MAX_JSON_DEPTH = 64
#: How long a bot that is closed has to exit after ``quit`` before its process
#: group is killed (a bot that failed is killed at once).
QUIT_SECONDS = 1.0

_POSIX = os.name == "posix"
#: How much is read from a pipe at a time.
_CHUNK = 1 << 16
#: The longest wait without a look at whether the bot still runs: a bot that
#: exits while a process it started holds its output open is noticed this soon.
_SLICE = 0.1
#: A line of the bot's standard error longer than this is passed on in pieces.
_ERR_LINE = 4096
#: How much of the bot's standard error is read after it exits (a child that
#: floods it must not keep the host reading).
_ERR_TAIL = 16 * _CHUNK

#: Every bot process started and not yet closed, by process id (for close_all).
_RUNNING: dict[int, subprocess.Popen[bytes]] = {}


def close_all() -> None:
    """End every external bot this process has started and not closed, at once.

    Each bot's process group is killed (``SIGKILL``), without ``quit`` or grace:
    this is for the end of the program (it runs at exit) and for signal
    handlers. A player whose bot was ended this way reports it crashed if it
    is used again.
    """
    for process in list(_RUNNING.values()):
        _kill(process)


atexit.register(close_all)

if hasattr(os, "register_at_fork"):
    # A forked process (a worker) does not own the bots of the process it came from.
    os.register_at_fork(after_in_child=_RUNNING.clear)

#: How many bots this process is starting now: their processes may exist
#: before they are in ``_RUNNING``, where :func:`close_all` finds them.
_starting = 0
#: The exit code of an :func:`exit_closing_all` that waits for those starts.
_exit_code: int | None = None


def exit_closing_all(code: int) -> None:
    """End every external bot this process has started (:func:`close_all`)
    and exit the process at once with ``code`` (``os._exit``, for a signal
    handler). A bot being started at that moment (its process may exist
    before it is recorded) is waited for: the exit comes as soon as that bot
    is recorded, so that it is ended too.

    The stop of a worker process that plays external bots (the tournament's
    local workers use it so)::

        import signal
        from sevenbridge.external import exit_closing_all

        signal.signal(signal.SIGTERM, lambda signum, frame: exit_closing_all(128 + signum))
    """
    global _exit_code
    if _starting:
        _exit_code = code
        return
    close_all()
    os._exit(code)


def _status(process: subprocess.Popen[bytes], seconds: float = 0.0) -> int | None:
    """The bot's exit status (``-N`` for signal N) once it has exited, waiting up
    to ``seconds``; None while it runs.

    Where the system allows (``waitid``), the bot is not reaped: until
    :func:`_kill` has killed its group, its process id, which is also its
    group's id, stays its own and cannot name another process's group.
    """
    deadline = time.monotonic() + seconds
    while process.returncode is None:
        info = None
        if hasattr(os, "waitid"):
            try:
                info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:  # reaped by someone else: Popen knows
                process.poll()
                continue
            if info is not None:
                killed = info.si_code in (os.CLD_KILLED, os.CLD_DUMPED)
                return -info.si_status if killed else info.si_status
        elif process.poll() is not None:
            break
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)
    return process.returncode


def _exited(process: subprocess.Popen[bytes]) -> bool:
    """Whether the bot has exited (it is not reaped: see :func:`_status`)."""
    return _status(process) is not None


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the bot and, on POSIX systems, everything in its process group
    (started in a session of its own, the bot leads a group whose id is its
    process id); then reap it. Once only: after that the id may be another
    process's."""
    if _RUNNING.get(process.pid) is not process:
        return
    if _POSIX:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()
    _RUNNING.pop(process.pid, None)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


class _Broken(Exception):
    """The bot broke the protocol or stopped: ``kind`` as in ExternalBotError, ``what`` it did."""

    def __init__(self, kind: str, what: str) -> None:
        super().__init__(kind, what)
        self.kind, self.what = kind, what


def _too_long() -> _Broken:
    return _Broken(
        "nonsense",
        Message(
            "external_bot.line_too_long",
            "wrote a line longer than {limit} bytes",
            limit=MAX_LINE_BYTES,
        ),
    )


#: A JSON string, its closing quote optional (a string left open runs to the
#: end of the line); each character can be matched one way only, so the scan
#: never backtracks and takes time linear in the line's length.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
#: Everything but brackets.
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
#: How a bracket changes the depth.
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _too_deep(text: str) -> bool:
    """Whether the arrays and objects of JSON ``text`` nest deeper than
    :data:`MAX_JSON_DEPTH` (brackets inside strings do not count).

    No recursion, and time linear in the text's length: a text with few
    brackets is let through at once; otherwise its strings and then all but
    its brackets are cut out (regular expressions), and the depth is the
    largest running sum of the brackets. A text that is not JSON is measured
    all the same, as far as the JSON reader would read it: it stops at the
    first character out of place, before which the strings are those it sees.

    >>> _too_deep("[" * 64 + "]" * 64), _too_deep("[" * 65 + "]" * 65)
    (False, True)
    >>> _too_deep('{"name": "' + "[" * 100 + '"}')  # in a string
    False
    >>> _too_deep('{"a": [' + '{"b": [' * 40 + "]}" * 40 + "]}")
    True
    """
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > MAX_JSON_DEPTH


class _Pipes:
    """The bot's standard input, output and error, with a deadline on every wait.

    On POSIX systems the three pipes are non-blocking and one ``poll`` loop
    serves them (no thread: the cheapest path, which keeps the protocol's cost
    per decision low). Whenever the host waits, for an answer or for room in
    the bot's input, it also reads the bot's output, so that neither side can
    block the other for longer than the deadline. The output is held up to
    :data:`MAX_LINE_BYTES`; a timeout raises :class:`TimeoutError`, anything
    else the bot does wrong :class:`_Broken`.
    """

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin and process.stdout and process.stderr
        self.process = process
        self.fd_in = process.stdin.fileno()
        self.fd_out = process.stdout.fileno()
        self.fd_err = process.stderr.fileno()
        self.out = bytearray()  # what the bot wrote and the host has not taken yet
        self.out_open = True
        self.err = bytearray()  # the start of a line of the bot's standard error
        self.err_open = True
        self.last_words = ""  # the bot's last line on standard error, made safe
        self.lock = threading.Lock()  # for the standard error (a thread's, in _ThreadedPipes)
        self._start()

    # -- what every platform shares --------------------------------------------

    def take_line(self) -> bytes | None:
        """The next complete line the bot wrote, if there is one."""
        end = self.out.find(b"\n", 0, MAX_LINE_BYTES + 1)
        if end < 0:
            if len(self.out) > MAX_LINE_BYTES:
                raise _too_long()
            return None
        line = bytes(self.out[:end])
        del self.out[: end + 1]
        return line

    def stderr(self, chunk: bytes) -> None:
        """Pass on the complete lines of the bot's standard error (``b""``: all of it)."""
        with self.lock:
            self.err += chunk
            while self.err:
                end = self.err.find(b"\n", 0, _ERR_LINE)
                if end < 0 and chunk and len(self.err) < _ERR_LINE:
                    return
                cut = end if end >= 0 else min(len(self.err), _ERR_LINE)
                line = bytes(self.err[:cut])
                del self.err[: cut + (end >= 0)]
                text = _printable(line.decode(errors="replace").rstrip("\r"))
                if text.strip():
                    self.last_words = text if len(text) <= 200 else text[:197] + "..."
                if sys.stderr is not None:
                    with contextlib.suppress(OSError, ValueError):
                        print(text, file=sys.stderr, flush=True)

    def exit_text(self) -> str:
        """How the bot stopped: its exit status (waited for a second at most) and
        the last line it wrote to standard error."""
        code = _status(self.process, 1.0)
        if code is None:
            what = Message("external_bot.closed", "closed its output")
        else:
            what = Message("external_bot.exited", "exited with status {code}", code=code)
        self._read_err_tail()
        if not self.last_words:
            return what
        return Message(
            "external_bot.last_words",
            "{what}; its standard error ended: {words}",
            what=what,
            words=self.last_words,
        )

    # -- POSIX: non-blocking pipes and poll -------------------------------------

    def _start(self) -> None:
        for fd in (self.fd_in, self.fd_out, self.fd_err):
            os.set_blocking(fd, False)

    def _read(self, fd: int) -> None:
        """Take what the bot wrote on ``fd`` (its output or its error), without waiting."""
        try:
            chunk = os.read(fd, _CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if fd == self.fd_out:
            self.out += chunk
            self.out_open = bool(chunk)
        else:
            self.stderr(chunk)
            self.err_open = bool(chunk)

    def _wait(self, deadline: float, writing: bool = False) -> bool:
        """Wait until the bot wrote something, or its input has room (``writing``),
        reading what it wrote; False after a slice of time in which nothing came.

        Raises:
            TimeoutError: when the deadline has passed.
        """
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("write" if writing else "read")
        poller = select.poll()
        if self.out_open and len(self.out) <= MAX_LINE_BYTES:
            poller.register(self.fd_out, select.POLLIN)
        if self.err_open:
            poller.register(self.fd_err, select.POLLIN)
        if writing:
            poller.register(self.fd_in, select.POLLOUT)
        ready = poller.poll(math.ceil(min(left, _SLICE) * 1000))
        for fd, _ in ready:
            if fd != self.fd_in:
                self._read(fd)
        return bool(ready)

    def write(self, data: bytes, deadline: float) -> None:
        """Write ``data`` to the bot by the deadline."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd_in, view) :]
                continue
            except BlockingIOError:
                pass
            except OSError:  # a broken pipe: the bot closed its input
                raise _Broken("crashed", self.exit_text()) from None
            if not self._wait(deadline, writing=True) and _exited(self.process):
                raise _Broken("crashed", self.exit_text())

    def read_line(self, deadline: float) -> bytes:
        """The bot's next line, by the deadline."""
        exited = False
        while (line := self.take_line()) is None:
            if not self.out_open or exited:
                raise _Broken("crashed", self.exit_text())
            # A bot that exited while a process it started holds its output
            # open sends no end of file: its exit is looked for between slices.
            if not self._wait(deadline) and _exited(self.process):
                exited = True
                self._read(self.fd_out)  # what it wrote just before it exited
        return line

    def unasked(self) -> bytes | None:
        """What the bot wrote since its last answer was taken (nothing, if it keeps
        to the protocol)."""
        if self.out_open and len(self.out) <= MAX_LINE_BYTES:
            self._read(self.fd_out)
        return bytes(self.out[:200]) if self.out else None

    def _read_err_tail(self) -> None:
        for _ in range(_ERR_TAIL // _CHUNK):
            if not self.err_open:
                break
            self._read(self.fd_err)

    def close(self, grace: float) -> int | None:
        """Give the bot ``grace`` seconds to quit (none: end it at once), then kill
        its process group; never waits longer for anything. Returns the bot's
        exit status if it exited by itself."""
        process = self.process
        if grace > 0:
            with contextlib.suppress(OSError):
                os.write(self.fd_in, b'{"type":"quit"}\n')
        with contextlib.suppress(OSError):
            self._close_input()
        deadline = time.monotonic() + grace
        with contextlib.suppress(TimeoutError):
            while not _exited(process):
                self.out.clear()  # what it writes now goes nowhere
                self._wait(deadline)
        status = _status(process)
        _kill(process)
        self._read_err_tail()
        self.stderr(b"")
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        return status

    def _close_input(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()


class _ThreadedPipes(_Pipes):
    """The same where ``poll`` cannot wait on pipes (Windows): a thread reads
    each of the bot's outputs, another writes its input, and the host waits on
    queues with the same deadlines. (No process groups there: the bot alone is
    killed.)"""

    def _start(self) -> None:
        # Bounded: a bot that floods its output waits in the pipe, not in memory.
        self.chunks: queue.Queue[bytes] = queue.Queue(maxsize=16)
        self.requests: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.written: queue.SimpleQueue[bool] = queue.SimpleQueue()
        for fd, take in ((self.fd_out, self.chunks.put), (self.fd_err, self.stderr)):
            threading.Thread(target=self._pump, args=(fd, take), daemon=True).start()
        threading.Thread(target=self._pump_in, daemon=True).start()

    def _pump(self, fd: int, take: Callable[[bytes], object]) -> None:
        """Read ``fd`` to its end, handing on each chunk (and ``b""`` at the end)."""
        chunk = b"-"
        while chunk:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            take(chunk)

    def _pump_in(self) -> None:
        while (data := self.requests.get()) is not None:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.fd_in, view) :]
            except OSError:
                self.written.put(False)
                return
            self.written.put(True)
        with contextlib.suppress(OSError):
            super()._close_input()

    def _take(self, timeout: float | None) -> bool:
        """Move one chunk of the bot's output to ``out``; False if none came in time."""
        try:
            chunk = self.chunks.get(timeout=timeout) if timeout else self.chunks.get_nowait()
        except queue.Empty:
            return False
        self.out += chunk
        self.out_open = bool(chunk)
        return True

    def write(self, data: bytes, deadline: float) -> None:
        self.requests.put(data)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("write")
            try:
                if self.written.get(timeout=min(left, _SLICE)):
                    return
                raise _Broken("crashed", self.exit_text())
            except queue.Empty:
                if _exited(self.process):
                    raise _Broken("crashed", self.exit_text()) from None

    def read_line(self, deadline: float) -> bytes:
        exited = False
        while (line := self.take_line()) is None:
            if not self.out_open or exited:
                raise _Broken("crashed", self.exit_text())
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("read")
            if not self._take(min(left, _SLICE)) and _exited(self.process):
                exited = True
                self._take(None)
        return line

    def unasked(self) -> bytes | None:
        while self.out_open and len(self.out) <= MAX_LINE_BYTES and self._take(None):
            pass
        return bytes(self.out[:200]) if self.out else None

    def _read_err_tail(self) -> None:
        time.sleep(0.05)  # the reader thread's last lines

    def close(self, grace: float) -> int | None:
        process = self.process
        if grace > 0:
            self.requests.put(b'{"type":"quit"}\n')
        self.requests.put(None)
        if grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=grace)
        status = process.poll()
        _kill(process)
        return status

    def _close_input(self) -> None:  # the writer thread closes it
        pass


#: The pipes of a bot on this platform.
_PIPES: type[_Pipes] = _Pipes if _POSIX else _ThreadedPipes


class ExternalPlayer:
    """A bot that runs as a subprocess and speaks the ``sevenbridge-bot`` protocol.

    It is a :class:`~sevenbridge.bots.Player`: call it with an observation and
    it returns the action the program chose. The subprocess starts on the first
    use and lives until :meth:`close` (or the end of the program), so one
    process plays many deals.

    Args:
        command: The program and its arguments, as a list or a shell-like
            string (``"python examples/external_bot.py"``).
        move_seconds: How long the bot may take over one decision, from the
            request's first byte to its answer's last.
        handshake_seconds: How long the bot may take to start and answer the
            handshake.

    Raises:
        InvalidArgumentError: for a command string that does not split into
            words (an unclosed quote), or a time limit out of range.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        move_seconds: float = 10.0,
        handshake_seconds: float = 30.0,
    ) -> None:
        if isinstance(command, str):
            try:
                args = shlex.split(command, posix=_POSIX)
            except ValueError as error:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.bot_command_does_not_split",
                        "the external bot's command {command} does not read: {error}",
                        command=quote(command),
                        error=str(error),
                    )
                ) from None
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
        self.move_seconds = _checks.seconds(move_seconds, "move_seconds")
        self.handshake_seconds = _checks.seconds(handshake_seconds, "handshake_seconds")
        self.name = _printable(args[-1])
        """The name the bot gave in its handshake (until then, its command), its
        control characters escaped."""
        self.ready: dict[str, Any] | None = None
        """The bot's answer to its last handshake, as it wrote it (``None``
        until then): the ``ready`` message, with whatever else it holds."""
        self._pipes: _Pipes | None = None
        self._seat = 0
        self._deal: bytes | None = None
        self._in_deal = False

    # -- the process -------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the bot's process is running (it starts on first use)."""
        return self._pipes is not None

    def cpu_seconds(self) -> float | None:
        """The processor time the bot's process has used so far, in seconds
        (what it started and has not waited for not counted); ``None`` when
        it is not running, or off Linux, where the system does not tell."""
        if self._pipes is None:
            return None
        return _cpu_seconds(self._pipes.process.pid)

    def start(self) -> None:
        """Start the bot and shake hands now, rather than at its first decision.

        Raises:
            ExternalBotError: if the bot cannot start or fails the handshake.
        """
        if self._pipes is None:
            self._start()

    def _start(self) -> None:
        global _starting
        _starting += 1
        try:
            process = self._spawn()
            _RUNNING[process.pid] = process
        finally:
            _starting -= 1
            if _exit_code is not None and not _starting:
                exit_closing_all(_exit_code)
        self._pipes = _PIPES(process)
        answer = self._exchange(
            _line({"type": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION}),
            self.handshake_seconds,
            Message("external_bot.handshake", "the handshake"),
            first=True,
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
        self.ready = answer
        if isinstance(answer.get("name"), str) and answer["name"]:
            self.name = _printable(answer["name"])[:80]

    def _spawn(self) -> subprocess.Popen[bytes]:
        """The bot's process, started."""
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own process group, killed with it (POSIX)
            )
        except OSError as error:
            raise ExternalBotError(
                "crashed",
                Message(
                    "external_bot.external_bot_could_not",
                    "external bot {name} could not start: {error}",
                    name=quote(self.name),
                    error=error,
                ),
            ) from None
        return process

    def _send(self, data: bytes, seconds: float, what: str) -> None:
        self._exchange(data, seconds, what, answer=False)

    def _exchange(
        self, data: bytes, seconds: float, what: str, *, answer: bool = True, first: bool = False
    ) -> dict[str, Any]:
        """Write ``data`` and (with ``answer``) read the answer, all within ``seconds``.

        Anything the bot wrote since its last answer is a protocol error, unless
        this is the ``first`` message (a bot may say it is ready before it is
        asked).
        """
        pipes = self._pipes
        assert pipes is not None
        deadline = time.monotonic() + seconds
        try:
            early = None if first else pipes.unasked()
            if early is not None:
                self._fail(
                    "nonsense",
                    Message(
                        "external_bot.wrote_unasked",
                        "wrote {short} when no answer was asked for",
                        short=_short(early),
                    ),
                )
            pipes.write(data, deadline)
            if not answer:
                return {}
            line = pipes.read_line(deadline)
        except _Broken as broken:
            self._fail(broken.kind, broken.what)
        except TimeoutError as late:
            self._fail(
                "timeout",
                Message(
                    "external_bot.did_not_read_within",
                    "did not read {what} within {seconds} s",
                    what=what,
                    seconds=format(seconds, "g"),
                )
                if late.args == ("write",)
                else Message(
                    "external_bot.did_not_answer_within",
                    "did not answer {what} within {seconds} s",
                    what=what,
                    seconds=format(seconds, "g"),
                ),
            )
        try:
            # Decoded as json.loads decodes bytes, so that the depth is measured
            # on the text it would read.
            text = line.decode(json.detect_encoding(line), "surrogatepass")
            deep = _too_deep(text)
            document = None if deep else json.loads(text)
        except ValueError:  # UnicodeDecodeError included
            self._fail(
                "nonsense",
                Message(
                    "external_bot.wrote_line_that_not",
                    "wrote a line that is not JSON: {short}",
                    short=str(_short(line)),
                ),
            )
        if deep:
            self._fail(
                "nonsense",
                Message(
                    "external_bot.nested_too_deep",
                    "wrote JSON nested deeper than {limit} levels: {short}",
                    limit=MAX_JSON_DEPTH,
                    short=str(_short(line)),
                ),
            )
        if not isinstance(document, dict):
            self._fail(
                "nonsense",
                Message(
                    "external_bot.wrote_not_json_object",
                    "wrote {short}, not a JSON object",
                    short=str(_short(document)),
                ),
            )
        return dict(document)

    def _fail(self, kind: str, what: str) -> NoReturn:
        name = self.name
        self._close(0.0)  # no grace for a bot that failed
        raise ExternalBotError(
            kind,
            Message(
                "external_bot.external_bot",
                "external bot {name} {what}",
                name=quote(name),
                what=what,
            ),
        )

    def close(self) -> int | None:
        """Tell the bot to quit and end its process group (it starts again if used).

        The bot has :data:`QUIT_SECONDS` to exit; then its process group is
        killed, with whatever the bot started.

        Returns:
            The bot's exit status when it exited within that time (``-N``: it
            was ended by signal N), ``None`` when it had to be killed or was
            not running.
        """
        return self._close(QUIT_SECONDS)

    def _close(self, grace: float) -> int | None:
        pipes, self._pipes, self._deal = self._pipes, None, None
        self._in_deal = False
        return None if pipes is None else pipes.close(grace)

    def __del__(self) -> None:
        if getattr(self, "_pipes", None) is not None:
            with contextlib.suppress(Exception):
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
        self._deal = _line(message)

    def end_deal(self, state: GameState) -> None:
        """Tell the bot how the deal ended (no answer is expected)."""
        if self._pipes is None or not self._in_deal:
            return  # the bot was never asked anything in this deal
        self._in_deal = False
        scores, reason = outcome(state)
        self._send(
            _line(
                {
                    "type": "end",
                    "scores": list(scores),
                    "returns": list(game_module(game_of(state)).returns(state)),
                    "winner": state.winner,
                    "reason": reason,
                }
            ),
            self.move_seconds,
            Message("external_bot.deal_end", "the end of the deal"),
        )

    def __call__(self, view: Observation | GameState, /) -> Action:
        from .bots import choices, view_of

        view = view_of(view)
        legal = choices(view)
        if len(legal) == 1:
            return legal[0]
        if self._pipes is None:
            self._start()
            if self._deal is None:
                self.new_deal(seat=view.viewer, players=view.players, seed=0, rules=view.rules)
        request = b""
        if self._deal is not None:
            request, self._deal, self._in_deal = self._deal, None, True
        request += _decide_line(view, legal)
        answer = self._exchange(
            request, self.move_seconds, Message("external_bot.decision", "a decision")
        )
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
            action: Action = game_part(game, "serialize").action_from_json(text)
        except SevenBridgeError as error:
            self._fail(
                "nonsense",
                Message(
                    "external_bot.answered_action_that_does",
                    "answered an action that does not read: {error}",
                    error=error if str(error).isprintable() else _printable(str(error)),
                ),
            )
        if action not in legal:
            self._fail(
                "nonsense",
                Message(
                    "external_bot.answered_which_not_legal",
                    "answered {action}, which is not legal here",
                    action=_printable(str(action)),
                ),
            )
        return action


def serve(
    player: Callable[[int], Callable[[Any], Any]],
    *,
    name: str,
    input: TextIO | None = None,
    output: TextIO | None = None,
) -> int:
    """Play a Python bot over the protocol, as an external bot: the other end
    of :class:`ExternalPlayer`.

    A bot run this way, in a process of its own, sees only what the protocol
    sends it: its seat's view, the legal moves, the rules, its seed. Run in
    the tournament's own process, Python code can reach anything there,
    every hand included. A script of three lines makes any
    :class:`~sevenbridge.bots.Player` an external bot::

        from sevenbridge.external import serve
        from their_bot import TheirPlayer
        serve(TheirPlayer, name="their bot")

    and ``cmd:python that_script.py`` names it in a tournament.

    Args:
        player: Makes the bot of a deal from the deal's seed (a ``Player``
            class taking the seed, such as
            :class:`~sevenbridge.bots.GreedyPlayer`, will do); called at
            each ``deal`` message, for either game.
        name: The name the bot gives in the handshake.
        input: Where the host's messages are read (standard input by default).
        output: Where the answers go (standard output by default).

    Returns:
        0, once the host says ``quit`` or closes the input (an exit status).
    """
    source = sys.stdin if input is None else input
    sink = sys.stdout if output is None else output
    bot: Callable[[Any], Any] | None = None
    game = CARD_GAME

    def send(message: dict[str, Any]) -> None:
        sink.write(_line(message).decode())
        sink.flush()

    for text in source:
        message = json.loads(text)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "ready", "name": name, "protocol": PROTOCOL,
                  "version": PROTOCOL_VERSION})  # fmt: skip
        elif kind == "deal":
            game = message.get("game", CARD_GAME)
            bot = player(int(message["seed"]))
        elif kind == "decide":
            module = game_module(game)
            view = module.Observation.from_json(json.dumps(message["observation"]))
            if bot is None:  # a host that sent no deal: seed 0, as ExternalPlayer does
                bot = player(0)
            legal = module.legal_actions(view)
            action = bot(view)
            if action in legal:
                send({"type": "action", "index": legal.index(action)})
            else:  # the host says what is wrong with it
                send({"type": "action", "action": json.loads(action.to_json())})
        elif kind == "quit":
            break
    return 0


def _cpu_seconds(pid: int) -> float | None:
    """A process's user and system time from Linux's ``/proc`` (``None``
    elsewhere, or once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return None


#: Clock ticks a second, the unit of /proc's times.
_TICKS = float(os.sysconf("SC_CLK_TCK")) if hasattr(os, "sysconf") else 100.0


def _decide_line(view: Any, legal: Sequence[Any]) -> bytes:
    """The ``decide`` message for a view (of any game) and its legal actions."""
    observation: str = view.to_json()
    return (
        b'{"type":"decide","observation":'
        + observation.encode()
        + b',"legal":['
        + ",".join(a.to_json() for a in legal).encode()
        + b"]}\n"
    )


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def _printable(text: str) -> str:
    """``text`` with every character that is not printable (escape codes and
    other control characters, bidirectional overrides) written as its Python
    escape (``\\x1b``), so that a bot's words cannot drive a terminal or hide
    in a file.

    >>> print(_printable("\\x1b[31mred\\x1b[0m\\u202e"))
    \\x1b[31mred\\x1b[0m\\u202e
    """
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def _short(value: object) -> str:
    text = value.decode(errors="replace") if isinstance(value, bytes) else repr(value)
    text = _printable(text.strip())
    return text if len(text) <= 80 else text[:77] + "..."


# -- the JSON Schemas of the protocol's messages --------------------------------------

#: The ``type`` of each of the protocol's messages, those the host sends
#: (``hello``, ``deal``, ``decide``, ``end``, ``quit``) and then the bot's
#: answers (``ready``, ``action``).
MESSAGES = ("hello", "deal", "decide", "end", "quit", "ready", "action")
#: The folder of the installed package that holds every file of
#: :func:`schema_files` (``sevenbridge/schemas``).
SCHEMA_FOLDER = Path(__file__).resolve().parent / "schemas"
_SCHEMA_URL = "https://sevenbridge.readthedocs.io/schema/v1/"
_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _document_schemas(documents: Sequence[str]) -> dict[str, Any]:
    """The ``$defs`` of a message: each game's schema of each document, by
    ``GAME.DOCUMENT`` (without ``$schema`` and ``$id``, as they are embedded)."""
    out = {}
    for game in GAMES:
        for document in documents:
            schema = dict(game_part(game, "serialize").json_schema(document))
            for key in ("$schema", "$id"):
                schema.pop(key, None)
            out[f"{game}.{document}"] = schema
    return out


def _message(kind: str, fields: dict[str, Any], *, strict: bool = True) -> dict[str, Any]:
    """An object schema of a message of ``kind`` with ``fields``, all required;
    ``strict``: no other field (the host's messages; the host ignores what
    else a bot's answer holds)."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"type": {"const": kind}, **fields},
        "required": ["type", *fields],
    }
    if strict:
        schema["additionalProperties"] = False
    return schema


def message_schema(message: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one of the protocol's messages
    (:data:`MESSAGES`), for either game.

    The observations, rules and actions in a message have the schemas of
    :func:`sevenbridge.json_schema` (the card game) and
    :func:`sevenbridge.mahjong.serialize.json_schema`, embedded under
    ``$defs``, so that each file stands alone.

    Raises:
        InvalidArgumentError: for a name that is not one of :data:`MESSAGES`.

    >>> message_schema("hello")["properties"]["protocol"]
    {'const': 'sevenbridge-bot'}
    >>> sorted(message_schema("decide")["$defs"])
    ['mahjong.action', 'mahjong.observation', 'seven_bridge.action', 'seven_bridge.observation']
    """
    if message not in MESSAGES:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.no_such_message",
                "no protocol message {message}; the messages are {messages}",
                message=format(repr(message), ".40"),
                messages=", ".join(MESSAGES),
            )
        )
    seat = {"type": "integer", "minimum": 0, "maximum": _checks.MAX_PLAYERS - 1}
    handshake = {"protocol": {"const": PROTOCOL}, "version": {"const": PROTOCOL_VERSION}}
    defs: dict[str, Any] = {}
    if message == "hello":
        title, schema = "the handshake (host to bot)", _message("hello", handshake)
    elif message == "ready":
        name = {"type": "string", "minLength": 1}
        title = "the answer to the handshake (bot to host)"
        schema = _message("ready", {"name": name, **handshake}, strict=False)
    elif message == "deal":
        defs = _document_schemas(["rules"])
        title = "a new deal, or round (host to bot)"
        schema = {"oneOf": [_message("deal", {
            "game": {"const": game},
            "seat": seat,
            "players": {"type": "integer", "minimum": _checks.MIN_PLAYERS,
                        "maximum": _checks.MAX_PLAYERS},
            "seed": {"type": "integer", "minimum": 0, "maximum": _checks.MAX_SEED},
            "rules": {"$ref": f"#/$defs/{game}.rules"},
        }) for game in GAMES]}  # fmt: skip
    elif message == "decide":
        defs = _document_schemas(["observation", "action"])
        title = "a decision: the seat's view and its legal actions (host to bot)"
        schema = {"oneOf": [_message("decide", {
            "observation": {"$ref": f"#/$defs/{game}.observation"},
            "legal": {"type": "array", "minItems": 2,
                      "items": {"$ref": f"#/$defs/{game}.action"}},
        }) for game in GAMES]}  # fmt: skip
    elif message == "end":
        title = "the end of a deal, or round (host to bot)"
        schema = _message("end", {
            "scores": {"type": "array", "items": {"type": "integer"}},
            "returns": {"type": "array", "items": {"type": "number"}},
            "winner": {"oneOf": [seat, {"type": "null"}]},
            "reason": {"type": "string"},
        })  # fmt: skip
    elif message == "quit":
        title, schema = "the end of the session: the bot exits (host to bot)", _message("quit", {})
    else:  # action
        defs = _document_schemas(["action"])
        title = "the answer to a decision: an index into legal, or an action (bot to host)"
        schema = {"anyOf": [
            _message("action", {"index": {"type": "integer", "minimum": 0}}, strict=False),
            _message("action", {"action": {"oneOf": [
                {"$ref": f"#/$defs/{game}.action"} for game in GAMES]}}, strict=False),
        ]}  # fmt: skip
    out = {
        "$schema": _DRAFT,
        "$id": f"{_SCHEMA_URL}protocol/{message}.json",
        "title": f"{PROTOCOL} version {PROTOCOL_VERSION}: {title}",
        **schema,
    }
    if defs:
        out["$defs"] = defs
    return out


def schema_files() -> dict[str, str]:
    """Every JSON Schema a program in another language may want, as the text
    of its file, by the file's path: each game's documents (``state.json``,
    ``observation.json``, ``rules.json``, ``action.json`` of the card game;
    the same under ``mahjong/``), the facts of a move (``event.json``, both
    games: :func:`sevenbridge.events`) and the protocol's messages
    (``protocol/decide.json`` ...: :func:`message_schema`).

    The installed package holds these files in :data:`SCHEMA_FOLDER`
    (a test checks that they are these texts), ``sevenbridge schema --out
    DIR`` writes them, and the documentation publishes them under
    ``schema/v1/``.

    >>> files = schema_files()
    >>> "observation.json" in files, "mahjong/observation.json" in files
    (True, True)
    >>> (SCHEMA_FOLDER / "protocol" / "decide.json").read_text("utf-8") == files["protocol/decide.json"]
    True
    """
    schemas: dict[str, dict[str, Any]] = {}
    for game in GAMES:
        # A game's schemas lie where its package lies under sevenbridge's ("mahjong/").
        package = game_module(game).__name__.partition(".")[2]
        folder = f"{package.replace('.', '/')}/" if package else ""
        for document in ("state", "observation", "rules", "action"):
            schemas[f"{folder}{document}.json"] = game_part(game, "serialize").json_schema(document)
    schemas["event.json"] = EVENT_SCHEMA  # what a move did, in both games
    for message in MESSAGES:
        schemas[f"protocol/{message}.json"] = message_schema(message)
    return {
        path: json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
        for path, schema in schemas.items()
    }

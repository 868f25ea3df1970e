"""A real web table server for the tests: ``python -m sevenbridge serve`` in a
subprocess, on a free port of this machine, with a database of the test's own.

Tests that need it skip where the ``web`` extra is missing (and fail under
``SEVENBRIDGE_FULL_CI=1``)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .helpers import optional_module

#: How long a server may take to start on a busy machine.
START_SECONDS = 60.0


def need_web() -> None:
    """Skip (or, in full CI, fail) without the web extra."""
    optional_module("starlette")
    optional_module("uvicorn")


class Server:
    """``sevenbridge serve`` on ``db``; :meth:`start` it, :meth:`kill` or
    :meth:`stop` it, start it again on the same port."""

    def __init__(
        self,
        db: Path,
        *,
        pause: float = 0.02,
        lang: str = "en",
        extra: tuple[str, ...] = (),
        limits: dict[str, Any] | None = None,
    ) -> None:
        need_web()
        self.db = db
        self.pause = pause
        self.lang = lang
        self.extra = extra
        #: Limits of :class:`sevenbridge.web.Limits` the command line does not
        #: set: with them, the server is :func:`sevenbridge.web.serve` run by
        #: ``python -c`` (the same server, its limits given directly).
        self.limits = limits
        self.port = 0
        self.process: subprocess.Popen[str] | None = None
        self.log = db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Start the server (on the port it had before, if any) and wait until it listens."""
        command = [
            sys.executable, "-m", "sevenbridge", "serve", "--port", str(self.port),
            "--db", str(self.db), "--pause", str(self.pause), "--lang", self.lang, *self.extra,
        ]  # fmt: skip
        if self.limits is not None:
            code = (
                "import sys; from sevenbridge.web import Limits, serve; "
                f"serve({str(self.db)!r}, port={self.port}, pause={self.pause}, "
                f"lang={self.lang!r}, limits=Limits(**{self.limits!r}), allow_seed=True, "
                "announce=lambda url: print(url, flush=True))"
            )
            command = [sys.executable, "-c", code]
        log = open(self.log, "a", encoding="utf-8")  # noqa: SIM115 (the server writes it)
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True
        )
        log.close()
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # the server announces its address
        assert "http://" in line, (line, self.log.read_text(encoding="utf-8"))
        self.port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                urllib.request.urlopen(self.url + "/", timeout=5).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def kill(self) -> None:
        """End the server at once (SIGKILL): what a crash does."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=30)
            self.process = None

    def stop(self) -> None:
        """Stop the server as Ctrl-C does."""
        if self.process is not None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
            self.process = None

    # -- requests ---------------------------------------------------------------

    def request(self, path: str, data: Any = None, method: str | None = None) -> tuple[int, Any]:
        """The status and decoded answer (JSON where it is JSON) of one request;
        every answer of the seat protocol is checked against its schema (and
        every request the server took: a hostile test's refused one may break it)."""
        status, answer = self._request(path, data, method)
        check_protocol(path, data, status, answer)
        return status, answer

    def _request(self, path: str, data: Any = None, method: str | None = None) -> tuple[int, Any]:
        body = None if data is None else json.dumps(data).encode()
        req = urllib.request.Request(self.url + path, data=body, method=method)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def open_table(self, seats: list[str], **choices: Any) -> dict[str, Any]:
        """Open a table through the JSON API; its id and the links of its people."""
        status, answer = self.request(
            "/api/tables", {"players": len(seats), "seats": seats, **choices}
        )
        assert status == 200 and answer["ok"], answer
        return dict(answer)

    def view(self, table: str, seat: int, token: str) -> dict[str, Any]:
        status, answer = self.request(f"/api/table/{table}/{seat}?token={token}")
        assert status == 200, answer
        return dict(answer)


def token_of(url: str) -> str:
    """The secret token of a seat's link."""
    return url.split("token=", 1)[1]


def wait_for(check: Any, seconds: float = 120.0, every: float = 0.1) -> Any:
    """Ask ``check()`` until it answers something true (generous on a busy machine)."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still not so after {seconds} s: {check}")
        time.sleep(every)


def check_protocol(path: str, sent: Any, status: int, answer: Any) -> None:
    """Check one exchange against the seat protocol's schemas
    (:mod:`sevenbridge.web._protocol`): a view, an answer to a post, a table
    opened; and what was posted, when the server took it."""
    if not path.startswith("/api/") or not isinstance(answer, dict):
        return
    route = path.split("?", 1)[0].strip("/").split("/")
    if route == ["api", "tables"]:
        protocol("opened", answer)
        if status == 200:
            protocol("open", sent)
    elif len(route) == 4 and route[:2] == ["api", "table"]:
        protocol("view" if status == 200 else "answer", answer)
    elif len(route) == 5 and route[:2] == ["api", "table"]:
        protocol("answer", answer)
        if status == 200:
            protocol("move", sent)


def protocol(name: str, document: Any) -> None:
    """``document`` checked against the seat protocol's schema ``name``."""
    import pytest

    from sevenbridge.web._protocol import SEAT_SCHEMAS

    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(SEAT_SCHEMAS[name]).validate(document)

"""What a request must pass before it costs the server anything: where it comes
from (its host and origin), how large it is, how often its sender opens tables.

Every client is taken to be hostile. A browser on another site can make a
visitor's browser send requests here, so a request that changes anything must
come from one of the server's own pages: its ``Origin`` (which browsers send
and pages cannot forge) must be the server's, the lobby's form carries a token
that only the lobby page holds, and the JSON API takes only
``application/json``, which a page of another origin cannot send without the
browser asking first (and the server grants nothing then). The ``Host`` the
request names must be one the server answers to, so that a name of the
attacker's pointed at this machine (DNS rebinding) gets nowhere. Nothing here
needs the web extra.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from ..errors import InvalidArgumentError, Message, quote

__all__ = ["CreationLimiter", "FormTokens", "Limits", "allowed_hosts_for", "host_of", "same_origin"]


def _within(
    low: float, high: float, *, whole: bool = True
) -> Callable[[object, attrs.Attribute[Any], Any], None]:
    """A validator: a number from ``low`` to ``high`` (a whole one if ``whole``)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (whole and not isinstance(value, int))
            or not low <= value <= high
        ):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.web_limit",
                    "{name} must be from {low} to {high}, not {value}",
                    name=attribute.name,
                    low=low,
                    high=high,
                    value=quote(value, 20),
                )
            )

    return check


@attrs.frozen
class Limits:
    """The web table's limits: how much one client, and all of them together,
    may make the server hold or do. Each is checked before the work it bounds.

    >>> Limits(tables_per_client=5).tables_per_client
    5
    """

    requests_per_client: int = attrs.field(default=32, validator=_within(1, 10_000))
    """Requests one client address may have in progress at once, WebSockets
    included (more get 503): a client that sends slowly holds no more."""
    tables_per_client: int = attrs.field(default=30, validator=_within(1, 100_000))
    """Tables one client address may open in an hour."""
    tables_per_hour: int = attrs.field(default=600, validator=_within(1, 1_000_000))
    """Tables the whole server opens in an hour."""
    rooms: int = attrs.field(default=500, validator=_within(1, 100_000))
    """Tables held in memory at once; the longest unused table with nobody
    watching and no bot thinking is let go first (it is loaded again from the
    database when somebody comes back)."""
    watchers_per_seat: int = attrs.field(default=4, validator=_within(1, 100))
    """Open WebSockets on one seat (more are refused)."""
    socket_messages_per_minute: int = attrs.field(default=60, validator=_within(1, 10_000))
    """What a page may send over its WebSocket (the page sends nothing; a
    client that floods it is disconnected)."""
    socket_message_bytes: int = attrs.field(default=1024, validator=_within(64, 1 << 20))
    """The largest WebSocket message taken."""
    body_bytes: int = attrs.field(default=64 * 1024, validator=_within(1024, 1 << 24))
    """The largest request body; a longer one is refused before the rest of it is read."""
    connections: int = attrs.field(default=256, validator=_within(1, 100_000))
    """Connections served at once (more get 503; :func:`~sevenbridge.web.serve` only)."""
    header_seconds: float = attrs.field(default=10.0, validator=_within(0.1, 600, whole=False))
    """How long a connection may take to send a request's head, from its
    start or the last answer (:func:`~sevenbridge.web.serve` only), and a
    request its body."""
    idle_seconds: float = attrs.field(default=30.0, validator=_within(0.1, 3600, whole=False))
    """How long a kept-alive connection may wait for its next request
    (:func:`~sevenbridge.web.serve` only)."""


def host_of(value: str) -> str:
    """The host of a ``Host`` header or of an origin's ``host[:port]``, lower-cased,
    without the port (``[::1]:8000`` -> ``[::1]``; an empty string for a value
    that is no host)."""
    value = value.strip().lower()
    if len(value) > 255 or any(c.isspace() or c in "/\\@?#" for c in value):
        return ""
    if value.startswith("["):
        end = value.find("]")
        host, rest = (value[: end + 1], value[end + 1 :]) if end > 0 else ("", "")
    else:
        host, sep, port = value.partition(":")
        rest = sep + port
    if rest and not (rest.startswith(":") and rest[1:].isascii() and rest[1:].isdigit()
                     and len(rest) <= 6):  # fmt: skip
        return ""  # anything after the host but a port
    return host


_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def allowed_hosts_for(listen: str, given: Iterable[str] = ()) -> frozenset[str]:
    """The hosts a server answers to: those ``given`` (``--allowed-host``), or
    when none are, the loopback names for a server that listens on this
    machine only; an empty set (any host, origin checked against it) for a
    server on every network without ``--allowed-host``.

    >>> sorted(allowed_hosts_for("127.0.0.1"))
    ['127.0.0.1', '[::1]', 'localhost']
    >>> sorted(allowed_hosts_for("0.0.0.0", ["cards.example.org"]))
    ['cards.example.org']
    """
    hosts = {host_of(h) for h in given}
    if "" in hosts:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.web_allowed_host",
                "an allowed host is a name or an address, not {value}",
                value=quote(next(h for h in given if not host_of(h)), 40),
            )
        )
    if hosts:
        return frozenset(hosts)
    name = listen.strip("[]").lower()
    try:
        loopback = name == "localhost" or ipaddress.ip_address(name).is_loopback
    except ValueError:
        loopback = False
    return frozenset(_LOOPBACK_NAMES) if loopback else frozenset()


def same_origin(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request with this ``Origin`` and ``Host`` came from one of the
    server's own pages: the host is one the server answers to, and the origin,
    when the client sent one, names that same host and port. (A client that is
    no browser sends no origin; it cannot act with a visitor's browser either.)"""
    if host is None or not host_of(host) or (allowed and host_of(host) not in allowed):
        return False
    if origin is None:
        return True
    scheme, sep, rest = origin.partition("://")
    if not sep or scheme not in ("http", "https"):
        return False
    return rest.lower() == host.strip().lower()


class FormTokens:
    """Tokens for the lobby's form: the server's HMAC of the moment the form
    was made, good for ``hours``. A page of another site cannot read one, so it
    cannot post the form. The key is new with every start of the server (a
    form made before a restart asks to be loaded again)."""

    def __init__(self, hours: float = 12.0) -> None:
        self._key = secrets.token_bytes(32)
        self.hours = hours

    def _sign(self, stamp: str) -> str:
        return hmac.new(self._key, stamp.encode(), hashlib.sha256).hexdigest()[:32]

    def make(self) -> str:
        """A new token."""
        stamp = str(int(time.time()))
        return f"{stamp}.{self._sign(stamp)}"

    def valid(self, token: object) -> bool:
        """Whether ``token`` is one of this server's, and not too old."""
        if not isinstance(token, str) or len(token) > 64:
            return False
        stamp, _sep, signature = token.partition(".")
        if not stamp.isascii() or not stamp.isdigit() or len(stamp) > 12:
            return False
        age = time.time() - int(stamp)
        return -60 <= age <= self.hours * 3600 and hmac.compare_digest(self._sign(stamp), signature)


class CreationLimiter:
    """How many tables each client address, and the whole server, opened in the
    last hour: a new table is refused past either limit."""

    def __init__(self, per_client: int, per_server: int, *, window: float = 3600.0) -> None:
        self.per_client = per_client
        self.per_server = per_server
        self.window = window
        self._all: deque[float] = deque()
        self._by_client: dict[str, deque[float]] = {}

    def _forget(self, now: float) -> None:
        while self._all and self._all[0] <= now - self.window:
            self._all.popleft()
        for client in list(self._by_client):
            times = self._by_client[client]
            while times and times[0] <= now - self.window:
                times.popleft()
            if not times:
                del self._by_client[client]

    def full(self, client: str) -> bool:
        """Whether ``client`` (or the server) has opened as many tables as it may."""
        self._forget(time.monotonic())
        mine = self._by_client.get(client)
        return len(self._all) >= self.per_server or bool(mine and len(mine) >= self.per_client)

    def count(self, client: str) -> None:
        """Count a table ``client`` opened."""
        now = time.monotonic()
        self._all.append(now)
        self._by_client.setdefault(client, deque()).append(now)

"""The web table attacked as a hostile client would: a real ``sevenbridge serve``
on 127.0.0.1, spoken to with raw HTTP, WebSockets and sockets. Each case is
bounded in count and time, and after each the server still answers.

What each case shows is in its name; the threat model is in
docs/howto/deploy.md."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .web_server import Server, token_of, wait_for

pytestmark = pytest.mark.build_independent


def _raw(
    server: Server,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 60,
) -> tuple[int, str, float]:
    """One request with exactly these headers: status, text, seconds taken."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    start = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        text = answer.read().decode("utf-8", "replace")
        return answer.status, text, time.monotonic() - start
    finally:
        connection.close()


def _alive(server: Server) -> None:
    """The server still answers, quickly, and its process runs."""
    assert server.process is not None and server.process.poll() is None
    status, page, seconds = _raw(server, "GET", "/")
    assert status == 200 and "form_token" in page and seconds < 10


def _rss_kib(server: Server) -> int:
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tables.db").start()
    yield running
    running.stop()


def _form_token(server: Server) -> str:
    _, lobby, _ = _raw(server, "GET", "/")
    return lobby.split('name="form_token" value="')[1].split('"')[0]


def _tables(server: Server) -> int:
    with sqlite3.connect(server.db) as db:
        return int(db.execute("SELECT count(*) FROM tables").fetchone()[0])


JSON = {"Content-Type": "application/json"}


def test_a_client_cannot_name_code_for_a_seat(server: Server) -> None:
    """``py:os:_exit`` killed the server; ``cmd:`` ran a program: neither is
    offered, by the form or the API, with or without options."""
    token = _form_token(server)
    for seat in ("py:os:_exit", "py:os:close", "cmd:sh -c 'kill $PPID'", "cmd:true",
                 "py:sevenbridge.bots:GreedyPlayer", "ismcts:rollout=py:os:_exit"):  # fmt: skip
        form = f"players=2&seat0=human&seat1={seat}&form_token={token}".encode()
        status, page, _ = _raw(server, "POST", "/tables", form,
                               {"Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        assert status == 400 and "not a bot this server offers" in page, (seat, status)
        body = json.dumps({"players": 2, "seats": ["human", seat]}).encode()
        status, text, _ = _raw(server, "POST", "/api/tables", body, JSON)
        assert status == 400 and "not a bot this server offers" in text, (seat, text)
        _alive(server)
    assert _tables(server) == 0


def test_the_search_is_held_to_the_servers_budget(server: Server) -> None:
    for seat, reason in [
        ("ismcts:seconds=3600", "at most 1.0"),
        ("ismcts:iterations=10000000", "from 1 to 2000"),
        ("ismcts:seconds=nan", "seconds must be"),
        ("ismcts:iterations=1:iterations=2", "once each"),
    ]:
        body = json.dumps({"players": 2, "seats": ["human", seat]}).encode()
        status, text, _ = _raw(server, "POST", "/api/tables", body, JSON)
        assert status == 400 and reason in text, (seat, text)
    good = json.dumps({"players": 2, "seats": ["human", "ismcts:iterations=50:seconds=0.5"]})
    status, text, _ = _raw(server, "POST", "/api/tables", good.encode(), JSON)
    assert status == 200 and json.loads(text)["ok"]
    _alive(server)


def test_requests_from_other_sites_change_nothing(server: Server) -> None:
    """A page of another origin cannot open tables or move: not by the lobby's
    form, nor by a no-preflight fetch of JSON as text/plain, nor with a Host of
    its own (DNS rebinding), nor over a WebSocket."""
    token = _form_token(server)
    form = f"players=2&seat0=human&seat1=greedy&form_token={token}".encode()
    urlencoded = {"Content-Type": "application/x-www-form-urlencoded"}
    evil = {"Origin": "http://evil.example"}
    for headers, want in [
        ({**urlencoded, **evil}, 403),
        ({**urlencoded, "Origin": "null"}, 403),
        ({**urlencoded, "Origin": f"http://127.0.0.1:{server.port}.evil.example"}, 403),
        ({**urlencoded, "Host": "evil.example"}, 421),
        ({**urlencoded, "Host": f"evil.example:{server.port}",
          "Origin": f"http://evil.example:{server.port}"}, 421),
    ]:  # fmt: skip
        status, _, _ = _raw(server, "POST", "/tables", form, headers)
        assert status == want, (headers, status)
    no_token = b"players=2&seat0=human&seat1=greedy"
    assert _raw(server, "POST", "/tables", no_token, urlencoded)[0] == 403
    stale = form.replace(token.encode(), b"1700000000.0123456789abcdef0123456789abcdef")
    assert _raw(server, "POST", "/tables", stale, urlencoded)[0] == 403
    body = json.dumps({"players": 2, "seats": ["human", "greedy"]}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        status, _, _ = _raw(server, "POST", "/api/tables", body, {"Content-Type": kind})
        assert status == 415, kind
    assert _raw(server, "POST", "/api/tables", body, {**JSON, **evil})[0] == 403
    assert _tables(server) == 0
    # The same requests from the server's own page are taken.
    own = {"Origin": f"http://127.0.0.1:{server.port}"}
    assert _raw(server, "POST", "/api/tables", body, {**JSON, **own})[0] == 200
    status, _, _ = _raw(server, "POST", "/tables", form, {**urlencoded, **own})
    assert status == 303
    # A WebSocket opened from another origin is refused before the handshake.
    opened = server.open_table(["human", "greedy"])
    url = opened["seats"][0]["url"]
    table, seat_token = opened["table"], token_of(url)
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    from websockets.typing import Origin

    address = f"ws://127.0.0.1:{server.port}/ws/table/{table}/0?token={seat_token}"
    with pytest.raises(InvalidStatus), connect(address, origin=Origin("http://evil.example"),
                                               open_timeout=30):  # fmt: skip
        pass
    with connect(address, open_timeout=30) as socket_:
        assert json.loads(socket_.recv(timeout=60))["seat"] == 0
    _alive(server)


def test_sizes_are_bounded_before_they_cost(server: Server) -> None:
    """Huge numbers are refused at once; a 200 MB body is refused from its
    declared length, or after 64 KiB when it streams in without one, and the
    server's memory does not grow with it."""
    token = _form_token(server)
    urlencoded = {"Content-Type": "application/x-www-form-urlencoded"}
    for players in ("100000000", "99999999999999999999", "1" * 5000, "²", "-3", "3.0"):
        form = f"players={players}&seat0=human&seat1=greedy&form_token={token}".encode()
        status, page, seconds = _raw(server, "POST", "/tables", form, urlencoded)
        assert status == 400 and "whole numbers" in page and seconds < 5, (players[:20], page)
        body = json.dumps({"players": players, "seats": ["human", "greedy"]}).encode()
        status, _, seconds = _raw(server, "POST", "/api/tables", body, JSON)
        assert status == 400 and seconds < 5
    body = json.dumps({"players": 10**30, "seats": ["human"] * 3}).encode()
    assert _raw(server, "POST", "/api/tables", body, JSON)[0] == 400
    deep = b"[" * 100_000 + b"]" * 100_000
    assert _raw(server, "POST", "/api/tables", deep[:60_000], JSON)[0] == 400
    before = _rss_kib(server)
    # Declared 200 MB: refused before a byte of it is read.
    status, _, seconds = _raw(
        server, "POST", "/api/tables", None, {**JSON, "Content-Length": str(200 << 20)}
    )
    assert status == 413 and seconds < 10
    # Streamed without a length: refused past the limit, the rest never read.
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    with connection:
        connection.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * (1 << 20)
        sent = 0
        try:
            while sent < 200 << 20:
                connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except OSError:
            pass  # the server answered and closed: what it should do
        answer = connection.recv(200)
    assert b" 413 " in answer and sent < 100 << 20, (answer[:60], sent)
    assert _rss_kib(server) - before < 40_000  # far below the 200 MB offered
    _alive(server)


def test_malformed_paths_and_tokens_get_the_same_404_and_wake_nothing(server: Server) -> None:
    opened = server.open_table(["human", "greedy", "greedy"], seed=5)
    table, url = opened["table"], opened["seats"][0]["url"]
    token = token_of(url)
    _, nowhere, _ = _raw(server, "GET", f"/api/table/nosuchtable/0?token={token}")
    for path in [
        f"/api/table/{table}/%C2%B2?token={token}",  # a superscript two
        f"/api/table/{table}/{'9' * 5000}?token={token}",
        f"/api/table/{table}/0?token={'x' * 5000}",
        f"/api/table/{table}/0?token=",
        f"/api/table/{table}/1?token={token}",
        f"/api/table/{'%00' * 10}/0?token={token}",
        f"/api/table/{'t' * 500}/0?token={token}",
    ]:
        status, text, _ = _raw(server, "GET", path)
        assert status == 404 and text == nowhere, (path[:60], status, text[:200])
    # None of that loaded the table, so its bots have not moved: P1 (a bot) is first.
    time.sleep(0.5)
    assert json.loads(_raw(server, "GET", f"/api/table/{table}/0?token={token}")[1])["ply"] == 0
    wait_for(lambda: server.view(table, 0, token)["ply"] > 0)  # the right token wakes them
    _alive(server)


def test_a_damaged_table_is_refused_and_the_others_play_on(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        good = server.open_table(["human", "greedy"], seed=4)
        bad = server.open_table(["human", "greedy"], seed=4)
        spec = server.open_table(["human", "greedy"], seed=4)
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "tables.db") as db:
        db.execute("UPDATE tables SET rules = '{not json' WHERE id = ?", (bad["table"],))
        db.execute("INSERT INTO moves VALUES (?, 0, 'P9 Fly away')", (good["table"],))
        db.execute("UPDATE seats SET player = 'py:os:_exit' WHERE table_id = ? AND seat = 1",
                   (spec["table"],))  # fmt: skip
        db.execute("UPDATE tables SET players = 'many' WHERE id = ?", (spec["table"],))
    server.start()
    try:
        for opened in (good, bad):
            url = opened["seats"][0]["url"]
            status, text, _ = _raw(server, "GET", url.replace("/table/", "/api/table/"))
            assert status == 409 and "damaged" in text, (status, text[:200])
            status, page, _ = _raw(server, "GET", url)
            assert status == 409 and "damaged" in page and "Traceback" not in page
        fresh = server.open_table(["human", "greedy"], seed=4)
        view = server.view(fresh["table"], 0, token_of(fresh["seats"][0]["url"]))
        assert view["table"] == fresh["table"]
        _alive(server)
    finally:
        server.stop()


def test_tables_per_client_are_capped(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", extra=("--tables-per-client", "3")).start()
    try:
        for _ in range(3):
            server.open_table(["human", "greedy"])
        status, answer = server.request("/api/tables", {"players": 2, "seats": ["human", "greedy"]})
        assert status == 429 and "try again later" in answer["message"]
        assert _tables(server) == 3
        _alive(server)
    finally:
        server.stop()


def test_websockets_are_capped_per_seat_and_a_flood_is_cut_off(server: Server) -> None:
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    opened = server.open_table(["human", "greedy"])
    table, token = opened["table"], token_of(opened["seats"][0]["url"])
    address = f"ws://127.0.0.1:{server.port}/ws/table/{table}/0?token={token}"
    with contextlib.ExitStack() as stack:
        for _ in range(4):
            stack.enter_context(connect(address, open_timeout=30))
        with pytest.raises(InvalidStatus), connect(address, open_timeout=30):
            pass
    wait_for(lambda: _can_connect(address))
    with connect(address, open_timeout=30) as flood:
        flood.recv(timeout=60)
        with pytest.raises(ConnectionClosed):
            for _ in range(200):
                flood.send("x" * 100)
                time.sleep(0.001)
            flood.recv(timeout=30)  # closed by the server
            flood.recv(timeout=30)
    with connect(address, open_timeout=30) as big:
        big.recv(timeout=60)
        with pytest.raises(ConnectionClosed):
            big.send("x" * 100_000)
            for _ in range(5):
                big.recv(timeout=30)
    _alive(server)


def _can_connect(address: str) -> bool:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    try:
        with connect(address, open_timeout=30):
            return True
    except InvalidStatus:
        return False


def test_idle_and_half_sent_connections_are_closed(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", limits={"header_seconds": 1.0, "idle_seconds": 1.0})
    server.start()
    try:
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        half = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        kept = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        kept.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        start = time.monotonic()
        for connection in (idle, half):
            with connection:
                assert connection.recv(100) == b""  # closed by the server
        assert time.monotonic() - start < 20
        with kept:
            received = b""
            while not received.endswith(b"</html>\n"):
                received += kept.recv(65536)
            assert received.startswith(b"HTTP/1.1 200")
            assert kept.recv(100) == b""  # the kept-alive connection, idle, is closed too
        _alive(server)
    finally:
        server.stop()


SPY = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "spy", "protocol": "sevenbridge-bot",
                          "version": 1}), flush=True)
    elif kind == "deal":
        print(message["seed"], file=log, flush=True)
    elif kind == "decide":
        print(json.dumps({"type": "action", "index": 0}), flush=True)
    elif kind == "quit":
        break
"""


def test_an_external_bot_gets_a_one_way_seed(tmp_path: Path) -> None:
    """The seed a web table sends its external bot is the tournaments' keyed
    one-way seed, not a step of the table's seed anybody can undo."""
    import shlex

    from sevenbridge._kit.rng import derive
    from sevenbridge.arena import bot_seed

    script, log = tmp_path / "spy.py", tmp_path / "seeds.txt"
    script.write_text(SPY, encoding="utf-8")
    command = (
        f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(log))}"
    )
    server = Server(tmp_path / "tables.db", extra=("--bot", f"spy={command}")).start()
    try:
        opened = server.open_table(["human", "spy"], seed=77, deals=1)
        token = token_of(opened["seats"][0]["url"])
        server.view(opened["table"], 0, token)  # the seat comes: the bots wake
        wait_for(lambda: log.exists() and log.read_text().strip())
        seed = int(log.read_text().split()[0])
        assert seed == bot_seed(77, 0, 1)
        assert seed not in {derive(77, 8, 0, 1), derive(77, 7, 1), 77}
        assert server.view(opened["table"], 0, token)["names"] == ["P0", "P1 spy"]
    finally:
        server.stop()


def test_a_slow_table_never_holds_another(tmp_path: Path) -> None:
    """Tables of searching bots think in threads of their own: a table of
    greedy bots beside seven of them still plays a move within seconds."""
    server = Server(tmp_path / "tables.db", extra=("--max-bot-seconds", "1")).start()
    try:
        for seed in range(7):
            server.open_table(["human", "ismcts:seconds=1:iterations=2000", "ismcts"], seed=seed)
        for opened in list(_opened_tables(server)):
            server.view(opened[0], 0, opened[1])  # wake their bots
        quick = server.open_table(["human", "greedy", "greedy"], seed=3)
        token = token_of(quick["seats"][0]["url"])
        start = time.monotonic()
        wait_for(lambda: server.view(quick["table"], 0, token)["ply"] >= 2, seconds=60)
        assert time.monotonic() - start < 20
        _alive(server)
    finally:
        server.stop()


def _opened_tables(server: Server) -> Iterator[tuple[str, str]]:
    with sqlite3.connect(server.db) as db:
        rows = db.execute("SELECT table_id, token FROM seats WHERE seat = 0").fetchall()
    for table, token in rows:
        yield str(table), str(token)


def test_whoever_opens_a_table_of_several_people_cannot_know_its_cards(tmp_path: Path) -> None:
    """A chosen seed deals the same cards again, and an undo shows the card a
    draw took: at a table of several people neither is offered (a seed only
    where the operator allows it); a seed past what the store keeps is refused
    without spending the client's allowance of tables."""
    server = Server(tmp_path / "tables.db", extra=("--tables-per-client", "2")).start()
    try:
        chosen: list[tuple[dict[str, Any], str]] = [
            ({"seed": 424242}, "only at a table of one person"),
            ({"practice": True}, "for one person"),
        ]
        for choices, reason in chosen:
            status, answer = server.request(
                "/api/tables", {"players": 3, "seats": ["human", "human", "greedy"], **choices}
            )
            assert status == 400 and reason in answer["message"], answer
        for seed in (2**63, 2**64 - 1):
            status, answer = server.request(
                "/api/tables", {"players": 2, "seats": ["human", "greedy"], "seed": seed}
            )
            assert status == 400 and "2**63 - 1" in answer["message"], answer
        server.open_table(["human", "greedy"], seed=2**63 - 1, practice=True)
        server.open_table(["human", "human", "greedy"])
        status, _ = server.request("/api/tables", {"players": 2, "seats": ["human", "greedy"]})
        assert status == 429 and _tables(server) == 2
        assert "Traceback" not in server.log.read_text(encoding="utf-8")
    finally:
        server.stop()


def test_a_body_sent_slowly_is_cut_off_and_one_address_holds_few_requests(
    tmp_path: Path,
) -> None:
    limits = {"header_seconds": 1.0, "idle_seconds": 1.0, "requests_per_client": 4}
    server = Server(tmp_path / "tables.db", limits=limits).start()
    slow: list[socket.socket] = []
    try:
        head = (
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"
        )
        for _ in range(4):
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            connection.sendall(head)
            slow.append(connection)
        time.sleep(0.3)
        # The address has as many requests in progress as it may: the next waits for none.
        status, text, seconds = _raw(server, "GET", "/")
        assert status == 503 and "Too many requests" in text and seconds < 5
        start = time.monotonic()
        for connection in slow:
            connection.sendall(b" ")  # a byte now and then: not enough
            answer = connection.recv(200)
            assert b" 408 " in answer, answer[:60]
        assert time.monotonic() - start < 10
        _alive(server)
    finally:
        for connection in slow:
            connection.close()
        server.stop()


def test_a_client_gone_mid_body_leaves_no_traceback(server: Server) -> None:
    for path in ("/api/tables", "/tables", "/api/table/abc/0/move"):
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        connection.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            'Content-Length: 5000\r\n\r\n{"players"'.encode()
        )
        connection.close()
    time.sleep(0.5)
    _alive(server)
    assert "Traceback" not in server.log.read_text(encoding="utf-8")


def test_a_host_is_a_name_and_at_most_a_port() -> None:
    from sevenbridge.web._guard import host_of

    assert host_of("127.0.0.1:8000") == "127.0.0.1" and host_of("[::1]:80") == "[::1]"
    for odd in ("[::1]evil.example", "127.0.0.1:x.evil.example", "a:", "a:1234567", "a@b", ""):
        assert host_of(odd) == "", odd


def test_the_new_choices_are_bounded_and_their_pages_leak_nothing(server: Server) -> None:
    """The pace, the rules sheets' names, a seat's language (in the link and
    from the browser), and play again: each bounded, refused plainly, and no
    table is opened by a refusal."""
    tables = _tables(server)
    for pace in ["-1", "5.01", "9", "1e3", "nan", "inf", "1.2.3", "0x1", "12345678", True, [1], {}]:
        status, answer = server.request(
            "/api/tables", {"players": 2, "seats": ["human", "greedy"], "pause": pace}
        )
        assert status == 400 and "pace" in answer["message"], (pace, answer)
    assert _tables(server) == tables
    for path in ["/rules/seven_bridge/poker", "/rules/chess/standard", "/rules/mahjong/" + "x" * 5000,
                 "/rules/seven_bridge/..%2f..%2fetc", "/rules/seven_bridge/standard/more"]:  # fmt: skip
        status, page, _ = _raw(server, "GET", path)
        assert status in (404, 414, 431), (path, status)
        assert "data-field" not in page
    opened = server.open_table(["human", "greedy"], deals=1)
    table, url = opened["table"], opened["seats"][0]["url"]
    token = token_of(url)
    # A language we do not have, or a header of any size, falls back; none is kept.
    for headers, query in [({"Accept-Language": "x" * 100_000}, ""),
                           ({"Accept-Language": "fr;q=abc, ja;q=0, en;q=nan"}, "&lang=xx"),
                           ({"Accept-Language": ",;=," * 1000}, "&lang=" + "j" * 1000)]:  # fmt: skip
        status, page, _ = _raw(server, "GET", url + query, headers=headers)
        assert status in (200, 431), status
        if status == 200:
            assert '<html lang="en">' in page and "data-field" not in page
    assert server.view(table, 0, token)["lang"] == "en"
    status, page, _ = _raw(server, "GET", url, headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    assert status == 200 and server.view(table, 0, token)["lang"] == "en"  # the seat's choice stays
    status, page, _ = _raw(server, "GET", url + "&lang=ja")
    assert status == 200 and '<html lang="ja">' in page
    assert server.view(table, 0, token)["lang"] == "ja"
    status, answer = server.request(f"/api/table/{table}/0/move", {"token": token, "index": -1})
    assert status == 400 and answer["message"] != "That is not a move."  # in the seat's Japanese
    assert answer["view"]["lang"] == "ja"
    # Play again: only with the seat's token, only once the match is over.
    for token_given in [None, "", "x" * 5000, token + "x", 5]:
        status, answer = server.request(f"/api/table/{table}/0/again", {"token": token_given})
        assert status == 404 and answer.get("view") is None, answer
    status, answer = server.request(f"/api/table/{table}/0/again", {"token": token})
    assert status == 400 and answer["view"]["again"] is None
    assert _tables(server) == tables + 1
    _alive(server)


def test_play_again_counts_against_the_tables_a_client_may_open(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", extra=("--tables-per-client", "1")).start()
    try:
        opened = server.open_table(["human", "greedy"], deals=1)
        table, token = opened["table"], token_of(opened["seats"][0]["url"])
        view = server.view(table, 0, token)
        while not view["result"]:
            if view["your_turn"]:
                server.request(f"/api/table/{table}/0/move",
                               {"token": token, "index": 0, "ply": view["ply"]})  # fmt: skip
            view = server.view(table, 0, token)
        status, answer = server.request(f"/api/table/{table}/0/again", {"token": token})
        assert status == 429 and "try again later" in answer["message"]
        assert _tables(server) == 1
        _alive(server)
    finally:
        server.stop()

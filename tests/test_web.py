"""The web table without a browser: its store, a table in play, and a real
server (``sevenbridge serve`` in a subprocess) spoken to over HTTP and
WebSockets: the secret links, the moves, the explanations, undo, a restart."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import urllib.parse
from pathlib import Path
from typing import Any

import attrs
import pytest

from sevenbridge import (
    Draw,
    Match,
    Pass,
    Pon,
    Rules,
    apply,
    deal,
    hand_points,
    legal_actions,
    observe,
    parse_move,
    svg,
)
from sevenbridge.errors import InvalidArgumentError, StoreError
from sevenbridge.text import _card_word
from sevenbridge.web._db import HUMAN, Seat, TableRecord, TableStore
from sevenbridge.web._games import TABLE_GAMES, CardTableGame
from sevenbridge.web._room import Refusal, Room

from .helpers import Ticks
from .web_server import Server, need_web, token_of, wait_for

GAME = CardTableGame()


def _table(
    seats: list[str], *, seed: int = 3, deals: int = 1, practice: bool = False
) -> TableRecord:
    rules = attrs.evolve(Rules(), deals=deals)
    return TableRecord(
        id="t1", game="seven_bridge", rules=rules.to_json(), players=len(seats), seed=seed,
        practice=practice, seats=tuple(Seat(s, "secret" if s == HUMAN else None) for s in seats),
    )  # fmt: skip


# -- the store ---------------------------------------------------------------------


def test_the_store_keeps_tables_moves_and_seen_deals_across_opening(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    store = TableStore(path)
    table = _table([HUMAN, "greedy"], practice=True)
    store.create(table)
    for ply, move in enumerate(["P1 Draw", "P1 Discard 2C", "P0 Draw"]):
        store.add_move("t1", ply, move)
    store.truncate("t1", 2)
    store.set_seen("t1", 1)
    store.close()
    again = TableStore(path)
    loaded = again.load("t1")
    assert loaded is not None
    found, moves = loaded
    assert moves == ["P1 Draw", "P1 Discard 2C"]
    assert found.seats == table.seats and found.seats[0].token == "secret"
    assert (found.seed, found.practice, found.seen, found.rules) == (3, True, 1, table.rules)
    assert again.load("nope") is None
    assert again.table_ids() == ["t1"]


def test_a_file_that_is_no_tables_database_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable tables database"):
        TableStore(junk)
    other = tmp_path / "other.db"
    TableStore(other).close()
    with sqlite3.connect(other) as db:
        db.execute("UPDATE layout SET version = 99")
    with pytest.raises(StoreError, match="layout 99"):
        TableStore(other)


# -- a table in play, without a server ------------------------------------------------


def _play_out(room: Room, seat: int) -> int:
    """Play ``seat``'s first legal move at each turn (the bots play with no pause)
    until the deal ends; the number of moves the seat chose."""

    async def go() -> int:
        chosen = 0
        room.wake()
        while not room.paused:
            view = room.view(seat)
            if view["your_turn"]:
                await room.play(seat, view["ply"], index=0)
                chosen += 1
            else:
                await asyncio.sleep(0.01)
        assert room.runner is not None
        await room.runner
        return chosen

    return asyncio.run(go())


def test_a_room_plays_a_deal_keeps_every_move_and_replays_it(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.db")
    table = _table([HUMAN, "greedy", "random"])
    store.create(table)
    room = Room(GAME, table, [], store, pause=0)
    chosen = _play_out(room, 0)
    assert chosen > 0 and room.paused
    view = room.view(0)
    result = view["result"]
    assert result["over"] and result["deal"] == 1
    final = GAME.finished(room.series)[-1]
    assert final.deal_scores is not None
    assert [row["score"] for row in result["rows"]] == list(final.deal_scores)
    assert result["totals"] == list(final.deal_scores)
    for row in result["rows"]:  # each hand left and what it counts
        assert row["points"] == hand_points(final.hand(row["seat"]), final.rules)
        assert row["winner"] == (row["seat"] == final.winner)
    # The store holds every move: a new room (a restarted server) finds the same table.
    loaded = store.load("t1")
    assert loaded is not None
    again = Room(GAME, loaded[0], loaded[1], store, pause=0)
    assert again.moves == room.moves and again.series == room.series
    assert again.view(0)["observation"] == view["observation"]


def test_a_room_explains_an_illegal_move_with_the_engines_reason(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.db")
    # P0 deals, so P1 (a person here) starts by drawing or chi.
    table = _table(["greedy", HUMAN])
    store.create(table)
    room = Room(GAME, table, [], store, pause=0)

    async def go() -> None:
        with pytest.raises(Refusal, match="a turn begins by drawing") as refused:
            await room.play(1, 0, kind="Discard", cards=("2C",))
        assert refused.value.status == 400
        with pytest.raises(Refusal, match="moved on") as stale:
            await room.play(1, 5, index=0)
        assert stale.value.status == 409
        with pytest.raises(Refusal, match="exactly one card"):
            await room.play(1, 0, kind="Discard", cards=("2C", "3C"))
        with pytest.raises(Refusal, match="not your turn"):
            await room.play(0, 0, index=0)  # the bot's seat, through a person's index

    asyncio.run(go())
    assert room.moves == []


def test_undo_goes_back_to_the_persons_last_choice(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.db")
    table = _table(["greedy", HUMAN], practice=True)
    store.create(table)
    room = Room(GAME, table, [], store, pause=0)

    async def go() -> None:
        await room.play(1, 0, index=0)  # P1 draws
        view = room.view(1)
        assert view["can_undo"]
        discard = next(m for m in view["moves"] if m["kind"] == "Discard")
        await room.play(1, view["ply"], index=discard["index"])
        room.wake()
        await wait_async(lambda: room.view(1)["your_turn"])  # the bot has played
        before = len(room.moves)
        assert before > 3
        told = room.view(1)["log"]
        await room.undo(1)
        assert len(room.moves) == 1  # back before the discard: the draw stands
        assert room.view(1)["your_turn"]
        # The log is told again from the moves left (none of the undone ones).
        fresh = Room(GAME, table, list(room.moves), store, pause=0)
        assert room.view(1)["log"] == fresh.view(1)["log"] and len(told) > 1
        assert len(room.view(1)["log"]) == 1
        view = room.view(1)
        other = [m for m in view["moves"] if m["kind"] == "Discard"][-1]
        assert other["notation"] != discard["notation"]
        await room.play(1, view["ply"], index=other["index"])
        fresh = Room(GAME, table, list(room.moves), store, pause=0)
        assert room.view(1)["log"] == fresh.view(1)["log"]
        assert other["cards"][0][0] in room.view(1)["log"][-1]
        loaded = store.load("t1")
        assert loaded is not None and loaded[1] == room.moves

    asyncio.run(go())


async def wait_async(check: Any, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("still not so")


def test_undo_is_only_for_practice_tables(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.db")
    table = _table(["greedy", HUMAN])
    store.create(table)
    room = Room(GAME, table, [], store, pause=0)

    async def go() -> None:
        await room.play(1, 0, index=0)
        with pytest.raises(Refusal, match="practice"):
            await room.undo(1)

    asyncio.run(go())
    assert room.view(1)["can_undo"] is False and len(room.moves) == 1


def test_a_lone_pass_is_played_for_a_person_and_a_real_choice_is_not() -> None:
    assert GAME.automatic([Pass(1)]) == Pass(1)
    assert GAME.automatic([Draw(1)]) is None
    assert GAME.automatic([Pass(1), Pon(1, "9C 9D")]) is None


def test_a_person_asked_about_a_claim_is_offered_the_pass_and_passed_when_the_clock_ends(
    tmp_path: Path,
) -> None:
    store = TableStore(tmp_path / "t.db")
    table = _table([HUMAN, HUMAN, HUMAN])
    store.create(table)
    room = Room(GAME, table, [], store, pause=0, claim_seconds=0.3)

    async def go() -> None:
        for _ in range(200):
            position = GAME.position(room.series)
            legal = GAME.legal_actions(position)
            seat = GAME.player(legal[0])
            view = room.view(seat)
            assert view["your_turn"] and [m["index"] for m in view["moves"]] == list(
                range(len(legal))
            )
            if GAME.automatic(legal) is not None:  # a lone pass: offered, on the clock
                assert [m["kind"] for m in view["moves"]] == ["Pass"]
                room.wake()
                await _clock_ends(room, seat)
                return
            await room.play(seat, len(room.moves), index=0)
        raise AssertionError("no lone pass came up")

    async def run() -> None:
        try:
            await go()
        finally:
            room.close()

    asyncio.run(run())


async def _clock_ends(room: Room, seat: int) -> None:
    """The claim clock of ``seat``'s lone pass runs, the same for every seat,
    and the pass is played when it runs out."""
    ply = len(room.moves)
    await wait_async(lambda: room.view(seat)["clock"] is not None, 5)
    assert 0 < room.view((seat + 1) % 3)["clock"] <= 0.3  # the same for all
    await wait_async(lambda: len(room.moves) > ply, 5)  # passed when it ran out
    assert room.moves[ply] == f"P{seat} Pass"


def _windows(
    game: Any, seats: list[str], seed: int, *, claim: float, think: float
) -> list[tuple[str, bool, float]]:
    """Play a deal where every person leaves every decision to the clock (a
    person's own turn is played at once), and time each claim window: whether
    a person or a bot was asked, whether it could claim, and how long the
    window stayed open (from the move before to its answer)."""
    import time

    from sevenbridge.web._bots import BotMenu
    from sevenbridge.web._db import GHOST

    rules = game.make_rules(game.presets()[0], 1)
    seat_list = [Seat(GHOST)] * game.seat_total(rules, len(seats))
    for place, who in zip(game.real_seats(rules, len(seats)), seats, strict=True):
        seat_list[place] = Seat(who, "secret" if who == HUMAN else None)
    table = TableRecord(id=f"w{seed}", game=game.name, rules=game.rules_json(rules),
                        players=len(seats), seed=seed, practice=False, seats=tuple(seat_list))  # fmt: skip
    store = TableStore(":memory:")
    store.create(table)
    room = Room(game, table, [], store, pause=0.02, claim_seconds=claim,
                bots=BotMenu(max_seconds=think))  # fmt: skip
    stamps: list[float] = []
    asked: list[tuple[bool, str, bool]] = []
    played = room._play

    def timed(action: Any, *, keep: bool = True) -> None:
        legal = game.legal_actions(game.position(room.series))
        who = room.table.seats[game.player(action)].player
        asked.append((room._claim_window(legal), who, len(legal) > 1))
        played(action, keep=keep)
        stamps.append(time.monotonic())

    room._play = timed  # type: ignore[method-assign]

    async def go() -> None:
        stamps.append(time.monotonic())
        room.wake()
        while not room.paused:
            legal = game.legal_actions(game.position(room.series))
            seat = game.player(legal[0])
            if room.table.seats[seat].human and not room._claim_window(legal):
                await room.play(seat, len(room.moves), index=0)
            await asyncio.sleep(0.005)
        room.close()

    asyncio.run(go())
    return [
        (who, could, stamps[k + 1] - stamps[k])
        for k, (window, who, could) in enumerate(asked)
        if window
    ]


@pytest.mark.parametrize("name", ["seven_bridge", "mahjong"])
def test_a_claim_window_lasts_as_long_whether_or_not_the_seat_could_claim(name: str) -> None:
    """Nothing a seat sees tells a hidden card through the table's pace: a
    person asked about a claim is passed when the clock runs out, whether
    or not they could claim; a bot answers after the pause and the server's
    budget, whatever it holds."""
    from sevenbridge.web._bots import QUICK_SECONDS

    game = TABLE_GAMES[name]
    claim, think = 0.15, 0.1
    search = "ismcts:iterations=2000"
    seats = [HUMAN, "greedy", search] if name == "seven_bridge" else [HUMAN, "greedy", "greedy"]
    # Each asked seat's windows, and how long they must last at least.
    ends = {HUMAN: claim, "greedy": 0.02 + QUICK_SECONDS, search: 0.02 + think}
    by_kind: dict[tuple[str, bool], list[float]] = {}
    for seed in range(1, 40):
        for who, could, seconds in _windows(game, seats, seed, claim=claim, think=think):
            by_kind.setdefault((who, could), []).append(seconds)
        if all((who, could) in by_kind for who in set(seats) for could in (True, False)):
            break
    for who in set(seats):
        able, unable = by_kind[(who, True)], by_kind[(who, False)]
        assert min(able + unable) >= ends[who] - 0.01, (who, min(able), min(unable))
        # Both sit within a few milliseconds of the window's end; the bound is
        # far below the clock a pass would otherwise skip, or a search's thinking.
        median = sorted(able)[len(able) // 2] - sorted(unable)[len(unable) // 2]
        assert abs(median) < 0.06, (who, able, unable)


def test_the_tables_search_counts_the_wall_clock_and_ends_before_the_claim_window() -> None:
    """A search bot at a table counts its seconds on the wall clock, not on its
    thread's processor time (which runs slow while other threads, another
    table's search, hold the processor), and its budget ends a margin before
    the claim window does. The search reads that clock between every two
    playouts and has answered within three reads of its deadline: here a
    clock that ticks at each read stands for the time, so that the test does
    not hang on how busy the machine is."""
    import time

    from sevenbridge.bots import ISMCTSPlayer
    from sevenbridge.web._bots import SEARCH_SHARE, BotMenu

    menu = BotMenu(max_seconds=0.3)
    bot = menu.make("ismcts:iterations=2000", seed=1)
    assert isinstance(bot, ISMCTSPlayer) and bot.clock is time.monotonic
    assert bot.seconds == pytest.approx(SEARCH_SHARE * 0.3) and SEARCH_SHARE < 1
    state = deal(players=3, seed=5)
    while len(legal_actions(state)) < 3:  # a discard with choices
        state = apply(state, legal_actions(state)[0])
    ticks = Ticks(0.01)
    bot.clock = ticks
    bot(observe(state))
    assert bot.last_iterations < 2000  # the time ended the search
    assert bot.seconds is not None and 1 <= ticks.past(bot.seconds) <= 3, ticks.reads[-5:]
    assert ticks.reads[-1] < menu.answer_seconds("ismcts")


def test_a_view_is_built_from_the_seats_observation_alone() -> None:
    state = deal(players=3, seed=11)
    for _ in range(4):
        state = apply(state, legal_actions(state)[0])
    view = GAME.observe(state, 2)
    assert view == observe(state, 2)
    drawn = GAME.draw(view, names=["P0", "P1", "P2"], lang="en")
    assert drawn == svg.table(observe(state, 2), names=["P0", "P1", "P2"], lang="en")
    hidden = {c for p in (0, 1) for c in state.hand(p)}
    for card in hidden:
        assert svg.card_name(card) not in drawn
    assert [h["card"] for h in GAME.hand(view, "en")] == [str(c) for c in state.hand(2)]


def test_the_table_heading_names_the_preset_whatever_the_match_length() -> None:
    rules = attrs.evolve(Rules.nintendo(), deals=2, target_score=500)
    picture = svg.table(observe(deal(rules, seed=2), 0))
    assert "nintendo rules" in picture
    other = attrs.evolve(Rules.nintendo(), upcard=True)
    assert "custom rules" in svg.table(observe(deal(other, seed=2), 0))


def test_the_match_of_a_table_is_the_librarys_match() -> None:
    rules = attrs.evolve(Rules(), deals=2)
    series = GAME.start(rules, 3, 9)
    assert series == Match.start(rules, players=3, seed=9)
    assert GAME.parse_move(GAME.format_move(legal_actions(series.state)[0])) == parse_move(
        "P1 Draw"
    )


def test_create_app_checks_its_arguments(tmp_path: Path) -> None:
    from sevenbridge.web import create_app, serve

    with pytest.raises(InvalidArgumentError, match="pause must be"):
        create_app(tmp_path / "t.db", pause=-1)
    with pytest.raises(InvalidArgumentError, match="lang must be"):
        create_app(tmp_path / "t.db", lang="fr")
    with pytest.raises(InvalidArgumentError, match="port must be"):
        serve(tmp_path / "t.db", port=70000)


# -- a real server ---------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "tables.db").start()
    yield running
    running.stop()


def _ws(server: Server, table: str, seat: int, token: str | None) -> Any:
    from websockets.sync.client import connect

    query = "" if token is None else "?token=" + urllib.parse.quote(token)
    return connect(f"ws://127.0.0.1:{server.port}/ws/table/{table}/{seat}{query}", open_timeout=30)


def test_a_seat_cannot_read_or_act_for_another(server: Server) -> None:
    opened = server.open_table(["human", "human", "greedy"], deals=1)
    table = opened["table"]
    links = {s["seat"]: s["url"] for s in opened["seats"]}
    assert set(links) == {0, 1}  # a link for each person, none for the bot
    mine, theirs = token_of(links[0]), token_of(links[1])
    assert mine != theirs and len(mine) >= 20
    # The right token opens its own seat, page and view.
    status, page = server.request(links[0])
    assert status == 200 and mine in page
    assert server.view(table, 0, mine)["seat"] == 0
    # No token, a wrong one, another seat's, a bot's seat, or no such table: the same
    # 404, and nothing of the table.
    _, nowhere = server.request(f"/api/table/nosuchtable/0?token={mine}")
    for seat, token in [(0, None), (0, "x" * 24), (1, mine), (0, theirs), (2, mine), (9, mine)]:
        query = "" if token is None else f"?token={token}"
        for path in (f"/table/{table}/{seat}{query}", f"/api/table/{table}/{seat}{query}"):
            status, answer = server.request(path)
            assert status == 404, (path, status)
            if path.startswith("/api/"):
                assert answer == nowhere
            text = str(answer)
            assert "<svg" not in text and "observation" not in text
            assert mine not in text and theirs not in text
        for action in ("move", "undo", "next"):
            body: dict[str, Any] = {"index": 0, "ply": 0}
            if token is not None:
                body["token"] = token
            status, answer = server.request(f"/api/table/{table}/{seat}/{action}", body)
            assert status == 404 and answer["view"] is None, (action, seat, answer)
    assert server.request(f"/api/table/nosuchtable/0?token={mine}")[0] == 404
    # A path the table does not serve, or a method it does not take: its own refusal.
    status, page = server.request("/no/such/page")
    assert status == 404 and "There is no such page." in page and "<!DOCTYPE html>" in page
    status, answer = server.request("/api/tables")  # GET where only POST is taken
    assert status == 405 and answer == {"ok": False, "message": "The request is not allowed."}
    # Acting with seat 0's token for seat 1 is refused, even on seat 1's turn.
    state_view = wait_for(lambda: _turn_of(server, table, {0: mine, 1: theirs}))
    seat = state_view["seat"]
    other = {0: theirs, 1: mine}[seat]
    status, answer = server.request(
        f"/api/table/{table}/{seat}/move", {"token": other, "index": 0, "ply": state_view["ply"]}
    )
    assert status == 404
    assert server.view(table, seat, {0: mine, 1: theirs}[seat])["ply"] == state_view["ply"]
    # The WebSocket of a seat opens only with its token.
    from websockets.exceptions import InvalidStatus

    for seat, token in [(0, None), (0, theirs), (1, "nope")]:
        with pytest.raises(InvalidStatus) as refused:
            _ws(server, table, seat, token).close()
        assert refused.value.response.status_code == 403
    with _ws(server, table, 0, mine) as socket:
        first = json.loads(socket.recv(timeout=60))
        assert first["seat"] == 0 and first["table"] == table


@pytest.mark.parametrize("game", ["seven_bridge", "mahjong"])
def test_every_websocket_message_is_a_view_of_the_seat_protocol(server: Server, game: str) -> None:
    """What the WebSocket sends, move after move, is the seat protocol's view
    (its schema), and each view's events tell the last move from that seat's
    side: a card (tile) the seat may not see is never named."""
    from .web_server import protocol

    players = 3 if game == "seven_bridge" else 4
    opened = server.open_table(["human", *["greedy"] * (players - 1)], deals=1, game=game)
    table, token = opened["table"], token_of(opened["seats"][0]["url"])
    seen: list[dict[str, Any]] = []
    with _ws(server, table, 0, token) as socket:
        while len(seen) < 12:
            message = json.loads(socket.recv(timeout=60))
            protocol("view", message)
            seen.append(message)
            if message["your_turn"]:
                move = message["moves"][-1]
                status, _answer = server.request(
                    f"/api/table/{table}/0/move",
                    {"token": token, "index": move["index"], "ply": message["ply"]},
                )
                assert status == 200
    kinds = {e["kind"] for view in seen for e in view["events"]}
    assert "draw" in kinds and "discard" in kinds
    for view in seen:
        for event in view["events"]:
            if event["kind"] == "draw" and event["seat"] != 0:
                assert event["cards"] == [None]


def _turn_of(server: Server, table: str, tokens: dict[int, str]) -> dict[str, Any] | None:
    for seat, token in tokens.items():
        view = server.view(table, seat, token)
        if view["your_turn"]:
            return view
    return None


def test_a_seat_is_sent_its_own_view_and_never_a_hidden_card(server: Server) -> None:
    opened = server.open_table(["human", "greedy", "greedy"], deals=1, seed=7)
    table, token = opened["table"], token_of(opened["seats"][0]["url"])
    view = wait_for(lambda: (v := server.view(table, 0, token))["your_turn"] and v)
    # The position, rebuilt from the stored moves as the server does.
    store = TableStore(server.db)
    loaded = store.load(table)
    assert loaded is not None
    record, moves = loaded
    store.close()
    state = GAME.start(GAME.read_rules(record.rules), 3, record.seed).state
    for move in moves[: view["ply"]]:
        state = apply(state, parse_move(move))
    assert view["observation"] == json.loads(observe(state, 0).to_json())
    assert view["svg"] == svg.table(observe(state, 0), names=view["names"], lang="en")
    everything = json.dumps(view)
    for p in (1, 2):
        for card in state.hand(p):
            assert svg.card_name(card) not in everything
            assert f'"{card}"' not in everything


def test_moves_explanations_and_a_stale_page(server: Server) -> None:
    opened = server.open_table(["human", "random"], deals=1, seed=4, practice=True)
    table, token = opened["table"], token_of(opened["seats"][0]["url"])
    view = wait_for(lambda: (v := server.view(table, 0, token))["your_turn"] and v)
    # The status names only the moves the seat has: chi only when a chi is possible.
    kinds = {m["kind"] for m in view["moves"]}
    assert kinds <= {"Draw", "Chi"} and "Draw" in kinds
    doing = "draw or chi" if "Chi" in kinds else "draw from the stock"
    assert view["status"] == f"Your turn: {doing}"
    base = f"/api/table/{table}/0"
    # A move the engine forbids comes back with its reason, and nothing is played.
    status, answer = server.request(
        base + "/move", {"token": token, "kind": "Discard", "cards": [view["hand"][0]["card"]]}
    )
    assert status == 400 and not answer["ok"]
    assert answer["message"].startswith("Illegal: a turn begins by drawing")
    assert answer["view"]["ply"] == view["ply"]
    # Nonsense is refused as such.
    for body in ({"index": "0"}, {"cards": "7H"}, {"kind": 3}, {"cards": ["7H"] * 30}):
        status, answer = server.request(base + "/move", {"token": token, **body})
        assert status == 400, body
    assert server.request(base + "/move", [1, 2])[0] == 400
    # A page that shows an older position is told the table moved on.
    status, answer = server.request(base + "/move", {"token": token, "index": 0, "ply": 0})
    assert (status, answer["ok"]) == (409, False) and "moved on" in answer["message"]
    draw = next(m for m in view["moves"] if m["kind"] == "Draw")
    status, answer = server.request(
        base + "/move", {"token": token, "index": draw["index"], "ply": view["ply"]}
    )
    assert status == 200 and answer["ok"] and answer["view"]["ply"] == view["ply"] + 1
    # Undo (a practice table) takes the draw back.
    status, answer = server.request(base + "/undo", {"token": token})
    assert status == 200 and answer["view"]["ply"] == view["ply"]
    status, answer = server.request(base + "/next", {"token": token})
    assert status == 400 and "still in play" in answer["message"]


def test_the_lobby_form_opens_a_table_and_hands_out_the_links(server: Server) -> None:
    form = {"game": "seven_bridge", "rules": "nintendo", "players": "3", "deals": "1",
            "seat0": "human", "seat1": "ismcts", "seat2": "human"}  # fmt: skip
    status, page, where = _post_form(server, form)
    # Post/Redirect/Get: the links page has an address of its own, which a reload asks again.
    assert status == 200 and page.count('class="seatlink"') == 2
    assert where.startswith(server.url + "/links/") and "?key=" in where
    tables = len(TableStore(server.db).table_ids())
    again, again_page = server.request(where[len(server.url) :])
    seat_links = re.findall(r'class="seatlink" data-seat="[0-9]+">([^<]*)<', page)
    assert again == 200 and len(seat_links) == 2
    assert re.findall(r'class="seatlink" data-seat="[0-9]+">([^<]*)<', again_page) == seat_links
    assert len(TableStore(server.db).table_ids()) == tables  # the reload opened nothing
    assert server.request(where[len(server.url) :].replace("key=", "key=0"))[0] == 404
    full = re.findall(r'href="([^"]*)" class="seatlink"', page)[0].replace("&amp;", "&")
    assert full.startswith(server.url + "/table/")  # in full, ready to copy and send
    link = full[len(server.url + "/table/") :]
    table, rest = link.split("/", 1)
    seat, token = int(rest.split("?")[0]), token_of(rest)
    view = server.view(table, seat, token)
    assert view["names"] == ["P0", "P1 ismcts", "P2"] and not view["practice"]
    assert view["rules"] == "nintendo"
    assert view["observation"]["rules"]["jokers"] == 1
    # Bad choices are refused with a reason, and no table is made.
    for bad, reason in [
        ({"players": "9"}, "2 to 5 players"),
        ({"players": "100000000"}, "whole numbers"),
        ({"players": "99999999999999999999"}, "whole numbers"),
        ({"seat0": "greedy", "seat2": "greedy"}, "at least one person"),
        ({"seat1": "cmd:python bot.py"}, "not a bot this server offers"),
        ({"seat1": "py:os:_exit"}, "not a bot this server offers"),
        ({"seat1": "wizard"}, "not a bot this server offers"),
        ({"rules": "poker"}, "no rules called"),
        ({"seed": "-5"}, "whole numbers"),
        ({"deals": "x"}, "whole numbers"),
        ({"seed": "8"}, "only at a table of one person"),  # two people here
        ({"practice": "1"}, "for one person"),
        ({"seat2": "greedy", "seed": str(2**63)}, "from 0 to 2**63 - 1"),
    ]:
        status, page, _ = _post_form(server, {**form, **bad})
        assert status == 400 and reason in page, (bad, page[-600:])
    assert len(TableStore(server.db).table_ids()) == tables
    # A form without the lobby's token (a page of another site posting it) is refused.
    status, page, _ = _post_form(server, form, token="")
    assert status == 403 and "out of date" in page
    status, lobby = server.request("/")
    assert status == 200 and 'name="seat4"' in lobby and 'value="cmd"' not in lobby
    assert len(TableStore(server.db).table_ids()) == tables
    # One person alone may choose the seed and practise (undo).
    alone = {**form, "seat2": "greedy", "practice": "1", "seed": "8"}
    status, single, _ = _post_form(server, alone)
    assert status == 200 and single.count('class="seatlink"') == 1
    assert len(TableStore(server.db).table_ids()) == tables + 1


def _post_form(
    server: Server, form: dict[str, str], token: str | None = None
) -> tuple[int, str, str]:
    """Post the lobby's form (with the token of a lobby page just loaded, unless
    ``token`` is given): the status, the page and the address it ended on."""
    import urllib.error
    import urllib.request

    if token is None:
        _, lobby = server.request("/")
        token = lobby.split('name="form_token" value="')[1].split('"')[0]
    data = urllib.parse.urlencode({**form, "form_token": token}).encode()
    try:
        with urllib.request.urlopen(server.url + "/tables", data=data, timeout=60) as answer:
            return answer.status, answer.read().decode(), answer.url
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.url


def test_pages_carry_a_strict_content_policy_and_keep_their_address_at_home(server: Server) -> None:
    import urllib.request

    with urllib.request.urlopen(server.url + "/", timeout=60) as answer:
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy and "script-src 'nonce-" in policy
        assert answer.headers["Referrer-Policy"] == "same-origin"  # no address leaves the site
        page = answer.read().decode()
    nonce = policy.split("'nonce-")[1].split("'")[0]
    assert f'<script nonce="{nonce}">' in page


def test_a_restarted_server_finds_every_table_where_it_stood(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db").start()
    try:
        opened = server.open_table(["human", "greedy", "random"], deals=1, seed=9)
        table, token = opened["table"], token_of(opened["seats"][0]["url"])
        view = wait_for(lambda: (v := server.view(table, 0, token))["your_turn"] and v)
        draw = next(m for m in view["moves"] if m["kind"] == "Draw")
        server.request(
            f"/api/table/{table}/0/move",
            {"token": token, "index": draw["index"], "ply": view["ply"]},
        )
        before = server.view(table, 0, token)
        server.kill()  # a crash: no goodbye
        server.start()
        after = server.view(table, 0, token)
        assert after["observation"] == before["observation"]
        assert (after["ply"], after["your_turn"]) == (before["ply"], True)
        # It plays on.
        discard = next(m for m in after["moves"] if m["kind"] == "Discard")
        status, answer = server.request(
            f"/api/table/{table}/0/move",
            {"token": token, "index": discard["index"], "ply": after["ply"]},
        )
        assert status == 200 and answer["ok"]
        wait_for(lambda: server.view(table, 0, token)["ply"] > after["ply"] + 1)
    finally:
        server.stop()


def test_serve_needs_a_free_port_and_says_so(tmp_path: Path) -> None:
    need_web()
    import socket

    from sevenbridge.web import serve

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(InvalidArgumentError, match=f"cannot listen on 127.0.0.1 port {port}"):
            serve(tmp_path / "t.db", port=port, announce=lambda url: None)


def test_the_web_table_offers_both_games() -> None:
    assert list(TABLE_GAMES) == ["seven_bridge", "mahjong"]
    assert GAME.presets() == Rules.presets()


def test_a_mahjong_table_seats_ghosts_between_two_people_and_plays_a_round(
    tmp_path: Path,
) -> None:
    from sevenbridge import mahjong
    from sevenbridge.web._db import GHOST

    game = TABLE_GAMES["mahjong"]
    rules = game.make_rules("full", 1)
    assert rules.ghosts and rules.rounds == 1
    assert game.real_seats(rules, 2) == (0, 2) and game.seat_total(rules, 2) == 4
    seats = (Seat(HUMAN, "secret"), Seat(GHOST), Seat("greedy"), Seat(GHOST))
    table = TableRecord(id="m1", game="mahjong", rules=game.rules_json(rules), players=2,
                        seed=11, practice=False, seats=seats)  # fmt: skip
    store = TableStore(tmp_path / "t.db")
    store.create(table)
    room = Room(game, table, [], store, pause=0)
    assert room.names == ["P0", "P1", "P2 greedy", "P3"]
    first = room.view(0)
    assert first["deal_word"] == "round" and first["choosable"] == ["Chow", "Kong", "Discard"]
    assert first["observation"] == json.loads(
        mahjong.observe(game.position(room.series), 0).to_json()
    )
    assert _play_out(room, 0) > 5
    result = room.view(0)["result"]
    assert result["title"] == "Round 1 is over" and result["hand_word"] == "Tiles in hand"
    assert [row["seat"] for row in result["rows"]] == [0, 2]  # the ghosts are not counted
    final = game.finished(room.series)[-1]
    assert result["totals"] == list(final.scores) and result["over"]
    # Dealt as the library's matches deal round 0 (play_match's seeds and dealer).
    assert game.start(rules, 2, 11).state == mahjong.deal(
        rules, players=2, dealer=0, seed=_mahjong_round_seed(11)
    )
    loaded = store.load("m1")
    assert loaded is not None
    again = Room(game, loaded[0], loaded[1], store, pause=0)
    assert again.series == room.series


def _mahjong_round_seed(seed: int) -> int:
    from sevenbridge.mahjong.match import _round_seed

    return _round_seed(seed, 0)


def test_the_servers_own_bots_sit_by_name_and_a_stored_seat_it_does_not_offer_never_runs(
    tmp_path: Path,
) -> None:
    import shlex
    import sys

    bot = Path(__file__).resolve().parent.parent / "examples" / "external_bot.py"
    command = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(bot))}"
    crash = f"cmd:{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"
    db = tmp_path / "tables.db"
    server = Server(db, extra=("--bot", f"mine={command}", "--bot", f"crash={crash}")).start()
    try:
        _, lobby = server.request("/")
        assert 'value="mine"' in lobby and 'value="crash"' in lobby and "cmd:" not in lobby
        opened = server.open_table(["human", "mine", "crash"], deals=1, seed=2)
        table, token = opened["table"], token_of(opened["seats"][0]["url"])
        # P1 (the external bot) and P2 (one that crashes) play before P0's first turn.
        view = wait_for(lambda: (v := server.view(table, 0, token))["your_turn"] and v)
        assert view["names"][1:] == ["P1 mine", "P2 crash"]
        assert any(line.startswith("P1 mine ") for line in view["log"])
        assert view["notice"] == "The bot of P2 crash failed; the greedy bot plays that seat now."
        assert sys.executable not in json.dumps(view)  # no command line reaches a seat
        # The operator's bots take no options, and a client cannot name a command.
        for seats in (["human", "mine:x=1"], ["human", command]):
            status, answer = server.request("/api/tables", {"players": 2, "seats": seats})
            assert status == 400 and "not a bot this server offers" in answer["message"]
    finally:
        server.stop()
    # The same tables on a server that does not offer those bots: the seats are never
    # run, the greedy bot plays them, and the table says so.
    again = Server(db).start()
    try:
        view = again.view(table, 0, token)
        assert view["notice"] == (
            "This server does not offer the bot of P2 crash; the greedy bot plays that seat."
        ) or view["notice"].startswith("This server does not offer the bot of P1 mine")
        status, answer = again.request("/api/tables", {"players": 2, "seats": ["human", "mine"]})
        assert status == 400 and "not a bot this server offers" in answer["message"]
    finally:
        again.stop()


def test_serve_without_the_web_extra_says_how_to_install_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    # The extra hidden from the program: importing starlette fails, as where it is missing.
    code = (
        "import sys; sys.modules['starlette'] = None; from sevenbridge.cli import main; "
        f"sys.exit(main(['serve', '--port', '0', '--db', {str(tmp_path / 't.db')!r}]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2
    assert 'the web table needs the web extra: pip install "sevenbridge[web]"' in done.stderr
    assert not (tmp_path / "t.db").exists()


def test_the_status_names_only_the_moves_the_seat_has() -> None:
    """Each set of move kinds a seat can have is said in words naming those
    moves only: no "chi" without a chi, no "meld" without a meld."""
    from sevenbridge import Rules
    from sevenbridge.web._games import CardTableGame

    table = CardTableGame()
    seen: dict[frozenset[str], str] = {}
    for seed in range(30):
        state = deal(Rules(), players=3, seed=seed)
        while not state.is_over and len(seen) < 8:
            view = observe(state)
            kinds = frozenset(type(a).__name__ for a in legal_actions(view))
            status = table.status(view, ["A", "B", "C"], "en")
            seen[kinds] = status
            named = {"Chi": "chi", "Pon": "pon", "LayDown": "meld", "LayOff": "lay off"}
            offered = status.split("(")[0]  # "(nothing to pon)" says why there is none
            for kind, word in named.items():
                assert (word in offered) == (kind in kinds), (kinds, status)
            state = apply(state, legal_actions(state)[-1])
    assert len(seen) >= 5, seen


def test_a_lay_off_names_its_meld_as_the_drawing_does() -> None:
    """A lay-off the page offers carries its meld's index on the table, the
    ``meld-N`` of the drawing a tap on the meld chooses it by."""
    from sevenbridge import LayOff, legal_actions
    from sevenbridge.svg import table

    from .svgcheck import random_play

    game = CardTableGame()
    start = deal(Rules.preset("nintendo"), players=3, seed=7)
    found = 0
    for state in random_play(start, legal_actions, apply, 7):
        offs = [a for a in legal_actions(state) if isinstance(a, LayOff)]
        if not offs:
            continue
        view = observe(state, offs[0].player)
        drawn = table(view, layout="narrow")
        for action in offs:
            move = game.describe(action, "en", view, ["P0", "P1", "P2"])
            assert move["target"] == action.target
            assert f'id="meld-{action.target}"' in drawn
            found += 1
    assert found > 5, found


# -- a table people come back to ------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", ["seven_bridge", "mahjong"])
def test_each_presets_rules_sheet_states_every_setting_it_has(name: str, lang: str) -> None:
    """The sheet is read from the preset's rules: each field with its value, the
    ones that differ from the standard rules marked, a label in the language."""
    import enum

    from sevenbridge._kit.i18n import translator
    from sevenbridge.mahjong.text import TILE_LEGEND
    from sevenbridge.web._rules import LABELS, rules_body

    game = TABLE_GAMES[name]
    standard = game.make_rules("standard", None)
    _ = translator(lang)
    for preset in game.presets():
        rules = game.make_rules(preset, None)
        sheet = rules_body(game, preset, lang, lambda p: f"/rules/{name}/{p}")
        rows = dict(re.findall(r'<tr data-field="([a-z_]+)" data-value="([^"]*)"', sheet))
        fields = attrs.fields(type(rules))
        assert sorted(rows) == sorted(f.name for f in fields), preset
        for field in fields:
            value = getattr(rules, field.name)
            shown = value.value if isinstance(value, enum.Enum) else value
            assert rows[field.name] == str(shown), (preset, field.name)
            assert f"<th>{_(LABELS[field.name])}</th>" in sheet
            changed = f'data-field="{field.name}" data-value="{shown}" class="changed"' in sheet
            assert changed == (value != getattr(standard, field.name)), (preset, field.name)
        others = [p for p in game.presets() if p != preset]
        assert all(f'href="/rules/{name}/{p}"' in sheet for p in others)
        if lang == "ja":
            assert "Jokers in the deck" not in sheet and "The settings" not in sheet
        assert (_(TILE_LEGEND) in sheet) == (name == "mahjong")


def test_the_log_is_told_from_events_in_each_seats_language(tmp_path: Path) -> None:
    """A seat's own draw names the card; another seat's says only that a card
    was drawn; each seat reads its log, status and refusals in its own language."""
    store = TableStore(tmp_path / "t.db")
    table = _table([HUMAN, HUMAN, "greedy"], seed=5)
    store.create(table)
    room = Room(GAME, table, [], store, pause=0)
    room.set_lang(1, "ja")

    async def go() -> None:
        for _step in range(40):
            position = GAME.position(room.series)
            legal = GAME.legal_actions(position)
            seat = GAME.player(legal[0])
            if seat == 2 or room.paused:
                return
            draws = [i for i, a in enumerate(legal) if type(a).__name__ == "Draw"]
            index = draws[0] if draws else 0
            await room.play(seat, len(room.moves), index=index)
            if draws:
                drawn = set(GAME.position(room.series).hand(seat)) - set(position.hand(seat))
                (card,) = drawn
                mine = room.view(seat)["log"][-1]
                other = room.view(1 - seat)["log"][-1]
                word = _card_word(card, room.lang_of(seat))  # as the log words a card
                assert word in mine and word not in other, (mine, other)
                assert mine.startswith("You draw" if seat == 0 else "あなた")
                assert other.startswith("P1 " if seat == 1 else "P0")
                return
            if room.runner is not None:
                room.runner.cancel()

    asyncio.run(go())
    assert store.load("t1") is not None and store.load("t1")[0].langs == ((1, "ja"),)  # type: ignore[index]
    en, ja = room.view(0), room.view(1)
    assert en["lang"] == "en" and ja["lang"] == "ja"
    assert en["names"][2] == "P2 greedy" and ja["names"][2] == "P2 欲張り"
    assert en["rules_url"].endswith("?lang=en") and ja["rules_url"].endswith("?lang=ja")
    assert ja["log"] and all(re.search(r"[\u3040-\u30ff]", line) for line in ja["log"])
    assert all(not re.search(r"[\u3040-\u30ff]", line) for line in en["log"])
    who = GAME.player(GAME.legal_actions(GAME.position(room.series))[0])
    wrong = 1 - who if who in (0, 1) else 1

    async def refused() -> str:
        try:
            await room.play(wrong, None, index=0)
        except Refusal as refusal:
            return refusal.message
        raise AssertionError("played out of turn")

    message = asyncio.run(refused())
    assert bool(re.search(r"[\u3040-\u30ff]", message)) == (wrong == 1), message


def test_a_mahjong_log_keeps_claim_answers_unsaid_until_the_window_closes() -> None:
    """Another seat's answer in a claim window (a claim or a pass) makes no line
    of the log: only the window's close tells which claim stood."""
    from sevenbridge import mahjong as mj

    game = TABLE_GAMES["mahjong"]
    told = 0
    for seed in range(6):
        state = mj.deal(mj.Rules(), players=4, seed=seed)
        while not state.is_over:
            legal = mj.legal_actions(state)
            action = legal[-1]  # claims come after the pass: claim whenever one can
            after = mj.apply(state, action)
            for seat in range(4):
                line = game.log_line(state, action, after, [f"P{s}" for s in range(4)], seat, "en")
                claim = state.phase is mj.Phase.CLAIM and action.player != seat
                if claim and after.phase is mj.Phase.CLAIM:
                    assert line == "", line  # the window is still open
                if claim and type(action).__name__ != "Pass" and after.phase is mj.Phase.CLAIM:
                    told += 1
            state = after
    assert told > 0  # some claim was made while the window stayed open


def test_a_pace_is_kept_with_its_table_and_a_play_again_table_sits_the_same_seats(
    server: Server,
) -> None:
    opened = server.open_table(["human", "greedy", "random"], deals=1, seed=8, pause="0.3")
    table, token = opened["table"], token_of(opened["seats"][0]["url"])
    stored = TableStore(server.db).load(table)
    assert stored is not None and stored[0].pause == 0.3
    assert opened["seats"][0]["address"] == server.url + opened["seats"][0]["url"]
    assert opened["links_address"] == server.url + opened["links"]
    # Not before the match is over.
    status, answer = server.request(f"/api/table/{table}/0/again", {"token": token})
    assert status == 400 and answer["message"] == "The match is not over yet."
    view = server.view(table, 0, token)
    while not view["result"]:
        if view["your_turn"]:
            server.request(f"/api/table/{table}/0/move",
                           {"token": token, "index": 0, "ply": view["ply"]})  # fmt: skip
        view = server.view(table, 0, token)
    assert view["again"] is None
    status, answer = server.request(f"/api/table/{table}/0/again", {"token": token})
    assert status == 200 and answer["ok"]
    new = answer["view"]["again"]
    assert new and new != table
    # Asked again, the same table; the new one keeps the seats, bots, rules and pace.
    assert (
        server.request(f"/api/table/{table}/0/again", {"token": token})[1]["view"]["again"] == new
    )
    first, second = TableStore(server.db).load(table), TableStore(server.db).load(new)
    assert first is not None and second is not None
    assert second[0].seats == first[0].seats and second[0].rules == first[0].rules
    assert second[0].seed == first[0].seed + 1 and second[0].pause == 0.3 and second[1] == []
    fresh = server.view(new, 0, token)
    assert fresh["result"] is None and fresh["names"] == view["names"]


def test_the_lobby_offers_the_pace_and_keeps_the_one_chosen(server: Server) -> None:
    _, lobby = server.request("/")
    offered = re.findall(r'<option value="([^"]*)">[^<]*</option>', lobby.split('id="pause"')[1])
    assert offered[0] == ""  # the server's own pace, whatever --pause says
    assert all(float(p) <= 5 for p in offered[1:]) and len(offered) >= 3
    form = {
        "game": "seven_bridge",
        "players": "2",
        "deals": "1",
        "seat0": "human",
        "seat1": "greedy",
    }
    for pace, kept in (("", None), ("1.5", 1.5)):
        status, _page, where = _post_form(server, {**form, "pause": pace})
        assert status == 200
        table = where.split("/links/")[1].split("?")[0]
        stored = TableStore(server.db).load(table)
        assert stored is not None and stored[0].pause == kept
    status, page, _where = _post_form(server, {**form, "pause": "60"})
    assert status == 400 and "pace" in page


def test_the_lobby_hands_its_language_to_the_links_page(server: Server) -> None:
    form = {
        "game": "seven_bridge",
        "players": "2",
        "deals": "1",
        "seat0": "human",
        "seat1": "greedy",
    }
    for asked, html_lang in (("ja", "ja"), ("en", "en"), ("xx", "en"), ("j" * 500, "en")):
        status, page, where = _post_form(server, {**form, "lang": asked})
        assert status == 200 and f'<html lang="{html_lang}">' in page, asked
        assert where.endswith(f"&lang={asked}") == (asked in ("ja", "en"))

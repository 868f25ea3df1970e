"""What the replay viewer and the terminal game say of each move: the words of
its events (:func:`sevenbridge.narration`), as one seat knows them. For random
deals of both games under every preset, no line a seat is told names a card
(a tile) that the seat's view of the position before or after the move does
not show; and through a pseudo-terminal, a claim window is told as it went."""

from __future__ import annotations

import base64
import gzip
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest

import sevenbridge
from sevenbridge import Event, narration
from sevenbridge._kit.events import Narrator
from sevenbridge._kit.rng import seat_seed
from sevenbridge.bots import GreedyPlayer, RandomPlayer
from sevenbridge.cards import CARDS
from sevenbridge.cli.play import BOTS, CardPart, _Style
from sevenbridge.cli.play_mahjong import MahjongPart
from sevenbridge.cli.seat import Game
from sevenbridge.errors import Message
from sevenbridge.games import GAMES, game_module
from sevenbridge.html import _move_list, record_page

#: A card in words, with its suit as a letter (``10H``) or a symbol (``10♥``).
_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([CDHS♣♦♥♠])(?![0-9A-Za-z])")
_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
#: A tile in English words: ``5m``, a wind, a dragon.
_TILE = re.compile(r"(?<![0-9A-Za-z'])([1-9][mps]|Wd|Gd|Rd|[ESWN])(?![0-9A-Za-z])")


def _cards_named(line: str) -> set[str]:
    return {rank + _SUIT.get(suit, suit) for rank, suit in _CARD.findall(line)}


def _tiles_named(line: str) -> set[str]:
    return set(_TILE.findall(line))


def _seen_cards(view: Any) -> set[str]:
    """Every card a card-game view shows: the hand, the melds (and what their
    jokers stand for), the discard pile, a waiting pon's cards, shown hands."""
    seen = {str(c) for c in view.hand} | {str(c) for c in view.discard_pile}
    for meld in view.melds:
        seen |= {str(c) for c in meld.cards}
        if meld.joker_as is not None:
            seen.add(str(meld.joker_as))
    if view.pending_pon is not None:  # (player, its hand cards as a mask, the joker's card)
        _player, mask, joker = view.pending_pon
        seen |= {str(c) for c in CARDS if mask >> c.index & 1}
        if joker >= 0:
            seen.add(str(CARDS[joker]))
    if view.shown_hands is not None:
        for mask in view.shown_hands:
            seen |= {str(c) for c in CARDS if mask >> c.index & 1}
    return seen


def _seen_tiles(view: Any) -> set[str]:
    """Every kind of tile a mahjong view shows: the hand, the melds, the
    discards, the bonus tiles, the open discard, the view's own claims, shown hands."""
    tiles: list[Any] = [*view.hand, *(t for row in view.discards for t in row)]
    tiles += [t for meld in view.melds for t in meld.tiles]
    tiles += [t for row in view.bonus for t in row]
    if view.last_discard is not None:
        tiles.append(view.last_discard)
    if view.shown_hands is not None:
        tiles += [t for hand in view.shown_hands for t in hand]
    seen = {str(t) for t in tiles}
    for claim in view.own_claims:
        seen |= {str(t) for t in getattr(claim, "tiles", ())}
    return seen


def _check(game: str, line: str, views: list[Any]) -> None:
    """``line`` names nothing that ``views`` (one seat's, around the move) do
    not show; in mahjong, it tells no other seat's pass or claim before the
    window closes (those are its answers)."""
    if game == "mahjong":
        assert not re.search(r"\bP[0-9] (calls|passes)", line), line
        named, seen = _tiles_named(line), set().union(*(_seen_tiles(v) for v in views))
    else:
        named, seen = _cards_named(line), set().union(*(_seen_cards(v) for v in views))
    assert named <= seen, (line, named - seen)


def _played(game: str, preset: str, players: int, seed: int) -> list[Any]:
    """The positions of a deal (a round) between random and greedy bots."""
    module = game_module(game)
    state = module.deal(module.Rules.preset(preset), players=players, seed=seed)
    bots = {p: (GreedyPlayer if (seed + p) % 2 else RandomPlayer)(seed * 10 + p)
            for p in module.seats(state)}  # fmt: skip
    positions = [state]
    while not state.is_over and len(positions) < 400:
        player = state.current_player
        if player in bots:
            action = bots[player](module.observe(state))
        else:  # a ghost
            action = module.legal_actions(state)[0]
        state = module.apply(state, action)
        positions.append(state)
    return positions


def _cases() -> list[tuple[str, str, int, int]]:
    cases = []
    for game in GAMES:
        module = game_module(game)
        for k, preset in enumerate(module.Rules.presets()):
            for players in module.PLAYER_COUNTS:
                for seed in (1, 2, 3):
                    cases.append((game, preset, players, 1000 * k + 10 * players + seed))
    return cases


CASES = _cases()


def test_the_cases_cover_both_games_and_every_preset() -> None:
    for game in GAMES:
        presets = {c[1] for c in CASES if c[0] == game}
        assert presets == set(game_module(game).Rules.presets())


@pytest.mark.parametrize(("game", "preset", "players", "seed"), CASES)
def test_the_viewers_words_name_no_card_a_seat_cannot_see(
    game: str, preset: str, players: int, seed: int
) -> None:
    module = game_module(game)
    positions = _played(game, preset, players, seed)
    seats = list(module.seats(positions[0]))
    lines = _move_list(game, positions, None, seats, "en")
    told = 0
    for line in lines:
        if line.deal:
            continue
        for view, seat in enumerate(seats, start=1):
            around = positions[line.first - 1 : line.last + 1]
            views = [module.observe(state, seat) for state in around]
            for words in (line.text[view], line.quiet[view]):
                _check(game, words, views)
                told += bool(words)
    assert told


def test_the_page_carries_each_seats_words() -> None:
    """The page's words of each position from each point of view are the move
    list's (the words so far of the line that tells the position), and the
    page's move list opens on the all-hands view's."""
    for game in GAMES:
        module = game_module(game)
        positions = _played(game, "standard", module.GAME.players, 7)
        text = module.record(positions[-1])
        page = record_page(text)
        packed = re.search(r'id="said-data">(.*?)</script>', page, re.S)
        assert packed is not None
        said = json.loads(gzip.decompress(base64.b64decode(packed[1])))
        seats = list(module.seats(positions[0]))
        lines = _move_list(game, module.replay(text), None, seats, "en")
        assert sum(len(x.steps) for x in lines) == len(positions)
        for view in range(1 + len(seats)):
            got = [said["texts"][n] for n in said["views"][view]]
            assert got == [w for x in lines for t, q in x.steps for w in (t[view], q[view])]
        items = re.findall(
            r'<span class="said">(.*?)</span><span class="quiet">(.*?)</span>', page, re.S
        )
        assert items == [(escape(x.text[0]), escape(x.quiet[0])) for x in lines]


def _part(game: str) -> Any:
    if game == "mahjong":
        return MahjongPart(colour=False)
    return CardPart(_Style(symbols=False, colour=False))


@pytest.mark.parametrize(("game", "preset", "players", "seed"), CASES)
def test_the_terminals_words_name_no_card_the_seat_cannot_see(
    game: str, preset: str, players: int, seed: int
) -> None:
    """The person's seat plays its first move at every question; each line
    the terminal tells is checked against the seat's views of the positions
    since the line before it."""
    module = game_module(game)
    state = module.deal(module.Rules.preset(preset), players=players, seed=seed)
    seats = list(module.seats(state))
    seat = seats[seed % len(seats)]
    bots = {
        p: BOTS["random" if p % 2 else "greedy"](seat_seed(seed, p)) for p in seats if p != seat
    }
    out = io.StringIO()
    play = Game(state, seat, bots, _part(game), io.StringIO("1\n" * 2000), out,
                save_to=os.devnull)  # fmt: skip
    positions: list[Any] = []
    told: list[tuple[str, int, int]] = []
    since = [0]
    events = play.part.events

    def seen(game_: Any, before: Any, action: Any, after: Any) -> Any:
        if not positions:
            positions.append(before)
        positions.append(after)
        return events(game_, before, action, after)

    def tell(lines: Any) -> None:
        for line in lines:
            told.append((line, since[0], len(positions)))
        since[0] = max(len(positions) - 2, 0)

    play.part.events = seen  # type: ignore[method-assign,assignment]
    play.tell = tell  # type: ignore[method-assign]
    assert play.play() == 0
    assert told
    for line, first, end in told:
        views = [module.observe(s, seat) for s in positions[first:end]]
        _check(game, line, views)


def test_passes_in_a_row_are_told_as_one_line() -> None:
    def passed(seat: int) -> Event:
        return Event("pass", seat, text=Message("move.pass", "{who} passes", who=f"P{seat}"))

    mine = Event("pass", 0, text=Message("move.pass.you", "You pass"))
    draw = Event("draw", 1, (None,), text=Message("move.draw", "{who} draws", who="P1"))
    assert narration([passed(1), passed(2), draw]) == ["P1, P2 pass", "P1 draws"]
    assert narration([passed(1), mine, passed(2)]) == ["P1 passes", "You pass", "P2 passes"]
    assert narration([passed(1), passed(2)], "ja") == ["P1、P2はパス"]
    teller = Narrator()
    assert teller.tell([passed(1)]) == [] and teller.tell([passed(2)]) == []
    assert teller.flush() == ["P1, P2 pass"] and teller.flush() == []


def test_each_seat_is_told_its_own_draw_and_not_anothers() -> None:
    state = sevenbridge.deal(seed=1)
    drawn = sevenbridge.apply(state, sevenbridge.Draw(1)).hand(1)
    card = next(c for c in drawn if c not in state.hand(1))
    said = {v: narration(sevenbridge.events(state, sevenbridge.Draw(1), viewer=v), symbols=False)
            for v in (None, 0, 1)}  # fmt: skip
    assert said[1] == [f"You draw {card}"]
    assert said[0] == ["P1 draws from the stock"]
    assert said[None] == [f"P1 draws {card}"]  # the all-seeing sees every card


# --- through a pseudo-terminal ------------------------------------------------------------

PROMPT = "your move> "


def _spawn(tmp_path: Path, *args: str) -> Any:
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="dumb", PYTHONIOENCODING="utf-8", NO_COLOR="1")
    return pexpect.spawn(sys.executable, ["-m", "sevenbridge", "play", *args],
                         cwd=str(tmp_path), env=env, encoding="utf-8", timeout=60,
                         dimensions=(50, 160))  # fmt: skip


def test_a_chow_that_gives_way_to_a_win_is_told(tmp_path: Path) -> None:
    """Seed 5 of Simple Mahjong: P0 calls chow whenever it can; one chow
    gives way to P2's mahjong on the same discard, and the terminal says so,
    after the other seats' answers, which it tells only as answers."""
    pexpect = pytest.importorskip("pexpect")
    mj = game_module("mahjong")
    seed = 5
    state = mj.deal(mj.Rules.preset("standard"), players=4, seed=seed)
    bots = {p: BOTS["greedy"](seat_seed(seed, p)) for p in (1, 2, 3)}
    child = _spawn(tmp_path, "--game", "mahjong", "--seed", str(seed))
    out = ""
    while True:
        found = child.expect_exact([PROMPT, pexpect.EOF])
        out += child.before.replace("\r", "")
        if found == 1:
            break
        while True:  # the mirror plays up to the person's question
            actions = mj.legal_actions(state)
            if state.current_player == 0 and len(actions) > 1:
                break
            player = state.current_player
            action = actions[0] if player == 0 else bots[player](mj.observe(state))
            state = mj.apply(state, action)
        chows = [a for a in actions if isinstance(a, mj.Chow)]
        pick = actions.index(chows[0]) if chows else 0
        state = mj.apply(state, actions[pick])
        child.sendline(str(pick + 1))
    assert "You call chow on P3's 9s with" in out
    assert "P2 declares mahjong on P3's 9s, winning 1 point\n  Your chow gives way" in out
    assert re.search(r"^  P[1-3](, P[1-3])* answers? the claim window$", out, re.M)
    # Another seat's draw is told without its tile; the person's own names it.
    assert re.search(r"^  P[1-3] draws a tile$", out, re.M)
    assert re.search(r"^  You draw [1-9][mps]|^  You draw (Wd|Gd|Rd|[ESWN])", out, re.M)
    assert not re.search(r"^  P[1-3] draws [1-9]", out, re.M)


def test_a_card_game_claim_window_is_told(tmp_path: Path) -> None:
    """Seed 72, answering 1 throughout: the passes of a claim window in one
    line, the claims made, another player's draw without its card."""
    pexpect = pytest.importorskip("pexpect")
    child = _spawn(tmp_path, "--seed", "72", "--ascii")
    out = ""
    while True:
        found = child.expect_exact([PROMPT, pexpect.EOF])
        out += child.before.replace("\r", "")
        if found == 1:
            break
        child.sendline("1")
    assert "\n  You discard KC\n  P1, P2 pass\n  P1 draws from the stock\n" in out
    assert "\n  P2 calls chi on JD with 10D QD\n" in out
    assert "\n  P2 passes\n  You pass  (your only move, played for you)\n" in out
    assert not _cards_named("\n".join(re.findall(r"^  P[12] draws.*$", out, re.M)))
    assert re.search(r"^  You draw (10|[2-9AJQK])[CDHS]", out, re.M)


def test_the_demo_tells_claim_windows_in_their_events_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The card game's demo tells a claim window's passes in one line; the
    mahjong demo tells the claims that stood in their events' words."""
    from sevenbridge.cli import main

    assert main(["demo", "--ascii", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "\n  P0 discards JS\n  P1, P2 pass\n" in out
    assert main(["demo", "--game", "mahjong", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "\n  P2's chow on P1's 8m stands: 6m 7m 8m\n" in out
    assert "\n  P3 declares mahjong on P0's 8p, winning 1 point\n" in out
    assert " PUNG " not in out and " CHOW " not in out

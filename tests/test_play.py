"""``sevenbridge play`` driven through a pseudo-terminal, as a person would: a
whole deal with wrong input, hints, questions, undo, quitting and Ctrl-D."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import GameState, Rules, apply, deal, legal_actions, observe, replay
from sevenbridge._kit.rng import seat_seed
from sevenbridge.bots import GreedyPlayer, Player
from sevenbridge.cli.play import BOTS
from sevenbridge.text import deal_words

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent

pexpect = pytest.importorskip("pexpect")

PROMPT = "your move> "
SEED = 72


def spawn(tmp_path: Path, *args: str, columns: int = 140) -> Any:
    env = dict(os.environ, TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "sevenbridge", "play", *args],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, columns),
    )


def play_ones(child: Any, prompt: str = PROMPT) -> tuple[str, int]:
    """Answer 1 at every prompt to the end of the deal: the whole output (its
    colours taken out) and how many times the program asked."""
    out, asked = "", 0
    while True:
        found = child.expect_exact([prompt, pexpect.EOF])
        out += child.before
        if found == 1:
            break
        asked += 1
        child.sendline("1")
    child.close()
    assert child.exitstatus == 0
    return re.sub(r"\x1b\[[0-9;]*m", "", out.replace("\r", "")), asked


#: A deal that P0 wins by always playing its first legal move (standard rules,
#: 3 players, greedy bots), with 13 moves of P0's that were its only one.
WIN_SEED, WIN_LONE = 10, 13


def first_moves_deal(
    seed: int, preset: str = "standard", players: int = 3
) -> tuple[GameState, int, int]:
    """The deal the program plays when P0 always answers 1, its decisions and
    lone moves: the same bots, seeded as the program seeds them."""
    state = deal(Rules.preset(preset), players=players, seed=seed)
    bots = {p: BOTS["greedy"](seat_seed(seed, p)) for p in range(1, players)}
    decisions = lone = 0
    while not state.is_over:
        player = state.current_player
        assert player is not None
        if player == 0:
            legal = legal_actions(state)
            decisions += 1
            lone += len(legal) == 1
            state = apply(state, legal[0])
        else:
            state = apply(state, bots[player](observe(state)))
    return state, decisions, lone


def test_the_end_of_a_deal_says_who_won_and_why(tmp_path: Path) -> None:
    final, decisions, lone = first_moves_deal(WIN_SEED)
    assert final.winner == 0 and lone == WIN_LONE
    child = spawn(tmp_path, "--seed", str(WIN_SEED), "--record", "won.txt")
    out, asked = play_ones(child)
    # Lone moves are played for the person, and the terminal says so.
    assert asked == decisions - lone
    assert out.count("(your only move, played for you)") == lone
    assert "== You went out! ==" in out
    for line in deal_words(final, you=0):
        assert line in out, line
    # Each loser's hand, its points and why; the score and what it means.
    assert "  P1: " in out and "under standard card values" in out
    assert "(The winner scores the points left in the other hands.)" in out
    # "You" for the person, suit symbols in every message, no internal words.
    assert "P0 (you) draws" not in out and "player 0" not in out
    assert "You draw " in out and "You discard " in out
    assert not re.search(r"discards (10|[2-9AJQK])[CDHS]\b", out)
    assert "keep value" not in out and "_timing" not in out
    assert replay((tmp_path / "won.txt").read_text(encoding="utf-8"))[-1] == final


def test_no_auto_asks_even_for_a_lone_move(tmp_path: Path) -> None:
    _final, decisions, lone = first_moves_deal(WIN_SEED)
    child = spawn(tmp_path, "--seed", str(WIN_SEED), "--no-auto")
    out, asked = play_ones(child)
    assert asked == decisions and lone > 0
    assert "played for you" not in out
    assert "You went out!" in out


def test_a_waiting_pon_is_told_before_the_person_is_asked(tmp_path: Path) -> None:
    """Under the Nintendo rules a pon waits while the players still to be asked
    may overtake it with the joker: the person asked about the same card is told."""
    child = spawn(tmp_path, "--seed", "1", "--rules", "nintendo", "--players", "4", "--no-auto")
    out, _asked = play_ones(child)
    told = out.index("has called pon on 5♣; it waits until the players still to be asked pass")
    called = out.index("P2 calls pon on 5♣")
    assert called < told < out.index("Your moves:", told)


@pytest.mark.parametrize(("lang", "columns"), [("en", 60), ("ja", 50)])
def test_text_is_folded_to_the_terminal_width(tmp_path: Path, lang: str, columns: int) -> None:
    from sevenbridge._kit.i18n import width

    final, _decisions, _lone = first_moves_deal(WIN_SEED)
    child = spawn(tmp_path, "--seed", str(WIN_SEED), "--lang", lang, columns=columns)
    out, _asked = play_ones(child, PROMPT if lang == "en" else "あなたの番> ")
    lines = out.split("\n")
    assert max(width(line) for line in lines) <= columns
    # Folded between words (Japanese: between characters), nothing lost or cut.
    flat = "".join(out.split()) if lang == "ja" else " ".join(out.split())
    for line in deal_words(final, you=0, lang=lang):
        wanted = "".join(line.split()) if lang == "ja" else " ".join(line.split())
        assert wanted in flat, line
    long = max(deal_words(final, you=0, lang=lang), key=width)
    assert width(long) > columns  # so the test folds something


class Mirror:
    """The same deal and bots as the program, to know what it must show."""

    def __init__(self, preset: str, players: int, seat: int, bot: str) -> None:
        self.state = deal(Rules.preset(preset), players=players, seed=SEED)
        self.seat = seat
        self.bots: dict[int, Player] = {
            p: BOTS[bot](SEED * 10 + p) for p in range(players) if p != seat
        }

    def to_my_turn(self) -> GameState:
        while not self.state.is_over and self.state.current_player != self.seat:
            player = self.state.current_player
            assert player is not None
            self.state = apply(self.state, self.bots[player](observe(self.state)))
        return self.state


@pytest.mark.parametrize(("preset", "players"), [("standard", 3), ("nintendo", 4)])
def test_a_person_plays_a_whole_deal_through_the_terminal(
    tmp_path: Path, preset: str, players: int
) -> None:
    child = spawn(tmp_path, "--rules", preset, "--players", str(players), "--seat", "0",
                  "--bots", "greedy", "--seed", str(SEED), "--practice", "--no-auto",
                  "--record", "game.txt")  # fmt: skip
    mirror = Mirror(preset, players, 0, "greedy")
    me = GreedyPlayer(9)
    state = mirror.to_my_turn()
    child.expect_exact(PROMPT)
    # Colours and suit symbols on a terminal that has them.
    assert "\x1b[31m" in child.before and "♥" in child.before
    # Wrong input first: garbage gets help, an illegal move gets the rule.
    child.sendline("xyzzy")
    child.expect_exact("I did not understand 'xyzzy'")
    child.expect_exact(PROMPT)
    hand_card = state.hand(0)[0]
    child.sendline(f"Discard {hand_card}")
    child.expect_exact("Illegal: a turn begins by drawing from the stock")
    child.expect_exact(PROMPT)
    child.sendline("99")
    child.expect_exact("There is no move 99")
    child.expect_exact(PROMPT)
    child.sendline("why 1")
    child.expect_exact("Legal. P0 draws the top card of the stock")
    child.expect_exact(PROMPT)
    child.sendline("hint")
    child.expect(r"Hint: \S+")
    child.expect_exact(PROMPT)
    child.sendline("rules")
    child.expect_exact("Melds: a set")
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect_exact("Nothing to undo yet.")
    child.expect_exact(PROMPT)
    child.sendline("help")
    child.expect_exact("Commands: hint, why MOVE")
    child.expect_exact(PROMPT)

    decisions = 0
    undone = False
    previous: GameState | None = None
    while not state.is_over:
        actions = legal_actions(state)
        if decisions == 2 and not undone:
            child.sendline("undo")
            child.expect_exact("Undone: back to your previous decision.")
            child.expect_exact(PROMPT)
            undone = True
            assert previous is not None
            mirror.state = state = previous
            # The program's bots are asked again from there; so are the mirror's.
            actions = legal_actions(state)
        action = me(observe(state))
        # Alternate between the move's number and its notation.
        if decisions % 2:
            child.sendline(str(actions.index(action) + 1))
        else:
            child.sendline(str(action))
        previous = state
        mirror.state = apply(state, action)
        decisions += 1
        state = mirror.to_my_turn()
        if not state.is_over:
            child.expect_exact(PROMPT)
            # The program shows the position the mirror reached: same stock, same moves.
            assert f"stock: {state.stock_size}" in child.before
            shown = child.before.replace("\r", "")
            n = len(legal_actions(state))
            assert f"\n  {n:>2}  " in shown and f"\n  {n + 1:>2}  " not in shown
    child.expect_exact("End of the deal.")
    child.expect_exact("Record saved to game.txt.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert decisions >= 5
    final = replay((tmp_path / "game.txt").read_text(encoding="utf-8"))[-1]
    assert final.is_over
    assert final.end_reason == state.end_reason
    assert final.deal_scores == state.deal_scores


def test_ctrl_d_saves_the_record_and_exits(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", str(SEED), "--record", "partial.txt", "--ascii")
    child.expect_exact(PROMPT)
    child.sendline("Draw")
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect_exact("Record saved to partial.txt.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    states = replay((tmp_path / "partial.txt").read_text(encoding="utf-8"))
    assert not states[-1].is_over
    assert states[-1].current_player == 0 and len(states[-1].hand(0)) == 8


def test_quit_offers_to_save(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", str(SEED), "--no-color")
    child.expect_exact(PROMPT)
    assert "\x1b[" not in child.before
    child.sendline("quit")
    child.expect_exact("Save the record? [y/N]")
    child.sendline("y")
    child.expect_exact("File name [sevenbridge-72.txt]:")
    child.sendline("mine.txt")
    child.expect_exact("Record saved to mine.txt.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert replay((tmp_path / "mine.txt").read_text(encoding="utf-8"))
    child = spawn(tmp_path, "--seed", str(SEED), "--bots", "ismcts,random")
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect_exact("Undo is for practice games")
    child.sendline("quit")
    child.expect_exact("Save the record? [y/N]")
    child.sendline("n")
    child.expect_exact("Goodbye.")
    child.expect(pexpect.EOF)


def test_japanese_terminal(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", str(SEED), "--lang", "ja", "--bots", "random", "--no-auto")
    child.expect_exact("あなたの番> ")
    assert "山札" in child.before and "捨て札" in child.before
    child.sendline("rules")
    child.expect_exact("メルド")
    child.sendline("why 1")
    child.expect_exact("合法。P0は山札")
    child.sendline("Discard 2C")
    child.expect_exact("不可：手番は山札から引く")
    child.sendline("quit")
    child.expect_exact("記録を保存しますか")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_bad_arguments(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--players", "3", "--seat", "4")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "--seat must be 0 to 2" in child.before
    child = spawn(tmp_path, "--bots", "greedy,smart")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "--bots takes one name or 2 names" in child.before
    child = spawn(tmp_path, "--players", "3", "--seat", "4", "--lang", "ja")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "--seatは0から2です" in child.before


def test_why_writes_cards_with_their_suit_symbols(tmp_path: Path) -> None:
    mirror = Mirror("standard", 3, 0, "greedy")
    state = mirror.to_my_turn()
    child = spawn(tmp_path, "--seed", str(SEED), "--no-color", "--no-auto")
    child.expect_exact(PROMPT)
    child.sendline("Draw")
    state = apply(state, legal_actions(state)[0])
    card = state.hand(0)[0]
    child.expect_exact(PROMPT)
    child.sendline(f"why Discard {card}")
    child.expect_exact(f"Legal. P0 discards {format(card, 'u')}, ending the turn.")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.sendline("n")
    child.expect(pexpect.EOF)

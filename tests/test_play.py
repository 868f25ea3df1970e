"""``sevenbridge play`` driven through a pseudo-terminal, as a person would: a
whole deal with wrong input, hints, questions, undo, quitting and Ctrl-D."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import GameState, Rules, apply, deal, legal_actions, observe, replay
from sevenbridge.bots import GreedyPlayer, Player
from sevenbridge.cli.play import BOTS

pexpect = pytest.importorskip("pexpect")

PROMPT = "your move> "
SEED = 72


def spawn(tmp_path: Path, *args: str) -> Any:
    env = dict(os.environ, TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "sevenbridge", "play", *args],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 140),
    )


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
                  "--bots", "greedy", "--seed", str(SEED), "--practice",
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
    child = spawn(tmp_path, "--seed", str(SEED), "--lang", "ja", "--bots", "random")
    child.expect_exact("あなたの手> ")
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
    assert child.exitstatus == 2 and "--seat は0から2です" in child.before

"""``sevenbridge play --game mahjong`` driven through a pseudo-terminal, as a
person would: a whole round with wrong input, hints, questions, undo, lone
moves played for the person, and the record."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from sevenbridge.bots import GreedyPlayer, Player
from sevenbridge.cli.play import BOTS
from sevenbridge.games import game_module

pexpect = pytest.importorskip("pexpect")
mj = game_module("mahjong")

PROMPT = "your move> "
SEED = 72


def spawn(tmp_path: Path, *args: str) -> Any:
    env = dict(os.environ, TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "sevenbridge", "play", "--game", "mahjong", *args],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 140),
    )


class Mirror:
    """The same round and bots as the program, to know what it must show; the
    person's lone moves are played as the program plays them."""

    def __init__(self, players: int, seat: int) -> None:
        self.state = mj.deal(mj.Rules.preset("standard"), players=players, seed=SEED)
        self.seat = seat
        self.bots: dict[int, Player] = {
            p: BOTS["greedy"](SEED * 10 + p) for p in self.state.real_seats if p != seat
        }
        self.lone = 0

    def to_my_decision(self) -> Any:
        while not self.state.is_over:
            player = self.state.current_player
            actions = mj.legal_actions(self.state)
            if player == self.seat:
                if len(actions) > 1:
                    break
                self.lone += 1
                action = actions[0]
            else:
                action = self.bots[player](mj.observe(self.state))
            self.state = mj.apply(self.state, action)
        return self.state


def test_a_person_plays_a_whole_round_of_mahjong(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--players", "4", "--seed", str(SEED), "--practice",
                  "--record", "round.txt")  # fmt: skip
    mirror = Mirror(4, 0)
    me = GreedyPlayer(9)
    state = mirror.to_my_decision()
    child.expect_exact(PROMPT)
    # The dealer's first draw is a lone move: played, and said so.
    assert "(your only move, played for you)" in child.before
    assert "Your hand: " in child.before
    # Wrong input: junk, an out-of-range number, a tile not in the hand.
    child.sendline("xyzzy")
    child.expect_exact("I did not understand 'xyzzy'")
    child.expect_exact("'Discard 5m'")
    child.expect_exact(PROMPT)
    child.sendline("99")
    child.expect_exact("There is no move 99: the moves are numbered 1 to")
    child.expect_exact(PROMPT)
    absent = next(str(t) for t in mj.full_wall() if t not in state.hands[0])
    child.sendline(f"Discard {absent}")
    child.expect_exact("Illegal: ")
    child.expect_exact(PROMPT)
    child.sendline("Pung")
    child.expect_exact("Illegal: ")
    child.expect_exact(PROMPT)
    child.sendline("why 1")
    child.expect_exact("Legal. P0 discards")
    child.expect_exact(PROMPT)
    child.sendline("why")
    child.expect_exact("Say which move: why 3, or why Discard 5m.")
    child.expect_exact(PROMPT)
    child.sendline("hint")
    child.expect(r"Hint: Discard \S+ \(")
    child.expect_exact(PROMPT)
    child.sendline("rules")
    child.expect_exact("Goal: the first to hold four sets")
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect_exact("Nothing to undo yet.")
    child.expect_exact(PROMPT)
    child.sendline("help")
    child.expect_exact("Commands: hint, why MOVE")
    child.expect_exact(PROMPT)

    decisions = 0
    undone = False
    previous: Any = None
    kinds: set[str] = set()
    while not state.is_over:
        actions = mj.legal_actions(state)
        if decisions == 2 and not undone:
            child.sendline("undo")
            child.expect_exact("Undone: back to your previous decision.")
            child.expect_exact(PROMPT)
            undone = True
            assert previous is not None
            mirror.state = state = previous
            actions = mj.legal_actions(state)
        action = me(mj.observe(state))
        kinds.add(type(action).__name__)
        # By number, by notation, and a discard by its tile alone, in lower case.
        if decisions % 3 == 1:
            child.sendline(str(actions.index(action) + 1))
        elif decisions % 3 == 2 and isinstance(action, mj.Discard):
            child.sendline(str(action.tile))
        else:
            child.sendline(str(action).lower())
        previous = state
        mirror.state = mj.apply(state, action)
        decisions += 1
        state = mirror.to_my_decision()
        if not state.is_over:
            child.expect_exact(PROMPT)
            shown = child.before.replace("\r", "")
            # The program shows the position the mirror reached: same wall, same moves.
            assert f"wall {len(state.wall)} tiles" in shown
            n = len(mj.legal_actions(state))
            assert f"\n  {n:>2}  " in shown and f"\n  {n + 1:>2}  " not in shown
    child.expect_exact("End of the round.")
    child.expect_exact("Record saved to round.txt.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert decisions >= 5 and mirror.lone >= 2
    final = mj.replay((tmp_path / "round.txt").read_text(encoding="utf-8"))[-1]
    assert final.is_over and final.scores == state.scores and final.winner == state.winner


def test_mahjong_in_japanese_quit_and_ctrl_d(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", str(SEED), "--lang", "ja", "--bots", "random")
    child.expect_exact("あなたの番> ")
    assert "あなたの手牌：" in child.before
    child.sendline("why Pung")
    child.expect_exact("不可：")
    child.sendline("quit")
    child.expect_exact("記録を保存しますか")
    child.sendline("y")
    child.expect_exact("[mahjong-72.txt]")
    child.sendline("")
    child.expect(pexpect.EOF)
    assert mj.replay((tmp_path / "mahjong-72.txt").read_text(encoding="utf-8"))
    child = spawn(tmp_path, "--seed", str(SEED), "--record", "partial.txt", "--no-color")
    child.expect_exact(PROMPT)
    assert "\x1b[" not in child.before
    child.sendeof()
    child.expect_exact("Record saved to partial.txt.")
    child.expect(pexpect.EOF)
    states = mj.replay((tmp_path / "partial.txt").read_text(encoding="utf-8"))
    assert not states[-1].is_over and len(states) >= 2


def test_mahjong_bad_arguments(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--players", "5")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "mahjong is for 2 to 4 players" in child.before
    child = spawn(tmp_path, "--players", "3", "--seat", "3")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "--seat must be 0 to 2" in child.before
    child = spawn(tmp_path, "--rules", "nintendo")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "no mahjong preset 'nintendo'" in child.before

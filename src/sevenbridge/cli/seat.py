"""The play loop every game shares: a person plays one seat against bots.

:class:`Game` draws the table, numbers the legal moves, reads the person's
answers (a number, a move in the game's notation, or a command: ``hint``,
``why MOVE``, ``rules``, ``undo``, ``table``, ``help``, ``quit``), lets the bots
play the other seats and narrates every move. What differs between games is
a :class:`GamePart`: :class:`sevenbridge.cli.play.CardPart` for Seven Bridge,
:class:`sevenbridge.cli.play_mahjong.MahjongPart` for Simple Mahjong.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TextIO

from .._kit.events import Event, Narrator
from .._kit.i18n import quoted, translator, width
from ..bots import GreedyPlayer, Player
from ..errors import quote

__all__ = ["Game", "GamePart", "fold"]

#: A move's number: ASCII digits only (``²`` and other Unicode digits are no number).
_MOVE_NUMBER = re.compile(r"[0-9]+")


#: The pieces a line breaks into: colour codes (no width), spaces, a wide (East
#: Asian) character, or a run of other characters (a word).
_PIECE = re.compile(
    r"\x1b\[[0-9;]*m|\s+|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[^\s\x1b\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]+"
)
#: Characters a line may not begin with (Japanese closing punctuation).
_NO_BREAK_BEFORE = set("、。，．）」』】〕：；？！ー")
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def fold(line: str, columns: int) -> str:
    """A line folded to ``columns`` terminal columns, by display width (a wide
    East Asian character takes two): between words, or between any two
    Japanese characters; the continuation lines indented under the text.

    >>> print(fold("  P1: 30 points: 7H 20 + KS 10 = 30", 20))
      P1: 30 points: 7H
        20 + KS 10 = 30
    >>> print(fold("あなたは♥5を♥4 ♥6でチーしました。", 12))
    あなたは♥5を
      ♥4 ♥6で
      チーしまし
      た。
    """
    if columns < 8 or width(_COLOUR.sub("", line)) <= columns:
        return line
    indent = len(line) - len(line.lstrip(" "))
    lead = " " * min(indent + 2, columns // 2)
    lines: list[str] = [line[:indent]]
    used = start = indent
    last = ""  # the piece before, if it was one wide character
    for piece in _PIECE.findall(line[indent:]):
        size = 0 if piece.startswith("\x1b") else width(piece)
        if piece.isspace():
            if used > start and used + 1 <= columns:
                lines[-1] += " "
                used += 1
            last = ""
            continue
        if size and used + size > columns and used > start:
            carried = ""
            if piece[0] in _NO_BREAK_BEFORE:  # a closing mark takes the character before along
                if not last or used - width(last) <= start:
                    lines[-1] += piece
                    used += size
                    continue
                lines[-1] = lines[-1][: -len(last)]
                carried = last
            lines[-1] = lines[-1].rstrip(" ")
            lines.append(lead + carried)
            used = start = len(lead)
            used += width(carried)
        lines[-1] += piece
        used += size
        last = piece if size == 2 and len(piece) == 1 else ""
    return "\n".join(x.rstrip(" ") for x in lines)


class GamePart(Protocol):
    """What the play loop needs of one game: the engine, and how the game reads.

    ``Any`` stands for the game's states and actions: the loop only hands back
    what the part gave it.
    """

    #: A lone legal move of the person's (a forced draw, a lone pass) is played
    #: for them, with a line saying so, instead of asking.
    auto_lone: bool
    #: The ``help`` text (an ``N_`` message).
    help: str
    #: How the game's pieces are written, said once at the start (an ``N_``
    #: message; empty when the notation needs no legend).
    legend: str
    #: A move in notation, for the messages that show one (``Discard 7H``).
    example: str
    #: Cards with suit symbols (``7♥``) in the narration, not letters (``7H``).
    symbols: bool

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """The legal moves of the player to act, in a fixed order."""
        ...

    def apply(self, state: Any, action: Any) -> Any:
        """The position after the move."""
        ...

    def bot_view(self, state: Any) -> Any:
        """What a bot sees: the view of the player to act."""
        ...

    def show_table(self, game: Game) -> None:
        """Draw the table as the person's seat sees it."""
        ...

    def move_text(self, game: Game, action: Any) -> str:
        """A legal move as the numbered list shows it: in the game's notation
        in English (as it may be typed), in words in other languages."""
        ...

    def events(self, game: Game, before: Any, action: Any, after: Any) -> Sequence[Event]:
        """The facts of a move as the person's seat knows them (the game's ``events``)."""
        ...

    def styled(self, game: Game, line: str) -> str:
        """A line of the narration as the terminal shows it (in colour where it can)."""
        ...

    def read_move(self, game: Game, text: str, actions: Sequence[Any]) -> Any:
        """A typed move (``None``: the text is no move)."""
        ...

    def explain(self, game: Game, action: Any) -> str:
        """What a move does, or the rule that forbids it, in the game's language."""
        ...

    def hint(self, game: Game) -> str:
        """What the greedy bot would play and why, as one line."""
        ...

    def rules_lines(self, game: Game) -> list[str]:
        """The rules in play, a few lines."""
        ...

    def end_lines(self, game: Game) -> list[str]:
        """The result, once the game is over."""
        ...

    def record(self, state: Any) -> str:
        """The record of the game so far."""
        ...

    def default_record(self, state: Any) -> str:
        """The file name the record is saved to when none is given."""
        ...


class Game:
    """One game between a person (``seat``) and bots, driven by lines of input:
    the play loop every game shares, its game's ways in ``part``."""

    def __init__(
        self,
        state: Any,
        seat: int,
        bots: dict[int, Player],
        part: GamePart,
        inp: TextIO,
        out: TextIO,
        *,
        practice: bool = False,
        pause: float = 0.0,
        lang: str | None = None,
        save_to: str | None = None,
    ) -> None:
        self.state = state
        self.seat = seat
        self.bots = bots
        self.part = part
        self.inp = inp
        self.out = out
        self.practice = practice
        self.pause = pause
        self.lang = lang
        self._ = translator(lang)
        self.save_to = save_to
        self.undo_stack: list[Any] = []
        #: Tells the moves in the words of their events, as the seat knows them.
        self.narrator = Narrator(lang, symbols=part.symbols)
        #: The greedy bot (of either game, through the protocol) that hints.
        self.advisor: Callable[[Any], Any] = GreedyPlayer(seed=state.seed % 1000 + 1)

    # --- output ----------------------------------------------------------------
    def columns(self) -> int | None:
        """The terminal's width, if the output is a terminal."""
        try:
            if not self.out.isatty():
                return None
            return os.get_terminal_size(self.out.fileno()).columns
        except (AttributeError, OSError, ValueError):
            return None

    def say(self, text: str = "") -> None:
        columns = self.columns()
        if columns is not None:
            text = "\n".join(fold(line, columns) for line in text.split("\n"))
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line of input (``None`` at the end of input)."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def who(self, player: int) -> str:
        return f"P{player} {self._('(you)')}" if player == self.seat else f"P{player}"

    # --- input -----------------------------------------------------------------
    def parse(self, text: str, actions: Sequence[Any]) -> Any:
        """A move from a number or the game's notation, or the message (a
        ``str``) saying why not."""
        _ = self._
        if _MOVE_NUMBER.fullmatch(text):
            digits = text.lstrip("0") or "0"
            if len(digits) <= len(str(len(actions))) and 1 <= int(digits) <= len(actions):
                return actions[int(digits) - 1]
            return _("There is no move {k}: the moves are numbered 1 to {n}.").format(
                k=digits if len(digits) <= 12 else quote(digits, 16), n=len(actions)
            )
        action = self.part.read_move(self, text, actions)
        if action is None:
            said, example = quoted(text, self.lang), quoted(self.part.example, self.lang)
            if len(actions) == 1:
                return _(
                    "I did not understand {text}. Type 1 (your only move), a move such as "
                    "{example}, or help."
                ).format(text=said, example=example)
            return _(
                "I did not understand {text}. Type a number from 1 to {n}, a move such "
                "as {example}, or help."
            ).format(text=said, n=len(actions), example=example)
        if action in actions:
            return action
        return self.part.explain(self, action)

    def save(self) -> bool:
        """Write the record; ``False`` (and a line saying why) if it cannot be written."""
        _ = self._
        path = self.save_to or self.part.default_record(self.state)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.part.record(self.state))
        except OSError as error:
            self.say(
                _("Could not save the record to {path}: {reason}.").format(
                    path=path, reason=error.strerror or error
                )
            )
            return False
        self.say(_("Record saved to {path}.").format(path=path))
        return True

    def quit(self) -> None:
        _ = self._
        answer = self.ask(_("Save the record? [y/N] "))
        if answer is not None and answer.lower() in ("y", "yes", "はい"):
            ask_name = self.save_to is None
            while True:
                if ask_name:
                    name = self.ask(
                        _("File name [{name}]: ").format(name=self.part.default_record(self.state))
                    )
                    if name is None:  # end of input: give up saving
                        break
                    self.save_to = name or None
                if self.save():
                    break
                ask_name = True
        self.say(_("Goodbye."))

    def tell(self, lines: Sequence[str]) -> None:
        """Lines of the narration, styled and indented."""
        for line in lines:
            self.say(f"  {self.part.styled(self, line)}")

    def decide(self) -> Any:
        """The person's move (``None``: they left the game)."""
        _, part = self._, self.part
        self.tell(self.narrator.flush())
        part.show_table(self)
        actions = part.legal_actions(self.state)
        self.say(_("Your moves:"))
        for k, action in enumerate(actions, start=1):
            self.say(f"  {k:>2}  {part.move_text(self, action)}")
        while True:
            line = self.ask(_("your move> "))
            if line is None:
                self.save()
                return None
            if not line:
                continue
            word, _sep, rest = line.partition(" ")
            word = word.lower()
            if word in ("help", "?", "h"):
                self.say(_(part.help))
                if part.legend:
                    self.say(_(part.legend))
            elif word == "hint":
                self.say(part.hint(self))
            elif word == "why":
                if not rest.strip():
                    self.say(
                        _("Say which move: why 3, or why {example}.").format(example=part.example)
                    )
                    continue
                found = self.parse(rest.strip(), actions)
                self.say(part.explain(self, found) if not isinstance(found, str) else found)
            elif word == "rules":
                for text in part.rules_lines(self):
                    self.say("  " + text)
            elif word == "undo":
                if not self.practice:
                    self.say(_("Undo is for practice games: start one with --practice."))
                elif not self.undo_stack:
                    self.say(_("Nothing to undo yet."))
                else:
                    self.state = self.undo_stack.pop()
                    self.say(_("Undone: back to your previous decision."))
                    return self.decide()
            elif word in ("quit", "exit", "q"):
                self.quit()
                return None
            elif word == "table":
                part.show_table(self)
            else:
                found = self.parse(line, actions)
                if isinstance(found, str):
                    self.say(found)
                else:
                    return found

    def play(self) -> int:
        part = self.part
        while not self.state.is_over:
            player = self.state.current_player
            assert player is not None
            forced = False
            if player == self.seat:
                actions = part.legal_actions(self.state)
                if part.auto_lone and len(actions) == 1:
                    action, forced = actions[0], True
                else:
                    action = self.decide()
                    if action is None:
                        return 0
                    self.undo_stack.append(self.state)
            else:
                action = self.bots[player](part.bot_view(self.state))
                if self.pause:
                    time.sleep(self.pause)
            before = self.state
            self.state = part.apply(self.state, action)
            if player == self.seat:  # what happened before the person's move, first
                self.tell(self.narrator.flush())
            lines = self.narrator.tell(part.events(self, before, action, self.state))
            if forced and lines:
                lines[0] = self._("{line}  (your only move, played for you)").format(line=lines[0])
            self.tell(lines)
        self.tell(self.narrator.flush())
        part.show_table(self)
        for line in part.end_lines(self):
            self.say(line)
        if self.save_to:
            self.save()
        return 0

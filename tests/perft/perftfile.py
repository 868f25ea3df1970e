"""The perft files: their format, and the perft count itself.

A perft file (``seven_bridge.perft``, ``mahjong.perft`` beside this module) is
a list of entries. Each entry starts with an ``id`` line; the lines after it,
up to the next ``id``, are ``key value`` pairs::

    id     a short name, unique in the file
    why    one line: what the position is there to test
    rules  the base preset, then any changed fields (``standard jokers=1``)
    state  the position: the game's JSON document, on one line
    perft  depth and count (``perft 2 17``), one line per depth

Blank lines and lines starting with ``#`` are ignored by the tests; the
generator, ``tools/perft.py``, writes a picture of each position in the
comment lines just above its ``id``, for readers.

``perft(d)`` is the number of positions reached after exactly ``d`` actions
from the entry's position, each legal action followed in turn: ``perft 1`` is
the number of legal actions. A finished deal or round has no actions, so a
line that ends before depth ``d`` adds nothing to ``perft(d)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

HERE = Path(__file__).resolve().parent
SEVEN_BRIDGE = HERE / "seven_bridge.perft"
MAHJONG = HERE / "mahjong.perft"

KEYS = ("id", "why", "rules", "state", "perft")

S = TypeVar("S")


class PerftFileError(Exception):
    """A perft file that does not follow the format (a test-suite error, not the library's)."""


@dataclass(frozen=True)
class Entry:
    """One position of a perft file, with its counts."""

    id: str
    why: str
    rules: str
    state: str
    counts: tuple[tuple[int, int], ...]
    """``(depth, count)`` pairs, by increasing depth."""
    line: int
    """The line of the ``id``, for messages."""
    comments: tuple[str, ...] = ()
    """The ``#`` lines just before the entry (without the ``#``)."""

    def __str__(self) -> str:
        return self.id


def read(path: Path) -> list[Entry]:
    """The entries of a perft file, checked for the format's rules."""
    entries: list[Entry] = []
    fields: dict[str, Any] | None = None
    pending: list[str] = []

    def close() -> None:
        if fields is None:
            return
        where = f"{path.name}:{fields['line']}"
        for key in ("why", "rules", "state"):
            if not fields.get(key):
                raise PerftFileError(f"{where}: entry {fields['id']!r} has no {key!r} line")
        counts = fields["counts"]
        if not counts or counts[0][0] != 1:
            raise PerftFileError(f"{where}: entry {fields['id']!r} needs 'perft 1'")
        if [d for d, _ in counts] != list(range(1, len(counts) + 1)):
            raise PerftFileError(f"{where}: entry {fields['id']!r}: depths must be 1, 2, 3, ...")
        entries.append(
            Entry(
                fields["id"], fields["why"], fields["rules"], fields["state"],
                tuple(counts), fields["line"], tuple(fields["comments"]),
            )
        )  # fmt: skip

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            pending = []  # a comment block followed by a blank line belongs to no entry
            continue
        if line.startswith("#"):
            pending.append(line[1:].removeprefix(" "))
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key not in KEYS or not value:
            raise PerftFileError(f"{path.name}:{number}: expected one of {KEYS} and a value")
        if key == "id":
            close()
            if any(e.id == value for e in entries):
                raise PerftFileError(f"{path.name}:{number}: id {value!r} is used twice")
            fields = {"id": value, "line": number, "counts": [], "comments": pending}
            pending = []
            continue
        if fields is None:
            raise PerftFileError(f"{path.name}:{number}: {key!r} before the first 'id'")
        if key == "perft":
            depth, _, count = value.partition(" ")
            if not depth.isdigit() or not count.strip().isdigit():
                raise PerftFileError(f"{path.name}:{number}: write 'perft DEPTH COUNT'")
            fields["counts"].append((int(depth), int(count)))
        elif key in fields:
            raise PerftFileError(f"{path.name}:{number}: a second {key!r} line")
        else:
            fields[key] = value
    close()
    return entries


def format_entry(entry: Entry) -> str:
    """The text of an entry, as :func:`read` reads it back (a blank line after it)."""
    lines = [f"# {c}".rstrip() for c in entry.comments]
    lines += [f"id {entry.id}", f"why {entry.why}", f"rules {entry.rules}", f"state {entry.state}"]
    lines += [f"perft {depth} {count}" for depth, count in entry.counts]
    return "\n".join(lines) + "\n\n"


def parse_value(text: str) -> Any:
    """A field value of a ``rules`` line: true/false, null, an integer, or a word."""
    words = {"true": True, "false": False, "null": None}
    if text in words:
        return words[text]
    if text.isdigit():
        return int(text)
    return text


def format_value(value: Any) -> str:
    """The inverse of :func:`parse_value` (enum members by their value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(getattr(value, "value", value))


def parse_rules(label: str) -> tuple[str, dict[str, Any]]:
    """A ``rules`` line as the base preset's name and the changed fields."""
    base, *changes = label.split()
    out: dict[str, Any] = {}
    for change in changes:
        name, sep, value = change.partition("=")
        if not sep:
            raise PerftFileError(f"rules {label!r}: write NAME=VALUE, not {change!r}")
        out[name] = parse_value(value)
    return base, out


def rules_line(base: str, changes: dict[str, Any]) -> str:
    """The ``rules`` line for a preset and changed fields (in the order given)."""
    return " ".join([base, *(f"{k}={format_value(v)}" for k, v in changes.items())])


def perft(
    state: S, depth: int, children: Callable[[S], Iterable[S]], count: Callable[[S], int]
) -> int:
    """The number of positions ``depth`` actions away from ``state``.

    ``children`` gives the positions one action away (one per legal action),
    ``count`` the number of legal actions; a position with none ends its line.
    """
    if depth == 0:
        return 1
    if depth == 1:
        return count(state)
    return sum(perft(child, depth - 1, children, count) for child in children(state))

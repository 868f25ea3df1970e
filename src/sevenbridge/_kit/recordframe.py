"""The frame of a game record that both games write and read: bracketed tags.

A record begins with tags such as ``[Seed "5"]``, one a line, then lists the
moves. The rules are written as the nearest preset (``[Rules "standard"]``)
and the options that differ from it (``[Option "jokers" "1"]``), so a record
stays short and readable; reading them back rebuilds the same rules. Each
game's record module writes its moves and checks its own tags.
"""

from __future__ import annotations

import codecs
import re
from typing import Any, Protocol

from ..errors import Message, RecordError

__all__ = [
    "GAME_NAMES", "READERS", "TAG", "VALUE", "RulesLike", "game_problem", "once", "record_names",
    "record_text", "rules_tags", "value_text",
]  # fmt: skip

#: A tag line: a name and one or more quoted values.
TAG = re.compile(r'^\[(\w+)((?:\s+"[^"]*")+)\]\s*$')
#: One quoted value of a tag.
VALUE = re.compile(r'"([^"]*)"')


class RulesLike(Protocol):
    """What :func:`rules_tags` needs of a game's rules class."""

    @classmethod
    def presets(cls) -> tuple[str, ...]: ...

    @classmethod
    def preset(cls, name: str) -> Any: ...

    def changes(self, other: Any) -> dict[str, Any]: ...


def value_text(value: object) -> str:
    """An option's value as a tag writes it: ``true``/``false``, ``none``, an
    enum's value, or the value's text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(getattr(value, "value", value))


def rules_tags(rules: RulesLike) -> list[str]:
    """``Rules`` and ``Option`` tags for ``rules``: the nearest preset (the one
    with the fewest changes, ``standard`` on a tie) and its changes."""
    name = min(
        rules.presets(),
        key=lambda n: (len(rules.changes(rules.preset(n))), n != "standard"),
    )
    lines = [f'[Rules "{name}"]']
    for key, value in rules.changes(rules.preset(name)).items():
        lines.append(f'[Option "{key}" "{value_text(value)}"]')
    return lines


def once(seen: dict[str, int], name: str, values: list[str], line: int, raw: str) -> None:
    """Note the tag ``name`` on ``line`` in ``seen``; a record gives each tag once
    (and each ``Option`` once), so a second one raises a RecordError naming both lines."""
    key = f'Option "{values[0]}"' if name == "Option" and values else name
    if key in seen:
        raise RecordError(
            raw,
            Message(
                "record.tag_given_twice",
                "[{tag}] is given twice (first on line {first})",
                tag=key,
                first=str(seen[key]),
            ),
            line,
            len(raw) - len(raw.lstrip()) + 1,
        )
    seen[key] = line


#: The games whose records name them in a ``[Game]`` tag (a match record adds
#: `` match``), and the functions that read a game's deal and match records.
GAME_NAMES = {
    "Seven Bridge": Message("game_name.seven_bridge", "Seven Bridge"),
    "Simple Mahjong": Message("game_name.simple_mahjong", "Simple Mahjong"),
}
READERS = {
    "Seven Bridge": ("sevenbridge.replay", "sevenbridge.replay_match"),
    "Simple Mahjong": ("sevenbridge.mahjong.replay", "sevenbridge.mahjong.replay_match"),
}


def game_problem(found: str, wanted: str) -> Message | None:
    """What is wrong with a record whose ``[Game]`` tag says ``found`` when a
    ``wanted`` record is read (``None``: nothing)."""
    if found == wanted:
        return None
    game = wanted.removesuffix(" match")
    if found == game + " match":
        return Message("record.this_match_record_use", "this is a match record: use replay_match")
    if found == game:
        return Message("record.not_match_record_use", "this is not a match record: use replay")
    other = found.removesuffix(" match")
    if other in GAME_NAMES:
        return Message(
            "record.record_of_other_game",
            "this is a {game} record: read it with {reader}",
            game=GAME_NAMES[other],
            reader=READERS[other][found.endswith(" match")],
        )
    if wanted.endswith(" match"):
        return Message(
            "record.not_match_record_of", "this is not a {game} match record", game=GAME_NAMES[game]
        )
    return Message("record.not_record_of", "this is not a {game} record", game=GAME_NAMES[game])


def record_text(data: bytes) -> str:
    """A record file's bytes as text: UTF-8 (a byte order mark before it is
    dropped), else a :class:`~sevenbridge.errors.RecordError` that names the line
    and column of the first byte that is not.

    >>> record_text(b'[Game "Seven Bridge"]\\nP0 Draw\\n').splitlines()
    ['[Game "Seven Bridge"]', 'P0 Draw']
    >>> record_text(b'[Seed "1"]\\nP0 Discard 7\\xff\\n')
    Traceback (most recent call last):
    ...
    sevenbridge.errors.RecordError: line 2, column 13: not UTF-8 text: byte 0xff (invalid start byte) (in 'P0 Discard 7\ufffd')
    """
    body = data[len(codecs.BOM_UTF8) :] if data.startswith(codecs.BOM_UTF8) else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = error.start
        start = body.rfind(b"\n", 0, bad) + 1
        end = body.find(b"\n", bad)
        line = body[start : len(body) if end < 0 else end]
        raise RecordError(
            line.decode("utf-8", "replace").rstrip("\r"),
            Message(
                "record.not_utf8",
                "not UTF-8 text: byte {byte} ({reason})",
                byte=f"0x{body[bad]:02x}",
                reason=error.reason,
            ),
            body.count(b"\n", 0, bad) + 1,
            len(body[start:bad].decode("utf-8", "replace")) + 1,
        ) from None


def record_names(text: str) -> list[str] | None:
    """The seats' names a record gives in a ``[Names "Ann" "Bo" "Cy"]`` tag
    (one per seat), if it has one among its tags.

    >>> record_names('[Game "Seven Bridge"]\\n[Names "Ann" "Bo"]\\n\\nP1 Draw\\n')
    ['Ann', 'Bo']
    """
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("["):
            if stripped and not stripped.startswith("#"):
                return None  # the moves begin: no more tags
            continue
        found = TAG.match(stripped)
        if found is not None and found[1] == "Names":
            return VALUE.findall(found[2])
    return None

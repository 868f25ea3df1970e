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

__all__ = ["TAG", "VALUE", "RulesLike", "record_text", "rules_tags", "value_text"]

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

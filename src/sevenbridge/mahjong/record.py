"""Game records: a round as text that replays move for move.

A record has tags in brackets (the rules as the nearest preset and its changed
options, the table, the dealer, the seed or the stacked wall, the result), a
blank line, then one move a line (``P1 Chow 46m``). :func:`replay` checks every
move and raises :class:`~sevenbridge.RecordError` with the line of the first
problem.

>>> from sevenbridge.mahjong import Rules, deal, legal_actions, apply
>>> state, moves = deal(seed=3, players=2), []
>>> for _ in range(5):
...     move = legal_actions(state)[0]
...     moves.append(move)
...     state = apply(state, move)
>>> text = record(moves, players=2, seed=3)
>>> print(text.splitlines()[0])
[Game "Simple Mahjong"]
>>> replay(text)[0] == state
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..errors import Message, RecordError, SevenBridgeError
from .actions import Action, parse_action
from .engine import apply, deal
from .rules import Rules
from .state import State
from .tiles import Tile, format_tiles, parse_tiles

__all__ = ["record", "replay"]

_TAG = re.compile(r'\[(\w+)((?:\s+"[^"]*")+)\]\s*$')
_VALUE = re.compile(r'"([^"]*)"')


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "value", value))


def _rules_tags(rules: Rules) -> list[str]:
    name = min(
        Rules.presets(), key=lambda n: (len(rules.changes(Rules.preset(n))), n != "standard")
    )
    lines = [f'[Rules "{name}"]']
    for key, value in rules.changes(Rules.preset(name)).items():
        lines.append(f'[Option "{key}" "{_value_text(value)}"]')
    return lines


def _result(state: State) -> str:
    if not state.is_over:
        return "unfinished"
    if state.winner is None:
        return "drawn"
    how = "self-drawn" if state.self_drawn else "on a discard"
    return f"P{state.winner} wins {state.points} ({how})"


def record(
    actions: Iterable[Action],
    *,
    rules: Rules | None = None,
    players: int = 4,
    dealer: int = 0,
    seed: int | None = None,
    wall: Iterable[Tile | str] | str | None = None,
) -> str:
    """The record of a round dealt with these arguments (as :func:`deal` takes
    them) and played with ``actions``.

    Raises:
        IllegalActionError: if an action is not legal where it stands.
        InvalidArgumentError: if ``seed`` and ``wall`` are both ``None`` (the
            round could not be dealt again).
    """
    from .errors import InvalidArgumentError

    if seed is None and wall is None:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.record_needs_seed_or",
                "record needs the seed or the wall of the round",
            )
        )
    rules = Rules() if rules is None else rules
    state = deal(rules, players=players, dealer=dealer, seed=seed, wall=wall)
    moves = list(actions)
    for action in moves:
        state = apply(state, action)
    lines = ['[Game "Simple Mahjong"]', *_rules_tags(rules)]
    lines.append(f'[Players "{players}"]')
    lines.append(f'[Dealer "{dealer}"]')
    if seed is not None:
        lines.append(f'[Seed "{seed}"]')
    if wall is not None:
        lines.append(f'[Wall "{format_tiles(parse_tiles(wall))}"]')
    lines.append(f'[Result "{_result(state)}"]')
    lines.append("")
    lines.extend(f"P{a.player} {a}" for a in moves)
    return "\n".join(lines) + "\n"


def replay(text: str) -> tuple[State, tuple[Action, ...]]:
    """The final state and the moves of a record, every move checked.

    Raises:
        RecordError: for a tag or move that does not parse, or an illegal move,
            with its line.

    >>> replay('[Game "Chess"]')
    Traceback (most recent call last):
    ...
    sevenbridge.errors.RecordError: line 1, column 1: this is not a Simple Mahjong record (in '[Game "Chess"]')
    """
    if not isinstance(text, str):
        raise TypeError(f"a record is text, not {type(text).__name__}")
    lines = text.splitlines()
    tags: dict[str, Any] = {}
    options: dict[str, str] = {}
    number = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            break
        match = _TAG.match(line.strip())
        if match is None:
            raise RecordError(
                line,
                Message("record.expected_tag_such_as", 'expected a tag such as [Seed "5"]'),
                number,
            )
        name, values = match[1], _VALUE.findall(match[2])
        if name == "Option":
            if len(values) != 2:
                raise RecordError(
                    line,
                    Message("record.option_tag_has_name", "an Option tag has a name and a value"),
                    number,
                )
            options[values[0]] = values[1]
        else:
            tags[name] = (values[0], number, line)
    else:
        number = len(lines)
    if tags.get("Game", ("",))[0] != "Simple Mahjong":
        raise RecordError(
            lines[0] if lines else "",
            Message("record.this_not_simple_mahjong", "this is not a Simple Mahjong record"),
            1,
        )
    state = _deal_from_tags(tags, options)
    moves: list[Action] = []
    for offset, line in enumerate(lines[number:], number + 1):
        if not line.strip():
            continue
        try:
            action = parse_action(line)
            state = apply(state, action)
        except SevenBridgeError as error:
            raise RecordError(line, Message("error", "{error}", error=error), offset) from None
        moves.append(action)
    return state, tuple(moves)


def _tag(tags: dict[str, Any], name: str, default: str | None = None) -> tuple[str, int, str]:
    if name in tags:
        value: tuple[str, int, str] = tags[name]
        return value
    if default is None:
        raise RecordError(
            "", Message("record.record_has_no_tag", "the record has no {name} tag", name=name), 1
        )
    return (default, 1, "")


def _deal_from_tags(tags: dict[str, Any], options: dict[str, str]) -> State:
    preset, line_no, line = _tag(tags, "Rules", "standard")
    try:
        rules = Rules.preset(preset)
        changes: dict[str, Any] = {}
        for key, value in options.items():
            changes[key] = _option_value(value)
        rules = rules.replace(**changes)
    except (SevenBridgeError, TypeError) as error:
        raise RecordError(
            line, Message("record.bad_rules", "bad rules: {error}", error=error), line_no
        ) from None
    numbers: dict[str, int | None] = {}
    for name, default in (("Players", "4"), ("Dealer", "0"), ("Seed", "none")):
        value, line_no, line = _tag(tags, name, default)
        if value == "none":
            numbers[name] = None
        elif re.fullmatch(r"[0-9]{1,20}", value):
            numbers[name] = int(value)
        else:
            raise RecordError(
                line,
                Message("record.tag_needs_number", "the {name} tag needs a number", name=name),
                line_no,
            )
    wall_tag = tags.get("Wall")
    if wall_tag is None and numbers["Seed"] is None:
        raise RecordError(
            "",
            Message(
                "record.record_needs_seed_or",
                "the record needs a Seed or a Wall tag to deal the round",
            ),
            1,
        )
    try:
        return deal(
            rules,
            players=numbers["Players"] or 0,
            dealer=numbers["Dealer"] or 0,
            seed=numbers["Seed"],
            wall=None if wall_tag is None else wall_tag[0],
        )
    except SevenBridgeError as error:
        raise RecordError(
            "" if wall_tag is None else wall_tag[2],
            Message("record.cannot_deal", "cannot deal: {error}", error=error),
            1,
        ) from None


def _option_value(text: str) -> object:
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"[0-9]{1,6}", text):
        return int(text)
    return text

"""Game records: a round, or a whole match, as text that replays move for move.

A record has tags in brackets (the rules as the nearest preset and its changed
options, the table, the dealer, the seed or the stacked wall, the result), a
blank line, then one move a line (``P1 Chow 46m``). A match record has a
``MatchSeed`` tag instead of ``Seed``, and a ``[Round "k"]`` line before the
moves of round k. :func:`replay` and :func:`replay_match` check every move and
raise :class:`~sevenbridge.RecordError` with the line of the first problem.

>>> from sevenbridge.mahjong import deal, legal_actions, apply
>>> state = deal(seed=3, players=2)
>>> for _ in range(5):
...     state = apply(state, legal_actions(state)[0])
>>> text = record(state)
>>> print(text)
[Game "Simple Mahjong"]
[Rules "standard"]
[Option "claim_window" "every_eligible"]
[Players "2"]
[Dealer "0"]
[Seed "3"]
[Result "unfinished"]
<BLANKLINE>
P0 Draw
P0 Discard 4m
P1 Pass
P1 Draw
P1 Discard 1m
<BLANKLINE>
>>> positions = replay(text)
>>> len(positions), positions[-1] == state
(6, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import attrs

from .._kit import checks as _checks
from .._kit.recordframe import TAG, VALUE, game_problem, once, rules_tags
from ..errors import InvalidArgumentError, Message, RecordError, SevenBridgeError, quote
from .actions import Action, format_move, parse_action
from .engine import apply, deal
from .match import MatchResult, _round_seed, next_dealer
from .rules import ClaimWindow, Rules
from .state import GameState
from .tiles import Tile, format_tiles, parse_tiles

__all__ = ["record", "record_match", "replay", "replay_match"]

_GAME = "Simple Mahjong"
_MATCH = "Simple Mahjong match"


def _result(state: GameState) -> str:
    if not state.is_over:
        return "unfinished"
    if state.winner is None:
        return "drawn"
    how = "self-drawn" if state.self_drawn else "on a discard"
    return f"P{state.winner} wins {state.points} ({how})"


def _replays(state: GameState, wall: tuple[Tile, ...] | None) -> bool:
    """Whether dealing from the state's seed (or ``wall``) and playing its
    history gives the state back."""
    try:
        probe = deal(
            state.rules, players=state.players, dealer=state.dealer, seed=state.seed, wall=wall
        )
        for action in state.history:
            probe = apply(probe, action)
    except SevenBridgeError:
        return False
    return probe == state


def record(
    state: GameState | Iterable[Action],
    *,
    wall: Iterable[Tile | str] | str | None = None,
    rules: Rules | None = None,
    players: int = 4,
    dealer: int = 0,
    seed: int | None = None,
) -> str:
    """The record of the round that led to ``state`` (its history is recorded).

    The older form, ``record(actions, rules=..., players=..., dealer=...,
    seed=..., wall=...)``, is still accepted: the record of a round dealt with
    those arguments (as :func:`~sevenbridge.mahjong.deal` takes them) and played
    with ``actions``.

    Args:
        state: Any position of the round (or, in the older form, its actions).
        wall: The stacked wall the round was dealt from, when it was dealt with
            ``deal(wall=...)`` rather than from a seed.
        rules: The older form's rules (standard by default).
        players: The older form's table size.
        dealer: The older form's dealer.
        seed: The older form's seed.

    Raises:
        InvalidArgumentError: if the round cannot be dealt again from its seed
            (and no wall is given), such as a state from
            :func:`~sevenbridge.mahjong.sample_state`; in the older form, if the
            seed and the wall are both ``None``.
        IllegalActionError: in the older form, if an action is not legal where it
            stands.

    >>> from sevenbridge.mahjong import Draw
    >>> print(record([Draw(0)], players=2, seed=4).splitlines()[-1])
    P0 Draw
    """
    stacked = None if wall is None else parse_tiles(wall)
    if not isinstance(state, GameState):
        if isinstance(state, (str, bytes)) or not isinstance(state, Iterable):
            raise TypeError(
                f"record needs a mahjong GameState or its actions, not {_checks.type_name(state)}"
            )
        if seed is None and wall is None:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.record_needs_seed_or",
                    "record needs the seed or the wall of the round",
                )
            )
        rules = Rules() if rules is None else rules
        moves = list(state)
        state = deal(rules, players=players, dealer=dealer, seed=seed, wall=stacked)
        for action in moves:
            state = apply(state, action)
    elif not _replays(state, stacked):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.mahjong_record_not_dealt",
                "state: this round was not dealt from its seed: pass the wall it was dealt "
                "from (wall=...)",
            )
        )
    lines = [f'[Game "{_GAME}"]', *_rules_lines(state.rules)]
    lines.append(f'[Players "{state.players}"]')
    lines.append(f'[Dealer "{state.dealer}"]')
    lines.append(f'[Seed "{state.seed}"]')
    if stacked is not None:
        lines.append(f'[Wall "{format_tiles(stacked)}"]')
    lines.append(f'[Result "{_result(state)}"]')
    lines.append("")
    lines.extend(format_move(a) for a in state.history)
    return "\n".join(lines) + "\n"


def record_match(match: MatchResult) -> str:
    """The record of a match played by :func:`~sevenbridge.mahjong.play_match`:
    every round's moves under a ``[Round "k"]`` line; :func:`replay_match` reads it.

    >>> from sevenbridge.mahjong import GreedyPlayer, Rules, play_match
    >>> result = play_match([GreedyPlayer(seed=s) for s in range(3)], rules=Rules(rounds=2), seed=9)
    >>> text = record_match(result)
    >>> text.splitlines()[:6]
    ['[Game "Simple Mahjong match"]', '[Rules "standard"]', '[Option "rounds" "2"]', '[Option "claim_window" "every_eligible"]', '[Players "3"]', '[Dealer "0"]']
    >>> finals = [s for s in replay_match(text) if s.is_over]
    >>> finals == [r.final for r in result.rounds]
    True
    """
    if not isinstance(match, MatchResult):
        raise TypeError(f"match must be a mahjong MatchResult, not {type(match).__name__}")
    lines = [f'[Game "{_MATCH}"]', *_rules_lines(match.rules)]
    lines.append(f'[Players "{match.players}"]')
    lines.append(f'[Dealer "{match.rounds[0].dealer if match.rounds else 0}"]')
    lines.append(f'[MatchSeed "{match.seed}"]')
    lines.append(f'[Result "{_totals(match.totals)}"]')
    for r in match.rounds:
        lines += ["", f'[Round "{r.number + 1}"]']
        lines += [format_move(a) for a in r.moves]
    return "\n".join(lines) + "\n"


def _totals(totals: Iterable[int]) -> str:
    return "totals " + " ".join(map(str, totals))


@attrs.frozen
class _Parsed:
    """A record read into its tags and the lines after them."""

    tags: dict[str, tuple[str, int, str]]
    options: dict[str, str]
    body: list[tuple[int, str]]  # (line number, line) of every non-blank line after the tags
    first: str  # the first line, for messages


def _rules_lines(rules: Rules) -> list[str]:
    """The rules tags, always with the claim window: a record without one is
    older than the option and was played with ``able_only`` windows."""
    lines = rules_tags(rules)
    if rules.claim_window is ClaimWindow.EVERY_ELIGIBLE:
        lines.append(f'[Option "claim_window" "{rules.claim_window.value}"]')
    return lines


def _parse(text: str, game: str) -> _Parsed:
    if not isinstance(text, str):
        raise TypeError(f"a record is text, not {type(text).__name__}")
    lines = text.splitlines()
    tags: dict[str, tuple[str, int, str]] = {}
    options: dict[str, str] = {}
    seen: dict[str, int] = {}
    number = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            break
        match = TAG.match(line.strip())
        if match is None:
            raise RecordError(
                line,
                Message("record.expected_tag_such_as", 'expected a tag such as [Seed "5"]'),
                number,
            )
        name, values = match[1], VALUE.findall(match[2])
        once(seen, name, values, number, line)
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
    first = lines[0] if lines else ""
    found, line_no, line = tags.get("Game", ("", 1, first))
    problem = game_problem(found, game)
    if problem is not None:
        raise RecordError(line, problem, line_no)
    body = [(n, line) for n, line in enumerate(lines[number:], number + 1) if line.strip()]
    return _Parsed(tags, options, body, first)


def _rules(parsed: _Parsed) -> Rules:
    preset, line_no, line = _tag(parsed.tags, "Rules", "standard")
    try:
        rules = Rules.preset(preset)
        # A record older than claim windows was played asking only able players.
        changes: dict[str, Any] = {"claim_window": ClaimWindow.ABLE_ONLY}
        for key, value in parsed.options.items():
            changes[key] = _option_value(value)
        return rules.replace(**changes)
    except (SevenBridgeError, TypeError) as error:
        raise RecordError(
            line, Message("record.bad_rules", "bad rules: {error}", error=error), line_no
        ) from None


def _numbers(parsed: _Parsed, *names: tuple[str, str]) -> dict[str, int | None]:
    numbers: dict[str, int | None] = {}
    for name, default in names:
        value, line_no, line = _tag(parsed.tags, name, default)
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
    return numbers


def _play(state: GameState, line_no: int, line: str) -> GameState:
    """``state`` after the move written on ``line`` (a RecordError if it does
    not parse or is not legal)."""
    try:
        return apply(state, parse_action(line))
    except SevenBridgeError as error:
        raise RecordError(line, Message("error", "{error}", error=error), line_no) from None


def _check_result(parsed: _Parsed, expected: str) -> None:
    """A ``[Result]`` tag, when there is one, must say what the moves lead to."""
    if "Result" not in parsed.tags:
        return
    value, line_no, line = parsed.tags["Result"]
    if value != expected:
        raise RecordError(
            line,
            Message(
                "record.result_does_not_match",
                "[Result] does not match the moves, which give {expected}",
                expected=quote(expected),
            ),
            line_no,
        )


def replay(text: str) -> list[GameState]:
    """Every position of a recorded round, from the deal to the last move, each
    move checked.

    Raises:
        RecordError: for a tag or move that does not parse, an illegal move, or
            a ``Result`` tag that the moves do not give, with its line.

    >>> replay('[Game "Chess"]')
    Traceback (most recent call last):
    ...
    sevenbridge.errors.RecordError: line 1, column 1: this is not a Simple Mahjong record (in '[Game "Chess"]')
    """
    parsed = _parse(text, _GAME)
    state = _deal_from_tags(parsed)
    positions = [state]
    for line_no, line in parsed.body:
        state = _play(state, line_no, line)
        positions.append(state)
    _check_result(parsed, _result(state))
    return positions


def replay_match(text: str) -> list[GameState]:
    """Every position of every round of a recorded match, in order (each round
    from its deal to its end).

    Raises:
        RecordError: as :func:`replay`, and for round lines out of order, a
            round that starts before the last one ended, or more rounds than
            the rules play.

    >>> replay_match('[Game "Simple Mahjong match"]\\n[MatchSeed "5"]\\n\\nP0 Draw\\n')
    Traceback (most recent call last):
    ...
    sevenbridge.errors.RecordError: line 4, column 1: a match record's moves come after [Round "1"] (in 'P0 Draw')
    """
    parsed = _parse(text, _MATCH)
    rules = _rules(parsed)
    numbers = _numbers(parsed, ("Players", "4"), ("Dealer", "0"), ("MatchSeed", "none"))
    key = numbers["MatchSeed"]
    if key is None:
        raise RecordError(
            parsed.first,
            Message("record.record_has_no_tag", "the record has no {name} tag", name="MatchSeed"),
            1,
        )
    dealer = numbers["Dealer"] or 0
    players = numbers["Players"] or 0
    positions: list[GameState] = []
    state: GameState | None = None
    totals: list[int] = []
    played = 0
    for line_no, line in parsed.body:
        if not line.strip().startswith("["):
            if state is None:
                raise RecordError(
                    line,
                    Message(
                        "record.match_record_moves_come_round",
                        'a match record\'s moves come after [Round "1"]',
                    ),
                    line_no,
                )
            state = _play(state, line_no, line)
            positions.append(state)
            continue
        match = TAG.match(line.strip())
        values = [] if match is None else VALUE.findall(match[2])
        if match is None or match[1] != "Round" or values != [str(played + 1)]:
            raise RecordError(
                line,
                Message(
                    "record.expected_round", 'expected [Round "{number}"]', number=str(played + 1)
                ),
                line_no,
            )
        if (state is not None and not state.is_over) or played >= rules.rounds:
            raise RecordError(
                line,
                Message(
                    "record.round_cannot_start_here",
                    "round {number} cannot start here",
                    number=str(played + 1),
                ),
                line_no,
            )
        if state is not None:
            _add_up(totals, state)
            dealer = next_dealer(rules, state)
        try:
            state = deal(rules, players=players, dealer=dealer, seed=_round_seed(key, played))
        except SevenBridgeError as error:
            raise RecordError(
                line, Message("record.cannot_deal", "cannot deal: {error}", error=error), line_no
            ) from None
        if not totals:
            totals = [0] * state.seats
        positions.append(state)
        played += 1
    if state is not None:
        _add_up(totals, state)
    finished = played == rules.rounds and state is not None and state.is_over
    _check_result(parsed, _totals(totals) if finished else "unfinished")
    return positions


def _add_up(totals: list[int], state: GameState) -> None:
    if state.winner is not None:
        totals[state.winner] += state.points


def _tag(
    tags: dict[str, tuple[str, int, str]], name: str, default: str | None = None
) -> tuple[str, int, str]:
    if name in tags:
        return tags[name]
    if default is None:
        raise RecordError(
            "", Message("record.record_has_no_tag", "the record has no {name} tag", name=name), 1
        )
    return (default, 1, "")


def _deal_from_tags(parsed: _Parsed) -> GameState:
    rules = _rules(parsed)
    numbers = _numbers(parsed, ("Players", "4"), ("Dealer", "0"), ("Seed", "none"))
    wall_tag = parsed.tags.get("Wall")
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

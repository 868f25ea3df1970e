"""Game records: a readable text for a whole deal or match, like PGN for chess.

A record is a few ``[Tag "value"]`` lines, then one move per line in the
notation of :mod:`sevenbridge.notation`. ``#`` starts a comment.

.. code-block:: text

    [Game "Seven Bridge"]
    [Rules "standard"]
    [Option "final_discard" "false"]
    [Players "3"]
    [Dealer "0"]
    [Seed "42"]
    [Result "player 1 went out; scores 0 54 0"]

    P1 Draw
    P1 LayDown 6H 7H 8H
    P1 Discard KS

Rules are a preset plus an ``Option`` tag for each field that differs from it.
The cards come from ``Seed`` (a seeded shuffle) or ``Deck`` (every card, top
first). A match record has ``[MatchSeed "..."]`` instead of ``Seed`` and a
``[Deal "k"]`` line before the moves of deal k.

>>> from sevenbridge import deal, apply, legal_actions
>>> from sevenbridge.records import record, replay
>>> state = deal(seed=42)
>>> for _ in range(5):
...     state = apply(state, legal_actions(state)[-1])
>>> text = record(state)
>>> print(text)
[Game "Seven Bridge"]
[Rules "standard"]
[Players "3"]
[Dealer "0"]
[Seed "42"]
<BLANKLINE>
P1 Draw
P1 Discard 3S
P2 Draw
P2 Discard 5S
P1 Pass
<BLANKLINE>
>>> replay(text)[-1] == state
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from ._kit.recordframe import TAG, VALUE, game_problem, once, rules_tags
from .actions import Action
from .cards import Card, parse_cards
from .engine import apply, deal
from .engine.step import check_state
from .errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    Message,
    RecordError,
    RulesConfigError,
    quote,
)
from .match import Match
from .notation import NotationError, format_move, parse_move
from .rules import Rules
from .state import GameState

__all__ = ["RecordError", "format_rules_tags", "record", "record_match", "replay", "replay_match"]

_INT = re.compile(r"-?[0-9]{1,20}")
#: The ``[Game]`` tags of a deal's and of a match's record.
_GAME, _MATCH = "Seven Bridge", "Seven Bridge match"


def format_rules_tags(rules: Rules) -> list[str]:
    """``Rules`` and ``Option`` tags for rules: the nearest preset and the changes.

    >>> format_rules_tags(Rules(jokers=1))
    ['[Rules "standard"]', '[Option "jokers" "1"]']
    """
    return rules_tags(rules)


def _replays(state: GameState, deck: tuple[Card, ...] | None) -> bool:
    """Whether dealing from the state's seed (or ``deck``) and playing its
    history gives the state back."""
    probe = deal(
        state.rules, players=state.players, dealer=state.dealer, seed=state.seed, deck=deck
    )
    try:
        for action in state.history:
            probe = apply(probe, action)
    except IllegalActionError:
        return False
    return probe == state


def record(state: GameState, *, deck: Iterable[Card | str] | str | None = None) -> str:
    """The record of the deal that led to ``state``.

    Args:
        state: Any position of the deal (its history is recorded).
        deck: The deck the deal was dealt from, when it was dealt with
            ``deal(deck=...)`` rather than from a seed.

    Raises:
        TypeError: if ``state`` is not a GameState.
        InvalidArgumentError: if the deal cannot be replayed from its seed and
            no deck is given, or from the deck given.
    """
    check_state(state, "record")
    cards = None if deck is None else parse_cards(deck)
    if not _replays(state, cards):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.state_this_deal_was",
                "state: this deal was not dealt from its seed: pass the deck it was dealt from (deck=...)",
            )
            if cards is None
            else Message(
                "invalid_argument.record_deck_did_not_deal",
                "deck: the deck given did not deal this state (or its history does not replay from it)",
            )
        )
    lines = [f'[Game "{_GAME}"]', *format_rules_tags(state.rules)]
    lines += [f'[Players "{state.players}"]', f'[Dealer "{state.dealer}"]']
    if cards is not None:
        lines.append(f'[Deck "{" ".join(map(str, cards))}"]')
    lines.append(f'[Seed "{state.seed}"]')
    if state.is_over:
        scores = " ".join(map(str, state.deal_scores or ()))
        lines.append(f'[Result "{state.end_reason}; scores {scores}"]')
    lines.append("")
    lines += [format_move(a) for a in state.history]
    return "\n".join(lines) + "\n"


def record_match(match: Match) -> str:
    """The record of a match so far (every finished deal and the current one).

    >>> from sevenbridge import Match, Rules, observe
    >>> from sevenbridge.bots import RandomPlayer
    >>> match, bot = Match.start(Rules(deals=2), players=2, seed=3), RandomPlayer(3)
    >>> while not match.is_over:
    ...     match = match.apply(bot(observe(match.state)))
    >>> text = record_match(match)
    >>> text.splitlines()[:6]
    ['[Game "Seven Bridge match"]', '[Rules "standard"]', '[Option "deals" "2"]', '[Players "2"]', '[Dealer "0"]', '[MatchSeed "3"]']
    >>> finals = [s for s in replay_match(text) if s.is_over]
    >>> [s.deal_scores for s in finals] == [r.scores for r in match.results]
    True
    """
    lines = [f'[Game "{_MATCH}"]', *format_rules_tags(match.rules)]
    lines += [f'[Players "{match.players}"]', f'[Dealer "{match.first_dealer}"]']
    lines.append(f'[MatchSeed "{match.seed}"]')
    if match.is_over:
        lines.append(f'[Result "totals {" ".join(map(str, match.totals))}"]')
    finals = [r.final for r in match.results]
    if not match.is_over:
        finals.append(match.state)
    for k, final in enumerate(finals, start=1):
        lines += ["", f'[Deal "{k}"]']
        lines += [format_move(a) for a in final.history]
    return "\n".join(lines) + "\n"


@attrs.frozen
class _Parsed:
    tags: dict[str, list[tuple[list[str], int]]]
    moves: list[tuple[Action | str, int]]  # an action, or a "Deal k" marker, with its line


def _parse(text: str) -> _Parsed:
    if not isinstance(text, str):
        raise RecordError(repr(text), Message("record.record_text", "a record is text"))
    tags: dict[str, list[tuple[list[str], int]]] = {}
    moves: list[tuple[Action | str, int]] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        stripped = line.strip()
        if not stripped:
            continue
        indent = len(line) - len(line.lstrip())
        if stripped.startswith("["):
            m = TAG.match(stripped)
            if not m:
                raise RecordError(
                    raw,
                    Message("record.tag_written_name_value", 'a tag is written [Name "value"]'),
                    number,
                    indent + 1,
                )
            name, values = m.group(1), VALUE.findall(m.group(2))
            if name == "Deal":
                moves.append((f"Deal {values[0]}", number))
            else:
                once(seen, name, values, number, raw)
                tags.setdefault(name, []).append((values, number))
            continue
        try:
            moves.append((parse_move(stripped, line=number, offset=indent), number))
        except NotationError as error:
            raise RecordError(raw, error.reason, number, error.column) from None
    return _Parsed(tags, moves)


def _check_game(parsed: _Parsed, wanted: str) -> None:
    """A ``[Game]`` tag, if there is one, must name the game and kind of record read."""
    found = _tag(parsed, "Game", required=False)
    problem = None if found is None else game_problem(found[0], wanted)
    if found is not None and problem is not None:
        raise RecordError(f'[Game "{found[0]}"]', problem, found[1], 1)


def _tag(parsed: _Parsed, name: str, required: bool = True) -> tuple[str, int] | None:
    found = parsed.tags.get(name)
    if not found:
        if required:
            raise RecordError(
                "",
                Message(
                    "record.record_has_no_tag_2", 'the record has no [{name} "..."] tag', name=name
                ),
                1,
                1,
            )
        return None
    values, line = found[0]
    if len(values) != 1:
        raise RecordError(
            name, Message("record.takes_one_value", "[{name}] takes one value", name=name), line, 1
        )
    return values[0], line


def _int_tag(parsed: _Parsed, name: str, required: bool = True) -> int | None:
    found = _tag(parsed, name, required)
    if found is None:
        return None
    value, line = found
    if not _INT.fullmatch(value):
        raise RecordError(
            value,
            Message(
                "record.must_whole_number_at",
                "[{name}] must be a whole number (at most 20 digits)",
                name=name,
            ),
            line,
            1,
        )
    return int(value)


def _rules(parsed: _Parsed) -> Rules:
    found = _tag(parsed, "Rules", required=False)
    name, line = found if found else ("standard", 1)
    try:
        rules = Rules.preset(name)
    except RulesConfigError as error:
        raise RecordError(name, Message("error", "{error}", error=error), line, 1) from None
    changes: dict[str, object] = {}
    for values, opt_line in parsed.tags.get("Option", []):
        if len(values) != 2:
            raise RecordError(
                "Option",
                Message(
                    "record.option_name_value_takes", '[Option "name" "value"] takes two values'
                ),
                opt_line,
                1,
            )
        key, text = values
        if key not in attrs.fields_dict(Rules):
            raise RecordError(
                key,
                Message("record.not_rules_option", "{key} is not a Rules option", key=quote(key)),
                opt_line,
                1,
            )
        value: object = text
        if text in ("true", "false"):
            value = text == "true"
        elif text == "none":
            value = None
        elif _INT.fullmatch(text):
            value = int(text)
        changes[key] = value
    try:
        return rules.replace(**changes)
    except (RulesConfigError, TypeError) as error:
        raise RecordError(
            "Option", Message("error", "{error}", error=error), parsed.tags["Option"][0][1], 1
        ) from None


def _apply_all(
    state: GameState, moves: Iterable[tuple[Action | str, int]], text_lines: list[str]
) -> list[GameState]:
    out = [state]
    for action, line in moves:
        assert not isinstance(action, str)
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            raw = text_lines[line - 1]
            col = len(raw) - len(raw.lstrip()) + 1
            raise RecordError(
                raw,
                Message("record.illegal_move", "illegal move: {reason}", reason=error.reason),
                line,
                col,
            ) from None
        out.append(state)
    return out


def replay(text: str) -> list[GameState]:
    """Every position of a recorded deal, from the deal to the last move.

    Raises:
        RecordError: with the line and column of a malformed line, or of the
            first move that is not legal where it stands.
    """
    parsed = _parse(text)
    _check_game(parsed, _GAME)
    if "MatchSeed" in parsed.tags:
        raise RecordError(
            "MatchSeed",
            Message("record.this_match_record_use", "this is a match record: use replay_match"),
            1,
            1,
        )
    rules = _rules(parsed)
    players = _int_tag(parsed, "Players")
    dealer = _int_tag(parsed, "Dealer", required=False) or 0
    seed = _int_tag(parsed, "Seed", required=False)
    deck_tag = _tag(parsed, "Deck", required=False)
    deck = None
    if deck_tag is not None:
        try:
            deck = parse_cards(deck_tag[0])
        except InvalidCardError as error:
            raise RecordError(
                deck_tag[0], Message("error", "{error}", error=error), deck_tag[1], 1
            ) from None
    elif seed is None:
        raise RecordError(
            "",
            Message(
                "record.record_has_no_seed", 'the record has no [Seed "..."] nor [Deck "..."] tag'
            ),
            1,
            1,
        )
    try:
        state = deal(rules, players=players or 0, dealer=dealer, seed=seed, deck=deck)
    except (TypeError, ValueError) as error:
        raise RecordError(
            "", Message("record.cannot_deal", "cannot deal: {error}", error=error), 1, 1
        ) from None
    markers = [line for move, line in parsed.moves if isinstance(move, str)]
    if markers:
        raise RecordError(
            "Deal",
            Message("record.deal_belongs_match_records", "[Deal] belongs to match records"),
            markers[0],
            1,
        )
    states = _apply_all(state, parsed.moves, text.splitlines())
    final = states[-1]
    scores = " ".join(map(str, final.deal_scores or ()))
    _check_result(parsed, final.is_over, f"{final.end_reason}; scores {scores}")
    return states


def _check_result(parsed: _Parsed, over: bool, expected: str) -> None:
    """A ``[Result]`` tag must say what the moves lead to (and only a finished
    deal or match has one)."""
    found = _tag(parsed, "Result", required=False)
    if found is None:
        return
    value, line = found
    if not over:
        raise RecordError(
            value,
            Message(
                "record.result_given_but_moves", "[Result] is given, but the moves do not finish it"
            ),
            line,
            1,
        )
    if value != expected:
        raise RecordError(
            value,
            Message(
                "record.result_does_not_match",
                "[Result] does not match the moves, which give {expected}",
                expected=quote(expected),
            ),
            line,
            1,
        )


def replay_match(text: str) -> list[GameState]:
    """Every position of every deal of a recorded match, in order.

    Raises:
        RecordError: as :func:`replay`.
    """
    parsed = _parse(text)
    _check_game(parsed, _MATCH)
    rules = _rules(parsed)
    players = _int_tag(parsed, "Players") or 0
    dealer = _int_tag(parsed, "Dealer", required=False) or 0
    seed = _int_tag(parsed, "MatchSeed")
    try:
        match = Match.start(rules, players=players, seed=seed, dealer=dealer)
    except (TypeError, ValueError) as error:
        raise RecordError(
            "",
            Message("record.cannot_start_match", "cannot start the match: {error}", error=error),
            1,
            1,
        ) from None
    lines = text.splitlines()
    out: list[GameState] = [match.state]
    deal_no = 0
    for move, line in parsed.moves:
        raw = lines[line - 1]
        col = len(raw) - len(raw.lstrip()) + 1
        if isinstance(move, str):
            deal_no += 1
            if move != f"Deal {deal_no}":
                raise RecordError(
                    raw,
                    Message(
                        "record.expected_deal", 'expected [Deal "{deal_no}"]', deal_no=str(deal_no)
                    ),
                    line,
                    col,
                )
            if match.is_over or match.deal_number != deal_no:
                raise RecordError(
                    raw,
                    Message(
                        "record.deal_cannot_start_here",
                        "deal {deal_no} cannot start here",
                        deal_no=str(deal_no),
                    ),
                    line,
                    col,
                )
            continue
        if deal_no == 0:
            raise RecordError(
                raw,
                Message(
                    "record.match_record_moves_come",
                    'a match record\'s moves come after [Deal "1"]',
                ),
                line,
                col,
            )
        before = len(match.results)
        try:
            match = match.apply(move)
        except IllegalActionError as error:
            raise RecordError(
                raw,
                Message("record.illegal_move", "illegal move: {reason}", reason=error.reason),
                line,
                col,
            ) from None
        if len(match.results) > before:
            out.append(match.results[-1].final)
            if not match.is_over:
                out.append(match.state)
        else:
            out.append(match.state)
    _check_result(parsed, match.is_over, f"totals {' '.join(map(str, match.totals))}")
    return out

"""Game records: write, parse and replay; malformed records give line and column,
and any text given to a reader fails only with the library's own errors."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import (
    GameState,
    Match,
    RecordError,
    Rules,
    apply,
    deal,
    full_deck,
    legal_actions,
    record,
    record_match,
    replay,
    replay_match,
)
from sevenbridge.bots import RandomPlayer
from sevenbridge.errors import InvalidArgumentError

from .budgets import THOROUGH
from .strategies import reachable_states


@given(reachable_states(rule_choices=[
    Rules(), Rules.nintendo(), Rules.seven_rummy(),
    Rules(final_discard=False, jokers=1, card_values="alternate_ace_15"),
]))  # fmt: skip
def test_records_replay_to_the_same_states(state: GameState) -> None:
    text = record(state)
    states = replay(text)
    assert states[-1] == state and states[-1].history == state.history
    assert len(states) == len(state.history) + 1
    assert record(states[-1]) == text


def test_record_of_a_stacked_deck_needs_the_deck() -> None:
    deck = list(reversed(full_deck()))
    state = deal(deck=deck)
    state = apply(state, legal_actions(state)[0])
    with pytest.raises(ValueError, match=r"deck=\.\.\."):
        record(state)
    text = record(state, deck=deck)
    assert "[Deck " in text
    assert replay(text)[-1] == state


def test_finished_deal_records_its_result() -> None:
    state = deal(Rules.nintendo(), players=4, seed=3)
    bot = RandomPlayer(3)
    while not state.is_over:
        state = apply(state, bot(state))
    text = record(state)
    assert '[Result "' in text and "[Option" not in text and '[Rules "nintendo"]' in text
    assert replay(text)[-1] == state


def test_changed_options_are_written_as_option_tags() -> None:
    rules = Rules.nintendo().replace(final_discard=False, reshuffle_limit=5)
    text = record(deal(rules, seed=1))
    assert '[Option "final_discard" "false"]' in text
    assert '[Option "reshuffle_limit" "5"]' in text
    assert replay(text)[0].rules == rules


@given(st.sampled_from(Rules.presets()), st.integers(2, 4), st.integers(0, 10**6))
def test_match_records_replay(preset: str, players: int, seed: int) -> None:
    match = Match.start(Rules.preset(preset), players=players, seed=seed)
    bot = RandomPlayer(seed)
    while not match.is_over:
        match = match.apply(bot(match.state))
    text = record_match(match)
    states = replay_match(text)
    finals = [s for s in states if s.is_over]
    assert finals == [r.final for r in match.results]


BASE = '[Rules "standard"]\n[Players "3"]\n[Seed "5"]\n\n'


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        (BASE + "P1 Draw\n  P1 Jump\n", 6, 6, "is not an action"),
        (BASE + "P1 Draw\nP1 Discard 7X\n", 6, 12, "suit 'X'"),
        (BASE + "P2 Draw\n", 5, 1, "illegal move: it is player 1's decision"),
        ('[Rules "standard"\n', 1, 1, 'a tag is written [Name "value"]'),
        ('[Rules "bridge"]\n[Players "3"]\n[Seed "1"]\n', 1, 1, "no preset named 'bridge'"),
        ('[Players "3"]\n', 1, 1, "no [Seed"),
        ('[Players "x"]\n[Seed "1"]\n', 1, 1, "whole number"),
        ('[Players "9"]\n[Seed "1"]\n', 1, 1, "2 to 5 players"),
        ('[Option "colour" "red"]\n[Players "3"]\n[Seed "1"]\n', 1, 1, "not a Rules option"),
    ],
)
def test_malformed_records_give_line_and_column(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(RecordError) as info:
        replay(text)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert words in str(info.value)


def test_comments_and_blank_lines_are_ignored() -> None:
    text = BASE + "# the first turn\nP1 Draw   # draws\n\n"
    assert len(replay(text)) == 2


# --- records that are odd, tampered or repeat a tag; any text read ------------------------
def _a_record() -> str:
    from sevenbridge import record
    from sevenbridge.bots import RandomPlayer

    state, bot = deal(seed=5), RandomPlayer(5)
    while not state.is_over:
        state = apply(state, bot(state))
    return record(state)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('[Seed "5"]', '[Seed "' + "9" * 5000 + '"]'),
        ('[Seed "5"]', '[Seed "²"]'),
        ('[Seed "5"]', '[Seed "-5"]'),
        ('[Players "3"]', '[Players "²"]'),
        ('[Players "3"]', '[Players "9"]'),
        ('[Dealer "0"]', '[Dealer "٣"]'),
        ('[Rules "standard"]', '[Rules "standard"]\n[Option "deals" "' + "9" * 5000 + '"]'),
        ('[Rules "standard"]', '[Rules "standard"]\n[Option "jokers" "²"]'),
        ("P1 Draw", "P² Draw"),
        ("P1 Draw", "P1 LayOff 8H>" + "9" * 5000),
    ],
)
def test_replay_refuses_odd_numbers(old: str, new: str) -> None:
    from sevenbridge import replay
    from sevenbridge.records import RecordError

    text = _a_record()
    assert old in text
    with pytest.raises(RecordError) as info:
        replay(text.replace(old, new, 1))
    assert len(str(info.value)) < 400


def test_replay_checks_the_result_tag() -> None:
    from sevenbridge import replay
    from sevenbridge.records import RecordError

    text = _a_record()
    assert len(replay(text)) > 1
    lines = text.splitlines()
    (i,) = [k for k, line in enumerate(lines) if line.startswith("[Result")]
    tampered = [*lines[:i], '[Result "player 0 went out; scores 99 0 0"]', *lines[i + 1 :]]
    with pytest.raises(RecordError, match=r"\[Result\] does not match the moves"):
        replay("\n".join(tampered))
    unfinished = [line for line in lines if line.strip()][:-1]
    with pytest.raises(RecordError, match="do not finish it"):
        replay("\n".join(unfinished))


def test_record_of_a_state_not_dealt_from_its_seed() -> None:
    from sevenbridge import full_deck, record
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="pass the deck"):
        record(deal(deck=full_deck()[::-1], seed=1))


_PIECES = [
    '[Game "Seven Bridge"]', '[Rules "standard"]', '[Rules "nintendo"]', '[Players "3"]',
    '[Players "²"]', '[Dealer "0"]', '[Seed "7"]', '[Seed "' + "9" * 30 + '"]',
    '[MatchSeed "3"]', '[Deal "1"]', '[Result "x"]', '[Option "jokers" "1"]',
    '[Option "deals" "0"]', '[Option "first_dealer" "lowest_cut"]', '[Deck "2C 3C"]',
    "P0 Draw", "P1 Draw", "P2 Pass", "P1 Discard 7H", "P1 LayOff 8H>²", "P٣ Draw",
    "P1 LayDown JK=7H 6H 8H", "P0: 2C 3D", "P1: 9S", "P2: KC", "turn: P1 draw",
    "turn: P0 pon", "dealer: ²", "players: 9", "melds: P1 7S", "discards: 3C",
    "stock: rest", "turns done: 3", "normal turns: P0 P9", "rules: seven_rummy", "",
]  # fmt: skip


@THOROUGH
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=12), max_size=12))
def test_text_readers_raise_only_library_errors(lines: list[str]) -> None:
    from sevenbridge import SevenBridgeError, position, replay, replay_match
    from sevenbridge.notation import parse_move

    text = "\n".join(lines)
    for read in (replay, replay_match, position, parse_move):
        with contextlib.suppress(SevenBridgeError):
            read(text)


@pytest.mark.parametrize("players", ["0", "1", "6", "99999"])
def test_replay_match_refuses_a_bad_table_size(players: str) -> None:
    text = (
        '[Rules "standard"]\n[Option "first_dealer" "lowest_cut"]\n'
        f'[Players "{players}"]\n[MatchSeed "3"]\n[Deal "1"]\n'
    )
    with pytest.raises(RecordError, match="players must be from 2 to 5"):
        replay_match(text)


def _records() -> list[tuple[Any, str]]:
    """A deal record of each game, with the replay that reads it."""
    from sevenbridge import mahjong, record, replay

    state = deal(seed=5)
    for _ in range(3):
        state = apply(state, legal_actions(state)[-1])
    tiles = mahjong.deal(seed=5, players=2)
    tiles = mahjong.apply(tiles, mahjong.legal_actions(tiles)[0])
    return [(replay, record(state)), (mahjong.replay, mahjong.record(tiles))]


@pytest.mark.parametrize("tag", ["Seed", "Players", "Rules", "Game"])
def test_records_refuse_a_tag_given_twice(tag: str) -> None:
    for read, text in _records():
        lines = text.splitlines()
        first = next(k for k, line in enumerate(lines) if line.startswith(f"[{tag} "))
        lines.insert(first + 1, lines[first])
        with pytest.raises(
            RecordError,
            match=rf"line {first + 2}, column 1: \[{tag}\] is given twice \(first on line {first + 1}\)",
        ):
            read("\n".join(lines) + "\n")


def test_records_refuse_an_option_given_twice() -> None:
    for read, text in _records():
        lines = text.splitlines()
        lines[1:1] = (
            ['[Option "final_discard" "false"]'] * 2
            if read.__module__ == "sevenbridge.records"
            else ['[Option "kong" "true"]'] * 2
        )
        with pytest.raises(
            RecordError, match=r"line 3, column 1: \[Option .*\] is given twice \(first on line 2\)"
        ):
            read("\n".join(lines) + "\n")


def test_record_match_tags_given_twice() -> None:
    from sevenbridge import Match, mahjong, record_match

    match = Match.start(Rules(deals=2), players=2, seed=3)
    text = record_match(match).replace('[Players "2"]', '[Players "2"]\n[Players "2"]')
    with pytest.raises(RecordError, match=r"\[Players\] is given twice"):
        replay_match(text)
    result = mahjong.play_match(
        [mahjong.GreedyPlayer(seed=s) for s in range(2)], rules=mahjong.Rules(rounds=1), seed=9
    )
    text = mahjong.record_match(result).replace('[Dealer "0"]', '[Dealer "0"]\n[Dealer "0"]')
    with pytest.raises(RecordError, match=r"\[Dealer\] is given twice"):
        mahjong.replay_match(text)


def test_seven_bridge_records_check_the_game_tag() -> None:
    from sevenbridge import Match, record_match, replay

    (_, text), (_, tiles) = _records()
    assert replay(text.replace('[Game "Seven Bridge"]\n', ""))  # a record may leave it out
    with pytest.raises(RecordError, match="line 1, column 1: this is a Simple Mahjong record"):
        replay(text.replace("Seven Bridge", "Simple Mahjong"))
    with pytest.raises(RecordError, match="this is a Simple Mahjong record"):
        replay(tiles)
    with pytest.raises(RecordError, match="this is not a Seven Bridge record"):
        replay(text.replace("Seven Bridge", "Chess"))
    with pytest.raises(RecordError, match="this is a match record: use replay_match"):
        replay(text.replace('"Seven Bridge"', '"Seven Bridge match"'))
    match_text = record_match(Match.start(Rules(deals=2), players=2, seed=3))
    assert replay_match(match_text)
    with pytest.raises(RecordError, match="this is not a match record: use replay"):
        replay_match(match_text.replace('"Seven Bridge match"', '"Seven Bridge"'))
    with pytest.raises(RecordError, match="this is a Simple Mahjong record"):
        replay_match(match_text.replace("Seven Bridge match", "Simple Mahjong match"))


def test_record_refuses_a_deck_that_did_not_deal_the_state() -> None:
    from sevenbridge import full_deck, record, replay

    deck = full_deck()[::-1]
    state = deal(deck=deck, seed=1)
    state = apply(state, legal_actions(state)[0])
    assert replay(record(state, deck=deck))[-1] == state
    for wrong in (full_deck(), deck[1:] + deck[:1]):
        with pytest.raises(InvalidArgumentError, match="the deck given did not deal this state"):
            record(state, deck=wrong)
    seeded = deal(seed=1)
    assert replay(record(seeded))[-1] == seeded
    with pytest.raises(InvalidArgumentError, match="the deck given did not deal this state"):
        record(seeded, deck=deck)

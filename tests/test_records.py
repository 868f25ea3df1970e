"""Game records: write, parse and replay; malformed records give line and column."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
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

from .strategies import reachable_states


@settings(max_examples=50, deadline=None)
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


@settings(max_examples=15, deadline=None)
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

"""Records replay move for move; render and explain describe positions and moves."""

from __future__ import annotations

import random

import pytest

from sevenbridge import RecordError
from sevenbridge.mahjong import (
    Action,
    Discard,
    Draw,
    Pass,
    Pung,
    Rules,
    apply,
    deal,
    explain,
    legal_actions,
    record,
    render,
    replay,
    stacked_wall,
)

from .helpers import JUNK, play, start


def _random_round(rules: Rules, players: int, seed: int) -> list[Action]:
    rng = random.Random(seed)
    state = deal(rules, players=players, seed=seed)
    moves = []
    while not state.is_over:
        action = rng.choice(legal_actions(state))
        moves.append(action)
        state = apply(state, action)
    return moves


@pytest.mark.parametrize("preset", Rules.presets())
def test_records_replay_whole_rounds(preset: str) -> None:
    rules = Rules.preset(preset).replace(reserve=4)
    for seed in range(4):
        players = 2 + seed % 3
        moves = _random_round(rules, players, seed)
        text = record(moves, rules=rules, players=players, seed=seed)
        state, replayed = replay(text)
        assert list(replayed) == moves and state.is_over
        assert f'[Seed "{seed}"]' in text and '[Option "reserve" "4"]' in text


def test_a_stacked_wall_is_recorded() -> None:
    wall = stacked_wall(["111222333m 4445p", "123567p 99p 123s 56s"], "5p")
    text = record([Draw(0)], players=2, wall=wall)
    assert "[Wall " in text and '[Result "unfinished"]' in text
    state, _ = replay(text)
    assert len(state.hands[0]) == 14


def test_a_bad_record_names_its_line() -> None:
    text = record([Draw(0)], players=2, seed=4)
    with pytest.raises(RecordError, match="line 9") as info:
        replay(text + "P1 Draw\n")
    assert info.value.line == 9 and "seat 0 who must act" in info.value.reason
    with pytest.raises(RecordError, match="Seed or a Wall"):
        replay('[Game "Simple Mahjong"]\n\n')
    with pytest.raises(RecordError, match="expected a tag"):
        replay('[Game "Simple Mahjong"]\nSeed 5\n')
    with pytest.raises(RecordError, match="bad rules"):
        replay('[Game "Simple Mahjong"]\n[Option "kong" "maybe"]\n[Seed "1"]\n\n')


def test_render_hides_other_hands() -> None:
    state = deal(seed=1, players=2)
    mine = render(state, viewer=0)
    assert "(13 tiles)" in mine and mine.count("hand (") == 1
    assert "(13 tiles)" not in render(state)
    assert str(state) == render(state)


def test_explain_names_the_rule_or_the_effect() -> None:
    state = play(start([JUNK, "5s5s 258m 369p EESSW"], "5s", players=2), "P0 Draw")
    assert explain(state, Draw(0)).startswith("Illegal: a draw starts a turn")
    assert explain(state, Discard(0, "5s")).startswith("Legal. P0 discards 5s.")
    claim = apply(state, Discard(0, "5s"))
    assert "claims P0's 5s for a pung" in explain(claim, Pung(1))
    assert "lets P0's 5s go" in explain(claim, Pass(1))
    assert "seat 1 who must act" in explain(claim, Pung(0))


def test_explain_wins_waits_and_kongs() -> None:
    from sevenbridge.mahjong import Kong, Mahjong

    state = play(start(["111222333m 4445p", JUNK.replace("1m", "6m")], "5p", players=2), "P0 Draw")
    assert explain(state, Mahjong(0)).startswith("Legal. P0 wins with the last tile drawn")
    assert "waits on 3p 5p 6p" in explain(state, Discard(0, "5p"))
    kong = start(["EEE 5s5s 258m 369p Gd Rd", JUNK.replace("E", "6m")], "E", players=2,
                 rules=Rules(kong=True), back="1s")  # fmt: skip
    kong = play(kong, "P0 Draw")
    assert "kong of E from the hand" in explain(kong, Kong(0, "E"))
    claim = play(start([JUNK, "5s5s 111m 222m 333m 44p"], "5s", players=2), "P0 Draw")
    claim = play(claim, "P0 Discard 5s")
    assert "claimed from P0" in explain(claim, Mahjong(1))
    assert explain(claim, Kong(1, "5s")).startswith("Illegal: kongs are not played")

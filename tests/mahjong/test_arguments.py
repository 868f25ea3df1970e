"""Bad input to the mahjong API gets a clear library error or a TypeError naming
the argument, never a raw error from deep inside."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sevenbridge import SevenBridgeError
from sevenbridge.mahjong import (
    Chow,
    Discard,
    Draw,
    Kong,
    Meld,
    MeldKind,
    Rules,
    Tile,
    apply,
    deal,
    decompositions,
    explain,
    is_mahjong,
    legal_actions,
    observe,
    parse_action,
    parse_tiles,
    play_match,
    render,
    sample_state,
    stacked_wall,
    waits,
)

STATE = deal(seed=1)
BAD: list[tuple[str, Callable[[], Any]]] = [
    ("deal players", lambda: deal(players=1)),
    ("deal players type", lambda: deal(players="4")),  # type: ignore[arg-type]
    ("deal seed", lambda: deal(seed=-1)),
    ("deal wall type", lambda: deal(wall=5)),  # type: ignore[arg-type]
    ("deal wall text", lambda: deal(wall="1m 2m")),
    ("deal rules", lambda: deal(Rules.full, players=2)),  # type: ignore[arg-type]
    ("legal_actions", lambda: legal_actions("state")),
    ("apply text", lambda: apply(STATE, "P0 Draw")),
    ("apply list", lambda: apply(STATE, [1])),
    ("apply view", lambda: apply(observe(STATE), Draw(0))),
    ("apply seat", lambda: apply(STATE, Draw(3))),
    ("action seat", lambda: Draw(4)),
    ("action seat type", lambda: Draw("0")),
    ("discard tile", lambda: Discard(0, "0m")),
    ("discard type", lambda: Discard(0, 1.5)),
    ("chow three", lambda: Chow(0, "123m")),
    ("chow type", lambda: Chow(0, 5)),
    ("kong tile", lambda: Kong(0, "EE")),
    ("parse_action", lambda: parse_action("draw")),
    ("parse_action type", lambda: parse_action(5)),  # type: ignore[arg-type]
    ("tile", lambda: Tile(-1)),
    ("tile type", lambda: Tile(1.0)),
    ("parse_tiles bytes", lambda: parse_tiles(b"1m")),  # type: ignore[arg-type]
    ("meld", lambda: Meld(MeldKind.CHOW, "EEE")),
    ("meld kind", lambda: Meld("triple", "EEE")),
    ("meld owner", lambda: Meld(MeldKind.PUNG, "EEE", owner=9)),
    ("is_mahjong type", lambda: is_mahjong(14)),  # type: ignore[arg-type]
    ("decompositions copies", lambda: decompositions("11111m")),
    ("waits size", lambda: waits("1m")),
    ("observe seat", lambda: observe(STATE, 7)),
    ("sample seed", lambda: sample_state(observe(STATE), -3)),
    ("render", lambda: render("x")),  # type: ignore[arg-type]
    ("explain", lambda: explain("x", Draw(0))),  # type: ignore[arg-type]
    ("rules", lambda: Rules(kong="yes")),  # type: ignore[arg-type]
    ("rules enum", lambda: Rules(self_draw_win="maybe")),
    ("rules reserve", lambda: Rules(reserve=99)),
    ("preset", lambda: Rules.preset("riichi")),
    ("stacked_wall hand", lambda: stacked_wall(["1m"])),
    ("stacked_wall copies", lambda: stacked_wall(["1111m 1111p 1111s E", "1m" * 13])),
    ("play_match players", lambda: play_match([])),
    ("play_match seed", lambda: play_match([lambda v: v.legal_actions[0]] * 2, seed=-1)),
    ("GameState.from_json", lambda: STATE.from_json("[]")),
]


@pytest.mark.parametrize(("name", "call"), BAD, ids=[name for name, _ in BAD])
def test_bad_input_gets_a_clear_error(name: str, call: Callable[[], Any]) -> None:
    with pytest.raises((SevenBridgeError, TypeError)) as info:
        call()
    error = info.value
    assert str(error)
    if isinstance(error, TypeError):
        assert not isinstance(error, SevenBridgeError)
        assert "must" in str(error) or "not" in str(error), str(error)

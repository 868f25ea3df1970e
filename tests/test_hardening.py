"""Holes found by the outside review (issue: Hardening), each pinned by a test."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sevenbridge import Discard, Draw, Match, Pass, Rules, apply, deal, legal_actions
from sevenbridge.bots import GreedyPlayer, RandomPlayer
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.records import RecordError, replay_match


def test_history_nodes_cannot_be_changed() -> None:
    state = apply(deal(seed=1), Draw(1))
    log = state.move_log
    assert log is not None
    for name in ("prev", "action", "length"):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(log, name, None)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            delattr(log, name)
    assert state.history == (Draw(1),)


# --- item 3: explain names the real problem ----------------------------------------------
def test_explain_natural_card_with_joker_as() -> None:
    from sevenbridge import LayOff, explain, position

    table = position(
        """
        P0: 2C 3D 4H
        P1: 8S 9D KC
        P2: 5C 6C 8C
        melds: P1 7S
        turn: P1 play
        """
    )
    text = explain(table, LayOff(1, "8S", 0, joker_as="8S"))
    assert "holds no joker" in text
    assert "single 7" not in text


# --- item 7: actions check their types ---------------------------------------------------
@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_action_player_must_be_an_int(bad: object) -> None:
    from sevenbridge import Discard, Pass

    for build in (lambda: Draw(bad), lambda: Pass(bad), lambda: Discard(bad, "7H")):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="player must be an int"):
            build()


def test_action_player_and_target_ranges() -> None:
    from sevenbridge import LayOff
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="player must be from 0 to 4"):
        Draw(-1)
    with pytest.raises(TypeError, match="target must be an int"):
        LayOff(0, "8S", 1.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="target must be from 0 to 52"):
        LayOff(0, "8S", 53)
    assert LayOff(0, "8S", 52).target == 52


def test_an_int_subclass_player_is_stored_as_int() -> None:
    class Seat(int):
        pass

    action = Draw(Seat(1))
    assert type(action.player) is int


# --- item 11: wrong argument types -------------------------------------------------------
def test_apply_and_explain_refuse_an_observation() -> None:
    from sevenbridge import explain, observe

    view = observe(deal(seed=1), 1)
    with pytest.raises(TypeError, match=r"apply\(\) needs a GameState, not Observation"):
        apply(view, Draw(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"explain\(\) needs a GameState"):
        explain(view, Draw(1))


def test_apply_refuses_what_is_not_an_action() -> None:
    state = deal(seed=1)
    for bad in ([1], {"type": "Draw"}, "Draw", None):
        with pytest.raises(TypeError, match="action must be a Draw"):
            apply(state, bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call",
    [
        "hand_points('5C', 'nintendo')",
        "explain_hand_points('5C', 'nintendo')",
        "is_valid_meld('6H 7H', 'nintendo')",
        "why_not_meld('6H 7H', 'nintendo')",
        "meld_interpretations('6H 7H', 'nintendo')",
        "Meld.parse('6H 7H 8H', 'nintendo')",
        "full_deck('nintendo')",
        "position('P0: 2C\\nP1: 3C\\nturn: P0 draw', 'nintendo')",
    ],
)
def test_rules_given_as_a_string(call: str) -> None:
    import sevenbridge

    with pytest.raises(TypeError, match=r"rules must be a Rules value, not str; .*Rules\.preset"):
        eval(call, vars(sevenbridge))


def test_other_wrong_types() -> None:
    from sevenbridge import Meld, parse_cards

    with pytest.raises(TypeError, match="cards must be a string"):
        parse_cards(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be a string"):
        Meld.parse(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        deal("standard")  # type: ignore[arg-type]


def test_deal_arguments_out_of_range() -> None:
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="players must be from 2 to 5"):
        deal(players=6)
    with pytest.raises(TypeError, match="players must be an int"):
        deal(players=3.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="dealer must be from 0 to 2"):
        deal(players=3, dealer=3)


# --- item 12: smaller silent acceptances -------------------------------------------------
def test_hand_points_refuses_duplicates_and_foreign_jokers() -> None:
    from sevenbridge import Rules, explain_hand_points, hand_points
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="7H is given twice"):
        hand_points("7H 7H")
    with pytest.raises(InvalidArgumentError, match="JK is not in the deck"):
        hand_points("JK 5C")
    with pytest.raises(InvalidArgumentError, match="given twice"):
        explain_hand_points("7H 7H")
    assert hand_points("JK 5C", Rules(jokers=1)) == 25


def test_meld_fields_are_converted_and_checked() -> None:
    from sevenbridge import Card, Meld, MeldKind
    from sevenbridge.errors import InvalidArgumentError
    from sevenbridge.melds import InvalidMeldError

    meld = Meld("run", "6H 7H JK", joker_as="8H")
    assert meld.kind is MeldKind.RUN
    assert meld.joker_as == Card.parse("8H")
    with pytest.raises(InvalidMeldError, match="'rn' is not"):
        Meld("rn", "6H 7H 8H")
    with pytest.raises(InvalidArgumentError, match="owner must be from 0 to 4"):
        Meld(MeldKind.RUN, "6H 7H 8H", owner=7)
    with pytest.raises(TypeError, match="owner must be an int"):
        Meld(MeldKind.RUN, "6H 7H 8H", owner="1")  # type: ignore[arg-type]


def test_card_refuses_a_bool_suit() -> None:
    from sevenbridge import Card, InvalidCardError

    with pytest.raises(InvalidCardError, match="not a bool"):
        Card(7, True)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        Card(False, None)


# --- position() --------------------------------------------------------------------------
_BASE = "P0: 2C 3D 4H\nP1: 8S 9D KC\nturn: P1 draw\n"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("dealer: x\n", "dealer is a whole number"),
        ("dealer: ²\n", "dealer is a whole number"),
        ("dealer: 5\n", "dealer must be a player from 0 to 1"),
        ("turns done: ²\n", "turns done is a whole number"),
        ("turns done: " + "9" * 5000 + "\n", "turns done is a whole number"),
        ("players: 3\n", "players says 3, but 2 hands are given"),
        ("P0: 5C\n", "a second line for P0"),
        ("dealer: 0\ndealer: 1\n", "a second 'dealer' line"),
        ("discarder: P٣\n", "is not a player"),
    ],
)
def test_position_refuses_unclear_lines(extra: str, message: str) -> None:
    from sevenbridge import InvalidStateError, position

    with pytest.raises(InvalidStateError, match=message):
        position(_BASE + extra)


def test_position_players_line_that_agrees() -> None:
    from sevenbridge import position

    assert position(_BASE + "players: 2\ndealer: 1\n").dealer == 1


def test_position_rules_twice() -> None:
    from sevenbridge import InvalidStateError, Rules, position

    with pytest.raises(InvalidStateError, match="given as an argument differ"):
        position(_BASE + "rules: nintendo\n", Rules())


# --- item 4: readers of untrusted text refuse odd numbers with their own errors ----------
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


@pytest.mark.parametrize("text", ["P² Draw", "P1 LayOff 8H>²", "P1 Discard ²H", "P٣ Draw"])
def test_parse_move_refuses_unicode_digits(text: str) -> None:
    from sevenbridge.notation import NotationError, parse_move

    with pytest.raises(NotationError):
        parse_move(text)


def test_record_of_a_state_not_dealt_from_its_seed() -> None:
    from sevenbridge import full_deck, record
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="pass the deck"):
        record(deal(deck=full_deck()[::-1], seed=1))


# --- JSON readers (items 4, 6, 9, 12) ----------------------------------------------------
def _state_doc(seed: int = 3) -> dict[str, object]:
    import json

    from sevenbridge.bots import GreedyPlayer

    state, bot = deal(seed=seed, players=3), GreedyPlayer(seed)
    for _ in range(25):
        state = apply(state, bot(state))
    doc: dict[str, object] = json.loads(state.to_json())
    return doc


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "sevenbridge.rules", "version": ' + "9" * 5000 + "}",
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": 1'
        + "0" * 4400
        + "}",
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": NaN}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": Infinity}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Draw", "player": 1, "player": 0}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Discard", "player": 1, "card": "²H"}',
        '{"format": "sevenbridge.action", "version": 1, "type": "LayOff", "player": 1, '
        '"card": "8H", "target": 1.0, "joker_as": null}',
        '{"format": "sevenbridge.action", "version": 1, "type": "LayOff", "player": 1, '
        '"card": "8H", "target": 53, "joker_as": null}',
        '{"format": "sevenbridge.action", "version": 1, "type": "Pass", "player": true}',
        b"\xff\xfe",
    ],
)
def test_action_and_rules_readers_raise_library_errors(text: str | bytes) -> None:
    from sevenbridge import Draw, InvalidStateError, Rules

    for read in (Draw.from_json, Rules.from_json):
        with pytest.raises(InvalidStateError) as info:
            read(text)
        assert len(str(info.value)) < 300


def test_state_reader_refuses_duplicate_keys_and_long_numbers() -> None:
    import json

    from sevenbridge import GameState, InvalidStateError, Observation, observe

    text = json.dumps(_state_doc())
    assert GameState.from_json(text)
    with pytest.raises(InvalidStateError, match="appears twice"):
        GameState.from_json(text[:-1] + ', "seed": 3}')
    with pytest.raises(InvalidStateError, match="more than 20 digits"):
        GameState.from_json(text.replace('"seed": 3', '"seed": 1' + "0" * 30))
    view = observe(GameState.from_json(text), 0).to_json()
    with pytest.raises(InvalidStateError, match="appears twice"):
        Observation.from_json(view[:-1] + ', "viewer": 0}')


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_every_seed_deal_accepts_is_read_back(seed: int) -> None:
    from sevenbridge import GameState

    state = deal(seed=seed)
    assert GameState.from_json(state.to_json(), verify=True) == state


@pytest.mark.parametrize("seed", [-5, 2**64, -(2**70)])
def test_deal_refuses_seeds_it_could_not_read_back(seed: int) -> None:
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="seeds are 64-bit"):
        deal(seed=seed)


def test_long_deals_and_large_scores_read_back() -> None:
    from sevenbridge import GameState, Rules
    from sevenbridge.bots import RandomPlayer
    from sevenbridge.serialize import max_history

    rules = Rules(reshuffle_limit=100, joker_multiplier=100, jokers=1)
    longest = 0
    for seed in range(6):
        state, bot = deal(rules, players=5, seed=seed), RandomPlayer(seed)
        while not state.is_over:
            state = apply(state, bot(state))
        longest = max(longest, len(state.history))
        assert len(state.history) <= max_history(rules, 5)
        assert GameState.from_json(state.to_json(), verify=True) == state
    # a deal where nobody melds runs through every reshuffle: the longest kind
    state = deal(rules, players=5, seed=1)
    while not state.is_over:
        moves = legal_actions(state)
        quiet = [m for m in moves if isinstance(m, (Draw, Pass, Discard))]
        state = apply(state, quiet[0])
    assert state.reshuffles == 100 and state.winner is None
    longest = max(longest, len(state.history))
    assert longest <= max_history(rules, 5)
    assert GameState.from_json(state.to_json(), verify=True) == state
    assert longest > 10_000


def test_rules_bounds_are_explicit() -> None:
    from sevenbridge import Rules, RulesConfigError

    for field, too_big in [
        ("joker_multiplier", 101),
        ("reshuffle_limit", 101),
        ("deals", 1001),
        ("target_score", 10**6 + 1),
    ]:
        with pytest.raises(RulesConfigError, match="to"):
            Rules().replace(**{field: too_big})


def test_tampered_states_are_refused() -> None:
    import json

    from sevenbridge import GameState, InvalidStateError

    doc = _state_doc()
    good = json.dumps(doc)
    assert GameState.from_json(good, verify=True)
    hands = doc["hands"]
    assert isinstance(hands, list)
    # cards swapped between two hands: consistent on its face, refused by verify
    swapped = json.loads(good)
    a, b = swapped["hands"][0][0], swapped["hands"][1][0]
    swapped["hands"][0][0], swapped["hands"][1][0] = b, a
    GameState.from_json(json.dumps(swapped))
    with pytest.raises(InvalidStateError, match="does not lead to this position"):
        GameState.from_json(json.dumps(swapped), verify=True)
    # a reversed stock
    reversed_stock = json.loads(good)
    reversed_stock["stock"] = reversed_stock["stock"][::-1]
    with pytest.raises(InvalidStateError, match="stock_cards differs"):
        GameState.from_json(json.dumps(reversed_stock), verify=True)
    # a made-up history of 5,000 draws: refused even without verify
    drawn = json.loads(good)
    drawn["history"] = ["P0 Draw"] * 5000
    with pytest.raises(InvalidStateError, match="history"):
        GameState.from_json(json.dumps(drawn))
    # a history whose moves do not replay
    shuffled = json.loads(good)
    shuffled["history"] = shuffled["history"][::-1]
    with pytest.raises(InvalidStateError, match=r"history\[0\]"):
        GameState.from_json(json.dumps(shuffled), verify=True)
    # another seed
    reseeded = json.loads(good)
    reseeded["seed"] = 4
    with pytest.raises(InvalidStateError):
        GameState.from_json(json.dumps(reseeded), verify=True)


# --- every reader of untrusted text fails only with the library's own errors -------------
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


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=12), max_size=12))
def test_text_readers_raise_only_library_errors(lines: list[str]) -> None:
    from sevenbridge import SevenBridgeError, position, replay, replay_match
    from sevenbridge.notation import parse_move

    text = "\n".join(lines)
    for read in (replay, replay_match, position, parse_move):
        with contextlib.suppress(SevenBridgeError):
            read(text)


@pytest.mark.parametrize("players", [0, 1, 6, 9])
@pytest.mark.parametrize("preset", ["standard", "nintendo"])
def test_match_start_checks_the_table_size(players: int, preset: str) -> None:
    rules = Rules.preset(preset)
    with pytest.raises(InvalidArgumentError, match="players must be from 2 to 5"):
        Match.start(rules, players=players, seed=1)


def test_match_start_checks_every_argument() -> None:
    lowest_cut = attrs.evolve(Rules(), first_dealer="lowest_cut")
    with pytest.raises(TypeError, match=r"Rules\.preset\('nintendo'\)"):
        Match.start("nintendo", players=3, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="players must be an int"):
        Match.start(lowest_cut, players="3", seed=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seed"):
        Match.start(lowest_cut, players=3, seed=-1)
    with pytest.raises(InvalidArgumentError, match="seed"):
        Match.start(lowest_cut, players=3, seed=2**64)
    with pytest.raises(InvalidArgumentError, match="dealer"):
        Match.start(Rules(), players=3, seed=1, dealer=3)
    assert Match.start(lowest_cut, players=5, seed=2**64 - 1).players == 5


@pytest.mark.parametrize("players", ["0", "1", "6", "99999"])
def test_replay_match_refuses_a_bad_table_size(players: str) -> None:
    text = (
        '[Rules "standard"]\n[Option "first_dealer" "lowest_cut"]\n'
        f'[Players "{players}"]\n[MatchSeed "3"]\n[Deal "1"]\n'
    )
    with pytest.raises(RecordError, match="players must be from 2 to 5"):
        replay_match(text)


def test_bots_on_a_finished_deal_and_bad_seeds() -> None:
    state = deal(seed=4)
    bot = GreedyPlayer(4)
    while not state.is_over:
        state = apply(state, bot(state))
    for player in (RandomPlayer(1), GreedyPlayer(1)):
        with pytest.raises(InvalidArgumentError, match="the deal is over"):
            player(state)
        with pytest.raises(TypeError, match="view must be an Observation"):
            player("not a state")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="seed must be an int, not None"):
        RandomPlayer(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        GreedyPlayer("1")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seed"):
        RandomPlayer(-1)


# --- second review: the play loop reads any line without crashing -------------------------
def _games() -> list[Any]:
    """A Seven Bridge and a Simple Mahjong play loop, each at the person's decision."""
    import io

    from sevenbridge import mahjong
    from sevenbridge.cli.play import CardPart, _Style
    from sevenbridge.cli.play_mahjong import MahjongPart
    from sevenbridge.cli.seat import Game

    card = deal(seed=72)
    tiles = mahjong.deal(seed=72)
    return [
        Game(card, 1, {}, CardPart(_Style(False, False)), io.StringIO(), io.StringIO()),
        Game(tiles, 0, {}, MahjongPart(), io.StringIO(), io.StringIO()),
    ]


@pytest.mark.parametrize("text", ["²", "٣", "1²", "9" * 5000, "1" + "0" * 4999])
def test_play_reads_odd_digits_and_long_numbers(text: str) -> None:
    for game in _games():
        actions = game.part.legal_actions(game.state)
        answer = game.parse(text, actions)
        assert isinstance(answer, str)
        assert "There is no move" in answer or "I did not understand" in answer
        assert len(answer) < 200


def test_play_a_long_number_of_a_real_move() -> None:
    for game in _games():
        actions = game.part.legal_actions(game.state)
        assert game.parse("0001", actions) == actions[0]
        assert game.parse("0" * 4999 + "1", actions) == actions[0]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_play_parse_answers_any_line(text: str) -> None:
    for game in _games():
        actions = game.part.legal_actions(game.state)
        answer = game.parse(text, actions)
        assert isinstance(answer, str) or answer in actions


@pytest.mark.parametrize("game", ["sevenbridge", "mahjong"])
@pytest.mark.parametrize("where", ["missing/game.txt", "."])
def test_play_refuses_a_record_file_it_cannot_write(
    tmp_path: Path, game: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["play", "--game", game, "--record", str(tmp_path / where)])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "argument --record:" in error
    assert ("is a folder" if where == "." else "no folder") in error
    assert "Traceback" not in error


def test_play_says_when_a_record_cannot_be_saved(tmp_path: Path) -> None:
    for game in _games():
        game.save_to = str(tmp_path)  # a folder: open() fails
        assert not game.save()
        assert f"Could not save the record to {tmp_path}" in game.out.getvalue()
        game.save_to = str(tmp_path / "ok.txt")
        assert game.save()
        assert (tmp_path / "ok.txt").read_text(encoding="utf-8").startswith("[Game ")


def test_play_quit_asks_again_after_a_failed_save(tmp_path: Path) -> None:
    import io

    game = _games()[0]
    game.inp = io.StringIO(f"y\n{tmp_path}\n{tmp_path / 'second.txt'}\n")
    game.quit()
    said = game.out.getvalue()
    assert "Could not save the record" in said and "Record saved to" in said
    assert (tmp_path / "second.txt").exists()


# --- second review: every command takes every seed, and quotes a bad one as given ---------
_SEEDED = [
    ["demo", "--quiet"],
    ["demo", "--game", "mahjong", "--players", "2", "--quiet"],
    ["play"],
    ["play", "--game", "mahjong"],
    ["tournament", "--bots", "random,random", "--deals", "2", "--quiet"],
]


@pytest.mark.parametrize("command", _SEEDED, ids=lambda c: " ".join(c[:3]))
@pytest.mark.parametrize("seed", ["-7", str(2**64)])
def test_commands_quote_a_bad_seed_as_given(
    command: list[str], seed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    with pytest.raises(SystemExit) as stop:
        main([*command, "--seed", seed])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert f"--seed must be from 0 to {2**64 - 1} (seeds are 64-bit), not {seed}\n" in error


@pytest.mark.parametrize("command", _SEEDED, ids=lambda c: " ".join(c[:3]))
@pytest.mark.parametrize("seed", [1_850_000_000_000_000_000, 2**64 - 1])
def test_commands_take_the_largest_seeds(
    command: list[str],
    seed: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import io
    import sys

    from sevenbridge.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\nn\n"))
    assert main([*command, "--seed", str(seed)]) == 0
    said = capsys.readouterr()
    assert "error" not in said.err
    assert str(seed) in said.out or "Goodbye." in said.out


def test_bot_seeds_of_the_commands_stay_as_they_were_and_in_range() -> None:
    from sevenbridge._kit.rng import seat_seed

    assert [seat_seed(72, p) for p in range(3)] == [720, 721, 722]
    assert seat_seed(2**64 - 1, 4) == (10 * (2**64 - 1) + 4) % 2**64
    assert all(0 <= seat_seed(s, p) < 2**64 for s in (0, 2**63, 2**64 - 1) for p in range(5))


# --- second review: a finished deal's view must show the hands -----------------------------
def _finished_views() -> list[Any]:
    from sevenbridge import mahjong, observe

    state = deal(seed=4)
    bot = GreedyPlayer(1)
    while not state.is_over:
        state = apply(state, bot(observe(state)))
    tiles = mahjong.deal(seed=4, players=2)
    tile_bot = mahjong.GreedyPlayer(seed=1)
    while not tiles.is_over:
        tiles = mahjong.apply(tiles, tile_bot(mahjong.observe(tiles)))
    return [observe(state, 0), mahjong.observe(tiles, 0)]


@pytest.mark.parametrize("how", ["null", "missing"])
def test_observation_reader_wants_the_hands_of_a_finished_deal(how: str) -> None:
    import json

    from sevenbridge.errors import InvalidStateError

    for view in _finished_views():
        assert type(view).from_json(view.to_json()) == view
        doc = json.loads(view.to_json())
        if how == "null":
            doc["shown_hands"] = None
        else:
            del doc["shown_hands"]
        with pytest.raises(InvalidStateError, match="shown_hands"):
            type(view).from_json(json.dumps(doc))


def test_observation_reader_refuses_hands_shown_before_the_end() -> None:
    import json

    from sevenbridge import mahjong, observe
    from sevenbridge.errors import InvalidStateError

    starts: list[Any] = [
        observe(deal(seed=4), 0),
        mahjong.observe(mahjong.deal(seed=4, players=2), 0),
    ]
    for final, start in zip(
        _finished_views(),
        starts,
        strict=True,
    ):
        doc = json.loads(start.to_json())
        doc["shown_hands"] = json.loads(final.to_json())["shown_hands"]
        with pytest.raises(InvalidStateError, match="shown_hands"):
            type(start).from_json(json.dumps(doc))


# --- second review: drawings refuse what SVG cannot carry ---------------------------------
def _drawing_modules() -> list[Any]:
    from sevenbridge import mahjong, svg
    from sevenbridge.mahjong import svg as mahjong_svg

    return [(svg, deal(seed=2), "7H"), (mahjong_svg, mahjong.deal(seed=2), "5p")]


@pytest.mark.parametrize("bad", ["a\x00b", "\x1b[31mred", "lone \ud800", "\ufffe", "tab\x0bv"])
def test_svg_refuses_names_xml_cannot_carry(bad: str) -> None:
    for module, position, _one in _drawing_modules():
        names = [f"P{p}" for p in range(len(position.hands))]
        names[1] = bad
        with pytest.raises(InvalidArgumentError, match=r"names\[1\].*XML 1\.0"):
            module.table(position, names=names)


def test_svg_escapes_the_names_it_can_carry() -> None:
    from xml.etree import ElementTree

    for module, position, _one in _drawing_modules():
        names = ['<b>&"x"', "tab\tand\nnewline", "emoji 🀄 and ﬀ", "\x7f\x85"] + ["P"] * 3
        picture = module.table(position, names=names[: len(position.hands)])
        root = ElementTree.fromstring(picture)
        assert '<b>&"x"' in "".join(root.itertext())


@pytest.mark.parametrize("size", [float("nan"), float("inf"), -60, 0, 1e300, -0.0])
def test_svg_refuses_sizes_out_of_range(size: float) -> None:
    from sevenbridge import mahjong, svg
    from sevenbridge.mahjong import svg as mahjong_svg

    drawings: list[Callable[[], str]] = [
        lambda: svg.table(deal(seed=2), size=size),
        lambda: svg.card("7H", size=size),
        lambda: svg.hand("7H 8H", size=size),
        lambda: svg.meld("7H 8H 9H", size=size),
        lambda: mahjong_svg.table(mahjong.deal(seed=2), size=size),
        lambda: mahjong_svg.tile("5p", size=size),
        lambda: mahjong_svg.hand("5p 6p", size=size),
        lambda: mahjong_svg.meld("555p", size=size),
    ]
    for draw in drawings:
        with pytest.raises(InvalidArgumentError, match="size must be above 0"):
            draw()


@pytest.mark.parametrize("size", ["100", None, True, [60]])
def test_svg_refuses_sizes_that_are_no_number(size: object) -> None:
    for module, position, _one in _drawing_modules():
        with pytest.raises(TypeError, match="size must be a number"):
            module.table(position, size=size)


def test_svg_sizes_in_range() -> None:
    for module, position, _one in _drawing_modules():
        assert 'width="1"' in module.table(position, size=1)
        assert 'width="100000"' in module.table(position, size=100_000)
        assert 'width="720"' in module.table(position, size=720.0)


def test_svg_of_no_card_or_tile() -> None:
    from sevenbridge import svg
    from sevenbridge.errors import InvalidCardError, InvalidTileError
    from sevenbridge.mahjong import svg as mahjong_svg

    for text in ("", "7H 8H"):
        with pytest.raises(InvalidCardError, match="is not a card"):
            svg.card(text)
    for text in ("", "5p 6p"):
        with pytest.raises(InvalidTileError, match="is not a tile"):
            mahjong_svg.tile(text)


# --- second review: record tags -----------------------------------------------------------
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


# --- second review: wrong arguments get the library's own errors --------------------------
def test_none_for_a_state_an_action_or_rules() -> None:
    from sevenbridge import format_move, mahjong, record, render

    with pytest.raises(TypeError, match=r"record\(\) needs a GameState, not None"):
        record(None)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match="record needs a mahjong GameState or its actions, not None"
    ):
        mahjong.record(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="render needs a GameState or an Observation, not None"):
        render(None)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="action must be an action, not None"):
        format_move(None)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError,
        match=r"base must be a Rules value, not str; for a preset write Rules\.preset\('x'\)",
    ):
        Rules().changes("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="base must be a mahjong Rules value, not str"):
        mahjong.Rules().changes("x")  # type: ignore[arg-type]
    assert Rules(jokers=1).changes(Rules.preset("standard")) == {"jokers": 1}


@pytest.mark.parametrize("seat", [-1, 3, 99])
def test_seats_out_of_range_are_refused(seat: int) -> None:
    from sevenbridge import mahjong

    card = deal(seed=1)
    tiles = mahjong.deal(seed=1, players=3)
    view = mahjong.observe(tiles, 0)
    calls = [card.hand, tiles.hand, tiles.melds_of, tiles.is_ghost, view.melds_of]
    for call in calls:
        with pytest.raises(
            InvalidArgumentError, match=rf"(player|seat) must be from 0 to \d, not {seat}"
        ):
            call(seat)
    assert card.hand(2) == card.hands[2] and tiles.hand(2) == tiles.hands[2]


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_seats_of_the_wrong_type_are_refused(seat: object) -> None:
    from sevenbridge import mahjong

    tiles = mahjong.deal(seed=1, players=3)
    for call in (deal(seed=1).hand, tiles.hand, tiles.melds_of, tiles.is_ghost):
        with pytest.raises(TypeError, match="must be an int"):
            call(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rank", "suit"), [(7, 2.0), (7, "2"), (7.0, 2), (0.0, None), (False, None)]
)
def test_card_refuses_ranks_and_suits_that_are_no_int(rank: object, suit: object) -> None:
    from sevenbridge import Card
    from sevenbridge.errors import InvalidCardError

    with pytest.raises(InvalidCardError):
        Card(rank, suit)  # type: ignore[arg-type]


def test_card_takes_int_ranks_and_suits() -> None:
    from sevenbridge import Card, Rank, Suit

    assert str(Card(7, 2)) == str(Card(Rank(7), Suit.HEARTS)) == "7H"  # type: ignore[arg-type]
    assert Card(0, None).is_joker


# --- second review: bot specs -------------------------------------------------------------
@pytest.mark.parametrize("value", ["1e3", "1.5", "٣", "1_000", "-5", "9" * 5000, ""])
def test_bot_spec_iterations_must_be_a_whole_number(value: str) -> None:
    from sevenbridge.arena import make_bot

    with pytest.raises(InvalidArgumentError, match="option iterations takes a whole number"):
        make_bot(f"ismcts:iterations={value}", seed=1)


def test_ismcts_iterations_have_an_upper_bound() -> None:
    from sevenbridge.arena import make_bot
    from sevenbridge.bots import MAX_ITERATIONS, ISMCTSPlayer

    assert MAX_ITERATIONS == 10**7
    assert make_bot(f"ismcts:iterations={MAX_ITERATIONS}", seed=1).iterations == MAX_ITERATIONS  # type: ignore[attr-defined]
    builds: list[Callable[[], object]] = [
        lambda: make_bot(f"ismcts:iterations={MAX_ITERATIONS + 1}", seed=1),
        lambda: ISMCTSPlayer(1, iterations=MAX_ITERATIONS + 1),
    ]
    for build in builds:
        with pytest.raises(InvalidArgumentError, match=r"iterations must be from 1 to 10000000"):
            build()


@pytest.mark.parametrize("option", ["exploration", "margin", "win_bonus"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "-inf"])
def test_ismcts_constants_must_be_finite_and_not_negative(option: str, value: str) -> None:
    from sevenbridge.arena import make_bot

    with pytest.raises(InvalidArgumentError, match=f"{option} must be a finite number"):
        make_bot(f"ismcts:{option}={value}", seed=1)
    assert getattr(make_bot(f"ismcts:{option}=0.5", seed=1), option) == 0.5


@pytest.mark.parametrize("value", ["x", "", "1,5"])
def test_bot_spec_numbers_that_do_not_parse(value: str) -> None:
    from sevenbridge.arena import make_bot

    with pytest.raises(InvalidArgumentError, match="option seconds takes a number"):
        make_bot(f"ismcts:seconds={value}", seed=1)


# --- second review: help texts -------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("command", ["demo", "play", "tournament", "view"])
def test_help_texts_show_percent_signs_once(
    lang: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    with pytest.raises(SystemExit) as stop:
        main([command, "--help", "--lang", lang])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "%%" not in text and "%(" not in text
    if command == "tournament":
        assert "95%" in text


# --- second review: a record's deck must be the one that dealt the state ------------------
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


# --- second review: over-long text is refused early ---------------------------------------
def test_position_refuses_over_long_text_at_once() -> None:
    import time

    from sevenbridge import position
    from sevenbridge.errors import InvalidStateError
    from sevenbridge.text import MAX_POSITION_TEXT

    line = " ".join(["7H"] * 7_000_000)
    start = time.perf_counter()
    with pytest.raises(
        InvalidStateError,
        match=rf"position: {len(line) + 5} characters is too long \(at most {MAX_POSITION_TEXT}\)",
    ):
        position(f"P0: {line}\n")
    assert time.perf_counter() - start < 2.0
    # A long but fair position (comments included) is still read.
    fair = "P0: 2C 3D 4H\nP1: 8S 9D KC\nturn: P0 draw\n" + "# a comment\n" * 1000
    assert len(fair) < MAX_POSITION_TEXT
    assert position(fair).players == 2


def test_a_move_naming_a_card_twice_is_refused_at_the_second() -> None:
    import time

    from sevenbridge.notation import NotationError, parse_move

    with pytest.raises(NotationError, match=r"column 18: a card is named twice \(7H\)"):
        parse_move("P0 LayDown 7H 8H 7H 9H")
    start = time.perf_counter()
    with pytest.raises(NotationError, match=r"column 171: a move names at most 53 cards"):
        parse_move("P0 LayDown " + " ".join(["7H"] * 1_000_000))
    assert time.perf_counter() - start < 2.0
    deck = " ".join(
        ["JK", *(f"{r}{s}" for s in "CDHS" for r in ("A", *range(2, 11), "J", "Q", "K"))]
    )
    assert len(parse_move(f"P0 LayDown {deck}").cards) == 53  # type: ignore[union-attr]


def test_card_and_tile_lists_longer_than_a_deck_or_wall_are_refused_at_once() -> None:
    import time

    from sevenbridge import Meld, full_deck, mahjong, parse_cards
    from sevenbridge.errors import InvalidCardError, InvalidMeldError, InvalidTileError

    deck = " ".join(map(str, full_deck(Rules(jokers=1))))
    assert len(parse_cards(deck)) == 53
    wall = mahjong.format_tiles(mahjong.full_wall(flowers=True, seasons=True))
    assert len(mahjong.parse_tiles(wall)) == 144
    cards = " ".join(["7H"] * 3_000_000)
    tiles = ("5m" * 3_000_000, "5" * 3_000_000 + "m", " ".join(["E"] * 3_000_000))
    start = time.perf_counter()
    with pytest.raises(InvalidCardError, match=r"it names more cards than a deck holds \(53\)"):
        parse_cards(deck + " 2C")
    with pytest.raises(InvalidCardError, match="more cards than a deck holds"):
        parse_cards(cards)
    with pytest.raises((InvalidCardError, InvalidMeldError), match="more cards than a deck holds"):
        Meld.parse(cards)
    with pytest.raises(InvalidTileError, match=r"it names more tiles than a wall holds \(144\)"):
        mahjong.parse_tiles(wall + " 5m")
    for text in tiles:
        with pytest.raises(InvalidTileError, match="more tiles than a wall holds"):
            mahjong.parse_tiles(text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("pause", ["-1", "nan", "inf", "61"])
def test_play_refuses_a_pause_it_cannot_wait(
    pause: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    assert main(["play", "--pause", pause]) == 2
    assert f"--pause must be from 0 to 60 seconds, not {pause}" in capsys.readouterr().err


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0, 0, 86401])
def test_tournament_time_limits_are_checked_before_any_deal_without_external_bots(
    bad: float,
) -> None:
    from sevenbridge.arena import run_tournament
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="move_seconds must be above 0"):
        run_tournament(["greedy", "random"], deals=2, progress=False, move_seconds=bad)
    with pytest.raises(InvalidArgumentError, match="handshake_seconds must be above 0"):
        run_tournament(["greedy", "random"], deals=2, progress=False, handshake_seconds=bad)
    with pytest.raises(TypeError, match="move_seconds must be a number"):
        run_tournament(["greedy", "random"], deals=2, progress=False, move_seconds="10")  # type: ignore[arg-type]


@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_tournament_refuses_an_output_it_could_not_write_before_any_deal(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    db = tmp_path / "t.sqlite"
    for target, said in ((tmp_path / "no" / "out", "no folder"), (tmp_path, "is a folder")):
        args = ["tournament", "--bots", "greedy,random", "--deals", "2", "--db", str(db)]
        with pytest.raises(SystemExit) as stopped:  # argparse's usage error
            main([*args, option, str(target), "--quiet"])
        assert stopped.value.code == 2 and said in capsys.readouterr().err
        assert not db.exists()  # refused before the store was opened or a deal played

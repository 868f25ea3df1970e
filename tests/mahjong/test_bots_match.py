"""Bots, 16-round matches, the demo, the layering and the errors of the mahjong package."""

from __future__ import annotations

import ast
import copy
import io
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import InvalidArgumentError, SevenBridgeError
from sevenbridge.cli import main
from sevenbridge.mahjong import (
    DealerRotation,
    GreedyPlayer,
    InvalidTileError,
    Mahjong,
    Player,
    Pung,
    RandomPlayer,
    Rules,
    Tile,
    apply,
    deal,
    next_dealer,
    observe,
    parse_tiles,
    play_match,
    record,
    replay_match,
    shanten,
    waits,
)

from ..budgets import THOROUGH
from .helpers import JUNK, play, start
from .strategies import built_hands, random_hands


def test_bots_pick_legal_actions_and_finish_rounds() -> None:
    for seed in range(5):
        bots: list[Player] = [GreedyPlayer(seed), RandomPlayer(seed), GreedyPlayer(seed + 9)]
        state = deal(players=3, seed=seed)
        while not state.is_over:
            view = observe(state)
            action = bots[state.current_player](view)
            assert action in view.legal_actions
            state = apply(state, action)


def test_the_greedy_player_wins_and_claims_when_it_helps() -> None:
    won = play(start(["111222333m 4445p", JUNK.replace("1m", "6m")], "5p", players=2), "P0 Draw")
    assert GreedyPlayer()(won) == Mahjong(0)
    claim = play(start([JUNK, "5s5s 5m5m 7m8m 1p1p 3p4p 2s3s E"], "5s", players=2), "P0 Draw")
    claim = play(claim, "P0 Discard 5s")
    assert GreedyPlayer()(claim) == Pung(1)


def test_greedy_beats_random_over_a_match() -> None:
    result = play_match(
        [GreedyPlayer(1), RandomPlayer(2), GreedyPlayer(3), RandomPlayer(4)], seed=5
    )
    assert len(result.rounds) == 16
    assert result.totals[0] + result.totals[2] > result.totals[1] + result.totals[3]


def test_bots_refuse_positions_without_a_decision() -> None:
    state = deal(seed=1)
    with pytest.raises(InvalidArgumentError, match="seat 0's decision"):
        RandomPlayer()(observe(state, 1))
    with pytest.raises(TypeError, match="Observation"):
        GreedyPlayer()("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        RandomPlayer(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("hand", ["111444m7777pSSS", "4455668888p345s", "2222455667789s"])
def test_a_wait_on_a_fifth_copy_is_no_wait(hand: str) -> None:
    assert waits(hand) == ()
    assert shanten(parse_tiles(hand)) == 1
    # With a red dragon drawn, breaking the four-of-a-kind leaves a wait on it.
    assert shanten([*parse_tiles(hand), Tile.parse("Rd")]) == 0


@THOROUGH
@given(st.one_of(random_hands(13), built_hands().map(lambda h: h[1:])))
def test_shanten_is_zero_exactly_when_the_hand_waits(hand: tuple[Tile, ...]) -> None:
    assert (shanten(hand) == 0) == bool(waits(hand))


def test_shanten() -> None:
    assert shanten(parse_tiles("123m 456m 789m 111p 55s")) == -1
    assert shanten(parse_tiles("123m 456m 789m 111p 5s")) == 0
    assert shanten(parse_tiles("123m 456m 789m 11p 5s 9s")) == 1
    assert shanten(parse_tiles("19m 19p 19s ESWN WdGdRd")) == 8


def test_a_match_has_16_rounds_and_the_deal_rotates() -> None:
    result = play_match([GreedyPlayer(s) for s in range(4)], seed=3)
    assert len(result.rounds) == Rules().rounds == 16
    assert [r.dealer for r in result.rounds] == [k % 4 for k in range(16)]
    assert sum(result.totals) == sum(r.points for r in result.rounds)
    for r in result.rounds[:3]:
        again = deal(players=4, dealer=r.dealer, seed=r.seed)
        for action in r.moves:
            again = apply(again, action)
        assert again == r.final
    assert play_match([GreedyPlayer(s) for s in range(4)], seed=3) == result


def test_ghosts_never_deal_and_a_winning_dealer_may_keep_the_deal() -> None:
    rules = Rules(ghosts=True, rounds=4)
    result = play_match([GreedyPlayer(1), GreedyPlayer(2)], rules=rules, seed=4)
    assert [r.dealer for r in result.rounds] == [0, 2, 0, 2]
    assert result.totals[1] == result.totals[3] == 0 and set(result.winners) <= {0, 2}
    keep = Rules(dealer_rotation=DealerRotation.DEALER_KEEPS_ON_WIN)
    won = play(start(["111222333m 4445p", JUNK.replace("1m", "6m")], "5p", players=2), "P0 Draw")
    won = play(won, "P0 Mahjong")
    assert next_dealer(keep, won) == 0 and next_dealer(Rules(), won) == 1


def test_the_demo_plays_a_whole_match() -> None:
    out = io.StringIO()
    assert main(["demo", "--game", "mahjong", "--quiet"], prog="sevenbridge") == 0
    text = _run(["demo", "--game", "mahjong", "--quiet"])
    assert ("Round 16 of 16" in text and "wins the match" in text) or "ends level" in text
    assert text.count("Totals:") == 16
    del out


def _run(argv: list[str]) -> str:
    import contextlib

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(argv, prog="sevenbridge") == 0
    return buffer.getvalue()


@pytest.mark.parametrize(
    "options",
    [
        ["--players", "3", "--rules", "full"],
        [],  # the command: four greedy players, standard rules, seed 72
        ["--players", "2", "--rules", "literal", "--bot", "random", "--seed", "5"],
    ],
)
def test_the_demo_writes_records_that_replay(tmp_path: Path, options: list[str]) -> None:
    path = tmp_path / "rounds.txt"
    _run(["demo", "--game", "mahjong", *options, "--record", str(path)])
    text = path.read_text(encoding="utf-8")
    assert text.startswith('[Game "Simple Mahjong match"]') and '[Round "16"]' in text
    finals = [s for s in replay_match(text) if s.is_over]
    assert len(finals) == 16 and all(s.history for s in finals)


def test_record_needs_a_seed_or_a_wall() -> None:
    with pytest.raises(InvalidArgumentError, match="seed or the wall"):
        record([])


# --- the package's standards ---------------------------------------------------------

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sevenbridge" / "mahjong"
#: The value layer, bottom first: each module may import only those before it (and
#: the core's value modules).
VALUES = ["errors", "_tables", "tiles", "rules", "hands", "actions", "state"]
ABOVE = {"engine", "views", "serialize", "record", "text", "svg", "bots", "match", "_demo"}
CORE_ABOVE = {
    "engine", "serialize", "text", "record", "notation", "bots", "match", "views", "svg", "html",
}  # fmt: skip


def _imports(module: str) -> tuple[set[str], set[str]]:
    """The mahjong modules and the core modules that ``module`` imports."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    own: set[str] = set()
    core: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            name = node.module.split(".")[0]
            if node.level == 1:
                own.add(name)
            elif node.level == 2:
                core.add(name)
        elif isinstance(node, ast.ImportFrom) and node.level == 2:
            core.update(a.name for a in node.names)
    return own, core


def test_value_modules_import_only_lower_value_modules() -> None:
    for position, module in enumerate(VALUES):
        own, core = _imports(module)
        wrong = own - set(VALUES[:position])
        assert not wrong, f"mahjong.{module} imports {sorted(wrong)} from above its layer"
        assert not core & CORE_ABOVE, f"mahjong.{module} imports core {sorted(core & CORE_ABOVE)}"


#: The engine's rule families and the private modules under them.
ENGINE_PARTS = ["_fields", "_ops", "turn", "claims", "legal", "step", "explain"]


@pytest.mark.parametrize("module", ["engine", *ENGINE_PARTS])
def test_the_engine_does_not_import_what_sits_above_it(module: str) -> None:
    own, _ = _imports(module)
    assert not own & (ABOVE - {"engine"})
    for part in ENGINE_PARTS:  # the engine imports its rule families, not the reverse
        assert "engine" not in _imports(part)[0], part


ERRORS: list[SevenBridgeError] = [InvalidTileError("0m", "suited tiles are numbered 1 to 9")]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_errors_pickle_and_copy(error: SevenBridgeError) -> None:
    for again in (pickle.loads(pickle.dumps(error)), copy.deepcopy(error)):
        assert type(again) is type(error) and str(again) == str(error)
        assert vars(again) == vars(error) and again.code == "invalid_tile"


def test_the_demo_refuses_presets_and_tables_of_the_other_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--rules", "literal"], prog="sevenbridge") == 2
    assert "no Seven Bridge preset 'literal'" in capsys.readouterr().err
    assert main(["demo", "--game", "mahjong", "--rules", "nintendo"], prog="sevenbridge") == 2
    assert "no mahjong preset 'nintendo'" in capsys.readouterr().err
    assert main(["demo", "--game", "mahjong", "--players", "5"], prog="sevenbridge") == 2
    assert "2 to 4 players" in capsys.readouterr().err


@pytest.mark.parametrize("players", [2, 3, 4])
def test_match_end_reads_the_winners_from_the_recorded_positions(players: int) -> None:
    """From a match record's positions alone: the real players with the
    highest total once every round is played, ``None`` before."""
    from sevenbridge.mahjong import (
        GreedyPlayer,
        Rules,
        match_end,
        play_match,
        record_match,
        replay_match,
    )

    for seed in range(3):
        rules = Rules(rounds=3, ghosts=players == 2)
        result = play_match([GreedyPlayer(seed=s) for s in range(players)], rules=rules, seed=seed)
        positions = replay_match(record_match(result))
        assert match_end(positions) == result.winners
        assert match_end(positions[:-1]) is None

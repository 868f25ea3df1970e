"""The fixed evaluation sets: named, versioned by their deals, and the same
decks whichever part of a set a run plays."""

from __future__ import annotations

import functools
import json
import pickle
from pathlib import Path

import attrs
import pytest
from benchmarks import strength

from sevenbridge import GAMES
from sevenbridge.arena import (
    EVALUATION_DECKS,
    EVALUATION_SEED,
    EvaluationSet,
    compare,
    evaluation_set,
    make_bot,
)
from sevenbridge.arena._evaluation import deals_digest
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.games import game_module

SETS = [(game, preset) for game in GAMES for preset in game_module(game).Rules.presets()]


@pytest.mark.parametrize(("game", "preset"), SETS)
def test_every_preset_has_a_set_whose_decks_deal_as_when_it_was_named(
    game: str, preset: str
) -> None:
    chosen = evaluation_set(preset, game=game)
    assert chosen.name == f"{game}/{preset}/v{chosen.version}"
    assert (chosen.seed, chosen.decks) == (EVALUATION_SEED, EVALUATION_DECKS)
    assert chosen.players == game_module(game).GAME.players
    # The digest is of the deals themselves: if the library shuffles or deals
    # these decks otherwise, this fails and the sets need a new version.
    assert deals_digest(game, preset, chosen.seed, chosen.players) == chosen.digest
    chosen.check()


def test_a_set_dealt_otherwise_is_refused_before_any_play() -> None:
    changed = attrs.evolve(evaluation_set("nintendo"), digest="0" * 64)
    with pytest.raises(InvalidArgumentError, match="deals its decks differently") as caught:
        changed.tournament(["greedy", "greedy", "greedy"], decks=1, progress=False)
    assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)


def test_the_first_decks_of_a_set_are_the_same_in_a_short_and_a_long_run() -> None:
    chosen = evaluation_set("standard")
    bots = ["random", "greedy", "greedy"]
    short = chosen.tournament(bots, decks=2, progress=False)
    longer = chosen.tournament(bots, decks=4, progress=False)
    assert short.decks == 2 and longer.decks == 4
    records = {(g.deck, g.seating): g.record for g in longer.results}
    assert len(short.results) == 6  # two decks in three seatings
    for game in short.results:
        assert records[game.deck, game.seating] == game.record


def test_the_panel_is_one_entrant_and_a_bot_compares_with_it_deck_by_deck() -> None:
    chosen = evaluation_set("seven_rummy")
    panel = ("panel", functools.partial(make_bot, "greedy"))
    result = chosen.tournament(["greedy", panel, panel], decks=3, progress=False)
    assert set(result.bots) == {"greedy", "panel"}
    # The same deterministic bot on both sides: every deck is even.
    versus = compare(result, "greedy", "panel")
    assert versus.decks == 3 and versus.mean_return.mean == 0 and versus.win_share.mean == 0


@pytest.mark.parametrize("decks", [0, -1, EVALUATION_DECKS + 1])
def test_a_run_plays_between_one_deck_and_the_whole_set(decks: int) -> None:
    with pytest.raises(InvalidArgumentError, match="decks"):
        evaluation_set().settings(["greedy"] * 3, decks=decks)


def test_the_whole_set_is_the_default() -> None:
    settings = evaluation_set("nintendo").settings(["greedy", "random", "random"])
    assert settings.deals == EVALUATION_DECKS * 3 and settings.seed == EVALUATION_SEED
    mahjong = evaluation_set("literal", game="mahjong").settings(["greedy"] * 4, decks=5)
    assert mahjong.deals == 5 and mahjong.players == 4


@pytest.mark.parametrize(
    ("preset", "game", "error", "words"),
    [
        ("nope", "seven_bridge", InvalidArgumentError, "no evaluation set for preset 'nope'"),
        ("full", "seven_bridge", InvalidArgumentError, "nintendo, seven_rummy, standard"),
        ("standard", "chess", InvalidArgumentError, "chess"),
        (7, "seven_bridge", InvalidArgumentError, "no evaluation set"),
    ],
)
def test_a_set_that_does_not_exist_is_named_in_the_error(
    preset: object, game: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words) as caught:
        evaluation_set(preset, game=game)  # type: ignore[arg-type]
    assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)


def test_a_set_is_a_value() -> None:
    chosen = evaluation_set()
    assert isinstance(chosen, EvaluationSet)
    assert pickle.loads(pickle.dumps(chosen)) == chosen
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        chosen.decks = 5  # type: ignore[misc]


def test_the_strength_benchmark_runs_and_writes_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs, figures = tmp_path / "strength.md", tmp_path / "strength.json"
    assert strength.main(["--quick", "--json", str(figures), "--docs", str(docs)]) == 0
    out = capsys.readouterr().out
    rows = json.loads(figures.read_text())
    assert [row["bot"] for row in rows] == ["random", "greedy"]
    assert all(row["decks"] == 3 and row["set"] == "seven_bridge/nintendo/v1" for row in rows)
    # Greedy against a greedy panel is even on every deck; random loses.
    assert rows[1]["points_difference"][0] == 0
    assert rows[0]["points_difference"][0] < 0
    assert "nintendo | random | 3 |" in out
    assert "`seven_bridge/nintendo/v1`" in docs.read_text()


def test_the_strength_benchmark_rates_its_bots_on_a_ladder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "strength.md"
    argv = ["--quick", "--ladder", "--db-dir", str(tmp_path / "dbs"), "--docs", str(docs)]
    assert strength.main(argv) == 0
    out = capsys.readouterr().out
    ladder_part = out.split("Ladder, nintendo:")[1]
    names = [line.split(" | ")[0] for line in ladder_part.strip().splitlines()[1:]]
    # random, greedy and the greedy panel, on one scale: random is last.
    assert sorted(names) == ["greedy", "panel", "random"] and names[-1] == "random"
    assert "**Ladder, nintendo**" in docs.read_text()
    with pytest.raises(SystemExit):
        strength.main(["--quick", "--ladder"])  # no databases to rate


def test_the_strength_benchmark_gives_one_bot_fewer_decks(tmp_path: Path) -> None:
    figures = tmp_path / "strength.json"
    argv = ["--presets", "standard", "--bots", "random,greedy", "--decks", "4",
            "--decks-of", "greedy=2", "--json", str(figures)]  # fmt: skip
    assert strength.main(argv) == 0
    rows = json.loads(figures.read_text())
    assert [(row["bot"], row["decks"]) for row in rows] == [("random", 4), ("greedy", 2)]
    for wrong in ("greedy", "greedy=0", "=3", "greedy=x"):
        with pytest.raises(SystemExit):
            strength.main(["--quick", "--decks-of", wrong])

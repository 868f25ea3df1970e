"""ISMCTSPlayer plays for points: its value of a deal, its reproducibility, a
tournament, the engine's stop at the player's decisions, and its baselines
(the flat Monte Carlo example and the benchmark)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import (
    Draw,
    GameState,
    Observation,
    Rules,
    apply,
    deal,
    legal_actions,
    observe,
    position,
    returns,
)
from sevenbridge._kit.rng import Rng
from sevenbridge.actions import Action
from sevenbridge.arena import report, run_tournament
from sevenbridge.bots import (
    ISMCTS_WIN_BONUS,
    GreedyPlayer,
    ISMCTSPlayer,
    _played_out,
    _points_scale,
)
from sevenbridge.engine._playout import play
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.rules import Scoring

from .helpers import Ticks, one_decision

EXAMPLE = Path(__file__).parent.parent / "examples" / "flat_monte_carlo.py"


def _going_out(rules: str, hand0: str) -> tuple[GameState, Action]:
    """A deal in which P1 is about to go out (by discarding their last card),
    P0 holding ``hand0`` and P2 holding 9C 9D, and P1's move."""
    state = position(
        f"rules: {rules}\nP0: {hand0}\nP1: 3C\nP2: 9C 9D\nmelds: P1 4H 5H 6H\nturn: P1 play"
    )
    (out,) = legal_actions(state)
    return state, out


def _value(state: GameState, out: Action, me: int, bonus: float = 0.0) -> float:
    """What the search counts the deal ending by ``out`` as worth to ``me``."""
    return _played_out(state, out, me, True, 1, _points_scale(state.rules), bonus)


@pytest.mark.parametrize("rules", ["nintendo", "standard"])
def test_a_deal_is_worth_its_return_under_the_rules_scoring(rules: str) -> None:
    (low, out_low), (high, out_high) = _going_out(rules, "2S 3D"), _going_out(rules, "KS KD")
    ends = apply(low, out_low), apply(high, out_high)
    assert all(end.is_over and end.winner == 1 for end in ends)
    scale = _points_scale(low.rules)
    # The value is the return under the rules' scoring, scaled, for every seat:
    # going out counts only by what the scoring gives for it.
    for (before, out), end in zip(((low, out_low), (high, out_high)), ends, strict=True):
        values = [_value(before, out, p) for p in range(3)]
        assert values == pytest.approx([r / scale for r in returns(end)])
    # Caught holding fewer points is worth more, under penalty points (P0's own
    # penalty) and under winner-scores (what the winner collects) alike.
    assert _value(low, out_low, 0) > _value(high, out_high, 0)
    if rules == "nintendo":
        # P0's penalty is 5 or 20 points: the returns differ by the 15 points less
        # their share of the table's mean, and P2's standing improves with P0's loss.
        assert returns(ends[0])[0] - returns(ends[1])[0] == pytest.approx(15 * 2 / 3)
        assert returns(ends[1])[2] > returns(ends[0])[2]
    else:
        # The winner collects what the losers hold: more from the high hand.
        assert returns(ends[1])[1] > returns(ends[0])[1]


@pytest.mark.parametrize("rules", ["nintendo", "standard"])
def test_going_out_adds_the_win_bonus_to_the_winner_alone(rules: str) -> None:
    state, out = _going_out(rules, "2S 3D")
    assert apply(state, out).winner == 1
    for me in range(3):
        plain, keen = _value(state, out, me), _value(state, out, me, 0.5)
        assert keen == pytest.approx(plain + 0.5 if me == 1 else plain)
    with pytest.raises(InvalidArgumentError, match="win_bonus must be a finite number"):
        ISMCTSPlayer(1, win_bonus=-0.5)


def test_by_default_the_bonus_is_the_scorings(monkeypatch: pytest.MonkeyPatch) -> None:
    import sevenbridge.bots as bots

    # Going out earns a bonus under penalty scoring, none under winner-scores
    # (whose scoring already pays the winner); an explicit bonus overrides both.
    assert ISMCTS_WIN_BONUS == {Scoring.PENALTY: 0.5, Scoring.WINNER_SCORES: 0.0}
    bonuses: list[float] = []
    played_out = bots._played_out

    def spy(*args: Any) -> float:
        bonuses.append(args[-1])
        return played_out(*args)

    monkeypatch.setattr(bots, "_played_out", spy)
    for preset, win_bonus, expected in [
        ("nintendo", None, 0.5),
        ("standard", None, 0.0),
        ("seven_rummy", None, 0.0),
        ("standard", 0.25, 0.25),
        ("nintendo", 0.0, 0.0),
    ]:
        bonuses.clear()
        view = _decisions(preset, 3, 1)[0]
        ISMCTSPlayer(1, iterations=20, win_bonus=win_bonus)(view)
        assert bonuses and set(bonuses) == {expected}, preset


def test_points_scale_is_a_full_hand_of_the_costliest_cards() -> None:
    # Standard: four 7s (20 each) and three 10-point cards; Nintendo: a 7 alone
    # counts 14 (7, doubled), the Aces and courts 10.
    assert _points_scale(Rules()) == 4 * 20 + 3 * 10
    assert _points_scale(Rules.nintendo()) == 4 * 14 + 3 * 10


def _moves(seed: int) -> tuple[list[str], list[int]]:
    """The moves of a seeded ISMCTS (seat 0) against greedy players, and the
    iterations of each of its decisions."""
    bot, greedy = ISMCTSPlayer(seed, iterations=24), GreedyPlayer(seed)
    state = deal(Rules.nintendo(), players=3, seed=5)
    moves, budgets = [], []
    for _ in range(40):
        if state.is_over:
            break
        view = observe(state)
        if state.current_player == 0 and len(legal_actions(view)) > 1:
            action = bot(view)
            budgets.append(bot.last_iterations)
        else:
            action = greedy(view)
        moves.append(str(action))
        state = apply(state, action)
    return moves, budgets


def test_an_iterations_budget_makes_the_search_reproducible() -> None:
    moves, budgets = _moves(3)
    assert (moves, budgets) == _moves(3)
    assert budgets and set(budgets) == {24}  # every decision spends the whole budget


def test_a_tournament_of_the_search_replays_exactly() -> None:
    bots = ["ismcts:iterations=12", "greedy", "greedy"]
    first = run_tournament(bots, Rules.nintendo(), deals=3, seed=4, progress=False)
    again = run_tournament(bots, Rules.nintendo(), deals=3, seed=4, progress=False)
    assert first.games == 3 and first.results == again.results
    assert first.bots["ismcts:iterations=12"].decisions > 0


@pytest.mark.parametrize("preset", Rules.presets())
def test_play_stops_at_each_of_the_players_own_decisions(preset: str) -> None:
    """The search plays the other seats up to its own next decision; playing
    on from each stop gives the very game of one playout to the end."""
    for seed in range(8):
        start = deal(Rules.preset(preset), players=3 + seed % 2, seed=seed)
        me = seed % start.players
        whole = play(start, True, Rng(seed), -1, True)
        rng, state, stops = Rng(seed), start, 0
        while not state.is_over:
            state = play(state, True, rng, -1, True, me)
            if state.is_over:
                break
            assert state.current_player == me
            stops += 1
            state = play(state, True, rng, 1, True)  # the player's own move
        assert state == whole and state.history == whole.history
        assert stops > 0


def _example() -> dict[str, object]:
    import runpy

    return runpy.run_path(str(EXAMPLE))


def test_flat_monte_carlo_example_plays_legal_moves_and_replays() -> None:
    example = _example()
    player = example["FlatMonteCarloPlayer"]
    state = deal(Rules.nintendo(), players=3, seed=2)
    bots = [player(1, 12), GreedyPlayer(2), GreedyPlayer(3)]  # type: ignore[operator]
    while not state.is_over:
        view = observe(state)
        action = bots[state.current_player or 0](view)
        assert action in legal_actions(view)
        state = apply(state, action)
    end = example["play_one"](4, 10)  # type: ignore[operator]
    assert end.is_over and end == example["play_one"](4, 10)  # type: ignore[operator]


def test_flat_monte_carlo_example_serves_the_protocol() -> None:
    state = deal(seed=6)
    while len(legal_actions(state)) < 2:
        state = apply(state, GreedyPlayer()(observe(state)))
    view = observe(state)
    messages = one_decision(state, seed=1)
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--serve", "--playouts", "6"],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    ready, answer = (json.loads(line) for line in done.stdout.splitlines())
    assert ready["type"] == "ready" and ready["name"] == "flat-mc"
    assert answer["type"] == "action" and 0 <= answer["index"] < len(legal_actions(view))


def test_flat_monte_carlo_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert _example()["main"](["--playouts", "8"]) == 0  # type: ignore[operator]
    assert "scores" in capsys.readouterr().out


def test_bench_ismcts_quick_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import bench_ismcts

    out = tmp_path / "f.json"
    docs = tmp_path / "f.md"
    args = ["--quick", "--presets", "nintendo", "--json", str(out), "--docs", str(docs)]
    assert bench_ismcts.main(args) == 0
    text = capsys.readouterr().out
    assert "against two greedy players" in text and "Head to head" in text
    figures = json.loads(out.read_text())
    (greedy,) = figures["greedy"]
    (duel,) = figures["duel"]
    assert greedy["preset"] == "nintendo" and greedy["deals"] == 6
    assert duel["deals"] == 6 and duel["flat"]["decisions"] > 0
    assert "| nintendo | 6 |" in docs.read_text()


def test_bench_ismcts_ceiling_plays_the_same_decks_with_the_hands_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import bench_ismcts

    out = tmp_path / "f.json"
    args = ["--quick", "--presets", "standard", "--skip-greedy", "--skip-duel", "--ceiling"]
    assert bench_ismcts.main([*args, "--json", str(out)]) == 0
    assert "hands open" in capsys.readouterr().out
    (row,) = json.loads(out.read_text())["ceiling"]
    assert row["decks"] == 5 and row["deals"] == 15 and row["iterations"] == 8
    for what in ("win_share", "mean_return"):
        fair, known, gain = (row[what][k] for k in ("fair", "open", "difference"))
        assert gain[0] == pytest.approx(known[0] - fair[0])
        for mean, low, high in (fair, known, gain):
            assert low <= mean <= high
    for share in ("fair", "open"):
        assert row["win_share"][share][1] >= 0 and row["win_share"][share][2] <= 1
    # The same decks again give the same figures (seeded bots, iterations alone).
    again = tmp_path / "again.json"
    assert bench_ismcts.main([*args, "--json", str(again)]) == 0
    second = json.loads(again.read_text())["ceiling"][0]
    assert {k: v for k, v in second.items() if k != "seconds"} == {
        k: v for k, v in row.items() if k != "seconds"
    }


def test_bench_ismcts_ceiling_leans_towards_the_true_hands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import bench_ismcts

    args = ["--quick", "--presets", "standard", "--skip-greedy", "--skip-duel", "--ceiling"]
    plain, leaning = tmp_path / "plain.json", tmp_path / "leaning.json"
    assert bench_ismcts.main([*args, "--json", str(plain)]) == 0
    assert bench_ismcts.main([*args, "--ceiling-lean", "3,inf", "--json", str(leaning)]) == 0
    assert "multiplied by K" in capsys.readouterr().out
    (hands_open,) = json.loads(plain.read_text())["ceiling"]
    lean, opened = json.loads(leaning.read_text())["ceiling"]
    # The hands-open row is the same games as without leaning rows beside it.
    assert {k: v for k, v in opened.items() if k != "seconds"} == {
        k: v for k, v in hands_open.items() if k != "seconds"
    }
    assert lean["lean"] == 3 and opened["lean"] is None and "log_loss" not in opened
    # The same own-worlds games are the baseline of both rows.
    assert lean["win_share"]["fair"] == opened["win_share"]["fair"]
    # Leaning by 3 makes the beliefs sharper than the even prior's, by a known amount.
    loss = lean["log_loss"]
    assert loss["cards"] > 0 and 0 < loss["lean"] < loss["prior"]
    for what in ("win_share", "mean_return"):
        fair, leaned, gain = (lean[what][k] for k in ("fair", "open", "difference"))
        assert gain[0] == pytest.approx(leaned[0] - fair[0])


@pytest.mark.parametrize("bad", ["1", "0.5", "-2", "nan", "x", "3,3", ""])
def test_bench_ismcts_refuses_a_bad_lean(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import bench_ismcts

    with pytest.raises(SystemExit) as stop:
        bench_ismcts.main(["--quick", "--ceiling", "--ceiling-lean", bad])
    assert stop.value.code == 2 and "--ceiling-lean" in capsys.readouterr().err


def test_bench_ismcts_runs_split_resume_and_merge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import bench_ismcts

    runs = tmp_path / "runs"
    parts = []
    for preset in ("nintendo", "standard"):
        part = tmp_path / f"{preset}.json"
        args = ["--quick", "--presets", preset, "--skip-duel", "--db-dir", str(runs)]
        assert bench_ismcts.main([*args, "--json", str(part)]) == 0
        parts.append(part)
    assert sorted(p.name for p in runs.glob("*.sqlite")) == [
        "greedy-nintendo.sqlite",
        "greedy-standard.sqlite",
    ]
    # A rerun resumes from the kept results: the same figures, nothing replayed.
    again = tmp_path / "again.json"
    args = ["--quick", "--presets", "nintendo", "--skip-duel", "--db-dir", str(runs)]
    assert bench_ismcts.main([*args, "--json", str(again)]) == 0
    first, second = (json.loads(p.read_text())["greedy"][0] for p in (parts[0], again))
    assert second["ismcts"]["win_share"] == first["ismcts"]["win_share"]
    assert second["ismcts"]["mean_return"] == first["ismcts"]["mean_return"]
    assert second["seconds"] < first["seconds"]
    capsys.readouterr()
    # The parts' tables, put together: both presets, one table, no games played.
    docs = tmp_path / "f.md"
    argv = ["--from-json", *map(str, parts), "--docs", str(docs)]
    assert bench_ismcts.main(argv) == 0
    text = docs.read_text()
    assert "| nintendo | 6 |" in text and "| standard | 6 |" in text
    assert text.count("against two greedy players") == 1 and "Head to head" not in text


def test_bench_ismcts_pairs_two_runs_deck_by_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import bench_ismcts

    plain = ["--presets", "nintendo", "--skip-duel", "--deals", "15"]
    bots = ("ismcts:iterations=8", "ismcts:iterations=8:worlds=uniform")
    for name, bot in zip("ab", bots, strict=True):
        assert bench_ismcts.main([*plain, "--bot", bot, "--db-dir", str(tmp_path / name)]) == 0
    dbs = [str(tmp_path / name / "greedy-nintendo.sqlite") for name in "ab"]
    out = tmp_path / "paired.json"
    argv = ["--paired", *dbs, "--paired-names", "greedy worlds", "even worlds"]
    assert bench_ismcts.main([*argv, "--json", str(out)]) == 0
    assert "`greedy worlds` (first) less `even worlds` (second)" in capsys.readouterr().out
    (row,) = json.loads(out.read_text())["paired"]
    assert row["preset"] == "nintendo" and row["decks"] == 5 and row["deals"] == 15
    for what in ("win_share", "mean_return"):
        first, second, gain = (row[what][k] for k in ("first", "second", "difference"))
        assert gain[0] == pytest.approx(first[0] - second[0])
        assert gain[1] <= gain[0] <= gain[2]
    # Each side's figures are those its own run reports.
    for side, db in zip(("first", "second"), dbs, strict=True):
        stats = next(s for name, s in report(db).bots.items() if name != "greedy")
        assert row["win_share"][side][0] == pytest.approx(stats.win_share.mean)
        assert row["mean_return"][side][0] == pytest.approx(stats.mean_return.mean)
    other = ["--presets", "standard", "--skip-duel", "--deals", "15", "--bot", bots[0]]
    assert bench_ismcts.main([*other, "--db-dir", str(tmp_path / "c")]) == 0
    with pytest.raises(SystemExit, match="other rules or another seed"):
        bench_ismcts.main(["--paired", dbs[0], str(tmp_path / "c" / "greedy-standard.sqlite")])


def test_the_playouts_of_one_world_share_their_random_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sevenbridge.bots as bots

    calls: list[tuple[GameState, Action, int]] = []
    played_out = bots._played_out

    def spy(
        world: GameState, action: Action, me: int, greedy: bool, seed: int, *rest: Any
    ) -> float:
        calls.append((world, action, seed))
        return played_out(world, action, me, greedy, seed, *rest)

    monkeypatch.setattr(bots, "_played_out", spy)
    view = observe(apply(deal(seed=3, rules=Rules.preset("nintendo")), Draw(0)))
    moves = len(legal_actions(view))
    assert moves > 4
    ISMCTSPlayer(1, iterations=4 * moves)(view)
    by_world: dict[int, set[int]] = {}
    tried: dict[int, set[Action]] = {}
    for world, action, seed in calls:
        by_world.setdefault(id(world), set()).add(seed)
        tried.setdefault(id(world), set()).add(action)
    # Every move weighed in a world is played out from the same seed, and the
    # first world weighs every move; the worlds' seeds differ.
    assert all(len(seeds) == 1 for seeds in by_world.values())
    assert len({next(iter(seeds)) for seeds in by_world.values()}) == len(by_world) > 1
    assert len(next(iter(tried.values()))) == moves
    # The same world and seed give the same value: the gains compare like with like.
    world, action, seed = calls[1]
    assert played_out(world, action, 0, True, seed, 1.0, 0.5) == played_out(
        world, action, 0, True, seed, 1.0, 0.5
    )


def _greedy_moves(view: Observation) -> set[Action]:
    """Every move GreedyPlayer may make from ``view`` (its ties broken every way)."""
    return {GreedyPlayer(seed)(view) for seed in range(24)}


def _decisions(preset: str, seed: int, count: int) -> list[Observation]:
    """Seat 0's first ``count`` views with a choice, in greedy deals."""
    views: list[Observation] = []
    while len(views) < count:
        state, bot = deal(Rules.preset(preset), players=3, seed=seed), GreedyPlayer(seed)
        while not state.is_over and len(views) < count:
            if state.current_player == 0 and len(legal_actions(state)) > 1:
                views.append(observe(state))
            state = apply(state, bot(observe(state)))
        seed += 1
    return views


def test_the_search_leaves_the_greedy_move_only_for_a_clear_gain() -> None:
    views = _decisions("nintendo", 11, 12)
    # The greedy move is weighed first: one iteration plays it.
    for view in views:
        assert ISMCTSPlayer(1, iterations=1)(view) in _greedy_moves(view)
    # No gain is clear enough for an unreachable margin; a margin of 0 takes
    # any mean gain, which the search finds somewhere.
    sure = ISMCTSPlayer(2, iterations=60, margin=1e9)
    assert all(sure(view) in _greedy_moves(view) for view in views)
    keen = ISMCTSPlayer(2, iterations=60, margin=0)
    assert any(keen(view) not in _greedy_moves(view) for view in views)


def test_the_gain_over_the_greedy_move_is_weighed_by_its_standard_error() -> None:
    from sevenbridge.bots import _clear_gain

    # Gains of two moves over the greedy one: (worlds, sum, sum of squares).
    steady = (10.0, 1.0, 1.0)  # mean 0.1, standard error 0.1 (t = 1)
    wild = (10.0, 3.0, 9.0)  # mean 0.3, standard error 0.3 (t = 1)
    gains = {"steady": [*steady], "wild": [*wild], "loss": [10.0, -1.0, 1.0]}
    assert _clear_gain("greedy", gains, 0.9) in ("steady", "wild")
    assert _clear_gain("greedy", gains, 1.1) == "greedy"
    gains["steady"] = [10.0, 1.0, 0.2]  # the same mean, steadier: t = 3
    assert _clear_gain("greedy", gains, 2.0) == "steady"
    assert _clear_gain("greedy", {"once": [1.0, 5.0, 25.0]}, 0.0) == "greedy"  # one world
    assert _clear_gain("greedy", {"same": [4.0, 2.0, 1.0]}, 5.0) == "same"  # no spread


def test_a_default_bot_stops_at_its_processor_time() -> None:
    """By default a search counts its seconds on its thread's processor time,
    and it reads its clock between every two playouts: within three reads of
    its deadline it has answered (a clock that ticks at each read stands for
    the time, so that nothing here depends on how busy the machine is)."""
    import time

    from sevenbridge.bots import DEFAULT_ITERATIONS, DEFAULT_SECONDS

    bot = ISMCTSPlayer(1)
    assert (bot.iterations, bot.seconds) == (DEFAULT_ITERATIONS, DEFAULT_SECONDS)
    assert bot.clock is time.thread_time
    assert ISMCTSPlayer(1, iterations=50).seconds is None  # reproducible: no clock
    ticks = Ticks(0.001)
    timed = ISMCTSPlayer(1, iterations=10**6, seconds=0.05, clock=ticks)
    view = _decisions("standard", 2, 1)[0]
    timed(view)
    assert 1 <= timed.last_iterations < 10**6
    assert len(ticks.reads) >= 50 and 1 <= ticks.past(0.05) <= 3, ticks.reads[-5:]

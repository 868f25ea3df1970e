"""A cheat wins no more than its honest twin.

The cheat (:mod:`tests.seat_cheats`) tries every way it has to see hidden
cards. Each way is shown to pay when the tournament leaves it open, then to
give nothing once closed: the cheat then plays exactly its twin's games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from benchmarks.bench_fair import Steady, steady

from sevenbridge._kit.rng import derive
from sevenbridge.arena import TournamentResult, compare, run_tournament
from sevenbridge.arena import _play as play_module

from . import seat_cheats

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent


def _play(cheat: Any, deals: int, **options: Any) -> TournamentResult:
    """``cheat`` (a factory) against the honest twin, two players."""
    bots: list[Any] = [("cheat", cheat), ("twin", steady)]
    return run_tournament(bots, deals=deals, seed=11, progress=False, **options)


def _games(result: TournamentResult) -> list[tuple[Any, ...]]:
    return [(g.seating, g.winner, g.record) for g in result.results]


def _gain(result: TournamentResult) -> tuple[float, float]:
    """The cheat's win share less the twin's, deck by deck: the mean and the
    low end of its 95% interval."""
    c = compare(result, "cheat", "twin")
    assert c.win_share.low is not None
    return c.win_share.mean, c.win_share.low


def test_a_cheat_that_sees_the_cards_wins_nearly_every_deal() -> None:
    """Handed the true position, the cheat's look-ahead wins most deals: any
    way that shows it the cards would pay."""
    for way in (seat_cheats.frames_cheat, seat_cheats.objects_cheat):  # in this process
        mean, low = _gain(_play(way, 20))
        assert mean > 0.5 and low > 0.3, way.__name__


def test_its_own_seed_shows_it_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = _play(steady, 200)
    # Were the seats' seeds drawn from the deck's seed, the cheat would deal
    # the deck again and see every card.
    with monkeypatch.context() as patch:
        patch.setattr(play_module, "bot_seed", lambda seed, deck, place: derive(
            derive(seed, deck + 1), place + 1))  # fmt: skip
        mean, low = _gain(_play(seat_cheats.seed_cheat, 20))
    assert mean > 0.5 and low > 0.3
    # Drawn one-way, its seed leads nowhere: the twin's games, every one.
    assert _games(_play(seat_cheats.seed_cheat, 200)) == _games(honest)


def test_fair_leaves_nothing_to_remember() -> None:
    """Two hundred decks: the bot that remembers gains a few points of win
    share without fair (benchmarks/bench_fair.py measures it), none with."""
    honest = _play(steady, 400)
    # One bot for every seating of a deck: it remembers the hand it held,
    # now its opponent's, and whether it lost with the cards it now holds.
    mean, low = _gain(_play(seat_cheats.memory_cheat, 400, fair=False))
    assert mean > 0.03 and low > 0.0
    # A new bot for every deal (the default for Python bots): the twin's games.
    assert _games(_play(seat_cheats.memory_cheat, 400)) == _games(honest)
    # What a bot keeps in its module outlives it in the tournament's process...
    seat_cheats.SHARED.clear()
    mean, low = _gain(_play(seat_cheats.shared_cheat, 400))
    assert mean > 0.03 and low > 0.0


def test_an_isolated_cheat_plays_its_twins_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """...but not in a process of its own for every deal (isolate, fair): there,
    with every way tried, it finds nothing and plays exactly as its twin."""
    log = tmp_path / "cheat.log"
    monkeypatch.setenv("SEAT_CHEATS_LOG", str(log))
    isolated = _play(seat_cheats.cheat, 6, isolate=True)
    assert [g.failure for g in isolated.results] == [None] * 6
    assert _games(isolated) == _games(_play(steady, 6))
    lines = log.read_text().splitlines()
    assert len(lines) > 6 * 5  # it was asked, and tried, at every decision
    assert set(lines) == {"tried frames,memory,objects,seed,shared,view found -"}
    # The same cheat in the tournament's process finds the cards (by its
    # callers' frames and the objects about) and wins nearly every deal.
    log.write_text("")
    inside = _play(seat_cheats.cheat, 6)
    assert compare(inside, "cheat", "twin").win_share.mean > 0.5
    assert "found frames,objects" in log.read_text()


def test_the_twins_are_the_same_bot() -> None:
    """The comparison means something: the twin against itself plays each
    deck's deal the same way from either seat."""
    result = _play(steady, 40)
    for deck in range(20):
        first, second = (g for g in result.results if g.deck == deck)
        assert (first.winner, first.scores, first.record) == (
            second.winner,
            second.scores,
            second.record,
        )
    assert isinstance(steady(0), Steady)

"""The positions drawn on docs/howto/pictures.md (shared by tools/screenshots.py and the
test that keeps the pictures current)."""

from __future__ import annotations

from collections.abc import Callable

from sevenbridge import GameState, Rules, apply, deal, mahjong, observe, record, svg
from sevenbridge.bots import GreedyPlayer
from sevenbridge.mahjong import svg as mahjong_svg


def example_position(steps: int = 41) -> GameState:
    """Nintendo rules, 4 greedy players, seed 72, after ``steps`` moves."""
    state = deal(Rules.nintendo(), players=4, seed=72)
    bot = GreedyPlayer(72)
    for _ in range(steps):
        if state.is_over:
            break
        state = apply(state, bot(state))
    return state


def mahjong_position(steps: int = 60) -> mahjong.GameState:
    """Simple Mahjong, standard rules, 4 greedy players, seed 5, after ``steps`` moves."""
    state = mahjong.deal(players=4, seed=5)
    bot = mahjong.GreedyPlayer(5)
    for _ in range(steps):
        if state.is_over:
            break
        state = mahjong.apply(state, bot(mahjong.observe(state)))
    return state


def example_record() -> str:
    """The record of that whole deal."""
    return record(example_position(10_000))


def claim_round() -> str:
    """The record of a round of Simple Mahjong (seed 2, greedy players) that
    ends as P1 declares mahjong on P3's 6m, a discard P0 called chow on (the
    chow gives way)."""
    state = mahjong.deal(seed=2)
    bots = [mahjong.GreedyPlayer(20 + p) for p in range(4)]
    while not state.is_over:
        state = mahjong.apply(state, bots[state.current_player](mahjong.observe(state)))
    return mahjong.record(state)


PICTURES: dict[str, Callable[[], str]] = {
    "table.svg": lambda: svg.table(example_position()),
    "table-view.svg": lambda: svg.table(observe(example_position(), 0), four_color=True),
    "table-ja.svg": lambda: svg.table(observe(example_position(), 0), lang="ja"),
    "meld-joker.svg": lambda: svg.meld("4S 5S JK=6S"),
    "hand.svg": lambda: svg.hand("AS 7H 10D QC JK", size=50),
    "mahjong-table.svg": lambda: mahjong_svg.table(mahjong_position()),
    "mahjong-view-ja.svg": lambda: mahjong_svg.table(
        mahjong.observe(mahjong_position(), 0), lang="ja"
    ),
    "mahjong-tiles.svg": lambda: mahjong_svg.hand("19m 5p 9s ESWN WdGdRd 1f 5f", size=36),
    "mahjong-meld.svg": lambda: mahjong_svg.meld(
        mahjong.Meld(mahjong.MeldKind.CHOW, "345p", owner=1, claimed="4p"), size=36
    ),
}

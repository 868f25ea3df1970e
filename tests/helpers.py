"""Helpers for scenario tests: stacked decks and moves written as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sevenbridge import (
    Action,
    Card,
    GameState,
    Observation,
    Rules,
    apply,
    deal,
    full_deck,
    legal_actions,
    observe,
    parse_cards,
)
from sevenbridge._tables import bits

# Cards used to fill hands when a test does not name them all: no sevens, no 6s
# or 8s, no two consecutive ranks, and seven in a row never hold three of a rank,
# so they add no melds by accident.
FILLERS = tuple(Card.from_index(s * 13 + r - 1) for s in range(4) for r in (1, 3, 5, 9, 11, 13))


def stacked(
    rules: Rules,
    hands: Sequence[str],
    *,
    upcard: str | None = None,
    stock: str = "",
    dealer: int = 0,
) -> GameState:
    """A deal whose hands, upcard and stock top are as given.

    ``hands[i]`` is player i's hand (up to 7 cards; the rest are filled). The
    stock starts with ``stock`` (top first), then every other card.
    """
    n = len(hands)
    named = [list(parse_cards(h)) for h in hands]
    up = parse_cards(upcard) if upcard else ()
    top = list(parse_cards(stock))
    used = {c for h in named for c in h} | set(up) | set(top)
    assert len(used) == sum(map(len, named)) + len(up) + len(top), "a card is named twice"
    fillers = [c for c in FILLERS if c not in used]
    pool = [c for c in full_deck(rules) if c not in used and c not in fillers]
    for h in named:
        while len(h) < 7:
            h.append(fillers.pop(0) if fillers else pool.pop(0))
    pool.extend(fillers)
    order: list[Card] = []
    for r in range(7):
        for k in range(1, n + 1):
            order.append(named[(dealer + k) % n][r])
    if rules.upcard:
        order.extend(up or [pool.pop(0)])
    else:
        assert not up, "these rules have no upcard"
    order.extend(top)
    order.extend(pool)
    state = deal(rules, players=n, dealer=dealer, deck=order)
    for p, h in enumerate(named):
        assert set(state.hand(p)) == set(h)
    return state


def find(state: GameState, move: str) -> Action:
    """The legal action written ``"<player> <notation>"``, e.g. ``"1 Pon 9D 9H"``."""
    who, text = move.split(" ", 1)
    options = [a for a in legal_actions(state) if a.player == int(who) and str(a) == text]
    if not options:
        legal = ", ".join(f"{a.player} {a}" for a in legal_actions(state))
        raise AssertionError(f"{move!r} is not legal; legal: {legal}")
    (action,) = options
    return action


def play(state: GameState, *moves: str) -> GameState:
    """Apply each move (each must be legal)."""
    for move in moves:
        state = apply(state, find(state, move))
    return state


def greedy_choices(rules: Rules, seed: int) -> list[tuple[GameState, Observation]]:
    """Every position of a deal of three greedy players (seeded ``seed``) where
    the player to act has a choice, with that player's view."""
    from sevenbridge.bots import GreedyPlayer

    state, greedy = deal(rules, players=3, seed=seed), GreedyPlayer(seed)
    found = []
    while not state.is_over:
        view = observe(state)
        if len(legal_actions(view)) > 1:
            found.append((state, view))
        state = apply(state, greedy(view))
    return found


def is_legal(state: GameState, move: str) -> bool:
    who, text = move.split(" ", 1)
    return any(a.player == int(who) and str(a) == text for a in legal_actions(state))


def all_cards(state: GameState) -> list[int]:
    """Every card index in the deal, wherever it is, with repeats if any."""
    out: list[int] = []
    for h in state.hand_masks:
        out.extend(bits(h))
    out.extend(state.stock_cards)
    out.extend(state.discard_cards)
    for tm in state.table:
        out.extend(bits(tm.mask))
    return out


def pass_window(state: GameState) -> GameState:
    """Everyone asked in the open claim window passes."""
    from sevenbridge import Pass, Phase

    while state.phase is Phase.CLAIM:
        assert state.current_player is not None
        state = apply(state, Pass(state.current_player))
    return state


def turn(state: GameState, discard: str, *plays: str) -> GameState:
    """The player in turn draws, makes the given plays, discards; the window passes."""
    p = state.current_player
    state = play(state, f"{p} Draw", *(f"{p} {x}" for x in plays), f"{p} Discard {discard}")
    return pass_window(state)


def optional_module(name: str) -> Any:
    """Import an optional extra's module for a test.

    Downstream users without the extra get a skip. CI sets
    ``SEVENBRIDGE_FULL_CI=1`` and installs every extra, so there a missing
    module is a failure, not a silent skip.
    """
    import importlib
    import os

    import pytest

    if os.environ.get("SEVENBRIDGE_FULL_CI") == "1":
        return importlib.import_module(name)
    return pytest.importorskip(name)


def pyproject() -> dict[str, Any]:
    """The source checkout's pyproject.toml, parsed."""
    import sys
    from pathlib import Path

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import pytest

        tomllib = pytest.importorskip("tomli")
    with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as fh:
        data: dict[str, Any] = tomllib.load(fh)
    return data


def github_workflow(name: str) -> dict[str, Any]:
    """A workflow of the source checkout's .github/workflows, parsed (a skip
    without PyYAML or outside a source checkout)."""
    from pathlib import Path

    import pytest

    yaml = pytest.importorskip("yaml")  # PyYAML comes with the docs extra
    path = Path(__file__).resolve().parent.parent / ".github" / "workflows" / name
    if not path.exists():
        pytest.skip("no .github directory (not a source checkout)")
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def one_decision(state: GameState, seed: int) -> list[dict[str, Any]]:
    """The messages of an external bot's session with one decision, the view of
    ``state``'s player, then a quit (as JSON objects, one per protocol line)."""
    import json

    from sevenbridge import observe

    view = observe(state)
    return [
        {"type": "hello", "protocol": "sevenbridge-bot", "version": 1},
        {"type": "deal", "game": "seven_bridge", "seat": view.viewer, "players": state.players,
         "seed": seed, "rules": json.loads(state.rules.to_json())},
        {"type": "decide", "observation": json.loads(view.to_json()),
         "legal": [json.loads(a.to_json()) for a in legal_actions(view)]},
        {"type": "quit"},
    ]  # fmt: skip


class Ticks:
    """A clock for a search's time budget that moves on ``step`` seconds at
    every read and keeps its reads: a test sees when the search looked at the
    time and what it did after its deadline, with no real time involved."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.reads: list[float] = []

    def __call__(self) -> float:
        now = len(self.reads) * self.step
        self.reads.append(now)
        return now

    def past(self, deadline: float) -> int:
        """How many reads were at or after ``deadline`` (counted from the first read)."""
        return sum(read >= deadline for read in self.reads)

"""Stacked-wall helpers for the mahjong scenario tests."""

from __future__ import annotations

from sevenbridge.mahjong import GameState, Rules, apply, deal, parse_action, stacked_wall

#: A hand of thirteen different terminals and honours: it claims nothing in the
#: scenarios below.
JUNK = "19m 19p 19s ESWN WdGdRd"


def start(
    hands: list[str],
    draws: str = "",
    *,
    rules: Rules | None = None,
    players: int | None = None,
    dealer: int = 0,
    back: str = "",
    seed: int = 0,
) -> GameState:
    """A round dealt from a stacked wall: ``hands`` by seat, then ``draws``."""
    rules = Rules() if rules is None else rules
    wall = stacked_wall(hands, draws, rules=rules, dealer=dealer, back=back)
    return deal(
        rules, players=len(hands) if players is None else players, dealer=dealer, wall=wall,
        seed=seed,
    )  # fmt: skip


def play(state: GameState, *moves: str) -> GameState:
    """Apply moves written as ``P<seat> <move>``."""
    for move in moves:
        state = apply(state, parse_action(move))
    return state


def legal(state: GameState) -> list[str]:
    """The legal actions as ``P<seat> <move>`` texts."""
    from sevenbridge.mahjong import legal_actions

    return [f"P{a.player} {a}" for a in legal_actions(state)]

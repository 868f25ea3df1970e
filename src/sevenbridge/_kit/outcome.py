"""How a finished deal (or round) ended, in words every game shares."""

from __future__ import annotations

import attrs

__all__ = ["Outcome"]


@attrs.frozen
class Outcome:
    """How a finished deal (in Simple Mahjong, a round) ended: what the games'
    ``outcome(state)`` answers, so that a program that runs either game reads
    it one way."""

    scores: tuple[int, ...]
    """Each seat's score for the deal, as the game's scoring gives it (under
    Seven Bridge's penalty scoring, lower is better: :func:`sevenbridge.returns`
    turns any game's scores into results where more is always better)."""
    winner: int | None
    """Who went out (who declared mahjong), or ``None`` for a void or drawn deal."""
    reason: str
    """Why it ended, in the game's own words (``"player 2 went out"``; a mahjong
    round's ``"mahjong"`` or ``"drawn"``)."""

"""Determinization: worlds dealt from what one seat can see, and the deals
that lead a record to a position.

:func:`sevenbridge.sample_state` deals the cards a view hides in one of the
ways they could lie (:func:`sample_world` is its body), replaying the view's
record through the engine's own rules (:mod:`sevenbridge.engine`) to learn
what each claim window and each draw says of the hidden hands.
:meth:`GameState.from_json(verify=True) <sevenbridge.GameState.from_json>`
asks :func:`conflict` whether a position's own record can reach it. This
package is loaded on first use, by either of them: ``import sevenbridge``
does not load it.
"""

from __future__ import annotations

from typing import Any

from ..state import GameState
from ._worlds import SAMPLE_TRIES, certify, conflict, sample

__all__ = ["SAMPLE_TRIES", "certify", "conflict", "sample_world"]


def sample_world(observation: Any, key: int, seed: int) -> GameState:
    """:func:`sevenbridge.sample_state`'s world for ``observation``, dealt with
    ``key``; the world gets ``seed`` for any later reshuffle."""
    return sample(observation, key, seed)[0]

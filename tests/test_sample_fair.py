"""sample_state draws its worlds evenly: on small positions where every world
that fits a view can be listed, the sampled worlds match the uniform
distribution over them (a chi-square test)."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from sevenbridge import GameState, observe, sample_state
from sevenbridge._tables import bits
from sevenbridge.inference import _worlds

_POSITIONS = json.loads((Path(__file__).parent / "golden" / "small-views.json").read_text())


def _fitting_hands(state: GameState) -> tuple[set[int], int]:
    """Every hand of player 1 that fits player 0's view (a world with it is
    proved reachable by ``certify``), and how many hands the counts allow."""
    view = observe(state, 0)
    tl = _worlds.timeline(view)
    upcard = -1 if tl.upcard is None else tl.upcard
    split = _worlds._split(view, tl, upcard)
    assert split is not None
    need, known, pools, unseen, _ = split
    options = [itertools.combinations(pool, need[1][j]) for j, pool in enumerate(pools)]
    fitting, total = set(), 0
    for combo in itertools.product(*options):
        total += 1
        hand = known[1]
        for part in combo:
            for c in part:
                hand |= 1 << c
        stock = [c for c in bits(unseen) if not hand >> c & 1]
        world = _worlds._world(view, [view.hand_mask, hand], stock, 0)
        if _worlds.certify(world) is not None:
            fitting.add(hand)
    return fitting, total


def _chi_square_bound(df: int, z: float) -> float:
    """The chi-square quantile for ``df`` degrees of freedom at the normal
    quantile ``z`` (Wilson and Hilferty's approximation)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(_POSITIONS)))
def test_sampled_worlds_are_uniform_over_those_that_fit(index: int) -> None:
    """Two-player positions under ``claim_window='able_only'`` with a reshuffle,
    where the windows rule out part of the hands the card counts allow: every
    sampled hand is one that fits, and their frequencies pass a chi-square
    test against the uniform distribution at the 1-in-10,000 level."""
    position = _POSITIONS[index]
    state = GameState.from_json(json.dumps(position["state"]))
    fitting, total = _fitting_hands(state)
    assert len(fitting) == position["consistent"]
    assert 1 < len(fitting) < total == position["splits"]  # the windows rule some out
    view = observe(state, 0)
    per = 30
    draws = per * len(fitting)
    seen = Counter(sample_state(view, key).hand_masks[1] for key in range(draws))
    assert set(seen) <= fitting
    statistic = sum((seen[hand] - per) ** 2 / per for hand in fitting)
    assert statistic < _chi_square_bound(len(fitting) - 1, 3.719)

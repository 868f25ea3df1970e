"""What the mahjong engine's kernel assumes of the states it builds.

The kernel makes a new state by copying the old one's field dictionary and
changing a few entries, and keeps three things there besides the fields: the
legal actions, each seat's hand as a count key, and the cached ``is_over``.
These tests fail loudly if a field or those assumptions change, rather than
letting states go wrong quietly.
"""

from __future__ import annotations

import random

import attrs

from sevenbridge import mahjong as mj
from sevenbridge.mahjong import _kernel
from sevenbridge.mahjong._tables import key_of


def test_the_field_keys_are_the_state_fields() -> None:
    names = {f.name for f in attrs.fields(mj.GameState)}
    keys = {
        _kernel.RULES, _kernel.SEATS, _kernel.GHOSTS, _kernel.HANDS, _kernel.WALL,
        _kernel.DISCARDS, _kernel.MELDS, _kernel.BONUS, _kernel.PHASE, _kernel.TURN,
        _kernel.CURRENT, _kernel.LAST_DISCARD, _kernel.CLAIMS, _kernel.ASKING, _kernel.DREW,
        _kernel.WINNER, _kernel.SELF_DRAWN, _kernel.GHOST_KEY, _kernel.LOG, _kernel.TAKEN,
        _kernel.LAST_DRAWN, _kernel._LEGAL_KEY, _kernel.KEYS,
    }  # fmt: skip
    assert keys <= names
    # the fields the kernel never changes
    assert names - keys == {"players", "dealer", "seed"}


def _rounds(count: int) -> list[list[mj.GameState]]:
    """Seeded rounds, every position kept: random play on odd rounds, the
    greedy bots (which win often) on even ones."""
    rng = random.Random(3)
    out = []
    for i in range(count):
        rules = mj.Rules.preset(mj.Rules.presets()[i % 3]).replace(kong=True)
        state = mj.deal(rules, players=(2, 3, 4)[i % 3], seed=i)
        bot = mj.GreedyPlayer(i)
        states = [state]
        while not state.is_over:
            state = mj.apply(state, bot(state) if i % 2 else rng.choice(mj.legal_actions(state)))
            states.append(state)
        out.append(states)
    return out


def test_states_hold_their_fields_and_the_kernels_three_entries() -> None:
    fields = {f.name for f in attrs.fields(mj.GameState)}
    for states in _rounds(6):
        for state in states[1:]:
            assert set(vars(state)) == fields | {_kernel.IS_OVER}


def test_the_kept_count_keys_and_is_over_are_the_states_own() -> None:
    ended = set()
    for states in _rounds(12):
        for state in states:
            keys = vars(state)[_kernel.KEYS]
            if keys is not None:
                assert keys == tuple(key_of(hand) for hand in state.hands)
            cached = vars(state).get(_kernel.IS_OVER)
            assert cached is None or cached is (state.phase is mj.Phase.OVER)
        last = states[-1]
        assert vars(last)[_kernel.IS_OVER] is True and last.is_over
        ended.add("drawn" if last.winner is None else "won")
    assert ended == {"drawn", "won"}


def test_a_state_made_by_its_constructor_is_played_alike() -> None:
    """A state made by ``GameState(...)`` (as JSON and sample_state make them)
    has no kept keys: the kernel counts them the first time, and plays the
    same as from the original."""
    for states in _rounds(3):
        for state in states[:: max(1, len(states) // 8)]:
            again = attrs.evolve(state)
            assert vars(again)[_kernel.KEYS] is None and "is_over" not in vars(again)
            assert mj.legal_actions(again) == mj.legal_actions(state)
            for action in mj.legal_actions(state):
                assert mj.apply(again, action) == mj.apply(state, action)

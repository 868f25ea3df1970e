"""What the mahjong engine (its field module, ``mahjong._fields``) assumes of
the states it builds.

The engine makes a new state by copying the old one's field dictionary and
changing a few entries, and keeps three things there besides the fields: the
legal actions, each seat's hand as a count key, and the cached ``is_over``.
These tests fail loudly if a field or those assumptions change, rather than
letting states go wrong quietly.
"""

from __future__ import annotations

import random

import attrs

from sevenbridge import mahjong as mj
from sevenbridge.mahjong import _fields
from sevenbridge.mahjong._tables import key_of


def test_the_field_keys_are_the_state_fields() -> None:
    names = {f.name for f in attrs.fields(mj.GameState)}
    keys = {
        _fields.RULES, _fields.SEATS, _fields.GHOSTS, _fields.HANDS, _fields.WALL,
        _fields.DISCARDS, _fields.MELDS, _fields.BONUS, _fields.PHASE, _fields.TURN,
        _fields.CURRENT, _fields.LAST_DISCARD, _fields.CLAIMS, _fields.ASKING, _fields.DREW,
        _fields.WINNER, _fields.SELF_DRAWN, _fields.GHOST_KEY, _fields.LOG, _fields.TAKEN,
        _fields.LAST_DRAWN, _fields.LEGAL_KEY, _fields.KEYS,
    }  # fmt: skip
    assert keys <= names
    # the fields the engine never changes
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


def test_states_hold_their_fields_and_the_engines_three_entries() -> None:
    fields = {f.name for f in attrs.fields(mj.GameState)}
    for states in _rounds(6):
        for state in states[1:]:
            assert set(vars(state)) == fields | {_fields.IS_OVER}


def test_the_kept_count_keys_and_is_over_are_the_states_own() -> None:
    ended = set()
    for states in _rounds(12):
        for state in states:
            keys = vars(state)[_fields.KEYS]
            if keys is not None:
                assert keys == tuple(key_of(hand) for hand in state.hands)
            cached = vars(state).get(_fields.IS_OVER)
            assert cached is None or cached is (state.phase is mj.Phase.OVER)
        last = states[-1]
        assert vars(last)[_fields.IS_OVER] is True and last.is_over
        ended.add("drawn" if last.winner is None else "won")
    assert ended == {"drawn", "won"}


def test_a_state_made_by_its_constructor_is_played_alike() -> None:
    """A state made by ``GameState(...)`` (as JSON and sample_state make them)
    has no kept keys: the engine counts them the first time, and plays the
    same as from the original."""
    for states in _rounds(3):
        for state in states[:: max(1, len(states) // 8)]:
            again = attrs.evolve(state)
            assert vars(again)[_fields.KEYS] is None and "is_over" not in vars(again)
            assert mj.legal_actions(again) == mj.legal_actions(state)
            for action in mj.legal_actions(state):
                assert mj.apply(again, action) == mj.apply(state, action)

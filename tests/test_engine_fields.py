"""What the engine's field module (``engine._fields``) assumes of the classes
it builds states of, and the lay-downs of ``engine.legal``.

The engine builds a new state by copying the old one's field dictionary and
setting its two extra entries (the legal-action cache and attrs' cached hash)
directly. These tests fail loudly if a field, the field order or attrs' way of
keeping the cached hash changes, rather than letting states go wrong quietly.
"""

from __future__ import annotations

from typing import Any

import attrs

from sevenbridge import Draw, GameState, Rules, apply, deal
from sevenbridge.engine import _fields, legal


def test_the_field_keys_are_the_state_fields() -> None:
    names = [f.name for f in attrs.fields(GameState) if f.init]
    assert list(_fields.FIELDS) == names
    keys = [
        _fields.RULES, _fields.PLAYERS, _fields.DEALER, _fields.PHASE, _fields.CURRENT,
        _fields.HANDS, _fields.STOCK, _fields.DISCARDS, _fields.TABLE, _fields.OWNERS,
        _fields.PLAYED, _fields.NORMAL, _fields.TURNS, _fields.DISCARDER, _fields.QUEUE,
        _fields.PENDING, _fields.CLEAN, _fields.BY_CLAIM, _fields.RESHUFFLES,
        _fields.RESHUFFLED, _fields.SEED, _fields.WINNER, _fields.SCORES, _fields.BONUS,
        _fields.REASON, _fields.LOG,
    ]  # fmt: skip
    assert sorted(keys) == sorted(names)


def test_a_fresh_state_holds_only_its_fields_the_cache_and_the_cached_hash() -> None:
    blank: dict[str, Any] = dict.fromkeys(_fields.FIELDS)
    fresh = GameState(**blank)
    extra = {k: v for k, v in fresh.__dict__.items() if k not in _fields.FIELDS}
    assert extra == {_fields.LEGAL_KEY: None, _fields.HASH_KEY: None}


def test_attrs_keeps_the_cached_hash_where_the_engine_resets_it() -> None:
    state = deal(seed=5)
    hash(state)
    assert state.__dict__[_fields.HASH_KEY] is not None  # attrs filled it in
    after = apply(state, Draw(state.current_player))  # type: ignore[arg-type]
    assert after.__dict__[_fields.HASH_KEY] is None
    assert hash(after) == hash(GameState(**{k: getattr(after, k) for k in _fields.FIELDS}))


def test_lay_downs_follow_the_rules() -> None:
    from sevenbridge.cards import parse_cards

    def mask(text: str) -> int:
        return sum(1 << c.index for c in parse_cards(text))

    standard, nintendo = Rules(), Rules.nintendo()
    assert legal.lay_downs(mask("7S 2D"), standard)  # a seven alone
    assert legal.lay_downs(mask("4C 5C 6C 9D"), standard)
    assert not legal.lay_downs(mask("4C 5C 9D KD"), standard)
    assert legal.lay_downs(mask("4C 5C JO KD"), nintendo)  # the joker completes a run
    assert not legal.lay_downs(mask("4C 9D JO"), nintendo)
    # The whole hand cannot go down where the rules want a final discard.
    run = mask("4C 5C 6C")
    assert not legal.lay_downs(run, Rules(final_discard=True))
    assert legal.lay_downs(run, Rules(final_discard=False))

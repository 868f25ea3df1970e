from __future__ import annotations

import attrs
import pytest

from sevenbridge import (
    CardValues,
    ClaimTiming,
    FirstPlayer,
    PonTieBreak,
    Rules,
    RulesConfigError,
    Scoring,
)


def test_default_rules_are_the_standard_preset() -> None:
    assert Rules() == Rules.standard() == Rules.preset("standard")


def test_fixed_field_names_exist_with_their_types() -> None:
    r = Rules()
    assert r.ace_high is False
    assert r.jokers == 0
    assert r.final_discard is True


def test_presets_registry() -> None:
    assert Rules.presets() == ("nintendo", "seven_rummy", "standard")
    for name in Rules.presets():
        assert isinstance(Rules.preset(name), Rules)
    assert Rules.preset("Seven Rummy") == Rules.seven_rummy()
    with pytest.raises(RulesConfigError, match="no preset named 'x'"):
        Rules.preset("x")


def test_seven_rummy_preset_differs_from_standard_only_as_documented() -> None:
    assert Rules.seven_rummy().changes() == {
        "claim_min_hand_cards": 1,
        "lay_off_needs_own_meld": False,
    }


def test_nintendo_preset() -> None:
    r = Rules.nintendo()
    assert r.jokers == 1 and r.ace_high and not r.upcard
    assert r.first_player is FirstPlayer.DEALER
    assert r.lay_off_needs_own_meld
    assert r.scoring is Scoring.PENALTY and r.card_values is CardValues.NINTENDO
    assert r.pon_tie_break is PonTieBreak.JOKER_HOLDER
    assert r.pon_timing is ClaimTiming.ANY_TIME
    assert r.chi_timing is ClaimTiming.AFTER_FIRST_ROUND
    assert r.going_out_bonus


def test_every_field_has_a_docstring_naming_its_source() -> None:
    import ast
    import inspect

    import sevenbridge.rules

    tree = ast.parse(inspect.getsource(sevenbridge.rules))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    docs: dict[str, str] = {}
    for stmt, nxt in zip(cls.body, cls.body[1:], strict=False):
        named = isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
        if named and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
            assert isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
            docs[stmt.target.id] = str(nxt.value.value)
    for field in attrs.fields(Rules):
        assert field.name in docs, f"Rules.{field.name} has no docstring"
        assert len(docs[field.name]) > 40, field.name


@pytest.mark.parametrize(
    "changes",
    [
        {"jokers": 2},
        {"jokers": -1},
        {"jokers": True},
        {"ace_high": 1},
        {"claim_min_hand_cards": 3},
        {"claim_min_hand_cards": 0},
        {"reshuffle_limit": -1},
        {"joker_multiplier": 0},
        {"deals": 0},
        {"target_score": -5},
        {"scoring": "lowest"},
        {"pon_timing": "never"},
        {"pon_tie_break": "joker_holder"},
    ],
)
def test_bad_options_raise_rules_config_error(changes: dict[str, object]) -> None:
    with pytest.raises(RulesConfigError) as info:
        Rules(**changes)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert str(info.value)


def test_enum_fields_accept_their_string_values() -> None:
    assert Rules(scoring="penalty").scoring is Scoring.PENALTY


def test_joker_holder_tie_break_needs_the_joker() -> None:
    with pytest.raises(RulesConfigError, match="needs a joker"):
        Rules.nintendo().replace(jokers=0)


def test_rules_are_frozen_and_hashable() -> None:
    r = Rules()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        r.jokers = 1  # type: ignore[misc]
    assert len({Rules(), Rules.standard(), Rules.nintendo()}) == 2

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

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
    mahjong,
)
from sevenbridge._kit.presets import rules_html


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


def _shown(rules: object) -> tuple[str, list[tuple[str, str, str | None, bool]]]:
    """The caption of the rules' HTML table and its rows: each option, its value,
    the preset's value where the option differs from it, and whether it is bold."""
    page = ET.fromstring(rules._repr_html_())  # type: ignore[attr-defined]
    caption = "".join(page.find("caption").itertext())  # type: ignore[union-attr]
    rows = []
    for row in page.iter("tr"):
        cells = ["".join(cell.itertext()) for cell in row]
        if row.find("th[@scope='row']") is None:
            continue
        preset = cells[2] if len(cells) > 2 and cells[2] else None
        bold = ["font-weight:bold" in cell.get("style", "") for cell in row][:2]
        assert bold[0] == bold[1], cells  # the option and its value alike
        rows.append((cells[0], cells[1], preset, bold[0]))
    return caption, rows


@pytest.mark.parametrize(
    ("game", "rules"),
    [("Seven Bridge", Rules), ("Simple Mahjong", mahjong.Rules)],
)
def test_rules_show_in_a_notebook_as_a_table_of_their_options(game: str, rules: Any) -> None:
    for name in rules.presets():
        caption, rows = _shown(rules.preset(name))
        assert caption == f"{game} rules: the {name} preset"
        assert [row[0] for row in rows] == [f.name for f in attrs.fields(rules)]
        assert not any(preset or bold for _, _, preset, bold in rows)
    # Every value is shown as the option is written (an enumeration by its value).
    _, rows = _shown(rules())
    for (option, value, _, _), field in zip(rows, attrs.fields(rules), strict=True):
        default = getattr(rules(), field.name)
        assert value == str(getattr(default, "value", default)), option


def test_rules_that_differ_from_a_preset_show_the_nearest_preset_and_mark_the_changes() -> None:
    caption, rows = _shown(Rules.nintendo().replace(ace_high=False, target_score=500))
    assert caption == "Seven Bridge rules: the nintendo preset with 2 changes (in bold)"
    changed = [(option, value, preset) for option, value, preset, bold in rows if bold]
    assert changed == [("ace_high", "False", "True"), ("target_score", "500", "None")]
    assert all(preset is None for _, _, preset, bold in rows if not bold)
    # The nearest preset (fewest changes) is named, the standard one on a tie.
    caption, _ = _shown(Rules.seven_rummy().replace(jokers=1))
    assert caption == "Seven Bridge rules: the seven_rummy preset with 1 change (in bold)"
    caption, _ = _shown(mahjong.Rules(kong=True, ghosts=True))
    assert caption == "Simple Mahjong rules: the standard preset with 2 changes (in bold)"


def test_the_rules_table_escapes_what_it_shows() -> None:
    page = rules_html(Rules(), {"a<b": Rules.nintendo}, "Tom & <Jerry>")
    assert "<code>a&lt;b</code>" in page and "Tom &amp; &lt;Jerry&gt;" in page
    ET.fromstring(page)


# --- rules given as a string; the bounds of the options -----------------------------------
@pytest.mark.parametrize(
    "call",
    [
        "hand_points('5C', 'nintendo')",
        "explain_hand_points('5C', 'nintendo')",
        "is_valid_meld('6H 7H', 'nintendo')",
        "why_not_meld('6H 7H', 'nintendo')",
        "meld_interpretations('6H 7H', 'nintendo')",
        "Meld.parse('6H 7H 8H', 'nintendo')",
        "full_deck('nintendo')",
        "position('P0: 2C\\nP1: 3C\\nturn: P0 draw', 'nintendo')",
    ],
)
def test_rules_given_as_a_string(call: str) -> None:
    import sevenbridge

    with pytest.raises(TypeError, match=r"rules must be a Rules value, not str; .*Rules\.preset"):
        eval(call, vars(sevenbridge))


def test_rules_bounds_are_explicit() -> None:
    from sevenbridge import Rules, RulesConfigError

    for field, too_big in [
        ("joker_multiplier", 101),
        ("reshuffle_limit", 101),
        ("deals", 1001),
        ("target_score", 10**6 + 1),
    ]:
        with pytest.raises(RulesConfigError, match="to"):
            Rules().replace(**{field: too_big})

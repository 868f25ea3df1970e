"""The machinery of rule configurations: checked option fields and presets by name.

Both games keep their options in a frozen attrs ``Rules`` class whose fields
check their values (a wrong option raises
:class:`~sevenbridge.errors.RulesConfigError` naming the option and what it
accepts), whose presets are found by name or alias, and which a notebook shows
as a table of its options (:func:`rules_html`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from html import escape
from typing import Any, TypeVar

import attrs

from ..errors import Message, RulesConfigError, quote

__all__ = [
    "check_bool", "convert", "find_preset", "int_field", "int_in", "optional_in",
    "optional_int_field", "rules_html",
]  # fmt: skip

_T = TypeVar("_T")


_E = TypeVar("_E", bound=enum.Enum)


def convert(cls: type[_E], value: Any) -> _E:
    if isinstance(value, cls):
        return value
    try:
        return cls(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in cls)
        raise RulesConfigError(
            Message(
                "rules_config.not_expected_one",
                "{value} is not a {name}; expected one of {allowed}",
                value=quote(value),
                name=str(cls.__name__),
                allowed=str(allowed),
            )
        ) from None


def check_bool(inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise RulesConfigError(
            Message(
                "rules_config.rules_must_true_or",
                "Rules.{name} must be True or False, not {value}",
                name=attribute.name,
                value=quote(value),
            )
        )


def int_in(lo: int, hi: int | None) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesConfigError(
                Message(
                    "rules_config.rules_must_integer_not",
                    "Rules.{name} must be an integer, not {value}",
                    name=attribute.name,
                    value=quote(value),
                )
            )
        if value < lo or (hi is not None and value > hi):
            bound = (
                Message("bound.to", "{lo} to {hi}", lo=lo, hi=hi)
                if hi is not None
                else Message("bound.at_least", "at least {lo}", lo=lo)
            )
            raise RulesConfigError(
                Message(
                    "rules_config.rules_must_not",
                    "Rules.{name} must be {bound}, not {value}",
                    name=attribute.name,
                    bound=bound,
                    value=str(value),
                )
            )

    return check


def optional_in(lo: int, hi: int) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise RulesConfigError(
                Message(
                    "rules_config.rules_must_none_or",
                    "Rules.{name} must be None or an integer from {lo} to {hi}, not {value}",
                    name=attribute.name,
                    lo=str(lo),
                    hi=str(hi),
                    value=quote(value),
                )
            )

    return check


def int_field(default: int, lo: int, hi: int) -> Any:
    """An integer option from ``lo`` to ``hi`` (the bounds are kept as metadata
    for the JSON Schema)."""
    return attrs.field(
        default=default, validator=int_in(lo, hi), metadata={"minimum": lo, "maximum": hi}
    )


def optional_int_field(lo: int, hi: int) -> Any:
    """``None`` or an integer option from ``lo`` to ``hi``."""
    return attrs.field(
        default=None,
        validator=optional_in(lo, hi),
        metadata={"minimum": lo, "maximum": hi, "nullable": True},
    )


def find_preset(presets: Mapping[str, _T], aliases: Mapping[str, str], name: str) -> _T:
    """The preset of that name or alias (case, spaces and hyphens ignored).

    Raises:
        RulesConfigError: for an unknown name, listing the known ones.
    """
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    found = presets.get(aliases.get(key, key))
    if found is None:
        raise RulesConfigError(
            Message(
                "rules_config.no_preset_named_known",
                "no preset named {name}; known: {presets}",
                name=quote(name, 40),
                presets=", ".join(sorted(presets)),
            )
        )
    return found


def _option_text(value: Any) -> str:
    """An option's value as it is written in Python (an enumeration by its value)."""
    return escape(str(value.value if isinstance(value, enum.Enum) else value))


def _cell(tag: str, text: str, *, bold: bool = False, row: bool = False) -> str:
    """A compact, left-aligned table cell (notebooks centre and embolden headers)."""
    weight = "bold" if bold else "normal"
    scope = ' scope="row"' if row else ""
    return (
        f'<{tag}{scope} style="text-align:left;padding:1px 8px;font-weight:{weight}">{text}</{tag}>'
    )


def rules_html(rules: Any, presets: Mapping[str, Callable[[], Any]], game: str) -> str:
    """The ``_repr_html_`` of a ``Rules`` value: a table of its options, under
    the name of the preset it is, or of the nearest preset (the one it differs
    from in fewest options, the first listed on a tie) with the options that
    differ from it in bold, beside the preset's value.

    Only standard-library escaping: the rules stay below the drawings' layer.
    """
    changes = {name: rules.changes(make()) for name, make in presets.items()}
    nearest = min(changes, key=lambda name: len(changes[name]))
    differ, base = changes[nearest], presets[nearest]()
    preset = f"<code>{escape(nearest)}</code>"
    caption = f"{escape(game)} rules: the {preset} preset"
    head = _cell("th", "option", bold=True) + _cell("th", "value", bold=True)
    if differ:
        n = len(differ)
        caption += f" with {n} change{'' if n == 1 else 's'} (in bold)"
        head += _cell("th", f"{preset} preset", bold=True)
    rows = []
    for field in attrs.fields(type(rules)):
        bold = field.name in differ
        cells = _cell("th", f"<code>{escape(field.name)}</code>", bold=bold, row=True)
        cells += _cell("td", _option_text(getattr(rules, field.name)), bold=bold)
        if differ:
            cells += _cell("td", _option_text(getattr(base, field.name)) if bold else "")
        rows.append(f"<tr>{cells}</tr>")
    return (
        f'<table class="sevenbridge-rules"><caption style="text-align:left">{caption}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )

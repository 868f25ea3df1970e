"""The machinery of rule configurations: checked option fields and presets by name.

Both games keep their options in a frozen attrs ``Rules`` class whose fields
check their values (a wrong option raises
:class:`~sevenbridge.errors.RulesConfigError` naming the option and what it
accepts) and whose presets are found by name or alias.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

from ..errors import Message, RulesConfigError, quote

__all__ = [
    "check_bool", "convert", "find_preset", "int_field", "int_in", "optional_in",
    "optional_int_field",
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

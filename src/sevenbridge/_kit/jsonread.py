"""Checked reading of JSON documents from untrusted sources.

A :class:`Check` reads one JSON value (raising
:class:`~sevenbridge.InvalidStateError` with the path of the value when it is
wrong) and knows its own JSON Schema fragment, so the reader and the published
schema come from the same place. :func:`parse` turns text into JSON values
and refuses what ``json.loads`` would let through silently: duplicate keys,
``NaN`` and ``Infinity``, and integers too long to be meant.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from ..errors import InvalidStateError, Message, quote

__all__ = [
    "Check",
    "Object",
    "array",
    "boolean",
    "integer",
    "nullable",
    "parse",
    "raw",
    "string",
]

_T = TypeVar("_T")
_U = TypeVar("_U")

#: Integers in documents have at most this many digits (a 64-bit seed has 20).
MAX_DIGITS = 20
_INT_TEXT = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


class Check(Generic[_T]):
    """Reads one JSON value; ``schema`` is the JSON Schema of what it accepts."""

    __slots__ = ("read", "schema")

    def __init__(self, read: Callable[[Any, str], _T], schema: dict[str, Any]) -> None:
        self.read = read
        self.schema = schema

    def __call__(self, value: Any, path: str) -> _T:
        return self.read(value, path)

    def then(self, convert: Callable[[_T, str], _U], **schema: Any) -> Check[_U]:
        """A check that reads like this one, then converts (and may refuse)."""
        read = self.read

        def inner(value: Any, path: str) -> _U:
            return convert(read(value, path), path)

        return Check(inner, {**self.schema, **schema})


def kind_of(value: Any) -> str:
    """How a JSON value is described in messages."""
    if isinstance(value, bool):
        return _KINDS[bool]
    if isinstance(value, (int, float)):
        return _KINDS[int]
    return _KINDS.get(type(value), _KINDS[object])


#: The kinds of JSON value as messages name them (messages, so that they translate).
_KINDS = {
    bool: Message("json_kind.boolean", "a boolean"),
    int: Message("json_kind.number", "a number"),
    dict: Message("json_kind.object", "an object"),
    list: Message("json_kind.list", "a list"),
    str: Message("json_kind.string", "a string"),
    type(None): Message("json_kind.null", "null"),
    object: Message("json_kind.value", "a value"),
}


def integer(lo: int, hi: int) -> Check[int]:
    """An integer from ``lo`` to ``hi``."""

    def read(value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidStateError(
                Message(
                    "invalid_state.expected_integer_found",
                    "{path}: expected an integer, found {value}",
                    path=path,
                    value=kind_of(value),
                )
            )
        if not lo <= value <= hi:
            raise InvalidStateError(
                Message(
                    "invalid_state.out_range",
                    "{path}: {value} is out of range ({lo} to {hi})",
                    path=path,
                    value=str(value),
                    lo=str(lo),
                    hi=str(hi),
                )
            )
        return value

    return Check(read, {"type": "integer", "minimum": lo, "maximum": hi})


def _read_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidStateError(
            Message(
                "invalid_state.expected_true_or_false",
                "{path}: expected true or false, found {value}",
                path=path,
                value=kind_of(value),
            )
        )
    return value


#: true or false.
boolean: Check[bool] = Check(_read_bool, {"type": "boolean"})


def string(max_length: int = 200, enum: tuple[str, ...] | None = None) -> Check[str]:
    """A string (at most ``max_length`` characters), or one of ``enum``."""

    def read(value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise InvalidStateError(
                Message(
                    "invalid_state.expected_string_found",
                    "{path}: expected a string, found {value}",
                    path=path,
                    value=kind_of(value),
                )
            )
        if enum is not None and value not in enum:
            raise InvalidStateError(
                Message(
                    "invalid_state.not_one",
                    "{path}: {value} is not one of {allowed}",
                    path=path,
                    value=quote(value, 30),
                    allowed=", ".join(map(repr, enum)),
                )
            )
        if len(value) > max_length:
            raise InvalidStateError(
                Message(
                    "invalid_state.characters_too_long",
                    "{path}: {length} characters is too long",
                    path=path,
                    length=len(value),
                )
            )
        return value

    schema: dict[str, Any] = {"type": "string", "maxLength": max_length}
    if enum is not None:
        schema = {"enum": list(enum)}
    return Check(read, schema)


def nullable(check: Check[_T]) -> Check[_T | None]:
    """``null`` or what ``check`` reads."""

    def read(value: Any, path: str) -> _T | None:
        return None if value is None else check(value, path)

    return Check(read, {"anyOf": [check.schema, {"type": "null"}]})


def array(check: Check[_T], max_items: int) -> Check[list[_T]]:
    """A list of at most ``max_items`` values, each read by ``check``."""

    def read(value: Any, path: str) -> list[_T]:
        if not isinstance(value, list):
            raise InvalidStateError(
                Message(
                    "invalid_state.expected_list_found",
                    "{path}: expected a list, found {value}",
                    path=path,
                    value=kind_of(value),
                )
            )
        if len(value) > max_items:
            raise InvalidStateError(
                Message(
                    "invalid_state.items_too_many_at",
                    "{path}: {count} items is too many (at most {max_items})",
                    path=path,
                    count=len(value),
                    max_items=str(max_items),
                )
            )
        return [check(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return Check(read, {"type": "array", "items": check.schema, "maxItems": max_items})


def raw(schema: dict[str, Any]) -> Check[Any]:
    """Any value, read later by hand; ``schema`` describes it."""
    return Check(lambda value, path: value, schema)


class Object:
    """A JSON object with known fields, each read by its check.

    ``header`` adds the ``format`` and ``version`` fields every document starts
    with. Unknown and missing fields are errors, except that a field with a
    value in ``defaults`` may be left out (a field added after its format
    version was published).
    """

    def __init__(
        self,
        fields: Mapping[str, Check[Any]],
        *,
        header: tuple[str, int] | None = None,
        title: str | None = None,
        defaults: Mapping[str, Any] | None = None,
    ) -> None:
        self.fields = dict(fields)
        self.header = header
        self.title = title
        self.defaults = dict(defaults or {})

    def read_header(self, value: Any, path: str) -> None:
        """Check that ``value`` is an object with this object's header."""
        if not isinstance(value, dict):
            raise InvalidStateError(
                Message(
                    "invalid_state.expected_json_object_found",
                    "{path}: expected a JSON object, found {value}",
                    path=path,
                    value=kind_of(value),
                )
            )
        if self.header is not None:
            fmt, version = self.header
            found = value.get("format")
            if found != fmt:
                shown = "nothing" if "format" not in value else quote(found, 40)
                raise InvalidStateError(
                    Message(
                        "invalid_state.format_expected_found",
                        "{path}.format: expected {fmt}, found {shown}",
                        path=path,
                        fmt=quote(fmt),
                        shown=shown,
                    )
                )
            if "version" not in value:
                raise InvalidStateError(
                    Message(
                        "invalid_state.missing_field_version",
                        "{path}: missing field 'version'",
                        path=path,
                    )
                )
            got = integer(0, 10**6)(value["version"], f"{path}.version")
            if got != version:
                raise InvalidStateError(
                    Message(
                        "invalid_state.version_version_not_supported",
                        "{path}.version: version {got} is not supported (this library reads version {version})",
                        path=path,
                        got=str(got),
                        version=str(version),
                    )
                )

    def read(self, value: Any, path: str) -> dict[str, Any]:
        """The fields' values, read in order; the header is checked, not returned."""
        self.read_header(value, path)
        expected = set(self.fields)
        if self.header is not None:
            expected |= {"format", "version"}
        unknown = sorted(set(value) - expected)
        if unknown:
            raise InvalidStateError(
                Message(
                    "invalid_state.unknown_field",
                    "{path}: unknown field {unknown}",
                    path=path,
                    unknown=quote(unknown[0], 40),
                )
            )
        out = {}
        for key, check in self.fields.items():
            if key not in value:
                if key in self.defaults:
                    out[key] = self.defaults[key]
                    continue
                raise InvalidStateError(
                    Message(
                        "invalid_state.missing_field",
                        "{path}: missing field {key}",
                        path=path,
                        key=quote(key),
                    )
                )
            out[key] = check(value[key], f"{path}.{key}")
        return out

    @property
    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the object."""
        properties: dict[str, Any] = {}
        if self.header is not None:
            fmt, version = self.header
            properties["format"] = {"const": fmt}
            properties["version"] = {"const": version}
        properties.update({key: check.schema for key, check in self.fields.items()})
        out: dict[str, Any] = {}
        if self.title is not None:
            out["title"] = self.title
        out.update(
            {
                "type": "object",
                "properties": properties,
                "required": [key for key in properties if key not in self.defaults],
                "additionalProperties": False,
            }
        )
        return out


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidStateError(
                Message(
                    "invalid_state.key_appears_twice_in",
                    "the key {key} appears twice in one object",
                    key=quote(key, 40),
                )
            )
        out[key] = value
    return out


def _integer_text(text: str) -> int:
    if not _INT_TEXT.fullmatch(text):
        raise InvalidStateError(
            Message(
                "invalid_state.number_has_more_than",
                "the number {text} has more than {limit} digits",
                text=quote(text, 30),
                limit=str(MAX_DIGITS),
            )
        )
    return int(text)


def _refuse_constant(text: str) -> Any:
    raise InvalidStateError(
        Message("invalid_state.not_json_number", "{text} is not a JSON number", text=text)
    )


def parse(text: str | bytes, what: str) -> Any:
    """JSON values from text (or UTF-8 bytes), or an InvalidStateError naming ``what``."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise InvalidStateError(
                Message(
                    "invalid_state.not_utf_text",
                    "{what}: not UTF-8 text ({reason})",
                    what=str(what),
                    reason=error.reason,
                )
            ) from None
    if not isinstance(text, str):
        raise InvalidStateError(
            Message(
                "invalid_state.expected_json_text_found",
                "{what}: expected JSON text, found {name}",
                what=str(what),
                name=str(type(text).__name__),
            )
        )
    try:
        return json.loads(
            text,
            object_pairs_hook=_refuse_duplicates,
            parse_int=_integer_text,
            parse_constant=_refuse_constant,
        )
    except InvalidStateError as error:
        raise InvalidStateError(
            Message("invalid_state.error_3", "{what}: {error}", what=str(what), error=error)
        ) from None
    except json.JSONDecodeError as error:
        raise InvalidStateError(
            Message(
                "invalid_state.not_well_formed_json",
                "{what}: not well-formed JSON: {msg} at line {lineno}, column {colno}",
                what=str(what),
                msg=str(error.msg),
                lineno=str(error.lineno),
                colno=str(error.colno),
            )
        ) from None
    except RecursionError:
        raise InvalidStateError(
            Message(
                "invalid_state.not_well_formed_json_2",
                "{what}: not well-formed JSON: nested too deeply",
                what=str(what),
            )
        ) from None
    except ValueError as error:  # anything else json refuses
        raise InvalidStateError(
            Message(
                "invalid_state.not_well_formed_json_3",
                "{what}: not well-formed JSON: {error}",
                what=str(what),
                error=quote(str(error), 80),
            )
        ) from None

"""The web table's seat protocol, as JSON Schemas (draft 2020-12) and
TypeScript declarations, for people who write their own table against a
``sevenbridge serve`` server.

A seat's page reads one document, the seat's *view* (``GET
/api/table/{table}/{seat}?token=...``, and every message of the WebSocket
``/ws/table/{table}/{seat}?token=...``, which sends nothing else); it plays by
posting a *move* (``POST /api/table/{table}/{seat}/move``), and ``/undo`` and
``/next`` and ``/again`` (play again: a new table with the same seats, once
the match is over) with only the token; each answers with an *answer*
(the view names the table opened to play again in ``again``). A program opens
a table by posting an *open* document to ``/api/tables`` and gets *opened*
back. This module holds nothing that runs a server: it imports no web
framework.
"""

from __future__ import annotations

import json
from typing import Any

from .._kit.events import EVENT_SCHEMA

__all__ = ["SEAT_SCHEMAS", "seat_schema_files", "typescript"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_INT = {"type": "integer", "minimum": 0}
_STR = {"type": "string"}
_BOOL = {"type": "boolean"}


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": sorted(properties) if required is None else required,
        "properties": properties,
    }


def _array(items: dict[str, Any], most: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items}
    if most is not None:
        out["maxItems"] = most
    return out


_EVENT = {k: v for k, v in EVENT_SCHEMA.items() if k not in ("$schema", "title")}

_MOVE_CHOICE = _object(
    {"index": _INT, "kind": _STR, "label": _STR, "short": _STR,
     "cards": _array(_STR), "notation": _STR, "target": _INT},
    ["index", "kind", "label", "short", "cards", "notation"],
)  # fmt: skip

_RESULT = _object({
    "reason": _STR, "notes": _array(_STR),
    "rows": _array({"type": "object"}), "score_label": _STR, "lowest_wins": _BOOL,
    "title": _STR, "hand_word": _STR, "deal": _INT,
    "totals": _array({"type": "integer"}), "over": _BOOL, "winners": _array(_INT),
})  # fmt: skip

_VIEW = _object(
    {
        "type": {"const": "view"},
        "table": _STR,
        "seat": _INT,
        "epoch": _STR,
        "version": _INT,
        "ply": _INT,
        "deal": _INT,
        "title": _STR,
        "deal_word": _STR,
        "hand_head": _STR,
        "rules": _STR,
        "rules_url": _STR,
        "lang": {"enum": ["en", "ja"]},
        "names": _array(_STR),
        "humans": _array(_BOOL),
        "status": _STR,
        "your_turn": _BOOL,
        "svg": _STR,
        "svg_narrow": _STR,
        "hand": _array(_object({"card": _STR, "label": _STR, "name": _STR, "svg": _STR})),
        "kinds": _array({"type": "array", "prefixItems": [_STR, _STR], "items": False}),
        "choosable": _array(_STR),
        "moves": _array(_MOVE_CHOICE),
        "log": _array(_STR),
        "events": _array(_EVENT),
        "practice": _BOOL,
        "can_undo": _BOOL,
        "result": {"anyOf": [_RESULT, {"type": "null"}]},
        "clock": {"type": ["number", "null"], "minimum": 0},
        "notice": {"type": ["string", "null"]},
        "again": {"type": ["string", "null"]},
        "observation": {"type": "object"},
    }
)

#: The JSON Schemas of the seat protocol, by name: ``view`` (what a seat is
#: sent), ``move`` (what it posts to play), ``answer`` (what a post gets back),
#: ``open`` and ``opened`` (opening a table through the API).
SEAT_SCHEMAS: dict[str, dict[str, Any]] = {
    "view": _VIEW,
    "move": _object(
        {
            "token": {"type": "string", "maxLength": 100},
            "index": {"type": "integer", "minimum": 0, "maximum": 9999},
            "ply": {"type": "integer", "minimum": 0, "maximum": 10**9 - 1},
            "kind": {"type": "string", "maxLength": 20},
            "cards": _array({"type": "string", "maxLength": 4}, 20),
            "target": {"type": "integer", "minimum": 0, "maximum": 999},
        },
        ["token"],
    ),
    "answer": _object(
        {"ok": _BOOL, "message": _STR, "view": {"anyOf": [_VIEW, {"type": "null"}]}}, ["ok"]
    ),
    "open": _object(
        {
            "game": _STR,
            "rules": _STR,
            "players": {"type": ["integer", "string"]},
            "deals": {"type": ["integer", "string", "null"]},
            "seed": {"type": ["integer", "string", "null"]},
            "seats": _array(_STR, 8),
            "practice": _BOOL,
            "pause": {"type": ["number", "string", "null"]},
        },
        ["seats"],
    )
    | {"additionalProperties": True},
    "opened": _object(
        {
            "ok": _BOOL,
            "message": _STR,
            "table": _STR,
            "links": _STR,
            "links_address": _STR,
            "seats": _array(_object({"seat": _INT, "url": _STR, "address": _STR})),
        },
        ["ok"],
    ),
}


def seat_schema_files() -> dict[str, str]:
    """The seat protocol's schemas as the text of their files, by path
    (``web/view.json`` ...), and its TypeScript declarations (``web/seat.d.ts``)."""
    files = {
        f"web/{name}.json": json.dumps(
            {"$schema": _DRAFT, "title": f"web {name}", **schema}, indent=2, ensure_ascii=False
        )
        + "\n"
        for name, schema in SEAT_SCHEMAS.items()
    }
    files["web/seat.d.ts"] = typescript(SEAT_SCHEMAS)
    return files


def typescript(schemas: dict[str, dict[str, Any]]) -> str:
    """TypeScript declarations of JSON Schemas (the subset these schemas use:
    objects, arrays, tuples, unions of types, constants and enumerations), one
    exported type per schema, named in CamelCase with ``Seat`` before it
    (``SeatView``). Written here rather than with a JavaScript tool so that
    the package makes them without any."""
    out = ["// The seat protocol of a sevenbridge web table (generated from its JSON Schemas).", ""]
    for name, schema in schemas.items():
        out.append(f"export type Seat{name.title()} = {_ts(schema, 0)};")
        out.append("")
    return "\n".join(out)


def _ts(schema: Any, depth: int) -> str:
    """One schema as a TypeScript type."""
    if schema is False:
        return "never"
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(_ts(s, depth) for s in schema["anyOf"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(_ts({**schema, "type": k}, depth) for k in kind)
    if kind == "object":
        fields = schema.get("properties")
        if not fields:
            return "Record<string, unknown>"
        pad = "  " * (depth + 1)
        needed = set(schema.get("required", ()))
        lines = [
            f"{pad}{key}{'' if key in needed else '?'}: {_ts(value, depth + 1)};"
            for key, value in fields.items()
        ]
        return "{\n" + "\n".join(lines) + "\n" + "  " * depth + "}"
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(_ts(s, depth) for s in schema["prefixItems"]) + "]"
        inner = _ts(schema.get("items", {}), depth)
        return f"Array<{inner}>"
    return {"integer": "number", "number": "number", "string": "string", "boolean": "boolean",
            "null": "null"}.get(str(kind), "unknown")  # fmt: skip

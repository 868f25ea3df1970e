"""The published JSON Schemas: current, valid, and true of real documents."""

from __future__ import annotations

import json
import os

import pytest

from sevenbridge import Draw, LayOff, Pon, Rules, apply, deal, json_schema, observe
from sevenbridge.bots import GreedyPlayer
from sevenbridge.external import SCHEMA_FOLDER, schema_files
from sevenbridge.web._protocol import seat_schema_files

jsonschema = pytest.importorskip("jsonschema")

DOCUMENTS = ("state", "observation", "rules", "action")
FILES = {**schema_files(), **seat_schema_files()}


@pytest.mark.parametrize("path", sorted(FILES))
def test_the_installed_schema_files_are_current(path: str) -> None:
    """The package ships every schema as a file, and each is what the code makes now."""
    file = SCHEMA_FOLDER / path
    if os.environ.get("SEVENBRIDGE_REGOLD"):
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(FILES[path], encoding="utf-8")
    assert file.read_text(encoding="utf-8") == FILES[path], "regenerate with SEVENBRIDGE_REGOLD=1"


def test_the_schema_folder_holds_nothing_else() -> None:
    found = {p.relative_to(SCHEMA_FOLDER).as_posix() for p in SCHEMA_FOLDER.rglob("*.*")}
    assert found == set(FILES)
    assert {k.removesuffix(".json") for k in FILES if "/" not in k} == {*DOCUMENTS, "event"}
    assert json.loads(FILES["observation.json"]) == json_schema("observation")


@pytest.mark.parametrize("path", sorted(p for p in FILES if p.endswith(".json")))
def test_every_schema_file_is_valid_draft_2020_12(path: str) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(FILES[path]))


def _documents() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {name: [] for name in DOCUMENTS}
    for preset in Rules.presets():
        rules = Rules.preset(preset)
        out["rules"].append(rules.to_json())
        for players in (2, 3, 5):
            state, bot = deal(rules, players=players, seed=players), GreedyPlayer(players)
            while True:
                out["state"].append(state.to_json())
                out["observation"].append(observe(state, 0).to_json())
                if state.is_over:
                    break
                action = bot(state)
                out["action"].append(action.to_json())
                state = apply(state, action)
    out["action"] += [Pon(1, "JK 9C", joker_as="9H").to_json(), LayOff(0, "JK", 3, "8H").to_json()]
    return out


def test_real_documents_validate() -> None:
    documents = _documents()
    for name, texts in documents.items():
        validator = jsonschema.Draft202012Validator(json_schema(name))
        assert texts
        for text in texts[:: max(1, len(texts) // 150)]:
            validator.validate(json.loads(text))


def test_schema_refuses_what_the_reader_refuses_field_by_field() -> None:
    validator = jsonschema.Draft202012Validator(json_schema("action"))
    good = json.loads(Draw(1).to_json())
    validator.validate(good)
    for bad in ({**good, "player": 7}, {**good, "player": True}, {**good, "extra": 1},
                {**good, "type": "Dance"}, {k: v for k, v in good.items() if k != "player"}):  # fmt: skip
        assert not validator.is_valid(bad)
    rules = jsonschema.Draft202012Validator(json_schema("rules"))
    doc = json.loads(Rules.nintendo().to_json())
    assert rules.is_valid(doc)
    assert not rules.is_valid({**doc, "joker_multiplier": 101})
    assert not rules.is_valid({**doc, "scoring": "golf"})


def test_the_typescript_declarations_name_every_field_of_the_seat_protocol() -> None:
    """``web/seat.d.ts`` declares one type a schema, with every field of each
    object (optional where the schema does not require it), and tuples and
    unions as the schema says."""
    from sevenbridge.web._protocol import SEAT_SCHEMAS

    text = FILES["web/seat.d.ts"]
    for name, schema in SEAT_SCHEMAS.items():
        assert f"export type Seat{name.title()} = {{" in text
        for field in schema["properties"]:
            needed = field in schema["required"]
            assert f"  {field}{'' if needed else '?'}: " in text, (name, field)
    assert "kinds: Array<[string, string]>;" in text
    assert "seat: number | null;" in text and 'type: "view";' in text
    assert text.count("{") == text.count("}")

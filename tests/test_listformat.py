"""The list file format is declared once (rules/listformat.py): the reader and the schema both follow it.

Every declared key is checked by the reader with the declared message and described by the
editor schema with the declared type, bounds and title; a key left out of the declaration is
refused by both.
"""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from listbuilder.army.listfile import parse_list
from listbuilder.errors import InputError
from listbuilder.files.yamldoc import Document
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.listformat import (
    CATALOG_ENTRY_KEYS,
    CUSTOM_ENTRY_KEYS,
    LIMIT,
    TOP_KEYS,
    ListKey,
)
from listbuilder.share.editorschema import list_schema, words

CATALOGS = Catalogs()
SYSTEM = CATALOGS.get("might-skirmish")
LIMIT_KEY = SYSTEM.size_unit
SCHEMA = list_schema(SYSTEM)
ENTRIES = SCHEMA["properties"]["units"]["items"]["oneOf"]
WRONG = {"text": ["a", "list"], "whole": "ten", "flag": "maybe", "list": "Hunter"}
A_UNIT = next(iter(SYSTEM.units.values()))


def base() -> dict[str, object]:
    return {"system": SYSTEM.id, "name": "A list", "units": [{"unit": A_UNIT.name}]}


def custom() -> dict[str, object]:
    return {"name": "Mine", "class": "Soldier", "might": 5}


def reader_errors(data: dict[str, object]) -> list[str]:
    try:
        parse_list(Document(path=Path("l.yaml"), data=data, positions={}, text=""), CATALOGS)
    except InputError as exc:
        return [f"{'.'.join(map(str, d.path))}: {d.message}" for d in exc.details]
    return []


def schema_ok(data: dict[str, object]) -> bool:
    return jsonschema.Draft7Validator(SCHEMA).is_valid(data)


def where(key: ListKey) -> str:
    return key.named(LIMIT_KEY)


@pytest.mark.parametrize("key", [k for k in TOP_KEYS if k.key != "system"], ids=lambda k: k.key)
def test_a_top_key_of_the_wrong_type_is_refused_by_both_in_the_declared_words(key):
    data = {**base(), where(key): WRONG[key.type]}
    assert any(e.startswith(f"{where(key)}: {key.wrong}, found ") for e in reader_errors(data)), reader_errors(data)
    assert not schema_ok(data)


@pytest.mark.parametrize("key", CATALOG_ENTRY_KEYS, ids=lambda k: k.key)
def test_a_catalog_entry_key_of_the_wrong_type_is_refused_by_both(key):
    entry = {"unit": A_UNIT.name, key.key: WRONG[key.type]}
    data = {**base(), "units": [entry]}
    assert f"units.0.{key.key}: {key.wrong}, found {WRONG_FOUND[key.type]}" in reader_errors(data)
    assert not schema_ok(data)


@pytest.mark.parametrize("key", CUSTOM_ENTRY_KEYS, ids=lambda k: k.key)
def test_a_custom_entry_key_of_the_wrong_type_is_refused_by_both(key):
    data = {**base(), "units": [{**custom(), key.key: WRONG[key.type]}]}
    assert f"units.0.{key.key}: {key.wrong}, found {WRONG_FOUND[key.type]}" in reader_errors(data)
    assert not schema_ok(data)


WRONG_FOUND = {"text": "a list", "whole": "'ten'", "flag": "'maybe'", "list": "'Hunter'"}


@pytest.mark.parametrize("key", [k for k in TOP_KEYS if k.minimum is not None], ids=lambda k: k.key)
def test_below_the_declared_minimum_is_refused_by_both(key):
    data = {**base(), where(key): key.minimum - 1}
    assert any(e.startswith(f"{where(key)}: ") for e in reader_errors(data))
    assert not schema_ok(data)
    assert not reader_errors({**base(), where(key): key.minimum}) and schema_ok({**base(), where(key): key.minimum})


def test_the_required_keys_are_the_declared_ones_for_both():
    for key in TOP_KEYS:
        data = {k: v for k, v in base().items() if k != where(key)}
        assert bool(reader_errors(data)) == key.required == (not schema_ok(data)), key.key
    assert SCHEMA["required"] == [where(k) for k in TOP_KEYS if k.required]
    assert ENTRIES[0]["required"] == [k.key for k in CATALOG_ENTRY_KEYS if k.required]


def test_the_schema_shows_the_declared_titles_and_help_in_the_rule_sets_words():
    w = words(SYSTEM)
    shown = {
        **{where(k): (SCHEMA["properties"][where(k)], k) for k in TOP_KEYS},
        **{f"entry.{k.key}": (ENTRIES[0]["properties"][k.key], k) for k in CATALOG_ENTRY_KEYS},
        **{f"custom.{k.key}": (ENTRIES[1]["properties"][k.key], k) for k in CUSTOM_ENTRY_KEYS},
    }
    for name, (schema, key) in shown.items():
        assert schema["title"] == key.title.format(**w), name
        assert schema["description"].startswith(key.help.format(**w)), name
    assert SCHEMA["properties"][LIMIT_KEY]["description"].startswith("The most points the warband may have")
    assert LIMIT not in SCHEMA["properties"]


def test_a_key_outside_the_declaration_is_refused_by_both():
    for data in (
        {**base(), "colour": "red"},
        {**base(), "units": [{"unit": A_UNIT.name, "colour": "red"}]},
        {**base(), "units": [{**custom(), "colour": "red"}]},
    ):
        assert any("unknown key 'colour'" in e for e in reader_errors(data))
        assert not schema_ok(data)


@pytest.mark.parametrize(("digits", "said"), [(4_301, "a number of 4,301 digits is too long to read"), (100, None)])
def test_a_number_past_pythons_digit_limit_is_named_by_its_length(cli, tmp_path, digits, said):
    listed = tmp_path / "big.yaml"
    listed.write_text(
        f"system: might-skirmish\nname: Big\npoints: 100\nunits:\n  - unit: Hunter\n    count: {'9' * digits}\n"
    )
    result = cli("validate", str(listed))
    out = result.stdout + result.stderr
    if said:  # refused at its line, without the 4,301 digits repeated back
        assert result.exit_code == 2, out
        assert f"line 6, column 12: {said}" in out and "write a smaller number" in out
        assert len(out) < 600, out
    else:  # a hundred digits is read, and judged as a count like any other
        assert result.exit_code == 1, out

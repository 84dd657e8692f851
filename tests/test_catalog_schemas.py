"""The catalog files' JSON Schemas: generated from the loader's records, offered by each shipped file's
first line, true to every shipped catalog, and refusing what the loader refuses, in an editor too."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import CATALOGS, ROOT
from test_editor_schema import SERVER, Client

from listbuilder.authoring.schemas import FILES, SUFFIX, catalog_schema, schema_text
from listbuilder.errors import CatalogError
from listbuilder.files.yamldoc import load_yaml
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import SystemFile
from listbuilder.rules.reference import Table, load_reference
from listbuilder.rules.schema import field_doc

SCHEMAS = ROOT / "schemas"
AUTHORS = ROOT / "tests" / "authors"
REGENERATE = "run: python -m listbuilder.authoring.schemas schemas"
_LINE = re.compile(r"\A# yaml-language-server: \$schema=(\S+)\n")


def catalog_files(root: Path) -> list[Path]:
    return sorted(
        p
        for folder in root.iterdir()
        if (folder / "system.yaml").is_file()
        for p in [*folder.glob("*.yaml"), *folder.glob("factions/*.yaml")]
    )


SHIPPED = catalog_files(CATALOGS)


def schema_of(path: Path) -> tuple[Path, dict[str, Any]]:
    """The schema a catalog file's first line offers an editor, resolved as an editor resolves it."""
    found = _LINE.match(path.read_text(encoding="utf-8"))
    assert found, f"{path} has no '# yaml-language-server: $schema=' first line"
    target = (path.parent / found.group(1)).resolve()
    return target, json.loads(target.read_text(encoding="utf-8"))


@pytest.mark.parametrize("stem", list(FILES))
def test_the_shipped_schemas_are_what_the_loaders_records_make_now(stem):
    shipped = (SCHEMAS / f"{stem}{SUFFIX}").read_text(encoding="utf-8")
    assert shipped == schema_text(catalog_schema(stem)), f"schemas/{stem}{SUFFIX} is stale: {REGENERATE}"


@pytest.mark.parametrize("path", SHIPPED + catalog_files(AUTHORS), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_catalog_file_offers_its_schema_and_meets_it(path):
    target, schema = schema_of(path)
    kind = "faction" if path.parent.name == "factions" else path.stem
    folder = path.parent.parent if kind == "faction" else path.parent
    variant = "extends:" in (folder / "system.yaml").read_text() and kind in ("reference", "odds")
    assert target.name == f"{'variant-' if variant else ''}{kind}{SUFFIX}"
    assert target.parent == SCHEMAS
    data = load_yaml(path, "catalog file").data  # read as the loader reads YAML ('on:' is a key)
    errors = [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for e in jsonschema.Draft7Validator(schema).iter_errors(data)
    ]
    assert errors == [], path


def test_the_schemas_say_what_the_records_say():
    system = catalog_schema("system")["definitions"]
    for f in dataclasses.fields(SystemFile):
        assert system["SystemFile"]["properties"][f.name]["description"] == field_doc(SystemFile, f.name)
    assert system["SystemFile"]["required"] == [
        f.name
        for f in dataclasses.fields(SystemFile)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    table = catalog_schema("reference")["definitions"]["Table"]["properties"]
    assert table["given"]["description"] == field_doc(Table, "given")
    assert table["given"]["default"] is True


# What a loader refuses, the schema refuses: each mistake made in a copy of a shipped file.
BROKEN = [
    ("might-skirmish/system.yaml", "default_limit: 100", "default_limt: 100", "Additional properties are not allowed"),
    ("might-skirmish/system.yaml", "revision: 1\n", "revision: one\n", "'one' is not of type 'integer'"),
    (
        "might-skirmish/system.yaml",
        "  - kind: at_most\n    id: max-fighters",
        "  - kind: at_mots\n    id: max-fighters",
        "'at_mots' is not one of",
    ),
    ("speed-range-power/system.yaml", "    per: 10\n", "    pr: 10\n", "'per' is a required property"),
    ("might-skirmish/factions/zombie-family.yaml", "faction: Zombie Family\n", "", "'faction' is a required property"),
    ("speed-range-power/reference.yaml", "    in_play: false\n", "    in_play: no way\n", "is not of type 'boolean'"),
    (
        "might-skirmish-150/system.yaml",
        "default_limit: 150",
        "default_limt: 150",
        "Additional properties are not allowed",
    ),
    ("speed-range-power/odds.yaml", "matchup:", "matchups:", "Additional properties are not allowed"),
]


@pytest.mark.parametrize(("file", "old", "new", "message"), BROKEN, ids=[b[2].strip()[:24] for b in BROKEN])
def test_a_broken_catalog_file_fails_its_schema_as_it_fails_the_loader(tmp_path, file, old, new, message):
    root = tmp_path / "club"
    system_id = file.split("/")[0]
    copied = [system_id, *(["might-skirmish"] if system_id == "might-skirmish-150" else [])]
    for sid in copied:
        shutil.copytree(CATALOGS / sid, root / f"{sid}-copy")
        edit_id(root / f"{sid}-copy", "might-skirmish" if sid == "might-skirmish-150" else None)
    folder = root / f"{system_id}-copy"
    path = folder / file.split("/", 1)[1]
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _, schema = schema_of(CATALOGS / file)
    errors = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(load_yaml(path, "catalog file").data)]
    assert any(message in e for e in errors), errors
    books = Catalogs([root])
    with pytest.raises(CatalogError):
        system = books.get(folder.name)
        if path.name == "reference.yaml":
            load_reference(system)
        if path.name == "odds.yaml":
            from listbuilder.odds.load import load_odds

            load_odds(system)


def edit_id(folder: Path, base: str | None) -> None:
    """A copied rule set under its folder's name (and a copied variant extending the copied base)."""
    system = folder / "system.yaml"
    text = system.read_text(encoding="utf-8")
    old_id = folder.name.removesuffix("-copy")
    text = text.replace(f"\nid: {old_id}\n", f"\nid: {folder.name}\n")
    if base is not None:
        text = text.replace(f"extends: {base}\n", f"extends: {base}-copy\n")
    system.write_text(text, encoding="utf-8")


# --- in an editor: the real yaml-language-server ---------------------------------------------

needs_server = pytest.mark.skipif(SERVER is None, reason="yaml-language-server is not installed")


@pytest.fixture(scope="module")
def editor():
    assert SERVER is not None
    client = Client(SERVER)
    yield client
    client.close()


@needs_server
@pytest.mark.parametrize(
    "path",
    [
        CATALOGS / "speed-range-power" / "system.yaml",
        CATALOGS / "might-skirmish-150" / "system.yaml",
        CATALOGS / "speed-range-power" / "reference.yaml",
        CATALOGS / "might-skirmish-150" / "reference.yaml",
        CATALOGS / "deathzap" / "odds.yaml",
        CATALOGS / "melee-module" / "factions" / "zulu-impi.yaml",
    ],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_the_editor_finds_nothing_wrong_in_a_shipped_catalog_file(editor, path):
    assert editor.open(path, path.read_text(encoding="utf-8")) == []


@needs_server
@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        (
            "might-skirmish/system.yaml",
            "default_limit: 100",
            "default_limt: 100",
            "Property default_limt is not allowed.",
        ),
        ("speed-range-power/system.yaml", "    per: 10\n", "    pr: 10\n", "Property pr is not allowed."),
        (
            "speed-range-power/reference.yaml",
            "    in_play: false\n",
            "    in_play: 3\n",
            'Incorrect type. Expected "boolean".',
        ),
    ],
)
def test_the_editor_flags_a_catalog_mistake_on_its_line(editor, file, old, new, expected):
    path = CATALOGS / file
    text = path.read_text(encoding="utf-8")
    edited = text.replace(old, new, 1)
    line = next(
        i for i, text in enumerate(edited.splitlines()) if text.strip() and text.strip() == new.strip().split("\n")[0]
    )
    diagnostics = editor.open(path.parent / f"edited-{path.name}", edited)
    assert any(expected in d["message"] and d["range"]["start"]["line"] == line for d in diagnostics), diagnostics


@needs_server
def test_the_editor_explains_a_catalog_key_on_hover(editor):
    path = CATALOGS / "speed-range-power" / "system.yaml"
    text = path.read_text(encoding="utf-8")
    opened = path.parent / "hover-system.yaml"
    editor.open(opened, text)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("default_limit:"))
    assert field_doc(SystemFile, "default_limit") in editor.hover(opened, at, 3)
    at = next(i for i, line in enumerate(lines) if line.strip() == "rounding: down")
    assert "'down': 19 models allow 1 per 10" in editor.hover(opened, at, lines[at].index("rounding") + 2)

"""The JSON Schemas of list files: every example passes, typos fail, and the shipped files are current."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import EXAMPLES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.army.listfile import parse_list
from listbuilder.authoring.schemas import FILES as CATALOG_FILES
from listbuilder.errors import InputError, OutputError
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.rules.catalog import Catalogs
from listbuilder.share.editorschema import all_lists_schema, list_schema, schema_text, write_schemas

SCHEMAS = ROOT / "schemas"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))
SHIPPED = Catalogs()


def validator(system_id: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(list_schema(SHIPPED.get(system_id)))


def errors(system_id: str, text: str) -> list[str]:
    data = yaml.safe_load(textwrap.dedent(text))
    return [e.message for e in validator(system_id).iter_errors(data)]


@pytest.mark.parametrize("system_id", SHIPPED.ids())
def test_each_schema_is_a_valid_draft_07_schema(system_id):
    jsonschema.Draft7Validator.check_schema(list_schema(SHIPPED.get(system_id)))


def test_the_schema_for_all_rule_sets_is_valid():
    jsonschema.Draft7Validator.check_schema(all_lists_schema(SHIPPED))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_example_validates_against_its_schema_file_and_the_combined_schema(path):
    data = load_yaml(path).data
    schema = json.loads((SCHEMAS / f"{data['system']}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(schema).validate(data)
    jsonschema.Draft7Validator(all_lists_schema(SHIPPED)).validate(data)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_example_names_its_own_schema_on_its_first_line(path):
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    system_id = load_yaml(path).data["system"]
    assert first == f"# yaml-language-server: $schema=../schemas/{system_id}.schema.json"
    assert (path.parent / f"../schemas/{system_id}.schema.json").resolve().is_file()


REGENERATE = (
    "python -c 'from pathlib import Path; from listbuilder.rules.catalog import Catalogs; "
    'from listbuilder.share.editorschema import write_schemas; write_schemas(Path("schemas"), Catalogs())\''
)


def test_the_shipped_schema_files_are_what_the_catalogs_produce_now():
    # beside them, the catalog files' own schemas (tests/test_catalog_schemas.py keeps those current)
    names = sorted(p.name for p in SCHEMAS.glob("*.json") if p.name.split(".")[0] not in CATALOG_FILES)
    expected = sorted(f"{i}.schema.json" for i in SHIPPED.ids())
    assert names == expected, f"schemas/ differs from the rule sets: {REGENERATE}"
    for system_id in SHIPPED.ids():
        shipped = (SCHEMAS / f"{system_id}.schema.json").read_text(encoding="utf-8")
        current = schema_text(list_schema(SHIPPED.get(system_id)))
        assert shipped == current, f"schemas/{system_id}.schema.json is stale (a catalog changed): {REGENERATE}"


def test_schema_files_are_pretty_sorted_and_end_in_one_newline(tmp_path):
    (written,) = write_schemas(tmp_path / "out", SHIPPED, ["might-skirmish"])
    text = written.read_text(encoding="utf-8")
    assert written.name == "might-skirmish.schema.json"
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_write_schemas_reports_an_unwritable_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(OutputError) as caught:
        write_schemas(blocker, SHIPPED, ["deathzap"])
    assert "cannot write the schema" in caught.value.render()


@pytest.mark.parametrize(
    ("system_id", "text", "expected"),
    [
        (
            "might-skirmish",
            """
            system: might-skirmish
            name: Typo
            units:
              - name: Old Mother
                class: Monster
                mihgt: 20
            """,
            "mihgt",
        ),
        (
            "might-skirmish",
            """
            system: might-skirmish
            name: Unknown class
            units:
              - name: Old Mother
                class: Wizard
                might: 20
            """,
            "Wizard",
        ),
        ("might-skirmish", "system: might-skirmish\nname: Zero\nunits:\n  - unit: Hunter\n    count: 0\n", "0"),
        ("might-skirmish", "system: might-skirmish\nname: Figures\nfigures: 10\nunits: []\n", "figures"),
        ("deathzap", "system: deathzap\nname: Points\npoints: 10\nunits: []\n", "points"),
        ("might-skirmish", "system: might-skirmish\nname: U\nunits:\n  - unit: Hunterr\n", "Hunterr"),
        ("might-skirmish", "system: might-skirmish\nname: L\npoints: 0\nunits: []\n", "0"),
        ("might-skirmish", "system: might-skirmish\nname: R\nrevision: 0\nunits: []\n", "0"),
        ("might-skirmish", "system: might-skirmish\nname: Missing stat\nunits:\n  - name: X\n    class: Soldier\n", ""),
        (
            "speed-range-power",
            "system: speed-range-power\nname: Twice\nunits:\n"
            "  - {name: X, speed: 6, range: 0, power: 1, traits: [attacker, attacker]}\n",
            "",
        ),
        ("might-skirmish", "system: might-skirmish\nname: Both\nunits:\n  - {unit: Hunter, name: Hunter}\n", ""),
        (
            "might-skirmish",
            "system: might-skirmish\nname: Stat on a catalog unit\nunits:\n  - {unit: Hunter, might: 3}\n",
            "",
        ),
        ("might-skirmish", "system: might-skirmish\nname: ' '\nunits: []\n", ""),
        (
            "might-skirmish",
            "system: might-skirmish\nname: Text might\nunits:\n  - {name: X, class: Soldier, might: '5'}\n",
            "",
        ),
    ],
)
def test_the_schema_rejects_what_listbuilder_rejects(system_id, text, expected):
    found = errors(system_id, text)
    assert found, "the schema accepted it"
    assert any(expected in message for message in found) or any(expected in str(e) for e in found)
    with pytest.raises(InputError):
        parse_list(
            Document(path=Path("l.yaml"), data=yaml.safe_load(textwrap.dedent(text)), positions={}, text=""), SHIPPED
        )


def test_a_rule_sets_schema_refuses_another_rule_sets_list():
    assert errors("might-skirmish", "system: deathzap\nname: Wrong rule set\nunits: []\n")


def test_the_schema_accepts_the_optional_keys():
    assert not errors(
        "speed-range-power",
        """
        system: speed-range-power
        name: Everything
        points: 500
        revision: 1
        units:
          - {unit: WW2 Officer, count: 1, leader: false}
          - {name: Scout, count: 2, leader: true, speed: 6, range: 12, power: 1, notes: Fast., source: mine}
          - {name: Plain, speed: 6, range: 0, power: 1}
        """,
    )


def test_hover_help_comes_from_the_rule_set_data():
    schema = list_schema(SHIPPED.get("speed-range-power"))
    custom = schema["properties"]["units"]["items"]["oneOf"][1]["properties"]
    assert custom["speed"]["title"] == "Speed"
    assert "How far the model moves" in custom["speed"]["description"]
    assert "multiples of 3" in custom["speed"]["markdownDescription"]  # the force rule on the stat
    traits = custom["traits"]["items"]
    assert traits["enum"] == ["big-guns", "attacker", "defender"]
    assert traits["enumDescriptions"][1].startswith("Attacker. +1 to combat rolls in its own turn")  # 003 line 39
    catalog = schema["properties"]["units"]["items"]["oneOf"][0]["properties"]["unit"]
    officer = catalog["enum"].index("WW2 Officer")
    assert catalog["enumDescriptions"][officer].startswith('Worked Examples: Speed 6", Range 6", Power 3; 22 points.')


def test_a_rule_set_without_catalog_units_takes_custom_units_only(tmp_path):
    (tmp_path / "deathzap").mkdir()
    (tmp_path / "deathzap" / "system.yaml").write_text((ROOT / "catalogs/deathzap/system.yaml").read_text())
    schema = list_schema(Catalogs(shipped=tmp_path).get("deathzap"))
    jsonschema.Draft7Validator.check_schema(schema)
    (only,) = schema["properties"]["units"]["items"]["oneOf"]
    assert "name" in only["required"]


def test_the_combined_schema_dispatches_on_the_rule_set():
    combined = jsonschema.Draft7Validator(all_lists_schema(SHIPPED))
    good = {"system": "deathzap", "name": "F", "figures": 10, "units": [{"unit": "Hover Tank"}]}
    assert not list(combined.iter_errors(good))
    assert list(combined.iter_errors({**good, "system": "might-skirmish"}))  # Hover Tank, figures: not here
    assert list(combined.iter_errors({**good, "system": "warhammer"}))


# --- the schema agrees with the list reader ----------------------------------------------------


def _vocabulary(system_id: str) -> list[object]:
    system = SHIPPED.get(system_id)
    words: list[object] = [u.name for u in system.units.values()]
    for stat in system.definition.stats.values():
        words += [c.name for c in stat.choices]
        words += [[c.name for c in stat.choices[:2]], [c.name for c in stat.choices[:1]] * 2]
    # Floats are left out: JSON Schema counts 3.0 as an integer, listbuilder (rightly) does not.
    return [*words, system_id, "deathzap", "", " ", "Name", 0, 1, 2, -1, True, False, None, [], {}]


def _good_value(system, key, draw):
    stat = system.definition.stats[key]
    names = [c.name for c in stat.choices]
    if stat.kind == "number":
        return draw(st.integers(-3, 30))
    if stat.kind == "choice":
        return draw(st.sampled_from(names))
    return draw(st.lists(st.sampled_from(names), unique=True))


@st.composite
def list_documents(draw):
    """Mostly well-formed lists of a shipped rule set, each with a chance of one wrong key or value."""
    system_id = draw(st.sampled_from(SHIPPED.ids()))
    system = SHIPPED.get(system_id)
    stats = system.definition.stats
    values = st.sampled_from(_vocabulary(system_id))
    keys = st.sampled_from(["unit", "name", "count", "leader", "notes", "source", "mihgt", *stats])
    units = []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            entry = {"unit": draw(st.sampled_from(sorted(u.name for u in system.units.values())))}
        else:
            entry = {"name": "Mine", **{k: _good_value(system, k, draw) for k, s in stats.items() if s.required}}
        entry.update(draw(st.dictionaries(st.sampled_from(["count", "leader"]), st.integers(1, 3) | st.booleans())))
        if draw(st.integers(0, 3)) == 0:  # one thing wrong, or right by chance
            key = draw(keys)
            if draw(st.booleans()):
                entry.pop(key, None)
            else:
                entry[key] = draw(values)
        units.append(entry)
    doc = {"system": system_id, "name": "A list", system.size_unit: 50, "revision": 1, "units": units}
    for key in draw(st.lists(st.sampled_from([system.size_unit, "revision", "name"]), max_size=2)):
        doc.pop(key, None)
    if draw(st.integers(0, 4)) == 0:
        doc[draw(st.sampled_from(["name", "points", "figures", "revision", "units", "mihgt"]))] = draw(values)
    return system_id, doc


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(list_documents())
def test_the_schema_accepts_exactly_what_the_reader_accepts(case):
    system_id, doc = case
    schema_ok = validator(system_id).is_valid(doc)
    try:
        parse_list(Document(path=Path("l.yaml"), data=doc, positions={}, text=""), SHIPPED)
        reader_ok = True
    except InputError:
        reader_ok = False
    assert schema_ok == reader_ok, doc


# --- listbuilder validate stays light ---------------------------------------------------------

"""Sharing lists: text, markdown and JSON exports read back exactly; embedded lists need no catalogs."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import jsonschema
import pytest
from conftest import CATALOGS, EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.api.lists import check_list
from listbuilder.army.listfile import parse_list
from listbuilder.army.report import Report
from listbuilder.editing.writer import dump_list
from listbuilder.errors import InputError
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.rules.catalog import Catalogs
from listbuilder.share.editorschema import list_schema
from listbuilder.share.exchange import embed, export_json, export_markdown, export_text, import_text

SHIPPED = Catalogs()
ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
ILLEGAL = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))
EXPORTS = [export_text, export_markdown, export_json]
SOURCE = Path("pasted.txt")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reread(yaml_text: str, tmp_path: Path, catalogs: Catalogs = SHIPPED, name: str = "back.yaml") -> Report:
    path = tmp_path / name
    path.write_text(yaml_text, encoding="utf-8")
    return check_list(path, catalogs)


def summary(report: Report) -> tuple:
    """Everything a list means: its verdicts, total, limit and each entry's profile."""
    entries = [(e.unit.name, e.count, e.leader, e.custom, e.unit.stats) for e in report.army.entries]
    return report.legal(), report.legal(strict=True), report.total, report.limit, report.army.name, entries


def import_error(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        import_text(textwrap.dedent(text), SOURCE, SHIPPED)
    return caught.value


# --- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize("export", EXPORTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_example_reads_back_exactly(path, export, tmp_path):
    original = check_list(path, SHIPPED)
    back = reread(import_text(export(original), SOURCE, SHIPPED), tmp_path)
    assert summary(back) == summary(original)
    assert [p.message for p in back.problems] == [p.message for p in original.problems]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_a_pasted_rendering_of_the_markdown_reads_back(path, tmp_path):
    # What a reader copies from a rendered forum post: no markup, bullets shown as '•'.
    original = check_list(path, SHIPPED)
    rendered = export_text(original).replace("\n1x", "\n• 1x").replace("\nerror:", "\n• error:")
    assert summary(reread(import_text(rendered, SOURCE, SHIPPED), tmp_path)) == summary(original)


def test_the_text_export_of_a_list_with_custom_units():
    report = check_list(EXAMPLES / "might-skirmish-monster-mash.illegal.yaml", SHIPPED)
    text = export_text(report)
    head, _, problems = text.partition("\n\nerror: ")
    assert head == textwrap.dedent(
        """\
        Monster Mash
        Might Skirmish (might-skirmish, catalog revision 1): 114 of 100 points, 9 fighters, NOT LEGAL

        2x Grandpa Bones - 40 points
        1x Old Mother [Monster, Might 20] - 20 points
        3x Grave Digger - 24 points
        3x Hunter - 30 points"""
    )
    # One line per broken rule, its entries numbered from 1 as 'points' numbers them; no file
    # line, which means nothing away from the file.
    assert ("error: " + problems).splitlines() == [
        "error: 14 points over the 100-point limit (114 of 100)",
        "error: 2 basic fighters short: 3 of 9, at least 5 needed",
        "error: #1 Grandpa Bones, #2 Old Mother: 1 rare fighter too many: 3 rare fighters (Grandpa Bones ×2, "
        "Old Mother), at most 2",
    ]
    assert text.endswith("\n") and not text.endswith("\n\n")


def test_the_text_export_marks_leaders_and_writes_every_kind_of_stat():
    report = check_list(EXAMPLES / "speed-range-power-home-brew.illegal.yaml", SHIPPED)
    lines = export_text(report).splitlines()
    assert lines[3] == '1x Scout (leader) [Speed 7", Range 12", Power 1] - 19 points'
    assert lines[4] == '1x Bruiser (leader) [Speed 6", Range 0", Power 0, Traits attacker + defender] - 6 points'
    deathmelt = check_list(EXAMPLES / "deathmelt-colonial-marines.legal.yaml", SHIPPED)
    text = export_text(deathmelt)
    assert "Deathmelt (deathmelt, catalog revision 1): 18 of 20 figures (16 figures on the table), legal" in text
    # Armour 1 is what a deathmelt figure has when none is written (source 000, line 57), so the
    # statline leaves it out as it leaves out every stat at its default
    assert "1x Colony Doctor [Infantry, Basic] - 1 figure" in text


def test_the_markdown_export_renders_as_a_heading_and_a_list():
    report = check_list(EXAMPLES / "might-skirmish-monster-mash.illegal.yaml", SHIPPED)
    lines = export_markdown(report).splitlines()
    assert lines[0] == "## Monster Mash"
    assert (
        lines[2]
        == "**Might Skirmish** (might-skirmish, catalog revision 1): **114 of 100 points, 9 fighters**, **NOT LEGAL**"
    )
    assert lines[5] == r"- 1x Old Mother \[Monster, Might 20\] - 20 points"
    assert lines[-1].startswith(r"* **error:** \#1 Grandpa Bones, \#2 Old Mother: 1 rare fighter")


def test_the_json_export_has_the_documented_structure():
    report = check_list(EXAMPLES / "might-skirmish-monster-mash.illegal.yaml", SHIPPED)
    data = json.loads(export_json(report))
    assert list(data) == [
        "format",
        "format_version",
        "system",
        "system_name",
        "revision",
        "name",
        "limit",
        "unit",
        "total",
        "models",
        "legal",
        "entries",
        "problems",
    ]
    assert (data["format"], data["format_version"], data["total"], data["limit"], data["legal"]) == (
        "listbuilder-list",
        1,
        114,
        100,
        False,
    )
    assert data["entries"][1] == {
        "unit": "Old Mother",
        "count": 1,
        "leader": False,
        "leaders": 0,
        "custom": True,
        "each": 20,
        "cost": 20,
        "stats": {"class": "Monster", "might": 20},
        "notes": "",
    }
    assert data["entries"][0] == {
        "unit": "Grandpa Bones",
        "count": 2,
        "leader": False,
        "leaders": 0,
        "custom": False,
        "each": 20,
        "cost": 40,
    }
    assert data["problems"][0]["rule_id"] == "points-limit"


def test_a_list_without_a_limit_stays_without_one(write_list, tmp_path):
    text = (EXAMPLES / "deathmelt-chitter-hive.legal.yaml").read_text(encoding="utf-8")
    report = check_list(write_list(text.replace("figures: 24\n", "")), SHIPPED)
    # deathmelt has no standard size: without one the export says so rather than "legal"
    assert "22 figures, no limit (20 figures on the table), no size agreed" in export_text(report)
    back = import_text(export_text(report), SOURCE, SHIPPED)
    assert "figures:" not in back and reread(back, tmp_path).limit is None


def test_a_leader_profile_taken_as_a_plain_model_reads_back(write_list, tmp_path):
    path = write_list("system: speed-range-power\nname: L\nunits:\n  - unit: WW2 Officer\n    leader: false\n")
    text = export_text(check_list(path, SHIPPED))
    assert "1x WW2 Officer - 22 points" in text
    back = import_text(text, SOURCE, SHIPPED)
    assert "leader: false" in back
    assert reread(back, tmp_path).army.entries[0].leader is False


def test_the_export_records_the_catalog_revision(write_list):
    path = write_list("system: might-skirmish\nname: L\nrevision: 7\nunits:\n  - unit: Hunter\n")
    text = export_text(check_list(path, SHIPPED))
    assert "(might-skirmish, catalog revision 7)" in text
    assert "revision: 7" in import_text(text, SOURCE, SHIPPED)


def test_names_and_stats_are_read_in_any_case_and_written_as_the_catalog_spells_them():
    back = import_text(
        "Case\nDeathzap (deathzap): 10 of 30 figures, legal\n2x ranger squad\n1x Mine [figures 4, type infantry, "
        "weapons: rifle + medium repeater]\n",
        SOURCE,
        SHIPPED,
    )
    assert "unit: Ranger Squad" in back
    assert "type: Infantry" in back and "weapons: [Rifle, Medium Repeater]" in back


HOSTILE_NAMES = st.text(min_size=1, max_size=30).filter(lambda s: s.strip()) | st.sampled_from(
    [
        "Bob [the Bold]",
        '"Quoted" army',
        "# not a heading",
        "Ends in (leader)",
        "2x Hunter - 20 points",
        "back\\slash *stars* _under_ `code` <b>&amp;",
        "new\nline",
        "tab\there",
        "line\u2028separator",
        "nel\x85name",
        "1e3",
        "0o17",
        "- bullet",
        "{",
        "Hunter",
        "yes",
        "123",
        "null",
        "Might Skirmish (might-skirmish): 1 of 100 points",
    ]
)


@SETTINGS
@given(list_name=HOSTILE_NAMES, unit_name=HOSTILE_NAMES, export=st.sampled_from(EXPORTS))
def test_any_names_read_back_exactly(tmp_path_factory, list_name, unit_name, export):
    folder = tmp_path_factory.mktemp("names")
    data = {
        "system": "might-skirmish",
        "name": list_name,
        "units": [{"name": unit_name, "class": "Soldier", "might": 5}, {"unit": "Hunter", "count": 2}],
    }
    original = reread(dump_list(data), folder, name="original.yaml")
    back = reread(import_text(export(original), SOURCE, SHIPPED), folder)
    assert summary(back) == summary(original)


# --- what is not an exported list ----------------------------------------------------------------


def test_an_unknown_unit_is_named_with_its_line_and_a_hint():
    error = import_error(
        """\
        Zombies
        Might Skirmish (might-skirmish): 30 of 100 points, 3 fighters, legal

        2x Huntre - 20 points
        1x Shambler - 5 points
        """
    )
    (detail,) = error.details
    assert detail.line == 4 and "no unit 'Huntre'" in detail.message and detail.hint == "did you mean 'Hunter'?"
    assert error.file == SOURCE


def test_every_bad_line_is_reported_together():
    error = import_error(
        """\
        Zombies
        Might Skirmish (might-skirmish): 30 of 100 points, 3 fighters, legal
        2x Hunter - 20 points
        Hunter twice
        0x Hunter
        1x Mine [Wizard, Might 3]
        1x Mine [Soldier]
        1x Mine [Soldier, Might 3] extra
        """
    )
    assert [d.line for d in error.details] == [4, 5, 6, 7, 8]
    messages = [d.message for d in error.details]
    assert "expected an entry such as" in messages[0]
    assert "count must be at least 1" in messages[1]
    assert "cannot read the stats from 'Wizard" in messages[2]
    assert "the stat 'might' (Might) is missing" in messages[3]
    assert "unexpected text after the name" in messages[4]


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("", None, "expected the list's name"),
        ("Just a name\n", 1, "expected the list's name"),
        ("Hello\nhow are you?\n", 2, "expected the rule set and total"),
        ("L\nMight (might-skirmsh): 1 of 2 points\n", 2, "unknown rule set 'might-skirmsh'"),
        ("L\nMight (might-skirmish): 1 of 0 points\n", 2, "the limit must be at least 1"),
        ('"unclosed\nMight (might-skirmish): 1 point\n', 1, "a quoted name is not closed"),
        ('"\\ud800"\nMight (might-skirmish): 1 point\n', 1, "cannot be written"),
        ("L\nMight (might-skirmish): 1 point\n1x X [Soldier, Might " + "9" * 5000 + "]\n", 3, "cannot read the stats"),
        ("L\nMight (might-skirmish): 1 point\n" + "9" * 5000 + "x Hunter\n", 3, "far too large"),
    ],
)
def test_text_that_is_not_an_export_is_refused_at_its_line(text, line, expected):
    error = import_error(text)
    assert error.details[0].line == line
    assert expected in error.details[0].message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "this is not valid JSON"),
        ('{"format": "other"}', 'expected an object with "format"'),
        ('{"format": "listbuilder-list", "format_version": 2}', "format_version 1"),
        ('{"format": "listbuilder-list", "format_version": 1, "system": "chess"}', "unknown rule set 'chess'"),
        (
            '{"format": "listbuilder-list", "format_version": 1, "system": "deathzap", "name": "N", "entries": '
            '[{"unit": "Hovr Tank", "count": 1, "leader": false, "custom": false}]}',
            "no unit 'Hovr Tank'",
        ),
        (
            '{"format": "listbuilder-list", "format_version": 1, "system": "might-skirmish", "name": "N", "entries": '
            '[{"unit": "X", "count": 1, "leader": false, "custom": true, "stats": {"class": "Soldier", "mihgt": 3}}]}',
            "unknown key 'mihgt'",
        ),
        ('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}", "cannot be read"),
    ],
)
def test_json_that_is_not_an_export_is_refused(text, expected):
    assert expected in import_error(text).render()


# --- never a crash --------------------------------------------------------------------------------

FRAGMENTS = [
    "Zombie Family",
    "## Zombie Family",
    "Might Skirmish (might-skirmish, catalog revision 1): 100 of 100 points, 14 fighters, legal",
    "**Deathzap** (deathzap): **10 of 30 figures**, legal",
    "Speed, Range, Power (speed-range-power, catalog revision 0): 0 of 0 points",
    "2x Hunter - 20 points",
    "- 1x Old Mother \\[Monster, Might 20\\] - 20 points",
    "1x Old Mother [Monster, Might 20] (leader) - 20 points",
    '1x Scout (leader) [Speed 7", Range 12", Power 1, Traits attacker + + defender]',
    "1x Mine [figures 4, type Infantry, weapons none]",
    '1x "quoted \\u0000 name" (leader) [Soldier, Might 5]',
    "3x Ranger Squad",
    "* **error:** whatever",
    "warning: something",
    "1x [",
    "x Hunter",
    "",
    "\u2028",
    "\\",
    "{",
]
texts = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=30), max_size=8).map("\n".join),
)


@SETTINGS
@given(texts)
def test_no_text_crashes_the_import(text):
    try:
        result = import_text(text, SOURCE, SHIPPED)
    except InputError:
        return
    # What the import writes is always a list listbuilder can read.
    parse_list(parse_yaml(result, Path("imported.yaml")), SHIPPED)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10) | st.sampled_from(["Hunter", "Soldier"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
json_entries = st.fixed_dictionaries(
    {},
    optional={
        "unit": st.sampled_from(["Hunter", "Old Mother", ""]) | json_values,
        "count": st.integers(-1, 3) | json_values,
        "leader": st.booleans() | json_values,
        "custom": st.booleans() | json_values,
        "stats": st.fixed_dictionaries({}, optional={"class": json_values, "might": json_values}) | json_values,
        "notes": json_values,
    },
)


@SETTINGS
@given(
    st.fixed_dictionaries(
        {"format": st.just("listbuilder-list"), "format_version": st.just(1)},
        optional={
            "system": st.sampled_from(["might-skirmish", "nope"]) | json_values,
            "name": st.text(max_size=10) | json_values,
            "limit": st.integers(-1, 200) | json_values,
            "revision": st.integers(-1, 3) | json_values,
            "entries": st.lists(json_entries, max_size=3) | json_values,
        },
    )
)
def test_no_json_crashes_the_import(data):
    try:
        result = import_text(json.dumps(data), SOURCE, SHIPPED)
    except InputError:
        return
    parse_list(parse_yaml(result, Path("imported.yaml")), SHIPPED)


@SETTINGS
@given(st.sampled_from(EXAMPLE_FILES), st.sampled_from([export_text, export_markdown]), st.data())
def test_no_edit_of_an_export_crashes_the_import(path, export, data):
    lines = export(check_list(path, SHIPPED)).splitlines(keepends=True)
    i = data.draw(st.integers(0, len(lines) - 1))
    replacement = data.draw(st.text(max_size=30) | st.sampled_from(FRAGMENTS))
    text = "".join([*lines[:i], replacement, *lines[i + 1 :]])
    try:
        result = import_text(text, SOURCE, SHIPPED)
    except InputError:
        return
    parse_list(parse_yaml(result, Path("imported.yaml")), SHIPPED)


# --- embedded lists ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rule_sets_only(tmp_path_factory) -> Catalogs:
    """The shipped rule sets without a single catalog unit."""
    root = tmp_path_factory.mktemp("rule-sets-only")
    for system_id in SHIPPED.ids():
        (root / system_id).mkdir()
        shutil.copy(CATALOGS / system_id / "system.yaml", root / system_id / "system.yaml")
    bare = Catalogs(shipped=root)
    assert all(not s.units for s in bare.all())
    return bare


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_an_embedded_list_needs_no_unit_catalogs(path, rule_sets_only, tmp_path):
    original = check_list(path, SHIPPED)
    text = embed(original)
    alone = reread(text, tmp_path, rule_sets_only)
    assert all(e.custom for e in alone.army.entries)
    assert (alone.legal(), alone.legal(strict=True), alone.total) == (
        original.legal(),
        original.legal(strict=True),
        original.total,
    )
    assert [(e.unit.name, e.count, e.leader, e.unit.stats) for e in alone.army.entries] == [
        (e.unit.name, e.count, e.leader, e.unit.stats) for e in original.army.entries
    ]
    assert summary(reread(text, tmp_path, SHIPPED, "again.yaml"))[:3] == summary(original)[:3]


def test_an_embedded_unit_keeps_its_leader_flag_and_notes():
    report = check_list(EXAMPLES / "speed-range-power-ww2-platoon.legal.yaml", SHIPPED)
    text = embed(report)
    assert text.startswith("# Every unit is written out in full")
    assert "  - name: WW2 Officer\n    leader: true\n    speed: 6\n    range: 6\n    power: 3\n    traits: []\n" in text
    assert "    notes: Armed with a pistol.\n" in text


# --- a sixth rule set, written to make the statline hard to read ---------------------------------

AWKWARD_SYSTEM = """\
id: awkward
name: Awkward (a test rule set)
summary: Choice names with commas and plus signs, shared values, labels inside values.
source: tests/test_exchange.py
revision: 3
model: {singular: model, plural: models}
force: band
measure: {singular: point, plural: points}
leader: {singular: leader, plural: leaders}
stats:
  kind:
    label: Kind
    kind: choice
    choices: [{name: "Big, Bad"}, {name: Small}, {name: Size Large}]
  size:
    label: Size
    kind: choice
    choices: [{name: Small}, {name: Large}]
  gear:
    label: Gear
    kind: choices
    choices: [{name: Sword + Board}, {name: Sword}, {name: none}]
  gear_weight:
    label: Gear Weight
    kind: number
    suffix: kg
  luck:
    label: Luck
    kind: number
    required: false
    default: 2
cost:
  kind: linear
  terms: [{stat: gear_weight, points: 1}]
"""


@pytest.fixture(scope="module")
def awkward(tmp_path_factory) -> Catalogs:
    root = tmp_path_factory.mktemp("awkward")
    (root / "awkward" / "factions").mkdir(parents=True)
    (root / "awkward" / "system.yaml").write_text(AWKWARD_SYSTEM)
    (root / "awkward" / "factions" / "band.yaml").write_text(
        "faction: Band\nunits:\n  - {name: Ogre, kind: 'Big, Bad', size: Large, gear: [Sword], gear_weight: 9}\n"
    )
    return Catalogs(shipped=root)


@SETTINGS
@given(st.data())
def test_any_statline_of_any_rule_set_reads_back(tmp_path_factory, awkward, data):
    books = data.draw(st.sampled_from([SHIPPED, awkward]))
    system = books.get(data.draw(st.sampled_from(books.ids())))
    unit: dict = {"name": "Mine", "count": data.draw(st.integers(1, 12))}
    if data.draw(st.booleans()):
        unit["leader"] = True
    for key, stat in system.definition.stats.items():
        if not stat.required and data.draw(st.booleans()):
            continue
        names = [c.name for c in stat.choices]
        if stat.kind == "number":
            unit[key] = data.draw(st.integers(-50, 10**6))
        elif stat.kind == "choice":
            unit[key] = data.draw(st.sampled_from(names).map(lambda n: data.draw(st.sampled_from([n, n.lower()]))))
        else:
            unit[key] = data.draw(st.lists(st.sampled_from(names), unique=True))
    figures = unit.get(system.definition.figures_stat or "")
    for key, stat in system.definition.stats.items():
        # a loadout (deathzap's weapons): some figures carry each item, adding up to the unit's figures
        items = unit.get(key) or []
        if stat.item and isinstance(figures, int) and figures >= len(items) >= 1 and data.draw(st.booleans()):
            cuts = sorted(
                data.draw(
                    st.sets(st.integers(1, max(1, figures - 1)), min_size=len(items) - 1, max_size=len(items) - 1)
                )  # one figure, one item: no cut
            )
            counts = [b - a for a, b in zip([0, *cuts], [*cuts, figures], strict=True)]
            unit[key] = [{stat.item: n, system.definition.figures_stat: c} for n, c in zip(items, counts, strict=True)]
    catalog_unit = {"unit": data.draw(st.sampled_from(sorted(u.name for u in system.units.values())))}
    listed = {"system": system.id, "name": "Statlines", "units": [unit, catalog_unit]}
    folder = tmp_path_factory.mktemp("statlines")
    original = reread(dump_list(listed), folder, books, "original.yaml")
    export = data.draw(st.sampled_from(EXPORTS))
    back = reread(import_text(export(original), SOURCE, books), folder, books)
    assert summary(back) == summary(original)


def test_the_awkward_statline_is_written_so_it_reads_back(awkward, write_list):
    path = write_list(
        "system: awkward\nname: A\nunits:\n"
        "  - {name: X, kind: Small, size: Small, gear: [], gear_weight: 3}\n"
        "  - {name: Y, kind: 'Size Large', size: Large, gear: [Sword + Board, Sword], gear_weight: -1, luck: 5}\n"
    )
    lines = export_text(check_list(path, awkward)).splitlines()
    assert lines[3] == "1x X [Kind Small, Size Small, Gear [], Gear Weight 3kg] - 3 points"
    assert lines[4] == "1x Y [Kind Size Large, Large, Gear Sword + Board + Sword, Gear Weight -1kg, Luck 5] - -1 points"


def test_windows_line_endings_and_a_byte_order_mark_read_the_same(tmp_path):
    original = check_list(EXAMPLES / "deathzap-frontier-rangers.legal.yaml", SHIPPED)
    for export in (export_text, export_markdown):
        pasted = "\ufeff" + export(original).replace("\n", "\r\n")
        assert summary(reread(import_text(pasted, SOURCE, SHIPPED), tmp_path)) == summary(original)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_what_listbuilder_writes_passes_the_editor_schema(path):
    report = check_list(path, SHIPPED)
    validator = jsonschema.Draft7Validator(list_schema(report.system))
    for text in (embed(report), import_text(export_text(report), SOURCE, SHIPPED)):
        validator.validate(parse_yaml(text, Path("written.yaml")).data)


# --- import notes costs that differ -----------------------------------------------------------------


def test_import_says_where_the_texts_points_differ_from_the_catalogs(cli, tmp_path):
    text = cli("export", ILLEGAL).stdout
    assert "3x Hunter - 30 points" in text
    post = tmp_path / "post.txt"
    post.write_text(text.replace("3x Hunter - 30 points", "3x Hunter - 36 points"), encoding="utf-8")
    result = cli("import", post)
    assert result.exit_code == 0
    line = text.splitlines().index("3x Hunter - 30 points") + 1
    note = f"note: {post}: line {line}: the text gives 3x Hunter as 36 points; the might-skirmish catalogs here make it"
    assert f"{note} 30\n" in result.stderr
    assert "  - unit: Hunter\n    count: 3\n" in result.stdout  # the list itself is read as ever


def test_import_of_an_unchanged_export_says_nothing_more(cli, tmp_path):
    for fmt in ("text", "markdown", "json"):
        post = tmp_path / f"post.{fmt}"
        post.write_text(cli("export", ILLEGAL, "--format", fmt).stdout, encoding="utf-8")
        result = cli("import", post)
        assert result.exit_code == 0 and result.stderr == "", (fmt, result.stderr)


def test_import_of_json_whose_total_differs_says_so(cli, tmp_path):
    text = cli("export", ILLEGAL, "--format", "json").stdout.replace('"total": 114', '"total": 100')
    post = tmp_path / "post.json"
    post.write_text(text, encoding="utf-8")
    result = cli("import", post)
    assert result.exit_code == 0
    assert "the text gives a total of 100 points; here it is 114" in result.stderr


# --- export --format yaml, and the API's import notes -----------------------------------------------


def test_export_format_yaml_writes_a_clean_list_that_validates_alike(cli, tmp_path):
    result = cli("export", ZOMBIES, "--format", "yaml")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("system: might-skirmish\nname: Zombie Family\n")
    assert "  - unit: Hunter\n    count: 2\n" in result.stdout  # catalog units by name, not written out
    assert "#" not in result.stdout
    copy = tmp_path / "copy.yaml"
    copy.write_text(result.stdout, encoding="utf-8")
    assert (
        cli("validate", "--json", copy).json_lines()[0]["total"]
        == 98
        == cli("validate", "--json", ZOMBIES).json_lines()[0]["total"]
    )


def test_export_embed_still_writes_every_unit_out_and_goes_only_with_yaml(cli):
    embedded = cli("export", ZOMBIES, "--format", "yaml", "--embed")
    assert embedded.exit_code == 0 and "  - name: Hunter\n" in embedded.stdout
    wrong = cli("export", ZOMBIES, "--format", "text", "--embed")
    assert wrong.exit_code == 2 and "written out in full only in a yaml export, not in text" in wrong.stderr
    assert "('listbuilder export FILE --format yaml --embed')" in wrong.stderr  # the command line's own hint


def test_the_api_import_notes_each_cost_that_differs(cli):
    from listbuilder.api import rulesets, sharing

    books = rulesets.open_catalogs([])
    text = cli("export", ZOMBIES).stdout
    assert sharing.import_noted(text, books).notes == ()
    changed = text.replace("2x Hunter - 20 points", "2x Hunter - 22 points")
    (note,) = sharing.import_noted(changed, books).notes
    assert note.endswith("the text gives 2x Hunter as 22 points; the might-skirmish catalogs here make it 20")
    assert sharing.import_list(changed, books) == sharing.import_list(text, books)  # costs are judged, never read

"""Every shipped rule set and example loads; rule sets are data, so a new one needs no code."""

from __future__ import annotations

import json
import re
import textwrap
import typing
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES, ROOT

from listbuilder.api.lists import check_list
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import CONSTRAINT_KINDS

SYSTEM_IDS = sorted(p.name for p in CATALOGS.iterdir() if (p / "system.yaml").is_file())
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))


def test_the_five_rule_sets_ship():
    assert set(SYSTEM_IDS) >= {"deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power"}


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_every_shipped_rule_set_loads_with_units(catalogs, system_id):
    system = catalogs.get(system_id)
    assert system.factions, "at least one faction"
    assert all(units for units in system.factions.values())
    assert system.definition.rulings or system_id == "none"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_every_rule_and_ruling_cites_the_source(catalogs, system_id):
    d = catalogs.get(system_id).definition
    assert all(c.source for c in d.constraints), "each force rule names its source line"
    assert all(r.source for r in d.rulings)
    assert d.cost.source


def test_texts_own_examples_are_in_the_catalogs(catalogs):
    srp = catalogs.get("speed-range-power")
    officer = srp.find_unit("WW2 Officer")
    assert officer is not None and officer.leader and officer.stats["speed"] == 6  # line 47
    assert srp.find_unit("ww2 soldier").stats == {"speed": 6, "range": 24, "power": 2, "traits": ()}  # line 48
    assert srp.find_unit("T34 Tank").stats["power"] == 10  # line 49
    assert srp.find_unit("Medieval Knight").stats["range"] == 0  # line 50
    assert catalogs.get("might-skirmish").find_unit("Hunter").stats == {"class": "Soldier", "might": 10}  # line 6
    assert {"Ancient Sumerians", "WW1 British Camel Corps"} <= set(srp.factions)
    assert {"Zombie Family", "Windblade Elves"} <= set(catalogs.get("might-skirmish").factions)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.name for p in EXAMPLE_FILES])
def test_every_example_gives_the_verdict_its_name_says(catalogs, path):
    verdict = path.name.rsplit(".", 2)[-2]
    assert verdict in {"legal", "illegal"}, "examples are named NAME.legal.yaml or NAME.illegal.yaml"
    report = check_list(path, catalogs)
    assert report.legal() is (verdict == "legal"), [p.message for p in report.problems]


def test_every_rule_set_has_a_legal_and_an_illegal_example():
    for system_id in SYSTEM_IDS:
        names = [p.name for p in EXAMPLE_FILES if p.name.startswith(system_id + "-")]
        assert any(n.endswith(".legal.yaml") for n in names), system_id
        assert any(n.endswith(".illegal.yaml") for n in names), system_id


def test_every_constraint_kind_is_used_by_a_shipped_rule_set_or_the_sixth(catalogs, tmp_path):
    def kinds(system):
        return {c.kind for c in system.definition.constraints}

    used = set().union(*(kinds(catalogs.get(s)) for s in SYSTEM_IDS)) | kinds(sixth_system(tmp_path))
    assert used == {typing.get_args(typing.get_type_hints(k)["kind"])[0] for k in CONSTRAINT_KINDS}


SIXTH = """\
    id: pocket-legions
    name: Pocket Legions
    summary: A made-up rule set, written by a test, to prove rule sets need no code.
    source: the test suite
    revision: 1
    model: {singular: trooper, plural: troopers}
    force: legion
    measure: {singular: stand, plural: stands}
    leader: {singular: centurion, plural: centurions}
    figures_stat: size
    default_limit: 30
    stats:
      size: {label: Size, kind: number}
      arm: {label: Arm, kind: choice, choices: [{name: Foot}, {name: Horse}, {name: Engine}]}
    cost:
      kind: figures
      weight_stat: arm
      weights: {Engine: 5}
    groups:
      horse: {label: mounted, stat: arm, any_of: [Horse]}
      engines: {label: engine, stat: arm, any_of: [Engine]}
      foot: {label: foot, stat: arm, any_of: [Foot]}
    constraints:
      - {kind: limit, id: size-limit, rule: A legion is at most its agreed size., source: test}
      - {kind: at_least, id: some-foot, rule: A legion has at least 4 foot troopers., of: foot, count: 4, source: test}
      - {kind: exactly, id: one-engine, rule: A legion has exactly one engine., of: engines, count: 1, source: test}
      - kind: at_most_per
        id: horse-per-foot
        rule: One mounted trooper for every 3 troopers, rounded up.
        of: horse
        per: 3
        rounding: up
        source: test
      - kind: unit_size
        id: unit-size
        rule: Units are 1 to 6 troopers.
        minimum: 1
        maximum: 6
        severity: warning
        source: test
"""


def write_sixth(root: Path) -> Path:
    folder = root / "pocket-legions"
    (folder / "factions").mkdir(parents=True)
    (folder / "system.yaml").write_text(textwrap.dedent(SIXTH))
    (folder / "factions" / "red.yaml").write_text(
        textwrap.dedent("""\
        faction: Red Legion
        units:
          - {name: Spearmen, arm: Foot, size: 4}
          - {name: Riders, arm: Horse, size: 2}
          - {name: Ballista, arm: Engine, size: 1}
    """)
    )
    return root


def sixth_system(root: Path):
    return Catalogs([write_sixth(root)]).get("pocket-legions")


def test_a_sixth_rule_set_works_with_no_code_change(tmp_path, cli, write_list):
    root = write_sixth(tmp_path / "house")
    legal = write_list(
        "system: pocket-legions\nname: Reds\nunits:\n  - unit: Spearmen\n    count: 2\n"
        "  - unit: Riders\n    count: 2\n  - unit: Ballista\n"
    )
    # 8 foot + 4 horse + 1 engine = 13 troopers; engines weigh 5: 8 + 4 + 5 = 17 of 30
    ok = cli("validate", "--catalogs", root, legal)
    assert ok.exit_code == 0, ok.stdout + ok.stderr
    assert "legal: Reds (pocket-legions), 17 of 30 stands (13 troopers on the table)" in ok.stdout
    broken = write_list(
        "system: pocket-legions\nname: Blues\nstands: 10\nunits:\n  - unit: Riders\n    count: 3\n"
        "  - unit: Ballista\n    count: 2\n  - name: Mob\n    arm: Foot\n    size: 7\n"
    )
    bad = cli("validate", "--json", broken, env={"LISTBUILDER_CATALOGS": str(root)})
    assert bad.exit_code == 1
    (data,) = bad.json_lines()
    assert data["unit"] == "stands" and data["total"] == 6 + 10 + 7 and data["limit"] == 10
    assert [p["rule_id"] for p in data["problems"]] == ["size-limit", "one-engine", "horse-per-foot", "unit-size"]
    assert data["problems"][1]["message"] == "1 engine trooper too many: 2 (Ballista ×2), exactly 1 allowed"
    assert data["problems"][2]["message"] == (
        "1 mounted trooper too many: 6 among 15 troopers, at most 5 (1 per 3 troopers, rounded up)"
    )
    assert data["problems"][3]["severity"] == "warning"


def test_at_least_rule_of_the_sixth_rule_set(tmp_path, cli, write_list):
    root = write_sixth(tmp_path / "house")
    few = write_list(
        "system: pocket-legions\nname: Few\nunits:\n  - unit: Ballista\n  - name: Guard\n    arm: Foot\n    size: 3\n"
    )
    result = cli("validate", "--json", "--catalogs", root, few)
    (data,) = result.json_lines()
    assert [p["message"] for p in data["problems"]] == ["1 foot trooper short: 3, at least 4 needed"]


def test_a_user_faction_extends_a_shipped_rule_set(tmp_path, cli, write_list):
    factions = tmp_path / "club" / "might-skirmish" / "factions"
    factions.mkdir(parents=True)
    (factions / "club.yaml").write_text(
        "faction: Club Specials\nunits:\n  - {name: Tin Golem, class: Mech, might: 15}\n"
    )
    path = write_list("system: might-skirmish\nname: Club\nunits:\n  - unit: tin golem\n  - unit: Hunter\n")
    result = cli("validate", "--catalogs", tmp_path / "club", path)
    assert result.exit_code == 0 and "25 of 100 points" in result.stdout


@pytest.mark.parametrize(
    ("system_yaml", "expected"),
    [
        ("id: pocket-legions\nname: x\n", "the key 'summary' is missing"),
        (SIXTH.replace("kind: figures", "kind: figurs"), "unknown kind 'figurs'"),
        (SIXTH.replace("weight_stat: arm", "weight_stat: armm"), "no stat 'armm' (did you mean 'arm'?)"),
        (SIXTH.replace("of: foot,", "of: feet,"), "no group 'feet'"),
        (SIXTH.replace("per: 3", "per: three"), "expected a whole number, found 'three'"),
        (
            SIXTH.replace("  size: {label: Size, kind: number}", "  size: {label: Size, kind: number, colour: red}"),
            "unknown key 'colour'",
        ),
        ("- just\n- a list\n", "must be a mapping"),
        # a default of another kind than its stat's: refused where it is written, not met later as a crash
        (
            SIXTH.replace("  size: {label: Size, kind: number}", "  size: {label: Size, kind: number, default: [one]}"),
            "line 13, column 46: stats.size.default: the default of a 'number' stat must be a whole number, found a "
            "list",
        ),
        (
            SIXTH.replace("kind: choice, choices:", "kind: choice, default: 3, choices:"),
            "stats.arm.default: the default of a 'choice' stat must be one of its choices, by name, found the number 3",
        ),
        (
            SIXTH.replace(
                "  size: {label: Size, kind: number}",
                "  size: {label: Size, kind: number}\n"
                "      marks: {label: Marks, kind: choices, choices: [{name: Eagle}], required: false, default: 5}",
            ),
            "stats.marks.default: the default of a 'choices' stat must be a list of its choices, such as [], found "
            "the number 5",
        ),
    ],
)
def test_a_malformed_user_rule_set_gets_located_errors(tmp_path, cli, write_list, system_yaml, expected):
    root = write_sixth(tmp_path / "house")
    (root / "pocket-legions" / "system.yaml").write_text(textwrap.dedent(system_yaml))
    path = write_list("system: pocket-legions\nname: x\nunits: []\n")
    result = cli("validate", "--catalogs", root, path)
    assert result.exit_code == 2
    assert "system.yaml" in result.stderr
    assert expected in result.stderr, result.stderr


def test_a_malformed_user_faction_gets_located_errors(tmp_path, cli, write_list):
    factions = tmp_path / "club" / "might-skirmish" / "factions"
    factions.mkdir(parents=True)
    (factions / "club.yaml").write_text(
        "faction: Club\nunits:\n  - name: Golem\n    class: Mecha\n    might: 15\n"
        "  - name: Hunter\n    class: Soldier\n    might: 3\n"
    )
    result = cli("validate", "--catalogs", tmp_path / "club", EXAMPLES / "might-skirmish-zombie-family.legal.yaml")
    assert result.exit_code == 2
    assert "club.yaml" in result.stderr
    assert "line 4, column 12: units[0].class: unknown class 'Mecha'" in result.stderr
    assert "did you mean 'Mech'?" in result.stderr
    assert "the unit name 'Hunter' is already used in the faction Zombie Family" in result.stderr


def test_a_user_cannot_silently_redefine_a_shipped_rule_set(tmp_path, cli):
    folder = tmp_path / "house" / "might-skirmish"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text((CATALOGS / "might-skirmish" / "system.yaml").read_text())
    result = cli("validate", "--catalogs", tmp_path / "house", EXAMPLES / "might-skirmish-zombie-family.legal.yaml")
    assert result.exit_code == 2 and "defined twice" in result.stderr


def test_missing_catalog_folder(cli, tmp_path):
    result = cli("systems", "--catalogs", tmp_path / "missing")
    assert result.exit_code == 2 and "no such catalog folder" in result.stderr


def _kind(cls: type) -> str:
    return typing.get_args(typing.get_type_hints(cls)["kind"])[0]


def test_every_constraint_kind_is_in_the_authors_guide_table():
    guide = (ROOT / "docs" / "authors" / "guide.md").read_text(encoding="utf-8")
    table = guide.split("| constraint `kind` |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines()[2:] if line.startswith("|")]
    documented = {name.strip(" `") for row in rows for name in row.split("/")}
    assert documented == {_kind(k) for k in CONSTRAINT_KINDS}


def test_every_constraint_kind_carries_its_check_and_linear_form():
    from listbuilder.rules.forcerules import ForceRule, UnitRule

    for kind in CONSTRAINT_KINDS:
        checks = kind.unit_problems if issubclass(kind, UnitRule) else kind.check
        assert checks is not ForceRule.check and checks is not UnitRule.unit_problems, kind
        assert kind.encode is not ForceRule.encode, f"{_kind(kind)} has no linear form for the list doctor"


def test_the_readme_names_the_rule_sets_that_ship(cli):
    # The README's paragraph on what ships names each rule set and variant by id and counts them
    # in words: the ids are the ones 'systems' lists, and the counts are theirs.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (paragraph,) = [" ".join(p.split()) for p in readme.split("\n\n") if "ship with it" in p]
    said = re.match(
        r"(\w+) rule sets ship with it: (.*?), and (\w+) variants? of them, (.*?); .* lists all (\w+)\.", paragraph
    )
    assert said, paragraph
    systems = json.loads(cli("systems", "--json").stdout)
    bases = sorted(s["id"] for s in systems if not s["extends"])
    variants = sorted(s["id"] for s in systems if s["extends"])
    assert sorted(re.findall(r"`([a-z0-9-]+)`", said.group(2))) == bases
    assert sorted(re.findall(r"`([a-z0-9-]+)`", said.group(4))) == variants
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
    counts = [words[said.group(i).lower()] for i in (1, 3, 5)]
    assert counts == [len(bases), len(variants), len(systems)], paragraph

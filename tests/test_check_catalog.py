"""check-catalog: a catalog's own tests run like a test suite; every shipped folder carries and passes its own."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import CATALOGS

SHIPPED = sorted(p for p in CATALOGS.iterdir() if (p / "system.yaml").is_file())


@pytest.mark.parametrize("folder", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_rule_set_passes_its_own_tests(cli, folder):
    result = cli("check-catalog", folder)
    assert result.exit_code == 0, result.stdout
    tally = result.stdout.splitlines()[-1]
    assert tally.endswith(" passed") and int(tally.split()[0]) >= 7, tally
    assert (folder / "tests" / "legal").is_dir() and (folder / "tests" / "illegal").is_dir()
    assert (folder / "tests" / "costs.yaml").is_file()


def test_the_worked_examples_of_speed_range_power_are_catalog_tests(cli):
    data = json.loads(cli("check-catalog", CATALOGS / "speed-range-power", "--json").stdout)
    costs = [(r["name"], r["got"]) for r in data["results"] if r["kind"] == "cost" and r["passed"]]
    # Lines 47-50 of the text: 22, 30, 81 and 22 points, as catalog units and again as statlines.
    examples = [
        ("WW2 Officer [line 47]", "22 points"),
        ("WW2 Soldier [line 48]", "30 points"),
        ("T34 Tank [line 49]", "81 points"),
        ("Medieval Knight [line 50]", "22 points"),
    ]
    assert costs[:8] == examples + examples


@pytest.mark.parametrize(
    ("folder", "rule", "legal", "illegal"),
    [
        ("might-skirmish", "max-fighters", "sixteen-fighters-half-basic-two-rare", "seventeen-fighters"),
        ("might-skirmish", "points-limit", "one-hundred-points", "one-hundred-and-one-points"),
        ("might-skirmish", "half-basic", "seven-fighters-four-basic", "seven-fighters-three-basic"),
        ("might-skirmish", "max-rare", "sixteen-fighters-half-basic-two-rare", "three-rare"),
        ("might-skirmish", "might-minimum", "might-one", "might-zero"),
        ("might-skirmish-150", "max-fighters", "twenty-fighters", "twenty-one-fighters"),
        ("might-skirmish-150", "points-limit", "one-hundred-and-fifty-points", "one-hundred-and-fifty-one-points"),
        ("speed-range-power", "points-limit", "at-the-points-limit", "over-the-points-limit"),
        ("speed-range-power", "speed-steps", "steps-of-three", "speed-off-step"),
        ("speed-range-power", "speed-steps", "zero-speed-and-range", "speed-below-zero"),
        ("speed-range-power", "range-steps", "steps-of-three", "range-off-step"),
        ("speed-range-power", "power-minimum", "zero-speed-and-range", "power-zero"),
        ("speed-range-power", "leader-ratio", "one-leader-in-ten", "one-leader-in-nine"),
        ("speed-range-power", "leader-ratio", "two-leaders-in-twenty", "two-leaders-in-nineteen"),
        ("speed-range-power", "attacker-or-defender", "attacker", "attacker-and-defender"),
        ("deathmelt", "figures-limit", "at-the-figures-limit", "over-the-figures-limit"),
        ("deathmelt", "one-leader", "at-the-figures-limit", "no-leader"),
        ("deathmelt", "one-leader", "at-the-figures-limit", "two-leaders"),
        ("deathzap", "figures-limit", "at-the-figures-limit", "over-the-figures-limit"),
        ("deathzap", "figures-minimum", "one-figure", "no-figures"),
        ("melee-module", "figures-limit", "at-the-figures-limit", "over-the-figures-limit"),
        ("melee-module", "unit-size", "six-figures", "../legal/five-figures-warns"),
        ("melee-module", "unit-size", "fifteen-figures", "../legal/sixteen-figures-warns"),
    ],
)
def test_each_force_rule_boundary_is_tested_on_both_sides(folder, rule, legal, illegal):
    tests = CATALOGS / folder / "tests"
    ok = (tests / "legal" / f"{legal}.yaml").read_text()
    broken = (tests / "illegal" / f"{illegal}.yaml").read_text()
    assert "expect:" not in ok or rule not in ok.split("expect:")[1].split("\n")[0]
    assert rule in broken.split("expect:")[1].split("\n")[0]


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


CLUB = {
    "system.yaml": "extends: might-skirmish\nid: club-skirmish\nname: Club Skirmish\n",
    "tests/legal/hunters.yaml": "system: club-skirmish\nname: Hunters\nunits:\n  - {unit: Hunter, count: 10}\n",
    "tests/legal/too-many.yaml": (
        "system: club-skirmish\nname: Too many Hunters\nunits:\n  - {unit: Hunter, count: 11}\n"
    ),
    "tests/illegal/crowd.yaml": (
        "system: club-skirmish\nname: Crowd\nexpect: [max-fighters]\nunits:\n  - {unit: Crow Swarm, count: 17}\n"
    ),
    "tests/illegal/wrong-rule.yaml": (
        "system: club-skirmish\nname: Crowd\nexpect: max-rare\nunits:\n  - {unit: Crow Swarm, count: 17}\n"
    ),
    "tests/costs.yaml": (
        "- {unit: Hunter, cost: 10}\n- {name: Brute, class: Monster, might: 12, cost: 11, source: line 48}\n"
    ),
}


def test_passing_and_failing_tests_read_like_a_test_run(cli, tmp_path):
    folder = write(tmp_path / "club" / "club-skirmish", CLUB)
    result = cli("check-catalog", folder)
    assert result.exit_code == 1
    assert result.stdout == textwrap.dedent(f"""\
        {folder}: Club Skirmish (club-skirmish), catalog files load
          ok    tests/legal/hunters.yaml: Hunters
          FAIL  tests/legal/too-many.yaml: Too many Hunters
                  expected: legal, breaking nothing
                  got:      NOT LEGAL: 110 of 100 points, 11 fighters, breaking points-limit
                            points-limit: 10 points over the 100-point limit (110 of 100)
          ok    tests/illegal/crowd.yaml: Crowd
          FAIL  tests/illegal/wrong-rule.yaml: Crowd
                  expected: NOT LEGAL, breaking max-rare
                  got:      NOT LEGAL: 51 of 100 points, 17 fighters, breaking max-fighters
                            max-fighters: 1 fighter too many: 17 fighters, at most 16
          ok    tests/costs.yaml:1: Hunter = 10 points
          FAIL  tests/costs.yaml:2: Brute [line 48]
                  expected: 11 points
                  got:      12 points
        3 passed, 3 failed
        """)


def test_json_for_ci(cli, tmp_path):
    folder = write(tmp_path / "club" / "club-skirmish", CLUB)
    result = cli("check-catalog", folder, "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert (data["system"], data["passed"], data["failed"]) == ("club-skirmish", 3, 3)
    wrong = next(r for r in data["results"] if r["file"] == "tests/illegal/wrong-rule.yaml")
    assert wrong == {
        "kind": "illegal",
        "file": "tests/illegal/wrong-rule.yaml",
        "name": "Crowd",
        "passed": False,
        "expected": "NOT LEGAL, breaking max-rare",
        "got": "NOT LEGAL: 51 of 100 points, 17 fighters, breaking max-fighters\n"
        "max-fighters: 1 fighter too many: 17 fighters, at most 16",
    }


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "illegal/no-expect.yaml",
            "system: club-skirmish\nname: X\nunits:\n  - {unit: Hunter, count: 17}\n",
            "no 'expect:' key naming the rules (by id) this list must break",
        ),
        (
            "illegal/bad-expect.yaml",
            "system: club-skirmish\nname: X\nexpect: {a: 1}\nunits: []\n",
            "line 3: 'expect:' must list rule ids, found a mapping",
        ),
        (
            "legal/typo.yaml",
            "system: club-skirmish\nname: X\nunits:\n  - {unit: Huntr}\n",
            "the list cannot be read: this list cannot be read",
        ),
        (
            "legal/other-system.yaml",
            "system: might-skirmish\nname: X\nunits: []\n",
            "the list is for 'might-skirmish', not 'club-skirmish'",
        ),
        (
            "illegal/unknown-rule.yaml",
            "system: club-skirmish\nname: X\nexpect: [max-figthers]\nunits:\n  - {unit: Hunter, count: 17}\n",
            "no rule of this rule set has the id 'max-figthers'",
        ),
    ],
)
def test_a_broken_test_list_is_a_failed_test_that_says_why(cli, tmp_path, name, text, expected):
    folder = write(tmp_path / "club" / "club-skirmish", {"system.yaml": CLUB["system.yaml"], f"tests/{name}": text})
    result = cli("check-catalog", folder)
    assert result.exit_code == 1 and result.stdout.endswith("0 passed, 1 failed\n")
    assert expected in result.stdout, result.stdout


def test_a_broken_folder_is_bad_input_located(cli, tmp_path):
    folder = write(tmp_path / "club" / "club-skirmish", {"system.yaml": CLUB["system.yaml"] + "default_limit: lots\n"})
    result = cli("check-catalog", folder)
    assert result.exit_code == 2
    assert "line 4, column 16: default_limit: expected a whole number, found 'lots'" in result.stderr
    assert cli("check-catalog", tmp_path / "nowhere").exit_code == 2
    assert "neither system.yaml nor factions/" in cli("check-catalog", tmp_path).stderr


def test_a_faction_folder_is_checked_with_its_rule_set(cli, tmp_path):
    folder = write(
        tmp_path / "club" / "might-skirmish",
        {
            "factions/club.yaml": "faction: Club\nunits:\n  - {name: Tin Golem, class: Mech, might: 15}\n",
            "tests/legal/golem.yaml": "system: might-skirmish\nname: G\nunits: [{unit: Tin Golem}, {unit: Hunter}]\n",
            "tests/costs.yaml": "- {unit: Tin Golem, cost: 15}\n- {unit: Hunter, cost: 10}\n",
        },
    )
    result = cli("check-catalog", folder)
    assert result.exit_code == 0 and result.stdout.endswith("3 passed\n"), result.stdout


def test_a_variant_beside_its_base_is_checked_without_reading_the_rest_of_the_folder(cli, tmp_path):
    home = tmp_path / "home"
    write(
        home / "my-game",
        {
            "system.yaml": (CATALOGS / "might-skirmish" / "system.yaml")
            .read_text()
            .replace("id: might-skirmish\n", "id: my-game\n")
        },
    )
    write(
        home / "my-game-150",
        {
            "system.yaml": "extends: my-game\nid: my-game-150\nname: Mine at 150\ndefault_limit: 150\n",
            "tests/costs.yaml": "- {name: Brute, class: Monster, might: 12, cost: 12}\n",
        },
    )
    (home / "Documents").mkdir()  # not a catalog folder: never looked at
    result = cli("check-catalog", home / "my-game-150")
    # the cost test, and the base's sentences follow the new default_limit (they write {default_limit})
    assert result.exit_code == 0 and result.stdout.endswith("2 passed\n"), result.stdout + result.stderr

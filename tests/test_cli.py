"""The command contract: outputs, JSON shape, exit codes, help and version."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES

from listbuilder import __version__

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
COMMANDS = ["validate", "points", "cost", "systems", "catalog"]


def test_version(cli):
    result = cli("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"listbuilder {__version__}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "Example: listbuilder " + command in " ".join(result.stdout.split())


def test_validate_legal_list(cli):
    result = cli("validate", ZOMBIES)
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{ZOMBIES}: legal: Zombie Family (might-skirmish), 98 of 100 points, 14 fighters"


def test_validate_illegal_list_names_each_rule_and_entry(cli):
    result = cli("validate", MASH)
    assert result.exit_code == 1
    out = result.stdout
    assert "NOT LEGAL: Monster Mash (might-skirmish), 114 of 100 points, 9 fighters" in out
    assert "14 points over the 100-point limit (114 of 100)" in out
    assert "2 basic fighters short: 3 of 9, at least 5 needed" in out
    # entries numbered from 1 as 'points' numbers them, the line of the list file, the rule text's line
    assert "error   line 7, #1 Grandpa Bones, #2 Old Mother: 1 rare fighter too many" in out
    assert "[line 48]" not in out
    assert "rule: A warband has at most 2 fighters of the rare classes (Monster, Mech). [rules, line 48]" in out
    assert "error   line 5: 14 points over the 100-point limit (114 of 100)" in out


def test_validate_json_shape(cli):
    result = cli("validate", "--json", ZOMBIES, MASH)
    assert result.exit_code == 1
    good, bad = result.json_lines()
    assert set(good) == {"file", "system", "name", "legal", "total", "limit", "unit", "problems"}
    assert good == {
        "file": str(ZOMBIES),
        "system": "might-skirmish",
        "name": "Zombie Family",
        "legal": True,
        "total": 98,
        "limit": 100,
        "unit": "points",
        "problems": [],
    }
    assert bad["legal"] is False and bad["total"] == 114
    assert {"severity", "rule", "message", "entry"} <= set(bad["problems"][0])
    assert bad["problems"][0]["severity"] == "error"


def test_warnings_pass_unless_strict(cli, tmp_path):
    warned = tmp_path / "warned.yaml"
    warned.write_text("system: melee-module\nname: Small unit\nunits:\n  - name: Pickets\n    figures: 5\n")
    relaxed = cli("validate", "--json", warned)
    strict = cli("validate", "--json", "--strict", warned)
    assert relaxed.exit_code == 0 and relaxed.json_lines()[0]["legal"] is True
    assert relaxed.json_lines()[0]["problems"][0]["severity"] == "warning"
    assert strict.exit_code == 1 and strict.json_lines()[0]["legal"] is False


def test_points_table(cli):
    result = cli("points", ZOMBIES)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"Zombie Family · Might Skirmish · {ZOMBIES}"
    assert lines[2].split() == ["1", "Hunter", "2", "10", "20"]  # counted from 1, as a player counts (issue 15)
    assert lines[-2].split() == ["total", "98", "of", "100"]


def test_points_json_lists_each_entry(cli):
    (data,) = cli("points", "--json", ZOMBIES).json_lines()
    assert data["entries"][0] == {
        "index": 0,
        "unit": "Hunter",
        "count": 2,
        "leader": False,
        "leaders": 0,
        "custom": False,
        "each": 10,
        "cost": 20,
    }
    assert sum(e["cost"] for e in data["entries"]) == data["total"] == 98


def test_cost_custom_statline(cli):
    result = cli("cost", "speed-range-power", "--speed", "6", "--range", "24", "--power", "2")
    assert result.exit_code == 0
    assert "30 points" in result.stdout and "legal statline" in result.stdout


def test_cost_illegal_statline_exits_1(cli):
    result = cli("cost", "speed-range-power", "--speed=7", "--range=24", "--power=2")
    assert result.exit_code == 1
    assert 'Speed 7" is not a multiple of 3' in result.stdout


def test_cost_json(cli):
    result = cli("cost", "--json", "speed-range-power", "--speed", "9", "--range", "48", "--power", "10")
    data = json.loads(result.stdout)
    assert data["total"] == 81 and data["legal"] is True
    assert [p["cost"] for p in data["parts"]] == [9, 32, 40]


def test_cost_of_a_catalog_unit(cli):
    result = cli("cost", "might-skirmish", "--unit", "hunter")
    assert result.exit_code == 0 and "10 points" in result.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["speed-range-power", "--sped", "6", "--range", "24", "--power", "2"], "did you mean 'speed'?"),
        (
            ["speed-range-power", "--speed", "six", "--range", "24", "--power", "2"],
            "Speed must be a whole number, found 'six'",
        ),
        (["speed-range-power", "--speed", "6", "--range", "24"], "the stat 'power' (Power) is missing"),
        (["might-skirmish", "--class", "Soldeir", "--might", "3"], "did you mean 'Soldier'?"),
        (["might-skirmsh", "--might", "3"], "did you mean 'might-skirmish'?"),
        (["might-skirmish", "--unit", "Huntr"], "did you mean 'Hunter'?"),
    ],
)
def test_cost_bad_options_exit_2(cli, args, expected):
    result = cli("cost", *args)
    assert result.exit_code == 2
    assert expected in result.stderr, result.stderr


def test_systems_lists_the_rule_sets(cli):
    result = cli("systems")
    assert result.exit_code == 0
    for system_id in ("deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power"):
        assert system_id in result.stdout


def test_catalog_lists_units_with_stats_and_costs(cli):
    result = cli("catalog", "speed-range-power", "--faction", "worked examples")
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if "T34 Tank" in line)
    assert 'Speed 9", Range 48", Power 10' in row and row.rstrip().endswith("81 points")
    assert "WW2 Officer (leader)" in result.stdout


def test_catalog_unknown_faction(cli):
    result = cli("catalog", "might-skirmish", "--faction", "Zombie Famly")
    assert result.exit_code == 2 and "did you mean 'Zombie Family'?" in result.stderr


def test_no_arguments_shows_help(cli):
    result = cli()
    assert "validate" in result.stdout + result.stderr

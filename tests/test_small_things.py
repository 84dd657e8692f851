"""The small things a new user tripped on (issue 23, "Smaller" and "left from the last round"),
each run as the user typed it."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import EXAMPLES, ROOT

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"


@pytest.fixture
def zombies(tmp_path):
    path = tmp_path / "zombies.yaml"
    shutil.copy(ZOMBIES, path)
    return path


def test_add_names_the_unit_as_its_catalog_spells_it(cli, zombies):
    result = cli("add", zombies, "hunter", "--count", "3")
    assert result.stdout.splitlines()[0] == f"{zombies}: added 3 Hunter"


def test_remove_without_a_count_says_how_many_it_took(cli, zombies):
    result = cli("remove", zombies, "shambler")
    assert result.stdout.splitlines()[0] == f"{zombies}: removed every Shambler, 4 in all (--count 1 takes out one)"
    one = cli("remove", zombies, "hunter", "--count", "1")
    assert one.stdout.splitlines()[0] == f"{zombies}: removed 1 Hunter"


def test_diff_says_each_change_once(cli, zombies, tmp_path):
    old = tmp_path / "old.yaml"
    shutil.copy(zombies, old)
    cli("remove", zombies, "Hunter", "--count", "1")
    out = cli("diff", old, zombies).stdout
    assert out.count("Hunter") == 1, out
    assert out.splitlines() == [
        "Zombie Family (might-skirmish): 98 → 88 points of 100 (−10)",
        "  ~ Hunter 2 → 1 (−10 points)",
    ]


def test_render_strict_does_not_double_its_brackets(cli, tmp_path):
    result = cli("render", "--strict", MASH, "-o", tmp_path / "x.pdf")
    assert result.exit_code == 1 and not (tmp_path / "x.pdf").exists()
    assert ") (" not in result.stderr
    assert "14 points over the 100-point limit (114 of 100); the rule: A warband costs no more" in result.stderr


def test_validate_strict_labels_a_warning_as_the_error_it_makes(cli, write_list):
    path = write_list("system: might-skirmish\nname: Bosses\nunits:\n  - unit: Hunter\n    leader: true\n")
    plain = cli("validate", path).stdout
    assert "  warning line 4, #1 Hunter:" in plain
    strict = cli("validate", "--strict", path)
    assert strict.exit_code == 1 and "NOT LEGAL" in strict.stdout
    assert (
        "  error   line 4, #1 Hunter:" in strict.stdout and "(a warning; --strict makes it an error)" in strict.stdout
    )


def test_the_odds_legend_explains_a_dash_only_when_a_cell_has_one(cli):
    rangers = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"
    grox = EXAMPLES / "deathzap-grox-swarm.illegal.yaml"
    out = cli("odds", rangers, grox).stdout
    table = out.splitlines()[1:-1] if out.rstrip().endswith("no such attack") else out.splitlines()[1:]
    has_dash = any("–" in line for line in table)
    assert ("– : the rules allow no such attack" in out) == has_dash
    family = cli("odds", ZOMBIES, ZOMBIES).stdout
    assert "–" not in family and "no such attack" not in family  # every cell has a number


def test_the_readme_counts_five_rule_sets_and_one_variant(cli):
    readme = (ROOT / "README.md").read_text()
    assert "Five rule sets ship with it" in readme and "one variant of them, `might-skirmish-150`" in readme
    listed = [line.split()[0] for line in cli("systems").stdout.splitlines()[1:]]
    assert len(listed) == 6 and "might-skirmish-150" in listed


def test_a_title_does_not_double_its_brackets(cli):
    first = cli("points", EXAMPLES / "deathzap-frontier-rangers.legal.yaml").stdout.splitlines()[0]
    assert "))" not in first and first.startswith("Frontier Rangers patrol · Deathzap (simplified) · ")


def test_catalog_and_systems_have_json(cli):
    (listing,) = cli("catalog", "deathzap", "--json").json_lines()
    team = next(u for u in listing["units"] if u["name"] == "Ranger Fire Team")
    assert team["stats"]["weapons"] == [{"name": "Rifle", "figures": 4}, {"name": "Medium Repeater", "figures": 1}]
    assert listing["unit_of_cost"] == "figures"
    systems = json.loads(cli("systems", "--json").stdout)
    assert {s["id"]: s["extends"] for s in systems}["might-skirmish-150"] == "might-skirmish"


def test_fill_to_below_the_total_says_so(cli):
    result = cli("fill", ZOMBIES, "--to", "50")
    assert result.exit_code == 2
    assert "the total to fill to, 50 points, is below the list's total of 98" in result.stderr
    at = cli("fill", ZOMBIES, "--to", "98")  # at the total: nothing to add, and that is no error
    assert at.exit_code == 0 and "nothing to add: the list is at 98 of the 98 points aimed at" in at.stdout


def test_fix_json_apply_says_which_file_it_wrote(cli, tmp_path):
    path = tmp_path / "mash.yaml"
    shutil.copy(MASH, path)
    (answer,) = cli("fix", "--json", "--apply", path).json_lines()
    assert answer["applied"] == {"suggestion": 1, "file": str(path), "changed": True}
    assert cli("validate", path).exit_code == 0
    out = tmp_path / "fixed.yaml"
    (again,) = cli("fix", "--json", MASH, "-o", out).json_lines()
    assert again["applied"]["file"] == str(out) and out.is_file()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("points: 1__0", "'1__0' would be read as a number with its underscores dropped, 10"),
        ("points: 1_00_", "'1_00_' would be read as a number with its underscores dropped, 100"),
        ("name: on", "'on' would be read as true (an old YAML spelling)"),
    ],
)
def test_yaml_1_1_leftovers_are_refused(cli, write_list, line, message):
    text = "system: might-skirmish\nname: T\npoints: 100\nunits:\n  - unit: Hunter\n"
    key = line.split(":")[0]
    text = "\n".join(line if row.startswith(f"{key}:") else row for row in text.splitlines()) + "\n"
    result = cli("validate", write_list(text))
    assert result.exit_code == 2 and message in result.stderr


def test_leader_on_is_refused_not_read_as_true(cli, write_list):
    result = cli(
        "validate", write_list("system: deathmelt\nname: T\nunits:\n  - unit: Colonial Marine\n    leader: on\n")
    )
    assert result.exit_code == 2 and "'on' would be read as true" in result.stderr and "write true" in result.stderr
    quoted = cli(
        "validate", write_list("system: deathmelt\nname: T\nunits:\n  - unit: Colonial Marine\n    leader: true\n")
    )
    assert quoted.exit_code == 0


def test_new_refuses_a_list_inside_a_factions_folder(cli, tmp_path, monkeypatch):
    (tmp_path / "factions").mkdir()
    monkeypatch.chdir(tmp_path)
    result = cli("new", "might-skirmish", "-o", "factions/mine.yaml")
    assert result.exit_code == 2 and "a list cannot go in a factions/ folder" in result.stderr
    assert list((tmp_path / "factions").iterdir()) == []


def test_printed_statlines_use_the_terminal_grammar(cli, tmp_path):
    # the statline grammar joins a list stat's values with '+', in the terminal and on paper alike
    zulu = EXAMPLES / "melee-module-zulu-big-regiment.legal.yaml"
    assert "Traits elite + charge-bonus" in cli("catalog", "melee-module").stdout
    html = tmp_path / "zulu.html"
    assert cli("render", zulu, "-o", html).exit_code == 0
    assert "<small>Traits</small> elite + charge-bonus" in html.read_text()
    assert "elite, charge-bonus" not in html.read_text()

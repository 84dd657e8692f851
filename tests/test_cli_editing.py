"""The editing commands: new, add, remove and set, as a player runs them."""

from __future__ import annotations

import shutil

import pytest
from conftest import EXAMPLES

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


@pytest.fixture
def zombies(tmp_path):
    """A copy of the Zombie Family example (98 of 100 points) to edit."""
    path = tmp_path / "zombies.yaml"
    shutil.copy(ZOMBIES, path)
    return path


HAND_WRITTEN = """\
# My zombies, for Saturday's club night
system: might-skirmish
name: 'Zombie Family'   # the family name

points: 100
units:
  - unit: Hunter        # the two brothers
    count: 2
  - unit: Shambler
    count: 4
"""


def test_new_writes_a_list_and_its_schema_and_never_overwrites(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("new", "might-skirmish", "--name", "Zombie Family")
    assert result.exit_code == 0, result.stderr
    text = (tmp_path / "zombie-family.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=might-skirmish.schema.json\n")
    assert "name: Zombie Family\n" in text and "points: 100\n" in text and "revision: 1\n" in text
    assert (tmp_path / "might-skirmish.schema.json").is_file()
    fresh = cli("validate", tmp_path / "zombie-family.yaml")  # it reads, but an empty list is no force yet
    assert fresh.exit_code == 1, fresh.stdout
    assert "no fighters yet (add some with 'listbuilder add FILE UNIT')" in fresh.stdout
    again = cli("new", "might-skirmish", "--name", "Zombie Family")
    assert again.exit_code == 2 and "refusing to overwrite" in again.stderr
    assert (tmp_path / "zombie-family.yaml").read_text() == text


def test_new_with_output_and_figures(cli, tmp_path):
    out = tmp_path / "squad.yaml"
    assert cli("new", "deathmelt", "-o", out, "--figures", "20").exit_code == 0
    assert "figures: 20\n" in out.read_text()


def test_add_remove_set_keep_the_users_file(cli, tmp_path):
    path = tmp_path / "zombies.yaml"
    path.write_text(HAND_WRITTEN)
    added = cli("add", path, "hunter")
    assert added.exit_code == 0
    assert (
        "added 1 Hunter" in added.stdout and "legal: Zombie Family (might-skirmish), 50 of 100 points" in added.stdout
    )
    assert path.read_text() == HAND_WRITTEN.replace("    count: 2\n", "    count: 3\n")
    cli("add", path, "Grandpa Bones")
    assert path.read_text().endswith("    count: 4\n  - unit: Grandpa Bones\n")
    cli("remove", path, "Grandpa Bones")
    cli("remove", path, "Hunter", "--count", "1")
    assert path.read_text() == HAND_WRITTEN
    result = cli("set", path, "points", "150")
    assert result.exit_code == 0 and "40 of 150 points" in result.stdout
    assert path.read_text() == HAND_WRITTEN.replace("points: 100", "points: 150")


def test_edit_errors_leave_the_file_alone(cli, tmp_path):
    path = tmp_path / "zombies.yaml"
    path.write_text(HAND_WRITTEN)
    for args, expected in [
        (("add", path, "Huntr"), "did you mean 'Hunter'?"),
        (("remove", path, "Hunter", "--count", "5"), "cannot remove 5 Hunter: the list has 2"),
        (("set", path, "pionts", "150"), "did you mean 'points'?"),
        (("set", path, "points", "lots"), "points"),
        (("add", EXAMPLES.parent / "tests" / "invalid_lists" / "typo-stat.yaml", "Hunter"), "unknown key 'mihgt'"),
    ]:
        result = cli(*args)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert expected in result.stderr
    assert path.read_text() == HAND_WRITTEN


# --- new: a readable file name from any script ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "file_name"),
    [("ゾンビ家族", "ゾンビ家族.yaml"), ("Zombie Family", "zombie-family.yaml"), ("Ça va, l'Été", "ça-va-l-été.yaml")],
)
def test_new_names_the_file_from_a_name_in_any_script(cli, tmp_path, monkeypatch, name, file_name):
    monkeypatch.chdir(tmp_path)
    result = cli("new", "might-skirmish", "--name", name)
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([file_name, "might-skirmish.schema.json"])
    assert f"name: {name}\n" in (tmp_path / file_name).read_text(encoding="utf-8")


def test_new_asks_for_o_when_the_name_has_no_letters(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("new", "might-skirmish", "--name", "🧟🧟")
    assert result.exit_code == 2 and "choose the file with -o" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_add_names_the_unit_as_its_catalog_spells_it(cli, zombies):
    result = cli("add", zombies, "hunter", "--count", "3")
    assert result.stdout.splitlines()[0] == f"{zombies}: added 3 Hunter"


def test_remove_without_a_count_says_how_many_it_took(cli, zombies):
    result = cli("remove", zombies, "shambler")
    assert result.stdout.splitlines()[0] == f"{zombies}: removed every Shambler, 4 in all (--count 1 takes out one)"
    one = cli("remove", zombies, "hunter", "--count", "1")
    assert one.stdout.splitlines()[0] == f"{zombies}: removed 1 Hunter"


def test_new_refuses_a_list_inside_a_factions_folder(cli, tmp_path, monkeypatch):
    (tmp_path / "factions").mkdir()
    monkeypatch.chdir(tmp_path)
    result = cli("new", "might-skirmish", "-o", "factions/mine.yaml")
    assert result.exit_code == 2 and "a list cannot go in a factions/ folder" in result.stderr
    assert list((tmp_path / "factions").iterdir()) == []


@pytest.mark.parametrize("args", [["points", "-5"], ["--", "points", "-5"]])
def test_set_points_to_a_negative_number_says_it_must_be_at_least_1(cli, tmp_path, args):
    target = tmp_path / "z.yaml"
    target.write_bytes(ZOMBIES.read_bytes())
    result = cli("set", target, *args) if args[0] != "--" else cli("set", "--", target, *args[1:])
    assert result.exit_code == 2, result.stdout
    assert "the limit must be a whole number of at least 1, found '-5'" in result.stderr
    assert target.read_bytes() == ZOMBIES.read_bytes()


@pytest.mark.parametrize(
    ("system", "option", "expected"),
    [
        ("might-skirmish", "--figures", "might-skirmish counts a force in points, not figures"),
        ("deathmelt", "--points", "deathmelt counts a force in figures, not points"),
    ],
)
def test_new_refuses_a_measure_the_rule_set_does_not_use(cli, tmp_path, system, option, expected):
    out = tmp_path / "l.yaml"
    result = cli("new", system, "-o", out, option, "10")
    assert result.exit_code == 2 and expected in result.stderr
    assert not out.exists()


def test_new_takes_one_limit_points_or_figures(cli, tmp_path):
    out = tmp_path / "l.yaml"
    result = cli("new", "might-skirmish", "-o", out, "--points", "10", "--figures", "20")
    assert result.exit_code == 2 and "give the limit in points or in figures, not both" in result.stderr
    assert "a list has one limit" in result.stderr and not out.exists()
    assert cli("new", "deathmelt", "-o", tmp_path / "f.yaml", "--figures", "20").exit_code == 0
    assert "figures: 20\n" in (tmp_path / "f.yaml").read_text()


def test_new_with_the_right_measure_writes_it(cli, tmp_path):
    assert cli("new", "might-skirmish", "-o", tmp_path / "m.yaml", "--points", "150").exit_code == 0
    assert "points: 150\n" in (tmp_path / "m.yaml").read_text()

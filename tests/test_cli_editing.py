"""The editing commands: new, add, remove and set, as a player runs them."""

from __future__ import annotations

from conftest import EXAMPLES

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

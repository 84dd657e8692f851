"""User catalog folders (``--catalogs``, ``LISTBUILDER_CATALOGS``) as a user sets them up: a folder
given twice is read once, and a misnamed, misplaced or unreadable file is reported by name, never
skipped without a word."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
GOLEM = "faction: Club\nunits:\n  - name: Tin Golem\n    class: Mech\n    might: 15\n"


def _club(tmp_path, folder: str = "might-skirmish"):  # type: ignore[no-untyped-def]
    factions = tmp_path / "club" / folder / "factions"
    factions.mkdir(parents=True)
    (factions / "club.yaml").write_text(GOLEM)
    return tmp_path / "club"


def test_one_catalog_folder_given_twice_is_read_once(cli, tmp_path):
    # LISTBUILDER_CATALOGS set in the shell and --catalogs on the line, or one folder spelt two
    # ways: it is read once, or its own units would clash with themselves ('already used in the
    # faction Club').
    club = _club(tmp_path)
    for args, env in (
        (["--catalogs", club, "--catalogs", f"{club}/"], None),
        (["--catalogs", club], {"LISTBUILDER_CATALOGS": str(club)}),
    ):
        result = cli("catalog", "might-skirmish", "--faction", "Club", *args, env=env)
        assert result.exit_code == 0, result.stderr
        # Tin Golem costs its Might, 15 (might-skirmish line 48: cost = Might)
        assert [line.split() for line in result.stdout.splitlines() if "Tin Golem" in line] == [
            ["Tin", "Golem", "Mech,", "Might", "15", "15", "points"]
        ]


def test_the_shipped_catalogs_given_as_a_user_folder_are_read_once(cli):
    result = cli("validate", "--catalogs", CATALOGS, ZOMBIES)
    assert result.exit_code == 0, result.stderr
    assert "98 of 100 points, 14 fighters" in result.stdout  # examples/: 98 points (line 48 costs)


def test_factions_for_a_misspelt_rule_set_are_reported_by_every_command(cli, tmp_path):
    # 'Might-Skirmish' is no rule set id: its factions were skipped without a word by validate.
    club = _club(tmp_path, "Might-Skirmish")
    result = cli("validate", "--catalogs", club, ZOMBIES)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "factions for rule set 'Might-Skirmish' but no rule set of that id" in result.stderr
    assert "did you mean 'might-skirmish'?" in result.stderr


def test_a_unit_name_in_another_unicode_form_is_the_same_unit(cli, tmp_path, write_list):
    # 'Café' typed as C-a-f-e + a combining acute (as macOS writes it) is the catalog's 'Café':
    # names are compared in one Unicode form, or it would be 'no unit 'Café Golem' (did you mean
    # 'Café Golem'?)'.
    import unicodedata

    factions = tmp_path / "club" / "might-skirmish" / "factions"
    factions.mkdir(parents=True)
    composed = unicodedata.normalize("NFC", "Café Golem")
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    (factions / "club.yaml").write_text(GOLEM.replace("Tin Golem", composed), encoding="utf-8")
    path = write_list(f"system: might-skirmish\nname: Cafe\nunits:\n  - unit: {decomposed}\n  - unit: Hunter\n")
    result = cli("validate", "--catalogs", tmp_path / "club", path)
    # Café Golem is Might 15, Hunter Might 10 (line 6): 25 points, cost = Might (line 48)
    assert "25 of 100 points, 2 fighters" in result.stdout, result.stdout + result.stderr
    added = cli("add", "--catalogs", tmp_path / "club", path, decomposed)
    assert added.exit_code == 0, added.stderr
    assert "40 of 100 points, 3 fighters" in added.stdout


FACTION = "faction: Club\nunits:\n  - name: Tin Golem\n    class: Mech\n    might: 15\n"


@pytest.mark.parametrize(
    ("layout", "named", "expected"),
    [
        ({"might-skirmish/factions/club.yml": FACTION}, "might-skirmish/factions/club.yml", "rename it to club.yaml"),
        ({"might-skirmish/faction/club.yaml": FACTION}, "might-skirmish/faction", "rename it to factions"),
        (
            {"club/units.yaml": FACTION},
            "club",
            "this folder holds neither system.yaml (a rule set) nor factions/ (factions for one)",
        ),
        ({"might-skirmish/factions/notes.txt": "x"}, "might-skirmish/factions/notes.txt", "move it out"),
    ],
)
def test_a_misnamed_file_or_folder_in_a_user_catalog_is_reported(cli, tmp_path, layout, named, expected):
    for rel, text in layout.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    result = cli("catalog", "might-skirmish", "--catalogs", tmp_path)
    assert result.exit_code == 2
    assert str(tmp_path / named) in result.stderr and expected in result.stderr, result.stderr


def test_a_well_formed_user_catalog_still_adds_its_units(cli, tmp_path):
    (tmp_path / "might-skirmish" / "factions").mkdir(parents=True)
    (tmp_path / "might-skirmish" / "factions" / "club.yaml").write_text(FACTION, encoding="utf-8")
    result = cli("catalog", "might-skirmish", "--faction", "Club", "--catalogs", tmp_path)
    assert result.exit_code == 0 and "Tin Golem" in result.stdout and "15 points" in result.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_catalog_file_is_reported(cli, tmp_path):
    faction = tmp_path / "might-skirmish" / "factions" / "club.yaml"
    faction.parent.mkdir(parents=True)
    faction.write_text(FACTION, encoding="utf-8")
    faction.chmod(0)
    try:
        result = cli("catalog", "might-skirmish", "--catalogs", tmp_path)
    finally:
        faction.chmod(0o644)
    assert result.exit_code == 2 and "cannot be read (permission denied)" in result.stderr


def test_an_unreadable_catalog_file_is_reported_even_where_tests_run_as_root(cli, tmp_path, monkeypatch):
    # Root reads any file, so the permission is taken away where the check asks for it.
    from listbuilder.rules import userfolders

    faction = tmp_path / "might-skirmish" / "factions" / "club.yaml"
    faction.parent.mkdir(parents=True)
    faction.write_text(FACTION, encoding="utf-8")
    real = os.access
    monkeypatch.setattr(userfolders.os, "access", lambda p, mode: real(p, mode) and Path(p) != faction)
    result = cli("catalog", "might-skirmish", "--catalogs", tmp_path)
    assert result.exit_code == 2
    assert f"{faction}: this catalog file cannot be read (permission denied)" in result.stderr

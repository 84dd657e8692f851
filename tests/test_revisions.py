"""A list's units against its catalog: lists record the catalog revision they were made with and a
changed unit is flagged, old and new; a custom unit that takes a catalog unit's name with other
stats is warned about with both statlines."""

from __future__ import annotations

import shutil

import pytest
from conftest import CATALOGS, EXAMPLES

from listbuilder.api.lists import check_list
from listbuilder.errors import CatalogError
from listbuilder.rules.catalog import Catalogs

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


def catalogs_at_revision_2(tmp_path, history: str = "    history:\n      - {revision: 1, might: 9}\n"):
    """A copy of might-skirmish at revision 2, where the Hunter went from Might 9 to 10."""
    root = tmp_path / "shipped"
    shutil.copytree(CATALOGS / "might-skirmish", root / "might-skirmish")
    system = root / "might-skirmish" / "system.yaml"
    system.write_text(system.read_text().replace("revision: 1\n", "revision: 2\n"))
    faction = root / "might-skirmish" / "factions" / "zombie-family.yaml"
    text = faction.read_text()
    marker = "    might: 10\n    source: line 6 (the text's example stat line)\n"
    assert marker in text
    faction.write_text(text.replace(marker, marker + history))
    return Catalogs(shipped=root)


def test_a_list_from_an_older_revision_is_warned_with_old_and_new_stats(tmp_path, write_list):
    catalogs = catalogs_at_revision_2(tmp_path)
    path = write_list(
        "system: might-skirmish\nname: Old list\nrevision: 1\nunits:\n  - unit: Hunter\n  - unit: Shambler\n"
    )
    report = check_list(path, catalogs)
    assert report.legal()  # a warning, not an error: the unit is costed as it is now
    assert report.total == 15
    (warning,) = report.problems
    assert warning.severity == "warning" and warning.entry == "units[0] Hunter"
    assert warning.message == "Hunter changed since the list was made (catalog revision 1, now 2): Might 9 → 10"


def test_a_list_at_the_current_revision_or_without_one_is_not_warned(tmp_path, write_list):
    catalogs = catalogs_at_revision_2(tmp_path)
    for head in ("revision: 2\n", ""):
        path = write_list(f"system: might-skirmish\nname: L\n{head}units:\n  - unit: Hunter\n")
        assert check_list(path, catalogs).problems == ()


def test_a_list_from_newer_catalogs_is_warned(write_list, catalogs):
    path = write_list("system: might-skirmish\nname: L\nrevision: 7\nunits:\n  - unit: Hunter\n")
    (warning,) = check_list(path, catalogs).problems
    assert warning.rule_id == "catalog-revision" and "revision 7" in warning.message


@pytest.mark.parametrize("bad", ["revision: 0", "revision: two", "revision: true"])
def test_a_bad_revision_is_refused(cli, write_list, bad):
    path = write_list(f"system: might-skirmish\nname: L\n{bad}\nunits: []\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and "catalog revision must be a whole number" in result.stderr


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        ("    history:\n      - {revision: 2, might: 9}\n", "revision 2 is not older than the rule set's revision 2"),
        ("    history:\n      - {might: 9}\n", "each older version needs a 'revision'"),
        ("    history:\n      - {revision: 1, might: nine}\n", "Might must be a whole number"),
        ("    history:\n      - {revision: 1, mihgt: 9}\n", "unknown key 'mihgt'"),
        ("    history: 9\n", "expected a list of older versions"),
    ],
)
def test_a_bad_history_is_a_located_catalog_error(tmp_path, history, expected):
    catalogs = catalogs_at_revision_2(tmp_path, history)
    with pytest.raises(CatalogError) as caught:
        catalogs.get("might-skirmish")
    assert expected in caught.value.render()
    assert "zombie-family.yaml" in caught.value.render()


def test_a_custom_unit_named_like_a_catalog_unit_is_warned_with_both_statlines(cli, write_list):
    path = write_list(
        """\
        system: might-skirmish
        name: Imposters
        units:
          - name: Hunter
            class: Beast
            might: 6
        """
    )
    result = cli("validate", path)
    assert result.exit_code == 0
    assert (
        "a custom unit with the name of the catalog unit Hunter: this one is Beast, Might 6, "
        "the catalog's is Soldier, Might 10" in result.stdout
    )


def test_an_embedded_copy_of_a_catalog_unit_is_not_warned(cli, tmp_path):
    embedded = tmp_path / "e.yaml"
    embedded.write_text(cli("export", ZOMBIES, "--format", "yaml", "--embed").stdout, encoding="utf-8")
    result = cli("validate", embedded)
    assert result.exit_code == 0 and "warning" not in result.stdout

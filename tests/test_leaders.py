"""``leaders: N``: how many of an entry's models are leaders, from 0 to its count.

Deathmelt's force has exactly one Leader, one figure the player selects (source 000, line 25);
in speed-range-power one model in ten may be a leader (source 003, line 35; ruling 1: at most
floor(models / 10)). Both are read per model, so a leader may stand inside a squad: five Colonial
Marines of which one leads. ``leader: true`` stays "every model of the entry".
"""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, ROOT

from listbuilder.api import editing, folders, lists, sharing
from listbuilder.errors import InputError
from listbuilder.share.textformat import leader_mark

DEATHMELT = "system: deathmelt\nname: Squad\nfigures: 12\nunits:\n"
MARINES = DEATHMELT + "  - unit: Colonial Marine\n    count: 5\n"


def test_one_leader_inside_a_squad_is_legal_in_deathmelt(cli, write_list):
    # source 000, line 25: "Select one figure in your force to be your Leader"
    path = write_list(MARINES + "    leaders: 1\n")
    result = cli("validate", path)
    assert result.exit_code == 0, result.stdout
    assert "legal: Squad (deathmelt), 5 of 12 figures" in result.stdout
    points = cli("points", path)
    assert "Colonial Marine (1 leader)" in points.stdout
    (data,) = cli("points", "--json", path).json_lines()
    assert (data["entries"][0]["leader"], data["entries"][0]["leaders"]) == (False, 1)


@pytest.mark.parametrize(("leaders", "verdict"), [(0, "no leader chosen"), (2, "1 leader too many: 2")])
def test_deathmelt_needs_exactly_one_either_side(cli, write_list, leaders, verdict):
    path = write_list(MARINES + f"    leaders: {leaders}\n")
    result = cli("validate", path)
    assert result.exit_code == 1 and verdict in result.stdout


def test_leader_true_still_means_every_model(cli, write_list):
    result = cli("validate", write_list(MARINES + "    leader: true\n"))
    assert result.exit_code == 1 and "4 leaders too many: 5" in result.stdout


@pytest.mark.parametrize(
    ("models", "leaders", "legal"),
    # ruling 1 on source 003, line 35: at most floor(models / 10) leaders, counted among the models
    [(10, 1, True), (10, 2, False), (19, 1, True), (19, 2, False), (20, 2, True), (9, 1, False)],
)
def test_one_in_ten_counts_leaders_inside_an_entry(cli, write_list, models, leaders, legal):
    path = write_list(
        "system: speed-range-power\nname: Spears\npoints: 1000\nunits:\n"
        f"  - unit: Sumerian Spearman\n    count: {models}\n    leaders: {leaders}\n"
    )
    assert cli("validate", path).exit_code == (0 if legal else 1)


def test_more_leaders_than_models_names_both_numbers(cli, write_list):
    path = write_list(MARINES + "    leaders: 6\n")
    result = cli("validate", path)
    assert result.exit_code == 2
    assert "line 7" in result.stderr and "leaders is 6, more than the entry's count of 5" in result.stderr
    assert "write 'leaders:' from 0 to 5, or raise 'count:' to 6" in result.stderr


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("    leaders: -1\n", "leaders must be 0 or more, found -1"),
        ("    leaders: many\n", "leaders must be a whole number"),
        ("    leader: true\n    leaders: 1\n", "an entry has both 'leader' and 'leaders'"),
    ],
)
def test_a_wrong_leaders_key_is_refused(cli, write_list, line, message):
    result = cli("validate", write_list(MARINES + line))
    assert result.exit_code == 2 and message in result.stderr


def test_a_custom_entry_may_say_leaders(cli, write_list):
    path = write_list(
        DEATHMELT + "  - name: Scout\n    count: 3\n    leaders: 1\n    type: Infantry\n"
        "    training: Regular\n    armour: 2\n    weapons: [Rifle]\n"
    )
    result = cli("validate", path)
    assert result.exit_code == 0, result.stdout + result.stderr


def test_the_doctor_unmarks_leaders_rather_than_removing_marines(cli, write_list):
    path = write_list(MARINES + "    leader: true\n")
    result = cli("fix", path)
    assert result.exit_code == 0
    first = result.stdout.splitlines()[1]
    assert first == "  1. Colonial Marine: unmark 4 leaders: 5 of 12 figures, legal"
    (answer,) = cli("fix", "--json", path).json_lines()
    best = answer["suggestions"][0]
    assert best["models_changed"] == 0
    assert best["changes"] == [
        {
            "unit": "Colonial Marine",
            "leaders": -4,
            "leaders_after": 1,
            "change": 0,
            "models": 0,
            "stats": [],
            "cost_change_each": 0,
        }
    ]
    assert cli("fix", path, "--apply").exit_code == 0
    assert path.read_text().endswith("  - unit: Colonial Marine\n    count: 5\n    leaders: 1\n")
    assert cli("validate", path).exit_code == 0


def test_the_doctor_makes_one_of_them_the_leader(cli, write_list):
    path = write_list(MARINES)
    result = cli("fix", path)
    assert result.stdout.splitlines()[1] == "  1. Colonial Marine: make one a leader: 5 of 12 figures, legal"


def test_the_doctor_unmarks_the_leader_where_one_in_ten_allows_none(cli, write_list):
    # source 003, lines 35 and 47: 9 models allow no leader; an officer costs 22 points
    path = write_list(
        "system: speed-range-power\nname: Few\npoints: 1000\nunits:\n"
        "  - unit: Sumerian Spearman\n    count: 9\n    leaders: 1\n"
    )
    result = cli("fix", path)
    assert result.stdout.splitlines()[1].startswith("  1. Sumerian Spearman: unmark the leader: ")


@pytest.mark.parametrize(
    ("fmt", "written"),
    [
        ("text", "5x Colonial Marine (1 leader) - 5 figures"),
        ("markdown", "- 5x Colonial Marine (1 leader) - 5 figures"),
        ("json", '"leaders": 1'),
        ("yaml", "    count: 5\n    leaders: 1\n"),
    ],
)
def test_leaders_travel_through_every_export(catalogs, fmt, written):
    report = lists.check_text(MARINES + "    leaders: 1\n  - unit: Colony Militia\n    count: 2\n", catalogs)
    exported = sharing.export_list(report, fmt)
    assert written in exported
    if fmt != "yaml":
        back = sharing.import_list(exported, catalogs)
        entries = "  - unit: Colonial Marine\n    count: 5\n    leaders: 1\n  - unit: Colony Militia\n    count: 2\n"
        assert back.endswith(entries)


def test_a_text_export_marks_some_or_all_leaders(catalogs):
    system = catalogs.get("deathmelt")
    assert leader_mark(system, 5, 5) == "(leader)"
    assert leader_mark(system, 5, 1) == "(1 leader)"
    assert leader_mark(system, 5, 2) == "(2 leaders)"


def test_a_text_import_refuses_more_leaders_than_models(cli, tmp_path):
    post = tmp_path / "post.txt"
    post.write_text(
        "Squad\nDeathmelt (deathmelt): 5 of 12 figures, legal\n\n5x Colonial Marine (6 leaders) - 5 figures\n"
    )
    result = cli("import", post)
    assert result.exit_code == 2 and "6 leaders in an entry of 5" in result.stderr and "line 4" in result.stderr


def test_diff_says_the_leaders_changed(cli, write_list):
    old = write_list(MARINES + "    leader: true\n")
    new = write_list(MARINES + "    leaders: 1\n")
    result = cli("diff", old, new)
    assert result.exit_code == 0
    assert "  ~ Colonial Marine leaders 5 → 1\n" in result.stdout


def test_the_api_sets_leaders_of_an_entry(tmp_path, catalogs):
    folder = tmp_path
    (folder / "squad.yaml").write_text(MARINES + "    leader: true  # all of them\n")
    done = folders.change_list(folder, "squad.yaml", catalogs, editing.SetLeaders(index=0, leaders=1))
    assert done.state.rows[0].leaders == 1 and not done.state.rows[0].leader
    assert (folder / "squad.yaml").read_text().endswith("    leaders: 1  # all of them\n")
    folders.change_list(folder, "squad.yaml", catalogs, editing.SetLeaders(index=0, leaders=5))
    assert (folder / "squad.yaml").read_text().endswith("    leader: true  # all of them\n")
    folders.change_list(folder, "squad.yaml", catalogs, editing.SetLeaders(index=0, leaders=0))
    assert (folder / "squad.yaml").read_text().endswith("    leader: false  # all of them\n")
    with pytest.raises(InputError, match="6 leaders is more than the entry's count of 5"):
        folders.change_list(folder, "squad.yaml", catalogs, editing.SetLeaders(index=0, leaders=6))


def test_the_editor_schema_knows_leaders(catalogs):
    from listbuilder.share.editorschema import list_schema

    schema = list_schema(catalogs.get("deathmelt"))
    catalog_entry, custom_entry = schema["properties"]["units"]["items"]["oneOf"]
    for entry in (catalog_entry, custom_entry):
        assert entry["properties"]["leaders"]["minimum"] == 0
        assert entry["properties"]["leaders"]["type"] == "integer"
        assert entry["not"] == {"required": ["leader", "leaders"]}
    assert "Exactly one figure in the force is its Leader." in catalog_entry["properties"]["leaders"]["description"]
    json.dumps(schema)


def test_removing_models_never_leaves_more_leaders_than_models(cli, write_list):
    # one in ten (source 003, line 35) is not the point here: the edit must read back
    path = write_list(
        "system: speed-range-power\nname: Spears\npoints: 1000\nunits:\n"
        "  - unit: Sumerian Spearman\n    count: 3\n    leaders: 2\n"
    )
    result = cli("remove", path, "Sumerian Spearman", "--count", "2")
    assert result.exit_code == 0, result.stderr
    assert path.read_text().endswith("  - unit: Sumerian Spearman\n    count: 1\n    leader: true\n")


def test_a_statline_and_a_leader_change_name_the_unit_once(cli):
    # source 003: Speed is a multiple of 3 (line 43); 9 models allow no leader (line 35)
    out = cli("fix", ROOT / "examples" / "speed-range-power-home-brew.illegal.yaml").stdout
    assert out.splitlines()[1].startswith('  1. Scout: Speed 7" → 6" (-1 point each), unmark the leader, ')


def test_leader_true_where_no_rule_counts_leaders_is_warned_with_the_rule_sets_that_have_them(cli, write_list):
    path = write_list(
        """\
        system: might-skirmish
        name: Bosses
        units:
          - unit: Hunter
            leader: true
        """
    )
    result = cli("validate", path)
    assert result.exit_code == 0  # a warning: the list is still legal
    assert (
        "warning line 4, #1 Hunter: might-skirmish has no leaders, so 'leader: true' changes nothing; "
        "rule sets with leaders: deathmelt, speed-range-power" in result.stdout
    )
    assert cli("validate", "--strict", path).exit_code == 1


def test_leader_true_where_leaders_count_is_not_warned(cli):
    result = cli("validate", EXAMPLES / "speed-range-power-sumerians.legal.yaml")
    assert result.exit_code == 0 and "changes nothing" not in result.stdout

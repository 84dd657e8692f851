"""A custom unit edited after it is added (``ReplaceCustom``), and the custom unit form's loadout.

The deathzap loadout rule pinned here is the list format's (each rule set declares it as a
ruling, catalogs/deathzap/system.yaml): each counted weapon is carried by that many figures, and
the counts add up to the unit's figures. The numbers are the examples' own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from listbuilder.api import editing, folders, lists
from listbuilder.errors import InputError
from listbuilder.web.forms import change_of, fields_of, stats_of

LIST = """\
system: deathzap
name: Volunteers
figures: 30
units:
  - unit: Ranger Squad   # two squads
    count: 2
  - name: Colony Volunteers       # a custom unit
    count: 2
    leaders: 1
    figures: 4
    type: Infantry
    weapons: [Rifle]
    notes: |
      Farmers with
      rifles.
  - unit: Hover Tank
"""
VOLUNTEERS = {"name": "Colony Volunteers", "figures": 4, "type": "Infantry"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "v.yaml").write_text(LIST, encoding="utf-8")
    return tmp_path


def _units(folder: Path) -> list[dict[str, object]]:
    data = yaml.safe_load((folder / "v.yaml").read_text(encoding="utf-8"))
    units: list[dict[str, object]] = data["units"]
    return units


def test_an_edited_custom_unit_stays_where_it_is_with_its_count_leaders_and_notes(folder, catalogs):
    mixed = [{"weapon": "Rifle", "figures": 3}, {"weapon": "Repeater", "figures": 1}]
    done = folders.change_list(
        folder, "v.yaml", catalogs, editing.ReplaceCustom(index=1, stats={**VOLUNTEERS, "weapons": mixed})
    )
    assert done.done == "changed Colony Volunteers" and done.entry == 1
    text = (folder / "v.yaml").read_text(encoding="utf-8")
    assert "  - unit: Ranger Squad   # two squads\n" in text and text.endswith("  - unit: Hover Tank\n")
    assert (
        "  - name: Colony Volunteers\n    count: 2\n    leaders: 1\n"
        "    notes: |\n      Farmers with\n      rifles.\n    figures: 4\n    type: Infantry\n"
        "    weapons: [{weapon: Rifle, figures: 3}, {weapon: Repeater, figures: 1}]\n"
    ) in text
    units = _units(folder)
    assert [u.get("unit") or u.get("name") for u in units] == ["Ranger Squad", "Colony Volunteers", "Hover Tank"]
    assert units[1]["weapons"] == mixed and units[1]["notes"] == "Farmers with\nrifles.\n"
    state = folders.list_state(folder, "v.yaml", catalogs)
    row = state.rows[1]
    assert (row.name, row.count, row.leaders, row.custom) == ("Colony Volunteers", 2, 1, True)


def test_an_edit_is_undone_and_redone_byte_for_byte(folder, catalogs):
    before = (folder / "v.yaml").read_bytes()
    folders.change_list(
        folder, "v.yaml", catalogs, editing.ReplaceCustom(index=1, stats={**VOLUNTEERS, "name": "Militia"})
    )
    after = (folder / "v.yaml").read_bytes()
    assert b"  - name: Militia\n" in after and b"Colony Volunteers" not in after
    folders.change_list(folder, "v.yaml", catalogs, editing.Undo())
    assert (folder / "v.yaml").read_bytes() == before
    folders.change_list(folder, "v.yaml", catalogs, editing.Redo())
    assert (folder / "v.yaml").read_bytes() == after


def test_a_renamed_unit_says_both_names_and_a_stat_left_out_is_left_out(folder, catalogs):
    done = folders.change_list(
        folder, "v.yaml", catalogs, editing.ReplaceCustom(index=1, stats={**VOLUNTEERS, "name": "X"})
    )
    assert done.done == "changed Colony Volunteers into X"
    assert "weapons" not in _units(folder)[1]  # the form sent no weapons: the rule set's default holds


def test_an_edit_in_a_flow_list_stays_in_flow_style(catalogs):
    text = "system: deathzap\nname: F\nfigures: 30\nunits: [{unit: Hover Tank}, {name: V, figures: 2, type: Infantry}]"
    text += "\n"
    stats = {"name": "W", "figures": 2, "type": "Infantry", "weapons": ["Rifle"]}
    result = editing.apply_to_text(text, catalogs, editing.ReplaceCustom(index=1, stats=stats))
    assert result.text == (
        "system: deathzap\nname: F\nfigures: 30\n"
        "units: [{unit: Hover Tank}, {name: W, figures: 2, type: Infantry, weapons: [Rifle]}]\n"
    )


def test_the_last_entry_of_a_text_without_a_final_newline_keeps_none(catalogs):
    text = "system: deathzap\nname: F\nfigures: 30\nunits:\n  - name: V\n    figures: 2\n    type: Infantry"
    result = editing.apply_to_text(text, catalogs, editing.ReplaceCustom(index=0, stats={**VOLUNTEERS, "figures": 3}))
    assert result.text.endswith("  - name: Colony Volunteers\n    figures: 3\n    type: Infantry")


@pytest.mark.parametrize(
    ("index", "stats", "words"),
    [
        (0, VOLUNTEERS, "entry 1 (Ranger Squad) is a catalog unit, not a custom one"),
        (3, VOLUNTEERS, "the list has no entry 3"),
        (-1, VOLUNTEERS, "the list has no entry -1"),
        (1, {**VOLUNTEERS, "name": " "}, "a custom unit needs a name"),
        (1, {**VOLUNTEERS, "armour": 2}, "deathzap has no stat 'armour'"),
        (1, {**VOLUNTEERS, "weapons": ["Laser"]}, "unknown weapons 'Laser'"),
        # 4 figures (VOLUNTEERS): 5 + 1 = 6 figures carry a weapon
        (
            1,
            {**VOLUNTEERS, "weapons": [{"weapon": "Rifle", "figures": 5}, {"weapon": "Repeater", "figures": 1}]},
            "the unit has 4 figures, but its weapons are carried by 5x Rifle + 1x Repeater = 6",
        ),
        (1, {**VOLUNTEERS, "weapons": [{"weapon": "Rifle", "figures": -1}]}, "must be a whole number of at least 1"),
        (1, {**VOLUNTEERS, "weapons": [{"weapon": "Rifle", "figures": True}]}, "cannot be {'weapon': 'Rifle'"),
    ],
)
def test_a_bad_edit_is_refused_and_nothing_is_written(folder, catalogs, index, stats, words):
    before = (folder / "v.yaml").read_bytes()
    with pytest.raises(InputError) as raised:
        folders.change_list(folder, "v.yaml", catalogs, editing.ReplaceCustom(index=index, stats=stats))
    assert words in raised.value.render()
    assert (folder / "v.yaml").read_bytes() == before
    assert folders.list_state(folder, "v.yaml", catalogs).undo == 0


def test_a_replace_change_of_the_wrong_kinds_is_refused_by_its_fields(folder, catalogs):
    with pytest.raises(InputError, match="the field 'stats' must be a mapping"):
        folders.change_list(folder, "v.yaml", catalogs, editing.ReplaceCustom(index=1, stats=["name"]))  # type: ignore[arg-type]


# --- the form ---------------------------------------------------------------------------------


def _system(catalogs):
    return catalogs.get("deathzap")


def test_a_weapon_ticked_with_no_count_is_carried_by_every_figure(catalogs):
    system = _system(catalogs)
    plain = {"name": ["V"], "figures": ["4"], "type": ["Infantry"], "weapons": ["", "Rifle", "Repeater"]}
    assert stats_of(system, plain)["weapons"] == ["Rifle", "Repeater"]  # no counts: every figure has both
    mixed = {**plain, "weapons:Rifle": ["3"], "weapons:Repeater": [""]}
    assert stats_of(system, mixed)["weapons"] == [
        {"weapon": "Rifle", "figures": 3},
        {"weapon": "Repeater", "figures": 4},  # ticked, no count: every one of the 4 figures
    ]
    counted_only = {**plain, "weapons": [""], "weapons:Medium Repeater": ["1"], "weapons:Rifle": ["3"]}
    assert stats_of(system, counted_only)["weapons"] == [
        {"weapon": "Medium Repeater", "figures": 1},
        {"weapon": "Rifle", "figures": 3},
    ]


def test_counts_that_do_not_add_up_are_priced_with_the_engines_words(catalogs):
    system = _system(catalogs)
    fields = {"name": ["V"], "figures": ["4"], "type": ["Infantry"], "weapons": ["Rifle", "Repeater"]}
    # 3 + 4 (the Repeater ticked with no count: every figure) = 7 of 4 figures
    with pytest.raises(InputError) as raised:
        lists.price(system, stats_of(system, {**fields, "weapons:Rifle": ["3"]}))
    assert "the unit has 4 figures, but its weapons are carried by 3x Rifle + 4x Repeater = 7" in raised.value.render()
    assert lists.price(system, stats_of(system, {**fields, "weapons:Rifle": ["3"], "weapons:Repeater": ["1"]})).unit


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"weapons:Rifle": ["three"]}, "the figures carrying Rifle must be a whole number, found 'three'"),
        ({"weapons:Rifle": ["-2"]}, "must be a whole number of at least 1, found the number -2"),
        ({"weapons:Rifle": ["9"]}, "the unit has 4 figures, but its weapons are carried by 9x Rifle = 9"),
        ({"weapons:Laser": ["4"]}, "unknown weapons 'Laser'"),  # a tampered form
        ({"weapons": ["Laser"]}, "unknown weapons 'Laser'"),
    ],
)
def test_a_bad_loadout_on_the_form_is_a_clear_error(catalogs, extra, words):
    system = _system(catalogs)
    fields = {"name": ["V"], "figures": ["4"], "type": ["Infantry"], "weapons": [""], **extra}
    with pytest.raises(InputError) as raised:
        lists.price(system, stats_of(system, fields))
    assert words in raised.value.render()


def test_a_rule_set_without_figure_counts_takes_no_count(catalogs):
    system = catalogs.get("speed-range-power")
    fields = {"speed": ["6"], "range": ["24"], "power": ["2"], "traits": [""], "traits:Scout": ["2"]}
    assert stats_of(system, fields)["traits"] == []  # no such field on its form: a tampered one is not read


def test_the_form_is_filled_from_an_entry_and_reads_back_as_it(catalogs):
    system = _system(catalogs)
    team = system.find_unit("Ranger Fire Team")
    fields = fields_of(system, team)
    assert fields["weapons"] == ["Rifle", "Medium Repeater"]
    assert (fields["weapons:Rifle"], fields["weapons:Medium Repeater"], fields["figures"]) == (["4"], ["1"], ["5"])
    stats = stats_of(system, fields)
    assert stats["weapons"] == [{"weapon": "Rifle", "figures": 4}, {"weapon": "Medium Repeater", "figures": 1}]
    assert lists.price(system, stats).unit.stats == team.stats


def test_a_replace_form_names_its_entry(catalogs):
    system = _system(catalogs)
    fields = {"change": ["replace"], "index": ["1"], "name": ["V"], "figures": ["4"], "type": ["Infantry"]}
    assert change_of(fields, lambda: system) == editing.ReplaceCustom(
        index=1, stats={"name": "V", "figures": 4, "type": "Infantry"}
    )
    with pytest.raises(InputError, match="a 'replace' change needs 'index'"):
        change_of({**fields, "index": [""]}, lambda: system)
    with pytest.raises(InputError, match="the entry must be a whole number, found 'one'"):
        change_of({**fields, "index": ["one"]}, lambda: system)

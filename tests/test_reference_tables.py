"""The rules cards' tables, pinned cell by cell to the rule sets' source texts.

Every expected value is written out here, with a comment naming the line of the source text that
gives it (the same lines the reference files cite in their ``source:`` fields), so these tests
need no copy of the texts. melee-module's text is a single line: its comments name the part.
"""

from __future__ import annotations

import string

import pytest

from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.reference import ReferenceFile, Table, load_reference

SYSTEMS = ("deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power")


@pytest.fixture(scope="module")
def refs() -> dict[str, ReferenceFile]:
    catalogs = Catalogs()
    return {system_id: load_reference(catalogs.get(system_id)) for system_id in SYSTEMS}


def table(ref: ReferenceFile, table_id: str) -> Table:
    found = [t for t in ref.tables if t.id == table_id]
    assert len(found) == 1, f"expected one table '{table_id}', found {len(found)}"
    return found[0]


def cells(ref: ReferenceFile, table_id: str) -> list[list[str]]:
    t = table(ref, table_id)
    return [list(t.columns), *(list(row) for row in t.rows)]


# --- every reference file ---------------------------------------------------------------------


def test_every_shipped_rule_set_has_a_reference_file():
    catalogs = Catalogs()
    assert set(SYSTEMS) <= set(catalogs.ids())
    for system in catalogs.all():
        assert (system.folder / "reference.yaml").is_file(), system.id


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_reference_file_loads_and_cites_its_sources(system_id):
    ref = load_reference(Catalogs().get(system_id))
    assert ref.turn.phases
    assert ref.tables
    for phase in ref.turn.phases:
        assert phase.summary and phase.source, phase.name
    for t in ref.tables:
        assert t.title and t.source, t.id
        if t.given:
            assert t.columns and t.rows, t.id
        else:
            assert not t.rows, t.id
    for rule in ref.rules:
        assert rule.text and rule.source, rule.id
    ids = [t.id for t in ref.tables] + [r.id for r in ref.rules]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_filtered_tables_name_their_rows_by_stat_values(system_id):
    # filter_rows keeps a row when a unit has its first cell as a value, so each first cell must be one
    system = Catalogs().get(system_id)
    ref = load_reference(system)
    for t in ref.tables:
        if t.filter_rows:
            assert t.uses is not None
            names = {c.name for c in system.definition.stats[t.uses.stat].choices}
            assert {row[0] for row in t.rows} <= names, t.id


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_column_template_reads_a_property_the_choices_have(system_id):
    system = Catalogs().get(system_id)
    ref = load_reference(system)
    for column in ref.columns:
        choices = system.definition.stats[column.stat].choices
        for _, field, _, _ in string.Formatter().parse(column.show):
            if field is None or field in ("name", "summary"):
                continue
            assert any(field in c.properties for c in choices), (column.label, field)


# --- might-skirmish ---------------------------------------------------------------------------


def test_might_skirmish_attack_check(refs):
    t = table(refs["might-skirmish"], "attack-check")
    # line 29: | 18/16 | 17/15 | 16/14 | 15/13 | 14/12 | 13/11 | 12/10 |: kill / stun (lines 31-33)
    assert [list(row) for row in t.rows] == [
        ["Kill on", "18", "17", "16", "15", "14", "13", "12"],
        ["Stun on", "16", "15", "14", "13", "12", "11", "10"],
    ]
    # line 28: | </=1/4 | </=1/2 | < | = | > | >/=2x | >/=4x |, the attacker's Might against the target's;
    # the headings are worded for the card, so only the band each one names is pinned
    bands = [("¼",), ("½",), ("less",), ("equal",), ("more", "greater"), ("2×",), ("4×",)]
    assert len(t.columns) == 1 + len(bands)
    for heading, band in zip(t.columns[1:], bands, strict=True):
        assert any(word in heading for word in band), (heading, band)
    assert "¼" not in t.columns[2] and "2×" not in t.columns[7]


def test_might_skirmish_turn_and_play_aids(refs):
    ref = refs["might-skirmish"]
    assert [p.name for p in ref.turn.phases] == ["Restock", "Activations", "Morale"]
    assert ref.play_aids.turns == 5  # line 46
    # line 16: 10 Fate tokens each at the start; line 46: the points of enemy fighters killed decide
    assert [(t.label, t.start) for t in ref.play_aids.tracks] == [("Fate tokens", 10), ("Enemy points killed", 0)]
    assert [m.label for m in ref.play_aids.all_markers] == ["Stunned", "Dead", "Defending"]  # lines 32-33, 39


# --- deathzap ---------------------------------------------------------------------------------

DEATHZAP_DAMAGE = [
    ["Roll", "Result", "Effect"],
    ["1", "No Effect", "hit, but nothing lasting"],  # line 18
    ["2-3", "Immobilised", "may not move again this battle"],  # line 19
    ["4-5", "Killed", "removed"],  # line 20
    ["6", "Explodes", 'killed, and every unit within D6" suffers D6 hits'],  # line 21
]


def test_deathzap_weapons(refs):
    assert cells(refs["deathzap"], "weapons") == [
        ["Weapon", "Range", "Shots"],  # line 3
        ["Rifle", '24"', "1"],  # line 4
        ["Repeater", '12"', "2"],  # line 5
        ["Medium Repeater", '24"', "6"],  # line 6
        ["Heavy Repeater", '36"', "6"],  # line 7
        ["Destroyer", '36"', "3"],  # line 8
        ["Vehicle Destroyer", '48"', "3"],  # line 9
    ]
    assert "6" in table(refs["deathzap"], "weapons").summary  # line 10: a hit on a 6, whatever the weapon


def test_deathzap_hits_to_casualty(refs):
    assert cells(refs["deathzap"], "hits-to-casualty") == [
        ["Target", "In the Open", "Soft Cover", "Hard Cover"],  # line 11
        ["Infantry", "1", "2", "3"],  # line 12 ("Infantry, Beasts": one printed row, two types)
        ["Beasts", "1", "2", "3"],  # line 12
        ["Light Vehicles", "1", "2", "3"],  # line 13
        ["Monsters", "2", "3", "4"],  # line 14
        ["Heavy Vehicles", "2", "3", "4"],  # line 15
    ]


def test_deathzap_damage_table(refs):
    assert cells(refs["deathzap"], "damage") == DEATHZAP_DAMAGE  # lines 17-21


def test_deathzap_melee_table(refs):
    assert cells(refs["deathzap"], "melee") == [
        ["Figure", "Combat Dice", "Casualty"],  # line 25
        ["Infantry", "1", "1"],  # line 26
        ["Beasts", "2", "1"],  # line 27
        ["Light Vehicles", "3", "3"],  # line 28 ("Light Vehicle")
        ["Monsters", "12", "4"],  # line 29 ("Monster")
        ["Heavy Vehicles", "4", "4"],  # line 30 ("Heavy Vehicle")
    ]


def test_deathzap_sheet_prints_only_what_a_list_uses(refs):
    ref = refs["deathzap"]
    weapons = table(ref, "weapons")
    assert weapons.filter_rows and weapons.uses is not None and weapons.uses.stat == "weapons"
    # Targets are the enemy's units: tables looked up by the target's type keep every row.
    for table_id in ("hits-to-casualty", "melee"):
        assert not table(ref, table_id).filter_rows
    # line 16: only vehicles and monsters roll for damage
    assert table(ref, "damage").uses.any_of == ("Light Vehicles", "Monsters", "Heavy Vehicles")


def test_deathzap_turn_is_what_the_text_implies(refs):
    turn = refs["deathzap"].turn
    assert [p.name for p in turn.phases] == ["Shooting", "Melee", "End of turn"]  # lines 2, 22, 23
    assert "only" in turn.note  # the text gives no fuller turn
    assert refs["deathzap"].play_aids.turns is None


# --- deathmelt --------------------------------------------------------------------------------


@pytest.mark.parametrize("table_id", ["to-hit", "penetration"])
def test_deathmelt_missing_tables_are_not_given(refs, table_id):
    # lines 49-53 refer to a hit table and a penetration roll that the text does not give (ruling 4)
    t = table(refs["deathmelt"], table_id)
    assert t.given is False
    assert t.rows == ()
    assert t.columns == ()
    assert "does not give" in t.summary


def test_deathmelt_turn_sequence(refs):
    ref = refs["deathmelt"]
    phases = ["Impetus", "Hunker Down", "Movement", "Shooting", "Melee", "Morale"]  # lines 27-99
    assert [p.name for p in ref.turn.phases] == phases
    assert '6"' in ref.turn.note  # line 19: deploy within 6" of your edge
    assert ref.play_aids.turns == 5  # line 21


def test_deathmelt_armour_save(refs):
    assert cells(refs["deathmelt"], "armour-save") == [
        ["Armour compared with Danger tokens", "Save"],
        ["2× or more", "2+"],  # line 59
        ["larger, but less than 2×", "3+"],  # line 61
        ["equal", "4+"],  # line 63
        ["less, but more than ½", "5+"],  # line 65
        ["½ or less", "6+"],  # line 67
    ]
    assert "6" in table(refs["deathmelt"], "armour-save").summary  # line 69: a save of 6 also panics


def test_deathmelt_melee_success(refs):
    assert cells(refs["deathmelt"], "melee-success") == [
        ["Training", "Success on"],
        ["Elite", "3+"],  # line 79
        ["Regular", "4+"],  # line 79
        ["Basic", "5+"],  # line 79
        ["Any panicked or hunkered down", "6+"],  # line 79
    ]


def test_deathmelt_attacks(refs):
    t = table(refs["deathmelt"], "attacks")
    assert cells(refs["deathmelt"], "attacks") == [
        ["Type", "Attacks"],  # line 83
        ["Infantry", "3"],  # line 85
        ["Beast", "5"],  # line 87
        ["Big Beast", "8"],  # line 89
        ["Light Vehicle", "5"],  # line 91
        ["Vehicle", "8"],  # line 93
        ["Monster", "12"],  # line 95
    ]
    # line 97: the 2nd opponent gains 1 attack, the 3rd 2, the 4th 3, and so on
    for extra in ("2nd gets +1", "3rd +2", "4th +3"):
        assert extra in t.summary


def test_deathmelt_movement(refs):
    assert cells(refs["deathmelt"], "movement") == [
        ["Type", "Move"],
        ["Infantry", '9"'],  # line 37: Infantry, Monsters and Vehicles 9"
        ["Beast", '12"'],  # line 37: Light Vehicles, Beasts and Big Beasts 12"
        ["Big Beast", '12"'],
        ["Light Vehicle", '12"'],
        ["Vehicle", '9"'],
        ["Monster", '9"'],
    ]


def test_deathmelt_rally(refs):
    assert cells(refs["deathmelt"], "rally") == [
        ["Training", "Rallies on"],
        ["Basic", "5+"],  # line 101
        ["Regular", "4+"],  # line 101
        ["Elite", "3+"],  # line 101
    ]


def test_deathmelt_objectives(refs):
    ref = refs["deathmelt"]
    assert cells(ref, "objectives-1") == [
        ["Roll", "Objective", "Victory points"],  # line 109
        ["1-2", "Assassinate", "3VP: kill the enemy Leader"],  # lines 111-113
        # lines 115-117
        ["3-4", "Hard Hitters", "3VP: be first to kill half the enemy force (vehicle or monster = 3 figures)"],
        ["5-6", "Extermination", "1VP per 3 enemy casualties or per vehicle or monster"],  # lines 119-121
    ]
    assert cells(ref, "objectives-2") == [
        ["Roll", "Objective", "Victory points"],  # line 123
        ["1-2", "Hold", "1VP per board quarter with your figures in it at the end"],  # lines 125-127
        ["3-4", "Push", "3VP: your Leader in the enemy deployment zone at the end"],  # lines 129-131
        # lines 133-135
        [
            "5-6",
            "MacGuffin",
            "3VP: the centre counter held in your deployment zone at the end (it moves with any figure touching it)",
        ],
    ]


def test_deathmelt_damage_table_is_the_deathzap_one(refs):
    # deathmelt line 71 names the table; its values are deathzap lines 17-21 (ruling 5)
    t = table(refs["deathmelt"], "damage")
    assert cells(refs["deathmelt"], "damage") == DEATHZAP_DAMAGE
    assert "Deathzap" in t.summary and "Deathzap" in t.source
    assert t.uses is not None and t.uses.any_of == ("Vehicle", "Monster")


# --- melee-module -----------------------------------------------------------------------------


def test_melee_module_results(refs):
    assert cells(refs["melee-module"], "results") == [
        ["Situation", "Result"],
        ["1-on-1 with a winner", "loser killed"],  # line 1 (Basic procedure)
        ["1-on-1 with a tie", "both killed"],  # printed "1 -on-1 with a tie"
        ["2-on-1, single figure beats enemy total", "both enemies killed"],
        ["2-on-1, single figure ties enemy total", "all three killed"],
        ["2-on-1, single figure less than enemy total, but ties or beats one", "one each killed"],
        ["2-on-1, single figure less than either enemy", "single figure killed"],
    ]


def test_melee_module_modifiers(refs):
    rows = [(row[0], row[1], row[2]) for row in table(refs["melee-module"], "modifiers").rows]
    assert rows == [
        # line 1 (Modifiers)
        ("Elite melee units (rangers, FFL, Indians, grenadiers, highlanders, etc.)", "+1", "every round"),
        ("Leaders", "+1", "every round"),
        ("Cavalry", "+2", "first round"),
        ("Figures defending a wall, building, or from uphill", "+1", "every round"),
        ("Certain troops (Zulus)", "+1", "first round, when they charge"),
    ]


def test_melee_module_procedure_and_who_won(refs):
    ref = refs["melee-module"]
    # line 1 (Basic procedure; Who really won?)
    assert [p.name for p in ref.turn.phases] == ["Pair off", "Roll", "Apply results", "Who won"]
    assert "1D6" in ref.turn.phases[1].summary
    who_won = next(r for r in ref.rules if r.id == "who-won")
    assert 'back 6"' in who_won.text  # line 1 (Who really won?)
    assert '3"' in who_won.text  # line 1 (introduction): 3" at smaller scales
    assert "tie" in who_won.text
    assert ref.play_aids.turns is None


# --- speed-range-power ------------------------------------------------------------------------


def test_speed_range_power_movement(refs):
    assert cells(refs["speed-range-power"], "movement") == [
        ["Terrain", "Cost"],
        ["Obstacle (low wall or hedge)", '1" to cross'],  # line 17
        ["Rough terrain", 'double: each 1" moved costs 2"'],  # line 18
    ]


def test_speed_range_power_combat(refs):
    assert cells(refs["speed-range-power"], "combat") == [
        ["Rule", "Value"],
        ["Dice", "1 per point of Power"],  # line 23
        ["Success", "4+"],  # line 23
        ["Each natural 6", "roll another die"],  # line 23
        ["Tie", "attacker wins"],  # line 26
        ["Each further fight in one turn", "-1 Power"],  # line 27
        ["Lowest Power in own turn", "0"],  # line 27
        ["Lowest Power in opponent's turn", "1"],  # line 27
    ]


def test_speed_range_power_cover_and_morale(refs):
    ref = refs["speed-range-power"]
    assert cells(ref, "cover") == [["Cover", "Save"], ["Soft cover", "5+"], ["Hard cover", "4+"]]  # line 30
    assert cells(ref, "morale") == [
        ["Model", "Stays on"],
        ["Any model", "3+"],  # line 33: 3+ unaffected, 1 or 2 removed
        ['Within 6" of a leader', "2+"],  # line 35
    ]


def test_speed_range_power_modifiers(refs):
    assert cells(refs["speed-range-power"], "modifiers") == [
        ["Trait", "When", "Modifier"],
        ["Big Guns and Slow Reloads", "first combat in a turn", "+1"],  # line 37
        ["Big Guns and Slow Reloads", "each later combat that turn", "-1"],  # line 37
        ["Attacker", "own turn", "+1"],  # line 39
        ["Attacker", "opponent's turn", "-1"],  # line 39
        ["Defender", "own turn", "-1"],  # line 39
        ["Defender", "opponent's turn", "+1"],  # line 39
    ]


def test_speed_range_power_points(refs):
    assert cells(refs["speed-range-power"], "points") == [
        ["Stat", "Cost", "Allowed values"],
        ["Speed", '1 point per 1"', "multiples of 3, 0 allowed"],  # line 43
        ["Range", '2 points per 3"', "multiples of 3, 0 = base contact"],  # line 44
        ["Power", "4 points per point", "minimum 1"],  # line 45
    ]
    assert "1000pts" in table(refs["speed-range-power"], "points").summary  # line 41


def test_speed_range_power_worked_examples(refs):
    rows = cells(refs["speed-range-power"], "worked-examples")
    assert rows == [
        ["Model", "Speed", "Range", "Power", "Points"],
        ["WW2 Officer (Leader)", '6"', '6"', "3", "22"],  # line 47
        ["WW2 Soldier", '6"', '24"', "2", "30"],  # line 48: 6+16+8
        ["T34 Tank", '9"', '48"', "10", "81"],  # line 49: 9+32+40
        ["Medieval Knight", '6"', '0"', "4", "22"],  # line 50: 6+0+16
    ]
    for _, speed, range_, power, points in rows[1:]:  # lines 43-45: Speed + 2 per 3" of Range + 4 per Power
        assert int(speed[:-1]) + 2 * (int(range_[:-1]) // 3) + 4 * int(power) == int(points)


def test_speed_range_power_turn_and_play_aids(refs):
    ref = refs["speed-range-power"]
    assert [p.name for p in ref.turn.phases] == ["Morale", "Move", "Attack"]  # lines 14 and 33
    assert ref.play_aids.turns is None  # the text sets no game length
    markers = {m.label: m for m in ref.play_aids.all_markers}
    assert markers["Casualty"].kind == "toggle"

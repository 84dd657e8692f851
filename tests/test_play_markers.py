"""Each rule set's markers, scores, turn track and set-up rolls, as declared once in its reference
file, checked against the rule texts; and the printed roster drawing them."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import build_report
from listbuilder.files.yamldoc import load_yaml
from listbuilder.play.board import board_of
from listbuilder.printing.pages import roster
from listbuilder.rules.reference import load_reference


def markers(catalogs, system_id):
    return {m.label: m for m in load_reference(catalogs.get(system_id)).play_aids.all_markers}


def aids(catalogs, system_id):
    return load_reference(catalogs.get(system_id)).play_aids


def board(catalogs, example):
    army, system = parse_list(load_yaml(EXAMPLES / example), catalogs)
    return board_of(build_report(army, system), example, "0" * 16)


def test_might_skirmish_markers(catalogs):
    m = markers(catalogs, "might-skirmish")
    assert list(m) == ["Stunned", "Dead", "Defending"]  # 004 lines 32-33: the two results of an attack check
    assert m["Stunned"].kind == "toggle" and m["Stunned"].clears is None  # line 41: removed on a 5+, not by the turn
    assert m["Dead"].out  # line 32: "Immediately remove them from play"


def test_might_skirmish_scores_turns_and_rolls(catalogs):
    a = aids(catalogs, "might-skirmish")
    assert a.turns == 5  # 004 line 46: until both players have had 5 turns each
    fate, killed = a.tracks
    assert (fate.label, fate.start, fate.capped) == ("Fate tokens", 10, False)  # line 16: 10 each; line 21: more
    assert killed.label == "Enemy points killed" and killed.start == 0  # line 46: most points of enemy killed wins
    assert [r.id for r in a.rolls] == ["deployment", "first"]  # lines 12 and 14
    assert a.rolls[1].kind == "roll-off"  # line 14: both roll, the higher chooses


def test_deathmelt_danger_is_a_count_per_figure(catalogs):
    m = markers(catalogs, "deathmelt")
    # 000 line 53: each penetrating hit gives a Danger token; line 55: the save compares their number
    # with Armour; line 69: a passed save keeps them. One box per figure cannot hold that.
    assert (m["Danger"].kind, m["Danger"].per, m["Danger"].maximum) == ("count", "model", None)
    assert m["Danger"].clears is None  # line 33: only hunkering down drops them
    assert m["Panicked"].kind == "toggle" and m["Casualty"].out  # lines 69 and 71
    assert m["Immobilised"].uses.any_of == ("Vehicle", "Monster")  # line 71: only they roll for damage


def test_deathmelt_turns_and_rolls(catalogs):
    a = aids(catalogs, "deathmelt")
    assert a.turns == 5  # 000 line 21: the game ends at the end of the 5th turn
    assert [t.label for t in a.tracks] == ["Victory points"]  # line 107
    assert {r.id: r.kind for r in a.rolls} == {
        "first": "roll-off",  # line 19: the higher roller deploys first
        "impetus": "roll-off",  # line 29
        "objectives-1": "table",  # lines 109-121
        "objectives-2": "table",  # lines 123-135
    }


def test_speed_range_power_fought_is_a_count_cleared_each_turn(catalogs):
    m = markers(catalogs, "speed-range-power")
    # 003 line 27: each further fight in a single turn lowers Power by 1, whoever's turn it is
    assert (m["Fought"].kind, m["Fought"].clears, m["Fought"].maximum) == ("count", "turn", None)
    assert m["Casualty"].out  # line 25: the loser is killed
    assert aids(catalogs, "speed-range-power").turns is None  # lines 12-14 set no game length


def test_deathzap_tracks_units(catalogs):
    m = markers(catalogs, "deathzap")
    assert (m["Casualty"].per, m["Casualty"].maximum) == ("unit", "figures")  # 001 line 24: units of figures
    # line 22: hits short of a casualty stay, and go at the end of the turn; at most 3, since a
    # casualty takes at most 4 hits (lines 11-15)
    assert (m["Hits"].per, m["Hits"].maximum, m["Hits"].clears) == ("unit", 3, "turn")
    assert set(m["Immobilised"].uses.any_of) == {"Light Vehicles", "Monsters", "Heavy Vehicles"}  # lines 16-19
    assert m["Immobilised"].per == "unit"  # line 19: "the unit cannot move for the rest of the battle"


def test_melee_module_killed_counts_a_units_figures(catalogs):
    m = markers(catalogs, "melee-module")
    # 002 line 1: "Figures are dead, or they are alive; there is no wound result"
    assert next(iter(m)) == "Killed" and (m["Killed"].per, m["Killed"].maximum) == ("unit", "figures")


def test_the_board_numbers_copies_and_gives_each_its_controls(catalogs):
    b = board(catalogs, "might-skirmish-zombie-family.legal.yaml")
    keys = [p.key for p in b.pieces]
    assert keys[:3] == ["Hunter 1", "Hunter 2", "Shambler 1"] and "Grandpa Bones" in keys
    assert len(keys) == 14  # the example's 14 fighters
    assert [c.marker for c in b.piece("Hunter 1").controls] == ["Stunned", "Dead"]


def test_a_deathzap_unit_counts_casualties_up_to_its_figures(catalogs):
    b = board(catalogs, "deathzap-frontier-rangers.legal.yaml")
    squad = b.piece("Ranger Squad 1")
    assert squad.figures == 8
    assert squad.control("Casualty").maximum == 8 and squad.control("Hits").maximum == 3
    tank = b.piece("Hover Tank")
    assert tank.control("Immobilised").kind == "toggle"  # one figure: on or off
    buggies = b.piece("Scout Buggies")  # 001 line 19: "the unit cannot move": one marker for its two buggies
    assert buggies.control("Immobilised").kind == "toggle" and buggies.control("Immobilised").maximum == 1


@pytest.mark.parametrize(
    ("example", "name", "label", "rows", "tally"),
    [
        ("deathmelt-colonial-marines.legal.yaml", "Colonial Marine", "Danger", (6,), True),
        ("deathmelt-colonial-marines.legal.yaml", "Colonial Marine", "Panicked", (6,), False),
        ("speed-range-power-sumerians.legal.yaml", None, "Fought", None, True),
        ("deathzap-frontier-rangers.legal.yaml", "Ranger Squad", "Casualty", (8, 8), False),  # a row per unit
        ("deathzap-frontier-rangers.legal.yaml", "Ranger Squad", "Hits", (2,), True),  # a box per unit
    ],
)
def test_the_printed_roster_draws_each_marker_as_declared(catalogs, example, name, label, rows, tally):
    army, system = parse_list(load_yaml(EXAMPLES / example), catalogs)
    entries = roster(build_report(army, system)).entries
    entry = next(e for e in entries if name is None or e.name == name)
    printed = {m.label: m for m in entry.markers}[label]
    assert printed.tally is tally
    if rows is not None:
        assert printed.rows == rows


def test_leaders_n_leads_the_first_n_copies(catalogs, tmp_path):
    # 000 line 25: one figure of the force is the Leader; `leaders: 1` marks one of five marines
    path = tmp_path / "squad.yaml"
    path.write_text(
        "system: deathmelt\nname: Squad\nfigures: 12\nunits:\n"
        "  - unit: Colonial Marine\n    count: 5\n    leaders: 1\n",
        encoding="utf-8",
    )
    army, system = parse_list(load_yaml(path), catalogs)
    b = board_of(build_report(army, system), "squad.yaml", "0" * 16)
    assert [p.leader for p in b.pieces] == [True, False, False, False, False]


# --- issue 35: the states the texts track, each cleared when its text clears it ----------------


def test_deathmelt_hunkered_down_lasts_the_turn_and_drops_danger(catalogs):
    m = markers(catalogs, "deathmelt")["Hunkered down"]
    # 000 line 33: players "determine which of their figures will Hunker Down for the turn"; "a
    # figure that Hunkers Down immediately loses all Danger Tokens currently on them"
    assert (m.kind, m.per, m.clears, m.takes_off) == ("toggle", "model", "turn", ("Danger",))
    assert "only on 6s" in m.text and m.source == "lines 33 and 79"  # line 79: Hunkering Down Figures – 6+


def test_might_skirmish_defending_lasts_until_the_next_activation(catalogs):
    m = markers(catalogs, "might-skirmish")["Defending"]
    # 004 line 39: "Warriors, Berserkers, Monsters and Mechs can defend ... Might is doubled until
    # their next activation"
    assert (m.kind, m.clears) == ("toggle", "activation")
    assert (m.uses.stat, m.uses.any_of) == ("class", ("Warrior", "Berserker", "Monster", "Mech"))
    assert "doubled" in m.text and m.source == "line 39"
    b = board(catalogs, "might-skirmish-zombie-family.legal.yaml")
    assert [c.marker for c in b.piece("Hunter 1").controls] == ["Stunned", "Dead"]  # a Soldier cannot defend


def test_speed_range_power_cannot_attack_again_this_turn(catalogs):
    m = markers(catalogs, "speed-range-power")["No more attacks"]
    # 003 line 28: an attacker that fails to kill and survives "cannot attack again in the same turn"
    assert (m.kind, m.clears, m.source) == ("toggle", "turn", "line 28")


def test_melee_module_counts_rounds_per_melee_and_names_the_special_figure_killed(catalogs):
    m = markers(catalogs, "melee-module")
    a = aids(catalogs, "melee-module")
    # 002 line 1: a module plugged into other rules: it has no turns of its own, but counts the
    # rounds of each melee ("Cavalry adds 2 in the first round"; "stay locked in melee until
    # another round is fought")
    assert a.turn_track is False and a.turns is None
    assert (m["Melee round"].kind, m["Melee round"].per, m["Melee round"].clears) == ("count", "unit", None)
    assert (m["Locked in melee"].kind, m["Locked in melee"].per) == ("toggle", "unit")
    # "you must know exactly which figure becomes the casualty": leaders, colour bearers, heavy weapons
    labels = ("Leader killed", "Colour bearer killed", "Heavy weapons killed")
    specials = {label: m[label].uses.any_of for label in labels}
    assert specials == {
        "Leader killed": ("leader",),
        "Colour bearer killed": ("colour-bearer",),
        "Heavy weapons killed": ("heavy-weapons",),
    }
    b = board(catalogs, "melee-module-foreign-legion.legal.yaml")
    assert [c.marker for c in b.piece("Legion Machine Gun Section").controls] == [
        "Killed",
        "Melee round",
        "Locked in melee",
        "Leader killed",
        "Heavy weapons killed",
    ]


def test_every_roll_off_names_the_ruling_that_reads_its_tie(catalogs):
    # 000 lines 19 and 29, 004 line 14, 003 line 13: "the higher roller"; no text says what a tie does
    for system_id in ("deathmelt", "might-skirmish", "speed-range-power"):
        system = catalogs.get(system_id)
        rulings = {r.id: r for r in system.definition.rulings}
        for roll in aids(catalogs, system_id).rolls:
            if roll.kind == "roll-off":
                assert roll.tie == "roll again (ruling roll-off-ties)", (system_id, roll.id)
                assert "never says what a tie does" in rulings["roll-off-ties"].text, system_id


def test_the_printed_roster_draws_the_new_markers_with_when_they_clear(catalogs):
    army, system = parse_list(load_yaml(EXAMPLES / "deathmelt-colonial-marines.legal.yaml"), catalogs)
    marine = next(e for e in roster(build_report(army, system)).entries if e.name == "Colonial Marine")
    printed = {m.label: m for m in marine.markers}
    assert (printed["Hunkered down"].until, printed["Hunkered down"].rows) == ("turn", (6,))  # 000 line 33
    assert printed["Danger"].until == ""

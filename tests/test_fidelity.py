"""Rules fidelity: cards, rosters and small texts read line by line against the rule texts.

Each test names the source file and line it pins. The five texts are (rules README):
000_90b8217ce0486a35.txt deathmelt, 001_12a9f09e7f811521.txt deathzap, 002_c08fb3da789a03c0.txt
melee-module (one line), 003_841e0e7572fb3364.txt speed-range-power, 004_69e099058d769cc1.txt
might-skirmish.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from conftest import EXAMPLES, ROOT

from listbuilder.api.lists import check_list
from listbuilder.odds import OddsError, matchup
from listbuilder.odds.dice import cut_short
from listbuilder.printing import pages
from listbuilder.rules.formats import Unit
from listbuilder.rules.reference import derived, load_reference

README = (ROOT / "README.md").read_text(encoding="utf-8")


def roster_of(catalogs, name: str) -> pages.Roster:
    return pages.roster(check_list(EXAMPLES / name, catalogs))


def rule(catalogs, system_id: str, rule_id: str) -> str:
    (found,) = [r for r in load_reference(catalogs.get(system_id)).rules if r.id == rule_id]
    return found.text


# --- might-skirmish card: deployment, shrines, movement, base contact (004) ----------------


def test_might_skirmish_card_gives_deployment_by_die_roll_with_the_zone_depths(catalogs):
    (table,) = [t for t in load_reference(catalogs.get("might-skirmish")).tables if t.id == "deployment"]
    assert table.rows == (
        ("1-3", "Side to side", '6"'),  # 004 line 12: 6" when playing side to side, 1-3
        ("4-6", "Corner to corner", '11" from the corner (a quarter circle)'),  # 004 line 12
    )
    assert '24" x 24"' in table.summary  # 004 line 12
    assert "higher picks a zone" in table.summary and "placed first plays the first turn" in table.summary  # line 14
    assert table.source == "lines 12 and 14"


def test_might_skirmish_card_sets_up_five_shrines_6_inches_apart(catalogs):
    text = rule(catalogs, "might-skirmish", "shrines")
    # 004 line 13: five shrines, one in the centre, two per player, none within 6" of another
    assert "five shrines" in text and "one in the centre" in text and "two by each player" in text
    assert 'never within 6" of another shrine' in text
    assert 'within 3"' in text and "1 Fate token" in text  # 004 line 21


def test_might_skirmish_card_says_fighters_cannot_move_through_enemies(catalogs):
    text = rule(catalogs, "might-skirmish", "moving")
    assert "No fighter moves through an enemy fighter" in text  # 004 line 23
    assert '2D6"' in text and 'Beasts and Drones 3D6"' in text  # 004 line 23


def test_might_skirmish_card_says_a_fighter_in_base_contact_must_fight_in_melee(catalogs):
    text = rule(catalogs, "might-skirmish", "base-contact")
    assert "must make a melee attack" in text and "only a fighter out of contact may shoot" in text  # 004 line 25


def test_the_might_skirmish_card_prints_them(cli, tmp_path):
    out = tmp_path / "card.html"
    assert cli("card", "might-skirmish", "-o", out).exit_code == 0
    html = out.read_text(encoding="utf-8")
    for words in ("Deployment (D6)", "Corner to corner", "Shrines", "In base contact", "moves through an enemy"):
        assert words in html, words


# --- no invented numbers --------------------------------------------------------------------


def test_fate_gives_no_price_per_use_nor_a_size_of_modification(catalogs):
    text = rule(catalogs, "might-skirmish", "fate")
    # the only numbers the text gives for Fate: 10 tokens to start (004 line 16), at least 3 to
    # pass a failed morale check (004 line 45)
    assert sorted(set(re.findall(r"\d+", text))) == ["10", "3"]
    assert "Spend one" not in text and "neither how many tokens each use costs" in text
    (ruling,) = [r for r in catalogs.get("might-skirmish").definition.rulings if r.id == "fate-spending"]
    assert ruling.source == "lines 16-17" and "players agree them before the game" in ruling.text


def test_no_shipped_track_is_capped_where_the_text_sets_no_cap(catalogs):
    # Fate: 10 to start (004 line 16) and more from shrines (004 line 21), no cap; deathmelt
    # victory points: Extermination scores 1VP per 3 casualties with no cap (000 line 121)
    for system_id in ("might-skirmish", "deathmelt"):
        for track in load_reference(catalogs.get(system_id)).play_aids.tracks:
            assert not track.capped, (system_id, track.label)


@pytest.mark.parametrize(
    ("example", "track", "past"),
    [
        ("might-skirmish-zombie-family.legal.yaml", "Fate tokens", "21+"),
        ("deathmelt-colonial-marines.legal.yaml", "Victory points", "13+"),
    ],
)
def test_a_track_has_room_past_its_printed_boxes(cli, tmp_path, example, track, past):
    out = tmp_path / "roster.html"
    assert cli("render", EXAMPLES / example, "-o", out, "--only", "roster").exit_code == 0
    html = out.read_text(encoding="utf-8")
    line = next(part for part in html.split('<div class="track') if track in part)
    assert f">{past}</span>" in line


# --- tick boxes follow the unit ---------------------------------------------------------------


def test_deathzap_prints_immobilised_only_for_units_the_damage_table_can_immobilise(catalogs):
    # 001 line 16: vehicles and monsters roll on the damage table; line 19: 2-3 immobilised
    boxes = {e.name: e.model_boxes for e in roster_of(catalogs, "deathzap-frontier-rangers.legal.yaml").entries}
    assert boxes["Hover Tank"] == ("Casualty", "Hits", "Immobilised")  # Heavy Vehicles
    assert boxes["Scout Buggies"] == ("Casualty", "Hits", "Immobilised")  # Light Vehicles (ruling light-vehicles)
    assert boxes["Ranger Squad"] == ("Casualty", "Hits") and boxes["Colony Volunteers"] == ("Casualty", "Hits")


def test_deathmelt_prints_immobilised_only_for_vehicles_and_monsters(catalogs):
    # 000 line 71: only a vehicle or monster rolls on the damage table, whose 2-3 immobilises
    boxes = {e.name: e.model_boxes for e in roster_of(catalogs, "deathmelt-colonial-marines.legal.yaml").entries}
    assert boxes["Marine APC"] == ("Danger", "Panicked", "Casualty", "Immobilised", "Hunkered down")
    # a Light Vehicle (ruling vehicle-means-vehicle); any figure hunkers down (line 33)
    assert boxes["Recon Bike"] == ("Danger", "Panicked", "Casualty", "Hunkered down")


def test_the_roster_prints_each_units_own_boxes(cli, tmp_path):
    out = tmp_path / "roster.html"
    cli("render", EXAMPLES / "deathzap-frontier-rangers.legal.yaml", "-o", out, "--only", "roster")
    html = out.read_text(encoding="utf-8")
    assert html.count('tick-label">Immobilised<') == 2  # Scout Buggies and Hover Tank


# --- rosters name traits ------------------------------------------------------------------------


def test_speed_range_power_traits_cell_names_attacker_and_defender(catalogs):
    system = catalogs.get("speed-range-power")
    d = system.definition
    model = Unit(name="M", stats={"speed": 6, "range": 6, "power": 2, "traits": ("attacker",)})
    (column,) = load_reference(system).columns
    # 003 line 39: attackers +1 in their own turn, -1 in the opponent's; defenders the reverse
    assert derived(column, system, model) == "Attacker. +1 to combat rolls in its own turn, -1 in the opponent's."
    defender = Unit(name="D", stats={**model.stats, "traits": ("defender",)})
    assert derived(column, system, defender).startswith("Defender. -1 to combat rolls in its own turn")
    assert {c.name for c in d.stats["traits"].choices} == {"big-guns", "attacker", "defender"}


def test_melee_module_bonus_keeps_when_it_charges(catalogs):
    system = catalogs.get("melee-module")
    column = next(c for c in load_reference(system).columns if c.label == "Melee bonus")
    unit = Unit(name="Impi", stats={"figures": 10, "traits": ("elite", "cavalry", "charge-bonus"), "specials": ()})
    # 002 (Modifiers): elite +1; cavalry +2 in the first round; Zulus +1 in the first round when they charge
    assert derived(column, system, unit) == (
        "elite +1 (every round), cavalry +2 (first round), charge-bonus +1 (first round, when it charges)"
    )


# --- deathmelt: a hunkered-down figure only fights back (000 line 33) -----------------------


def test_deathmelt_odds_refuse_a_hunkered_down_figure_starting_a_melee(catalogs):
    dm = catalogs.get("deathmelt")
    a = Unit(name="A", stats={"type": "Infantry", "training": "Elite", "armour": 3, "weapons": ()})
    with pytest.raises(OddsError) as caught:
        matchup(dm, a, a, attacker_state="hunkered down")
    assert "only fights back when charged" in caught.value.details[0].hint
    # it still fights back when charged, succeeding only on 6s (000 line 79)
    assert matchup(dm, a, a, target_state="hunkered down")["target killed"] > Fraction(1, 2)


# --- small errors -------------------------------------------------------------------------------


def test_the_monster_mash_comment_says_14_points_over(catalogs):
    path = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
    report = check_list(path, catalogs)
    over = report.total - report.limit
    assert over == 14  # 114 of 100 (004 line 48: a standard game is 100 points)
    assert f"{over} points over" in path.read_text(encoding="utf-8").splitlines()[1]


def test_the_odds_pages_bound_for_twelve_dice_a_side_is_for_24_dice():
    bound = cut_short(24, 6, 6, 10)  # twelve dice a side, followed ten deep (000 lines 79-81)
    per_100_million = round(float(bound) * 1e8)
    assert per_100_million == 7
    odds = (ROOT / "docs" / "odds.md").read_text(encoding="utf-8")
    assert f"about {per_100_million} in 100 million for twelve dice a side" in " ".join(odds.split())


def test_the_leader_ruling_quotes_its_line(catalogs):
    (ruling,) = [r for r in catalogs.get("speed-range-power").definition.rulings if r.id == "leader-ratio"]
    assert ruling.source == "line 35"
    # 003 line 35, word for word
    assert '"One in ten of your models can be designated as a leader"' in ruling.text


def test_the_deathmelt_turn_note_points_at_the_phases_printed_above_it(cli, tmp_path, catalogs):
    note = load_reference(catalogs.get("deathmelt")).turn.note
    assert "phases above" in note and "below" not in note
    out = tmp_path / "card.html"
    cli("card", "deathmelt", "-o", out)
    html = out.read_text(encoding="utf-8")
    assert html.index("Hunker Down") < html.index("phases above")  # the card prints the note after them


def test_the_destroyer_trooper_claims_no_deathzap_rule(catalogs):
    # only deathzap limits who can harm monsters (001 line 16); deathmelt has no such rule
    notes = catalogs.get("deathmelt").find_unit("Destroyer Trooper").notes
    assert "monster" not in notes.lower() and "hurt" not in notes.lower()


def test_the_readme_promises_one_sheet_two_sides():
    assert "one-page" not in README and "one sheet, printed on both sides (A4 or Letter)" in README

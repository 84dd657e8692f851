"""Rules fidelity in words: nothing the program says goes past what the texts say (a typical value
is no minimum, a silence of the text is a declared ruling).

Each test names the line of the source text (``../shared/rules``, README's ids) it holds to:
000 is deathmelt, 001 deathzap, 003 speed-range-power, 004 might-skirmish.
"""

from __future__ import annotations

import textwrap

from conftest import CATALOGS

from listbuilder.api import lists
from listbuilder.rules.catalog import Catalogs

SHIPPED = Catalogs()


def _ruling(system_id: str, ruling: str) -> tuple[str, str]:
    found = next(r for r in SHIPPED.get(system_id).definition.rulings if r.id == ruling)
    return " ".join(found.text.split()), found.source


# --- deathmelt's armour (000, line 57: "Typically unarmoured infantry or civilians count as having armour 1")


def test_deathmelt_armour_is_a_typical_value_not_a_minimum():
    d = SHIPPED.get("deathmelt").definition
    armour = d.stats["armour"]
    assert not armour.required and armour.default == 1  # line 57: an unarmoured figure has 1
    judged = [c for c in d.constraints if c.judges_stat(d, "armour")]
    # no least value of 1, which the text lacks: only the ruling's floor of 0 (a count is never below it)
    assert [(c.minimum, c.source) for c in judged] == [(0, "ruling armour-typical")]
    text, source = _ruling("deathmelt", "armour-typical")
    assert source == "line 57" and "0 included" in text and "left out has 1" in text


def test_a_custom_figure_with_armour_0_is_legal(cli, write_list):
    path = write_list(
        """\
        system: deathmelt
        name: Ghosts
        figures: 2
        units:
          - unit: Brood Herald
          - name: Ghost
            type: Infantry
            training: Basic
            armour: 0
        """
    )
    result = cli("validate", path)
    assert result.exit_code == 0, result.stdout
    assert "armour" not in result.stdout.lower()


def test_a_figure_with_no_armour_written_has_1(cli):
    report = lists.check_text(
        "system: deathmelt\nname: C\nunits:\n  - unit: Brood Herald\n"
        "  - name: Civilian\n    type: Infantry\n    training: Basic\n",
        SHIPPED,
    )
    assert report.legal() and report.lines[1].entry.unit.stats["armour"] == 1


def test_the_card_no_longer_prints_an_armour_minimum(cli, tmp_path):
    card = tmp_path / "card.html"
    assert cli("card", "deathmelt", "-o", card).exit_code == 0
    html = card.read_text()
    assert "Armour is at least 1" not in html and "typical Armour values" in html


# --- deathmelt's armour words (000, line 57: "Swordsport armour and big beasts may be 4 or 5")


def test_deathmelt_says_swordsport_armour_as_the_text_does():
    system = SHIPPED.get("deathmelt")
    summary = " ".join(system.definition.stats["armour"].summary.split())
    assert "4 or 5 for Swordsport armour and big beasts" in summary and "powered" not in summary.lower()
    reference = (CATALOGS / "deathmelt" / "reference.yaml").read_text()
    assert "[Swordsport armour or big beasts, 4 or 5]" in reference and "(powered)" not in reference


# --- might-skirmish-150 (004, line 48: "you can have a maximum of 16 fighters")


def test_the_150_point_variant_says_it_is_a_house_variant_raising_the_cap():
    d = SHIPPED.get("might-skirmish-150").definition
    summary = " ".join(d.summary.split())
    assert summary.startswith("A house variant of Might Skirmish, not the text's game")
    assert "raises the cap on a warband from the text's 16 fighters to 20" in summary
    assert "as the text has it" not in summary


# --- costs read as English (003, lines 43-45: "Each point of Speed costs 1 point", "Each 3" of
# range costs 2 points", "Each point of power costs 4 points")


def test_the_speed_range_power_card_words_its_costs_as_english(cli, tmp_path):
    card = tmp_path / "card.html"
    assert cli("card", "speed-range-power", "-o", card).exit_code == 0
    html = card.read_text().replace("&#34;", '"')
    assert 'A model costs 1 point per 1" of Speed, 2 points per 3" of Range and 4 points per Power.' in html
    assert "per Power points" not in html


def test_an_authors_linear_cost_reads_as_english_too(cli, tmp_path):
    folder = tmp_path / "roots" / "duel"
    (folder / "factions").mkdir(parents=True)
    (folder / "system.yaml").write_text(
        textwrap.dedent(
            """\
            id: duel
            name: Duel
            summary: Two stats.
            source: a house game
            revision: 1
            model: {singular: duellist, plural: duellists}
            force: band
            measure: {singular: point, plural: points}
            leader: {singular: captain, plural: captains}
            stats:
              fight: {label: Fight, kind: number}
              shoot: {label: Shoot, kind: number}
            cost:
              kind: linear
              terms:
                - {stat: fight, points: 2, per: 1}
                - {stat: shoot, points: 3, per: 1}
            constraints:
              - {kind: limit, id: points-limit, rule: A band costs no more than agreed.}
            """
        )
    )
    card = tmp_path / "card.html"
    result = cli("card", "duel", "-o", card, "--catalogs", tmp_path / "roots")
    assert result.exit_code == 0, result.stderr
    assert "A duellist costs 2 points per Fight and 3 points per Shoot." in card.read_text()


# --- "vehicles and monsters", one author, one phrase, each reading declared with its lines


def test_each_reading_of_vehicles_and_monsters_is_declared_with_the_lines_that_decide_it():
    # deathzap: types Light Vehicles and Heavy Vehicles, none called just Vehicle (001, lines 12-15)
    text, source = _ruling("deathzap", "light-vehicles")
    assert source == "lines 12-16" and "no type called just Vehicle" in text and "vehicle-means-vehicle" in text
    # deathmelt: a type called Vehicle beside Light Vehicle (000, lines 37 and 91-95)
    text, source = _ruling("deathmelt", "vehicle-means-vehicle")
    assert source == "lines 37, 71, 91-95, 117 and 121" and "a type called Vehicle beside Light Vehicle" in text
    assert "light-vehicles" in text
    deathzap = SHIPPED.get("deathzap").definition.stats["type"]
    deathmelt = SHIPPED.get("deathmelt").definition.stats["type"]
    assert "Vehicle" not in [c.name for c in deathzap.choices]
    assert {"Vehicle", "Light Vehicle"} <= {c.name for c in deathmelt.choices}


# --- mixed loadouts: the text is silent (001, lines 3-9), so the format's rule is a ruling


def test_the_one_weapon_each_rule_is_a_declared_ruling():
    text, source = _ruling("deathzap", "one-weapon-each")
    assert source == "lines 3-9 (the text is silent on mixed loadouts)"
    assert "each figure then carries one of them" in text and "a unit of their own" in text


def _squad(weapons: str) -> str:
    return (
        "system: deathzap\nname: S\nunits:\n  - name: Fire Team\n    figures: 5\n    type: Infantry\n"
        f"    weapons: {weapons}\n"
    )


def test_a_loadout_short_of_the_figures_says_what_to_write_instead(cli, write_list):
    result = cli("validate", write_list(_squad("[{weapon: Rifle, figures: 4}]")))
    assert result.exit_code == 2
    assert "the unit has 5 figures, but its weapons are carried by 4x Rifle = 4" in result.stderr
    assert "figures that carry none go in an entry of their own with 'weapons: []'" in result.stderr


def test_a_loadout_past_the_figures_says_what_to_write_instead(cli, write_list):
    result = cli("validate", write_list(_squad("[{weapon: Rifle, figures: 5}, {weapon: Repeater, figures: 1}]")))
    assert result.exit_code == 2
    assert "carried by 5x Rifle + 1x Repeater = 6" in result.stderr
    assert "go in an entry of their own listing both, e.g. 'weapons: [Rifle, Repeater]'" in result.stderr


def test_what_the_error_suggests_is_legal(cli, write_list):
    # four riflemen and one figure with a rifle and a repeater, as two entries
    path = write_list(
        "system: deathzap\nname: S\nfigures: 6\nunits:\n"
        "  - name: Fire Team\n    figures: 4\n    type: Infantry\n    weapons: [Rifle]\n"
        "  - name: Fire Team Gunner\n    figures: 1\n    type: Infantry\n    weapons: [Rifle, Repeater]\n"
        "  - name: Unarmed\n    figures: 1\n    type: Infantry\n    weapons: []\n"
    )
    assert cli("validate", path).exit_code == 0

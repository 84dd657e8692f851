"""Mixed loadouts: a list stat whose items say how many of a unit's figures carry each.

Pinned to the deathzap text (001_12a9f09e7f811521.txt): Rifle 24" 1 shot (line 4), Repeater 12"
2 shots (line 5), Medium Repeater 24" 6 shots (line 6), a hit on a 6 (line 10), one hit kills
infantry in the open (line 12), and every figure of a unit counts (line 24). The mechanism itself
is proved generic on a made-up rule set.
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from odds_oracles import bf_hits_per_casualty

from listbuilder.api.lists import check_list
from listbuilder.errors import ListbuilderError
from listbuilder.odds import ImpossibleMatchup, OddsError, matchup
from listbuilder.odds.ask import read_unit as read_unit_spec
from listbuilder.printing.pages import roster
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.loadout import Carried, carriers, names
from listbuilder.share.editorschema import list_schema
from listbuilder.share.exchange import embed, export_json, export_markdown, export_text, import_text

F = Fraction
RANGERS = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"


def load(catalogs: Catalogs, text: str, path: Path) -> object:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return check_list(path, catalogs)


def test_the_ranger_fire_team_is_four_riflemen_and_a_support_gunner(catalogs):
    team = catalogs.get("deathzap").find_unit("Ranger Fire Team")
    assert team.notes == "Four riflemen and a support gunner."
    assert team.stats["figures"] == 5
    assert team.stats["weapons"] == (Carried(name="Rifle", figures=4), Carried(name="Medium Repeater", figures=1))
    # before revision 2 every figure carried both: lists made then are warned of the change
    assert team.stats_at(1)["weapons"] == ("Rifle", "Medium Repeater")


def test_every_other_shipped_deathzap_and_deathmelt_unit_arms_each_figure_alike(catalogs):
    # Each unit's description names one kind of gun per figure (or a vehicle carrying all its
    # guns); deathmelt units are single figures, so a plain list is always right there.
    for system_id in ("deathzap", "deathmelt"):
        for unit in catalogs.get(system_id).units.values():
            mixed = any(isinstance(i, Carried) for i in unit.stats.get("weapons", ()))
            assert mixed == (unit.name == "Ranger Fire Team"), unit.name


def test_the_fire_team_rolls_ten_shots_at_the_grox_brood_as_the_oracle_says(catalogs):
    dz = catalogs.get("deathzap")
    out = matchup(dz, dz.find_unit("Ranger Fire Team"), dz.find_unit("Grox Brood"))
    # 4 riflemen x 1 shot (line 4) + 1 gunner x 6 shots (line 6) = 10 dice, not 5 x 7 = 35
    oracle = bf_hits_per_casualty([1, 1, 1, 1, 6], hit_on=6, per=1, cap=12)
    assert [r.chance for r in out.results] == [oracle.get(k, F(0)) for k in range(len(out.results))]
    assert len(out.results) == 11  # 0 to 10 casualties: ten dice
    assert out.expected_kills == F(10, 6)  # about 1.67, where 35 shots gave 5.83


def test_the_fire_team_fires_one_weapon_with_some_of_its_figures(catalogs):
    dz = catalogs.get("deathzap")
    team, brood = dz.find_unit("Ranger Fire Team"), dz.find_unit("Grox Brood")
    gunner = matchup(dz, team, brood, weapon="Medium Repeater")
    assert gunner.expected_kills == F(6, 6)  # one figure, 6 shots
    two_rifles = matchup(dz, team, brood, weapon="Rifle", firing=2)
    assert two_rifles["no casualties"] == F(25, 36)
    with pytest.raises(OddsError, match="has 1 figures carrying the Medium Repeater, not 2"):
        matchup(dz, team, brood, weapon="Medium Repeater", firing=2)
    with pytest.raises(OddsError, match="armed unevenly"):
        matchup(dz, team, brood, firing=2)
    # a plain list still arms every figure: 2 figures with a Repeater (2 shots) and a Rifle fire 6 dice
    both = read_unit_spec(dz, "figures=2,type=Infantry,weapons=Repeater+Rifle")
    assert len(matchup(dz, both, brood).results) == 7
    with pytest.raises(ImpossibleMatchup, match="carries no Destroyer"):
        matchup(dz, team, brood, weapon="Destroyer")


def test_an_odds_statline_gives_a_loadout_as_counts(catalogs):
    dz = catalogs.get("deathzap")
    spec = read_unit_spec(dz, "figures=5,type=Infantry,weapons=4x Rifle+1x Medium Repeater")
    assert spec.stats["weapons"] == dz.find_unit("Ranger Fire Team").stats["weapons"]
    with pytest.raises(ListbuilderError, match="add up to 5"):
        read_unit_spec(dz, "figures=5,type=Infantry,weapons=4x Rifle+2x Medium Repeater")


LOADOUT = """\
    system: deathzap
    name: Loadouts
    figures: 40
    units:
      - unit: Ranger Fire Team
      - name: Volunteers
        figures: 4
        type: Infantry
        weapons:
          - {weapon: Rifle, figures: 3}
          - {weapon: Repeater, figures: 1}
    """


@pytest.mark.parametrize(
    ("weapons", "expected"),
    [
        (
            "[{weapon: Rifle, figures: 3}, {weapon: Repeater, figures: 2}]",
            "has 4 figures, but its weapons are carried by 3x Rifle + 2x Repeater = 5",
        ),
        (
            "[{weapon: Rifle, figures: 2}, {weapon: Repeater, figures: 1}]",
            "has 4 figures, but its weapons are carried by 2x Rifle + 1x Repeater = 3",
        ),
        ("[Rifle, {weapon: Repeater, figures: 1}]", "'Rifle' gives no figures, but other weapons do"),
        (
            "[{weapon: Rifle, figures: 0}, {weapon: Repeater, figures: 4}]",
            "a whole number of at least 1, found the number 0",
        ),
        ("[{weapon: Rifle}]", "the figures carrying Rifle must be a whole number of at least 1, found nothing"),
        ("[{weapon: Rifle, figures: 4, colour: red}]", "unknown key 'colour'"),
        ("[{weapon: Rifel, figures: 4}]", "did you mean 'Rifle'?"),
        ("[{weapon: Rifle, figures: 3}, {weapon: Rifle, figures: 1}]", "'Rifle' is listed twice"),
        ("[{figures: 4}]", "this item does not say which weapon it is"),
    ],
)
def test_a_loadout_that_does_not_add_up_is_refused_naming_the_entry(catalogs, tmp_path, weapons, expected):
    text = LOADOUT.replace(
        "weapons:\n          - {weapon: Rifle, figures: 3}\n          - {weapon: Repeater, figures: 1}",
        f"weapons: {weapons}",
    )
    with pytest.raises(ListbuilderError) as caught:
        load(catalogs, text, tmp_path / "bad.yaml")
    shown = str(caught.value) + "".join(f"{d.message} {d.hint}" for d in caught.value.details)
    assert expected in shown and "units[1]" in shown  # the entry, by its place in the file
    if "carried by" in expected or "gives no" in expected:
        assert "Volunteers: " in shown  # and the unit, by name


def test_a_loadout_that_adds_up_is_read(catalogs, tmp_path):
    report = load(catalogs, LOADOUT, tmp_path / "ok.yaml")
    volunteers = report.lines[1].entry.unit
    assert volunteers.stats["weapons"] == (Carried(name="Rifle", figures=3), Carried(name="Repeater", figures=1))
    assert report.total == 9 and report.legal()


def test_a_rule_set_whose_weapons_name_no_item_refuses_counts(catalogs, tmp_path):
    # deathmelt's figures are single models (000_90b8217ce0486a35.txt line 25: 'one figure'):
    # its weapons stat names no item, so a count is an error with a hint
    path = tmp_path / "melt.yaml"
    path.write_text(
        "system: deathmelt\nname: M\nunits:\n  - name: Bob\n    leader: true\n    type: Infantry\n"
        "    training: Basic\n    armour: 2\n    weapons: [{weapon: Rifle, figures: 1}]\n"
    )
    with pytest.raises(ListbuilderError) as caught:
        check_list(path, catalogs)
    assert "found a mapping" in caught.value.details[0].message


def test_the_roster_says_how_many_figures_carry_each_weapon(catalogs):
    report = check_list(RANGERS, catalogs)
    cells = {e.name: {c.label: c.value for c in e.derived} for e in roster(report).entries}
    nbsp = "\u00a0"  # '4 figures' stays on one line
    team = f'Rifle 24" ×1 (4{nbsp}figures), Medium Repeater 24" ×6 (1{nbsp}figure)'
    assert cells["Ranger Fire Team"]["Weapons"] == team
    assert cells["Colony Volunteers"]["Weapons"] == f'Rifle 24" ×1 (3{nbsp}figures), Repeater 12" ×2 (1{nbsp}figure)'
    assert cells["Ranger Squad"]["Weapons"] == 'Rifle 24" ×1'  # a plain list: every figure


@pytest.mark.parametrize("export", [export_text, export_markdown, export_json])
def test_a_loadout_reads_back_exactly_from_every_export(catalogs, tmp_path, export):
    report = load(catalogs, LOADOUT, tmp_path / "list.yaml")
    text = export(report)
    if export is not export_json:
        assert "Figures 4, Infantry, Weapons 3x Rifle + 1x Repeater" in text
    back = import_text(text, tmp_path / "pasted.txt", catalogs)
    assert "    weapons:\n      - {weapon: Rifle, figures: 3}\n      - {weapon: Repeater, figures: 1}\n" in back
    again = load(catalogs, back, tmp_path / "back.yaml")
    assert export(again) == text
    assert [ln.entry.unit.stats for ln in again.lines] == [ln.entry.unit.stats for ln in report.lines]


def test_the_json_export_writes_a_loadout_as_list_files_do(catalogs, tmp_path):
    data = json.loads(export_json(load(catalogs, LOADOUT, tmp_path / "list.yaml")))
    assert data["entries"][1]["stats"]["weapons"] == [
        {"weapon": "Rifle", "figures": 3},
        {"weapon": "Repeater", "figures": 1},
    ]


def test_an_embedded_list_keeps_each_loadout(catalogs, tmp_path):
    text = embed(check_list(RANGERS, catalogs))
    units = {u["name"]: u for u in yaml.safe_load(text)["units"]}
    assert units["Ranger Fire Team"]["weapons"] == [
        {"weapon": "Rifle", "figures": 4},
        {"weapon": "Medium Repeater", "figures": 1},
    ]
    assert units["Ranger Squad"]["weapons"] == ["Rifle"]
    path = tmp_path / "embedded.yaml"
    path.write_text(text, encoding="utf-8")
    again = check_list(path, catalogs)
    assert [ln.entry.unit.stats for ln in again.lines] == [
        ln.entry.unit.stats for ln in check_list(RANGERS, catalogs).lines
    ]


def test_the_editor_schema_takes_a_name_or_a_weapon_with_its_figures(catalogs):
    import jsonschema

    schema = list_schema(catalogs.get("deathzap"))
    custom = next(e for e in schema["properties"]["units"]["items"]["oneOf"] if "name" in e["properties"])
    name, carried = custom["properties"]["weapons"]["items"]["anyOf"]
    assert name["enum"][2] == "Medium Repeater" and carried["required"] == ["weapon", "figures"]
    good = yaml.safe_load(textwrap.dedent(LOADOUT))
    jsonschema.validate(good, schema)
    for bad in ({"weapon": "Rifle", "figures": 0}, {"weapon": "Rifle"}, {"weapon": "Rifle", "figures": 1, "x": 1}):
        data = yaml.safe_load(textwrap.dedent(LOADOUT))
        data["units"][1]["weapons"] = [bad]
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(data, schema)
    # deathmelt names no item: its weapons are names only
    melt = list_schema(catalogs.get("deathmelt"))
    melt_custom = next(e for e in melt["properties"]["units"]["items"]["oneOf"] if "name" in e["properties"])
    assert melt_custom["properties"]["weapons"]["items"]["type"] == "string"


def test_a_list_from_before_the_loadout_is_warned_of_the_change(catalogs, tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text("system: deathzap\nname: Old\nrevision: 1\nunits:\n  - unit: Ranger Fire Team\n")
    report = check_list(path, catalogs)
    (warning,) = [p for p in report.problems if p.rule_id == "catalog-changed"]
    assert "Weapons Rifle + Medium Repeater → 4x Rifle + 1x Medium Repeater" in warning.message


SEVENTH = """\
    id: crews
    name: Crews
    summary: A made-up rule set with a loadout, to prove the mechanism names no rule set.
    source: the test suite
    revision: 1
    model: {singular: hand, plural: hands}
    force: crew
    measure: {singular: berth, plural: berths}
    leader: {singular: bosun, plural: bosuns}
    figures_stat: hands
    stats:
      hands: {label: Hands, kind: number}
      kit:
        label: Kit
        kind: choices
        item: tool
        choices: [{name: Rope, properties: {pull: 1}}, {name: Winch, properties: {pull: 5}}]
    cost: {kind: figures}
    groups:
      riggers: {label: rigging, stat: kit, any_of: [Winch]}
    constraints:
      - {kind: at_most, id: one-winch, rule: At most 3 hands in winch crews., of: riggers, count: 3, source: test}
    """


def test_a_loadout_works_in_any_rule_set_with_figures(tmp_path):
    folder = tmp_path / "root" / "crews"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(textwrap.dedent(SEVENTH))
    catalogs = Catalogs([tmp_path / "root"])
    path = tmp_path / "crew.yaml"
    path.write_text(
        "system: crews\nname: C\nunits:\n  - name: Deck\n    hands: 4\n"
        "    kit: [{tool: Rope, hands: 3}, {tool: Winch, hands: 1}]\n"
    )
    report = check_list(path, catalogs)
    unit = report.lines[0].entry.unit
    assert carriers(unit.stats["kit"], 4) == (("Rope", 3), ("Winch", 1))
    assert names(unit.stats["kit"]) == ("Rope", "Winch")
    assert [p.rule_id for p in report.problems] == ["one-winch"]  # groups read the names: 4 hands in it
    (folder / "system.yaml").write_text(textwrap.dedent(SEVENTH).replace("figures_stat: hands\n", ""))
    with pytest.raises(ListbuilderError) as caught:
        Catalogs([tmp_path / "root"]).get("crews")
    assert "'item' is for a 'choices' stat of a rule set whose units are groups of figures" in str(
        [d.message for d in caught.value.details]
    )


def test_the_oracle_is_the_enumeration_of_every_die():
    # two figures with one shot each, then one with two: the same four dice
    assert bf_hits_per_casualty([1, 1, 2], 6, 2, 5) == bf_hits_per_casualty([4], 6, 2, 5)
    assert sum(bf_hits_per_casualty([2, 3], 6, 1, 9).values()) == 1
    assert bf_hits_per_casualty([1], 6, 1, 9) == {0: F(5, 6), 1: F(1, 6)}


def test_the_cost_command_takes_a_loadout(cli):
    ok = cli("cost", "deathzap", "--figures", "5", "--type", "Infantry", "--weapons", "4x Rifle,1x Medium Repeater")
    assert ok.exit_code == 0 and "Weapons 4x Rifle + 1x Medium Repeater" in ok.stdout
    bad = cli("cost", "deathzap", "--figures", "5", "--type", "Infantry", "--weapons", "4x Rifle,2x Repeater")
    assert bad.exit_code == 2
    assert "the unit has 5 figures, but its weapons are carried by 4x Rifle + 2x Repeater = 6" in bad.stderr


WEAPON_NAMES = [
    "Rifle",
    "Repeater",
    "Medium Repeater",
    "Heavy Repeater",
    "Destroyer",
    "Vehicle Destroyer",
]  # 001 lines 4-9


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_loadout_reads_back_from_every_export(catalogs, tmp_path, data):
    figures = data.draw(st.integers(1, 40))
    weapons = data.draw(st.lists(st.sampled_from(WEAPON_NAMES), min_size=1, max_size=min(figures, 6), unique=True))
    parts = len(weapons) - 1
    cuts = (
        sorted(data.draw(st.sets(st.integers(1, max(1, figures - 1)), min_size=parts, max_size=parts))) if parts else []
    )
    counts = [b - a for a, b in zip([0, *cuts], [*cuts, figures], strict=True)]
    loadout = ", ".join(f"{{weapon: {w}, figures: {c}}}" for w, c in zip(weapons, counts, strict=True))
    unit = f"{{name: Mine, figures: {figures}, type: Infantry, weapons: [{loadout}]}}"
    text = f"system: deathzap\nname: Any\nunits:\n  - {unit}\n"
    original = load(catalogs, text, tmp_path / "any.yaml")
    export = data.draw(st.sampled_from([export_text, export_markdown, export_json]))
    back = load(catalogs, import_text(export(original), tmp_path / "pasted.txt", catalogs), tmp_path / "back.yaml")
    assert back.lines[0].entry.unit.stats == original.lines[0].entry.unit.stats
    assert carriers(back.lines[0].entry.unit.stats["weapons"], figures) == tuple(zip(weapons, counts, strict=True))

"""Variants: a rule set that extends another and gives only what differs, errors located in its own file."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES

from listbuilder.api.lists import check_list
from listbuilder.errors import CatalogError
from listbuilder.printing import pages
from listbuilder.rules.catalog import Catalogs

# Changes a limit, changes a constraint by its id, removes one and adds one.
HOUSE = """\
    extends: might-skirmish
    id: house-skirmish
    name: House Skirmish
    default_limit: 120
    remove:
      constraints: [half-basic]
    constraints:
      - id: max-fighters
        title: at most 12 fighters
        rule: A warband has at most 12 fighters.
        count: 12
        source: house rule
      - kind: at_most
        id: one-monster
        title: at most 1 Monster
        rule: A warband has at most one Monster.
        count: 1
        of: monsters
        source: house rule
    groups:
      monsters: {label: Monster, stat: class, any_of: [Monster]}
"""


def write_variant(root: Path, text: str = HOUSE, folder: str = "house-skirmish", **files: str) -> Path:
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / "system.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    for name, body in files.items():
        (root / folder / name.replace("_", ".")).write_text(textwrap.dedent(body), encoding="utf-8")
    return root


def house_list(write_list, units: str, extra: str = "") -> Path:
    return write_list(f"system: house-skirmish\nname: House\n{extra}units:\n{textwrap.dedent(units)}")


def test_a_variant_keeps_the_base_and_changes_what_it_says(tmp_path):
    system = Catalogs([write_variant(tmp_path / "club")]).get("house-skirmish")
    base = Catalogs().get("might-skirmish")
    d = system.definition
    assert system.base == "might-skirmish" and system.base_name == "Might Skirmish"
    assert d.default_limit == 120 and d.name == "House Skirmish"
    assert [c.id for c in d.constraints] == ["points-limit", "max-fighters", "max-rare", "might-minimum", "one-monster"]
    assert next(c for c in d.constraints if c.id == "max-fighters").count == 12
    # Everything the variant leaves alone is the base's: stats, costing, rulings, every unit; the
    # base's sentences that write a number as a placeholder state the variant's numbers.
    assert d.stats == base.definition.stats and d.cost == base.definition.cost
    assert [r.id for r in d.rulings] == [r.id for r in base.definition.rulings]
    caps = next(r.text for r in d.rulings if r.id == "caps-at-any-size")
    assert caps == (
        "The caps of 12 fighters, half basic and 2 rare hold at any agreed points value, not only in the "
        "standard 120-point game."
    )
    assert system.units == base.units and system.factions.keys() == base.factions.keys()
    assert system.layers == (CATALOGS / "might-skirmish", tmp_path / "club" / "house-skirmish")


def test_a_variants_list_is_judged_by_the_variants_rules(tmp_path, write_list):
    books = Catalogs([write_variant(tmp_path / "club")])
    # 13 fighters, 2 Monsters, 1 basic of 13: the base's half-basic rule is gone, the two new caps bite.
    path = house_list(
        write_list,
        "  - {unit: Grandpa Bones}\n  - {unit: Storm Treant}\n"
        "  - {unit: Hunter}\n  - {unit: Cousin Sniper, count: 10}\n",
    )
    report = check_list(path, books)
    assert report.total == 20 + 18 + 10 + 70 and report.limit == 120
    assert [(p.rule_id, p.message) for p in report.problems] == [
        ("max-fighters", "1 fighter too many: 13 fighters, at most 12"),
        ("one-monster", "1 Monster fighter too many: 2 Monster fighters (Grandpa Bones, Storm Treant), at most 1"),
    ]
    # Both sides of the new limit: 12 fighters and 120 points are legal, 121 points is not.
    at_limit = house_list(write_list, "  - {unit: Hunter, count: 11}\n  - {name: Big, class: Soldier, might: 10}\n")
    assert check_list(at_limit, books).legal() and check_list(at_limit, books).total == 120
    over = house_list(write_list, "  - {unit: Hunter, count: 11}\n  - {name: Big, class: Soldier, might: 11}\n")
    assert [p.message for p in check_list(over, books).problems] == ["1 point over the 120-point limit (121 of 120)"]


def test_a_variant_prints_its_own_numbers_and_names_its_base(tmp_path, write_list):
    books = Catalogs([write_variant(tmp_path / "club")])
    report = check_list(house_list(write_list, "  - {unit: Hunter}\n"), books)
    roster = pages.roster(report)
    assert roster.system_name == "House Skirmish" and roster.varies == "Might Skirmish" and roster.limit == 120
    card = pages.card(books.get("house-skirmish"))
    assert card.varies == "Might Skirmish"
    assert "A warband has at most 12 fighters." in [r.rule for r in card.force_rules]
    assert not any("half" in r.rule for r in card.force_rules)
    from listbuilder.printing.html import render_document

    html = render_document(rosters=[roster], cards=[card], title="t")
    assert "House Skirmish (a variant of Might Skirmish)" in html
    assert "Quick-reference card · a variant of Might Skirmish" in html


def test_the_shipped_variant(catalogs):
    system = catalogs.get("might-skirmish-150")
    assert system.base == "might-skirmish" and system.definition.default_limit == 150
    fighters = next(c for c in system.definition.constraints if c.id == "max-fighters")
    assert fighters.count == 20
    # Its reference.yaml changes only the force-building table; the rest is the base's.
    from listbuilder.rules.reference import load_reference

    ref, base_ref = load_reference(system), load_reference(catalogs.get("might-skirmish"))
    points = next(t for t in ref.tables if t.id == "points")
    assert ("Most fighters (this variant)", "20") in points.rows and (
        "Game size (this variant)",
        "150 points",
    ) in points.rows
    assert [t.id for t in ref.tables] == [t.id for t in base_ref.tables] and ref.rules == base_ref.rules
    legal = check_list(EXAMPLES / "might-skirmish-150-zombie-clan.legal.yaml", catalogs)
    assert legal.legal() and legal.total == 139 and legal.models == 20
    # The same warband under the standard game breaks its limit and its 16-fighter cap.
    assert legal.total > catalogs.get("might-skirmish").definition.default_limit


def test_systems_shows_what_each_variant_extends(cli):
    result = cli("systems")
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("might-skirmish-150 "))
    assert line.split()[-1] == "might-skirmish"
    assert next(ln for ln in result.stdout.splitlines() if ln.startswith("might-skirmish ")).split()[-1] == "–"


BROKEN = [
    (
        "    count: 12\n",
        "    count: twelve\n",
        "line 11, column 12: constraints[0].count: expected a whole number, found 'twelve'",
    ),
    (
        "  constraints: [half-basic]\n",
        "  constraints: [half-basics]\n",
        "line 6, column 17: remove.constraints[0]: the base has no id 'half-basics' here (did you mean 'half-basic'?)",
    ),
    (
        "extends: might-skirmish\n",
        "extends: might-skirmsh\n",
        "no rule set 'might-skirmsh' to extend (did you mean 'might-skirmish'?)",
    ),
    ("id: house-skirmish\n", "", "a variant needs an 'id' of its own"),
    (
        "  constraints: [half-basic]\n",
        "  constraints: [half-basic]\n  groups: [rare]\n",
        "line 8, column 1: constraints: no group 'rare' (kept from 'might-skirmish' at constraints[max-rare].of)",
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), BROKEN, ids=[b[2][:30] for b in BROKEN])
def test_broken_variants_are_located_in_the_variants_file(tmp_path, old, new, expected):
    text = textwrap.dedent(HOUSE)
    assert old in text
    root = write_variant(tmp_path / "club", text.replace(old, new, 1))
    with pytest.raises(CatalogError) as caught:
        Catalogs([root]).get("house-skirmish")
    assert caught.value.file == root / "house-skirmish" / "system.yaml"
    assert expected in caught.value.render(), caught.value.render()


def test_a_variant_cannot_loop(tmp_path):
    root = tmp_path / "club"
    write_variant(root, "extends: b\nid: a\nname: A\n", folder="a")
    write_variant(root, "extends: a\nid: b\nname: B\n", folder="b")
    with pytest.raises(CatalogError, match=r"extend each other in a loop \(a -> b -> a\)"):
        Catalogs([root]).get("a")


def test_a_variant_of_a_variant(tmp_path, write_list):
    root = write_variant(tmp_path / "club")
    write_variant(
        root, "extends: house-skirmish\nid: tiny-house\nname: Tiny House\ndefault_limit: 50\n", folder="tiny-house"
    )
    system = Catalogs([root]).get("tiny-house")
    assert system.definition.default_limit == 50 and system.base_name == "House Skirmish"
    assert "one-monster" in [c.id for c in system.definition.constraints]
    assert len(system.layers) == 3


def test_the_cache_key_covers_the_bases_files(tmp_path, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LISTBUILDER_NO_CACHE", raising=False)
    shipped = tmp_path / "shipped"
    shutil.copytree(CATALOGS / "might-skirmish", shipped / "might-skirmish")
    club = write_variant(tmp_path / "club")
    books = Catalogs([club], shipped=shipped)
    assert shipped / "might-skirmish" / "system.yaml" in books.source_files("house-skirmish")
    assert shipped / "might-skirmish" / "factions" / "zombie-family.yaml" in books.source_files("house-skirmish")
    assert books.get("house-skirmish").find_unit("Hunter").stats["might"] == 10
    faction = shipped / "might-skirmish" / "factions" / "zombie-family.yaml"
    faction.write_text(faction.read_text().replace("might: 10", "might: 11", 1))
    again = Catalogs([club], shipped=shipped).get("house-skirmish")
    assert again.find_unit("Hunter").stats["might"] == 11
    base = shipped / "might-skirmish" / "system.yaml"
    base.write_text(base.read_text().replace("count: 2\n", "count: 3\n", 1))
    rare = next(
        c for c in Catalogs([club], shipped=shipped).get("house-skirmish").definition.constraints if c.id == "max-rare"
    )
    assert rare.count == 3


def test_a_variant_validates_and_renders_from_the_command_line(tmp_path, cli, write_list):
    root = write_variant(tmp_path / "club")
    path = house_list(write_list, "  - {unit: Hunter, count: 13}\n")
    result = cli("validate", "--catalogs", root, path)
    assert result.exit_code == 1 and "1 fighter too many: 13 fighters, at most 12" in result.stdout
    out = tmp_path / "house.html"
    assert cli("render", "--catalogs", root, path, "-o", out).exit_code == 0
    assert "House Skirmish (a variant of Might Skirmish)" in out.read_text()


def test_a_variant_changes_one_cost_term_and_a_stat(tmp_path):
    text = """\
        extends: speed-range-power
        id: pricey-range
        name: Pricey Range
        cost:
          terms:
            - {stat: range, points: 3}
        stats:
          power: {summary: "Attack and defence, in one number."}
    """
    system = Catalogs([write_variant(tmp_path / "club", text, folder="pricey-range")]).get("pricey-range")
    terms = {t.stat: (t.points, t.per) for t in system.definition.cost.terms}
    assert terms == {"speed": (1, 1), "range": (3, 3), "power": (4, 1)}  # only Range's points changed
    assert system.definition.stats["power"].summary == "Attack and defence, in one number."
    assert system.definition.stats["power"].label == "Power"
    from listbuilder.army.costing import unit_cost

    # The T34 of line 49 at 3 points per 3" of Range: 9 + 48 + 40.
    assert unit_cost(system, system.find_unit("T34 Tank")) == 97


def test_the_docs_variant_example_loads_as_it_says(tmp_path):
    import re

    page = (Path(__file__).parent.parent / "docs" / "authors" / "variants.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n# my-catalogs/house-skirmish/system.yaml\n(.*?)```", page, re.S)
    assert block is not None
    root = tmp_path / "my-catalogs"
    (root / "house-skirmish").mkdir(parents=True)
    (root / "house-skirmish" / "system.yaml").write_text(block.group(1), encoding="utf-8")
    d = Catalogs([root]).get("house-skirmish").definition
    assert d.default_limit == 150 and "half-basic" not in [c.id for c in d.constraints]
    assert {c.id: getattr(c, "count", None) for c in d.constraints}["max-fighters"] == 20
    assert "one-monster" in [c.id for c in d.constraints]


def test_a_variant_adds_a_faction_and_reads_the_bases_units_by_its_own_stats(tmp_path):
    root = write_variant(tmp_path / "club")
    (root / "house-skirmish" / "factions").mkdir()
    (root / "house-skirmish" / "factions" / "club.yaml").write_text(
        "faction: Club Specials\nunits:\n  - {name: Tin Golem, class: Mech, might: 15}\n"
    )
    system = Catalogs([root]).get("house-skirmish")
    assert list(system.factions) == ["Windblade Elves", "Zombie Family", "Club Specials"]
    assert "tin golem" not in Catalogs([root]).get("might-skirmish").units  # the base is untouched
    # A variant that drops a class the base's units use: the base's file is named, and why.
    text = textwrap.dedent(HOUSE).replace(
        "  constraints: [half-basic]\n",
        "  constraints: [half-basic]\n  groups: [special]\n  stats: {class: {choices: [Gunslinger]}}\n",
    )
    with pytest.raises(CatalogError) as caught:
        Catalogs([write_variant(tmp_path / "other", text)]).get("house-skirmish")
    message = caught.value.render()
    assert caught.value.file == CATALOGS / "might-skirmish" / "factions" / "windblade-elves.yaml"
    assert "when read for the variant 'house-skirmish'" in message and "unknown class 'Gunslinger'" in message


def test_a_variants_reference_overlay_is_checked_and_located(tmp_path):
    root = write_variant(
        tmp_path / "club",
        reference_yaml="tables:\n  - id: points\n    rows:\n      - [just one cell]\n",
    )
    from listbuilder.rules.reference import load_reference

    with pytest.raises(CatalogError) as caught:
        load_reference(Catalogs([root]).get("house-skirmish"))
    assert caught.value.file == root / "house-skirmish" / "reference.yaml"
    assert "line 4, column 9: tables[0].rows[0]: 1 cells, but the table has 2 columns" in caught.value.render()

"""Faction books: every unit of a faction with its stats, cost and derived values, grouped by the rule set's groups."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from test_render import check_golden, normalise

from listbuilder.errors import InputError
from listbuilder.printing.book import book
from listbuilder.rules.catalog import Catalogs


def titles(b):
    return [[(s.title, [u.name for u in s.units]) for s in f.sections] for f in b.factions]


def test_units_are_grouped_as_the_rule_set_says(catalogs):
    b = book(catalogs.get("might-skirmish"), "Zombie Family")
    # Common, special and rare classes, lines 8-10, each unit's class from its faction file.
    assert titles(b) == [
        [
            ("basic fighters", ["Hunter", "Shambler", "Rotting Hound", "Crow Swarm"]),
            ("special fighters", ["Grave Digger", "Blunderbuss Uncle", "Cousin Sniper"]),
            ("rare fighters", ["Grandpa Bones"]),
        ]
    ]
    hunter = b.factions[0].sections[0].units[0]
    assert hunter.cost == 10  # a fighter costs its Might (line 48); Hunter is Might 10 (line 6)
    assert [(c.label, c.value) for c in hunter.stats] == [("Class", "Soldier"), ("Might", "10")]
    assert ("Move", '2D6"') in [(c.label, c.value) for c in hunter.derived]
    assert b.factions[0].summary and not b.varies


def test_every_faction_and_a_rule_set_with_only_a_leader_group(catalogs):
    b = book(catalogs.get("speed-range-power"))
    assert [f.name for f in b.factions] == list(catalogs.get("speed-range-power").factions)
    worked = next(f for f in b.factions if f.name == "Worked Examples")
    assert [(s.title, [u.name for u in s.units]) for s in worked.sections] == [
        ("leaders", ["WW2 Officer"]),
        ("other models", ["WW2 Soldier", "T34 Tank", "Medieval Knight"]),
    ]
    # The text's worked examples, lines 47-50.
    costs = {u.name: u.cost for s in worked.sections for u in s.units}
    assert costs == {"WW2 Officer": 22, "WW2 Soldier": 30, "T34 Tank": 81, "Medieval Knight": 22}


def test_the_back_holds_the_cards_core_tables(catalogs):
    b = book(catalogs.get("might-skirmish"), "Zombie Family")
    kinds = [blk.kind for column in b.back for blk in column]
    assert set(kinds) == {"table", "odds", "force"}
    tables = [blk.item.title for column in b.back for blk in column if blk.kind == "table"]
    assert "Classes" in tables and "Building a warband" in tables


def test_a_variants_book_prints_its_own_numbers_and_names_its_base(cli, tmp_path):
    out = tmp_path / "book.html"
    assert cli("book", "might-skirmish-150", "--faction", "zombie family", "-o", out).exit_code == 0
    html = out.read_text()
    assert "Might Skirmish, 150-point games (a variant of Might Skirmish) · faction book" in html
    assert "<th>Most fighters (this variant)</th><td>20</td>" in html
    assert "A warband has at most 20 fighters" in html


def test_golden_html(cli, tmp_path):
    out = tmp_path / "book.html"
    assert cli("book", "might-skirmish", "--faction", "Zombie Family", "-o", out).exit_code == 0
    check_golden("might-skirmish-zombie-family.book.html", normalise(out.read_text(encoding="utf-8")))


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext (CI installs it)")
def test_a_pdf_book_read_back_with_pdftotext(cli, tmp_path):
    out = tmp_path / "zombies.pdf"
    result = cli("book", "might-skirmish", "--faction", "Zombie Family", "-o", out)
    assert result.exit_code == 0 and result.stdout == f"wrote {out}\n"
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    first, back = pages[0], pages[-2]  # the text ends in a form feed
    assert "MIGHT SKIRMISH · FACTION BOOK" in first and "Zombie Family" in first
    order = [first.index(h) for h in ("Basic fighters", "Special fighters", "Rare fighters")]
    assert order == sorted(order)
    grandpa = next(line for line in first.splitlines() if "Grandpa Bones" in line)
    assert grandpa.split() == ["Grandpa", "Bones", "20", "points"]
    assert "CLASS Monster" in first and "MIGHT 20" in first
    assert "Core tables" in back and "Building a warband" in back and "Attack check" in back
    assert "Standard game" in back and "100 points" in back


def test_default_name_and_bad_options(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("book", "deathzap", "--faction", "grox swarm").stdout == "wrote deathzap-grox-swarm-book.pdf\n"
    assert (tmp_path / "deathzap-grox-swarm-book.pdf").read_bytes().startswith(b"%PDF")
    result = cli("book", "deathzap", "--faction", "Grox Swam")
    assert result.exit_code == 2 and "no faction 'Grox Swam' in the deathzap catalogs" in result.stderr
    assert "did you mean 'Grox Swarm'?" in result.stderr
    assert cli("book", "deathzap", "-o", "book.txt").exit_code == 2
    assert cli("book", "deathzapp").exit_code == 2
    assert not list(tmp_path.glob("*.txt"))


def test_every_shipped_rule_set_prints_a_book(catalogs):
    for system_id in Catalogs().ids():
        b = book(catalogs.get(system_id))
        assert b.factions and all(f.count for f in b.factions)
        assert sum(f.count for f in b.factions) == len(catalogs.get(system_id).units)


def test_render_book_returns_bytes(catalogs):
    from listbuilder.api import authoring

    done = authoring.render_book(catalogs, "melee-module", faction="Zulu Impi", format="html")
    assert done.format == "html" and b"Zulu Impi" in done.data
    with pytest.raises(InputError, match="unknown document format"):
        authoring.render_book(catalogs, "melee-module", format="docx")

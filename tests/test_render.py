"""Printed output: what is on the page, golden files, safety of rendering and of writing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from listbuilder.api.lists import check_list
from listbuilder.printing import pages as sheets
from listbuilder.printing.html import builtin_templates, font_files, render_document, stylesheet
from listbuilder.printing.pdf import LockedFetcher, html_to_pdf
from listbuilder.rules.catalog import Catalogs

GOLDEN = Path(__file__).parent / "golden"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
UPDATE = os.environ.get("LISTBUILDER_UPDATE_GOLDEN") == "1"
SYSTEM_IDS = ["deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power"]
# One list per rule set for the golden files.
GOLDEN_LISTS = {
    "deathmelt": "deathmelt-colonial-marines.legal.yaml",
    "deathzap": "deathzap-frontier-rangers.legal.yaml",
    "melee-module": "melee-module-zulu-big-regiment.legal.yaml",
    "might-skirmish": "might-skirmish-monster-mash.illegal.yaml",
    "speed-range-power": "speed-range-power-camel-corps.legal.yaml",
}


def pdf_text(path: Path) -> str:
    reader = PdfReader(path)
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


def normalise(text: str) -> str:
    """Golden files hold neither the inlined stylesheet and fonts (the same in every file, and
    checked by test_html_is_self_contained) nor the version number."""
    text = re.sub(r"<style>\n.*?</style>", "<style>(the fonts and print.css, inlined)</style>", text, flags=re.S)
    return re.sub(r"listbuilder \d+\.\d+\.\d+\S*", "listbuilder VERSION", text)


def test_html_is_self_contained(cli, tmp_path):
    out = tmp_path / "roster.html"
    cli("render", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "-o", out)
    html = out.read_text()
    style = re.search(r"<style>\n(.*?)</style>", html, re.S).group(1)
    assert style.count("@font-face") == 4 and "data:font/otf;base64," in style
    assert "@page" in style and "size: A4" in style
    assert "<link" not in html and "<script" not in html and 'src="' not in html


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"wrote new golden file {path}; review it and run again")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs; LISTBUILDER_UPDATE_GOLDEN=1 rewrites it"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_golden_html_per_rule_set(cli, tmp_path, system_id):
    out = tmp_path / f"{system_id}.html"
    result = cli("render", EXAMPLES / GOLDEN_LISTS[system_id], "-o", out)
    assert result.exit_code == 0, result.stderr
    check_golden(f"{system_id}.html", normalise(out.read_text(encoding="utf-8")))


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_golden_pdf_text_per_rule_set(cli, tmp_path, system_id):
    out = tmp_path / f"{system_id}.pdf"
    assert cli("render", EXAMPLES / GOLDEN_LISTS[system_id], "-o", out).exit_code == 0
    check_golden(f"{system_id}.pdf.txt", normalise(pdf_text(out)) + "\n")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_pdf_holds_names_costs_and_totals(cli, tmp_path, path):
    catalogs = Catalogs()
    report = check_list(path, catalogs)
    out = tmp_path / "out.pdf"
    assert cli("render", path, "-o", out).exit_code == 0
    text = pdf_text(out)
    assert report.army.name.upper() in text.upper()
    assert f"{report.total:,}" in text
    if report.limit:
        assert f"/ {report.limit:,}" in text
    for line in report.lines:
        assert line.entry.unit.name.upper() in text.upper()
        assert f"{line.cost:,}" in text
    assert ("NOT LEGAL" in text.upper()) is (not report.legal())


def test_windblade_roster_and_reference_fit_on_two_pages(cli, tmp_path):
    out = tmp_path / "w.pdf"
    cli("render", EXAMPLES / "might-skirmish-windblade-elves.legal.yaml", "-o", out)
    reader = PdfReader(out)
    assert len(reader.pages) == 2  # a 16-fighter list: one page of roster, one of reference
    reference = " ".join(reader.pages[1].extract_text().split())
    # the attack table (source lines 28-29), once, on the reference sheet
    assert "Kill on 18 17 16 15 14 13 12" in reference and "Stun on 16 15 14 13 12 11 10" in reference
    assert reference.count("Attack check (3D6)") == 1
    # only the classes this list fields: no Mech or Gunner; Elf Archers are Soldiers
    assert "Mech" not in reference and "Gunner" not in reference and "Soldier" in reference
    # force-building tables are for the card, not the table top
    assert "Standard game" not in reference


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rules_card_is_one_sheet(cli, tmp_path, system_id, paper):
    out = tmp_path / "card.pdf"
    result = cli("card", system_id, "-o", out, "--paper", paper)
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(out)
    assert 1 <= len(reader.pages) <= 2, "one page, two sides at most"
    width, height = (float(x) for x in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == ({"a4": (595, 842), "letter": (612, 792)}[paper])


def test_deathmelt_card_says_which_tables_the_source_does_not_give(cli, tmp_path):
    out = tmp_path / "card.pdf"
    cli("card", "deathmelt", "-o", out)
    text = pdf_text(out)
    assert text.count("Not given by the source text.") == 2  # the hit table and the penetration roll (ruling 4)
    assert "Extermination" in text and "MacGuffin" in text  # both objectives tables (lines 109-135)


def test_only_roster_and_only_reference(cli, tmp_path):
    path = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
    roster, reference = tmp_path / "r.pdf", tmp_path / "ref.pdf"
    assert cli("render", path, "-o", roster, "--only", "roster").exit_code == 0
    assert cli("render", path, "-o", reference, "--only", "reference").exit_code == 0
    assert "ATTACK CHECK" not in pdf_text(roster).upper() and "Hunter" in pdf_text(roster).title()
    assert "ATTACK CHECK" in pdf_text(reference).upper() and "HUNTER" not in pdf_text(reference).upper()
    assert cli("render", path, "--only", "everything").exit_code == 2


def test_several_lists_go_into_one_document(cli, tmp_path):
    out = tmp_path / "club-night.pdf"
    a, b = EXAMPLES / "might-skirmish-zombie-family.legal.yaml", EXAMPLES / "speed-range-power-ww2-platoon.legal.yaml"
    assert cli("render", a, b, "-o", out).exit_code == 0
    text = pdf_text(out).upper()
    assert "ZOMBIE FAMILY" in text and "WW2 RIFLE PLATOON" in text
    assert text.count("REFERENCE SHEET") == 2  # one reference sheet per rule set


def test_default_output_is_beside_the_list(cli, tmp_path):
    path = tmp_path / "my-warband.yaml"
    path.write_text((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_text())
    result = cli("render", path)
    assert result.exit_code == 0
    assert (tmp_path / "my-warband.pdf").is_file()
    assert oct((tmp_path / "my-warband.pdf").stat().st_mode & 0o777) != "0o600"


def test_illegal_list_renders_with_a_banner_unless_strict(cli, tmp_path):
    path = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
    out = tmp_path / "mash.pdf"
    result = cli("render", path, "-o", out)
    assert result.exit_code == 0 and "not legal" in result.stderr
    assert "NOT LEGAL" in pdf_text(out).upper()
    strict_out = tmp_path / "strict.pdf"
    strict = cli("render", path, "-o", strict_out, "--strict")
    assert strict.exit_code == 1 and not strict_out.exists()
    assert "14 points over the 100-point limit" in strict.stderr


HOSTILE = """\
system: might-skirmish
name: "<script>alert(1)</script> <img src=http://127.0.0.1:9/x.png>"
units:
  - name: "url(file:///etc/passwd) <b>bold</b> <link rel=stylesheet href=http://127.0.0.1:9/s.css>"
    class: Soldier
    might: 5
"""


def test_hostile_names_are_text_in_html(cli, tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE)
    out = tmp_path / "hostile.html"
    assert cli("render", path, "-o", out).exit_code == 0
    html = out.read_text()
    assert "<script>" not in html and "<img" not in html and "<link" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "url(file:///etc/passwd) &lt;b&gt;bold&lt;/b&gt;" in html


def test_hostile_names_fetch_nothing_in_pdf(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE)
    report = check_list(path, Catalogs())
    html = render_document(
        rosters=[sheets.roster(report)], references=sheets.reference_sheet([report]), title="x", standalone=False
    )
    fetcher = LockedFetcher()
    out = tmp_path / "hostile.pdf"
    out.write_bytes(html_to_pdf(html, stylesheet(), fetcher))
    assert fetcher.refused == []  # nothing was even tried: the names are text
    text = pdf_text(out)
    assert "<script>alert(1)</script>" in text and "url(file:///etc/passwd)" in text


def test_the_fetcher_refuses_everything_but_data_and_the_shipped_fonts(tmp_path):
    html = (
        "<html><head><link rel=stylesheet href='http://127.0.0.1:9/s.css'>"
        "<style>p { background: url(file:///etc/passwd) } @import url(https://127.0.0.1:9/x.css);</style></head>"
        "<body><p>hi</p><img src='http://127.0.0.1:9/x.png'><img src='file:///etc/hostname'>"
        "<img src='data:image/gif;base64,R0lGODlhAQABAAAAACw='></body></html>"
    )
    fetcher = LockedFetcher()
    data = html_to_pdf(html, stylesheet(), fetcher)
    assert data.startswith(b"%PDF")
    refused = " ".join(fetcher.refused)
    for url in ("http://127.0.0.1:9/s.css", "file:///etc/passwd", "http://127.0.0.1:9/x.png", "file:///etc/hostname"):
        assert url in refused
    assert not any(u.startswith("data:") for u in fetcher.refused)


def test_shipped_fonts_cover_every_character_we_print(cli, tmp_path):
    # Text the fonts cannot draw falls back to a system font: slower, and different on every machine.
    covered = set()
    for path in font_files():
        covered |= set(TTFont(path).getBestCmap())
    texts = []
    for system_id in SYSTEM_IDS:
        out = tmp_path / f"{system_id}.pdf"
        cli("card", system_id, "-o", out)
        texts.append(pdf_text(out))
    for path in sorted(EXAMPLES.glob("*.yaml")):
        out = tmp_path / f"{path.stem}.pdf"
        cli("render", path, "-o", out)
        texts.append(pdf_text(out))
    missing = {c for c in "".join(texts) if ord(c) not in covered and not c.isspace()}
    assert not missing, f"characters the shipped fonts lack: {sorted(missing)}"


def test_fonts_ship_with_their_licence():
    assert (builtin_templates() / "fonts" / "LICENSE-fonts.txt").read_text().count("SIL OPEN FONT LICENSE") >= 1


def test_a_failed_write_leaves_the_old_file_and_no_temporary(cli, tmp_path, monkeypatch):
    out = tmp_path / "roster.pdf"
    out.write_bytes(b"the old roster")

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    result = cli("render", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "-o", out)
    assert result.exit_code == 3 and "No space left on device" in result.stderr
    assert out.read_bytes() == b"the old roster"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.pdf"]


def test_a_failed_render_leaves_the_old_file(cli, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "_unit.html").write_text("{{ entry.no_such_thing.at_all }}")
    out = tmp_path / "roster.html"
    out.write_text("old")
    result = cli("render", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "-o", out, "--templates", templates)
    assert result.exit_code == 2 and "template" in result.stderr
    assert out.read_text() == "old"


def test_user_templates_override_the_built_in_ones(cli, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "_unit.html").write_text("<p class='mine'>UNIT {{ entry.name }} COSTS {{ entry.cost }}</p>")
    out = tmp_path / "roster.html"
    cli("render", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "-o", out, "--templates", templates)
    html = out.read_text()
    assert "UNIT Hunter COSTS 20" in html and '<article class="unit' not in html


def test_refuses_to_write_over_its_input(cli, tmp_path):
    path = tmp_path / "list.html"
    text = (EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_text()
    path.write_text(text)
    result = cli("render", path, "-o", path)
    assert result.exit_code == 3 and "refusing to write over an input of this command" in result.stderr
    assert path.read_text() == text


def test_unknown_output_format_and_paper(cli, tmp_path):
    path = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
    assert "must end in .pdf or .html" in cli("render", path, "-o", tmp_path / "x.docx").stderr
    assert "use 'a4' or 'letter'" in cli("render", path, "-o", tmp_path / "x.pdf", "--paper", "a3").stderr


def test_html_output_needs_no_pdf_engine(tmp_path):
    out = tmp_path / "x.html"
    code = (
        "import sys\nfrom listbuilder.cli import main\n"
        f"sys.argv = ['listbuilder', 'render', {str(EXAMPLES / 'might-skirmish-zombie-family.legal.yaml')!r}, "
        f"'-o', {str(out)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\nprint('WEASY', 'weasyprint' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "WEASY False" in run.stdout, run.stderr
    assert out.read_text().startswith("<!doctype html>")


def test_render_strict_does_not_double_its_brackets(cli, tmp_path):
    result = cli("render", "--strict", MASH, "-o", tmp_path / "x.pdf")
    assert result.exit_code == 1 and not (tmp_path / "x.pdf").exists()
    assert ") (" not in result.stderr
    assert "14 points over the 100-point limit (114 of 100); the rule: A warband costs no more" in result.stderr

"""Print keeps every unit's name, stats and the total on the page, whatever the input.

Each test renders a real PDF of a hostile but legal-to-read list and reads it back with
pdftotext (poppler-utils): long names wrap or are cut with an ellipsis, huge numbers wrap in
their box, and nothing is pushed off the first page.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from listbuilder.printing.pages import NAME_CHARS, TITLE_CHARS, cut

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")

HUGE = 10**30


def page_text(pdf, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    done = subprocess.run(["pdftotext", "-raw", *pages, str(pdf), "-"], capture_output=True, text=True, check=True)
    return squeeze(done.stdout)


def squeeze(text: str) -> str:
    """Text as compared: case and white space (where lines wrap) left out."""
    return re.sub(r"\s+", "", text).casefold()


def render(cli, tmp_path, text: str):
    source = tmp_path / "list.yaml"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "list.pdf"
    # a list validate calls illegal is printed all the same (render exits 0 without --strict),
    # under a NOT LEGAL banner that a note on stderr names
    illegal = cli("validate", source).exit_code == 1
    result = cli("render", source, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert ("is not legal; its roster says so under a NOT LEGAL banner" in result.stderr) == illegal
    assert out.is_file()
    return out


def test_a_ten_thousand_character_name_and_a_count_of_ten_to_the_thirty(cli, tmp_path):
    long = "Abominable" + "x" * 9_990
    pdf = render(
        cli,
        tmp_path,
        f"system: might-skirmish\nname: {long}\nunits:\n"
        f"  - name: {long}\n    class: Monster\n    might: 20\n"
        f"  - unit: Hunter\n    count: {HUGE}\n"
        "  - unit: Shambler\n",
    )
    first = page_text(pdf, 1)
    assert squeeze(cut(long, TITLE_CHARS)) in first and cut(long, TITLE_CHARS).endswith("…")
    assert squeeze(cut(long, NAME_CHARS)) in first
    total = 20 + 10 * HUGE + 5
    assert squeeze(f"{total:,}") in first and squeeze("/ 100") in first  # the total, beside the title
    assert squeeze(f"{HUGE:,}× Hunter") in first and squeeze(f"{10 * HUGE:,} points") in first
    for stats in ("Class Monster Might 20", "Class Soldier Might 10", "5 points Shambler Class Warrior Might 5"):
        assert squeeze(stats) in first, stats
    assert "x" * (TITLE_CHARS + 1) not in page_text(pdf)  # cut everywhere: footer and reference sheet too


def test_a_name_of_1250_words_leaves_no_blank_first_page(cli, tmp_path):
    words = " ".join(["zombie"] * 1_250)
    pdf = render(
        cli,
        tmp_path,
        f"system: might-skirmish\nname: {words}\nunits:\n  - name: {words}\n    class: Warrior\n    might: 5\n"
        "  - unit: Hunter\n",
    )
    first = page_text(pdf, 1)
    shown = cut(words, TITLE_CHARS)
    assert shown.endswith("zombie…")  # cut after a whole word
    assert squeeze(shown) in first and squeeze("15 / 100") in first
    assert squeeze(cut(words, NAME_CHARS)) in first and squeeze("Class Warrior Might 5") in first
    assert squeeze("10 points Hunter Class Soldier Might 10") in first
    pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert re.search(r"Pages:\s+2\b", pages), pages  # the roster and its reference sheet


def test_glyphs_beyond_the_shipped_fonts_keep_their_text(cli, tmp_path):
    name = "Zombie 🧟 Family ゾンビ ∰ Ωmega"
    pdf = render(
        cli,
        tmp_path,
        f'system: might-skirmish\nname: "{name}"\nunits:\n  - name: "Grave 🪦 Digger ☠"\n'
        "    class: Berserker\n    might: 8\n",
    )
    first = page_text(pdf, 1)
    assert squeeze(name) in first and squeeze("Grave 🪦 Digger ☠") in first
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    fallback = subprocess.run(["fc-match", "-f", "%{family}", "DejaVu Sans"], capture_output=True, text=True).stdout
    if fallback.startswith("DejaVu Sans"):  # the documented fallback, where installed
        assert "DejaVu-Sans" in fonts, fonts


def test_cut_keeps_short_text_whole_and_marks_what_it_cuts():
    assert cut("Hunter", 10) == "Hunter"
    assert cut("x" * 10, 10) == "x" * 10
    assert cut("x" * 11, 10) == "x" * 9 + "…" and len(cut("x" * 11, 10)) == 10
    assert cut("grave digger uncle", 15) == "grave digger…"  # on a word end near the limit

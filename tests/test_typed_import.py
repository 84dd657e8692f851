"""A list typed by hand imports, with its rule set chosen where the text names none; an export with
a misspelt unit names its line and the unit meant; a total the units do not make is noted, and the
lines skipped around the list are said, on the command line and in the builder alike.

Costs below are might-skirmish's: a fighter costs its Might (catalogs/might-skirmish/system.yaml,
'cost: kind: stat'), Hunter 10, Shambler 5, Grandpa Bones 20, Grave Digger 8 (factions/zombie-family.yaml).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webserver import Server, start

from listbuilder.errors import InputError
from listbuilder.rules.catalog import Catalogs
from listbuilder.share.exchange import import_with_notes

SHIPPED = Catalogs()
EXAMPLE = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
SOURCE = Path("typed.txt")
TYPED = "Zombie Family\n2x Hunter 20pts\n4 x Shambler (20)\nGrandpa Bones x2\nGrave Digger\n"
YAML = (
    "system: might-skirmish\nname: Zombie Family\nrevision: 1\nunits:\n  - unit: Hunter\n    count: 2\n"
    "  - unit: Shambler\n    count: 4\n  - unit: Grandpa Bones\n    count: 2\n  - unit: Grave Digger\n"
)
EXPORT_HEAD = (
    "Zombie Family\nMight Skirmish (might-skirmish, catalog revision 1): 40 of 100 points, 6 fighters, legal\n\n"
)


def typed(text: str, system: str | None = "might-skirmish"):
    return import_with_notes(text, SOURCE, SHIPPED, system)


# --- the command line ---------------------------------------------------------------------------


def test_a_list_typed_by_hand_imports_with_its_rule_set_given(cli, tmp_path):
    post = tmp_path / "typed.txt"
    post.write_text(TYPED)
    result = cli("import", post, "--system", "might-skirmish")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == YAML and result.stderr == ""


def test_without_its_rule_set_a_typed_list_says_how_to_give_one(cli, tmp_path):
    post = tmp_path / "typed.txt"
    post.write_text(TYPED)
    result = cli("import", post)
    assert result.exit_code == 2 and result.stdout == ""
    assert "line 2: expected the rule set and total" in result.stderr
    assert "or, for a list typed by hand, give its rule set: --system SYSTEM" in result.stderr
    unknown = cli("import", post, "--system", "might-skirmsh")
    assert unknown.exit_code == 2 and "unknown rule set 'might-skirmsh'" in unknown.stderr
    assert "did you mean 'might-skirmish'" in unknown.stderr


@pytest.mark.parametrize(
    ("line", "unit", "count"),
    [
        ("2x Hunter 20pts", "Hunter", 2),
        ("4 x Shambler (20)", "Shambler", 4),
        ("Hunter x2", "Hunter", 2),
        ("Hunter x 2 - 20 points", "Hunter", 2),
        ("Hunter ×3 (30 pts)", "Hunter", 3),
        ("Hunter 2x", "Hunter", 2),
        ("2 Hunters", "Hunter", 2),
        ("3 Hunter", "Hunter", 3),
        ("Hunter", "Hunter", 1),
        ("hunter - 10 pts", "Hunter", 1),
        ("- 2x Grave Diggers", "Grave Digger", 2),
        ("* Grandpa Bones x1 20pts", "Grandpa Bones", 1),
    ],
)
def test_each_spelling_of_a_typed_entry_reads(line, unit, count):
    back = typed(f"My Zombies\n{line}\n").text
    entry = f"  - unit: {unit}\n" + (f"    count: {count}\n" if count != 1 else "")
    assert back.endswith("units:\n" + entry), back


def test_a_typed_list_in_markdown_reads_without_its_marks():
    got = typed("## **Zombie Family**\n\n- **2x** Hunter\n- `Shambler` x4\n")
    assert got.text == YAML.replace("  - unit: Grandpa Bones\n    count: 2\n  - unit: Grave Digger\n", "")


def test_a_typed_list_with_chatter_and_a_total_says_what_it_skipped_and_that_the_total_differs(cli, tmp_path):
    post = tmp_path / "post.txt"
    post.write_text("Hey all, my list:\n\nZombie Family - 100pts\n- 2x Hunters\n- Shambler x4 - 20 pts\ncheers!\n")
    result = cli("import", post, "--system", "might-skirmish")
    assert result.exit_code == 0, result.stderr
    assert "name: Zombie Family\n" in result.stdout and "points:" not in result.stdout
    notes = [line.split(": ", 2)[2] for line in result.stderr.splitlines()]
    assert notes == [
        "skipped line 1 before the list, which is not part of it",
        "skipped line 6 after the list, which is not part of it",
        "line 3: the text gives a total of 100 points; here it is 40",  # 2 x 10 + 4 x 5
    ]


@pytest.mark.parametrize(
    ("total_line", "limit", "note"),
    [
        ("Total: 40 pts", None, None),
        ("40 of 100 points", 100, None),
        ("45/100pts", 100, "line 4: the text gives a total of 45 points; here it is 40"),
        ("Total: 41 points", None, "line 4: the text gives a total of 41 points; here it is 40"),
    ],
)
def test_a_typed_total_is_read_on_either_side_of_the_boundary(total_line, limit, note):
    got = typed(f"Zombies\n2x Hunter\n4x Shambler\n{total_line}\n")
    assert ("points: 100\n" in got.text) == (limit == 100)
    assert got.notes == ((note,) if note else ())


def test_an_export_with_one_misspelt_unit_names_its_line_and_the_unit_meant(cli, tmp_path):
    post = tmp_path / "export.txt"
    post.write_text(EXPORT_HEAD + "2x Huntr - 20 points\n4x Shambler - 20 points\n")
    result = cli("import", post)
    assert result.exit_code == 2
    assert "this is not a list exported by listbuilder" not in result.stderr
    assert f"error: {post}: a line of this list cannot be read\n" in result.stderr
    assert "line 4: no unit 'Huntr' in the might-skirmish catalogs (did you mean 'Hunter'?" in result.stderr
    two = tmp_path / "two.txt"
    two.write_text(EXPORT_HEAD + "2x Huntr - 20 points\n4x Shamblr - 20 points\n")
    assert "2 lines of this list cannot be read" in cli("import", two).stderr


def test_an_export_whose_header_total_is_not_its_units_is_noted_and_imported(cli, tmp_path):
    post = tmp_path / "export.txt"
    post.write_text(EXPORT_HEAD.replace("40 of 100", "41 of 100") + "2x Hunter - 20 points\n4x Shambler - 20 points\n")
    result = cli("import", post)
    assert result.exit_code == 0
    assert f"note: {post}: line 2: the text gives a total of 41 points; here it is 40" in result.stderr
    assert "points: 100\n" in result.stdout
    exact = tmp_path / "exact.txt"
    exact.write_text(EXPORT_HEAD + "2x Hunter - 20 points\n4x Shambler - 20 points\n")
    assert cli("import", exact).stderr == ""  # 40 of 100: nothing to say


def test_an_export_of_another_rule_set_than_the_one_chosen_is_refused(cli, tmp_path):
    post = tmp_path / "export.txt"
    post.write_text(EXPORT_HEAD + "2x Hunter - 20 points\n")
    result = cli("import", post, "--system", "deathzap")
    assert result.exit_code == 2
    assert "line 2: the text is a list of might-skirmish, not of the rule set chosen, deathzap" in result.stderr
    assert cli("import", post, "--system", "might-skirmish").exit_code == 0  # the same: no conflict
    json_post = tmp_path / "export.json"
    json_post.write_text(cli("export", EXAMPLE, "--format", "json").stdout)
    refused = cli("import", json_post, "--system", "deathzap")
    assert refused.exit_code == 2
    assert "the JSON is a list of might-skirmish, not of the rule set chosen, deathzap" in refused.stderr
    assert cli("import", json_post, "--system", "might-skirmish").exit_code == 0


def test_a_typed_list_with_no_entry_and_a_misspelt_one_in_the_middle(cli, tmp_path):
    with pytest.raises(InputError) as exc:
        typed("Zombies\nsome dice\n")
    assert "no line reads as an entry, such as '2x Windblade - 14 points' or 'Windblade x2'" in exc.value.render()
    with pytest.raises(InputError) as exc:
        typed("Zombies\n2x Hunter\nGrave Diggr\n4x Shambler\n")
    said = exc.value.render()
    assert said.startswith("typed.txt: a line of this list cannot be read")
    assert "line 3: no unit 'Grave Diggr' in the might-skirmish catalogs (did you mean 'Grave Digger'?)" in said


# --- the line reader, for any unit, count, cost and spelling ----------------------------------

ZOMBIES = ["Hunter", "Shambler", "Rotting Hound", "Crow Swarm", "Grave Digger", "Blunderbuss Uncle", "Cousin Sniper"]
SPELLINGS = ["{n}x {u}", "{n} x {u}", "{n} {u}", "{u} x{n}", "{u} x {n}", "{u} ×{n}", "{u} {n}x", "- {n}x {u}"]
COSTS = ["", " {c}pts", " ({c})", " - {c} points", " ({c} pts)", " {c} pts"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(ZOMBIES), st.integers(1, 9999), st.sampled_from(SPELLINGS), st.sampled_from(COSTS)),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_any_typed_line_reads_back_as_its_unit_and_count(entries, named):
    lines = ["Night Shift"] if named else []
    for unit, count, spelling, cost in entries:
        lines.append(spelling.format(n=count, u=unit) + cost.format(c=count * 3))
    got = typed("\n".join(lines) + "\n")
    read = re.findall(r"  - unit: (.+)\n(?:    count: (\d+)\n)?", got.text)
    assert [(u, int(c or 1)) for u, c in read] == [(u, n) for u, n, _, _ in entries]
    assert ("name: Night Shift\n" in got.text) == named
    # each written cost that is not the catalog's is noted, on its line, and no other note is made
    costs = {"Hunter": 10, "Shambler": 5, "Rotting Hound": 4, "Crow Swarm": 3, "Grave Digger": 8}
    costs |= {"Blunderbuss Uncle": 9, "Cousin Sniper": 7}
    wrong = [1 for u, n, _, c in entries if c and n * 3 != n * costs[u]]
    assert len(got.notes) == len(wrong)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200), st.booleans())
def test_no_text_crashes_the_reader(text, chosen):
    try:
        typed(text, "might-skirmish" if chosen else None)
    except InputError as exc:
        assert exc.render()


# --- the builder: the import form over HTTP ---------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start(tmp_path_factory.mktemp("imports"))
    yield server
    server.stop()


def post(server: Server, text: str, system: str = "") -> Any:
    return server.post("/import", {"token": server.token(), "text": text, "system": system})


def test_the_import_form_offers_each_installed_rule_set(served: Server):
    page = served.get("/").text
    form = page[page.index('action="/import"') :]
    form = form[: form.index("</form>")]
    assert '<option value="">As the text says</option>' in form
    for system in (
        "might-skirmish",
        "might-skirmish-150",
        "deathmelt",
        "deathzap",
        "melee-module",
        "speed-range-power",
    ):
        assert f'<option value="{system}">' in form


def test_a_typed_list_imports_over_http_and_the_page_says_what_was_skipped(served: Server):
    answer = post(served, "Hey all!\nZombie Family\n2x Hunter 20pts\nShambler x4\ncheers\n", "might-skirmish")
    assert answer.status == 303
    location = answer.headers["location"]
    assert location.startswith("/list/zombie-family.yaml?done=")
    text = (served.folder / "zombie-family.yaml").read_text()
    assert "  - unit: Hunter\n    count: 2\n  - unit: Shambler\n    count: 4\n" in text
    page = served.get(location, headers={"Sec-Fetch-Site": "same-origin"}).text
    assert "<p>Imported the list as zombie-family.yaml.</p>" in page
    assert "<li>Skipped line 1 before the list, which is not part of it</li>" in page
    assert "<li>Skipped line 5 after the list, which is not part of it</li>" in page


def test_over_http_a_misspelt_export_names_its_line_and_keeps_what_was_typed(served: Server):
    text = EXPORT_HEAD + "2x Huntr - 20 points\n"
    answer = post(served, text)
    assert answer.status == 400
    assert "a line of this list cannot be read" in answer.text
    assert (
        "line 4: no unit &#39;Huntr&#39; in the might-skirmish catalogs (did you mean &#39;Hunter&#39;?" in answer.text
    )
    assert "this is not a list exported" not in answer.text
    assert "2x Huntr - 20 points\n</textarea>" in answer.text
    typed_alone = post(served, "Zombies\n2x Hunter\n")
    assert typed_alone.status == 400
    assert "choose its rule set in the form" in typed_alone.text
    kept = post(served, "Zombies\n2x Huntr\n", "might-skirmish")
    assert '<option value="might-skirmish" selected>' in kept.text


# --- in a browser, at a phone's width and a desktop's ---------------------------------------


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_import_form_in_a_browser(browser: Any, served: Server, width: int, scheme: str, tmp_path: Path):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(8_000)
    try:
        page.goto(f"{served.url}/")
        assert serious_violations(page) == []
        page.get_by_label("A list exported as text, markdown or JSON, or typed one unit a line").fill(
            f"Night Shift {width} {scheme}\n2x Hunter\nGrave Digger x2 - 16 pts\nTotal: 99 pts\n"
        )
        page.get_by_label("Rule set, if the text does not name it").select_option("might-skirmish")
        box = page.get_by_role("button", name="Import it as a new list").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        page.screenshot(path=str(tmp_path / f"import-{width}.png"), full_page=True)
        page.get_by_role("button", name="Import it as a new list").click()
        page.wait_for_url(re.compile(rf"/list/night-shift-{width}-{scheme}\.yaml"))
        notice = page.locator(".message.notice")
        assert notice.locator("p").inner_text() == f"Imported the list as night-shift-{width}-{scheme}.yaml."
        assert notice.locator("li").all_inner_texts() == ["Line 4: the text gives a total of 99 points; here it is 36"]
        assert serious_violations(page) == []
        page.screenshot(path=str(tmp_path / f"imported-{width}.png"))
    finally:
        context.close()

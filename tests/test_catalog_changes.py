"""A catalog that renamed a unit or took one out: lists that name it still load, with a warning that
says what changed and the step that brings the list up to date (``update`` on the command line,
``UpdateUnits`` and ``SetUnit`` in the API, a "Use NEW" button in the builder).

The fixture catalog is ``tests/catalog_changes/`` (no shipped catalog has renamed a unit): the Crypt
Lord was the Barrow King and the Tomb King; the Ghast (Might 6) was retired after revision 2 for
the Bone Hound (Might 4); the Grave Bat (Might 3) after revision 1, with nothing in its place.
Might is a fighter's cost in might-skirmish (its system.yaml, 'cost: kind: stat').
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from conftest import ROOT
from webserver import Server, start

from listbuilder.api import editing, lists
from listbuilder.errors import CatalogError
from listbuilder.rules.catalog import Catalogs

FIXTURE = ROOT / "tests" / "catalog_changes"
BOOKS = Catalogs([FIXTURE], cache=False)
OLD = """\
# my crypt list
system: ms-revised
name: Old Crypt
points: 100
units:
  - unit: Tomb King   # the boss
  - unit: ghast
    count: 2
  - unit: "Grave Bat"
  - unit: Hunter
"""


def write(folder: Path, text: str = OLD, name: str = "old.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(report) -> dict[str, str]:
    return {p.rule_id + ":" + str(p.entries): p.message for p in report.problems}


def test_a_former_name_and_retired_units_load_with_warnings_not_errors(tmp_path):
    report = lists.check_list(write(tmp_path), BOOKS)
    assert report.legal() and not report.errors
    # 12 (Crypt Lord) + 2 x 6 (Ghast's last Might) + 3 (Grave Bat's) + 10 (Hunter) = 37
    assert [ln.cost for ln in report.lines] == [12, 12, 3, 10] and report.total == 37
    assert problems(report) == {
        "catalog-renamed:(0,)": "'Tomb King' is now called Crypt Lord in the ms-revised catalogs: the same unit,"
        " at the same cost",
        "catalog-retired:(1,)": "Ghast is no longer in the ms-revised catalogs (last in revision 2: folded into the"
        " Bone Hound); it is costed by its last stats, 6 points each; Bone Hound takes its place",
        "catalog-retired:(2,)": "Grave Bat is no longer in the ms-revised catalogs (last in revision 1); it is costed"
        " by its last stats, 3 points each",
    }
    assert [p.line for p in report.warnings] == [6, 7, 9]
    assert not report.legal(strict=True)  # --strict turns the warnings into errors


def test_a_list_of_current_names_has_no_such_warning(tmp_path):
    report = lists.check_list(
        write(tmp_path, OLD.replace("Tomb King", "Crypt Lord").replace("ghast", "Bone Hound")), BOOKS
    )
    assert {p.rule_id for p in report.problems} == {"catalog-retired"}  # the Grave Bat alone


def test_update_renames_keeping_the_total_and_every_comment(cli, tmp_path):
    path = write(tmp_path, OLD.replace("  - unit: ghast\n    count: 2\n", "").replace('  - unit: "Grave Bat"\n', ""))
    before = lists.check_list(path, BOOKS).total
    result = cli("update", path, "--catalogs", FIXTURE)
    assert result.exit_code == 0, result.stderr
    assert "Tomb King is now Crypt Lord" in result.stdout
    assert (
        path.read_text() == "# my crypt list\nsystem: ms-revised\nname: Old Crypt\npoints: 100\nunits:\n"
        "  - unit: Crypt Lord   # the boss\n  - unit: Hunter\n"
    )
    after = lists.check_list(path, BOOKS)
    assert before == after.total == 22 and not after.problems  # a rename never changes the points


def test_update_replaces_a_retired_unit_that_names_its_successor_and_leaves_the_other(cli, tmp_path):
    path = write(tmp_path)
    result = cli("update", path, "--catalogs", FIXTURE)
    assert result.exit_code == 0, result.stderr
    assert "Tomb King is now Crypt Lord; Ghast is replaced by Bone Hound" in result.stdout
    text = path.read_text()
    assert '  - unit: Crypt Lord   # the boss\n  - unit: Bone Hound\n    count: 2\n  - unit: "Grave Bat"\n' in text
    report = lists.check_list(path, BOOKS)
    assert report.total == 12 + 2 * 4 + 3 + 10 == 33
    assert [p.rule_id for p in report.problems] == ["catalog-retired"]
    again = cli("update", path, "--catalogs", FIXTURE)
    assert "old.yaml: unchanged" in again.stdout and path.read_text() == text


def test_validate_says_the_command_that_takes_each_step(cli, tmp_path):
    result = cli("validate", write(tmp_path), "--catalogs", FIXTURE)
    assert result.exit_code == 0
    assert "('listbuilder update FILE' writes Crypt Lord for Tomb King)" in result.stdout
    assert (
        "'listbuilder update FILE' puts Bone Hound in its place, or 'listbuilder remove FILE Ghast' removes it"
        in result.stdout
    )
    assert "'listbuilder remove FILE \"Grave Bat\"' removes it" in result.stdout
    strict = cli("validate", write(tmp_path), "--catalogs", FIXTURE, "--strict")
    assert strict.exit_code == 1


def test_remove_takes_a_retired_unit_out(cli, tmp_path):
    path = write(tmp_path)
    result = cli("remove", path, "grave bat", "--catalogs", FIXTURE)
    assert result.exit_code == 0, result.stderr
    assert "Grave Bat" not in path.read_text() and lists.check_list(path, BOOKS).total == 34


def test_set_unit_names_one_entry_anew_and_refuses_a_unit_that_is_gone(tmp_path):
    path = write(tmp_path)
    result = editing.apply_change(path, BOOKS, editing.SetUnit(index=2, unit="bone hound"))
    assert result.done == "Grave Bat is now Bone Hound" and result.report.total == 37 - 3 + 4
    assert '  - unit: "Bone Hound"\n' in path.read_text()  # quoted as it was
    with pytest.raises(Exception, match="no unit 'Ghast' in the ms-revised catalogs"):
        editing.apply_change(path, BOOKS, editing.SetUnit(index=0, unit="Ghast"))


def test_update_units_on_a_text(tmp_path):
    text = editing.apply_to_text(OLD, BOOKS, editing.UpdateUnits()).text
    assert "unit: Crypt Lord   # the boss" in text and "unit: Bone Hound" in text


# --- the catalog's own checks (check-catalog reads the catalog with this loader) ---------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE / "ms-revised", tmp_path / "ms-revised")
    return tmp_path


def broken(root: Path, old: str, new: str) -> str:
    faction = root / "ms-revised" / "factions" / "crypt.yaml"
    text = faction.read_text()
    assert old in text
    faction.write_text(text.replace(old, new))
    with pytest.raises(CatalogError) as exc:
        Catalogs([root], cache=False).get("ms-revised")
    return exc.value.render()


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "formerly: [Barrow King, Tomb King]",
            "formerly: [Barrow King, Hunter]",
            "'Hunter' is a unit of the catalogs now",
        ),
        ("formerly: [Barrow King, Tomb King]", "formerly: [Crypt Lord]", "'Crypt Lord' is the unit's own name"),
        (
            "formerly: [Barrow King, Tomb King]",
            "formerly: [Ghast]",
            "'Ghast' is already a former or retired unit's name",
        ),
        ("formerly: [Barrow King, Tomb King]", "formerly: Tomb King", "expected a list of names, found"),
        (
            "replaced_by: Bone Hound",
            "replaced_by: Bone Hund",
            "no unit 'Bone Hund' in the catalogs (did you mean 'Bone Hound'?)",
        ),
        ("    revision: 2\n", "    revision: 3\n", "revision 3 is not older than the rule set's revision 3"),
        ("    revision: 2\n", "", "retired[0].revision: expected a whole number, found nothing"),
        ("  - name: Grave Bat\n", "  - name: Shambler\n", "'Shambler' is a unit of the catalogs now"),
        ("    might: 3\n", "    might: three\n", "Might must be a whole number"),
    ],
)
def test_a_catalog_that_misstates_a_change_is_refused_with_its_place(root, old, new, said):
    message = broken(root, old, new)
    assert said in message, message
    assert "crypt.yaml" in message


def test_check_catalog_reads_the_fixture_clean(cli):
    result = cli("check-catalog", FIXTURE / "ms-revised", "--catalogs", FIXTURE)
    assert result.exit_code == 0, result.stdout + result.stderr


# --- the builder: the warning at the entry, and the button that takes the step -----------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("crypt")
    server = start(folder, "--catalogs", str(FIXTURE))
    yield server
    server.stop()


def test_the_builder_shows_the_warning_and_a_use_button_that_renames(served: Server):
    write(served.folder)
    page = served.get("/list/old.yaml").text
    assert "&#39;Tomb King&#39; is now called Crypt Lord in the ms-revised catalogs" in page
    assert "Use Crypt Lord</button>" in page and "Use Bone Hound</button>" in page
    assert page.count("entry-fix") == 2  # the Grave Bat has no successor: its Remove button is the step
    assert "“Remove” takes it out: add another from the catalog in its place" in page
    version = served.version("old.yaml")
    fields = {"token": served.token(), "version": version, "change": "unit", "index": "0", "unit": "Crypt Lord"}
    answer = served.post("/list/old.yaml/change", fields)
    assert answer.status == 303
    assert "  - unit: Crypt Lord   # the boss\n" in (served.folder / "old.yaml").read_text()
    page = served.get("/list/old.yaml").text
    assert "Use Crypt Lord" not in page and "Use Bone Hound</button>" in page


def test_the_editor_schema_accepts_old_names_and_says_what_they_are_now():
    from listbuilder.share.editorschema import list_schema

    schema = list_schema(BOOKS.get("ms-revised"))
    entry = schema["properties"]["units"]["items"]["oneOf"][0]
    unit = entry["properties"]["unit"]
    said = dict(zip(unit["enum"], unit["enumDescriptions"], strict=True))
    assert said["Tomb King"] == said["Barrow King"] == "Now called Crypt Lord: write that name."
    assert said["Ghast"] == "No longer in the catalogs (last in revision 2)."


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_in_a_browser_the_use_button_renames_and_the_page_passes_axe(
    browser: Any, served: Server, width: int, scheme: str, tmp_path: Path
):
    name = f"crypt-{width}-{scheme}.yaml"
    write(served.folder, name=name)
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(8_000)
    try:
        page.goto(f"{served.url}/list/{name}")
        page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        assert serious_violations(page) == []
        use = page.get_by_role("button", name="Use Crypt Lord in place of Tomb King")
        use.scroll_into_view_if_needed()
        box = use.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        page.screenshot(path=str(tmp_path / f"use-{width}-{scheme}.png"), full_page=True)
        version = page.locator("#page-version").get_attribute("value")
        use.click()
        page.wait_for_function("v => document.querySelector('#page-version').value !== v", arg=version)
        assert page.get_by_role("button", name="Use Crypt Lord in place of Tomb King").count() == 0
        assert page.get_by_role("button", name="Use Bone Hound in place of Ghast").count() == 1
        assert "  - unit: Crypt Lord   # the boss\n" in (served.folder / name).read_text()
        assert lists.check_list(served.folder / name, BOOKS).total == 37  # the rename kept the points
    finally:
        context.close()


def test_check_catalog_prices_old_names_and_retired_units_and_loads_old_lists(cli):
    result = cli("check-catalog", FIXTURE / "ms-revised", "--catalogs", FIXTURE, "--json")
    assert result.exit_code == 0, result.stdout

    cases = {(c["kind"], c["file"]): (c["passed"], c["got"]) for c in json.loads(result.stdout)["results"]}
    assert cases[("cost", "tests/costs.yaml:3")] == (True, "12 points")  # Tomb King, the Crypt Lord's old name
    assert cases[("cost", "tests/costs.yaml:4")] == (True, "6 points")  # the Ghast's last Might
    assert cases[("cost", "tests/costs.yaml:5")] == (True, "3 points")  # the Grave Bat's
    assert cases[("legal", "tests/legal/an-old-crypt-list.yaml")][0]


def test_reprice_pairs_a_renamed_unit_with_its_old_self(tmp_path):
    from listbuilder.authoring.reprice import compare

    old = tmp_path / "old"
    shutil.copytree(FIXTURE / "ms-revised", old / "ms-revised")
    faction = old / "ms-revised" / "factions" / "crypt.yaml"
    text = faction.read_text()
    text = re.sub(r"  - name: Crypt Lord\n    formerly: .*\n", "  - name: Tomb King\n", text)
    text = text[: text.index("retired:")] + "  - {name: Ghast, class: Beast, might: 6}\n"
    faction.write_text(text)
    (old / "ms-revised" / "system.yaml").write_text(
        (old / "ms-revised" / "system.yaml").read_text().replace("revision: 3", "revision: 1")
    )
    before = Catalogs([old], cache=False).get("ms-revised")
    prices = {p.name: (p.old, p.new) for p in compare(before, BOOKS.get("ms-revised"), "old", "new", []).units}
    assert prices["Crypt Lord (formerly Tomb King)"] == (12, 12)
    assert "Tomb King" not in prices and "Crypt Lord" not in prices
    assert prices["Ghast"] == (6, None)  # taken out: no price in the new catalogs


def test_the_doctor_takes_a_retired_unit_away_but_never_adds_one(cli, tmp_path):
    bats = write(tmp_path, "system: ms-revised\nname: Bats\npoints: 20\nunits:\n  - unit: Grave Bat\n    count: 8\n")
    fixed = cli("fix", bats, "--json", "--catalogs", FIXTURE)
    assert fixed.exit_code == 0, fixed.stderr
    changes = [c for s in json.loads(fixed.stdout)["suggestions"] for c in s["changes"]]
    bat_counts = [c["change"] for c in changes if c["unit"] == "Grave Bat"]
    assert bat_counts and all(n < 0 for n in bat_counts)  # 24 of 20 points: 8 bats at 3, only ever fewer
    filled = cli("fill", write(tmp_path), "--json", "--catalogs", FIXTURE)
    assert filled.exit_code == 0, filled.stderr
    added = {c["unit"] for s in json.loads(filled.stdout)["suggestions"] for c in s["changes"]}
    assert added and not added & {"Ghast", "Grave Bat"}


def test_an_import_names_an_old_unit_by_its_current_name_and_says_so(cli, tmp_path):
    post = write(tmp_path, "Old Crypt\n2x Barrow King\nGhast x3\n", "post.txt")
    result = cli("import", post, "--system", "ms-revised", "--catalogs", FIXTURE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("units:\n  - unit: Crypt Lord\n    count: 2\n  - unit: Ghast\n    count: 3\n")
    assert f"note: {post}: line 2: 'Barrow King' is now called Crypt Lord in the ms-revised catalogs" in result.stderr
    exported = cli("export", write(tmp_path), "--format", "json", "--catalogs", FIXTURE).stdout
    back = cli("import", write(tmp_path, exported, "export.json"), "--catalogs", FIXTURE)
    assert back.exit_code == 0 and "  - unit: Ghast\n    count: 2\n" in back.stdout  # a retired unit's JSON reads back

"""The web builder in a real browser (Debian's Chromium through Playwright), each flow with JavaScript
on (htmx updates the page in place) and off (plain forms that post and redirect).

Every flow checks the list file on disk, not only the page. With JavaScript on, the console must
stay free of errors: a script or style the Content-Security-Policy blocks would show there.
Skips without Playwright or Chromium, unless ``LISTBUILDER_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from conftest import COMMENTED, EXAMPLES
from webserver import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ZOMBIES = [
    ("Hunter", 2),
    ("Shambler", 4),
    ("Rotting Hound", 2),
    ("Crow Swarm", 2),
    ("Grave Digger", 1),
    ("Blunderbuss Uncle", 1),
    ("Grandpa Bones", 1),
    ("Cousin Sniper", 1),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lists")


class Tab:
    """One browser page on the server, with what its console said."""

    def __init__(self, page: Page, server: Server, js: bool) -> None:
        self.page = page
        self.server = server
        self.js = js
        self.errors: list[str] = []
        page.on(
            "console", lambda m: self.errors.append(m.text) if m.type == "error" and not _answered(m.text) else None
        )
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(8_000)

    def open(self, path: str) -> Tab:
        self.page.goto(self.server.url + path)
        if self.js:  # a click before htmx has set the page up would post the form the plain way
            self.page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        return self

    def version(self) -> str:
        return self.page.locator("#page-version").get_attribute("value") or ""

    def act(self, name: str, exact: bool = True) -> None:
        """Press a button and wait until the page shows the list as the change left it."""
        button = self.page.get_by_role("button", name=name, exact=exact).first
        if not self.js:  # the form posts, and the answer redirects to the page anew
            with self.page.expect_navigation():
                button.click()
            return
        before = self.version()
        button.click()
        self.page.wait_for_function(
            "v => { const e = document.querySelector('#page-version'); return e && e.value !== v }", arg=before
        )
        self.settled()

    def settled(self) -> None:
        """Wait until htmx has finished swapping (a key pressed mid-swap posts the plain way)."""
        self.page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")

    def text(self, selector: str) -> str:
        return self.page.locator(selector).inner_text()


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def tab(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Any]:
    js = request.param
    contexts = []

    def new() -> Tab:
        context = browser.new_context(
            java_script_enabled=js, viewport={"width": 390, "height": 900}, accept_downloads=True
        )
        contexts.append(context)
        return Tab(context.new_page(), server, js)

    first = new()
    first.new = new  # type: ignore[attr-defined]
    yield first
    for context in contexts:
        context.close()
    if js:
        assert first.errors == [], first.errors


def _answered(message: str) -> bool:
    """A 4xx answer the test asked for (a conflict, a bad paste): the browser logs it as an error."""
    return message.startswith("Failed to load resource: the server responded with a status of 4")


def _units(path: Path) -> list[tuple[str, int]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(u.get("unit") or u["name"], u.get("count", 1)) for u in data["units"]]


def test_build_a_legal_warband_by_clicks(tab: Tab, folder: Path):
    name = f"Click Band {'js' if tab.js else 'plain'}"
    tab.open("/")
    tab.page.locator("#new-system").select_option("might-skirmish")
    tab.page.get_by_label("Name", exact=True).fill(name)
    tab.page.get_by_role("button", name="Start the list").click()
    tab.page.wait_for_url("**/list/click-band-*.yaml**")
    assert tab.text("#total") == "0 / 100 points"
    for unit, count in ZOMBIES:
        for _ in range(count):
            tab.act(f"Add {unit}")
    assert tab.text("#verdict") == "Legal"
    assert tab.text("#total") == "98 / 100 points"
    assert "98 of 100 points, 14 fighters" in tab.text(".headline")
    file = folder / f"click-band-{'js' if tab.js else 'plain'}.yaml"
    assert _units(file) == ZOMBIES
    assert yaml.safe_load(file.read_text())["name"] == name
    assert tab.page.locator("#verdict").get_attribute("class") == "verdict good"


def test_the_seventeenth_fighter_is_not_legal_and_undo_takes_it_back(tab: Tab, folder: Path):
    file = folder / f"crows-{tab.js}.yaml"
    file.write_text("system: might-skirmish\nname: Crows\npoints: 100\nunits:\n  - unit: Crow Swarm\n    count: 16\n")
    before = file.read_bytes()
    tab.open(f"/list/{file.name}")
    assert tab.text("#verdict") == "Legal"
    tab.act("Add one Crow Swarm")
    assert tab.text("#verdict") == "NOT LEGAL"
    entry = tab.text("#entry-0")
    assert "17×" in entry and "1 fighter too many: 17 fighters, at most 16" in entry
    assert "rule: A warband has at most 16 fighters." in entry
    assert "count: 17" in file.read_text()
    tab.act("Undo the last change")
    assert tab.text("#verdict") == "Legal"
    assert file.read_bytes() == before
    tab.act("Redo")
    assert "count: 17" in file.read_text()


def test_price_a_custom_unit_by_typing(tab: Tab, folder: Path):
    file = folder / f"srp-{tab.js}.yaml"
    file.write_bytes((EXAMPLES / "speed-range-power-sumerians.legal.yaml").read_bytes())
    tab.open(f"/list/{file.name}")
    tab.page.get_by_text("Make your own unit").click()
    form = tab.page.locator("#custom-form")
    form.get_by_label("Name").fill("Scout Car")
    for label, value in (("Speed", "6"), ("Range", "24"), ("Power", "2")):
        form.get_by_label(label, exact=False).first.type(value)
    if not tab.js:
        tab.page.get_by_role("button", name="Price it").click()
        tab.page.wait_for_load_state()
    price = tab.page.locator("#price")
    from playwright.sync_api import expect

    expect(price.locator(".price-total")).to_have_text("30 points")
    parts = price.inner_text()
    assert 'Speed 6": 6' in parts and 'Range 24": 16' in parts and "Power 2: 8" in parts
    rows = len(_units(file))
    tab.act("Add it to the list")
    assert _units(file)[-1] == ("Scout Car", 1) and len(_units(file)) == rows + 1
    assert "Scout Car" in tab.text(".entries")


def test_a_statline_that_breaks_a_rule_says_so(tab: Tab, folder: Path):
    file = folder / f"srp-bad-{tab.js}.yaml"
    file.write_bytes((EXAMPLES / "speed-range-power-sumerians.legal.yaml").read_bytes())
    tab.open(f"/list/{file.name}")
    tab.page.get_by_text("Make your own unit").click()
    form = tab.page.locator("#custom-form")
    for label, value in (("Speed", "7"), ("Range", "24"), ("Power", "2")):
        form.get_by_label(label, exact=False).first.type(value)
    if not tab.js:
        tab.page.get_by_role("button", name="Price it").click()
        tab.page.wait_for_load_state()
    from playwright.sync_api import expect

    expect(tab.page.locator("#price .problems")).to_contain_text("Speed")


def test_edit_a_hand_written_list_and_keep_every_comment(tab: Tab, folder: Path):
    file = folder / f"night-{tab.js}.yaml"
    file.write_text(COMMENTED)
    tab.open(f"/list/{file.name}")
    tab.act("Add one Hunter")
    tab.act("Remove one Shambler")
    tab.act("Add Crow Swarm")
    tab.act("Remove the Crow Swarm entry")
    tab.page.get_by_text("Name and limit").click()
    tab.page.get_by_label("List name", exact=True).fill("Night Shift Two")
    tab.act("Rename")
    text = file.read_text()
    for line in COMMENTED.splitlines():
        if "#" in line:
            assert "#" + line.split("#", 1)[1] in text
    assert _units(file) == [("Hunter", 3), ("Shambler", 3), ("Grandpa Bones", 1)]
    assert "name: Night Shift Two\n" in text
    assert tab.text("h1") == "Night Shift Two"


def test_import_pasted_text(tab: Tab, folder: Path, server: Server):
    from listbuilder.api import lists, rulesets, sharing

    text = sharing.export_list(
        lists.check_list(EXAMPLES / "deathzap-frontier-rangers.legal.yaml", rulesets.open_catalogs())
    )
    before = set(folder.iterdir())
    tab.open("/")
    tab.page.get_by_label("A list exported as text, markdown or JSON").fill(text)
    tab.page.get_by_role("button", name="Import it as a new list").click()
    tab.page.wait_for_url("**/list/**")
    (new,) = set(folder.iterdir()) - before
    assert tab.text("h1") == "Frontier Rangers patrol"
    assert (
        lists.check_list(new, rulesets.open_catalogs()).total
        == lists.check_list(EXAMPLES / "deathzap-frontier-rangers.legal.yaml", rulesets.open_catalogs()).total
    )


def test_a_bad_paste_says_where_it_is_wrong(tab: Tab):
    tab.open("/")
    tab.page.get_by_label("A list exported as text, markdown or JSON").fill("Nonsense (no-such-game)\n- 2 Nobody")
    tab.page.get_by_role("button", name="Import it as a new list").click()
    tab.page.wait_for_load_state()
    message = tab.text(".message.error")
    assert "this is not a list exported by listbuilder" in message and "line 2: expected the rule set" in message


def test_download_the_pdf_and_read_it(tab: Tab, folder: Path, tmp_path: Path):
    file = folder / f"zombies-{tab.js}.yaml"
    file.write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    tab.open(f"/list/{file.name}/share")
    tab.page.get_by_label("A QR code of the list on the roster").check()
    with tab.page.expect_download() as download:
        tab.page.get_by_role("button", name="Download", exact=True).click()
    pdf = tmp_path / "roster.pdf"
    download.value.save_as(pdf)
    assert download.value.suggested_filename == f"zombies-{tab.js}.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Zombie Family" in text and "98 / 100" in text and "SCAN: THE LIST AS" in text.upper()
    assert "GRANDPA BONES" in text.upper() and "page 2 of 2" in text.lower()  # the roster, then the reference sheet


def test_two_pages_on_one_list_the_second_is_told(tab: Tab, folder: Path):
    file = folder / f"shared-{tab.js}.yaml"
    file.write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    first = tab.open(f"/list/{file.name}")
    second = tab.new().open(f"/list/{file.name}")  # type: ignore[attr-defined]
    first.act("Add Hunter")
    assert _units(file)[0] == ("Hunter", 3)
    after_first = file.read_bytes()
    second.page.get_by_role("button", name="Add Shambler", exact=True).click()
    from playwright.sync_api import expect

    expect(second.page.locator(".message.conflict").first).to_contain_text("changed on disk")
    assert file.read_bytes() == after_first  # the second tab's change was not made over the first's
    expect(second.page.locator("#entry-0")).to_contain_text("3×")  # it shows the list as it is now
    second.act("Add Shambler")  # and a change made now goes through
    assert dict(_units(file))["Shambler"] == 5
    assert second.errors == [] or not tab.js


def test_the_keyboard_focus_stays_on_the_button_pressed(tab: Tab, folder: Path):
    if not tab.js:
        pytest.skip("without JavaScript the page loads anew, as any form post does")
    file = folder / "focus.yaml"
    file.write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    tab.open(f"/list/{file.name}")
    tab.page.get_by_role("button", name="Add Crow Swarm", exact=True).focus()
    for expected in (3, 4):
        before = tab.version()
        tab.page.keyboard.press("Enter")
        tab.page.wait_for_function("v => document.querySelector('#page-version').value !== v", arg=before)
        tab.settled()
        assert tab.page.evaluate("document.activeElement.getAttribute('aria-label')") == "Add Crow Swarm"
        assert dict(_units(file))["Crow Swarm"] == expected


def test_the_copy_button_copies_the_text(browser: Browser, server: Server, folder: Path):
    file = folder / "copy.yaml"
    file.write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/list/copy.yaml/share")
        page.get_by_role("button", name="Copy the text").click()
        from playwright.sync_api import expect

        expect(page.get_by_role("button", name="Copied")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == page.locator("#export-text").input_value()
    finally:
        context.close()
    plain = browser.new_context(java_script_enabled=False)
    try:
        page = plain.new_page()
        page.goto(f"{server.url}/list/copy.yaml/share")
        assert page.get_by_role("button", name="Copy the text").count() == 0  # hidden: it needs the script
        assert page.locator("#export-text").input_value().startswith("Zombie Family\n")
    finally:
        plain.close()


def test_suggest_a_fix_and_apply_it(tab: Tab, folder: Path):
    file = folder / f"mash-{tab.js}.yaml"
    file.write_bytes((EXAMPLES / "might-skirmish-monster-mash.illegal.yaml").read_bytes())
    before = file.read_bytes()
    tab.open(f"/list/{file.name}")
    assert tab.text("#verdict") == "NOT LEGAL"
    tab.page.get_by_role("button", name="Suggest a fix").click()
    from playwright.sync_api import expect

    first = tab.page.locator(".suggestions li").first
    expect(first).to_contain_text("100 of 100 points, 10 fighters, legal")
    assert file.read_bytes() == before  # asking changes nothing
    tab.act("Apply suggestion 1:", exact=False)
    assert tab.text("#verdict") == "Legal"
    assert "Fixed: -1 Old Mother, +2 Crow Swarm" in tab.text(".message.notice")
    units = dict(_units(file))
    assert "Old Mother" not in units and units["Crow Swarm"] == 2
    tab.act("Undo the last change")
    assert file.read_bytes() == before


def test_fill_to_the_limit(tab: Tab, folder: Path):
    file = folder / f"fill-{tab.js}.yaml"
    file.write_text("system: might-skirmish\nname: Start\npoints: 60\nunits:\n  - unit: Hunter\n    count: 2\n")
    tab.open(f"/list/{file.name}")
    assert tab.page.get_by_role("button", name="Suggest a fix").count() == 0  # it is legal
    tab.page.get_by_role("button", name="Fill to the limit").click()
    from playwright.sync_api import expect

    expect(tab.page.locator(".suggestions li").first).to_contain_text("+2 Grandpa Bones: 60 of 60 points")
    tab.act("Apply suggestion 1:", exact=False)
    assert tab.text("#total") == "60 / 60 points" and tab.text("#verdict") == "Legal"
    assert _units(file) == [("Hunter", 2), ("Grandpa Bones", 2)]
    # nothing left to fill: the button stays, disabled, so the buttons beside it keep their places
    expect(tab.page.get_by_role("button", name="Fill to the limit")).to_be_disabled()

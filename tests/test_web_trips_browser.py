"""What tripped a player in the browser, at 390 and 1280 px, with JavaScript on and off: focus
after a removal, an open tab after a restart or a deletion elsewhere, undo after a shell edit,
compare, and the small things (names said twice, "1 figures", CSP errors, "Price it").

Every test checks the list file on disk as well as the page. Screenshots of the states a player
lands in go to ``LISTBUILDER_SHOTS`` when it is set (a folder), to be looked at.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from axe import serious_violations
from conftest import EXAMPLES
from webserver import Server, start

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SHOTS = os.environ.get("LISTBUILDER_SHOTS")
WIDTHS = (390, 1280)
# Which controls a page has and what they are called, as a screen reader lists them.
CONTROLS = """() => [...document.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea')]
  .filter(e => e.offsetParent !== null && !e.closest('[aria-hidden=true]'))
  .map(e => (e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent))
  .map(name => name.trim().replace(/\\s+/g, ' '))"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("trips")


class Tab:
    """One browser page, with the console errors and CSP violations it saw."""

    def __init__(self, page: Page, url: str, js: bool, width: int) -> None:
        self.page, self.url, self.js, self.width = page, url, js, width
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and not _asked(m.text) else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(8_000)

    def open(self, path: str) -> Tab:
        self.page.goto(self.url + path)
        self.ready()
        return self

    def ready(self) -> None:
        if self.js:
            self.page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
            self.page.evaluate(  # a CSP violation says itself here too, not only in the console
                "() => document.addEventListener('securitypolicyviolation',"
                " e => console.error('CSP ' + e.violatedDirective))"
            )

    def press(self, name: str) -> None:
        """Press a button and wait until the page shows the list as the change left it."""
        button = self.page.get_by_role("button", name=name, exact=True)
        assert button.count() == 1, f"{button.count()} buttons called {name!r}"
        if not self.js:
            with self.page.expect_navigation():
                button.click()
            return
        self.after(button.click)

    def after(self, act: Any) -> None:
        before = self.page.locator("#page-version").get_attribute("value")
        act()
        self.page.wait_for_function(
            "v => { const e = document.querySelector('#page-version'); return e && e.value !== v }", arg=before
        )
        self.page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")

    def focused(self) -> str:
        return self.page.evaluate(
            "() => { const e = document.activeElement; return e === document.body ? 'BODY' :"
            " e.tagName + ' ' + (e.getAttribute('aria-label') || e.textContent).trim().replace(/\\s+/g, ' ') }"
        )

    def shot(self, name: str) -> None:
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(  # caret="initial": hiding it would inject a style, which the CSP refuses
                path=f"{SHOTS}/{name}-{self.width}-{'js' if self.js else 'nojs'}.png", full_page=True, caret="initial"
            )


def _asked(text: str) -> bool:
    """A 4xx answer a test provokes (a refusal, a conflict): Chromium logs it as an error."""
    return text.startswith("Failed to load resource: the server responded with a status of 4")


@pytest.fixture(
    params=[(w, js) for w in WIDTHS for js in (True, False)], ids=lambda p: f"{p[0]}-{'js' if p[1] else 'nojs'}"
)
def tab(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Any]:
    width, js = request.param
    contexts = []

    def new(url: str = server.url) -> Tab:
        context = browser.new_context(java_script_enabled=js, viewport={"width": width, "height": 900})
        contexts.append(context)
        return Tab(context.new_page(), url, js, width)

    first = new()
    first.new = new  # type: ignore[attr-defined]
    yield first
    for context in contexts:
        context.close()
    assert first.errors == [], first.errors


def _list(folder: Path, tab: Tab, example: str = "might-skirmish-zombie-family.legal") -> Path:
    file = folder / f"{example.split('.')[0]}-{tab.width}-{'js' if tab.js else 'nojs'}.yaml"
    file.write_bytes((EXAMPLES / f"{example}.yaml").read_bytes())
    return file


def _units(path: Path) -> list[tuple[str, int]]:
    return [(u.get("unit") or u["name"], u.get("count", 1)) for u in yaml.safe_load(path.read_text())["units"]]


# --- 1. focus after a removal ---------------------------------------------------------------------


def test_after_remove_the_focus_is_on_the_next_entrys_name_and_enter_removes_nothing(tab: Tab, folder: Path):
    file = _list(folder, tab)
    tab.open(f"/list/{file.name}")
    names = [u for u, _ in _units(file)]
    tab.page.get_by_role("button", name="Remove the Shambler entry", exact=True).focus()
    if tab.js:
        tab.after(lambda: tab.page.keyboard.press("Enter"))
        assert tab.focused() == "P 2× Rotting Hound"  # the entry that took its place: no button
    else:
        with tab.page.expect_navigation():
            tab.page.keyboard.press("Enter")
        assert tab.page.locator(".message.notice").inner_text() == "Removed the Shambler entry"
        assert tab.focused() == "BODY"  # a page loaded anew: Enter presses nothing
    tab.shot("removed")
    after_one = file.read_bytes()
    tab.page.keyboard.press("Enter")  # pressed twice
    tab.page.wait_for_timeout(600)
    assert file.read_bytes() == after_one
    assert [u for u, _ in _units(file)] == [n for n in names if n != "Shambler"]


def test_minus_on_a_one_model_entry_and_the_last_entry_leave_the_focus_in_the_list(tab: Tab, folder: Path):
    if not tab.js:
        pytest.skip("without JavaScript every change loads the page anew (the test above)")
    file = _list(folder, tab)
    tab.open(f"/list/{file.name}")
    tab.page.get_by_role("button", name="Remove one Grandpa Bones", exact=True).focus()
    tab.after(lambda: tab.page.keyboard.press("Enter"))
    assert tab.focused() == "P 1× Cousin Sniper"  # not the body, not the next entry's "−"
    tab.page.get_by_role("button", name="Remove the Cousin Sniper entry", exact=True).focus()
    tab.after(lambda: tab.page.keyboard.press("Enter"))  # the last entry: nothing took its place
    assert tab.focused() == "H1 Zombie Family"
    assert [u for u, _ in _units(file)][-1] == "Blunderbuss Uncle"
    tab.press("Add one Hunter")
    assert tab.focused() == "BUTTON Add one Hunter"  # a control still there keeps the focus


# --- 2. an open tab after a restart, or after the list is deleted elsewhere -----------------------


def test_an_open_tab_after_a_restart_says_so_reloads_and_the_next_click_works(browser: Browser, folder: Path):
    for js in (True, False):
        file = folder / f"restart-{js}.yaml"
        file.write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
        first = start(folder)
        context = browser.new_context(java_script_enabled=js, viewport={"width": 390, "height": 900})
        try:
            tab = Tab(context.new_page(), first.url, js, 390).open(f"/list/{file.name}")
            port = first.port
            first.stop()
            again = start(folder, "--port", str(port))  # the same address, a new token
            try:
                assert again.port == port
                before = file.read_bytes()
                with tab.page.expect_navigation():
                    tab.page.get_by_role("button", name="Add one Hunter", exact=True).click()
                tab.ready()
                assert "?restarted=1" in tab.page.url
                said = tab.page.locator(".message.conflict").inner_text()
                assert "The server was restarted after this page was loaded, so that change was not made." in said
                assert file.read_bytes() == before
                tab.shot("restarted")
                tab.press("Add one Hunter")
                assert dict(_units(file))["Hunter"] == 3  # made once
                down = re.compile(r"ERR_CONNECTION_REFUSED|^htmx:(sendError|afterRequest)")  # the watch, while down
                assert [e for e in tab.errors if not down.search(e)] == [], tab.errors
            finally:
                again.stop()
        finally:
            context.close()
            first.stop()


def test_a_list_deleted_in_another_tab_is_said_once_not_as_a_page_in_the_page(tab: Tab, folder: Path):
    file = _list(folder, tab)
    tab.open(f"/list/{file.name}")
    other = tab.new().open("/")  # type: ignore[attr-defined]
    label = re.compile(rf"^Delete Zombie Family( \({file.name}\))?$")
    other.page.locator("summary", has_text=label).click()  # Delete asks first
    with other.page.expect_navigation():
        other.page.get_by_role("button", name=re.compile(rf"^Yes, delete Zombie Family( \({file.name}\))?$")).click()
    assert not file.exists()
    button = tab.page.get_by_role("button", name="Add one Hunter", exact=True)
    if tab.js:
        button.click()
        tab.page.locator("#error-title").wait_for()
        assert tab.focused() == "H1 No such list"
    else:
        with tab.page.expect_navigation():
            button.click()
    page = tab.page.content()
    assert page.count('<header class="top"') == 1 and page.count("<footer") == 1 and page.count("<main") == 1
    assert f"There is no list file {file.name} in this folder" in tab.page.locator("main").inner_text()
    tab.shot("deleted")
    assert not file.exists()


# --- 4. undo after a shell edit -------------------------------------------------------------------


def test_undo_after_a_shell_edit_is_off_and_says_why(tab: Tab, folder: Path):
    file = _list(folder, tab)
    tab.open(f"/list/{file.name}")
    tab.press("Add one Hunter")
    assert tab.page.locator("#undo").is_enabled()
    file.write_text(file.read_text() + "# by hand\n")  # the shell edits it
    if tab.js:  # the page's watch on the list sees the edit: undo says at once what it can do
        tab.page.locator("#undo-why").wait_for(timeout=8_000)
        assert "changed on disk" in tab.page.locator("#status").inner_text()
        tab.page.get_by_role("link", name="Show it as it is now").click()
        tab.ready()
    else:
        tab.open(f"/list/{file.name}")
    undo = tab.page.locator("#undo")
    assert undo.is_disabled() and undo.inner_text().strip() == "↶ Undo"
    why = tab.page.locator("#undo-why").inner_text()
    assert why.startswith("No undo: the list was changed outside the builder after the last change made here")
    assert file.read_text().endswith("# by hand\n")
    tab.shot("undo-off")
    tab.press("Add one Hunter")  # a change made here now can be undone, and only it
    undo = tab.page.locator("#undo")  # its count is drawn by the style sheet, not said as part of its name
    assert undo.inner_text().strip() == "↶ Undo" and undo.get_attribute("data-steps") == "1"
    assert (
        undo.evaluate("b => getComputedStyle(b, '::after').content") == '" 1" / ""'
    )  # shown as "↶ Undo 1", its alt text none

    tab.press("Undo the last change")
    assert tab.page.locator("#undo").is_disabled() and file.read_text().endswith("# by hand\n")


# --- 5. compare -----------------------------------------------------------------------------------


def test_compare_offers_the_lists_of_its_rule_set_by_name(tab: Tab, folder: Path):
    mine = _list(folder, tab, "deathzap-frontier-rangers.legal")
    theirs = _list(folder, tab, "deathzap-grox-swarm.illegal")
    _list(folder, tab, "speed-range-power-sumerians.legal")
    tab.open(f"/list/{mine.name}/compare")
    offered = tab.page.locator("select[name=with] option").all_inner_texts()
    assert "Grox swarm" in " ".join(offered) or any("Grox" in o for o in offered), offered
    assert not any(o.endswith(".yaml") for o in offered if "(" not in o), offered  # names, not files
    assert not any("Sumerian" in o for o in offered), offered  # another rule set
    tab.page.get_by_label("With").select_option(theirs.name)
    with tab.page.expect_navigation():
        tab.page.get_by_role("button", name="Compare", exact=True).click()
    assert "different rule sets" not in tab.page.locator("main").inner_text()
    tab.shot("compare")


# --- 7. the small things --------------------------------------------------------------------------


def test_no_two_controls_share_a_name_after_fill_and_on_the_lists_page(tab: Tab, folder: Path):
    file = folder / f"lugals-{tab.width}-{tab.js}.yaml"
    file.write_text(
        "system: speed-range-power\nname: Two Lugals\npoints: 200\nunits:\n"
        "  - unit: Lugal\n  - unit: Lugal\n    count: 2\n",
        encoding="utf-8",
    )
    tab.open(f"/list/{file.name}")
    names = tab.page.evaluate(CONTROLS)
    twice = {n for n in names if names.count(n) > 1}
    assert twice == set(), twice
    assert "Remove one Lugal, entry 1" in names and "Remove the Lugal, entry 2 entry" in names
    for copy in ("a", "b"):
        (folder / f"copy-{copy}-{tab.width}-{tab.js}.yaml").write_bytes(file.read_bytes())
    tab.open("/")
    assert tab.page.title() == "Your lists · listbuilder"
    names = tab.page.evaluate(CONTROLS)
    twice = {n for n in names if names.count(n) > 1}
    assert twice == set(), twice


def test_one_figure_is_one_figure(tab: Tab, folder: Path):
    file = folder / f"one-{tab.width}-{tab.js}.yaml"
    file.write_text("system: deathmelt\nname: One\nunits: []\n", encoding="utf-8")
    tab.open(f"/list/{file.name}")
    first = tab.page.locator("#catalog .add").first.get_attribute("aria-label") or ""
    tab.press(first)
    text = tab.page.locator("main").inner_text()
    assert re.search(r"\b1 figures\b", text) is None, text
    assert tab.page.locator("#total").inner_text() == "1 figure"


def test_price_it_without_javascript_stays_on_the_builder(tab: Tab, folder: Path):
    file = _list(folder, tab, "speed-range-power-sumerians.legal")
    before = file.read_bytes()
    tab.open(f"/list/{file.name}")
    tab.page.get_by_text("Make your own unit").click()
    form = tab.page.locator("#custom-form")
    form.get_by_label("Name").fill("Scout Car")
    for label, value in (("Speed", "6"), ("Range", "24"), ("Power", "2")):
        form.get_by_label(label, exact=False).first.fill(value)
    if tab.js:
        tab.page.locator("#price .price-total").wait_for()
    else:
        with tab.page.expect_navigation():
            tab.page.get_by_role("button", name="Price it").click()
        assert re.search(rf"/list/{re.escape(file.name)}\?priced=1&.*#custom$", tab.page.url), tab.page.url
        assert "token" not in tab.page.url
    assert tab.page.locator("#price .price-total").inner_text() == "30 points"
    assert tab.page.locator("#custom-form").get_by_label("Name").input_value() == "Scout Car"
    assert file.read_bytes() == before  # pricing writes nothing
    tab.shot("priced")


# --- what the server says when it cannot help: plain-text refusals, no answer at all ---------------


def test_a_refusal_in_plain_text_or_no_answer_is_said_above_the_page_not_swapped_into_it(tab: Tab, folder: Path):
    if not tab.js:
        pytest.skip("without JavaScript the browser shows the answer as the page it is")
    file = _list(folder, tab)
    before = file.read_bytes()
    tab.open(f"/list/{file.name}")
    busy = "The server is busy with other long answers; try again in a moment.\n"
    tab.page.route("**/change", lambda route: route.fulfill(status=503, body=busy, content_type="text/plain"))
    tab.page.get_by_role("button", name="Add one Hunter", exact=True).click()
    trouble = tab.page.locator("#trouble")
    trouble.wait_for()
    assert trouble.inner_text() == busy.strip() + " Nothing was changed."
    tab.page.unroute("**/change")
    tab.page.route("**/change", lambda route: route.abort("connectionrefused"))
    tab.page.get_by_role("button", name="Add one Hunter", exact=True).click()
    tab.page.wait_for_function("() => document.querySelector('#trouble').textContent.startsWith('The server did not')")
    assert tab.page.locator("#builder").count() == 1 and tab.page.locator("header.top").count() == 1
    assert file.read_bytes() == before
    tab.shot("no-answer")
    tab.page.unroute("**/change")
    tab.press("Add one Hunter")  # once it answers again, a change goes through and the note goes
    assert tab.page.locator("#trouble").count() == 0 and dict(_units(file))["Hunter"] == 3
    tab.errors[:] = [
        e for e in tab.errors if not re.search(r"CONNECTION_REFUSED|status of 503|^htmx:|Status Error Code 503", e)
    ]


# --- axe-core on every state a trip leaves a page in ---------------------------------------------


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_nothing_serious_in_these_states(
    browser: Browser, server: Server, folder: Path, scheme: str, width: int
):
    from listbuilder.api import editing, folders, rulesets

    file = folder / f"axe-{scheme}-{width}.yaml"
    file.write_bytes((EXAMPLES / "speed-range-power-sumerians.legal.yaml").read_bytes())
    (folder / f"axe-other-{scheme}-{width}.yaml").write_bytes(
        (EXAMPLES / "speed-range-power-camel-corps.legal.yaml").read_bytes()
    )
    folders.change_list(folder, file.name, rulesets.open_catalogs(), editing.AddUnit(unit="Slinger", count=1))
    file.write_text(file.read_text() + "# by hand\n")  # undo is off, and says why
    pages = [
        f"/list/{file.name}?restarted=1",
        f"/list/{file.name}?priced=1&name=Scout+Car&speed=6&range=24&power=2#custom",
        f"/list/{file.name}/compare?with=axe-other-{scheme}-{width}.yaml",
        "/list/no-such-list.yaml",
        "/",
    ]
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    try:
        page = context.new_page()
        for path in pages:
            page.goto(server.url + path)
            assert page.locator("#undo-why").count() == (1 if "restarted" in path or "priced" in path else 0)
            assert serious_violations(page) == [], path
    finally:
        context.close()

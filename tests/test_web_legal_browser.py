"""The verdict "No size agreed", the New list form's size and the lists page's Delete, in Chromium at a
phone's width (390 px) and a desktop's (1280 px), with JavaScript on and off; axe-core on the same
pages in the light and the dark scheme.

Deathmelt has no points and no standard game (text 000; ruling 7 of the rules' README counts a
force in figures, each Monster as 3: line 117). Ten Hive Titans and their Brood Herald are 31.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from conftest import EXAMPLES
from webserver import Server

pytestmark = pytest.mark.browser

TITANS = "system: deathmelt\nname: Titan swarm\nunits:\n  - unit: Brood Herald\n  - unit: Hive Titan\n    count: 10\n"
TYPO = "system: might-skirmish\nname: Typo\nunits:\n  - unit: Huntr\n"
SHOTS = os.environ.get("LISTBUILDER_SHOTS")  # a folder to keep screenshots in, to look at them


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("legal-browser")
    (root / "zombies.yaml").write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    (root / "typo.yaml").write_text(TYPO, encoding="utf-8")
    return root


@pytest.fixture(params=[390, 1280], ids=["phone", "desktop"])
def width(request: pytest.FixtureRequest) -> int:
    return int(request.param)


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def page(request: pytest.FixtureRequest, browser: Any, server: Server, width: int) -> Iterator[Any]:
    context = browser.new_context(java_script_enabled=request.param, viewport={"width": width, "height": 900})
    errors: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.set_default_timeout(8_000)
    tab.js = request.param
    tab.width = width
    yield tab
    context.close()
    assert errors == []


def _open(page: Any, server: Server, path: str) -> None:
    page.goto(server.url + path)
    if page.js:
        page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


def _shot(page: Any, name: str) -> None:
    if SHOTS:  # caret="initial": hiding it would inject a style, which the CSP refuses
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        where = f"{SHOTS}/{name}-{page.width}-{'js' if page.js else 'nojs'}.png"
        page.screenshot(path=where, full_page=True, caret="initial")


def test_a_new_deathmelt_list_asks_for_its_size(page: Any, server: Server, folder: Path):
    tag = f"{page.width}-{'js' if page.js else 'plain'}"
    _open(page, server, "/")
    size = page.get_by_role("textbox", name="Size")
    assert size.get_attribute("aria-describedby") == "size-help"
    assert "no standard size: type the number of figures" in page.locator("#size-help").inner_text()
    page.locator("#new-system").select_option("might-skirmish")
    if page.js:  # the box follows the rule set: 100 points when empty (text 004, line 48)
        assert size.get_attribute("placeholder") == "empty: 100 points" and not size.evaluate("e => e.required")
    page.locator("#new-system").select_option("deathmelt")
    page.get_by_label("Name", exact=True).fill(f"Hive {tag}")
    file = folder / f"hive-{tag}.yaml"
    if page.js:  # the browser asks before anything is sent
        assert size.get_attribute("placeholder") == "the figures agreed, e.g. 24" and size.evaluate("e => e.required")
        page.get_by_role("button", name="Start the list").click()
        assert size.evaluate("e => e.validity.valueMissing") and not file.exists()
    else:  # the server refuses, says why, and keeps the form
        with page.expect_navigation():
            page.get_by_role("button", name="Start the list").click()
        said = page.locator("main").inner_text()
        assert "Deathmelt has no standard size: a new list needs the size the players agreed" in said
        assert "type the agreed size in the Size box" in said and not file.exists()
        assert page.get_by_label("Name", exact=True).input_value() == f"Hive {tag}"
        _shot(page, "new-refused")
    page.get_by_role("textbox", name="Size").fill("24")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the list").click()
    assert "figures: 24" in file.read_text(encoding="utf-8").splitlines()
    assert "0 / 24" in page.locator("#total").inner_text()


def test_no_size_agreed_in_amber_and_fill_says_why_until_the_size_is_set(page: Any, server: Server, folder: Path):
    file = folder / f"titans-{page.width}-{page.js}.yaml"
    file.write_text(TITANS, encoding="utf-8")
    _open(page, server, f"/list/{file.name}")
    verdict = page.locator("#verdict")
    assert verdict.inner_text().upper() == "NO SIZE AGREED" and verdict.get_attribute("class") == "verdict pending"
    assert "nothing is legal or illegal until you and your opponent agree one" in page.locator("#size-why").inner_text()
    fill = page.get_by_role("button", name="Fill to the limit")
    assert fill.is_disabled()
    why = page.locator("#" + (fill.get_attribute("aria-describedby") or "none"))
    assert why.is_visible() and why.inner_text() == (
        "“Fill to the limit” waits for a size: set the limit under “Name and limit”."
    )
    limit = page.get_by_label("Limit (figures)")
    assert limit.is_visible()  # "Name and limit" is open
    if page.width == 390:
        bar = page.locator("#tally-bar")
        assert bar.is_visible() and "No size agreed" in bar.inner_text()
    _shot(page, "no-size")
    limit.fill("31")
    if page.js:
        page.get_by_role("button", name="Set the limit").click()
        page.wait_for_function("() => document.querySelector('#verdict').textContent === 'Legal'")
    else:
        with page.expect_navigation():
            page.get_by_role("button", name="Set the limit").click()
    assert verdict.inner_text().upper() == "LEGAL" and "31 / 31" in page.locator("#total").inner_text()
    assert "figures: 31" in file.read_text(encoding="utf-8").splitlines()
    why = page.locator("#fill-why")  # at the limit, 31 of 31: still greyed out, now for that reason
    assert why.inner_text() == "“Fill to the limit” has nothing to add: the list is at its limit."


def test_delete_asks_first_and_restore_sits_above_the_lists(page: Any, server: Server, folder: Path):
    file = folder / f"spare-{page.width}-{page.js}.yaml"
    file.write_text(TITANS.replace("Titan swarm", f"Spare {page.width} {page.js}"), encoding="utf-8")
    name = f"Spare {page.width} {page.js}"
    _open(page, server, "/")
    yes = page.get_by_role("button", name=f"Yes, delete {name}")
    assert not yes.is_visible()
    page.locator("summary", has_text=f"Delete {name}").click()
    assert yes.is_visible() and file.exists()  # a question, nothing deleted yet
    card = page.locator("li.list-card", has=yes)
    assert f"Delete {name}? It goes to “Deleted lists” above" in card.inner_text()
    box = yes.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.width  # on the screen, thumb-sized
    assert box["height"] >= 44
    _shot(page, "delete-asks")
    with page.expect_navigation():
        yes.click()
    assert not file.exists()
    deleted = page.locator("#deleted-title").bounding_box()
    lists = page.locator("#lists-title").bounding_box()
    assert deleted and lists and deleted["y"] < lists["y"]
    restore = page.get_by_role("button", name=f"Restore {name}")
    with page.expect_navigation():
        restore.click()
    assert file.exists()


def test_a_card_that_cannot_be_read_has_its_buttons_and_no_server_path(page: Any, server: Server, folder: Path):
    _open(page, server, "/")
    card = page.locator("li.list-card.broken", has_text="typo.yaml")
    text = card.inner_text()
    assert "Cannot be read".upper() in text.upper() and "did you mean 'Hunter'?" in text
    assert str(folder) not in page.locator("main").inner_text()
    assert card.get_by_role("button", name="Duplicate typo.yaml").is_visible()
    assert card.locator("summary", has_text="Delete typo.yaml").is_visible()
    link = card.get_by_role("link", name="Download typo.yaml")
    assert link.get_attribute("href") == "/list/typo.yaml/download"


# --- axe-core: the same pages, light and dark ------------------------------------------------------


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious(browser: Any, server: Server, folder: Path, width: int, scheme: str):
    (folder / "axe-titans.yaml").write_text(TITANS, encoding="utf-8")
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    try:
        page = context.new_page()
        for path in ("/", "/list/axe-titans.yaml", "/list/axe-titans.yaml/play"):
            page.goto(server.url + path)
            if path == "/":
                page.locator("summary", has_text="Delete Titan swarm").first.click()  # the question open
            assert serious_violations(page) == [], (path, scheme, width)
        page.goto(server.url + "/")
        page.locator("#new-system").select_option("deathmelt")
        page.get_by_role("button", name="Start the list").click()  # refused by the browser: the box asks
        assert serious_violations(page) == [], ("new", scheme, width)
    finally:
        context.close()

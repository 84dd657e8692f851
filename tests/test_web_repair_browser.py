"""The repair view in Chromium, at a phone's width (390 px) and a desktop's (1280 px): the text is
checked as it is typed (htmx, debounced), a fix button and a saved text each lead on to the
builder, nothing is wider than the screen, and axe-core finds nothing serious in light or dark.
Issue 31, item 3."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from webserver import Server

HUNTR = "system: might-skirmish  # rules\nname: Zombies\npoints: 100\nunits:\n  - unit: Hunter\n  - unit: Huntr\n"
MIHGT = "system: might-skirmish\nname: Zombies\nunits:\n  - unit: Hunter\n    mihgt: 3\n  - unit: Huntr\n"
SHOTS = os.environ.get("LISTBUILDER_SHOTS")  # a folder to keep the screenshots in, to look at them


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("repair-browser")


@pytest.fixture(params=[390, 1280])
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    width = request.param
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
    page = context.new_page()
    page.set_default_timeout(8_000)
    yield page
    context.close()


def _open(page: Any, server: Server, folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")
    page.goto(f"{server.url}/list/{name}")
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


def _fits(page: Any) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def test_typing_is_checked_and_the_saved_text_opens_the_builder(page: Any, server: Server, folder: Path):
    name = f"typed-{page.viewport_size['width']}.yaml"
    _open(page, server, folder, name, HUNTR)
    _fits(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/repair-{page.viewport_size['width']}.png", full_page=True)
    problems = page.locator("#repair-problems")
    assert "Line 6 · Entry 2, Huntr" in problems.inner_text()
    editor = page.locator("#repair-text")
    editor.fill(HUNTR.replace("Huntr", "Zombi"))  # checked as typed: another problem, no fix offered for it
    page.wait_for_function("() => document.querySelector('#repair-problems').textContent.includes('Zombi')")
    assert "in the text as typed (not saved yet)" in problems.inner_text()
    assert problems.locator("button").count() == 0
    editor.fill(HUNTR.replace("Huntr", "Hunter"))
    page.wait_for_function("() => document.querySelector('#repair-problems').textContent.includes('No problem left')")
    assert (folder / name).read_text(encoding="utf-8") == HUNTR  # the check wrote nothing
    page.get_by_role("button", name="Save the text").click()
    page.wait_for_url(f"**/list/{name}?done=*")
    assert "Saved the text: the list reads again" in page.locator(".message.notice").inner_text()
    assert (folder / name).read_text(encoding="utf-8") == HUNTR.replace("Huntr", "Hunter")


def test_fix_buttons_mend_the_list_one_problem_at_a_time(page: Any, server: Server, folder: Path):
    name = f"fixes-{page.viewport_size['width']}.yaml"
    _open(page, server, folder, name, MIHGT)
    _fits(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/repair-fixes-{page.viewport_size['width']}.png", full_page=True)
    page.get_by_role("link", name="Line 5").click()  # selects that line in the editor
    assert (
        page.evaluate(
            "() => { const e = document.activeElement; return e.value.slice(e.selectionStart, e.selectionEnd); }"
        )
        == "    mihgt: 3"
    )
    page.get_by_role("button", name="Remove the key 'mihgt'").click()
    page.wait_for_url(f"**/list/{name}?done=*")
    assert "the list still cannot be read" in page.locator(".message.notice").inner_text()
    page.get_by_role("button", name="Use Hunter").click()
    page.wait_for_url(f"**/list/{name}?done=*")
    assert page.locator("#catalog").count() == 1  # the builder
    assert (folder / name).read_text(encoding="utf-8") == MIHGT.replace("    mihgt: 3\n", "").replace("Huntr", "Hunter")


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_repair_view_is_clean_for_axe(browser: Any, server: Server, folder: Path, width: int, scheme: str):
    (folder / "axe.yaml").write_text(MIHGT, encoding="utf-8")
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/list/axe.yaml")
        page.wait_for_function("() => document.readyState === 'complete'")
        assert serious_violations(page) == []
        if SHOTS and scheme == "dark":
            page.screenshot(path=f"{SHOTS}/repair-dark-{width}.png", full_page=True)
    finally:
        context.close()

"""Issue 35's markers in Chromium, at a phone's width (390 px) and a club table's (1280 px): a tap
that takes other markers off shows it in place, the out-of-the-game count weighs a monster as 3,
and a rule set with no turns of its own has no turn count; axe-core finds nothing serious, light
or dark."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from conftest import EXAMPLES
from webserver import Server, start

pytest.importorskip("playwright")

LISTS = {"hive.yaml": "deathmelt-chitter-hive.legal.yaml", "legion.yaml": "melee-module-foreign-legion.legal.yaml"}
WIDTHS = [390, 1280]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("play-fidelity-browser")
    for name, source in LISTS.items():
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    return root


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Server]:
    s = start(folder)
    yield s
    s.stop()


def open_game(browser: Any, server: Server, file: str, width: int, scheme: str = "light") -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(8_000)
    page.goto(f"{server.url}/list/{file}/play")
    with page.expect_navigation():
        page.get_by_role("button", name="Start a new game").first.click()
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
    return page


def press(page: Any, name: str) -> None:
    with page.expect_response(lambda r: r.url.endswith("/tap")):
        page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


@pytest.mark.parametrize("width", WIDTHS)
def test_hunkering_down_takes_the_danger_off_in_place(browser: Any, server: Server, width: int):
    # 000 line 33: a figure that hunkers down "immediately loses all Danger Tokens"
    page = open_game(browser, server, "hive.yaml", width)
    row = page.locator("li.piece", has_text="Skitterling 1")
    press(page, "One more Danger: Skitterling 1")
    press(page, "One more Danger: Skitterling 1")
    assert row.locator(".count-value b").inner_text() == "2"
    box = page.get_by_role("button", name="Hunkered down: Skitterling 1", exact=True).bounding_box()
    press(page, "Hunkered down: Skitterling 1")
    assert row.locator(".count-value b").inner_text() == "0"
    assert page.get_by_role("button", name="Hunkered down: Skitterling 1").get_attribute("aria-pressed") == "true"
    assert page.get_by_role("button", name="Hunkered down: Skitterling 1").bounding_box() == box  # nothing moved
    assert page.locator("#play-notice").inner_text() == "Hunkered down on: Skitterling 1 (Danger 2 → 0)"
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    # 000 line 117: the Hive Titan, a Monster, counts as 3 figures of the 22
    press(page, "Casualty: Hive Titan")
    assert page.locator("#play-lost").inner_text() == "Out of the game: 3 of 22 · half at 11"
    page.context.close()


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_new_markers_pass_axe(browser: Any, server: Server, width: int, scheme: str):
    for file, taps in (
        ("hive.yaml", ["Hunkered down: Skitterling 2"]),
        ("legion.yaml", ["One more Melee round: Spahis", "Locked in melee: Spahis"]),
    ):
        page = open_game(browser, server, file, width, scheme)
        for name in taps:
            press(page, name)
        if file == "legion.yaml":  # 002 line 1: no turns of its own, so no turn count
            assert page.locator(".turn-number").count() == 0
            assert page.get_by_role("button", name="Next turn").count() == 0
        page.get_by_text("The markers").click()
        assert serious_violations(page) == [], file
        page.context.close()

"""The builder's notices and tally in Chromium at a phone's 390 px and a desktop's 1280 px (issue 31,
items 7 and 8): what a change did covers no control the next tap aims at, the total and verdict
stay in sight at both widths, and a count typed beside a weapon ticks it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from webserver import Server

WIDTHS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("player-words-browser")
    (root / "rangers.yaml").write_bytes((EXAMPLES / "deathzap-frontier-rangers.legal.yaml").read_bytes())
    return root


@pytest.fixture(params=list(WIDTHS))
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    phone = request.param == "390"
    context = browser.new_context(viewport=WIDTHS[request.param], has_touch=phone, is_mobile=phone)
    tab = context.new_page()
    tab.set_default_timeout(8_000)
    yield tab
    context.close()


def _open(page: Any, server: Server, file: str) -> None:
    page.goto(f"{server.url}/list/{file}")
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


def _settled(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


# Where the notice is drawn, against the tally bar it is drawn on and the point last tapped.
WHERE = """([x, y]) => {
  const notice = document.querySelector('.bar-notice').getBoundingClientRect();
  const bar = document.querySelector('#tally-bar').getBoundingClientRect();
  const under = document.elementFromPoint(x, y);
  return {
    inside: notice.left >= bar.left - 0.5 && notice.right <= bar.right + 0.5
      && notice.top >= bar.top - 0.5 && notice.bottom <= bar.bottom + 0.5,
    tapped: under ? (under.closest('.bar-notice, #tally-bar') ? 'the bar' : under.tagName) : null,
    top: notice.top, bottom: notice.bottom, height: innerHeight,
  };
}"""


def test_a_changes_notice_covers_no_control(page: Any, server: Server, folder: Path):
    """The notice is drawn on the tally bar (covering nothing the bar does not), never over the
    place the player tapped: a fix's Apply on a phone, a Remove on a desktop."""
    name = f"mash-{page.viewport_size['width']}.yaml"
    (folder / name).write_bytes((EXAMPLES / "might-skirmish-monster-mash.illegal.yaml").read_bytes())
    _open(page, server, name)
    if page.viewport_size["width"] == 390:
        page.get_by_role("button", name="Suggest a fix").click()
        pressed = page.get_by_role("button", name="Apply suggestion 1:", exact=False)
        said = "Fixed: -1 Old Mother, +2 Crow Swarm"
    else:
        pressed = page.get_by_role("button", name="Remove the Old Mother entry")
        said = "Removed the Old Mother entry"
    pressed.scroll_into_view_if_needed()
    box = pressed.bounding_box()
    assert box is not None
    pressed.click()
    _settled(page)
    page.wait_for_selector(".bar-notice")
    assert page.locator(".bar-notice").inner_text() == said
    where = page.evaluate(WHERE, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert where["inside"] and where["tapped"] != "the bar", where
    assert where["top"] >= 0 and where["bottom"] <= where["height"]  # in sight
    # screen readers hear it once, from the page's status line; the bar is hidden from them
    assert page.get_by_role("status").filter(has_text=said).count() == 1
    assert page.locator("#tally-bar").get_attribute("aria-hidden") == "true"


def test_the_tally_stays_in_sight_as_the_list_scrolls(page: Any, server: Server, folder: Path):
    _open(page, server, "rangers.yaml")
    bar = page.locator("#tally-bar")
    for scroll in (0, 600, 1400):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        box = bar.bounding_box()
        assert box is not None and box["height"] > 0
        assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], (scroll, box)
        # 30 figures of an agreed 30 (the example's figures: 30), and its verdict
        assert bar.inner_text().split() == ["30", "/", "30", "figures", "Legal"]
    if page.viewport_size["width"] == 1280:  # at the top of the list's column, beside the catalog
        column = page.locator(".list-panel").bounding_box()
        assert column is not None and abs(box["x"] - column["x"]) < 1 and box["y"] < 20


def test_a_count_typed_beside_a_weapon_ticks_it(page: Any, server: Server, folder: Path):
    _open(page, server, "rangers.yaml")
    page.locator("#custom summary").click()
    tick = page.get_by_role("checkbox", name="Repeater", exact=True)
    count = page.get_by_label("Figures carrying Repeater", exact=True)
    assert not tick.is_checked()
    count.fill("0")
    assert not tick.is_checked()  # a 0 chooses nothing, as the server reads it
    count.fill("2")
    assert tick.is_checked()
    count.fill("")
    assert tick.is_checked()  # cleared: the tick stays as it was

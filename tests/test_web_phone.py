"""The web builder on a phone (Chromium at 390 px, touch): nothing moves under the finger when a tap
breaks a rule, the lists page starts with New list and Import, the rules card fits the screen in
readable type; and the dark theme is a theme, not the light one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from webserver import Server

LISTS = {
    "elves.yaml": "might-skirmish-windblade-elves.legal.yaml",
    "zombies.yaml": "might-skirmish-zombie-family.legal.yaml",
    "marines.yaml": "deathmelt-colonial-marines.legal.yaml",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("phone")
    for name, source in LISTS.items():
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    return root


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(8_000)
    yield page
    context.close()


def _ready(page: Any) -> None:
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


def test_the_tap_that_breaks_the_limit_moves_nothing_under_the_finger(phone: Any, server: Server, folder: Path):
    (folder / "full.yaml").write_bytes((EXAMPLES / "might-skirmish-windblade-elves.legal.yaml").read_bytes())
    phone.goto(f"{server.url}/list/full.yaml")
    _ready(phone)
    plus = phone.locator("#entry-2-more")  # Add one Wind Hawk: 16 fighters and 99 points before
    plus.scroll_into_view_if_needed()
    phone.evaluate("window.scrollBy(0, 150)")
    before = plus.bounding_box()
    version = phone.locator("#page-version").get_attribute("value")
    plus.tap()
    phone.wait_for_function("v => document.querySelector('#page-version').value !== v", arg=version)
    phone.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    assert phone.locator("#verdict").inner_text() == "NOT LEGAL"
    after = phone.locator("#entry-2-more").bounding_box()
    assert abs(after["y"] - before["y"]) < 1 and after["x"] == before["x"], (before, after)
    # the problems came below the entries, and the bar says how many there are
    assert phone.evaluate(
        "() => !!(document.querySelector('#entries').compareDocumentPosition(document.querySelector('#problems'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    assert phone.locator("#problems li").count() == 2
    assert phone.locator("#tally-bar b").inner_text() == "NOT LEGAL · 2 problems"
    assert phone.locator("#tally-bar").get_attribute("href") == "#problems"


def _settled(page: Any, element: Any) -> dict[str, float]:
    """Where ``element`` is once the page has drawn what its scrolling brought near the screen:
    the catalog's units are laid out only there (content-visibility), a frame or two later."""
    box = element.bounding_box()
    for _ in range(20):
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        now = element.bounding_box()
        if abs(now["y"] - box["y"]) < 0.5:
            return now
        box = now
    raise AssertionError(f"the page kept moving: {box}")


def test_a_tap_on_add_in_the_catalog_keeps_the_catalog_still(phone: Any, server: Server, folder: Path):
    (folder / "grow.yaml").write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    phone.goto(f"{server.url}/list/grow.yaml")
    _ready(phone)
    add = phone.get_by_role("button", name="Add Grave Digger", exact=True)
    add.scroll_into_view_if_needed()
    before = _settled(phone, add)
    version = phone.locator("#page-version").get_attribute("value")
    add.tap()  # a new entry above the catalog: the catalog would move down by one entry
    phone.wait_for_function("v => document.querySelector('#page-version').value !== v", arg=version)
    assert abs(add.bounding_box()["y"] - before["y"]) < 1


def test_the_lists_page_starts_with_new_list_and_import(phone: Any, server: Server):
    phone.goto(f"{server.url}/")
    headings = phone.locator("h1, h2").all_inner_texts()
    assert [h.upper() for h in headings[:3]] == ["YOUR LISTS", "NEW LIST", "IMPORT"]
    # then the cards, under their count (other tests of this server's folder add and delete lists)
    assert re.fullmatch(r"\d+ LISTS?", headings[3].upper()), headings[3]
    assert phone.get_by_role("button", name="Start the list").bounding_box()["y"] < 844  # on the first screen


@pytest.mark.parametrize("system", ["might-skirmish", "deathmelt", "deathzap", "melee-module", "speed-range-power"])
def test_the_rules_card_fits_a_phone_in_readable_type(phone: Any, server: Server, system: str):
    phone.goto(f"{server.url}/card/{system}")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    smallest = phone.evaluate(
        """() => Math.min(...[...document.querySelectorAll('.web-card *')]
             .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
             .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
    )
    assert smallest >= 14
    columns = phone.evaluate("() => getComputedStyle(document.querySelector('.web-card .columns')).gridTemplateColumns")
    assert len(columns.split()) == 1  # one column: the printed card's two are for paper


# The words of a rules table that a line break cuts ('Sol' and 'dier'), and how wide the page is.
_CUT_WORDS = """() => {
  const cut = [];
  for (const cell of document.querySelectorAll('table th, table td')) {
    for (const node of cell.childNodes) {
      if (node.nodeType !== 3) continue;
      let at = 0;
      for (const word of node.textContent.split(/(\\s+)/)) {
        const range = document.createRange();
        range.setStart(node, at); range.setEnd(node, at + word.length);
        if (word.trim() && range.getClientRects().length > 1) cut.push(word);
        at += word.length;
      }
    }
  }
  return [cut, document.documentElement.scrollWidth];
}"""


@pytest.mark.parametrize("system", ["might-skirmish", "deathmelt", "speed-range-power"])
def test_a_rules_table_keeps_its_words_whole_and_scrolls_in_its_own_box(phone: Any, server: Server, system: str):
    """At 390 px the Classes table of might-skirmish broke 'Soldier' into 'Sol', 'die', 'r' to fit."""
    phone.goto(f"{server.url}/card/{system}")
    assert phone.evaluate(_CUT_WORDS) == [[], 390]
    boxes = phone.locator(".table-scroll")
    assert boxes.count() >= 2
    for i in range(boxes.count()):
        assert (boxes.nth(i).get_attribute("tabindex"), boxes.nth(i).get_attribute("role")) == ("0", "region")
    wide = phone.evaluate(
        "() => [...document.querySelectorAll('.table-scroll')].findIndex(b => b.scrollWidth > b.clientWidth)"
    )
    assert wide >= 0  # each of these cards has a table wider than the phone
    boxes.nth(wide).focus()
    phone.keyboard.press("ArrowRight")  # the keyboard scrolls it
    phone.wait_for_function("i => document.querySelectorAll('.table-scroll')[i].scrollLeft > 0", arg=wide)


def test_a_units_rules_opened_in_the_builder_keep_the_page_its_width(phone: Any, server: Server):
    """The Classes table in a zombie's rules pushed the page to 520 px once its words were whole."""
    phone.goto(f"{server.url}/list/zombies.yaml")
    _ready(phone)
    for link in (phone.locator("li.entry .rules-link").first, phone.locator(".unit .rules-link").first):
        link.click()
        phone.wait_for_function("e => e.getAttribute('aria-expanded') === 'true'", arg=link.element_handle())
        phone.locator(".unit-rules-text table").last.wait_for()
        assert phone.evaluate(_CUT_WORDS) == [[], 390]


def test_the_dark_theme_is_dark(browser: Any, server: Server):
    grounds = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{server.url}/list/zombies.yaml")
        grounds[scheme] = page.evaluate(
            "() => [document.documentElement, document.querySelector('.panel'), document.querySelector('#total b')]"
            ".map(e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color])"
        )
        context.close()
    assert grounds["light"][1][0] == "rgb(251, 250, 246)" and grounds["dark"][1][0] == "rgb(27, 28, 24)"  # a panel
    assert grounds["dark"][0][0] == "rgb(16, 17, 14)" and grounds["dark"][2][1] == "rgb(236, 234, 227)"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_list_cards_buttons_keep_their_words_whole(browser: Any, server: Server, width: int):
    """At 1280 px the cards are 280 px columns: "Play" was broken into "Pla" and "y"."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        heights = page.evaluate(
            "() => [...document.querySelectorAll('.row-actions .button, .row-actions button')]"
            ".map(b => [b.textContent.trim(), b.getBoundingClientRect().height])"
        )
        assert heights and all(h < 45 for _, h in heights), heights  # one line: 44 px, as every button
    finally:
        context.close()

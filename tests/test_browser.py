"""Open the standalone HTML that ``render`` and ``card`` write in a real browser (headless Chromium).

For every example list and every rule set's rules card: the sheet is visible, nothing overflows an
A4-wide page in print media, the console stays free of errors and the page fetches nothing but
itself and ``data:`` URLs. A hostile list (markup and URLs in its names) must print as plain text.

Needs the ``playwright`` package (the ``test`` extra) and a Chromium at /usr/bin/chromium, or at
``LISTBUILDER_CHROMIUM``; never ``playwright install``. Without them the tests skip, unless
``LISTBUILDER_REQUIRE_BROWSER=1`` (as CI sets), when they fail.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from conftest import CATALOGS, EXAMPLES

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


# A4 at 96 CSS px per inch: 210 mm x 297 mm.
A4_WIDTH = round(210 / 25.4 * 96)  # 794
A4_HEIGHT = round(297 / 25.4 * 96)  # 1123
TOLERANCE_PX = 1

LISTS = sorted(EXAMPLES.glob("*.yaml"))
SYSTEMS = sorted(p.parent.name for p in CATALOGS.glob("*/system.yaml"))

HOSTILE_SCRIPT = "<script>alert(1)</script>"
HOSTILE_IMG = "<img src=http://127.0.0.1:9/x.png>"
HOSTILE_URL = "url(file:///etc/passwd)"
HOSTILE_BOLD = "<b>bold</b>"
HOSTILE_LIST_NAME = f"{HOSTILE_SCRIPT} {HOSTILE_IMG}"
HOSTILE_UNIT_NAME = f"{HOSTILE_URL} {HOSTILE_BOLD}"


def _render(*args: str | Path) -> None:
    """Run ``listbuilder ARGS`` as a user would, with only the shipped templates and rule sets."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LISTBUILDER_")}
    env["LISTBUILDER_CATALOGS"] = ""
    res = subprocess.run(
        [sys.executable, "-m", "listbuilder", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert res.returncode == 0, f"listbuilder {' '.join(map(str, args))} exited {res.returncode}:\n{res.stderr}"


@dataclass
class Visit:
    """An open page and everything it did while loading."""

    page: Page = field(repr=False)
    url: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def resources(self) -> list[str]:
        """Every URL the page itself says it loaded (the Resource Timing entries)."""
        return self.page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")

    def foreign_requests(self) -> list[str]:
        """Requests for anything but the file itself or a ``data:`` URL."""
        urls = [*self.requests, *self.resources()]
        return sorted({u for u in urls if u != self.url and not u.startswith("data:")})


@pytest.fixture
def visit(browser: Browser) -> Iterator[Any]:
    """Open HTML files as A4-wide pages in print media; each is closed after the test."""
    pages: list[Page] = []

    def open_file(path: Path) -> Visit:
        page = browser.new_page(viewport={"width": A4_WIDTH, "height": A4_HEIGHT})
        pages.append(page)
        page.set_default_timeout(5_000)  # a missing element fails fast instead of waiting 30 s
        v = Visit(page, path.resolve().as_uri())
        page.on("console", lambda m: v.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: v.page_errors.append(str(e)))
        page.on("request", lambda r: v.requests.append(r.url))

        def on_dialog(d: Any) -> None:
            v.dialogs.append(f"{d.type}: {d.message}")
            d.dismiss()

        page.on("dialog", on_dialog)
        # Nothing may leave the machine, even if a template regresses: the request is still recorded.
        page.route(re.compile(r"^(?!file:|data:)"), lambda route: route.abort())
        page.emulate_media(media="print")
        page.goto(v.url, wait_until="load")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        return v

    yield open_file
    for page in pages:
        page.close()


# Every element's border box and every text run, inside each .sheet, against the sheet's edges.
# Boxes and text clipped by an ancestor (overflow other than visible, inside the sheet) count
# only as far as they show. Zero-width or zero-height boxes paint nothing and are left out.
OVERFLOW_JS = """
(tolerance) => {
  const label = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    for (const c of el.classList) s += '.' + c;
    return s;
  };
  const path = (el, sheet) => {
    const parts = [];
    for (let e = el; e && e !== sheet.parentElement; e = e.parentElement) parts.unshift(label(e));
    return parts.join(' > ');
  };
  const clip = (el, sheet) => {
    let left = -Infinity, right = Infinity;
    for (let e = el; e && e !== sheet; e = e.parentElement) {
      if (getComputedStyle(e).overflowX !== 'visible') {
        const r = e.getBoundingClientRect();
        left = Math.max(left, r.left);
        right = Math.min(right, r.right);
      }
    }
    return [left, right];
  };
  const root = document.documentElement;
  const found = [];
  const sheets = [...document.querySelectorAll('.sheet')];
  sheets.forEach((sheet, index) => {
    const edge = sheet.getBoundingClientRect();
    const check = (owner, clipFrom, rects, what, text) => {
      const [clipLeft, clipRight] = clip(clipFrom, sheet);
      for (const r of rects) {
        if (r.width <= 0 || r.height <= 0) continue;
        const right = Math.min(r.right, clipRight), left = Math.max(r.left, clipLeft);
        if (right <= left) continue;
        const past = Math.max(right - edge.right, edge.left - left);
        if (past > tolerance) {
          found.push({sheet: index, what, path: path(owner, sheet),
                      text: (text || '').replace(/\\s+/g, ' ').trim().slice(0, 60),
                      side: right - edge.right >= edge.left - left ? 'right' : 'left',
                      by: Math.round(past * 10) / 10});
          return;
        }
      }
    };
    const walker = document.createTreeWalker(sheet, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (!node.data.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        check(node.parentElement, node.parentElement, range.getClientRects(), 'text', node.data);
      } else {
        if (getComputedStyle(node).visibility === 'hidden') continue;
        check(node, node.parentElement, node.getClientRects(), 'box', node.textContent);
      }
    }
  });
  return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, sheets: sheets.length, overflows: found};
}
"""


def _check_sheet(v: Visit, selector: str, title: str) -> None:
    """The three checks every printed file must pass: visible, fits the page, no errors nor fetches."""
    page = v.page
    # 1. The sheet and its title are there and visible, in print and on screen.
    sheet = page.locator(selector).first
    heading = sheet.locator("h1").first
    assert page.locator(selector).count() >= 1, f"no {selector} in {v.url}"
    assert " ".join(heading.text_content().split()) == title
    for media in ("print", "screen"):
        page.emulate_media(media=media)
        assert sheet.is_visible(), f"{selector} is not visible in {media} media"
        assert heading.is_visible(), f"{selector} h1 is not visible in {media} media"
        assert title in " ".join(page.inner_text("body").split()), f"{title!r} is not in the page text ({media})"
    page.emulate_media(media="print")

    # 2. Nothing is wider than the paper in print media.
    layout = page.evaluate(OVERFLOW_JS, TOLERANCE_PX)
    assert layout["sheets"] >= 1
    problems = []
    if layout["scrollWidth"] > layout["clientWidth"]:
        problems.append(
            f"overflow at {A4_WIDTH} px (A4) in print media: the page scrolls sideways, "
            f"scrollWidth {layout['scrollWidth']} > clientWidth {layout['clientWidth']} px"
        )
    problems += [
        f"overflow at {A4_WIDTH} px (A4) in print media: sheet {o['sheet']}, {o['what']} {o['path']} "
        f"sticks out {o['by']} px on the {o['side']}" + (f" ({o['text']!r})" if o["text"] else "")
        for o in layout["overflows"][:15]
    ]
    if len(layout["overflows"]) > 15:
        problems.append(f"... and {len(layout['overflows']) - 15} more overflowing boxes or text runs")

    # 3. No errors, no fetches, no dialogs.
    if v.console_errors:
        problems.append(f"console errors: {v.console_errors}")
    if v.page_errors:
        problems.append(f"page errors: {v.page_errors}")
    if v.foreign_requests():
        problems.append(f"requests other than the file and data: URLs: {v.foreign_requests()}")
    if v.dialogs:
        problems.append(f"dialogs: {v.dialogs}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("list_file", LISTS, ids=[p.name.removesuffix(".yaml") for p in LISTS])
def test_example_roster_in_browser(list_file: Path, tmp_path: Path, visit: Any) -> None:
    out = tmp_path / f"{list_file.stem}.html"
    _render("render", list_file, "-o", out)
    name = yaml.safe_load(list_file.read_text(encoding="utf-8"))["name"]
    _check_sheet(visit(out), "section.roster", name)


@pytest.mark.parametrize("system", SYSTEMS)
def test_rules_card_in_browser(system: str, tmp_path: Path, visit: Any) -> None:
    out = tmp_path / f"{system}-card.html"
    _render("card", system, "-o", out)
    name = yaml.safe_load((CATALOGS / system / "system.yaml").read_text(encoding="utf-8"))["name"]
    _check_sheet(visit(out), "section.card", name)


def _assert_inert(v: Visit) -> None:
    assert not v.dialogs, f"a dialog fired: {v.dialogs}"
    foreign = v.foreign_requests()
    assert not [u for u in foreign if "127.0.0.1" in u], f"the page fetched 127.0.0.1: {foreign}"
    assert not [u for u in foreign if u.startswith("file:///etc/")], f"the page fetched /etc/passwd: {foreign}"
    assert not foreign, f"requests other than the file and data: URLs: {foreign}"


def test_hostile_names_print_as_text(tmp_path: Path, visit: Any) -> None:
    list_file = tmp_path / "hostile.yaml"
    list_file.write_text(
        yaml.safe_dump(
            {
                "system": "might-skirmish",
                "name": HOSTILE_LIST_NAME,
                "units": [{"name": HOSTILE_UNIT_NAME, "class": "Soldier", "might": 5}],
            },
            sort_keys=False,
        ),
        encoding="utf-8",
    )
    out = tmp_path / "hostile.html"
    _render("render", list_file, "-o", out)
    v = visit(out)
    page = v.page

    _assert_inert(v)
    text = page.inner_text("body")
    for needle in (HOSTILE_SCRIPT, HOSTILE_IMG, HOSTILE_URL, HOSTILE_BOLD):
        assert needle in text, f"{needle!r} is not in the page's visible text"
    heading = page.locator("section.roster h1").first
    assert heading.is_visible()
    assert heading.text_content().strip() == HOSTILE_LIST_NAME
    assert heading.evaluate("e => e.children.length") == 0, "the list name was parsed as markup"
    unit_title = page.locator("section.roster .unit h2", has_text="etc/passwd").first
    assert unit_title.is_visible()
    assert unit_title.evaluate("e => e.querySelector('b') === null"), "the unit name was parsed as markup"
    assert page.evaluate("() => document.scripts.length") == 0
    assert page.evaluate("() => document.images.length") == 0
    assert not v.console_errors, f"console errors: {v.console_errors}"
    assert not v.page_errors, f"page errors: {v.page_errors}"


def test_hostile_checks_see_unescaped_markup(tmp_path: Path, visit: Any) -> None:
    """The checks above can fail: the same names pasted in raw do fire a dialog and fetch both URLs."""
    out = tmp_path / "raw.html"
    out.write_text(
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<style>h2 {{ background: {HOSTILE_URL}; }}</style></head>"
        f"<body><h1>{HOSTILE_LIST_NAME}</h1><h2>{HOSTILE_UNIT_NAME}</h2></body></html>",
        encoding="utf-8",
    )
    v = visit(out)
    v.page.wait_for_load_state("networkidle")
    assert v.dialogs == ["alert: 1"]
    foreign = v.foreign_requests()
    assert "http://127.0.0.1:9/x.png" in foreign
    assert "file:///etc/passwd" in foreign
    with pytest.raises(AssertionError):
        _assert_inert(v)

"""The odds on the web in Chromium, at a phone's width (390 px) and a desktop's (1280 px), with
JavaScript on and off: the compare page's two forces side by side, its switch between kinds of
attack, a grid that scrolls sideways under a unit column that stays in sight, a caption that says
which shade is deadliest in the light and the dark scheme, and the play page's melee for deathzap.
axe-core finds nothing serious on these pages in either scheme.

Screenshots go to ``LISTBUILDER_SHOTS`` when it is set (a folder), to be looked at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from axe import serious_violations
from conftest import EXAMPLES
from webserver import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SHOTS = os.environ.get("LISTBUILDER_SHOTS")
WIDTHS = (390, 1280)
COMPARE = "/list/zombies.yaml/compare?with=elves.yaml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("odds-browser")
    for name, source in (
        ("zombies.yaml", "might-skirmish-zombie-family.legal.yaml"),
        ("elves.yaml", "might-skirmish-windblade-elves.legal.yaml"),
        ("rangers.yaml", "deathzap-frontier-rangers.legal.yaml"),
    ):
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    swarm = (EXAMPLES / "deathzap-grox-swarm.illegal.yaml").read_text(encoding="utf-8")
    (root / "swarm.yaml").write_text(swarm[: swarm.index("  - name: Lost Brood")], encoding="utf-8")
    return root


@pytest.fixture(
    params=[(w, js) for w in WIDTHS for js in (True, False)], ids=lambda p: f"{p[0]}-{'js' if p[1] else 'nojs'}"
)
def page(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    width, js = request.param
    context = browser.new_context(java_script_enabled=js, viewport={"width": width, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.set_default_timeout(8_000)
    tab.base = server.url  # type: ignore[attr-defined]
    tab.label = f"{width}-{'js' if js else 'nojs'}"  # type: ignore[attr-defined]
    yield tab
    context.close()
    assert errors == []


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}-{page.label}.png", full_page=True, caret="initial")  # type: ignore[attr-defined]


def test_the_forces_stand_side_by_side_and_the_kind_switches_by_a_link(page: Page):
    page.goto(page.base + COMPARE)  # type: ignore[attr-defined]
    mine, theirs = (page.locator(".side").nth(i).bounding_box() for i in (0, 1))
    assert mine and theirs and abs(mine["y"] - theirs["y"]) < 1 and theirs["x"] > mine["x"] + mine["width"] - 1
    assert [line for line in page.locator(".side").nth(0).inner_text().splitlines() if line][:3] == [
        "Zombie Family",
        "zombies.yaml",
        "Legal 98 of 100 points, 14 fighters",
    ]
    grids = page.locator("figure.matrix figcaption")
    assert grids.count() == 2 and "Melee attack:" in grids.nth(0).inner_text()
    _shot(page, "compare-opponents")
    with page.expect_navigation():
        page.get_by_role("link", name="Ranged attack", exact=True).click()
    assert page.get_by_role("link", name="Ranged attack", exact=True).get_attribute("aria-current") == "page"
    assert all("Ranged attack:" in grids.nth(i).inner_text() for i in range(2))
    sniper = page.locator("tr", has=page.locator("th", has_text="Cousin Sniper")).first
    assert sniper.locator("td").first.inner_text() == "0.23"  # 4D6 keep 3 on the '=' column: 50/216 (004 line 30)
    with page.expect_navigation():
        page.get_by_role("link", name="Compare as two versions of one list").click()
    assert "~ name 'Zombie Family' → 'Windblade Elves'" in page.locator("pre.diff").inner_text()


def test_on_a_phone_the_unit_column_stays_when_the_grid_scrolls_sideways(page: Page):
    page.goto(page.base + COMPARE)  # type: ignore[attr-defined]
    panel = page.locator("section.odds .matrix-scroll").first
    wide = panel.evaluate("e => e.scrollWidth > e.clientWidth")
    if page.viewport_size and page.viewport_size["width"] == 1280:
        assert not wide  # the whole grid fits a desktop
        return
    assert wide  # eight columns and kills per 100 points: wider than a phone
    row_head = panel.locator("tbody th").first
    caption = page.locator("section.odds figcaption").first
    before, title = row_head.bounding_box(), caption.bounding_box()
    panel.evaluate("e => { e.scrollLeft = e.scrollWidth }")
    after = row_head.bounding_box()
    assert before and after and after["x"] == pytest.approx(before["x"], abs=1)  # stuck, not scrolled away
    assert caption.bounding_box() == title  # the caption stays too: only the table scrolls
    # at the scroller's very edge: no gap where scrolled cells show beside it
    edge = panel.bounding_box()
    assert edge is not None and before["x"] == pytest.approx(edge["x"], abs=1)
    cell = panel.locator("tbody td").first.bounding_box()
    assert cell is not None and cell["x"] < before["x"]  # the cells went under it
    # the column's ground hides what scrolls under it
    assert row_head.evaluate("e => getComputedStyle(e).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    _shot(page, "compare-scrolled")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_caption_says_which_shade_is_deadliest_in_each_scheme(browser: Browser, server: Server, scheme: str):
    context = browser.new_context(viewport={"width": 390, "height": 900}, color_scheme=scheme)
    try:
        tab = context.new_page()
        tab.goto(server.url + COMPARE)
        caption = tab.locator("figure.matrix figcaption").first.inner_text()
        shade = "Darker" if scheme == "light" else "Brighter"
        assert f"{shade} is deadlier" in caption and ("Brighter" if scheme == "light" else "Darker") not in caption
        # and it is true: the deadliest cell (heat 4) against the faintest (heat 1), by luminance
        lum = tab.evaluate(
            """() => ['.heat-1', '.heat-4'].map(s => {
                 const ground = getComputedStyle(document.querySelector(s)).backgroundColor;
                 const [r, g, b] = ground.match(/\\d+/g).map(Number);
                 return 0.2126 * r + 0.7152 * g + 0.0722 * b })"""
        )
        assert (lum[1] < lum[0]) if scheme == "light" else (lum[1] > lum[0])
    finally:
        context.close()


def test_the_play_page_offers_deathzap_melee_and_the_brood_lord_fights(page: Page):
    page.goto(page.base + "/list/swarm.yaml/play/odds")  # type: ignore[attr-defined]
    page.locator("select[name=attacker]").select_option("Brood Lord")
    page.locator("select[name=against]").select_option("rangers.yaml#0")
    page.get_by_label("Kind of attack").select_option("melee")
    assert page.locator("fieldset legend").all_inner_texts() == ["For shooting", "For melee"]
    if page.label.endswith("-js"):  # type: ignore[attr-defined]
        page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        with page.expect_response(lambda r: "/odds?" in r.url):
            page.get_by_role("button", name="Work out the odds").click()
    else:
        with page.expect_navigation():
            page.get_by_role("button", name="Work out the odds").click()
    result = page.locator("#odds")
    result.locator(".odds-table").wait_for()
    text = result.inner_text()
    assert "Brood Lord against Ranger Squad (Melee" in text
    assert "target destroyed\t98.5%" in text and "attacker destroyed\t1.5%" in text  # tests/test_odds_web.py
    _shot(page, "play-odds-melee")


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_nothing_serious(browser: Browser, server: Server, scheme: str, width: int):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    try:
        tab = context.new_page()
        for path in (
            COMPARE,
            COMPARE + "&as=opponents&attack=ranged",
            COMPARE + "&as=versions",
            "/list/swarm.yaml/compare?with=rangers.yaml&attack=melee",
            "/list/swarm.yaml/play/odds?attacker=Brood+Lord&against=rangers.yaml%230&attack=melee",
        ):
            tab.goto(server.url + path)
            assert serious_violations(tab) == [], path
    finally:
        context.close()

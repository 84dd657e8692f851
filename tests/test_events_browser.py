"""Events in Chromium: two players submit from their lists' pages, the organiser sees both and
downloads the pack; the events pages are axe-core clean at 390 and 1280 px, light and dark."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from axe import serious_violations
from clubhelp import make_club, served_here
from webserver import Server

from listbuilder.api import club, events, rulesets

DEADLINE = datetime(2026, 12, 20, 18, 0, tzinfo=ZoneInfo("Europe/London")).timestamp()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    folder = make_club(
        tmp_path_factory.mktemp("events-browser"),
        {"Ana": "player", "Ben": "player"},
        {"Ana": ["might-skirmish-zombie-family.legal"], "Ben": ["might-skirmish-monster-mash.illegal"]},
    )
    events.make_event(
        folder,
        rulesets.open_catalogs(None),
        name="Winter League",
        system="might-skirmish",
        size=100,
        unit="points",
        deadline="2026-12-20T18:00",
        zone="Europe/London",
    )
    with served_here(folder, lambda: DEADLINE - 3600) as server:
        yield server, folder


def _signed_in(browser: Any, server: Server, folder: Path, name: str, **options: Any) -> Any:
    context = browser.new_context(**{"viewport": {"width": 390, "height": 844}, **options})
    page = context.new_page()
    page.set_default_timeout(10_000)
    link = club.invite(folder, name).link
    page.goto(server.url + "/join/" + link.rsplit("/join/", 1)[1])
    page.get_by_role("button", name="Sign in on this device").click()
    page.wait_for_url(server.url + "/")
    return page


def test_two_players_submit_and_the_organiser_downloads_the_pack(browser: Any, served):
    server, folder = served
    for name, file in (("Ana", "might-skirmish-zombie-family.yaml"), ("Ben", "might-skirmish-monster-mash.yaml")):
        page = _signed_in(browser, server, folder, name)
        page.goto(f"{server.url}/list/{file}")
        page.get_by_role("button", name="Submit to Winter League").click()
        page.wait_for_url("**/events/winter-league**")
        assert "Submitted" in page.locator("body").inner_text()
        page.context.close()
    olga = _signed_in(browser, server, folder, "Olga", viewport={"width": 1280, "height": 900})
    olga.goto(server.url + "/events/winter-league")
    table = olga.locator(".event-table").inner_text()
    assert "Zombie Family" in table and "Monster Mash" in table and "NOT LEGAL" in table
    with olga.expect_download() as download:
        olga.get_by_role("link", name="Download the pack (PDF)").click()
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
    olga.context.close()


@pytest.mark.axe
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_events_pages_are_axe_clean(browser: Any, served, width: int, scheme: str):
    server, folder = served
    page = _signed_in(
        browser, server, folder, "Olga", viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True
    )
    try:
        for path in ("/events", "/events/winter-league"):
            page.goto(server.url + path)
            found = serious_violations(page)
            assert found == [], f"{path}: " + "\n".join(found)
            page.screenshot(
                path=f"/tmp/events-{path.strip('/').replace('/', '-')}-{width}-{scheme}.png", full_page=True
            )
    finally:
        page.context.close()

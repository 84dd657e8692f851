"""Club mode in Chromium: a member signs in by link on a phone (390 px) and builds a list; the
club's own pages (sign-in, a link, the member's page, the club's page) are axe-core clean at 390
and 1280 px in the light and the dark scheme; screenshots for a look."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from clubhelp import make_club
from webserver import Server, start

from listbuilder.api import club

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
SHOTS = Path(tempfile.gettempdir()) / "listbuilder-club-shots"  # not compared: for a person to look at


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    folder = make_club(
        tmp_path_factory.mktemp("clubb"),
        {"Ana": "player", "Ben": "player"},
        {"Ben": ["might-skirmish-windblade-elves.legal"]},
    )
    from listbuilder.club.store import open_store

    store = open_store(folder)
    store.share(store.member("Ben"), "might-skirmish-windblade-elves.yaml", True)
    s = start(folder)
    yield s, folder
    s.stop()


def _sign_in(page: Any, server: Server, folder: Path, name: str) -> None:
    link = club.invite(folder, name).link
    page.goto(server.url + "/join/" + link.rsplit("/join/", 1)[1])
    page.get_by_role("button", name="Sign in on this device").click()
    page.wait_for_url(server.url + "/")


def test_a_member_signs_in_by_link_on_a_phone_and_builds_a_list(browser: Any, served):
    server, folder = served
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        assert page.url == server.url + "/sign-in"
        _sign_in(page, server, folder, "Ana")
        assert page.get_by_role("heading", name="Your lists").is_visible()
        page.get_by_label("Rule set").select_option("might-skirmish")
        page.get_by_label("Name").fill("Ana's Zombies")
        page.get_by_role("button", name="Start the list").click()
        page.wait_for_url("**/list/ana-s-zombies.yaml**")
        page.get_by_role("button", name="Add Hunter").first.click()
        page.wait_for_function("() => document.body.innerText.includes('1 fighter')")
        text = (folder / "members" / "ana" / "ana-s-zombies.yaml").read_text()
        assert "unit: Hunter" in text
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        cookies = {c["name"]: c for c in context.cookies()}
        assert cookies["listbuilder_session"]["httpOnly"] and cookies["listbuilder_session"]["sameSite"] == "Lax"
    finally:
        context.close()


@pytest.fixture(scope="module", params=["light", "dark"])
def scheme(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.axe
@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_club_pages_are_axe_clean(browser: Any, served, scheme: str, width: str):
    server, folder = served
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/sign-in")
        assert serious_violations(page) == []
        link = club.invite(folder, "Olga").link
        page.goto(server.url + "/join/" + link.rsplit("/join/", 1)[1])
        assert serious_violations(page) == []
        page.get_by_role("button", name="Sign in on this device").click()
        page.wait_for_url(server.url + "/")
        pages = ["/me", "/club", "/m/ben/list/might-skirmish-windblade-elves.yaml", "/m/ben/list/x.yaml"]
        for path in pages:
            page.goto(server.url + path)
            assert serious_violations(page) == [], path
            if scheme == "light":
                SHOTS.mkdir(parents=True, exist_ok=True)
                name = path.strip("/").replace("/", "_") or "home"
                page.screenshot(path=str(SHOTS / f"{name}-{w}.png"), full_page=True)
        page.goto(server.url + "/club")
        page.get_by_label("Name").fill("Newcomer")
        page.get_by_role("button", name="Invite").click()
        assert "/join/" in page.get_by_label("The sign-in link of Newcomer").input_value()
        assert serious_violations(page) == []
    finally:
        context.close()

"""The play page in Chromium at a phone's width (390 px), with JavaScript on and off: taps that
stay put under the finger, counts, turns and undo, a server restart in the middle of a game,
touch targets, the dark theme, and axe-core."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from conftest import EXAMPLES
from webserver import Server, start

pytest.importorskip("playwright")

LISTS = {
    "zombies.yaml": "might-skirmish-zombie-family.legal.yaml",
    "elves.yaml": "might-skirmish-windblade-elves.legal.yaml",
    "marines.yaml": "deathmelt-colonial-marines.legal.yaml",
    "hive.yaml": "deathmelt-chitter-hive.legal.yaml",
    "rangers.yaml": "deathzap-frontier-rangers.legal.yaml",
}


def fill(folder: Path) -> Path:
    for name, source in LISTS.items():
        (folder / name).write_bytes((EXAMPLES / source).read_bytes())
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fill(tmp_path_factory.mktemp("play-browser"))


class Phone:
    """One page at 390 px, with or without JavaScript, and what its console said."""

    def __init__(self, page: Any, js: bool) -> None:
        self.page = page
        self.js = js
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and " 4" not in m.text else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(8_000)

    def open(self, url: str) -> Phone:
        self.page.goto(url)
        if self.js:
            self.page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        return self

    def button(self, name: str) -> Any:
        """The button named ``name`` ('Undo' is the one named 'Undo the last tap: ...')."""
        if name == "Undo":
            return self.page.get_by_role("button", name="Undo the last tap", exact=False)
        return self.page.get_by_role("button", name=name, exact=True)

    def press(self, name: str) -> None:
        """Press a button and wait until the page shows what it did."""
        button = self.button(name)
        if not self.js:
            with self.page.expect_navigation():
                button.click()
            return
        with self.page.expect_response(lambda r: r.url.endswith("/tap")):
            button.click()
        self.page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def phone(request: pytest.FixtureRequest, browser: Any) -> Iterator[Phone]:
    context = browser.new_context(java_script_enabled=request.param, viewport={"width": 390, "height": 844})
    p = Phone(context.new_page(), request.param)
    yield p
    context.close()
    if request.param:
        assert p.errors == [], p.errors


def new_game(phone: Phone, server: Server, file: str) -> None:
    phone.open(f"{server.url}/list/{file}/play")
    start_button = phone.button("Start a new game")
    with phone.page.expect_navigation():
        start_button.first.click()
    if phone.js:
        phone.page.wait_for_function("() => window.htmx && document.readyState === 'complete'")


def test_mark_a_fighter_and_it_stays_marked(phone: Phone, server: Server):
    new_game(phone, server, "zombies.yaml")
    stunned = phone.button("Stunned: Hunter 2")
    assert stunned.get_attribute("aria-pressed") == "false"
    phone.press("Stunned: Hunter 2")
    assert phone.button("Stunned: Hunter 2").get_attribute("aria-pressed") == "true"
    assert "Stunned on: Hunter 2" in phone.page.locator("#play-notice").inner_text()
    phone.press("Dead: Grandpa Bones")
    assert "out" in (phone.page.locator("li.piece", has_text="Grandpa Bones").get_attribute("class") or "")
    assert "Out of the game: 1 of 14 (20 points)" in phone.page.locator("#play-lost").inner_text()  # Might 20
    phone.page.reload()
    assert phone.button("Stunned: Hunter 2").get_attribute("aria-pressed") == "true"
    phone.press("Undo")
    assert phone.button("Dead: Grandpa Bones").get_attribute("aria-pressed") == "false"


def test_count_danger_tokens_and_play_out_the_turns(phone: Phone, server: Server):
    new_game(phone, server, "marines.yaml")
    for _ in range(3):
        phone.press("One more Danger: Colonial Marine 2")
    group = phone.page.get_by_role("group", name="Danger: Colonial Marine 2")
    assert group.locator("b").inner_text() == "3"  # 000 line 55: the save compares this number with Armour
    phone.press("One Danger fewer: Colonial Marine 2")
    assert group.locator("b").inner_text() == "2"
    for turn in range(2, 6):
        phone.press("Next turn")
        assert phone.page.locator(".turn-number").inner_text() == str(turn)
    assert phone.button("Next turn").is_disabled()  # 000 line 21: the game ends after turn 5
    assert phone.page.get_by_role("group", name="Danger: Colonial Marine 2").locator("b").inner_text() == "2"
    phone.press("Victory points: add 1")
    assert phone.page.locator(".score-value").first.inner_text() == "1"


def test_a_roll_shows_its_die_face_and_the_rule(phone: Phone, server: Server):
    new_game(phone, server, "zombies.yaml")
    phone.press("Roll: Deployment zones")
    result = phone.page.locator(".roll-result").first.inner_text()
    face = result.strip()[0]
    assert face in "⚀⚁⚂⚃⚄⚅"
    number = "⚀⚁⚂⚃⚄⚅".index(face) + 1
    assert ("Side to side" if number <= 3 else "Corner to corner") in result  # 004 line 12


def test_a_tap_moves_nothing_under_the_finger(browser: Any, server: Server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = Phone(context.new_page(), True)
    try:
        new_game(phone, server, "elves.yaml")
        phone.page.mouse.wheel(0, 600)
        watched = ["Stunned: Windblade 3", "Dead: Windblade 3", "Stunned: Elf Archer 1", "Next turn", "Undo"]
        before = {name: phone.button(name).bounding_box() for name in watched}
        for name in ("Stunned: Windblade 3", "Dead: Windblade 3", "Undo", "Stunned: Windblade 3"):
            phone.press(name)
            after = {n: phone.button(n).bounding_box() for n in watched}
            assert after == before, (name, before, after)
        assert phone.errors == []
    finally:
        context.close()


def test_every_control_is_big_enough_for_a_thumb(browser: Any, server: Server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = Phone(context.new_page(), True)
    try:
        new_game(phone, server, "rangers.yaml")
        small = phone.page.evaluate(
            """() => [...document.querySelectorAll('main button, main summary, main select, main .button')]
                .map(e => [e.getAttribute('aria-label') || e.textContent.trim(), e.getBoundingClientRect()])
                .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n}: ${r.width}x${r.height}`)"""
        )
        assert small == []
        width = phone.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390  # nothing wider than the phone
    finally:
        context.close()


def test_the_server_restarts_in_the_middle_of_a_game(browser: Any, tmp_path: Path):
    folder = fill(tmp_path)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = Phone(context.new_page(), True)
    first = start(folder)
    try:
        new_game(phone, first, "zombies.yaml")
        phone.press("Stunned: Shambler 3")
        phone.press("Fate tokens: take away 1")
        phone.press("Next turn")
    finally:
        assert first.stop() == 0
    second = start(folder)
    try:
        phone.open(f"{second.url}/list/zombies.yaml/play")
        assert phone.button("Stunned: Shambler 3").get_attribute("aria-pressed") == "true"
        assert phone.page.locator(".turn-number").inner_text() == "2"
        assert phone.page.locator(".score-value").first.inner_text() == "9"
        phone.press("Dead: Shambler 3")  # and it plays on, with the new server's token
        assert phone.button("Dead: Shambler 3").get_attribute("aria-pressed") == "true"
        assert phone.errors == []
    finally:
        second.stop()
        context.close()


def test_odds_at_hand(phone: Phone, server: Server):
    phone.open(f"{server.url}/list/zombies.yaml/play/odds")
    phone.page.locator("select[name=attacker]").select_option("Hunter 1")
    phone.page.locator("select[name=against]").select_option("elves.yaml#0")
    phone.page.locator("select[name=attack]").select_option("ranged")
    if phone.js:
        with phone.page.expect_response(lambda r: "/odds?" in r.url):
            phone.button("Work out the odds").click()
    else:
        with phone.page.expect_navigation():
            phone.button("Work out the odds").click()
    table = phone.page.locator(".odds-table").inner_text()
    # listbuilder odds might-skirmish Hunter Windblade attack=ranged
    assert "target killed" in table and "16.2%" in table


@pytest.mark.axe
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("file", ["zombies.yaml", "marines.yaml", "rangers.yaml"])
def test_axe_finds_nothing_serious(browser: Any, server: Server, folder: Path, scheme: str, file: str):
    from listbuilder.api import play, rulesets

    if not play.games_of(folder, file):
        play.start_game(folder, file, rulesets.open_catalogs(None))
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/list/{file}/play")
        assert serious_violations(page) == []
        if scheme == "dark":
            background = page.evaluate("() => getComputedStyle(document.querySelector('.play .panel')).backgroundColor")
            assert background == "rgb(26, 27, 23)"  # the dark theme's card, not the light one
    finally:
        context.close()

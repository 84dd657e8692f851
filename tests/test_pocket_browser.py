"""A pocket copy in Chromium, opened from disk as a player opens it from their phone's files, with
every network request refused (and any attempt failing the test): the tracker's taps, turns, rolls
and undo, a reload that finds the game as it was, a second list with a game of its own, JavaScript
off, touch targets, printing, and axe-core at both widths in both schemes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import serious_violations
from conftest import EXAMPLES

pytest.importorskip("playwright")

ELVES = EXAMPLES / "might-skirmish-windblade-elves.legal.yaml"
ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
MARINES = EXAMPLES / "deathmelt-colonial-marines.legal.yaml"
CAMELS = EXAMPLES / "speed-range-power-camel-corps.legal.yaml"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from typer.testing import CliRunner

    from listbuilder.cli import app

    folder = tmp_path_factory.mktemp("pocket")
    made = {}
    for name, (mine, *vs) in {
        "zombies": (ZOMBIES, ELVES, MASH),
        "elves": (ELVES, ZOMBIES),
        "marines": (MARINES,),
        "camels": (CAMELS,),
    }.items():
        out = folder / f"{name}.html"
        args = ["render", str(mine), "--pocket", "-o", str(out)]
        for v in vs:
            args += ["--vs", str(v)]
        result = CliRunner().invoke(app, args, env={"LISTBUILDER_CATALOGS": ""}, catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
        made[name] = out
    return made


class Offline:
    """A browser context with no network: every request but the file's own is refused and noted."""

    def __init__(self, browser: Any, **options: Any) -> None:
        self.context = browser.new_context(**{"viewport": {"width": 390, "height": 844}, **options})
        self.asked: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("request", lambda r: None if r.url.startswith("file://") else self.asked.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.set_default_timeout(8_000)

    def _route(self, route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            self.asked.append(route.request.url)
            route.abort()

    def open(self, path: Path) -> Any:
        self.page.goto(path.as_uri())
        return self.page

    def close(self) -> None:
        self.context.close()
        assert self.asked == [], f"the file asked the network for {self.asked}"


@pytest.fixture
def offline(browser: Any) -> Iterator[Any]:
    made: list[Offline] = []

    def make(**options: Any) -> Offline:
        made.append(Offline(browser, **options))
        return made[-1]

    yield make
    for o in made:
        o.close()
        assert o.errors == [], o.errors


def pressed(page: Any, name: str) -> str:
    return page.get_by_role("button", name=name, exact=True).get_attribute("aria-pressed")


def test_taps_turns_rolls_and_undo_survive_a_reload(files, offline):
    phone = offline()
    page = phone.open(files["zombies"])
    page.get_by_role("button", name="Stunned: Hunter 1", exact=True).click()
    assert pressed(page, "Stunned: Hunter 1") == "true"
    page.get_by_role("button", name="Fate tokens: add 1").click()
    page.get_by_role("button", name="Next turn").click()
    page.get_by_role("button", name="Roll: Deployment zones").click()
    said = page.locator("#tracker-said").inner_text()
    assert said.startswith("Rolled Deployment zones: ")
    assert "Turn 2 of 5" in page.locator(".t-turn").inner_text()
    # Stunned is kept across the turn: might-skirmish clears nothing at the turn's end
    assert pressed(page, "Stunned: Hunter 1") == "true"

    page.reload()
    assert "Turn 2 of 5" in page.locator(".t-turn").inner_text()
    assert pressed(page, "Stunned: Hunter 1") == "true"
    assert page.locator(".t-tracks li").first.locator(".t-value").inner_text() == "11"
    log = page.locator(".t-log li").all_inner_texts()
    assert log[0].startswith("Turn 2: Rolled Deployment zones: ") and log[-1] == "Turn 1: Stunned on: Hunter 1"

    for _ in range(3):  # the roll, the turn, the score
        page.get_by_role("button", name="Undo").click()
    assert "Turn 1 of 5" in page.locator(".t-turn").inner_text()
    assert page.locator("#tracker-said").inner_text() == "Undone: Fate tokens 10 → 11"
    page.reload()
    assert [t for t in page.locator(".t-log li").all_inner_texts()] == ["Turn 1: Stunned on: Hunter 1"]


def test_a_dead_model_is_out_and_the_end_of_the_game_stops_taps(files, offline):
    page = offline().open(files["zombies"])
    page.get_by_role("button", name="Dead: Hunter 2", exact=True).click()
    assert "out of the game: 1 of 14" in page.locator(".t-turn").inner_text()
    assert page.locator(".t-piece.out .t-name").inner_text() == "Hunter 2"
    page.get_by_role("button", name="End the game").click()
    assert page.get_by_role("button", name="Stunned: Hunter 1", exact=True).is_disabled()
    assert "the game has ended" in page.locator(".t-turn").inner_text()
    page.get_by_role("button", name="Undo").click()
    assert page.get_by_role("button", name="Stunned: Hunter 1", exact=True).is_enabled()


def test_the_turn_track_stops_at_the_games_length(files, offline):
    page = offline().open(files["zombies"])
    for _ in range(4):
        page.get_by_role("button", name="Next turn").click()
    assert "Turn 5 of 5" in page.locator(".t-turn").inner_text()
    assert page.get_by_role("button", name="Next turn").is_disabled()
    assert "The game ends after turn 5" in page.locator("#t-why").inner_text()


def test_a_turn_clears_what_the_text_clears(files, offline):
    """speed-range-power: a model's fights are counted for one turn (text, line 27); the count
    clears when the turn ends, and undo brings it back."""
    page = offline().open(files["camels"])
    name = page.locator(".t-piece .t-name").first.inner_text()
    more = page.get_by_role("button", name=f"One more Fought: {name}", exact=True)
    more.click()
    more.click()
    counter = page.get_by_role("group", name=f"Fought: {name}")
    assert counter.locator("b").inner_text() == "2"
    page.get_by_role("button", name="Next turn").click()
    assert page.locator("#tracker-said").inner_text() == "Turn 2 began (1 markers cleared)"
    assert counter.locator("b").inner_text() == "0"
    page.get_by_role("button", name="Undo").click()
    assert counter.locator("b").inner_text() == "2"


def test_a_second_list_starts_its_own_game(files, offline):
    phone = offline()
    page = phone.open(files["zombies"])
    page.get_by_role("button", name="Next turn").click()
    page = phone.open(files["elves"])
    assert "Turn 1 of 5" in page.locator(".t-turn").inner_text()
    assert page.locator(".t-log li").count() == 0
    page = phone.open(files["zombies"])
    assert "Turn 2 of 5" in page.locator(".t-turn").inner_text()


def test_roll_offs_name_the_winner(files, offline):
    page = offline().open(files["zombies"])
    page.get_by_role("button", name="Roll: Who deploys first").click()
    said = page.locator("#tracker-said").inner_text()
    assert said.startswith("Rolled Who deploys first: ")
    assert said.endswith(("you roll higher", "your opponent rolls higher")) or "roll again" in said or "tie" in said


def test_without_javascript_the_roster_rules_and_odds_show(files, offline):
    page = offline(java_script_enabled=False).open(files["zombies"])
    assert page.locator("#tracker-app").is_hidden()
    assert "needs JavaScript" in page.locator("#tracker").inner_text()
    assert page.locator(".roster h1").inner_text() == "Zombie Family"
    assert page.locator("figure.matrix").count() >= 2
    assert "Zombie Family against Windblade Elves" in page.locator("#rules").inner_text()


def test_every_tracker_control_takes_a_thumb(files, offline):
    page = offline().open(files["zombies"])
    small = page.evaluate(
        """() => [...document.querySelectorAll('#tracker button, .pocket-head a')]
             .map(b => [b.getAttribute('aria-label') || b.textContent, b.getBoundingClientRect()])
             .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n}: ${r.width}x${r.height}`)"""
    )
    assert small == []


def test_it_prints_as_the_roster_does(files, offline):
    page = offline().open(files["zombies"])
    page.emulate_media(media="print")
    assert page.locator("#tracker").is_hidden() and page.locator(".pocket-head").is_hidden()
    assert page.locator(".roster").is_visible()


@pytest.mark.axe
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious(files, offline, width, scheme):
    phone = offline(viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True)
    page = phone.open(files["zombies"])
    page.get_by_role("button", name="Stunned: Hunter 1", exact=True).click()
    page.get_by_role("button", name="Roll: Deployment zones").click()
    found = serious_violations(page)
    assert found == [], "\n".join(found)


def test_hunkering_down_takes_off_danger_and_undo_puts_it_back(files, offline):
    """deathmelt: a figure that hunkers down drops its Danger tokens (the text's line 33); the pocket
    copy plays the catalog's ``takes_off`` as the served game does, and Undo puts them back."""
    page = offline().open(files["marines"])
    name = page.locator(".t-piece .t-name").first.inner_text()
    more = page.get_by_role("button", name=f"One more Danger: {name}", exact=True)
    more.click()
    more.click()
    danger = page.get_by_role("group", name=f"Danger: {name}")
    assert danger.locator("b").inner_text() == "2"
    page.get_by_role("button", name=f"Hunkered down: {name}", exact=True).click()
    assert danger.locator("b").inner_text() == "0"
    page.get_by_role("button", name="Undo").click()
    assert danger.locator("b").inner_text() == "2"


def test_the_force_is_counted_as_the_served_page_counts_it(files, offline):
    page = offline().open(files["marines"])
    board = page.evaluate("() => JSON.parse(document.getElementById('pocket-data').textContent)")
    assert board["counts_figures"] and board["size"] == sum(p["cost"] for p in board["pieces"])
    assert f"out of the game: 0 of {board['size']}" in page.locator(".t-turn").inner_text()

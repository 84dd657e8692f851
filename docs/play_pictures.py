"""Make the README's pictures of the play page from a real `listbuilder serve` (docs/pictures.sh runs it).

Serves one example list of each rule set, starts a game of each and taps what a first turn
taps (a roll, a marker or two, a score), then photographs each play page at a phone's width
(390 px), one in the dark theme, and one at a club table's width (1280 px).
Needs the `playwright` package and Debian's Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

from picture_server import chromium, example, pictures, serving
from playwright.sync_api import Page

# (rule set, example list, the buttons a first turn presses)
GAMES = (
    (
        "might-skirmish",
        "might-skirmish-zombie-family.legal.yaml",
        [
            "Roll: Deployment zones",
            "Stunned: Hunter 2",
            "Dead: Shambler 1",
            "Defending: Shambler 2",
            "Fate tokens: take away 1",
        ],
    ),
    (
        "deathmelt",
        "deathmelt-colonial-marines.legal.yaml",
        [
            "Roll: Objective 1 (advanced game)",
            "One more Danger: Marine Sergeant",
            "One more Danger: Marine Sergeant",
            "Panicked: Marine Sergeant",
            "One more Danger: Colonial Marine 1",
            "Hunkered down: Colonial Marine 2",
            "Victory points: add 1",
        ],
    ),
    (
        "deathzap",
        "deathzap-frontier-rangers.legal.yaml",
        [
            "One more Casualty: Ranger Squad 1",
            "One more Casualty: Ranger Squad 1",
            "One more Hits: Ranger Squad 2",
            "One more Hits: Ranger Squad 2",
        ],
    ),
    (
        "speed-range-power",
        "speed-range-power-sumerians.legal.yaml",
        [
            "Roll: Who takes the first turn",
            "One more Fought: Lugal",
            "One more Fought: Lugal",
            "Casualty: Sumerian Spearman 2",
            "No more attacks: Sumerian Spearman 1",
        ],
    ),
    (
        "melee-module",
        "melee-module-foreign-legion.legal.yaml",
        [
            "One more Killed: Legion Section 1",
            "One more Killed: Legion Section 1",
            "One more Melee round: Legion Section 1",
            "Locked in melee: Legion Section 1",
            "Leader killed: Legion Section 1",
        ],
    ),
)


def press(page: Page, name: str) -> None:
    with page.expect_response(lambda r: r.url.endswith("/tap")):
        page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def main() -> None:
    out = pictures()
    lists = {name.replace(".legal", ""): example(name) for _, name, _ in GAMES}
    with serving(lists) as base, chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        for system, source, taps in GAMES:
            play = f"{base}/list/{source.replace('.legal', '')}/play"
            page.goto(play)
            with page.expect_navigation():
                page.get_by_role("button", name="Start a new game").click()
            page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
            for name in taps:
                press(page, name)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(200)
            page.screenshot(path=str(out / f"play-{system}.png"))
        dark = browser.new_page(viewport={"width": 390, "height": 844}, color_scheme="dark", device_scale_factor=1)
        dark.goto(f"{base}/list/deathmelt-colonial-marines.yaml/play")
        dark.locator("#pieces-title").scroll_into_view_if_needed()
        dark.evaluate("() => window.scrollBy(0, -90)")
        dark.wait_for_timeout(200)
        dark.screenshot(path=str(out / "play-dark.png"))
        wide = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
        wide.goto(f"{base}/list/might-skirmish-zombie-family.yaml/play")
        wide.wait_for_timeout(200)
        wide.screenshot(path=str(out / "play-wide.png"))


if __name__ == "__main__":
    main()

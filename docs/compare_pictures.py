"""Make the pictures of the compare page from a real `listbuilder serve` (docs/pictures.sh runs it).

Two armies compared as opponents: their forces side by side and the ranged odds both ways at a
club table's width (1280 px, light), and on a phone in the dark scheme with the grid scrolled
sideways under its unit column (390 px). Needs the `playwright` package and Debian's Chromium.
"""

from __future__ import annotations

from picture_server import chromium, example, pictures, serving


def main() -> None:
    out = pictures()
    lists = {
        "zombie-family.yaml": example("might-skirmish-zombie-family.legal.yaml"),
        "windblade-elves.yaml": example("might-skirmish-windblade-elves.legal.yaml"),
    }
    address = "/list/zombie-family.yaml/compare?with=windblade-elves.yaml&as=opponents&attack=ranged"
    with serving(lists) as base, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1000}, device_scale_factor=1)
        page.goto(base + address)
        page.locator("h1").scroll_into_view_if_needed()
        page.screenshot(path=str(out / "web-compare.png"))
        page.close()
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1, color_scheme="dark")
        page.goto(base + address)
        grid = page.locator(".matrix-scroll").first
        grid.evaluate("e => { e.scrollLeft = e.scrollWidth }")
        page.evaluate("document.querySelector('.kinds').scrollIntoView()")
        page.screenshot(path=str(out / "web-compare-phone-dark.png"))
        page.close()


if __name__ == "__main__":
    main()

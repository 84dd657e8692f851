"""Make the README's pictures of the web builder from a real `listbuilder serve` (docs/pictures.sh runs it).

Serves a copy of two example lists, adds a 17th fighter to the 16-fighter warband by a click,
and photographs the builder at a club table's width (1280 px) and a phone's (390 px), in the
light colour scheme and the dark one; then the lists page, and the rules card on a phone.
Needs the `playwright` package and Debian's Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

from picture_server import chromium, example, pictures, serving


def main() -> None:
    out = pictures()
    lists = {
        name.replace(".legal", ""): example(name)
        for name in ("might-skirmish-windblade-elves.legal.yaml", "speed-range-power-sumerians.legal.yaml")
    }
    with serving(lists) as base, chromium() as browser:
        shots = (
            (1280, 860, "light", "web-builder.png"),
            (390, 844, "light", "web-phone.png"),
            (1280, 860, "dark", "web-builder-dark.png"),
            (390, 844, "dark", "web-phone-dark.png"),
        )
        for width, height, scheme, name in shots:
            page = browser.new_page(
                viewport={"width": width, "height": height}, device_scale_factor=1, color_scheme=scheme
            )
            page.goto(f"{base}/list/might-skirmish-windblade-elves.yaml")
            version = page.locator("#page-version").get_attribute("value")
            page.get_by_role("button", name="Add one Wind Hawk", exact=True).click()
            page.wait_for_function("v => document.querySelector('#page-version').value !== v", arg=version)
            page.wait_for_timeout(4500)  # the notice of the change has faded
            if width >= 600:  # and ask the list doctor how to make it legal again
                page.get_by_role("button", name="Suggest a fix").click()
                page.locator(".suggestions li").first.wait_for()
            if width < 600:
                page.locator("#entry-2").scroll_into_view_if_needed()
                page.evaluate("window.scrollBy(0, -260)")
            page.screenshot(path=str(out / name))
            page.get_by_role("button", name="Undo the last change", exact=True).click()
            page.wait_for_timeout(300)
            page.close()
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(f"{base}/")
        page.screenshot(path=str(out / "web-lists.png"))
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        page.goto(f"{base}/card/deathmelt")
        page.locator(".web-card .ref-table").first.scroll_into_view_if_needed()
        page.evaluate("document.querySelector('.web-card .ref-table').scrollIntoView()")
        page.screenshot(path=str(out / "web-card-phone.png"))


if __name__ == "__main__":
    main()

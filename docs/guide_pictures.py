"""Make the pictures of the player's guide (docs/getting-started.md) from a real `listbuilder serve`.

Starts from an empty folder, as a new player does: the lists page with its New list form filled
in, the builder after a few Adds, the list's print-and-share page, and its play page on a phone.
docs/pictures.sh runs it; needs the `playwright` package and Debian's Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

from picture_server import chromium, pictures, serving


def main() -> None:
    out = pictures()
    with serving({}) as base, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        page.goto(f"{base}/")
        page.locator("#new-system").select_option("might-skirmish")
        page.get_by_label("Name", exact=True).fill("Zombie Family")
        page.get_by_role("textbox", name="Size").fill("100")
        page.screenshot(path=str(out / "guide-new.png"))
        page.get_by_role("button", name="Start the list").click()
        page.wait_for_url("**/list/**")
        for unit in ("Grandpa Bones", "Hunter", "Shambler", "Cousin Sniper"):
            version = page.locator("#page-version").get_attribute("value")
            page.get_by_role("button", name=f"Add {unit}", exact=True).click()
            page.wait_for_function("v => document.querySelector('#page-version').value !== v", arg=version)
        page.wait_for_timeout(4500)  # the notice of the last change has faded
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "guide-builder.png"))
        address = page.url.split("?")[0]
        page.goto(f"{address}/share")
        page.screenshot(path=str(out / "guide-print.png"))
        page.close()
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        phone.goto(f"{address}/play")
        phone.get_by_role("button", name="Start a new game").click()
        phone.wait_for_timeout(1500)
        phone.evaluate("window.scrollTo(0, 0)")
        phone.screenshot(path=str(out / "guide-play.png"))


if __name__ == "__main__":
    main()

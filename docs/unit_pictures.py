"""Make the README's pictures of what the builder says of a unit, from a real `listbuilder serve`
(docs/pictures.sh runs it): a squad of five marines with one leader and a unit's rules open, on a
phone (390 px), and a unit of your own edited with three rifles and a repeater (1280 px).
Needs the `playwright` package and Debian's Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

from picture_server import chromium, example, pictures, serving

SQUAD = """\
system: deathmelt
name: Colonial Marines
figures: 12
units:
  - unit: Marine Sergeant
  - unit: Colonial Marine
    count: 5
    leaders: 1
  - unit: Marine Gunner
"""


def main() -> None:
    out = pictures()
    lists = {"marines.yaml": SQUAD, "rangers.yaml": example("deathzap-frontier-rangers.legal.yaml")}
    with serving(lists) as url, chromium() as browser:
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(f"{url}/list/marines.yaml")
        phone.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        phone.locator("#entry-2 .rules-link").click()
        phone.locator("#entry-2 .unit-rules-text .source").first.wait_for()
        phone.locator("#entries").screenshot(path=str(out / "web-leaders.png"))
        wide = browser.new_page(viewport={"width": 1280, "height": 900})
        wide.goto(f"{url}/list/rangers.yaml")
        wide.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        wide.get_by_role("link", name="Edit the Colony Volunteers entry").click()
        wide.get_by_role("button", name="Save the changes").wait_for()
        wide.locator("#custom").screenshot(path=str(out / "web-loadout.png"))


if __name__ == "__main__":
    main()

"""Make the README's pictures of what the builder says of a unit, from a real `listbuilder serve`
(docs/pictures.sh runs it): a squad of five marines with one leader and a unit's rules open, on a
phone (390 px), and a unit of your own edited with three rifles and a repeater (1280 px).
Needs the `playwright` package and Debian's Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
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
    folder = Path(tempfile.mkdtemp())
    try:
        (folder / "marines.yaml").write_text(SQUAD, encoding="utf-8")
        shutil.copy(ROOT / "examples" / "deathzap-frontier-rangers.legal.yaml", folder / "rangers.yaml")
        server = subprocess.Popen(
            [sys.executable, "-m", "listbuilder", "serve", str(folder), "--port", "0", "--no-open"],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            url = re.search(r"http://\S+?/", server.stdout.readline())
            assert url, "the server printed no address"
            shoot(url.group(0).rstrip("/"))
        finally:
            server.terminate()
            server.wait(timeout=15)
    finally:
        shutil.rmtree(folder)


def shoot(url: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(f"{url}/list/marines.yaml")
        phone.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        phone.locator("#entry-2 .rules-link").click()
        phone.locator("#entry-2 .unit-rules-text .source").first.wait_for()
        phone.locator("#entries").screenshot(path=str(ROOT / "docs" / "web-leaders.png"))
        wide = browser.new_page(viewport={"width": 1280, "height": 900})
        wide.goto(f"{url}/list/rangers.yaml")
        wide.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        wide.get_by_role("link", name="Edit the Colony Volunteers entry").click()
        wide.get_by_role("button", name="Save the changes").wait_for()
        wide.locator("#custom").screenshot(path=str(ROOT / "docs" / "web-loadout.png"))
        browser.close()


if __name__ == "__main__":
    main()

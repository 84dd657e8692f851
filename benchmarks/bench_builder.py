"""The web builder in Chromium: a change shows in the page, and the page loads, fast (issue 20).

Targets, measured in Debian's Chromium (Playwright), each beside a baseline timed in the same run:
  * click to the updated total (a "+" pressed, until the total shows the new figure): median at
    most 30 ms with the built-in catalogs and at most 50 ms with a user faction of 1,000 units
    (1,016 Add buttons in the page);
  * the builder page with that 1,000-unit catalog loads (navigation start to the load event)
    in at most 300 ms.
The baseline is a bare Starlette app under uvicorn serving htmx and a page of one form that posts
and swaps one figure: what Chromium, htmx and an HTTP round trip cost with no work at all.

Run: python benchmarks/bench_builder.py [--clicks N] [--loads N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_serve import CHROMIUM_ARGS, SIXTEEN, Running, big_faction
from common import ROOT, check, listbuilder_command, precompile, report_line

BARE = """
import socket, sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

PAGE = '''<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title>
<meta name="htmx-config" content='{"includeIndicatorStyles": false}'>
<script src="/static/htmx.min.js" defer></script></head><body>
<p id="total"><b>0</b> points</p>
<form method="post" action="/post" hx-post="/post" hx-swap="none"><input type="hidden" name="n" value="0">
<button aria-label="Add one">+</button></form></body></html>'''
count = 0

async def page(request):
    return HTMLResponse(PAGE)

async def post(request):
    global count
    await request.form()
    count += 1
    return HTMLResponse(f'<p id="total" hx-swap-oob="true"><b>{count}</b> points</p>')

sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(128)
print(f"serving at http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
app = Starlette(routes=[Route("/", page), Route("/post", post, methods=["POST"]),
                        Mount("/static", StaticFiles(directory=sys.argv[1]))])
uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off")).run(sockets=[sock])
"""

# Press a button inside the page and time until the total shows another figure: the page's own
# clock, so the figure holds no Playwright round trip (a click through Playwright adds tens of ms).
# The total is read as textContent: innerText would lay the page out at every mutation.
PRESS = """async (name) => {
  const button = [...document.querySelectorAll('button')].find(b => b.getAttribute('aria-label') === name);
  const before = document.querySelector('#total').textContent;
  const start = performance.now();
  await new Promise(done => {
    const seen = new MutationObserver(() => {
      const total = document.querySelector('#total');
      if (total && total.textContent !== before) { seen.disconnect(); done(); }
    });
    seen.observe(document.body, {childList: true, subtree: true, characterData: true});
    button.click();
  });
  return performance.now() - start;
}"""
IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
# The navigation's own timing: from its start to the end of the load event, in ms.
LOADED = "() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime }"


def clicks(page: Any, url: str, plus: str, back: str | None, runs: int) -> list[float]:
    """Seconds from pressing ``plus`` to the new total, ``runs`` times (after 5 untimed); ``back``
    (Undo) is pressed between, so the list stays the same size."""
    page.goto(url)
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
    times = []
    for i in range(runs + 5):
        for button in (plus, back):
            if button is None:
                continue
            took = page.evaluate(PRESS, button) / 1000
            page.wait_for_function(IDLE)
            if button == plus and i >= 5:
                times.append(took)
    return times


def loads(page: Any, url: str, runs: int) -> list[float]:
    page.goto(url)
    times = []
    for _ in range(runs):
        page.goto(url, wait_until="load")
        times.append(page.evaluate(LOADED) / 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=40, help="timed clicks per figure")
    parser.add_argument("--loads", type=int, default=20, help="timed page loads")
    args = parser.parse_args()
    precompile()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-builder-"))
    folder = work / "lists"
    folder.mkdir()
    (folder / "sixteen.yaml").write_bytes(SIXTEEN.read_bytes())
    bare = work / "bare.py"
    bare.write_text(BARE, encoding="utf-8")
    catalogs = big_faction(work / "catalogs", 1000)
    serve = [*listbuilder_command(), "serve", str(folder), "--port", "0", "--no-open"]
    servers = {
        "bare": Running([sys.executable, str(bare), str(ROOT / "listbuilder" / "web" / "static")]),
        "normal": Running(serve),
        "big": Running([*serve, "--catalogs", str(catalogs)]),
    }
    url = {name: f"http://127.0.0.1:{s.port}/" for name, s in servers.items()}
    ok = True
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            times = {
                "bare": clicks(page, url["bare"], "Add one", None, args.clicks),
                "normal": clicks(
                    page, url["normal"] + "list/sixteen.yaml", "Add one Windblade", "Undo the last change", args.clicks
                ),
                "big": clicks(
                    page, url["big"] + "list/sixteen.yaml", "Add one Windblade", "Undo the last change", args.clicks
                ),
            }
            assert page.locator("button.add").count() == 1016, page.locator("button.add").count()
            load = {
                "bare": loads(page, url["bare"], args.loads),
                "big": loads(page, url["big"] + "list/sixteen.yaml", args.loads),
            }
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
    print("click to the updated total in Chromium")
    print(report_line("  bare Starlette + htmx (baseline)", times["bare"]))
    print(report_line("  the built-in catalogs", times["normal"]))
    print(report_line("  a 1,000-unit catalog", times["big"]))
    ok &= check("click to total, built-in catalogs", statistics.median(times["normal"]) * 1000, 30, "ms")
    ok &= check("click to total, 1,000-unit catalog", statistics.median(times["big"]) * 1000, 50, "ms")
    print("page load in Chromium (navigation start to the load event)")
    print(report_line("  bare Starlette + htmx (baseline)", load["bare"]))
    print(report_line("  builder, 1,000-unit catalog", load["big"]))
    ok &= check("builder page load, 1,000-unit catalog", statistics.median(load["big"]) * 1000, 300, "ms")
    print("PASS" if ok else "MISS", "(medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

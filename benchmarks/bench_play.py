"""Speed of the play page (issue 21), measured in Chromium against `listbuilder serve`.

Targets:
  * a tap (a marker button pressed, htmx swapping the piece's row) answers in at most 30 ms round
    trip, median, from the click to the row showing the new state; the same for a bare Starlette
    form post swapped by htmx is timed in the same run as the baseline;
  * a 16-model game after 500 taps is no slower (median within 1.25x of the fresh game's);
  * the play page of a 200-model list, with a game, loads in at most 300 ms (navigation to the
    load event, median).

Run: python benchmarks/bench_play.py [--taps N]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_serve import CHROMIUM_ARGS, Running
from common import ROOT, listbuilder_command, precompile, report_line

SIXTEEN = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"
STATIC = ROOT / "listbuilder" / "web" / "static"

# The baseline: the smallest page that does what a tap does (htmx posts a form, swaps a row).
BARE = """
import socket, sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

ROW = (
    '<li id="row"><form hx-post="/tap" hx-target="#row" hx-swap="outerHTML">'
    '<button name="on" value="{v}" aria-pressed="{p}">Stunned</button></form></li>'
)
HEAD = '<!doctype html><script src="/static/htmx.min.js"></script><ul>'

async def page(request):
    return HTMLResponse(HEAD + ROW.format(v=1, p="false") + "</ul>")

async def tap(request):
    form = await request.form()
    on = form.get("on") == "1"
    return HTMLResponse(ROW.format(v=0 if on else 1, p="true" if on else "false"))

sock = socket.socket()
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
sock.bind(("127.0.0.1", 0))
sock.listen(128)
print(f"serving at http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
routes = [Route("/", page), Route("/tap", tap, methods=["POST"]), Mount("/static", StaticFiles(directory=sys.argv[1]))]
app = Starlette(routes=routes)
uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off")).run(sockets=[sock])
"""


def big_list(path: Path, models: int) -> Path:
    """A might-skirmish list of ``models`` single fighters (over its limits: that does not matter here)."""
    names = ("Windblade", "Elf Archer", "Wind Hawk", "Forest Cat", "Gale Sniper", "Bladedancer", "Duelist")
    lines = [f"  - unit: {names[i % len(names)]}\n" for i in range(models)]
    path.write_text(f"system: might-skirmish\nname: Big {models}\nunits:\n" + "".join(lines), encoding="utf-8")
    return path


def start_game(server: Running, file: str) -> str:
    page = server.request("GET", f"/list/{file}/play").decode()
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token
    server.request("POST", f"/list/{file}/play/tap", {"token": token.group(1), "tap": "start"})
    return token.group(1)


# Timed inside the page: from the click to the moment the button's new state is in the page
# (a MutationObserver sees the swap), so Playwright's own round trips are not counted.
TAP_JS = """
async ([selector, count]) => {
  const times = [];
  for (let i = 0; i < count; i++) {
    const before = document.querySelector(selector).getAttribute("aria-pressed");
    const done = new Promise((resolve) => {
      const watch = new MutationObserver(() => {
        const now = document.querySelector(selector);
        if (now && now.getAttribute("aria-pressed") !== before) { watch.disconnect(); resolve(performance.now()); }
      });
      watch.observe(document.body, {subtree: true, childList: true, attributes: true});
    });
    const start = performance.now();
    document.querySelector(selector).click();
    const end = await done;
    await new Promise((r) => setTimeout(r, 30));  // htmx settles before the next tap
    times.push((end - start) / 1000);
  }
  return times;
}
"""


def taps_in_chromium(page: object, selector: str, count: int) -> list[float]:
    """Click ``selector`` ``count`` times (after 15 to warm up); each time, the seconds until its
    aria-pressed flips."""
    times: list[float] = page.evaluate(TAP_JS, [selector, count + 15])  # type: ignore[attr-defined]
    return times[15:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", type=int, default=40, help="taps timed in each series")
    args = parser.parse_args()
    precompile()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-play-"))
    folder = work / "lists"
    folder.mkdir()
    (folder / "sixteen.yaml").write_bytes(SIXTEEN.read_bytes())
    big_list(folder / "big.yaml", 200)
    bare = work / "bare.py"
    bare.write_text(BARE, encoding="utf-8")

    server = Running([*listbuilder_command(), "serve", str(folder), "--port", "0", "--no-open"])
    bare_server = Running([sys.executable, str(bare), str(STATIC)])
    try:
        token = start_game(server, "sixteen.yaml")
        start_game(server, "big.yaml")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            selector = 'button[aria-label="Stunned: Windblade 1"]'

            page.goto(f"http://127.0.0.1:{server.port}/list/sixteen.yaml/play")
            page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
            fresh = taps_in_chromium(page, selector, args.taps)

            bare_page = browser.new_page(viewport={"width": 390, "height": 844})
            bare_page.goto(f"http://127.0.0.1:{bare_server.port}/")
            bare_page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
            base = taps_in_chromium(bare_page, "#row button", args.taps)

            served = []
            server.conn.close()
            for n in range(40):
                verb = "mark" if n % 2 == 0 else "unmark"
                fields = {"token": token, "game": "1", "do": f"{verb}|Dead|Duelist"}
                server.request("POST", "/list/sixteen.yaml/play/tap", fields, htmx=True)
                served.append(server.server_seconds)

            print("a tap in Chromium: click to the row swapped (390 px, htmx)")
            print(report_line("  play page, a fresh game", fresh))
            print(report_line("  of which in the server", served[5:]))
            print(report_line("  bare Starlette + htmx row", base))
            print("  target: median at most 30 ms")

            server.conn.close()  # the keep-alive connection may have timed out while Chromium worked
            for n in range(500):  # 500 taps on the game, as a long evening makes them
                fields = {"token": token, "game": "1", "do": f"mark|Dead|Windblade {1 + n % 4}"}
                if (n // 4) % 2:
                    fields["do"] = fields["do"].replace("mark", "unmark", 1)
                server.request("POST", "/list/sixteen.yaml/play/tap", fields, htmx=True)
            page.goto(f"http://127.0.0.1:{server.port}/list/sixteen.yaml/play")
            page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
            logged = int(re.sub(r"\D", "", page.locator("#log-title").inner_text()))
            assert logged >= 500, logged
            later = taps_in_chromium(page, selector, args.taps)
            print("the same after 500 taps")
            print(report_line("  play page, 500 taps in", later))
            ratio = statistics.median(later) / statistics.median(fresh)
            print(f"  ratio {ratio:.2f}x the fresh game's (target: no slower, at most 1.25x)")

            print("the play page of a 200-model list, with a game")
            loads, served = [], []
            server.conn.close()
            url = f"http://127.0.0.1:{server.port}/list/big.yaml/play"
            for i in range(15):
                start = time.perf_counter()
                page.goto(url, wait_until="load")
                elapsed = time.perf_counter() - start
                if i >= 3:
                    loads.append(elapsed)
                    server.request("GET", "/list/big.yaml/play")
                    served.append(server.server_seconds)
            assert page.locator("li.piece").count() == 200
            print(report_line("  navigation to load", loads))
            print(report_line("  of which in the server", served))
            print("  target: at most 300 ms")
            browser.close()
    finally:
        server.stop()
        bare_server.stop()


if __name__ == "__main__":
    main()

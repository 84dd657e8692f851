"""Work-heavy GETs (the list doctor, odds, comparisons, PDFs) answer only this server's pages,
a few at once: otherwise an ``<img>`` on any site could start ``fix`` of a 60,000-entry list, and
with eight of them in flight an ordinary page would take seconds."""

from __future__ import annotations

import asyncio
import concurrent.futures
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from webserver import Server, start

ZOMBIES = "zombies.yaml"
ELVES = "elves.yaml"
BIG = "big.yaml"
UNITS = ["Windblade", "Elf Archer", "Wind Hawk", "Forest Cat", "Gale Sniper", "Bladedancer", "Duelist"]
HEAVY = [
    f"/list/{BIG}/doctor?doctor=fix",
    f"/list/{BIG}?doctor=fix",
    f"/list/{ZOMBIES}/print?format=html",
    f"/list/{ZOMBIES}/compare?with={ELVES}",
    "/card/deathzap/download?format=html",
    f"/list/{ZOMBIES}/play/odds",
    f"/list/{ZOMBIES}/play/odds?attacker=1&against={ELVES}%231",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("limits")
    (root / ZOMBIES).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    (root / ELVES).write_bytes((EXAMPLES / "might-skirmish-windblade-elves.legal.yaml").read_bytes())
    lines = "".join(f"  - unit: {UNITS[i % 7]}\n    count: {1 + i % 3}\n" for i in range(60_000))
    (root / BIG).write_text(f"system: might-skirmish\nname: Big\npoints: 100\nunits:\n{lines}", encoding="utf-8")
    s = start(root)
    yield s
    s.stop()


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_heavy_get_from_another_site_is_refused(server: Server, site: str):
    for path in HEAVY:
        answer = server.get(path, {"Sec-Fetch-Site": site, "Sec-Fetch-Dest": "image"})
        assert answer.status == 403, (path, answer.status)
        assert "answers only its own pages" in answer.text


def test_a_heavy_get_from_an_old_browser_on_another_site_is_refused(server: Server):
    for path in HEAVY:
        assert server.get(path, {"Referer": "https://example.com/page"}).status == 403, path
    # its own pages' links go through, and so does a client that is no browser
    own = {"Referer": f"{server.url}/list/{ZOMBIES}"}
    assert server.get(f"/list/{ZOMBIES}/print?format=html", own).status == 200
    assert server.get(f"/list/{ZOMBIES}/print?format=html").status == 200


def test_a_heavy_get_from_this_server_or_with_its_token_is_answered(server: Server):
    for site in ("same-origin", "none"):
        assert server.get(f"/list/{ZOMBIES}/compare?with={ELVES}", {"Sec-Fetch-Site": site}).status == 200
    token = server.token()
    path = f"/list/{ZOMBIES}/print?format=html&token={token}"
    assert server.get(path, {"Sec-Fetch-Site": "cross-site"}).status == 200
    assert server.get(path.replace(token, "x" + token[1:]), {"Sec-Fetch-Site": "cross-site"}).status == 403


def test_an_ordinary_page_from_another_site_is_still_served(server: Server):
    # a link from a club's forum to a list page, or its QR code, is a navigation like any other
    for path in (f"/list/{ZOMBIES}", f"/list/{ZOMBIES}/share", "/"):
        assert server.get(path, {"Sec-Fetch-Site": "cross-site"}).status == 200, path


def test_an_ordinary_page_answers_quickly_while_cross_site_doctors_are_sent(server: Server):
    page = f"/list/{ZOMBIES}"
    server.get(page)  # warm
    cross = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"}
    with concurrent.futures.ThreadPoolExecutor(max_workers=9) as pool:
        doctors = [pool.submit(server.get, f"/list/{BIG}/doctor?doctor=fix", cross) for _ in range(8)]
        times = []
        for _ in range(5):
            start = time.perf_counter()
            assert server.get(page).status == 200
            times.append(time.perf_counter() - start)
        assert [d.result().status for d in doctors] == [403] * 8
    assert statistics.median(times) < 0.1, times


def test_the_doctor_past_its_bound_says_so_on_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from listbuilder.doctor import program
    from listbuilder.web.app import create_app

    lines = "".join(f"  - unit: {UNITS[i % 7]}\n    count: {1 + i % 3}\n" for i in range(2_000))
    (tmp_path / BIG).write_text(f"system: might-skirmish\nname: Big\npoints: 100\nunits:\n{lines}", encoding="utf-8")
    monkeypatch.setattr(program, "MAX_SECONDS", 0.001)
    app = create_app(tmp_path, catalogs=[])
    for path, htmx in ((f"/list/{BIG}/doctor?doctor=fix", "true"), (f"/list/{BIG}?doctor=fix", "false")):
        # an answer htmx swaps in place (it leaves a 4xx out), and the whole page without it
        status, body = asyncio.run(_get(app, path, {"sec-fetch-site": "same-origin", "hx-request": htmx}))
        assert status == 200, path
        assert '<div role="alert"><p>The list doctor has no answer:</p><pre class="located">' in body
        assert "too much work for an exact answer: more than 0.001 seconds" in body


async def _get(app: Any, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """One GET through an ASGI app, in process: its status and body."""
    where, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": where,
        "raw_path": where.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1:9"), *((k.encode(), v.encode()) for k, v in (headers or {}).items())],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 9),
    }
    status, body = 0, b""

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        nonlocal status, body
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body += message.get("body", b"")

    await app(scope, receive, send)
    return status, body.decode("utf-8", "replace")

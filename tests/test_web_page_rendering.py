"""No web page is rendered on the event loop: a template renders on a worker thread, whether the
handler asked for its page on the loop (after its work) or from its work on a worker thread.

Each test sends real requests through the app in process and records, inside the render
itself, whether an event loop runs on the thread that renders.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from starlette.requests import Request

from listbuilder.api import pages
from listbuilder.printing import html
from listbuilder.web import builder
from listbuilder.web.app import create_app

ZOMBIES = "zombies.yaml"


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, bool, int]]]:
    """Each page template rendered: its name, whether a loop ran on its thread, and the thread."""
    seen: list[tuple[str, bool, int]] = []
    real = html.render_template

    def recording(name: str, context: dict[str, Any], user_templates: Path | None = None) -> str:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        seen.append((name, on_loop, threading.get_ident()))
        return real(name, context, user_templates)

    monkeypatch.setattr(pages, "render_template", recording)  # where the pages call it
    yield seen


def scope_of(method: str, path: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    where, _, query = path.partition("?")
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": where,
        "raw_path": where.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1:9"), *((k.encode(), v.encode()) for k, v in (headers or {}).items())],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 9),
    }


async def exchange(app: Any, scope: dict[str, Any], body: bytes = b"") -> tuple[int, dict[str, str], str]:
    """One request through an ASGI app: the status, the headers and the body of its answer."""
    status, headers, sent = 0, {}, b""

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Any) -> None:
        nonlocal status, headers, sent
        if message["type"] == "http.response.start":
            status = message["status"]
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            sent += message.get("body", b"")

    await app(scope, receive, send)
    return status, headers, sent.decode("utf-8")


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    (tmp_path / ZOMBIES).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    # the catalog's units are drawn once per filter for every server of the process: a new server
    # here draws them anew, whatever other tests asked for before
    monkeypatch.setattr(builder, "_UNITS", weakref.WeakKeyDictionary())
    return create_app(tmp_path, catalogs=[])


# Pages asked for on the loop after their work (the folder, the catalog part, a 404, a refused
# post) and from work on a worker thread (the builder), each with what it must show.
PAGES = [
    ("GET", "/", 200, "web/lists.html", "zombies.yaml"),
    ("GET", f"/list/{ZOMBIES}", 200, "web/_units.html web/list.html", 'id="verdict">Legal</p>'),
    # the catalog's units are rendered once per filter and kept, then put in the part
    ("GET", f"/list/{ZOMBIES}/catalog?q=hunt", 200, "web/_units.html web/_catalog.html", "Hunter"),
    ("GET", "/nowhere", 404, "web/error.html", "There is no such page here."),
    ("POST", "/new", 403, "web/error.html", "This change did not come from a page of this server"),
]


@pytest.mark.parametrize(("method", "path", "status", "template", "shows"), PAGES)
def test_every_page_renders_off_the_event_loop(app, renders, method, path, status, template, shows):
    loop_thread = threading.get_ident()  # asyncio.run runs its loop on this thread
    form = {"content-type": "application/x-www-form-urlencoded"} if method == "POST" else {}
    answer, headers, text = asyncio.run(exchange(app, scope_of(method, path, form), b"name=x"))
    assert answer == status and shows in text
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert int(headers["content-length"]) == len(text.encode("utf-8"))
    assert [name for name, _, _ in renders] == template.split()
    assert [(on_loop, thread == loop_thread) for _, on_loop, thread in renders] == [(False, False)] * len(renders)


def test_a_page_asked_for_on_the_loop_keeps_the_headers_set_before_it_is_sent(app, renders):
    site = app.state.site
    scope = scope_of("GET", "/")

    async def ask() -> tuple[int, dict[str, str], str]:
        page = site.page("error.html", Request(scope), 409, title="Busy", message="Try again")
        page.headers["HX-Reswap"] = "none"
        assert renders == []  # nothing rendered yet, on the loop
        sent: list[Any] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Any) -> None:
            sent.append(message)

        await page(scope, receive, send)
        start, body = sent
        return (
            start["status"],
            {k.decode(): v.decode() for k, v in start["headers"]},
            body["body"].decode(),
        )

    status, headers, text = asyncio.run(ask())
    assert status == 409 and "Try again" in text
    assert headers["hx-reswap"] == "none" and int(headers["content-length"]) == len(text.encode())
    assert [(name, on_loop) for name, on_loop, _ in renders] == [("web/error.html", False)]


def test_a_page_asked_for_where_no_loop_runs_renders_there_at_once(app, renders):
    # as a handler's work does on its worker thread (the builder page): no second hop
    site = app.state.site
    answer = site.page("error.html", Request(scope_of("GET", "/")), 400, title="Bad", message="No such unit")
    assert renders == [("web/error.html", False, threading.get_ident())]
    assert b"No such unit" in answer.body and answer.headers["content-length"] == str(len(answer.body))

"""Each of the guard's middlewares alone, in a tiny Starlette app with only it (``web/security.py``),
and the heavy routes of the real route table: the end-to-end checks are in ``test_web_security.py``
and ``test_web_limits.py``."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

import pytest
from asgiclient import Client
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from listbuilder.web import security
from listbuilder.web.app import create_app

HOST = "127.0.0.1:8000"


async def _echo(request: Request) -> Response:
    body = await request.body()
    return PlainTextResponse(f"{request.method} {len(body)}")


def _alone(cls: type, *, routes: list[BaseRoute] | None = None, **options: Any) -> Client:
    """A client of a Starlette app whose only middleware is ``cls`` (with ``options``)."""
    routes = routes or [Route("/{path:path}", _echo, methods=["GET", "POST", "PUT", "DELETE", "OPTIONS"])]
    return Client(Starlette(routes=routes, middleware=[Middleware(cls, **options)]), HOST)


# --- SafeHeaders ----------------------------------------------------------------------------------


def test_safe_headers_are_added_to_every_answer():
    client = _alone(security.SafeHeaders)
    for answer in (client.get("/"), client.get("/nowhere/at/all"), client.post("/x", {"a": "1"})):
        assert answer.headers["content-security-policy"] == security.CSP
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert re.fullmatch(r"app;dur=\d+\.\d", answer.headers["server-timing"])


# --- HostCheck ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("127.0.0.1:8000", 200),
        ("localhost:8000", 200),
        ("LOCALHOST:8000", 200),
        ("[::1]:8000", 200),
        ("127.0.0.1:8001", 421),
        ("evil.example:8000", 421),
        ("127.0.0.1.evil.example:8000", 421),
        ("", 421),
    ],
)
def test_host_check_serves_only_the_names_of_its_address(host: str, status: int):
    client = _alone(security.HostCheck, hosts=security.host_names("127.0.0.1", 8000))
    answer = client.get("/", headers={"Host": host})
    assert answer.status == status
    if status == 421:
        assert answer.text == "This server answers only to the address it was started on.\n"
        assert client.post("/", {"a": "1"}, headers={"Host": host}).status == 421


def test_host_check_without_a_port_or_on_every_interface():
    any_port = _alone(security.HostCheck, hosts=security.host_names("127.0.0.1", None), any_port=True)
    assert any_port.get("/", headers={"Host": "localhost:5"}).status == 200
    assert any_port.get("/", headers={"Host": "evil.example:5"}).status == 421
    every = _alone(security.HostCheck, hosts=security.host_names("0.0.0.0", 8000), any_ip=8000)
    assert every.get("/", headers={"Host": "192.0.2.7:8000"}).status == 200
    assert every.get("/", headers={"Host": "192.0.2.7:8001"}).status == 421
    assert every.get("/", headers={"Host": "rebound.example:8000"}).status == 421


# --- CrossSiteWrites ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({}, 200, ""),
        ({"Sec-Fetch-Site": "same-origin", "Origin": f"http://{HOST}"}, 200, ""),
        ({"Sec-Fetch-Site": "none"}, 200, ""),
        ({"Sec-Fetch-Site": "cross-site"}, 403, "Changes from another site are refused."),
        ({"Sec-Fetch-Site": "same-site"}, 403, "Changes from another site are refused."),
        ({"Origin": "http://evil.example"}, 403, "Changes from another origin are refused."),
        ({"Origin": "null"}, 403, "Changes from another origin are refused."),
        ({"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:1"}, 403, "another origin"),
    ],
)
def test_cross_site_writes_are_refused_and_reads_are_not(headers: dict[str, str], status: int, words: str):
    client = _alone(security.CrossSiteWrites)
    for method in ("POST", "PUT", "DELETE"):
        answer = client.request(method, "/x", b"a=1", headers)
        assert answer.status == status, method
        assert words in answer.text
    for method in ("GET", "OPTIONS"):  # a read is never refused here (HeavyGets judges heavy ones)
        assert client.request(method, "/x", headers=headers).status == 200


# --- HeavyGets ------------------------------------------------------------------------------------


def _heavy_app(release: asyncio.Event, counts: dict[str, int]) -> Starlette:
    async def work(request: Request) -> Response:
        counts["running"] += 1
        counts["peak"] = max(counts["peak"], counts["running"])
        await release.wait()
        counts["running"] -= 1
        return PlainTextResponse("done")

    routes: list[BaseRoute] = [
        security.HeavyRoute("/list/{file}/doctor", work),
        security.HeavyRoute("/list/{file}", work, when="doctor"),
        Route("/", _echo),
    ]
    return Starlette(routes=routes, middleware=[Middleware(security.HeavyGets, routes=routes, token="t")])


@pytest.mark.parametrize(
    ("path", "heavy"),
    [
        ("/list/a.yaml/doctor", True),
        ("/list/a.yaml?doctor=fix", True),
        ("/list/a.yaml?q=x&doctor=fix", True),
        ("/list/a.yaml?doctor=", False),
        ("/list/a.yaml?doctor", False),
        ("/list/a.yaml?q=doctor", False),
        ("/list/a.yaml/doctor/more", False),
        ("/", False),
    ],
)
def test_heavy_gets_are_the_heavy_routes_gets(path: str, heavy: bool):
    app = _heavy_app(asyncio.Event(), {"running": 0, "peak": 0})
    admission = security.HeavyGets(app, app.routes)
    where, _, query = path.partition("?")
    for method, expected in (("GET", heavy), ("HEAD", heavy), ("POST", False)):
        scope = {"type": "http", "method": method, "path": where, "root_path": "", "query_string": query.encode()}
        assert admission.starts_work(scope) is expected, method


def test_a_heavy_get_from_another_site_is_refused_unless_it_carries_the_token():
    release = asyncio.Event()
    release.set()
    client = Client(_heavy_app(release, {"running": 0, "peak": 0}), HOST)
    refused = "This page starts work on the server, so it answers only its own pages.\n"
    for headers in (
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Referer": "http://x.example/"},
    ):
        answer = client.get("/list/a.yaml/doctor", headers)
        assert (answer.status, answer.text) == (403, refused)
        assert client.get("/list/a.yaml?doctor=fix", headers).status == 403
        assert client.get("/list/a.yaml/doctor?token=t", headers).status == 200
        assert client.get("/list/a.yaml/doctor?token=u", headers).status == 403
        assert client.get("/list/a.yaml", headers).status == 200  # the page itself starts no work
    for headers in ({}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {"Referer": f"http://{HOST}/"}):
        assert client.get("/list/a.yaml/doctor", headers).status == 200


def test_heavy_gets_run_a_few_at_once_and_the_rest_wait_or_are_refused():
    release = asyncio.Event()
    counts = {"running": 0, "peak": 0}
    app = _heavy_app(release, counts)

    async def scenario() -> tuple[list[int], int]:
        many = security.HEAVY_AT_ONCE + security.HEAVY_WAITING
        paths = ["/list/a.yaml/doctor", "/list/a.yaml?doctor=fix"]
        tasks = [asyncio.create_task(_call(app, paths[i % 2])) for i in range(many + 3)]
        await asyncio.sleep(0.05)
        ordinary = await asyncio.wait_for(_call(app, "/"), 1)  # not held up by the heavy ones
        assert counts["running"] == security.HEAVY_AT_ONCE
        release.set()
        return [await t for t in tasks], ordinary

    statuses, ordinary = asyncio.run(scenario())
    assert ordinary == 200
    assert counts["peak"] == security.HEAVY_AT_ONCE
    assert statuses.count(200) == security.HEAVY_AT_ONCE + security.HEAVY_WAITING
    assert statuses.count(503) == 3


async def _call(app: Any, path: str, body: list[bytes] | None = None, headers: dict[str, str] | None = None) -> int:
    """One request through ``app`` in this event loop: a GET, or a POST of ``body`` in chunks; its status."""
    where, _, query = path.partition("?")
    sent = {"host": HOST, **(headers or {})}
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET" if body is None else "POST",
        "scheme": "http",
        "path": where,
        "raw_path": where.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(k.encode(), v.encode()) for k, v in sent.items()],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 8000),
    }
    chunks = list(body or [])
    status = 0

    async def receive() -> dict[str, Any]:
        if chunks:
            return {"type": "http.request", "body": chunks.pop(0), "more_body": bool(chunks)}
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope, receive, send)
    return status


# --- BodyLimit ------------------------------------------------------------------------------------


def test_a_body_past_the_limit_is_refused_by_its_length():
    client = _alone(security.BodyLimit, max_body=100)
    assert client.request("POST", "/x", b"a" * 100).text == "POST 100"
    too_big = client.request("POST", "/x", b"a" * 101)
    assert (too_big.status, too_big.text) == (413, "A request may carry at most 100 bytes.\n")
    assert client.request("POST", "/x", b"a", {"Content-Length": "1e9"}).status == 413  # not a length


def test_a_body_without_a_length_is_refused_as_it_grows_past_the_limit():
    app = _alone(security.BodyLimit, max_body=100).app
    assert asyncio.run(_call(app, "/x", [b"a" * 60, b"a" * 40])) == 200
    assert asyncio.run(_call(app, "/x", [b"a" * 60, b"a" * 41])) == 413


# --- the real route table -------------------------------------------------------------------------


def _heavy_paths(app: Starlette) -> list[str]:
    """A GET that starts work for each heavy route of ``app``."""
    paths = []
    for route in app.routes:
        if isinstance(route, security.HeavyRoute):
            path = re.sub(r"\{[^}]+\}", "a.yaml", route.path_format)
            paths.append(f"{path}?{route.when}=fix" if route.when else path)
    return paths


def _admission(app: Starlette) -> security.HeavyGets:
    """The ``HeavyGets`` middleware of ``app``, as its requests go through it."""
    if app.middleware_stack is None:
        app.middleware_stack = app.build_middleware_stack()
    layer: Any = app.middleware_stack
    while not isinstance(layer, security.HeavyGets):
        layer = layer.app
    return layer


def test_the_heavy_routes_are_the_work(tmp_path: Path):
    app = create_app(tmp_path, catalogs=[], token="t")
    assert sorted(_heavy_paths(app)) == [
        "/card/a.yaml/download",
        "/list/a.yaml/compare",
        "/list/a.yaml/doctor",
        "/list/a.yaml/play/odds",
        "/list/a.yaml/pocket",
        "/list/a.yaml/print",
        "/list/a.yaml?doctor=fix",
    ]


@pytest.mark.parametrize(
    ("path", "query", "heavy"),
    [
        ("/list/a.yaml/doctor", "", True),
        ("/list/a.yaml", "doctor=fix", True),
        ("/list/a.yaml", "doctor=", False),
        ("/list/a.yaml", "q=hunter", False),
        ("/list/a.yaml/print", "format=html", True),
        ("/list/a.yaml/compare", "", True),
        ("/list/a.yaml/play/odds", "", True),
        ("/list/a.yaml/play/odds", "attacker=1&against=b.yaml%231", True),
        ("/list/a.yaml/play", "", False),
        ("/card/deathzap/download", "", True),
        ("/card/deathzap", "", False),
        ("/list/a.yaml/share", "", False),
        ("/list/a.yaml/share", "with=b.yaml", False),
        ("/", "doctor=fix", False),
    ],
)
def test_which_gets_of_the_app_are_heavy(tmp_path_factory: pytest.TempPathFactory, path: str, query: str, heavy: bool):
    app = _real_app(tmp_path_factory)
    scope = {"type": "http", "method": "GET", "path": path, "root_path": "", "query_string": query.encode()}
    assert _admission(app).starts_work(scope) is heavy


_APPS: dict[str, Starlette] = {}


def _real_app(tmp_path_factory: pytest.TempPathFactory) -> Starlette:
    """One app over an empty folder, made once for the tests that only read its route table."""
    if "app" not in _APPS:
        _APPS["app"] = create_app(tmp_path_factory.mktemp("empty"), catalogs=[], token="t")
    return _APPS["app"]


def test_every_heavy_route_is_admitted_a_few_at_once(tmp_path: Path):
    app = create_app(tmp_path, catalogs=[], token="t")
    client = Client(app, "127.0.0.1:8000")
    admission = _admission(app)
    admission.places = asyncio.Semaphore(0)  # every place taken...
    admission.waiting = security.HEAVY_WAITING  # ...and every waiting place
    for path in _heavy_paths(app):
        answer = client.get(path)
        assert (answer.status, answer.text) == (
            503,
            "The server is busy with other long answers; try again in a moment.\n",
        ), path
        assert client.get(path, {"Sec-Fetch-Site": "cross-site"}).status == 403, path
    assert client.get("/").status == 200
    assert client.get("/list/a.yaml").status != 503  # the builder page without the doctor is no work


def test_a_cross_site_get_of_the_odds_is_refused_like_the_doctor(tmp_path: Path):
    client = Client(create_app(tmp_path, catalogs=[], token="t"), "127.0.0.1:8000")
    for path in ("/list/F.yaml/play/odds", "/list/F.yaml/doctor", "/list/F.yaml/compare"):
        answer = client.get(path, {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"})
        assert answer.status == 403, path
        assert "answers only its own pages" in answer.text


# --- an error no handler takes ----------------------------------------------------------------------


def _failing_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Client:
    app = create_app(tmp_path)

    def broken(*args: Any, **kwargs: Any) -> Response:
        raise RuntimeError("a bug")

    monkeypatch.setattr(app.state.site, "page", broken)
    return Client(app, HOST, raise_server_exceptions=False)


def test_an_unexpected_error_is_a_page_with_the_guards_headers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    answer = _failing_app(tmp_path, monkeypatch).get("/")
    assert answer.status == 500
    assert "<h1>Something went wrong</h1>" in answer.text
    assert "Your lists are as they were last saved" in answer.text
    assert "Restart" not in answer.text
    assert answer.headers["content-security-policy"] == security.CSP
    assert answer.headers["x-frame-options"] == "DENY"


def test_a_server_whose_package_was_reinstalled_says_to_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from listbuilder.web import app as app_module

    client = _failing_app(tmp_path, monkeypatch)  # started with this installation
    monkeypatch.setattr(app_module, "installation", lambda: (0, 0))  # then pip installed it again
    answer = client.get("/")
    assert answer.status == 500
    assert "<h1>Restart the server</h1>" in answer.text
    assert "installed again or upgraded while this server was running" in answer.text
    assert "Ctrl+C" in answer.text


def test_the_installation_mark_changes_when_the_file_is_written_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from listbuilder.web import app as app_module

    copy = tmp_path / "app.py"
    copy.write_text("one")
    monkeypatch.setattr(app_module, "__file__", str(copy))
    before = app_module.installation()
    copy.unlink()
    assert app_module.installation() is None  # removed outright, as an uninstall leaves it
    copy.write_text("one")  # as pip writes a reinstalled package: a new file, seconds later
    assert before is not None
    later = before[1] + 5_000_000_000
    os.utime(copy, ns=(later, later))
    assert app_module.installation() != before


def test_htmx_gets_the_advice_as_text_the_page_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    answer = _failing_app(tmp_path, monkeypatch).get("/", headers={"HX-Request": "true"})
    assert answer.status == 500
    assert answer.headers["content-type"].startswith("text/plain")  # app.js shows it as an alert
    assert answer.text.startswith("Something went wrong: listbuilder met an error it did not expect")


# --- what a change did, said on the next page --------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "shown"),
    [
        ({"Sec-Fetch-Site": "same-origin"}, True),  # this server's redirect after a change
        ({}, True),  # a client that is no browser
        ({"Referer": "http://127.0.0.1:8000/"}, True),  # an old browser, from this server's page
        ({"Sec-Fetch-Site": "cross-site"}, False),  # a link on another site
        ({"Sec-Fetch-Site": "none"}, False),  # typed or pasted
        ({"Referer": "https://evil.example/"}, False),  # an old browser, from another site
    ],
)
def test_a_notice_is_shown_only_after_this_servers_own_redirect(tmp_path: Path, headers: dict[str, str], shown: bool):
    client = Client(create_app(tmp_path), HOST)
    answer = client.get("/?done=Your+list+was+sold", headers=headers)
    assert answer.status == 200
    assert ("Your list was sold" in answer.text) is shown

"""The guard in front of every request: the checks a local server needs, as datasette and Jupyter do them.

- **Host**: a page on another site can point its own domain name at 127.0.0.1 (DNS rebinding)
  and then read and write this server as if it were that site. So a request is served only if
  its ``Host`` header names the address the server was started on (421 otherwise).
- **Cross-site writes**: a write (any method but GET, HEAD and OPTIONS) is refused if the
  browser says it comes from another site (``Sec-Fetch-Site``) or another origin (``Origin``),
  and it must carry the token made when the server started (the page's forms hold it), which
  another site cannot read. Checked by the app, where the form is parsed (``check_token``).
- **Work-heavy reads**: a GET that starts real work (the list doctor, odds, a comparison, a PDF:
  ``is_heavy``) answers only this server's own pages, since an ``<img>`` on any site can send a
  GET: one the browser says comes from another site (``Sec-Fetch-Site``), or, from a browser too
  old to say, whose ``Referer`` names another host, is refused (403) unless it carries the token.
  At most ``HEAVY_AT_ONCE`` of them run at once per server and ``HEAVY_WAITING`` wait (503 past
  that), so the worker threads stay free for every other page.
- **Size**: a request body over ``MAX_BODY`` bytes is refused (413) before it is read whole.
- **Headers on every answer**: a Content-Security-Policy that lets a page run and style only
  what this server itself serves (no inline script, no eval, nothing from another host), and no
  framing or sniffing, and no referrer to another site.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

MAX_BODY = 1024 * 1024
HEAVY_AT_ONCE = 2  # work-heavy GETs running at once, per server (2 cores run two solvers)
HEAVY_WAITING = 8  # and waiting for their turn; past that, 503
# The GETs that start work growing with a list's size (doctor, odds, PDF), as paths and queries.
HEAVY_PATHS = re.compile(r"/list/[^/]+/(doctor|print|compare|odds)|/card/[^/]+/download|/play/[^/]+/odds")
HEAVY_QUERY = re.compile(r"(^|&)(doctor|with)=[^&]")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would make Chromium send Origin: null
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


WILDCARDS = ("0.0.0.0", "::", "[::]")


def host_names(host: str, port: int | None) -> frozenset[str]:
    """The ``Host`` header values that name a server on ``host``:``port`` (any port if ``None``)."""
    names = {f"[{host}]" if ":" in host and not host.startswith("[") else host}
    if host in ("127.0.0.1", "localhost", "::1", "[::1]", *WILDCARDS):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    if port is None:
        return frozenset(names)
    return frozenset({f"{n}:{port}" for n in names} | (names if port == 80 else set()))


def is_ip_host(host: str, port: int | None) -> bool:
    """Whether a ``Host`` header is an IP address (with the server's port): a page of another site
    can rebind a domain name to this machine, but never make a browser send its IP as the host."""
    # start-up: only a Host header that looks like an address needs it
    import ipaddress

    name, sep, given = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not sep:
        name, given = host, ""
    if port is not None and given != str(port):
        return False
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def is_heavy(path: str, query: str) -> bool:
    """Whether a GET of ``path?query`` starts work that grows with a list: the list doctor, odds,
    a comparison, a PDF (a builder page asking the doctor too)."""
    return bool(HEAVY_PATHS.fullmatch(path) or (path.startswith("/list/") and HEAVY_QUERY.search(query)))


def from_this_site(headers: dict[str, str], host: str) -> bool:
    """Whether a browser says a request comes from a page of this server (or from the user,
    typed or bookmarked); a client that is no browser says nothing and is taken at its word."""
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    referer = headers.get("referer")  # browsers before Fetch Metadata (Safari 16.3, Firefox 89)
    return referer is None or re.match(rf"https?://{re.escape(host)}(/|$)", referer, re.IGNORECASE) is not None


def query_token(query: str) -> str:
    """The ``token=`` of a query string ('' without one)."""
    return (parse_qs(query).get("token") or [""])[-1]


def token_matches(given: object, token: str) -> bool:
    """Whether a write's token is this server's, compared in constant time."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), token.encode())


class Guard:
    """ASGI middleware: refuse wrong hosts, cross-site writes and big bodies; add safe headers."""

    def __init__(
        self,
        app: ASGIApp,
        hosts: Iterable[str],
        max_body: int = MAX_BODY,
        any_ip: int | bool | None = False,
        any_port: bool = False,
        token: str | None = None,
    ) -> None:
        """``hosts``: the ``Host`` values served (``host_names``). ``any_port``: they are names
        without a port, and any port goes (a server whose port is not known here). ``any_ip``: the
        server listens on every interface, so a ``Host`` that is any IP address of this machine,
        with ``any_ip``'s port (``True``: any port), is served too. ``token``: the server's, which
        lets a work-heavy GET from another site through (a page of this server may link one)."""
        self.app = app
        self.token = token
        self.heavy = asyncio.Semaphore(HEAVY_AT_ONCE)
        self.waiting = 0
        self.hosts = frozenset(h.lower() for h in hosts)
        self.max_body = max_body
        self.any_ip = any_ip
        self.any_port = any_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").lower()
        name = re.sub(r":\d+$", "", host) if self.any_port else host
        if name not in self.hosts and not (
            self.any_ip is not False and is_ip_host(host, None if self.any_ip is True else self.any_ip)
        ):
            await _refuse(send, 421, "This server answers only to the address it was started on.")
            return
        method = scope["method"]
        if method not in SAFE_METHODS:
            site = headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                await _refuse(send, 403, "Changes from another site are refused.")
                return
            origin = headers.get("origin")
            if origin is not None and origin.lower() != f"http://{host}":
                await _refuse(send, 403, "Changes from another origin are refused.")
                return
        heavy = method in ("GET", "HEAD") and is_heavy(scope["path"], scope.get("query_string", b"").decode("latin-1"))
        if heavy and not from_this_site(headers, host):
            given = query_token(scope.get("query_string", b"").decode("latin-1"))
            if self.token is None or not token_matches(given, self.token):
                await _refuse(send, 403, "This page starts work on the server, so it answers only its own pages.")
                return
        if heavy and self.heavy.locked() and self.waiting >= HEAVY_WAITING:
            await _refuse(send, 503, "The server is busy with other long answers; try again in a moment.")
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send, 413, f"A request may carry at most {self.max_body:,} bytes.")
            return

        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return message

        started = False
        began = time.perf_counter()

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                # How long the server took, for the browser's network panel and the benchmarks.
                took = f"app;dur={(time.perf_counter() - began) * 1000:.1f}".encode()
                message["headers"] = [*message.get("headers", []), *HEADERS, (b"server-timing", took)]
            await send(message)

        try:
            if heavy:
                await self._heavy(scope, limited_receive, send_with_headers)
            else:
                await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            if not started:
                await _refuse(send, 413, f"A request may carry at most {self.max_body:,} bytes.")

    async def _heavy(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run a work-heavy request once one of the ``HEAVY_AT_ONCE`` places is free."""
        self.waiting += 1
        try:
            await self.heavy.acquire()
        finally:
            self.waiting -= 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.heavy.release()


class BodyTooLarge(Exception):
    """A request body grew past the limit while it was being read (the app answers 413)."""


async def _refuse(send: Send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

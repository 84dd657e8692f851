"""The guard in front of every request: the checks a local server needs, as datasette and Jupyter do them.

Five ASGI middlewares, each one check, in the app's middleware list (``middleware``) in this order,
the first the outermost:

1. ``SafeHeaders``: every answer carries a Content-Security-Policy that lets a page run and style
   only what this server itself serves (no inline script, no eval, nothing from another host), no
   framing or sniffing, no referrer to another site, and how long the server took. Outermost, so
   that each refusal below carries them too, and the time counts the checks. It reads nothing of
   the request.
2. ``HostCheck``: a page on another site can point its own domain name at 127.0.0.1 (DNS
   rebinding) and then read and write this server as if it were that site. So a request is
   served only if its ``Host`` header names the address the server was started on (421
   otherwise). The first check: nothing else is looked at for a name the server does not answer to.
3. ``CrossSiteWrites``: a write (any method but GET, HEAD and OPTIONS) is refused if the browser
   says it comes from another site (``Sec-Fetch-Site``) or another origin (``Origin``), and it
   must carry the token made when the server started (the page's forms hold it), which another
   site cannot read. That token is checked by the app, where the form is parsed (``check_token``).
4. ``HeavyGets``: a GET that starts real work (the list doctor, odds, a comparison, a PDF) answers
   only this server's own pages, since an ``<img>`` on any site can send a GET: one the browser
   says comes from another site (``Sec-Fetch-Site``), or, from a browser too old to say, whose
   ``Referer`` names another host, is refused (403) unless it carries the token. At most
   ``HEAVY_AT_ONCE`` of them run at once per server and ``HEAVY_WAITING`` wait (503 past that),
   so the worker threads stay free for every other page. Which GETs those are is said where the
   routes are declared: each is a ``HeavyRoute`` of the app's route table (``app.py``), matched
   as the router matches it, so no second list has to follow the table.
5. ``BodyLimit``: a request body over ``MAX_BODY`` bytes is refused (413) before it is read
   whole. Innermost, so it wraps ``receive`` before any handler reads; after the checks that
   need no body, so a refused request is never read at all.

Starlette's own answer to an exception no handler takes ("Internal Server Error", plain text) is
sent by its outermost middleware, outside these, and so without the headers.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import parse_qs, parse_qsl

from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Match, Route

MAX_BODY = 1024 * 1024
HEAVY_AT_ONCE = 2  # work-heavy GETs running at once, per server (2 cores run two solvers)
HEAVY_WAITING = 8  # and waiting for their turn; past that, 503
HEAVY_PER_MEMBER = 2  # a club member's, running or waiting; past that, 429 (one member cannot take them all)
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


def middleware(
    host: str,
    port: int | None,
    routes: Iterable[BaseRoute],
    token: Callable[[], str],
    *,
    gate: Middleware | None = None,
    also: Iterable[str] = (),
    who: Callable[[], object] | None = None,
) -> list[Middleware]:
    """The guard of a server started on ``host``:``port`` (any port if ``None``), whose route table
    is ``routes`` and whose token is ``token()`` (the request's): the five middlewares, in their
    order (above). A club's server adds its ``gate`` after the checks that need no member, answers
    to the host names ``also`` (its public address's), and counts heavy pages per ``who()``."""
    return [
        Middleware(SafeHeaders),
        Middleware(
            HostCheck,
            hosts=host_names(host, port) | frozenset(also),
            any_ip=(True if port is None else port) if host in WILDCARDS else False,
            any_port=port is None,
        ),
        Middleware(CrossSiteWrites),
        *([gate] if gate is not None else []),
        Middleware(HeavyGets, routes=routes, token=token, who=who),
        Middleware(BodyLimit),
    ]


# --- the checks' words -------------------------------------------------------------------------


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


def from_this_site(headers: Headers, host: str) -> bool:
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


class HeavyRoute(Route):
    """A route whose GET starts work that grows with a list (the doctor, odds, a comparison, a
    PDF): ``HeavyGets`` admits it. ``when``: the query parameter that makes a GET of it heavy, if
    only some are (the builder page asks the doctor only for ``?doctor=fix``); ``None``: every GET."""

    def __init__(self, path: str, endpoint: Callable[..., Any], *, when: str | None = None) -> None:
        super().__init__(path, endpoint)
        self.when = when

    def starts_work(self, scope: Scope) -> bool:
        """Whether the request of ``scope`` is a GET (or HEAD) of this route that starts its work."""
        matched, _ = self.matches(scope)
        if matched is not Match.FULL:  # another path, or a method it does not take
            return False
        if self.when is None:
            return True
        query = scope.get("query_string", b"").decode("latin-1")
        return any(key == self.when for key, _ in parse_qsl(query))  # blank values are left out


# --- the five middlewares ------------------------------------------------------------------------


class SafeHeaders:
    """Add ``HEADERS`` and a ``Server-Timing`` (how long the server took) to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # How long the server took, for the browser's network panel and the benchmarks.
                took = f"app;dur={(time.perf_counter() - began) * 1000:.1f}".encode()
                message["headers"] = [*message.get("headers", []), *HEADERS, (b"server-timing", took)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HostCheck:
    """Refuse (421) a request whose ``Host`` header does not name this server."""

    def __init__(
        self, app: ASGIApp, hosts: Iterable[str], any_ip: int | bool | None = False, any_port: bool = False
    ) -> None:
        """``hosts``: the ``Host`` values served (``host_names``). ``any_port``: they are names
        without a port, and any port goes (a server whose port is not known here). ``any_ip``: the
        server listens on every interface, so a ``Host`` that is any IP address of this machine,
        with ``any_ip``'s port (``True``: any port), is served too."""
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self.any_ip = any_ip
        self.any_port = any_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = Headers(scope=scope).get("host", "").lower()
            name = re.sub(r":\d+$", "", host) if self.any_port else host
            if name not in self.hosts and not (
                self.any_ip is not False and is_ip_host(host, None if self.any_ip is True else self.any_ip)
            ):
                await refuse(send, 421, "This server answers only to the address it was started on.")
                return
        await self.app(scope, receive, send)


class CrossSiteWrites:
    """Refuse (403) a write the browser says comes from another site or another origin."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            headers = Headers(scope=scope)
            site = headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                await refuse(send, 403, "Changes from another site are refused.")
                return
            origin = headers.get("origin")
            scheme = "https" if scope.get("scheme") == "https" else "http"  # HTTPS: served so, or by a proxy
            if origin is not None and origin.lower() != f"{scheme}://{headers.get('host', '').lower()}":
                await refuse(send, 403, "Changes from another origin are refused.")
                return
        await self.app(scope, receive, send)


class HeavyGets:
    """Answer a GET of a ``HeavyRoute`` of ``routes`` only from this server's pages (or with its
    ``token()``), at most ``HEAVY_AT_ONCE`` at once with ``HEAVY_WAITING`` waiting (503 past that);
    in a club, at most ``HEAVY_PER_MEMBER`` of one member's (``who()``) running or waiting (429)."""

    def __init__(
        self,
        app: ASGIApp,
        routes: Iterable[BaseRoute],
        token: str | Callable[[], str] | None = None,
        who: Callable[[], object] | None = None,
    ) -> None:
        """``token``: the server's token, or what gives the request's (a club member's own)."""
        self.app = app
        self.heavy = tuple(r for r in routes if isinstance(r, HeavyRoute))
        self.token = (lambda: token) if isinstance(token, str) else token
        self.who = who
        self.places = asyncio.Semaphore(HEAVY_AT_ONCE)
        self.waiting = 0
        self.members: dict[object, int] = {}

    def starts_work(self, scope: Scope) -> bool:
        """Whether the request of ``scope`` is a GET of one of the heavy routes that starts its work."""
        return scope["type"] == "http" and any(route.starts_work(scope) for route in self.heavy)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.starts_work(scope):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if not from_this_site(headers, headers.get("host", "").lower()):
            given = query_token(scope.get("query_string", b"").decode("latin-1"))
            if self.token is None or not token_matches(given, self.token()):
                await refuse(send, 403, "This page starts work on the server, so it answers only its own pages.")
                return
        member = self.who() if self.who is not None else None
        if member is not None and self.members.get(member, 0) >= HEAVY_PER_MEMBER:
            await refuse(
                send, 429, f"You have {HEAVY_PER_MEMBER} long answers under way; try again when they are done."
            )
            return
        if self.places.locked() and self.waiting >= HEAVY_WAITING:
            await refuse(send, 503, "The server is busy with other long answers; try again in a moment.")
            return
        if member is not None:
            self.members[member] = self.members.get(member, 0) + 1
        try:
            self.waiting += 1
            try:
                await self.places.acquire()
            finally:
                self.waiting -= 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.places.release()
        finally:
            if member is not None:
                left = self.members.pop(member) - 1
                if left:
                    self.members[member] = left


class BodyLimit:
    """Refuse (413) a request whose body is over ``max_body`` bytes: by its ``Content-Length``
    before it is read, or as it grows past the limit while it is read (without a length)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length")
        if length is not None and (
            not (length.isascii() and length.isdigit()) or len(length) > 15 or int(length) > self.max_body
        ):
            await refuse(send, 413, f"A request may carry at most {self.max_body:,} bytes.")
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return message

        async def noting_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, noting_send)
        except BodyTooLarge:
            if not started:
                await refuse(send, 413, f"A request may carry at most {self.max_body:,} bytes.")


class BodyTooLarge(Exception):
    """A request body grew past the limit while it was being read (``BodyLimit`` answers 413)."""


async def refuse(send: Send, status: int, text: str) -> None:
    """Answer ``status`` with ``text``, as plain text."""
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})

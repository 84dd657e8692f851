"""The guard in front of every request: the checks a local server needs, as datasette and Jupyter do them.

- **Host**: a page on another site can point its own domain name at 127.0.0.1 (DNS rebinding)
  and then read and write this server as if it were that site. So a request is served only if
  its ``Host`` header names the address the server was started on (421 otherwise).
- **Cross-site writes**: a write (any method but GET, HEAD and OPTIONS) is refused if the
  browser says it comes from another site (``Sec-Fetch-Site``) or another origin (``Origin``),
  and it must carry the token made when the server started (the page's forms hold it), which
  another site cannot read. Checked by the app, where the form is parsed (``check_token``).
- **Size**: a request body over ``MAX_BODY`` bytes is refused (413) before it is read whole.
- **Headers on every answer**: a Content-Security-Policy that lets a page run and style only
  what this server itself serves (no inline script, no eval, nothing from another host), and no
  framing or sniffing, and no referrer to another site.
"""

from __future__ import annotations

import hmac
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

MAX_BODY = 1024 * 1024
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
    ) -> None:
        """``hosts``: the ``Host`` values served (``host_names``). ``any_port``: they are names
        without a port, and any port goes (a server whose port is not known here). ``any_ip``: the
        server listens on every interface, so a ``Host`` that is any IP address of this machine,
        with ``any_ip``'s port (``True``: any port), is served too."""
        self.app = app
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
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            if not started:
                await _refuse(send, 413, f"A request may carry at most {self.max_body:,} bytes.")


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

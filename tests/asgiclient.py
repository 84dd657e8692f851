"""Talk to the web builder's ASGI app in this process, as a server would, without a socket.

What Starlette's TestClient does, without its httpx: each request is one ASGI call with exact
headers, and the answer is gathered whole. The tests use it to run two apps over one folder (a
server and the same server restarted, with a new token).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Client:
    """Requests to ``app`` as a browser on ``host`` sends them (``Host`` header and all)."""

    def __init__(self, app: Any, host: str = "127.0.0.1:8000", *, raise_server_exceptions: bool = True) -> None:
        self.app = app
        self.host = host
        self.raise_server_exceptions = raise_server_exceptions  # False: the answer a browser gets

    def request(self, method: str, url: str, body: bytes = b"", headers: dict[str, str] | None = None) -> Answer:
        parts = urlsplit(url)
        sent = {
            "host": self.host,
            "content-length": str(len(body)),
            **{k.lower(): v for k, v in (headers or {}).items()},
        }
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": parts.path,
            "raw_path": parts.path.encode(),
            "query_string": parts.query.encode(),
            "root_path": "",
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in sent.items()],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        messages = [{"type": "http.request", "body": body, "more_body": False}]
        started: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop(0)
            await asyncio.sleep(3600)  # as a client that keeps the connection open says nothing more
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                started.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            asyncio.run(self.app(scope, receive, send))
        except Exception:  # Starlette answers an unhandled error, then raises it for the server to log
            if self.raise_server_exceptions or not started:
                raise
        headers_out = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in started.get("headers", [])}
        return Answer(started["status"], headers_out, b"".join(chunks))

    def get(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", url, headers=headers)

    def post(self, url: str, fields: dict[str, str], headers: dict[str, str] | None = None) -> Answer:
        sent = {"content-type": "application/x-www-form-urlencoded", **(headers or {})}
        return self.request("POST", url, urlencode(fields).encode(), sent)

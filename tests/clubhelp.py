"""A club folder made for a test, and browsers that sign in to it by link, each with its cookie."""

from __future__ import annotations

import contextlib
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from webserver import Answer, Server

from listbuilder.api import club

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def make_club(root: Path, members: dict[str, str], lists: dict[str, list[str]] | None = None) -> Path:
    """A club at ``root/club`` with ``members`` (name: role; the first organiser is Olga), each
    with the example lists ``lists[name]`` copied into their folder as NAME.yaml."""
    folder = root / "club"
    club.new_club(folder, "Tuesday Night Club", "Olga")
    for name, role in members.items():
        club.invite(folder, name, role)
    for name, examples in (lists or {}).items():
        target = folder / "members" / name.lower()
        target.mkdir(parents=True, exist_ok=True)
        for example in examples:
            shutil.copy(EXAMPLES / f"{example}.yaml", target / f"{example.split('.')[0]}.yaml")
    return folder


@dataclass
class Member:
    """A browser of one member: its session cookie, sent with every request."""

    server: Server
    cookie: str = ""
    said: list[Answer] = field(default_factory=list)

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {**({"Cookie": self.cookie} if self.cookie else {}), **(extra or {})}

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.server.get(path, self.headers(headers))

    def post(
        self, path: str, fields: dict[str, str] | list[tuple[str, str]], headers: dict[str, str] | None = None
    ) -> Answer:
        return self.server.post(path, fields, self.headers(headers))

    def token(self) -> str:
        found = re.search(r'name="token" value="([^"]+)"', self.get("/me").text)
        assert found, "the member's page holds no token"
        return found.group(1)

    def join(self, link: str) -> Answer:
        """Open a sign-in link and press its button; keeps the cookie it sets."""
        path = "/join/" + link.rsplit("/join/", 1)[1]
        assert self.server.get(path).status == 200
        answer = self.server.post(path, {})
        cookie = answer.headers.get("set-cookie", "")
        if (
            cookie.split("=", 1)[0] in ("listbuilder_session", "__Host-listbuilder_session")
            and "Max-Age=0" not in cookie
        ):
            self.cookie = cookie.split(";", 1)[0]
        return answer


def signed_in(server: Server, folder: Path, name: str) -> Member:
    """A browser of ``name``, signed in with a new link."""
    member = Member(server)
    answer = member.join(club.invite(folder, name).link)
    assert answer.status == 303, answer.text
    return member


@contextlib.contextmanager
def served_here(folder: Path, clock: Callable[[], float]) -> Iterator[Server]:
    """The club's app served over real HTTP from this process, its events judged by ``clock`` (a
    test moves it): a ``Server`` with no process behind it, for requests only."""
    import uvicorn

    from listbuilder.web.app import create_app

    app = create_app(folder, host="127.0.0.1", port=None, clock=clock)
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="off"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.02)
    port = running.servers[0].sockets[0].getsockname()[1]
    try:
        yield Server(None, folder, "127.0.0.1", port)  # type: ignore[arg-type]  # no process: requests only
    finally:
        running.should_exit = True
        thread.join(timeout=10)

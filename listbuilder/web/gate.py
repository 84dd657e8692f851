"""The gate of a club's server: every request but signing in needs a signed-in member, and is
served as that member's visit (``site.Visit``): their own folder, their forms' token, read-only
for a viewer. An ASGI middleware, in the guard after the checks that need no member
(``security.middleware``): so a refused request has touched nothing, and the heavy pages are
counted per member.

- A browser is signed in by a session cookie (``COOKIE``; ``__Host-`` and ``Secure`` over HTTPS):
  HttpOnly, SameSite=Lax, a fresh session id at every sign-in, looked up by its hash
  (``api.club`` ``Store.session``) on every request, so a revoked member's next request is refused.
- Signed out, a page (GET) is sent to the sign-in page, and a change (any other method) is
  refused (403); only the sign-in pages and the static files answer (``OPEN``).
- ``/m/<member>/list/<file>...``: another member's list, read-only, for a member who may read it
  (``allowed``: an organiser, or a list shared with the club). Anything else there, and a list it
  may not read, answers the same 404 as a list that does not exist: nothing says whether a
  member or a list is there.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from listbuilder.api import club, events, folders
from listbuilder.web.security import SAFE_METHODS, ASGIApp, Receive, Scope, Send, refuse
from listbuilder.web.site import VISIT, Site, Visit, is_htmx

COOKIE = "listbuilder_session"
SECURE_COOKIE = "__Host-listbuilder_session"  # a name browsers keep only from HTTPS, for this host alone
COOKIE_SECONDS = 90 * 86400  # as long as a session lasts unseen (the store's SESSION_DAYS)
OPEN = ("/sign-in", "/join/", "/static/", "/fonts/")  # the sign-in pages, and what they are drawn with
# What of another member's list may be read: the builder (read-only), print and share, exports,
# the QR code, the pocket card, the file, the comparison, a unit's rules, the catalog and the status.
READABLE = re.compile(r"(|/share|/export/[a-z]+|/qr\.svg|/print|/pocket|/download|/compare|/rules|/catalog|/status)")
OTHERS = re.compile(r"/m/([^/]+)/list/([^/]+)(.*)")


def cookie_name(scope: Scope) -> str:
    return SECURE_COOKIE if scope.get("scheme") == "https" else COOKIE


def session_cookie(scope: Scope, session: str | None) -> str:
    """The ``Set-Cookie`` value that signs a browser in with ``session`` (``None``: signs it out)."""
    secure = scope.get("scheme") == "https"
    value, age = (session, COOKIE_SECONDS) if session else ("", 0)
    return f"{cookie_name(scope)}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax" + (
        "; Secure" if secure else ""
    )


class Club:
    """A club served: its folder, store, failed sign-ins, and the visits it makes of requests."""

    def __init__(self, folder: Path, site: Site, clock: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.site = site
        self.clock = clock  # the time events are judged by (a test moves its own)
        self.store = club.open_store(folder)
        self.attempts = club.Attempts()
        self.name = self.store.setting("name", folder.resolve().name)
        self.url = self.store.setting("url", club.DEFAULT_URL)
        self._tidied: set[str] = set()
        self._lock = threading.Lock()

    def info(self, session: str = "", member: club.Member | None = None) -> dict[str, Any]:
        """What a club's pages show of it: its name, this browser's session (its hash), whether a
        list of the member's is shared with the club (``shared(file)``)."""
        info: dict[str, Any] = {"name": self.name, "session": session}
        if member is not None:
            info["shared"] = lambda file: self.store.is_shared(member, file)
            if member.role != "viewer":
                info["events"] = self.open_events
        return info

    def open_events(self, system: str) -> list[tuple[str, str]]:
        """The events open now for lists of ``system``, as (id, name): a list's page offers them."""
        now = self.clock()
        return [(e.id, e.name) for e in events.club_events(self.folder) if e.system == system and not e.closed(now)]

    def own_folder(self, member: club.Member) -> Path:
        """A member's folder, tidied once a run (what a killed write left there, as ``serve`` does)."""
        path = club.member_folder(self.folder, member)
        with self._lock:
            first = member.folder not in self._tidied
            self._tidied.add(member.folder)
        if first and member.role != "viewer":
            folders.tidy_folder(path)
        return path

    def readable(self, actor: club.Member, owner_folder: str, file: str) -> club.Member | None:
        """The member whose folder is ``owner_folder``, if ``actor`` may read their list ``file``."""
        owner = self.store.member_by_folder(owner_folder)
        if owner is None or owner.id == actor.id:
            return None
        shared = self.store.is_shared(owner, file)
        return owner if club.allowed(actor, "read", owner, shared=shared) else None

    def visit(self, actor: club.Member, session: str, session_hash: str) -> Visit:
        """The visit of ``actor``'s own folder."""

        def elsewhere(name: str) -> tuple[Path, str] | None:
            owner_folder, _, file = name[1:].partition("/")
            owner = self.readable(actor, owner_folder, file)
            return (club.member_folder(self.folder, owner), file) if owner else None

        def others(system: str) -> list[tuple[str, str]]:
            found = []
            for owner, file in self.store.shared():
                if owner.id == actor.id:
                    continue
                summaries = folders.folder_lists(club.member_folder(self.folder, owner), self.site.catalogs)
                found += [
                    (f"@{owner.folder}/{s.file}", f"{s.name or s.file} ({owner.name}'s, shared)")
                    for s in summaries
                    if s.file == file and s.error is None and s.system == system
                ]
            return found

        return Visit(
            self.own_folder(actor),
            club.form_token(session),
            actor.role == "viewer",
            member=actor,
            club=self.info(session_hash, actor),
            elsewhere=elsewhere,
            others=others,
        )


class ClubGate:
    """The gate (above): sign-in required; each request served as its member's visit."""

    def __init__(self, app: ASGIApp, club: Club, not_found: Callable[[Request], Response]) -> None:
        self.app = app
        self.club = club
        self.not_found = not_found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        request = Request(scope)
        session = request.cookies.get(cookie_name(scope), "")
        found = self.club.store.session(session) if session else None
        if found is None:
            if path.startswith(OPEN) or path == "/sign-in":
                token = VISIT.set(Visit(self.club.folder, "", True, club=self.club.info()))
                try:
                    await self.app(scope, receive, send)
                finally:
                    VISIT.reset(token)
                return
            await self.signed_out(scope, request, send, receive, stale=bool(session))
            return
        visit = self.club.visit(found.member, session, found.hash)
        others = OTHERS.fullmatch(path)
        if path.startswith("/m/"):
            owner = None
            if others and scope["method"] in SAFE_METHODS and READABLE.fullmatch(others.group(3)):
                owner = self.club.readable(found.member, others.group(1), others.group(2))
            if owner is None:
                token = VISIT.set(visit)
                try:
                    await self.not_found(request)(scope, receive, send)
                finally:
                    VISIT.reset(token)
                return
            root = f"/m/{quote(owner.folder)}"
            visit = Visit(
                club.member_folder(self.club.folder, owner),
                visit.token,
                True,
                root=root,
                member=found.member,
                club={**visit.club, "owner": owner},
                elsewhere=visit.elsewhere,
                others=visit.others,
            )
            rest = path[len(f"/m/{others.group(1)}") :] if others else path
            scope = {**scope, "path": rest, "raw_path": quote(rest).encode()}
        token = VISIT.set(visit)
        try:
            await self.app(scope, receive, send)
        finally:
            VISIT.reset(token)

    async def signed_out(self, scope: Scope, request: Request, send: Send, receive: Receive, stale: bool) -> None:
        """A request without a session: a page goes to the sign-in page, a change is refused."""
        if scope["method"] not in SAFE_METHODS:
            await refuse(send, 403, "Sign in first: changes need a signed-in member.")
            return
        target = "/sign-in" + (f"?next={quote(scope['path'])}" if scope["path"] not in ("/", "/sign-in") else "")
        if is_htmx(request):
            answer: Response = Response("Signed out: sign in again.\n", 401, headers={"hx-redirect": target})
        else:
            answer = RedirectResponse(target, status_code=303)
        if stale:  # a cookie of a session that ended: the browser forgets it
            answer.headers.append("set-cookie", session_cookie(scope, None))
        await answer(scope, receive, send)

"""What the web builder's pages share: the site (folder, catalogs, token), reading a posted form,
redirects, downloads, error pages, and running a library call off the event loop. No page is
rendered on the event loop: ``Site.page`` asked for there renders its template on a worker thread.

``app.py`` builds the routes from the handler modules (``lists``, ``builder``, ``sheets``); each of
those imports these helpers, never the app, so the app and its handlers form no circle.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import quote, unquote, urlencode, urlsplit

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import Receive, Scope, Send

from listbuilder.api import folders, pages, rulesets
from listbuilder.errors import ListbuilderError
from listbuilder.web.hints import error_text, hint
from listbuilder.web.security import MAX_BODY, token_matches

STATIC = Path(__file__).parent / "static"
EXPORTS = {"text": ("txt", "text/plain"), "markdown": ("md", "text/markdown"), "json": ("json", "application/json")}


class Visit:
    """What one request is served as: the folder of lists it reads and changes, the token its
    forms carry, whether it may change anything, and (in a club, ``web/gate.py``) who asks.

    A server of one folder serves every request as the same visit (``Site``'s own); a club's gate
    sets one a request (``VISIT``), for the signed-in member's own folder or, read-only, for
    another member's list it may read (``root``: the address prefix of those pages, ``/m/ana``).
    ``elsewhere`` finds a list of another folder this visit may read (``@ana/zombies.yaml``, a
    list shared with the club) as (folder, file), or ``None``; ``others`` lists them for a rule
    set, each (name to give ``elsewhere``, what to call it)."""

    def __init__(
        self,
        folder: Path,
        token: str,
        read_only: bool,
        *,
        root: str = "",
        member: Any = None,
        club: Mapping[str, Any] | None = None,
        elsewhere: Callable[[str], tuple[Path, str] | None] | None = None,
        others: Callable[[str], list[tuple[str, str]]] | None = None,
    ) -> None:
        self.folder = folder
        self.token = token
        self.read_only = read_only
        self.root = root
        self.member = member
        self.club = club or {}
        self.elsewhere = elsewhere
        self.others = others


VISIT: contextvars.ContextVar[Visit | None] = contextvars.ContextVar("listbuilder_visit", default=None)


class Site:
    """What every request of one server shares: the catalogs, the templates, and the visit a
    request is served as (``Visit``): the folder, the token and read-only are the request's."""

    def __init__(
        self,
        folder: Path,
        *,
        read_only: bool,
        catalog_dirs: Sequence[Path] | None,
        templates: Path | None,
        token: str,
    ) -> None:
        self.own = Visit(folder, token, read_only)
        self.catalogs = rulesets.open_catalogs(catalog_dirs)
        self.templates = templates

    @property
    def visit(self) -> Visit:
        return VISIT.get() or self.own

    @property
    def folder(self) -> Path:
        return self.visit.folder

    @property
    def token(self) -> str:
        return self.visit.token

    @property
    def read_only(self) -> bool:
        return self.visit.read_only

    def find(self, name: str) -> tuple[Path, str]:
        """The folder and file of the list ``name``: one of this visit's folder, or (``@member/file``)
        one of another folder this visit may read; any other is looked for in this folder, where
        it is not, so it answers as a list that does not exist."""
        visit = self.visit
        if name.startswith("@") and visit.elsewhere is not None:
            found = visit.elsewhere(name)
            if found is not None:
                return found
        return visit.folder, name

    def page(self, name: str, request: Request, status: int = 200, **context: Any) -> Response:
        """Render ``web/NAME`` with what every page needs (the token, read-only, the folder): now,
        on a handler's worker thread; asked for on the event loop, on a worker thread as it is sent."""
        # (``context`` holds values of every kind, records and words, as a template takes them: Any)
        visit = self.visit
        base = {
            "token": visit.token,
            "read_only": visit.read_only,
            "folder_name": visit.folder.name or str(visit.folder),
            "root": visit.root,  # the address prefix of another member's list's pages ('' for one's own)
            "member": visit.member,
            "club": visit.club,
            "notice": notice(request),
            "restarted": request.query_params.get("restarted") == "1",
            "error": None,
            "conflict": False,
            "hint": hint,  # the web's words for a message's next step: {{ hint(p.action) }}
            "oob": False,  # a builder part's template is in its page; _changed.html sets it to swap it in
        }
        headers = {}
        if name == "error.html" and is_htmx(request):
            # A page inside a page helps no one: htmx puts the message in place of the page's content.
            name = "_error.html"
            headers = {"hx-retarget": "#main", "hx-reswap": "innerHTML"}
        values = {**base, **context}

        def html() -> str:
            return render_page(f"web/{name}", values, self.templates)

        if not _on_event_loop():  # a handler's work on a worker thread already: render it here
            return Response(html(), status_code=status, media_type=HTML, headers=headers)
        return _Page(html, status, headers)


HTML = "text/html; charset=utf-8"


def render_page(name: str, context: Mapping[str, Any], templates: Path | None = None) -> str:
    """Render template ``name`` (say ``web/list.html``) in the same Jinja environment, filters and
    escaping as printed rosters; a user's template folder overrides the built-in templates."""
    return pages.render_template(name, dict(context), templates)


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop runs on this thread: a worker's
        return False
    return True


class _Page(Response):
    """A page asked for on the event loop: its template renders when it is sent, on a worker
    thread (``blocking``), so no page is ever rendered on the loop. Its headers can be set before."""

    def __init__(self, html: Callable[[], str], status: int, headers: Mapping[str, str] | None = None) -> None:
        self.html: Callable[[], str] | None = html
        super().__init__(b"", status_code=status, media_type=HTML, headers=headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.html is not None:
            self.body = self.render(await blocking(self.html))
            self.html = None
            self.headers["content-length"] = str(len(self.body))
        await super().__call__(scope, receive, send)


Endpoint = Callable[[Request], Awaitable[Response]]


def notice(request: Request) -> str:
    """What the change that led here did (``?done=``, put there by this server's redirect), shown
    only when the browser says it came from one of this server's pages: a link on another site
    could otherwise make a page say whatever it likes. A client that is no browser says nothing
    and is taken at its word."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        trusted = site == "same-origin"
    else:  # a browser before Fetch Metadata sends the page it came from
        referer = urlsplit(request.headers.get("referer", ""))
        trusted = not referer.netloc or referer.netloc == request.headers.get("host")
    return request.query_params.get("done", "") if trusted else ""


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true" and request.headers.get("hx-boosted") != "true"


async def form_of(request: Request, site: Site) -> Mapping[str, list[str]]:
    """The posted form, each field a list of values; refuses a write without this server's token."""
    form = await request.form(max_files=0, max_fields=2000, max_part_size=MAX_BODY)
    fields: dict[str, list[str]] = {}
    for key, value in form.multi_items():
        if isinstance(value, str):
            fields.setdefault(key, []).append(value)
    given = (fields.get("token") or [""])[-1]
    if not token_matches(given, site.token):
        if given and from_a_page(request):
            raise Restarted(page_of(request))
        raise Refused(403, "This change did not come from a page of this server (its token is missing or old).")
    if site.read_only:
        raise Refused(403, "This folder is served read-only: nothing can be changed.")
    return fields


def one(fields: Mapping[str, list[str]], key: str, default: str | None = None) -> str | None:
    values = fields.get(key)
    return values[-1] if values else default


class Refused(Exception):
    """A request that is refused outright (no token, read-only), with its status and reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


class Restarted(Exception):
    """A change posted from a page this server did not make (it was loaded before the server
    restarted, with the token of that run): nothing is changed, and the browser is sent to
    ``page``, loaded anew, which says so."""

    def __init__(self, page: str) -> None:
        super().__init__(page)
        self.page = page

    def answer(self, request: Request) -> Response:
        url = self.page + "?restarted=1"
        if is_htmx(request):  # htmx loads the page itself, whatever the status
            return Response("The server restarted: nothing was changed.\n", 403, headers={"hx-redirect": url})
        return RedirectResponse(url, status_code=303)


def from_a_page(request: Request) -> bool:
    """Whether the browser says a request comes from a page of this server (a client that is no
    browser, or says nothing, gets the plain refusal)."""
    return request.headers.get("sec-fetch-site") == "same-origin" or is_htmx(request)


def page_of(request: Request) -> str:
    """The page a change was posted from (the browser's ``Referer``, on this server), else the
    page of its list (builder or play) or the lists page."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc and referer.netloc == request.headers.get("host") and referer.path.startswith("/"):
        return quote(unquote(referer.path), safe="/")
    file = request.path_params.get("file")
    if not isinstance(file, str):
        return "/"
    return list_url(file) + ("/play" if "/play/" in request.url.path else "")


def redirect(url: str, done: str = "", at: int | None = None) -> RedirectResponse:
    """303 to ``url``, saying what was done and (``at``) which entry it changed."""
    query = {"done": done} if done else {}
    if at is not None:
        query["at"] = str(at)
    return RedirectResponse(
        url + (f"?{urlencode(query)}#entry-{at}" if at is not None else f"?{urlencode(query)}" if query else ""),
        status_code=303,
    )


def list_url(file: str) -> str:
    return f"/list/{quote(file)}"


def attachment(data: bytes, media_type: str, filename: str) -> Response:
    """``data`` as a download named ``filename`` (in any script: RFC 6266's UTF-8 form, with an
    ASCII name beside it for old clients)."""
    ascii_name = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in filename) or "download"
    header = f'attachment; filename="{ascii_name}"'
    if ascii_name != filename:
        header += f"; filename*=UTF-8''{quote(filename, safe='')}"
    return Response(data, media_type=media_type, headers={"content-disposition": header})


def error_message(exc: ListbuilderError) -> str:
    """An error as the pages show it (``hints.error_text``)."""
    return error_text(exc)


def unreadable(site: Site, request: Request, exc: ListbuilderError, file: str | None = None) -> Response:
    """The page for a list (or rule set) that cannot be shown: 404 if there is none by that name.
    ``file`` is the list's name, where it is not the address's (the list a page compares with)."""
    status = 404 if "no such" in exc.summary or "not a list file" in exc.summary else 400
    file = file or request.path_params.get("file")
    if exc.summary == "no such list file" and isinstance(file, str):
        gone = (
            f"There is no list file {file} in this folder: it may have been deleted or renamed,"
            " in another tab or outside the builder."
        )
        return site.page("error.html", request, 404, title="No such list", gone=gone, message="")
    return site.page("error.html", request, status, title="This list cannot be shown", message=error_message(exc))


async def list_state_or_page(site: Site, request: Request) -> folders.ListState | Response:
    """The list of the request's address (its ``file``), read off the event loop, or the page that
    says why it cannot be shown (``unreadable``): a handler answers with the page as it is."""
    try:
        return await blocking(folders.list_state, site.folder, request.path_params["file"], site.catalogs)
    except ListbuilderError as exc:
        return unreadable(site, request, exc)


_P = ParamSpec("_P")
_T = TypeVar("_T")


async def blocking(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run a library call that reads or writes files off the event loop.

    On asyncio's own thread pool: Starlette's ``run_in_threadpool`` would load anyio's asyncio
    backend on the first page (about a tenth of ``serve``'s start-up) for the same threads."""
    loop = asyncio.get_running_loop()
    # The request's visit (``VISIT``) goes with it to the worker thread.
    context = contextvars.copy_context()
    return await loop.run_in_executor(None, functools.partial(context.run, fn, *args, **kwargs))

"""The web builder's ASGI app: every page a plain HTML form or link, htmx updating the same forms in place.

``create_app(folder)`` is all a server needs (``listbuilder serve`` runs it under uvicorn; any
ASGI server can). Every player action is a function of ``listbuilder.api``; this module only
reads requests, calls it, and renders the answer with the same Jinja environment as print
(templates ``web/*.html``, which a user's template folder overrides).

Without JavaScript a change posts its form and is redirected (303) back to the page it came
from. With htmx (``HX-Request``) the same post answers with the part of the page it changed.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from listbuilder.api import club, folders
from listbuilder.errors import InputError, shown
from listbuilder.web import builder, lists, members, play, repair, sheets, units
from listbuilder.web.gate import Club, ClubGate
from listbuilder.web.security import HEADERS, HeavyRoute, middleware
from listbuilder.web.site import STATIC, Refused, Restarted, Site


def create_app(
    folder: Path | str = ".",
    *,
    read_only: bool = False,
    catalogs: Sequence[Path] | None = None,
    templates: Path | None = None,
    host: str = "127.0.0.1",
    port: int | None = None,
    token: str | None = None,
) -> Starlette:
    """The web builder for the list files of ``folder``.

    ``host`` and ``port`` are the address the server answers to (``Host`` headers naming anything
    else are refused; with ``port=None`` any port of that host). ``read_only`` refuses every
    change. ``token`` (default: a new random one) must come with every write."""
    root = Path(folder)
    if root.is_file():
        folder_of = shown(root.parent) if root.parent != Path() else ". (this folder)"
        raise InputError.detailed("this is a file, not a folder", f"serve the folder it is in: {folder_of}", file=root)
    if not root.is_dir():
        raise InputError.detailed("no such folder", "serve a folder of list files", file=root)
    a_club = club.is_club(root)
    if not read_only and not a_club:
        folders.tidy_folder(root)  # what a server killed mid-write left beside its lists (a club: each member's)
    site = Site(
        root,
        read_only=read_only,
        catalog_dirs=catalogs,
        templates=templates,
        token=token or secrets.token_urlsafe(24),
    )
    routes = [
        Route("/", lists.lists_page(site)),
        Route("/new", lists.new_list(site), methods=["POST"]),
        Route("/import", lists.import_list(site), methods=["POST"]),
        Route("/restore", lists.restore_list(site), methods=["POST"]),
        HeavyRoute("/list/{file}", builder.builder_page(site), when="doctor"),  # ?doctor=fix asks the doctor
        Route("/list/{file}/catalog", builder.catalog_part(site)),
        Route("/list/{file}/status", builder.status_part(site)),
        HeavyRoute("/list/{file}/doctor", builder.doctor_part(site)),
        Route("/list/{file}/rules", units.rules_part(site)),
        Route("/list/{file}/custom", units.custom_part(site)),
        Route("/list/{file}/change", builder.change(site), methods=["POST"]),
        Route("/list/{file}/price", builder.price(site), methods=["POST"]),
        Route("/list/{file}/undo", builder.undo(site, redo=False), methods=["POST"]),
        Route("/list/{file}/redo", builder.undo(site, redo=True), methods=["POST"]),
        Route("/list/{file}/check", repair.check(site), methods=["POST"]),
        Route("/list/{file}/repair", repair.repair(site), methods=["POST"]),
        Route("/list/{file}/duplicate", lists.duplicate(site), methods=["POST"]),
        Route("/list/{file}/delete", lists.delete(site), methods=["POST"]),
        Route("/list/{file}/download", lists.download(site)),
        Route("/list/{file}/play", play.play_page(site)),
        Route("/list/{file}/play/tap", play.tap(site), methods=["POST"]),
        HeavyRoute("/list/{file}/play/odds", play.odds(site)),
        Route("/list/{file}/share", sheets.share_page(site)),
        Route("/list/{file}/export/{format}", sheets.export(site)),
        Route("/list/{file}/qr.svg", sheets.qr(site)),
        HeavyRoute("/list/{file}/print", sheets.print_list(site)),
        HeavyRoute("/list/{file}/pocket", sheets.pocket(site)),
        HeavyRoute("/list/{file}/compare", sheets.compare_page(site)),
        Route("/card/{system}", sheets.card_page(site)),
        HeavyRoute("/card/{system}/download", sheets.card_download(site)),
        Route("/print.css", sheets.print_css(site)),
        Route("/fonts/{name}", sheets.font(site)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    gate = Club(root, site) if a_club else None
    if gate is not None:
        routes[-1:-1] = club_routes(site, gate)

    async def not_found(request: Request, exc: Exception) -> Response:
        return site.page("error.html", request, 404, title="Not found", message="There is no such page here.")

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return site.page("error.html", request, exc.status, title="Refused", message=exc.reason)

    async def restarted(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Restarted)
        return exc.answer(request)

    installed = installation()

    async def unexpected(request: Request, exc: Exception) -> Response:
        return unexpected_error(
            reinstalled=installation() != installed, htmx=request.headers.get("hx-request") == "true"
        )

    handlers = {Refused: refused, Restarted: restarted, 404: not_found, Exception: unexpected}

    def page_not_found(request: Request) -> Response:
        return site.page("error.html", request, 404, title="Not found", message="There is no such page here.")

    # web/security.py: the checks, in their order; a club's gate among them (web/gate.py)
    guard = middleware(
        host,
        port,
        routes,
        lambda: site.token,
        gate=Middleware(ClubGate, club=gate, not_found=page_not_found) if gate is not None else None,
        also=[urlsplit(gate.url).netloc.lower()] if gate is not None else [],
        who=(lambda: site.visit.member.id if site.visit.member is not None else None) if gate is not None else None,
    )
    app = Starlette(routes=routes, middleware=guard, exception_handlers=handlers)
    app.state.site = site
    return app


def club_routes(site: Site, gate: Club) -> list[Route]:
    """A club's own pages (``web/members.py``)."""
    return [
        Route("/sign-in", members.sign_in_page(site, gate), methods=["GET", "POST"]),
        Route("/join/{secret}", members.join(site, gate), methods=["GET", "POST"]),
        Route("/sign-out", members.sign_out(site, gate), methods=["POST"]),
        Route("/me", members.me_page(site, gate)),
        Route("/me/passphrase", members.set_passphrase(site, gate), methods=["POST"]),
        Route("/me/lists.zip", members.download(site, gate)),
        Route("/upload", members.upload(site, gate), methods=["POST"]),
        Route("/list/{file}/club-share", members.share_with_club(site, gate), methods=["POST"]),
        Route("/club", members.club_page(site, gate)),
        Route("/club/invite", members.invite(site, gate), methods=["POST"]),
        Route("/club/revoke", members.revoke(site, gate), methods=["POST"]),
    ]


def installation() -> tuple[int, int] | None:
    """What identifies the installed copy of listbuilder that this server runs: the inode and
    modification time of this very file. Installing listbuilder again (``pip install .``,
    an upgrade) writes a new file, so a server that outlives its installation can tell."""
    try:
        mark = Path(__file__).stat()
    except OSError:  # the old installation was removed outright
        return None
    return (mark.st_ino, mark.st_mtime_ns)


def unexpected_error(*, reinstalled: bool, htmx: bool = False) -> Response:
    """The page for an error no handler takes (a bug, or a package replaced under a running
    server). It is sent by Starlette's outermost middleware, outside the guard, so it carries
    the guard's headers itself; and it uses no template, since the templates may be the very
    files that changed. htmx gets the advice as plain text, which the page shows as an alert."""
    if reinstalled:
        title = "Restart the server"
        advice = (
            "listbuilder was installed again or upgraded while this server was running, and the "
            "running server no longer matches its files. Stop the server (Ctrl+C in its terminal) "
            "and start it again with the same command. Your lists are as they were last saved."
        )
    else:
        title = "Something went wrong"
        advice = (
            "listbuilder met an error it did not expect: a bug. The server's terminal shows the "
            "details; please report them. Your lists are as they were last saved: go back and "
            "load the page again."
        )
    headers = {name.decode(): value.decode() for name, value in HEADERS}
    if htmx:
        return PlainTextResponse(f"{title}: {advice}\n", status_code=500, headers=headers)
    body = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title} - listbuilder</title></head>"
        f'<body><main><h1>{title}</h1><p>{advice}</p><p><a href="/">Back to your lists</a></p></main>'
        "</body></html>\n"
    )
    return HTMLResponse(body, status_code=500, headers=headers)


__all__ = ["create_app"]

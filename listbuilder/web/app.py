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

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from listbuilder.api import folders
from listbuilder.errors import InputError, shown
from listbuilder.web import builder, lists, play, sheets, units
from listbuilder.web.security import HeavyRoute, middleware
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
    if not read_only:
        folders.tidy_folder(root)  # what a server killed mid-write left beside its lists
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
        Route("/list/{file}/duplicate", lists.duplicate(site), methods=["POST"]),
        Route("/list/{file}/delete", lists.delete(site), methods=["POST"]),
        Route("/list/{file}/play", play.play_page(site)),
        Route("/list/{file}/play/tap", play.tap(site), methods=["POST"]),
        HeavyRoute("/list/{file}/play/odds", play.odds(site)),
        Route("/list/{file}/share", sheets.share_page(site)),
        Route("/list/{file}/export/{format}", sheets.export(site)),
        Route("/list/{file}/qr.svg", sheets.qr(site)),
        HeavyRoute("/list/{file}/print", sheets.print_list(site)),
        HeavyRoute("/list/{file}/compare", sheets.compare_page(site)),
        Route("/card/{system}", sheets.card_page(site)),
        HeavyRoute("/card/{system}/download", sheets.card_download(site)),
        Route("/print.css", sheets.print_css(site)),
        Route("/fonts/{name}", sheets.font(site)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        return site.page("error.html", request, 404, title="Not found", message="There is no such page here.")

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return site.page("error.html", request, exc.status, title="Refused", message=exc.reason)

    async def restarted(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Restarted)
        return exc.answer(request)

    handlers = {Refused: refused, Restarted: restarted, 404: not_found}
    guard = middleware(host, port, routes, site.token)  # web/security.py: the checks, in their order
    app = Starlette(routes=routes, middleware=guard, exception_handlers=handlers)
    app.state.site = site
    return app


__all__ = ["create_app"]

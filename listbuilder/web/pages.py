"""The pages and actions of the web builder: each reads its request, calls ``listbuilder.api``, renders.

Every handler is made by a function that takes the ``Site`` (folder, catalogs, token), so the
app holds no global state and two servers in one process never mix.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from listbuilder import api, views
from listbuilder.errors import ConflictError, InputError, ListbuilderError
from listbuilder.web.app import (
    Endpoint,
    Site,
    attachment,
    blocking,
    error_message,
    form_of,
    is_htmx,
    list_url,
    number,
    one,
    redirect,
)

PAPERS = ("a4", "letter")
MEDIA = {"pdf": "application/pdf", "html": "text/html; charset=utf-8"}


# --- the lists page -----------------------------------------------------------------------------


def _lists_context(site: Site) -> dict[str, Any]:
    systems = [
        {
            "id": s.id,
            "name": " ".join(s.definition.name.split()),
            "limit": s.definition.default_limit,
            "unit": s.size_unit,
        }
        for s in api.systems(site.catalogs)
    ]
    return {
        "title": "Lists",
        "lists": api.folder_lists(site.folder, site.catalogs),
        "systems": systems,
        "deleted": api.deleted_lists(site.folder)[:20],
        "form": {},
    }


def lists_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        context = await blocking(_lists_context, site)
        return site.page("lists.html", request, **context)

    return handler


def _lists_error(site: Site, request: Request, exc: ListbuilderError, form: Mapping[str, Any]) -> Response:
    context = _lists_context(site)
    context["form"] = form
    return site.page("lists.html", request, 400, error=error_message(exc), **context)


def new_list(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)
        form = {k: one(fields, k, "") for k in ("system", "name", "limit")}
        try:
            limit = number(form["limit"], "the limit")
            file = await blocking(
                api.new_folder_list, site.folder, site.catalogs, form["system"] or "", form["name"] or None, limit
            )
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, form)
        return redirect(list_url(file), f"Started {file}")

    return handler


def import_list(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)
        text = one(fields, "text", "") or ""
        try:
            file = await blocking(api.import_folder_list, site.folder, site.catalogs, text)
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {"text": text})
        return redirect(list_url(file), f"Imported the list as {file}")

    return handler


def restore_list(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)
        try:
            file = await blocking(api.restore_list, site.folder, one(fields, "id", "") or "")
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {})
        return redirect(list_url(file), f"Restored {file}")

    return handler


def duplicate(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        await form_of(request, site)
        try:
            file = await blocking(api.duplicate_list, site.folder, request.path_params["file"], site.catalogs)
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {})
        return redirect(list_url(file), f"This is a copy, {file}")

    return handler


def delete(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        await form_of(request, site)
        file = request.path_params["file"]
        try:
            await blocking(api.delete_list, site.folder, file)
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {})
        return redirect("/", f"Deleted {file}; it can be restored below")

    return handler


# --- the builder page ---------------------------------------------------------------------------


def _builder_context(
    site: Site, file: str, query: str = "", custom: Mapping[str, list[str]] | None = None, state: Any = None
) -> dict[str, Any]:
    if state is None:
        state = api.list_state(site.folder, file, site.catalogs)
    system = state.report.system
    context: dict[str, Any] = {
        "title": state.report.army.name,
        "state": state,
        "system": system,
        "stats": list(system.definition.stats.items()),
        "limit_key": system.size_unit,
        "custom": dict(custom or {}),
        "pricing": None,
        "price_error": "",
        "touched": None,
    }
    context.update(_catalog_context(system, query))
    if custom:
        context.update(_pricing(system, custom))
    return context


def _list_names(site: Site) -> list[str]:
    return [s.file for s in api.folder_lists(site.folder, site.catalogs) if s.error is None]


def _catalog_context(system: Any, query: str) -> dict[str, Any]:
    units = api.unit_choices(system, query)
    factions: dict[str, list[Any]] = {}
    for u in units:
        factions.setdefault(u.faction, []).append(u)
    return {"query": query, "factions": list(factions.items()), "found": len(units)}


def _pricing(system: Any, fields: Mapping[str, list[str]]) -> dict[str, Any]:
    try:
        return {"pricing": api.price(system, api.parse_stat_form(system, fields)), "price_error": ""}
    except ListbuilderError as exc:
        return {"pricing": None, "price_error": error_message(exc)}


def _builder(site: Site, request: Request, file: str, status: int = 200, **extra: Any) -> Response:
    query = request.query_params.get("q", "")
    context = _builder_context(site, file, query, extra.pop("custom", None), extra.pop("state", None))
    at = request.query_params.get("at", "")
    if at.isdigit() and request.method == "GET":
        context["touched"] = int(at)
    context.update(extra)
    return site.page("_builder.html" if is_htmx(request) else "list.html", request, status, **context)


def builder_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            return await blocking(_builder, site, request, file)
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)

    return handler


def _unreadable(site: Site, request: Request, exc: ListbuilderError) -> Response:
    status = 404 if "no such" in exc.summary or "not a list file" in exc.summary else 400
    return site.page("error.html", request, status, title="This list cannot be shown", message=error_message(exc))


def catalog_part(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            state = await blocking(api.list_state, site.folder, file, site.catalogs)
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)
        context = _catalog_context(state.report.system, request.query_params.get("q", ""))
        return site.page("_catalog.html", request, state=state, **context)

    return handler


def status_part(site: Site) -> Endpoint:
    """204 while the list is at the version the page shows; a notice once it changed on disk."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            state = await blocking(api.list_state, site.folder, file, site.catalogs)
        except ListbuilderError as exc:
            return site.page("_status.html", request, file=file, message=error_message(exc))
        if state.version == request.query_params.get("version"):
            return Response(status_code=204)
        return site.page("_status.html", request, file=file, message="")

    return handler


def _change_args(fields: Mapping[str, list[str]], system_stats: Any = None) -> dict[str, Any]:
    leader = one(fields, "leader")
    return {
        "unit": one(fields, "unit"),
        "index": number(one(fields, "index"), "the entry"),
        "count": number(one(fields, "count"), "the count"),
        "leader": None if leader is None else leader == "true",
        "key": one(fields, "key"),
        "value": one(fields, "value"),
    }


def change(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = await form_of(request, site)
        # The change and the page that shows it, in one trip to a worker thread.
        return await blocking(_change, site, request, file, fields)

    return handler


def _change(site: Site, request: Request, file: str, fields: Mapping[str, list[str]]) -> Response:
    what = one(fields, "change", "") or ""
    try:
        args = _change_args(fields)
        if what == "custom":
            args["stats"] = api.parse_stat_form(api.list_state(site.folder, file, site.catalogs).report.system, fields)
        result = api.change_list(site.folder, file, site.catalogs, what, expect=one(fields, "version"), **args)
    except ConflictError as exc:
        return _builder(site, request, file, 409, error=error_message(exc), conflict=True)
    except ListbuilderError as exc:
        try:
            custom = fields if what == "custom" else None
            return _builder(site, request, file, 400, error=error_message(exc), custom=custom)
        except ListbuilderError:
            return _unreadable(site, request, exc)
    done = result.done if result.changed else "Nothing changed"
    if is_htmx(request):
        return _builder(site, request, file, notice=done, touched=result.entry, state=result.state)
    return redirect(list_url(file), done, result.entry)


def price(site: Site) -> Endpoint:
    """Price the custom unit form as it stands (nothing is written)."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = await form_of(request, site)
        if is_htmx(request) and request.headers.get("hx-target") == "price":
            try:
                state = await blocking(api.list_state, site.folder, file, site.catalogs)
            except ListbuilderError as exc:
                return _unreadable(site, request, exc)
            return site.page("_price.html", request, **_pricing(state.report.system, fields), state=state)
        try:
            return await blocking(_builder, site, request, file, custom=fields)
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)

    return handler


def undo(site: Site, redo: bool) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = await form_of(request, site)
        try:
            result = await blocking(
                api.undo_change, site.folder, file, site.catalogs, redo=redo, expect=one(fields, "version")
            )
        except ConflictError as exc:
            return await blocking(_builder, site, request, file, 409, error=error_message(exc), conflict=True)
        except ListbuilderError as exc:
            try:
                return await blocking(_builder, site, request, file, 400, error=error_message(exc))
            except ListbuilderError:
                return _unreadable(site, request, exc)
        done = "Redone" if redo else "Undone"
        if is_htmx(request):
            return await blocking(_builder, site, request, file, notice=done, state=result.state)
        return redirect(list_url(file), done)

    return handler


# --- print, share, compare ----------------------------------------------------------------------


def share_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            state = await blocking(api.list_state, site.folder, file, site.catalogs)
            text = api.export_list(state.report, "text")
            markdown = api.export_list(state.report, "markdown")
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)
        try:
            api.qr_svg(text)
            qr_error = ""
        except ListbuilderError as exc:
            qr_error = error_message(exc)
        return site.page(
            "share.html",
            request,
            title=f"Print and share {state.report.army.name}",
            state=state,
            text=text,
            markdown=markdown,
            qr_error=qr_error,
            papers=PAPERS,
        )

    return handler


def export(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        format = request.path_params["format"]
        embed = request.query_params.get("embed") == "1"
        try:
            state = await blocking(api.list_state, site.folder, file, site.catalogs)
            # the YAML file as it is, comments and all; --embed writes every unit out in full
            text = state.text if format == "yaml" and not embed else api.export_list(state.report, format, embed=embed)
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)
        stem = file.rsplit(".", 1)[0]
        if format == "yaml":
            name = f"{stem}-embedded.yaml" if embed else file
            return attachment(text.encode("utf-8"), "application/yaml", name)
        suffix, media = api_media(format)
        if request.query_params.get("download") == "1":
            return attachment(text.encode("utf-8"), media, f"{stem}.{suffix}")
        return Response(text, media_type=f"{media}; charset=utf-8")

    return handler


def api_media(format: str) -> tuple[str, str]:
    from listbuilder.web.app import EXPORTS

    return EXPORTS[format]


def qr(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            state = await blocking(api.list_state, site.folder, file, site.catalogs)
            text = api.export_list(state.report, "text")
            svg = api.qr_svg(text, f"{state.report.army.name}: the list as text")
        except ListbuilderError as exc:
            return Response(error_message(exc), status_code=400, media_type="text/plain; charset=utf-8")
        return Response(svg, media_type="image/svg+xml")

    return handler


def print_list(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        q = request.query_params
        only = q.get("only") or None
        try:
            report = await blocking(api.check_list, api.list_file(site.folder, file), site.catalogs)
            rendered = await blocking(
                api.render_reports,
                [report],
                format=q.get("format", "pdf"),
                paper=q.get("paper", "a4"),
                only=only,
                templates=site.templates,
                qr=q.get("qr") == "1",
            )
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)
        name = f"{file.rsplit('.', 1)[0]}{'-' + only if only else ''}.{rendered.format}"
        return attachment(rendered.data, MEDIA[rendered.format], name)

    return handler


def compare_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        other = request.query_params.get("with", "")
        try:
            state = await blocking(api.list_state, site.folder, file, site.catalogs)
            context: dict[str, Any] = {"state": state, "other": None, "diff": "", "grids": []}
            if other:
                theirs = await blocking(api.list_state, site.folder, other, site.catalogs)
                paths = (api.list_file(site.folder, file), api.list_file(site.folder, other))
                context["other"] = theirs
                context["diff"] = views.list_diff(await blocking(api.diff_files, *paths, site.catalogs))
                grids = [api.odds_grid(state.report, theirs.report), api.odds_grid(theirs.report, state.report)]
                context["grids"] = [g for g in grids if g]
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)
        names = [n for n in await blocking(_list_names, site) if n != file]
        return site.page(
            "compare.html", request, title=f"Compare {state.report.army.name}", others=names, chosen=other, **context
        )

    return handler


def card_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        try:
            system = api.get_system(site.catalogs, request.path_params["system"])
            card = await blocking(api.card_page, system)
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)
        title = f"{' '.join(system.definition.name.split())}: rules card"
        return site.page("card.html", request, title=title, card=card, system=system, papers=PAPERS)

    return handler


def card_download(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        q = request.query_params
        try:
            system = api.get_system(site.catalogs, request.path_params["system"])
            rendered = await blocking(
                api.render_card,
                system,
                format=q.get("format", "pdf"),
                paper=q.get("paper", "a4"),
                templates=site.templates,
            )
        except ListbuilderError as exc:
            return _unreadable(site, request, exc)
        return attachment(rendered.data, MEDIA[rendered.format], f"{system.id}-card.{rendered.format}")

    return handler


def print_css(site: Site) -> Endpoint:
    """The print stylesheet, for the rules card shown as a page (fonts come from web.css)."""

    async def handler(request: Request) -> Response:
        css = await blocking(api.page_stylesheet, "a4", site.templates)
        return Response(css, media_type="text/css; charset=utf-8")

    return handler


def font(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        fonts = {p.name: p for p in api.font_files()}
        found = fonts.get(request.path_params["name"])
        if found is None:
            return _unreadable(site, request, InputError("no such font"))
        return FileResponse(found, media_type="font/otf", headers={"cache-control": "max-age=86400"})

    return handler

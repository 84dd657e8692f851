"""The lists page and what it does to whole lists: new, import, duplicate, delete, restore."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from listbuilder import api
from listbuilder.errors import ListbuilderError
from listbuilder.web.site import (
    Endpoint,
    Site,
    blocking,
    error_message,
    form_of,
    list_url,
    number,
    one,
    redirect,
)


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

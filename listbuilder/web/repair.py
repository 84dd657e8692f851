"""The repair view: the page of a list that cannot be read.

Each problem at its line in the player's words, with the fixes the readers know as buttons, and
the file's text in an editor (a textarea) that is checked as it is typed (htmx posts it to
``/check``, which reads it through a list file's readers and writes nothing) and saved under the
edit lock with its undo step (``/repair``). Every fix and the save are plain form posts, so the
page works without JavaScript; a repair that makes the list readable goes on to the builder.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from listbuilder.api import folders, repairs
from listbuilder.errors import ConflictError, InputError, ListbuilderError
from listbuilder.web.site import (
    Endpoint,
    Site,
    blocking,
    error_message,
    form_of,
    is_htmx,
    list_url,
    one,
    redirect,
    unreadable,
)


def repair_view(
    site: Site,
    request: Request,
    file: str,
    exc: ListbuilderError,
    status: int = 200,
    *,
    typed: str | None = None,
    version: str | None = None,
    **extra: Any,
) -> Response:
    """The repair view of list ``file``, which could not be shown (``exc``): the file as it is, or,
    with ``typed``, a text typed for it (checked, not saved; ``version``: the file's, as the page
    had it). A file that is no text at all (or none) gets the page that says why (``unreadable``)."""
    try:
        found = repairs.diagnose_list(site.folder, file, site.catalogs)
    except ListbuilderError:
        return unreadable(site, request, exc)
    context: dict[str, Any] = {"file": file, "title": f"Repair {file}", "saved": found, "unsaved": "", **extra}
    if typed is not None and typed.replace("\r\n", "\n") != found.text.replace("\r\n", "\n"):
        context["diagnosis"] = repairs.check_list_text(typed, site.catalogs, site.folder / file)
        context["fixable"] = False  # the fixes are for the file as saved, not this text
        context["text"] = typed
        context["text_version"] = version or found.version
    else:
        context.update(diagnosis=found, fixable=True, text=found.text, text_version=found.version)
    return site.page("repair.html", request, status, **context)


def to_repair(
    site: Site, request: Request, file: str, exc: ListbuilderError | None, status: int = 303, **extra: Any
) -> Response:
    """Send a builder's request to the repair view of ``file``, which can no longer be read: htmx is
    told to load it (a whole page is no part of the builder), a plain form gets it at once; with no
    ``exc``, a change was made and the browser is sent on (``done``: what it did)."""
    done = extra.pop("done", "") if exc is None else "Nothing was changed: the list cannot be read"
    if exc is None or is_htmx(request):
        answer = redirect(list_url(file), done)
        if is_htmx(request):
            return Response(status_code=200, headers={"hx-redirect": answer.headers["location"]})
        return answer
    return repair_view(site, request, file, exc, status, **extra)


def check(site: Site) -> Endpoint:
    """The problems of the text as typed (htmx: the list of them; without it, the whole view)."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = await form_of(request, site)
        text = one(fields, "text", "") or ""
        version = one(fields, "version", "") or ""
        if not is_htmx(request):
            return await blocking(_view, site, request, file, typed=text, version=version)
        found = await blocking(repairs.check_list_text, text, site.catalogs, site.folder / file)
        fixable = found.version == version  # the text as saved: its fixes fit the file
        context = {"diagnosis": found, "fixable": fixable, "file": file, "text_version": version}
        return site.page("_repair_problems.html", request, **context)

    return handler


def _view(site: Site, request: Request, file: str, status: int = 200, **extra: Any) -> Response:
    return repair_view(site, request, file, InputError("this list cannot be read"), status, **extra)


def repair(site: Site) -> Endpoint:
    """A fix (``kind``, ``place``, ``value``) or the editor's text (``text``) written to the list."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = await form_of(request, site)
        return await blocking(_repair, site, request, file, fields)

    return handler


def _repair(site: Site, request: Request, file: str, fields: Mapping[str, list[str]]) -> Response:
    text = one(fields, "text")
    try:
        if text is not None:
            change: repairs.ApplyFix | repairs.ReplaceText = repairs.ReplaceText(text=text)
        else:
            fix = repairs.fix_of(
                one(fields, "kind", "") or "", one(fields, "place", "") or "", one(fields, "value", "") or ""
            )
            change = repairs.ApplyFix(fix=fix)
        result = folders.change_list(
            site.folder, file, site.catalogs, change, expect=one(fields, "version"), state=False
        )
    except ConflictError as exc:
        return _view(site, request, file, 409, error=error_message(exc), conflict=True, unsaved=text or "")
    except ListbuilderError as exc:
        return _view(site, request, file, 400, error=error_message(exc), typed=text, version=one(fields, "version"))
    if not result.changed:
        return redirect(list_url(file), "Nothing changed")
    if result.readable:
        return redirect(list_url(file), f"{result.done}: the list reads again")
    return redirect(list_url(file), f"{result.done}; the list still cannot be read")

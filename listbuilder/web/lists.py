"""The lists page and what it does to whole lists: new, import, duplicate, delete, restore."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from listbuilder.api import folders
from listbuilder.errors import ListbuilderError
from listbuilder.web.forms import number
from listbuilder.web.site import (
    Endpoint,
    Site,
    attachment,
    blocking,
    error_message,
    form_of,
    list_url,
    one,
    redirect,
    unreadable,
)


def _lists_context(site: Site) -> dict[str, Any]:
    choices = site.catalogs.choices()
    systems = [
        {
            "id": s.id,
            "name": " ".join(s.name.split()),
            "limit": s.default_limit,
            "unit": s.size_unit,
            "needs_size": s.needs_size,
        }
        for s in choices.offered
    ]
    found = folders.folder_lists(site.folder, site.catalogs)
    deleted = folders.deleted_lists(site.folder)[:20]
    return {
        "title": "Your lists",
        "lists": found,
        "labels": _labels([(s.name or s.file, s.file) for s in found]),
        "systems": systems,
        "unreadable_systems": choices.unreadable,  # a broken rule set of the user's: said, not a crash
        "deleted": [
            {"id": id, "file": file, "when": when, "name": name, "label": label}
            for (id, file, when, name), label in zip(deleted, _deleted_labels(deleted), strict=True)
        ],
        "form": {},
    }


def _labels(named: list[tuple[str, str]]) -> dict[str, str]:
    """What each list's buttons call it: its name, and its file too where two lists share a name
    ("Delete My Zombies" three times would leave a screen reader no way to tell them apart)."""
    counts = Counter(name for name, _ in named)
    return {file: name if counts[name] == 1 else f"{name} ({file})" for name, file in named}


def _deleted_labels(deleted: Sequence[tuple[str, str, str, str]]) -> list[str]:
    """Each deleted list's name, with its file and when it was deleted where that tells it apart."""
    names = Counter(name for _, _, _, name in deleted)
    places = Counter((name, file, when) for _, file, when, name in deleted)
    return [
        name
        if names[name] == 1
        else f"{name} ({file}, deleted {when})"
        if places[(name, file, when)] == 1
        else f"{name} ({id})"
        for id, file, when, name in deleted
    ]


def lists_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        context = await blocking(_lists_context, site)
        return site.page("lists.html", request, **context)

    return handler


def _lists_error(site: Site, request: Request, exc: ListbuilderError, form: Mapping[str, str | None]) -> Response:
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
                folders.new_folder_list, site.folder, site.catalogs, form["system"] or "", form["name"] or None, limit
            )
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, form)
        return redirect(list_url(file), f"Started {file}")

    return handler


def import_list(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        from listbuilder.api import sharing  # the JSON export's reader: loaded on first use

        fields = await form_of(request, site)
        text = one(fields, "text", "") or ""
        system = one(fields, "system", "") or None
        try:
            done = await blocking(sharing.import_folder_list, site.folder, site.catalogs, text, system)
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {"text": text, "import_system": system or ""})
        # What the import skipped or found changed goes with it, a line each (the notice shows them).
        said = "\n".join([f"Imported the list as {done.file}.", *(n[:1].upper() + n[1:] for n in done.notes[:20])])
        return redirect(list_url(done.file), said)

    return handler


def restore_list(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)
        try:
            file = await blocking(folders.restore_list, site.folder, one(fields, "id", "") or "")
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {})
        return redirect(list_url(file), f"Restored {file}")

    return handler


def duplicate(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        await form_of(request, site)
        try:
            file = await blocking(folders.duplicate_list, site.folder, request.path_params["file"], site.catalogs)
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {})
        return redirect(list_url(file), f"This is a copy, {file}")

    return handler


def download(site: Site) -> Endpoint:
    """A list file as it is, read as a list or not: to keep, send, or mend in an editor."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            data = await blocking(folders.list_bytes, site.folder, file)
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        return attachment(data, "application/yaml", file)

    return handler


def delete(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        await form_of(request, site)
        file = request.path_params["file"]
        try:
            await blocking(folders.delete_list, site.folder, file)
        except ListbuilderError as exc:
            return _lists_error(site, request, exc, {})
        return redirect("/", f"Deleted {file}; Restore under “Deleted lists” brings it back")

    return handler

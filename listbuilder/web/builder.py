"""The builder page of one list: the catalog and its filter, the entries, changes, custom units, undo."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from listbuilder.api import editing, folders, rulesets
from listbuilder.errors import ConflictError, ListbuilderError
from listbuilder.memory import Bounded
from listbuilder.web.forms import change_of, index
from listbuilder.web.repair import repair_view, to_repair
from listbuilder.web.site import (
    Endpoint,
    Site,
    blocking,
    error_message,
    form_of,
    is_htmx,
    list_state_or_page,
    list_url,
    one,
    redirect,
    render_page,
    unreadable,
)
from listbuilder.web.units import edit_context, pricing, rules_answer, typed_stats


def _builder_context(
    site: Site,
    file: str,
    query: str = "",
    custom: Mapping[str, list[str]] | None = None,
    state: folders.ListState | None = None,
) -> dict[str, Any]:
    if state is None:
        state = folders.list_state(site.folder, file, site.catalogs)
    context = _list_context(state, custom)
    context["title"] = state.report.army.name
    context.update(_catalog_context(site, state.report.system, query))
    return context


def _list_context(state: folders.ListState, custom: Mapping[str, list[str]] | None) -> dict[str, Any]:
    """What the list's parts show (every part of the builder but the catalog)."""
    system = state.report.system
    context: dict[str, Any] = {
        "state": state,
        "system": system,
        "stats": list(system.definition.stats.items()),
        "limit_key": system.size_unit,
        "custom": dict(custom or {}),
        "pricing": None,
        "price_error": "",
        "touched": None,
        "doctor": None,
        "doctor_error": "",
        "custom_open": False,
        "settings_open": False,
    }
    if custom:
        context.update(pricing(system, custom))
    return context


# The catalog's units as HTML, by rule set, then by (filter, read-only): they show nothing of the
# list (its form, with the file, token and version, is drawn around them: _catalog.html), and a
# 1,000-unit catalog takes 40-100 ms to render in the template sandbox. The UNITS_KEPT filters
# of each rule set used last are kept; none with a user's template folder, whose files may change.
_UNITS: weakref.WeakKeyDictionary[rulesets.System, Bounded[tuple[str, bool], str]] = weakref.WeakKeyDictionary()
UNITS_KEPT = 16
_UNITS_LOCK = threading.Lock()


def _catalog_context(site: Site, system: rulesets.System, query: str) -> dict[str, Any]:
    units = editing.unit_choices(system, query)
    factions: dict[str, list[editing.UnitChoice]] = {}
    for u in units:
        factions.setdefault(u.faction, []).append(u)
    context = {"query": query, "factions": list(factions.items()), "found": len(units), "read_only": site.read_only}
    key = (query, site.read_only)
    with _UNITS_LOCK:  # pages are drawn on worker threads
        kept = _UNITS.setdefault(system, Bounded(UNITS_KEPT)) if site.templates is None else Bounded(0)
    html = kept.get(key)
    if html is None:
        html = kept.put(key, render_page("web/_units.html", context, site.templates))
    return {**context, "units_html": html}


def _builder(site: Site, request: Request, file: str, status: int = 200, **extra: Any) -> Response:
    query = request.query_params.get("q", "")
    context = _builder_context(site, file, query, extra.pop("custom", None), extra.pop("state", None))
    ask = request.query_params.get("doctor")
    if ask and request.method == "GET":
        from listbuilder.api import doctor  # the solver's stack: the doctor's first answer loads it

        try:
            context["doctor"] = doctor.ask_doctor(site.folder, file, site.catalogs, ask)
        except ListbuilderError as exc:  # past its time bound, say: said where its answer goes
            context["doctor_error"] = error_message(exc)
    edit = request.query_params.get("edit", "")
    if edit and request.method == "GET":  # the custom unit form filled in with that entry (no script)
        context.update(edit_context(context["state"], edit))
    at = index(request.query_params.get("at", ""))  # the entry changed last, to scroll to: a hint only
    if at is not None and request.method == "GET":
        context["touched"] = at
    context.update(extra)
    return site.page("_builder.html" if is_htmx(request) else "list.html", request, status, **context)


# What a change answers with htmx: the builder's parts a change can alter, each a template
# (web/_NAME.html) whose root has the id it has in the page, swapped there out of band
# (_changed.html). The catalog is never among them: only its form's version changes.
PARTS = ("watch", "messages", "head", "problems", "history", "doctor", "entries", "tally")
# The forms of these parts are sent back only by their own change (or a conflict, which shows
# the list as it is now): a "+" pressed must not clear a custom unit half typed.
OWN_PARTS = {"set": ("settings",), "custom": ("custom",), "replace": ("custom",)}


def _changed(
    site: Site,
    request: Request,
    file: str,
    what: str,
    status: int = 200,
    *,
    state: folders.ListState | None = None,
    custom: Mapping[str, list[str]] | None = None,
    **extra: Any,
) -> Response:
    """A change's answer: the whole page without htmx (an error or a conflict: a redirect is made
    by the caller on success), the parts it altered with htmx (PARTS, OWN_PARTS)."""
    if not is_htmx(request):
        return _builder(site, request, file, status, state=state, custom=custom, **extra)
    if state is None:
        state = folders.list_state(site.folder, file, site.catalogs)
    parts = PARTS + (("settings", "custom") if extra.get("conflict") else OWN_PARTS.get(what, ()))
    if site.read_only:
        parts = tuple(p for p in parts if p not in ("settings", "custom"))
    context = _list_context(state, custom)
    context.update(parts=parts, custom_open=what == "custom", settings_open=what == "set", **extra)
    return site.page("_changed.html", request, status, **context)


def builder_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        if "rules" in request.query_params:  # a catalog unit's name, followed (web/_units.html)
            return await rules_answer(site, request)
        try:
            return await blocking(_builder, site, request, file, custom=_priced(request))
        except ListbuilderError as exc:  # a list that cannot be read opens in its repair view
            return await blocking(repair_view, site, request, file, exc, 400)

    return handler


def catalog_part(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            answer: Response = await blocking(_catalog, site, request, file)
            return answer
        except ListbuilderError as exc:
            return unreadable(site, request, exc)

    return handler


def _catalog(site: Site, request: Request, file: str) -> Response:
    state = folders.list_state(site.folder, file, site.catalogs)
    context = _catalog_context(site, state.report.system, request.query_params.get("q", ""))
    return site.page("_catalog.html", request, state=state, **context)


def doctor_part(site: Site) -> Endpoint:
    """The list doctor's answer, in place (htmx); the builder page with it otherwise."""

    async def handler(request: Request) -> Response:
        from listbuilder.api import doctor  # as in _builder

        file = request.path_params["file"]
        state = await list_state_or_page(site, request)
        if isinstance(state, Response):
            return state
        try:
            answer = await blocking(
                doctor.ask_doctor, site.folder, file, site.catalogs, request.query_params.get("doctor", "")
            )
        except ListbuilderError as exc:  # past its time bound, say: said in place of the answer
            return site.page("_doctor.html", request, state=state, doctor=None, doctor_error=error_message(exc))
        return site.page("_doctor.html", request, state=state, doctor=answer)

    return handler


def status_part(site: Site) -> Endpoint:
    """204 while the list is at the version the page shows; a notice once it changed on disk."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            state = await blocking(folders.list_state, site.folder, file, site.catalogs)
        except ListbuilderError as exc:
            return site.page("_status.html", request, file=file, message=error_message(exc))
        if state.version == request.query_params.get("version"):
            return Response(status_code=204)
        # The undo buttons say at once what undo can do now (nothing, after an edit elsewhere).
        return site.page("_status.html", request, file=file, message="", state=state)

    return handler


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
        wanted = change_of(fields, lambda: folders.list_state(site.folder, file, site.catalogs).report.system)
        result = folders.change_list(
            site.folder, file, site.catalogs, wanted, expect=one(fields, "version"), state=is_htmx(request)
        )
    except ConflictError as exc:
        custom = fields if what in ("custom", "replace") else None
        return _changed(site, request, file, what, 409, error=error_message(exc), conflict=True, custom=custom)
    except ListbuilderError as exc:
        try:
            custom = fields if what in ("custom", "replace") else None
            return _changed(site, request, file, what, 400, error=error_message(exc), custom=custom)
        except ListbuilderError:  # the list cannot be read (changed elsewhere): its repair view says why
            return to_repair(site, request, file, exc, 400, error=error_message(exc))
    done = result.done if result.changed else "Nothing changed"
    if is_htmx(request):
        return _changed(site, request, file, what, notice=done, touched=result.entry, state=result.state)
    return redirect(list_url(file), done, result.entry)


def price(site: Site) -> Endpoint:
    """Price the custom unit form as it stands (nothing is written)."""

    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = await form_of(request, site)
        if is_htmx(request) and request.headers.get("hx-target") == "price":
            state = await list_state_or_page(site, request)
            if isinstance(state, Response):
                return state
            system = state.report.system
            if "preview" not in fields and not typed_stats(system, fields):  # as-you-type, with no stat yet:
                return site.page("_price.html", request, pricing=None, price_error="", state=state)  # no scolding
            return site.page("_price.html", request, **pricing(system, fields), state=state)
        # Without JavaScript: back to the builder, its custom form as it was typed and priced
        # (a page at /price would be no page to stay on, nor to reload).
        kept = [(k, v) for k, values in fields.items() if k not in NOT_KEPT for v in values]
        return RedirectResponse(f"{list_url(file)}?{urlencode([('priced', '1'), *kept])}#custom", status_code=303)

    return handler


NOT_KEPT = ("token", "version", "preview", "change")  # a priced form's fields not put in its address


def _priced(request: Request) -> dict[str, list[str]] | None:
    """The custom form a builder page's address carries after "Price it" (``priced=1``), or None."""
    query = request.query_params
    if query.get("priced") != "1":
        return None
    return {k: query.getlist(k) for k in query if k not in ("priced", "q", "done", "at", "doctor", "restarted")}


def undo(site: Site, redo: bool) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        fields = await form_of(request, site)
        try:
            step = editing.Redo() if redo else editing.Undo()
            result = await blocking(
                folders.change_list,
                site.folder,
                file,
                site.catalogs,
                step,
                expect=one(fields, "version"),
                state=is_htmx(request),
            )
        except ListbuilderError as exc:
            conflict = isinstance(exc, ConflictError)
            status, error = (409 if conflict else 400), error_message(exc)
            try:
                return await blocking(_changed, site, request, file, "", status, error=error, conflict=conflict)
            except ListbuilderError:  # the list cannot be read (a repair's step): its repair view says it
                return await blocking(to_repair, site, request, file, exc, status, error=error, conflict=conflict)
        done = "Redone" if redo else "Undone"
        if not result.readable:  # a repair taken back: the list is unreadable again, and its page repairs it
            return to_repair(site, request, file, None, done=f"{done}: the list cannot be read again")
        if is_htmx(request):
            return await blocking(_changed, site, request, file, "", notice=done, state=result.state)
        return redirect(list_url(file), done)

    return handler

"""A club's events in the browser (club mode): the events page, an event's page (the organiser's
view, or a player's own submission and, after the reveal, everyone's), submitting a list, moving
the deadline and reveal, a late list accepted, the CSV and JSON exports, the pack, and a submitted
list's page.

What a member may see is the API's (``api.events``: ``event_view``, ``submission_of``), asked with
the server's clock (``Club.clock``); a submission hidden by the reveal answers the same 404 as one
that does not exist. Every change is a form post with the visit's token, as every other change.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from listbuilder.api import club, events, folders, printing
from listbuilder.errors import ListbuilderError
from listbuilder.web.forms import number
from listbuilder.web.gate import Club
from listbuilder.web.members import member_of, organiser_of
from listbuilder.web.site import Endpoint, Site, attachment, blocking, error_message, form_of, one, redirect

MEDIA = {"csv": "text/csv; charset=utf-8", "json": "application/json; charset=utf-8"}


def _organiser(site: Site) -> club.Member:
    return organiser_of(site, "Only an organiser makes and changes events.")


def _not_found(site: Site, request: Request, exc: ListbuilderError) -> Response:
    return site.page("error.html", request, 404, title="Not found", message=error_message(exc))


def _events_context(site: Site, gate: Club) -> dict[str, Any]:
    member = member_of(site)
    now = gate.clock()
    found = events.club_events(gate.folder)
    return {
        "title": f"Events of {gate.name}",
        "events": [(e, e.closed(now), e.revealed(now)) for e in found],
        "organiser": club.allowed(member, "organise"),
        "systems": site.catalogs.choices(),
        "zone": events.club_zone(gate.folder),
    }


def events_page(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        return site.page("events.html", request, **await blocking(_events_context, site, gate))

    return handler


def new_event(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)
        by = _organiser(site)
        try:
            unit = one(fields, "unit", "points") or "points"
            size = number(one(fields, "size", ""), "the size")
            made = await blocking(
                events.make_event,
                gate.folder,
                site.catalogs,
                name=one(fields, "name", "") or "",
                system=one(fields, "system", "") or "",
                size=0 if size is None else size,
                unit=unit,
                deadline=one(fields, "deadline", "") or "",
                reveal=(one(fields, "reveal", "") or "").strip() or None,
                zone=None,
                by=by,
                now=gate.clock(),
            )
        except ListbuilderError as exc:
            context = await blocking(_events_context, site, gate)
            return site.page("events.html", request, 400, error=error_message(exc), **context)
        return redirect(f"/events/{quote(made.id)}", f"{made.name} is open for lists")

    return handler


def _event_context(site: Site, gate: Club, event_id: str) -> dict[str, Any]:
    member = member_of(site)
    now = gate.clock()
    view = events.event_view(gate.folder, event_id, member, now=now)
    mine = []
    if member.role != "viewer":
        mine = [
            s
            for s in folders.folder_lists(site.folder, site.catalogs)
            if s.error is None and s.system == view.event.system
        ]
    return {
        "title": view.event.name,
        "view": view,
        "mine": mine,
        "can_submit": member.role != "viewer" and (not view.closed or view.late_allowed),
        "players": [m for m in gate.store.members() if m.role != "viewer" and m.revoked is None],
        "shown": view.event.shown,
        "system_name": site.catalogs.get(view.event.system).definition.name.strip(),
    }


def event_page(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        try:
            context = await blocking(_event_context, site, gate, request.path_params["event"])
        except ListbuilderError as exc:
            return _not_found(site, request, exc)
        return site.page("event.html", request, **context)

    return handler


def submit(site: Site, gate: Club) -> Endpoint:
    """Submit one of the member's own lists: the server reads it from their folder."""

    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)  # a viewer submits nothing: refused there
        member = member_of(site)
        event_id = request.path_params["event"]
        file = one(fields, "file", "") or ""
        try:
            got = await blocking(
                events.submit_list, gate.folder, site.catalogs, event_id, member, file, now=gate.clock()
            )
        except events.Closed as exc:
            return await _event_again(site, gate, request, event_id, 409, error_message(exc))
        except ListbuilderError as exc:
            return await _event_again(site, gate, request, event_id, 400, error_message(exc))
        said = f"Submitted {got.name}: {got.verdict.upper() if got.verdict == 'not legal' else got.verdict}"
        if got.late:
            said += " (late)"
        return redirect(f"/events/{quote(event_id)}", said)

    return handler


async def _event_again(site: Site, gate: Club, request: Request, event_id: str, status: int, error: str) -> Response:
    try:
        context = await blocking(_event_context, site, gate, event_id)
    except ListbuilderError as exc:
        return _not_found(site, request, exc)
    return site.page("event.html", request, status, error=error, **context)


def times(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)
        by = _organiser(site)
        event_id = request.path_params["event"]
        try:
            moved = await blocking(
                events.move_event,
                gate.folder,
                event_id,
                deadline=(one(fields, "deadline", "") or "").strip() or None,
                reveal=(one(fields, "reveal", "") or "").strip() or None,
                by=by,
            )
        except ListbuilderError as exc:
            return await _event_again(site, gate, request, event_id, 400, error_message(exc))
        return redirect(f"/events/{quote(event_id)}", f"Lists close {moved.shown(moved.deadline)}")

    return handler


def late(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)
        by = _organiser(site)
        event_id = request.path_params["event"]
        name = one(fields, "member", "") or ""
        try:
            await blocking(events.accept_late, gate.folder, event_id, name, by=by, now=gate.clock())
        except ListbuilderError as exc:
            return await _event_again(site, gate, request, event_id, 400, error_message(exc))
        return redirect(f"/events/{quote(event_id)}", f"{name} may submit a late list")

    return handler


def export(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        member = member_of(site)
        event_id, format = request.path_params["event"], request.path_params["format"]
        if format not in MEDIA:
            return site.page("error.html", request, 404, title="Not found", message="There is no such page here.")
        try:
            text = await blocking(events.export_event, gate.folder, event_id, format, member, now=gate.clock())
        except ListbuilderError as exc:
            return _not_found(site, request, exc)
        return attachment(text.encode("utf-8"), MEDIA[format], f"{event_id}.{format}")

    return handler


def pack(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        member = member_of(site)
        event_id = request.path_params["event"]
        try:
            data = await blocking(
                events.pack_document,
                gate.folder,
                site.catalogs,
                event_id,
                member,
                paper=request.query_params.get("paper", "a4"),
                now=gate.clock(),
            )
        except ListbuilderError as exc:
            return _not_found(site, request, exc)
        return attachment(data, "application/pdf", f"{event_id}-pack.pdf")

    return handler


def _submission_context(site: Site, gate: Club, event_id: str, owner: str) -> dict[str, Any]:
    member = member_of(site)
    now = gate.clock()
    got = events.submission_of(gate.folder, event_id, owner, member, now=now)
    chosen = events.event_view(gate.folder, event_id, member, now=now).event
    report = events.submission_report(gate.folder, site.catalogs, event_id, got)
    mine = (
        [s for s in folders.folder_lists(site.folder, site.catalogs) if s.error is None and s.system == chosen.system]
        if member.role != "viewer" and got.member.id != member.id
        else []
    )
    return {
        "title": f"{got.name}, {got.member.name}'s list for {chosen.name}",
        "event": chosen,
        "got": got,
        "roster": printing.roster_page(report),
        "mine": mine,
        "grids": [],
        "against": None,
    }


def submission_page(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        try:
            context = await blocking(
                _submission_context, site, gate, request.path_params["event"], request.path_params["member"]
            )
        except ListbuilderError as exc:
            return _not_found(site, request, exc)
        return site.page("submission.html", request, **context)

    return handler


def submission_odds(site: Site, gate: Club) -> Endpoint:
    """The odds of a submitted list against one of the member's own (after the reveal)."""

    async def handler(request: Request) -> Response:
        from listbuilder.api import matchups  # odds: loaded on first use

        event_id, owner = request.path_params["event"], request.path_params["member"]
        mine_file = request.query_params.get("mine", "")
        try:
            context = await blocking(_submission_context, site, gate, event_id, owner)
            mine = await blocking(folders.list_state, site.folder, mine_file, site.catalogs)
            theirs = await blocking(events.submission_report, gate.folder, site.catalogs, event_id, context["got"])
            grids = await blocking(
                lambda: [matchups.odds_grid(mine.report, theirs), matchups.odds_grid(theirs, mine.report)]
            )
        except ListbuilderError as exc:
            return _not_found(site, request, exc)
        context.update(grids=[g for g in grids if g], against=mine)
        return site.page("submission.html", request, **context)

    return handler

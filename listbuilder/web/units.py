"""What one unit of the builder is: the rules it uses, and the custom unit form filled in to edit it.

Both are small parts a builder page asks for when the player opens them (htmx), and pages of their
own without JavaScript, so the builder page itself never carries a thousand units' rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from listbuilder.api import folders, lists, rulesets
from listbuilder.errors import ListbuilderError
from listbuilder.web.forms import fields_of, index, stats_of
from listbuilder.web.site import Endpoint, Site, blocking, error_message, is_htmx, list_state_or_page


def _unit(state: folders.ListState, query: Mapping[str, str]) -> tuple[rulesets.Unit | None, str]:
    """The unit a query names, an entry of the list (``entry=N``) or a catalog unit (``unit=NAME``,
    or ``rules=NAME`` on the list's own page), and why there is none."""
    entries = state.report.army.entries
    entry = query.get("entry", "")
    if entry.isdigit():
        number = index(entry)
        if number is not None and number < len(entries):
            return entries[number].unit, ""
        which = "of that number" if number is None else number + 1
        return None, f"The list has no entry {which}: it has {len(entries)}. Reload the list."
    name = query.get("unit", "") or query.get("rules", "")
    found = state.report.system.find_unit(name) if name else None
    if found is None:
        return None, f"The {state.report.system.definition.name} catalogs have no unit “{name}”."
    return found, ""


def rules_part(site: Site) -> Endpoint:
    """The rules a unit uses, as the printed reference sheet words them: inside its disclosure
    (htmx), or as a page of its own."""

    async def handler(request: Request) -> Response:
        return await rules_answer(site, request)

    return handler


async def rules_answer(site: Site, request: Request) -> Response:
    """The answer of ``rules_part``; the builder page gives it too, for ``?rules=NAME``: the link a
    catalog unit's name is, the same on every list's page, so the catalog is drawn once for all."""
    from listbuilder.api import printing  # the reference sheet's blocks: loaded on first use

    state = await list_state_or_page(site, request)
    if isinstance(state, Response):
        return state
    unit, missing = _unit(state, request.query_params)
    system = state.report.system
    blocks = () if unit is None else await blocking(printing.unit_rules, system, unit)
    return site.page(
        "_rules.html" if is_htmx(request) else "rules.html",
        request,
        404 if unit is None else 200,
        title=f"The rules of {unit.name}" if unit is not None else "No such unit",
        state=state,
        system=system,
        unit=unit,
        missing=missing,
        blocks=blocks,
    )


def custom_part(site: Site) -> Endpoint:
    """The custom unit form filled in with custom entry ``?edit=N``, to change it and save it in place."""

    async def handler(request: Request) -> Response:
        state = await list_state_or_page(site, request)
        if isinstance(state, Response):
            return state
        # closed, as on the builder page, when ``edit`` is not a custom entry (the list changed since)
        context = {"custom_open": False, **edit_context(state, request.query_params.get("edit", ""))}
        return site.page("_custom.html", request, **context)

    return handler


def edit_context(state: folders.ListState, edit: str) -> dict[str, Any]:
    """What ``_custom.html`` needs to edit custom entry ``edit`` (nothing when it is not one)."""
    system = state.report.system
    entries = state.report.army.entries
    number = index(edit)
    if number is None or number >= len(entries) or not entries[number].custom:
        stats = list(system.definition.stats.items())
        return {"state": state, "system": system, "stats": stats, "custom": {}, "pricing": None, "price_error": ""}
    fields = {**fields_of(system, entries[number].unit), "index": [edit]}
    return {
        "state": state,
        "system": system,
        "stats": list(system.definition.stats.items()),
        "custom": fields,
        **pricing(system, fields),
    }


def typed_stats(system: rulesets.System, fields: Mapping[str, list[str]]) -> bool:
    """Whether the custom unit form has a stat filled in (a value, a ticked choice, an item's count)."""
    stats = system.definition.stats
    return any(v.strip() for key, values in fields.items() if key.partition(":")[0] in stats for v in values)


def pricing(system: rulesets.System, fields: Mapping[str, list[str]]) -> dict[str, Any]:
    """The custom unit form priced as it stands, or why it cannot be."""
    try:
        return {"pricing": lists.price(system, stats_of(system, fields)), "price_error": ""}
    except ListbuilderError as exc:
        return {"pricing": None, "price_error": error_message(exc)}

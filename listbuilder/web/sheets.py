"""Print, share and compare a list; rules cards as pages; the print stylesheet and fonts they use."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from listbuilder.api import folders, lists, pages
from listbuilder.errors import InputError, ListbuilderError
from listbuilder.web.forms import SHOWN
from listbuilder.web.site import (
    EXPORTS,
    Endpoint,
    Site,
    attachment,
    blocking,
    error_message,
    unreadable,
)
from listbuilder.words import did_you_mean, meant

PAPERS = ("a4", "letter")
MEDIA = {"pdf": "application/pdf", "html": "text/html; charset=utf-8"}


def _same_rules(site: Site, file: str, system: str) -> list[tuple[str, str]]:
    """The other lists of the folder for the rule set ``system``, each (file, what to call it):
    its name, with its file beside where two share a name."""
    found = [
        s
        for s in folders.folder_lists(site.folder, site.catalogs)
        if s.error is None and s.system == system and s.file != file
    ]
    names = [(s.file, s.name or s.file) for s in found]
    counts = Counter(name for _, name in names)
    mine = [(file, name if counts[name] == 1 else f"{name} ({file})") for file, name in names]
    others = site.visit.others
    return mine + (others(system) if others is not None else [])


def share_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        try:
            state = await blocking(folders.list_state, site.folder, file, site.catalogs)
            text, markdown, qr_error = await blocking(_share_texts, state.report)  # a long list's are work
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        shared = site.visit.club.get("shared")
        return site.page(
            "share.html",
            request,
            shared_with_club=shared is not None and await blocking(shared, file),
            title=f"Print and share {state.report.army.name}",
            state=state,
            text=text,
            markdown=markdown,
            qr_error=qr_error,
            papers=PAPERS,
            opponents=await blocking(_same_rules, site, file, state.report.system.id),
            max_opponents=MAX_POCKET_OPPONENTS,
        )

    return handler


def _share_texts(report: lists.Report) -> tuple[str, str, str]:
    """The list as text and markdown, and why its QR code cannot be made ('' if it can)."""
    from listbuilder.api import sharing  # the exports and the QR code: loaded by the first share page

    text = sharing.export_list(report, "text")
    markdown = sharing.export_list(report, "markdown")
    try:
        sharing.qr_svg(text)
    except ListbuilderError as exc:
        return text, markdown, error_message(exc)
    return text, markdown, ""


def export(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        from listbuilder.api import sharing  # exports and the QR code: loaded on first use

        file = request.path_params["file"]
        format = request.path_params["format"].lower()  # /export/YAML is /export/yaml
        embed = request.query_params.get("embed") == "1"
        try:
            state = await blocking(folders.list_state, site.folder, file, site.catalogs)
            # the YAML file as it is, comments and all; --embed writes every unit out in full
            text = (
                state.text
                if format == "yaml" and not embed
                else await blocking(sharing.export_list, state.report, format, embed=embed)
            )
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
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
    return EXPORTS[format]


def qr(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        from listbuilder.api import sharing  # exports and the QR code: loaded on first use

        file = request.path_params["file"]
        try:
            state = await blocking(folders.list_state, site.folder, file, site.catalogs)
            text = await blocking(sharing.export_list, state.report, "text")
            svg = await blocking(sharing.qr_svg, text, f"{state.report.army.name}: the list as text")
        except ListbuilderError as exc:
            return Response(error_message(exc), status_code=400, media_type="text/plain; charset=utf-8")
        return Response(svg, media_type="image/svg+xml")

    return handler


def print_list(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        from listbuilder.api import printing  # the documents' stack: loaded by the first page that prints

        file = request.path_params["file"]
        q = request.query_params
        only = q.get("only") or None
        try:
            report = await blocking(lists.check_list, folders.list_file(site.folder, file), site.catalogs)
            rendered = await blocking(
                printing.render_reports,
                [report],
                format=q.get("format", "pdf"),
                paper=q.get("paper", "a4"),
                only=only,
                templates=site.templates,
                qr=q.get("qr") == "1",
            )
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        name = f"{file.rsplit('.', 1)[0]}{'-' + only if only else ''}.{rendered.format}"
        return attachment(rendered.data, MEDIA[rendered.format], name)

    return handler


MAX_POCKET_OPPONENTS = 4  # odds grids in one pocket copy: each is a grid of the list against one


def pocket(site: Site) -> Endpoint:
    """The pocket copy of a list (``?vs=FILE`` for each opponent), as a download."""

    async def handler(request: Request) -> Response:
        from listbuilder.api import printing  # the documents' stack: loaded by the first page that prints

        file = request.path_params["file"]
        wanted = list(dict.fromkeys(v for v in request.query_params.getlist("vs") if v))
        try:
            if len(wanted) > MAX_POCKET_OPPONENTS:
                raise InputError.detailed(
                    f"a pocket copy takes at most {MAX_POCKET_OPPONENTS} opponents' lists, {len(wanted)} were chosen",
                    "choose fewer opponents",
                )
            state = await blocking(folders.list_state, site.folder, file, site.catalogs)
            opponents = [await blocking(_opponent, site, v) for v in wanted]
            rendered = await blocking(printing.render_pocket, state.text, state.report, opponents)
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        return attachment(rendered.data, MEDIA["html"], f"{file.rsplit('.', 1)[0]}-pocket.html")

    return handler


def _opponent(site: Site, file: str) -> lists.Report:
    """An opponent's list of the folder, judged; a missing one is named as the opponent's."""
    try:
        where, named = site.find(file)  # one of this folder's, or a list shared with the club
        return folders.list_state(where, named, site.catalogs).report
    except ListbuilderError as exc:
        if exc.summary == "no such list file":
            raise InputError.detailed(
                f"no such list file as the opponent's: {file[:120]}", "it may have been deleted or renamed"
            ) from exc
        raise


VIEWS = ("opponents", "versions")  # two armies face to face, or what changed from one version to another


def compare_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        file = request.path_params["file"]
        q = request.query_params
        other = q.get("with", "")
        try:
            state = await blocking(folders.list_state, site.folder, file, site.catalogs)
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        context: dict[str, Any] = {"state": state, "other": None}
        if other:
            where, named = site.find(other)  # one of this folder's, or a list shared with the club
            try:
                theirs = await blocking(folders.list_state, where, named, site.catalogs)
            except ListbuilderError as exc:
                return unreadable(site, request, exc, file=other)  # the missing file is the one compared with
            try:  # a diff and the odds are work: off the event loop
                context.update(await blocking(_comparison, site, state, theirs, where, q.get("as"), q.get("attack")))
            except ListbuilderError as exc:
                return unreadable(site, request, exc)
        others = await blocking(_same_rules, site, file, state.report.system.id)
        return site.page(
            "compare.html", request, title=f"Compare {state.report.army.name}", others=others, chosen=other, **context
        )

    return handler


def _comparison(
    site: Site,
    mine: folders.ListState,
    theirs: folders.ListState,
    where: Path,
    view: str | None,
    attack: str | None,
) -> dict[str, Any]:
    """What the compare page shows of two lists: as two versions of one list, the diff; as
    opponents, the two side by side and the odds both ways for one kind of attack (``attack``)."""
    from listbuilder.api import matchups, sharing  # odds and diffs: loaded on first use

    versions = sharing.versions_of_one_list(mine.report, theirs.report)
    chosen = view if view in VIEWS else ("versions" if versions else "opponents")
    context: dict[str, Any] = {
        "other": theirs,
        "view": chosen,
        "usual_view": "versions" if versions else "opponents",
        "diff": "",
        "diff_error": "",
        "sides": [],
        "grids": [],
        "odds_errors": [],
        "kinds": [],
        "attack": "",
    }
    if chosen == "versions":
        paths = (folders.list_file(site.folder, mine.file), folders.list_file(where, theirs.file))
        try:
            context["diff"] = sharing.diff_files(*paths, site.catalogs).text()
        except ListbuilderError as exc:  # lists of two rule sets (an address typed by hand)
            context["diff_error"] = error_message(exc)
        return context
    context["sides"] = [(s, sharing.factions_of(s.report)) for s in (mine, theirs)]
    one_rule_set = mine.report.system.id == theirs.report.system.id
    if one_rule_set:
        try:
            kinds = matchups.attacks_of(site.catalogs, mine.report.system.id)
        except ListbuilderError:
            kinds = ()  # no odds for this rule set: each grid says so below
        context["kinds"] = [(k.id, k.title) for k in kinds]
        context["attack"] = attack if attack in {k.id for k in kinds} else (kinds[0].id if kinds else "")
    for a, b in ((mine, theirs), (theirs, mine)) if one_rule_set else ((mine, theirs),):  # two rule sets: said once
        try:
            context["grids"].append(matchups.odds_grid(a.report, b.report, context["attack"] or None))
        except ListbuilderError as exc:
            message = error_message(exc)
            if message not in context["odds_errors"]:  # both ways, one reason: said once
                context["odds_errors"].append(message)
    return context


def card_page(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        from listbuilder.api import printing  # the documents' stack: loaded by the first page that prints

        asked = request.path_params["system"]
        if asked not in site.catalogs.ids():
            return _no_rule_set(site, request, asked)
        try:
            system = site.catalogs.get(asked)
            card = await blocking(printing.card_page, system)
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        title = f"{' '.join(system.definition.name.split())}: rules card"
        return site.page("card.html", request, title=title, card=card, system=system, papers=PAPERS)

    return handler


def _no_rule_set(site: Site, request: Request, asked: str) -> Response:
    """The page for a rules card of a rule set this builder does not have: what was asked for, the
    rule set meant where one is close, and the cards there are."""
    shown = asked if len(asked) <= SHOWN else asked[:SHOWN] + "…"
    cards = [(s.id, " ".join(s.definition.name.split())) for s in site.catalogs.all()]
    close = meant(did_you_mean(asked, [card for card, _ in cards]))
    return site.page("no_card.html", request, 404, title="No such rule set", asked=shown, cards=cards, close=close)


def card_download(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        from listbuilder.api import printing  # the documents' stack: loaded by the first page that prints

        q = request.query_params
        if request.path_params["system"] not in site.catalogs.ids():
            return _no_rule_set(site, request, request.path_params["system"])
        try:
            system = site.catalogs.get(request.path_params["system"])
            rendered = await blocking(
                printing.render_card,
                system,
                format=q.get("format", "pdf"),
                paper=q.get("paper", "a4"),
                templates=site.templates,
            )
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        return attachment(rendered.data, MEDIA[rendered.format], f"{system.id}-card.{rendered.format}")

    return handler


def print_css(site: Site) -> Endpoint:
    """The print stylesheet, for the rules card shown as a page (fonts come from web.css)."""

    async def handler(request: Request) -> Response:
        css = await blocking(pages.stylesheet, "a4", site.templates)
        return Response(css, media_type="text/css; charset=utf-8")

    return handler


def font(site: Site) -> Endpoint:
    async def handler(request: Request) -> Response:
        fonts = {p.name: p for p in pages.font_files()}
        found = fonts.get(request.path_params["name"])
        if found is None:
            return unreadable(site, request, InputError("no such font"))
        return FileResponse(found, media_type="font/otf", headers={"cache-control": "max-age=86400"})

    return handler

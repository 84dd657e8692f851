"""Rosters, reference sheets and rules cards as finished documents: HTML text or PDF bytes.

Nothing here writes a file: ``listbuilder.api.write_file`` does that, atomically.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from listbuilder.army.report import Report
from listbuilder.errors import EXIT_RULES_BROKEN, ErrorDetail, InputError, ListbuilderError
from listbuilder.printing import pages
from listbuilder.printing.book import book
from listbuilder.printing.html import Paper, render_document, stylesheet
from listbuilder.rules.catalog import System


class RulesBroken(ListbuilderError):
    """A list breaks a rule and ``strict`` asked for no output (exit code 1)."""

    exit_code = EXIT_RULES_BROKEN


def same_rules(reports: Sequence[Report], opponent: Report) -> None:
    """An ``InputError`` unless every list of ``reports`` has the opponent's rule set: odds compare
    lists of one."""
    for r in reports:
        if r.system.id != opponent.system.id:
            raise InputError.detailed(
                f"the opponent's list {opponent.army.name} is {opponent.system.id}, "
                f"but {r.army.name} is a {r.system.id} list",
                "odds compare lists of one rule set",
                file=Path(opponent.army.file) if opponent.army.file else None,
            )


def document_bytes(html: str, fmt: str, paper: Paper, templates: Path | None) -> bytes:
    """``html`` as UTF-8 bytes, or laid out by WeasyPrint as a PDF."""
    if fmt != "pdf":
        return html.encode("utf-8")
    from listbuilder.printing.pdf import html_to_pdf  # WeasyPrint loads only when a PDF is asked for

    return html_to_pdf(html, stylesheet(paper, templates))


def render_document_bytes(
    reports: Sequence[Report],
    *,
    fmt: str,
    paper: Paper,
    only: str | None,
    strict: bool,
    templates: Path | None,
    opponent: Report | None,
    qr: bool = False,
) -> dict[str, Any]:
    """The document of ``reports`` (see ``listbuilder.api.render_reports``), and what it holds."""
    if opponent is not None:
        same_rules(reports, opponent)
    if strict:
        broken = [r for r in reports if not r.legal(strict=True)]
        if broken:
            raise RulesBroken(
                "strict: not rendering lists that break rules (or warn)",
                details=[
                    ErrorDetail(message=f"{r.army.file}: {p.message}; the rule: {p.rule}")
                    for r in broken
                    for p in r.problems
                ],
            )
    standalone = fmt == "html"
    references = pages.reference_sheet(reports) if only != "roster" else []
    if opponent is not None:
        references = [with_matchups(sheet, reports, opponent) for sheet in references]
    rosters = [pages.roster(r, strict) for r in reports] if only != "reference" else []
    if qr:
        rosters = [dataclasses.replace(ros, qr=_qr_of(r)) for ros, r in zip(rosters, reports, strict=True)]
    html = render_document(
        rosters=rosters,
        references=references,
        title=pages.cut(" · ".join(r.army.name for r in reports), pages.TITLE_CHARS),
        paper=paper,
        user_templates=templates,
        standalone=standalone,
    )
    return {
        "data": document_bytes(html, fmt, paper, templates),
        "format": fmt,
        "lists": tuple(r.army.name for r in reports),
        "illegal": tuple(r.army.name for r in reports if not r.legal(strict)),
        "unsized": tuple(r.army.name for r in reports if r.verdict(strict) == "no size agreed"),
    }


def _qr_of(report: Report) -> str:
    """A QR code (SVG) of the list's text export, for its roster."""
    # start-up: the export (with the editing package) and the QR encoder (segno) load only for a
    # roster's QR code
    from listbuilder.share.exchange import export_text
    from listbuilder.share.qr import svg

    return svg(export_text(report), f"{report.army.name}: scan for the list as text")


def with_matchups(
    sheet: pages.ReferenceSheet, reports: Sequence[Report], opponent: Report, *, keep: bool = False
) -> pages.ReferenceSheet:
    """``sheet`` with the grids of ``reports`` attacking ``opponent``: in place of its grids, or
    after them (``keep``: a pocket copy holds a grid for each opponent)."""
    from listbuilder.odds.ask import matrix_views  # start-up: the odds package loads only for --vs

    views = []
    for r in reports:
        if r.system.id == sheet.system_id == opponent.system.id:
            # One direction, the list's units attacking: the grid is the slowest thing on the
            # page to lay out, and `listbuilder odds THEIRS MINE` gives the other way round.
            # One grid for each kind of attack (melee, ranged): paper cannot switch, and a grid
            # of the better of the two would mix kinds in its kills per 100 points.
            views.extend(matrix_views(r.system, r, opponent))
    return dataclasses.replace(sheet, matchups=(*sheet.matchups, *views) if keep else tuple(views))


def card_bytes(system: System, *, fmt: str, paper: Paper, templates: Path | None) -> bytes:
    """The quick-reference rules card of a rule set, as a document."""
    html = render_document(
        cards=[pages.card(system)],
        title=f"{system.definition.name}: quick reference",
        paper=paper,
        user_templates=templates,
        standalone=fmt == "html",
    )
    return document_bytes(html, fmt, paper, templates)


def book_bytes(system: System, faction: str | None, *, fmt: str, paper: Paper, templates: Path | None) -> bytes:
    """The faction book of ``faction`` (every faction when None), as a document."""
    made = book(system, faction)
    html = render_document(
        books=[made],
        title=f"{faction or system.definition.name}: faction book",
        paper=paper,
        user_templates=templates,
        standalone=fmt == "html",
    )
    return document_bytes(html, fmt, paper, templates)

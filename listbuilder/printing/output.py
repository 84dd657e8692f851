"""Write rosters, reference sheets and rules cards to HTML or PDF files, safely.

Output goes to a temporary file beside the target and is moved into place only once it is
complete, so a failed render leaves no half-written file and never touches an existing one.
A render refuses to write over one of its own inputs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from listbuilder.api import check_list
from listbuilder.army.report import Report
from listbuilder.errors import EXIT_RULES_BROKEN, ErrorDetail, InputError, ListbuilderError
from listbuilder.printing import pages as sheets
from listbuilder.printing.html import Paper, render_document, stylesheet
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.yamlfile import check_target, write_output

Only = Literal["roster", "reference"]
FORMATS = {".pdf": "pdf", ".html": "html", ".htm": "html"}


class RulesBroken(ListbuilderError):
    """A list breaks a rule and ``--strict`` asked for no output (exit code 1)."""

    exit_code = EXIT_RULES_BROKEN


@record
class Written(Record):
    """One output file, and what went into it."""

    path: Path
    format: str
    lists: tuple[str, ...]
    illegal: tuple[str, ...]


def output_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(
            f"cannot tell what to write from the name '{path.name}'",
            file=path,
            details=[ErrorDetail(message="the output name must end in .pdf or .html")],
        )
    return fmt


def write_document(target: Path, html: str, css: str | None, inputs: Sequence[Path] = ()) -> str:
    """Write ``html`` as HTML or (through WeasyPrint) PDF, by ``target``'s suffix; atomically."""
    fmt = output_format(target)
    check_target(target, inputs)  # before the work of a render
    if fmt == "pdf":
        from listbuilder.printing.pdf import html_to_pdf  # WeasyPrint loads only when a PDF is asked for

        data = html_to_pdf(html, css or "")
    else:
        data = html.encode("utf-8")
    write_output(target, data, inputs)
    return fmt


def render_lists(
    paths: Sequence[Path],
    catalogs: Catalogs,
    *,
    output: Path | None = None,
    paper: Paper = "a4",
    only: Only | None = None,
    strict: bool = False,
    templates: Path | None = None,
    vs: Path | None = None,
) -> list[Written]:
    """Render lists: into one document at ``output``, or each beside itself as NAME.pdf.

    ``vs`` names an opponent's list: each list's reference sheet then carries the odds of
    each of its units attacking each unit of the opponent's."""
    reports = [check_list(p, catalogs) for p in paths]
    opponent = check_list(vs, catalogs) if vs is not None else None
    if opponent is not None:
        for r in reports:
            if r.system.id != opponent.system.id:
                raise InputError(
                    f"--vs: {r.army.name} is a {r.system.id} list but {opponent.army.name} is {opponent.system.id}",
                    file=vs,
                    details=[ErrorDetail(message="odds compare lists of one rule set")],
                )
    if output is not None:
        output_format(output)  # a bad name fails before any work
    if strict:
        broken = [r for r in reports if not r.legal(strict=True)]
        if broken:
            raise RulesBroken(
                "--strict: not rendering lists that break rules",
                details=[
                    ErrorDetail(message=f"{r.army.file}: {p.message}", hint=p.rule) for r in broken for p in r.problems
                ],
            )
    groups = (
        [(output, reports)]
        if output is not None
        else [(Path(r.army.file or "list").with_suffix(".pdf"), [r]) for r in reports]
    )
    written = []
    for target, group in groups:
        written.append(_write_lists(target, group, paths, paper, only, strict, templates, opponent))
    return written


def _write_lists(
    target: Path,
    reports: Sequence[Report],
    inputs: Sequence[Path],
    paper: Paper,
    only: Only | None,
    strict: bool,
    templates: Path | None,
    opponent: Report | None = None,
) -> Written:
    fmt = output_format(target)
    standalone = fmt == "html"
    references = sheets.reference_sheet(reports) if only != "roster" else []
    if opponent is not None:
        references = [_with_matchups(sheet, reports, opponent) for sheet in references]
    html = render_document(
        rosters=[sheets.roster(r, strict) for r in reports] if only != "reference" else [],
        references=references,
        title=" · ".join(r.army.name for r in reports),
        paper=paper,
        user_templates=templates,
        standalone=standalone,
    )
    write_document(target, html, None if standalone else stylesheet(paper, templates), inputs)
    return Written(
        path=target,
        format=fmt,
        lists=tuple(r.army.name for r in reports),
        illegal=tuple(r.army.name for r in reports if not r.legal(strict)),
    )


def _with_matchups(sheet: sheets.ReferenceSheet, reports: Sequence[Report], opponent: Report) -> sheets.ReferenceSheet:
    from listbuilder.odds.ask import matrix_view  # the dice library loads only for --vs

    views = []
    for r in reports:
        if r.system.id == sheet.system_id == opponent.system.id:
            # One direction, the list's units attacking: the grid is the slowest thing on the
            # page to lay out, and `listbuilder odds THEIRS MINE` gives the other way round.
            views.append(matrix_view(r.system, r, opponent))
    return dataclasses.replace(sheet, matchups=tuple(views))


def render_card(
    system: System, *, output: Path | None = None, paper: Paper = "a4", templates: Path | None = None
) -> Written:
    """Write the quick-reference rules card of a rule set (default: SYSTEM-card.pdf here)."""
    target = output or Path(f"{system.id}-card.pdf")
    fmt = output_format(target)
    standalone = fmt == "html"
    html = render_document(
        cards=[sheets.card(system)],
        title=f"{system.definition.name}: quick reference",
        paper=paper,
        user_templates=templates,
        standalone=standalone,
    )
    write_document(target, html, None if standalone else stylesheet(paper, templates))
    return Written(path=target, format=fmt, lists=(), illegal=())

"""An event's pack: a cover with the table of players, then each submitted list's roster, then one
reference sheet for every unit of the event, as one PDF (or HTML) document.

Each part is laid out on its own (``pdf.htmls_to_pdf``), so the work grows with the number of
lists and a progress bar can follow it; each list's roster numbers its own pages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from listbuilder.army.report import Report
from listbuilder.printing import pages
from listbuilder.printing.html import Paper, render_document, stylesheet
from listbuilder.record import Record, record


@record
class CoverRow(Record):
    """One player's line on an event's cover."""

    player: str
    list: str
    total: str
    verdict: str  # legal, not legal, no size agreed
    submitted: str
    late: bool
    problems: int


@record
class Cover(Record):
    """The first page of an event's pack."""

    title: str
    lines: tuple[str, ...]  # the rule set and size, the deadline, when the pack was made
    rows: tuple[CoverRow, ...]
    missing: tuple[str, ...]  # the players who submitted nothing


def pack_parts(cover: Cover, reports: Sequence[Report], paper: Paper) -> list[str]:
    """The HTML of each part of the pack: the cover, each roster, the reference sheet."""
    title = pages.cut(cover.title, pages.TITLE_CHARS)
    parts = [render_document(covers=[cover], title=title, paper=paper, standalone=False)]
    for report in reports:
        parts.append(render_document(rosters=[pages.roster(report)], title=title, paper=paper, standalone=False))
    if reports:
        parts.append(
            render_document(references=pages.reference_sheet(reports), title=title, paper=paper, standalone=False)
        )
    return parts


def pack_bytes(
    cover: Cover,
    reports: Sequence[Report],
    *,
    fmt: str,
    paper: Paper,
    done: Callable[[int, int], None] | None = None,
) -> bytes:
    """The pack as PDF (each part laid out in turn, ``done(parts laid out, parts)`` after each) or
    as one standalone HTML file."""
    if fmt != "pdf":
        html = render_document(
            covers=[cover],
            rosters=[pages.roster(r) for r in reports],
            references=pages.reference_sheet(reports) if reports else [],
            title=pages.cut(cover.title, pages.TITLE_CHARS),
            paper=paper,
        )
        return html.encode("utf-8")
    from listbuilder.printing.pdf import htmls_to_pdf  # WeasyPrint loads only when a PDF is asked for

    parts = pack_parts(cover, reports, paper)
    return htmls_to_pdf(parts, stylesheet(paper), None if done is None else lambda n: done(n, len(parts)))

"""Printing rosters, reference sheets and rules cards: to bytes, then to a file.

The templates a screen shows its pages with are ``api.templates``. WeasyPrint loads inside the
engine when a PDF is asked for, not with this module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from listbuilder.api.files import read_by, write_file
from listbuilder.api.lists import check_list, check_text
from listbuilder.army.report import Report
from listbuilder.editing.history import version_of
from listbuilder.errors import Action, InputError
from listbuilder.files.reading import read_text
from listbuilder.files.writing import check_target
from listbuilder.printing.html import Paper, builtin_templates
from listbuilder.printing.output import card_bytes, render_document_bytes, same_rules
from listbuilder.printing.pages import Block, Card, used_rules
from listbuilder.printing.pages import card as card_page
from listbuilder.printing.pages import roster as roster_of
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.rules.formats import Unit
from listbuilder.words import choose

__all__ = [
    "Block",
    "Card",
    "Rendered",
    "Written",
    "card_page",
    "document_format",
    "render_card",
    "render_card_file",
    "render_files",
    "render_pocket",
    "render_pocket_file",
    "render_reports",
    "roster_page",
    "unit_rules",
]

PAPERS: tuple[Paper, ...] = ("a4", "letter")
ONLY = ("roster", "reference")
DOCUMENT_FORMATS = ("pdf", "html")


@record
class Rendered(Record):
    """A printed document as bytes, and what went into it."""

    data: bytes = dataclasses.field(repr=False)
    format: str
    lists: tuple[str, ...] = ()
    illegal: tuple[str, ...] = ()  # the lists printed under a NOT LEGAL banner
    unsized: tuple[str, ...] = ()  # the lists printed under a "No size agreed" banner

    def as_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "bytes": len(self.data),
            "lists": list(self.lists),
            "illegal": list(self.illegal),
            "unsized": list(self.unsized),
        }


@record
class Written(Record):
    """One output file, and what went into it."""

    path: Path
    format: str
    lists: tuple[str, ...]
    illegal: tuple[str, ...]
    unsized: tuple[str, ...] = ()


def document_format(path: Path) -> str:
    """``pdf`` or ``html``, from an output file's name; anything else is an ``InputError``."""
    fmt = {".pdf": "pdf", ".html": "html", ".htm": "html"}.get(path.suffix.lower())
    if fmt is None:
        raise InputError.detailed(
            f"cannot tell what to write from the name '{path.name}'",
            "the output name must end in .pdf or .html",
            file=path,
        )
    return fmt


def render_reports(
    reports: Sequence[Report],
    *,
    format: str = "pdf",
    paper: str = "a4",
    only: str | None = None,
    strict: bool = False,
    templates: Path | None = None,
    opponent: Report | None = None,
    qr: bool = False,
) -> Rendered:
    """Rosters for ``reports`` and a reference sheet of the rules their units use, as one document.

    ``only`` is ``roster`` or ``reference``; ``opponent`` adds the odds of each unit attacking
    each of the opponent's units to the reference sheet; ``qr`` a QR code of each list's text
    export to its roster, for an opponent to scan. With ``strict`` a list that breaks a
    rule (or warns) is refused (``RulesBroken``, exit 1) instead of printed under a banner."""
    _some(reports)
    fmt = choose("document format", format, DOCUMENT_FORMATS)
    return Rendered(
        **render_document_bytes(
            reports,
            fmt=fmt,
            paper=choose("paper size", paper, PAPERS),
            only=_part(only, qr),
            strict=strict,
            templates=templates,
            opponent=opponent,
            qr=qr,
        )
    )


def _part(only: str | None, qr: bool) -> str | None:
    """The part to print (``None``: both), checked with ``qr``: the QR code goes on the roster."""
    part = None if only is None else choose("part", only, ONLY)
    if qr and part == "reference":
        raise InputError.detailed(
            "a QR code goes on the roster, and a reference sheet printed alone has no roster",
            "leave the QR code out, or print the roster too",
            action=Action(kind="qr-on-roster"),
        )
    return part


def _some(lists: Sequence[object]) -> None:
    if not lists:
        raise InputError.detailed("nothing to print", "give one list at least")


def render_card(system: System, *, format: str = "pdf", paper: str = "a4", templates: Path | None = None) -> Rendered:
    """A rule set's quick-reference card (one sheet, two sides) as a PDF or HTML document."""
    fmt = choose("document format", format, DOCUMENT_FORMATS)
    data = card_bytes(system, fmt=fmt, paper=choose("paper size", paper, PAPERS), templates=templates)
    return Rendered(data=data, format=fmt)


def _printed_with(templates: Path | None) -> list[Path]:
    """The template folders a document is printed from: the user's, then ours."""
    return [*([templates] if templates is not None else []), builtin_templates()]


def render_files(
    paths: Sequence[Path],
    catalogs: Catalogs,
    *,
    output: Path | None = None,
    paper: str = "a4",
    only: str | None = None,
    strict: bool = False,
    templates: Path | None = None,
    vs: Path | None = None,
    qr: bool = False,
) -> tuple[Written, ...]:
    """Print list files: into one document at ``output``, or each beside itself as NAME.pdf.

    ``vs`` names an opponent's list file (see ``render_reports``)."""

    _some(paths)
    paper = choose("paper size", paper, PAPERS)
    only = _part(only, qr)
    if output is not None:
        document_format(output)  # a bad name fails before any work
    reports = [check_list(p, catalogs) for p in paths]
    opponent = check_list(vs, catalogs) if vs is not None else None
    inputs = [*paths, *([vs] if vs is not None else []), *read_by((), catalogs), *_printed_with(templates)]
    groups = (
        [(output, reports)]
        if output is not None
        else [(Path(r.army.file or "list").with_suffix(".pdf"), [r]) for r in reports]
    )
    written = []
    for target, group in groups:
        check_target(target, inputs)  # before the work of a render
        done = render_reports(
            group,
            format=document_format(target),
            paper=paper,
            only=only,
            strict=strict,
            templates=templates,
            opponent=opponent,
            qr=qr,
        )
        write_file(target, done.data, inputs=inputs)
        written.append(
            Written(path=target, format=done.format, lists=done.lists, illegal=done.illegal, unsized=done.unsized)
        )
    return tuple(written)


def render_pocket(text: str, report: Report, opponents: Sequence[Report] = ()) -> Rendered:
    """The pocket copy of a list (its file's ``text``, judged as ``report``): one HTML file with
    the roster, the rules, the rules card, the odds against each of ``opponents`` and a game
    tracker, that makes no request of any kind. Too large a file is an ``InputError``."""
    from listbuilder.play.board import board_of  # start-up: play and the pocket load only for a pocket copy
    from listbuilder.play.tracker import tracker_data
    from listbuilder.printing.pocket import list_key, pocket_html

    for opponent in opponents:
        same_rules([report], opponent)
    board = board_of(report, report.army.file or "list", version_of(text))
    html = pocket_html(report, opponents, tracker_data(board), list_key(text.encode("utf-8")))
    return Rendered(
        data=html.encode("utf-8"),
        format="html",
        lists=(report.army.name,),
        illegal=() if report.legal() else (report.army.name,),
    )


def render_pocket_file(
    path: Path, catalogs: Catalogs, *, output: Path | None = None, vs: Sequence[Path] = ()
) -> Written:
    """Write the pocket copy of the list file ``path`` (default: NAME.html beside it), with the
    odds against each list file of ``vs``."""
    target = output if output is not None else path.with_suffix(".html")
    if document_format(target) != "html":
        raise InputError.detailed(
            f"a pocket copy is one HTML file, not '{target.name}'",
            "give the output a name that ends in .html",
            file=target,
        )
    inputs = [path, *vs, *read_by((), catalogs)]
    check_target(target, inputs)  # before the work
    text = read_text(path, "list file")
    report = check_text(text, catalogs, path)
    opponents = [check_list(v, catalogs) for v in vs]
    done = render_pocket(text, report, opponents)
    write_file(target, done.data, inputs=inputs)
    return Written(path=target, format=done.format, lists=done.lists, illegal=done.illegal)


def roster_page(report: Report) -> Any:
    """A judged list as its printed roster shows it (``_roster.html`` lays it out on a page)."""
    return roster_of(report)


def render_card_file(
    system: System, *, output: Path | None = None, paper: str = "a4", templates: Path | None = None
) -> Written:
    """Write a rule set's quick-reference card (default: SYSTEM-card.pdf in the current folder)."""

    target = output or Path(f"{system.id}-card.pdf")
    inputs = [system.folder, *_printed_with(templates)]
    check_target(target, inputs)  # before the work of a render
    done = render_card(system, format=document_format(target), paper=paper, templates=templates)
    write_file(target, done.data, inputs=inputs)
    return Written(path=target, format=done.format, lists=(), illegal=())


def unit_rules(system: System, unit: Unit) -> tuple[Block, ...]:
    """The rules ``unit``'s stats call for, as the printed reference sheet gives them (its tables,
    special rules and what its traits and weapons mean), as blocks that ``_block.html`` shows."""
    return tuple(used_rules(system, [unit], own=True)[3])

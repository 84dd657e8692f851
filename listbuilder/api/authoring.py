"""For rule-set authors: run a catalog's own tests, see what a points change does, print a faction book."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from listbuilder.api.files import write_file
from listbuilder.api.printing import DOCUMENT_FORMATS, PAPERS, Rendered, Written, document_format
from listbuilder.api.rulesets import catalog_units
from listbuilder.authoring import catalogtests
from listbuilder.authoring import reprice as repricing
from listbuilder.authoring.catalogtests import CaseResult, CatalogCheck
from listbuilder.authoring.reprice import ListChange, Repricing, UnitPrice, Verdict
from listbuilder.printing.output import book_bytes
from listbuilder.rules.catalog import Catalogs, user_roots
from listbuilder.words import choose

__all__ = [
    "CaseResult",
    "CatalogCheck",
    "ListChange",
    "Rendered",
    "Repricing",
    "UnitPrice",
    "Verdict",
    "Written",
    "book_file_name",
    "check_catalog",
    "render_book",
    "render_book_file",
    "reprice",
]


def check_catalog(folder: Path, dirs: Sequence[Path] | None = None) -> CatalogCheck:
    """Load a rule set or faction folder as strictly as the loader does, then run its own tests
    (``tests/legal``, ``tests/illegal`` with ``expect:``, ``tests/costs.yaml``).

    A folder that cannot be loaded raises its located ``CatalogError``; a failing test is a
    result, not an error (``CatalogCheck.ok`` says whether all passed)."""
    return catalogtests.check_catalog(folder, user_roots(dirs))


def reprice(
    old: Path,
    new: Path | None = None,
    *,
    rev: str | None = None,
    lists: Sequence[Path] = (),
    dirs: Sequence[Path] | None = None,
) -> Repricing:
    """Every catalog unit's cost under two versions of a rule set (two folders, or a folder and a
    git revision of it), sorted by change, and each list's total and verdict before and after.

    ``lists`` are list files, or folders whose lists of this rule set are all judged."""
    return repricing.reprice(old, new, rev=rev, lists=lists, extra_roots=user_roots(dirs))


def render_book(
    catalogs: Catalogs,
    system_id: str,
    *,
    faction: str | None = None,
    format: str = "pdf",
    paper: str = "a4",
    templates: Path | None = None,
) -> Rendered:
    """A faction book (or the book of every faction): each unit with its stats, cost and what the
    rules derive from them, grouped as the rule set's groups say, the card's core tables at the back.

    ``faction`` is matched in any case; an unknown one is an ``InputError`` with a did-you-mean."""
    fmt = choose("document format", format, DOCUMENT_FORMATS)
    paper_size = choose("paper size", paper, PAPERS)
    listing = catalog_units(catalogs, system_id, faction)
    data = book_bytes(listing.system, listing.faction, fmt=fmt, paper=paper_size, templates=templates)
    return Rendered(data=data, format=fmt)


def book_file_name(system_id: str, faction: str | None = None) -> Path:
    """Where ``book`` writes by default: ``SYSTEM-book.pdf`` or ``SYSTEM-FACTION-book.pdf``."""

    slug = re.sub(r"[^a-z0-9]+", "-", (faction or "").lower()).strip("-")
    return Path(f"{system_id}-{slug}-book.pdf" if slug else f"{system_id}-book.pdf")


def render_book_file(
    catalogs: Catalogs,
    system_id: str,
    *,
    faction: str | None = None,
    output: Path | None = None,
    paper: str = "a4",
    templates: Path | None = None,
) -> Written:
    """Write a faction book (default: ``book_file_name``), atomically."""
    target = output or book_file_name(system_id, faction)
    done = render_book(
        catalogs, system_id, faction=faction, format=document_format(target), paper=paper, templates=templates
    )
    write_file(target, done.data)
    return Written(path=target, format=done.format, lists=(), illegal=())

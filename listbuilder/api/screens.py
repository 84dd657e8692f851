"""What a screen shows beside the lists: pages in the print environment, QR codes, odds grids as page data.

A page is rendered by the same Jinja environment, filters and escaping as a printed roster, so a
user's template folder overrides a page's templates as it overrides print's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from listbuilder.army.report import Report
from listbuilder.errors import ListbuilderError, choose
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit


def qr_svg(text: str, title: str = "") -> str:
    """A QR code of ``text`` as an SVG element (for an opponent to scan a list from a screen or paper)."""
    # start-up: the QR encoder loads only for a QR code
    from listbuilder.share.qr import svg

    return svg(text, title)


def card_page(system: System) -> Any:
    """A rule set's rules card as page data (what the ``_card.html`` template shows)."""
    # start-up: the print stack loads only for a page or a print
    from listbuilder.printing.pages import card

    return card(system)


def unit_rules(system: System, unit: Unit) -> tuple[Any, ...]:
    """The rules ``unit``'s stats call for, as the printed reference sheet gives them (its tables,
    special rules and what its traits and weapons mean), as blocks that ``_block.html`` shows."""
    # start-up: the print stack loads only for a page or a print
    from listbuilder.printing.pages import used_rules

    return tuple(used_rules(system, [unit], own=True)[3])


def odds_grid(a: Report, b: Report) -> dict[str, Any] | None:
    """The odds of each unit of ``a`` attacking each of ``b`` as the printed reference sheet shows
    them (``_matrix.html``); ``None`` when the lists are of different rule sets, one is empty, or
    the rule set has no odds."""
    if a.system.id != b.system.id or not a.lines or not b.lines:
        return None
    # start-up: the odds stack loads only for odds
    from listbuilder.odds.ask import matrix_view

    try:
        return matrix_view(a.system, a, b)
    except ListbuilderError:
        return None


def render_page(name: str, context: Mapping[str, Any], templates: Path | None = None) -> str:
    """Render template ``name`` (say ``web/list.html``) in the same Jinja environment, filters and
    escaping as printed rosters; a user's template folder overrides the built-in templates."""
    # start-up: Jinja loads only for a page or a print
    from listbuilder.printing.html import render_template

    return render_template(name, dict(context), templates)


def prepare_pages(names: Sequence[str], templates: Path | None = None) -> None:
    """Compile the templates ``names`` now (a server does it while it starts, not on its first page)."""
    # start-up: Jinja loads only for a page or a print
    from listbuilder.printing.html import environment

    env = environment(templates)
    for name in names:
        env.get_template(name)


def page_stylesheet(paper: str = "a4", templates: Path | None = None) -> str:
    """The print stylesheet, for a page that shows a printed sheet (a rules card) on screen."""
    # start-up: Jinja loads only for a page or a print
    from listbuilder.printing.html import stylesheet

    return stylesheet(choose("paper size", paper, ("a4", "letter")), templates)  # type: ignore[arg-type]


def font_files() -> tuple[Path, ...]:
    """The font files the printed sheets use, for a page to show them in the same type."""
    # start-up: Jinja loads only for a page or a print
    from listbuilder.printing.html import font_files as files

    return tuple(files())

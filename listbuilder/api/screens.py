"""What a screen shows beside the lists: pages in the print environment, QR codes, odds grids as page data.

A page is rendered by the same Jinja environment, filters and escaping as a printed roster, so a
user's template folder overrides a page's templates as it overrides print's. Only the web builder
uses these actions, and each of its pages needs Jinja: the print environment is imported at the top
(the print layouts are not: most pages need none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from listbuilder.army.report import Report
from listbuilder.errors import ListbuilderError
from listbuilder.printing.html import environment, render_template, stylesheet
from listbuilder.printing.html import font_files as files
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.words import choose

if TYPE_CHECKING:
    from listbuilder.printing.pages import Card

# start-up: the print layouts (printing.pages) load with the first card or unit's rules, not with
# every page (the lists page, the first that serve shows, needs none)


def qr_svg(text: str, title: str = "") -> str:
    """A QR code of ``text`` as an SVG element (for an opponent to scan a list from a screen or paper)."""
    # start-up: the QR encoder (segno) loads only for a QR code, not for every page
    from listbuilder.share.qr import svg

    return svg(text, title)


def card_page(system: System) -> Card:
    """A rule set's rules card as page data (what the ``_card.html`` template shows)."""
    from listbuilder.printing.pages import card  # start-up: see above

    return card(system)


def unit_rules(system: System, unit: Unit) -> tuple[Any, ...]:
    """The rules ``unit``'s stats call for, as the printed reference sheet gives them (its tables,
    special rules and what its traits and weapons mean), as blocks that ``_block.html`` shows."""
    from listbuilder.printing.pages import used_rules  # start-up: see above

    return tuple(used_rules(system, [unit], own=True)[3])


def odds_grid(a: Report, b: Report) -> dict[str, Any] | None:
    """The odds of each unit of ``a`` attacking each of ``b`` as the printed reference sheet shows
    them (``_matrix.html``); ``None`` when the lists are of different rule sets, one is empty, or
    the rule set has no odds."""
    if a.system.id != b.system.id or not a.lines or not b.lines:
        return None
    # start-up: the odds package loads only for a page that shows odds, not for every page
    from listbuilder.odds.ask import matrix_view

    try:
        return matrix_view(a.system, a, b)
    except ListbuilderError:
        return None


def render_page(name: str, context: Mapping[str, Any], templates: Path | None = None) -> str:
    """Render template ``name`` (say ``web/list.html``) in the same Jinja environment, filters and
    escaping as printed rosters; a user's template folder overrides the built-in templates."""
    return render_template(name, dict(context), templates)


def prepare_pages(names: Sequence[str], templates: Path | None = None) -> None:
    """Compile the templates ``names`` now (a server does it while it starts, not on its first page)."""
    env = environment(templates)
    for name in names:
        env.get_template(name)


def page_stylesheet(paper: str = "a4", templates: Path | None = None) -> str:
    """The print stylesheet, for a page that shows a printed sheet (a rules card) on screen."""
    return stylesheet(choose("paper size", paper, ("a4", "letter")), templates)


def font_files() -> tuple[Path, ...]:
    """The font files the printed sheets use, for a page to show them in the same type."""
    return tuple(files())

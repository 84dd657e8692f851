"""Lay out rosters, reference sheets and rules cards as one self-contained HTML document.

Templates are Jinja: a built-in folder, searched after the user's own folder (``--templates``),
so a group can restyle any piece by copying it. Autoescape is on and undefined names are
errors. Fonts and the stylesheet are inlined, so the HTML prints the same from a browser, and
the PDF writer (``pdf.py``) needs to fetch nothing.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import jinja2

from listbuilder import __version__
from listbuilder.errors import InputError
from listbuilder.printing import budget
from listbuilder.printing.templatecache import template_cache
from listbuilder.printing.templating import TextLoader, render_trusted
from listbuilder.rules.catalog import shipped_root

if TYPE_CHECKING:  # the layouts are handed in: the web's pages render here without them
    from listbuilder.printing.pages import Card, ReferenceSheet, Roster

Paper = Literal["a4", "letter"]
PAPER_SIZES: dict[str, str] = {"a4": "A4", "letter": "Letter"}
FONTS = {
    # family, weight, style, file
    ("Cabin", 400, "normal"): "Cabin-Regular.otf",
    ("Cabin", 400, "italic"): "Cabin-Italic.otf",
    ("Cabin", 700, "normal"): "Cabin-Bold.otf",
    ("Bebas Neue", 400, "normal"): "BebasNeue-Regular.otf",
}


def builtin_templates() -> Path:
    """The templates that come with listbuilder (inside the package once installed)."""
    return shipped_root().parent / "templates"


def font_files() -> list[Path]:
    """The shipped font files: the only files a PDF render may read."""
    folder = builtin_templates() / "fonts"
    return [folder / file for file in FONTS.values()]


@cache
def font_faces(embed: bool) -> str:
    """``@font-face`` rules for the shipped fonts: inlined as data (for a self-contained HTML
    file), or as file URLs for the PDF writer, which reads them faster than it parses data URLs."""
    folder = builtin_templates() / "fonts"
    faces = []
    for (family, weight, style), file in FONTS.items():
        path = folder / file
        if embed:
            url = "data:font/otf;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
        else:
            url = path.resolve().as_uri()
        faces.append(
            f"@font-face {{ font-family: '{family}'; font-weight: {weight}; font-style: {style}; "
            f"src: url({url}) format('opentype'); }}"
        )
    return "\n".join(faces)


@lru_cache(maxsize=16)  # per template folder; bounded, for a server that is handed many
def environment(user_templates: Path | None = None) -> jinja2.Environment:
    """The Jinja environment for a template folder: the user's templates first, then the built-in ones.

    The built-in templates alone are listbuilder's own code: a plain environment renders them.
    With a user's folder every template renders in the sandbox, within a budget of work
    (``budget.py``), the built-in ones too (they include the user's pieces, and the user's theirs).
    Cached per template folder, so a process that renders many documents compiles each
    template once (Jinja still notices a template file that changes on disk), and compiled
    templates are kept between processes (``templatecache.py``)."""
    options: dict[str, Any] = {
        "autoescape": True,
        "undefined": jinja2.StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }
    if user_templates is None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(builtin_templates())),
            # compiled templates kept between runs, in a folder private to the user (templatecache.py)
            bytecode_cache=template_cache(Path(__file__), kind="trusted"),
            **options,
        )
    else:
        if not user_templates.is_dir():
            raise InputError.detailed(
                "no such template folder", "a template folder holds .html and .css files", file=user_templates
            )
        env = budget.BudgetedEnvironment(  # the sandbox, within a budget of work (budget.py)
            loader=TextLoader([str(user_templates), str(builtin_templates())]),
            # budget.py too: the checks it makes are compiled into the templates as calls
            bytecode_cache=template_cache(Path(__file__), Path(budget.__file__), kind="budgeted"),
            **options,
        )
    env.filters["number"] = lambda n: f"{n:,}"
    env.filters["amount_unit"] = lambda n, measure: measure.of(n)
    # "units[3] Old Mother" is for terminals and JSON; on paper the name is enough.
    env.filters["plain"] = lambda entry: re.sub(r"units\[\d+\] ", "", entry or "")
    return env


def stylesheet(paper: Paper = "a4", user_templates: Path | None = None) -> str:
    """The print stylesheet (``print.css``, the user's if they have one) for a paper size."""
    return _render(environment(user_templates), "print.css", {"paper": PAPER_SIZES[paper]})


def render_document(
    *,
    rosters: Sequence[Roster] = (),
    references: Sequence[ReferenceSheet] = (),
    cards: Sequence[Card] = (),
    books: Sequence[Any] = (),
    covers: Sequence[Any] = (),
    title: str,
    paper: Paper = "a4",
    user_templates: Path | None = None,
    standalone: bool = True,
) -> str:
    """The HTML of a document holding covers (an event's pack), rosters, then reference sheets, then
    rules cards, then books.

    ``standalone`` inlines the stylesheet and fonts, so the file prints alone from a browser.
    Otherwise the PDF writer applies ``stylesheet()`` itself, parsed once per process.
    """
    env = environment(user_templates)
    context: dict[str, Any] = {
        "title": title,
        "rosters": rosters,
        "references": references,
        "cards": cards,
        "books": books,
        "covers": covers,
        "style": font_faces(embed=True) + "\n" + stylesheet(paper, user_templates) if standalone else "",
        "version": __version__,
    }
    return _render(env, "document.html", context)


def render_template(name: str, context: dict[str, Any], user_templates: Path | None = None) -> str:
    """Render any template of the environment (``web/list.html``...) with ``context``."""
    return _render(environment(user_templates), name, {"version": __version__, **context})


def _render(env: jinja2.Environment, name: str, context: dict[str, Any]) -> str:
    if type(env) is jinja2.Environment:  # the built-in templates alone (environment())
        return render_trusted(env, name, context)
    return budget.render(env, name, context)

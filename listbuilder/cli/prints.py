"""Commands that print: render (rosters and reference sheets) and card (rules cards)."""

from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption, OutputOption, PaperOption, TemplatesOption
from listbuilder.cli.output import fail, say
from listbuilder.errors import ListbuilderError, shown


@command("render")
def render(
    files: Annotated[list[Path], typer.Argument(help="List files to print.", show_default=False)],
    output: OutputOption = None,
    paper: PaperOption = "a4",
    only: Annotated[
        str | None,
        typer.Option("--only", help="Print only the roster or only the reference sheet.", show_default=False),
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Refuse to print a list that breaks a rule (or warns).")
    ] = False,
    templates: TemplatesOption = None,
    vs: Annotated[
        Path | None,
        typer.Option(
            "--vs",
            help="An opponent's list: add the odds of each of your units attacking each of theirs.",
            show_default=False,
        ),
    ] = None,
    qr: Annotated[
        bool,
        typer.Option("--qr", help="Put a QR code of the list's text export on each roster, for scanning."),
    ] = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Print lists: a roster for each, then a reference sheet of the rules their units use.

    The format follows the output name (.pdf or .html); by default each list is written
    beside itself as NAME.pdf. Several lists with -o go into one document. A list that breaks
    a rule is still printed, under a NOT LEGAL banner, unless --strict.

    Example: listbuilder render examples/might-skirmish-zombie-family.legal.yaml -o roster.pdf
    """
    from listbuilder.api import (
        printing,  # the print stack (Jinja, WeasyPrint): only printing loads it
        rulesets,  # the engine loads only when a command runs: --version and --help stay light
    )

    try:
        written = printing.render_files(
            files,
            rulesets.open_catalogs(catalogs),
            output=output,
            paper=paper,
            only=only,
            strict=strict,
            templates=templates,
            vs=vs,
            qr=qr,
        )
    except ListbuilderError as exc:
        fail(exc)
    for w in written:
        say(f"wrote {shown(w.path)}")
        for name in w.illegal:
            say(f"note: {name} is not legal; its roster says so under a NOT LEGAL banner", err=True)
        for name in w.unsized:
            say(f"note: {name} has no size agreed; its roster says so under a banner", err=True)


@command("card")
def card(
    system: Annotated[str, typer.Argument(help="The rule set id, e.g. might-skirmish.", show_default=False)],
    output: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Print the quick-reference rules card of a rule set (default: SYSTEM-card.pdf here).

    Example: listbuilder card deathmelt -o deathmelt-card.pdf --paper letter
    """
    from listbuilder.api import (
        printing,  # the print stack (Jinja, WeasyPrint): only printing loads it
        rulesets,  # the engine loads only when a command runs: --version and --help stay light
    )

    try:
        rules = rulesets.open_catalogs(catalogs).get(system)
        written = printing.render_card_file(rules, output=output, paper=paper, templates=templates)
    except ListbuilderError as exc:
        fail(exc)
    say(f"wrote {shown(written.path)}")

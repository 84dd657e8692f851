"""Commands that print: render (rosters and reference sheets) and card (rules cards)."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption, OutputOption, PaperOption, TemplatesOption
from listbuilder.cli.output import fail, say
from listbuilder.errors import InputError, ListbuilderError, shown

if TYPE_CHECKING:
    from listbuilder.api.printing import Written
    from listbuilder.api.rulesets import Catalogs


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
        list[Path] | None,
        typer.Option(
            "--vs",
            help=(
                "An opponent's list: add the odds of each of your units attacking each of theirs "
                "(a pocket copy takes several --vs)."
            ),
            show_default=False,
        ),
    ] = None,
    pocket: Annotated[
        bool,
        typer.Option(
            "--pocket",
            help=(
                "Write a pocket copy: one HTML file with the roster, the rules, the odds and a game "
                "tracker, that works offline on a phone (default: NAME.html beside the list)."
            ),
        ),
    ] = False,
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

    Example: listbuilder render MY.yaml --pocket -o my-list.html --vs THEIRS.yaml
    """
    from listbuilder.api import (
        printing,  # the print stack (Jinja, WeasyPrint): only printing loads it
        rulesets,  # the engine loads only when a command runs: --version and --help stay light
    )

    opponents = vs or []
    written: tuple[Written, ...]
    try:
        if pocket:
            written = (
                _pocket(files, rulesets.open_catalogs(catalogs), output, opponents, only, qr, strict, templates),
            )
        else:
            if len(opponents) > 1:
                raise InputError.detailed(
                    f"a printed list takes one opponent's list, found {len(opponents)} --vs",
                    "give one --vs, or make a pocket copy (--pocket), which takes several",
                )
            written = printing.render_files(
                files,
                rulesets.open_catalogs(catalogs),
                output=output,
                paper=paper,
                only=only,
                strict=strict,
                templates=templates,
                vs=opponents[0] if opponents else None,
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


def _pocket(
    files: list[Path],
    catalogs: "Catalogs",
    output: Path | None,
    vs: list[Path],
    only: str | None,
    qr: bool,
    strict: bool,
    templates: Path | None,
) -> "Written":
    """A pocket copy of one list: the print options that do not apply are refused by name."""
    from listbuilder.api import printing

    unused = [
        name
        for name, given in (("--only", only), ("--qr", qr), ("--strict", strict), ("--templates", templates))
        if given
    ]
    if unused:
        raise InputError.detailed(
            f"a pocket copy does not take {', '.join(unused)}",
            "leave them out: a pocket copy holds the roster and the rules, with or without a rule broken",
        )
    if len(files) != 1:
        raise InputError.detailed(
            f"a pocket copy holds one list, found {len(files)}", "make one pocket copy for each list"
        )
    return printing.render_pocket_file(files[0], catalogs, output=output, vs=vs)


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

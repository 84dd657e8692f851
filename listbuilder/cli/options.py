"""What the commands share: their common options, and how they report a failure."""

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from listbuilder.errors import ListbuilderError

CatalogsOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalogs",
        help="A folder of your own rule sets or factions, used beside the shipped ones "
        "(repeatable; also read from LISTBUILDER_CATALOGS, separated by ':', or ';' on Windows).",
        show_default=False,
    ),
]


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for machines instead of text.")]
StrictOption = Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")]


PaperOption = Annotated[str, typer.Option("--paper", help="Paper size: a4 or letter.", case_sensitive=False)]
TemplatesOption = Annotated[
    Path | None,
    typer.Option(
        "--templates",
        envvar="LISTBUILDER_TEMPLATES",
        help="A folder of your own templates (base.html, _unit.html, print.css...), used before the built-in ones.",
        show_default=False,
    ),
]
OutputOption = Annotated[
    Path | None, typer.Option("-o", "--output", help="The file to write: NAME.pdf or NAME.html.", show_default=False)
]


def to_json(data: object) -> str:
    # start-up: not at the top: --help loads this module and never prints JSON (~4 ms)
    import json

    return json.dumps(data, default=list)


def say(text: str, err: bool = False, nl: bool = True) -> None:
    """Print to the terminal, every character that would steer it (from a name in a list file,
    say) shown as its escape: a list cannot set the window title or clear the screen."""
    from listbuilder.cli.views import visible  # not at the top: the views (and the API) load only with output

    typer.echo(visible(text), err=err, nl=nl)


def fail(exc: ListbuilderError) -> NoReturn:
    say(f"error: {render(exc)}", err=True)
    raise typer.Exit(exc.exit_code)


def render(exc: ListbuilderError) -> str:
    """An error as the terminal shows it: the library's message with the commands that help."""
    from listbuilder.cli.views import command_hint  # as say() does: views load only with output

    return exc.render(command_hint)

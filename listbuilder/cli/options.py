"""The options that several commands share (how they print and fail: ``output.py``)."""

from pathlib import Path
from typing import Annotated

import typer

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

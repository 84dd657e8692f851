"""The list doctor's commands: fix (the smallest change to a legal list) and fill (what to add)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from listbuilder.cli import views
from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption, JsonOption
from listbuilder.cli.output import fail, say, to_json
from listbuilder.errors import EXIT_OK, EXIT_RULES_BROKEN, InputError, ListbuilderError

if TYPE_CHECKING:
    from listbuilder.api import rulesets
    from listbuilder.api.doctor import DoctorAnswer

ApplyOption = Annotated[
    bool, typer.Option("--apply", help="Carry out the first suggestion in the list file, keeping its comments.")
]
WriteOption = Annotated[
    Path | None,
    typer.Option(
        "-o", "--output", help="Write the list with the first suggestion carried out to this file.", show_default=False
    ),
]


def _finish(
    file: Path, answer: DoctorAnswer, as_json: bool, apply: bool, output: Path | None, books: rulesets.Catalogs
) -> None:
    from listbuilder.api import doctor  # the solver's stack: only a doctor's command loads it

    suggestions = answer.suggestions
    result = None
    if (apply or output is not None) and suggestions:
        result = doctor.apply_suggestion(file, books, suggestions[0], output)
    if as_json:
        data = answer.as_json()
        if apply or output is not None:  # say what was written, and where
            written = output if output is not None else file
            data["applied"] = (
                None if result is None else {"suggestion": 1, "file": str(written), "changed": result.changed}
            )
        say(to_json(data))
    else:
        say(views.doctor(answer))
        if result is not None and output is not None:
            say(f"wrote {output}: suggestion 1 carried out")
        elif result is not None:
            say(views.edited(result, "suggestion 1 carried out"))
    raise typer.Exit(EXIT_OK if answer.ok else EXIT_RULES_BROKEN)


def _one_target(apply: bool, output: Path | None) -> None:
    if apply and output is not None:
        raise InputError.detailed(
            "--apply and -o cannot be used together", "--apply edits the list in place; -o writes the result elsewhere"
        )


@command("fix")
def fix(
    file: Annotated[Path, typer.Argument(help="The list file to fix.", show_default=False)],
    as_json: JsonOption = False,
    apply: ApplyOption = False,
    output: WriteOption = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Suggest the smallest changes that make a list legal: up to three, best first.

    Each suggestion adds or removes the fewest models (ties: the total closest to the limit);
    a custom statline that breaks its own rules gets its nearest legal statlines. Exit 0 when
    there is a suggestion or nothing to fix, 1 when no legal list is within reach.

    Example: listbuilder fix examples/might-skirmish-monster-mash.illegal.yaml --apply
    """
    from listbuilder.api import (
        doctor,  # the solver's stack: only the doctor's commands load it
        rulesets,  # the engine loads only when a command runs: --version and --help stay light
    )

    try:
        _one_target(apply, output)
        books = rulesets.open_catalogs(catalogs)
        _finish(file, doctor.fix_list(file, books), as_json, apply, output, books)
    except ListbuilderError as exc:
        fail(exc)


@command("fill")
def fill(
    file: Annotated[Path, typer.Argument(help="The legal list file to fill.", show_default=False)],
    to: Annotated[
        int | None, typer.Option("--to", help="Fill to this total instead of the limit.", show_default=False)
    ] = None,
    faction: Annotated[
        str | None, typer.Option("--faction", help="Add units of this faction only.", show_default=False)
    ] = None,
    as_json: JsonOption = False,
    apply: ApplyOption = False,
    output: WriteOption = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Suggest what to add to a legal list to bring it closest to its limit: up to three, best first.

    Additions come from the list's factions (or --faction) and keep it legal; fewest models
    first on ties. Exit 0 when there is a suggestion or nothing fits, 1 when the list is not legal.

    Example: listbuilder fill examples/speed-range-power-camel-corps.legal.yaml --to 450
    """
    from listbuilder.api import (
        doctor,  # the solver's stack: only the doctor's commands load it
        rulesets,  # the engine loads only when a command runs: --version and --help stay light
    )

    try:
        _one_target(apply, output)
        books = rulesets.open_catalogs(catalogs)
        _finish(file, doctor.fill_list(file, books, to, faction), as_json, apply, output, books)
    except ListbuilderError as exc:
        fail(exc)

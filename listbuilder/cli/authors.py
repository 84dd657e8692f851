"""Commands for rule-set authors: check-catalog, reprice and book."""

from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli import views
from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption, JsonOption, OutputOption, PaperOption, TemplatesOption
from listbuilder.cli.output import fail, say, to_json
from listbuilder.errors import EXIT_OK, EXIT_RULES_BROKEN, ErrorDetail, InputError, ListbuilderError


@command("check-catalog")
def check_catalog(
    folder: Annotated[Path, typer.Argument(help="A rule set or faction folder, e.g. catalogs/might-skirmish.")],
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Check a rule set or faction folder as strictly as the loader does, then run its tests.

    Every FOLDER/tests/legal/*.yaml must be legal, every FOLDER/tests/illegal/*.yaml must break
    exactly the rules (by id) its 'expect:' key names, and every FOLDER/tests/costs.yaml entry
    must price as written. Exit 0 when all pass, 1 when one fails, 2 when the folder is broken.

    Example: listbuilder check-catalog catalogs/speed-range-power
    """
    from listbuilder.api import authoring  # with the print stack (a book): only an author's command loads it

    try:
        check = authoring.check_catalog(folder, catalogs)
    except ListbuilderError as exc:
        fail(exc)
    say(to_json(check.as_json()) if as_json else views.catalog_check(check))
    raise typer.Exit(EXIT_OK if check.ok else EXIT_RULES_BROKEN)


@command("reprice")
def reprice(
    folders: Annotated[
        list[Path],
        typer.Argument(help="OLD NEW (two rule set folders), or FOLDER with --rev; then lists or folders of lists."),
    ],
    rev: Annotated[
        str | None, typer.Option("--rev", help="Compare FOLDER with itself at this git revision, e.g. HEAD~1.")
    ] = None,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Show what a points change does: each unit's cost before and after, and each list's verdict.

    Give two versions of a rule set, as two folders (OLD NEW) or as one folder and a git
    revision of it (FOLDER --rev REV), then any list files or folders of lists to judge.

    Example: listbuilder reprice catalogs/speed-range-power --rev HEAD~1 examples/
    """
    from listbuilder.api import authoring  # with the print stack (a book): only an author's command loads it

    count = 1 if rev is not None else 2
    if len(folders) < count:
        usage = "listbuilder reprice OLD NEW [LISTS...], or reprice FOLDER --rev REV [LISTS...]"
        fail(
            InputError(
                "a repricing needs two versions of a rule set",
                details=[
                    ErrorDetail(
                        message="give two rule set folders, old and new, or one folder and a git revision of it"
                    ),
                    ErrorDetail(message=usage),
                ],
            )
        )
    try:
        result = authoring.reprice(
            folders[0],
            None if rev is not None else folders[1],
            rev=rev,
            lists=folders[count:],
            dirs=catalogs,
        )
    except ListbuilderError as exc:
        fail(exc)
    say(to_json(result.as_json()) if as_json else views.repricing(result))


@command("book")
def book(
    system: Annotated[str, typer.Argument(help="The rule set id, e.g. might-skirmish.", show_default=False)],
    faction: Annotated[
        str | None, typer.Option("--faction", help="Print only this faction (default: every faction).")
    ] = None,
    output: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Print a faction book: every unit with its stats, cost and what the rules derive from them.

    Units are grouped as the rule set's groups say (basic, special, rare...), with the rules
    card's core tables at the back. The format follows the output name (.pdf or .html); by
    default SYSTEM-FACTION-book.pdf here.

    Example: listbuilder book might-skirmish --faction "Zombie Family" -o zombies.pdf
    """
    from listbuilder.api import (
        authoring,  # with the print stack (a book): only an author's command loads it
        rulesets,  # the engine loads only when a command runs: --version and --help stay light
    )

    try:
        written = authoring.render_book_file(
            rulesets.open_catalogs(catalogs), system, faction=faction, output=output, paper=paper, templates=templates
        )
    except ListbuilderError as exc:
        fail(exc)
    say(f"wrote {written.path}")

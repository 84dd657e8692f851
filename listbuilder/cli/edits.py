"""Commands that make, edit and share list files: new, add, remove, set, schema, export, import."""

from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli import views
from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption
from listbuilder.cli.output import fail, say
from listbuilder.errors import InputError, ListbuilderError


@command("new")
def new(
    system: Annotated[str, typer.Argument(help="The rule set id, e.g. might-skirmish.", show_default=False)],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="The list file to create (default: from the name).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The list's name.")] = None,
    points: Annotated[
        int | None, typer.Option("--points", help="The points limit (for rule sets that count points).")
    ] = None,
    figures: Annotated[
        int | None,
        typer.Option(
            "--figures",
            help="The figures limit (for rule sets that count figures; needed where there is no standard game).",
        ),
    ] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Start a list file, with a header and the line that lets editors complete and check it.

    A rule set with no standard game (deathmelt, deathzap, melee-module) needs the size agreed with
    your opponent, --figures N; the others start at their standard game unless given one.
    Refuses to overwrite an existing file. Also writes SYSTEM.schema.json beside the list (if it
    is not there yet): the JSON Schema that the list's first line points editors to.

    Example: listbuilder new might-skirmish --name "Zombie Family" -o zombies.yaml
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        editing,
        rulesets,
    )

    try:
        limit, measure = limit_option(points, figures)
        written = editing.create_list(rulesets.open_catalogs(catalogs), system, output, name, limit, measure)
    except ListbuilderError as exc:
        fail(exc)
    for path in written:
        say(f"wrote {path}")


def limit_option(points: int | None, figures: int | None) -> tuple[int | None, str | None]:
    """The limit a user gave as ``--points`` or ``--figures``, and which of the two it was."""
    if points is not None and figures is not None:
        raise InputError.detailed("give the limit in points or in figures, not both", "a list has one limit")
    if points is not None:
        return points, "points"
    return (figures, "figures") if figures is not None else (None, None)


@command("add")
def add(
    file: Annotated[Path, typer.Argument(help="The list file to edit.", show_default=False)],
    unit: Annotated[str, typer.Argument(help="A catalog unit (or a custom unit of the list).", show_default=False)],
    count: Annotated[int, typer.Option("--count", "-n", help="How many to add.")] = 1,
    catalogs: CatalogsOption = None,
) -> None:
    """Add a unit to a list, in place, keeping everything else in the file as it was.

    Example: listbuilder add zombies.yaml Hunter --count 2
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        editing,
        rulesets,
    )

    try:
        result = editing.apply_change(file, rulesets.open_catalogs(catalogs), editing.AddUnit(unit=unit, count=count))
        say(views.edited(result, result.done))
    except ListbuilderError as exc:
        fail(exc)


@command("update")
def update(
    file: Annotated[Path, typer.Argument(help="The list file to bring up to date.", show_default=False)],
    keep_retired: Annotated[
        bool,
        typer.Option("--keep-retired", help="Write each retired unit into the list as its own, with its last stats."),
    ] = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Bring a list up to its catalogs, in place: units named by a former name take their current
    name (the total does not change), and retired units are replaced by the unit their catalog
    names in their place (or, with --keep-retired, written into the list as its own units, at the
    same cost). Everything else in the file stays as it was.

    Example: listbuilder update zombies.yaml
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        editing,
        rulesets,
    )

    try:
        result = editing.apply_change(
            file, rulesets.open_catalogs(catalogs), editing.UpdateUnits(keep_retired=keep_retired)
        )
        say(views.edited(result, result.done))
    except ListbuilderError as exc:
        fail(exc)


@command("remove")
def remove(
    file: Annotated[Path, typer.Argument(help="The list file to edit.", show_default=False)],
    unit: Annotated[str, typer.Argument(help="The unit to take out.", show_default=False)],
    count: Annotated[
        int | None, typer.Option("--count", "-n", help="How many to take out (default: all of them).")
    ] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Take a unit out of a list, in place, keeping everything else in the file as it was.

    Example: listbuilder remove zombies.yaml Shambler --count 1
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        editing,
        rulesets,
    )

    try:
        result = editing.apply_change(
            file, rulesets.open_catalogs(catalogs), editing.RemoveUnit(unit=unit, count=count)
        )
        took_many = count is None and not result.done.endswith(" 1 in all")
        say(views.edited(result, result.done + (" (--count 1 takes out one)" if took_many else "")))
    except ListbuilderError as exc:
        fail(exc)


@command("set", ignore_unknown_options=True)  # so 'set FILE points -5' is a value
def set_(
    file: Annotated[Path, typer.Argument(help="The list file to edit.", show_default=False)],
    key: Annotated[str, typer.Argument(help="name, or the limit: points (figures for figure-counted rule sets).")],
    value: Annotated[str, typer.Argument(help="The new value.", show_default=False)],
    catalogs: CatalogsOption = None,
) -> None:
    """Set a list's name or its points (or figures) limit, in place.

    Example: listbuilder set zombies.yaml points 150
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        editing,
        rulesets,
    )

    try:
        result = editing.apply_change(file, rulesets.open_catalogs(catalogs), editing.SetField(key=key, value=value))
        say(views.edited(result, result.done))
    except ListbuilderError as exc:
        fail(exc)


@command("schema")
def schema(
    system: Annotated[
        str | None, typer.Argument(help="A rule set id (default: one schema for every rule set).")
    ] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write it to this file.")] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Write the JSON Schema of list files, for editors (VS Code's YAML extension and others).

    A list whose first line is '# yaml-language-server: $schema=FILE' is then completed and
    checked as it is typed.

    Example: listbuilder schema might-skirmish -o might-skirmish.schema.json
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        files,
        rulesets,
        sharing,
    )

    try:
        books = rulesets.open_catalogs(catalogs)
        text = sharing.editor_schema(books, system)
        if output is None:
            say(text, nl=False)
        else:
            files.write_file(output, text.encode("utf-8"), catalogs=books)
            say(f"wrote {output}")
    except ListbuilderError as exc:
        fail(exc)


@command("export")
def export(
    file: Annotated[Path, typer.Argument(help="The list file.", show_default=False)],
    format: Annotated[
        str, typer.Option("--format", "-f", help="text, markdown or json (for sharing), or yaml (a list file).")
    ] = "text",
    embed: Annotated[
        bool,
        typer.Option(
            "--embed", help="With --format yaml: write every catalog unit out in full, so the list needs no catalog."
        ),
    ] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write it to this file.")] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Write a short version of a list for a forum post or a chat message, or a self-contained list.

    'listbuilder import' reads the text, markdown and json versions back, exactly.

    Example: listbuilder export zombies.yaml --format markdown
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        files,
        lists,
        rulesets,
        sharing,
    )

    try:
        books = rulesets.open_catalogs(catalogs)
        text = sharing.export_list(lists.check_list(file, books), format, embed=embed)
        if output is None:
            say(text, nl=not text.endswith("\n"))
        else:
            files.write_file(output, text.encode("utf-8"), inputs=[file], catalogs=books)
            say(f"wrote {output}")
    except ListbuilderError as exc:
        fail(exc)


@command("import")
def import_(
    file: Annotated[
        Path, typer.Argument(help="A list exported as text, markdown or json, or typed by hand.", show_default=False)
    ],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="The list file to write (default: print it).")
    ] = None,
    system: Annotated[
        str | None,
        typer.Option(
            "--system", help="The rule set of a list typed by hand (its text names none).", show_default=False
        ),
    ] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Read a list exported as text, markdown or json (say, from a forum post), or typed by hand
    ('2x Hunter', 'Shambler x4 - 20 pts', one unit a line), back into a list file.

    Example: listbuilder import forum-post.txt -o zombies.yaml
    Example: listbuilder import my-list.txt --system might-skirmish
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        files,
        rulesets,
        sharing,
    )

    try:
        books = rulesets.open_catalogs(catalogs)
        imported = sharing.import_file(file, books, system)
        for note in imported.notes:
            say(f"note: {file}: {note}", err=True)
        text = imported.text
        if output is None:
            say(text, nl=False)
        else:
            files.write_file(output, text.encode("utf-8"), inputs=[file], catalogs=books, overwrite=False)
            say(f"wrote {output}")
    except ListbuilderError as exc:
        fail(exc)

"""Commands that make, edit and share list files: new, add, remove, set, schema, export, import."""

from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli.options import (
    CatalogsOption,
    fail,
)
from listbuilder.errors import ErrorDetail, InputError, ListbuilderError
from listbuilder.yamlfile import write_output


def _edited(result: object, done: str) -> None:
    """Print what an edit did and left: the change, then the list's new total and verdict."""
    from listbuilder.army import present

    changed = result.changed  # type: ignore[attr-defined]
    typer.echo(f"{result.path}: {done if changed else 'unchanged'}")  # type: ignore[attr-defined]
    typer.echo(present.validation(result.report))  # type: ignore[attr-defined]


def new(
    system: Annotated[str, typer.Argument(help="The rule set id, e.g. might-skirmish.", show_default=False)],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="The list file to create (default: from the name).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The list's name.")] = None,
    points: Annotated[
        int | None, typer.Option("--points", "--figures", help="The limit, in the rule set's points or figures.")
    ] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Start a list file, with a header and the line that lets editors complete and check it.

    Refuses to overwrite an existing file. Also writes SYSTEM.schema.json beside the list (if it
    is not there yet): the JSON Schema that the list's first line points editors to.

    Example: listbuilder new might-skirmish --name "Zombie Family" -o zombies.yaml
    """
    from listbuilder.api import create_list, open_catalogs

    try:
        written = create_list(open_catalogs(catalogs), system, output, name, points)
    except ListbuilderError as exc:
        fail(exc)
    for path in written:
        typer.echo(f"wrote {path}")


def add(
    file: Annotated[Path, typer.Argument(help="The list file to edit.", show_default=False)],
    unit: Annotated[str, typer.Argument(help="A catalog unit (or a custom unit of the list).", show_default=False)],
    count: Annotated[int, typer.Option("--count", "-n", help="How many to add.")] = 1,
    catalogs: CatalogsOption = None,
) -> None:
    """Add a unit to a list, in place, keeping everything else in the file as it was.

    Example: listbuilder add zombies.yaml Hunter --count 2
    """
    from listbuilder.api import open_catalogs
    from listbuilder.share.editing import add_unit

    try:
        _edited(add_unit(file, open_catalogs(catalogs), unit, count), f"added {count} {unit}")
    except ListbuilderError as exc:
        fail(exc)


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
    from listbuilder.api import open_catalogs
    from listbuilder.share.editing import remove_unit

    try:
        what = f"removed {count} {unit}" if count is not None else f"removed every {unit}"
        _edited(remove_unit(file, open_catalogs(catalogs), unit, count), what)
    except ListbuilderError as exc:
        fail(exc)


def set_(
    file: Annotated[Path, typer.Argument(help="The list file to edit.", show_default=False)],
    key: Annotated[str, typer.Argument(help="name, or the limit: points (figures for figure-counted rule sets).")],
    value: Annotated[str, typer.Argument(help="The new value.", show_default=False)],
    catalogs: CatalogsOption = None,
) -> None:
    """Set a list's name or its points (or figures) limit, in place.

    Example: listbuilder set zombies.yaml points 150
    """
    from listbuilder.api import open_catalogs
    from listbuilder.share.editing import set_key

    try:
        _edited(set_key(file, open_catalogs(catalogs), key, value), f"{key} set to {value}")
    except ListbuilderError as exc:
        fail(exc)


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
    from listbuilder.api import open_catalogs
    from listbuilder.share.editorschema import all_lists_schema, list_schema, schema_text

    try:
        books = open_catalogs(catalogs)
        text = schema_text(list_schema(books.get(system)) if system else all_lists_schema(books))
        if output is None:
            typer.echo(text, nl=False)
        else:
            write_output(output, text.encode("utf-8"))
            typer.echo(f"wrote {output}")
    except ListbuilderError as exc:
        fail(exc)


def export(
    file: Annotated[Path, typer.Argument(help="The list file.", show_default=False)],
    format: Annotated[
        str, typer.Option("--format", "-f", help="text, markdown or json (for sharing), or yaml (a list file).")
    ] = "text",
    embed: Annotated[
        bool, typer.Option("--embed", help="With --format yaml: write every catalog unit out in full.")
    ] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write it to this file.")] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Write a short version of a list for a forum post or a chat message, or a self-contained list.

    'listbuilder import' reads the text, markdown and json versions back, exactly.

    Example: listbuilder export zombies.yaml --format markdown
    """
    from listbuilder.api import check_list, open_catalogs
    from listbuilder.share.exchange import embed as embedded
    from listbuilder.share.exchange import export_json, export_markdown, export_text

    writers = {"text": export_text, "markdown": export_markdown, "json": export_json, "yaml": embedded}
    try:
        if format not in writers:
            raise InputError(
                f"unknown format '{format}'", details=[ErrorDetail(message="use text, markdown, json or yaml")]
            )
        if (format == "yaml") != embed:
            raise InputError(
                "--embed goes with --format yaml", details=[ErrorDetail(message="export FILE --format yaml --embed")]
            )
        text = writers[format](check_list(file, open_catalogs(catalogs)))
        if output is None:
            typer.echo(text, nl=not text.endswith("\n"))
        else:
            write_output(output, text.encode("utf-8"), inputs=[file])
            typer.echo(f"wrote {output}")
    except ListbuilderError as exc:
        fail(exc)


def import_(
    file: Annotated[Path, typer.Argument(help="A list exported as text, markdown or json.", show_default=False)],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="The list file to write (default: print it).")
    ] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """Read a list exported as text, markdown or json (say, from a forum post) back into a list file.

    Example: listbuilder import forum-post.txt -o zombies.yaml
    """
    from listbuilder.api import open_catalogs
    from listbuilder.share.exchange import import_text
    from listbuilder.yamlfile import read_text, write_output

    try:
        text = import_text(read_text(file, "exported list"), file, open_catalogs(catalogs))
        if output is None:
            typer.echo(text, nl=False)
        else:
            write_output(output, text.encode("utf-8"), inputs=[file], overwrite=False)
            typer.echo(f"wrote {output}")
    except ListbuilderError as exc:
        fail(exc)

"""The ``listbuilder`` command. Each command parses options, calls the library and prints.

Exit codes (the same for every command):
  0  every list is legal (warnings allowed unless --strict)
  1  a list breaks a rule of its rule set
  2  a file or option cannot be read or understood
  3  an output file could not be written (nothing half-written is left)
  4  an internal error: a bug in listbuilder, please report it
"""

import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from . import __version__
from .errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_RULES_BROKEN, ListbuilderError

EXIT_INTERNAL = 4

app = typer.Typer(
    name="listbuilder",
    help="Build, cost and check army lists for small and indie wargames rule sets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

CatalogsOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalogs",
        help="A folder of your own rule sets or factions, used beside the shipped ones "
        "(repeatable; also read from LISTBUILDER_CATALOGS, separated by ':').",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for machines instead of text.")]
StrictOption = Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"listbuilder {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Build, cost and check army lists for small and indie wargames rule sets.

    Example: listbuilder validate examples/might-skirmish-zombie-family.legal.yaml
    """


def _json(data: object) -> str:
    # json is imported here, not at the top: plain-text runs skip its import cost (~4 ms).
    import json

    return json.dumps(data, default=list)


def _fail(exc: ListbuilderError) -> NoReturn:
    typer.echo(f"error: {exc.render()}", err=True)
    raise typer.Exit(exc.exit_code)


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(help="List files to check.", show_default=False)],
    as_json: JsonOption = False,
    strict: StrictOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Check lists against their rule sets and say what breaks which rule.

    Exit 0 when every list is legal, 1 when one breaks a rule, 2 when a file cannot be read.

    Example: listbuilder validate --strict my-warband.yaml
    """
    from . import present
    from .commands import check_list, open_catalogs

    try:
        books = open_catalogs(catalogs)
    except ListbuilderError as exc:
        _fail(exc)
    worst = EXIT_OK
    for path in files:
        try:
            report = check_list(path, books)
        except ListbuilderError as exc:
            worst = max(worst, exc.exit_code)
            if as_json:
                typer.echo(_json({"file": str(path), "legal": False, "error": exc.render()}))
            typer.echo(f"error: {exc.render()}", err=True)
            continue
        if not report.legal(strict):
            worst = max(worst, EXIT_RULES_BROKEN)
        typer.echo(_json(report.as_json(strict)) if as_json else present.validation(report, strict))
    raise typer.Exit(worst)


@app.command()
def points(
    files: Annotated[list[Path], typer.Argument(help="List files to cost.", show_default=False)],
    as_json: JsonOption = False,
    strict: StrictOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Show the cost of each entry and the total against the limit.

    Example: listbuilder points examples/speed-range-power-camel-corps.legal.yaml
    """
    from . import present
    from .commands import check_list, open_catalogs

    worst = EXIT_OK
    try:
        books = open_catalogs(catalogs)
    except ListbuilderError as exc:
        _fail(exc)
    for path in files:
        try:
            report = check_list(path, books)
        except ListbuilderError as exc:
            worst = max(worst, exc.exit_code)
            typer.echo(f"error: {exc.render()}", err=True)
            continue
        if not report.legal(strict):
            worst = max(worst, EXIT_RULES_BROKEN)
        if as_json:
            data = report.as_json(strict)
            data["entries"] = [
                {
                    "index": ln.entry.index,
                    "unit": ln.entry.unit.name,
                    "count": ln.entry.count,
                    "leader": ln.entry.leader,
                    "custom": ln.entry.custom,
                    "each": ln.unit_cost,
                    "cost": ln.cost,
                }
                for ln in report.lines
            ]
            typer.echo(_json(data))
        else:
            typer.echo(present.points(report, strict))
    raise typer.Exit(worst)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def cost(
    ctx: typer.Context,
    system: Annotated[str, typer.Argument(help="The rule set id, e.g. speed-range-power.", show_default=False)],
    unit: Annotated[str | None, typer.Option("--unit", help="Price a catalog unit by name instead.")] = None,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Price a statline by the rule set's own formula and say whether it is legal.

    Give each stat as an option: --STAT VALUE (a list stat takes comma-separated values).
    Exit 0 when the statline is legal, 1 when it breaks a rule, 2 when it cannot be read.

    Example: listbuilder cost speed-range-power --speed 6 --range 24 --power 2
    """
    from . import present
    from .commands import open_catalogs, parse_stat_options, price

    try:
        rules = open_catalogs(catalogs).get(system)
        stats = parse_stat_options(rules, ctx.args)
        result = price(rules, stats, unit)
    except ListbuilderError as exc:
        _fail(exc)
    if as_json:
        typer.echo(
            _json(
                {
                    "system": rules.id,
                    "unit": result.unit.name,
                    "stats": dict(result.unit.stats),
                    "total": result.total,
                    "unit_of_cost": rules.size_unit,
                    "legal": not result.problems,
                    "parts": [
                        {"stat": p.label, "value": str(p.value), "rate": p.rate, "cost": p.points} for p in result.parts
                    ],
                    "problems": [p.as_json() for p in result.problems],
                }
            )
        )
    else:
        typer.echo(present.cost(rules, result.unit, result.parts, result.problems))
    raise typer.Exit(EXIT_RULES_BROKEN if any(p.severity == "error" for p in result.problems) else EXIT_OK)


@app.command()
def systems(catalogs: CatalogsOption = None) -> None:
    """List the rule sets listbuilder knows, shipped and your own.

    Example: listbuilder systems --catalogs ~/wargames/house-rules
    """
    from . import present
    from .commands import open_catalogs

    try:
        typer.echo(present.systems(open_catalogs(catalogs).all()))
    except ListbuilderError as exc:
        _fail(exc)


@app.command()
def catalog(
    system: Annotated[str, typer.Argument(help="The rule set id.", show_default=False)],
    faction: Annotated[str | None, typer.Option("--faction", help="Show only this faction.")] = None,
    catalogs: CatalogsOption = None,
) -> None:
    """List a rule set's ready-made units, with their stats and costs.

    Example: listbuilder catalog might-skirmish --faction "Zombie Family"
    """
    from . import present
    from .commands import open_catalogs

    try:
        rules = open_catalogs(catalogs).get(system)
    except ListbuilderError as exc:
        _fail(exc)
    if faction and faction.lower() not in {f.lower() for f in rules.factions}:
        from .errors import ErrorDetail, InputError, did_you_mean

        hint = did_you_mean(faction, rules.factions) or f"its factions: {', '.join(rules.factions)}"
        _fail(InputError(f"no faction '{faction}' in {system}", details=[ErrorDetail(message=hint)]))
    typer.echo(present.catalog(rules, faction))


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


def _paper(value: str) -> str:
    paper = value.lower()
    if paper not in ("a4", "letter"):
        from .errors import ErrorDetail, InputError

        _fail(
            InputError(
                f"unknown paper size '{value}'", details=[ErrorDetail(message="use --paper a4 or --paper letter")]
            )
        )
    return paper


@app.command()
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
    catalogs: CatalogsOption = None,
) -> None:
    """Print lists: a roster for each, then a reference sheet of the rules their units use.

    The format follows the output name (.pdf or .html); by default each list is written
    beside itself as NAME.pdf. Several lists with -o go into one document. A list that breaks
    a rule is still printed, under a NOT LEGAL banner, unless --strict.

    Example: listbuilder render examples/might-skirmish-zombie-family.legal.yaml -o roster.pdf
    """
    from .commands import open_catalogs
    from .errors import ErrorDetail, InputError
    from .printing import render_lists

    if only is not None and only not in ("roster", "reference"):
        _fail(
            InputError(
                f"unknown --only '{only}'", details=[ErrorDetail(message="use --only roster or --only reference")]
            )
        )
    try:
        written = render_lists(
            files,
            open_catalogs(catalogs),
            output=output,
            paper=_paper(paper),
            only=only,  # type: ignore[arg-type]
            strict=strict,
            templates=templates,
            vs=vs,
        )
    except ListbuilderError as exc:
        _fail(exc)
    for w in written:
        typer.echo(f"wrote {w.path}")
        for name in w.illegal:
            typer.echo(f"note: {name} is not legal; its roster says so under a NOT LEGAL banner", err=True)


@app.command()
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
    from .commands import open_catalogs
    from .printing import render_card

    try:
        written = render_card(
            open_catalogs(catalogs).get(system), output=output, paper=_paper(paper), templates=templates
        )  # type: ignore[arg-type]
    except ListbuilderError as exc:
        _fail(exc)
    typer.echo(f"wrote {written.path}")


@app.command()
def diff(
    files: Annotated[list[str], typer.Argument(help="OLD and NEW list files (or git's seven arguments with --git).")],
    git: Annotated[
        bool, typer.Option("--git", help="Run as git's external diff driver: take git's arguments, always exit 0.")
    ] = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Say what changed between two versions of a list, in game terms.

    Units added and removed, counts and stats changed, the change in points, and the rules the
    change made or stopped breaking. With --git it is a git diff driver: see the README.

    Example: listbuilder diff old/zombies.yaml zombies.yaml
    """
    from .commands import diff_files, git_diff, open_catalogs

    try:
        books = open_catalogs(catalogs)
        if git:
            typer.echo(git_diff(files, books))
            raise typer.Exit(0)
        if len(files) != 2:
            from .errors import ErrorDetail, InputError

            raise InputError("diff takes two list files", details=[ErrorDetail(message="listbuilder diff OLD NEW")])
        typer.echo(diff_files(Path(files[0]), Path(files[1]), books))
    except ListbuilderError as exc:
        if git:  # git stops at a driver that fails; say what went wrong and carry on
            typer.echo(f"listbuilder diff: {exc.render()}")
            raise typer.Exit(0) from None
        _fail(exc)


def _edited(result: object, done: str) -> None:
    """Print what an edit did and left: the change, then the list's new total and verdict."""
    from . import present

    changed = result.changed  # type: ignore[attr-defined]
    typer.echo(f"{result.path}: {done if changed else 'unchanged'}")  # type: ignore[attr-defined]
    typer.echo(present.validation(result.report))  # type: ignore[attr-defined]


@app.command()
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
    from .commands import create_list, open_catalogs

    try:
        written = create_list(open_catalogs(catalogs), system, output, name, points)
    except ListbuilderError as exc:
        _fail(exc)
    for path in written:
        typer.echo(f"wrote {path}")


@app.command()
def add(
    file: Annotated[Path, typer.Argument(help="The list file to edit.", show_default=False)],
    unit: Annotated[str, typer.Argument(help="A catalog unit (or a custom unit of the list).", show_default=False)],
    count: Annotated[int, typer.Option("--count", "-n", help="How many to add.")] = 1,
    catalogs: CatalogsOption = None,
) -> None:
    """Add a unit to a list, in place, keeping everything else in the file as it was.

    Example: listbuilder add zombies.yaml Hunter --count 2
    """
    from .commands import open_catalogs
    from .editing import add_unit

    try:
        _edited(add_unit(file, open_catalogs(catalogs), unit, count), f"added {count} {unit}")
    except ListbuilderError as exc:
        _fail(exc)


@app.command()
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
    from .commands import open_catalogs
    from .editing import remove_unit

    try:
        what = f"removed {count} {unit}" if count is not None else f"removed every {unit}"
        _edited(remove_unit(file, open_catalogs(catalogs), unit, count), what)
    except ListbuilderError as exc:
        _fail(exc)


@app.command(name="set")
def set_(
    file: Annotated[Path, typer.Argument(help="The list file to edit.", show_default=False)],
    key: Annotated[str, typer.Argument(help="name, or the limit: points (figures for figure-counted rule sets).")],
    value: Annotated[str, typer.Argument(help="The new value.", show_default=False)],
    catalogs: CatalogsOption = None,
) -> None:
    """Set a list's name or its points (or figures) limit, in place.

    Example: listbuilder set zombies.yaml points 150
    """
    from .commands import open_catalogs
    from .editing import set_key

    try:
        _edited(set_key(file, open_catalogs(catalogs), key, value), f"{key} set to {value}")
    except ListbuilderError as exc:
        _fail(exc)


@app.command()
def odds(
    args: Annotated[
        list[str],
        typer.Argument(
            help="SYSTEM ATTACKER TARGET [OPTION=VALUE...], or LIST_A.yaml LIST_B.yaml [OPTION=VALUE...]. "
            "A unit is a catalog unit's name or a statline such as class=Beast,might=6.",
            show_default=False,
        ),
    ],
    mechanic: Annotated[
        str | None, typer.Option("--mechanic", help="Which of the rule set's dice mechanics (default: its main one).")
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Show each chance as an exact fraction too.")] = False,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Exact odds from the rule set's dice: one matchup, or every unit of one list against another's.

    The situation (cover, defending, which fight of the turn...) follows as OPTION=VALUE;
    an unknown option lists the ones the rule set has.

    Example: listbuilder odds might-skirmish class=Beast,might=6 "Grandpa Bones" attack=melee
    """
    from .commands import check_list, open_catalogs
    from .errors import ErrorDetail, InputError

    try:
        books = open_catalogs(catalogs)
        if len(args) >= 2 and all(a.endswith((".yaml", ".yml")) or Path(a).is_file() for a in args[:2]):
            from .odds.ask import list_matrix, matrix_json, matrix_text, read_situation

            a, b = check_list(Path(args[0]), books), check_list(Path(args[1]), books)
            if a.system.id != b.system.id:
                raise InputError(
                    f"the lists are for different rule sets: {a.system.id} and {b.system.id}",
                    details=[ErrorDetail(message="odds compare lists of one rule set")],
                )
            situation = read_situation(a.system, mechanic, args[2:])
            grid, _, columns = list_matrix(a.system, a, b, mechanic=mechanic, **situation)
            typer.echo(matrix_json(grid, a, b, columns) if as_json else matrix_text(grid, a, b, columns))
            return
        if len(args) < 3:
            raise InputError(
                "odds needs a rule set and two units, or two list files",
                details=[
                    ErrorDetail(message="listbuilder odds SYSTEM ATTACKER TARGET, or listbuilder odds A.yaml B.yaml")
                ],
            )
        from .odds.ask import one_matchup, outcome_json, outcome_text

        outcome = one_matchup(books.get(args[0]), args[1], args[2], mechanic, args[3:])
        typer.echo(outcome_json(outcome) if as_json else outcome_text(outcome, exact))
    except ListbuilderError as exc:
        _fail(exc)


@app.command()
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
    from .commands import open_catalogs, write_output
    from .listschema import all_lists_schema, list_schema, schema_text

    try:
        books = open_catalogs(catalogs)
        text = schema_text(list_schema(books.get(system)) if system else all_lists_schema(books))
        if output is None:
            typer.echo(text, nl=False)
        else:
            write_output(output, text)
            typer.echo(f"wrote {output}")
    except ListbuilderError as exc:
        _fail(exc)


@app.command()
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
    from .commands import check_list, open_catalogs, write_output
    from .errors import ErrorDetail, InputError
    from .exchange import embed as embedded
    from .exchange import export_json, export_markdown, export_text

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
            write_output(output, text, inputs=[file])
            typer.echo(f"wrote {output}")
    except ListbuilderError as exc:
        _fail(exc)


@app.command(name="import")
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
    from .commands import open_catalogs, write_output
    from .exchange import import_text
    from .yamlfile import read_text

    try:
        text = import_text(read_text(file, "exported list"), file, open_catalogs(catalogs))
        if output is None:
            typer.echo(text, nl=False)
        else:
            write_output(output, text, inputs=[file], overwrite=False)
            typer.echo(f"wrote {output}")
    except ListbuilderError as exc:
        _fail(exc)


def main() -> None:
    """Entry point: run the app, turning anything unexpected into a short message, not a traceback."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as exc:  # a bug: say so plainly; LISTBUILDER_DEBUG=1 shows the traceback
        if os.environ.get("LISTBUILDER_DEBUG"):
            raise
        typer.echo(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in listbuilder; run with LISTBUILDER_DEBUG=1 for details and report it.",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


__all__ = ["EXIT_BAD_INPUT", "app", "main"]

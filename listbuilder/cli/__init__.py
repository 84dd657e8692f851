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
from typing import Annotated

import typer

from listbuilder import __version__
from listbuilder.cli import edits, lists, matchups, prints
from listbuilder.errors import EXIT_BAD_INPUT

EXIT_INTERNAL = 4

app = typer.Typer(
    name="listbuilder",
    help="Build, cost and check army lists for small and indie wargames rule sets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


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


# The commands, in the order --help lists them. Each module holds one group of thin commands.
app.command()(lists.validate)
app.command()(lists.points)
app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(lists.cost)
app.command()(lists.systems)
app.command()(lists.catalog)
app.command()(prints.render)
app.command()(prints.card)
app.command()(lists.diff)
app.command()(edits.new)
app.command()(edits.add)
app.command()(edits.remove)
app.command(name="set")(edits.set_)
app.command()(matchups.odds)
app.command()(edits.schema)
app.command()(edits.export)
app.command(name="import")(edits.import_)


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

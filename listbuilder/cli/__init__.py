"""The ``listbuilder`` command. Each command parses options, calls the library and prints.

Exit codes (the same for every command; the README's table says the same):
  0  done; for validate, points and cost also: every list or statline is legal (warnings
     allowed unless --strict); the other commands exit 0 once their work is done, legal or not
  1  validate, points, cost: a list or statline breaks a rule; render --strict: one does
  2  a file or option cannot be read or understood
  3  an output file could not be written (nothing half-written is left)
  4  an internal error: a bug in listbuilder, please report it
"""

import os
import sys
from collections.abc import Callable
from typing import Annotated

import typer

from listbuilder import __version__
from listbuilder.cli import doctor, edits, lists, matchups, prints, serve
from listbuilder.cli.options import say
from listbuilder.errors import EXIT_BAD_INPUT

EXIT_INTERNAL = 4


def _help_width() -> int:
    """The width --help wraps to: the terminal's, up to 80 (click's own floor of 50 would spill
    past a narrow terminal, which then breaks words)."""
    import shutil

    return max(20, min(shutil.get_terminal_size().columns, 80) - 2)


app = typer.Typer(
    name="listbuilder",
    help="Build, cost and check army lists for small and indie wargames rule sets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help: wraps at word boundaries at any width, never cuts a word
    context_settings={"help_option_names": ["-h", "--help"], "terminal_width": _help_width()},
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


def _reflow(doc: str | None) -> str | None:
    """A docstring with each paragraph on one line, so --help wraps it at word boundaries for any
    terminal width (typer keeps a docstring's single line breaks, which then fall mid-sentence)."""
    if doc is None:
        return None
    import inspect

    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


def _command(func: Callable[..., None], name: str | None = None, **settings: bool) -> None:
    app.command(name=name, help=_reflow(func.__doc__), context_settings=settings or None)(func)


# The commands, in the order --help lists them. Each module holds one group of thin commands.
_command(lists.validate)
_command(lists.points)
_command(lists.cost, allow_extra_args=True, ignore_unknown_options=True)
_command(lists.systems)
_command(lists.catalog)
_command(prints.render)
_command(prints.card)
_command(lists.diff)
_command(doctor.fix)
_command(doctor.fill)
_command(edits.new)
_command(edits.add)
_command(edits.remove)
_command(edits.set_, name="set", ignore_unknown_options=True)  # so 'set FILE points -5' is a value, not an option
_command(matchups.odds)
_command(edits.schema)
_command(edits.export)
_command(edits.import_, name="import")
_command(serve.serve)


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
        say(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in listbuilder; run with LISTBUILDER_DEBUG=1 for details and report it.",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


__all__ = ["EXIT_BAD_INPUT", "app", "main"]

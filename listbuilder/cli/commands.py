"""The root command: the typer app that each group module of ``listbuilder.cli`` adds its commands to
(``lists``, ``prints``, ``doctor``, ``edits``, ``matchups``, ``serve``, ``authors``), ``--version``, and
how ``--help`` wraps."""

import inspect
import shutil
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from listbuilder import __version__

Command = TypeVar("Command", bound=Callable[..., Any])


def _help_width() -> int:
    """The width --help wraps to: the terminal's, up to 80 (click's own floor of 50 would spill
    past a narrow terminal, which then breaks words)."""
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


def reflow(doc: str | None) -> str | None:
    """A docstring with each paragraph on one line, so --help wraps it at word boundaries for any
    terminal width (typer keeps a docstring's single line breaks, which then fall mid-sentence)."""
    if doc is None:
        return None
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


def command(name: str, **settings: bool) -> Callable[[Command], Command]:
    """Add the decorated function to the app as the command ``name``, its docstring as its help
    (see ``reflow``) and ``settings`` as its click context settings. --help lists the commands in
    the order they are added."""

    def add(func: Command) -> Command:
        app.command(name=name, help=reflow(func.__doc__), context_settings=settings or None)(func)
        return func

    return add

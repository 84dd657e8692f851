"""The command line's commands, as typer builds them: each one only when a run asks for it."""

from collections.abc import Iterator, Mapping
from functools import cache
from importlib import import_module
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from listbuilder import __version__


def _help_width() -> int:
    """The width --help wraps to: the terminal's, up to 80 (click's own floor of 50 would spill
    past a narrow terminal, which then breaks words)."""
    import shutil  # start-up: only --help asks the terminal's width (--version must stay light)

    return max(20, min(shutil.get_terminal_size().columns, 80) - 2)


class _Commands(Mapping[str, Any]):
    """The commands by name, each built only when looked up."""

    def __getitem__(self, name: str) -> Any:
        if name not in COMMANDS:
            raise KeyError(name)
        return command(name)

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)


class _LazyGroup(TyperGroup):
    """The root command: builds only the command a run asks for, so ``--version`` builds none
    and ``validate`` one (building all of them, and importing their modules, was most of the
    start-up of a command); ``--help`` still lists them all."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands()  # type: ignore[assignment]  # read only: typer never calls add_command here


app = typer.Typer(
    cls=_LazyGroup,
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
    import inspect  # start-up: only a command being built needs it, never --version

    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


# The commands, in the order --help lists them: the module of listbuilder.cli that holds each
# (one group of thin commands a module), its function, and its context settings.
COMMANDS: dict[str, tuple[str, str, dict[str, bool]]] = {
    "validate": ("lists", "validate", {}),
    "points": ("lists", "points", {}),
    "cost": ("lists", "cost", {"allow_extra_args": True, "ignore_unknown_options": True}),
    "systems": ("lists", "systems", {}),
    "catalog": ("lists", "catalog", {}),
    "render": ("prints", "render", {}),
    "card": ("prints", "card", {}),
    "diff": ("lists", "diff", {}),
    "fix": ("doctor", "fix", {}),
    "fill": ("doctor", "fill", {}),
    "new": ("edits", "new", {}),
    "add": ("edits", "add", {}),
    "remove": ("edits", "remove", {}),
    "set": ("edits", "set_", {"ignore_unknown_options": True}),  # so 'set FILE points -5' is a value
    "odds": ("matchups", "odds", {}),
    "schema": ("edits", "schema", {}),
    "export": ("edits", "export", {}),
    "import": ("edits", "import_", {}),
    "serve": ("serve", "serve", {}),
    "check-catalog": ("authors", "check_catalog", {}),
    "reprice": ("authors", "reprice", {}),
    "book": ("authors", "book", {}),
}


@cache
def command(name: str) -> Any:
    """The click command ``name``, built from its function (its module imported) on first use."""
    module, function, settings = COMMANDS[name]
    func = getattr(import_module(f"listbuilder.cli.{module}"), function)
    one = typer.Typer(add_completion=False, rich_markup_mode=None)
    one.command(name=name, help=_reflow(func.__doc__), context_settings=settings or None)(func)
    return typer.main.get_command(one)

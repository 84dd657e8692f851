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
from typing import Any

# The typer app (``commands.py``), its table of commands and its command builder, loaded on first use:
# ``serve`` parses its own arguments when it can (``serving.py``) and then never loads typer.
_FROM_APP = ("app", "COMMANDS", "command")


def __getattr__(name: str) -> Any:
    if name in _FROM_APP:
        from listbuilder.cli import commands as built  # start-up: typer loads for every command but a plain serve

        return getattr(built, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point: run the command, turning anything unexpected into a short message, not a traceback."""
    try:
        args = sys.argv[1:]
        if args[:1] == ["serve"]:
            from listbuilder.cli import serving  # start-up: only serve loads it

            quick = serving.quick_arguments(args[1:], os.environ)
            if quick is not None:
                serving.serve_folder(**quick)
                return
        from listbuilder.cli.commands import app  # start-up: typer, only when serve did not read its own

        app()
    except KeyboardInterrupt:
        from listbuilder.cli.output import say  # not at the top: --version loads no more than it needs
        from listbuilder.errors import EXIT_INTERRUPTED

        say("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except SystemExit:
        raise
    except Exception as exc:  # a bug: say so plainly; LISTBUILDER_DEBUG=1 shows the traceback
        if os.environ.get("LISTBUILDER_DEBUG"):
            raise
        from listbuilder.cli.output import say  # not loaded by runs that need no message
        from listbuilder.errors import EXIT_INTERNAL

        say(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in listbuilder; run with LISTBUILDER_DEBUG=1 for details and report it.",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


__all__ = ["COMMANDS", "app", "command", "main"]

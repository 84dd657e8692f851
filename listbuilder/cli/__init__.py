"""The ``listbuilder`` command. Each command parses options, calls the library and prints.

Exit codes (the same for every command; the README's table says the same):
  0  done; for validate, points and cost also: every list or statline is legal (warnings
     allowed unless --strict); the other commands exit 0 once their work is done, legal or not
  1  validate, points, cost: a list or statline breaks a rule; render --strict: one does
  2  a file or option cannot be read or understood
  3  an output file could not be written (nothing half-written is left)
  4  an internal error: a bug in listbuilder, please report it
"""

import gc
import os
import sys

from listbuilder.cli.commands import app
from listbuilder.cli.output import say
from listbuilder.errors import EXIT_INTERNAL, EXIT_INTERRUPTED

# Each group module adds its commands to the app as it is imported, and --help lists them in the
# order they were added: so these imports are in the order of --help, not the alphabet's.
# isort: off
from listbuilder.cli import lists, prints, doctor, edits, matchups, serve, authors
# isort: on

GROUPS = (lists, prints, doctor, edits, matchups, serve, authors)

# The garbage collector's policy for a listbuilder process, set once where the process starts
# (``main``; ``serve`` adds its own freeze) and never by library code. A command reads, judges,
# edits or lays out one bounded input and keeps nearly everything it makes to its end, so
# collections at Python's default pace (the youngest objects every 700 new ones, each older
# generation every 10 of the younger's) free almost nothing and walk ever more objects:
# `validate` of 20,000 entries took 1.21 s of CPU, 0.88 s at this pace, 0.78 s with no
# collections at all; a PDF render 0.79 s, 0.67 s at this pace. Collections still run, so a server that
# runs for hours still frees its cycles.
COLLECTOR_THRESHOLDS = (50_000, 100, 100)


def main() -> None:
    """Entry point: run the command, turning anything unexpected into a short message, not a traceback."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    try:
        app()
    except KeyboardInterrupt:
        say("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
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


__all__ = ["COLLECTOR_THRESHOLDS", "app", "main"]

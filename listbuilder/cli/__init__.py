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
from listbuilder.cli import lists, prints, doctor, edits, matchups, serve, club, events, authors
# isort: on

GROUPS = (lists, prints, doctor, edits, matchups, serve, club, events, authors)

# The garbage collector's policy for a listbuilder process, set where the process starts and never
# by library code: a command collects nothing (``main``), a server collects what it makes once it
# serves (``serve.serve_folder``). A command does one bounded piece of work (its input is at most
# ``files.reading.MAX_FILE_BYTES``) and keeps nearly everything it makes to its end, so collections
# free almost nothing and walk ever more objects. CPU medians against Python's default pace:
# `validate` of 20,000 entries 0.78 s (1.21 s), `add` to it 1.26 s (1.6 s); a PDF of 500 entries
# 7.6 s (8.2 s) at the same peak memory (262 MB).


def main() -> None:
    """Entry point: run the command, turning anything unexpected into a short message, not a traceback."""
    gc.disable()
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


__all__ = ["app", "main"]

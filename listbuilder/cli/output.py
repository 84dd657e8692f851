"""What every command prints, and how it reports a failure."""

import sys
from typing import NoReturn

from listbuilder.cli.views import command_hint, visible
from listbuilder.errors import ListbuilderError


def to_json(data: object) -> str:
    import json  # only a command that prints JSON loads it: --version's budget

    return json.dumps(data, default=list)


def say(text: str, err: bool = False, nl: bool = True) -> None:
    """Print to the terminal, every character that would steer it (from a name in a list file,
    say) shown as its escape: a list cannot set the window title or clear the screen.

    A character the stream's encoding cannot hold (a redirected Windows console, say) is written
    as its escape too, rather than failing the command."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no console at all (pythonw): nothing to say it on
        return
    out = visible(text) + ("\n" if nl else "")
    try:
        stream.write(out)
    except UnicodeEncodeError:
        encoding = stream.encoding or "ascii"
        stream.write(out.encode(encoding, "backslashreplace").decode(encoding))
    stream.flush()


def fail(exc: ListbuilderError) -> NoReturn:
    """Say what went wrong and end the command with the error's exit code."""
    say(f"error: {render(exc)}", err=True)
    raise SystemExit(exc.exit_code)


def render(exc: ListbuilderError) -> str:
    """An error as the terminal shows it: the library's message with the commands that help."""
    return exc.render(command_hint)

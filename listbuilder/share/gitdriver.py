"""``diff`` as git's external diff driver: git passes ``PATH OLD OLD-HEX OLD-MODE NEW NEW-HEX NEW-MODE``
(and more for a rename), and the driver prints what changed.

Two list files are compared as lists, in the game's terms. A side that does not exist (an added
or deleted file), is not a regular file, or is not a list falls back to a plain unified diff, so
git always shows something; nothing here ever reads a FIFO, which would hang.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from pathlib import Path

from listbuilder.errors import InputError

NULL = "/dev/null"  # the side git passes for a file that is not there


def driver_output(args: Sequence[str], compare: Callable[[Path, Path], str]) -> str:
    """What git shows for ``args``: ``compare(old, new)`` (the two files' change as lists, or an
    ``InputError`` when they cannot be compared as lists), else a unified diff of their text."""
    if len(args) < 7:
        raise InputError.detailed(
            "git passes seven arguments to a diff driver", f"got {len(args)}", hint="set it up as the README says"
        )
    path, old, new = args[0], Path(args[1]), Path(args[4])
    header = f"listbuilder diff a/{path} b/{path}"  # as git heads a diff: what made it, the two sides
    for side in (old, new):  # never read a FIFO (it would hang) or a missing file (git passes real ones)
        if str(side) != NULL and not side.is_file():
            what = "does not exist" if not side.exists() else "is not a regular file"
            return f"{header} (not compared: {side} {what})"
    if str(old) != NULL and str(new) != NULL:
        try:
            return f"{header}\n{compare(old, new)}"
        except InputError as exc:
            note = f"(not compared as lists: {exc.summary})"
    else:
        note = "(new file)" if str(old) == NULL else "(deleted file)"
    plain = difflib.unified_diff(_lines(old), _lines(new), f"a/{path}", f"b/{path}")
    return f"{header} {note}\n" + "".join(plain).rstrip("\n")


def _lines(p: Path) -> list[str]:
    if str(p) == NULL:
        return []
    try:
        return p.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
    except OSError as exc:
        return [f"(cannot read {p}: {exc.strerror or exc})\n"]

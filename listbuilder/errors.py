"""One root exception for everything a user can get wrong, each carrying where and how to fix it.

The library raises these and never prints or exits; only the CLI maps them to exit codes
(see ``EXIT_CODES`` below and the README).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Self

from listbuilder.record import Record, record

# The exit codes of every command, all of them here (the README's table lists the same).
EXIT_OK = 0
EXIT_RULES_BROKEN = 1
EXIT_BAD_INPUT = 2
EXIT_OUTPUT_FAILED = 3
EXIT_INTERNAL = 4
EXIT_NO_SIZE = 5
EXIT_INTERRUPTED = 130
EXIT_CODES = {
    EXIT_OK: "done (a list or statline is legal, where the command judges one)",
    EXIT_RULES_BROKEN: "a list or statline breaks a rule of its rule set",
    EXIT_BAD_INPUT: "a file or option cannot be read or understood",
    EXIT_OUTPUT_FAILED: "an output file could not be written",
    EXIT_INTERNAL: "an internal error: a bug in listbuilder",
    EXIT_NO_SIZE: "a list breaks no rule, but its rule set has no standard size and it gives none",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
}

# From the best outcome to the worst: a command that judges many lists exits with the worst one's
# code (a list with no size agreed is better news than a broken rule or an unreadable file).
_EXIT_ORDER = (EXIT_OK, EXIT_NO_SIZE, EXIT_RULES_BROKEN, EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, EXIT_INTERNAL)


def worse_exit(a: int, b: int) -> int:
    """The worse of two exit codes (an unknown one counts as the worst)."""
    rank = {code: i for i, code in enumerate(_EXIT_ORDER)}
    return max(a, b, key=lambda code: rank.get(code, len(rank)))


Location = tuple[str | int, ...]


def dotted(path: Location) -> str:
    """Render a data path the way a user reads it: ``units[3].might``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def shown(path: object) -> str:
    """A path as a message shows it, with this system's separator: ``examples\\zombies.yaml`` on
    Windows even where the user typed ``examples/zombies.yaml``."""
    text = str(path)
    return text.replace("/", os.sep) if os.sep != "/" else text


@record
class Action(Record):
    """A next step a message points to, named rather than spelled, so the library never names a
    command or an option: each face words it its own way (the CLI as a command, the web builder
    as a link or a button).

    ``kind`` is one of ``ACTIONS``; ``system`` the rule set it is about, where it matters.
    """

    kind: str
    system: str = ""
    # for 'price': stats to show in an example, each (key, value); for 'price-unit': ("unit", name);
    # for 'own-entry': ("stat", its label), ("figures", the word for them) and, for figures that
    # carry two items, ("item", name) for each; for 'limit': ("key", the limit's key), ("most", N)
    example: tuple[tuple[str, str], ...] = ()


# What an Action may point to: the units of a rule set's catalogs, adding units to a list, the
# list doctor's fix and fill, a new list, a JSON export, a yaml export with every unit written
# out, the total to fill to, the file to write, pricing a statline, pricing a catalog unit, naming
# a catalog folder of one's own, a QR code printed with the roster it goes on, figures of a unit
# that carry none of its items (or two of them) put in a unit of their own, a limit of the right
# size, a unit's current name for its former one, a retired unit replaced or removed, the rule set
# of a list typed by hand, the size of a new list (its example: ("unit", "figures")); in a club, a
# folder's lists made a member's own, a new sign-in link.
ACTIONS = (
    "catalog",
    "add",
    "fix",
    "fill",
    "new",
    "export-json",
    "embed",
    "fill-to",
    "output",
    "price",
    "price-unit",
    "catalogs",
    "qr-on-roster",
    "own-entry",
    "limit",
    "rename",
    "retired",
    "import-system",
    "size",
    "adopt",
    "invite",
)
Hints = Callable[[Action], "str | None"]  # a face's words for an action


@record
class ErrorDetail(Record):
    """One located problem with a file: what was expected, what was found, and a hint."""

    message: str
    path: Location = ()
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    action: Action | None = None  # a next step the face may offer (see ``Action``)

    def full_hint(self, hints: Hints | None = None) -> str | None:
        """The hint, with the face's words for the detail's action after it."""
        extra = hints(self.action) if hints is not None and self.action is not None else None
        return "; ".join(h for h in (self.hint, extra) if h) or None

    def where(self) -> str:
        """``line 8, column 5: units[0].mihgt``: as much of the place as is known."""
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}" + (f", column {self.column}" if self.column else ""))
        if self.path:
            parts.append(dotted(self.path))
        return ": ".join(parts)


class ListbuilderError(Exception):
    """The root of every error a user can act on.

    ``file`` names the file at fault (if any); ``details`` holds one or more located problems,
    all found in one pass so the user can fix them together.
    """

    exit_code: int = EXIT_BAD_INPUT

    def __init__(self, summary: str, file: Path | None = None, details: list[ErrorDetail] | None = None) -> None:
        super().__init__(summary)
        self.summary = summary
        self.file = file
        self.details = list(details or [])

    @classmethod
    def detailed(
        cls,
        summary: str,
        message: str,
        *,
        file: Path | None = None,
        path: Location = (),
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        action: Action | None = None,
    ) -> Self:
        """The usual refusal: a summary and one detail line under it, ``message`` with its place,
        ``hint`` and ``action`` (the keywords of ``ErrorDetail``). Several details, or details
        built elsewhere, go to the constructor's ``details`` as they are.

        ``raise InputError.detailed("no such list", "check the path and spelling", file=path)``
        """
        detail = ErrorDetail(message=message, path=path, line=line, column=column, hint=hint, action=action)
        return cls(summary, file=file, details=[detail])

    def __str__(self) -> str:
        return self.render()

    def render(self, hints: Hints | None = None) -> str:
        """The full message: the file and summary, then one line per problem (``hints``: a
        face's words for the actions the details point to)."""
        head = f"{shown(self.file)}: {self.summary}" if self.file else self.summary
        lines = [head]
        for d in self.details:
            where = d.where()
            text = f"{where}: {d.message}" if where else d.message
            hint = d.full_hint(hints)
            if hint:
                text += f" ({hint})"
            lines.append(f"  {text}")
        return "\n".join(lines)


class InputError(ListbuilderError):
    """A file the user handed us cannot be read or understood (exit code 2)."""


class ConflictError(InputError):
    """A file changed on disk while it was being edited, or since its editor last read it;
    nothing was written (exit code 2)."""


class CatalogError(InputError):
    """A rule set or unit catalog is malformed (exit code 2)."""


class OutputError(ListbuilderError):
    """An output file could not be written; nothing was left half-written (exit code 3)."""

    exit_code = EXIT_OUTPUT_FAILED

"""Starting and editing lists: on a file in place, or on a list's text."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from listbuilder.api.printing import write_file
from listbuilder.errors import Action, ErrorDetail, InputError
from listbuilder.rules.catalog import FACTIONS_DIR, Catalogs, System

if TYPE_CHECKING:
    from listbuilder.share.editing import EditResult
    from listbuilder.share.locking import FileEdit


def new_list_text(
    catalogs: Catalogs, system_id: str, name: str | None = None, limit: int | None = None, file_name: str | None = None
) -> str:
    """The text of a new, empty list (with its editor-schema line and a header of commands)."""
    from listbuilder.share.editing import new_list

    system = catalogs.get(system_id)
    return new_list(system, name, limit, revision=system.definition.revision, file_name=file_name)


def list_file_name(system: System, name: str | None) -> Path:
    """The file name a new list gets from its name, in any script: ``zombie-family.yaml``,
    ``ゾンビ家族.yaml``; an ``InputError`` asking for ``-o`` when the name has no letters or digits."""
    import unicodedata

    words = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", name or f"new {system.definition.force}").casefold())
    stem = ""
    for word in words:  # at most about 60 characters, cut between words
        if stem and len(stem) + 1 + len(word) > 60:
            break
        stem = f"{stem}-{word}" if stem else word[:60]
    if not stem:
        raise InputError(
            f"cannot make a file name from the name '{name}'",
            details=[ErrorDetail(message="choose the file's name yourself", action=Action(kind="output"))],
        )
    return Path(f"{stem}.yaml")


def limit_option(points: int | None, figures: int | None) -> tuple[int | None, str | None]:
    """The limit a user gave as ``--points`` or ``--figures``, and which of the two it was."""
    if points is not None and figures is not None:
        raise InputError(
            "give the limit in points or in figures, not both", details=[ErrorDetail(message="a list has one limit")]
        )
    if points is not None:
        return points, "points"
    return (figures, "figures") if figures is not None else (None, None)


def create_list(
    catalogs: Catalogs,
    system_id: str,
    output: Path | None,
    name: str | None,
    limit: int | None,
    measure: str | None = None,
) -> tuple[Path, ...]:
    """Write a new list file (never over an existing one) and its editor schema beside it.

    ``measure`` says what ``limit`` counts (``points`` or ``figures``), as the user wrote it; a
    measure the rule set does not use is refused, not written under the other name."""
    from listbuilder.share.editorschema import list_schema, schema_text

    system = catalogs.get(system_id)
    if measure is not None and limit is not None and measure != system.size_unit:
        raise InputError(
            f"{system.id} counts a force in {system.size_unit}, not {measure}",
            details=[ErrorDetail(message=f"give the limit in {system.size_unit}: {limit} {system.size_unit}")],
        )
    target = output or list_file_name(system, name)
    if target.parent.name == FACTIONS_DIR:  # catalogs read every .yaml there as a faction
        raise InputError(
            f"a list cannot go in a {FACTIONS_DIR}/ folder",
            file=target,
            details=[
                ErrorDetail(
                    message=f"the catalogs read every file in a {FACTIONS_DIR}/ folder as a faction of units, "
                    "so a list there would break them",
                    hint="put the list beside the catalogs, not inside them",
                )
            ],
        )
    if target.exists():
        raise InputError(
            "refusing to overwrite an existing file",
            file=target,
            details=[
                ErrorDetail(message="choose another file, or edit the list that is there", action=Action(kind="output"))
            ],
        )
    text = new_list_text(catalogs, system_id, name, limit, file_name=target.name)
    write_file(target, text.encode("utf-8"), catalogs=catalogs, overwrite=False)
    written = [target]
    schema = target.parent / f"{system.id}.schema.json"
    if not schema.exists():
        write_file(schema, schema_text(list_schema(system)).encode("utf-8"), catalogs=catalogs)
        written.append(schema)
    return tuple(written)


def add_unit(path: Path, catalogs: Catalogs, unit: str, count: int = 1) -> EditResult:
    """Add ``count`` of a unit to a list file, in place, keeping every other byte."""
    from listbuilder.share.editing import add_unit as add

    return add(path, catalogs, unit, count)


def remove_unit(path: Path, catalogs: Catalogs, unit: str, count: int | None = None) -> EditResult:
    """Take ``count`` of a unit (default: all of it) out of a list file, in place."""
    from listbuilder.share.editing import remove_unit as remove

    return remove(path, catalogs, unit, count)


def set_value(path: Path, catalogs: Catalogs, key: str, value: str | int) -> EditResult:
    """Set a list file's ``name`` or its limit, in place."""
    from listbuilder.share.editing import set_key

    return set_key(path, catalogs, key, value)


def add_to_text(text: str, catalogs: Catalogs, unit: str, count: int = 1, *, source: Path) -> EditResult:
    """``add_unit`` on a list's text; nothing is written."""
    from listbuilder.share.editing import add_to_text as add

    return add(text, catalogs, unit, count, source=source)


def remove_from_text(text: str, catalogs: Catalogs, unit: str, count: int | None = None, *, source: Path) -> EditResult:
    """``remove_unit`` on a list's text; nothing is written."""
    from listbuilder.share.editing import remove_from_text as remove

    return remove(text, catalogs, unit, count, source=source)


def set_in_text(text: str, catalogs: Catalogs, key: str, value: str | int, *, source: Path) -> EditResult:
    """``set_value`` on a list's text; nothing is written."""
    from listbuilder.share.editing import set_in_text as set_

    return set_(text, catalogs, key, value, source=source)


def edit_list_file(path: Path, change: Callable[[str], str]) -> FileEdit:
    """Replace the text of the list file at ``path`` by ``change(text)``, under the list's edit lock.

    This is the one locked edit, for any front end's own text edits (``add_to_text`` and the
    like, in a web server's threads): while it runs no other edit of the list can, so it lands
    whole or is refused, never lost. Whatever ``change`` raises refuses it and writes nothing; so
    does a change on disk meanwhile by a program that takes no lock (``ConflictError``, exit code
    2). A byte-order mark and the file's permissions are kept, and a symbolic link is followed."""
    from listbuilder.share.locking import locked_edit

    def checked_change(text: str) -> str:
        after = change(text)
        if not isinstance(after, str):
            raise InputError(
                "edit_list_file(): the change must give the list's new text",
                file=path,
                details=[ErrorDetail(message=f"it gave {type(after).__name__}, not str; nothing was written")],
            )
        return after

    return locked_edit(path, checked_change)

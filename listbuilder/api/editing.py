"""Starting and editing lists: a new list, and a change (``listbuilder.editing.changes``) carried
out on a list file in place, or on a list's text."""

from __future__ import annotations

from pathlib import Path

from listbuilder import editing
from listbuilder.api.printing import write_file
from listbuilder.editing import Change, EditResult, HistoryStep
from listbuilder.editing import folder as lists
from listbuilder.editing.newlist import file_name_for, new_list, new_list_target
from listbuilder.errors import ErrorDetail, InputError
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.system import System


def new_list_text(
    catalogs: Catalogs, system_id: str, name: str | None = None, limit: int | None = None, file_name: str | None = None
) -> str:
    """The text of a new, empty list (with its editor-schema line and a header of commands)."""
    system = catalogs.get(system_id)
    # A rule set (or faction) of one's own is read only with its catalog folder named again.
    own = [root for root in catalogs.roots[1:] if any(root in f.parents for f in system.files)]
    return new_list(system, name, limit, revision=system.definition.revision, file_name=file_name, catalog_folders=own)


def list_file_name(system: System, name: str | None) -> Path:
    """The file name a new list gets from its name, in any script: ``zombie-family.yaml``,
    ``ゾンビ家族.yaml``; an ``InputError`` asking for ``-o`` when the name has no letters or digits."""
    return file_name_for(system, name)


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
    # start-up: the editor schema (the share package) loads only for a new list, not for add,
    # remove or set, which load this module too (docs/architecture.md: what each command loads)
    from listbuilder.share.editorschema import list_schema, schema_text

    system = catalogs.get(system_id)
    target = new_list_target(system, output, name, limit, measure)
    text = new_list_text(catalogs, system_id, name, limit, file_name=target.name)
    write_file(target, text.encode("utf-8"), catalogs=catalogs, overwrite=False)
    written = [target]
    schema = target.parent / f"{system.id}.schema.json"
    if not schema.exists():
        write_file(schema, schema_text(list_schema(system)).encode("utf-8"), catalogs=catalogs)
        written.append(schema)
    return tuple(written)


def apply_change(path: Path, catalogs: Catalogs, change: Change | HistoryStep) -> EditResult:
    """Carry out ``change`` (``AddUnit``, ``RemoveUnit``, ``SetField``...) on a list file, in place,
    under its edit lock, keeping every other byte; ``ConflictError`` (exit code 2) if another
    program changed the file meanwhile."""
    return editing.apply_change(path, catalogs, change)


def apply_to_text(
    text: str, catalogs: Catalogs, change: Change | HistoryStep, *, source: Path = Path("<list>")
) -> EditResult:
    """``apply_change`` on a list's text (``source`` names it in messages); nothing is written."""
    return editing.apply_to_text(text, catalogs, change, source=source)


def new_folder_list(folder: Path, catalogs: Catalogs, system_id: str, name: str | None, limit: int | None) -> str:
    """Start a list in ``folder`` (its file named after the list); returns the file's name."""
    system = catalogs.get(system_id)
    with lists.LOCK:
        file = lists.free_name(folder, name or f"new {system.definition.force}")
        create_list(catalogs, system_id, lists.list_path(folder, file), name, limit)
    return file

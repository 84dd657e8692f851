"""Starting and editing lists: a new list, and a change (``listbuilder.editing.changes``) carried
out on a list file in place, or on a list's text."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from listbuilder import editing
from listbuilder.api.printing import write_file
from listbuilder.editing import Change, EditResult
from listbuilder.editing.newlist import new_list
from listbuilder.errors import Action, ErrorDetail, InputError
from listbuilder.rules.catalog import FACTIONS_DIR, Catalogs
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
    # start-up: the editor schema (the share package) loads only for a new list, not for add,
    # remove or set, which load this module too (docs/architecture.md: what each command loads)
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


def apply_change(path: Path, catalogs: Catalogs, change: Change) -> EditResult:
    """Carry out ``change`` (``AddUnit``, ``RemoveUnit``, ``SetField``...) on a list file, in place,
    under its edit lock, keeping every other byte; ``ConflictError`` (exit code 2) if another
    program changed the file meanwhile."""
    return editing.apply_change(path, catalogs, change)


def apply_to_text(text: str, catalogs: Catalogs, change: Change, *, source: Path = Path("<list>")) -> EditResult:
    """``apply_change`` on a list's text (``source`` names it in messages); nothing is written."""
    return editing.apply_to_text(text, catalogs, change, source=source)

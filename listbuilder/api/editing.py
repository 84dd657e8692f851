"""Starting and editing lists: a new list, and a change carried out on a list file in place, or on
a list's text.

A change is a value (``AddUnit``, ``RemoveUnit``, ``SetCount``, ``SetField``, ``SetLeaders``,
``SetLeader``, ``AddCustom``, ``ReplaceCustom``, ``ApplySuggestion``, ``FollowDoctor``), or a
step of its history (``Undo``, ``Redo``), that a face builds and hands to ``apply_change`` (a file, under its edit
lock, keeping every other byte; ``ConflictError``, exit code 2, if another program changed the
file meanwhile) or ``apply_to_text`` (nothing is written); both return an ``EditResult``.
"""

from __future__ import annotations

from pathlib import Path

from listbuilder.api.files import write_file
from listbuilder.editing.apply import apply_change as apply_change
from listbuilder.editing.apply import apply_to_text as apply_to_text
from listbuilder.editing.changes import (
    AddUnit,
    Change,
    RemoveUnit,
    SetCount,
    SetField,
    SetLeader,
    SetLeaders,
    SetUnit,
    UpdateUnits,
)
from listbuilder.editing.choices import UnitChoice
from listbuilder.editing.choices import unit_choices as unit_choices
from listbuilder.editing.custom import AddCustom, ReplaceCustom
from listbuilder.editing.history import HistoryStep, Redo, Undo
from listbuilder.editing.newlist import file_name_for as list_file_name
from listbuilder.editing.newlist import new_list, new_list_target
from listbuilder.editing.plan import EditResult
from listbuilder.editing.suggestions import ApplySuggestion, FollowDoctor
from listbuilder.rules.catalog import Catalogs
from listbuilder.share.editorschema import list_schema, schema_text

__all__ = [
    "AddCustom",
    "AddUnit",
    "ApplySuggestion",
    "Change",
    "EditResult",
    "FollowDoctor",
    "HistoryStep",
    "Redo",
    "RemoveUnit",
    "ReplaceCustom",
    "SetCount",
    "SetField",
    "SetLeader",
    "SetLeaders",
    "SetUnit",
    "Undo",
    "UnitChoice",
    "UpdateUnits",
    "apply_change",
    "apply_to_text",
    "create_list",
    "list_file_name",
    "new_list_text",
    "unit_choices",
]


def new_list_text(
    catalogs: Catalogs, system_id: str, name: str | None = None, limit: int | None = None, file_name: str | None = None
) -> str:
    """The text of a new, empty list (with its editor-schema line and a header of commands)."""
    system = catalogs.get(system_id)
    # A rule set (or faction) of one's own is read only with its catalog folder named again.
    own = [root for root in catalogs.roots[1:] if any(root in f.parents for f in system.files)]
    return new_list(system, name, limit, revision=system.definition.revision, file_name=file_name, catalog_folders=own)


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

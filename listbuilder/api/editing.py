"""Starting and editing lists: on a file in place, or on a list's text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from listbuilder.api.printing import write_file
from listbuilder.errors import ErrorDetail, InputError
from listbuilder.rules.catalog import Catalogs, System

if TYPE_CHECKING:
    from listbuilder.share.editing import EditResult


def new_list_text(
    catalogs: Catalogs, system_id: str, name: str | None = None, limit: int | None = None, file_name: str | None = None
) -> str:
    """The text of a new, empty list (with its editor-schema line and a header of commands)."""
    from listbuilder.share.editing import new_list

    system = catalogs.get(system_id)
    return new_list(system, name, limit, revision=system.definition.revision, file_name=file_name)


def list_file_name(system: System, name: str | None) -> Path:
    """The file name a new list gets from its name: ``zombie-family.yaml``."""
    stem = re.sub(r"[^a-z0-9]+", "-", (name or f"new {system.definition.force}").lower()).strip("-")
    return Path(f"{stem or 'list'}.yaml")


def create_list(
    catalogs: Catalogs, system_id: str, output: Path | None, name: str | None, limit: int | None
) -> tuple[Path, ...]:
    """Write a new list file (never over an existing one) and its editor schema beside it."""
    from listbuilder.share.editorschema import list_schema, schema_text

    system = catalogs.get(system_id)
    target = output or list_file_name(system, name)
    if target.exists():
        raise InputError(
            "refusing to overwrite an existing file",
            file=target,
            details=[ErrorDetail(message="choose another name with -o, or edit it with 'listbuilder add'")],
        )
    text = new_list_text(catalogs, system_id, name, limit, file_name=target.name)
    write_file(target, text.encode("utf-8"), overwrite=False)
    written = [target]
    schema = target.parent / f"{system.id}.schema.json"
    if not schema.exists():
        write_file(schema, schema_text(list_schema(system)).encode("utf-8"))
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

"""Edits of one entry of a list, by its place in the list: its count, its leader mark, a custom unit.

A builder page points at an entry ("the third entry, Hunter") rather than at a unit's name,
since one list may hold the same unit twice (say, once as a leader). These are edits of a list's
text through the same machinery as ``add_to_text``, ``remove_from_text`` and ``set_in_text``
(``editing.edit_text``): the list must load first, only the lines the edit changes are touched,
and the result is read back and checked. Nothing is written: a front end writes the result
through the locked edit of the file (``api.edit_list_file``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from listbuilder.errors import ErrorDetail, InputError
from listbuilder.files.yamldoc import Document
from listbuilder.rules.catalog import Catalogs
from listbuilder.share.editing import EditResult, _check_count, _Edit, edit_text
from listbuilder.share.yamledit import apply, scalar


def _entry(edit: _Edit, index: object) -> Any:
    entries = edit.army.entries
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(entries):
        raise InputError(
            f"the list has no entry {index!r}",
            file=edit.path,
            details=[ErrorDetail(message=f"entries are numbered 0 to {len(entries) - 1}", hint="reload the list")]
            if entries
            else [ErrorDetail(message="the list has no entries yet")],
        )
    return entries[index]


def set_entry_count(text: str, catalogs: Catalogs, index: int, count: int, *, source: Path) -> EditResult:
    """Give entry ``index`` of the list ``count`` models; a count of 0 removes the entry."""
    if count != 0:
        _check_count(count, "field")

    def change(edit: _Edit) -> None:
        entry = _entry(edit, index)
        if count == 0:
            edit.delete([entry.index])
        elif count != entry.count:
            edit.set_count(entry.index, count)

    return edit_text(text, source, catalogs, change)


def set_entry_leader(text: str, catalogs: Catalogs, index: int, leader: bool, *, source: Path) -> EditResult:
    """Mark every model of entry ``index`` as a leader (or none of them), with a ``leader:`` line."""
    if not isinstance(leader, bool):
        raise InputError(f"leader is true or false, found {leader!r}")

    def change(edit: _Edit) -> None:
        entry = _entry(edit, index)
        edit.set_leaders(entry.index, entry.count if leader else 0)

    return edit_text(text, source, catalogs, change)


def set_entry_leaders(text: str, catalogs: Catalogs, index: int, leaders: int, *, source: Path) -> EditResult:
    """Make ``leaders`` of entry ``index``'s models its leaders (0 to its count): one leader inside a squad."""
    if isinstance(leaders, bool) or not isinstance(leaders, int) or leaders < 0:
        raise InputError(f"the number of leaders must be a whole number of at least 0, found {leaders!r}")

    def change(edit: _Edit) -> None:
        entry = _entry(edit, index)
        if leaders > entry.count:
            raise InputError(
                f"{leaders} leaders is more than the entry's count of {entry.count}",
                file=edit.path,
                details=[
                    edit.doc.detail(
                        ("units", entry.index), f"{entry.unit.name} has {entry.count}", f"give 0 to {entry.count}"
                    )
                ],
            )
        edit.set_leaders(entry.index, leaders)

    return edit_text(text, source, catalogs, change)


def add_custom_unit(
    text: str, catalogs: Catalogs, stats: Mapping[str, object], count: int = 1, *, source: Path
) -> EditResult:
    """Append a custom unit (``- name: NAME`` with the rule set's stats) to the list.

    ``stats`` holds ``name`` and a value for each stat (a number, a choice, or a sequence of
    choices); they are checked as a custom entry of the list is, before anything is written."""
    _check_count(count, "add")
    return edit_text(text, source, catalogs, lambda edit: _add_custom(edit, source, stats, count))


def _add_custom(edit: _Edit, path: Path, stats: Mapping[str, object], count: int) -> None:
    name = stats.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("a custom unit needs a name", file=path, details=[ErrorDetail(message="give it a name")])
    defs = edit.system.definition.stats
    unknown = [k for k in stats if k != "name" and k not in defs]
    if unknown:
        raise InputError(
            f"{edit.system.id} has no stat '{unknown[0]}'",
            file=path,
            details=[ErrorDetail(message=f"its stats: {', '.join(defs)}")],
        )
    y = edit._yaml()
    key, seq = edit._units(y)
    flow = bool(seq.flow_style)
    pairs = [("name", scalar(name.strip(), None, flow))]
    data: dict[str, Any] = {"name": name.strip()}
    for stat_key in defs:
        if stat_key not in stats:
            continue
        value = stats[stat_key]
        if isinstance(value, list | tuple):
            items = [str(v) for v in value]
            pairs.append((stat_key, "[" + ", ".join(scalar(v, None, True) for v in items) + "]"))
            data[stat_key] = items
        elif isinstance(value, bool) or not isinstance(value, int | str):
            raise InputError(f"the stat '{stat_key}' cannot be {value!r}", file=path)
        else:
            pairs.append((stat_key, str(value) if isinstance(value, int) else scalar(value, None, flow)))
            data[stat_key] = value
    _, errors = edit.system.read_unit(data, Document(path=path, data=data, positions={}, text=""), ())
    if errors:
        raise InputError("this custom unit cannot be added", file=path, details=errors)
    if count > 1:
        pairs.append(("count", str(count)))
        data["count"] = count
    items = list(seq.value)
    model = items[-1] if items else None
    column = -1 if y.root.flow_style else key.start_mark.column
    edit.body = apply(edit.body, y.append_item(seq, pairs, model, column))
    edit.expected["units"].append(data)

"""Custom units of a list: adding one (``AddCustom``) and writing one anew once edited (``ReplaceCustom``).

Both take the unit as ``stats``: ``name`` and a value for each stat of the rule set (a number, a
choice, or a sequence of choices, where an item may say how many of the unit's figures carry it:
``{weapon: Rifle, figures: 3}``). Both check the unit as the list reader checks a custom entry,
before anything is written, and say what is wrong in the reader's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from listbuilder.editing.changes import Change
from listbuilder.editing.plan import ListEdit
from listbuilder.editing.values import check_count
from listbuilder.editing.yamltext import scalar
from listbuilder.errors import InputError
from listbuilder.files.yamldoc import Document
from listbuilder.record import record

# What a custom entry has besides its name and stats, kept as written when the unit is edited.
KEPT = ("count", "leader", "leaders", "notes", "source")


@record
class AddCustom(Change):
    """Append a custom unit (``- name: NAME`` with the rule set's stats), ``count`` copies."""

    stats: Mapping[str, object]
    count: int = 1

    def carry_out(self, edit: ListEdit) -> str:
        check_count(self.count, "add")
        name, pairs, data = custom_unit(edit, self.stats, "added")
        if self.count > 1:
            pairs.append(("count", str(self.count)))
            data["count"] = self.count
        edit.append_pairs(pairs, data)
        edit.entry = len(edit.army.entries)
        return f"added {name}"


@record
class ReplaceCustom(Change):
    """Write custom entry ``index`` (numbered from 0) anew with ``stats``, where it stands.

    Its count, leaders, notes and source stay as written; its name and stats are the new ones, so
    a stat left out of ``stats`` is left out of the entry (the rule set's default then holds)."""

    index: int
    stats: Mapping[str, object]

    def carry_out(self, edit: ListEdit) -> str:
        entry = edit.entry_at(self.index)
        if not entry.custom:
            raise InputError(
                f"entry {entry.number} ({entry.unit.name}) is a catalog unit, not a custom one",
                file=edit.path,
                details=[
                    edit.doc.detail(("units", entry.index), "only a unit the list describes itself can be edited here")
                ],
            )
        name, pairs, data = custom_unit(edit, self.stats, "saved")
        edit.replace_entry(entry.index, pairs, data, KEPT)
        edit.entry = entry.index
        was = entry.unit.name
        return f"changed {was}" if was == name else f"changed {was} into {name}"


def custom_unit(
    edit: ListEdit, stats: Mapping[str, object], verb: str
) -> tuple[str, list[tuple[str, str]], dict[str, Any]]:
    """A custom unit's name, its pairs as the list's text writes them, and the data they read back as.

    Refused, with the list reader's words, when the unit is not one this rule set can read."""
    path = edit.path
    name = stats.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError.detailed("a custom unit needs a name", "give it a name", file=path)
    defs = edit.system.definition.stats
    unknown = [k for k in stats if k != "name" and k not in defs]
    if unknown:
        raise InputError.detailed(
            f"{edit.system.id} has no stat '{unknown[0]}'", f"its stats: {', '.join(defs)}", file=path
        )
    flow = edit.flow
    pairs = [("name", scalar(name.strip(), None, flow))]
    data: dict[str, Any] = {"name": name.strip()}
    for stat_key in defs:
        if stat_key not in stats:
            continue
        value = stats[stat_key]
        if isinstance(value, list | tuple):
            items = [_item(stat_key, v, path) for v in value]
            pairs.append((stat_key, "[" + ", ".join(text for text, _ in items) + "]"))
            data[stat_key] = [item for _, item in items]
        elif isinstance(value, bool) or not isinstance(value, int | str):
            raise InputError(f"the stat '{stat_key}' cannot be {value!r}", file=path)
        else:
            pairs.append((stat_key, str(value) if isinstance(value, int) else scalar(value, None, flow)))
            data[stat_key] = value
    _, errors = edit.system.read_unit(data, Document(path=path, data=data, positions={}, text=""), ())
    if errors:
        raise InputError(f"this custom unit cannot be {verb}", file=path, details=errors)
    return name.strip(), pairs, data


def _item(stat_key: str, value: object, path: Any) -> tuple[str, object]:
    """One item of a list stat, as written in a flow sequence, and as it reads back."""
    if isinstance(value, Mapping):
        parts, read = [], {}
        for key, part in value.items():
            if not isinstance(key, str) or isinstance(part, bool) or not isinstance(part, int | str):
                raise InputError(f"an item of the stat '{stat_key}' cannot be {dict(value)!r}", file=path)
            parts.append(f"{scalar(key, None, True)}: {part if isinstance(part, int) else scalar(part, None, True)}")
            read[key] = part
        return "{" + ", ".join(parts) + "}", read
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError(f"an item of the stat '{stat_key}' cannot be {value!r}", file=path)
    return scalar(str(value), None, True), str(value)

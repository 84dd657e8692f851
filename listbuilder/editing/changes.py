"""The changes a player makes to a list, each a small immutable value that carries itself out.

A face (the command line, the web builder) builds one of these and hands it to
``apply.apply_change`` (a file, under its lock, with its undo step) or ``apply.apply_to_text``;
neither face nor engine dispatches on a string. Each change's ``carry_out`` plans its splices on
a ``plan.ListEdit`` and says what it did, in words. ``Undo`` and ``Redo`` are not changes: they
take a step of the list's history (``history.HistoryStep``) and plan nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from listbuilder.editing.plan import ListEdit
from listbuilder.editing.values import check_count, check_name, parse_limit
from listbuilder.editing.yamltext import is_printable_line
from listbuilder.errors import ErrorDetail, InputError
from listbuilder.files.yamldoc import Document
from listbuilder.record import Record, record
from listbuilder.rules.listformat import CATALOG_ENTRY_KEYS, CUSTOM_ENTRY_KEYS, ListKey, read_key
from listbuilder.words import did_you_mean


@record
class Change(Record):
    """What every change is: something that edits a list's text and says what it did."""

    def carry_out(self, edit: ListEdit) -> str:
        """Plan this change on ``edit``; the words for what it did ("added 2 of a unit")."""
        raise NotImplementedError  # every change below carries itself out

    def check_fields(self) -> None:
        """Refuse, with an ``InputError`` naming the field, a value of the wrong kind (a face
        that built this change from a form or JSON may hand it anything)."""
        for f in dataclasses.fields(self):
            check = _FIELD_CHECKS.get(str(f.type))
            value = getattr(self, f.name)
            if check is not None and not check[0](value):
                raise InputError.detailed(
                    f"{type(self).__name__}(): the field '{f.name}' must be {check[1]}, not {type(value).__name__}",
                    f"found {value!r:.80}",
                    path=(f.name,),
                )

    def as_json(self) -> dict[str, Any]:
        return {"change": type(self).__name__, **{f.name: getattr(self, f.name) for f in dataclasses.fields(self)}}


# Counts and entry numbers are checked by the change itself, with the words of its own refusal.
_FIELD_CHECKS: dict[str, tuple[Callable[[object], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "text (str)"),
    "bool": (lambda v: isinstance(v, bool), "true or false (bool)"),
    "Mapping[str, object]": (lambda v: isinstance(v, Mapping), "a mapping (dict)"),
    "Suggestion": (lambda v: any(c.__name__ == "Suggestion" for c in type(v).__mro__), "a doctor's suggestion"),
}


@record
class AddUnit(Change):
    """Add ``count`` of a catalog unit (or of a custom unit the list already has).

    A unit already in the list gets a higher ``count:``; otherwise a ``- unit: NAME`` entry is
    appended, laid out like the entries already there. Names match in any case."""

    unit: str
    count: int = 1

    def carry_out(self, edit: ListEdit) -> str:
        check_count(self.count, "add")
        wanted = self.unit.strip()
        unit = edit.system.find_unit(wanted)
        entries = edit.army.entries
        if unit is not None:
            name, leader = unit.name.lower(), unit.leader
            matches = [e for e in entries if not e.custom and e.unit.name.lower() == name and e.leader == leader]
        else:
            matches = [e for e in entries if e.custom and e.unit.name.lower() == wanted.lower()]
            if not matches:
                advice = f"'{wanted}' is neither a catalog unit nor a custom unit of this list"
                edit.system.unit_named(wanted, advice, also=[e.unit.name for e in entries], file=edit.path)
        if matches:
            edit.set_count(matches[0].index, matches[0].count + self.count)
            edit.entry = matches[0].index
        else:
            assert unit is not None
            edit.append(unit.name, self.count)
            edit.entry = len(entries)
        named = matches[0].unit.name if matches else unit.name if unit is not None else self.unit
        return f"added {self.count} {named}"


@record
class RemoveUnit(Change):
    """Remove a unit: every entry of it (``count=None``), or ``count`` models, last entry first,
    lowering ``count:`` and removing entries that reach 0. More than the list has is an error."""

    unit: str
    count: int | None = None

    def carry_out(self, edit: ListEdit) -> str:
        if self.count is not None:
            check_count(self.count, "remove")
        wanted = self.unit.strip()
        unit = edit.system.find_unit(wanted)
        target = (unit.name if unit is not None else wanted).lower()
        matches = [e for e in edit.army.entries if e.unit.name.lower() == target]
        if not matches:
            names = list(dict.fromkeys(e.unit.name for e in edit.army.entries))
            hint = did_you_mean(wanted, names) or (
                f"the list has: {', '.join(names)}" if names else "the list has no units yet"
            )
            raise InputError(
                f"there is no '{wanted}' in this list",
                file=edit.path,
                details=[edit.doc.detail(("units",), f"no entry of 'units' is '{wanted}'", hint)],
            )
        named = matches[0].unit.name
        have = sum(e.count for e in matches)
        done = f"removed {self.count} {named}" if self.count is not None else f"removed every {named}, {have:,} in all"
        if self.count is None:
            edit.delete([e.index for e in matches])
            return done
        if self.count > have:
            raise InputError(
                f"cannot remove {self.count} {matches[0].unit.name}: the list has {have}",
                file=edit.path,
                details=[
                    edit.doc.detail(
                        ("units", matches[-1].index),
                        f"the list has {have} {matches[0].unit.name}",
                        f"remove at most {have}, or give no count to remove the unit entirely",
                    )
                ],
            )
        emptied, left = [], self.count
        for entry in reversed(matches):
            take = min(left, entry.count)
            left -= take
            if take == entry.count:
                emptied.append(entry.index)
            elif take:
                edit.set_count(entry.index, entry.count - take)
        edit.delete(emptied)
        return done


@record
class SetCount(Change):
    """Give entry ``index`` (numbered from 0) ``count`` models; a count of 0 removes the entry."""

    index: int
    count: int

    def carry_out(self, edit: ListEdit) -> str:
        if self.count != 0:
            check_count(self.count, "field")
        entry = edit.entry_at(self.index)
        if self.count == 0:
            edit.delete([entry.index])
            return f"removed the {entry.unit.name} entry"
        if self.count != entry.count:
            edit.set_count(entry.index, self.count)
        edit.entry = entry.index
        return f"{entry.unit.name}: {self.count} now"


@record
class SetField(Change):
    """Set one key: of the list itself (``index=None``: its ``name`` or its limit), or of entry
    ``index`` (any key the list format gives an entry besides what it is and its count: ``leader``,
    ``leaders``...). The value is checked as the list reader checks it."""

    key: str
    value: str | int | bool
    index: int | None = None

    def carry_out(self, edit: ListEdit) -> str:
        if self.index is None:
            return self._top(edit)
        entry = edit.entry_at(self.index)
        keys = CUSTOM_ENTRY_KEYS if entry.custom else CATALOG_ENTRY_KEYS
        settable = {k.key: k for k in keys if k.key not in ("unit", "name", "count")}
        spec = settable.get(self.key)
        if spec is None:
            raise InputError.detailed(
                f"cannot set '{self.key}' on an entry",
                f"'{self.key}' is not a key an entry can have set",
                file=edit.path,
                hint=did_you_mean(self.key, list(settable)) or f"the keys: {', '.join(settable)}",
            )
        _check_value(spec, self.key, self.value, edit)
        edit.entry = entry.index
        if self.key in ("leader", "leaders"):  # one rule for how an entry says who leads
            leaders = self.value if self.key == "leaders" else (entry.count if self.value else 0)
            assert isinstance(leaders, int)
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
            return f"{entry.unit.name}: {leaders} {'leader' if leaders == 1 else 'leaders'} now"
        edit.set_field(entry.index, self.key, self.value)
        edit.values_from_user = True  # a value the reader judges against the rest of the entry
        return f"{entry.unit.name}: {self.key} set to {_shown(self.value)}"

    def _top(self, edit: ListEdit) -> str:
        limit_key = edit.system.size_unit
        if self.key == "name":
            edit.set_top("name", check_name(str(self.value)))
        elif self.key == limit_key:
            edit.set_top(limit_key, parse_limit(limit_key, self.value))
        else:
            if self.key in edit.catalogs.measure_words():
                message = f"'{edit.system.id}' counts a force in {limit_key}, not {self.key}"
                hint = f"set '{limit_key}' instead"
            else:
                message = f"'{self.key}' cannot be set here"
                hint = did_you_mean(self.key, ("name", limit_key)) or (
                    f"the keys that can be set are 'name' and '{limit_key}'; edit the file for the others"
                )
            raise InputError.detailed(f"cannot set '{self.key}'", message, file=edit.path, hint=hint)
        return f"{self.key} set to {self.value}"


@record
class SetLeaders(Change):
    """Entry ``index`` has ``leaders`` leaders among its models (``leaders: N``, 0 to its count):
    the ``leaders`` field, set through ``SetField`` and checked as the list reader checks it."""

    index: int
    leaders: int

    def carry_out(self, edit: ListEdit) -> str:
        if isinstance(self.leaders, bool) or not isinstance(self.leaders, int) or self.leaders < 0:
            raise InputError(f"the number of leaders must be a whole number of at least 0, found {self.leaders!r}")
        return SetField(key="leaders", value=self.leaders, index=self.index).carry_out(edit)


@record
class SetLeader(Change):
    """Mark every model of entry ``index`` as a leader, or none of them (``leader: true|false``)."""

    index: int
    leader: bool

    def carry_out(self, edit: ListEdit) -> str:
        if not isinstance(self.leader, bool):
            raise InputError(f"leader is true or false, found {self.leader!r}")
        entry = edit.entry_at(self.index)
        edit.set_leaders(entry.index, entry.count if self.leader else 0)
        edit.entry = entry.index
        return f"{entry.unit.name} {'is now' if self.leader else 'is no longer'} a leader"


@record
class SetUnit(Change):
    """Entry ``index`` (a catalog entry) names catalog unit ``unit`` instead, its count and
    leaders kept: a former name's current one, or the unit that takes a retired one's place."""

    index: int
    unit: str

    def carry_out(self, edit: ListEdit) -> str:
        entry = edit.entry_at(self.index)
        if entry.custom:
            raise InputError.detailed(
                f"entry {entry.number} is a custom unit, {entry.unit.name}",
                "only an entry of a catalog unit can name another",
                file=edit.path,
            )
        unit = edit.system.unit_named(self.unit.strip(), "name a unit of its catalogs", file=edit.path)
        edit.set_unit(entry.index, unit.name)
        edit.entry = entry.index
        return f"{entry.named or entry.unit.name} is now {unit.name}"


@record
class UpdateUnits(Change):
    """Bring the list up to its catalogs: each unit named by a former name takes its current name
    (the same unit: the total does not change), and each retired unit whose catalog names the
    unit that takes its place is replaced by it. A retired unit with none is left as it is."""

    def carry_out(self, edit: ListEdit) -> str:
        done = []
        for entry in edit.army.entries:
            if entry.custom:
                continue
            gone = entry.unit.retired
            if entry.named:
                edit.set_unit(entry.index, entry.unit.name)
                done.append(f"{entry.named} is now {entry.unit.name}")
            elif gone is not None and gone.replaced_by:
                current = edit.system.find_unit(gone.replaced_by)
                assert current is not None  # the catalog's loader made sure it is a unit
                edit.set_unit(entry.index, current.name)
                done.append(f"{entry.unit.name} is replaced by {current.name}")
        return "; ".join(done) if done else "every unit already has its current name"


def _check_value(spec: ListKey, key: str, value: object, edit: ListEdit) -> None:
    errors: list[ErrorDetail] = []
    read_key(spec, {key: value}, Document(path=edit.path, data={}, positions={}, text=""), (), errors)
    if errors or (isinstance(value, str) and not is_printable_line(value)):
        raise InputError(f"cannot set '{key}' to {_shown(value)}", file=edit.path, details=errors)


def _shown(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)

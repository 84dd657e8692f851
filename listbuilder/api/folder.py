"""A folder of list files, as a builder serves it: each list's state, changes with undo and redo, deleted lists.

Lists are named by their file name in the folder (``zombies.yaml``); every function refuses a
name that would leave the folder. Changes go through the edit functions of ``add``, ``remove``
and ``set`` (share/editing.py), so comments and layout survive, and each one is kept as an undo
step on disk (share/folder.py). ``expect`` is the version of the file the caller last saw: a
change to a file that has changed since raises ``ConflictError`` and writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from listbuilder.api.editing import create_list, edit_list_file
from listbuilder.api.printing import write_file
from listbuilder.api.sharing import import_list
from listbuilder.army.constraints import Problem
from listbuilder.army.phrases import headline, stats_line, total_text
from listbuilder.army.report import Report, build_report
from listbuilder.errors import ConflictError, ErrorDetail, InputError, ListbuilderError, one_of
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System

Change = Literal["add", "remove", "count", "leader", "leaders", "set", "custom"]
CHANGES: tuple[str, ...] = ("add", "remove", "count", "leader", "leaders", "set", "custom", "fix", "fill")
ASKS: tuple[str, ...] = ("fix", "fill")
ENTRY_LABEL = re.compile(r"units\[(\d+)\]")


@record
class EntryRow(Record):
    """One entry of a list as a builder shows it: what it is, what it costs, what it breaks."""

    index: int
    name: str
    count: int
    leader: bool  # every model of the entry is a leader
    custom: bool
    stats: str
    each: int
    cost: int
    problems: tuple[Problem, ...]
    leaders: int = 0  # how many of its ``count`` models are leaders

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "unit": self.name,
            "count": self.count,
            "leader": self.leader,
            "leaders": self.leaders,
            "custom": self.custom,
            "stats": self.stats,
            "each": self.each,
            "cost": self.cost,
            "problems": [p.as_json() for p in self.problems],
        }


@record
class ListState(Record):
    """One list of a folder: its file, version, report, verdict in words, entries and undo depth."""

    file: str
    version: str
    text: str
    report: Report
    headline: str
    total_text: str
    rows: tuple[EntryRow, ...]
    undo: int
    redo: int

    def as_json(self) -> dict[str, Any]:
        return {
            **self.report.as_json(),
            "file": self.file,
            "version": self.version,
            "headline": self.headline,
            "entries": [r.as_json() for r in self.rows],
            "undo": self.undo,
            "redo": self.redo,
        }


@record
class ListSummary(Record):
    """A list file of a folder, for the lists page: its verdict, or the error that stops it loading."""

    file: str
    version: str
    system: str | None = None
    name: str | None = None
    total_text: str = ""
    legal: bool | None = None
    headline: str = ""
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "version": self.version,
            "system": self.system,
            "name": self.name,
            "total": self.total_text,
            "legal": self.legal,
            "headline": self.headline,
            "error": self.error,
        }


@record
class Changed(Record):
    """The outcome of a change made to a list of a folder: what was done, and the list after it."""

    done: str
    changed: bool
    state: ListState
    entry: int | None = None  # the entry the change made or changed, if it is still there

    def as_json(self) -> dict[str, Any]:
        return {"done": self.done, "changed": self.changed, "entry": self.entry, "list": self.state.as_json()}


def list_file(folder: Path, name: str) -> Path:
    """The path of the list ``name`` of ``folder``; ``InputError`` for anything outside the folder."""
    from listbuilder.share.folder import list_path

    return list_path(folder, name)


def _row_problems(problems: Sequence[Problem]) -> dict[int, list[Problem]]:
    by_entry: dict[int, list[Problem]] = {}
    for p in problems:
        for m in ENTRY_LABEL.finditer(p.entry or ""):
            by_entry.setdefault(int(m.group(1)), []).append(p)
    return by_entry


def list_state(folder: Path, name: str, catalogs: Catalogs) -> ListState:
    """Read, cost and judge one list of ``folder``, with its version and undo depth."""
    from listbuilder.files.reading import read_text
    from listbuilder.files.yamldoc import parse_yaml
    from listbuilder.share import folder as lists

    path = list_file(folder, name)
    text = read_text(path, "list file")
    from listbuilder.army.listfile import parse_list

    army, system = parse_list(parse_yaml(text, path), catalogs)
    report = build_report(army, system)
    by_entry = _row_problems(report.problems)
    rows = tuple(
        EntryRow(
            index=ln.entry.index,
            name=ln.entry.unit.name,
            count=ln.entry.count,
            leader=ln.entry.leader,
            leaders=ln.entry.leaders,
            custom=ln.entry.custom,
            stats=stats_line(system, ln.entry.unit),
            each=ln.unit_cost,
            cost=ln.cost,
            problems=tuple(by_entry.get(ln.entry.index, ())),
        )
        for ln in report.lines
    )
    undo, redo = lists.depth(path)
    return ListState(
        file=name,
        version=lists.version_of(text),
        text=text,
        report=report,
        headline=headline(report),
        total_text=total_text(report),
        rows=rows,
        undo=undo,
        redo=redo,
    )


def folder_lists(folder: Path, catalogs: Catalogs) -> tuple[ListSummary, ...]:
    """Every list file of ``folder``, each with its verdict, or the located error that stops it."""
    from listbuilder.share import folder as lists

    out = []
    for name in lists.list_names(folder):
        version = ""
        try:
            state = list_state(folder, name, catalogs)
        except ListbuilderError as exc:
            out.append(ListSummary(file=name, version=version, error=exc.render()))
            continue
        r = state.report
        out.append(
            ListSummary(
                file=name,
                version=state.version,
                system=r.system.id,
                name=r.army.name,
                total_text=state.total_text,
                legal=r.legal(),
                headline=state.headline,
            )
        )
    return tuple(out)


def change_list(
    folder: Path,
    name: str,
    catalogs: Catalogs,
    change: str,
    *,
    unit: str | None = None,
    index: int | None = None,
    count: int | None = None,
    leader: bool | None = None,
    key: str | None = None,
    value: str | None = None,
    stats: dict[str, object] | None = None,
    suggestion: int | None = None,
    expect: str | None = None,
    leaders: int | None = None,
) -> Changed:
    """Change one list of ``folder`` and keep the change as an undo step.

    ``change`` is one of: ``add`` (``unit``, ``count`` models, default 1), ``remove`` (every entry
    of ``unit``, or ``count`` models of it), ``count`` (entry ``index`` gets ``count`` models; 0
    removes it), ``leader`` (every model of entry ``index`` is a leader, or none), ``leaders``
    (``leaders`` of entry ``index``'s models are leaders, 0 to its count), ``set`` (``key`` name or the
    limit, to ``value``), ``custom`` (a custom unit of ``stats``, ``count`` copies), ``fix`` or
    ``fill`` (carry out the list doctor's ``suggestion``, numbered from 0, as ``ask_doctor`` gives
    them for this version of the list). ``expect``: the version the caller saw; if the file is not
    at it, nothing is written (``ConflictError``)."""
    from listbuilder.share import folder as lists

    if change not in CHANGES:
        raise InputError(f"unknown change '{change}'", details=[ErrorDetail(message=f"use {one_of(list(CHANGES))}")])
    needs = {
        "add": ("unit",),
        "remove": ("unit",),
        "count": ("index", "count"),
        "leader": ("index", "leader"),
        "leaders": ("index", "leaders"),
        "set": ("key", "value"),
        "custom": ("stats",),
        "fix": ("suggestion",),
        "fill": ("suggestion",),
    }[change]
    given = {
        "unit": unit,
        "index": index,
        "count": count,
        "leader": leader,
        "leaders": leaders,
        "key": key,
        "value": value,
        "stats": stats,
        "suggestion": suggestion,
    }
    missing = [k for k in needs if given[k] is None]
    if missing:
        raise InputError(f"a '{change}' change needs {one_of(missing)}")
    path = list_file(folder, name)
    results: list[tuple[Any, str]] = []

    def on_text(text: str) -> str:
        # Under the list's edit lock: no other edit can land between this check and the write.
        if expect is not None and lists.version_of(text) != expect:
            raise _changed_since(path)
        results.append(
            _edit_text(text, path, catalogs, change, unit, index, count, leader, key, value, stats, suggestion, leaders)
        )
        return results[-1][0].text.removeprefix("\ufeff")

    done_edit = edit_list_file(path, on_text)
    done = results[-1][1]
    if done_edit.written:
        lists.record_change(path, done_edit.before, done_edit.after, done_edit.bom)
    state = list_state(folder, name, catalogs)
    return Changed(done=done, changed=done_edit.written, state=state, entry=_touched(state, change, unit, index, count))


def _edit_text(
    text: str,
    path: Path,
    catalogs: Catalogs,
    change: str,
    unit: str | None,
    index: int | None,
    count: int | None,
    leader: bool | None,
    key: str | None,
    value: str | None,
    stats: dict[str, object] | None,
    suggestion: int | None,
    leaders: int | None = None,
) -> tuple[Any, str]:
    """The edit ``change`` of a list's text (nothing written), and what it did in words."""
    from listbuilder.api.editing import add_to_text, remove_from_text, set_in_text
    from listbuilder.share import entryedit

    if change == "add":
        n = 1 if count is None else count
        return add_to_text(text, catalogs, str(unit), n, source=path), f"added {n} {unit}"
    if change == "remove":
        done = f"removed {count} {unit}" if count is not None else f"removed every {unit}"
        return remove_from_text(text, catalogs, str(unit), count, source=path), done
    if change == "count":
        assert index is not None and count is not None
        unit_name = _entry_name(text, path, catalogs, index)
        result = entryedit.set_entry_count(text, catalogs, index, count, source=path)
        return result, f"{unit_name}: {count} now" if count else f"removed the {unit_name} entry"
    if change == "leader":
        assert index is not None and leader is not None
        result = entryedit.set_entry_leader(text, catalogs, index, leader, source=path)
        return result, f"{_entry_name(text, path, catalogs, index)} {'is now' if leader else 'is no longer'} a leader"
    if change == "leaders":
        assert index is not None and leaders is not None
        result = entryedit.set_entry_leaders(text, catalogs, index, leaders, source=path)
        word = "leader" if leaders == 1 else "leaders"
        return result, f"{_entry_name(text, path, catalogs, index)}: {leaders} {word} now"
    if change == "set":
        return set_in_text(text, catalogs, str(key), str(value), source=path), f"{key} set to {value}"
    if change == "custom":
        assert stats is not None
        n = 1 if count is None else count
        return entryedit.add_custom_unit(text, catalogs, stats, n, source=path), f"added {stats.get('name')}"
    assert suggestion is not None
    return _apply_doctor(text, path, catalogs, change, suggestion)


def _changed_since(path: Path) -> ConflictError:
    return ConflictError(
        "the list changed on disk since this page was loaded, so your change was not made",
        file=path,
        details=[ErrorDetail(message="another tab, program or person changed it", hint="look at it and try again")],
    )


def ask_doctor(folder: Path, name: str, catalogs: Catalogs, ask: str) -> Any:
    """The list doctor's answer for a list of ``folder``: ``fix`` (the smallest changes that make it
    legal) or ``fill`` (additions that bring it closest to its limit); a ``DoctorAnswer``."""
    from listbuilder.api.doctor import fill_list, fix_list
    from listbuilder.errors import choose

    path = list_file(folder, name)
    return fix_list(path, catalogs) if choose("question", ask, ASKS) == "fix" else fill_list(path, catalogs)


def _apply_doctor(text: str, path: Path, catalogs: Catalogs, ask: str, number: int) -> tuple[Any, str]:
    from listbuilder.api.doctor import apply_to_text, fill_text, fix_text

    answer = fix_text(text, catalogs, path) if ask == "fix" else fill_text(text, catalogs, source=path)
    if isinstance(number, bool) or not 0 <= number < len(answer.suggestions):
        have = len(answer.suggestions)
        raise InputError(
            f"there is no suggestion {number + 1} to {ask} this list",
            file=path,
            details=[ErrorDetail(message=answer.why or f"the doctor has {have} suggestion{'s' if have != 1 else ''}")],
        )
    chosen = answer.suggestions[number]
    changes = ", ".join(c.text() for c in chosen.changes) or "no change"
    return apply_to_text(text, catalogs, chosen, path), f"{'fixed' if ask == 'fix' else 'filled'}: {changes}"


def _entry_name(text: str, path: Path, catalogs: Catalogs, index: int) -> str:
    """The unit of entry ``index`` of a list's text (the edit itself checks the index)."""
    from listbuilder.api.lists import check_text

    lines = check_text(text, catalogs, path).lines
    return lines[index].entry.unit.name if 0 <= index < len(lines) else f"entry {index + 1}"


def _touched(state: ListState, change: str, unit: str | None, index: int | None, count: int | None) -> int | None:
    """The entry a change left its mark on: the one it added to, counted or marked."""
    if change in ("count", "leader"):
        return index if index is not None and index < len(state.rows) and (change != "count" or count) else None
    if change == "add" and unit is not None:
        hits = [r.index for r in state.rows if not r.custom and r.name.lower() == unit.strip().lower()]
        return hits[-1] if hits else None
    if change == "custom" and state.rows:
        return state.rows[-1].index
    return None


def undo_change(
    folder: Path, name: str, catalogs: Catalogs, *, redo: bool = False, expect: str | None = None
) -> Changed:
    """Undo (or redo) the last change made to a list of ``folder``; kept on disk, so it works after a restart."""
    from listbuilder.share import folder as lists

    path = list_file(folder, name)

    def check(text: str) -> None:
        if expect is not None and lists.version_of(text) != expect:
            raise _changed_since(path)

    lists.step(path, "redo" if redo else "undo", check)
    return Changed(done="redone" if redo else "undone", changed=True, state=list_state(folder, name, catalogs))


def new_folder_list(folder: Path, catalogs: Catalogs, system_id: str, name: str | None, limit: int | None) -> str:
    """Start a list in ``folder`` (its file named after the list); returns the file's name."""
    from listbuilder.share import folder as lists

    system = catalogs.get(system_id)
    with lists.LOCK:
        file = lists.free_name(folder, name or f"new {system.definition.force}")
        create_list(catalogs, system_id, list_file(folder, file), name, limit)
    return file


def import_folder_list(folder: Path, catalogs: Catalogs, text: str) -> str:
    """Read a list exported as text, markdown or JSON into a new file of ``folder``; returns its name."""
    from listbuilder.files.yamldoc import parse_yaml
    from listbuilder.share import folder as lists

    yaml_text = import_list(text, catalogs, Path("pasted text"))
    list_name = parse_yaml(yaml_text, Path("pasted text")).data.get("name") or "imported list"
    with lists.LOCK:
        file = lists.free_name(folder, str(list_name))
        write_file(list_file(folder, file), yaml_text.encode("utf-8"), overwrite=False)
    return file


def duplicate_list(folder: Path, name: str, catalogs: Catalogs) -> str:
    """Copy a list of ``folder`` to a new file, named "NAME (copy)"; returns the new file's name."""
    from listbuilder.share import editing
    from listbuilder.share import folder as lists

    source = list_file(folder, name)
    state = list_state(folder, name, catalogs)
    with lists.LOCK:
        file = lists.free_name(folder, source.stem + "-copy", source.suffix)
        target = list_file(folder, file)
        write_file(target, source.read_bytes(), overwrite=False)
        editing.set_key(target, catalogs, "name", f"{state.report.army.name} (copy)")
    return file


def delete_list(folder: Path, name: str) -> str:
    """Move a list of ``folder`` to its deleted lists (restorable); returns the id to restore it by."""
    from listbuilder.share import folder as lists

    with lists.LOCK:
        return lists.delete(folder, name)


def deleted_lists(folder: Path) -> tuple[tuple[str, str, str], ...]:
    """The deleted lists of ``folder``, newest first: (id, file name, when)."""
    from listbuilder.share import folder as lists

    return tuple(lists.deleted(folder))


def restore_list(folder: Path, deleted_id: str) -> str:
    """Put a deleted list back; returns its file name (its old one, or a free one if that is taken)."""
    from listbuilder.share import folder as lists

    with lists.LOCK:
        return lists.restore(folder, deleted_id)


def parse_stat_form(system: System, fields: Mapping[str, Sequence[str]]) -> dict[str, object]:
    """Turn a form's fields (each a list of values) into a custom unit's name and stats.

    Empty fields are left out (the pricing then says which stat is missing); numbers must be
    whole numbers; a 'choices' stat takes every value given."""
    stats = system.definition.stats
    values: dict[str, object] = {}
    errors: list[ErrorDetail] = []
    name = " ".join(fields.get("name", ())).strip()
    if name:
        values["name"] = name
    for key, stat in stats.items():
        given = [v.strip() for v in fields.get(key, ()) if v.strip()]
        if stat.kind == "choices":
            if given or key in fields:
                values[key] = given
            continue
        if not given:
            continue
        if stat.kind == "number":
            try:
                values[key] = int(given[-1])
            except ValueError:
                errors.append(ErrorDetail(message=f"{stat.label} must be a whole number, found '{given[-1]}'"))
        else:
            values[key] = given[-1]
    if errors:
        raise InputError("these stats cannot be used", details=errors)
    return values


@record
class UnitChoice(Record):
    """A catalog unit as a builder offers it: faction, name, stats in words and cost."""

    faction: str
    name: str
    stats: str
    cost: int
    leader: bool

    def as_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "unit": self.name, "stats": self.stats, "cost": self.cost}


# Per loaded rule set: its units worded once, and the lower-case text a filter searches.
_CHOICES: dict[int, tuple[System, tuple[UnitChoice, ...], tuple[str, ...]]] = {}


def unit_choices(system: System, query: str = "") -> tuple[UnitChoice, ...]:
    """The rule set's catalog units, faction by faction; with ``query``, those whose name, faction
    or stats hold every word of it (in any case)."""
    found = _CHOICES.get(id(system))
    if found is None or found[0] is not system:
        from listbuilder.army.costing import unit_cost

        rows = tuple(
            UnitChoice(
                faction=faction,
                name=u.name,
                stats=stats_line(system, u),
                cost=unit_cost(system, u),
                leader=u.leader,
            )
            for faction, units in system.factions.items()
            for u in units
        )
        if len(_CHOICES) >= 32:
            _CHOICES.clear()
        found = _CHOICES[id(system)] = (system, rows, tuple(f"{u.name} {u.faction} {u.stats}".lower() for u in rows))
    words = query.lower().split()
    if not words:
        return found[1]
    return tuple(u for u, text in zip(found[1], found[2], strict=True) if all(w in text for w in words))

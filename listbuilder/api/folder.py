"""A folder of list files, as a builder serves it: each list's state, changes with undo and redo, deleted lists.

Lists are named by their file name in the folder (``zombies.yaml``); every function refuses a
name that would leave the folder. A change is a value (``listbuilder.editing.changes``) carried
out by ``editing.apply_change`` with its undo step, in one locked step; ``expect`` is the version
of the file the caller last saw: a change to a file that has changed since raises
``ConflictError`` and writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from listbuilder.api.builder import Changed, EntryRow, ListState, ListSummary
from listbuilder.api.editing import create_list
from listbuilder.api.printing import write_file
from listbuilder.api.sharing import import_list
from listbuilder.army.constraints import Problem
from listbuilder.army.phrases import headline, stats_line, total_text
from listbuilder.army.report import Report, build_report
from listbuilder.collector import few_collections
from listbuilder.errors import InputError, ListbuilderError
from listbuilder.rules.catalog import Catalogs

if TYPE_CHECKING:
    from listbuilder.editing import Change

ASKS: tuple[str, ...] = ("fix", "fill")


def list_file(folder: Path, name: str) -> Path:
    """The path of the list ``name`` of ``folder``; ``InputError`` for anything outside the folder."""
    from listbuilder.editing.folder import list_path

    return list_path(folder, name)


def list_state(folder: Path, name: str, catalogs: Catalogs) -> ListState:
    """Read, cost and judge one list of ``folder``, with its version and undo depth."""
    return _read_state(name, list_file(folder, name), catalogs)


def folder_lists(folder: Path, catalogs: Catalogs) -> tuple[ListSummary, ...]:
    """Every list file of ``folder``, each with its verdict, or the located error that stops it."""
    from listbuilder.editing.folder import list_names

    return tuple(_summary_of(n, lambda n=n: list_state(folder, n, catalogs)) for n in list_names(folder))


def change_list(
    folder: Path, name: str, catalogs: Catalogs, change: Change, *, expect: str | None = None, state: bool = True
) -> Changed:
    """Carry out ``change`` (``AddUnit``, ``SetCount``, ``FollowDoctor``, ``Undo``...) on a list of
    ``folder`` and keep it as an undo step, in one locked step. ``expect``: the version the caller
    saw; if the file is not at it, nothing is written (``ConflictError``). ``state=False`` leaves
    out the list's state after the change (a page that redirects does not show it)."""
    from listbuilder.editing import apply_change

    path = list_file(folder, name)
    with few_collections():
        result = apply_change(path, catalogs, change, expect=expect, history=True)
        after = _state_of(name, path, result.text, result.report) if state else None
    return Changed(done=result.done, changed=result.changed, state=after, entry=result.entry)


def ask_doctor(folder: Path, name: str, catalogs: Catalogs, ask: str) -> Any:
    """The list doctor's answer for a list of ``folder``: ``fix`` (the smallest changes that make it
    legal) or ``fill`` (additions that bring it closest to its limit); a ``DoctorAnswer``."""
    from listbuilder.api.doctor import fill_list, fix_list
    from listbuilder.errors import choose

    path = list_file(folder, name)
    return fix_list(path, catalogs) if choose("question", ask, ASKS) == "fix" else fill_list(path, catalogs)


def tidy_folder(folder: Path) -> tuple[Path, ...]:
    """Remove the temporary files killed writes left in ``folder`` (a server does it when it starts)."""
    from listbuilder.editing.folder import tidy

    return tidy(folder)


def new_folder_list(folder: Path, catalogs: Catalogs, system_id: str, name: str | None, limit: int | None) -> str:
    """Start a list in ``folder`` (its file named after the list); returns the file's name."""
    from listbuilder.editing import folder as lists

    system = catalogs.get(system_id)
    with lists.LOCK:
        file = lists.free_name(folder, name or f"new {system.definition.force}")
        create_list(catalogs, system_id, list_file(folder, file), name, limit)
    return file


def import_folder_list(folder: Path, catalogs: Catalogs, text: str) -> str:
    """Read a list exported as text, markdown or JSON into a new file of ``folder``; returns its name."""
    from listbuilder.editing import folder as lists
    from listbuilder.files.yamldoc import parse_yaml

    yaml_text = import_list(text, catalogs, Path("pasted text"))
    list_name = parse_yaml(yaml_text, Path("pasted text")).data.get("name") or "imported list"
    with lists.LOCK:
        file = lists.free_name(folder, str(list_name))
        write_file(list_file(folder, file), yaml_text.encode("utf-8"), overwrite=False)
    return file


def duplicate_list(folder: Path, name: str, catalogs: Catalogs) -> str:
    """Copy a list of ``folder`` to a new file, named "NAME (copy)"; returns the new file's name."""
    from listbuilder.editing import SetField, apply_change
    from listbuilder.editing import folder as lists

    source = list_file(folder, name)
    state = list_state(folder, name, catalogs)
    with lists.LOCK:
        file = lists.free_name(folder, source.stem + "-copy", source.suffix)
        target = list_file(folder, file)
        write_file(target, source.read_bytes(), overwrite=False)
        apply_change(target, catalogs, SetField(key="name", value=f"{state.report.army.name} (copy)"))
    return file


def delete_list(folder: Path, name: str) -> str:
    """Move a list of ``folder`` to its deleted lists (restorable); returns the id to restore it by."""
    from listbuilder.editing import folder as lists

    with lists.LOCK:
        return lists.delete(folder, name)


def deleted_lists(folder: Path, named: int = 20) -> tuple[tuple[str, str, str, str], ...]:
    """The deleted lists of ``folder``, newest first: (id, file name, when, the list's own name).

    The name is read from the first ``named`` of them (the file name stands for it past those,
    and for a file whose name cannot be read)."""
    from listbuilder.editing import folder as lists

    found = lists.deleted(folder)
    try:
        where = lists.deleted_dir(folder) if found else None
    except InputError:  # a folder of deleted lists that may not be read lists none (``deleted``)
        return ()
    return tuple(
        (id, file, when, _own_name(where / id, file) if where is not None and i < named else file)
        for i, (id, file, when) in enumerate(found)
    )


def _own_name(path: Path, file: str) -> str:
    """The ``name:`` a list file gives itself, or ``file`` if it gives none that can be read."""
    from listbuilder.files.reading import read_text
    from listbuilder.files.yamldoc import parse_yaml

    try:
        data = parse_yaml(read_text(path, "list file"), path).data
    except ListbuilderError:
        return file
    name = data.get("name") if isinstance(data, dict) else None
    return " ".join(name.split()) if isinstance(name, str) and name.strip() else file


def restore_list(folder: Path, deleted_id: str) -> str:
    """Put a deleted list back; returns its file name (its old one, or a free one if that is taken)."""
    from listbuilder.editing import folder as lists

    with lists.LOCK:
        return lists.restore(folder, deleted_id)


# --- the states a builder shows ------------------------------------------------------------------


def _row_problems(problems: Sequence[Problem]) -> dict[int, list[Problem]]:
    by_entry: dict[int, list[Problem]] = {}
    for p in problems:
        for index in p.entries:
            by_entry.setdefault(index, []).append(p)
    return by_entry


def _state_of(name: str, path: Path, text: str, report: Report) -> ListState:
    """The state of a list whose ``text`` was just read or written and judged (``report``)."""
    from listbuilder.editing.history import History, version_of

    system = report.system
    by_entry = _row_problems(report.problems)
    worded: dict[int, str] = {}  # a long list repeats its units: each statline is worded once

    def stats(unit: Any) -> str:
        found = worded.get(id(unit))
        if found is None:
            found = worded[id(unit)] = stats_line(system, unit)
        return found

    rows = tuple(
        EntryRow(
            index=ln.entry.index,
            name=ln.entry.unit.name,
            count=ln.entry.count,
            leader=ln.entry.leader,
            leaders=ln.entry.leaders,
            custom=ln.entry.custom,
            stats=stats(ln.entry.unit),
            each=ln.unit_cost,
            cost=ln.cost,
            problems=tuple(by_entry.get(ln.entry.index, ())),
        )
        for ln in report.lines
    )
    text = text.removeprefix("\ufeff")
    history = History(path)
    undo, redo = history.depth(version_of(text))
    kept, _ = history.depth()
    return ListState(
        file=name,
        version=version_of(text),
        text=text,
        report=report,
        headline=headline(report),
        total_text=total_text(report),
        rows=rows,
        undo=undo,
        redo=redo,
        undo_kept=kept,
    )


def _read_state(name: str, path: Path, catalogs: Catalogs) -> ListState:
    """Read, cost and judge the list file at ``path`` (named ``name`` in its folder)."""
    from listbuilder.army.listfile import parse_list
    from listbuilder.files.reading import read_text
    from listbuilder.files.yamldoc import parse_yaml

    with few_collections():
        text = read_text(path, "list file")
        army, system = parse_list(parse_yaml(text, path), catalogs)
        return _state_of(name, path, text, build_report(army, system))


def _summary_of(name: str, load: Any) -> ListSummary:
    """A list for the lists page: ``load()`` gives its state, or raises the error that stops it."""
    try:
        state = load()
    except ListbuilderError as exc:
        return ListSummary(file=name, version="", error=exc.render())
    r = state.report
    return ListSummary(
        file=name,
        version=state.version,
        system=r.system.id,
        name=r.army.name,
        total_text=state.total_text,
        legal=r.legal(),
        headline=state.headline,
    )

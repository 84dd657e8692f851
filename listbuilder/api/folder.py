"""A folder of list files, as a builder serves it: each list's state, changes with undo and redo, deleted lists.

Lists are named by their file name in the folder (``zombies.yaml``); every function refuses a
name that would leave the folder. A change is a value (``listbuilder.editing.changes``) carried
out by ``editing.apply_change`` with its undo step, in one locked step; ``expect`` is the version
of the file the caller last saw: a change to a file that has changed since raises
``ConflictError`` and writes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from listbuilder import editing
from listbuilder.api.printing import write_file
from listbuilder.editing import folder as lists
from listbuilder.editing.state import (
    ListState,
    ListSummary,
    deleted_summaries,
    folder_summaries,
    read_state,
    state_of,
)
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

if TYPE_CHECKING:
    from listbuilder.editing import Change, HistoryStep


@record
class Changed(Record):
    """The outcome of a change made to a list of a folder: what was done, and the list after it."""

    done: str
    changed: bool
    state: ListState | None  # None when the caller did not ask for it (a page that redirects)
    entry: int | None = None  # the entry the change made or changed, if it is still there

    def as_json(self) -> dict[str, Any]:
        shown = self.state.as_json() if self.state is not None else None
        return {"done": self.done, "changed": self.changed, "entry": self.entry, "list": shown}


def list_file(folder: Path, name: str) -> Path:
    """The path of the list ``name`` of ``folder``; ``InputError`` for anything outside the folder."""
    return lists.list_path(folder, name)


def list_state(folder: Path, name: str, catalogs: Catalogs) -> ListState:
    """Read, cost and judge one list of ``folder``, with its version and undo depth."""
    return read_state(name, list_file(folder, name), catalogs)


def folder_lists(folder: Path, catalogs: Catalogs) -> tuple[ListSummary, ...]:
    """Every list file of ``folder``, each with its verdict, or the located error that stops it."""
    return folder_summaries(folder, catalogs)


def change_list(
    folder: Path,
    name: str,
    catalogs: Catalogs,
    change: Change | HistoryStep,
    *,
    expect: str | None = None,
    state: bool = True,
) -> Changed:
    """Carry out ``change`` (``AddUnit``, ``SetCount``, ``FollowDoctor``, ``Undo``...) on a list of
    ``folder`` and keep it as an undo step, in one locked step. ``expect``: the version the caller
    saw; if the file is not at it, nothing is written (``ConflictError``). ``state=False`` leaves
    out the list's state after the change (a page that redirects does not show it)."""
    path = list_file(folder, name)
    result = editing.apply_change(path, catalogs, change, expect=expect, history=True)
    after = state_of(name, path, result.text, result.report) if state else None
    return Changed(done=result.done, changed=result.changed, state=after, entry=result.entry)


def tidy_folder(folder: Path) -> tuple[Path, ...]:
    """Remove the temporary files killed writes left in ``folder`` (a server does it when it starts)."""
    return lists.tidy(folder)


def duplicate_list(folder: Path, name: str, catalogs: Catalogs) -> str:
    """Copy a list of ``folder`` to a new file, named "NAME (copy)"; returns the new file's name."""
    source = list_file(folder, name)
    state = list_state(folder, name, catalogs)
    with lists.LOCK:
        file = lists.free_name(folder, source.stem + "-copy", source.suffix)
        target = list_file(folder, file)
        write_file(target, source.read_bytes(), overwrite=False)
        editing.apply_change(target, catalogs, editing.SetField(key="name", value=f"{state.report.army.name} (copy)"))
    return file


def delete_list(folder: Path, name: str) -> str:
    """Move a list of ``folder`` to its deleted lists (restorable); returns the id to restore it by."""
    with lists.LOCK:
        return lists.delete(folder, name)


def deleted_lists(folder: Path, named: int = 20) -> tuple[tuple[str, str, str, str], ...]:
    """The deleted lists of ``folder``, newest first: (id, file name, when, the list's own name).

    The name is read from the first ``named`` of them (the file name stands for it past those,
    and for a file whose name cannot be read)."""
    return deleted_summaries(folder, named)


def restore_list(folder: Path, deleted_id: str) -> str:
    """Put a deleted list back; returns its file name (its old one, or a free one if that is taken)."""
    with lists.LOCK:
        return lists.restore(folder, deleted_id)

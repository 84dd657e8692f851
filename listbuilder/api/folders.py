"""A folder of list files, as a builder serves it: each list's state, changes with undo and redo, deleted lists.

Lists are named by their file name in the folder (``zombies.yaml``); every function refuses a
name that would leave the folder. A change is a value (``listbuilder.editing.changes``) carried
out by ``api.editing.apply_change`` with its undo step, in one locked step; ``expect`` is the version
of the file the caller last saw: a change to a file that has changed since raises
``ConflictError`` and writes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from listbuilder.api.editing import create_list
from listbuilder.api.files import write_file
from listbuilder.editing import folder as lists
from listbuilder.editing.apply import apply_change
from listbuilder.editing.changes import Change, SetField
from listbuilder.editing.folder import list_path as list_file
from listbuilder.editing.folder import tidy as tidy_lists
from listbuilder.editing.history import HistoryStep
from listbuilder.editing.state import EntryRow, ListState, ListSummary, read_state, state_of
from listbuilder.editing.state import deleted_summaries as deleted_lists
from listbuilder.editing.state import folder_summaries as folder_lists
from listbuilder.errors import InputError
from listbuilder.files.reading import read_bytes
from listbuilder.play.places import tidy as tidy_games
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

__all__ = [
    "Changed",
    "EntryRow",
    "ListState",
    "ListSummary",
    "change_list",
    "delete_list",
    "deleted_lists",
    "duplicate_list",
    "folder_lists",
    "list_bytes",
    "list_file",
    "list_state",
    "new_folder_list",
    "restore_list",
    "tidy_folder",
]


def tidy_folder(folder: Path) -> tuple[Path, ...]:
    """Remove what killed writes left in ``folder``: temporary files beside its lists, in their
    history and among their games, and the lock files of killed edits. Returns the files removed."""
    return tidy_lists(folder) + tidy_games(folder)


@record
class Changed(Record):
    """The outcome of a change made to a list of a folder: what was done, and the list after it."""

    done: str
    changed: bool
    state: ListState | None  # None when the caller did not ask for it (a page that redirects)
    # or when the list cannot be read after it (a repair, or the undo of one: ``readable``)
    entry: int | None = None  # the entry the change made or changed, if it is still there
    readable: bool = True  # False: the list cannot be read after the change (its repair view shows it)

    def as_json(self) -> dict[str, Any]:
        shown = self.state.as_json() if self.state is not None else None
        return {"done": self.done, "changed": self.changed, "entry": self.entry, "list": shown}


def list_state(folder: Path, name: str, catalogs: Catalogs) -> ListState:
    """Read, cost and judge one list of ``folder``, with its version and undo depth."""
    return read_state(name, list_file(folder, name), catalogs)


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
    result = apply_change(path, catalogs, change, expect=expect, history=True)
    after = state_of(name, path, result.text, result.report) if state and result.report is not None else None
    return Changed(
        done=result.done, changed=result.changed, state=after, entry=result.entry, readable=result.report is not None
    )


def duplicate_list(folder: Path, name: str, catalogs: Catalogs) -> str:
    """Copy a list of ``folder`` to a new file, named "NAME (copy)"; returns the new file's name.

    A list that cannot be read is copied byte for byte (its name cannot be read to change it):
    a copy to try a repair on, the list as it was kept beside it."""
    source = list_file(folder, name)
    data = list_bytes(folder, name)
    try:
        copy_name: str | None = f"{list_state(folder, name, catalogs).report.army.name} (copy)"
    except InputError:
        copy_name = None
    with lists.LOCK:
        file = lists.free_name(folder, source.stem + "-copy", source.suffix)
        target = list_file(folder, file)
        write_file(target, data, overwrite=False)
        if copy_name is not None:
            apply_change(target, catalogs, SetField(key="name", value=copy_name))
    return file


def list_bytes(folder: Path, name: str) -> bytes:
    """The bytes of a list file of ``folder`` as they are, readable as a list or not (a download)."""
    return read_bytes(list_file(folder, name), "list file")


def delete_list(folder: Path, name: str) -> str:
    """Move a list of ``folder`` to its deleted lists (restorable); returns the id to restore it by."""
    with lists.LOCK:
        return lists.delete(folder, name)


def restore_list(folder: Path, deleted_id: str) -> str:
    """Put a deleted list back; returns its file name (its old one, or a free one if that is taken)."""
    with lists.LOCK:
        return lists.restore(folder, deleted_id)


def new_folder_list(folder: Path, catalogs: Catalogs, system_id: str, name: str | None, limit: int | None) -> str:
    """Start a list in ``folder`` (its file named after the list); returns the file's name."""
    system = catalogs.get(system_id)
    with lists.LOCK:
        file = lists.free_name(folder, name or f"new {system.definition.force}")
        create_list(catalogs, system_id, list_file(folder, file), name, limit)
    return file

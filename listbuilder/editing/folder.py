"""A folder of list files, as a builder serves it: safe names, new names, deleted lists.

Everything lives in the folder the user owns. A list is a plain ``NAME.yaml`` file in it; its
undo steps are kept in ``.listbuilder/history/`` (``history``), deleted lists in
``.listbuilder/deleted/STAMP-NAME.yaml``, restorable (at most ``MAX_DELETED``), and every folder
there is held to the same rules (``history.safe_folder``). A deleted list is a regular file there:
a link in that folder is neither listed, nor read, nor restored (it could lead out of the folder).

Only names that are one plain file in the folder are accepted (no ``..``, no folders, no hidden
files, no absolute paths), and a symbolic link that points out of the folder is refused, so
nothing outside it is read or written.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import threading
import time
import unicodedata
from pathlib import Path

from listbuilder.editing.history import STATE, History, safe_folder
from listbuilder.editing.lock import locked
from listbuilder.errors import InputError, ListbuilderError
from listbuilder.files.reading import MAX_FILE_BYTES
from listbuilder.files.writing import remove_temp_files

MAX_DELETED = 200  # deleted lists kept
# One plain file name: letters of any script, digits and a little punctuation; never a slash,
# a leading dot (hidden files, '..') or a control character.
LIST_NAME = re.compile(r"\w[\w .()+,'&-]{0,150}\.ya?ml")

# New, deleted and restored lists are named one at a time in one process (changes to a list take
# the list's own edit lock, which holds between processes too).
LOCK = threading.RLock()


def _refuse(folder: Path, name: str, why: str) -> InputError:
    return InputError.detailed(
        f"'{name}' is not a list file of this folder",
        why,
        file=folder,
        hint="list files are NAME.yaml, directly in the folder",
    )


def list_path(folder: Path, name: str) -> Path:
    """The path of the list ``name`` in ``folder``, refusing anything that would leave the folder."""
    if not isinstance(name, str) or not LIST_NAME.fullmatch(name) or ".." in name:
        raise _refuse(folder, str(name), "the name must be a plain file name ending in .yaml")
    root = Path(os.path.realpath(folder))
    path = root / name
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(root) or real == root:
        raise _refuse(folder, name, "it is a link to a file outside the folder")
    if STATE in real.relative_to(root).parts:
        raise _refuse(folder, name, "that is listbuilder's own history")
    return path


def list_names(folder: Path) -> list[str]:
    """The list files of ``folder`` (``*.yaml`` and ``*.yml`` directly in it), by name."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name.lower())
    except OSError as exc:
        raise InputError(f"cannot read the folder: {exc.strerror or exc}", file=folder) from None
    names = []
    for entry in entries:
        if not LIST_NAME.fullmatch(entry.name):
            continue
        try:
            list_path(folder, entry.name)
        except InputError:
            continue
        if entry.is_file():
            names.append(entry.name)
    return names


def free_name(folder: Path, stem: str, suffix: str = ".yaml") -> str:
    """``stem.yaml``, or ``stem-2.yaml``, ``stem-3.yaml``... whichever is free."""
    # 'Légion étrangère' gives 'legion-etrangere.yaml': accents go, other scripts stay as they are.
    plain = "".join(c for c in unicodedata.normalize("NFKD", stem.lower()) if not unicodedata.combining(c))
    stem = re.sub(r"[^\w]+|_", "-", plain).strip("-")[:80] or "list"
    name, n = f"{stem}{suffix}", 1
    while (folder / name).exists() or os.path.lexists(folder / name):
        n += 1
        name = f"{stem}-{n}{suffix}"
    return name


# --- deleted lists -------------------------------------------------------------------------------


_DELETED = re.compile(r"(\d{8}T\d{6}\d{6})-(.+)")


def deleted_dir(folder: Path, *, create: bool = False) -> Path | None:
    """``.listbuilder/deleted`` of ``folder``, checked as every history folder is (``None``: not made yet)."""
    return safe_folder(folder, (STATE, "deleted"), create=create)


def delete(folder: Path, name: str) -> str:
    """Move a list into ``.listbuilder/deleted/``; returns its id there (to restore it)."""
    path = list_path(folder, name)
    if not path.is_file():
        raise InputError("no such list file", file=path)
    target = deleted_dir(folder, create=True)  # checked before the list is moved
    assert target is not None
    now = time.time()
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f"{int(now * 1e6) % 1_000_000:06d}"
    deleted_id = f"{stamp}-{name}"
    os.replace(path, target / deleted_id)
    kept = sorted(p for p in os.listdir(target) if _DELETED.fullmatch(p))
    for old in kept[: max(0, len(kept) - MAX_DELETED)]:
        (target / old).unlink(missing_ok=True)
    return deleted_id


def deleted(folder: Path) -> list[tuple[str, str, str]]:
    """The deleted lists, newest first: (id, original name, when deleted as 'YYYY-MM-DD HH:MM')."""
    try:
        where = deleted_dir(folder)
        with os.scandir(where) if where is not None else contextlib.nullcontext(()) as entries:
            names = [e.name for e in entries if e.is_file(follow_symlinks=False)]  # no link, no folder
    except (OSError, InputError):
        return []
    out = []
    for n in sorted(names, reverse=True):
        m = _DELETED.fullmatch(n)
        if m and LIST_NAME.fullmatch(m.group(2)):
            s = m.group(1)
            out.append((n, m.group(2), f"{s[0:4]}-{s[4:6]}-{s[6:8]} {s[9:11]}:{s[11:13]}"))
    return out


def restore(folder: Path, deleted_id: str) -> str:
    """Put a deleted list back under its name (or a free one, if that is taken); returns the name."""
    m = _DELETED.fullmatch(deleted_id) if isinstance(deleted_id, str) else None
    if m is None or "/" in deleted_id or not LIST_NAME.fullmatch(m.group(2)):
        raise InputError(f"no deleted list '{deleted_id}'", file=folder)
    where = deleted_dir(folder)
    source = where / deleted_id if where is not None else None
    if source is None or not _regular(source):
        raise InputError.detailed(f"no deleted list '{deleted_id}'", "it is gone", file=folder)
    name = m.group(2)
    if os.path.lexists(folder / name):
        stem, dot, suffix = name.rpartition(".")
        name = free_name(folder, stem, f"{dot}{suffix}")
    target = list_path(folder, name)
    os.replace(source, target)
    return name


def deleted_text(path: Path) -> str:
    """The text of the deleted list at ``path`` (in ``deleted_dir``), read only if it is a regular
    file there: never through a link, checked on the file opened (``InputError`` otherwise)."""
    try:
        before = os.lstat(path)
        if not stat.S_ISREG(before.st_mode):
            raise InputError("a deleted list is a regular file", file=path)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as fh:
            opened = os.fstat(fh.fileno())
            if (opened.st_dev, opened.st_ino) != (before.st_dev, before.st_ino) or not stat.S_ISREG(opened.st_mode):
                raise InputError("the deleted list changed while it was read", file=path)
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise InputError("the deleted list is larger than a list file may be", file=path)
        return data.decode("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the deleted list: {exc.strerror or exc}", file=path) from None
    except UnicodeDecodeError:
        raise InputError("the deleted list is not UTF-8 text", file=path) from None


def _regular(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (not a link to one)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


# --- leftovers of killed writes ------------------------------------------------------------------

_TEMP = re.compile(r"\.(.+)\.(?:[a-z0-9_]{8}\.tmp|lock)")  # a killed write's file, or a killed edit's lock


def tidy(folder: Path, timeout: float = 1.0) -> tuple[Path, ...]:
    """Remove the temporary files killed writes left beside the lists of ``folder`` and in their
    history, and the lock files of killed edits; each list's under its edit lock (taking it over
    removes a dead holder's lock file); a list busy for ``timeout`` seconds is left for its
    next edit, which removes them too. Returns the files removed."""
    try:
        names = {m.group(1) for n in os.listdir(folder) if (m := _TEMP.fullmatch(n))}
    except OSError:
        return ()
    names |= _with_history_leftovers(folder)
    removed: list[Path] = []
    for name in sorted(n for n in names if LIST_NAME.fullmatch(n) and ".." not in n):
        try:
            with locked(folder / name, timeout) as target:
                removed += remove_temp_files(target)
                History(folder / name).sweep()
        except (ListbuilderError, OSError):
            continue
    return tuple(removed)


def _with_history_leftovers(folder: Path) -> set[str]:
    """The lists whose history holds a temporary file of a killed step write."""
    found: set[str] = set()
    try:
        history = safe_folder(folder, (STATE, "history"), create=False)
    except InputError:
        return found  # a history folder that breaks the rules is refused when a list is changed
    if history is None:
        return found
    with contextlib.suppress(OSError):
        for name in os.listdir(history):
            for kind in ("undo", "redo"):
                with contextlib.suppress(OSError):
                    if any(n.startswith(".") and n.endswith(".tmp") for n in os.listdir(history / name / kind)):
                        found.add(name)
    return found

"""A folder of list files, as a builder serves it: safe names, versions, undo and redo, deleted lists.

Everything lives in the folder the user owns. A list is a plain ``NAME.yaml`` file in it; its
history is kept beside it in ``.listbuilder/``:

- ``.listbuilder/history/NAME.yaml/undo/000042-VERSION.yaml``: the list as it was before each
  change made through the builder (at most ``MAX_STEPS``), named by the version the change
  produced, so an undo can tell whether anyone changed the file since;
- ``.../redo/``: the versions an undo took back, until the next change;
- ``.listbuilder/deleted/STAMP-NAME.yaml``: deleted lists, restorable (at most ``MAX_DELETED``).

A version is the start of the SHA-256 of the file's text (without a byte-order mark). Only names that are one plain file
in the folder are accepted (no ``..``, no folders, no hidden files, no absolute paths), and a
symbolic link that points out of the folder is refused, so nothing outside it is read or written.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

from listbuilder.errors import ConflictError, ErrorDetail, InputError
from listbuilder.files.writing import atomic_write

STATE = ".listbuilder"
MAX_STEPS = 100  # undo steps kept per list
MAX_DELETED = 200  # deleted lists kept
# One plain file name: letters of any script, digits and a little punctuation; never a slash,
# a leading dot (hidden files, '..') or a control character.
LIST_NAME = re.compile(r"\w[\w .()+,'&-]{0,150}\.ya?ml")
_STEP = re.compile(r"(\d{6})-([0-9a-f]{16})\.yaml")

# New, deleted and restored lists are named one at a time in one process (changes to a list take
# the list's own edit lock, which holds between processes too).
LOCK = threading.RLock()


def version_of(text: str) -> str:
    """The version of a list's text: the first 16 hex digits of the SHA-256 of its UTF-8 bytes."""
    import hashlib  # here, not at the top: it loads OpenSSL, which commands that edit nothing never need

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _refuse(folder: Path, name: str, why: str) -> InputError:
    return InputError(
        f"'{name}' is not a list file of this folder",
        file=folder,
        details=[ErrorDetail(message=why, hint="list files are NAME.yaml, directly in the folder")],
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
    import unicodedata

    # 'Légion étrangère' gives 'legion-etrangere.yaml': accents go, other scripts stay as they are.
    plain = "".join(c for c in unicodedata.normalize("NFKD", stem.lower()) if not unicodedata.combining(c))
    stem = re.sub(r"[^\w]+|_", "-", plain).strip("-")[:80] or "list"
    name, n = f"{stem}{suffix}", 1
    while (folder / name).exists() or os.path.lexists(folder / name):
        n += 1
        name = f"{stem}-{n}{suffix}"
    return name


# --- undo and redo -------------------------------------------------------------------------------


def _steps_dir(path: Path, kind: str) -> Path:
    return path.parent / STATE / "history" / path.name / kind


def _steps(path: Path, kind: str) -> list[tuple[int, str, Path]]:
    folder = _steps_dir(path, kind)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for n in names:
        m = _STEP.fullmatch(n)
        if m:
            found.append((int(m.group(1)), m.group(2), folder / n))
    return sorted(found)


def depth(path: Path) -> tuple[int, int]:
    """How many undo and redo steps the list has."""
    return len(_steps(path, "undo")), len(_steps(path, "redo"))


def _keep(path: Path, data: bytes) -> None:
    """Write a history file whole (through a temporary file and a rename) but without waiting for
    the disk (``fsync``): losing a step to a power cut loses an undo, never a list, and the wait
    would double the time of every change."""
    atomic_write(path, data, durable=False)


def _push(path: Path, kind: str, text: str, version_after: str) -> None:
    steps = _steps(path, kind)
    number = steps[-1][0] + 1 if steps else 1
    folder = _steps_dir(path, kind)
    folder.mkdir(parents=True, exist_ok=True)
    _keep(folder / f"{number % 1_000_000:06d}-{version_after}.yaml", text.encode("utf-8"))
    for _, _, old in steps[: max(0, len(steps) + 1 - MAX_STEPS)]:
        old.unlink(missing_ok=True)


def _clear(path: Path, kind: str) -> None:
    for _, _, step in _steps(path, kind):
        step.unlink(missing_ok=True)


def record_change(path: Path, before: str, after: str, bom: bool = False) -> None:
    """Remember ``before`` as the undo step of a change that wrote ``after``; forget the redo steps."""
    if before == after:
        return
    _push(path, "undo", (_BOM if bom else "") + before, version_of(after))
    _clear(path, "redo")


_BOM = "\ufeff"


def step(path: Path, kind: str, check: Callable[[str], None] | None = None) -> str:
    """Undo (``kind='undo'``) or redo the last change: write the version it took back, and keep
    the current one for the other direction. Refused when the file changed since that change.

    Runs under the list's edit lock (``locking.locked_edit``); ``check`` sees the current text
    first and may refuse the step by raising."""
    from listbuilder.share.locking import locked_edit

    other = "redo" if kind == "undo" else "undo"
    taken: list[tuple[Path, str]] = []

    def back(current: str) -> str:
        if check is not None:
            check(current)
        steps = _steps(path, kind)
        if not steps:
            raise InputError(
                f"there is nothing to {kind}", file=path, details=[ErrorDetail(message=f"no change to {kind} is kept")]
            )
        _, after, step_file = steps[-1]
        if version_of(current) != after:
            raise ConflictError(
                f"the file changed since the last change made here, so it cannot be {kind}ne",
                file=path,
                details=[
                    ErrorDetail(
                        message=f"{kind}ing would lose that change",
                        hint="change the list again, or edit the file by hand",
                    )
                ],
            )
        earlier = step_file.read_bytes().decode("utf-8").removeprefix(_BOM)
        taken.append((step_file, earlier))
        return earlier

    done = locked_edit(path, back)
    step_file, earlier = taken[-1]
    _push(path, other, (_BOM if done.bom else "") + done.before, version_of(earlier))
    step_file.unlink(missing_ok=True)
    return earlier


# --- deleted lists -------------------------------------------------------------------------------


_DELETED = re.compile(r"(\d{8}T\d{6}\d{6})-(.+)")


def deleted_dir(folder: Path) -> Path:
    return folder / STATE / "deleted"


def delete(folder: Path, name: str) -> str:
    """Move a list into ``.listbuilder/deleted/``; returns its id there (to restore it)."""
    path = list_path(folder, name)
    if not path.is_file():
        raise InputError("no such list file", file=path)
    target = deleted_dir(folder)
    target.mkdir(parents=True, exist_ok=True)
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
        names = os.listdir(deleted_dir(folder))
    except OSError:
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
    source = deleted_dir(folder) / deleted_id
    if not source.is_file():
        raise InputError(f"no deleted list '{deleted_id}'", file=folder, details=[ErrorDetail(message="it is gone")])
    name = m.group(2)
    if os.path.lexists(folder / name):
        stem, dot, suffix = name.rpartition(".")
        name = free_name(folder, stem, f"{dot}{suffix}")
    target = list_path(folder, name)
    os.replace(source, target)
    return name

"""One edit of a list file at a time: a lock around read, check and write, for processes and threads.

Without it, two edits that read the same file both write their own change over it, and one is
lost (twenty ``listbuilder add`` at once used to leave three or four of the twenty models). The
lock is ``fcntl.flock`` on a lock file beside the list, ``.NAME.lock``, so it holds between
processes and between threads alike (each holder opens the lock file itself, and flock locks
belong to the open file, not to the process). We use the standard library rather than the
``filelock`` package: on POSIX that package takes the same ``flock``, and we need one more thing
it does not give, that the lock file is removed again so a list's folder is left as it was.

Removing a lock file safely: the holder deletes it while it still holds the lock, and whoever
gets the lock next checks that the file it locked is still the one at that path (same inode);
if not, it opens the new one and tries again. A holder killed mid-edit leaves its lock file
behind, and the kernel releases its lock; the next edit takes it over and deletes it.

``locked_edit`` is the one locked edit every front end uses: the caller gives a function from the
file's text to its new text, and the edit lands whole or is refused with a located error.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from listbuilder.errors import ConflictError, ErrorDetail, OutputError
from listbuilder.files.reading import read_text
from listbuilder.files.writing import atomic_write
from listbuilder.record import Record, record

LOCK_TIMEOUT_SECONDS = 30.0  # an edit holds the lock for milliseconds; a longer wait is a stuck holder
_POLL_SECONDS = 0.005
# Threads of one process also take a process-local lock first (one of a fixed few, chosen by the
# path), so a thread never busy-waits on the flock another thread of its own process holds.
_THREAD_LOCKS = tuple(threading.Lock() for _ in range(32))

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def lock_path(target: Path) -> Path:
    """The lock file of ``target`` (a real path, links resolved): ``.NAME.lock`` beside it."""
    return target.parent / f".{target.name}.lock"


@contextlib.contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[Path]:
    """Hold the edit lock of the file at ``path`` (a symbolic link is followed); yields its real path.

    Raises ``ConflictError`` when another edit holds it for longer than ``timeout`` seconds, and
    ``OutputError`` when no lock file can be made beside the list (then no edit could be written).
    ``timeout`` defaults to ``LOCK_TIMEOUT_SECONDS``."""
    timeout = LOCK_TIMEOUT_SECONDS if timeout is None else timeout
    target = Path(os.path.realpath(path))
    thread_lock = _THREAD_LOCKS[hash(str(target)) % len(_THREAD_LOCKS)]
    deadline = time.monotonic() + timeout
    if not thread_lock.acquire(timeout=max(timeout, 0.001)):
        raise _busy(path, timeout)
    try:
        if fcntl is None:  # pragma: no cover - without flock, threads are still kept apart
            yield target
            return
        fd = _acquire(path, lock_path(target), deadline, timeout)
        try:
            yield target
        finally:
            with contextlib.suppress(OSError):
                os.unlink(lock_path(target))  # while still held: see the module's docstring
            os.close(fd)  # closing releases the flock
    finally:
        thread_lock.release()


def _acquire(path: Path, lock: Path, deadline: float, timeout: float) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        try:
            fd = os.open(lock, flags, 0o666)
        except OSError as exc:
            raise OutputError(
                f"cannot make the lock file that keeps edits apart: {exc.strerror or exc}",
                file=lock,
                details=[ErrorDetail(message=f"{path} is unchanged", hint="check that its folder can be written to")],
            ) from None
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise _busy(path, timeout) from None
                    time.sleep(_POLL_SECONDS)
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(lock, follow_symlinks=False))
            except FileNotFoundError:
                same = False
            if same:
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the holder before us removed this lock file: lock the new one


def _busy(path: Path, timeout: float) -> ConflictError:
    return ConflictError(
        f"another edit of this list has been running for more than {timeout:g} seconds",
        file=path,
        details=[ErrorDetail(message="the file is unchanged", hint="run the command again when the other edit ends")],
    )


@record
class FileEdit(Record):
    """A locked edit of a text file: its text before and after, and whether it was written."""

    path: Path
    before: str  # the text as read, a byte-order mark removed
    after: str  # the text the change gave
    written: bool  # False when the text did not change, or when asked not to write
    bom: bool = False  # the file starts with a byte-order mark (kept when it is written)

    def as_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "text": self.after,
            "changed": self.after != self.before,
            "written": self.written,
        }

    @property
    def data(self) -> bytes:
        """The bytes of the file after the edit (as written, or as they would be)."""
        return (("\ufeff" if self.bom else "") + self.after).encode("utf-8")


def locked_edit(path: Path, change: Callable[[str], str], *, write: bool = True, what: str = "list file") -> FileEdit:
    """Apply ``change`` (the file's text -> its new text) to the file at ``path``, under its edit lock.

    The file is read, changed and written while no other edit of it can run, so every edit lands
    whole or is refused: ``change`` may raise (a project error), and then nothing is written. A
    byte-order mark and the file's permissions are kept; a symbolic link is followed, not
    replaced. A writer that does not take the lock (a text editor) and changes the file between
    the read and the write is not overwritten: that is a ``ConflictError``. ``write=False``
    computes the new text without writing it (and without the lock)."""
    if not write:
        before, raw = _read(path, Path(os.path.realpath(path)), what)
        bom = raw.startswith(_BOM)
        return FileEdit(path=path, before=before, after=change(before), written=False, bom=bom)
    with locked(path) as target:
        before, raw = _read(path, target, what)
        bom = raw.startswith(_BOM)
        after = change(before)
        edit = FileEdit(path=path, before=before, after=after, written=False, bom=bom)
        if after == before:
            return edit
        try:
            now = target.read_bytes()
        except OSError:
            now = None
        if now != raw:
            raise conflict(path)
        try:
            atomic_write(target, edit.data)
        except OSError as exc:
            raise OutputError(
                f"cannot write the {what}: {exc.strerror or exc}",
                file=path,
                details=[ErrorDetail(message="the file is unchanged")],
            ) from None
    return FileEdit(path=path, before=before, after=after, written=True, bom=bom)


_BOM = "\ufeff".encode()


def _read(path: Path, target: Path, what: str) -> tuple[str, bytes]:
    """The file's text (checked as ``read_text`` checks it) and the raw bytes that text came from."""
    text = read_text(path, what)
    try:
        raw = target.read_bytes()
    except OSError:
        raise conflict(path) from None
    if raw != ((_BOM if raw.startswith(_BOM) else b"") + text.encode("utf-8")):
        raise conflict(path)  # changed between the two reads
    return text, raw


def conflict(path: Path) -> ConflictError:
    """The error of a file changed on disk, by a writer outside the lock, during an edit."""
    return ConflictError(
        "the file changed on disk while it was being edited, so it was not written",
        file=path,
        details=[ErrorDetail(message="another program or command changed it", hint="run the command again")],
    )

"""One edit of a list file at a time: a lock around read, check and write, for processes and threads.

Without it, two edits that read the same file both write their own change over it, and one is
lost (twenty ``listbuilder add`` at once used to leave three or four of the twenty models). The
lock is taken on a lock file beside the list, ``.NAME.lock``, so it holds between processes and
between threads alike (each holder opens the lock file itself):

- on POSIX, ``fcntl.flock`` (a lock that belongs to the open file, not to the process);
- on Windows, ``msvcrt.locking`` of the file's first byte (a lock of the open handle, which the
  system also releases when a holder dies). Both are the standard library: the ``filelock``
  package takes these same two calls, but it neither removes its lock file again (a list's
  folder should be left as it was) nor checks that the file it locked is still the one at
  its path, which removing the file makes necessary.

Removing a lock file safely: the holder deletes it while it still holds the lock, and whoever
gets the lock next checks that the file it locked is still the one at that path (same file id);
if not, it opens the new one and tries again. Windows refuses to delete a file that is open, so
there the holder deletes it after closing it, and that fails, harmlessly, while another edit
has it open: the last one out removes it. A holder killed mid-edit leaves its lock file behind,
and the system releases its lock; the next edit takes it over and deletes it.

Threads of one process also take a process-local lock first, so the lock between processes is
only ever contended by other processes (POSIX record locks, which a simulated ``msvcrt`` uses,
belong to the process).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from listbuilder.errors import ConflictError, OutputError
from listbuilder.files.reading import read_text

LOCK_TIMEOUT_SECONDS = 30.0  # an edit holds the lock for milliseconds; a longer wait is a stuck holder
_POLL_SECONDS = 0.005
# Threads of one process also take a process-local lock first (one of a fixed few, chosen by the
# path), so a thread never busy-waits on the flock another thread of its own process holds.
_THREAD_LOCKS = tuple(threading.Lock() for _ in range(32))


class _Flock:
    """``fcntl.flock`` of the lock file (POSIX)."""

    def __init__(self, fcntl: Any) -> None:
        self.fcntl = fcntl

    def try_lock(self, fd: int) -> bool:
        try:
            self.fcntl.flock(fd, self.fcntl.LOCK_EX | self.fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(self, fd: int) -> None:
        pass  # closing the file releases the flock


class _Msvcrt:
    """``msvcrt.locking`` of the lock file's first byte (Windows)."""

    def __init__(self, msvcrt: Any) -> None:
        self.msvcrt = msvcrt

    def try_lock(self, fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)  # locking() locks from the file's position
        try:
            self.msvcrt.locking(fd, self.msvcrt.LK_NBLCK, 1)
        except OSError:  # EACCES or EDEADLOCK: another handle holds it
            return False
        return True

    def unlock(self, fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        with contextlib.suppress(OSError):
            self.msvcrt.locking(fd, self.msvcrt.LK_UNLCK, 1)


def _backend() -> _Flock | _Msvcrt:
    """The lock of this platform, found when an edit first locks (a simulated Windows may have
    taken ``fcntl`` away by then)."""
    try:
        import fcntl  # at the first lock, not at import: a simulated Windows takes it away meanwhile
    except ImportError:
        import msvcrt  # no fcntl: Windows, where msvcrt always is

        return _Msvcrt(msvcrt)
    return _Flock(fcntl)


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
        backend = _backend()
        lock = lock_path(target)
        fd = _acquire(backend, path, lock, deadline, timeout)
        try:
            yield target
        finally:
            removed = True
            try:
                os.unlink(lock)  # while still held: see the module's docstring
            except PermissionError:
                removed = False  # Windows: an open file cannot be removed
            except OSError:
                pass
            backend.unlock(fd)
            os.close(fd)
            if not removed:
                with contextlib.suppress(OSError):
                    os.unlink(lock)  # refused while another edit has it open: that one removes it
    finally:
        thread_lock.release()


def _acquire(backend: _Flock | _Msvcrt, path: Path, lock: Path, deadline: float, timeout: float) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0) | getattr(os, "O_NOINHERIT", 0)
    while True:
        try:
            fd = os.open(lock, flags, 0o666)
        except OSError as exc:
            raise OutputError.detailed(
                f"cannot make the lock file that keeps edits apart: {exc.strerror or exc}",
                f"{path} is unchanged",
                file=lock,
                hint="check that its folder can be written to",
            ) from None
        try:
            while not backend.try_lock(fd):
                if time.monotonic() > deadline:
                    raise _busy(path, timeout) from None
                time.sleep(_POLL_SECONDS)
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(lock, follow_symlinks=False))
            except FileNotFoundError:
                same = False
            if same:
                return fd
            backend.unlock(fd)
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the holder before us removed this lock file: lock the new one


def _busy(path: Path, timeout: float) -> ConflictError:
    return ConflictError.detailed(
        f"another edit of this list has been running for more than {timeout:g} seconds",
        "the file is unchanged",
        file=path,
        hint="run the command again when the other edit ends",
    )


_BOM = "\ufeff".encode()


def read_locked(path: Path, target: Path, what: str = "list file") -> tuple[str, bytes]:
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
    return ConflictError.detailed(
        "the file changed on disk while it was being edited, so it was not written",
        "another program or command changed it",
        file=path,
        hint="run the command again",
    )

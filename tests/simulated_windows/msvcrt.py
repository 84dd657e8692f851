"""A stand-in for Windows' ``msvcrt`` file locks, for running the edit lock as Windows would on Linux.

``locking(fd, mode, nbytes)`` locks or unlocks ``nbytes`` bytes from the file's current position,
as the real one does, over POSIX record locks (``fcntl.lockf``), which also lock byte ranges and
are also released by the system when their holder dies. ``fcntl`` is imported here, when this
module is first imported, so the simulated-Windows mode can take ``fcntl`` away from everything
else afterwards. As on Windows:

- ``LK_NBLCK`` and ``LK_NBRLCK`` fail at once with ``OSError`` (``EACCES``) when the range is held;
- ``LK_LOCK`` and ``LK_RLCK`` try once a second, ten times, then fail with ``EDEADLOCK``;
- ``LK_UNLCK`` of a range that is not locked fails with ``OSError`` (``EACCES``).

Standard modules that tell Windows from POSIX by trying ``import msvcrt`` (``subprocess``,
``getpass``) must be imported before this module is importable, or they take Linux for Windows
(``subprocess`` then wants ``_winapi``): a simulated-Windows start-up imports them first.

One difference is kept in mind, not hidden: POSIX record locks belong to the process, so two
handles of one process do not keep each other out (listbuilder's lock takes a lock between its
own threads first, so it never relies on that).
"""

from __future__ import annotations

import errno
import fcntl as _fcntl
import os
import time

LK_UNLCK = 0
LK_LOCK = 1
LK_NBLCK = 2
LK_RLCK = 3
LK_NBRLCK = 4

_held: set[tuple[int, int, int]] = set()  # (fd, start, length) locked through this module


def locking(fd: int, mode: int, nbytes: int) -> None:
    """Lock, or unlock, ``nbytes`` bytes of ``fd`` from its current position (see the module)."""
    if nbytes < 0:
        raise OSError(errno.EINVAL, "Invalid argument")
    start = os.lseek(fd, 0, os.SEEK_CUR)
    key = (fd, start, nbytes)
    if mode == LK_UNLCK:
        if key not in _held:
            raise OSError(errno.EACCES, "Permission denied")
        _fcntl.lockf(fd, _fcntl.LOCK_UN, nbytes, start, os.SEEK_SET)
        _held.discard(key)
        return
    if mode not in (LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK):
        raise OSError(errno.EINVAL, "Invalid argument")
    tries = 10 if mode in (LK_LOCK, LK_RLCK) else 1
    for attempt in range(tries):
        try:
            _fcntl.lockf(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB, nbytes, start, os.SEEK_SET)
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EAGAIN):
                raise
            if attempt + 1 < tries:
                time.sleep(1)
            continue
        _held.add(key)
        return
    if tries > 1:
        raise OSError(errno.EDEADLOCK, "Resource deadlock avoided")
    raise OSError(errno.EACCES, "Permission denied")

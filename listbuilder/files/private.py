"""When a file in a cache folder may be trusted: the one rule both caches read by.

The rule-set cache (``rules/cache.py``) and the compiled-template cache
(``printing/templatecache.py``) keep what they make between runs in the user's cache folder, and
what they read back is code or becomes records the engine trusts. So a cache reads a file only if
it is a regular file of this user that nobody else may read or write, checked on the open file
(it cannot be swapped between the check and the read, and opening never follows a link), and
uses a folder only if it is a real folder of this user that nobody else may enter. Anything else
is a miss, and the cache builds afresh.

Windows has no user ids, no ``O_NOFOLLOW`` and no mode bits for other users, so there the same
promise is kept another way, never by a check that passes for want of the call: a cache file is
read only from a folder inside the user's own profile (which Windows keeps to its user) reached
without a symbolic link or a junction anywhere on the way (``own_profile_folder``), and only if
the path was no link or reparse point and is the very file opened (``open_trusted``). A folder
handed over open (``dir_fd``) cannot be judged so, and is not used (the template cache is off).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

OTHERS = 0o077  # the permission bits of the group and of everyone else: a private file has none
FILE_MODE = 0o600  # what a cache writes its files as
FOLDER_MODE = 0o700  # and its folders
_OPEN = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def _user_ids() -> bool:
    """Whether this system has user ids to judge files by (POSIX; not Windows)."""
    return hasattr(os, "geteuid")


def trusted_file(st: os.stat_result) -> bool:
    """Whether the file ``st`` describes may be read back: a regular file of this user that no
    one else may read or write. Without user ids, a regular file (the folder vouches for it:
    ``open_trusted``)."""
    if not stat.S_ISREG(st.st_mode):
        return False
    return not _user_ids() or (st.st_uid == os.geteuid() and not st.st_mode & OTHERS)


def trusted_folder(st: os.stat_result) -> bool:
    """Whether a cache folder may be used: a real folder of this user that no one else may enter.
    Without user ids an open folder says nothing of who may enter it: never."""
    return _user_ids() and stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & OTHERS


def own_profile_folder(folder: str | os.PathLike[str]) -> bool:
    """Whether files in ``folder`` may be trusted at all. With user ids, yes (each file is judged
    by its owner and mode). Without them (Windows), only a folder inside the user's own profile
    (home) whose real path is its path: no symbolic link or junction on the way, which
    ``realpath`` resolves on Windows as everywhere."""
    if _user_ids():
        return True
    try:
        absolute = os.path.normcase(os.path.abspath(folder))
        real = os.path.normcase(os.path.realpath(folder))
        home = os.path.normcase(os.path.realpath(Path.home()))
    except (OSError, RuntimeError, ValueError):
        return False
    return real == absolute and real != home and Path(real).is_relative_to(home)


def _plain(before: os.stat_result, opened: os.stat_result) -> bool:
    """The path looked at was no link nor reparse point (a junction), and is the file opened."""
    reparse = getattr(before, "st_file_attributes", 0) & stat.FILE_ATTRIBUTE_REPARSE_POINT
    return (
        not stat.S_ISLNK(before.st_mode)
        and not reparse
        and (before.st_dev, before.st_ino)
        == (
            opened.st_dev,
            opened.st_ino,
        )
    )


def open_trusted(name: str | os.PathLike[str], dir_fd: int | None = None) -> int | None:
    """The file ``name`` (inside the open folder ``dir_fd``, if given) opened for reading if it may
    be trusted, else ``None``: never through a link, never blocking on a FIFO, judged on the open
    file itself. Without ``O_NOFOLLOW`` the path is looked at first and must be the file opened,
    and its folder must be ``own_profile_folder``."""
    before = None
    if not hasattr(os, "O_NOFOLLOW") or not _user_ids():
        if dir_fd is not None or not own_profile_folder(os.path.dirname(os.path.abspath(name))):
            return None
        try:
            before = os.lstat(name)
        except OSError:
            return None
    try:
        fd = os.open(name, _OPEN, dir_fd=dir_fd) if dir_fd is not None else os.open(name, _OPEN)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if trusted_file(st) and (before is None or _plain(before, st)):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None

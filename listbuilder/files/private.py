"""When a file in a cache folder may be trusted: the one rule both caches read by.

The rule-set cache (``rules/cache.py``) and the compiled-template cache
(``printing/templatecache.py``) keep what they make between runs in the user's cache folder, and
what they read back is code or becomes records the engine trusts. So a cache reads a file only if
it is a regular file of this user that nobody else may read or write, checked on the open file
(it cannot be swapped between the check and the read, and opening never follows a link), and
uses a folder only if it is a real folder of this user that nobody else may enter. Anything else
is a miss, and the cache builds afresh.
"""

from __future__ import annotations

import os
import stat

OTHERS = 0o077  # the permission bits of the group and of everyone else: a private file has none
FILE_MODE = 0o600  # what a cache writes its files as
FOLDER_MODE = 0o700  # and its folders
_OPEN = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def _ours(st: os.stat_result) -> bool:
    # Where the system has no user ids (Windows) every file is the user's own.
    return not hasattr(os, "geteuid") or st.st_uid == os.geteuid()


def trusted_file(st: os.stat_result) -> bool:
    """Whether the file ``st`` describes may be read back: a regular file of this user that no
    one else may read or write."""
    return stat.S_ISREG(st.st_mode) and _ours(st) and not st.st_mode & OTHERS


def trusted_folder(st: os.stat_result) -> bool:
    """Whether a cache folder may be used: a real folder of this user that no one else may enter."""
    return stat.S_ISDIR(st.st_mode) and _ours(st) and not st.st_mode & OTHERS


def open_trusted(name: str | os.PathLike[str], dir_fd: int | None = None) -> int | None:
    """The file ``name`` (inside the open folder ``dir_fd``, if given) opened for reading if it may
    be trusted, else ``None``: never through a link, never blocking on a FIFO, judged on the open
    file itself."""
    try:
        fd = os.open(name, _OPEN, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if trusted_file(os.fstat(fd)):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None

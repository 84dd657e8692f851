"""Writing a file whole or not at all: the one atomic write every writer uses, and a command's output.

``atomic_write`` serves a list being edited, a command's output, the undo history and the
caches alike: the data goes to a fresh name beside the target (created exclusively, never
through a link), is flushed to the disk, then renamed over the target in one step, so a
reader sees the old file or the new one and a failure leaves no partial file behind; a durable
write then flushes the folder too, so the rename itself survives a power cut.
``write_output`` adds what a command's output needs: the target checked first
(``check_target``) and every failure an ``OutputError``.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path

from listbuilder.errors import InputError, OutputError

_ATTEMPTS = 3
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def temporary_name(name: str) -> str:
    """A fresh name beside ``name`` for writing it: ``.NAME.XXXXXXXX.tmp``, eight random hex
    digits (what ``remove_temp_files`` cleans up after a killed write)."""
    return f".{name}.{secrets.token_hex(4)}.tmp"


def atomic_write(
    path: Path | str, data: bytes, *, mode: int | None = None, durable: bool = True, dir_fd: int | None = None
) -> None:
    """Put ``data`` at ``path`` whole, or leave what was there untouched.

    ``mode`` is the new file's permission bits (a private cache gives 0o600); by default an
    existing file keeps its own and a new one gets what ``open`` would give it. ``durable=False``
    skips waiting for the disk (``fsync`` of the file, then of its folder, which makes the rename
    last), for files whose loss in a power cut costs little (the undo history). With ``dir_fd``,
    ``path`` is a name inside that open folder: a cache writes only through the folder it has
    checked, which a link swapped in meanwhile cannot redirect.
    """
    name = os.fspath(path)
    folder, base = os.path.split(name)
    keep = None
    if mode is None:
        with contextlib.suppress(FileNotFoundError):
            keep = stat.S_IMODE(os.stat(name, dir_fd=dir_fd).st_mode)  # an edit keeps the file's permissions
    for attempt in range(_ATTEMPTS):
        tmp = os.path.join(folder, temporary_name(base))
        try:
            fd = os.open(tmp, _FLAGS, 0o666 if mode is None else mode, dir_fd=dir_fd)
            break
        except FileExistsError:  # another writer's, or a planted link: never written through
            if attempt == _ATTEMPTS - 1:
                raise
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if keep is not None:
                _set_mode(fd, tmp, keep, dir_fd)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if dir_fd is None:  # without the folder arguments where none is asked for: not every system has them
            os.replace(tmp, name)
        else:
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise
    if durable:
        _sync_folder(folder, dir_fd)


def _sync_folder(folder: str, dir_fd: int | None) -> None:
    """Flush the folder's entries to the disk: the rename is written in the folder, not the file.

    Windows cannot open a folder (nor needs to: its rename is flushed with the file), so there the
    folder is left to the system. The file is in place already, so a folder that cannot be opened
    or flushed (a file system without fsync for folders: EINVAL) fails nothing."""
    if os.name == "nt":
        return
    with contextlib.suppress(OSError):
        if dir_fd is not None:
            os.fsync(dir_fd)
            return
        fd = os.open(folder or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _set_mode(fd: int, tmp: str, mode: int, dir_fd: int | None) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # pragma: no cover - Windows has no fchmod
        os.chmod(tmp, mode, dir_fd=dir_fd)


def check_target(target: Path, inputs: Sequence[Path] = (), overwrite: bool = True) -> None:
    """Refuse (``OutputError``, exit code 3, nothing touched) an output path that is not a regular
    file, or that is one of the command's inputs; unless ``overwrite``, refuse one that exists at
    all (``InputError``: the user asked for a new file).

    What is at ``target`` must be a regular file (or nothing): a folder, a FIFO or a device node
    (``/dev/full``) is refused, never replaced. ``inputs`` are what the command read: a file is
    matched by identity (device and inode), so a symbolic link, a hard link or another spelling
    of its path is caught too; a folder (catalogs, templates) stands for every file inside it.
    A symbolic link at ``target`` is judged by what it points to."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None  # nothing there (or a dangling link): a new file
    except OSError as exc:
        raise _refuse(target, f"cannot look at the output path: {exc.strerror or exc}", "check the path") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise _refuse(target, "the output path is a folder", "give a file name inside it with -o")
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = _FILE_KINDS.get(stat.S_IFMT(st.st_mode), "not a regular file")
        raise _refuse(target, f"the output path is {kind}, not a regular file", "give the name of a file with -o")
    if st is not None:
        for source in inputs:
            if _is_or_holds(source, target, st):
                what = "one of the files this command reads" if source.is_dir() else "an input of this command"
                raise _refuse(
                    target,
                    f"refusing to write over {what} ({source})",
                    "choose another output name with -o",
                )
    if not overwrite and (st is not None or target.is_symlink()):
        raise InputError.detailed("refusing to overwrite an existing file", "choose another name with -o", file=target)


_FILE_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a device node",
    stat.S_IFBLK: "a device node",
    stat.S_IFSOCK: "a socket",
}


def _is_or_holds(source: Path, target: Path, st: os.stat_result) -> bool:
    """Whether the existing file ``target`` (whose stat is ``st``) is ``source``, or lies in the folder ``source``."""
    try:
        source_st = os.stat(source)
    except OSError:
        return False
    if not stat.S_ISDIR(source_st.st_mode):
        return os.path.samestat(source_st, st)
    folder = os.path.realpath(source)
    return os.path.commonpath([folder, os.path.realpath(target)]) == folder


def _refuse(target: Path, summary: str, hint: str) -> OutputError:
    return OutputError.detailed(summary, "nothing was written", file=target, hint=hint)


def write_output(target: Path, data: bytes, inputs: Sequence[Path] = (), overwrite: bool = True) -> None:
    """Write a command's output atomically, after ``check_target``; a failure is an ``OutputError``."""
    check_target(target, inputs, overwrite)
    try:
        atomic_write(target, data)
    except OSError as exc:
        raise OutputError.detailed(
            f"cannot write the output: {exc.strerror or exc}",
            "check that the folder exists and can be written to",
            file=target,
        ) from None


def temp_files(path: Path) -> list[Path]:
    """The ``.NAME.XXXXXXXX.tmp`` files ``atomic_write`` makes beside ``path`` while it writes."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    try:
        return [path.parent / n for n in os.listdir(path.parent) if pattern.fullmatch(n)]
    except OSError:
        return []


def remove_temp_files(path: Path) -> tuple[Path, ...]:
    """Delete the temporary files killed writes of ``path`` left beside it; call it holding the
    list's lock (then no write of it is in progress). Links and folders of that name are left alone."""
    removed = []
    for leftover in temp_files(path):
        with contextlib.suppress(OSError):
            if leftover.is_file() and not leftover.is_symlink():
                leftover.unlink()
                removed.append(leftover)
    return tuple(removed)

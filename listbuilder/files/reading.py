"""Reading an input file within bounds: the one bounded read every reader uses.

A list, a catalog file, an exported list or a template is read through ``read_file``, which reads
the open file up to one byte past its bound and never more, so a huge file (or one that grows
while it is read) costs no more than the bound. ``read_text`` adds what every text input needs:
a clear ``InputError`` for a missing file, a folder, a broken link, a file past the bound or one
that is not UTF-8.
"""

from __future__ import annotations

import errno
import os
from itertools import islice
from pathlib import Path

from listbuilder.errors import InputError
from listbuilder.words import did_you_mean

MAX_FILE_BYTES = 4 * 1024 * 1024  # a list or catalog file; no real one is anywhere near it
_CHUNK = 1024 * 1024


class TooLarge(Exception):
    """A file holds more than the bound it was read with; ``size`` is how much it holds (at least)."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size:,} bytes")
        self.size = size


def read_at_most(fd: int, limit: int) -> bytes:
    """What the open file ``fd`` holds from where it stands, but never more than ``limit + 1``
    bytes: a result longer than ``limit`` means the file is past its bound."""
    chunks = []
    size = 0
    while size <= limit:
        chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_file(path: Path, limit: int) -> bytes:
    """The bytes of the file at ``path``; ``TooLarge`` if it holds more than ``limit`` (its size
    as the file system gives it, or what was read if more). ``OSError`` as ``open`` raises it."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        size = os.fstat(fd).st_size
        if size > limit:  # refused unread
            raise TooLarge(size)
        data = read_at_most(fd, limit)
        if len(data) > limit:  # it grew while it was read
            raise TooLarge(len(data))
        return data
    finally:
        os.close(fd)


def _broken_link(path: Path, what: str) -> None:
    """Raise the error for a symbolic link that leads nowhere: a loop, or a missing target."""
    try:
        path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError.detailed(
                f"this {what} is a symbolic link that loops back on itself",
                "point the link at a real file (ls -l shows where it leads)",
                file=path,
            ) from None
    raise InputError.detailed(
        f"this {what} is a symbolic link to a file that does not exist: {os.readlink(path)}",
        "point the link at a real file, or remove it",
        file=path,
    )


def _a(what: str) -> str:
    """``what`` with its article: 'a list file', 'an exported list'."""
    return f"{'an' if what[:1].lower() in 'aeiou' else 'a'} {what}"


def _near(path: Path) -> str | None:
    """'did you mean' a file beside a missing one: 'zombie-raiders.yaml' for 'zombie-raiders.yml'."""
    try:
        with os.scandir(path.parent) as entries:  # a bounded look: a huge folder is not read whole
            names = [e.name for e in islice(entries, 5000) if not e.name.startswith(".")]
    except OSError:
        return None
    return did_you_mean(path.name, names)


def read_text(path: Path, what: str = "file") -> str:
    """Read a UTF-8 text file, turning every way it can fail into a clear ``InputError``."""
    raw = read_bytes(path, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError.detailed(
            "the file is not UTF-8 text",
            f"byte {exc.start} cannot be decoded",
            file=path,
            line=line,
            hint="save the file as UTF-8",
        ) from None
    return text.removeprefix("\ufeff")


def read_bytes(path: Path, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``MAX_FILE_BYTES``, every way it can fail a clear
    ``InputError``: what ``read_text`` reads, before it is decoded."""
    try:
        if not path.exists():
            if path.is_symlink():  # exists() follows links: a dangling one or a loop lands here
                _broken_link(path, what)
            raise InputError.detailed(f"no such {what}", "check the path and spelling", file=path, hint=_near(path))
        if path.is_dir():
            raise InputError(f"this is a folder, not {_a(what)}", file=path)
        if not path.is_file():
            raise InputError(f"this is not a regular file, so it cannot be {_a(what)}", file=path)
        raw = read_file(path, MAX_FILE_BYTES)
    except TooLarge as exc:
        raise InputError(
            f"the file is {exc.size:,} bytes; {_a(what)} is at most {MAX_FILE_BYTES:,} bytes",
            file=path,
        ) from None
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror or exc}", file=path) from None
    return raw

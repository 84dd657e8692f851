"""Compiled templates kept between runs, in a folder only this user can touch.

Compiling the built-in templates takes about 50 ms, on every render of every process. Jinja
can keep the compiled code (its "bytecode cache"), but what it keeps is code: ``marshal``'d
Python and a pickled checksum. Whoever can write such a file can run anything as whoever
renders next, past the sandbox. So this cache reads and writes only where nobody else can:

* its folder is ``templates`` in listbuilder's cache folder (``LISTBUILDER_CACHE_DIR``, or the
  user's cache folder), created private (0700); a folder that is a symbolic link, belongs to
  another user or that others can enter is not used at all;
* a file is read only if it is a regular file of this user that nobody else may read or
  write (0600), opened through the checked folder without following links, and checked on
  the open file itself, so it cannot be swapped between the check and the read (the rule of
  ``files/private.py``, which the rule-set cache follows too);
* files are written under a fresh private name, then renamed into place (``files/writing.py``).

Anything else (no such folder, a foreign or damaged file, a read-only disk, a system without
these calls) just means the templates are compiled as they would be without a cache.
``LISTBUILDER_NO_CACHE=1`` turns it off. A file's name holds a hash of the template's name
and path, of Jinja's, Python's and listbuilder's versions and of the code that configures the
environment, so a change to any of them compiles afresh; Jinja itself checks each template's
source against the checksum stored beside its code.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket, BytecodeCache

from listbuilder import __version__
from listbuilder.files.private import FILE_MODE, FOLDER_MODE, open_trusted, trusted_folder
from listbuilder.files.writing import atomic_write
from listbuilder.rules.cache import cache_dir

FOLDER = "templates"


def supported() -> bool:
    """Whether this system has the calls the checks need (``dir_fd``, ``O_NOFOLLOW``,
    ``O_DIRECTORY``, user ids). Windows has none of them, so there templates are compiled on
    every run: no cache is better than one whose files anybody could have written."""
    return (
        os.name == "posix"
        and all(f in os.supports_dir_fd for f in (os.open, os.rename, os.unlink))
        and all(hasattr(os, name) for name in ("O_NOFOLLOW", "O_DIRECTORY", "getuid"))
    )


class PrivateBytecodeCache(BytecodeCache):
    """Jinja's bytecode cache, read and written only inside a folder private to this user."""

    def __init__(self, folder: Path, configuration: str) -> None:
        self.folder = folder
        self.configuration = configuration

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha256(f"{self.configuration}\0{name}\0{filename}".encode()).hexdigest()[:40]

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._folder(create=False) as fd:
            if fd is None:
                return
            file = open_trusted(bucket.key + ".jinja", dir_fd=fd)
            if file is None:
                return
            with os.fdopen(file, "rb") as fh:
                try:
                    bucket.load_bytecode(fh)
                except Exception:  # a damaged file is a miss
                    bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with self._folder(create=True) as fd:
            if fd is None:
                return
            code = io.BytesIO()
            bucket.write_bytecode(code)
            with contextlib.suppress(OSError):  # a full or read-only disk must not stop a render
                atomic_write(bucket.key + ".jinja", code.getvalue(), mode=FILE_MODE, dir_fd=fd)

    @contextlib.contextmanager
    def _folder(self, create: bool) -> Iterator[int | None]:
        """The cache folder, opened, if it is a real folder of this user that nobody else can enter."""
        try:
            if create:
                self.folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
            fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            yield None
            return
        try:
            yield fd if trusted_folder(os.fstat(fd)) else None
        finally:
            os.close(fd)


def template_cache(*environment_code: Path, kind: str = "") -> PrivateBytecodeCache | None:
    """The bytecode cache for environments configured by the modules ``environment_code`` (None
    when off): every module whose code shapes what a template compiles to belongs there. ``kind``
    tells environments apart that compile the same template differently (the built-in templates
    alone, and within a user's folder under the budget), so neither runs the other's code."""
    folder = cache_dir()
    if folder is None or not supported():
        return None
    own = Path(__file__)
    h = hashlib.sha256(f"{kind}\0{__version__}\0{jinja2.__version__}\0{sys.version_info[:2]}".encode())
    for code in (own, *environment_code):
        with contextlib.suppress(OSError):
            h.update(code.read_bytes())
    return PrivateBytecodeCache(folder / FOLDER, h.hexdigest())

"""A cache of loaded rule sets, so most runs skip parsing and checking the catalog files.

Loading a rule set means reading its YAML files and checking them against the file formats
with pydantic-core; a run of ``listbuilder validate`` spends more time importing and doing
that than on the list itself. A loaded rule set is kept as a pickle in the user's cache folder,
keyed by a hash of listbuilder's version and the exact bytes of every file it was built from,
so any edit to a catalog (or an upgrade) misses the cache and loads afresh. The cache is only
ever an optimisation: a missing, unreadable, corrupt or unwritable cache is ignored.

``LISTBUILDER_CACHE_DIR`` chooses the folder; ``LISTBUILDER_NO_CACHE=1`` turns the cache off.
Only files this user's own listbuilder wrote are read (the folder is private to the user).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from listbuilder import __version__

T = TypeVar("T")
# Bump when the pickled classes change shape, so old cache files are never read.
FORMAT = 2


def cache_dir() -> Path | None:
    """The cache folder, or ``None`` when caching is off."""
    if os.environ.get("LISTBUILDER_NO_CACHE"):
        return None
    chosen = os.environ.get("LISTBUILDER_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "listbuilder"


def fingerprint(kind: str, files: Sequence[Path]) -> str | None:
    """A hash of the code version and every input file's path and bytes (None if one is unreadable)."""
    h = hashlib.sha256(f"{kind}\0{__version__}\0{FORMAT}\0{sys.version_info[:2]}".encode())
    for path in sorted(files):
        try:
            data = path.read_bytes()
        except OSError:
            return None
        h.update(str(path.resolve()).encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def cached(kind: str, files: Sequence[Path], build: Callable[[], T]) -> T:
    """``build()``'s result, from the cache when ``files`` are byte for byte what it was built from."""
    folder = cache_dir()
    key = fingerprint(kind, files) if folder is not None else None
    if folder is None or key is None:
        return build()
    path = folder / f"{kind}-{key[:40]}.pickle"
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)  # type: ignore[no-any-return]
    except Exception:  # any miss or damage just means "build it"
        pass
    value = build()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tmp.open("wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # a read-only or full disk must not stop the command
        with contextlib.suppress(Exception):
            tmp.unlink(missing_ok=True)
    return value

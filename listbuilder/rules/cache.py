"""One cache entry per rule set: its definition and units, what a player picks it by (its
``SystemChoice``), its reference tables and its odds spec.

Loading a rule set means reading its YAML files and checking them with pydantic; a run of
``listbuilder validate`` spends more time on that than on the list itself, and every render or
odds run used to re-parse ``reference.yaml`` and ``odds.yaml`` too. So the three are built
together once and kept in one file in the user's cache folder, keyed by a hash of:

- every byte of every catalog file of the rule set (``system.yaml``, each faction file from the
  shipped and the user's roots, ``reference.yaml`` and ``odds.yaml``) and their paths,
- every module of the package (``code_fingerprint``), so a change to the loader is seen
  without clearing anything, and listbuilder's and Python's versions.

**A cache read never runs code.** The file holds plain data only (JSON), and records are built
back from it by name, from the record classes of listbuilder that are already imported: nothing
is imported, called or evaluated because a cache file says so. A file that is not owned by the
current user, is readable or writable by group or others (``files/private.py``; on Windows: lies
outside the user's profile or behind a link or junction), is not a
regular file, is too large, truncated,
corrupt (each part carries its BLAKE2 digest, so even one changed digit is seen), of another format or
for another key is ignored and rebuilt. So is one rewritten whole with fresh digests but values of
the wrong shape: each record read back is held to its fields' declared types (``plaindata.shape_of``), and
a part may be held to more (``lookup``'s ``sound``: a rule set's units to its stat kinds). The
cache is only ever an optimisation, and no state of it is an error.

Each part is stored when it is first built and decoded only when asked for (``validate`` needs
neither the reference nor the odds). Files with errors are never cached: asking again loads them
again, to report the located errors. In memory, every cache here is bounded (``MEMORY_ENTRIES``);
on disk, the folder keeps the ``KEPT_FILES`` entries written last (``prune``).

``LISTBUILDER_CACHE_DIR`` chooses the folder; ``LISTBUILDER_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from hashlib import blake2b
from pathlib import Path
from typing import Any, TypeVar

from listbuilder import __version__
from listbuilder.files.private import FILE_MODE, FOLDER_MODE, open_trusted, own_profile_folder
from listbuilder.files.reading import read_at_most
from listbuilder.files.writing import atomic_write
from listbuilder.memory import Bounded
from listbuilder.rules.plaindata import NotPlain, decode, encode

T = TypeVar("T")
K = TypeVar("K")
FORMAT = 5  # bump when the layout or meaning of a cache file changes (5: former names and retired units)
MAGIC = b"listbuilder cache\n"
MAX_CACHE_BYTES = 64 * 1024 * 1024  # a rule set's entry is a few hundred KB; more is not ours
KEPT_FILES = 64  # entry files kept on disk, the ones written last (a rule set's is tens of KB)
MEMORY_ENTRIES = 32  # rule sets (or odds answers' files) kept per process, least recently used dropped
PARTS = ("system", "choice", "reference", "odds")


def cache_dir() -> Path | None:
    """The cache folder, or ``None`` when caching is off."""
    if os.environ.get("LISTBUILDER_NO_CACHE"):
        return None
    chosen = os.environ.get("LISTBUILDER_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "listbuilder"


PACKAGE = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=4)
def code_fingerprint(package: Path = PACKAGE) -> bytes:
    """A hash of every module of the package, by path, size and time of its last change.

    Every module counts, not a list of those that build what is cached, which would have to be
    kept up to date by hand: a change to any of them makes every entry new. Their sizes and
    times, not their bytes: reading the package's every byte would cost each start of
    ``validate`` several milliseconds; a change to a file changes its time (an installed wheel's
    files keep theirs)."""
    h = blake2b()
    root = len(str(package)) + 1  # each path's name within the package (a relpath, without its cost)
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(n for n in names if n.endswith(".py")):
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            h.update(f"{path[root:]}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.digest()


def fingerprint(kind: str, files: Sequence[Path]) -> str | None:
    """A hash of the code and every input file's path and bytes (``None`` if one is unreadable)."""
    h = blake2b(f"{kind}\0{__version__}\0{FORMAT}\0{sys.version_info[:2]}\0".encode())
    h.update(code_fingerprint())
    for path in sorted(files):
        try:
            data = path.read_bytes()
        except OSError:
            return None
        # The path as given too: a loaded rule set remembers its folder, relative or not.
        where = f"{path}\0{path.resolve()}".encode()
        h.update(where + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


# --- the files --------------------------------------------------------------------------------


class Entry:
    """One rule set's cache entry: each part as stored (JSON bytes) and, once asked for, decoded."""

    def __init__(self, key: str, raw: dict[str, bytes]) -> None:
        self.key = key
        self.raw = dict(raw)
        self.values: dict[str, Any] = {}
        self.lock = threading.Lock()

    def get(self, name: str, cls: type[T], sound: Callable[[T], bool] | None = None) -> T | None:
        """The part ``name`` if it is there and decodes to a ``cls`` (that ``sound`` finds sound),
        else ``None``."""
        with self.lock:
            if name not in self.values:
                raw = self.raw.get(name)
                try:
                    value = None if raw is None else decode(raw)
                    if value is not None and (not isinstance(value, cls) or (sound is not None and not sound(value))):
                        value = None
                except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
                    value = None
                self.values[name] = value
            value = self.values[name]
        return value if isinstance(value, cls) else None


def entry_path(folder: Path, key: str) -> Path:
    return folder / f"ruleset-{key[:40]}.json"


def read_entry(folder: Path, key: str) -> Entry | None:
    """The cache file for ``key`` if it is safe (``files.private``) and sound to read, else ``None``."""
    fd = open_trusted(entry_path(folder, key))
    if fd is None:
        return None
    try:
        data = read_at_most(fd, MAX_CACHE_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > MAX_CACHE_BYTES:  # a rule set's entry is a few hundred KB; more is not ours
        return None
    return parse_entry(data, key)


def parse_entry(data: bytes, key: str) -> Entry | None:
    """Split a cache file into its parts: ``MAGIC``, a JSON header line, then each part's bytes."""
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC) : end])
        if header.get("format") != FORMAT or header.get("key") != key:
            return None
        raw: dict[str, bytes] = {}
        offset = end + 1
        for name, size, digest in header["parts"]:
            if name not in PARTS or not isinstance(size, int) or size < 0 or offset + size > len(data):
                return None  # another layout, or truncated
            raw[name] = data[offset : offset + size]
            if blake2b(raw[name]).hexdigest() != digest:
                return None  # damaged, if only by one byte
            offset += size
        if offset != len(data):
            return None
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return Entry(key, raw)


def write_entry(folder: Path, entry: Entry) -> None:
    """Store ``entry``'s parts in its file, replacing it whole; any failure leaves no file behind."""
    parts = [(name, entry.raw[name]) for name in PARTS if name in entry.raw]
    header = json.dumps(
        {"format": FORMAT, "key": entry.key, "parts": [[n, len(b), blake2b(b).hexdigest()] for n, b in parts]}
    ).encode()
    data = MAGIC + header + b"\n" + b"".join(b for _, b in parts)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
        if not own_profile_folder(folder):  # never read back (Windows: outside the profile)
            return
        atomic_write(entry_path(folder, entry.key), data, mode=FILE_MODE)
        prune(folder)
    except Exception:  # a read-only or full disk must not stop the command
        pass


def prune(folder: Path, kept: int | None = None) -> None:
    """Remove all but the ``kept`` entry files written last: each edit of a catalog file, and each
    new listbuilder, makes new entries, and an author tuning a rule set all afternoon would fill
    the folder with ones nothing reads again (``kept``: ``KEPT_FILES``). A removed entry is only
    rebuilt when next needed."""
    kept = KEPT_FILES if kept is None else kept
    with os.scandir(folder) as found:
        files = [
            (f.stat(follow_symlinks=False).st_mtime_ns, f.path)
            for f in found
            if f.name.startswith("ruleset-") and f.name.endswith(".json") and f.is_file(follow_symlinks=False)
        ]
    for _, path in sorted(files, reverse=True)[kept:]:
        with contextlib.suppress(OSError):  # another process's prune was first
            os.unlink(path)


_ENTRIES: Bounded[str, Entry] = Bounded(MEMORY_ENTRIES)  # rule-set entries met in this process, by key
_KEYS: Bounded[int, tuple[object, str]] = Bounded(MEMORY_ENTRIES)  # id(loaded rule set) -> (it, its key)


def lookup(key: str | None, name: str, cls: type[T], sound: Callable[[T], bool] | None = None) -> T | None:
    """Part ``name`` of the entry ``key`` (from memory, else from its file), if it is a ``cls``
    and ``sound`` (if given) finds it so: a part that is not is rebuilt by the caller."""
    if key is None:
        return None
    found = _ENTRIES.get(key)
    if found is None:
        folder = cache_dir()
        found = read_entry(folder, key) if folder is not None else None
        _ENTRIES.put(key, found or Entry(key, {}))
        if found is None:
            return None
    return found.get(name, cls, sound)


def remember(key: str | None, name: str, value: Any) -> None:
    """Keep ``value`` as part ``name`` of the entry ``key``, in memory and (if it is plain data) on disk."""
    if key is None:
        return
    try:
        raw = json.dumps(encode(value), ensure_ascii=False, separators=(",", ":")).encode()
    except (NotPlain, ValueError, RecursionError):
        return  # not plain data: not cached
    found = _ENTRIES.get(key) or _ENTRIES.put(key, Entry(key, {}))
    folder = cache_dir()
    with found.lock:
        if folder is not None:  # another process may have stored other parts meanwhile
            on_disk = read_entry(folder, key)
            if on_disk is not None:
                found.raw = {**on_disk.raw, **found.raw}
        found.raw[name] = raw
        found.values[name] = value
    if folder is not None:
        write_entry(folder, found)


def part(loaded: Any, name: str, cls: type[T], path: Path, load: Callable[[], T], memory: Bounded[Any, T]) -> T:
    """Part ``name`` of the rule set ``loaded`` (its reference, its odds): from its cache entry, or
    loaded by ``load`` and added to it; a rule set with no entry keeps it in ``memory`` while the
    file at ``path`` is unchanged."""
    key = key_of(loaded)
    found = lookup(key, name, cls)
    if found is not None:
        return found
    if key is not None:
        value = load()
        remember(key, name, value)
        return value
    memo = (path, path.stat().st_mtime_ns, loaded.id)
    return memory.get(memo) or memory.put(memo, load())


def bind(loaded: object, key: str | None) -> None:
    """Remember that ``loaded`` (a rule set) was built from the files of the entry ``key``."""
    if key is not None:
        _KEYS.put(id(loaded), (loaded, key))


def key_of(loaded: object) -> str | None:
    """The entry key ``bind`` gave ``loaded``, or ``None``."""
    found = _KEYS.get(id(loaded))
    return found[1] if found is not None and found[0] is loaded else None


def clear() -> None:
    """Forget every entry held in memory (the files stay)."""
    _ENTRIES.clear()
    _KEYS.clear()

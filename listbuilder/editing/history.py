"""A list's undo and redo steps, kept in ``FOLDER/.listbuilder/``, held to the same rules as lists.

- ``.listbuilder/history/NAME.yaml/undo/000042-VERSION.yaml``: the list as it was before each
  change made through ``apply_change`` (at most ``MAX_STEPS``), named by the version the change
  produced, so an undo can tell whether anyone changed the file since;
- ``.../redo/``: the versions an undo took back, until the next change;
- a step of a repair (``repair``), one side of which is a list that cannot be read, is kept as
  text: its name carries its own version too (``000043-VERSION-OWNVERSION.yaml``), and it is
  taken only while its text still has that version.

Every folder on the way (``.listbuilder``, ``history``, ``NAME.yaml``, ``undo``) must be a real
folder inside FOLDER: a symbolic link (or a Windows junction) that leads out, a plain file or any
other special file there is refused with a clear error, and that check is made before the list is
touched. A step is read only if it is a regular file of ours (not a link), within the size of a
list file, UTF-8, and a list of the same rule set; one that is not is removed and reported, and
never written over the list. All of it runs under the list's edit lock (``apply``), so each
change gets its own step, numbered in turn.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
from pathlib import Path
from typing import ClassVar

from listbuilder.army.listfile import parse_list
from listbuilder.errors import ConflictError, InputError, ListbuilderError
from listbuilder.files.reading import MAX_FILE_BYTES
from listbuilder.files.writing import atomic_write
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

STATE = ".listbuilder"
MAX_STEPS = 100  # undo steps kept per list
BOM = "\ufeff"
# NUMBER-VERSION_AFTER.yaml; a step kept as text (a repair's) names its own version too: -VERSION_OF_STEP
_STEP = re.compile(r"(\d{6})-([0-9a-f]{16})(?:-([0-9a-f]{16}))?\.yaml")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows: there the lstat before the open is the check


@record
class HistoryStep(Record):
    """A step through a list's history, handed to ``apply_change`` as a change is: it plans
    nothing on the list's text, but puts back the version the history kept (``History.last``)."""

    kind: ClassVar[str] = ""  # which of the history's folders it takes its step from


@record
class Undo(HistoryStep):
    """Take the list back to before its last change made through ``apply_change``."""

    kind: ClassVar[str] = "undo"


@record
class Redo(HistoryStep):
    """Make again the last change an ``Undo`` took back."""

    kind: ClassVar[str] = "redo"


def version_of(text: str) -> str:
    """The version of a list's text: the first 16 hex digits of the SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def refuse(where: Path, why: str) -> InputError:
    """The error of a path in listbuilder's own folder (undo steps, deleted lists, games) that
    breaks the rules: nothing was changed."""
    return InputError.detailed(
        f"listbuilder's folder '{STATE}' cannot be used: {why}",
        "nothing was changed",
        file=where,
        hint=f"move '{STATE}' out of the lists' folder (it holds only undo steps, deleted lists and games)",
    )


def safe_folder(folder: Path, parts: tuple[str, ...], *, create: bool) -> Path | None:
    """``folder/parts...`` checked one part at a time: each a real folder inside ``folder``.

    Missing parts are made when ``create`` (else ``None`` is returned: nothing is kept there).
    Raises ``InputError`` for a link, a plain file or a special file on the way."""
    root = Path(os.path.realpath(folder))
    here = root
    for part in parts:
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            if not create:
                return None
            try:
                os.mkdir(here)
            except FileExistsError:
                pass  # made meanwhile by another process: checked below
            except OSError as exc:
                raise refuse(here, f"it cannot be made ({exc.strerror or exc})") from None
            st = os.lstat(here)
        except OSError as exc:
            raise refuse(here, f"it cannot be read ({exc.strerror or exc})") from None
        if stat.S_ISLNK(st.st_mode) or _is_junction(here):
            raise refuse(here, "it is a link, and nothing of listbuilder's may lead out of the folder")
        if not stat.S_ISDIR(st.st_mode):
            raise refuse(here, "it is not a folder")
        if Path(os.path.realpath(here)) != here:
            raise refuse(here, "it leads out of the folder")
    return here


def _is_junction(path: Path) -> bool:
    isjunction = getattr(os.path, "isjunction", None)  # Python 3.12; the realpath check covers 3.11
    return bool(isjunction(path)) if isjunction is not None else False


class History:
    """The undo and redo steps of the list at ``path`` (a list of its folder, already checked)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.parts = (STATE, "history", path.name)
        # Each folder once checked (or made): a History lives for one change or one look, under
        # the list's lock or for a count, and a change asks for its folders eight times.
        self._checked: dict[str, Path] = {}

    def folder(self, kind: str, *, create: bool = False) -> Path | None:
        found = self._checked.get(kind)
        if found is None:
            found = safe_folder(self.path.parent, (*self.parts, kind), create=create)
            if found is not None:
                self._checked[kind] = found
        return found

    def check(self) -> None:
        """Refuse, before the list is touched, a history whose folders break the rules."""
        self.folder("undo", create=True)
        self.folder("redo", create=True)

    def steps(self, kind: str) -> list[tuple[int, str, Path]]:
        """The steps of ``kind`` (``undo`` or ``redo``), oldest first: (number, version after, file)."""
        try:
            folder = self.folder(kind)
        except InputError:
            return []
        if folder is None:
            return []
        try:
            names = os.listdir(folder)
        except OSError:
            return []
        found = [(int(m.group(1)), m.group(2), folder / n) for n in names if (m := _STEP.fullmatch(n))]
        return sorted(found)

    def depth(self, version: str | None = None) -> tuple[int, int]:
        """How many undo and redo steps the list has; with ``version`` (the file's version now),
        how many can be taken from it: none of a kind whose newest step was made for another
        version (the file was changed elsewhere since, and ``last`` refuses that step)."""
        return self._count("undo", version), self._count("redo", version)

    def _count(self, kind: str, version: str | None = None) -> int:
        try:
            folder = self.folder(kind)
            names = [] if folder is None else os.listdir(folder)
        except (InputError, OSError):
            return 0
        found = [m for n in names if (m := _STEP.fullmatch(n))]
        if version is not None and found and max(found, key=lambda m: int(m.group(1))).group(2) != version:
            return 0
        return len(found)

    def push(self, kind: str, text: str, version_after: str, *, as_text: bool = False) -> Path:
        """Keep ``text`` as the newest step of ``kind``; the oldest past ``MAX_STEPS`` go.
        ``as_text``: a repair's step, taken back as text (see the module)."""
        folder = self.folder(kind, create=True)
        assert folder is not None
        steps = self.steps(kind)
        number = steps[-1][0] + 1 if steps else 1
        own = f"-{version_of(text)}" if as_text else ""
        target = folder / f"{number % 1_000_000:06d}-{version_after}{own}.yaml"
        # Not waiting for the disk: losing a step to a power cut loses an undo, never a list.
        atomic_write(target, text.encode("utf-8"), durable=False)
        for _, _, old in steps[: max(0, len(steps) + 1 - MAX_STEPS)]:
            with contextlib.suppress(OSError):
                old.unlink()
        return target

    def clear(self, kind: str) -> None:
        for _, _, step in self.steps(kind):
            with contextlib.suppress(OSError):
                step.unlink()

    def sweep(self) -> None:
        """Remove the temporary files of step writes a killed process left (call it under the lock)."""
        for kind in ("undo", "redo"):
            folder = self.folder(kind)
            if folder is None:
                continue
            for name in os.listdir(folder):
                if name.startswith(".") and name.endswith(".tmp"):
                    with contextlib.suppress(OSError):
                        if not os.path.islink(folder / name):
                            os.unlink(folder / name)

    def last(self, kind: str, current: str, catalogs: Catalogs) -> tuple[Path, str]:
        """The newest step of ``kind`` and its text, checked: refused when the list changed since
        that step was made; a damaged step is removed and reported (``InputError``)."""
        steps = self.steps(kind)
        if not steps:
            raise InputError.detailed(f"there is nothing to {kind}", f"no change to {kind} is kept", file=self.path)
        _, after, step_file = steps[-1]
        if version_of(current) != after:
            raise ConflictError.detailed(
                f"the file changed since the last change made here, so it cannot be {kind}ne",
                f"{kind}ing would lose that change",
                file=self.path,
                hint="change the list again, or edit the file by hand",
            )
        try:
            text = self._read_step(step_file, current, catalogs)
        except _Damaged as exc:
            with contextlib.suppress(OSError):
                step_file.unlink()  # a link or a file: removing it never touches what it points at
            raise InputError.detailed(
                f"the last {kind} step of this list cannot be used: {exc}",
                "it was removed, and the list was not changed",
                file=step_file,
            ) from None
        return step_file, text

    def _read_step(self, step_file: Path, current: str, catalogs: Catalogs) -> str:
        try:
            st = os.lstat(step_file)
        except OSError as exc:
            raise _Damaged(f"it cannot be read ({exc.strerror or exc})") from None
        if not stat.S_ISREG(st.st_mode):
            raise _Damaged("it is a link or a special file, not a step listbuilder wrote")
        if st.st_size > MAX_FILE_BYTES:
            raise _Damaged(f"it is {st.st_size:,} bytes, more than a list file may be")
        try:
            fd = os.open(step_file, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_BINARY", 0))
        except OSError as exc:
            raise _Damaged(f"it cannot be read ({exc.strerror or exc})") from None
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise _Damaged("it is not a regular file")
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise _Damaged("it is larger than a list file may be")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise _Damaged("it is not UTF-8 text") from None
        own = own_version(step_file)
        if own is not None:  # a repair's step, kept as text: taken as long as nothing altered it
            if version_of(text) != own:
                raise _Damaged("its text is not the text that was kept")
            return text
        body = text.removeprefix(BOM)
        try:
            _, system = parse_list(parse_yaml(body, step_file), catalogs)
            _, now = parse_list(parse_yaml(current.removeprefix(BOM), self.path), catalogs)
        except ListbuilderError as exc:
            raise _Damaged(f"it is not a list ({exc.summary})") from None
        if system.id != now.id:
            raise _Damaged(f"it is a {system.id} list, and this list is {now.id}")
        return text


def own_version(step_file: Path) -> str | None:
    """The version a step kept as text names for itself (``None`` for a list's step)."""
    found = _STEP.fullmatch(step_file.name)
    return found.group(3) if found else None


class _Damaged(Exception):
    """A step that is not one listbuilder wrote: why, in words."""

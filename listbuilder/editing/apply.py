"""The one way a change reaches a list: ``apply_change`` on a file, ``apply_to_text`` on a text.

On a file, the change runs in one step under the list's edit lock (``lock``):

1. the history folder is checked (``history``), before the list is touched;
2. the list is read; if the caller saw another version (``expect``), nothing is done;
3. the change is planned and checked (``plan``), or a history step taken (``Undo``, ``Redo``);
4. just before writing, the file is read again: a program that takes no lock (an editor) and
   changed it meanwhile is not overwritten (``ConflictError``);
5. the undo step is written, then the list (``files.writing.atomic_write``: a temporary file beside
   it, renamed over it, so a crash leaves the old file or the new one, never half of one; its
   permissions kept, a symbolic link followed). If the list cannot be written, the step is
   taken back: a change and its undo step land together or not at all. After the list is
   written nothing can fail the change: tidying the history is best effort.

Concurrent changes each run this whole step in turn, so each gets its own undo step. Under the
lock no other edit of the list is writing, so any ``.NAME.XXXXXXXX.tmp`` beside it is a leftover
of a killed process and is removed (``remove_temp_files``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import build_report
from listbuilder.editing.changes import Change
from listbuilder.editing.history import BOM, History, HistoryStep, Redo, own_version, version_of
from listbuilder.editing.lock import conflict, locked, read_locked
from listbuilder.editing.plan import EditResult, ListEdit
from listbuilder.editing.repair import Repair, read_back
from listbuilder.errors import ConflictError, InputError, OutputError
from listbuilder.files.reading import read_text
from listbuilder.files.writing import atomic_write, remove_temp_files
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.rules.catalog import Catalogs


def apply_to_text(
    text: str, catalogs: Catalogs, change: Change | HistoryStep, *, source: Path = Path("<list>")
) -> EditResult:
    """``change`` carried out on a list's text (``source`` names it in messages); nothing is written.

    ``Undo`` and ``Redo`` need a list file's history, so they are refused here."""
    if isinstance(change, HistoryStep):
        raise InputError.detailed("an undo or redo needs the list's file and its history", "nothing was changed")
    change.check_fields()
    if isinstance(change, Repair):  # a change of the text, for a list that may not be readable
        return change.on_text(text, catalogs, source)
    edit = ListEdit(text, source, catalogs)
    done = change.carry_out(edit)
    return dataclasses.replace(edit.finish(), done=done)


def apply_change(
    path: Path,
    catalogs: Catalogs,
    change: Change | HistoryStep,
    *,
    expect: str | None = None,
    history: bool = False,
    write: bool = True,
) -> EditResult:
    """Carry out ``change`` on the list file at ``path``, under its edit lock (see the module).

    ``history``: keep the change as an undo step in ``FOLDER/.listbuilder/`` (a builder's folder),
    which ``Undo`` and ``Redo`` need. ``expect``: the version of the list the caller saw; if the
    file is not at it, nothing is written (``ConflictError``). ``write=False`` gives the result
    without writing it (and without the lock)."""
    if not isinstance(change, HistoryStep):
        change.check_fields()  # a wrong field is refused before the lock is taken
    if not write:
        return apply_to_text(read_text(path, "list file"), catalogs, change, source=path)
    with locked(path) as target:
        steps = History(path) if history else None
        if steps is not None:
            steps.check()
        body, raw = read_locked(path, target)
        bom = BOM if raw.startswith(BOM.encode()) else ""
        if expect is not None and version_of(body) != expect:
            raise changed_since(path)
        if isinstance(change, HistoryStep):
            if steps is None:
                raise InputError.detailed(
                    "an undo or redo needs the list's history (kept for a builder's folder)",
                    "nothing was changed",
                    file=path,
                )
            result, step_file = _step(steps, path, catalogs, change, body, bom)
        else:
            result, step_file = apply_to_text(bom + body, catalogs, change, source=path), None
        if not result.changed:
            return result
        new_body = result.text.removeprefix(BOM)
        if _read_bytes(target) != raw:
            raise conflict(path)
        pushed = None
        dead: list[Path] = []
        if steps is not None:
            kind = "undo" if step_file is None or isinstance(change, Redo) else "redo"
            if step_file is None:  # the file changed elsewhere since the last step: those steps are dead
                older = steps.steps("undo")
                dead = [f for _, _, f in older] if older and older[-1][1] != version_of(body) else []
            as_text = isinstance(change, Repair) or (step_file is not None and own_version(step_file) is not None)
            pushed = steps.push(kind, bom + body, version_of(new_body), as_text=as_text)
        try:
            atomic_write(target, result.text.encode("utf-8"))
        except OSError as exc:
            if pushed is not None:
                with contextlib.suppress(OSError):
                    pushed.unlink()
            raise OutputError.detailed(
                f"cannot write the list file: {exc.strerror or exc}", "the file is unchanged", file=path
            ) from None
        # The change is made: from here on, nothing may answer an error.
        if steps is not None:
            with contextlib.suppress(OSError):
                if step_file is not None:
                    step_file.unlink()
                else:
                    steps.clear("redo")
            for old in dead:  # never to be taken (``History.last`` refuses them): not counted either
                with contextlib.suppress(OSError):
                    old.unlink()
            with contextlib.suppress(OSError):
                steps.sweep()
        removed = remove_temp_files(target)
    return dataclasses.replace(result, removed_temp_files=removed)


def _step(
    steps: History, path: Path, catalogs: Catalogs, step: HistoryStep, body: str, bom: str
) -> tuple[EditResult, Path]:
    """An undo or redo: the list as the history's newest step has it, checked (``History.last``)."""
    kind = step.kind
    step_file, text = steps.last(kind, body, catalogs)
    earlier = text.removeprefix(BOM)
    done = "undone" if kind == "undo" else "redone"
    if own_version(step_file) is not None:  # a repair's step: the list it puts back may not be readable
        return dataclasses.replace(read_back(bom + earlier, bom + body, catalogs, path), done=done), step_file
    army, system = parse_list(parse_yaml(earlier, path), catalogs)
    result = EditResult(
        path=path,
        text=bom + earlier,
        report=build_report(army, system, catalogs),
        changed=earlier != body,
        done=done,
    )
    return result, step_file


def _read_bytes(target: Path) -> bytes | None:
    try:
        return target.read_bytes()
    except OSError:
        return None


def changed_since(path: Path) -> ConflictError:
    """The error of a change made for a version of the list that is no longer the file's."""
    return ConflictError.detailed(
        "the list changed on disk since this page was loaded, so your change was not made",
        "another tab, program or person changed it",
        file=path,
        hint="look at it and try again",
    )

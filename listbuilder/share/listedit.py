"""One checked edit of a list's text: the splices it plans, the data it must read back as, and
the same edit done on a file, under its lock.

Every edit is careful with the user's file:

- the file must load first, through the same loader and checks as ``listbuilder validate``, so
  a broken file gets the same located errors and is never edited;
- the edited text is parsed again and its data compared with what the edit should give; a
  mismatch is a bug in listbuilder (``RuntimeError``) and nothing is written;
- the new text goes to a temporary file beside the list (``.NAME.XXXXXXXX.tmp``) that is renamed
  over it (``files.writing.atomic_write``), so a crash leaves the old file or the new one, never half
  of one, and the file keeps its permissions; a symbolic link is followed, not replaced;
- the read, the check and the write happen under the list's edit lock (``locking``), so edits
  from other processes or threads wait their turn and none is lost; just before writing, the
  file is read again: if a program that takes no lock (an editor) changed it since it was read,
  the edit is refused with a ``ConflictError`` instead of overwriting their change;
- nothing is written when the text does not change.

A process killed in the middle of writing can leave its ``.NAME.XXXXXXXX.tmp`` file behind (no
code runs on SIGKILL or power loss). The list itself is intact; the next successful edit of the
same list deletes such leftovers once they are older than ``STALE_TEMP_SECONDS``, and they are
always safe to delete by hand.

The player's edits themselves (add, remove, set, a doctor's suggestion) are in ``editing``.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import time
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import Report, build_report
from listbuilder.errors import InputError
from listbuilder.files.yamldoc import Document, parse_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import ArmyList
from listbuilder.share.locking import locked_edit
from listbuilder.share.yamledit import YamlText, apply, scalar

STALE_TEMP_SECONDS = 60  # a live write takes milliseconds; older temp files are leftovers of a crash


@record
@record
class EditResult(Record):
    """The outcome of an edit: the list's new text, its report, and whether the file changed."""

    path: Path
    text: str  # the whole new file, exactly as written (``text.encode()`` is the file's bytes)
    report: Report  # the edited list, costed and checked: its total, limit and verdict
    changed: bool  # False when the edit left the text as it was (then nothing is written)
    removed_temp_files: tuple[Path, ...] = field(default=())  # leftovers of crashed edits, cleaned up

    def as_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "changed": self.changed,
            "removed_temp_files": [str(p) for p in self.removed_temp_files],
            "list": self.report.as_json(),
        }


def edit_text(text: str, source: Path, catalogs: Catalogs, change: Callable[[_Edit], None]) -> EditResult:
    """Apply ``change`` to a list's text and check the result; nothing is written anywhere."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    edit = _Edit(parse_yaml(text[len(bom) :], source), catalogs, bom)
    change(edit)
    return edit.finish()


def edit_file(path: Path, catalogs: Catalogs, change: Callable[[_Edit], None], *, write: bool = True) -> EditResult:
    """Apply ``change`` to the list file at ``path`` and write the result, if it changed.

    The file loads through the same checks as ``validate``. The read, the edit and the write run
    under the list's edit lock (``locking.locked_edit``), so concurrent edits from processes or
    threads each land in turn; a writer that takes no lock and changes the file meanwhile gets
    the edit refused (``ConflictError``)."""
    results: list[EditResult] = []

    def on_text(text: str) -> str:
        results.append(edit_text(text, path, catalogs, change))
        return results[-1].text

    done = locked_edit(path, on_text, write=write)
    result = dataclasses.replace(results[-1], text=done.data.decode("utf-8"))
    if done.written:
        removed = remove_stale_temp_files(Path(os.path.realpath(path)))
        result = dataclasses.replace(result, removed_temp_files=removed)
    return result


class _Edit:
    """One edit of one list's text: the loaded list, the splices planned, the data expected."""

    def __init__(self, doc: Document, catalogs: Catalogs, bom: str = "") -> None:
        self.path = doc.path
        self.catalogs = catalogs
        self.doc = doc
        self.army: ArmyList
        self.army, self.system = parse_list(doc, catalogs)
        self.bom = bom
        self.body = doc.text
        self.expected: dict[str, Any] = copy.deepcopy(doc.data)

    def _yaml(self) -> YamlText:
        return YamlText(self.body)

    def _units(self, y: YamlText) -> tuple[Any, Any]:
        found = y.pair(y.root, "units")
        assert found is not None
        return found

    def set_top(self, key: str, value: str | int) -> None:
        y = self._yaml()
        rendered = str(value)
        found = y.pair(y.root, key)
        if found is not None:
            if isinstance(value, str):
                rendered = scalar(value, found[1].style if found[1].style in ("'", '"') else None, y.root.flow_style)
            self.body = apply(self.body, [y.replace_scalar(found[1], rendered)])
        else:  # only the limit can be missing: add it after the name, where the README puts it
            name = y.pair(y.root, "name")
            assert name is not None
            self.body = apply(self.body, y.insert_pair_after(y.root, name[1], key, rendered))
        self.expected[key] = value

    def set_count(self, index: int, count: int) -> None:
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, "count")
        if found is not None:
            splices = [y.replace_scalar(found[1], str(count))]
        else:
            anchor = y.pair(item, "unit") or y.pair(item, "name")
            assert anchor is not None
            splices = y.insert_pair_after(item, anchor[1], "count", str(count))
        self.body = apply(self.body, splices)
        self.expected["units"][index]["count"] = count
        leaders = self.expected["units"][index].get("leaders")
        if isinstance(leaders, int) and leaders > count:  # fewer models than leaders: the rest all lead
            self.set_leaders(index, count)

    def set_leaders(self, index: int, leaders: int) -> None:
        """Write that ``leaders`` of entry ``index``'s models (its count as planned so far) lead.

        Every model: ``leader: true`` (nothing for a catalog leader profile); none: ``leader: false``
        (nothing for a profile that is no leader); some: ``leaders: N``. An existing ``leader:`` or
        ``leaders:`` line is rewritten in place, its key renamed if need be, so nothing else moves.
        """
        data = self.expected["units"][index]
        count = data.get("count", 1)
        catalog = self.system.find_unit(str(data["unit"])) if "unit" in data else None
        profile = bool(catalog.leader) if catalog is not None else False  # what no key means
        value = leaders == count
        if value or leaders == 0:
            key = "leader"
            wanted: Any = None if value == profile else value
        else:
            key, wanted = "leaders", leaders
        now = {k: data[k] for k in ("leader", "leaders") if k in data}
        if now == ({} if wanted is None else {key: wanted}):
            return
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, "leaders") or y.pair(item, "leader")
        if wanted is None and found is not None:
            wanted = value  # keep the line, saying what no line would say
        rendered = str(wanted).lower() if isinstance(wanted, bool) else str(wanted)
        if found is not None:
            splices = [y.replace_scalar(found[1], rendered)]
            if found[0].value != key:
                splices.insert(0, y.replace_scalar(found[0], key))
            self.body = apply(self.body, splices)
        elif wanted is not None:
            anchor = y.pair(item, "count") or y.pair(item, "unit") or y.pair(item, "name")
            assert anchor is not None
            self.body = apply(self.body, y.insert_pair_after(item, anchor[1], key, rendered))
        for old in ("leader", "leaders"):
            data.pop(old, None)
        if wanted is not None:
            data[key] = wanted

    def set_stat(self, index: int, key: str, value: Any) -> None:
        """Set a stat of custom entry ``index``; a list stat may only lose values (Attacker or Defender)."""
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, key)
        data = self.expected["units"][index]
        if isinstance(value, tuple | list):
            old, new = list(data.get(key) or []), list(value)
            if found is None or any(v not in old for v in new) or len(new) > len(old):
                raise InputError(
                    f"cannot write '{key}: {new}' into this list",
                    file=self.path,
                    details=[self.doc.detail(("units", index, key), "only values can be taken out here", "edit it")],
                )
            for i in reversed(range(len(old))):
                if old[i] not in new or old[:i].count(old[i]) >= new.count(old[i]):
                    y = self._yaml()
                    found = y.pair(self._units(y)[1].value[index], key)
                    assert found is not None
                    self.body = apply(self.body, y.delete_item(found[1], i, found[0]))
            data[key] = new
            return
        rendered = str(value) if isinstance(value, int) else scalar(str(value))
        if found is not None:
            splices = [y.replace_scalar(found[1], rendered)]
        else:
            name = y.pair(item, "name")
            assert name is not None
            splices = y.insert_pair_after(item, name[1], key, rendered)
        self.body = apply(self.body, splices)
        data[key] = value

    def append(self, unit_name: str, count: int, leader: bool | None = None) -> None:
        y = self._yaml()
        key, seq = self._units(y)
        model = self._model_entry(y, seq)
        style = None
        if model is not None:
            unit_value = y.pair(model, "unit")
            style = unit_value[1].style if unit_value and unit_value[1].style in ("'", '"') else None
        flow = bool(seq.flow_style) or bool(model is not None and model.flow_style)
        pairs = [("unit", scalar(unit_name, style, flow))]
        if count > 1:
            pairs.append(("count", str(count)))
        if leader is not None:  # taken as a leader, or not, against what the catalog says
            pairs.append(("leader", "true" if leader else "false"))
        column = -1 if y.root.flow_style else key.start_mark.column
        self.body = apply(self.body, y.append_item(seq, pairs, model, column))
        added: dict[str, Any] = {"unit": unit_name, **({"count": count} if count > 1 else {})}
        if leader is not None:
            added["leader"] = leader
        self.expected["units"].append(added)

    @staticmethod
    def _model_entry(y: YamlText, seq: Any) -> Any:
        """The entry a new one should look like: the last catalog entry, else the last entry."""
        items = list(seq.value)  # parse_list made sure every entry is a mapping
        catalog = [i for i in items if y.pair(i, "unit") is not None]
        return (catalog or items or [None])[-1]

    def delete(self, indices: list[int]) -> None:
        # One at a time from the last, re-reading the text each time: each deletion then sees
        # the commas and neighbours as they are.
        for index in sorted(set(indices), reverse=True):
            y = self._yaml()
            key, seq = self._units(y)
            self.body = apply(self.body, y.delete_item(seq, index, key))
            del self.expected["units"][index]

    def finish(self) -> EditResult:
        """Check the edited text reads back as intended."""
        try:
            doc = parse_yaml(self.body, self.path)
            army, system = parse_list(doc, self.catalogs)
        except InputError as exc:
            raise RuntimeError(
                f"listbuilder made an edit it cannot read back; {self.path} is unchanged:\n{exc}"
            ) from exc
        if doc.data != self.expected:
            raise RuntimeError(f"listbuilder made an edit that reads back wrong; {self.path} is unchanged")
        return EditResult(
            path=self.path,
            text=self.bom + self.body,
            report=build_report(army, system, self.catalogs),
            changed=self.body != self.doc.text,
        )


def remove_stale_temp_files(path: Path, older_than: float = STALE_TEMP_SECONDS) -> tuple[Path, ...]:
    """Delete the ``.NAME.XXXXXXXX.tmp`` files a killed write to ``path`` left beside it.

    Only files named exactly as ``atomic_write`` names them, and older than ``older_than``
    seconds (a write in progress is younger), are removed. Returns the files removed.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    removed = []
    cutoff = time.time() - older_than
    try:
        candidates = [p for p in path.parent.iterdir() if pattern.fullmatch(p.name)]
    except OSError:
        return ()
    for leftover in candidates:
        try:
            if leftover.is_file() and not leftover.is_symlink() and leftover.stat().st_mtime < cutoff:
                leftover.unlink()
                removed.append(leftover)
        except OSError:
            continue
    return tuple(removed)

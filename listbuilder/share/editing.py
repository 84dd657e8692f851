"""Edit a list file in place (add or remove units, set its name or limit), keeping what the user wrote.

Only the lines an edit must change are touched: comments, key order, blank lines, quoting,
indentation, line endings, a byte-order mark and a missing final newline all stay as they were
(``yamledit`` explains why this is done on the text rather than with a round-trip YAML library).

Every edit is careful with the user's file:

- the file must load first, through the same loader and checks as ``listbuilder validate``, so
  a broken file gets the same located errors and is never edited;
- the edited text is parsed again and its data compared with what the edit should give; a
  mismatch is a bug in listbuilder (``RuntimeError``) and nothing is written;
- the new text goes to a temporary file beside the list (``.NAME.XXXXXXXX.tmp``) that is renamed
  over it (``yamlfile.atomic_write``), so a crash leaves the old file or the new one, never half
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
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import Report, build_report
from listbuilder.errors import ErrorDetail, InputError, did_you_mean
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.rules.formats import ArmyList
from listbuilder.share.locking import ConflictError as ConflictError  # raised by the edits here
from listbuilder.share.locking import locked_edit
from listbuilder.share.yamledit import YamlText, apply, is_printable_line, scalar
from listbuilder.yamlfile import Document, parse_yaml

if TYPE_CHECKING:
    from listbuilder.doctor.answers import Step

DEFAULT_SCHEMA_REF = "{id}.schema.json"  # '{id}' becomes the rule set id
STALE_TEMP_SECONDS = 60  # a live write takes milliseconds; older temp files are leftovers of a crash


@record
class EditResult(Record):
    """The outcome of an edit: the list's new text, its report, and whether the file changed."""

    path: Path
    text: str  # the whole new file, exactly as written (``text.encode()`` is the file's bytes)
    report: Report  # the edited list, costed and checked: its total, limit and verdict
    changed: bool  # False when the edit left the text as it was (then nothing is written)
    removed_temp_files: tuple[Path, ...] = field(default=())  # leftovers of crashed edits, cleaned up


# --- a new list -------------------------------------------------------------------------------


def new_list(
    system: System,
    name: str | None = None,
    limit: int | None = None,
    *,
    revision: int | None = None,
    schema_ref: str | None = DEFAULT_SCHEMA_REF,
    file_name: str | None = None,
) -> str:
    """The text of a new, empty list file for ``system``.

    ``name`` defaults to "New <force>" (e.g. "New warband"); ``limit`` to the rule set's standard
    game, if it has one. ``revision`` adds a ``revision:`` line. ``schema_ref`` is the JSON Schema
    an editor should use (``{id}`` is replaced by the rule set id; ``None`` leaves the line out).
    ``file_name`` goes into the header's example commands.
    """
    name = _check_name(f"New {system.definition.force}" if name is None else name)
    if limit is None:
        limit = system.definition.default_limit
    elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise _bad_value(system.size_unit, limit)
    file_arg = shlex.quote(file_name) if file_name else "FILE"
    title = " ".join(system.definition.name.split())
    lines = []
    if schema_ref is not None:
        lines.append(f"# yaml-language-server: $schema={schema_ref.replace('{id}', system.id)}")
    lines += [
        f"# An army list for {title} ({system.id}), made with listbuilder.",
        f"#   check it: listbuilder validate {file_arg}",
        f"#   print it: listbuilder render {file_arg} -o roster.pdf",
        f"#   units:    listbuilder catalog {system.id}",
        "# Each entry is '- unit: NAME' (and 'count: N'), or '- name: NAME' with the stats of a custom unit.",
        f"system: {scalar(system.id)}",
    ]
    if revision is not None:
        lines.append(f"revision: {int(revision)}")
    lines.append(f"name: {scalar(name)}")
    if limit is not None:
        lines.append(f"{system.size_unit}: {limit}")
    lines.append("units: []")
    return "\n".join(lines) + "\n"


# --- edits ------------------------------------------------------------------------------------


def add_unit(path: Path, catalogs: Catalogs, unit_name: str, count: int = 1, *, write: bool = True) -> EditResult:
    """Add ``count`` of a unit to the list file at ``path`` (``add_to_text`` on the file's text).

    ``write=False`` returns the result without writing it.
    """
    _check_count(count, "add")
    return edit_file(path, catalogs, lambda edit: _add(edit, unit_name, count), write=write)


def add_to_text(text: str, catalogs: Catalogs, unit_name: str, count: int = 1, *, source: Path) -> EditResult:
    """Add ``count`` of a unit to a list's text; ``source`` names it in messages.

    A catalog unit (matched by name in any case) already in the list gets a higher ``count:``;
    otherwise a ``- unit: NAME`` entry is appended, laid out like the entries already there. A
    name that is not in the catalogs but names a custom unit of the list raises its count.
    """
    _check_count(count, "add")
    return edit_text(text, source, catalogs, lambda edit: _add(edit, unit_name, count))


def _add(edit: _Edit, unit_name: str, count: int) -> None:
    path = edit.path
    wanted = unit_name.strip()
    unit = edit.system.find_unit(wanted)
    if unit is not None:
        matches = [
            e
            for e in edit.army.entries
            if not e.custom and e.unit.name.lower() == unit.name.lower() and e.leader == unit.leader
        ]
    else:
        matches = [e for e in edit.army.entries if e.custom and e.unit.name.lower() == wanted.lower()]
        if not matches:
            names = [u.name for u in edit.system.units.values()] + [e.unit.name for e in edit.army.entries]
            raise InputError(
                f"no unit '{wanted}' in the {edit.system.id} catalogs",
                file=path,
                details=[
                    ErrorDetail(
                        message=f"'{wanted}' is neither a catalog unit nor a custom unit of this list",
                        hint=did_you_mean(wanted, names) or f"'listbuilder catalog {edit.system.id}' lists the units",
                    )
                ],
            )
    if matches:
        entry = matches[0]
        edit.set_count(entry.index, entry.count + count)
    else:
        assert unit is not None
        edit.append(unit.name, count)


def remove_unit(
    path: Path, catalogs: Catalogs, unit_name: str, count: int | None = None, *, write: bool = True
) -> EditResult:
    """Remove a unit from the list file at ``path`` (``remove_from_text`` on the file's text)."""
    if count is not None:
        _check_count(count, "remove")
    return edit_file(path, catalogs, lambda edit: _remove(edit, unit_name, count), write=write)


def remove_from_text(
    text: str, catalogs: Catalogs, unit_name: str, count: int | None = None, *, source: Path
) -> EditResult:
    """Remove a unit from a list's text: every entry of it (``count=None``), or ``count`` models,
    lowering ``count:`` and removing entries that reach 0, last entry first.

    Entries are matched by name in any case, catalog and custom units alike. Removing more than
    the list has is an error, and so is a unit the list does not have.
    """
    if count is not None:
        _check_count(count, "remove")
    return edit_text(text, source, catalogs, lambda edit: _remove(edit, unit_name, count))


def _remove(edit: _Edit, unit_name: str, count: int | None) -> None:
    path = edit.path
    wanted = unit_name.strip()
    unit = edit.system.find_unit(wanted)
    target = (unit.name if unit is not None else wanted).lower()
    matches = [e for e in edit.army.entries if e.unit.name.lower() == target]
    if not matches:
        names = list(dict.fromkeys(e.unit.name for e in edit.army.entries))
        hint = did_you_mean(wanted, names) or (
            f"the list has: {', '.join(names)}" if names else "the list has no units yet"
        )
        raise InputError(
            f"there is no '{wanted}' in this list",
            file=path,
            details=[edit.doc.detail(("units",), f"no entry of 'units' is '{wanted}'", hint)],
        )
    if count is None:
        edit.delete([e.index for e in matches])
        return
    have = sum(e.count for e in matches)
    if count > have:
        raise InputError(
            f"cannot remove {count} {matches[0].unit.name}: the list has {have}",
            file=path,
            details=[
                edit.doc.detail(
                    ("units", matches[-1].index),
                    f"the list has {have} {matches[0].unit.name}",
                    f"remove at most {have}, or give no count to remove the unit entirely",
                )
            ],
        )
    emptied = []
    left = count
    for entry in reversed(matches):
        take = min(left, entry.count)
        left -= take
        if take == entry.count:
            emptied.append(entry.index)
        elif take:
            edit.set_count(entry.index, entry.count - take)
    edit.delete(emptied)


def set_key(path: Path, catalogs: Catalogs, key: str, value: str | int, *, write: bool = True) -> EditResult:
    """Set a key of the list file at ``path`` (``set_in_text`` on the file's text)."""
    return edit_file(path, catalogs, lambda edit: _set(edit, key, value), write=write)


def set_in_text(text: str, catalogs: Catalogs, key: str, value: str | int, *, source: Path) -> EditResult:
    """Set the list's ``name`` or its limit (``points`` or ``figures``, as its rule set counts).

    The limit is a whole number of at least 1 (given as a number or as text); the name one line
    of text. Other keys are refused: they are edited in the file itself.
    """
    return edit_text(text, source, catalogs, lambda edit: _set(edit, key, value))


def _set(edit: _Edit, key: str, value: str | int) -> None:
    path = edit.path
    limit_key = edit.system.size_unit
    if key == "name":
        edit.set_top("name", _check_name(str(value)))
    elif key == limit_key:
        edit.set_top(limit_key, _parse_limit(limit_key, value))
    else:
        if key in edit.catalogs.measure_words():
            message = f"'{edit.system.id}' counts a force in {limit_key}, not {key}"
            hint = f"set '{limit_key}' instead"
        else:
            message = f"'{key}' cannot be set here"
            hint = did_you_mean(key, ("name", limit_key)) or (
                f"the keys that can be set are 'name' and '{limit_key}'; edit the file for the others"
            )
        raise InputError(f"cannot set '{key}'", file=path, details=[ErrorDetail(message=message, hint=hint)])


# --- a list doctor's suggestion ---------------------------------------------------------------


def apply_steps(edit: _Edit, steps: Sequence[Step]) -> None:
    """Carry out the steps of a ``fix`` or ``fill`` suggestion (``doctor.answers.Step``).

    Statlines and counts go first, by the entry indices the suggestion was made for; then the
    entries left with no copies are deleted, and new entries appended last, so no index moves
    before it is used."""
    for step in steps:
        if step.kind == "stat":
            edit.set_stat(step.index, step.key, step.value)
    emptied = []
    for step in steps:
        if step.kind == "count":
            if step.count:
                edit.set_count(step.index, step.count)
            else:
                emptied.append(step.index)
    edit.delete(emptied)
    for step in steps:
        if step.kind == "add":
            edit.append(step.unit, step.count, step.leader)


# --- the machinery ----------------------------------------------------------------------------


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


def _check_count(count: object, verb: str) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InputError(
            f"the number of models to {verb} must be a whole number of at least 1, found {count!r}",
            details=[ErrorDetail(message="give a count of 1 or more")],
        )


def _check_name(name: str) -> str:
    name = name.strip()
    if not name or not is_printable_line(name):
        raise InputError(
            "a list's name must be one line of text",
            details=[ErrorDetail(message=f"found {name!r}", hint="give a name such as 'Zombie Family'")],
        )
    return name


def _parse_limit(key: str, value: object) -> int:
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]+\s*", value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _bad_value(key, value)
    return value


def _bad_value(key: str, value: object) -> InputError:
    return InputError(
        f"the limit must be a whole number of at least 1, found {value!r}",
        details=[ErrorDetail(message=f"'{key}' counts the size of a game", hint=f"for example: {key} 100")],
    )

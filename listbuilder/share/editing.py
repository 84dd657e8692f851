"""Edit a list file in place (add or remove units, set its name or limit), keeping what the user wrote.

Only the lines an edit must change are touched: comments, key order, blank lines, quoting,
indentation, line endings, a byte-order mark and a missing final newline all stay as they were
(``yamledit`` explains why this is done on the text rather than with a round-trip YAML library).
How each edit is checked and written, safely and under the list's lock, is ``listedit``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from listbuilder.errors import Action, ErrorDetail, InputError, did_you_mean
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.share.listedit import STALE_TEMP_SECONDS as STALE_TEMP_SECONDS
from listbuilder.share.listedit import EditResult as EditResult  # what every edit gives
from listbuilder.share.listedit import _Edit, edit_file, edit_text
from listbuilder.share.locking import ConflictError as ConflictError  # raised by the edits here
from listbuilder.share.yamledit import is_printable_line, scalar

if TYPE_CHECKING:
    from listbuilder.doctor.answers import Step

DEFAULT_SCHEMA_REF = "{id}.schema.json"  # '{id}' becomes the rule set id


# --- a new list -------------------------------------------------------------------------------


def new_list(
    system: System,
    name: str | None = None,
    limit: int | None = None,
    *,
    revision: int | None = None,
    schema_ref: str | None = DEFAULT_SCHEMA_REF,
    file_name: str | None = None,
    catalog_folders: Sequence[Path] = (),
) -> str:
    """The text of a new, empty list file for ``system``.

    ``name`` defaults to "New <force>" (e.g. "New warband"); ``limit`` to the rule set's standard
    game, if it has one. ``revision`` adds a ``revision:`` line. ``schema_ref`` is the JSON Schema
    an editor should use (``{id}`` is replaced by the rule set id; ``None`` leaves the line out).
    ``file_name`` goes into the header's example commands, and so do the ``catalog_folders`` it
    was made with (a rule set of one's own: ``--catalogs my-catalogs``).
    """
    name = _check_name(f"New {system.definition.force}" if name is None else name)
    if limit is None:
        limit = system.definition.default_limit
    elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise _bad_value(system.size_unit, limit)
    file_arg = shlex.quote(file_name) if file_name else "FILE"
    folders = "".join(f" --catalogs {shlex.quote(str(folder))}" for folder in catalog_folders)
    title = " ".join(system.definition.name.split())
    lines = []
    if schema_ref is not None:
        lines.append(f"# yaml-language-server: $schema={schema_ref.replace('{id}', system.id)}")
    lines += [
        f"# An army list for {title} ({system.id}), made with listbuilder.",
        f"#   check it: listbuilder validate {file_arg}{folders}",
        f"#   print it: listbuilder render {file_arg} -o roster.pdf{folders}",
        f"#   units:    listbuilder catalog {system.id}{folders}",
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
                        hint=did_you_mean(wanted, names),
                        action=Action(kind="catalog", system=edit.system.id),
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

    Statlines, counts and leader marks go first, by the entry indices the suggestion was made
    for; then the entries left with no copies are deleted, and new entries appended last, so no
    index moves before it is used."""
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
    for step in steps:  # after the counts: 'leader: true' or 'leaders: N' depends on the new count
        if step.kind == "leaders" and step.index not in emptied:
            edit.set_leaders(step.index, step.count)
    edit.delete(emptied)
    for step in steps:
        if step.kind == "add":
            edit.append(step.unit, step.count)
            if step.leaders is not None:
                edit.set_leaders(len(edit.expected["units"]) - 1, step.leaders)


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

"""A list that cannot be read, and the changes that repair it: each problem at its line in the
player's words, with the fixes the readers' own messages already point to.

A list that cannot be read cannot be edited as a list (``plan.ListEdit`` reads it first), so a
repair is a change of the file's text: a value replaced where it stands, a key's lines deleted,
an entry deleted, or the whole text as the player typed it. Every other byte stays as written
(``yamltext`` plans the splices on the composed node tree). A repair is a ``Change`` like any
other, carried out by ``apply.apply_change`` under the list's lock with its undo step, so Undo
takes it back; its steps are kept as text (``history.History.push``), since one side of them is
a list that cannot be read.

``diagnose`` reads a text through the same readers as a list file (``parse_yaml``,
``parse_list``, ``build_report``) and never writes.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Literal

import yaml

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import build_report
from listbuilder.editing.changes import Change
from listbuilder.editing.history import BOM, History, version_of
from listbuilder.editing.plan import EditResult, ListEdit
from listbuilder.editing.yamltext import YamlText, apply, is_printable_line, scalar
from listbuilder.errors import Action, ErrorDetail, InputError, ListbuilderError, Location
from listbuilder.files.reading import MAX_FILE_BYTES
from listbuilder.files.yamldoc import Document, parse_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.listformat import (
    COUNT,
    ENTRY_LEADER,
    ENTRY_LEADERS,
    NAME,
    NOTES,
    REVISION,
    SOURCE,
    SYSTEM,
    UNIT_LEADER,
    UNITS,
)
from listbuilder.words import meant

FixKind = Literal["set", "rename", "remove", "drop"]
FIX_KINDS: tuple[FixKind, ...] = ("set", "rename", "remove", "drop")
MAX_TROUBLES = 100  # problems a diagnosis shows; a file with more is best mended in the editor
# Keys a list or an entry may leave out: removing one of them is a fix.
_NEEDED_TOP = tuple(k.key for k in (SYSTEM, NAME, UNITS))  # the others (the limit, the revision) may go
_OPTIONAL_ENTRY = tuple(k.key for k in (COUNT, ENTRY_LEADER, ENTRY_LEADERS, UNIT_LEADER, NOTES, SOURCE))
_TITLES = {k.key: k.title for k in (SYSTEM, NAME, REVISION, UNITS)}


@record
class Fix(Record):
    """One change of a list's text that mends a problem: ``kind`` ``set`` (the value at ``path``
    becomes ``value``, or is added if missing), ``rename`` (the key at ``path`` becomes
    ``value``), ``remove`` (the key at ``path`` and its value go), ``drop`` (entry ``path`` goes).
    ``choices``: the values a player picks ``value`` from (a rule set), each (value, words)."""

    kind: str
    path: Location
    label: str  # what the fix does, as its button says it: "Use NAME", NAME the unit meant
    value: str = ""
    choices: tuple[tuple[str, str], ...] = ()

    def as_form(self) -> str:
        """The fix's place as a form carries it (``fix_of`` reads it back)."""
        return json.dumps(list(self.path))


@record
class Trouble(Record):
    """One problem of a list's text: where (its line and column, and in the player's words),
    what is wrong, the hint and next step the reader gave, and the fixes that mend it."""

    message: str
    line: int | None = None
    column: int | None = None
    place: str = ""  # "Entry 2, Huntr", "Rule set": never a data path
    quote: str = ""  # the text of its line, as the file has it
    hint: str | None = None
    action: Action | None = None
    fixes: tuple[Fix, ...] = ()


@record
class Diagnosis(Record):
    """A list's text as read through a list file's readers: readable, or each of its problems."""

    version: str  # of the text, as a change's ``expect`` takes it
    text: str
    readable: bool
    summary: str = ""  # the reader's one line ("this list cannot be read", "this is not valid YAML")
    troubles: tuple[Trouble, ...] = ()
    more: int = 0  # problems past MAX_TROUBLES, not shown
    undo: int = 0
    redo: int = 0


def diagnose(text: str, catalogs: Catalogs, source: Path = Path("<list>")) -> Diagnosis:
    """``text`` read as a list file is read; its problems with their fixes if it cannot be."""
    body = text.removeprefix(BOM)
    version = version_of(body)
    doc: Document | None = None
    try:
        doc = parse_yaml(body, source)
        army, system = parse_list(doc, catalogs)
        build_report(army, system, catalogs)
    except ListbuilderError as exc:
        troubles = _troubles(exc, doc, catalogs, source, body.splitlines())
        return Diagnosis(
            version=version,
            text=body,
            readable=False,
            summary=exc.summary,
            troubles=tuple(troubles[:MAX_TROUBLES]),
            more=max(0, len(troubles) - MAX_TROUBLES),
        )
    return Diagnosis(version=version, text=body, readable=True)


def diagnose_file(path: Path, text: str, catalogs: Catalogs) -> Diagnosis:
    """``diagnose`` of a list file's ``text``, with its undo and redo depth."""
    found = diagnose(text, catalogs, path)
    undo, redo = History(path).depth(found.version)
    return dataclasses.replace(found, undo=undo, redo=redo)


def _troubles(
    exc: ListbuilderError, doc: Document | None, catalogs: Catalogs, source: Path, lines: list[str]
) -> list[Trouble]:
    if exc.file is not None and exc.file != source:  # the rule set's own files: the list is not at fault
        system = doc.data.get("system") if doc is not None and isinstance(doc.data, dict) else None
        line = doc.locate(("system",))[0] if doc is not None else None
        fixes = (_choose_rule_set(catalogs, str(system)),) if isinstance(system, str) else ()
        problem = f"the rule set '{system}' cannot be read ({exc.summary})"
        return [Trouble(message=problem, line=line, place="Rule set", quote=_quote(lines, line), fixes=fixes)]
    out: list[Trouble] = []
    dropped: set[int] = set()  # each entry offered to be dropped once
    for detail in exc.details:
        out.append(
            Trouble(
                message=detail.message,
                line=detail.line,
                column=detail.column,
                place=_place(detail.path, doc, catalogs),
                quote=_quote(lines, detail.line),
                hint=detail.hint,
                action=detail.action,
                fixes=_fixes(detail, doc, catalogs, dropped) if doc is not None else (),
            )
        )
    if not out:
        out.append(Trouble(message=exc.summary))
    return out


def _quote(lines: list[str], line: int | None) -> str:
    """Line ``line`` of the text (1-based), cut to what a page shows; '' for none."""
    if line is None or not 0 < line <= len(lines):
        return ""
    text = lines[line - 1].rstrip()
    return text if len(text) <= 120 else text[:119] + "…"


def _entry_name(doc: Document | None, index: int) -> str:
    units = doc.data.get("units") if doc is not None and isinstance(doc.data, dict) else None
    item = units[index] if isinstance(units, list) and 0 <= index < len(units) else None
    if isinstance(item, dict):
        name = item.get("unit", item.get("name"))
        if isinstance(name, str) and name.strip():
            return " ".join(name.split())
    return ""


def _place(path: Location, doc: Document | None, catalogs: Catalogs) -> str:
    """Where ``path`` is, as a player names it: "Entry 2, Huntr", "Rule set", "Limit", "" (the file)."""
    if len(path) >= 2 and path[0] == "units" and isinstance(path[1], int):
        name = _entry_name(doc, path[1])
        return f"Entry {path[1] + 1}" + (f", {name}" if name else "")
    if len(path) == 1 and isinstance(path[0], str):
        return _TITLES.get(path[0]) or ("Limit" if path[0] in catalogs.measure_words() else "The list")
    return ""


def _choose_rule_set(catalogs: Catalogs, now: str) -> Fix:
    offered = tuple((c.id, " ".join(c.name.split())) for c in catalogs.choices().offered if c.id != now)
    return Fix(kind="set", path=("system",), label="Use this rule set", choices=offered)


def _fixes(detail: ErrorDetail, doc: Document, catalogs: Catalogs, dropped: set[int]) -> tuple[Fix, ...]:
    path = detail.path
    data = doc.data
    if not isinstance(data, dict) or not path:
        return ()
    fixes: list[Fix] = []
    word = meant(detail.hint)
    on_key = bool(path) and doc.key_positions.get(tuple(path)) == (detail.line, detail.column)
    key = path[-1]
    if path == ("system",):
        if word is not None and not on_key:
            fixes.append(Fix(kind="set", path=path, label=f"Use {word}", value=word))
        if catalogs.ids():
            fixes.append(_choose_rule_set(catalogs, str(data.get("system"))))
        return tuple(fixes)
    measure = _measure(detail)
    if on_key and isinstance(key, str):
        to = word or measure
        if to is not None and not _holds(data, (*path[:-1], to)):
            fixes.append(Fix(kind="rename", path=path, label=f"Write '{to}' instead", value=to))
        fixes.append(Fix(kind="remove", path=path, label=f"Remove the key '{key}'"))
    elif _holds(data, path):
        if word is not None and key == "unit":
            fixes.append(Fix(kind="set", path=path, label=f"Use {word}", value=word))
        if (len(path) == 1 and key not in _NEEDED_TOP) or (len(path) == 3 and key in _OPTIONAL_ENTRY):
            fixes.append(Fix(kind="remove", path=path, label=f"Remove the key '{key}'"))
    if len(path) >= 2 and path[0] == "units" and isinstance(path[1], int) and _holds(data, path[:2]):
        index = path[1]
        if index not in dropped:
            dropped.add(index)
            name = _entry_name(doc, index)
            fixes.append(
                Fix(kind="drop", path=path[:2], label=f"Drop entry {index + 1}" + (f", {name}" if name else ""))
            )
    return tuple(fixes)


def _measure(detail: ErrorDetail) -> str | None:
    """The measure a rule set counts in, where ``detail`` says a list wrote another ("write 'figures:' instead")."""
    hint = detail.hint or ""
    if hint.startswith("write '") and hint.endswith(":' instead"):
        return hint[len("write '") : -len(":' instead")]
    return None


def _holds(data: Any, path: Location) -> bool:
    """Whether ``path`` names a value in ``data``."""
    here = data
    for part in path:
        in_list = isinstance(part, int) and isinstance(here, list) and 0 <= part < len(here)
        if in_list or (isinstance(part, str) and isinstance(here, dict) and part in here):
            here = here[part]
        else:
            return False
    return True


# --- carrying a fix out on the text ---------------------------------------------------------------


def fix_of(kind: str, place: str, value: str = "") -> Fix:
    """The fix a form sent back (its ``kind``, its place as ``Fix.as_form`` wrote it, and the value
    chosen); an ``InputError`` for anything that is not one."""
    try:
        path = json.loads(place)
    except ValueError:
        path = None
    if (
        kind not in FIX_KINDS
        or not isinstance(path, list)
        or not path
        or len(path) > 4
        or not all(isinstance(p, str) or (isinstance(p, int) and not isinstance(p, bool)) for p in path)
    ):
        raise InputError.detailed("this is not a fix of this page", "nothing was changed", hint="reload the page")
    if not is_printable_line(value) or len(value) > 200:
        raise InputError.detailed(
            "a fix's value is one line of text", "nothing was changed", hint="reload the page and try again"
        )
    return Fix(kind=kind, path=tuple(path), label="", value=value)


def _stale() -> InputError:
    return InputError.detailed(
        "this fix no longer fits the file", "nothing was changed", hint="reload the page: the file changed"
    )


def _find(y: YamlText, path: Location) -> tuple[Any, Any, Any]:
    """The mapping or sequence holding the last part of ``path``, the key node (``None`` in a
    sequence) and the value node; ``_stale`` if the text has no such place."""
    parent: Any = None
    key_node: Any = None
    node: Any = y.root
    for part in path:
        if isinstance(part, str) and isinstance(node, yaml.MappingNode):
            found = y.pair(node, part)
            if found is None:
                raise _stale()
            parent, (key_node, node) = node, found
        elif isinstance(part, int) and isinstance(node, yaml.SequenceNode) and 0 <= part < len(node.value):
            parent, key_node, node = node, None, node.value[part]
        else:
            raise _stale()
    return parent, key_node, node


def fix_text(text: str, fix: Fix) -> str:
    """``text`` with ``fix`` carried out; every other byte as it was."""
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom) :]
    try:
        y = YamlText(body)
    except yaml.YAMLError:
        raise _stale() from None
    if not isinstance(y.root, yaml.MappingNode):
        raise _stale()
    if not fix.value and fix.kind in ("set", "rename"):
        raise InputError.detailed("choose a value for this fix", "nothing was changed")
    if fix.kind == "set" and len(fix.path) == 1 and y.pair(y.root, str(fix.path[0])) is None:
        splices = [_add_top(y, str(fix.path[0]), fix.value)]
    else:
        parent, key_node, node = _find(y, fix.path)
        splices = _splices(y, fix, parent, key_node, node)
    return bom + apply(body, splices)


def _add_top(y: YamlText, key: str, value: str) -> tuple[int, int, str]:
    if y.root.flow_style or not y.root.value:
        raise _stale()
    first = y.root.value[0][0]
    return y.insert_lines(y.line_start(first.start_mark.index), [f"{key}: {scalar(value)}"])


def _splices(y: YamlText, fix: Fix, parent: Any, key_node: Any, node: Any) -> list[tuple[int, int, str]]:
    flow = bool(getattr(parent, "flow_style", False))
    if fix.kind == "set":
        style = node.style if isinstance(node, yaml.ScalarNode) and node.style in ("'", '"') else None
        new = scalar(fix.value, style, flow)
        if isinstance(node, yaml.ScalarNode):
            return [y.replace_scalar(node, new)]
        return [(node.start_mark.index, y.content_end(node), new)]
    if fix.kind == "rename":
        if key_node is None:
            raise _stale()
        return [y.replace_scalar(key_node, scalar(fix.value, None, flow))]
    if fix.kind == "drop":
        holder_parent, units_key, _ = _find(y, fix.path[:-1])
        del holder_parent
        if not isinstance(parent, yaml.SequenceNode) or units_key is None:
            raise _stale()
        return y.delete_item(parent, int(fix.path[-1]), units_key)
    return [_remove_pair(y, parent, key_node, node)]


def _remove_pair(y: YamlText, mapping: Any, key_node: Any, value: Any) -> tuple[int, int, str]:
    """The splice that deletes one key and its value from ``mapping``."""
    if key_node is None:
        raise _stale()
    pairs = mapping.value
    at = next(i for i, (k, _) in enumerate(pairs) if k is key_node)
    text = y.text
    if mapping.flow_style:
        if len(pairs) == 1:
            return key_node.start_mark.index, y.content_end(value), ""
        if at + 1 < len(pairs):
            return key_node.start_mark.index, pairs[at + 1][0].start_mark.index, ""
        return y.content_end(pairs[at - 1][1]), y.content_end(value), ""
    start = y.line_start(key_node.start_mark.index)
    if text[start : key_node.start_mark.index].strip(" ") == "":
        return y.delete_lines(start, y.line_after(y.content_end(value)))
    # The key follows a '- ' on its line (an entry's first key): the next key takes its place.
    if at + 1 < len(pairs):
        return key_node.start_mark.index, pairs[at + 1][0].start_mark.index, ""
    return key_node.start_mark.index, y.content_end(value), "{}"


# --- repairs as changes ---------------------------------------------------------------------------


def read_back(text: str, old: str, catalogs: Catalogs, source: Path, done: str = "") -> EditResult:
    """The outcome of a repair that made ``text`` of ``old``: its report where it now reads."""
    report = None
    body = text.removeprefix(BOM)
    try:
        army, system = parse_list(parse_yaml(body, source), catalogs)
        report = build_report(army, system, catalogs)
    except ListbuilderError:
        pass
    return EditResult(path=source, text=text, report=report, changed=text != old, done=done)


@record
class Repair(Change):
    """A change of a list's text that needs no readable list: ``apply_change`` keeps its undo
    steps as text (``history``), and its result's report is ``None`` while the list is unreadable."""

    def carry_out(self, edit: ListEdit) -> str:
        raise NotImplementedError  # a repair changes the text (``on_text``), never a read list

    def on_text(self, text: str, catalogs: Catalogs, source: Path) -> EditResult:
        raise NotImplementedError


@record
class ApplyFix(Repair):
    """Carry out one ``Fix`` that ``diagnose`` offered."""

    fix: Fix

    def on_text(self, text: str, catalogs: Catalogs, source: Path) -> EditResult:
        done = _FIX_DONE[self.fix.kind](self.fix)
        return read_back(fix_text(text, self.fix), text, catalogs, source, done)


_FIX_DONE = {
    "set": lambda f: f"Wrote '{f.value}'",
    "rename": lambda f: f"Wrote '{f.value}' for '{f.path[-1]}'",
    "remove": lambda f: f"Removed the key '{f.path[-1]}'",
    "drop": lambda f: f"Dropped entry {int(f.path[-1]) + 1}",
}


@record
class ReplaceText(Repair):
    """The list's whole text, as the player typed it in the repair view's editor."""

    text: str

    def on_text(self, text: str, catalogs: Catalogs, source: Path) -> EditResult:
        new = self.text.removeprefix(BOM).replace("\r\n", "\n")  # a browser's form sends CRLF
        if "\r\n" in text:  # the file's own line endings
            new = new.replace("\n", "\r\n")
        if len(new) > MAX_FILE_BYTES or "\x00" in new:
            raise InputError.detailed(
                "this text cannot be a list file",
                f"it is over {MAX_FILE_BYTES:,} characters or holds a NUL",
                file=source,
            )
        bom = BOM if text.startswith(BOM) else ""
        return read_back(bom + new, text, catalogs, source, "Saved the text")

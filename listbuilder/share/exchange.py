"""Share a list outside listbuilder, and take a shared one back.

- ``export_text`` and ``export_markdown``: a short version for a chat message or forum post,
  exact enough to read back (the format is in ``textformat``), e.g.
  ``1x Old Mother [Monster, Might 20] - 20 points``.
- ``export_json``: the same for programs, in the structure below.
- ``import_text``: any of the three back into list-file YAML. Costs, totals and verdicts in the
  text are not read: listbuilder judges the list again.
- ``embed``: the list as YAML with every catalog unit written out as a custom unit, so it
  validates with its rule set alone, no unit catalogs: for a friend whose catalogs differ.

Every export records the catalog revision (the list's own, or the current one if it has none),
so a list shared today is warned about units that change later. YAML comments, and a custom
unit's ``notes`` and ``source``, are not carried by the text formats.

JSON structure (``format_version`` 1; later versions may add fields, none will change meaning)::

    {
      "format": "listbuilder-list", "format_version": 1,
      "system": "might-skirmish", "system_name": "Might Skirmish", "revision": 1,
      "name": "Monster Mash",
      "limit": 100,                   # null when the list has none
      "unit": "points",               # or "figures": what limit, total and costs count
      "total": 114, "models": 9, "legal": false,
      "entries": [                    # in list order
        {"unit": "Hunter", "count": 3, "leader": false, "leaders": 0, "custom": false, "each": 10, "cost": 30},
        {"unit": "Old Mother", "count": 1, "leader": false, "leaders": 0, "custom": true, "each": 20, "cost": 20,
         "stats": {"class": "Monster", "might": 20},   # custom entries only, keyed as in list files
         "notes": ""}                                   # custom entries only
      ],
      "problems": [{"severity": "error", "rule": "...", "rule_id": "points-limit",
                    "message": "14 points over the 100-point limit (114 of 100)", "entry": null}]
    }

``leader`` is true when every model of an entry is a leader; ``leaders`` says how many are (0 to
``count``). A file without ``leaders`` (or with null) is read by its ``leader``. The reader is
pydantic's, as for every file format (``SentList``, ``SentEntry``); it ignores keys it does not read.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import Report, build_report
from listbuilder.editing.writer import catalog_entry, custom_entry, dump_list, list_data
from listbuilder.errors import Action, ErrorDetail, InputError
from listbuilder.files.reading import MAX_FILE_BYTES
from listbuilder.files.yamldoc import Document, parse_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.loadout import as_data
from listbuilder.rules.schema import adapter, json_text
from listbuilder.share.textformat import revision_of, to_markdown, to_text
from listbuilder.share.textreader import Written, encodable, read_export

FORMAT = "listbuilder-list"
FORMAT_VERSION = 1
R = TypeVar("R", bound=Hashable)  # a record (its reader is cached by class)
EMBED_COMMENT = "# Every unit is written out in full, so this list needs only its rule set, not the unit catalogs.\n"


def export_text(report: Report) -> str:
    """The list as short plain text for a chat message or forum post; ``import_text`` reads it back."""
    return to_text(report)


def export_markdown(report: Report) -> str:
    """The list as markdown for a forum: a heading and a bullet list; ``import_text`` reads it back."""
    return to_markdown(report)


def export_json(report: Report) -> str:
    """The list as JSON for programs (structure in the module docstring), indented, ending in a newline."""
    d = report.system.definition
    entries = []
    for line in report.lines:
        e = line.entry
        item: dict[str, Any] = {
            "unit": e.unit.name,
            "count": e.count,
            "leader": e.leader,
            "leaders": e.leaders,
            "custom": e.custom,
            "each": line.unit_cost,
            "cost": line.cost,
        }
        if e.custom:
            stats = report.system.definition.stats
            item["stats"] = {
                k: as_data(v, stats[k].item if k in stats else None, d.figures_stat) for k, v in e.unit.stats.items()
            }
            item["notes"] = e.unit.notes
        entries.append(item)
    data = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "system": d.id,
        "system_name": d.name,
        "revision": revision_of(report),
        "name": report.army.name,
        "limit": report.limit,
        "unit": report.unit,
        "total": report.total,
        "models": report.models,
        "legal": report.legal(),
        "entries": entries,
        "problems": [p.as_json() for p in report.problems],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def clean_yaml(report: Report) -> str:
    """The list as a clean list file: catalog units by name, custom units in full, no comments."""
    system = report.system
    units = [
        custom_entry(system, ln.entry.unit, ln.entry.count, ln.entry.leaders)
        if ln.entry.custom
        else catalog_entry(ln.entry.unit, ln.entry.count, ln.entry.leaders)
        for ln in report.lines
    ]
    return dump_list(list_data(system, report.army.name, report.limit, revision_of(report), units))


def embed(report: Report) -> str:
    """The list as YAML with every unit written out as a custom unit (name, stats, leader, notes)."""
    system = report.system
    units = [custom_entry(system, ln.entry.unit, ln.entry.count, ln.entry.leaders) for ln in report.lines]
    # The units are written as they are now, so the list records the current catalog revision.
    return dump_list(
        list_data(system, report.army.name, report.limit, system.definition.revision, units), EMBED_COMMENT
    )


def import_text(text: str, source: Path, catalogs: Catalogs, system_id: str | None = None) -> str:
    """List-file YAML from a text, markdown or JSON export, or a list typed by hand for rule set
    ``system_id``; ``InputError`` (naming lines) if it is neither.

    ``source`` names the text in error messages.
    """
    return import_with_notes(text, source, catalogs, system_id).text


@record
class Imported(Record):
    """An imported list's file text, and notes on where the text's costs differ from the catalogs'."""

    text: str
    notes: tuple[str, ...]


def import_with_notes(text: str, source: Path, catalogs: Catalogs, system_id: str | None = None) -> Imported:
    """``import_text``, noting each cost the text wrote that the catalogs here do not give, and
    the lines around the list that it skipped.

    Costs are never read into the list (listbuilder judges it again), but a sender whose catalogs
    differ from yours should hear that the numbers changed."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"the text is {len(text):,} characters; an exported list is far shorter", file=source)
    if not encodable(text):
        raise InputError("the text holds characters that are not valid Unicode", file=source)
    if text.lstrip().startswith("{"):
        data = _read_json(text, source, catalogs)
        if system_id and data["system"] != system_id:  # as the text reader refuses it
            raise InputError.detailed(
                f"the JSON is a list of {data['system']}, not of the rule set chosen, {system_id}",
                "choose its rule set, or none: the JSON says which it is",
                file=source,
                path=("system",),
            )
        sent = json.loads(text)
        written = [Written(line=None, cost=_whole(e.get("cost"))) for e in sent["entries"]]
        written.append(Written(line=None, cost=_whole(sent.get("total"))))
        skipped: list[str] = []
    else:
        data, written, skipped = read_export(text, source, catalogs, system_id)
    out = dump_list(data)
    army, system = parse_list(parse_yaml(out, source), catalogs)
    report = build_report(army, system)
    unit = system.size_unit
    notes = list(skipped)
    for line, said in zip(report.lines, written, strict=False):
        if said.cost is not None and said.cost != line.cost:
            where = f"line {said.line}: " if said.line else ""
            notes.append(
                f"{where}the text gives {line.entry.count}x {line.entry.unit.name} as {said.cost:,} {unit}; "
                f"the {system.id} catalogs here make it {line.cost:,}"
            )
    total = written[-1] if len(written) == len(report.lines) + 1 else None
    if total is not None and total.cost is not None and total.cost != report.total:
        where = f"line {total.line}: " if total.line else ""
        notes.append(f"{where}the text gives a total of {total.cost:,} {unit}; here it is {report.total:,}")
    return Imported(text=out, notes=tuple(notes))


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# An export's reader ignores keys it does not know: later versions may add fields (the module's
# promise), and costs, totals and verdicts are not read back.
_EXPORT_CONFIG: Mapping[str, Any] = {**Record.__pydantic_config__, "extra": "ignore"}


@record
class SentList(Record):
    """A JSON export as read back: what its list file needs. Its entries are read one by one
    (``SentEntry``), so that one broken entry does not hide the others' problems."""

    __pydantic_config__ = _EXPORT_CONFIG
    format: str
    format_version: int
    system: str
    name: str
    limit: int | None = None
    revision: int | None = None
    entries: tuple[Any, ...]


@record
class SentEntry(Record):
    """An entry of a JSON export as read back; ``stats`` and ``notes`` are a custom unit's."""

    __pydantic_config__ = _EXPORT_CONFIG
    unit: str
    count: int
    leader: bool
    custom: bool
    leaders: int | None = None
    stats: Mapping[str, Any] | None = None
    notes: str = ""


# What is said when a key of the export is not as it must be, in the order it is said.
_LIST_PROBLEMS = {
    "format_version": f"this listbuilder reads format_version {FORMAT_VERSION}",
    "name": "expected the list's name as text",
    "limit": "expected a whole number of at least 1, or null",
    "revision": "expected a whole number of at least 1, or null",
    "entries": "expected a list of entries",
}
_ENTRY_NEEDS = "an entry needs 'unit' (text), 'count' (at least 1), 'leader' and 'custom' (true or false)"
_CUSTOM_NEEDS = "a custom entry needs 'stats' (an object) and 'notes'"


def _read(cls: type[R], data: Any) -> tuple[R | None, set[str | int]]:
    """``data`` read as ``cls`` by pydantic (``rules.schema``), or the keys that are wrong in it."""
    from pydantic import ValidationError  # start-up: only an import of JSON reads it

    try:
        return adapter(cls).validate_json(json_text(data)), set()
    except ValidationError as exc:
        return None, {err["loc"][0] if err["loc"] else "" for err in exc.errors(include_url=False)}


def _read_json(text: str, source: Path, catalogs: Catalogs) -> dict[str, Any]:
    """The list data of an ``export_json`` document."""

    def fail(message: str, path: tuple[str | int, ...] = (), hint: str | None = None, action: str = "") -> InputError:
        details = [ErrorDetail(message=message, path=path, hint=hint, action=Action(kind=action) if action else None)]
        return InputError("this is not a list exported by listbuilder as JSON", file=source, details=details)

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        detail = ErrorDetail(message=exc.msg, line=exc.lineno, column=exc.colno)
        raise InputError("this is not valid JSON", file=source, details=[detail]) from None
    except (ValueError, RecursionError):
        raise InputError("this JSON cannot be read: nested too deeply or a number too large", file=source) from None
    if not encodable(json.dumps(data, ensure_ascii=False)):
        raise InputError("the JSON holds characters that are not valid Unicode", file=source)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(
            f'expected an object with "format": "{FORMAT}"', hint="export the list as JSON again", action="export-json"
        )
    if data.get("format_version") != FORMAT_VERSION:
        raise fail(_LIST_PROBLEMS["format_version"], ("format_version",))
    system_id = data.get("system")
    if not isinstance(system_id, str) or system_id not in catalogs.ids():
        shown = system_id if isinstance(system_id, str) else "?"
        raise fail(f"unknown rule set '{shown}'", ("system",), catalogs.unknown_hint(shown))
    sent, wrong = _read(SentList, data)
    too_small = {k for k in ("limit", "revision") if isinstance(data.get(k), int) and data[k] < 1}
    blank = {"name"} if isinstance(data.get("name"), str) and not data["name"].strip() else set()
    for key, message in _LIST_PROBLEMS.items():
        if key in wrong | too_small | blank:
            raise fail(message, (key,))
    assert sent is not None  # no key was wrong
    system = catalogs.get(sent.system)
    details: list[ErrorDetail] = []
    units = []
    for i, raw in enumerate(sent.entries):
        path: tuple[str | int, ...] = ("entries", i)
        entry, wrong = _read(SentEntry, raw if isinstance(raw, dict) else {})
        if wrong - {"leaders", "stats", "notes"} or raw["count"] < 1:
            details.append(ErrorDetail(message=_ENTRY_NEEDS, path=path))
            continue
        unit_name, count, leaders = raw["unit"], raw["count"], raw.get("leaders")
        if leaders is None:  # a file without 'leaders' is read by its 'leader'
            leaders = count if raw["leader"] else 0
        if "leaders" in wrong or not 0 <= leaders <= count:
            message = f"'leaders' must be a whole number from 0 to the entry's count of {count}, found {leaders!r}"
            details.append(ErrorDetail(message=message, path=(*path, "leaders")))
        elif not raw["custom"]:  # a catalog unit: 'stats' and 'notes' are not read
            unit = system.listed_unit(unit_name.strip())  # an old list's renamed or retired unit too
            if unit is None:
                missing = system.unknown_unit(unit_name)
                details.append(ErrorDetail(message=missing.message, path=(*path, "unit"), hint=missing.hint))
            else:
                units.append(catalog_entry(unit, count, leaders))
        elif entry is None or entry.stats is None:
            details.append(ErrorDetail(message=_CUSTOM_NEEDS, path=path))
        else:
            unit_data = {**entry.stats, "name": entry.unit, "notes": entry.notes}
            doc = Document(path=source, data=unit_data, positions={}, text="")
            found, errors = system.read_unit(unit_data, doc, (*path, "stats"))
            details += errors
            if found is not None:
                units.append(custom_entry(system, found, count, leaders))
    if details:
        raise InputError("this JSON list has errors", file=source, details=details)
    return list_data(system, sent.name, sent.limit, sent.revision, units)

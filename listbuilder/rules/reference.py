"""The reference data of a rule set: turn sequence, tables, special rules and play aids.

``catalogs/<id>/reference.yaml`` holds what the rules card and a list's reference sheet print:
every table of the source text with its exact values (or a note that the text refers to a
table it does not give), the special rules in our own words, the columns the roster derives
from each unit's stats, and the play aids (turn track, tick boxes, token tracks).
Each item says which units "use" it, so a reference sheet prints only what a list needs.
"""

import string
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from listbuilder.errors import CatalogError, ErrorDetail
from listbuilder.files.yamldoc import Document
from listbuilder.memory import Bounded
from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules import cache
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.loadout import carriers, is_mixed, names
from listbuilder.rules.playaids import Marker, PlayAids, Roll, Track, Uses, faces
from listbuilder.rules.schema import doc, read_catalog_document
from listbuilder.rules.variant import layered
from listbuilder.rules.wording import Scope, fill_record
from listbuilder.words import did_you_mean

REFERENCE_FILE = "reference.yaml"


@record
class Phase(Record):
    """One step of the turn sequence."""

    name: str = doc("the phase's name, e.g. 'Movement'")
    summary: str = doc("what happens in it, in our own words")
    source: str = doc("where the source text gives it")


@record
class Turn(Record):
    """The turn sequence, in order."""

    phases: tuple[Phase, ...] = doc("the phases in the order they are played")
    note: str = doc("how turns alternate and when the game ends, in our own words", default="")
    source: str = doc("where the source text gives the sequence", default="")


@record
class Table(Record):
    """A table of the source text, with its values exactly as given."""

    id: str = doc("a short name")
    title: str = doc("the table's title on the card")
    source: str = doc("the lines of the source text that give the table")
    summary: str = doc("how to read or use it, in our own words", default="")
    columns: tuple[str, ...] = doc("column headings", default=())
    rows: tuple[tuple[str, ...], ...] = doc("the rows, each cell as printed", default=())
    given: bool = doc("false when the text refers to the table but does not give it", default=True)
    uses: Uses | None = doc("when it belongs on a reference sheet; leave out for always", default=None)
    filter_rows: bool = doc("on a reference sheet, keep only rows whose first cell a unit uses", default=False)
    on_card: bool = doc(
        "false when the rules card shows this table with its odds instead (see odds.yaml's 'card')", default=True
    )
    in_play: bool = doc(
        "false for tables used only when building a force: the card prints them, sheets do not", default=True
    )


@record
class SpecialRule(Record):
    """A special rule or glossary entry, in our own words."""

    id: str = doc("a short name")
    title: str = doc("the rule's name")
    text: str = doc("the rule, in our own words")
    source: str = doc("where the source text gives it")
    uses: Uses | None = doc("when it belongs on a reference sheet; leave out for always", default=None)


@record
class Column(Record):
    """A value the roster derives from a unit's stats, e.g. its move from its class."""

    label: str = doc("the column heading, e.g. 'Move'")
    stat: str = doc("the choice or choices stat it reads")
    show: str = doc(
        "a template over the choice's name, summary and properties, e.g. '{name} {range}\" x{shots}'", default=""
    )
    flags: Mapping[str, str] = doc(
        "instead of 'show': true/false properties and the word printed for each that is true, "
        "e.g. {charges: charge, defends: defend} prints 'charge, defend'",
        default_factory=FrozenMap,
    )
    source: str = doc("where the source text gives the values", default="")


@record
class ReferenceFile(Record):
    """``catalogs/<id>/reference.yaml``: what the rules card and reference sheets print."""

    turn: Turn = doc("the turn sequence")
    tables: tuple[Table, ...] = doc("every table of the source text", default=())
    rules: tuple[SpecialRule, ...] = doc("special rules and glossary entries", default=())
    columns: tuple[Column, ...] = doc("values the roster derives from each unit's stats", default=())
    play_aids: PlayAids = doc("markers, scores, the turn track and set-up rolls", default_factory=PlayAids)


# The fields of reference.yaml that hold sentences or cells, which may write numbers as placeholders
# (``rules/wording.py``); a column's 'show' is a template of its own, over a choice's properties.
REFERENCE_TEXTS: Mapping[type, tuple[str, ...]] = {
    Turn: ("note",),
    Phase: ("summary",),
    Table: ("title", "summary", "columns", "rows"),
    SpecialRule: ("title", "text"),
    Track: ("label", "text"),
    Marker: ("label", "text"),
    Roll: ("title", "text"),
}


def load_reference(system: System) -> ReferenceFile:
    """Load and check ``reference.yaml`` of a rule set (an empty reference when it has none).

    It is a part of the rule set's cache entry (``rules.cache``), so a run reads it from the
    cache and a long-running process once; without an entry, it is kept in memory while the
    files are unchanged. A variant's own reference.yaml is laid over its base's."""
    paths = system.layer_files(REFERENCE_FILE)
    if not paths:
        return ReferenceFile(turn=Turn(phases=()))
    return cache.part(system, "reference", ReferenceFile, paths[-1], lambda: _load_reference(system, paths), _MEMORY)


_MEMORY: Bounded[tuple[Path, int, str], ReferenceFile] = Bounded(cache.MEMORY_ENTRIES)


def _load_reference(system: System, paths: list[Path]) -> ReferenceFile:
    shape = "a mapping with 'turn', 'tables' and 'rules'"
    doc = layered(paths, "reference file", system.base or "")
    ref, _ = read_catalog_document(doc, ReferenceFile, "reference file", shape, lambda r, d: _check(r, system, d))
    # A table or rule that writes a number as a placeholder ('{cost of Wolf Rider}') follows it.
    errors: list[ErrorDetail] = []
    filled: ReferenceFile = fill_record(ref, REFERENCE_TEXTS, Scope(system.definition, system.units), doc, errors)
    if errors:
        raise doc.error("this reference file has placeholders that name nothing", errors, CatalogError)
    return filled


def _check(ref: ReferenceFile, system: System, d: Document) -> list[ErrorDetail]:
    stats = system.definition.stats
    errors: list[ErrorDetail] = []

    def check_uses(path: tuple[str | int, ...], uses: Uses | None) -> None:
        if uses is None:
            return
        stat = stats.get(uses.stat)
        if stat is None or stat.kind == "number":
            errors.append(d.detail((*path, "stat"), f"'{uses.stat}' is not a choice stat of {system.id}"))
            return
        names = [c.name for c in stat.choices]
        errors.extend(
            d.detail((*path, "any_of"), f"'{v}' is not a value of '{uses.stat}'", did_you_mean(v, names))
            for v in uses.any_of
            if v not in names
        )

    for i, table in enumerate(ref.tables):
        check_uses(("tables", i, "uses"), table.uses)
        width = len(table.columns)
        for r, row in enumerate(table.rows):
            if width and len(row) != width:
                errors.append(
                    d.detail(("tables", i, "rows", r), f"{len(row)} cells, but the table has {width} columns")
                )
        if table.filter_rows and table.uses is None:
            errors.append(d.detail(("tables", i, "filter_rows"), "filter_rows needs 'uses' to know which stat to read"))
    for i, rule in enumerate(ref.rules):
        check_uses(("rules", i, "uses"), rule.uses)
    errors.extend(_check_play_aids(ref, check_uses, d))
    for i, column in enumerate(ref.columns):
        stat = stats.get(column.stat)
        if stat is None or stat.kind == "number":
            errors.append(d.detail(("columns", i, "stat"), f"'{column.stat}' is not a choice stat of {system.id}"))
            continue
        if bool(column.show) == bool(column.flags):
            errors.append(d.detail(("columns", i), "a column has either 'show' or 'flags'"))
        for name in _fields(column.show):
            if not name.isidentifier():
                errors.append(d.detail(("columns", i, "show"), f"'{{{name}}}' must be a plain property name"))
    return errors


def _fields(template: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(template) if field is not None]


def values_used(system: System, units: Iterable[Unit], stat_key: str) -> set[str]:
    """Every value of a choice(s) stat that any of ``units`` has."""
    used: set[str] = set()
    for unit in units:
        used.update(names(unit.stats.get(stat_key)))
    return used


def is_used(uses: Uses | None, system: System, units: Iterable[Unit]) -> bool:
    if uses is None:
        return True
    found = values_used(system, units, uses.stat)
    return bool(found if not uses.any_of else found & set(uses.any_of))


def markers_for(ref: "ReferenceFile", system: System, units: Iterable[Unit] | None = None) -> tuple[Marker, ...]:
    """The markers of the rule set: all of them, or those that ``units`` use."""
    units = None if units is None else list(units)
    return tuple(m for m in ref.play_aids.all_markers if units is None or is_used(m.uses, system, units))


def box_labels(ref: "ReferenceFile", system: System, units: Iterable[Unit] | None = None) -> tuple[str, ...]:
    """The labels of the markers printed per model or unit: all of them, or those that ``units`` use."""
    return tuple(m.label for m in markers_for(ref, system, units))


def _check_play_aids(ref: "ReferenceFile", check_uses: Any, d: Document) -> list[ErrorDetail]:
    """Markers that make sense (a count's bound, a toggle without one, markers taken off that
    exist, no clearing without turns), rolls that name a table whose first column is die faces,
    labels given once."""
    errors: list[ErrorDetail] = []
    aids = ref.play_aids
    seen: set[str] = set()
    for i, marker in enumerate(aids.markers):
        path: tuple[str | int, ...] = ("play_aids", "markers", i)
        if not isinstance(marker, Marker):
            marker = Marker(label=marker)
        if marker.label in seen:
            errors.append(d.detail(path, f"the marker '{marker.label}' is declared twice"))
        seen.add(marker.label)
        check_uses((*path, "uses"), marker.uses)
        if marker.kind == "toggle" and marker.maximum is not None:
            errors.append(d.detail((*path, "maximum"), "a toggle is on or off: only a count has a maximum"))
        if isinstance(marker.maximum, int) and marker.maximum < 1:
            errors.append(d.detail((*path, "maximum"), f"a count's maximum is at least 1, found {marker.maximum}"))
        if marker.clears and not aids.turn_track:
            errors.append(d.detail((*path, "clears"), "the play aids keep no turns (turn_track: false) to clear it"))
    markers = [m.label if isinstance(m, Marker) else m for m in aids.markers]
    for i, marker in enumerate(aids.all_markers):
        for gone in marker.takes_off:
            if gone not in markers or gone == marker.label:
                found = "is the marker itself" if gone == marker.label else "is not a marker of this file"
                errors.append(d.detail(("play_aids", "markers", i, "takes_off"), f"'{gone}' {found}"))
    labels = [t.label for t in aids.tracks]
    for i, track in enumerate(aids.tracks):
        if labels.count(track.label) > 1 or track.label in seen:
            errors.append(d.detail(("play_aids", "tracks", i), f"the label '{track.label}' is used twice"))
        if not 0 <= track.start <= track.maximum:
            errors.append(d.detail(("play_aids", "tracks", i, "start"), "the start is between 0 and the maximum"))
        if not track.steps or any(s < 1 for s in track.steps):
            errors.append(d.detail(("play_aids", "tracks", i, "steps"), "steps are whole numbers of at least 1"))
    tables = {t.id: t for t in ref.tables}
    for i, roll in enumerate(aids.rolls):
        if roll.opponent_adds and roll.opponent_adds not in seen:
            errors.append(d.detail(("play_aids", "rolls", i, "opponent_adds"), f"no marker '{roll.opponent_adds}'"))
        if roll.kind != "table":
            continue
        table = tables.get(roll.table)
        if table is None:
            errors.append(d.detail(("play_aids", "rolls", i, "table"), f"no table '{roll.table}' in this file"))
            continue
        covered = [f for row in table.rows for f in (faces(row[0]) or ())] if table.rows else []
        if sorted(covered) != list(range(1, 7)):
            errors.append(
                d.detail(("play_aids", "rolls", i, "table"), f"the first column of '{roll.table}' gives each face once")
            )
    return errors


def derived(column: Column, system: System, unit: Unit) -> str:
    """The roster cell of ``column`` for ``unit``: its template filled from each value's properties."""
    stat = system.definition.stats[column.stat]
    value = unit.stats.get(column.stat)
    mixed = is_mixed(value)
    cells = []
    for name, figures in carriers(value, 0):
        choice = stat.choice(name)
        if choice is not None and column.flags:
            cells += [word for key, word in column.flags.items() if choice.properties.get(key) is True]
        elif choice is not None:
            props = _Blank(
                {"name": choice.name, "summary": choice.summary, **{k: _show(v) for k, v in choice.properties.items()}}
            )
            cell = column.show.format_map(props).strip()
            # A unit armed unevenly says how many of its figures carry each item.
            # (a no-break space keeps '4 figures' together when the cell wraps)
            cells.append(f"{cell} ({figures}\u00a0{system.definition.model.of(figures)})" if mixed else cell)
    if not cells:
        return "–"
    # whole sentences (a trait's name and effect) follow one another; short values take commas
    return (" " if all(c.endswith(".") for c in cells) else ", ").join(cells)


class _Blank(dict[str, str]):
    """Properties for a template; one a choice lacks prints as a dash."""

    def __missing__(self, key: str) -> str:
        return "–"


def _show(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)

"""What goes on the printed page, as plain data: rosters, reference sheets and rules cards.

The templates only lay these out; every decision about content (which tables a list needs,
what a unit's class lets it do, how many tick boxes to print) is made here, where it is tested.
"""

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from listbuilder.army.constraints import Problem
from listbuilder.army.costing import figures_in
from listbuilder.army.phrases import size_advice
from listbuilder.army.report import Report
from listbuilder.printing.markers import MAX_BOXES, PrintedMarker, printed_markers
from listbuilder.record import Record, record
from listbuilder.rules.catalog import System
from listbuilder.rules.forcerules import CardLine
from listbuilder.rules.formats import Entry, Noun, Unit
from listbuilder.rules.reference import (
    REFERENCE_FILE,
    ReferenceFile,
    SpecialRule,
    Table,
    box_labels,
    derived,
    is_used,
    load_reference,
    values_used,
)

# The most characters printed of a name, a title and a note or problem. Shorter text wraps
# in its box; longer text is cut with an ellipsis, so a 10,000-character name stays a title
# and a card stays a card instead of filling pages and pushing the total and stats away.
NAME_CHARS = 80
TITLE_CHARS = 120
NOTE_CHARS = 400


def cut(text: str, limit: int) -> str:
    """``text`` as printed: whole when it has at most ``limit`` characters, else cut with '…'."""
    if len(text) <= limit:
        return text
    kept = text[: limit - 1]
    space = kept.rfind(" ", limit * 3 // 4)  # end on a whole word when one ends near the limit
    return (kept[:space] if space > 0 else kept).rstrip() + "…"


def _printed(problem: Problem, entries: Sequence[Entry]) -> Problem:
    # The entries' names, cut like the name on their cards: the roster numbers no entry, and the
    # list file's line means nothing on paper.
    by_index = {e.index: e for e in entries}
    named = [by_index[i] for i in problem.entries if i in by_index]
    entry = ", ".join(cut(e.unit.name, NAME_CHARS) for e in named) or problem.entry
    return dataclasses.replace(problem, entry=entry, message=cut(problem.message, NOTE_CHARS))


@record
class Cell(Record):
    label: str
    value: str

    @property
    def long(self) -> bool:
        """Long values (a trait's effect) may wrap; short ones stay on one line with their label."""
        return len(self.value) > 24


@record
class RosterEntry(Record):
    """One entry of a printed roster."""

    index: int
    name: str
    count: int
    leader: bool  # every model of the entry is a leader
    custom: bool
    faction: str | None
    stats: tuple[Cell, ...]
    derived: tuple[Cell, ...]
    each: int
    cost: int
    models: int
    boxes: int
    notes: str
    model_boxes: tuple[str, ...] = ()  # the labels of the markers its models or units get
    leaders: int = 0  # how many of its ``count`` models are leaders
    markers: tuple[PrintedMarker, ...] = ()  # each marker's boxes, as printed


@record
class Roster(Record):
    """A list as printed: header, entries, totals, verdict and play aids."""

    name: str
    system_id: str
    system_name: str
    force: str
    unit: str
    measure: Noun
    counts_figures: bool
    leader: Noun
    total: int
    limit: int | None
    models: int
    model_noun: str
    legal: bool
    problems: tuple[Problem, ...]
    entries: tuple[RosterEntry, ...]
    columns: tuple[str, ...]
    derived_columns: tuple[str, ...]
    model_boxes: tuple[str, ...]
    turns: int | None
    tracks: tuple[Any, ...]
    # (when, labels): the markers of the list that clear on their own, by when ("turn", "activation")
    clearing: tuple[tuple[str, tuple[str, ...]], ...]
    # The factions the list's catalog units come from, in order: worked out once, since the
    # template asks for every entry (a property here made a 20,000-entry roster quadratic).
    factions: tuple[str, ...]
    qr: str = ""  # an SVG QR code of the list's text export (render --qr), or nothing
    varies: str = ""  # for a variant: the name of the rule set it varies
    # False for a list that breaks no rule but has no size: its rule set has no standard game
    # and the list gives none (``Report.verdict``); ``size_advice`` says what settles it.
    size_agreed: bool = True
    size_advice: str = ""

    @property
    def mixed_factions(self) -> bool:
        return len(self.factions) > 1


@record
class Block(Record):
    """One item of a two-column sheet: a table, a rule, the turn sequence..."""

    kind: Literal["turn", "table", "rule", "glossary", "force", "rulings", "odds"]
    item: Any
    weight: int


Columns = tuple[tuple[Block, ...], tuple[Block, ...]]


def balance(blocks: Sequence[Block]) -> Columns:
    """Split blocks, in reading order, into two columns of about equal height.

    Done here rather than with CSS columns, which WeasyPrint balances by laying the content
    out again and again (seconds for one rules card).
    """
    total = sum(b.weight for b in blocks)
    best, best_gap, running = len(blocks), total, 0
    for i, b in enumerate(blocks):
        gap = abs(total - 2 * running)
        if gap < best_gap:
            best, best_gap = i, gap
        running += b.weight
    if abs(total - 2 * running) < best_gap:
        best = len(blocks)
    return tuple(blocks[:best]), tuple(blocks[best:])


def _lines(text: str, width: int = 60) -> int:
    return 1 + len(text) // width


def _table_block(table: "Table") -> Block:
    return Block(
        kind="table", item=table, weight=2 + _lines(table.summary, 70) + (len(table.rows) + 1 if table.given else 1)
    )


def _rule_block(rule: "SpecialRule") -> Block:
    return Block(kind="rule", item=rule, weight=1 + _lines(rule.text))


@record
class GlossaryEntry(Record):
    """A value a list's units have (a class, a trait, a weapon) and what it means."""

    key: str
    stat: str
    name: str
    summary: str


@record
class ReferenceSheet(Record):
    """Only the tables and rules the units of a list use, each once."""

    title: str
    system_name: str
    tables: tuple[Table, ...]
    rules: tuple[SpecialRule, ...]
    glossary: tuple[GlossaryEntry, ...]
    columns: Columns
    system_id: str = ""
    matchups: tuple[Any, ...] = ()  # odds matrices against an opponent (render --vs), as plain data
    note: str = ""  # why the sheet is empty, when it is: never a blank page without a word


@record
class Card(Record):
    """The quick-reference rules card of a rule set."""

    system_id: str
    name: str
    summary: str
    source: str
    reference: ReferenceFile
    force_rules: tuple[CardLine, ...]
    rulings: tuple[Any, ...]
    costing: str
    columns: Columns
    varies: str = ""  # for a variant: the name of the rule set it varies


def roster(report: Report, strict: bool = False) -> Roster:
    """The roster of a judged list."""
    system = report.system
    d = system.definition
    ref = load_reference(system)
    entries = []
    for line in report.lines:
        e = line.entry
        models = e.count * figures_in(system, e.unit)
        derived_cells = _derived_cells(ref, system, e.unit)
        entries.append(
            RosterEntry(
                index=e.index,
                name=cut(e.unit.name, NAME_CHARS),
                count=e.count,
                leader=e.leader,
                leaders=e.leaders,
                custom=e.custom,
                faction=cut(e.unit.faction, NAME_CHARS) if e.unit.faction else e.unit.faction,
                stats=_stat_cells(system, e.unit, {c.label for c in derived_cells}),
                derived=derived_cells,
                each=line.unit_cost,
                cost=line.cost,
                models=models,
                boxes=models if models <= MAX_BOXES else 0,
                notes=cut(e.unit.notes, NOTE_CHARS),
                model_boxes=box_labels(ref, system, [e.unit]),
                markers=printed_markers(ref, system, e),
            )
        )
    return Roster(
        name=cut(report.army.name, TITLE_CHARS),
        system_id=d.id,
        system_name=d.name,
        force=d.force,
        unit=report.unit,
        measure=d.measure,
        counts_figures=system.counts_figures,
        leader=d.leader,
        total=report.total,
        limit=report.limit,
        models=sum(x.models for x in entries),
        model_noun=d.model.plural,
        legal=report.legal(strict),
        size_agreed=report.size_agreed,
        size_advice="" if report.size_agreed else size_advice(report),
        problems=tuple(_printed(p, report.army.entries) for p in report.problems),
        entries=tuple(entries),
        columns=tuple(s.label for s in d.stats.values()),
        derived_columns=tuple(c.label for c in ref.columns),
        model_boxes=box_labels(ref, system),
        turns=ref.play_aids.turns,
        tracks=tuple(t for t in ref.play_aids.tracks if t.printed),
        clearing=_clearing(entries),
        factions=tuple(dict.fromkeys(x.faction for x in entries if x.faction and not x.custom)),
        varies=system.base_name,
    )


def _clearing(entries: list[RosterEntry]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The markers the entries print that clear on their own, grouped by when: ('turn', ('Hits',))."""
    found: dict[str, dict[str, None]] = {}
    for entry in entries:
        for m in entry.markers:
            if m.until:
                found.setdefault(m.until, {})[m.label] = None
    return tuple((when, tuple(labels)) for when, labels in found.items())


def _derived_cells(ref: ReferenceFile, system: System, unit: Unit) -> tuple[Cell, ...]:
    # A column that says nothing for this unit (no 4D6 roll, no traits) is left off its card.
    cells = (Cell(label=c.label, value=derived(c, system, unit)) for c in ref.columns)
    return tuple(cell for cell in cells if cell.value not in ("", "–"))


def _stat_cells(system: System, unit: Unit, shown_in_full: set[str]) -> tuple[Cell, ...]:
    # A stat that a derived column shows in full (weapons with range and shots) is printed once.
    return tuple(
        Cell(label=stat.label, value=stat.show(unit.stats.get(key)))
        for key, stat in system.definition.stats.items()
        if stat.label not in shown_in_full
    )


def reference_sheet(reports: Sequence[Report]) -> list[ReferenceSheet]:
    """One reference sheet per rule set among ``reports``, covering every unit in them once."""
    by_system: dict[str, list[Report]] = {}
    for r in reports:
        by_system.setdefault(r.system.id, []).append(r)
    sheets = []
    for group in by_system.values():
        system = group[0].system
        tables, rules, glossary, blocks = used_rules(system, [line.entry.unit for r in group for line in r.lines])
        names = " and ".join(dict.fromkeys(r.army.name for r in group))
        note = ""
        if not system.layer_files(REFERENCE_FILE):
            note = (
                f"{system.definition.name} has no reference tables or special rules to print: its catalog "
                f"folder has no {REFERENCE_FILE}."
            )
        elif not blocks:
            note = f"None of the tables and special rules of {system.definition.name} apply to these units."
        sheets.append(
            ReferenceSheet(
                title=cut(f"Reference: {names}", TITLE_CHARS),
                system_name=system.definition.name,
                tables=tuple(tables),
                rules=rules,
                glossary=glossary,
                columns=balance(blocks),
                system_id=system.id,
                note=note,
            )
        )
    return sheets


def used_rules(
    system: System, units: Sequence[Unit], own: bool = False
) -> tuple[list[Table], tuple[SpecialRule, ...], tuple[GlossaryEntry, ...], list[Block]]:
    """The tables, special rules and glossary a reference sheet prints for ``units``, and its blocks
    in order; ``own``: only those a unit's stats call for, not those every unit of the rule set uses."""
    ref = load_reference(system)
    tables = []
    for table in ref.tables:
        if not table.in_play or not is_used(table.uses, system, units) or (own and table.uses is None):
            continue
        if table.filter_rows and table.uses is not None:
            used = values_used(system, units, table.uses.stat)
            table = dataclasses.replace(table, rows=tuple(r for r in table.rows if r and r[0] in used))
        tables.append(table)
    rules = tuple(r for r in ref.rules if is_used(r.uses, system, units) and not (own and r.uses is None))
    # A stat whose values already have a table row each needs no glossary entry too.
    covered = {t.uses.stat for t in tables if t.filter_rows and t.uses is not None}
    glossary = tuple(g for g in _glossary(system, units) if g.key not in covered)
    blocks = [_table_block(t) for t in tables] + [_rule_block(r) for r in rules]
    if glossary:
        blocks.append(Block(kind="glossary", item=glossary, weight=1 + sum(_lines(g.summary) for g in glossary)))
    return tables, rules, glossary, blocks


def _glossary(system: System, units: Sequence[Unit]) -> tuple[GlossaryEntry, ...]:
    out = []
    for key, stat in system.definition.stats.items():
        if stat.kind == "number":
            continue
        used = values_used(system, units, key)
        out += [
            GlossaryEntry(key=key, stat=stat.label, name=c.name, summary=c.summary)
            for c in stat.choices
            if c.name in used and c.summary
        ]
    return tuple(out)


def card(system: System) -> Card:
    """The rules card of a rule set."""
    d = system.definition
    ref = load_reference(system)
    force_rules = tuple(c.card() for c in d.constraints)
    blocks: list[Block] = []
    if ref.turn.phases:
        weight = 2 + _lines(ref.turn.note) + sum(_lines(p.summary, 55) for p in ref.turn.phases)
        blocks.append(Block(kind="turn", item=ref.turn, weight=weight))
    odds_tables = _card_odds(system)
    # A table the card prints with its odds is not printed a second time without them.
    blocks += [_table_block(t) for t in ref.tables if t.on_card or not odds_tables]
    blocks += [Block(kind="odds", item=t, weight=3 + len(t.rows)) for t in odds_tables]
    blocks += [_rule_block(r) for r in ref.rules]
    costing = _costing(system)
    blocks.append(
        Block(kind="force", item=force_rules, weight=2 + _lines(costing) + sum(_lines(f.rule) for f in force_rules))
    )
    if d.rulings:
        blocks.append(Block(kind="rulings", item=d.rulings, weight=1 + sum(_lines(r.text, 75) for r in d.rulings)))
    return Card(
        system_id=d.id,
        name=d.name,
        summary=d.summary,
        source=d.source,
        reference=ref,
        force_rules=force_rules,
        rulings=d.rulings,
        costing=costing,
        columns=balance(blocks),
        varies=system.base_name,
    )


def _card_odds(system: System) -> list[Any]:
    # The odds package (and its dice library) loads only for cards, never for validate.
    from listbuilder.odds import card_odds, load_odds

    if not system.layer_files("odds.yaml"):
        return []
    load_odds(system)  # a broken odds file is reported like any catalog file
    return card_odds(system)


def _costing(system: System) -> str:
    return system.definition.cost.describe(system.definition)

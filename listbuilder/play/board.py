"""The board of a game: a list's pieces (each model, or each unit where the rule set has units of
figures) and the controls each gets from the rule set's markers.

A piece is named as a player would say it: the unit's name, numbered when the list has more
than one ("Sentry 1", "Sentry 2"), so a control's accessible name reads "Stunned: Sentry 2" and
a game file stays readable by hand. A marker kept per model on a unit of several figures is
counted over the unit's figures ("Immobilised: 1 of 2").

The board of a list of a builder's folder is its file as it is now (``list_board``): every tap
reads the list to see whether it changed (its version), and builds its board again only when it did.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from listbuilder.army.costing import figures_in
from listbuilder.army.listfile import parse_list
from listbuilder.army.phrases import stats_line
from listbuilder.army.report import Report, build_report
from listbuilder.editing.folder import list_path
from listbuilder.editing.history import version_of
from listbuilder.files.reading import read_text
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.memory import Bounded
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.playaids import Marker, PlayAids, Roll, Track
from listbuilder.rules.reference import Table, is_used, load_reference

# The most a count may reach where the text sets no cap: far past any table's worth of tokens,
# and small enough that a number typed into a game file by hand stays a number on a phone.
MAX_COUNT = 999
# Scores have no cap in the texts either (Fate tokens, victory points, points killed).
MAX_SCORE = 99_999


@record
class Control(Record):
    """One marker on one piece: a toggle (0 or 1) or a count from 0 to ``maximum``."""

    marker: str
    kind: str  # "toggle" or "count"
    maximum: int  # 1 for a toggle
    capped: bool  # the text sets the maximum (a count past a declared bound is refused)
    clears: bool  # cleared when a new turn starts
    until: str  # when the text clears it: "turn" (the turn's end), "activation" (the next), or ""
    out: bool  # the piece is out of the game when this is on (or at its maximum)
    text: str
    source: str
    of_figures: bool = False  # a count of the piece's figures that have it (up to its figures)
    takes_off: tuple[str, ...] = ()  # markers that putting it on takes off the piece


@record
class Piece(Record):
    """A model, or a unit of figures, of the list as it is played."""

    key: str  # the name it goes by in the game file: "Sentry 2"
    unit: str
    entry: int  # the index of its entry in the list
    copy: int  # which copy of the entry (from 1)
    figures: int
    cost: int
    leader: bool
    stats: str
    controls: tuple[Control, ...]

    def control(self, marker: str) -> Control | None:
        for c in self.controls:
            if c.marker == marker:
                return c
        return None

    def figures_out(self, marks: Mapping[str, int]) -> int:
        """How many of its figures ``marks`` put out of the game: all of them when a marker that
        puts it out is on (or at its maximum), else as many as a count of its figures says."""
        out = 0
        for c in self.controls:
            value = marks.get(c.marker, 0) if c.out else 0
            if value and value >= c.maximum:
                return self.figures
            if value and c.of_figures:
                out = max(out, value)
        return out


@record
class Board(Record):
    """What a game of one list is played with: its pieces, the rule set's tracks, rolls and turns.

    Its ``size`` is what the game counts out of: where a force is sized in figures, its size in
    them, heavier figures weighing what the rule set's count gives them (a vehicle counting as 3
    figures counts 3 when it is lost); elsewhere its models."""

    file: str
    name: str
    system: str
    system_name: str
    version: str
    revision: int | None
    pieces: tuple[Piece, ...]
    roster: tuple[tuple[str, int], ...]  # (unit, count) of each entry: what a game remembers of the list
    aids: PlayAids
    tables: tuple[Table, ...]  # the reference tables the rolls read
    phases: tuple[tuple[str, str], ...]  # (name, summary) of each phase, for the turn track
    size_unit: str  # what the list's total counts: points, figures
    counts_figures: bool  # the force is sized in figures (its size counts them, weighted)
    size: int  # the force's size as its out-of-the-game count reads it (below)
    report: Any  # the judged list (listbuilder.army.report.Report)

    def piece(self, key: str) -> Piece | None:
        return self._index().get(key)

    def _index(self) -> dict[str, Piece]:
        found: dict[str, Piece] | None = self.__dict__.get("_by_key")
        if found is None:
            found = {p.key: p for p in self.pieces}
            self.__dict__["_by_key"] = found  # a cache of derived data: the record stays as it was built
        return found

    def track(self, label: str) -> Track | None:
        return next((t for t in self.aids.tracks if t.label == label), None)

    def roll(self, roll_id: str) -> Roll | None:
        return next((r for r in self.aids.rolls if r.id == roll_id), None)

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)


def _controls(markers: tuple[Marker, ...], figures: int) -> tuple[Control, ...]:
    out = []
    for m in markers:
        of_figures = False
        if m.kind == "toggle" and (m.per == "unit" or figures == 1):
            maximum, capped, kind = 1, True, "toggle"
        elif (
            m.kind == "toggle" or m.maximum == "figures"
        ):  # a toggle on each figure of a unit: how many figures have it
            maximum, capped, kind, of_figures = figures, True, "count", True
        elif isinstance(m.maximum, int):
            maximum, capped, kind = m.maximum * (figures if m.per == "model" else 1), True, "count"
        else:
            maximum, capped, kind = MAX_COUNT * (figures if m.per == "model" else 1), False, "count"
        out.append(
            Control(
                marker=m.label,
                kind=kind,
                maximum=maximum,
                capped=capped,
                clears=m.clears is not None,
                until=m.clears or "",
                out=m.out,
                text=m.text,
                source=m.source,
                of_figures=of_figures,
                takes_off=m.takes_off,
            )
        )
    return tuple(out)


def board_of(report: Report, file: str, version: str) -> Board:
    """The board of a judged list read from ``file`` (at ``version``)."""
    system = report.system
    ref = load_reference(system)
    aids = ref.play_aids
    markers = aids.all_markers
    copies = Counter(line.entry.unit.name for line in report.lines for _ in range(line.entry.count))
    numbered: Counter[str] = Counter()
    pieces = []
    for line in report.lines:
        e = line.entry
        figures = figures_in(system, e.unit)
        controls = _controls(tuple(m for m in markers if is_used(m.uses, system, [e.unit])), figures)
        stats = stats_line(system, e.unit)
        leaders = _leaders(e)
        for n in range(1, e.count + 1):
            numbered[e.unit.name] += 1
            key = e.unit.name if copies[e.unit.name] == 1 else f"{e.unit.name} {numbered[e.unit.name]}"
            pieces.append(
                Piece(
                    key=key,
                    unit=e.unit.name,
                    entry=e.index,
                    copy=n,
                    figures=figures,
                    cost=line.unit_cost,
                    leader=n <= leaders,
                    stats=stats,
                    controls=controls,
                )
            )
    wanted = {r.table for r in aids.rolls if r.table}
    return Board(
        file=file,
        name=report.army.name,
        system=system.id,
        system_name=system.definition.name,
        version=version,
        revision=report.army.revision,
        pieces=tuple(pieces),
        roster=tuple((line.entry.unit.name, line.entry.count) for line in report.lines),
        aids=aids,
        tables=tuple(t for t in ref.tables if t.id in wanted),
        phases=tuple((p.name, p.summary) for p in ref.turn.phases),
        size_unit=report.unit,
        counts_figures=system.counts_figures,
        size=sum(p.cost for p in pieces) if system.counts_figures else len(pieces),
        report=report,
    )


def _leaders(entry: Any) -> int:
    """How many copies of an entry lead: ``leaders: N`` where the list format has it, else all or none."""
    leaders = getattr(entry, "leaders", None)
    if isinstance(leaders, int) and not isinstance(leaders, bool):
        return max(0, min(leaders, int(entry.count)))
    return int(entry.count) if entry.leader else 0


def roster_changes(before: tuple[tuple[str, int], ...], after: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """What changed between two rosters of (unit, count), in words: 'Sentry: 2 → 3', 'added Beast'."""
    old: Counter[str] = Counter()
    new: Counter[str] = Counter()
    for name, count in before:
        old[name] += count
    for name, count in after:
        new[name] += count
    said = []
    for name in dict.fromkeys([*old, *new]):
        if name not in new:
            said.append(f"{name} is gone (was {old[name]})")
        elif name not in old:
            said.append(f"added {new[name]} × {name}" if new[name] > 1 else f"added {name}")
        elif old[name] != new[name]:
            said.append(f"{name}: {old[name]} → {new[name]}")
    return tuple(said)


MAX_HELD = 64  # boards kept, the least recently used dropped first

# Boards by list file, version and catalogs (by identity: the catalogs are held beside the board,
# so a key's number is never another's). A board is immutable.
_BOARDS: Bounded[tuple[str, str, int], tuple[Catalogs, Board]] = Bounded(MAX_HELD)


def list_board(folder: Path, name: str, catalogs: Catalogs) -> Board:
    """The board of the list ``name`` of ``folder``: its pieces and their markers, as it is now."""
    path = list_path(folder, name)
    text = read_text(path, "list file")
    version = version_of(text)
    key = (str(path), version, id(catalogs))
    held = _BOARDS.get(key)
    if held is not None and held[0] is catalogs:
        return held[1]
    army, system = parse_list(parse_yaml(text, path), catalogs)
    board = board_of(build_report(army, system), path.name, version)
    _BOARDS.put(key, (catalogs, board))
    return board

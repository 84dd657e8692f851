"""A list of a builder's folder as the builder shows it: its state (its version, each entry
worded with what it breaks, the undo and redo depth) and its line on the lists page."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from listbuilder.army.constraints import Problem
from listbuilder.army.listfile import parse_list
from listbuilder.army.phrases import headline, stats_line, total_text
from listbuilder.army.report import Report, build_report
from listbuilder.editing.folder import deleted, deleted_dir, deleted_text, list_names, list_path
from listbuilder.editing.history import History, version_of
from listbuilder.errors import InputError, ListbuilderError, shown
from listbuilder.files.reading import read_text
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.memory import Bounded
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs


@record
class EntryRow(Record):
    """One entry of a list as a builder shows it: what it is, what it costs, what it breaks."""

    index: int
    name: str
    count: int
    leader: bool  # every model of the entry is a leader
    custom: bool
    stats: str
    each: int
    cost: int
    problems: tuple[Problem, ...]
    leaders: int = 0  # how many of its ``count`` models are leaders

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "unit": self.name,
            "count": self.count,
            "leader": self.leader,
            "leaders": self.leaders,
            "custom": self.custom,
            "stats": self.stats,
            "each": self.each,
            "cost": self.cost,
            "problems": [p.as_json() for p in self.problems],
        }


@record
class ListState(Record):
    """One list of a folder: its file, version, report, verdict in words, entries and undo depth."""

    file: str
    version: str
    text: str
    report: Report
    headline: str
    total_text: str
    rows: tuple[EntryRow, ...]
    undo: int  # the undo steps that can be taken now (none once the file changed elsewhere)
    redo: int
    undo_kept: int = 0  # the undo steps kept: more than ``undo`` when the file changed elsewhere

    def as_json(self) -> dict[str, Any]:
        return {
            **self.report.as_json(),
            "file": self.file,
            "version": self.version,
            "headline": self.headline,
            "entries": [r.as_json() for r in self.rows],
            "undo": self.undo,
            "redo": self.redo,
            "undo_kept": self.undo_kept,
        }


@record
class ListSummary(Record):
    """A list file of a folder, for the lists page: its verdict, or the error that stops it loading."""

    file: str
    version: str
    system: str | None = None
    name: str | None = None
    total_text: str = ""
    legal: bool | None = None
    headline: str = ""
    error: str | None = None
    verdict: str | None = None  # ``Report.verdict``: legal, not legal, or no size agreed

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "version": self.version,
            "system": self.system,
            "name": self.name,
            "total": self.total_text,
            "legal": self.legal,
            "verdict": self.verdict,
            "headline": self.headline,
            "error": self.error,
        }


def _problems_by_entry(problems: Sequence[Problem]) -> dict[int, list[Problem]]:
    by_entry: dict[int, list[Problem]] = {}
    for p in problems:
        for index in p.entries:
            by_entry.setdefault(index, []).append(p)
    return by_entry


def state_of(name: str, path: Path, text: str, report: Report) -> ListState:
    """The state of a list whose ``text`` was just read or written and judged (``report``)."""
    system = report.system
    by_entry = _problems_by_entry(report.problems)
    worded: dict[int, str] = {}  # a long list repeats its units: each worded once (by identity: the report holds them)

    def stats(unit: Any) -> str:
        found = worded.get(id(unit))
        if found is None:
            found = worded[id(unit)] = stats_line(system, unit)
        return found

    rows = tuple(
        EntryRow(
            index=ln.entry.index,
            name=ln.entry.unit.name,
            count=ln.entry.count,
            leader=ln.entry.leader,
            leaders=ln.entry.leaders,
            custom=ln.entry.custom,
            stats=stats(ln.entry.unit),
            each=ln.unit_cost,
            cost=ln.cost,
            problems=tuple(by_entry.get(ln.entry.index, ())),
        )
        for ln in report.lines
    )
    text = text.removeprefix("\ufeff")
    history = History(path)
    undo, redo = history.depth(version_of(text))
    kept, _ = history.depth()
    return ListState(
        file=name,
        version=version_of(text),
        text=text,
        report=report,
        headline=headline(report),
        total_text=total_text(report),
        rows=rows,
        undo=undo,
        redo=redo,
        undo_kept=kept,
    )


def read_state(name: str, path: Path, catalogs: Catalogs) -> ListState:
    """Read, cost and judge the list file at ``path`` (named ``name`` in its folder)."""
    text = read_text(path, "list file")
    army, system = parse_list(parse_yaml(text, path), catalogs)
    return state_of(name, path, text, build_report(army, system))


def folder_summaries(folder: Path, catalogs: Catalogs) -> tuple[ListSummary, ...]:
    """Every list file of ``folder``, each with its verdict, or the located error that stops it.

    Each list's summary is kept with the text it was made from, one map a folder (and the
    catalogs that judged it) replaced whole by each listing, so it holds that folder's lists and
    no more: the lists page shows every list of a folder, and only a list whose file has changed
    is read and judged again."""
    key = (id(catalogs), str(folder))
    found = _FOLDERS.get(key)
    before = found[1] if found is not None and found[0] is catalogs else {}
    now: dict[str, tuple[bytes, ListSummary]] = {}
    for name in list_names(folder):
        now[name] = _summary(name, list_path(folder, name), catalogs, before.get(name))
    _FOLDERS.put(key, (catalogs, now))
    return tuple(summary for _, summary in now.values())


FOLDERS_KEPT = 16  # folders whose lists' summaries are kept (a server has one; tests make many)
_FOLDERS: Bounded[tuple[int, str], tuple[Catalogs, dict[str, tuple[bytes, ListSummary]]]] = Bounded(FOLDERS_KEPT)


def _summary(
    name: str, path: Path, catalogs: Catalogs, kept: tuple[bytes, ListSummary] | None
) -> tuple[bytes, ListSummary]:
    """A list for the lists page (its verdict, or the error that stops it loading) and the hash of
    the text it was made from; ``kept`` is the one made last time, used again if the text is the same."""
    try:
        text = read_text(path, "list file")
    except ListbuilderError as exc:
        return b"", ListSummary(file=name, version="", error=_error_text(exc, path, name))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    if kept is not None and kept[0] == digest:
        return kept
    try:
        army, system = parse_list(parse_yaml(text, path), catalogs)
        report = build_report(army, system)
    except ListbuilderError as exc:
        return digest, ListSummary(file=name, version="", error=_error_text(exc, path, name))
    return digest, ListSummary(
        file=name,
        version=version_of(text),
        system=report.system.id,
        name=report.army.name,
        total_text=total_text(report),
        legal=report.legal(),
        headline=headline(report),
        verdict=report.verdict(),
    )


def _error_text(exc: ListbuilderError, path: Path, name: str) -> str:
    """Why a list cannot be read, for its line on the lists page: the file named as the folder names
    it, never by the path it has on the machine that serves it (the line already names the file)."""
    text = exc.render()
    place = shown(path)
    return text.removeprefix(place + ": ").replace(place, name)


def deleted_summaries(folder: Path, named: int = 20) -> tuple[tuple[str, str, str, str], ...]:
    """The deleted lists of ``folder``, newest first: (id, file name, when, the list's own name),
    the name read from the first ``named`` of them (past those, and for a file whose name cannot
    be read, the file name stands for it)."""
    found = deleted(folder)
    try:
        where = deleted_dir(folder) if found else None
    except InputError:  # a folder of deleted lists that may not be read lists none (``deleted``)
        return ()
    return tuple(
        (id, file, when, _own_name(where / id, file) if where is not None and i < named else file)
        for i, (id, file, when) in enumerate(found)
    )


def _own_name(path: Path, file: str) -> str:
    """The ``name:`` a list file gives itself, or ``file`` if it gives none that can be read."""
    try:
        data = parse_yaml(deleted_text(path), path).data  # never through a link
    except ListbuilderError:
        return file
    name = data.get("name") if isinstance(data, dict) else None
    return " ".join(name.split()) if isinstance(name, str) and name.strip() else file

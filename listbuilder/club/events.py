"""Events: a club's league night or tournament, to which players submit their lists.

An event names a rule set and a size, a deadline and a reveal. A submission is a snapshot: the
list file's bytes as they were, written to ``FOLDER/events/<event>/<member>/NNN.yaml``, and a row
in the club's database with when, whether late, the verdict at the event's size with each
problem, the rule set's revision and a fingerprint of its files, and what changed since the
member's previous submission. The snapshot is judged once, when it is made, under the rule set
of that moment; nothing the member or the rule set does later changes it.

Who sees what (``can_see``): an organiser every submission, at any time; a member their own;
everyone every submission once the reveal has passed. Before the reveal nothing here tells a
player whether another has submitted, or what.

Times are seconds since the epoch; an event shows them in its time zone (``shown``). ``now`` is
always the caller's: a server passes its clock, tests a clock they move.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import re
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import Report, build_report
from listbuilder.club.layout import plain_name, slug
from listbuilder.club.store import Member, Store
from listbuilder.editing.folder import list_path
from listbuilder.errors import Action, InputError
from listbuilder.files.reading import read_text
from listbuilder.files.writing import atomic_write
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.share.diff import diff_reports
from listbuilder.words import did_you_mean

EVENTS = "events"  # the folder of the events' snapshots, in the club folder
MAX_NAME = 80  # characters of an event's name
MAX_SIZE = 100_000  # an event's points or figures
Clock = Callable[[], float]

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  system TEXT NOT NULL,
  size INTEGER NOT NULL,
  unit TEXT NOT NULL,
  deadline REAL NOT NULL,
  reveal REAL NOT NULL,
  zone TEXT NOT NULL,
  created REAL NOT NULL,
  by INTEGER REFERENCES members(id)
);
CREATE TABLE IF NOT EXISTS submissions (
  id INTEGER PRIMARY KEY,
  event TEXT NOT NULL REFERENCES events(id),
  member INTEGER NOT NULL REFERENCES members(id),
  number INTEGER NOT NULL,
  file TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  at REAL NOT NULL,
  late INTEGER NOT NULL,
  name TEXT NOT NULL,
  total INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  problems TEXT NOT NULL,
  revision INTEGER,
  fingerprint TEXT NOT NULL,
  changes TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS submissions_of ON submissions(event, member);
CREATE TABLE IF NOT EXISTS late (
  event TEXT NOT NULL REFERENCES events(id),
  member INTEGER NOT NULL REFERENCES members(id),
  at REAL NOT NULL,
  by INTEGER REFERENCES members(id),
  PRIMARY KEY (event, member)
);
"""

LEGAL = "legal"


class Closed(InputError):
    """A submission after the event's deadline, with no late list accepted (exit code 2)."""


@record
class Event(Record):
    """An event of the club: its rule set and size, and when it closes and reveals."""

    id: str
    name: str
    system: str
    size: int
    unit: str  # what the size counts: points, figures
    deadline: float
    reveal: float
    zone: str
    created: float

    def closed(self, now: float) -> bool:
        return now >= self.deadline

    def revealed(self, now: float) -> bool:
        return now >= self.reveal

    def shown(self, when: float) -> str:
        """A time as this event shows it: in its time zone, e.g. 'Sun 20 Dec 2026, 18:00 GMT'."""
        return shown(when, self.zone)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "system": self.system,
            "size": self.size,
            "unit": self.unit,
            "deadline": iso(self.deadline, self.zone),
            "reveal": iso(self.reveal, self.zone),
            "time_zone": self.zone,
        }


@record
class Submission(Record):
    """One snapshot of a member's list, submitted to an event."""

    id: int
    event: str
    member: Member
    number: int  # the member's first submission to the event is 1
    file: str  # the list's file in the member's folder, when it was submitted
    snapshot: str  # the snapshot's path, relative to the club folder
    at: float
    late: bool
    name: str
    total: int
    verdict: str  # legal, not legal, no size agreed
    problems: tuple[str, ...]
    revision: int | None
    fingerprint: str
    changes: tuple[str, ...]  # what changed since the member's previous submission, in game terms

    @property
    def legal(self) -> bool:
        return self.verdict == LEGAL


@record
class Standing(Record):
    """A member's place in an event, as the organiser sees it: their latest submission (if any)
    and how many they made."""

    member: Member
    latest: Submission | None
    count: int

    @property
    def resubmitted(self) -> int:
        return max(0, self.count - 1)


# --- times -------------------------------------------------------------------------------------


def zone_named(name: str) -> str:
    """A time zone's name, checked (``Europe/London``, ``UTC``)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError.detailed(
            f"no time zone '{name[:60]}'",
            "give one by its name in the time zone database, e.g. Europe/London or America/New_York",
            hint=did_you_mean(name, sorted(available_timezones())),
        ) from None
    return name


def parse_time(text: str, zone: str, what: str = "the time") -> float:
    """An ISO 8601 time (``2026-12-20T18:00``, ``2026-12-20T18:00+00:00``, ``...Z``); one without
    an offset is in ``zone``."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InputError.detailed(
            f"{what} '{text[:60]}' is not a time",
            "give it as 2026-12-20T18:00 (in the event's time zone) or 2026-12-20T18:00+00:00",
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo(zone))
    return when.timestamp()


def shown(when: float, zone: str) -> str:
    at = datetime.fromtimestamp(when, ZoneInfo(zone))
    return f"{at:%a} {at.day} {at:%b %Y, %H:%M} {at.tzname()}"


def iso(when: float, zone: str) -> str:
    return datetime.fromtimestamp(when, ZoneInfo(zone)).isoformat(timespec="seconds")


# --- the store ---------------------------------------------------------------------------------


def tables(store: Store) -> Store:
    """``store`` with the events' tables in it (made on first use)."""
    with store.write() as db:
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
    return store


def _event(row: Sequence[Any]) -> Event:
    return Event(
        id=row[0],
        name=row[1],
        system=row[2],
        size=int(row[3]),
        unit=row[4],
        deadline=float(row[5]),
        reveal=float(row[6]),
        zone=row[7],
        created=float(row[8]),
    )


EVENT_COLUMNS = "id, name, system, size, unit, deadline, reveal, zone, created"


def events(store: Store) -> list[Event]:
    """The club's events, the next deadline first."""
    return [_event(r) for r in store.read(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY deadline DESC, id")]


def event(store: Store, event_id: str) -> Event:
    """The event ``event_id``; ``InputError`` (a 404 on the web) if the club has none."""
    rows = store.read(f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?", event_id)
    if not rows:
        known = [e.id for e in events(store)]
        raise InputError.detailed(
            f"no such event: {event_id[:80]}",
            "the club's events: " + ", ".join(known) if known else "the club has no event yet",
            hint=did_you_mean(event_id, known),
        )
    return _event(rows[0])


def event_name(name: str) -> str:
    return plain_name(name, MAX_NAME, "an event's name")


def new_event(
    store: Store,
    catalogs: Catalogs,
    by: Member | None,
    *,
    name: str,
    system: str,
    size: int,
    unit: str,
    deadline: float,
    reveal: float | None,
    zone: str,
    now: float,
) -> Event:
    """A new event of ``system`` at ``size`` ``unit`` (points or figures, as the rule set counts)."""
    rules = catalogs.get(system)
    counts = rules.size_unit
    if unit != counts:
        raise InputError.detailed(
            f"{rules.definition.name.strip()} counts a force in {counts}, not {unit}",
            f"give the event's size in {counts}",
            action=Action(kind="size", system=system, example=(("unit", counts),)),
        )
    _size(size, counts)
    reveal = deadline if reveal is None else reveal
    _order(deadline, reveal)
    plain = event_name(name)
    with store.write() as db:
        made = Event(
            id=slug(plain, "event", lambda found: bool(store.read("SELECT 1 FROM events WHERE id = ?", found))),
            name=plain,
            system=system,
            size=size,
            unit=counts,
            deadline=deadline,
            reveal=reveal,
            zone=zone_named(zone),
            created=now,
        )
        db.execute(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (made.id, made.name, made.system, made.size, made.unit, deadline, reveal, made.zone, now, _id(by)),
        )
    store.note(by, f"made the event {made.name} ({made.id})")
    return made


def _size(size: int, unit: str) -> None:
    if not 1 <= size <= MAX_SIZE:
        raise InputError.detailed(f"an event of {size:,} {unit}", f"an event's size is 1 to {MAX_SIZE:,} {unit}")


def _order(deadline: float, reveal: float) -> None:
    if reveal < deadline:
        raise InputError.detailed(
            "the reveal is before the deadline",
            "lists are revealed when every player has had until the deadline: give a reveal at or after it",
        )


def _id(member: Member | None) -> int | None:
    return None if member is None else member.id


def move(store: Store, chosen: Event, by: Member | None, *, deadline: float | None, reveal: float | None) -> Event:
    """``chosen`` with a new deadline and/or reveal (the reveal never before the deadline)."""
    new = dataclasses.replace(
        chosen,
        deadline=chosen.deadline if deadline is None else deadline,
        reveal=chosen.reveal if reveal is None else reveal,
    )
    _order(new.deadline, new.reveal)
    with store.write() as db:
        db.execute("UPDATE events SET deadline = ?, reveal = ? WHERE id = ?", (new.deadline, new.reveal, new.id))
    store.note(by, f"moved {new.name}: deadline {new.shown(new.deadline)}, reveal {new.shown(new.reveal)}")
    return new


def accept_late(store: Store, chosen: Event, member: Member, by: Member | None, now: float) -> None:
    """Let ``member`` submit to ``chosen`` after its deadline (each such submission is marked late)."""
    with store.write() as db:
        db.execute("INSERT OR REPLACE INTO late VALUES (?, ?, ?, ?)", (chosen.id, member.id, now, _id(by)))
    store.note(by, f"accepted a late list from {member.name} for {chosen.name}")


def late_allowed(store: Store, chosen: Event, member: Member) -> bool:
    return bool(store.read("SELECT 1 FROM late WHERE event = ? AND member = ?", chosen.id, member.id))


# --- submitting --------------------------------------------------------------------------------


def fingerprint(catalogs: Catalogs, system: str) -> str:
    """A digest of the rule set's files (each one's name and bytes): what it was judged under."""
    digest = hashlib.sha256()
    for path in sorted(catalogs.source_files(system), key=str):
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def judged(text: str, catalogs: Catalogs, chosen: Event, source: Path) -> Report:
    """A list's text judged at the event's size (whatever size the list gives itself)."""
    army, system = parse_list(parse_yaml(text.removeprefix("\ufeff"), source), catalogs)
    if system.id != chosen.system:
        raise InputError.detailed(
            f"this is a {system.id} list, and {chosen.name} is played with {chosen.system}",
            f"submit a {chosen.system} list",
            file=source,
        )
    return build_report(dataclasses.replace(army, limit=chosen.size), system, catalogs)


def submit(
    club: Path,
    store: Store,
    catalogs: Catalogs,
    chosen: Event,
    member: Member,
    folder: Path,
    file: str,
    now: float,
) -> Submission:
    """Submit ``member``'s list ``file`` (read here, from their ``folder``) to ``chosen``: judged,
    and kept as a snapshot. After the deadline only with a late list accepted (``Closed``)."""
    late = chosen.closed(now)
    if late and not late_allowed(store, chosen, member):
        raise Closed.detailed(
            f"{chosen.name} closed at {chosen.shown(chosen.deadline)}: no more lists are taken",
            "ask the event's organiser to accept a late list",
        )
    path = list_path(folder, file)
    text = read_text(path, "list file")
    report = judged(text, catalogs, chosen, path)
    print_ = fingerprint(catalogs, chosen.system)
    problems = tuple(_problem(p) for p in report.problems if p.severity == "error")
    with store.write() as db:  # one submission at a time, across processes: each its own number
        number = 1 + int(
            db.execute(
                "SELECT COUNT(*) FROM submissions WHERE event = ? AND member = ?", (chosen.id, member.id)
            ).fetchone()[0]
        )
        previous = db.execute(
            "SELECT snapshot FROM submissions WHERE event = ? AND member = ? ORDER BY number DESC LIMIT 1",
            (chosen.id, member.id),
        ).fetchone()
        changes = _changes(club, previous[0] if previous else None, report, catalogs, chosen)
        snapshot = f"{EVENTS}/{chosen.id}/{member.folder}/{number:03d}.yaml"
        target = club / snapshot
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, text.encode("utf-8"))
        cursor = db.execute(
            "INSERT INTO submissions (event, member, number, file, snapshot, at, late, name, total, verdict,"
            " problems, revision, fingerprint, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                chosen.id,
                member.id,
                number,
                file,
                snapshot,
                now,
                int(late),
                report.army.name,
                report.total,
                str(report.verdict()),
                json.dumps(problems),
                report.system.definition.revision,
                print_,
                json.dumps(changes),
            ),
        )
        row_id = int(cursor.lastrowid or 0)
    store.note(member, f"submitted {report.army.name} to {chosen.name}" + (" (late)" if late else ""))
    return Submission(
        id=row_id,
        event=chosen.id,
        member=member,
        number=number,
        file=file,
        snapshot=snapshot,
        at=now,
        late=late,
        name=report.army.name,
        total=report.total,
        verdict=str(report.verdict()),
        problems=problems,
        revision=report.system.definition.revision,
        fingerprint=print_,
        changes=changes,
    )


def _problem(p: Any) -> str:
    where = re.sub(r"units\[\d+\] ", "", p.entry or "")
    return f"{where}: {p.message}" if where else str(p.message)


def _changes(club: Path, previous: str | None, report: Report, catalogs: Catalogs, chosen: Event) -> tuple[str, ...]:
    """What changed since the snapshot ``previous`` (none: a first submission)."""
    if previous is None:
        return ()
    path = club / previous
    try:
        before = judged(read_text(path, "snapshot"), catalogs, chosen, path)
    except InputError:
        return ("the previous submission can no longer be read",)
    diff = diff_reports(before, report)
    if diff.unchanged:
        return ("no change",)
    return tuple(line for line in diff.text().splitlines() if line.strip())


def snapshot_text(club: Path, submission: Submission) -> str:
    """The list as it was submitted."""
    return read_text(club / submission.snapshot, "snapshot")


# --- seeing ------------------------------------------------------------------------------------


def can_see(chosen: Event, viewer: Member, owner: Member, now: float) -> bool:
    """Whether ``viewer`` may see ``owner``'s submissions to ``chosen`` now: their own always, an
    organiser's always, everyone's once the reveal has passed. A revoked member sees nothing."""
    if viewer.revoked is not None:
        return False
    return viewer.id == owner.id or viewer.role == "organiser" or chosen.revealed(now)


def _submission(row: Sequence[Any], members: dict[int, Member]) -> Submission:
    return Submission(
        id=int(row[0]),
        event=row[1],
        member=members[int(row[2])],
        number=int(row[3]),
        file=row[4],
        snapshot=row[5],
        at=float(row[6]),
        late=bool(row[7]),
        name=row[8],
        total=int(row[9]),
        verdict=row[10],
        problems=tuple(json.loads(row[11])),
        revision=None if row[12] is None else int(row[12]),
        fingerprint=row[13],
        changes=tuple(json.loads(row[14])),
    )


SUBMISSION_COLUMNS = (
    "id, event, member, number, file, snapshot, at, late, name, total, verdict, problems, revision, fingerprint,"
    " changes"
)


def submissions(store: Store, chosen: Event, member: Member | None = None) -> list[Submission]:
    """Every submission to ``chosen`` (of ``member``, if given), oldest first."""
    members = {m.id: m for m in store.members()}
    sql = f"SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE event = ?"
    args: list[object] = [chosen.id]
    if member is not None:
        sql += " AND member = ?"
        args.append(member.id)
    return [_submission(r, members) for r in store.read(sql + " ORDER BY at, id", *args) if int(r[2]) in members]


def standings(store: Store, chosen: Event) -> list[Standing]:
    """Every member who plays (players and organisers), and whoever submitted, with their latest
    submission: the organiser's view of an event."""
    latest: dict[int, Submission] = {}
    count: dict[int, int] = {}
    for s in submissions(store, chosen):
        latest[s.member.id] = s
        count[s.member.id] = count.get(s.member.id, 0) + 1
    return [
        Standing(member=m, latest=latest.get(m.id), count=count.get(m.id, 0))
        for m in store.members()
        if m.id in latest or (m.role != "viewer" and m.revoked is None)
    ]


def visible(store: Store, chosen: Event, viewer: Member, now: float) -> list[Standing]:
    """What ``viewer`` may see of ``chosen``: every standing (an organiser, or after the reveal),
    else their own alone."""
    found = standings(store, chosen)
    if viewer.revoked is not None:
        return []
    if viewer.role == "organiser" or chosen.revealed(now):
        return [s for s in found if s.latest is not None or viewer.role == "organiser"]
    return [s for s in found if s.member.id == viewer.id]


# --- exports -----------------------------------------------------------------------------------

FIELDS = ("player", "list", "total", "unit", "legal", "verdict", "problems", "submitted_at", "late", "resubmitted")


def rows(chosen: Event, found: Sequence[Standing]) -> list[dict[str, Any]]:
    """One row a submitted list: what pairing tools read."""
    out = []
    for s in found:
        if s.latest is None:
            continue
        out.append(
            {
                "player": s.member.name,
                "list": s.latest.name,
                "total": s.latest.total,
                "unit": chosen.unit,
                "legal": s.latest.legal,
                "verdict": s.latest.verdict,
                "problems": list(s.latest.problems),
                "submitted_at": iso(s.latest.at, chosen.zone),
                "late": s.latest.late,
                "resubmitted": s.resubmitted,
            }
        )
    return out


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> str:
    """A CSV cell that a spreadsheet shows as text: one starting like a formula gets a ``'``."""
    text = (
        "; ".join(value)
        if isinstance(value, list)
        else ("yes" if value is True else "no" if value is False else str(value))
    )
    return "'" + text if text.startswith(_FORMULA) else text


def csv_text(chosen: Event, found: Sequence[Standing], newline: str = "\r\n") -> str:
    """The rows as CSV (each line ended with ``newline``: RFC 4180's CRLF in a file)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=newline)
    writer.writerow(FIELDS)
    for row in rows(chosen, found):
        writer.writerow([cell(row[f]) for f in FIELDS])
    return out.getvalue()


def json_text(chosen: Event, found: Sequence[Standing]) -> str:
    return json.dumps({"event": chosen.as_json(), "submissions": rows(chosen, found)}, ensure_ascii=False, indent=2)


def now() -> float:
    """The time now (a default for the command line, which has no clock of its own to pass)."""
    return time.time()

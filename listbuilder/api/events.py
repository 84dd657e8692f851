"""A club's events: make one, move its deadline and reveal, accept a late list, submit a list,
see an event as a member may, export it for pairing tools and print its pack.

Every function takes the club folder; ``viewer`` is the member asking (``None``: the command line,
run by whoever keeps the club's folder, who may see everything) and ``now`` the time it is asked
(a server passes its clock; tests pass one they move). What a member may see of an event before
its reveal is decided once, in ``listbuilder.club.events.can_see``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from listbuilder.club import events as ev
from listbuilder.club.events import Closed, Event, Standing, Submission
from listbuilder.club.layout import member_folder
from listbuilder.club.store import Member, Store, open_store
from listbuilder.errors import InputError
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

__all__ = [
    "Closed",
    "Event",
    "EventView",
    "NotFound",
    "Standing",
    "Submission",
    "accept_late",
    "club_events",
    "event_view",
    "export_event",
    "make_event",
    "move_event",
    "pack_document",
    "pack_file",
    "submission_of",
    "submission_report",
    "submit_list",
]

EXPORTS = ("csv", "json")
UTC = "UTC"


class NotFound(InputError):
    """An event, or a submission, that the asker may not see: the same answer as one that does
    not exist (a 404 on the web)."""


def _store(folder: Path) -> Store:
    return ev.tables(open_store(folder))


def club_zone(folder: Path) -> str:
    """The club's time zone (UTC until an event names one)."""
    return open_store(folder).setting("timezone", UTC)


def make_event(
    folder: Path,
    catalogs: Catalogs,
    *,
    name: str,
    system: str,
    size: int,
    unit: str,
    deadline: str,
    reveal: str | None = None,
    zone: str | None = None,
    by: Member | None = None,
    now: float | None = None,
) -> Event:
    """A new event of the club: ``deadline`` and ``reveal`` are ISO 8601 times, in ``zone`` (the
    club's time zone, which ``zone`` sets when given) where they give no offset."""
    store = _store(folder)
    zone = ev.zone_named(zone) if zone else store.setting("timezone", UTC)
    when = ev.parse_time(deadline, zone, "the deadline")
    shown = None if reveal is None else ev.parse_time(reveal, zone, "the reveal")
    made = ev.new_event(
        store,
        catalogs,
        by,
        name=name,
        system=system,
        size=size,
        unit=unit,
        deadline=when,
        reveal=shown,
        zone=zone,
        now=ev.now() if now is None else now,
    )
    if store.setting("timezone", "") == "":
        store.set_setting("timezone", zone)
    return made


def club_events(folder: Path) -> list[Event]:
    return ev.events(_store(folder))


def move_event(
    folder: Path, event_id: str, *, deadline: str | None = None, reveal: str | None = None, by: Member | None = None
) -> Event:
    """Move an event's deadline and/or reveal (ISO 8601 times, in the event's time zone)."""
    if deadline is None and reveal is None:
        raise InputError.detailed("nothing to change", "give a new deadline, a new reveal, or both")
    store = _store(folder)
    chosen = ev.event(store, event_id)
    return ev.move(
        store,
        chosen,
        by,
        deadline=None if deadline is None else ev.parse_time(deadline, chosen.zone, "the deadline"),
        reveal=None if reveal is None else ev.parse_time(reveal, chosen.zone, "the reveal"),
    )


def _member(store: Store, name: str) -> Member:
    found = store.member(name)
    if found is None:
        raise InputError.detailed(
            f"the club has no member named '{name[:60]}'",
            "the members are: " + (", ".join(m.name for m in store.members()) or "none"),
        )
    return found


def accept_late(
    folder: Path, event_id: str, member: str, *, by: Member | None = None, now: float | None = None
) -> Event:
    """Let the member named ``member`` submit to the event after its deadline (marked late)."""
    store = _store(folder)
    chosen = ev.event(store, event_id)
    ev.accept_late(store, chosen, _member(store, member), by, ev.now() if now is None else now)
    return chosen


def submit_list(
    folder: Path, catalogs: Catalogs, event_id: str, member: Member, file: str, *, now: float | None = None
) -> Submission:
    """Submit the list ``file`` of ``member``'s own folder to the event: the server reads it from
    there itself, judges it at the event's size and keeps a snapshot."""
    store = _store(folder)
    chosen = ev.event(store, event_id)
    if member.revoked is not None or member.role == "viewer":
        raise InputError.detailed(f"{member.name} cannot submit lists", "a viewer reads lists, and submits none")
    return ev.submit(
        folder, store, catalogs, chosen, member, member_folder(folder, member), file, ev.now() if now is None else now
    )


@record
class EventView(Record):
    """An event as one member (or the command line) may see it now."""

    event: Event
    standings: tuple[Standing, ...]  # every member's, or only the viewer's before the reveal
    mine: tuple[Submission, ...]  # the viewer's own submissions, oldest first
    closed: bool
    revealed: bool
    late_allowed: bool  # the viewer may submit after the deadline
    organiser: bool  # the viewer sees everything
    deadline: str  # the times in the event's time zone
    reveal: str

    def as_json(self) -> dict[str, Any]:
        return {
            "event": self.event.as_json(),
            "closed": self.closed,
            "revealed": self.revealed,
            "submissions": ev.rows(self.event, self.standings),
            "missing": [s.member.name for s in self.standings if s.latest is None],
        }


def event_view(folder: Path, event_id: str, viewer: Member | None, *, now: float | None = None) -> EventView:
    store = _store(folder)
    chosen = ev.event(store, event_id)
    at = ev.now() if now is None else now
    organiser = viewer is None or viewer.role == "organiser"
    standings = ev.standings(store, chosen) if viewer is None else ev.visible(store, chosen, viewer, at)
    return EventView(
        event=chosen,
        standings=tuple(standings),
        mine=() if viewer is None else tuple(ev.submissions(store, chosen, viewer)),
        closed=chosen.closed(at),
        revealed=chosen.revealed(at),
        late_allowed=viewer is not None and ev.late_allowed(store, chosen, viewer),
        organiser=organiser,
        deadline=chosen.shown(chosen.deadline),
        reveal=chosen.shown(chosen.reveal),
    )


def submission_of(
    folder: Path, event_id: str, owner: str, viewer: Member | None, *, now: float | None = None
) -> Submission:
    """The latest submission of the member whose folder is ``owner`` to the event, if ``viewer``
    may see it; ``NotFound`` otherwise, the same as for one that does not exist."""
    store = _store(folder)
    chosen = ev.event(store, event_id)
    at = ev.now() if now is None else now
    member = store.member_by_folder(owner)
    found = None if member is None else ev.submissions(store, chosen, member)
    if member is None or not found or (viewer is not None and not ev.can_see(chosen, viewer, member, at)):
        raise NotFound.detailed("no such submission", "it may not have been made, or not revealed yet")
    return found[-1]


def submission_report(folder: Path, catalogs: Catalogs, event_id: str, submission: Submission) -> Any:
    """The snapshot of ``submission`` judged at its event's size (a ``Report``)."""
    chosen = ev.event(_store(folder), event_id)
    return ev.judged(ev.snapshot_text(folder, submission), catalogs, chosen, folder / submission.snapshot)


def export_event(
    folder: Path, event_id: str, format: str, viewer: Member | None, *, now: float | None = None, newline: str = "\r\n"
) -> str:
    """The submitted lists as CSV or JSON (player, list, total, legal, problems, submitted at):
    what ``viewer`` may see of them."""
    if format not in EXPORTS:
        raise InputError.detailed(f"no export format '{format}'", "choose csv or json")
    view = event_view(folder, event_id, viewer, now=now)
    if format == "csv":
        return ev.csv_text(view.event, view.standings, newline)
    return ev.json_text(view.event, view.standings)


def pack_document(
    folder: Path,
    catalogs: Catalogs,
    event_id: str,
    viewer: Member | None,
    *,
    format: str = "pdf",
    paper: str = "a4",
    now: float | None = None,
    done: Callable[[int, int], None] | None = None,
) -> bytes:
    """The event's pack: a cover with every player, their list's total and verdict, then each
    submitted list's roster, then one reference sheet; for an organiser at any time, for everyone
    once the lists are revealed (``NotFound`` before that)."""
    from listbuilder.printing.pack import Cover, CoverRow, pack_bytes  # the print stack: only a pack loads it

    view = event_view(folder, event_id, viewer, now=now)
    if not (view.organiser or view.revealed):
        raise NotFound.detailed("no such pack", f"the lists of {view.event.name} are revealed at {view.reveal}")
    if format not in ("pdf", "html") or paper not in ("a4", "letter"):
        raise InputError.detailed("a pack is a4 or letter, pdf or html", "choose one of each")
    submitted = [s for s in view.standings if s.latest is not None]
    reports = [submission_report(folder, catalogs, event_id, s.latest) for s in submitted if s.latest is not None]
    chosen = view.event
    cover = Cover(
        title=chosen.name,
        lines=(
            f"{catalogs.get(chosen.system).definition.name.strip()}, {chosen.size:,} {chosen.unit}",
            f"Lists closed {view.deadline}; revealed {view.reveal}",
            f"{len(submitted)} list{'s' if len(submitted) != 1 else ''} submitted",
        ),
        rows=tuple(
            CoverRow(
                player=s.member.name,
                list=s.latest.name,
                total=f"{s.latest.total:,} / {chosen.size:,}",
                verdict=s.latest.verdict,
                submitted=chosen.shown(s.latest.at),
                late=s.latest.late,
                problems=len(s.latest.problems),
            )
            for s in submitted
            if s.latest is not None
        ),
        missing=tuple(s.member.name for s in view.standings if s.latest is None),
    )
    return pack_bytes(cover, reports, fmt=format, paper="letter" if paper == "letter" else "a4", done=done)


def pack_file(
    folder: Path,
    catalogs: Catalogs,
    event_id: str,
    output: Path,
    *,
    paper: str = "a4",
    done: Callable[[int, int], None] | None = None,
) -> Path:
    """Write the event's pack to ``output`` (.pdf or .html, by its name), atomically."""
    from listbuilder.api.files import read_by, write_file
    from listbuilder.api.printing import document_format
    from listbuilder.files.writing import check_target

    fmt = document_format(output)
    inputs = [folder, *read_by((), catalogs)]
    check_target(output, inputs)
    data = pack_document(folder, catalogs, event_id, None, format=fmt, paper=paper, done=done)
    write_file(output, data, inputs=inputs)
    return output

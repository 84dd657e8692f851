"""Events (issue 33): an organiser makes one, players submit lists, the server judges and keeps
each as a snapshot, refuses lists after the deadline unless one is accepted late, and shows
nothing of another player's list before the reveal. Through the API with a clock the tests move,
and through the command line."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import threading
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import EXAMPLES

from listbuilder.api import club, events, rulesets
from listbuilder.errors import InputError

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
HIVE = EXAMPLES / "deathmelt-chitter-hive.legal.yaml"
LONDON = ZoneInfo("Europe/London")
DEADLINE = datetime(2026, 12, 20, 18, 0, tzinfo=LONDON).timestamp()
BEFORE = DEADLINE - 3600
AFTER = DEADLINE + 60


@pytest.fixture
def catalogs():
    return rulesets.open_catalogs(None)


@pytest.fixture
def tuesday(tmp_path: Path, catalogs) -> Path:
    folder = tmp_path / "tuesday"
    club.new_club(folder, "Tuesday Night Club", "Olga")
    for name, role in (("Ana", "player"), ("Ben", "player"), ("Vic", "viewer")):
        club.invite(folder, name, role)
    (folder / "members" / "ana" / "zombies.yaml").write_bytes(ZOMBIES.read_bytes())
    (folder / "members" / "ben" / "mash.yaml").write_bytes(MASH.read_bytes())
    (folder / "members" / "ben" / "hive.yaml").write_bytes(HIVE.read_bytes())
    events.make_event(
        folder,
        catalogs,
        name="Winter League",
        system="might-skirmish",
        size=100,
        unit="points",
        deadline="2026-12-20T18:00",
        reveal="2026-12-21T09:00",
        zone="Europe/London",
        now=BEFORE - 86400,
    )
    return folder


def member(folder: Path, name: str):
    return club.open_store(folder).member(name)


def test_an_event_keeps_its_times_in_the_clubs_time_zone(tuesday: Path):
    (made,) = events.club_events(tuesday)
    assert made.id == "winter-league" and made.size == 100 and made.unit == "points"
    assert made.deadline == DEADLINE  # 18:00 in London in December: 18:00 UTC
    assert made.shown(made.deadline) == "Sun 20 Dec 2026, 18:00 GMT"
    assert made.shown(made.reveal) == "Mon 21 Dec 2026, 09:00 GMT"
    # a second event of the same name gets an id of its own; a time with an offset keeps it
    other = events.make_event(
        tuesday,
        rulesets.open_catalogs(None),
        name="Winter League",
        system="might-skirmish",
        size=150,
        unit="points",
        deadline="2027-06-20T18:00+02:00",
    )
    assert other.id == "winter-league-2" and other.zone == "Europe/London"  # the club's zone, set by the first
    assert other.reveal == other.deadline == datetime(2027, 6, 20, 16, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    assert other.shown(other.deadline) == "Sun 20 Jun 2027, 17:00 BST"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"deadline": "next friday"}, "the deadline 'next friday' is not a time"),
        ({"reveal": "2026-12-20T17:59"}, "the reveal is before the deadline"),
        ({"zone": "Europe/Londn"}, "no time zone 'Europe/Londn'"),
        ({"system": "deathmelt", "unit": "points"}, "counts a force in figures, not points"),
        ({"size": 0}, "an event's size is 1 to 100,000 points"),
        ({"size": 100_001}, "an event's size is 1 to 100,000 points"),
        ({"name": "  "}, "cannot be an event's name"),
        ({"system": "might-skirmsh"}, "might-skirmsh"),
    ],
)
def test_a_bad_event_is_refused_by_name(tuesday: Path, catalogs, change, said):
    given = {
        "name": "Spring",
        "system": "might-skirmish",
        "size": 100,
        "unit": "points",
        "deadline": "2027-03-01T18:00",
        "zone": None,
    } | change
    with pytest.raises(InputError) as caught:
        events.make_event(tuesday, catalogs, **given)
    assert said in str(caught.value) + " ".join(d.message or "" for d in caught.value.details)
    assert [e.id for e in events.club_events(tuesday)] == ["winter-league"]


def test_the_size_boundary_is_kept_exactly(tuesday: Path, catalogs):
    for size in (1, 100_000):
        made = events.make_event(
            tuesday,
            catalogs,
            name=f"E{size}",
            system="might-skirmish",
            size=size,
            unit="points",
            deadline="2027-01-01T00:00",
        )
        assert made.size == size


def test_a_submission_is_a_snapshot_judged_at_the_events_size(tuesday: Path, catalogs):
    ana = member(tuesday, "Ana")
    got = events.submit_list(tuesday, catalogs, "winter-league", ana, "zombies.yaml", now=BEFORE)
    assert (got.number, got.verdict, got.total, got.late) == (1, "legal", 98, False)
    snapshot = tuesday / got.snapshot
    assert got.snapshot == "events/winter-league/ana/001.yaml" and snapshot.read_bytes() == ZOMBIES.read_bytes()
    # a later edit of the list changes nothing in the submission
    (tuesday / "members/ana/zombies.yaml").write_text(ZOMBIES.read_text().replace("count: 2", "count: 9", 1))
    view = events.event_view(tuesday, "winter-league", None, now=BEFORE)
    (mine,) = [s for s in view.standings if s.member.name == "Ana"]
    assert mine.latest.total == 98 and snapshot.read_bytes() == ZOMBIES.read_bytes()
    # submitting again keeps the first and says what changed
    again = events.submit_list(tuesday, catalogs, "winter-league", ana, "zombies.yaml", now=BEFORE + 1)
    assert again.number == 2 and (tuesday / "events/winter-league/ana/001.yaml").is_file()
    assert again.verdict == "not legal" and any("Hunter" in line for line in again.changes)


def test_a_list_is_judged_at_the_events_size_not_its_own(tuesday: Path, catalogs):
    ben = member(tuesday, "Ben")
    text = ZOMBIES.read_text().replace("points: 100", "points: 90")
    (tuesday / "members/ben/small.yaml").write_text(text)
    got = events.submit_list(tuesday, catalogs, "winter-league", ben, "small.yaml", now=BEFORE)
    assert got.verdict == "legal"  # 98 of the event's 100, though the file says 90


def test_an_illegal_list_is_submitted_and_stays_marked(tuesday: Path, catalogs):
    got = events.submit_list(tuesday, catalogs, "winter-league", member(tuesday, "Ben"), "mash.yaml", now=BEFORE)
    assert got.verdict == "not legal"
    assert "14 points over the 100-point limit (114 of 100)" in got.problems


@pytest.mark.parametrize(
    ("who", "file", "said"),
    [
        ("Ana", "mash.yaml", "no such list file"),  # Ben's list, named by Ana: her folder has none
        ("Ana", "../ben/mash.yaml", "the name must be a plain file name"),
        ("Ben", "hive.yaml", "this is a deathmelt list, and Winter League is played with might-skirmish"),
        ("Vic", "zombies.yaml", "Vic cannot submit lists"),
    ],
)
def test_what_a_player_cannot_submit(tuesday: Path, catalogs, who, file, said):
    with pytest.raises(InputError) as caught:
        events.submit_list(tuesday, catalogs, "winter-league", member(tuesday, who), file, now=BEFORE)
    assert said in str(caught.value)
    assert not (tuesday / "events").exists() or not any((tuesday / "events").rglob("*.yaml"))


def test_the_deadline_closes_the_event_and_a_late_list_is_marked(tuesday: Path, catalogs):
    ana = member(tuesday, "Ana")
    with pytest.raises(events.Closed) as caught:
        events.submit_list(tuesday, catalogs, "winter-league", ana, "zombies.yaml", now=DEADLINE)
    assert "Winter League closed at Sun 20 Dec 2026, 18:00 GMT" in str(caught.value)
    # one second before the deadline is still open
    assert not events.submit_list(tuesday, catalogs, "winter-league", ana, "zombies.yaml", now=DEADLINE - 1).late
    events.accept_late(tuesday, "winter-league", "Ana")
    late = events.submit_list(tuesday, catalogs, "winter-league", ana, "zombies.yaml", now=AFTER)
    assert late.late and late.number == 2
    with pytest.raises(events.Closed):  # Ben has no late list accepted
        events.submit_list(tuesday, catalogs, "winter-league", member(tuesday, "Ben"), "mash.yaml", now=AFTER)


def test_moving_the_deadline_reopens_the_event(tuesday: Path, catalogs):
    moved = events.move_event(tuesday, "winter-league", deadline="2026-12-21T09:00")
    assert moved.shown(moved.deadline) == "Mon 21 Dec 2026, 09:00 GMT"
    assert not events.submit_list(
        tuesday, catalogs, "winter-league", member(tuesday, "Ana"), "zombies.yaml", now=AFTER
    ).late
    with pytest.raises(InputError, match="the reveal is before the deadline"):
        events.move_event(tuesday, "winter-league", deadline="2026-12-22T09:00")


def test_before_the_reveal_a_player_sees_only_their_own(tuesday: Path, catalogs):
    ana, ben, olga, vic = (member(tuesday, n) for n in ("Ana", "Ben", "Olga", "Vic"))
    events.submit_list(tuesday, catalogs, "winter-league", ana, "zombies.yaml", now=BEFORE)
    events.submit_list(tuesday, catalogs, "winter-league", ben, "mash.yaml", now=BEFORE)
    reveal = events.event_view(tuesday, "winter-league", None).event.reveal
    for now in (AFTER, reveal - 1):  # after the deadline, before the reveal
        seen = events.event_view(tuesday, "winter-league", ana, now=now)
        assert [s.member.name for s in seen.standings] == ["Ana"]
        assert "Monster Mash" not in json.dumps(seen.as_json()) and "114" not in events.export_event(
            tuesday, "winter-league", "csv", ana, now=now
        )
        assert events.event_view(tuesday, "winter-league", vic, now=now).standings == ()
        with pytest.raises(events.NotFound) as hidden:
            events.submission_of(tuesday, "winter-league", "ben", ana, now=now)
        with pytest.raises(events.NotFound) as missing:
            events.submission_of(tuesday, "winter-league", "nobody", ana, now=now)
        assert str(hidden.value) == str(missing.value)  # nothing tells a hidden list from none
        with pytest.raises(events.NotFound):
            events.pack_document(tuesday, catalogs, "winter-league", ana, format="html", now=now)
        # the organiser sees every member, submitted or not
        organised = events.event_view(tuesday, "winter-league", olga, now=now)
        assert [s.member.name for s in organised.standings] == ["Ana", "Ben", "Olga"]
    for viewer in (ana, vic):
        seen = events.event_view(tuesday, "winter-league", viewer, now=reveal)
        assert [s.member.name for s in seen.standings] == ["Ana", "Ben"]
    assert events.submission_of(tuesday, "winter-league", "ben", ana, now=reveal).name == "Monster Mash"


def test_two_submissions_at_once_leave_two_whole_snapshots(tuesday: Path, catalogs):
    ana = member(tuesday, "Ana")
    results, errors = [], []

    def go() -> None:
        try:
            results.append(events.submit_list(tuesday, catalogs, "winter-league", ana, "zombies.yaml", now=BEFORE))
        except Exception as exc:  # the test reports what went wrong
            errors.append(exc)

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(r.number for r in results) == [1, 2, 3, 4]
    for n in range(1, 5):
        assert (tuesday / f"events/winter-league/ana/{n:03d}.yaml").read_bytes() == ZOMBIES.read_bytes()


def test_the_csv_neutralises_formulas_and_reads_back(tuesday: Path, catalogs):
    hostile = ZOMBIES.read_text().replace("name: Zombie Family", 'name: "=HYPERLINK(\\"http://x\\")"')
    (tuesday / "members/ben/evil.yaml").write_text(hostile)
    events.submit_list(tuesday, catalogs, "winter-league", member(tuesday, "Ben"), "evil.yaml", now=BEFORE)
    events.submit_list(tuesday, catalogs, "winter-league", member(tuesday, "Ana"), "zombies.yaml", now=BEFORE)
    text = events.export_event(tuesday, "winter-league", "csv", None)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["player"] for r in rows] == ["Ana", "Ben"]
    assert rows[1]["list"] == '\'=HYPERLINK("http://x")' and rows[0]["list"] == "Zombie Family"
    assert rows[0]["total"] == "98" and rows[0]["legal"] == "yes" and rows[0]["submitted_at"].startswith("2026-12-20T")
    data = json.loads(events.export_event(tuesday, "winter-league", "json", None))
    assert data["event"]["deadline"] == "2026-12-20T18:00:00+00:00"
    assert [s["list"] for s in data["submissions"]] == ["Zombie Family", '=HYPERLINK("http://x")']


def test_the_pack_has_a_cover_every_roster_and_one_reference_sheet(tuesday: Path, catalogs, tmp_path: Path):
    events.submit_list(tuesday, catalogs, "winter-league", member(tuesday, "Ana"), "zombies.yaml", now=BEFORE)
    events.submit_list(tuesday, catalogs, "winter-league", member(tuesday, "Ben"), "mash.yaml", now=BEFORE)
    out = tmp_path / "pack.pdf"
    events.pack_file(tuesday, catalogs, "winter-league", out)
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    cover = text.split("\f")[0]
    assert "Winter League" in cover and "Might Skirmish, 100 points" in cover
    assert "Zombie Family" in cover and "98 / 100" in cover and "NOT LEGAL (3 problems)" in cover
    assert "No list from: Olga" in cover
    assert text.count("REFERENCE") == 1 or text.lower().count("reference sheet") >= 1
    assert "Monster Mash" in text.split("\f", 1)[1]  # its roster follows the cover


def test_the_command_line_makes_moves_shows_and_packs_an_event(tuesday: Path, cli, tmp_path: Path):
    made = cli(
        "event",
        "new",
        tuesday,
        "Spring Cup",
        "--system",
        "deathmelt",
        "--figures",
        "24",
        "--deadline",
        "2027-03-01T18:00",
    )
    assert made.exit_code == 0, made.stderr
    assert made.stdout.strip().splitlines()[-1] == "spring-cup"
    both = cli(
        "event",
        "new",
        tuesday,
        "X",
        "--system",
        "deathmelt",
        "--figures",
        "24",
        "--points",
        "3",
        "--deadline",
        "2027-03-01T18:00",
    )
    assert both.exit_code == 2 and "give points or figures, not both" in both.stderr
    moved = cli("event", "set", tuesday, "spring-cup", "--reveal", "2027-03-02T09:00")
    assert moved.exit_code == 0 and "revealed Tue 2 Mar 2027, 09:00 GMT" in moved.stdout
    late = cli("event", "late", tuesday, "spring-cup", "Ana")
    assert late.exit_code == 0 and "Ana may submit a late list" in late.stdout
    nobody = cli("event", "late", tuesday, "spring-cup", "Zed")
    assert nobody.exit_code == 2 and "the club has no member named 'Zed'" in nobody.stderr
    shown = json.loads(cli("event", "show", tuesday, "spring-cup", "--json").stdout)
    assert shown["event"]["size"] == 24 and shown["missing"] == ["Ana", "Ben", "Olga"]
    wrong = cli("event", "show", tuesday, "sprng-cup")
    assert wrong.exit_code == 2 and "did you mean 'spring-cup'?" in wrong.stderr
    csv_file = tmp_path / "out.csv"
    assert cli("event", "export", tuesday, "spring-cup", "-o", csv_file).exit_code == 0
    assert csv_file.read_bytes().startswith(
        b"player,list,total,unit,legal,verdict,problems,submitted_at,late,resubmitted\r\n"
    )
    pack = tmp_path / "p.pdf"
    done = cli("event", "pack", tuesday, "spring-cup", "-o", pack)
    assert done.exit_code == 0 and pack.read_bytes().startswith(b"%PDF")

"""Events in a club's server (issue 33), through real HTTP with a session per member and a clock
the tests move: submitting from a list's page, the deadline, a late list, moving the times, the
reveal on every route (a list's page, the odds, the exports, the pack), and the organiser's view."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from clubhelp import Member, make_club, served_here, signed_in
from webserver import Server

from listbuilder.api import events, rulesets

LONDON = ZoneInfo("Europe/London")
DEADLINE = datetime(2026, 12, 20, 18, 0, tzinfo=LONDON).timestamp()
REVEAL = datetime(2026, 12, 21, 9, 0, tzinfo=LONDON).timestamp()


class Clock:
    def __init__(self, at: float) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock(DEADLINE - 86400)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_club(
        tmp_path_factory.mktemp("events-web"),
        {"Ana": "player", "Ben": "player", "Vic": "viewer"},
        {
            "Ana": ["might-skirmish-zombie-family.legal"],
            "Ben": ["might-skirmish-monster-mash.illegal", "deathmelt-chitter-hive.legal"],
        },
    )
    events.make_event(
        root,
        rulesets.open_catalogs(None),
        name="Winter League",
        system="might-skirmish",
        size=100,
        unit="points",
        deadline="2026-12-20T18:00",
        reveal="2026-12-21T09:00",
        zone="Europe/London",
    )
    return root


@pytest.fixture(scope="module")
def server(folder: Path, clock: Clock) -> Iterator[Server]:
    with served_here(folder, clock) as running:
        yield running


@pytest.fixture(scope="module")
def people(server: Server, folder: Path) -> dict[str, Member]:
    return {name: signed_in(server, folder, name) for name in ("Olga", "Ana", "Ben", "Vic")}


def submit(member: Member, file: str, event: str = "winter-league"):
    return member.post(f"/events/{event}/submit", {"token": member.token(), "file": file})


def test_the_event_story_from_submission_to_reveal(people: dict[str, Member], clock: Clock, folder: Path):
    ana, ben, olga, vic = people["Ana"], people["Ben"], people["Olga"], people["Vic"]
    clock.at = DEADLINE - 7200

    # the list's page offers the event; the submission is read from Ana's own folder
    page = ana.get("/list/might-skirmish-zombie-family.yaml").text
    assert "Submit to Winter League" in page
    done = submit(ana, "might-skirmish-zombie-family.yaml")
    assert done.status == 303 and done.headers["location"].startswith("/events/winter-league")
    mine = ana.get("/events/winter-league").text
    assert "Zombie Family" in mine and "98 of 100 points" in mine and "Legal" in mine

    # Ben's illegal list goes in, marked, its problems shown to him
    assert submit(ben, "might-skirmish-monster-mash.yaml").status == 303
    his = ben.get("/events/winter-league").text
    assert "NOT LEGAL" in his and "14 points over the 100-point limit (114 of 100)" in html.unescape(his)

    # before the reveal nobody sees anyone else's: page, list, odds, exports, pack
    assert "Zombie Family" not in ben.get("/events/winter-league").text
    hidden = ben.get("/events/winter-league/lists/ana")
    missing = ben.get("/events/winter-league/lists/nobody")
    assert hidden.status == missing.status == 404 and _main(hidden.text) == _main(missing.text)
    assert ben.get("/events/winter-league/lists/ana/odds?mine=might-skirmish-monster-mash.yaml").status == 404
    assert ben.get("/events/winter-league/pack.pdf").status == 404
    csv_text = ben.get("/events/winter-league/export.csv").text
    assert "Zombie Family" not in csv_text and "98" not in csv_text.split("\n", 1)[1]
    assert (
        vic.get("/events/winter-league").status == 200 and "Monster Mash" not in vic.get("/events/winter-league").text
    )

    # the organiser sees every player, submitted or not, with what changed
    organised = olga.get("/events/winter-league").text
    assert "Zombie Family" in organised and "Monster Mash" in organised and "no list" in organised
    assert olga.get("/events/winter-league/lists/ben").status == 200

    # after the deadline: refused, until a late list is accepted
    clock.at = DEADLINE
    closed = submit(ana, "might-skirmish-zombie-family.yaml")
    assert closed.status == 409 and "Winter League closed at Sun 20 Dec 2026, 18:00 GMT" in html.unescape(closed.text)
    assert "Submit to Winter League" not in ana.get("/list/might-skirmish-zombie-family.yaml").text
    late = olga.post("/events/winter-league/late", {"token": olga.token(), "member": "Ana"})
    assert late.status == 303
    again = submit(ana, "might-skirmish-zombie-family.yaml")
    assert again.status == 303
    assert "late" in olga.get("/events/winter-league").text

    # at the reveal every member sees every list, its odds against their own, the pack and CSV
    clock.at = REVEAL
    for viewer in (ben, vic):
        shown = viewer.get("/events/winter-league").text
        assert "Zombie Family" in shown and "Monster Mash" in shown
    theirs = ben.get("/events/winter-league/lists/ana")
    assert theirs.status == 200 and "Zombie Family" in theirs.text
    odds = ben.get("/events/winter-league/lists/ana/odds?mine=might-skirmish-monster-mash.yaml")
    assert odds.status == 200 and "Monster Mash against Zombie Family" in html.unescape(odds.text)
    rows = list(csv.DictReader(io.StringIO(ben.get("/events/winter-league/export.csv").text)))
    assert [(r["player"], r["total"], r["legal"], r["late"]) for r in rows] == [
        ("Ana", "98", "yes", "yes"),
        ("Ben", "114", "no", "no"),
    ]
    pack = ben.get("/events/winter-league/pack.pdf")
    assert pack.status == 200 and pack.body.startswith(b"%PDF")


def _main(page: str) -> str:
    """A page's main content, without the per-request token."""
    return re.sub(r'name="token" value="[^"]+"', "", page.split("<main", 1)[-1])


def test_what_a_member_cannot_do(people: dict[str, Member], clock: Clock, folder: Path):
    ana, ben, vic = people["Ana"], people["Ben"], people["Vic"]
    clock.at = DEADLINE - 3600
    # another member's list, by its name: Ana's folder has no such file
    assert submit(ana, "might-skirmish-monster-mash.yaml").status == 400
    assert submit(ana, "../ben/might-skirmish-monster-mash.yaml").status == 400
    # a list of another rule set
    wrong = submit(ben, "deathmelt-chitter-hive.yaml")
    assert wrong.status == 400 and "Winter League is played with might-skirmish" in html.unescape(wrong.text)
    # a viewer submits nothing, and no player makes or moves an event
    assert vic.post("/events/winter-league/submit", {"token": vic.token(), "file": "x.yaml"}).status == 403
    assert ana.post("/events/new", {"token": ana.token(), "name": "Mine", "size": "1"}).status == 403
    assert ana.post("/events/winter-league/times", {"token": ana.token(), "deadline": "2030-01-01T00:00"}).status == 403
    assert ana.post("/events/winter-league/late", {"token": ana.token(), "member": "Ana"}).status == 403
    # a form without the token, and a signed-out browser
    assert ana.post("/events/winter-league/submit", {"file": "might-skirmish-zombie-family.yaml"}).status == 403
    stranger = Member(ana.server)
    assert stranger.post("/events/winter-league/submit", {"file": "x.yaml"}).status == 403
    assert stranger.get("/events/winter-league").status == 303
    assert ana.get("/events/nope").status == 404


def test_an_organiser_makes_and_moves_an_event_from_the_page(people: dict[str, Member], folder: Path):
    olga = people["Olga"]
    made = olga.post(
        "/events/new",
        {
            "token": olga.token(),
            "name": "<script>alert(1)</script> Cup",
            "system": "deathmelt",
            "size": "24",
            "unit": "figures",
            "deadline": "2027-02-01T18:00",
            "reveal": "",
        },
    )
    assert made.status == 303, made.text
    where = made.headers["location"].split("?")[0]
    page = olga.get(where).text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; Cup" in page
    assert "24 figures" in page
    bad = olga.post(
        "/events/new",
        {
            "token": olga.token(),
            "name": "X",
            "system": "deathmelt",
            "size": "24",
            "unit": "points",
            "deadline": "2027-02-01T18:00",
        },
    )
    assert bad.status == 400 and "counts a force in figures, not points" in html.unescape(bad.text)
    moved = olga.post(
        f"{where}/times", {"token": olga.token(), "deadline": "2027-02-02T18:00", "reveal": "2027-02-03T09:00"}
    )
    assert moved.status == 303
    assert "Tue 2 Feb 2027, 18:00 GMT" in olga.get(where).text
    backwards = olga.post(f"{where}/times", {"token": olga.token(), "reveal": "2027-01-01T09:00"})
    assert backwards.status == 400 and "the reveal is before the deadline" in html.unescape(backwards.text)

"""Club mode's store and commands: members, hashed links and sessions, roles, the log, shares.

Issue 32: a link works once and expires (7 days by default); secrets are stored hashed; state is
in FOLDER/.listbuilder/club.sqlite (WAL); club new refuses a folder of lists without --owner.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from listbuilder.api import club
from listbuilder.club import access, limits
from listbuilder.club.store import open_store
from listbuilder.club.tokens import hashed


def _club(tmp_path: Path) -> tuple[Path, str]:
    folder = tmp_path / "tuesday"
    made = club.new_club(folder, "Tuesday Night Club", "Olga", url="http://192.168.1.20:8000")
    return folder, made.link


def _secret(link: str) -> str:
    return link.rsplit("/join/", 1)[1]


def test_new_club_makes_the_database_and_the_organisers_link(tmp_path):
    folder, link = _club(tmp_path)
    assert (folder / ".listbuilder" / "club.sqlite").is_file()
    assert link.startswith("http://192.168.1.20:8000/join/")
    store = open_store(folder)
    assert store.setting("name") == "Tuesday Night Club"
    (olga,) = store.members()
    assert (olga.name, olga.role, olga.folder) == ("Olga", "organiser", "olga")
    db = sqlite3.connect(folder / ".listbuilder" / "club.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # only the secret's hash is stored: the link's secret appears nowhere in the database
    raw = (folder / ".listbuilder" / "club.sqlite").read_bytes() + (
        folder / ".listbuilder" / "club.sqlite-wal"
    ).read_bytes()
    assert _secret(link).encode() not in raw
    assert db.execute("SELECT hash FROM links").fetchone()[0] == hashed(_secret(link))


def test_a_link_signs_in_once_and_only_before_it_expires(tmp_path):
    folder, link = _club(tmp_path)
    store = open_store(folder)
    signed = store.use_link(_secret(link), "phone")
    assert signed is not None
    member, session = signed
    assert member.name == "Olga"
    assert store.session(session).member.name == "Olga"
    assert store.use_link(_secret(link), "laptop") is None  # used
    assert store.use_link("not-a-link", "laptop") is None
    ana = club.invite(folder, "Ana", days=7)
    # 7 days by default: expires within a second of now + 7 * 86400
    assert abs(ana.expires - (time.time() + 7 * 86400)) < 5
    # an expired link (its expiry moved to the past) signs nobody in; a second before, it would
    with store.write() as db:
        db.execute("UPDATE links SET expires = ? WHERE hash = ?", (time.time() - 1, hashed(_secret(ana.link))))
    assert store.use_link(_secret(ana.link), "phone") is None
    again = club.invite(folder, "Ana", days=1)
    with store.write() as db:
        db.execute("UPDATE links SET expires = ? WHERE hash = ?", (time.time() + 1, hashed(_secret(again.link))))
    assert store.use_link(_secret(again.link), "phone") is not None


def test_revoke_ends_every_session_and_link_and_keeps_the_lists(tmp_path):
    folder, _ = _club(tmp_path)
    store = open_store(folder)
    first = club.invite(folder, "Ana")
    second = club.invite(folder, "Ana")
    assert not second.new
    (folder / "members" / "ana" / "mine.yaml").write_text("system: deathzap\nname: Mine\nunits: []\n")
    _, session = store.use_link(_secret(first.link), "phone")
    assert club.revoke(folder, "Ana").devices == 1
    assert store.session(session) is None
    assert store.use_link(_secret(second.link), "laptop") is None  # unused links end too
    assert (folder / "members" / "ana" / "mine.yaml").is_file()
    back = club.invite(folder, "ana")  # a new link lets her back in (names match in any case)
    assert store.use_link(_secret(back.link), "laptop") is not None


def test_sign_out_one_device_or_all(tmp_path):
    folder, _ = _club(tmp_path)
    store = open_store(folder)
    sessions = [store.use_link(_secret(club.invite(folder, "Ana").link), f"device {i}")[1] for i in range(3)]
    ana = store.member("Ana")
    assert len(store.sessions_of(ana)) == 3
    assert store.sign_out(ana, hashed(sessions[0])) == 1
    assert store.session(sessions[0]) is None and store.session(sessions[1]) is not None
    assert store.sign_out(ana, None) == 2
    assert store.session(sessions[1]) is None and store.session(sessions[2]) is None


def test_roles_decide_who_reads_and_changes(tmp_path):
    folder, _ = _club(tmp_path)
    for name, role in (("Ana", "player"), ("Ben", "player"), ("Vic", "viewer")):
        club.invite(folder, name, role)
    store = open_store(folder)
    olga, ana, ben, vic = (store.member(n) for n in ("Olga", "Ana", "Ben", "Vic"))
    assert access.allowed(ana, "change", ana) and not access.allowed(ana, "change", ben)
    assert not access.allowed(ana, "read", ben) and access.allowed(ana, "read", ben, shared=True)
    assert access.allowed(olga, "read", ben) and not access.allowed(olga, "change", ben)
    assert not access.allowed(vic, "change", vic) and not access.allowed(vic, "read", ben)
    assert access.allowed(vic, "read", ben, shared=True)
    assert access.allowed(olga, "organise") and not access.allowed(ana, "organise")
    club.revoke(folder, "Ana")
    assert not access.allowed(store.member("Ana"), "read", store.member("Ana"))


def test_the_log_says_who_did_what_and_holds_no_secret(tmp_path):
    folder, link = _club(tmp_path)
    ana = club.invite(folder, "Ana")
    store = open_store(folder)
    store.use_link(_secret(ana.link), "phone")
    said = [f"{e.member}: {e.what}" for e in reversed(store.log())]
    assert said == [
        ": invited Olga as organiser",
        ": made a sign-in link for Olga",
        ": invited Ana as player",
        ": made a sign-in link for Ana",
        "Ana: signed in with a link",
    ]
    assert not any(_secret(link) in e.what or _secret(ana.link) in e.what for e in store.log())


def test_shares(tmp_path):
    folder, _ = _club(tmp_path)
    club.invite(folder, "Ana")
    store = open_store(folder)
    ana = store.member("Ana")
    store.share(ana, "mine.yaml", True)
    assert [(m.name, f) for m, f in store.shared()] == [("Ana", "mine.yaml")]
    assert store.is_shared(ana, "mine.yaml") and not store.is_shared(ana, "other.yaml")
    store.share(ana, "mine.yaml", False)
    assert store.shared() == []


def test_attempts_are_limited_and_say_when_to_try_again():
    attempts = limits.Attempts()
    start = 1_000_000.0
    for i in range(limits.PER_MEMBER - 1):
        attempts.failed("member:ana", start + i)
    assert attempts.retry_at("member:ana", limits.PER_MEMBER, start + 10) is None  # 4 of 5: may try
    attempts.failed("member:ana", start + 4)
    # the 5th failure locks until the first leaves the 15-minute window
    assert attempts.retry_at("member:ana", limits.PER_MEMBER, start + 10) == start + 15 * 60
    assert attempts.retry_at("member:ana", limits.PER_MEMBER, start + 15 * 60 + 0.5) is None


def test_club_commands_print_the_link_last(cli, tmp_path):
    folder = tmp_path / "tuesday"
    made = cli("club", "new", str(folder), "--name", "Tuesday Night Club", "--url", "http://192.168.1.20:8000")
    assert made.exit_code == 0, made.stderr
    assert made.stdout.splitlines()[-1].startswith("http://192.168.1.20:8000/join/")
    ana = cli("club", "invite", str(folder), "Ana", "--qr", "--expires", "2")
    assert ana.exit_code == 0
    lines = ana.stdout.splitlines()
    assert lines[-1].startswith("http://192.168.1.20:8000/join/") and "█" in ana.stdout
    ben = cli("club", "invite", str(folder), "Ben", "--role", "organiser", "--json")
    assert json.loads(ben.stdout)["role"] == "organiser"
    listed = json.loads(cli("club", "members", str(folder), "--json").stdout)
    assert [(m["name"], m["role"]) for m in listed] == [
        ("Ana", "player"),
        ("Ben", "organiser"),
        ("Organiser", "organiser"),
    ]
    assert cli("club", "revoke", str(folder), "Ana").stdout == "Ana is signed out on 0 devices; their lists stay\n"
    nobody = cli("club", "revoke", str(folder), "Zed")
    assert nobody.exit_code == 2 and "no member named 'Zed'" in nobody.stderr
    wrong = cli("club", "invite", str(folder), "Cy", "--role", "boss")
    assert wrong.exit_code == 2 and "no role 'boss'" in wrong.stderr
    never = cli("club", "invite", str(folder), "Cy", "--expires", "0")
    assert never.exit_code == 2 and "cannot last 0 days" in never.stderr
    assert cli("club", "members", str(tmp_path)).exit_code == 2


def test_club_new_moves_nothing_from_a_folder_of_lists_without_owner(cli, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "zombies.yaml").write_text("system: might-skirmish\nname: Zombies\nunits: []\n")
    refused = cli("club", "new", str(folder))
    assert refused.exit_code == 2
    assert "holds 1 list file (zombies.yaml)" in refused.stderr and "--owner NAME" in refused.stderr
    assert (folder / "zombies.yaml").is_file() and not (folder / ".listbuilder" / "club.sqlite").exists()
    adopted = cli("club", "new", str(folder), "--owner", "Ana")
    assert adopted.exit_code == 0
    assert (folder / "members" / "ana" / "zombies.yaml").is_file() and not (folder / "zombies.yaml").exists()
    assert json.loads(cli("club", "members", str(folder), "--json").stdout)[0]["name"] == "Ana"


@pytest.mark.parametrize("name", ["", " ", "x" * 61, "bad\x1bname"])
def test_a_members_name_is_checked(tmp_path, name):
    folder, _ = _club(tmp_path)
    from listbuilder.errors import InputError

    with pytest.raises(InputError, match="cannot be a member's name"):
        club.invite(folder, name)


def test_a_database_that_cannot_be_written_is_said_and_changes_nothing(tmp_path):
    from listbuilder.errors import OutputError

    folder, _ = _club(tmp_path)
    store = open_store(folder)
    before = len(store.log())
    store.connection().execute("PRAGMA query_only = ON")  # as a read-only file or a full disk refuses
    with pytest.raises(OutputError, match="the club's database cannot be written"):
        store.note(None, "anything")
    store.connection().execute("PRAGMA query_only = OFF")
    assert len(store.log()) == before


def test_club_new_where_no_folder_can_be_made_exits_3(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = cli("club", "new", str(blocker / "club"))
    assert result.exit_code == 3 and "cannot make the club's folder" in result.stderr


def test_a_session_is_noted_hourly_and_ends_unseen_for_90_days(tmp_path):
    folder, link = _club(tmp_path)
    store = open_store(folder)
    _, session = store.use_link(_secret(link), "phone")
    now = time.time()

    def seen_at(at: float) -> None:
        with store.write() as db:
            db.execute("UPDATE sessions SET seen = ? WHERE hash = ?", (at, hashed(session)))

    seen_at(now - 3599)  # within the hour: not written again
    assert store.session(session).seen == pytest.approx(now - 3599)
    seen_at(now - 3601)
    store.session(session)
    assert store.session(session).seen >= now
    seen_at(now - 90 * 86400 + 60)  # a minute short of 90 days: still signed in
    assert store.session(session) is not None
    seen_at(now - 90 * 86400 - 1)
    assert store.session(session) is None

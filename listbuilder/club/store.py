"""The club's state that must not be lost, in SQLite: ``FOLDER/.listbuilder/club.sqlite``.

The standard library's ``sqlite3``, in WAL mode with ``synchronous=FULL``: every write is one
transaction, committed before the caller is answered, so a server killed at any moment keeps
every change it acknowledged. Several processes may open one club (two servers, a server and
``club invite``): SQLite serialises their writes, each waiting up to ``BUSY_SECONDS``.

Tables (``SCHEMA``): ``club`` (its name and address), ``members`` (name, folder, role, a
passphrase's argon2id hash, when revoked), ``links`` (sign-in links: the hash of the secret, when
it expires, when used), ``sessions`` (the hash of a session id, the device's label, last seen),
``shares`` (a member's list shared with the club) and ``log`` (the activity log: who did what,
never a secret). Issue 33 (events) adds its tables here, with ``user_version`` 2.

One connection a thread (``sqlite3`` connections are not shared between threads).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from listbuilder.club.tokens import hashed, new_secret, same
from listbuilder.errors import InputError, OutputError
from listbuilder.record import Record, record

STATE = ".listbuilder"
DATABASE = "club.sqlite"
BUSY_SECONDS = 10.0
VERSION = 1
ROLES = ("player", "organiser", "viewer")
LINK_DAYS = 7  # a sign-in link's life, by default
SESSION_DAYS = 90  # a session unseen this long is signed out
SEEN_EVERY = 3600.0  # seconds: a session's "last seen" is written at most this often
MAX_LOG = 10_000  # activity log entries kept (the oldest go first)

SCHEMA = """
CREATE TABLE IF NOT EXISTS club (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS members (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  folder TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL,
  created REAL NOT NULL,
  passphrase TEXT,
  revoked REAL
);
CREATE TABLE IF NOT EXISTS links (
  hash TEXT PRIMARY KEY,
  member INTEGER NOT NULL REFERENCES members(id),
  created REAL NOT NULL,
  expires REAL NOT NULL,
  used REAL
);
CREATE TABLE IF NOT EXISTS sessions (
  hash TEXT PRIMARY KEY,
  member INTEGER NOT NULL REFERENCES members(id),
  created REAL NOT NULL,
  seen REAL NOT NULL,
  device TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_of ON sessions(member);
CREATE TABLE IF NOT EXISTS shares (
  member INTEGER NOT NULL REFERENCES members(id),
  file TEXT NOT NULL,
  at REAL NOT NULL,
  PRIMARY KEY (member, file)
);
CREATE TABLE IF NOT EXISTS log (
  id INTEGER PRIMARY KEY,
  at REAL NOT NULL,
  member INTEGER,
  what TEXT NOT NULL
);
"""


@record
class Member(Record):
    """A member of the club: ``folder`` is their folder's name under ``members/``."""

    id: int
    name: str
    folder: str
    role: str
    created: float
    has_passphrase: bool = False
    revoked: float | None = None
    sessions: int = 0

    __json__ = ("name", "folder", "role", "created", "has_passphrase", "revoked", "sessions")


@record
class Session(Record):
    """A signed-in browser: its member, and the hash of its session id (never the id itself)."""

    hash: str
    member: Member
    created: float
    seen: float
    device: str


@record
class Logged(Record):
    """One line of the activity log."""

    at: float
    member: str
    what: str


class Store:
    """The club database of one club folder; opened by ``open_store``, shared by threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        found: sqlite3.Connection | None = getattr(self._local, "db", None)
        if found is None:
            found = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=True)
            found.execute("PRAGMA journal_mode=WAL")
            found.execute("PRAGMA synchronous=FULL")  # a committed change survives a power cut too
            found.execute("PRAGMA foreign_keys=ON")
            self._local.db = found
        return found

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed as a whole when the block ends, or not at all."""
        db = self.connection()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:  # a full disk, a read-only folder, a lock held too long
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise OutputError.detailed(
                "the club's database cannot be written", f"{exc}: nothing was changed", file=self.path
            ) from None

    def read(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        """The rows of a query (SQLite's values: whatever each column holds)."""
        return list(self.connection().execute(sql, args))

    # --- the club ------------------------------------------------------------------------------

    def setting(self, key: str, default: str = "") -> str:
        rows = self.read("SELECT value FROM club WHERE key = ?", key)
        return str(rows[0][0]) if rows else default

    def set_setting(self, key: str, value: str) -> None:
        with self.write() as db:
            db.execute("INSERT OR REPLACE INTO club VALUES (?, ?)", (key, value))

    # --- members -------------------------------------------------------------------------------

    def add_member(self, name: str, folder: str, role: str, by: Member | None = None) -> Member:
        now = time.time()
        with self.write() as db:
            if db.execute("SELECT 1 FROM members WHERE name = ?", (name,)).fetchone():
                raise InputError.detailed(
                    f"the club already has a member named '{name}'",
                    "choose another name, or send them a new sign-in link",
                    file=self.path.parent.parent,
                )
            cur = db.execute(
                "INSERT INTO members (name, folder, role, created) VALUES (?, ?, ?, ?)", (name, folder, role, now)
            )
            member_id = cur.lastrowid
            assert member_id is not None
            self._log(db, by, f"invited {name} as {role}")
        return Member(id=member_id, name=name, folder=folder, role=role, created=now)

    def members(self) -> list[Member]:
        rows = self.read(
            "SELECT m.id, m.name, m.folder, m.role, m.created, m.passphrase IS NOT NULL, m.revoked,"
            " (SELECT count(*) FROM sessions s WHERE s.member = m.id) FROM members m ORDER BY m.name"
        )
        return [_member(row) for row in rows]

    def member(self, name: str) -> Member | None:
        """The member named ``name`` (any case), revoked or not."""
        rows = self.read(
            "SELECT id, name, folder, role, created, passphrase IS NOT NULL, revoked, 0 FROM members WHERE name = ?",
            name,
        )
        return _member(rows[0]) if rows else None

    def member_by_folder(self, folder: str) -> Member | None:
        rows = self.read(
            "SELECT id, name, folder, role, created, passphrase IS NOT NULL, revoked, 0 FROM members WHERE folder = ?",
            folder,
        )
        return _member(rows[0]) if rows else None

    def revoke(self, member: Member, by: Member | None = None) -> int:
        """Revoke ``member``: every session and unused link of theirs ends; their lists stay.
        Returns how many devices were signed out."""
        with self.write() as db:
            ended = db.execute("DELETE FROM sessions WHERE member = ?", (member.id,)).rowcount
            db.execute("DELETE FROM links WHERE member = ?", (member.id,))
            db.execute("UPDATE members SET revoked = ? WHERE id = ?", (time.time(), member.id))
            self._log(db, by, f"revoked {member.name}")
        return ended

    def set_passphrase(self, member: Member, digest: str | None) -> None:
        with self.write() as db:
            db.execute("UPDATE members SET passphrase = ? WHERE id = ?", (digest, member.id))
            self._log(db, member, "set a passphrase" if digest else "removed their passphrase")

    def passphrase_of(self, member: Member) -> str | None:
        rows = self.read("SELECT passphrase FROM members WHERE id = ?", member.id)
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    # --- links and sessions --------------------------------------------------------------------

    def new_link(self, member: Member, seconds: float, by: Member | None = None) -> str:
        """A new sign-in link's secret for ``member`` (reinstated if revoked), valid ``seconds``;
        only its hash is kept."""
        secret = new_secret()
        now = time.time()
        with self.write() as db:
            db.execute(
                "INSERT INTO links (hash, member, created, expires) VALUES (?, ?, ?, ?)",
                (hashed(secret), member.id, now, now + seconds),
            )
            db.execute("UPDATE members SET revoked = NULL WHERE id = ?", (member.id,))
            self._log(db, by, f"made a sign-in link for {member.name}")
        return secret

    def use_link(self, secret: str, device: str) -> tuple[Member, str] | None:
        """Sign in with a link's ``secret``: once, before it expires, for a member not revoked.
        Returns the member and a fresh session id, or ``None`` (used, expired, unknown)."""
        digest = hashed(secret)
        now = time.time()
        with self.write() as db:
            row = db.execute("SELECT hash, member, expires, used FROM links WHERE hash = ?", (digest,)).fetchone()
            if row is None or not same(str(row[0]), digest) or row[3] is not None or float(row[2]) <= now:
                return None
            member = self._member_row(db, int(row[1]))
            if member is None or member.revoked is not None:
                return None
            db.execute("UPDATE links SET used = ? WHERE hash = ?", (now, digest))
            session = self._new_session(db, member, device, now)
            self._log(db, member, "signed in with a link")
        return member, session

    def sign_in(self, member: Member, device: str, how: str) -> str:
        """A fresh session id for ``member`` (a passphrase checked by the caller)."""
        now = time.time()
        with self.write() as db:
            session = self._new_session(db, member, device, now)
            self._log(db, member, f"signed in with {how}")
        return session

    def _new_session(self, db: sqlite3.Connection, member: Member, device: str, now: float) -> str:
        session = new_secret()
        db.execute(
            "INSERT INTO sessions (hash, member, created, seen, device) VALUES (?, ?, ?, ?, ?)",
            (hashed(session), member.id, now, now, device[:200]),
        )
        return session

    def session(self, session: str) -> Session | None:
        """The signed-in session of a session id, or ``None`` (unknown, signed out, revoked, old)."""
        digest = hashed(session)
        rows = self.read(
            "SELECT s.hash, s.created, s.seen, s.device, m.id, m.name, m.folder, m.role, m.created,"
            " m.passphrase IS NOT NULL, m.revoked, 0 FROM sessions s JOIN members m ON m.id = s.member"
            " WHERE s.hash = ?",
            digest,
        )
        if not rows:
            return None
        row = rows[0]
        now = time.time()
        member = _member(row[4:])
        if not same(str(row[0]), digest) or member.revoked is not None or float(row[2]) < now - SESSION_DAYS * 86400:
            return None
        if float(row[2]) < now - SEEN_EVERY:
            self._seen(digest, now)
        return Session(hash=digest, member=member, created=float(row[1]), seen=float(row[2]), device=str(row[3]))

    def _seen(self, digest: str, now: float) -> None:
        """Note that a session was seen: best effort, waiting at most 50 ms for another writer
        (a server asks on its event loop, which must never wait for long)."""
        db = self.connection()
        db.execute("PRAGMA busy_timeout = 50")
        try:
            with self.write() as w:
                w.execute("UPDATE sessions SET seen = ? WHERE hash = ?", (now, digest))
        except OutputError:
            pass  # busy: the next request notes it
        finally:
            db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")

    def sessions_of(self, member: Member) -> list[Session]:
        rows = self.read(
            "SELECT hash, created, seen, device FROM sessions WHERE member = ? ORDER BY created", member.id
        )
        return [
            Session(hash=str(r[0]), member=member, created=float(r[1]), seen=float(r[2]), device=str(r[3]))
            for r in rows
        ]

    def sign_out(self, member: Member, session_hash: str | None) -> int:
        """End one session of ``member`` (by its hash) or, with ``None``, all of them."""
        with self.write() as db:
            if session_hash is None:
                ended = db.execute("DELETE FROM sessions WHERE member = ?", (member.id,)).rowcount
                self._log(db, member, "signed out everywhere")
            else:
                ended = db.execute(
                    "DELETE FROM sessions WHERE member = ? AND hash = ?", (member.id, session_hash)
                ).rowcount
                self._log(db, member, "signed out a device")
        return int(ended)

    # --- shares and the log --------------------------------------------------------------------

    def share(self, member: Member, file: str, shared: bool) -> None:
        with self.write() as db:
            if shared:
                db.execute("INSERT OR REPLACE INTO shares VALUES (?, ?, ?)", (member.id, file, time.time()))
            else:
                db.execute("DELETE FROM shares WHERE member = ? AND file = ?", (member.id, file))
            self._log(db, member, f"{'shared' if shared else 'stopped sharing'} {file}")

    def shared(self) -> list[tuple[Member, str]]:
        """Every list shared with the club (by members not revoked): (member, file)."""
        rows = self.read(
            "SELECT m.id, m.name, m.folder, m.role, m.created, 0, m.revoked, 0, s.file FROM shares s"
            " JOIN members m ON m.id = s.member WHERE m.revoked IS NULL ORDER BY m.name, s.file"
        )
        return [(_member(row[:8]), str(row[8])) for row in rows]

    def is_shared(self, member: Member, file: str) -> bool:
        return bool(self.read("SELECT 1 FROM shares WHERE member = ? AND file = ?", member.id, file))

    def note(self, member: Member | None, what: str) -> None:
        """Add ``what`` to the activity log (never a secret)."""
        with self.write() as db:
            self._log(db, member, what)

    def log(self, limit: int = 200) -> list[Logged]:
        rows = self.read(
            "SELECT l.at, coalesce(m.name, ''), l.what FROM log l LEFT JOIN members m ON m.id = l.member"
            " ORDER BY l.id DESC LIMIT ?",
            limit,
        )
        return [Logged(at=float(r[0]), member=str(r[1]), what=str(r[2])) for r in rows]

    def _log(self, db: sqlite3.Connection, member: Member | None, what: str) -> None:
        cur = db.execute(
            "INSERT INTO log (at, member, what) VALUES (?, ?, ?)", (time.time(), member.id if member else None, what)
        )
        if cur.lastrowid is not None and cur.lastrowid % 1000 == 0:
            db.execute("DELETE FROM log WHERE id <= ?", (cur.lastrowid - MAX_LOG,))

    def _member_row(self, db: sqlite3.Connection, member_id: int) -> Member | None:
        row = db.execute(
            "SELECT id, name, folder, role, created, passphrase IS NOT NULL, revoked, 0 FROM members WHERE id = ?",
            (member_id,),
        ).fetchone()
        return _member(row) if row else None


def _member(row: tuple[Any, ...]) -> Member:
    return Member(
        id=int(row[0]),
        name=str(row[1]),
        folder=str(row[2]),
        role=str(row[3]),
        created=float(row[4]),
        has_passphrase=bool(row[5]),
        revoked=None if row[6] is None else float(row[6]),
        sessions=int(row[7]),
    )


def database(folder: Path) -> Path:
    return folder / STATE / DATABASE


def is_club(folder: Path) -> bool:
    """Whether ``folder`` is a club folder (it holds the club's database)."""
    return database(folder).is_file()


def open_store(folder: Path, *, create: bool = False) -> Store:
    """The store of the club folder ``folder`` (made, with ``create``)."""
    path = database(folder)
    if not create and not path.is_file():
        raise InputError.detailed("not a club folder", "make one first, or give the club's folder", file=folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError.detailed(
            "cannot make the club's folder", exc.strerror or str(exc), file=path.parent, hint="choose another folder"
        ) from None
    store = Store(path)
    try:
        db = store.connection()
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > VERSION:
            raise InputError.detailed(
                "this club was made by a newer listbuilder",
                f"its database is version {version}; this listbuilder reads up to {VERSION}",
                file=path,
                hint="upgrade listbuilder",
            )
        if version < VERSION:
            with store.write() as w:
                for statement in SCHEMA.split(";"):  # executescript would commit on its own
                    if statement.strip():
                        w.execute(statement)
                w.execute(f"PRAGMA user_version = {VERSION}")
    except sqlite3.DatabaseError as exc:
        raise InputError.detailed(
            "the club's database cannot be read",
            str(exc),
            file=path,
            hint="restore it from a backup (see the club's documentation)",
        ) from None
    return store

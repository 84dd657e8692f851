"""Club mode: a club folder's members, their sign-in links and sessions, and each member's lists.

``new_club`` makes a club folder and its first organiser; ``invite`` a member (or a new link for
one); ``club_members``; ``revoke``. Each returns records; a sign-in link is ``URL/join/SECRET``,
its secret shown once and stored only hashed. ``open_club`` is the club a server serves: its
store (members, sessions, shares, the log), who may do what (``allowed``) and each member's folder.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from listbuilder.api.files import write_file
from listbuilder.api.lists import check_text
from listbuilder.api.sharing import import_folder_list
from listbuilder.club.access import allowed
from listbuilder.club.layout import folder_name, lists_zip, member_folder, member_name, role_name
from listbuilder.club.layout import new_club as make_club
from listbuilder.club.limits import PER_ADDRESS, PER_MEMBER, WINDOW_SECONDS, Attempts
from listbuilder.club.store import LINK_DAYS, Logged, Member, Session, Store, is_club, open_store
from listbuilder.club.tokens import (
    MAX_PASSPHRASE,
    MIN_PASSPHRASE,
    form_token,
    hash_passphrase,
    new_secret,
    passphrase_matches,
)
from listbuilder.editing import folder as lists
from listbuilder.errors import InputError
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

DEFAULT_URL = "http://127.0.0.1:8000"
MAX_LINK_DAYS = 365


@record
class Invited(Record):
    """A member and the sign-in link just made for them (shown once: only its hash is kept)."""

    member: Member
    link: str
    expires: float
    club: str
    new: bool = True

    def as_json(self) -> dict[str, Any]:
        return {
            "club": self.club,
            "name": self.member.name,
            "role": self.member.role,
            "folder": self.member.folder,
            "new": self.new,
            "expires": _iso(self.expires),
            "link": self.link,
        }


@record
class Revoked(Record):
    member: Member
    devices: int

    def as_json(self) -> dict[str, Any]:
        return {"name": self.member.name, "signed_out_devices": self.devices}


def _iso(at: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def _days(days: float) -> float:
    if not 0 < days <= MAX_LINK_DAYS:
        raise InputError.detailed(
            f"a link cannot last {days:g} days", f"give more than 0 and at most {MAX_LINK_DAYS} days"
        )
    return days * 86400


def _link(store: Store, member: Member, days: float, club: str, by: Member | None, new: bool) -> Invited:
    seconds = _days(days)
    secret = store.new_link(member, seconds, by=by)
    url = store.setting("url", DEFAULT_URL)
    return Invited(member=member, link=f"{url}/join/{secret}", expires=time.time() + seconds, club=club, new=new)


def new_club(
    folder: Path,
    name: str,
    organiser: str,
    *,
    url: str = DEFAULT_URL,
    owner: str | None = None,
    days: float = LINK_DAYS,
) -> Invited:
    """Make ``folder`` a club with ``organiser`` its first organiser, and their sign-in link."""
    _days(days)
    _check_url(url)
    store, member = make_club(folder, name, url, organiser, owner)
    return _link(store, member, days, store.setting("name"), None, True)


def _check_url(url: str) -> None:
    if not url.startswith(("http://", "https://")) or len(url) > 500 or any(c.isspace() for c in url):
        raise InputError.detailed(
            f"'{url[:80]}' is not an address", "give the address members open, e.g. http://192.168.1.20:8000"
        )


def invite(
    folder: Path, name: str, role: str = "player", *, days: float = LINK_DAYS, by: Member | None = None
) -> Invited:
    """A new member ``name`` with ``role``, and their sign-in link; for a member already in the
    club, a new link (for another device, or to let a revoked member back in), role unchanged."""
    store = open_store(folder)
    role_name(role)
    _days(days)
    found = store.member(member_name(name))
    if found is None:
        plain = member_name(name)
        found = store.add_member(plain, folder_name(plain, store), role, by=by)
        member_folder(folder, found)
        return _link(store, found, days, store.setting("name"), by, True)
    return _link(store, found, days, store.setting("name"), by, False)


def club_members(folder: Path) -> list[Member]:
    """Every member of the club, by name."""
    return open_store(folder).members()


def revoke(folder: Path, name: str, *, by: Member | None = None) -> Revoked:
    """Sign ``name`` out on every device and end their unused links; their lists stay."""
    store = open_store(folder)
    member = store.member(name)
    if member is None:
        raise InputError.detailed(
            f"the club has no member named '{name}'",
            "the members are: " + (", ".join(m.name for m in store.members()) or "none"),
            file=folder,
        )
    return Revoked(member=member, devices=store.revoke(member, by=by))


def set_passphrase(store: Store, member: Member, passphrase: str) -> None:
    """Set ``member``'s passphrase (hashed with argon2id); an empty one removes it."""
    if not passphrase:
        store.set_passphrase(member, None)
        return
    if not MIN_PASSPHRASE <= len(passphrase) <= MAX_PASSPHRASE:
        raise InputError.detailed(
            "that passphrase is too short" if len(passphrase) < MIN_PASSPHRASE else "that passphrase is too long",
            f"a passphrase is {MIN_PASSPHRASE} to {MAX_PASSPHRASE} characters: a few words are easy to remember",
        )
    store.set_passphrase(member, hash_passphrase(passphrase))


_UNKNOWN: list[str] = []  # a hash to check a passphrase against for a name that is no member's


def check_passphrase(store: Store, name: str, passphrase: str) -> Member | None:
    """The member ``name`` if ``passphrase`` is theirs (and they are not revoked), else ``None``.
    An unknown name takes as long to refuse as a wrong passphrase: the time says nothing."""
    member = store.member(" ".join(name.split())) if name.strip() else None
    stored = store.passphrase_of(member) if member is not None else None
    if stored is None:
        if not _UNKNOWN:
            _UNKNOWN.append(hash_passphrase(new_secret()))
        passphrase_matches(_UNKNOWN[0], passphrase[:MAX_PASSPHRASE])
        return None
    if len(passphrase) > MAX_PASSPHRASE or not passphrase_matches(stored, passphrase):
        return None
    return member if member is not None and member.revoked is None else None


def member_lists(folder: Path, member: Member) -> list[str]:
    """The list files of ``member`` in the club ``folder``, by name (their names only: nothing read)."""
    path = folder / "members" / member.folder
    return lists.list_names(path) if path.is_dir() else []


def qr_text(link: str) -> str:
    """``link`` as a QR code drawn in a terminal's characters (a phone's camera reads it)."""
    import io

    import segno  # only --qr draws one

    out = io.StringIO()
    segno.make(link, error="l").terminal(out=out, compact=True)
    return out.getvalue()


def upload_list(folder: Path, catalogs: Catalogs, filename: str, data: bytes) -> str:
    """A list file uploaded into ``folder``: YAML as it is (read and judged first, so only a list
    goes in), or a text, markdown or JSON export read into a new list. Returns its file name."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise InputError.detailed(
            f"{filename} is not a text file", "upload a list file (YAML) or a list exported as text"
        ) from None
    if filename.lower().endswith((".yaml", ".yml")):
        check_text(text, catalogs, Path(filename))  # a list, readable by its rule set: else its error
        with lists.LOCK:
            file = lists.free_name(folder, filename.rsplit(".", 1)[0])
            write_file(lists.list_path(folder, file), text.encode("utf-8"), overwrite=False)
        return file
    return import_folder_list(folder, catalogs, text).file


__all__ = [
    "DEFAULT_URL",
    "MAX_PASSPHRASE",
    "MIN_PASSPHRASE",
    "PER_ADDRESS",
    "PER_MEMBER",
    "WINDOW_SECONDS",
    "Attempts",
    "Invited",
    "Logged",
    "Member",
    "Revoked",
    "Session",
    "Store",
    "allowed",
    "check_passphrase",
    "club_members",
    "form_token",
    "hash_passphrase",
    "invite",
    "is_club",
    "lists_zip",
    "member_folder",
    "member_lists",
    "new_club",
    "open_store",
    "passphrase_matches",
    "qr_text",
    "revoke",
    "set_passphrase",
    "upload_list",
]

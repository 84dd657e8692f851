"""A club folder on disk: the club's database in ``.listbuilder/``, each member's lists in
``members/<member>/``, made by ``new_club`` and reached by ``member_folder``.

A member's folder is named from their name once, when they join (``Ana`` -> ``ana``; a second
``Ana`` -> ``ana-2``), and never changes; nothing a request names becomes part of a path here.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import unicodedata
import zipfile
from collections.abc import Callable
from pathlib import Path

from listbuilder.club.store import ROLES, Member, Store, is_club, open_store
from listbuilder.editing.folder import list_names, list_path
from listbuilder.editing.history import STATE
from listbuilder.errors import Action, InputError
from listbuilder.files.reading import read_text

MEMBERS = "members"
MAX_NAME = 60  # characters of a member's name
# What of a folder's own state moves with its lists when they are adopted: undo steps, deleted
# lists and games (editing/history.py, editing/folder.py, play/games.py).
OWN_STATE = ("history", "deleted", "games")


def plain_name(name: str, limit: int, what: str) -> str:
    """A name as given (a member's, an event's), its spaces made single, checked: 1 to ``limit``
    printable characters."""
    plain = " ".join(name.split())
    if not plain or len(plain) > limit or any(unicodedata.category(c).startswith("C") for c in plain):
        raise InputError.detailed(
            f"'{name[:limit]}' cannot be {what}", f"a name is 1 to {limit} letters, digits, spaces or punctuation"
        )
    return plain


def member_name(name: str) -> str:
    """A member's name as given, checked: 1 to ``MAX_NAME`` printable characters."""
    return plain_name(name, MAX_NAME, "a member's name")


def role_name(role: str) -> str:
    if role not in ROLES:
        raise InputError.detailed(f"no role '{role}'", f"a member is one of: {', '.join(ROLES)}")
    return role


def folder_name(name: str, store: Store) -> str:
    """A new member's folder name: their name in lower case, accents dropped, other scripts
    kept, made unique in the club."""
    return slug(name, "member", lambda found: store.member_by_folder(found) is not None)


def slug(name: str, fallback: str, taken: Callable[[str], bool]) -> str:
    """A name made a file or address part: lower case, accents dropped, other scripts kept, every
    other run of characters one '-', at most 40 characters, and ``-2``, ``-3``... until not ``taken``."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name.lower()) if not unicodedata.combining(c))
    stem = re.sub(r"[^\w]+|_", "-", plain).strip("-")[:40] or fallback
    found, n = stem, 1
    while taken(found):
        n += 1
        found = f"{stem}-{n}"
    return found


def member_folder(club: Path, member: Member) -> Path:
    """The folder of ``member``'s lists (made if it is not there yet)."""
    path = club / MEMBERS / member.folder
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_club(folder: Path, name: str, url: str, organiser: str, owner: str | None = None) -> tuple[Store, Member]:
    """Make ``folder`` a club named ``name`` served at ``url``, with ``organiser`` its first
    organiser. A folder that already holds lists is refused unless ``owner`` names the member
    whose lists they become (moved into their folder with their undo steps, deleted lists and
    games; ``owner`` may be the organiser, or becomes a player)."""
    if is_club(folder):
        raise InputError.detailed(
            "this folder is a club already", "invite members to it instead", file=folder, action=Action(kind="invite")
        )
    if folder.exists() and not folder.is_dir():
        raise InputError.detailed("this is a file, not a folder", "give a folder for the club", file=folder)
    found = list_names(folder) if folder.is_dir() else []
    if found and owner is None:
        shown = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
        raise InputError.detailed(
            f"this folder holds {len(found)} list file{'s' if len(found) != 1 else ''} ({shown})",
            "nothing was moved: name the member whose lists they are, or make the club in an empty folder",
            file=folder,
            action=Action(kind="adopt"),
        )
    first = member_name(organiser)
    adopter = member_name(owner) if owner is not None else None
    store = open_store(folder, create=True)  # (makes the folder, or says why it cannot)
    store.set_setting("name", " ".join(name.split()) or folder.resolve().name)
    store.set_setting("url", url.rstrip("/"))
    made = store.add_member(first, folder_name(first, store), "organiser")
    if adopter is not None:
        heir = (
            made
            if adopter.lower() == first.lower()
            else store.add_member(adopter, folder_name(adopter, store), "player", by=made)
        )
        _adopt(folder, member_folder(folder, heir), found)
        store.note(made, f"made {len(found)} list files {heir.name}'s")
    return store, made


def _adopt(folder: Path, into: Path, names: list[str]) -> None:
    """Move the lists ``names`` of ``folder`` and its own state into the member's folder ``into``."""
    for name in names:
        os.replace(list_path(folder, name), into / name)
    for part in OWN_STATE:
        source = folder / STATE / part
        if source.is_dir() and not source.is_symlink():
            (into / STATE).mkdir(exist_ok=True)
            shutil.move(str(source), str(into / STATE / part))


def lists_zip(folder: Path, stem: str) -> bytes:
    """Every list file of ``folder`` in one zip, in a folder named ``stem``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in list_names(folder):
            text = read_text(list_path(folder, name), "list file")
            archive.writestr(f"{stem}/{name}", text)
    return out.getvalue()

"""Where a folder's games live, the lock that keeps a list's games to one change at a time, and
tidying what a killed write left there.

A list's games are ``FOLDER/.listbuilder/games/NAME.yaml/0001.yaml`` and on. Every change to
them (a new game, a tap) holds the list's games lock: the edit lock lists take
(``editing.lock``), on ``.listbuilder/games/.NAME.yaml.lock``, so it holds between the threads
of a server and between two servers of one folder alike.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from listbuilder.editing.folder import LIST_NAME, list_path
from listbuilder.editing.history import STATE, safe_folder
from listbuilder.editing.lock import locked
from listbuilder.errors import InputError, ListbuilderError

_GAME = re.compile(r"(\d{4,6})\.yaml")
_TEMP = re.compile(r"\.\d{4,6}\.yaml\.[a-z0-9_]{8}\.tmp")  # a killed game write's (``atomic_write``)
_LOCK_FILE = re.compile(r"\.(.+)\.lock")  # a killed holder's lock file (the next holder removes it)


def games_dir(folder: Path, list_name: str, create: bool = False) -> Path:
    """``FOLDER/.listbuilder/games/NAME.yaml/``, each part checked by the folder's own safe-path
    rule (``editing.history.safe_folder``: no link, no plain file on the way out of FOLDER)."""
    path = list_path(folder, list_name)  # a plain list name of this folder, or InputError
    parts = (STATE, "games", path.name)
    found = safe_folder(folder, parts, create=create)
    return found if found is not None else Path(os.path.realpath(folder)).joinpath(*parts)


def game_path(folder: Path, list_name: str, game_id: str) -> Path:
    if not isinstance(game_id, str) or not re.fullmatch(r"\d{1,6}", game_id):
        raise InputError.detailed(f"'{str(game_id)[:40]}' is not a game", "games are numbered")
    return games_dir(folder, list_name) / f"{int(game_id):04d}.yaml"


def game_ids(folder: Path, list_name: str) -> list[str]:
    """The games of a list, oldest first."""
    try:
        names = os.listdir(games_dir(folder, list_name))
    except OSError:
        return []
    found = sorted(int(m.group(1)) for n in names if (m := _GAME.fullmatch(n)))
    return [str(n) for n in found]


@contextlib.contextmanager
def games_locked(folder: Path, list_name: str, timeout: float | None = None) -> Iterator[Path]:
    """Hold the lock of a list's games (made if need be); yields their folder."""
    where = games_dir(folder, list_name, create=True)
    with locked(where, timeout):
        yield where


def tidy(folder: Path, timeout: float = 1.0) -> tuple[Path, ...]:
    """Remove the temporary files killed game writes left (``.0001.yaml.XXXXXXXX.tmp``) and the
    lock files of killed holders, each list's under its games lock (so no write of it is under
    way); a list whose games stay busy for ``timeout`` seconds is left as it is. Returns the
    files removed."""
    try:
        games = safe_folder(folder, (STATE, "games"), create=False)
    except InputError:
        return ()  # a games folder that breaks the rules is refused when a game is played
    if games is None:
        return ()
    try:
        names = os.listdir(games)
    except OSError:
        return ()
    busy = {m.group(1) for n in names if (m := _LOCK_FILE.fullmatch(n))}
    removed: list[Path] = []
    for name in sorted(n for n in names if LIST_NAME.fullmatch(n) and ".." not in n):
        try:
            leftovers = [n for n in os.listdir(games / name) if _TEMP.fullmatch(n)]
        except OSError:
            continue
        if not leftovers and name not in busy:
            continue
        try:
            with games_locked(folder, name, timeout) as where:
                for leftover in leftovers:
                    path = where / leftover
                    with contextlib.suppress(OSError):
                        if stat.S_ISREG(os.lstat(path).st_mode):
                            path.unlink()
                            removed.append(path)
        except (ListbuilderError, OSError):
            continue
    return tuple(removed)

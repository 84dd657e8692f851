"""Check the shape of a user's catalog folder, so nothing in it is silently skipped.

The loader reads ``<root>/<id>/system.yaml`` and ``<root>/<id>/factions/*.yaml`` and nothing
else; a file or folder a user meant it to read but named otherwise (``factions/club.yml``, a
``faction/`` folder, a folder with neither) or cannot read is reported here, named, with the fix.
"""

from __future__ import annotations

import os
from difflib import get_close_matches as close_matches
from pathlib import Path

from listbuilder.errors import CatalogError

SYSTEM_FILE = "system.yaml"
FACTIONS_DIR = "factions"
# Files a rule set folder may hold beside system.yaml: read by the reference and odds loaders.
RULE_SET_FILES = (SYSTEM_FILE, "reference.yaml", "odds.yaml")


def close(wanted: str, names: list[str]) -> list[str]:
    return close_matches(wanted, names, n=1, cutoff=0.6)


def _hidden(path: Path) -> bool:
    """What the loader passes over on purpose: '.git', '_drafts' (a faction file is read whatever its name)."""
    return path.name.startswith((".", "_"))


def _unreadable(path: Path) -> CatalogError | None:
    wanted = os.R_OK | (os.X_OK if path.is_dir() else 0)
    if os.access(path, wanted):
        return None
    what = "folder" if path.is_dir() else "file"
    return CatalogError.detailed(
        f"this catalog {what} cannot be read (permission denied)",
        f"give yourself read access (chmod u+r{'x' if path.is_dir() else ''}), or move it out",
        file=path,
    )


def check_user_root(root: Path) -> None:
    """Raise ``CatalogError`` for the first thing in ``root`` the loader would skip without a word."""
    if problem := _unreadable(root):
        raise problem
    held = [name for name in (SYSTEM_FILE, FACTIONS_DIR) if (root / name).exists()]
    if held:
        what = "a rule set's folder" if SYSTEM_FILE in held else "a folder of factions for one rule set"
        parent = root.absolute().parent
        raise CatalogError.detailed(
            f"this is {what} (it holds {held[0]}), not a catalog folder of rule sets",
            f"name the folder that holds it instead: {parent}",
            file=root,
            hint=f"a catalog folder holds one folder per rule set, as {parent} holds {root.absolute().name}/",
        )
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not _hidden(p)):
        if problem := _unreadable(folder):
            raise problem
        names = [p.name for p in folder.iterdir() if not _hidden(p)]
        misnamed = [] if FACTIONS_DIR in names else close(FACTIONS_DIR, [n for n in names if (folder / n).is_dir()])
        if misnamed:
            raise CatalogError.detailed(
                f"listbuilder reads factions from {FACTIONS_DIR}/, so '{misnamed[0]}/' would be skipped",
                f"rename it to {FACTIONS_DIR}",
                file=folder / misnamed[0],
            )
        if SYSTEM_FILE not in names and FACTIONS_DIR not in names:
            near = close(SYSTEM_FILE, names)
            raise CatalogError.detailed(
                f"this folder holds neither {SYSTEM_FILE} (a rule set) nor {FACTIONS_DIR}/ (factions for one)",
                (
                    f"a catalog folder holds one folder per rule set id: {folder.name}/{SYSTEM_FILE} "
                    f"and {folder.name}/{FACTIONS_DIR}/*.yaml"
                ),
                file=folder,
                hint=f"rename '{near[0]}' to '{SYSTEM_FILE}'" if near else None,
            )
        for name in names:
            path = folder / name
            if path.is_file() and name in RULE_SET_FILES and (problem := _unreadable(path)):
                raise problem
        factions = folder / FACTIONS_DIR
        if not factions.is_dir():
            continue
        if problem := _unreadable(factions):
            raise problem
        for path in sorted(p for p in factions.iterdir() if not p.name.startswith(".")):
            if path.is_file() and path.suffix == ".yaml":
                if problem := _unreadable(path):
                    raise problem
                continue
            fix = f"rename it to {path.stem}.yaml" if path.suffix in (".yml", ".YAML", ".YML") else "move it out"
            raise CatalogError.detailed(
                f"listbuilder reads only {FACTIONS_DIR}/*.yaml files, so this one would be skipped", fix, file=path
            )

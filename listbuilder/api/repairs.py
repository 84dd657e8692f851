"""Repairing a list that cannot be read: each problem at its line with the fixes the readers
already know (``Diagnosis``, ``Trouble``, ``Fix``), a text checked as it is typed, and a repair
written as any change is (``folders.change_list`` with ``ApplyFix`` or ``ReplaceText``: under the
list's lock, with its undo step, refused if the file changed since ``expect``).
"""

from __future__ import annotations

from pathlib import Path

from listbuilder.editing.folder import list_path
from listbuilder.editing.repair import ApplyFix, Diagnosis, Fix, ReplaceText, Trouble, diagnose, diagnose_file, fix_of
from listbuilder.files.reading import read_text
from listbuilder.rules.catalog import Catalogs

__all__ = [
    "ApplyFix",
    "Diagnosis",
    "Fix",
    "ReplaceText",
    "Trouble",
    "check_list_text",
    "diagnose_list",
    "fix_of",
]


def diagnose_list(folder: Path, name: str, catalogs: Catalogs) -> Diagnosis:
    """A list of ``folder`` read as ``validate`` reads it: readable, or each problem with its fixes
    (and its undo and redo depth). An ``InputError`` for a file that is no text at all."""
    path = list_path(folder, name)
    return diagnose_file(path, read_text(path, "list file"), catalogs)


def check_list_text(text: str, catalogs: Catalogs, source: Path = Path("<list>")) -> Diagnosis:
    """``text`` read through the same readers as a list file (nothing is written)."""
    return diagnose(text, catalogs, source)

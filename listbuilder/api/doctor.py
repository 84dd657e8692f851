"""The list doctor: ``fix`` an illegal list, ``fill`` a legal one to its limit, and apply an answer.

Both return a ``DoctorAnswer`` (up to three suggestions, best first, each costed and judged
by the validator); nothing is written until ``apply_suggestion`` (or the change
``ApplySuggestion``) carries one out through the same edit path as ``add`` and ``remove``,
keeping every other byte of the file. The solver (HiGHS) is imported only when a question is
actually solved (``doctor/program.py``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

from listbuilder.api.files import write_file
from listbuilder.army.listfile import parse_list
from listbuilder.army.report import build_report
from listbuilder.doctor import DoctorAnswer, Suggestion, fill, fix
from listbuilder.doctor.program import TooLarge
from listbuilder.editing.apply import apply_change
from listbuilder.editing.folder import list_path
from listbuilder.editing.history import version_of
from listbuilder.editing.plan import EditResult
from listbuilder.editing.suggestions import ApplySuggestion
from listbuilder.errors import Action, InputError
from listbuilder.files.yamldoc import Document, load_yaml, parse_yaml
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.rules.formats import ArmyList
from listbuilder.words import choose

__all__ = [
    "DoctorAnswer",
    "EditResult",
    "Suggestion",
    "apply_suggestion",
    "ask_doctor",
    "fill_list",
    "fill_text",
    "fix_list",
    "fix_text",
]


def _read(path: Path | None, text: str | None, source: Path, catalogs: Catalogs) -> tuple[ArmyList, System, str]:
    doc: Document = (
        load_yaml(path, "list file") if path is not None else parse_yaml((text or "").removeprefix("\ufeff"), source)
    )
    army, system = parse_list(doc, catalogs)
    return army, system, version_of(doc.text)


def fix_list(path: Path, catalogs: Catalogs) -> DoctorAnswer:
    """Up to three smallest changes that make the list file at ``path`` legal.

    Status 'nothing to fix' for a legal list; 'no legal list' (with ``why``) when no list of the
    units within reach obeys the rules; else 'fixed' with the suggestions."""
    started = time.monotonic()  # the time bound covers reading the list too
    army, system, basis = _read(path, None, path, catalogs)
    with _located(path):
        return fix(army, system, basis, started)


def fix_text(text: str, catalogs: Catalogs, source: Path = Path("<list>")) -> DoctorAnswer:
    """``fix_list`` of a list given as text; ``source`` names it in messages."""
    started = time.monotonic()
    army, system, basis = _read(None, text, source, catalogs)
    with _located(source):
        return fix(army, system, basis, started)


def fill_list(path: Path, catalogs: Catalogs, to: int | None = None, faction: str | None = None) -> DoctorAnswer:
    """Up to three sets of additions that keep the list legal and bring it closest to its limit.

    ``to`` aims at another total (at most the limit); ``faction`` takes additions from that
    faction only (by name, any case). Status 'filled', 'nothing to add' or 'not legal'."""
    started = time.monotonic()
    army, system, basis = _read(path, None, path, catalogs)
    return _fill(army, system, basis, to, faction, path, started)


def fill_text(
    text: str, catalogs: Catalogs, to: int | None = None, faction: str | None = None, source: Path = Path("<list>")
) -> DoctorAnswer:
    """``fill_list`` of a list given as text."""
    started = time.monotonic()
    army, system, basis = _read(None, text, source, catalogs)
    return _fill(army, system, basis, to, faction, source, started)


def _fill(
    army: ArmyList, system: System, basis: str, to: object, faction: str | None, where: Path, started: float
) -> DoctorAnswer:
    unit = system.size_unit
    if to is not None and (isinstance(to, bool) or not isinstance(to, int) or to < 1):
        raise InputError.detailed(
            f"the total to fill to must be a whole number of at least 1, found {to!r}",
            f"the total to fill to, in {unit}",
            action=Action(kind="fill-to"),
        )
    if to is None and army.limit is None:
        raise InputError.detailed(
            "this list has no limit to fill to",
            f"give a total to fill to, or set the list's '{unit}'",
            file=where,
            action=Action(kind="fill-to"),
        )
    if to is not None and army.limit is not None and to > army.limit:
        raise InputError.detailed(
            f"the total to fill to, {to:,}, is above the list's limit of {army.limit:,} {unit}",
            "a list filled past its limit is not legal",
            file=where,
            hint=f"raise '{unit}' first",
        )
    if to is not None:
        total = build_report(army, system).total
        if to < total:  # nothing can be added to reach less than there is
            raise InputError.detailed(
                f"the total to fill to, {to:,} {unit}, is below the list's total of {total:,}",
                f"give a total above {total:,}, or none to fill to the list's limit",
                file=where,
            )
    chosen = None if faction is None else system.faction_named(faction)
    with _located(where):
        return fill(army, system, to, chosen, basis, started)


@contextlib.contextmanager
def _located(where: Path) -> Iterator[None]:
    """A list too large to answer exactly is an error about that list's file."""
    try:
        yield
    except TooLarge as exc:
        raise TooLarge(exc.summary, file=where, details=list(exc.details)) from None


def apply_suggestion(path: Path, catalogs: Catalogs, suggestion: Suggestion, output: Path | None = None) -> EditResult:
    """Carry out ``suggestion`` on the list file at ``path``, in place, keeping every other byte;
    or, with ``output``, write the edited list there and leave ``path`` as it is."""
    result = apply_change(path, catalogs, ApplySuggestion(suggestion=suggestion), write=output is None)
    if output is not None:
        write_file(output, result.text.encode("utf-8"), inputs=[path], catalogs=catalogs)
    return result


ASKS: tuple[str, ...] = ("fix", "fill")  # what the doctor can be asked of a list of a folder


def ask_doctor(folder: Path, name: str, catalogs: Catalogs, ask: str) -> DoctorAnswer:
    """The list doctor's answer for a list of ``folder``: ``fix`` (the smallest changes that make it
    legal) or ``fill`` (additions that bring it closest to its limit); a ``DoctorAnswer``."""
    path = list_path(folder, name)  # InputError for anything outside the folder
    return fix_list(path, catalogs) if choose("question", ask, ASKS) == "fix" else fill_list(path, catalogs)

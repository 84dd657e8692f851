"""For rule-set authors: run a catalog's own tests, see what a points change does, print a faction book."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from listbuilder.authoring.catalogtests import CaseResult, CatalogCheck
from listbuilder.authoring.reprice import ListChange, Repricing, UnitPrice, Verdict
from listbuilder.errors import ErrorDetail, InputError
from listbuilder.rules.catalog import user_roots


def check_catalog(folder: Path, dirs: Sequence[Path] | None = None) -> CatalogCheck:
    """Load a rule set or faction folder as strictly as the loader does, then run its own tests
    (``tests/legal``, ``tests/illegal`` with ``expect:``, ``tests/costs.yaml``).

    A folder that cannot be loaded raises its located ``CatalogError``; a failing test is a
    result, not an error (``CatalogCheck.ok`` says whether all passed)."""
    from listbuilder.authoring.catalogtests import check_catalog as run

    return run(folder, user_roots(dirs))


def reprice(
    old: Path,
    new: Path | None = None,
    *,
    rev: str | None = None,
    lists: Sequence[Path] = (),
    dirs: Sequence[Path] | None = None,
) -> Repricing:
    """Every catalog unit's cost under two versions of a rule set (two folders, or a folder and a
    git revision of it), sorted by change, and each list's total and verdict before and after.

    ``lists`` are list files, or folders whose lists of this rule set are all judged."""
    from listbuilder.authoring.reprice import reprice as run

    return run(old, new, rev=rev, lists=lists, extra_roots=user_roots(dirs))


def reprice_usage() -> InputError:
    """The error for ``reprice`` given too few folders."""
    usage = "listbuilder reprice OLD NEW [LISTS...], or reprice FOLDER --rev REV [LISTS...]"
    return InputError("reprice: give two rule set folders, or one and --rev", details=[ErrorDetail(message=usage)])


__all__ = [
    "CaseResult",
    "CatalogCheck",
    "ListChange",
    "Repricing",
    "UnitPrice",
    "Verdict",
    "check_catalog",
    "reprice",
    "reprice_usage",
]

"""For rule-set authors: run a catalog's own tests, see what a points change does, print a faction book."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from listbuilder.authoring.catalogtests import CaseResult, CatalogCheck
from listbuilder.rules.catalog import user_roots


def check_catalog(folder: Path, dirs: Sequence[Path] | None = None) -> CatalogCheck:
    """Load a rule set or faction folder as strictly as the loader does, then run its own tests
    (``tests/legal``, ``tests/illegal`` with ``expect:``, ``tests/costs.yaml``).

    A folder that cannot be loaded raises its located ``CatalogError``; a failing test is a
    result, not an error (``CatalogCheck.ok`` says whether all passed)."""
    from listbuilder.authoring.catalogtests import check_catalog as run

    return run(folder, user_roots(dirs))


__all__ = ["CaseResult", "CatalogCheck", "check_catalog"]

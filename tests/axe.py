"""axe-core, the accessibility checker, run in a page a browser test has open.

Its script comes from npm's global folder (``npm install -g axe-core``, as ``.ci/run`` does); without
it a test that runs it skips, unless ``LISTBUILDER_REQUIRE_BROWSER=1``, which makes it fail. A test
that runs it is marked ``@pytest.mark.axe``, so that it looks for axe-core (conftest's
``pytest_runtest_setup``) before its fixtures start a browser. The page's context needs
``bypass_csp=True``: the page's policy lets only its own scripts run, and axe is injected.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import REQUIRE_BROWSER

if TYPE_CHECKING:
    from playwright.sync_api import Page

SERIOUS = ("serious", "critical")


_marked = False  # whether the running test is marked axe (set before its fixtures, by require)


def require(marked: bool) -> None:
    """Before a test's fixtures: note whether it is marked ``axe``, and if it is, find axe-core
    (or skip, or fail under LISTBUILDER_REQUIRE_BROWSER=1)."""
    global _marked
    _marked = marked
    if marked:
        source()


@functools.cache
def source() -> str:
    """axe-core's script (read once); a skip, or a failure under LISTBUILDER_REQUIRE_BROWSER=1, without it."""
    npm = shutil.which("npm")
    root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True).stdout.strip() if npm else ""
    path = Path(root) / "axe-core" / "axe.min.js"
    if not root or not path.is_file():
        reason = "axe-core is not installed (npm install -g axe-core)"
        if REQUIRE_BROWSER:
            pytest.fail(f"LISTBUILDER_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return path.read_text(encoding="utf-8")


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds serious or critical in the page as it stands, one line a rule it breaks:
    ``ID (IMPACT): HELP at [TARGETS]`` (the first three elements that break it); ``[]`` for none."""
    assert _marked, "mark the test @pytest.mark.axe: axe-core is looked for before its browser starts"
    page.evaluate(source())
    found = json.loads(page.evaluate("async () => JSON.stringify((await axe.run(document)).violations)"))
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in SERIOUS
    ]

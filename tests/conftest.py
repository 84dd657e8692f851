"""Shared helpers: build lists inline, run the CLI in-process, find the repo's files."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

# LISTBUILDER_SIMULATE=windows: listbuilder runs as on Windows, here and in every command or
# server a test starts (tests/simulated_windows/); before listbuilder is first imported.
SIMULATED = Path(__file__).resolve().parent / "simulated_windows"
SIMULATING = os.environ.get("LISTBUILDER_SIMULATE") == "windows"
if SIMULATING:
    sys.path.insert(0, str(SIMULATED))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(SIMULATED), *filter(None, [os.environ.get("PYTHONPATH")])])
    import simulate_windows

    simulate_windows.apply()

from webserver import Server, start  # noqa: E402

from listbuilder.cli import app  # noqa: E402
from listbuilder.rules.catalog import Catalogs  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


# Tests use a rule-set cache of their own, never the user's: one for each process of a run (each
# pytest-xdist worker has its own), set before any test module is imported, since some load a rule
# set as they are; the commands and servers the tests start are handed it (webserver.py).
PRIVATE_CACHE = tempfile.mkdtemp(prefix="listbuilder-test-cache-")
os.environ["LISTBUILDER_CACHE_DIR"] = PRIVATE_CACHE


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(PRIVATE_CACHE, ignore_errors=True)


def _shared_fixtures(item: pytest.Item) -> str | None:
    """The module and the module-scoped fixtures' parameters an item shares with its neighbours
    (a server, a browser, a built wheel...), or None for an item that has none."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    shared = []
    for name in getattr(item, "fixturenames", ()):
        defs = info.name2fixturedefs.get(name)
        if defs and defs[-1].scope in ("module", "class"):
            shared.append(name)
    if not shared:
        return None
    params = getattr(getattr(item, "callspec", None), "params", {})
    return item.nodeid.split("::")[0] + "".join(f"[{params[n]}]" for n in sorted(shared) if n in params)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that opens Chromium is marked ``browser`` (``-m "not browser"`` leaves them out).
    Tests that share a module's fixture run on one pytest-xdist worker (``--dist loadgroup``), which
    starts it once: one group a module, or a group for each parameter of such a fixture (the
    accessibility pages in each colour scheme and width); every other test goes where a worker is free."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        group = _shared_fixtures(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``axe`` looks for axe-core before any of its fixtures starts a browser or a
    server: without it, it skips (or fails, under LISTBUILDER_REQUIRE_BROWSER=1) at once."""
    import axe

    axe.require(item.get_closest_marker("axe") is not None)


EXAMPLES = ROOT / "examples"
# A hand-written list with comments everywhere an editor must keep them (web and CLI edit tests).
COMMENTED = """\
# Our club's warband: keep these notes!
system: might-skirmish   # the game
name: Night Shift
points: 100
units:
  # the core
  - unit: Hunter
    count: 2   # two is plenty
  - unit: Shambler   # slow
    count: 4

  # the odd ones
  - unit: Grandpa Bones
# end of file
"""
CATALOGS = ROOT / "catalogs"


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json_lines(self) -> list[dict]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


@pytest.fixture
def cli() -> Callable[..., Result]:
    """Run ``listbuilder ARGS`` in-process and capture its exit code, stdout and stderr."""
    runner = CliRunner()

    def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
        res = runner.invoke(
            app, [str(a) for a in args], env=env or {"LISTBUILDER_CATALOGS": ""}, catch_exceptions=False
        )
        return Result(res.exit_code, res.stdout, res.stderr)

    return run


@pytest.fixture(scope="session")
def catalogs() -> Catalogs:
    return Catalogs()


@pytest.fixture
def write_list(tmp_path: Path) -> Callable[..., Path]:
    """Write a list file from inline YAML (dedented) and return its path."""
    counter = iter(range(10_000))

    def write(text: str, name: str | None = None) -> Path:
        path = tmp_path / (name or f"list{next(counter)}.yaml")
        # simulating Windows, list files end their lines as Notepad does
        path.write_text(textwrap.dedent(text), encoding="utf-8", newline="\r\n" if SIMULATING else None)
        return path

    return write


def units_yaml(entries: Sequence[tuple[str, int]]) -> str:
    """``- unit: NAME / count: N`` lines for a list's ``units:``."""
    return "".join(f"  - unit: {name}\n    count: {count}\n" for name, count in entries)


# --- the browser tests (test_browser.py, test_web_browser.py): Debian's Chromium, never a download ---

CHROMIUM = Path(os.environ.get("LISTBUILDER_CHROMIUM") or "/usr/bin/chromium")
REQUIRE_BROWSER = os.environ.get("LISTBUILDER_REQUIRE_BROWSER") == "1"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if importlib.util.find_spec("playwright") is None:
        return "the 'playwright' package is not installed (pip install -e '.[test]')"
    if not CHROMIUM.is_file() or not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium executable at {CHROMIUM} (set LISTBUILDER_CHROMIUM to its path)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole module; skips without one, fails if CI requires it."""
    reason = _browser_missing()
    if reason:
        if REQUIRE_BROWSER:
            pytest.fail(f"LISTBUILDER_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Server]:
    """``listbuilder serve`` on the module's ``folder`` (each module that serves has its own), for the
    whole module; stopped with Ctrl-C at its end."""
    s = start(folder)
    yield s
    s.stop()

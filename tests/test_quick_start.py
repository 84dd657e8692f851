"""The README's quick start, run as a newcomer types it: each command it gives does what the
README says it does (a roster of the Windblade Elves with its reference sheet, kept out of git;
a test run whose outside programs are skipped when missing).

The commands are read from the README itself, so a quick start that is edited into a command
that fails, or that prints something else, fails here.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT
from pypdf import PdfReader

README = (ROOT / "README.md").read_text(encoding="utf-8")


QUICK_START = README.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def _quick_start_blocks() -> list[list[list[str]]]:
    """Each ``sh`` block of the README's Quick start section, as its commands (split at ``&&``)."""
    blocks = re.findall(r"```sh\n(.*?)```", QUICK_START, flags=re.S)
    return [[shlex.split(part) for part in block.replace("\\\n", " ").split("&&")] for block in blocks]


def _commands(program: str) -> list[list[str]]:
    return [cmd for block in _quick_start_blocks() for cmd in block if cmd and cmd[0] == program]


def test_the_quick_start_gives_two_command_lines():
    # one to install and print a roster, one to install the test tools and run the tests
    blocks = _quick_start_blocks()
    assert len(blocks) == 2, blocks
    assert [cmd[:3] for cmd in blocks[0][:2]] == [["python3", "-m", "venv"], [".", ".venv/bin/activate"]]


def test_the_quick_starts_render_prints_the_roster_it_names(cli, tmp_path, monkeypatch):
    (render,) = _commands("listbuilder")
    assert render[1] == "render", render
    # run from a fresh folder that has the repository's examples, as a clone has them
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    result = cli(*render[1:])
    assert result.exit_code == 0, result.stdout + result.stderr
    out = Path(render[render.index("-o") + 1])
    assert out.name == "roster.pdf" and (tmp_path / out).is_file()
    pages = [page.extract_text() for page in PdfReader(tmp_path / out).pages]
    # "the Windblade Elves warband and its reference sheet": the roster first, then the sheet
    assert len(pages) >= 2, len(pages)
    assert "Windblade Elves" in pages[0]
    assert any("Reference" in text or "reference" in text for text in pages[1:]), pages[1:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["examples", "roster.pdf"]  # nothing else written


def test_the_roster_the_quick_start_prints_is_ignored_by_git():
    (render,) = _commands("listbuilder")
    name = render[render.index("-o") + 1]
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT, capture_output=True, timeout=30, check=False)
    assert done.returncode == 0, f"git would commit the quick start's {name}"


def test_the_quick_starts_installs_give_the_command_and_the_test_tools():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    installs = _commands("pip")
    assert ["pip", "install", "."] in installs and ["pip", "install", "-e", ".[test]"] in installs
    # 'pip install .' gives the 'listbuilder' command the render line runs
    assert project["scripts"]["listbuilder"] == "listbuilder.cli:main"
    from listbuilder.cli import main

    assert callable(main)
    # '.[test]' names an extra that brings what the tests import
    extra = {re.split(r"[<>=\[ ]", req, maxsplit=1)[0] for req in project["optional-dependencies"]["test"]}
    assert {"pytest", "hypothesis", "pypdf"} <= extra, extra
    (pytest_line,) = _commands("python")
    assert pytest_line == ["python", "-m", "pytest"]


def test_the_tests_that_need_an_outside_program_are_skipped_without_it(tmp_path):
    # The README names tests/test_browser.py (Chromium) and tests/test_editor_schema.py
    # (yaml-language-server) as skipped without their program: run them where neither is found.
    named = sorted(set(re.findall(r"`(tests/test_\w+\.py)`", QUICK_START)))
    assert named == ["tests/test_browser.py", "tests/test_editor_schema.py"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LISTBUILDER_")}
    env |= {"LISTBUILDER_CHROMIUM": str(tmp_path / "no-chromium"), "PATH": str(Path(sys.executable).parent)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", *named],  # one process: 2 files
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    summary = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.fullmatch(r"\d+ skipped in [\d.]+s( \([\d:]+\))?", summary), summary


def test_the_readmes_serve_advice_leaves_the_repository_as_shipped():
    # Issue 31.9: `serve examples` and one Add edited a shipped list. The README serves a copy,
    # and what any served folder keeps beside its lists (.listbuilder/) is never committed.
    served = re.findall(r"`(cp -r examples (\S+) && listbuilder serve (\S+))`", README)
    assert served and all(copy == folder for _, copy, folder in served), served
    assert "listbuilder serve examples" not in README
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for name in ("examples/.listbuilder/history/x.yaml", ".listbuilder/games/a/0001.yaml", "my-lists/a.yaml"):
        done = subprocess.run(
            ["git", "check-ignore", "-q", name], cwd=ROOT, capture_output=True, timeout=30, check=False
        )
        assert done.returncode == 0, f"git would commit {name}"


def test_the_readme_names_every_outside_program_the_tests_need():
    for program, install in (
        ("Chromium", "apt-get install chromium"),
        ("axe-core", "npm install -g axe-core"),
        ("yaml-language-server", "npm install -g yaml-language-server"),
    ):
        assert re.search(rf"\| {re.escape(program)} \| `[^`]*{re.escape(install)}`", README), program

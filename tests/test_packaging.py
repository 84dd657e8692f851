"""The installed package stands alone: a wheel carries its catalogs, templates and static files, and
runs from outside the repository. (What a command loads at start-up is measured in benchmarks/.)"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

# What `listbuilder --help` lists, in its order: a list's everyday commands first, the authors' last.
COMMANDS = [
    "validate", "points", "cost", "systems", "catalog", "diff", "render", "card", "fix", "fill", "new",
    "add", "update", "remove", "set", "schema", "export", "import", "odds", "serve", "check-catalog", "reprice",
    "book", "club", "event",
]  # fmt: skip


def test_help_lists_every_command_in_order_and_a_typo_gets_a_suggestion(cli):
    import typer.main

    from listbuilder.cli import app

    assert list(typer.main.get_command(app).commands) == COMMANDS  # every command there is
    help_text = cli("--help").stdout
    listed = help_text[help_text.index("Commands") :]
    names = [n for n in re.findall(r"^[│ ]+([a-z][a-z-]*) +[A-Z]", listed, re.MULTILINE) if n in COMMANDS]
    assert names == COMMANDS
    typo = cli("valdate", "x")
    assert typo.exit_code == 2 and "Did you mean 'validate'" in typo.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (found,) = dist.glob("listbuilder-*.whl")
    return found


def test_wheel_carries_catalogs_and_templates(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "listbuilder/catalogs/might-skirmish/system.yaml" in names
    assert "listbuilder/catalogs/speed-range-power/factions/worked-examples.yaml" in names
    assert any(n.startswith("listbuilder/templates/") for n in names)
    assert "listbuilder/templates/web/list.html" in names
    assert "listbuilder/web/static/htmx.min.js" in names
    assert "listbuilder/web/static/htmx-LICENSE.txt" in names


def test_wheel_install_works_from_outside_the_repo(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    example = tmp_path / "list.yaml"
    example.write_text((EXAMPLES / "speed-range-power-ww2-platoon.legal.yaml").read_text())
    env = {**os.environ, "PYTHONPATH": str(site), "LISTBUILDER_CATALOGS": ""}
    where = subprocess.run(
        [sys.executable, "-c", "import listbuilder; print(listbuilder.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert where.stdout.startswith(str(site)), where.stdout + where.stderr
    run = subprocess.run(
        [sys.executable, "-m", "listbuilder", "validate", "--json", "list.yaml"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["total"] == 373
    systems = subprocess.run(
        [sys.executable, "-m", "listbuilder", "systems"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    shipped = [p for p in (ROOT / "catalogs").iterdir() if (p / "system.yaml").is_file()]
    assert len(systems.stdout.splitlines()) == 1 + len(shipped)

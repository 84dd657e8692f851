"""The installed package stands alone: a wheel finds its catalogs, and validate stays light."""

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

# What `listbuilder validate` must never load: each costs start-up time it does not need.
NOT_FOR_VALIDATE = {
    "jinja2", "weasyprint", "pydantic", "icepool", "jsonschema",
    "listbuilder.printing", "listbuilder.odds.api", "listbuilder.odds.dice",
    "listbuilder.editing",
    "listbuilder.share.editorschema", "listbuilder.share.exchange", "listbuilder.share.textformat",
    "listbuilder.share.textreader",
    "highspy", "numpy", "listbuilder.doctor", "listbuilder.share.qr",
    "listbuilder.web", "starlette", "uvicorn", "python_multipart", "multipart", "segno", "anyio", "h11",
    # OpenSSL's hashes cost 2 ms of every start (fractions would too, but pydantic-core, which a
    # cold catalog load needs, imports it)
    "_hashlib",
}  # fmt: skip


def test_validate_loads_nothing_it_does_not_need():
    code = (
        "import sys\n"
        "from listbuilder.cli import main\n"
        f"sys.argv = ['listbuilder', 'validate', {str(EXAMPLES / 'might-skirmish-windblade-elves.legal.yaml')!r}]\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        f"names = {sorted(NOT_FOR_VALIDATE)!r}\n"
        "loaded = sorted(n for n in names if n in sys.modules or any(m.startswith(n + '.') for m in sys.modules))\n"
        "print('LOADED', loaded, code)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert "LOADED [] 0" in out, out


def test_version_loads_no_command_and_validate_builds_only_its_own():
    code = (
        "import sys\n"
        "import typer\n"
        "before = set(sys.modules)\n"
        "from listbuilder import cli\n"
        "sys.argv = ['listbuilder', '--version']\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
        "print('VERSION', sorted(n for n in set(sys.modules) - before if 'listbuilder' in n),"
        " cli.command.cache_info().currsize)\n"
        f"sys.argv = ['listbuilder', 'validate', {str(EXAMPLES / 'might-skirmish-windblade-elves.legal.yaml')!r}]\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
        "print('VALIDATE', sorted(n for n in sys.modules if n.startswith('listbuilder.cli.')),"
        " cli.command.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert "VERSION ['listbuilder', 'listbuilder.cli', 'listbuilder.cli.commands'] 0" in out, out
    validate = ["commands", "lists", "options", "output", "views"]
    assert f"VALIDATE {[f'listbuilder.cli.{name}' for name in validate]} 1" in out, out


def test_help_lists_every_command_in_order_and_a_typo_gets_a_suggestion(cli):
    from listbuilder.cli import COMMANDS

    help_text = cli("--help").stdout
    listed = help_text[help_text.index("Commands") :]
    names = [n for n in re.findall(r"^[│ ]+([a-z][a-z-]*) +[A-Z]", listed, re.MULTILINE) if n in COMMANDS]
    assert len(COMMANDS) == 22 and names == list(COMMANDS)
    typo = cli("valdate", "x")
    assert typo.exit_code == 2 and "Did you mean 'validate'?" in typo.stderr


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

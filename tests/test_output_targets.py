"""Output paths: an output is a regular file or nothing, and never an input.

Each test points a command's ``-o`` at something a user could meet (a FIFO, ``/dev/full``, a
folder, the list itself through a link or another spelling, a template, a catalog file) and
checks the exit code, the reason, and that nothing on disk changed.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES

from listbuilder.errors import OutputError
from listbuilder.files.writing import check_target, write_output

pytestmark = pytest.mark.platform  # holds on Windows too: run again simulating it (.ci/run)

LEGAL = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: the bytes of files, the kind of anything else."""
    found: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        if stat.S_ISREG(st.st_mode):
            found[str(p.relative_to(folder))] = p.read_bytes()
        else:
            found[str(p.relative_to(folder))] = stat.filemode(st.st_mode)[0] + (
                os.readlink(p) if p.is_symlink() else ""
            )
    return found


@pytest.fixture
def a_list(tmp_path) -> Path:
    path = tmp_path / "zombies.yaml"
    shutil.copy(LEGAL, path)
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["render", "{list}", "-o", "{out}.html"],
        ["render", "{list}", "-o", "{out}.pdf"],
        ["card", "might-skirmish", "-o", "{out}.pdf"],
        ["schema", "might-skirmish", "-o", "{out}.json"],
        ["export", "{list}", "-o", "{out}.txt"],
        ["import", "{export}", "-o", "{out}.yaml"],
    ],
)
def test_a_fifo_as_output_is_refused_and_stays_a_fifo(cli, tmp_path, a_list, command):
    exported = tmp_path / "post.txt"
    exported.write_text(cli("export", a_list).stdout)
    suffix = command[-1].rsplit(".", 1)[1]
    fifo = tmp_path / f"pipe.{suffix}"
    os.mkfifo(fifo)
    before = snapshot(tmp_path)
    args = [a.format(list=a_list, export=exported, out=tmp_path / "pipe") for a in command]
    result = cli(*args)
    assert result.exit_code == 3, result.stderr
    assert "is a FIFO (named pipe), not a regular file" in result.stderr
    assert "nothing was written" in result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("command", "code", "message"),
    [
        (["schema", "might-skirmish"], 3, "the output path is a device node, not a regular file"),
        (["card", "deathzap"], 3, "the output path is a device node, not a regular file"),
        # render picks PDF or HTML by the name's ending, so a name without one is refused first
        (["render", str(LEGAL)], 2, "cannot tell what to write from the name 'full'"),
    ],
)
def test_dev_full_stays_a_device(cli, command, code, message):
    result = cli(*command, "-o", "/dev/full")
    assert result.exit_code == code, result.stderr
    # the path as the system writes it: with '\\' where listbuilder runs as on Windows (.ci/run)
    assert re.search(rf"[/\\]dev[/\\]full: {re.escape(message)}", result.stderr), result.stderr
    st = os.stat("/dev/full")
    assert stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) == 1 and os.minor(st.st_rdev) == 7


def test_a_link_named_like_a_pdf_to_dev_full_is_refused(cli, tmp_path):
    link = tmp_path / "roster.pdf"
    link.symlink_to("/dev/full")
    result = cli("render", LEGAL, "-o", link)
    assert result.exit_code == 3 and "device node" in result.stderr
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_folder_as_output_is_refused(cli, tmp_path, a_list):
    folder = tmp_path / "out.pdf"
    folder.mkdir()
    (folder / "keep").write_text("x")
    before = snapshot(tmp_path)
    result = cli("render", a_list, "-o", folder)
    assert result.exit_code == 3 and "the output path is a folder" in result.stderr
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("spelling", ["link", "hardlink", "dotdot", "relative"])
def test_export_over_its_own_list_in_any_spelling_is_refused(cli, tmp_path, a_list, spelling, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sub = tmp_path / "sub"
    sub.mkdir()
    target = {
        "link": tmp_path / "link.yaml",
        "hardlink": tmp_path / "hard.yaml",
        "dotdot": sub / ".." / "zombies.yaml",
        "relative": Path("./sub/../zombies.yaml"),
    }[spelling]
    if spelling == "link":
        target.symlink_to(a_list)
    if spelling == "hardlink":
        os.link(a_list, target)
    before = snapshot(tmp_path)
    result = cli("export", a_list, "--format", "yaml", "--embed", "-o", target)
    assert result.exit_code == 3, result.stderr
    assert "refusing to write over an input of this command" in result.stderr
    assert snapshot(tmp_path) == before


def test_render_over_the_opponent_list_is_refused(cli, tmp_path, a_list):
    theirs = tmp_path / "theirs.html"
    shutil.copy(EXAMPLES / "might-skirmish-monster-mash.illegal.yaml", theirs)
    before = snapshot(tmp_path)
    result = cli("render", a_list, "--vs", theirs, "-o", theirs)
    assert result.exit_code == 3 and "input of this command" in result.stderr
    assert snapshot(tmp_path) == before


def test_render_over_one_of_its_templates_is_refused(cli, tmp_path, a_list):
    templates = tmp_path / "t"
    templates.mkdir()
    (templates / "_unit.html").write_text("<p>{{ entry.name }}</p>")
    before = snapshot(tmp_path)
    result = cli("render", a_list, "--templates", templates, "-o", templates / "_unit.html")
    assert result.exit_code == 3
    assert "refusing to write over one of the files this command reads" in result.stderr
    assert snapshot(tmp_path) == before


def test_render_over_a_built_in_template_is_refused(cli, tmp_path, a_list):
    from listbuilder.printing.html import builtin_templates

    target = builtin_templates() / "document.html"
    before = target.read_bytes()
    result = cli("render", a_list, "-o", target)
    assert result.exit_code == 3 and "files this command reads" in result.stderr
    assert target.read_bytes() == before


@pytest.mark.parametrize("command", ["schema", "card", "export", "render", "fix", "fill", "import"])
def test_no_command_writes_over_a_catalog_file(cli, tmp_path, a_list, command):
    root = tmp_path / "books"
    shutil.copytree(CATALOGS / "might-skirmish", root / "house-rules")
    system = root / "house-rules" / "system.yaml"
    system.write_text(system.read_text().replace("id: might-skirmish", "id: house-rules"))
    target = {
        "schema": root / "house-rules" / "factions" / "zombie-family.yaml",
        "card": root / "house-rules" / "card.pdf",
        "export": root / "house-rules" / "reference.yaml",
        "render": root / "house-rules" / "odds.yaml.html",
        "fix": root / "house-rules" / "factions" / "zombie-family.yaml",
        "fill": root / "house-rules" / "factions" / "windblade-elves.yaml",
        "import": root / "house-rules" / "odds.yaml",
    }[command]
    illegal = tmp_path / "mash.yaml"  # 114 of 100 points: fix has a suggestion to write
    shutil.copy(EXAMPLES / "might-skirmish-monster-mash.illegal.yaml", illegal)
    roomy = tmp_path / "roomy.yaml"  # 98 of 120 points: fill has additions to write
    roomy.write_text(a_list.read_text().replace("points: 100", "points: 120"))
    text = tmp_path / "zombies.txt"
    assert cli("export", a_list, "--format", "text", "-o", text).exit_code == 0
    if not target.exists():
        target.write_text("the user's own notes")
    args = {
        "schema": ["schema", "house-rules"],
        "card": ["card", "house-rules"],
        "export": ["export", str(a_list)],
        "render": ["render", str(a_list)],
        "fix": ["fix", str(illegal)],
        "fill": ["fill", str(roomy)],
        "import": ["import", str(text)],
    }[command]
    before = snapshot(tmp_path)
    result = cli(*args, "--catalogs", root, "-o", target)
    assert result.exit_code == 3, result.stderr
    assert "files this command reads" in result.stderr
    assert snapshot(tmp_path) == before


def test_a_regular_file_that_is_no_input_is_still_overwritten(cli, tmp_path, a_list):
    out = tmp_path / "roster.html"
    out.write_text("old")
    assert cli("render", a_list, "-o", out).exit_code == 0
    assert out.read_text().lower().startswith("<!doctype html>")


def test_write_output_refuses_before_touching_anything(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    with pytest.raises(OutputError) as err:
        write_output(fifo, b"data")
    assert err.value.exit_code == 3
    check_target(tmp_path / "new-file", inputs=[tmp_path])  # a new file in an input folder is fine
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]

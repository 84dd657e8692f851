"""Broken and hostile files: each ends in a located message and exit code 2, never a traceback.

Each file in ``invalid_lists/`` starts with ``# expect:`` lines, every one of which must appear
in the error message.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

INVALID = Path(__file__).parent / "invalid_lists"
CASES = sorted(INVALID.glob("*.yaml"))


def expectations(path: Path) -> list[str]:
    return [
        line.removeprefix("# expect:").strip() for line in path.read_text().splitlines() if line.startswith("# expect:")
    ]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_invalid_list_is_refused_with_a_located_message(cli, path):
    before = path.read_bytes()
    result = cli("validate", path)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert str(path) in result.stderr
    for expected in expectations(path):
        assert expected in result.stderr, f"{expected!r} not in:\n{result.stderr}"
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == before


def test_every_case_says_what_it_expects():
    assert CASES
    assert all(expectations(p) for p in CASES)


@pytest.mark.parametrize("path", CASES[:3], ids=[p.stem for p in CASES[:3]])
def test_json_mode_prints_only_json_for_a_broken_file(cli, path):
    result = cli("validate", "--json", path)
    assert result.exit_code == 2
    (line,) = result.stdout.splitlines()
    data = json.loads(line)
    assert data["file"] == str(path) and data["legal"] is False and data["error"]


def test_not_utf8(cli, tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("system: might-skirmish\nname: Caf\xe9\nunits: []\n".encode("latin-1"))
    result = cli("validate", path)
    assert result.exit_code == 2
    assert "not UTF-8" in result.stderr and "line 2" in result.stderr


def test_binary_file(cli, tmp_path):
    path = tmp_path / "image.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = cli("validate", path)
    assert result.exit_code == 2 and "not UTF-8" in result.stderr


def test_nul_character(cli, tmp_path):
    path = tmp_path / "nul.yaml"
    path.write_text("system: might-skirmish\x00\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and "NUL" in result.stderr


def test_missing_file_and_folder(cli, tmp_path):
    missing = cli("validate", tmp_path / "nope.yaml")
    folder = cli("validate", tmp_path)
    assert missing.exit_code == 2 and "no such list file" in missing.stderr
    assert folder.exit_code == 2 and "folder" in folder.stderr


def test_deep_nesting_is_refused_not_crashed(cli, tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("system: might-skirmish\nname: x\nunits: " + "[" * 100_000 + "]" * 100_000 + "\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and "nest" in result.stderr


def test_moderate_nesting_past_our_depth_is_refused(cli, tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("system: might-skirmish\nname: x\nunits: " + "[" * 40 + "]" * 40 + "\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and "nested more than" in result.stderr


@pytest.mark.parametrize(
    "deep",
    [
        "{a: " * 100_000 + "1" + "}" * 100_000,
        "\n" + "".join(" " * i + "- \n" for i in range(0, 400, 2)),
        "\n" + "- " * 100_000 + "x",
    ],
    ids=["flow-mappings", "indented-sequences", "compact-sequences"],
)
def test_any_deep_nesting_is_refused_in_a_process_of_its_own(tmp_path, deep):
    """libyaml composes in C, one C frame a level: the depth is checked before, so even a depth
    that would overflow the C stack ends in a message (a crash would kill this process too)."""
    path = tmp_path / "deep.yaml"
    path.write_text("system: might-skirmish\nname: x\nunits: " + deep + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "listbuilder", "validate", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert "nested more than 32 levels deep" in done.stderr


def test_huge_file_is_refused_before_parsing(cli, tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("system: might-skirmish\nname: x\nunits: []\n" + "#" * (5 * 1024 * 1024))
    result = cli("validate", path)
    assert result.exit_code == 2 and "at most" in result.stderr


def test_huge_count_is_a_points_problem_answered_at_once(cli, write_list):
    path = write_list("system: might-skirmish\nname: Horde\nunits:\n  - unit: Shambler\n    count: 1000000000000\n")
    result = cli("validate", "--json", path)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["total"] == 5_000_000_000_000
    assert "4,999,999,999,900 points over the 100-point limit" in data["problems"][0]["message"]
    assert "999,999,999,984 fighters too many" in data["problems"][1]["message"]


def test_several_files_exit_with_the_worst_code(cli, tmp_path):
    good = Path(__file__).parent.parent / "examples" / "might-skirmish-zombie-family.legal.yaml"
    bad = INVALID / "unknown-unit.yaml"
    result = cli("validate", good, bad)
    assert result.exit_code == 2
    assert "legal: Zombie Family" in result.stdout
    assert "Huntr" in result.stderr


def test_the_installed_command_never_shows_a_traceback(tmp_path):
    path = tmp_path / "alias.yaml"
    path.write_text("a: &x 1\nb: *x\n")
    proc = subprocess.run(
        [sys.executable, "-m", "listbuilder", "validate", str(path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "aliases" in proc.stderr

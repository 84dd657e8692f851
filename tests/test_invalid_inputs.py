"""Broken and hostile files: each ends in a located message and exit code 2, never a traceback.

Each file in ``invalid_lists/`` starts with ``# expect:`` lines, every one of which must appear
in the error message. The tests after them write what a user could give: YAML 1.1 spellings that
read as another value (a base-60 count, ``on`` for true), a link that loops, a FIFO or a folder
where an exported list goes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

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


# --- numbers YAML 1.1 reads in another base, and its other old spellings ----------------------------


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        ("1:30", "'1:30' would be read as a base-60 (sexagesimal) number, 90"),
        ("0x10", "'0x10' would be read as a hexadecimal number, 16"),
        ("0b11", "'0b11' would be read as a binary number, 3"),
        ("010", "'010' would be read as an octal number (a leading 0 means base 8), 8"),
        ("0o17", "count must be a whole number, found '0o17'"),
    ],
)
def test_numbers_in_other_bases_are_refused(cli, write_list, count, expected):
    path = write_list(f"system: might-skirmish\nname: N\nunits:\n  - unit: Hunter\n    count: {count}\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and expected in result.stderr, result.stderr


@pytest.mark.parametrize("count", ["10", "+10", "1_0"])
def test_plain_decimal_counts_still_read(cli, write_list, count):
    path = write_list(f"system: might-skirmish\nname: N\nunits:\n  - unit: Hunter\n    count: {count}\n")
    assert cli("validate", "--json", path).json_lines()[0]["total"] == 100  # 10 Hunters at 10 points


# --- an input that is no regular file, or too big ---------------------------------------------------


def test_an_oversized_or_odd_export_is_named_with_the_right_article(cli, tmp_path):
    text = tmp_path / "zombies.txt"
    assert cli("export", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "-o", text).exit_code == 0
    big = tmp_path / "big.txt"
    big.write_text(text.read_text() + "1x Hunter - 10 points\n" * 200_000)
    result = cli("import", big)
    assert result.exit_code == 2
    assert "; an exported list is at most 4,194,304 bytes" in result.stderr
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    result = cli("import", fifo)
    assert result.exit_code == 2
    assert "this is not a regular file, so it cannot be an exported list" in result.stderr
    result = cli("import", tmp_path)
    assert result.exit_code == 2 and "this is a folder, not an exported list" in result.stderr


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("points: 1__0", "'1__0' would be read as a number with its underscores dropped, 10"),
        ("points: 1_00_", "'1_00_' would be read as a number with its underscores dropped, 100"),
        ("name: on", "'on' would be read as true (an old YAML spelling)"),
    ],
)
def test_yaml_1_1_leftovers_are_refused(cli, write_list, line, message):
    text = "system: might-skirmish\nname: T\npoints: 100\nunits:\n  - unit: Hunter\n"
    key = line.split(":")[0]
    text = "\n".join(line if row.startswith(f"{key}:") else row for row in text.splitlines()) + "\n"
    result = cli("validate", write_list(text))
    assert result.exit_code == 2 and message in result.stderr


def test_leader_on_is_refused_not_read_as_true(cli, write_list):
    result = cli(
        "validate", write_list("system: deathmelt\nname: T\nunits:\n  - unit: Colonial Marine\n    leader: on\n")
    )
    assert result.exit_code == 2 and "'on' would be read as true" in result.stderr and "write true" in result.stderr
    quoted = cli(
        "validate",
        write_list("system: deathmelt\nname: T\nfigures: 10\nunits:\n  - unit: Colonial Marine\n    leader: true\n"),
    )
    assert quoted.exit_code == 0


def test_a_symlink_loop_is_not_called_missing(cli, tmp_path):
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    result = cli("validate", tmp_path / "a.yaml")
    assert result.exit_code == 2
    assert "a symbolic link that loops back on itself" in result.stderr
    assert "no such" not in result.stderr
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    dangling = cli("validate", tmp_path / "gone.yaml")
    assert dangling.exit_code == 2 and "a symbolic link to a file that does not exist" in dangling.stderr

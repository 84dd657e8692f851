"""Names with terminal escapes, as a hostile list or catalog carries them: every command prints
them visibly (never as a control sequence that would retitle, clear or reverse the terminal),
exports still read back exactly, and tables stay aligned around the escaped text.

Costs: might-skirmish's cost = Might (004_*.txt line 48; Hunter is Soldier, Might 10).
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
ILLEGAL = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
HOSTILE_NAME = "Evil\x1b]0;pwned\x07\x1b[2J\u202eemosewa\x9b"


@pytest.mark.parametrize("command", ["validate", "points", "diff"])
def test_escape_sequences_in_names_are_printed_visibly(cli, write_list, command):
    path = write_list(
        f"""\
        system: might-skirmish
        name: "{HOSTILE_NAME.encode("unicode_escape").decode()}"
        units:
          - name: "Biter\\e[31m"
            class: Beast
            might: 6
        """
    )
    result = cli(command, path, *([path] if command == "diff" else []))
    out = result.stdout + result.stderr
    assert result.exit_code == 0, out
    for raw in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert raw not in out
    if command != "diff":  # diff of a list with itself names no unit
        assert "Evil\\x1b]0;pwned\\x07\\x1b[2J\\u202eemosewa\\u009b" in out


def test_an_escape_in_an_error_message_is_printed_visibly(cli, write_list):
    path = write_list(
        """\
        system: might-skirmish
        name: Bad
        units:
          - unit: "Hunt\\e[2Jer"
        """
    )
    result = cli("validate", path)
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr and "no unit 'Hunt\\x1b[2Jer'" in result.stderr


@pytest.mark.parametrize("fmt", ["json", "yaml", "text"])
def test_an_export_printed_to_the_terminal_is_escaped_yet_reads_back_exactly(cli, write_list, tmp_path, fmt):
    name = "Odd\x1b[2J\x7f\x85\x9b\u202eName"
    path = write_list(
        f"""\
        system: might-skirmish
        name: "{name.encode("unicode_escape").decode()}"
        units:
          - unit: Hunter
        """
    )
    printed = cli("export", path, "--format", fmt).stdout
    assert not any(c in printed for c in "\x1b\x7f\x85\x9b\u202e")
    post = tmp_path / f"post.{fmt}"
    post.write_text(printed, encoding="utf-8")
    back = cli("validate", "--json", post) if fmt == "yaml" else cli("import", post)
    if fmt == "json":
        import json

        assert json.loads(printed)["name"] == name
    if fmt != "yaml":
        post.write_text(back.stdout, encoding="utf-8")
        back = cli("validate", "--json", post)
    assert back.json_lines()[0]["name"] == name


def test_an_escaped_name_still_lines_up_in_the_points_table(cli, write_list):
    path = write_list(
        """\
        system: might-skirmish
        name: Aligned
        units:
          - name: "Biter\\e[31m"
            class: Beast
            might: 6
          - unit: Hunter
        """
    )
    rows = cli("points", path).stdout.splitlines()[1:4]
    assert rows[1].startswith("  1  Biter\\x1b[31m (custom)")
    assert len({len(row) for row in rows}) == 1, rows  # the last column is right-aligned on every row

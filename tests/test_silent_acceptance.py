"""Silent acceptance and unclear messages (issue 9, class 6): each input that was taken without a
word, or answered confusingly, run as a user meets it, with the file system checked afterwards.

Costs: might-skirmish's cost = Might (004_*.txt line 48; Hunter is Soldier, Might 10, the Zombie
Family example totals 98 of 100 points).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
ILLEGAL = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
HOSTILE_NAME = "Evil\x1b]0;pwned\x07\x1b[2J\u202eemosewa\x9b"


# --- terminal escapes ------------------------------------------------------------------------


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


# --- numbers YAML 1.1 reads in another base (the located messages are in invalid_lists/) --------


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


# --- a user catalog folder: nothing skipped without a word ---------------------------------------

FACTION = "faction: Club\nunits:\n  - name: Tin Golem\n    class: Mech\n    might: 15\n"


@pytest.mark.parametrize(
    ("layout", "named", "expected"),
    [
        ({"might-skirmish/factions/club.yml": FACTION}, "might-skirmish/factions/club.yml", "rename it to club.yaml"),
        ({"might-skirmish/faction/club.yaml": FACTION}, "might-skirmish/faction", "rename it to factions"),
        (
            {"club/units.yaml": FACTION},
            "club",
            "this folder holds neither system.yaml (a rule set) nor factions/ (factions for one)",
        ),
        ({"might-skirmish/factions/notes.txt": "x"}, "might-skirmish/factions/notes.txt", "move it out"),
    ],
)
def test_a_misnamed_file_or_folder_in_a_user_catalog_is_reported(cli, tmp_path, layout, named, expected):
    for rel, text in layout.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    result = cli("catalog", "might-skirmish", "--catalogs", tmp_path)
    assert result.exit_code == 2
    assert str(tmp_path / named) in result.stderr and expected in result.stderr, result.stderr


def test_a_well_formed_user_catalog_still_adds_its_units(cli, tmp_path):
    (tmp_path / "might-skirmish" / "factions").mkdir(parents=True)
    (tmp_path / "might-skirmish" / "factions" / "club.yaml").write_text(FACTION, encoding="utf-8")
    result = cli("catalog", "might-skirmish", "--faction", "Club", "--catalogs", tmp_path)
    assert result.exit_code == 0 and "Tin Golem" in result.stdout and "15 points" in result.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_catalog_file_is_reported(cli, tmp_path):
    faction = tmp_path / "might-skirmish" / "factions" / "club.yaml"
    faction.parent.mkdir(parents=True)
    faction.write_text(FACTION, encoding="utf-8")
    faction.chmod(0)
    try:
        result = cli("catalog", "might-skirmish", "--catalogs", tmp_path)
    finally:
        faction.chmod(0o644)
    assert result.exit_code == 2 and "cannot be read (permission denied)" in result.stderr


# --- new: a readable file name from any script ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "file_name"),
    [("ゾンビ家族", "ゾンビ家族.yaml"), ("Zombie Family", "zombie-family.yaml"), ("Ça va, l'Été", "ça-va-l-été.yaml")],
)
def test_new_names_the_file_from_a_name_in_any_script(cli, tmp_path, monkeypatch, name, file_name):
    monkeypatch.chdir(tmp_path)
    result = cli("new", "might-skirmish", "--name", name)
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([file_name, "might-skirmish.schema.json"])
    assert f"name: {name}\n" in (tmp_path / file_name).read_text(encoding="utf-8")


def test_new_asks_for_o_when_the_name_has_no_letters(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("new", "might-skirmish", "--name", "🧟🧟")
    assert result.exit_code == 2 and "choose the file with -o" in result.stderr
    assert list(tmp_path.iterdir()) == []


# --- diff ------------------------------------------------------------------------------------


def test_diff_of_lists_of_two_rule_sets_is_refused(cli):
    result = cli("diff", ZOMBIES, EXAMPLES / "deathmelt-chitter-hive.legal.yaml")
    assert result.exit_code == 2
    assert "the lists are for different rule sets: might-skirmish and deathmelt" in result.stderr
    assert "might-skirmish counts points and deathmelt counts figures" in result.stderr


def test_diff_git_with_a_missing_or_special_file_answers_at_once(cli, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for other, what in ((tmp_path / "gone.yaml", "does not exist"), (fifo, "is not a regular file")):
        started = time.monotonic()
        result = cli("diff", "--git", "z.yaml", other, "1" * 40, "100644", ZOMBIES, "2" * 40, "100644")
        assert time.monotonic() - started < 10
        assert result.exit_code == 0
        assert result.stdout.startswith(f"listbuilder diff a/z.yaml b/z.yaml (not compared: {other} {what})")


# --- import notes costs that differ ------------------------------------------------------------


def test_import_says_where_the_texts_points_differ_from_the_catalogs(cli, tmp_path):
    text = cli("export", ILLEGAL).stdout
    assert "3x Hunter - 30 points" in text
    post = tmp_path / "post.txt"
    post.write_text(text.replace("3x Hunter - 30 points", "3x Hunter - 36 points"), encoding="utf-8")
    result = cli("import", post)
    assert result.exit_code == 0
    line = text.splitlines().index("3x Hunter - 30 points") + 1
    note = f"note: {post}: line {line}: the text gives 3x Hunter as 36 points; the might-skirmish catalogs here make it"
    assert f"{note} 30\n" in result.stderr
    assert "  - unit: Hunter\n    count: 3\n" in result.stdout  # the list itself is read as ever


def test_import_of_an_unchanged_export_says_nothing_more(cli, tmp_path):
    for fmt in ("text", "markdown", "json"):
        post = tmp_path / f"post.{fmt}"
        post.write_text(cli("export", ILLEGAL, "--format", fmt).stdout, encoding="utf-8")
        result = cli("import", post)
        assert result.exit_code == 0 and result.stderr == "", (fmt, result.stderr)


def test_import_of_json_whose_total_differs_says_so(cli, tmp_path):
    text = cli("export", ILLEGAL, "--format", "json").stdout.replace('"total": 114', '"total": 100')
    post = tmp_path / "post.json"
    post.write_text(text, encoding="utf-8")
    result = cli("import", post)
    assert result.exit_code == 0
    assert "the text gives a total of 100 points; here it is 114" in result.stderr


# --- an empty list is no force -------------------------------------------------------------------


def test_an_empty_list_is_not_legal(cli, write_list):
    path = write_list("system: might-skirmish\nname: Nobody\nunits: []\n")
    result = cli("validate", path)
    assert result.exit_code == 1
    assert "NOT LEGAL: Nobody (might-skirmish), 0 of 100 points, 0 fighters" in result.stdout
    assert "no fighters yet (add some with 'listbuilder add FILE UNIT')" in result.stdout
    figures = write_list("system: deathmelt\nname: Nobody\nunits: []\n")
    assert "no figures yet (add some with 'listbuilder add FILE UNIT')" in cli("validate", figures).stdout


def test_one_model_is_enough_to_be_a_force(cli, write_list):
    path = write_list("system: might-skirmish\nname: Lone\nunits:\n  - unit: Hunter\n")
    result = cli("validate", path)
    assert result.exit_code == 0 and "no fighters yet" not in result.stdout


# --- exit codes agree with the README's table for every command ----------------------------------


def test_exit_codes_for_an_illegal_list_are_what_the_readme_says(cli, tmp_path):
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`validate`, `points`, `cost`: a list or statline breaks a rule of its rule set; `render --strict`" in readme
    draft = tmp_path / "draft.yaml"
    draft.write_bytes(ILLEGAL.read_bytes())
    one = {
        "validate": cli("validate", draft),
        "points": cli("points", draft),
        "cost": cli("cost", "speed-range-power", "--speed", "7", "--range", "24", "--power", "2"),
        "render --strict": cli("render", draft, "--strict", "-o", tmp_path / "s.html"),
        "fill": cli("fill", draft),  # fill starts from a legal list
    }
    zero = {
        "render": cli("render", draft, "-o", tmp_path / "r.html"),
        "add": cli("add", draft, "Hunter"),
        "remove": cli("remove", draft, "Hunter", "--count", "1"),
        "set": cli("set", draft, "name", "Still Too Big"),
        "export": cli("export", draft),
        "diff": cli("diff", ILLEGAL, draft),
        "odds": cli("odds", draft, draft),
        "fix": cli("fix", draft),  # it has suggestions
    }
    assert "`fix`: no change within reach makes a list legal; `fill`: a list is not legal to fill" in readme
    assert {k: r.exit_code for k, r in one.items()} == dict.fromkeys(one, 1)
    assert {k: r.exit_code for k, r in zero.items()} == dict.fromkeys(zero, 0)
    assert not (tmp_path / "s.html").exists() and (tmp_path / "r.html").is_file()
    assert "NOT LEGAL" in zero["add"].stdout


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


def test_an_unreadable_catalog_file_is_reported_even_where_tests_run_as_root(cli, tmp_path, monkeypatch):
    # Root reads any file, so the permission is taken away where the check asks for it.
    from listbuilder.rules import userfolders

    faction = tmp_path / "might-skirmish" / "factions" / "club.yaml"
    faction.parent.mkdir(parents=True)
    faction.write_text(FACTION, encoding="utf-8")
    real = os.access
    monkeypatch.setattr(userfolders.os, "access", lambda p, mode: real(p, mode) and Path(p) != faction)
    result = cli("catalog", "might-skirmish", "--catalogs", tmp_path)
    assert result.exit_code == 2
    assert f"{faction}: this catalog file cannot be read (permission denied)" in result.stderr

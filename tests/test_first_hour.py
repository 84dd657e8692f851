"""A newcomer's first hour (issue 15): each place a new user stopped, guessed or was misled,
run as the user typed it.

Costs: might-skirmish's cost = Might (004_*.txt line 48; Hunter is Soldier, Might 10);
speed-range-power's 1 per Speed, 2 per full 3" of Range, 4 per Power (006_*.txt lines 43-45).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import EXAMPLES, ROOT

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


# --- export --format yaml ----------------------------------------------------------------------


def test_export_format_yaml_writes_a_clean_list_that_validates_alike(cli, tmp_path):
    result = cli("export", ZOMBIES, "--format", "yaml")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("system: might-skirmish\nname: Zombie Family\n")
    assert "  - unit: Hunter\n    count: 2\n" in result.stdout  # catalog units by name, not written out
    assert "#" not in result.stdout
    copy = tmp_path / "copy.yaml"
    copy.write_text(result.stdout, encoding="utf-8")
    assert (
        cli("validate", "--json", copy).json_lines()[0]["total"]
        == 98
        == cli("validate", "--json", ZOMBIES).json_lines()[0]["total"]
    )


def test_export_embed_still_writes_every_unit_out_and_goes_only_with_yaml(cli):
    embedded = cli("export", ZOMBIES, "--format", "yaml", "--embed")
    assert embedded.exit_code == 0 and "  - name: Hunter\n" in embedded.stdout
    wrong = cli("export", ZOMBIES, "--format", "text", "--embed")
    assert wrong.exit_code == 2 and "written out in full only in a yaml export, not in text" in wrong.stderr
    assert "('listbuilder export FILE --format yaml --embed')" in wrong.stderr  # the command line's own hint


# --- cost: its stats, --unit with stats, options named ------------------------------------------


def test_cost_with_no_stats_lists_the_rule_sets_stats_with_an_example(cli):
    result = cli("cost", "might-skirmish")
    assert result.exit_code == 2
    assert "might-skirmish stats: Class (one of Soldier, Warrior, Beast" in result.stderr
    assert "Might (a whole number)" in result.stderr
    assert "e.g. listbuilder cost might-skirmish --class Soldier --might 1" in result.stderr
    srp = cli("cost", "speed-range-power", "--speed", "6")
    assert "Traits (any of big-guns, attacker, defender, joined by +, optional)" in srp.stderr


def test_cost_help_says_how_to_see_a_rule_sets_stats(cli):
    result = cli("cost", "--help")
    assert "'listbuilder cost SYSTEM' alone lists the rule set's stats" in " ".join(result.stdout.split())


def test_cost_of_a_catalog_unit_with_a_stat_prices_the_changed_statline(cli):
    result = cli("cost", "--json", "might-skirmish", "--unit", "Hunter", "--might", "3")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["unit"] == "Hunter with Might 3"
    assert data["stats"] == {"class": "Soldier", "might": 3} and data["total"] == 3
    plain = cli("cost", "--json", "might-skirmish", "--unit", "Hunter")
    assert json.loads(plain.stdout)["total"] == 10


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--traits", "attacker,bogus"], "unknown Traits 'bogus'"),
        (["--traits", "attacker+attacker"], "Traits: 'attacker' is listed twice"),
    ],
)
def test_an_error_about_a_list_stat_names_the_stat(cli, args, expected):
    result = cli("cost", "speed-range-power", "--speed", "6", "--range", "24", "--power", "2", *args)
    assert result.exit_code == 2
    assert expected in result.stderr, result.stderr
    assert not re.search(r"--\d", result.stderr)


# --- messages that pointed the wrong way -------------------------------------------------------


def test_odds_with_an_unknown_option_says_so_first(cli):
    result = cli("odds", "might-skirmish", "Hunter", "Hunter", "foo=bar")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown option 'foo' for might-skirmish 'attack'")
    assert "its options: attack, cover, defending, stunned" in result.stderr


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


@pytest.mark.parametrize("args", [["points", "-5"], ["--", "points", "-5"]])
def test_set_points_to_a_negative_number_says_it_must_be_at_least_1(cli, tmp_path, args):
    target = tmp_path / "z.yaml"
    target.write_bytes(ZOMBIES.read_bytes())
    result = cli("set", target, *args) if args[0] != "--" else cli("set", "--", target, *args[1:])
    assert result.exit_code == 2, result.stdout
    assert "the limit must be a whole number of at least 1, found '-5'" in result.stderr
    assert target.read_bytes() == ZOMBIES.read_bytes()


def test_points_counts_entries_from_1(cli):
    rows = cli("points", ZOMBIES).stdout.splitlines()[2:6]
    assert [r.split()[0] for r in rows] == ["1", "2", "3", "4"]


# --- measures, leaders, shadowed units, options twice --------------------------------------------


@pytest.mark.parametrize(
    ("system", "option", "expected"),
    [
        ("might-skirmish", "--figures", "might-skirmish counts a force in points, not figures"),
        ("deathmelt", "--points", "deathmelt counts a force in figures, not points"),
    ],
)
def test_new_refuses_a_measure_the_rule_set_does_not_use(cli, tmp_path, system, option, expected):
    out = tmp_path / "l.yaml"
    result = cli("new", system, "-o", out, option, "10")
    assert result.exit_code == 2 and expected in result.stderr
    assert not out.exists()


def test_new_with_the_right_measure_writes_it(cli, tmp_path):
    assert cli("new", "might-skirmish", "-o", tmp_path / "m.yaml", "--points", "150").exit_code == 0
    assert "points: 150\n" in (tmp_path / "m.yaml").read_text()


def test_leader_true_where_no_rule_counts_leaders_is_warned_with_the_rule_sets_that_have_them(cli, write_list):
    path = write_list(
        """\
        system: might-skirmish
        name: Bosses
        units:
          - unit: Hunter
            leader: true
        """
    )
    result = cli("validate", path)
    assert result.exit_code == 0  # a warning: the list is still legal
    assert (
        "warning line 4, #1 Hunter: might-skirmish has no leaders, so 'leader: true' changes nothing; "
        "rule sets with leaders: deathmelt, speed-range-power" in result.stdout
    )
    assert cli("validate", "--strict", path).exit_code == 1


def test_leader_true_where_leaders_count_is_not_warned(cli):
    result = cli("validate", EXAMPLES / "speed-range-power-sumerians.legal.yaml")
    assert result.exit_code == 0 and "changes nothing" not in result.stdout


def test_a_custom_unit_named_like_a_catalog_unit_is_warned_with_both_statlines(cli, write_list):
    path = write_list(
        """\
        system: might-skirmish
        name: Imposters
        units:
          - name: Hunter
            class: Beast
            might: 6
        """
    )
    result = cli("validate", path)
    assert result.exit_code == 0
    assert (
        "a custom unit with the name of the catalog unit Hunter: this one is Beast, Might 6, "
        "the catalog's is Soldier, Might 10" in result.stdout
    )


def test_an_embedded_copy_of_a_catalog_unit_is_not_warned(cli, tmp_path):
    embedded = tmp_path / "e.yaml"
    embedded.write_text(cli("export", ZOMBIES, "--format", "yaml", "--embed").stdout, encoding="utf-8")
    result = cli("validate", embedded)
    assert result.exit_code == 0 and "warning" not in result.stdout


def test_odds_refuses_an_option_given_twice(cli):
    result = cli("odds", "might-skirmish", "Hunter", "Hunter", "cover=partial", "cover=none")
    assert result.exit_code == 2
    assert "the option 'cover' is given twice: 'cover=partial' and 'cover=none'" in result.stderr


# --- --help wraps at word boundaries at any width ----------------------------------------------

HELP_COMMANDS = ["", "cost", "odds", "render", "export"]


def _help(command: str, width: int) -> str:
    env = {**os.environ, "COLUMNS": str(width), "LISTBUILDER_CATALOGS": ""}
    args = [sys.executable, "-m", "listbuilder", *([command] if command else []), "--help"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60, check=True)
    return done.stdout


def _words(text: str) -> str:
    return re.sub(r"-\s+", "-", " ".join(text.split()))  # a line may break after a hyphen


@pytest.mark.parametrize("width", [40, 80, 200])
def test_help_wraps_at_word_boundaries_for_any_terminal_width(width):
    from listbuilder.cli import edits, lists, matchups, prints

    docs = {"cost": lists.cost, "odds": matchups.odds, "render": prints.render, "export": edits.export}
    with ThreadPoolExecutor(4) as pool:
        helps = dict(zip(HELP_COMMANDS, pool.map(lambda c: _help(c, width), HELP_COMMANDS), strict=True))
    for command, text in helps.items():
        lines = text.splitlines()
        assert all(len(line) <= min(width, 80) for line in lines), (command, width, max(lines, key=len))
        assert "…" not in text  # nothing cut off
        if command:
            for paragraph in (docs[command].__doc__ or "").split("\n\n"):
                assert _words(paragraph) in _words(text), (command, width, paragraph)


# --- the README's promises --------------------------------------------------------------------


def test_readme_says_how_long_the_tests_take_and_what_they_need():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "about four minutes" in readme
    assert "tests/test_browser.py" in readme and "tests/test_editor_schema.py" in readme
    assert "`.ci/run` installs both, the second through npm" in readme
    assert "npm install -g --silent yaml-language-server" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_quick_starts_roster_is_ignored_by_git():
    assert "/roster.pdf" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    if (ROOT / ".git").exists():
        done = subprocess.run(
            ["git", "check-ignore", "-q", "roster.pdf"], cwd=ROOT, capture_output=True, timeout=30, check=False
        )
        assert done.returncode == 0


def test_cost_given_a_catalog_units_name_as_a_statline_points_to_unit(cli):
    result = cli("cost", "might-skirmish", "Hunter")
    assert result.exit_code == 2
    assert 'to price the catalog unit, give --unit "Hunter"' in result.stderr


# --- the API checks the same for every front end -------------------------------------------------


def test_the_api_refuses_what_the_cli_refuses(tmp_path):
    from listbuilder import api
    from listbuilder.errors import InputError

    books = api.open_catalogs([])
    ms = books.get("might-skirmish")
    cases = [
        (lambda: api.create_list(books, "might-skirmish", tmp_path / "a.yaml", None, 10, "figures"), "not figures"),
        (lambda: api.limit_option(10, 20), "give the limit in points or in figures, not both"),
        (lambda: api.list_file_name(ms, "🧟"), "cannot make a file name"),
        (lambda: api.diff_files(ZOMBIES, EXAMPLES / "deathzap-frontier-rangers.legal.yaml", books), "different rule"),
        (lambda: api.parse_stat_options(ms, ["--might", "6", "--might=7"]), "these stats cannot be used"),
        (lambda: api.price(ms, {}), "give the stats of the unit to price"),
        (lambda: api.odds(books, "might-skirmish", "Hunter", "Hunter", ["cover=none", "cover=partial"]), "twice"),
    ]
    for call, expected in cases:
        with pytest.raises(InputError) as caught:
            call()
        assert expected in caught.value.render(), caught.value.render()
    assert not (tmp_path / "a.yaml").exists()
    assert api.limit_option(None, 20) == (20, "figures") and api.limit_option(None, None) == (None, None)
    assert api.list_file_name(ms, "ゾンビ家族").name == "ゾンビ家族.yaml"
    changed = api.price(ms, api.parse_stat_options(ms, ["--might", "3"]), "Hunter")
    assert changed.unit.name == "Hunter with Might 3" and changed.total == 3 and changed.as_json()["total"] == 3


def test_the_api_import_notes_each_cost_that_differs(cli):
    from listbuilder import api

    books = api.open_catalogs([])
    text = cli("export", ZOMBIES).stdout
    assert api.import_noted(text, books).notes == ()
    changed = text.replace("2x Hunter - 20 points", "2x Hunter - 22 points")
    (note,) = api.import_noted(changed, books).notes
    assert note.endswith("the text gives 2x Hunter as 22 points; the might-skirmish catalogs here make it 20")
    assert api.import_list(changed, books) == api.import_list(text, books)  # costs are judged, never read

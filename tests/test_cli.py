"""The command contract: outputs, JSON shape, exit codes (an empty list is no force), help and version."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import EXAMPLES, ROOT

from listbuilder import __version__

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
ILLEGAL = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
COMMANDS = ["validate", "points", "cost", "systems", "catalog"]


def test_version(cli):
    result = cli("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"listbuilder {__version__}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "Example: listbuilder " + command in " ".join(result.stdout.split())


def test_validate_legal_list(cli):
    result = cli("validate", ZOMBIES)
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{ZOMBIES}: legal: Zombie Family (might-skirmish), 98 of 100 points, 14 fighters"


def test_validate_illegal_list_names_each_rule_and_entry(cli):
    result = cli("validate", MASH)
    assert result.exit_code == 1
    out = result.stdout
    assert "NOT LEGAL: Monster Mash (might-skirmish), 114 of 100 points, 9 fighters" in out
    assert "14 points over the 100-point limit (114 of 100)" in out
    assert "2 basic fighters short: 3 of 9, at least 5 needed" in out
    # entries numbered from 1 as 'points' numbers them, the line of the list file, the rule text's line
    assert "error   line 7, #1 Grandpa Bones, #2 Old Mother: 1 rare fighter too many" in out
    assert "[line 48]" not in out
    assert "rule: A warband has at most 2 fighters of the rare classes (Monster, Mech). [rules, line 48]" in out
    assert "error   line 5: 14 points over the 100-point limit (114 of 100)" in out


def test_validate_a_folder_checks_every_list_file_in_it(cli, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "b.yaml").write_text(ZOMBIES.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "a.yml").write_text(ZOMBIES.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "notes.txt").write_text("not a list", encoding="utf-8")
    (folder / ".hidden.yaml").write_text("not: a list", encoding="utf-8")
    (folder / "sub").mkdir()
    (folder / "sub" / "c.yaml").write_text(MASH.read_text(encoding="utf-8"), encoding="utf-8")
    legal = cli("validate", folder)
    assert legal.exit_code == 0, legal.stderr
    lines = legal.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [str(folder / "a.yml"), str(folder / "b.yaml")]
    (folder / "c.yaml").write_text(MASH.read_text(encoding="utf-8"), encoding="utf-8")
    mixed = cli("validate", folder)
    assert mixed.exit_code == 1 and f"{folder / 'c.yaml'}: NOT LEGAL" in mixed.stdout


def test_validate_a_folder_without_lists_says_so(cli, tmp_path):
    result = cli("validate", tmp_path)
    assert result.exit_code == 2 and "this is a folder, not a list file" in result.stderr


def test_validate_json_shape(cli):
    result = cli("validate", "--json", ZOMBIES, MASH)
    assert result.exit_code == 1
    good, bad = result.json_lines()
    assert set(good) == {"file", "system", "name", "legal", "verdict", "total", "limit", "unit", "problems"}
    assert good == {
        "file": str(ZOMBIES),
        "system": "might-skirmish",
        "name": "Zombie Family",
        "legal": True,
        "verdict": "legal",
        "total": 98,
        "limit": 100,
        "unit": "points",
        "problems": [],
    }
    assert bad["legal"] is False and bad["total"] == 114
    assert {"severity", "rule", "message", "entry"} <= set(bad["problems"][0])
    assert bad["problems"][0]["severity"] == "error"


def test_warnings_pass_unless_strict(cli, tmp_path):
    warned = tmp_path / "warned.yaml"
    warned.write_text(
        "system: melee-module\nname: Small unit\nfigures: 40\nunits:\n  - name: Pickets\n    figures: 5\n"
    )
    relaxed = cli("validate", "--json", warned)
    strict = cli("validate", "--json", "--strict", warned)
    assert relaxed.exit_code == 0 and relaxed.json_lines()[0]["legal"] is True
    assert relaxed.json_lines()[0]["problems"][0]["severity"] == "warning"
    assert strict.exit_code == 1 and strict.json_lines()[0]["legal"] is False


def test_points_table(cli):
    result = cli("points", ZOMBIES)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"Zombie Family · Might Skirmish · {ZOMBIES}"
    assert lines[2].split() == ["1", "Hunter", "2", "10", "20"]  # counted from 1, as a player counts
    assert lines[-2].split() == ["total", "98", "of", "100"]


def test_points_json_lists_each_entry(cli):
    (data,) = cli("points", "--json", ZOMBIES).json_lines()
    assert data["entries"][0] == {
        "index": 0,
        "unit": "Hunter",
        "count": 2,
        "leader": False,
        "leaders": 0,
        "custom": False,
        "each": 10,
        "cost": 20,
    }
    assert sum(e["cost"] for e in data["entries"]) == data["total"] == 98


def test_cost_custom_statline(cli):
    result = cli("cost", "speed-range-power", "--speed", "6", "--range", "24", "--power", "2")
    assert result.exit_code == 0
    assert "30 points" in result.stdout and "legal statline" in result.stdout


def test_cost_illegal_statline_exits_1(cli):
    result = cli("cost", "speed-range-power", "--speed=7", "--range=24", "--power=2")
    assert result.exit_code == 1
    assert 'Speed 7" is not a multiple of 3' in result.stdout


def test_cost_json(cli):
    result = cli("cost", "--json", "speed-range-power", "--speed", "9", "--range", "48", "--power", "10")
    data = json.loads(result.stdout)
    assert data["total"] == 81 and data["legal"] is True
    assert [p["cost"] for p in data["parts"]] == [9, 32, 40]


def test_cost_of_a_catalog_unit(cli):
    result = cli("cost", "might-skirmish", "--unit", "hunter")
    assert result.exit_code == 0 and "10 points" in result.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["speed-range-power", "--sped", "6", "--range", "24", "--power", "2"], "did you mean 'speed'?"),
        (
            ["speed-range-power", "--speed", "six", "--range", "24", "--power", "2"],
            "Speed must be a whole number, found 'six'",
        ),
        (["speed-range-power", "--speed", "6", "--range", "24"], "the stat 'power' (Power) is missing"),
        (["might-skirmish", "--class", "Soldeir", "--might", "3"], "did you mean 'Soldier'?"),
        (["might-skirmsh", "--might", "3"], "did you mean 'might-skirmish'?"),
        (["might-skirmish", "--unit", "Huntr"], "did you mean 'Hunter'?"),
    ],
)
def test_cost_bad_options_exit_2(cli, args, expected):
    result = cli("cost", *args)
    assert result.exit_code == 2
    assert expected in result.stderr, result.stderr


def test_systems_lists_the_rule_sets(cli):
    result = cli("systems")
    assert result.exit_code == 0
    for system_id in ("deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power"):
        assert system_id in result.stdout


def test_catalog_lists_units_with_stats_and_costs(cli):
    result = cli("catalog", "speed-range-power", "--faction", "worked examples")
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if "T34 Tank" in line)
    assert 'Speed 9", Range 48", Power 10' in row and row.rstrip().endswith("81 points")
    assert "WW2 Officer (leader)" in result.stdout


def test_catalog_unknown_faction(cli):
    result = cli("catalog", "might-skirmish", "--faction", "Zombie Famly")
    assert result.exit_code == 2 and "did you mean 'Zombie Family'?" in result.stderr


def test_no_arguments_shows_help(cli):
    result = cli()
    assert "validate" in result.stdout + result.stderr


# --- an empty list is no force; exit codes for an illegal list --------------------------------------


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


def test_validate_strict_labels_a_warning_as_the_error_it_makes(cli, write_list):
    path = write_list("system: might-skirmish\nname: Bosses\nunits:\n  - unit: Hunter\n    leader: true\n")
    plain = cli("validate", path).stdout
    assert "  warning line 4, #1 Hunter:" in plain
    strict = cli("validate", "--strict", path)
    assert strict.exit_code == 1 and "NOT LEGAL" in strict.stdout
    assert (
        "  error   line 4, #1 Hunter:" in strict.stdout and "(a warning; --strict makes it an error)" in strict.stdout
    )


def test_a_title_does_not_double_its_brackets(cli):
    first = cli("points", EXAMPLES / "deathzap-frontier-rangers.legal.yaml").stdout.splitlines()[0]
    assert "))" not in first and first.startswith("Frontier Rangers patrol · Deathzap (simplified) · ")


def test_catalog_and_systems_have_json(cli):
    (listing,) = cli("catalog", "deathzap", "--json").json_lines()
    team = next(u for u in listing["units"] if u["name"] == "Ranger Fire Team")
    assert team["stats"]["weapons"] == [{"name": "Rifle", "figures": 4}, {"name": "Medium Repeater", "figures": 1}]
    assert listing["unit_of_cost"] == "figures"
    systems = json.loads(cli("systems", "--json").stdout)
    assert {s["id"]: s["extends"] for s in systems}["might-skirmish-150"] == "might-skirmish"


# --- cost: its stats, --unit with stats, options named ----------------------------------------------


def test_cost_with_no_stats_lists_the_rule_sets_stats_with_an_example(cli):
    # Asking for the stats is help, not a mistake: they go to stdout with exit 0.
    result = cli("cost", "might-skirmish")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("might-skirmish stats: Class (one of Soldier, Warrior, Beast")
    assert "Might (a whole number)" in result.stdout
    assert "e.g. listbuilder cost might-skirmish --class Soldier --might 1" in result.stdout
    assert "error" not in result.stdout
    # One stat given but not enough is still a mistake, with the same guide under it.
    srp = cli("cost", "speed-range-power", "--speed", "6")
    assert srp.exit_code == 2
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


def test_points_counts_entries_from_1(cli):
    rows = cli("points", ZOMBIES).stdout.splitlines()[2:6]
    assert [r.split()[0] for r in rows] == ["1", "2", "3", "4"]


def test_cost_given_a_catalog_units_name_as_a_statline_points_to_unit(cli):
    result = cli("cost", "might-skirmish", "Hunter")
    assert result.exit_code == 2
    assert 'to price the catalog unit, give --unit "Hunter"' in result.stderr


# --- --help wraps at word boundaries at any width ---------------------------------------------------


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

"""A list of a rule set with no standard size and no size of its own is not called legal.

Deathmelt, deathzap and melee-module are played at a size the players agree: their texts give no
points and no standard game (rule texts 000, 001 and 002; ruling 7 of the rules' README counts a
force in figures). A list of one of them without a limit would pass at any size, so its verdict is
"no size agreed": neither legal nor an error. The shipped rule sets with a standard game (Might
Skirmish's 100 points, line 48 of text 004) fill in the size a list leaves out, as ever.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES

from listbuilder.api.lists import check_list, headline
from listbuilder.errors import EXIT_BAD_INPUT, EXIT_NO_SIZE, EXIT_OK, EXIT_RULES_BROKEN, worse_exit
from listbuilder.rules.catalog import Catalogs

SHIPPED = Catalogs()

# Ten Hive Titans and their Brood Herald: each Monster counts as 3 figures in the force (deathmelt
# text, line 117: "vehicles and monsters count as 3 figures"), so 10 x 3 + 1 = 31.
TITANS = """\
system: deathmelt
name: Titan swarm
{limit}units:
  - unit: Brood Herald
  - unit: Hive Titan
    count: 10
"""


def titans(write_list, limit: str = "") -> Path:
    return write_list(TITANS.format(limit=limit))


def test_titans_without_a_size_are_not_called_legal(write_list):
    report = check_list(titans(write_list), SHIPPED)
    assert (report.total, report.models, report.limit) == (31, 11, None)
    assert report.problems == () and report.legal() and not report.size_agreed
    assert report.verdict() == "no size agreed"
    assert headline(report) == "no size agreed: Titan swarm (deathmelt), 31 figures (11 figures on the table)"


def test_titans_at_an_agreed_size_either_side_of_31(write_list):
    at = check_list(titans(write_list, "figures: 31\n"), SHIPPED)
    assert at.verdict() == "legal" and headline(at).startswith("legal: Titan swarm (deathmelt), 31 of 31 figures")
    under = check_list(titans(write_list, "figures: 30\n"), SHIPPED)
    assert under.verdict() == "not legal"
    assert [p.message for p in under.errors] == ["1 figure over the 30-figure limit (31 of 30)"]


@pytest.mark.parametrize(
    ("system", "entry", "total"),
    [
        # deathzap: units of figures (text 001, line 24), each figure 1 (ruling figures-count)
        ("deathzap", "  - unit: Ranger Squad\n    count: 2\n", 16),
        # melee-module: units of figures, Legion Section of 10 (text 002; ruling 8 for sizes)
        ("melee-module", "  - unit: Legion Section\n    count: 3\n", 30),
    ],
)
def test_every_figure_counted_rule_set_asks_for_a_size(write_list, system, entry, total):
    path = write_list(f"system: {system}\nname: Patrol\nunits:\n{entry}")
    report = check_list(path, SHIPPED)
    assert (report.total, report.verdict()) == (total, "no size agreed")
    sized = check_list(write_list(f"system: {system}\nname: Patrol\nfigures: {total}\nunits:\n{entry}"), SHIPPED)
    assert sized.verdict() == "legal"
    over = check_list(write_list(f"system: {system}\nname: P\nfigures: {total - 1}\nunits:\n{entry}"), SHIPPED)
    assert over.verdict() == "not legal"


def test_a_broken_rule_outranks_a_missing_size(write_list):
    # two Leaders where deathmelt wants exactly one (text 000, line 25)
    two = TITANS.format(limit="").replace("  - unit: Hive Titan", "  - unit: Brood Herald\n  - unit: Hive Titan")
    path = write_list(two)
    report = check_list(path, SHIPPED)
    assert report.verdict() == "not legal" and headline(report).startswith("NOT LEGAL: ")


def test_a_standard_game_fills_in_the_size(write_list):
    # might-skirmish: a standard game is 100 points (text 004, line 48)
    report = check_list(write_list("system: might-skirmish\nname: Z\nunits:\n  - unit: Hunter\n"), SHIPPED)
    assert (report.limit, report.verdict()) == (100, "legal")


def test_the_shipped_chitter_hive_is_played_at_24_figures():
    report = check_list(EXAMPLES / "deathmelt-chitter-hive.legal.yaml", SHIPPED)
    assert (report.total, report.models, report.limit, report.verdict()) == (22, 20, 24, "legal")
    assert headline(report) == "legal: Chitter Hive brood (deathmelt), 22 of 24 figures (20 figures on the table)"


# --- the command line -------------------------------------------------------------------------


def test_validate_says_no_size_agreed_and_exits_5(cli, write_list):
    path = titans(write_list)
    result = cli("validate", path)
    assert result.exit_code == EXIT_NO_SIZE == 5
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: no size agreed: Titan swarm (deathmelt), 31 figures (11 figures on the table)"
    assert "Deathmelt has no standard size: agree one with your opponent" in lines[1]
    assert lines[2].strip() == f"(listbuilder set {path} figures N)"
    assert "legal:" not in result.stdout and "NOT LEGAL" not in result.stdout
    data = cli("validate", "--json", path).json_lines()[0]
    assert (data["legal"], data["verdict"], data["limit"], data["total"]) == (True, "no size agreed", None, 31)


def test_points_says_no_size_agreed_and_exits_5(cli, write_list):
    result = cli("points", titans(write_list))
    assert result.exit_code == 5
    shown = "  no size agreed: Titan swarm (deathmelt), 31 figures (11 figures on the table)"
    assert shown in result.stdout.splitlines()
    assert cli("points", "--json", titans(write_list)).json_lines()[0]["verdict"] == "no size agreed"


def test_set_gives_the_size_and_the_list_is_legal(cli, write_list):
    path = titans(write_list)
    result = cli("set", path, "figures", "31")
    assert result.exit_code == 0 and "legal: Titan swarm (deathmelt), 31 of 31 figures" in result.stdout
    assert cli("validate", path).exit_code == EXIT_OK


def test_the_worst_list_sets_the_exit_code(cli, write_list, tmp_path):
    no_size = titans(write_list)
    legal = EXAMPLES / "deathmelt-chitter-hive.legal.yaml"
    broken = EXAMPLES / "deathmelt-two-queens.illegal.yaml"
    assert cli("validate", legal, no_size).exit_code == 5
    assert cli("validate", no_size, broken).exit_code == 1
    assert cli("validate", no_size, tmp_path / "missing.yaml").exit_code == 2
    assert worse_exit(EXIT_NO_SIZE, EXIT_OK) == EXIT_NO_SIZE
    assert worse_exit(EXIT_RULES_BROKEN, EXIT_NO_SIZE) == EXIT_RULES_BROKEN
    assert worse_exit(EXIT_NO_SIZE, EXIT_BAD_INPUT) == EXIT_BAD_INPUT


def test_new_asks_for_the_size_where_there_is_no_standard_game(cli, tmp_path):
    out = tmp_path / "hive.yaml"
    refused = cli("new", "deathmelt", "--name", "Hive", "-o", out)
    assert refused.exit_code == 2 and not out.exists()
    assert "Deathmelt has no standard size: a new list needs the size the players agreed" in refused.stderr
    assert "(e.g. --figures 24)" in refused.stderr
    made = cli("new", "deathmelt", "--name", "Hive", "-o", out, "--figures", "24")
    assert made.exit_code == 0 and "figures: 24" in out.read_text(encoding="utf-8").splitlines()
    assert "0 of 24 figures" in cli("validate", out).stdout  # (an empty force has no Leader yet: line 25)


def test_new_leaves_the_standard_game_to_the_rule_set(cli, tmp_path):
    out = tmp_path / "z.yaml"
    assert cli("new", "might-skirmish", "-o", out).exit_code == 0
    assert "points: 100" in out.read_text(encoding="utf-8").splitlines()  # text 004, line 48


def test_the_export_and_diff_name_the_verdict(cli, write_list):
    path = titans(write_list)
    text = cli("export", path, "--format", "text").stdout
    assert "31 figures, no limit (11 figures on the table), no size agreed" in text
    sized = titans(write_list, "figures: 40\n")
    assert "  verdict: no size agreed → legal" in cli("diff", path, sized).stdout

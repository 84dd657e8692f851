"""reprice: each unit's cost under two versions of a rule set, and what happens to each list's verdict."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES

GIT = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"]


def pricier_range(root: Path) -> Path:
    """speed-range-power with Range at 3 points per 3" instead of 2 (line 44)."""
    folder = root / "speed-range-power"
    shutil.copytree(CATALOGS / "speed-range-power", folder)
    system = folder / "system.yaml"
    text = system.read_text()
    assert text.count("{stat: range, points: 2, per: 3}") == 1
    system.write_text(text.replace("{stat: range, points: 2, per: 3}", "{stat: range, points: 3, per: 3}"))
    return folder


def test_two_folders_hand_computed(cli, tmp_path, write_list):
    new = pricier_range(tmp_path / "new")
    at_limit = write_list("system: speed-range-power\nname: One rifleman\npoints: 30\nunits:\n  - unit: WW2 Soldier\n")
    result = cli("reprice", CATALOGS / "speed-range-power", new, at_limit, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    units = {u["name"]: (u["old"], u["new"], u["change"]) for u in data["units"]}
    # Speed + 2 (now 3) per 3" of Range + 4 per Power, lines 43-50:
    assert units["T34 Tank"] == (81, 9 + 48 // 3 * 3 + 40, 16)  # 97
    assert units["WW2 Soldier"] == (30, 6 + 24 + 8, 8)  # 38
    assert units["WW2 Officer"] == (22, 6 + 6 + 12, 2)  # 24
    assert units["Medieval Knight"] == (22, 22, 0)  # no Range, no change
    changes = [u["change"] for u in data["units"]]
    assert changes == sorted(changes, reverse=True), "sorted by change"
    assert data["units"][0]["name"] == "T34 Tank"
    [change] = data["lists"]
    assert (change["old"]["total"], change["new"]["total"], change["old"]["legal"], change["new"]["legal"]) == (
        30,
        38,
        True,
        False,
    )
    text = cli("reprice", CATALOGS / "speed-range-power", new, at_limit).stdout
    assert "  One rifleman: 30 -> 38 of 30 points, now NOT LEGAL: 8 points over the 30-point limit (38 of 30)" in text
    assert "  T34 Tank " in text.splitlines()[1] and text.splitlines()[1].rstrip().endswith("81  ->  97  +16")
    assert "Medieval Knight" not in text and " units unchanged" in text


@pytest.fixture
def repo(tmp_path):
    """A git repository holding a might-skirmish folder, committed twice: Hunter at Might 10, then 12."""
    root = tmp_path / "repo"
    folder = root / "rules" / "might-skirmish"
    shutil.copytree(CATALOGS / "might-skirmish", folder)
    subprocess.run([*GIT, "init", "-q", str(root)], check=True)
    subprocess.run([*GIT, "-C", str(root), "add", "."], check=True)
    subprocess.run([*GIT, "-C", str(root), "commit", "-q", "-m", "v1"], check=True)
    faction = folder / "factions" / "zombie-family.yaml"
    text = faction.read_text()
    faction.write_text(text.replace("might: 10", "might: 12", 1))
    subprocess.run([*GIT, "-C", str(root), "commit", "-q", "-am", "v2"], check=True)
    return folder


def test_a_folder_against_a_git_revision(cli, repo):
    result = cli("reprice", repo, "--rev", "HEAD~1", EXAMPLES / "might-skirmish-zombie-family.legal.yaml")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"might-skirmish: {repo} at HEAD~1 -> might-skirmish: {repo}"
    assert lines[1].split() == ["Hunter", "Zombie", "Family", "10", "->", "12", "+2"]
    assert lines[2] == "  15 units unchanged"
    # Two Hunters: 98 + 2 x 2 = 102 of 100.
    assert (
        lines[-1]
        == "  Zombie Family: 98 -> 102 of 100 points, now NOT LEGAL: 2 points over the 100-point limit (102 of 100)"
    )


def test_every_list_in_a_folder(cli, repo):
    result = cli("reprice", repo, "--rev", "HEAD~1", EXAMPLES, "--json")
    names = [c["name"] for c in json.loads(result.stdout)["lists"]]
    assert names == ["Monster Mash", "Windblade Elves", "Zombie Family"], "only this rule set's lists"


@pytest.mark.parametrize("rev", ["--output=/tmp/owned", "HEAD; touch owned", "-1", "", "a b"])
def test_an_unsafe_revision_is_refused_before_git_runs(cli, repo, rev, tmp_path):
    result = cli("reprice", repo, "--rev", rev)
    assert result.exit_code == 2 and "is not a git revision" in result.stderr
    assert not Path("/tmp/owned").exists() and not (tmp_path / "owned").exists()


def test_an_unknown_revision_or_a_folder_outside_git(cli, repo, tmp_path):
    result = cli("reprice", repo, "--rev", "v9")
    assert result.exit_code == 2 and "git could not find 'v9'" in result.stderr
    outside = tmp_path / "outside" / "might-skirmish"
    shutil.copytree(CATALOGS / "might-skirmish", outside)
    result = cli("reprice", outside, "--rev", "HEAD")
    assert result.exit_code == 2 and "git could not find the repository" in result.stderr


def test_a_folder_that_did_not_exist_at_the_revision(cli, repo):
    new = repo.parent / "might-skirmish-150"
    shutil.copytree(CATALOGS / "might-skirmish-150", new)
    result = cli("reprice", new, "--rev", "HEAD")
    assert result.exit_code == 2 and "the folder did not exist at HEAD" in result.stderr


def test_bad_arguments(cli, tmp_path):
    assert cli("reprice", CATALOGS / "might-skirmish").exit_code == 2
    result = cli("reprice", CATALOGS / "might-skirmish", tmp_path)
    assert result.exit_code == 2 and "not a rule set folder" in result.stderr
    other = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"
    result = cli("reprice", CATALOGS / "might-skirmish", CATALOGS / "might-skirmish-150", other)
    assert result.exit_code == 2 and "a list of 'deathzap', not of the rule set repriced" in result.stderr


def test_a_base_against_its_variant(cli):
    result = cli("reprice", CATALOGS / "might-skirmish", CATALOGS / "might-skirmish-150", EXAMPLES)
    assert result.exit_code == 0
    assert "  Zombie Clan: 139 of 100 -> 139 of 150 points, now legal" in result.stdout
    assert "  Zombie Family: 98 -> 98 of 100 points, still legal" in result.stdout

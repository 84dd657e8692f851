"""`listbuilder diff`: what changed between two versions of a list, in game terms."""

from __future__ import annotations

import os
import shutil
import time

import pytest
from conftest import EXAMPLES

from listbuilder.api.lists import check_list
from listbuilder.share.diff import describe, diff_reports, summary

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


@pytest.fixture
def zombies(tmp_path):
    """A copy of the Zombie Family example (98 of 100 points) to edit."""
    path = tmp_path / "zombies.yaml"
    shutil.copy(ZOMBIES, path)
    return path


def variant(write_list, old_text: str, *replacements: tuple[str, str]) -> object:
    text = old_text
    for a, b in replacements:
        assert a in text
        text = text.replace(a, b)
    return write_list(text)


def test_a_change_that_crosses_the_rare_limit(write_list, catalogs):
    # might-skirmish line 48: at most 2 rare fighters. Zombie Family has one (Grandpa Bones).
    two_rare = variant(
        write_list,
        ZOMBIES.read_text(),
        ("  - unit: Cousin Sniper\n", "  - unit: Storm Treant\n"),
        ("points: 100", "points: 200"),
    )
    three_rare = variant(
        write_list,
        two_rare.read_text(),
        (
            "  - unit: Storm Treant\n",
            "  - unit: Storm Treant\n  - name: Bone Giant\n    class: Monster\n    might: 24\n",
        ),
    )
    d = diff_reports(check_list(two_rare, catalogs), check_list(three_rare, catalogs))
    assert summary(d) == "+1 Bone Giant, +24 points, now breaks: at most 2 rare fighters"
    back = diff_reports(check_list(three_rare, catalogs), check_list(two_rare, catalogs))
    assert summary(back) == "−1 Bone Giant, −24 points, no longer breaks: at most 2 rare fighters"
    assert "verdict: NOT LEGAL → legal" in describe(back)


def test_counts_limits_and_names(write_list, catalogs):
    new = variant(
        write_list,
        ZOMBIES.read_text(),
        ("    count: 4\n", "    count: 6\n"),
        ("points: 100", "points: 120"),
        ("name: Zombie Family", "name: Zombie Family II"),
    )
    d = diff_reports(check_list(ZOMBIES, catalogs), check_list(new, catalogs))
    text = describe(d)
    assert "~ Shambler 4 → 6 (+10 points)" in text
    assert "~ limit 100 points → 120 points" in text
    assert "~ name 'Zombie Family' → 'Zombie Family II'" in text
    assert d.total_change == 10 and not d.now_breaks and not d.no_longer_breaks


def test_custom_unit_stat_change(write_list, catalogs):
    old = write_list(
        "system: might-skirmish\nname: W\nunits:\n  - name: Old Mother\n    class: Monster\n    might: 20\n"
    )
    new = write_list(
        "system: might-skirmish\nname: W\nunits:\n  - name: Old Mother\n    class: Monster\n    might: 18\n"
    )
    d = diff_reports(check_list(old, catalogs), check_list(new, catalogs))
    assert summary(d) == "Old Mother changed, −2 points"
    assert "Might 20 → 18" in describe(d)


def test_the_same_list_has_no_change(catalogs):
    d = diff_reports(check_list(ZOMBIES, catalogs), check_list(ZOMBIES, catalogs))
    assert d.unchanged and summary(d) == "no change in game terms"


def test_a_broken_rule_that_stays_broken_is_not_news(write_list, catalogs):
    mash = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
    more = variant(write_list, mash.read_text(), ("    count: 3\n  - unit: Hunter", "    count: 4\n  - unit: Hunter"))
    d = diff_reports(check_list(mash, catalogs), check_list(more, catalogs))
    assert not d.now_breaks and not d.no_longer_breaks


def test_diff_command(cli, write_list):
    new = variant(write_list, ZOMBIES.read_text(), ("  - unit: Cousin Sniper\n", "  - unit: Storm Treant\n"))
    result = cli("diff", ZOMBIES, new)
    assert result.exit_code == 0
    # each change once, on a line of its own (the one-line summary is for the web and git)
    assert result.stdout.splitlines()[:3] == [
        "Zombie Family (might-skirmish): 98 → 109 points of 100 (+11)",
        "  - 1 Cousin Sniper (−7 points)",
        "  + 1 Storm Treant (+18 points)",
    ]
    assert "now breaks: A warband costs no more than the agreed points value" in result.stdout
    assert cli("diff", ZOMBIES).exit_code == 2


def test_git_driver(tmp_path):
    import shutil
    import subprocess
    import sys

    if shutil.which("git") is None:
        import pytest

        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout

    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (repo / "z.yaml").write_text(ZOMBIES.read_text())
    (repo / ".gitattributes").write_text("*.yaml diff=listbuilder\n")
    git("add", ".")
    git("commit", "-qm", "one")
    git("config", "diff.listbuilder.command", f"{sys.executable} -m listbuilder diff --git")
    (repo / "z.yaml").write_text(ZOMBIES.read_text().replace("  - unit: Cousin Sniper\n", "  - unit: Storm Treant\n"))
    (repo / "broken.yaml").write_text("units: [\n")
    git("add", "-N", "broken.yaml")
    out = git("--no-pager", "diff")
    assert "listbuilder diff a/z.yaml b/z.yaml" in out
    assert "+ 1 Storm Treant (+18 points)" in out and "now breaks: A warband costs no more than" in out
    assert "listbuilder diff a/broken.yaml b/broken.yaml (new file)" in out and "+units: [" in out


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


def test_diff_says_each_change_once(cli, zombies, tmp_path):
    old = tmp_path / "old.yaml"
    shutil.copy(zombies, old)
    cli("remove", zombies, "Hunter", "--count", "1")
    out = cli("diff", old, zombies).stdout
    assert out.count("Hunter") == 1, out
    assert out.splitlines() == [
        "Zombie Family (might-skirmish): 98 → 88 points of 100 (−10)",
        "  ~ Hunter 2 → 1 (−10 points)",
    ]

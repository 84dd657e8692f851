"""A list pasted from a forum post imports: chatter around it is skipped (and said), costs and
counts are read in the spellings people type, and a line that does not read is named."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, ROOT

POSTS = ROOT / "tests" / "forum_posts"
HEAD = "Zombie Family\nMight Skirmish (might-skirmish, catalog revision 1): 20 of 100 points, 2 fighters, legal\n\n"


def test_a_forum_post_imports_to_the_list_its_export_came_from(cli, tmp_path):
    # The post has a greeting, a sign-off, and each cost and count spelling below.
    export = tmp_path / "export.txt"
    export.write_text(cli("export", EXAMPLES / "might-skirmish-zombie-family.legal.yaml").stdout)
    from_export = cli("import", export)
    from_post = cli("import", POSTS / "zombie-family.txt")
    assert from_post.exit_code == 0, from_post.stderr
    assert from_post.stdout == from_export.stdout
    assert f"note: {POSTS / 'zombie-family.txt'}: skipped lines 1-2 before the list" in from_post.stderr
    assert "skipped lines 16-17 after the list, which are not part of it" in from_post.stderr
    assert from_export.stderr == ""  # an export has nothing to skip


@pytest.mark.parametrize("cost", ["20pts", "20 pts", "(20)", "- 20 points", "(20 pts)", "20 points", "- 20 Pts."])
def test_each_cost_spelling_reads(cli, tmp_path, cost):
    post = tmp_path / "post.txt"
    post.write_text(HEAD + f"2x Hunter {cost}\n")
    result = cli("import", post)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("units:\n  - unit: Hunter\n    count: 2\n") and result.stderr == ""


@pytest.mark.parametrize("count", ["4x", "4 x", "4 ×", "4×", "4X"])
def test_each_count_spelling_reads(cli, tmp_path, count):
    post = tmp_path / "post.txt"
    post.write_text(HEAD + f"{count} Shambler - 20 points\n")
    result = cli("import", post)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("  - unit: Shambler\n    count: 4\n")


def test_a_cost_the_catalogs_do_not_give_is_noted(cli, tmp_path):
    post = tmp_path / "post.txt"
    post.write_text(HEAD + "2x Hunter (99)\n")
    result = cli("import", post)
    assert result.exit_code == 0
    assert "line 4: the text gives 2x Hunter as 99 points; the might-skirmish catalogs here make it 20" in result.stderr


def test_a_line_in_the_middle_that_does_not_read_is_named(cli, tmp_path):
    post = tmp_path / "post.txt"
    post.write_text("Hi!\n\n" + HEAD + "2x Hunter 20pts\nplus some dice\n4x Shambler 20pts\ncheers\n")
    result = cli("import", post)
    assert result.exit_code == 2
    assert "line 7: expected an entry such as '2x Windblade - 14 points', found 'plus some dice'" in result.stderr


def test_an_entry_like_line_at_the_end_is_read_not_skipped(cli, tmp_path):
    post = tmp_path / "post.txt"
    post.write_text(HEAD + "2x Hunter 20pts\n3x Huntr 30pts\ncheers\n")
    result = cli("import", post)
    assert result.exit_code == 2 and "line 5: no unit 'Huntr' in the might-skirmish catalogs" in result.stderr


def test_a_post_with_no_list_in_it_says_what_it_expected(cli, tmp_path):
    post = tmp_path / "post.txt"
    post.write_text("Hey all, here is my list\n2x Hunter\ncheers\n")
    result = cli("import", post)
    assert result.exit_code == 2 and "line 2: expected the rule set and total" in result.stderr


def test_a_markdown_post_with_chatter_imports(cli, tmp_path):
    markdown = cli("export", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "--format", "markdown").stdout
    post = tmp_path / "post.md"
    post.write_text("Evening all! My list:\n\n" + markdown + "\nThanks for looking.\n")
    exported = tmp_path / "export.md"
    exported.write_text(markdown)
    result = cli("import", post)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == cli("import", exported).stdout
    assert "skipped line 1 before the list, which is not part of it" in result.stderr

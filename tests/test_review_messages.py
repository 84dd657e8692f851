"""A hostile review of messages a user meets on odd input: each reads as English."""

from __future__ import annotations

import os

from conftest import EXAMPLES


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

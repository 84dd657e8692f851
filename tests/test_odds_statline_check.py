"""One statline check for every command: ``odds`` refuses a statline that
``validate`` refuses in a list, with the same message, instead of answering figures for it."""

from __future__ import annotations

from pathlib import Path

import pytest

# might-skirmish: Might is a whole number of at least 1 (rules line 48).
BROKEN = [
    ("Beast, Might -5", "Might -5 is 6 below the minimum of 1"),
    ("Beast, Might 0", "Might 0 is 1 below the minimum of 1"),
]


def _validate_message(cli, tmp_path: Path, stats: str) -> str:  # type: ignore[no-untyped-def]
    klass, might = (part.strip() for part in stats.split(","))
    path = tmp_path / "one.yaml"
    path.write_text(
        "system: might-skirmish\nname: One\npoints: 100\nunits:\n"
        f"  - name: Odd\n    class: {klass}\n    might: {might.split()[1]}\n",
        encoding="utf-8",
    )
    result = cli("validate", path)
    assert result.exit_code == 1, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize(("stats", "message"), BROKEN)
def test_odds_refuses_a_statline_validate_refuses_with_its_message(cli, tmp_path, stats, message):
    shown = _validate_message(cli, tmp_path, stats)
    assert message in shown and "Might is a whole number of at least 1. [rules, line 48]" in shown
    for attacker, target in ((stats, "Beast, Might 4"), ("Beast, Might 4", stats)):
        result = cli("odds", "might-skirmish", attacker, target)
        assert result.exit_code == 2, result.stdout + result.stderr
        assert result.stdout == ""
        assert message in result.stderr
        assert "Might is a whole number of at least 1. [rules, line 48]" in result.stderr
        assert stats in result.stderr


def test_odds_answers_on_both_sides_of_the_bound(cli):
    # Might 1 is the least a fighter may have (line 48): it is answered
    result = cli("odds", "might-skirmish", "Beast, Might 1", "Beast, Might 4")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "target killed" in result.stdout


def test_a_list_matrix_refuses_a_list_with_a_broken_statline(cli, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        "system: might-skirmish\nname: Broken\npoints: 100\nunits:\n  - name: Odd\n    class: Beast\n    might: -5\n",
        encoding="utf-8",
    )
    fine = tmp_path / "fine.yaml"
    fine.write_text("system: might-skirmish\nname: Fine\npoints: 100\nunits:\n  - unit: Hunter\n", encoding="utf-8")
    for a, b in ((broken, fine), (fine, broken)):
        result = cli("odds", a, b)
        assert result.exit_code == 2, result.stdout + result.stderr
        assert "Might -5 is 6 below the minimum of 1" in result.stderr
    assert cli("odds", fine, fine).exit_code == 0

"""The list doctor's bounds: its time bound covers the whole question, and numbers past what its
solver holds exactly are refused with the bound, never answered wrongly nor ended in an internal
error (exit 4). That fix and fill stay linear in the list's length, a few validates of the same
list, is measured in benchmarks/bench_doctor_bounds.py (CPU ratios are not a unit test's to hold).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import EXAMPLES

from listbuilder.api import doctor, lists
from listbuilder.doctor import program

# Seven Windblade Elves units (might-skirmish), one to three models each: far over any limit.
UNITS = ["Windblade", "Elf Archer", "Wind Hawk", "Forest Cat", "Gale Sniper", "Bladedancer", "Duelist"]


def _big_list(path: Path, entries: int) -> Path:
    lines = "".join(f"  - unit: {UNITS[i % 7]}\n    count: {1 + i % 3}\n" for i in range(entries))
    path.write_text(f"system: might-skirmish\nname: Big {entries}\npoints: 100\nunits:\n{lines}", encoding="utf-8")
    return path


def test_the_time_bound_covers_reading_and_preparing(tmp_path, catalogs, monkeypatch):
    # With a bound shorter than reading the list takes, the refusal comes once it is read, not
    # after the slots are prepared and the answers judged (each as long again as the reading).
    path = _big_list(tmp_path / "big.yaml", 20_000)
    doctor.fix_list(_big_list(tmp_path / "small.yaml", 10), catalogs)
    started = time.monotonic()
    lists.check_list(path, catalogs)
    reading = time.monotonic() - started
    monkeypatch.setattr(program, "MAX_SECONDS", reading / 4)
    started = time.monotonic()
    with pytest.raises(program.TooLarge, match="too much work for an exact answer") as caught:
        doctor.fix_list(path, catalogs)
    took = time.monotonic() - started
    assert caught.value.file == path
    assert took < 2 * reading + 0.2, (took, reading)


def test_fix_past_the_bound_exits_2_naming_the_bound(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(program, "MAX_SECONDS", 0.001)
    path = _big_list(tmp_path / "big.yaml", 5_000)
    before = path.read_bytes()
    result = cli("fix", path, "--apply")
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "too much work for an exact answer: more than 0.001 seconds" in result.stderr
    assert str(path) in result.stderr
    assert path.read_bytes() == before


# --- numbers past what the solver holds exactly -----------------------------------------------------


ZOMBIES = (EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_text(encoding="utf-8")


def _zombies_with_shamblers(write_list, count: int):  # type: ignore[no-untyped-def]
    old = "  - unit: Shambler\n    count: 4\n"
    assert old in ZOMBIES
    return write_list(ZOMBIES.replace(old, f"  - unit: Shambler\n    count: {count}\n"))


def test_fix_of_a_million_shamblers_is_exact(cli, write_list):
    # The Zombie Family (98 points, 14 fighters) with 999,999 more Shamblers (Might 5 each, line
    # 48: cost = Might): at most 16 fighters (line 48), so at least 1,000,013 - 16 = 999,997 models
    # go, and the best lists of 16 land on the 100-point limit exactly.
    path = _zombies_with_shamblers(write_list, 1_000_003)
    result = cli("fix", "--json", path)
    assert result.exit_code == 0, result.stdout + result.stderr
    (data,) = result.json_lines()
    found = data["suggestions"]
    assert [s["models_changed"] for s in found] == [999_997] * 3
    assert all(s["legal"] and s["models"] == 16 for s in found)
    assert found[0]["total"] == 100
    # best first: fewest models changed, then the total closest to the limit
    keys = [(s["models_changed"], 100 - s["total"]) for s in found]
    assert keys == sorted(keys)


def test_fix_past_what_the_solver_holds_exactly_is_refused(cli, write_list):
    for count in (10**14, 10**29):
        path = _zombies_with_shamblers(write_list, count)
        before = path.read_bytes()
        result = cli("fix", path, "--apply")
        assert result.exit_code == 2, (count, result.stdout + result.stderr)
        assert "too large for an exact answer" in result.stderr
        assert "1,000,000,000,000,000" in result.stderr  # the bound, 10**15
        assert path.read_bytes() == before


def test_fill_to_a_huge_limit_is_refused(cli, write_list):
    # the largest limit a list may agree (rules/listformat.py): the warband's other rules (16
    # fighters at most) bound the answer, which comes at once
    path = write_list(ZOMBIES.replace("points: 100", "points: 100000"))
    result = cli("fill", path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "of 100,000 points, 16 fighters, legal" in result.stdout
    # past it, the list itself is refused where it is read
    past = write_list(ZOMBIES.replace("points: 100", "points: 1000000000000000000000000"))
    refused = cli("fill", past)
    assert refused.exit_code == 2 and "the limit must be at most 100,000" in refused.stderr


def test_a_limit_below_every_unit_names_the_limit(cli, write_list):
    # A 2-point game: the cheapest Zombie Family fighter is the Crow Swarm at Might 3 (line 48:
    # cost = Might), so only the points limit stands between this list and a legal one.
    path = write_list("system: might-skirmish\nname: Tiny\npoints: 2\nunits:\n  - unit: Hunter\n")
    result = cli("fix", path)
    assert result.exit_code == 1, result.stdout + result.stderr
    why = result.stdout.splitlines()[1]
    assert why.startswith("  no legal list: ") and why.endswith(" meets 'the points limit'"), why


def test_fix_of_a_list_with_no_units_says_what_is_missing(cli, write_list):
    # No entry and no faction used: no rule is to blame, there is nothing to field.
    path = write_list("system: might-skirmish\nname: Blank\nunits: []\n")
    result = cli("fix", path)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "meets the rules" not in result.stdout
    assert "no units to field" in result.stdout and "listbuilder fill" in result.stdout


def _many_custom_fighters(n: int) -> str:
    """A might-skirmish list of ``n`` different custom fighters (classes and Might 1-30, line 48)."""
    classes = ["Soldier", "Warrior", "Beast", "Drone", "Gunner", "Berserker", "Sniper", "Gunslinger", "Monster"]
    entries = "".join(
        f"  - name: Fighter {i}\n    class: {classes[i % 9]}\n    might: {1 + (i * 7) % 30}\n    count: {1 + i % 3}\n"
        for i in range(n)
    )
    return f"system: might-skirmish\nname: Horde\npoints: 100\nunits:\n{entries}"


def test_fix_and_fill_past_the_time_bound_are_refused(cli, write_list, monkeypatch):
    # A 4,000-entry list (240 KB) took 56 s to fix; the solver's work is bounded in time like the
    # odds' and the templates', and past the bound the answer is refused, not left running.
    from listbuilder.doctor import program

    monkeypatch.setattr(program, "MAX_SECONDS", 0.05)
    # (under MAX_PROFILES different entries, which is refused before any work: test_club_bounds.py)
    path = write_list(_many_custom_fighters(200))
    result = cli("fix", path)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "too much work for an exact answer: more than 0.05 seconds" in result.stderr
    # 200 different speed-range-power models, each legal (lines 43-45: multiples of 3, Power 1+)
    entries = "".join(
        f"  - name: Model {i}\n    speed: {3 * (i % 4)}\n    range: {3 * (i % 5)}\n    power: {1 + i % 5}\n"
        for i in range(200)
    )
    roomy = write_list(f"system: speed-range-power\nname: Host\npoints: 100000\nunits:\n{entries}")
    monkeypatch.setattr(program, "MAX_SECONDS", 0.001)  # 200 models are read in less than 0.05 s
    result = cli("fill", roomy)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "more than 0.001 seconds" in result.stderr

"""Bounded work for odds: no statline or list makes odds run for minutes.

Without bounds a Power 900 custom unit makes ``odds`` and ``render --vs`` take minutes and
gigabytes, Power 1000 ends in a ``RecursionError`` (exit 4), and a deathzap unit of 100,000 figures
never finishes. Each answers in about a second: exactly within the bounds of ``odds.bounds``, and past one
with exit code 2 naming the bound. Both sides of each bound are tested.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES

from listbuilder.odds import bounds

LISTBUILDER = str(Path(sys.executable).parent / "listbuilder")
CAMELS = EXAMPLES / "speed-range-power-camel-corps.legal.yaml"
RANGERS = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"


def run(*args: object, timeout: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {**os.environ, "LISTBUILDER_CATALOGS": ""}
    start = time.monotonic()
    done = subprocess.run([LISTBUILDER, *map(str, args)], env=env, capture_output=True, text=True, timeout=timeout)
    return done, time.monotonic() - start


def power_list(tmp_path: Path, power: int) -> Path:
    path = tmp_path / f"power{power}.yaml"
    path.write_text(
        "system: speed-range-power\nname: Big guns\npoints: 100000\nunits:\n"
        f"  - name: Colossus\n    speed: 6\n    range: 12\n    power: {power}\n  - unit: Cameleer\n"
    )
    return path


@pytest.mark.parametrize("power", [900, 1000, 10**6])
def test_odds_of_a_huge_power_is_refused_quickly_with_the_bound(tmp_path, power):
    done, took = run("odds", power_list(tmp_path, power), CAMELS)
    assert done.returncode == 2, done.stderr
    assert f"{power:,} dice in an exploding pool, and the bound is {bounds.MAX_POOL_DICE}" in done.stderr
    assert "Colossus against" in done.stderr
    assert "Traceback" not in done.stderr and took < 30


def test_render_vs_a_huge_power_writes_nothing(tmp_path):
    out = tmp_path / "roster.pdf"
    done, took = run("render", CAMELS, "--vs", power_list(tmp_path, 900), "-o", out)
    assert done.returncode == 2 and "the bound is 100" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["power900.yaml"]
    assert took < 30


def test_the_pool_bound_itself_is_answered_exactly(cli):
    at = cli("odds", "speed-range-power", 'Speed 6", Range 12", Power 100', 'Speed 6", Range 12", Power 1')
    assert at.exit_code == 0, at.stderr
    assert "target killed" in at.stdout
    past = cli("odds", "speed-range-power", 'Speed 6", Range 12", Power 101', 'Speed 6", Range 12", Power 1')
    assert past.exit_code == 2 and "101 dice in an exploding pool" in past.stderr


def horde(tmp_path: Path, figures: int, kind: str = "Infantry") -> Path:
    path = tmp_path / "horde.yaml"
    path.write_text(
        f"system: deathzap\nname: The horde\nfigures: {figures}\nunits:\n"
        f"  - name: Endless Volunteers\n    figures: {figures}\n    type: {kind}\n    weapons: [Rifle]\n"
    )
    return path


def test_a_hundred_thousand_figures_validate_and_are_refused_by_odds(tmp_path):
    path = horde(tmp_path, 100_000)
    done, took = run("validate", path)
    assert done.returncode == 0 and "100,000 of 100,000 figures" in done.stdout and took < 30
    done, took = run("odds", path, RANGERS)
    assert done.returncode == 2 and "the bound is 500" in done.stderr and took < 30
    done, took = run("odds", RANGERS, path)  # being shot at by a small unit is cheap, and exact
    assert done.returncode == 0, done.stderr
    done, took = run(
        "odds", "deathzap", "Figures 100000, Type Infantry, Weapons Rifle", "Destroyer Team", "--mechanic", "melee"
    )
    assert done.returncode == 2 and f"figures a side in a melee, and the bound is {bounds.MAX_MELEE_FIGURES}" in (
        done.stderr
    )


@pytest.mark.parametrize(
    ("figures", "kind", "refused"),
    [
        (24, "Infantry", None),  # at the figure bound
        (25, "Infantry", "25 figures a side in a melee"),
        (24, "Heavy Vehicles", None),  # 4 dice each: 96, at the dice bound
        (8, "Monsters", None),  # 12 dice each: 96
        (9, "Monsters", "108 dice a side rolls in a round of melee"),
    ],
)
def test_melee_bounds_on_both_sides(cli, figures, kind, refused):
    unit = f"Figures {figures}, Type {kind}, Weapons Rifle"
    result = cli("odds", "deathzap", unit, unit, "--mechanic", "melee")
    if refused is None:
        assert result.exit_code == 0, result.stderr
        assert "expected models removed" in result.stdout
    else:
        assert result.exit_code == 2 and refused in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("mechanic=melee",), "the mechanic is chosen apart from the situation (use --mechanic melee)"),
        (("target_fight=" + "9" * 5000,), "give a number of at most 18 digits"),
    ],
)
def test_situations_that_used_to_be_internal_errors(cli, args, message):
    result = cli("odds", "speed-range-power", "Cameleer", "Cameleer", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_a_rules_card_grid_past_the_bound_is_refused(cli, tmp_path):
    import shutil

    root = tmp_path / "books"
    shutil.copytree(CATALOGS / "deathmelt", root / "big-card")
    system = root / "big-card" / "system.yaml"
    system.write_text(system.read_text().replace("id: deathmelt", "id: big-card"))
    odds = root / "big-card" / "odds.yaml"
    odds.write_text(odds.read_text().replace("card_grid: [1, 6]", "card_grid: [1, 900]"))
    result = cli("card", "big-card", "--catalogs", root, "-o", tmp_path / "card.html")
    assert result.exit_code == 2 and "900 rows of the card's odds grid" in result.stderr
    assert not (tmp_path / "card.html").exists()
    odds.write_text(odds.read_text().replace("card_grid: [1, 900]", f"card_grid: [1, {bounds.MAX_CARD_GRID}]"))
    assert cli("card", "big-card", "--catalogs", root, "-o", tmp_path / "card.html").exit_code == 0


def test_grids_of_huge_lists_are_refused_quickly(tmp_path):
    many = tmp_path / "many.yaml"
    many.write_text(
        "system: speed-range-power\nname: Many\npoints: 100000\nunits:\n  - unit: Cameleer\n    count: 100000\n"
    )
    lines = ["system: speed-range-power", "name: Distinct", "points: 100000", "units:"]
    for i in range(201):
        lines += [f"  - name: U{i}", "    speed: 4", f"    range: {i % 24 + 1}", f"    power: {i % 10 + 1}"]
    distinct = tmp_path / "distinct.yaml"
    distinct.write_text("\n".join(lines) + "\n")
    for args, message in [
        (("odds", CAMELS, many), "100,000 models in Many for an odds grid, and the bound is 10,000"),
        (("render", CAMELS, "--vs", many, "-o", tmp_path / "r.html"), "100,000 models in Many"),
        (("odds", distinct, distinct), "40,401 different pairs of units in an odds grid, and the bound is 40,000"),
    ]:
        done, took = run(*args)
        assert done.returncode == 2 and message in done.stderr and took < 30
        assert "compare smaller lists" in done.stderr
    assert not (tmp_path / "r.html").exists()
    done, _ = run("odds", many, CAMELS)  # as the attacker, one row per entry: cheap, and answered
    assert done.returncode == 0, done.stderr

"""Edits cost what reading the list costs: an edit that composes the whole text again with the
pure-Python YAML loader makes ``add`` on 200,000 entries take ten times ``validate`` of the same
file. Each edit below must cost at most twice reading and judging the
list (``check_list``, what ``validate`` does), measured in this process's CPU seconds (the
machine is shared: wall time mostly measures the others). ``benchmarks/bench_edit.py`` gives the
whole-process figures at 200,000 entries."""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from listbuilder.api import editing, folders, lists

ENTRIES = 10_000
NAMES = ("Windblade", "Elf Archer", "Wind Hawk", "Forest Cat", "Gale Sniper", "Bladedancer", "Duelist")


def _cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("big")
    path = folder / "big.yaml"
    lines = "".join(f"  - unit: {NAMES[i % 7]}\n" for i in range(ENTRIES))
    path.write_text(f"system: might-skirmish\nname: Big\nunits:\n{lines}", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change",
    [
        editing.AddUnit(unit="Duelist"),
        editing.AddUnit(unit="Hunter"),  # a unit of another faction: a new entry at the end
        editing.RemoveUnit(unit="Wind Hawk", count=1),
        editing.RemoveUnit(unit="Forest Cat"),  # every entry of it: a seventh of the list at once
        editing.SetField(key="points", value=150),
    ],
    ids=["add-more", "add-new", "remove-one", "remove-all", "set"],
)
def test_an_edit_costs_at_most_twice_reading_the_list(big, change, catalogs, tmp_path):
    copy = tmp_path / "big.yaml"
    lists.check_list(big, catalogs)  # the rule set loaded, as in any process
    reads, edits = [], []
    for _ in range(3):
        shutil.copy(big, copy)
        reads.append(_cpu(lambda: lists.check_list(copy, catalogs)))
        edits.append(_cpu(lambda: editing.apply_change(copy, catalogs, change)))
    ratio = statistics.median(edits) / statistics.median(reads)
    assert ratio <= 2.0, f"an edit cost {ratio:.2f}x reading the list"


def test_a_builder_change_costs_at_most_twice_reading_the_list(big, catalogs, tmp_path):
    shutil.copy(big, tmp_path / "big.yaml")
    lists.check_list(big, catalogs)
    reads, changes = [], []
    for _ in range(3):
        reads.append(_cpu(lambda: lists.check_list(tmp_path / "big.yaml", catalogs)))
        changes.append(
            _cpu(lambda: folders.change_list(tmp_path, "big.yaml", catalogs, editing.AddUnit(unit="Duelist")))
        )
    ratio = statistics.median(changes) / statistics.median(reads)
    assert ratio <= 2.0, f"a change with its undo step and the builder's state cost {ratio:.2f}x reading the list"

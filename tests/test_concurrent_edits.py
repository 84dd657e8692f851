"""Edits under concurrency: every edit lands or is refused, none is lost.

Twenty ``listbuilder add`` at once must leave twenty more models in the file, not report "added 1"
twenty times over a file that kept three of them (each edit read the list before another wrote
it). These tests start real processes (and threads, as a web server would) on one list and count
every model afterwards; every wait has a deadline and says what it waited for.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from locking import at_once, counts, held_elsewhere

from listbuilder.editing import lock
from listbuilder.editing.apply import apply_change
from listbuilder.editing.changes import AddUnit, RemoveUnit
from listbuilder.editing.lock import locked
from listbuilder.errors import ConflictError, InputError
from listbuilder.rules.catalog import Catalogs

LIST = """\
# Our club's zombie list
system: might-skirmish
name: Concurrent Corpses
points: 1000
units:
  - unit: Grandpa Bones
"""
LISTBUILDER = Path(sys.executable).parent / "listbuilder"


def add_unit(path: Path, books: Catalogs, unit: str) -> object:
    return apply_change(path, books, AddUnit(unit=unit))


def start_together(commands: list[list[str]], env: dict[str, str]) -> list[subprocess.CompletedProcess[str]]:
    procs = [subprocess.Popen(c, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    done = []
    for c, p in zip(commands, procs, strict=True):
        out, err = p.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(c, p.returncode, out, err))
    return done


def test_twenty_add_processes_at_once_all_land(tmp_path):
    path = tmp_path / "conc.yaml"
    path.write_text(LIST)
    env = {**os.environ, "LISTBUILDER_CATALOGS": ""}
    hounds = [[str(LISTBUILDER), "add", str(path), "Rotting Hound"] for _ in range(14)]
    hunters = [[str(LISTBUILDER), "add", str(path), "Hunter", "--count", "2"] for _ in range(6)]
    results = start_together(hounds + hunters, env)
    for r in results:
        assert r.returncode == 0, r.stderr
        assert "added" in r.stdout
    assert counts(path) == {"Grandpa Bones": 1, "Rotting Hound": 14, "Hunter": 12}
    assert path.read_text().startswith("# Our club's zombie list\n")  # the user's bytes are kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conc.yaml"]  # no lock or temp file left


def test_adds_and_removes_from_twenty_processes_through_a_symbolic_link(tmp_path):
    real = tmp_path / "lists" / "conc.yaml"
    real.parent.mkdir()
    real.write_text(
        LIST.replace("  - unit: Grandpa Bones\n", "  - unit: Grandpa Bones\n  - unit: Shambler\n    count: 10\n")
    )
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    env = {**os.environ, "LISTBUILDER_CATALOGS": ""}
    adds = [[str(LISTBUILDER), "add", str(real if i % 2 else link), "Shambler"] for i in range(12)]
    removes = [[str(LISTBUILDER), "remove", str(link if i % 2 else real), "Shambler", "-n", "1"] for i in range(8)]
    results = start_together(adds + removes, env)
    assert [r.returncode for r in results] == [0] * 20, [r.stderr for r in results if r.returncode]
    assert counts(real) == {"Grandpa Bones": 1, "Shambler": 10 + 12 - 8}
    assert link.is_symlink()
    assert sorted(p.name for p in real.parent.iterdir()) == ["conc.yaml"]


def test_twenty_threads_adding_at_once_all_land(tmp_path):
    path = tmp_path / "conc.yaml"
    path.write_text(LIST)
    books = Catalogs()
    books.get("might-skirmish")
    assert at_once(lambda i: add_unit(path, books, "Rotting Hound" if i % 4 else "Hunter"), 20) == []
    assert counts(path) == {"Grandpa Bones": 1, "Rotting Hound": 15, "Hunter": 5}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conc.yaml"]


def test_an_edit_that_refuses_leaves_the_file_and_the_folder_as_they_were(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text(LIST)

    with pytest.raises(InputError, match="no unit 'Grandpa Bonez'"):
        add_unit(path, Catalogs(), "Grandpa Bonez")
    assert path.read_text() == LIST
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.yaml"]
    with pytest.raises(InputError, match="cannot remove 5 Grandpa Bones"):
        apply_change(path, Catalogs(), RemoveUnit(unit="Grandpa Bones", count=5))
    assert path.read_text() == LIST
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.yaml"]


def test_an_edit_waits_for_a_lock_held_by_another_process_and_gives_up_with_a_reason(tmp_path, monkeypatch):
    path = tmp_path / "lists" / "list.yaml"
    path.parent.mkdir()
    path.write_text(LIST)
    with held_elsewhere(path):
        monkeypatch.setattr(lock, "LOCK_TIMEOUT_SECONDS", 0.3)
        with pytest.raises(ConflictError) as err:
            add_unit(path, Catalogs(), "Hunter")
        assert err.value.exit_code == 2
        assert "more than 0.3 seconds" in err.value.render()
        assert path.read_text() == LIST
    # The holder was killed with the lock: its lock file stays, and the next edit takes it over.
    assert (path.parent / ".list.yaml.lock").exists()
    add_unit(path, Catalogs(), "Hunter")
    assert counts(path) == {"Grandpa Bones": 1, "Hunter": 1}
    assert sorted(p.name for p in path.parent.iterdir()) == ["list.yaml"]


def test_a_lock_file_replaced_by_a_symbolic_link_is_not_followed(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text(LIST)
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    (tmp_path / ".list.yaml.lock").symlink_to(victim)
    with pytest.raises(Exception) as err, locked(path):
        pass
    assert err.value.exit_code == 3
    assert victim.read_text() == "keep me"
    assert path.read_text() == LIST


def test_the_api_change_lands_every_edit_from_threads(tmp_path):
    """What the web front end does: the API's one change function, from many threads at once."""
    from listbuilder.api import editing, rulesets

    path = tmp_path / "conc.yaml"
    path.write_text(LIST)
    books = rulesets.open_catalogs()
    results = []

    def add(i: int) -> None:
        name = "Rotting Hound" if i % 2 else "Crow Swarm"
        results.append(editing.apply_change(path, books, editing.AddUnit(unit=name)).as_json())

    assert at_once(add, 20) == []
    assert len(results) == 20 and all(r["changed"] for r in results)
    assert counts(path) == {"Grandpa Bones": 1, "Rotting Hound": 10, "Crow Swarm": 10}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conc.yaml"]

"""The catalog cache: used when the files are unchanged, rebuilt when any byte changes, never fatal."""

from __future__ import annotations

import shutil

import pytest
from conftest import CATALOGS

from listbuilder.rules import cache
from listbuilder.rules.catalog import Catalogs


@pytest.fixture
def shipped_copy(tmp_path):
    root = tmp_path / "shipped"
    shutil.copytree(CATALOGS / "might-skirmish", root / "might-skirmish")
    return root


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("LISTBUILDER_CACHE_DIR", str(folder))
    monkeypatch.delenv("LISTBUILDER_NO_CACHE", raising=False)
    return folder


def load(root):
    return Catalogs(shipped=root).get("might-skirmish")


def test_a_second_load_comes_from_the_cache_and_is_equal(shipped_copy, cache_dir, monkeypatch):
    first = load(shipped_copy)
    assert len(list(cache_dir.glob("system-*.pickle"))) == 1
    monkeypatch.setattr(Catalogs, "_load", lambda *a: pytest.fail("the cache was not used"))
    second = load(shipped_copy)
    assert second.definition == first.definition
    assert second.units == first.units


def test_any_change_to_a_catalog_file_rebuilds(shipped_copy, cache_dir):
    load(shipped_copy)
    faction = shipped_copy / "might-skirmish" / "factions" / "zombie-family.yaml"
    faction.write_text(faction.read_text().replace("might: 10\n", "might: 11\n", 1))
    assert load(shipped_copy).find_unit("Hunter").stats["might"] == 11
    assert len(list(cache_dir.glob("system-*.pickle"))) == 2


def test_a_corrupt_cache_file_is_ignored(shipped_copy, cache_dir):
    load(shipped_copy)
    (pickled,) = cache_dir.glob("system-*.pickle")
    pickled.write_bytes(b"not a pickle")
    assert load(shipped_copy).find_unit("Hunter") is not None


def test_an_unwritable_cache_is_ignored(shipped_copy, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("LISTBUILDER_CACHE_DIR", str(blocker / "cache"))  # a folder inside a file
    assert load(shipped_copy).find_unit("Hunter") is not None


def test_the_cache_can_be_turned_off(shipped_copy, cache_dir, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_NO_CACHE", "1")
    assert cache.cache_dir() is None
    load(shipped_copy)
    assert not cache_dir.exists()


def test_broken_catalogs_are_never_cached(shipped_copy, cache_dir):
    system = shipped_copy / "might-skirmish" / "system.yaml"
    system.write_text(system.read_text().replace("kind: stat\n", "kind: stats\n"))
    for _ in range(2):
        with pytest.raises(Exception, match="rule set file has errors"):
            load(shipped_copy)
    assert not list(cache_dir.glob("*.pickle"))

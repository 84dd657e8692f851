"""The rule-set cache, one for everything a rule set loads: plain data only, never code.

One entry holds a rule set, its reference tables and its odds spec, keyed by every catalog byte
and the loader's code. It is used when nothing changed, rebuilt when any byte does, and any
file in the cache folder that is not exactly what this user's listbuilder wrote (a swapped
pickle, a file of another owner or writable by others, truncated, corrupt, a FIFO, a link) is
ignored and rebuilt, never run and never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES

from listbuilder.odds.load import load_odds
from listbuilder.odds.spec import OddsFile
from listbuilder.rules import cache, plaindata
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.rules.reference import ReferenceFile, load_reference

PACKAGE = Path(cache.__file__).resolve().parent.parent


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
    cache.clear()
    yield folder
    cache.clear()


def load(root):
    return Catalogs(shipped=root).get("might-skirmish")


def new_process():
    """Forget what this process holds in memory, as a new run of listbuilder would."""
    cache.clear()


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("ruleset-*.json"))


def must_not_build(monkeypatch):
    monkeypatch.setattr(Catalogs, "_load", lambda *a: pytest.fail("the cache was not used"))


class Boom:
    """Unpickling this writes a file: what a swapped cache file would do to whoever reads it."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "code ran"))


def test_one_entry_holds_the_rule_set_its_reference_and_its_odds(shipped_copy, cache_dir, monkeypatch):
    first = load(shipped_copy)
    ref, odds = load_reference(first), load_odds(first)
    (entry,) = entries(cache_dir)
    assert entry.read_bytes().startswith(cache.MAGIC)
    assert oct(entry.stat().st_mode & 0o777) == "0o600"
    header = json.loads(entry.read_bytes().split(b"\n")[1])
    assert [name for name, _, _ in header["parts"]] == ["system", "reference", "odds"]
    new_process()
    must_not_build(monkeypatch)
    monkeypatch.setattr("listbuilder.rules.reference._load_reference", lambda *a: pytest.fail("reference re-read"))
    monkeypatch.setattr("listbuilder.odds.load._load", lambda *a: pytest.fail("odds re-read"))
    second = load(shipped_copy)
    assert second is not first and second == first
    assert isinstance(second, System) and second.find_unit("Hunter").stats == first.find_unit("Hunter").stats
    assert load_reference(second) == ref and isinstance(load_reference(second), ReferenceFile)
    assert load_odds(second) == odds and isinstance(load_odds(second), OddsFile)


@pytest.mark.parametrize("name", ["factions/zombie-family.yaml", "system.yaml", "reference.yaml", "odds.yaml"])
def test_any_change_to_any_catalog_file_makes_a_new_entry(shipped_copy, cache_dir, name):
    system = load(shipped_copy)
    load_reference(system), load_odds(system)
    path = shipped_copy / "might-skirmish" / name
    path.write_text(path.read_text() + "\n# a comment changes the bytes, not the meaning\n")
    new_process()
    again = load(shipped_copy)
    assert again == system
    assert len(entries(cache_dir)) == 2


def test_a_change_to_the_faction_is_seen(shipped_copy, cache_dir):
    load(shipped_copy)
    faction = shipped_copy / "might-skirmish" / "factions" / "zombie-family.yaml"
    faction.write_text(faction.read_text().replace("might: 10\n", "might: 11\n", 1))
    new_process()
    assert load(shipped_copy).find_unit("Hunter").stats["might"] == 11


def test_a_user_root_adds_to_the_key(shipped_copy, cache_dir, tmp_path):
    load(shipped_copy)
    extra = tmp_path / "club" / "might-skirmish" / "factions"
    extra.mkdir(parents=True)
    (extra / "club.yaml").write_text("faction: Club\nunits:\n  - {name: Club Hero, might: 10, class: Soldier}\n")
    new_process()
    with_club = Catalogs([tmp_path / "club"], shipped=shipped_copy).get("might-skirmish")
    assert with_club.find_unit("Club Hero") is not None
    assert len(entries(cache_dir)) == 2


def test_a_change_to_the_loader_code_makes_a_new_entry(shipped_copy, cache_dir, monkeypatch):
    load(shipped_copy)
    new_process()
    monkeypatch.setattr(cache, "code_fingerprint", lambda: b"a newer loader")
    load(shipped_copy)
    assert len(entries(cache_dir)) == 2


def test_every_module_of_the_package_is_in_the_key(tmp_path):
    package = tmp_path / "listbuilder"
    for path in PACKAGE.rglob("*.py"):
        copy = package / path.relative_to(PACKAGE)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copy)
    first = cache.code_fingerprint(package)
    assert cache.code_fingerprint(package) == first
    seen = {first}
    for name in ("web/app.py", "rules/formats.py", "record.py"):  # far from the loader, the loader, the records
        target = package / name
        os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 1_000_000_000))
        cache.code_fingerprint.cache_clear()
        seen.add(cache.code_fingerprint(package))
    (package / "rules" / "newkind.py").write_text("")
    cache.code_fingerprint.cache_clear()
    seen.add(cache.code_fingerprint(package))
    (package / "__pycache__").mkdir(exist_ok=True)
    (package / "__pycache__" / "x.py").write_text("")  # not a module of the package
    cache.code_fingerprint.cache_clear()
    assert cache.code_fingerprint(package) in seen
    assert len(seen) == 5
    cache.code_fingerprint.cache_clear()


def part(name: str, body: bytes) -> list:
    """A part's line in a cache file's header, as ``write_entry`` writes it (a well-formed file)."""
    return [name, len(body), hashlib.blake2b(body).hexdigest()]


def swap(cache_dir: Path, data: bytes) -> Path:
    (entry,) = entries(cache_dir)
    entry.write_bytes(data)
    return entry


def test_a_swapped_pickle_is_never_unpickled(shipped_copy, cache_dir, tmp_path, monkeypatch):
    first = load(shipped_copy)
    marker = tmp_path / "pwned"
    entry = swap(cache_dir, pickle.dumps(Boom(marker)))
    (cache_dir / "system-0123456789.pickle").write_bytes(pickle.dumps(Boom(marker)))  # the old format's name
    new_process()
    assert load(shipped_copy) == first
    assert not marker.exists()
    assert entry.read_bytes().startswith(cache.MAGIC)  # rebuilt in place


def test_a_cache_file_that_names_other_code_runs_nothing(shipped_copy, cache_dir, tmp_path):
    first = load(shipped_copy)
    marker = tmp_path / "pwned"
    (entry,) = entries(cache_dir)
    header = json.loads(entry.read_bytes().split(b"\n")[1])
    for name in ("os:system", "subprocess:Popen", "pathlib:Path", "builtins:eval"):
        body = json.dumps({"\0R": [name, [f"touch {marker}"]]}).encode()
        header["parts"] = [part("system", body)]
        entry.write_bytes(cache.MAGIC + json.dumps(header).encode() + b"\n" + body)
        new_process()
        assert load(shipped_copy) == first
        assert not marker.exists()


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602, 0o644 | 0o002])
def test_a_cache_file_writable_by_others_is_ignored(shipped_copy, cache_dir, monkeypatch, mode):
    first = load(shipped_copy)
    (entry,) = entries(cache_dir)
    entry.chmod(mode)
    new_process()
    built = []
    real = Catalogs._load
    monkeypatch.setattr(Catalogs, "_load", lambda self, *a: built.append(1) or real(self, *a))
    assert load(shipped_copy) == first
    assert built == [1]
    assert oct(entry.stat().st_mode & 0o777) == "0o600"  # replaced by our own


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_cache_file_of_another_user_is_ignored(shipped_copy, cache_dir, monkeypatch):
    first = load(shipped_copy)
    (entry,) = entries(cache_dir)
    os.chown(entry, 12345, 12345)
    new_process()
    built = []
    real = Catalogs._load
    monkeypatch.setattr(Catalogs, "_load", lambda self, *a: built.append(1) or real(self, *a))
    assert load(shipped_copy) == first and built == [1]
    assert entry.stat().st_uid == os.geteuid()


def test_a_cache_file_owned_by_us_but_checked_as_another_user_is_ignored(shipped_copy, cache_dir, monkeypatch):
    first = load(shipped_copy)
    new_process()
    monkeypatch.setattr(os, "geteuid", lambda: 4242)  # as if someone else ran listbuilder on our folder
    built = []
    real = Catalogs._load
    monkeypatch.setattr(Catalogs, "_load", lambda self, *a: built.append(1) or real(self, *a))
    assert load(shipped_copy) == first and built == [1]


@pytest.mark.parametrize(
    "damage",
    [
        "truncated",
        "truncated-header",
        "empty",
        "garbage",
        "bad-json",
        "another-format",
        "another-key",
        "extra-bytes",
        "wrong-field-count",
        "not-a-system",
        "deep",
        "one-digit-changed",
    ],
)
def test_a_damaged_cache_file_is_ignored_and_rebuilt(shipped_copy, cache_dir, damage, monkeypatch):
    first = load(shipped_copy)
    (entry,) = entries(cache_dir)
    data = entry.read_bytes()
    magic, header_line, body = data.split(b"\n", 2)
    header = json.loads(header_line)
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "truncated-header":
        data = data[: len(cache.MAGIC) + 5]
    elif damage == "empty":
        data = b""
    elif damage == "garbage":
        data = os.urandom(4096)
    elif damage == "bad-json":
        data = magic + b"\n" + header_line + b"\n" + b"{" * len(body)
    elif damage == "another-format":
        header["format"] = cache.FORMAT + 1
        data = magic + b"\n" + json.dumps(header).encode() + b"\n" + body
    elif damage == "another-key":
        header["key"] = "0" * 64
        data = magic + b"\n" + json.dumps(header).encode() + b"\n" + body
    elif damage == "extra-bytes":
        data += b"more"
    elif damage == "wrong-field-count":
        noun = b'"\\u0000R":["listbuilder.rules.profiles:Noun",['
        assert noun in body
        body = body.replace(noun, noun + b"1,", 1)
        header["parts"] = [part("system", body)]
        data = magic + b"\n" + json.dumps(header).encode() + b"\n" + body
    elif damage == "not-a-system":
        body = json.dumps({"\0T": [1, 2, 3]}).encode()
        header["parts"] = [part("system", body)]
        data = magic + b"\n" + json.dumps(header).encode() + b"\n" + body
    elif damage == "deep":
        body = b"[" * 100_000 + b"]" * 100_000
        header["parts"] = [part("system", body)]
        data = magic + b"\n" + json.dumps(header).encode() + b"\n" + body
    elif damage == "one-digit-changed":  # still JSON of the right shape: only its digest tells
        # Hunter is Might 10 (might-skirmish line 6, the text's example stat line)
        hunter = b'["Hunter",{"\\u0000Z":[["class","Soldier"],["might",10]]}'
        assert hunter in body
        data = magic + b"\n" + header_line + b"\n" + body.replace(hunter, hunter.replace(b"10", b"11"), 1)
    entry.write_bytes(data)
    entry.chmod(0o600)
    new_process()
    built = []
    real = Catalogs._load
    monkeypatch.setattr(Catalogs, "_load", lambda self, *a: built.append(1) or real(self, *a))
    assert load(shipped_copy) == first
    assert built == [1]
    new_process()
    assert load(shipped_copy) == first  # from the file rebuilt whole
    assert built == [1]


@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder", "huge"])
def test_something_else_at_the_cache_path_is_ignored(shipped_copy, cache_dir, tmp_path, kind, monkeypatch):
    first = load(shipped_copy)
    (entry,) = entries(cache_dir)
    good = entry.read_bytes()
    entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry, 0o600)  # reading it must not hang
    elif kind == "symlink":
        other = tmp_path / "elsewhere.json"
        other.write_bytes(good)
        other.chmod(0o600)
        entry.symlink_to(other)
    elif kind == "folder":
        entry.mkdir()
    elif kind == "huge":
        monkeypatch.setattr(cache, "MAX_CACHE_BYTES", len(good) - 1)
        entry.write_bytes(good)
        entry.chmod(0o600)
    new_process()
    built = []
    real = Catalogs._load
    monkeypatch.setattr(Catalogs, "_load", lambda self, *a: built.append(1) or real(self, *a))
    assert load(shipped_copy) == first
    assert built == [1]


def test_validate_with_a_hostile_cache_folder_is_never_an_internal_error(tmp_path):
    """A whole run, as a user meets it: every file in the cache folder is swapped for a pickle."""
    folder = tmp_path / "cache"
    env = {**os.environ, "LISTBUILDER_CACHE_DIR": str(folder), "LISTBUILDER_CATALOGS": ""}
    listbuilder = [str(Path(sys.executable).parent / "listbuilder")]
    example = str(EXAMPLES / "might-skirmish-zombie-family.legal.yaml")
    first = subprocess.run([*listbuilder, "validate", example], env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    marker = tmp_path / "pwned"
    for entry in entries(folder):
        entry.write_bytes(pickle.dumps(Boom(marker)))
    second = subprocess.run([*listbuilder, "validate", example], env=env, capture_output=True, text=True, timeout=60)
    assert (second.returncode, second.stdout) == (0, first.stdout)
    assert not marker.exists()


def test_broken_catalogs_are_never_cached(shipped_copy, cache_dir):
    system = shipped_copy / "might-skirmish" / "system.yaml"
    system.write_text(system.read_text().replace("kind: stat\n", "kind: stats\n"))
    for _ in range(2):
        new_process()
        with pytest.raises(Exception, match="rule set file has errors"):
            load(shipped_copy)
    assert not entries(cache_dir)


def test_a_broken_odds_file_does_not_stop_validate_and_is_reported_each_time(shipped_copy, cache_dir):
    odds = shipped_copy / "might-skirmish" / "odds.yaml"
    odds.write_text(odds.read_text().replace("matchup:", "matchups:", 1))
    for _ in range(2):
        new_process()
        system = load(shipped_copy)
        assert system.find_unit("Hunter") is not None
        with pytest.raises(Exception, match="odds file has errors"):
            load_odds(system)


def test_an_unwritable_cache_is_ignored(shipped_copy, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("LISTBUILDER_CACHE_DIR", str(blocker / "cache"))  # a folder inside a file
    new_process()
    assert load(shipped_copy).find_unit("Hunter") is not None


def test_the_cache_can_be_turned_off(shipped_copy, cache_dir, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_NO_CACHE", "1")
    assert cache.cache_dir() is None
    system = load(shipped_copy)
    load_reference(system), load_odds(system)
    assert not cache_dir.exists()


def test_memory_caches_are_bounded(tmp_path, cache_dir):
    roots = []
    for i in range(cache.MEMORY_ENTRIES + 8):
        root = tmp_path / f"root{i}"
        shutil.copytree(CATALOGS / "might-skirmish", root / "might-skirmish")
        (root / "might-skirmish" / "odds.yaml").write_text(
            (root / "might-skirmish" / "odds.yaml").read_text() + f"# copy {i}\n"
        )
        roots.append(root)
    for root in roots:
        load_odds(load(root))
    assert len(cache._ENTRIES) == cache.MEMORY_ENTRIES
    assert len(cache._KEYS) == cache.MEMORY_ENTRIES


def test_plain_data_round_trips():
    from fractions import Fraction
    from types import MappingProxyType

    value = {"a": (1, "x", None, True, 2.5), 3: [Fraction(1, 3)], "\0odd": frozenset({1, 2}), "p": Path("a/b")}
    again = plaindata.decode(json.dumps(plaindata.encode(value)))
    assert again == value and isinstance(again["a"], tuple)
    proxy = plaindata.decode(json.dumps(plaindata.encode(MappingProxyType({"k": (1,)}))))
    assert isinstance(proxy, MappingProxyType) and proxy == {"k": (1,)}
    with pytest.raises(plaindata.NotPlain):
        plaindata.encode(object())


def test_the_folder_keeps_only_the_entries_written_last(shipped_copy, cache_dir, monkeypatch):
    monkeypatch.setattr(cache, "KEPT_FILES", 3)
    faction = shipped_copy / "might-skirmish" / "factions" / "zombie-family.yaml"
    written = []
    for edit in range(5):  # an author at work: each edit of a catalog file is a new entry
        faction.write_text(faction.read_text() + f"\n# edit {edit}\n")
        new_process()
        load(shipped_copy)
        (newest,) = set(entries(cache_dir)) - set(written)
        written.append(newest)
        os.utime(newest, ns=(edit * 10**9, edit * 10**9))  # written in this order, a second apart
    assert entries(cache_dir) == sorted(written[-3:])
    (cache_dir / "notes.txt").write_text("not ours")  # anything else in the folder is left alone
    cache.prune(cache_dir, kept=1)
    assert entries(cache_dir) == [written[-1]] and (cache_dir / "notes.txt").exists()

"""The library's files: one atomic write, one bounded read, one rule for trusting a cache file."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from listbuilder.files import private, reading, writing


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_an_edit_keeps_the_files_permissions(tmp_path):
    target = tmp_path / "list.yaml"
    target.write_bytes(b"old")
    target.chmod(0o640)
    writing.atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert _leftovers(tmp_path) == []


def test_a_new_file_gets_what_open_would_give_it(tmp_path):
    old = os.umask(0o027)
    try:
        writing.atomic_write(tmp_path / "new.yaml", b"x")
        with open(tmp_path / "plain.yaml", "wb"):
            pass
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "plain.yaml").stat().st_mode) == 0o640


def test_a_private_file_is_written_private(tmp_path):
    writing.atomic_write(tmp_path / "entry", b"x", mode=private.FILE_MODE)
    assert stat.S_IMODE((tmp_path / "entry").stat().st_mode) == 0o600


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, step):
    target = tmp_path / "list.yaml"
    target.write_bytes(b"old")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing.os, step, fail)
    with pytest.raises(OSError, match="No space"):
        writing.atomic_write(target, b"new" * 1000)
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert _leftovers(tmp_path) == []


def test_an_interrupted_write_removes_its_temporary(tmp_path, monkeypatch):
    monkeypatch.setattr(writing.os, "fsync", lambda fd: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        writing.atomic_write(tmp_path / "x", b"data")
    assert list(tmp_path.iterdir()) == []


def test_writers_at_once_never_share_a_temporary_name(tmp_path, monkeypatch):
    names: list[str] = []
    real_open = os.open

    def recording(path, flags, *args, **kwargs):
        if str(path).endswith(".tmp"):
            names.append(str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(writing.os, "open", recording)
    target = tmp_path / "history"
    threads = [threading.Thread(target=writing.atomic_write, args=(target, b"%d" % i)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(names) == 20 and len(set(names)) == 20
    assert target.read_bytes() in {b"%d" % i for i in range(20)}
    assert _leftovers(tmp_path) == []


def test_a_temporary_name_taken_by_a_link_is_never_written_through(tmp_path, monkeypatch):
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep")
    monkeypatch.setattr(writing.secrets, "token_hex", lambda n: "00" * n)
    (tmp_path / f".x.{'00' * 4}.tmp").symlink_to(victim)
    with pytest.raises(FileExistsError):
        writing.atomic_write(tmp_path / "x", b"evil")
    assert victim.read_bytes() == b"keep"


@pytest.mark.platform
@pytest.mark.parametrize("durable", [True, False])
def test_a_durable_write_waits_for_the_disk_then_for_its_folder(tmp_path, monkeypatch, durable):
    synced = []
    real = os.fsync

    def record(fd):
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(writing.os, "fsync", record)
    writing.atomic_write(tmp_path / "x", b"data", durable=durable)
    # the rename is written in the folder: POSIX flushes it; Windows cannot open a folder
    folder = [] if writing.os.name == "nt" else ["folder"]
    assert synced == (["file", *folder] if durable else [])


def test_a_durable_write_inside_an_open_folder_flushes_that_folder(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(writing.os, "fsync", lambda fd: synced.append(fd) or real(fd))
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        writing.atomic_write("entry", b"code", dir_fd=fd)
    finally:
        os.close(fd)
    assert synced[-1] == fd and len(synced) == 2


def test_a_folder_that_cannot_be_flushed_fails_no_write(tmp_path, monkeypatch):
    real = os.fsync

    def no_folders(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(22, "Invalid argument")
        real(fd)

    monkeypatch.setattr(writing.os, "fsync", no_folders)
    writing.atomic_write(tmp_path / "x", b"data")
    assert (tmp_path / "x").read_bytes() == b"data"


def test_a_write_inside_an_open_folder(tmp_path):
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        writing.atomic_write("entry", b"code", mode=0o600, dir_fd=fd)
    finally:
        os.close(fd)
    assert (tmp_path / "entry").read_bytes() == b"code"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize(("size", "too_large"), [(100, False), (101, True)])
def test_a_file_is_read_up_to_its_bound(tmp_path, size, too_large):
    path = tmp_path / "f"
    path.write_bytes(b"a" * size)
    if too_large:
        with pytest.raises(reading.TooLarge) as caught:
            reading.read_file(path, 100)
        assert caught.value.size == 101
    else:
        assert reading.read_file(path, 100) == b"a" * 100


def test_a_file_that_grows_while_read_is_still_bounded(monkeypatch, tmp_path):
    path = tmp_path / "growing"
    path.write_bytes(b"a" * 5000)
    real = os.fstat
    monkeypatch.setattr(reading.os, "fstat", lambda fd: os.stat_result((*real(fd)[:6], 10, *real(fd)[7:])))
    with pytest.raises(reading.TooLarge) as caught:
        reading.read_file(path, 1000)
    assert caught.value.size == 1001  # read one byte past the bound, no more


def test_an_endless_stream_is_read_one_byte_past_its_bound():
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"x" * 4096)
        assert len(reading.read_at_most(read_end, 100)) == 101
    finally:
        os.close(read_end)
        os.close(write_end)


@pytest.mark.parametrize(
    ("mode", "trusted"),
    [(0o600, True), (0o400, True), (0o640, False), (0o604, False), (0o620, False), (0o602, False), (0o666, False)],
)
def test_a_cache_file_is_trusted_only_if_private(tmp_path, mode, trusted):
    path = tmp_path / "entry"
    path.write_bytes(b"x")
    path.chmod(mode)
    assert private.trusted_file(path.stat()) is trusted
    fd = private.open_trusted(path)
    assert (fd is not None) is trusted
    if fd is not None:
        os.close(fd)


def test_a_cache_file_of_another_user_or_a_folder_or_a_link_is_not_trusted(tmp_path, monkeypatch):
    path = tmp_path / "entry"
    path.write_bytes(b"x")
    path.chmod(0o600)
    (tmp_path / "link").symlink_to(path)
    assert private.open_trusted(tmp_path / "link") is None  # never through a link
    assert not private.trusted_file(tmp_path.stat())
    monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 4242)
    assert not private.trusted_file(path.stat())


def test_both_caches_read_by_the_same_rule():
    from listbuilder.printing import templatecache
    from listbuilder.rules import cache

    assert cache.open_trusted is private.open_trusted
    assert templatecache.open_trusted is private.open_trusted and templatecache.trusted_folder is private.trusted_folder


@pytest.mark.parametrize(("mode", "trusted"), [(0o700, True), (0o750, False), (0o705, False)])
def test_a_cache_folder_is_used_only_if_private(tmp_path, mode, trusted):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(mode)
    assert private.trusted_folder(folder.stat()) is trusted

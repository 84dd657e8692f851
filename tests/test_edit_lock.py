"""The edit lock holds between processes on Windows too: ``msvcrt.locking`` of the lock
file's first byte, with the same timeout, the same ``.NAME.lock`` file and the same clean-up.

Linux has no ``msvcrt``: ``tests/simulated_windows/msvcrt.py`` stands in for it (byte-range locks
over ``fcntl.lockf``, taken before ``fcntl`` is hidden). Here ``fcntl`` is taken away, so the lock
finds ``msvcrt`` as it would on Windows, in this process (threads) and in the processes the tests
start (a server, ``listbuilder add``), which import the stand-in first through a ``sitecustomize``.
Windows also refuses to delete a file that is open; one test makes ``os.unlink`` refuse so too.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from locking import at_once, counts, held_elsewhere
from webserver import start

from listbuilder.api import editing
from listbuilder.editing import lock
from listbuilder.errors import ConflictError

SIMULATED = Path(__file__).parent / "simulated_windows"
LIST = "system: might-skirmish\nname: Shared\npoints: 1000\nunits:\n  - unit: Grandpa Bones\n"
# What each process of a simulated Windows does first: the stand-in msvcrt, then no fcntl. The
# standard modules that tell Windows by trying to import msvcrt (subprocess, getpass) are imported
# before it is there: they are Linux's, and must stay so.
WINDOWS_START = (
    "import sys\n"
    "_had = sys.modules.get('msvcrt')\n"
    "sys.modules['msvcrt'] = None\n"  # not to be found while they look for it
    "import subprocess, getpass\n"
    "sys.modules['msvcrt'] = _had\n"
    "if _had is None: del sys.modules['msvcrt']\n"
    f"sys.path.insert(0, {str(SIMULATED)!r})\n"
    "import msvcrt\n"
    "sys.modules['fcntl'] = None\n"
)


def fake_msvcrt() -> ModuleType:
    spec = importlib.util.spec_from_file_location("msvcrt", SIMULATED / "msvcrt.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """This process as Windows would run the lock: msvcrt there, fcntl not."""
    module = fake_msvcrt()
    monkeypatch.setitem(sys.modules, "msvcrt", module)
    monkeypatch.setitem(sys.modules, "fcntl", None)  # import fcntl now raises ImportError
    return module


@pytest.fixture
def windows_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that starts as a simulated Windows (its sitecustomize)."""
    site = tmp_path / "windows_site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(WINDOWS_START)
    return {"PYTHONPATH": os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)}


def test_the_lock_takes_msvcrt_where_there_is_no_fcntl(windows):
    assert isinstance(lock._backend(), lock._Msvcrt)


def test_the_stand_in_refuses_a_held_range_and_releases_it(tmp_path, windows):
    path = tmp_path / "f"
    path.write_bytes(b"")
    code = WINDOWS_START + (
        "import os, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR)\n"
        "msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)\n"
        "print('held', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        fd = os.open(path, os.O_RDWR)
        try:
            with pytest.raises(OSError):
                windows.locking(fd, windows.LK_NBLCK, 1)  # another process holds it
        finally:
            os.close(fd)
    finally:
        holder.kill()
        holder.wait(timeout=30)
    fd = os.open(path, os.O_RDWR)
    try:
        windows.locking(fd, windows.LK_NBLCK, 1)  # the system released the dead holder's lock
        windows.locking(fd, windows.LK_UNLCK, 1)
        with pytest.raises(OSError):
            windows.locking(fd, windows.LK_UNLCK, 1)  # not locked any more
    finally:
        os.close(fd)


@pytest.mark.platform
def test_twenty_threads_adding_under_the_windows_lock_all_land(tmp_path, windows, catalogs):
    path = tmp_path / "shared.yaml"
    path.write_text(LIST)
    names = ["Hunter" if i % 2 else "Rotting Hound" for i in range(20)]
    assert at_once(lambda i: editing.apply_change(path, catalogs, editing.AddUnit(unit=names[i])), 20) == []
    assert counts(path) == {"Grandpa Bones": 1, "Hunter": 10, "Rotting Hound": 10}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.yaml"]  # the lock file is cleaned up


@pytest.mark.platform
def test_windows_refusing_to_delete_an_open_lock_file_loses_nothing_and_leaves_nothing(
    tmp_path, windows, catalogs, monkeypatch
):
    """On Windows a file that is open cannot be deleted: the holder removes its lock file after
    closing it, which fails while another edit has it open; the last edit out removes it."""
    open_files: dict[int, str] = {}
    real_open, real_close, real_unlink = os.open, os.close, os.unlink

    def opened(file, flags, mode=0o777, **kwargs):  # type: ignore[no-untyped-def]
        fd = real_open(file, flags, mode, **kwargs)
        open_files[fd] = os.path.realpath(file)
        return fd

    def closed(fd: int) -> None:
        open_files.pop(fd, None)
        real_close(fd)

    def unlink(file, **kwargs):  # type: ignore[no-untyped-def]
        if os.path.realpath(file) in open_files.values():
            raise PermissionError(13, "The process cannot access the file because it is being used")
        real_unlink(file, **kwargs)

    monkeypatch.setattr(lock.os, "open", opened)
    monkeypatch.setattr(lock.os, "close", closed)
    monkeypatch.setattr(lock.os, "unlink", unlink)
    path = tmp_path / "shared.yaml"
    path.write_text(LIST)
    assert at_once(lambda _: editing.apply_change(path, catalogs, editing.AddUnit(unit="Hunter")), 12) == []
    assert counts(path) == {"Grandpa Bones": 1, "Hunter": 12}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.yaml"]


@pytest.mark.platform
def test_a_windows_edit_waits_for_another_process_gives_up_in_time_and_takes_over_a_dead_lock(
    tmp_path, windows, catalogs, monkeypatch
):
    path = tmp_path / "lists" / "shared.yaml"
    path.parent.mkdir()
    path.write_text(LIST)
    with held_elsewhere(path, first=WINDOWS_START):
        monkeypatch.setattr(lock, "LOCK_TIMEOUT_SECONDS", 0.3)  # the same timeout rule as on POSIX
        with pytest.raises(ConflictError) as err:
            editing.apply_change(path, catalogs, editing.AddUnit(unit="Hunter"))
        assert "more than 0.3 seconds" in err.value.render()
        assert path.read_text() == LIST
    assert (path.parent / ".shared.yaml.lock").exists()  # the same lock file name
    editing.apply_change(path, catalogs, editing.AddUnit(unit="Hunter"))
    assert counts(path) == {"Grandpa Bones": 1, "Hunter": 1}
    assert sorted(p.name for p in path.parent.iterdir()) == ["shared.yaml"]  # and the same clean-up


@pytest.mark.platform
def test_a_web_change_and_a_cli_add_at_once_lose_nothing_on_windows(tmp_path, windows_env):
    folder = tmp_path / "served"
    folder.mkdir()
    path = folder / "shared.yaml"
    path.write_text(LIST)
    server = start(folder, env_extra=windows_env)
    env = {**os.environ, **windows_env, "LISTBUILDER_CATALOGS": ""}
    cli = [sys.executable, "-c", WINDOWS_START + "from listbuilder.cli import main\nmain()", "add", str(path)]
    try:
        probe = subprocess.run(
            [sys.executable, "-c", WINDOWS_START + "from listbuilder.editing import lock\nprint(lock._backend())"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "_Msvcrt" in probe.stdout, probe.stderr  # the processes below lock as Windows does
        token = server.token()
        statuses: list[int] = []
        codes: list[int] = []

        def web_or_terminal(i: int) -> None:
            if i % 2:
                answer = server.post("/list/shared.yaml/change", {"token": token, "change": "add", "unit": "Hunter"})
                statuses.append(answer.status)
            else:
                done = subprocess.run([*cli, "Rotting Hound"], env=env, capture_output=True, text=True, timeout=120)
                codes.append(done.returncode)

        assert at_once(web_or_terminal, 12, seconds=180) == []
    finally:
        server.stop()
    assert statuses == [303] * 6 and codes == [0] * 6
    assert counts(path) == {"Grandpa Bones": 1, "Hunter": 6, "Rotting Hound": 6}
    leftovers = [p.name for p in folder.iterdir() if p.name != ".listbuilder"]
    assert leftovers == ["shared.yaml"]

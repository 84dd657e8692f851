"""The history folder (``FOLDER/.listbuilder/``) and changes from a real server.

Every path under ``.listbuilder`` is held to the rules list paths are: a link that leads out, a
plain file where a folder goes, or a planted undo step is refused, reported, and never read into
a list or written through. A change and its undo step land together or not at all, and a change
that was made never answers an error. Twenty adds at once each get their own undo step.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import COMMENTED
from webserver import Server, start

SECRET = "system: might-skirmish\nname: Someone Else's Secret\nunits:\n  - unit: Hunter\n"
OTHER_RULES = "system: speed-range-power\nname: Camels\nunits:\n  - unit: Cameleer\n"


def version(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    root = tmp_path_factory.mktemp("history")
    server = start(root)
    yield server, root
    server.stop()


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder outside the served one, with a readable list in it."""
    there = tmp_path_factory.mktemp("outside")
    (there / "secret.yaml").write_text(SECRET, encoding="utf-8")
    return there


def fresh(served: tuple[Server, Path], name: str) -> tuple[Server, Path, Path]:
    """A new list ``name`` in the served folder, with no history (the history folder emptied)."""
    server, root = served
    state = root / ".listbuilder"
    if state.is_symlink() or state.is_file():
        state.unlink()
    elif state.is_dir():
        subprocess.run(["rm", "-rf", str(state)], check=True)
    path = root / name
    path.write_text(COMMENTED, encoding="utf-8")
    return server, root, path


def add(server: Server, name: str, unit: str = "Hunter") -> int:
    return server.post(f"/list/{name}/change", {"token": server.token(), "change": "add", "unit": unit}).status


def undo(server: Server, name: str) -> tuple[int, str]:
    answer = server.post(f"/list/{name}/undo", {"token": server.token()})
    return answer.status, answer.text


def undo_dir(root: Path, name: str) -> Path:
    return root / ".listbuilder" / "history" / name / "undo"


# --- links inside .listbuilder ---------------------------------------------------------------------


def test_a_planted_undo_step_that_links_out_is_never_read_into_the_list(served, outside):
    server, root, path = fresh(served, "planted.yaml")
    undo_dir(root, "planted.yaml").mkdir(parents=True)
    (undo_dir(root, "planted.yaml") / f"000001-{version(COMMENTED)}.yaml").symlink_to(outside / "secret.yaml")
    status, page = undo(server, "planted.yaml")
    assert status == 400 and "cannot be used" in page and "link" in page
    assert path.read_text(encoding="utf-8") == COMMENTED
    assert "Secret" not in server.get("/list/planted.yaml").text
    assert (outside / "secret.yaml").read_text(encoding="utf-8") == SECRET
    assert list(undo_dir(root, "planted.yaml").iterdir()) == []  # the planted step is removed, not its target


def test_a_history_folder_that_links_out_is_refused_before_the_list_is_touched(served, outside):
    server, root, path = fresh(served, "linked.yaml")
    (root / ".listbuilder").symlink_to(outside, target_is_directory=True)
    status = add(server, "linked.yaml")
    assert status == 400
    assert path.read_text(encoding="utf-8") == COMMENTED  # not changed: the change and its step go together
    assert sorted(p.name for p in outside.iterdir()) == ["secret.yaml"]  # nothing written out there
    answer = server.post("/list/linked.yaml/delete", {"token": server.token()})
    assert answer.status == 400 and "listbuilder&#39;s folder &#39;.listbuilder&#39; cannot be used" in answer.text
    assert path.read_text(encoding="utf-8") == COMMENTED  # the list was not moved out of the folder
    assert sorted(p.name for p in outside.iterdir()) == ["secret.yaml"]


def test_a_link_deeper_in_the_history_is_refused_too(served, outside):
    server, root, path = fresh(served, "deep.yaml")
    (root / ".listbuilder" / "history").mkdir(parents=True)
    (root / ".listbuilder" / "history" / "deep.yaml").symlink_to(outside, target_is_directory=True)
    assert add(server, "deep.yaml") == 400
    assert path.read_text(encoding="utf-8") == COMMENTED
    assert sorted(p.name for p in outside.iterdir()) == ["secret.yaml"]


# --- a change made never answers an error; tampered steps are not trusted -----------------------


def test_a_history_folder_that_is_a_plain_file_refuses_the_change_with_a_message(served):
    server, root, path = fresh(served, "plain.yaml")
    (root / ".listbuilder").write_text("not a folder", encoding="utf-8")
    answer = server.post("/list/plain.yaml/change", {"token": server.token(), "change": "add", "unit": "Hunter"})
    assert answer.status == 400 and "not a folder" in answer.text
    assert path.read_text(encoding="utf-8") == COMMENTED  # a retry cannot add twice
    answer = server.post("/list/plain.yaml/delete", {"token": server.token()})
    assert answer.status == 400 and "not a folder" in answer.text
    assert path.exists()


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"system: might-skirmish\nname: \xff\xfe\nunits: []\n", "not UTF-8"),
        (b"just some words, not a list\n", "not a list"),
        (OTHER_RULES.encode(), "speed-range-power list"),
        (b"units: [" * 10 + b"\n", "not a list"),
    ],
)
def test_an_undo_step_that_is_not_a_list_of_ours_is_removed_and_reported(served, data, why):
    server, root, path = fresh(served, "tampered.yaml")
    assert add(server, "tampered.yaml") in (200, 303)
    after = path.read_text(encoding="utf-8")
    (step,) = undo_dir(root, "tampered.yaml").iterdir()
    step.write_bytes(data)
    status, page = undo(server, "tampered.yaml")
    assert status == 400 and why in page
    assert path.read_text(encoding="utf-8") == after  # never written over the list
    assert list(undo_dir(root, "tampered.yaml").iterdir()) == []


def test_an_undo_step_larger_than_a_list_may_be_is_refused(served):
    server, root, path = fresh(served, "huge.yaml")
    assert add(server, "huge.yaml") in (200, 303)
    after = path.read_text(encoding="utf-8")
    (step,) = undo_dir(root, "huge.yaml").iterdir()
    step.write_bytes(COMMENTED.encode() + b"#" * (4 * 1024 * 1024 + 1))
    status, page = undo(server, "huge.yaml")
    assert status == 400 and "more than a list file may be" in page
    assert path.read_text(encoding="utf-8") == after


# --- concurrent changes each get their own undo step --------------------------------------------


SLOW_HISTORY = """
import os, time
_replace = os.replace
def replace(src, dst, *args, **kwargs):
    if ".listbuilder" in os.fspath(dst):
        time.sleep(0.05)  # a slow disk: an undo step takes a while to land
    return _replace(src, dst, *args, **kwargs)
os.replace = replace
"""


def test_twenty_adds_at_once_from_http_each_get_an_undo_step_and_all_undo(tmp_path):
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "sitecustomize.py").write_text(SLOW_HISTORY)
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(slow), os.environ.get("PYTHONPATH", "")) if p)}
    root = tmp_path / "crowd"
    root.mkdir()
    path = root / "crowd.yaml"
    path.write_text(COMMENTED, encoding="utf-8")
    server = start(root, env_extra=env)
    other = start(root, env_extra=env)  # two servers of one folder: two players' tabs, say
    try:
        clients = [(server, server.token()), (other, other.token())]
        barrier = threading.Barrier(20)
        statuses: list[int] = []

        def post(n: int) -> None:
            client, token = clients[n % 2]
            barrier.wait()
            answer = client.post("/list/crowd.yaml/change", {"token": token, "change": "add", "unit": "Crow Swarm"})
            statuses.append(answer.status)

        threads = [threading.Thread(target=post, args=(n,)) for n in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert sorted(statuses) == [303] * 20
        steps = sorted(p.name for p in undo_dir(root, "crowd.yaml").iterdir())
        assert len(steps) == 20 and len({s[:6] for s in steps}) == 20  # twenty numbers, none twice
        for n in range(20):
            status, page = undo(server, "crowd.yaml")
            assert status == 303, (n, page[:500])
        assert path.read_text(encoding="utf-8") == COMMENTED
        assert undo(server, "crowd.yaml")[0] == 400  # nothing left to undo
    finally:
        other.stop()
        server.stop()


# --- no temp files of ours left beside a list --------------------------------------------------


def test_leftover_temp_files_go_with_the_next_edit_and_the_next_start(served, tmp_path):
    server, root, _ = fresh(served, "tidy.yaml")
    young = root / ".tidy.yaml.a1b2c3d4.tmp"
    young.write_text("half a list")
    assert add(server, "tidy.yaml") == 303
    assert not young.exists()  # however young: under the lock no write of it is in progress
    folder = tmp_path / "restart"
    folder.mkdir()
    (folder / "list.yaml").write_text(COMMENTED, encoding="utf-8")
    leftovers = [folder / ".list.yaml.zz9plura.tmp", folder / ".gone.yaml.x_y_z_12.tmp", folder / ".list.yaml.lock"]
    for p in leftovers:
        p.write_text("half")
    (folder / ".listbuilder" / "history" / "list.yaml" / "undo").mkdir(parents=True)
    step_tmp = folder / ".listbuilder" / "history" / "list.yaml" / "undo" / ".000001-abc.yaml.k3j4h5g6.tmp"
    step_tmp.write_text("half")
    keep = folder / ".notes.txt"
    keep.write_text("not ours")
    second = start(folder)
    try:
        assert second.get("/").status == 200
    finally:
        second.stop()
    assert not any(p.exists() for p in [*leftovers, step_tmp]) and keep.exists()


KILLED_SERVER_EDITS = 30


def test_a_server_killed_during_edits_leaves_nothing_after_its_restart(tmp_path):
    folder = tmp_path / "killed"
    folder.mkdir()
    path = folder / "list.yaml"
    path.write_text(COMMENTED, encoding="utf-8")
    server = start(folder)
    token = server.token()
    stop = threading.Event()

    def hammer() -> None:
        while not stop.is_set():
            try:
                server.post("/list/list.yaml/change", {"token": token, "change": "add", "unit": "Hunter"})
            except OSError:
                return

    workers = [threading.Thread(target=hammer) for _ in range(4)]
    for w in workers:
        w.start()
    time.sleep(1.5)
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait(timeout=30)
    stop.set()
    for w in workers:
        w.join(timeout=60)
    again = start(folder)
    try:
        assert again.get("/list/list.yaml").status == 200  # the list is whole
    finally:
        again.stop()
    ours = [p for p in folder.rglob("*") if p.name.endswith(".tmp") or p.name.endswith(".lock")]
    assert ours == []
    assert sys.platform != "win32"  # (kill -9 is POSIX; the temp-file rule is checked above on any platform)

"""What the edit-lock tests share (test_concurrent_edits.py, test_edit_lock.py): the models a list
holds, edits started at one moment from many threads, and the lock held by another process."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from listbuilder.files.yamldoc import load_yaml

# Takes the edit lock of the list argv[1], says so by writing the file argv[2], and keeps it.
HOLDER = """
import sys, time
from pathlib import Path
from listbuilder.editing.lock import locked
with locked(Path(sys.argv[1])):
    Path(sys.argv[2]).write_text("holding")
    time.sleep(60)
"""


def counts(path: Path) -> dict[str, int]:
    """Unit name -> models, read back from the file as 'validate' reads it."""
    found: dict[str, int] = {}
    for entry in load_yaml(path).data["units"]:
        found[entry["unit"]] = found.get(entry["unit"], 0) + entry.get("count", 1)
    return found


def at_once(work: Callable[[int], object], threads: int, seconds: float = 120) -> list[BaseException]:
    """``work(0)`` to ``work(threads - 1)``, each in a thread of its own, all let go at one moment;
    what they raised, once every one has ended (each within ``seconds``, or the test fails)."""
    barrier = threading.Barrier(threads, timeout=60)  # a thread that never starts fails the others, not hangs them
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as exc:  # collected, for the test to assert
            errors.append(exc)

    started = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in started:
        t.start()
    for t in started:
        t.join(timeout=seconds)
    assert not [t for t in started if t.is_alive()], f"an edit was still running after {seconds:g} seconds"
    return errors


@contextmanager
def held_elsewhere(path: Path, first: str = "") -> Iterator[None]:
    """Another process holds the edit lock of the list ``path`` while this lasts, and is killed with
    it held at the end (its lock file stays). ``first``: code that process runs before (a simulated
    Windows)."""
    with tempfile.TemporaryDirectory() as scratch:
        marker = Path(scratch) / "marker"
        holder = subprocess.Popen([sys.executable, "-c", first + HOLDER, str(path), str(marker)])
        try:
            deadline = time.monotonic() + 60
            while not marker.exists():
                if holder.poll() is not None:
                    pytest.fail(f"the lock holder ended (exit {holder.returncode}) before it took the lock")
                if time.monotonic() > deadline:
                    pytest.fail("the lock holder did not take the lock within 60 seconds")
                time.sleep(0.01)
            yield
        finally:
            holder.kill()
            holder.wait(timeout=30)

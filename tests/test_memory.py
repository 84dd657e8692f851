"""The one bounded cache every long-lived memory uses (``listbuilder.memory.Bounded``)."""

from __future__ import annotations

import threading

from listbuilder.memory import Bounded


def test_it_keeps_the_entries_used_last():
    kept: Bounded[str, int] = Bounded(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # used: "b" is now the oldest
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)
    assert len(kept) == 2


def test_putting_a_key_again_replaces_it_and_keeps_one_entry():
    kept: Bounded[str, int] = Bounded(2)
    assert kept.put("a", 1) == 1
    kept.put("a", 5)
    assert kept.get("a") == 5 and len(kept) == 1


def test_a_size_of_nothing_keeps_nothing():
    kept: Bounded[str, int] = Bounded(0)
    assert kept.put("a", 1) == 1  # what was put is handed back, to use at once
    assert kept.get("a") is None and len(kept) == 0


def test_threads_at_once_never_pass_the_size():
    kept: Bounded[int, int] = Bounded(8)

    def fill(start: int) -> None:
        for i in range(start, start + 500):
            kept.put(i, i)
            kept.get(i - 3)

    threads = [threading.Thread(target=fill, args=(n * 1000,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(kept) == 8


def test_clear_empties_it():
    kept: Bounded[str, int] = Bounded(4)
    kept.put("a", 1)
    kept.clear()
    assert kept.get("a") is None and len(kept) == 0

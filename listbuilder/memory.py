"""What a long-running process keeps in memory, bounded: the one cache class every module uses.

A server holds rule sets, odds answers, boards, games and drawn pages for hours; each is kept in a
``Bounded`` of a size its module chooses, so no sequence of requests makes memory grow without end.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
T = TypeVar("T")


class Bounded(Generic[K, T]):
    """A thread-safe mapping that keeps only its ``size`` most recently used entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> T | None:
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: K, value: T) -> T:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

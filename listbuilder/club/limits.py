"""How often one may try to sign in: failed attempts counted per member and per address.

At most ``PER_MEMBER`` failed attempts for one member (a wrong passphrase), and ``PER_ADDRESS``
from one address (a wrong passphrase or an unknown, used or expired link), within
``WINDOW_SECONDS``; past that, attempts are refused until the oldest failure leaves the window,
and the refusal says when that is. Counted in the server's memory: a restart forgets them.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque

PER_MEMBER = 5
PER_ADDRESS = 20
WINDOW_SECONDS = 15 * 60
MAX_KEYS = 100_000  # addresses and members remembered at once (the longest unseen go first)


class Attempts:
    """Failed sign-ins, per key (``member:NAME``, ``address:IP``)."""

    def __init__(self) -> None:
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def retry_at(self, key: str, limit: int, now: float | None = None) -> float | None:
        """When ``key`` may try again (a time), or ``None``: it may try now."""
        now = time.time() if now is None else now
        with self._lock:
            seen = self._failures.get(key)
            if seen is None:
                return None
            while seen and seen[0] <= now - WINDOW_SECONDS:
                seen.popleft()
            if len(seen) < limit:
                return None
            return seen[-limit] + WINDOW_SECONDS

    def failed(self, key: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        with self._lock:
            seen = self._failures.pop(key, None) or deque(maxlen=max(PER_MEMBER, PER_ADDRESS))
            seen.append(now)
            self._failures[key] = seen
            while len(self._failures) > MAX_KEYS:
                self._failures.popitem(last=False)

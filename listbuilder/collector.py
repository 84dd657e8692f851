"""Pausing the garbage collector around one bounded piece of work, and starting it again after.

Parsing a file, reading and judging a list, loading a catalog and laying out pages make objects
that are all kept to the end, so a collection meanwhile frees nothing and walks ever more of them
(validate of 20,000 entries cost 16x its 2,000, not 10x). Each such piece of work is bounded
(its input is at most ``files.reading.MAX_FILE_BYTES``), so its garbage is too.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_LOCK = threading.Lock()
_owner: int | None = None  # the thread whose block stopped the collector, while one has


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Keep the collector out of the way for the block, then start it again, if it was on.

    The collector is the process's, so one block at a time holds the pause: a block that starts
    while another's pause is on (a nested one, or another thread's in the web builder) leaves it
    alone, and the collector starts again when the block that stopped it ends. It is so never off
    for longer than one bounded piece of work, however busy a server's threads are."""
    global _owner
    with _LOCK:
        mine = _owner is None and gc.isenabled()
        if mine:
            _owner = threading.get_ident()
            gc.disable()
    try:
        yield
    finally:
        if mine:
            with _LOCK:
                _owner = None
                gc.enable()

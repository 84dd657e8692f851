"""listbuilder as a Windows machine runs it, on Linux: the test mode ``LISTBUILDER_SIMULATE=windows``.

Only listbuilder's own modules see Windows; Python's, pytest's and every library's see the real
machine (hiding ``os.getuid`` from pytest itself would stop it making its temporary folders). A
finder placed first on ``sys.meta_path`` loads each ``listbuilder`` module with builtins of its
own, whose ``__import__`` hands it:

* an ``os`` without ``O_NOFOLLOW``, ``O_DIRECTORY``, ``getuid`` and ``geteuid``, with no
  ``dir_fd`` support, ``\\`` as its separator, ``;`` between paths and ``name == "nt"``: what
  Windows' ``os`` offers. Files are still reached through Linux's own ``os.path``;
* no ``fcntl`` (``ModuleNotFoundError``, as on Windows), and the fake ``msvcrt`` beside this file
  (byte-range locks over ``fcntl.lockf``, imported before ``fcntl`` is hidden), when it is there.

``sitecustomize.py`` beside this file applies it to every Python started with this folder first
on ``PYTHONPATH`` (the commands and servers the tests start); ``tests/conftest.py`` puts it there
and applies it to the test process itself, before listbuilder is imported. The tests that matter
on Windows carry ``@pytest.mark.platform``; ``.ci/run`` runs them again in this mode.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib.abc
import importlib.machinery
import os
import sys
import types
from collections.abc import Sequence
from typing import Any

HIDDEN = frozenset({"O_NOFOLLOW", "O_DIRECTORY", "getuid", "geteuid"})
CHANGED: dict[str, Any] = {"sep": "\\", "altsep": "/", "pathsep": ";", "name": "nt", "supports_dir_fd": frozenset()}
NOT_THERE = frozenset({"fcntl"})


def active() -> bool:
    return os.environ.get("LISTBUILDER_SIMULATE") == "windows"


class WindowsOs(types.ModuleType):
    """``os`` as Windows offers it (the names above), everything else the real ``os``."""

    def __getattr__(self, name: str) -> Any:
        if name in HIDDEN:
            raise AttributeError(f"module 'os' has no attribute '{name}' (on Windows)")
        if name in CHANGED:
            return CHANGED[name]
        return getattr(os, name)

    def __dir__(self) -> list[str]:
        return sorted((set(dir(os)) - HIDDEN) | set(CHANGED))


WINDOWS_OS = WindowsOs("os")


def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Sequence[str] = (), level: int = 0) -> Any:
    if level == 0:
        top = name.partition(".")[0]
        if top in NOT_THERE:
            raise ModuleNotFoundError(f"No module named '{name}' (on Windows)", name=name)
        if top == "os":
            return WINDOWS_OS
    return builtins.__import__(name, globals, locals, fromlist, level)


WINDOWS_BUILTINS = {**vars(builtins), "__import__": _import}


class _Loader(importlib.abc.Loader):
    def __init__(self, real: importlib.abc.Loader) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__dict__["__builtins__"] = WINDOWS_BUILTINS  # read by every import its code makes
        self.real.exec_module(module)

    def __getattr__(self, name: str) -> Any:  # get_source, get_filename... for tracebacks and tools
        return getattr(self.real, name)


class WindowsFinder(importlib.abc.MetaPathFinder):
    """Finds listbuilder's modules as the other finders do, and loads them seeing Windows."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != "listbuilder" and not fullname.startswith("listbuilder."):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader)
                return spec
        return None


def apply() -> None:
    """Simulate Windows for listbuilder in this process (once; before listbuilder is imported)."""
    if any(isinstance(f, WindowsFinder) for f in sys.meta_path):
        return
    loaded = sorted(m for m in sys.modules if m == "listbuilder" or m.startswith("listbuilder."))
    if loaded:
        raise RuntimeError(f"simulated Windows must start before listbuilder is imported: {loaded[:3]}")
    with contextlib.suppress(ImportError):
        import msvcrt  # noqa: F401  (the fake one, if there: it takes fcntl before it is hidden)
    sys.meta_path.insert(0, WindowsFinder())

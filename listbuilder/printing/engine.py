"""WeasyPrint, imported without its slow search for Pango (the only module that imports it).

WeasyPrint opens Pango, HarfBuzz, fontconfig and GObject through cffi with a list of names
per library, Windows and macOS names first (``libgobject-2.0-0``, ``gobject-2.0-0``...),
then the Linux soname (``libgobject-2.0.so.0``). cffi hands each name it cannot open to
``ctypes.util.find_library``, which on Linux runs ``ldconfig``, ``gcc`` and ``ld`` to look
for it: some 230 processes and 0.4 s on every import, to end up loading the very soname
further down the list. (Known upstream: Kozea/WeasyPrint#1125 traced the gcc calls to cffi's
dlopen; the names were put in this order for Windows packaging, #2230; the only setting,
``WEASYPRINT_DLL_DIRECTORIES``, is for Windows DLL folders.)

So on Linux, for the thread that imports WeasyPrint and only while it does, ``find_library``
answers "not found" at once, and WeasyPrint goes on to its sonames, which the dynamic
loader finds as it finds any library (``LD_LIBRARY_PATH``, the loader cache, the system
folders). Should that fail (a system where only ``find_library`` knows where Pango is),
WeasyPrint is imported again with the real search, as if this module did nothing. Where
Pango cannot be loaded at all (on Windows and macOS it is installed apart from Python), the
answer is an ``OutputError`` saying how to install it for this system, not a traceback.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import io
import sys
import threading
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING

from listbuilder.errors import ErrorDetail, OutputError

# How WeasyPrint's own guide ("First Steps") has a user install Pango, per system.
PANGO = {
    "win32": "install MSYS2 and, in its shell, 'pacman -S mingw-w64-x86_64-pango', then set "
    "WEASYPRINT_DLL_DIRECTORIES to its DLL folder, e.g. C:\\msys64\\mingw64\\bin",
    "darwin": "install it with Homebrew, 'brew install pango' (and, if it is still not found, set "
    "DYLD_FALLBACK_LIBRARY_PATH=/opt/homebrew/lib)",
}
PANGO_ELSEWHERE = "install Pango with your system's packages, e.g. 'apt-get install libpango-1.0-0 libpangoft2-1.0-0'"


@contextlib.contextmanager
def _loader_finds_the_libraries() -> Iterator[None]:
    real = ctypes.util.find_library
    importer = threading.get_ident()

    def find_library(name: str) -> str | None:
        return None if threading.get_ident() == importer else real(name)

    ctypes.util.find_library = find_library
    try:
        yield
    finally:
        ctypes.util.find_library = real


def _import() -> ModuleType:
    # WeasyPrint (a third of a second) loads only to write a PDF, on first use.
    if not sys.platform.startswith("linux") or "weasyprint" in sys.modules:
        return _import_or_say_how()
    try:
        # WeasyPrint prints its install instructions to stdout before giving up on a library:
        # not ours to show on the fast path, whose failure is not the user's problem.
        with _loader_finds_the_libraries(), contextlib.redirect_stdout(io.StringIO()):
            import weasyprint  # (on first use, as above)
    except OSError:
        return _import_or_say_how()
    return weasyprint


def _import_or_say_how() -> ModuleType:
    try:
        # its own advice is not shown: ours follows, for this system
        with contextlib.redirect_stdout(io.StringIO()):
            import weasyprint  # (on first use, as in _import)
    except OSError as exc:
        raise OutputError(
            "PDFs cannot be made here: the Pango library that WeasyPrint lays them out with did not load",
            details=[
                ErrorDetail(message=str(exc).splitlines()[0] if str(exc) else type(exc).__name__),
                ErrorDetail(
                    message=PANGO.get(sys.platform, PANGO_ELSEWHERE),
                    hint="an HTML document needs no Pango, and everything else works without it",
                ),
            ],
        ) from None
    return weasyprint


if TYPE_CHECKING:  # the type checker reads WeasyPrint's own sources (pyproject: follow_untyped_imports)
    import weasyprint
else:
    weasyprint = _import()

# Loaded by the import above; named here so the PDF writer imports WeasyPrint only from here.
from weasyprint.text.fonts import FontConfiguration  # noqa: E402
from weasyprint.urls import URLFetcher  # noqa: E402

__all__ = ["FontConfiguration", "URLFetcher", "weasyprint"]

"""How WeasyPrint is loaded and how PDFs are written: no process started to find Pango, fonts
subset and streams compressed as WeasyPrint does by default."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from conftest import EXAMPLES, ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fast path is for Linux")

COUNT = """
import subprocess, sys
started = []
real = subprocess.Popen.__init__
def counting(self, *args, **kwargs):
    started.append(args[0] if args else kwargs.get("args"))
    real(self, *args, **kwargs)
subprocess.Popen.__init__ = counting
{before}
from listbuilder.printing.engine import weasyprint
assert weasyprint.HTML(string="<p>x</p>").write_pdf().startswith(b"%PDF")
print(len(started), file=sys.stderr)
"""


def run(before: str = "") -> subprocess.CompletedProcess[str]:
    code = COUNT.format(before=textwrap.dedent(before))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_weasyprint_loads_without_starting_a_process():
    done = run()
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr.strip() == "0"


def test_where_the_sonames_cannot_be_opened_the_real_search_still_finds_the_libraries():
    # A system where only find_library knows the libraries: refuse every soname WeasyPrint names.
    done = run(
        """
        import cffi
        real_dlopen = cffi.FFI.dlopen
        def dlopen(self, name, flags=0):
            if ".so." in str(name):
                raise OSError("no " + name)
            return real_dlopen(self, name, flags)
        cffi.FFI.dlopen = dlopen
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # WeasyPrint's install banner of the first attempt is not shown
    assert int(done.stderr.strip()) > 0  # the second attempt searched as WeasyPrint always does


def test_only_the_importing_thread_is_told_libraries_are_not_found():
    import ctypes.util
    import threading

    from listbuilder.printing.engine import _loader_finds_the_libraries

    real = ctypes.util.find_library("c")
    assert real is not None
    other: list[str | None] = []
    with _loader_finds_the_libraries():
        assert ctypes.util.find_library("c") is None
        thread = threading.Thread(target=lambda: other.append(ctypes.util.find_library("c")))
        thread.start()
        thread.join()
    assert other == [real] and ctypes.util.find_library("c") == real


def test_a_roster_pdf_has_subset_fonts_and_compressed_streams(tmp_path, cli):
    from pypdf import PdfReader

    out = tmp_path / "roster.pdf"
    assert cli("render", EXAMPLES / "might-skirmish-windblade-elves.legal.yaml", "-o", out).exit_code == 0
    reader = PdfReader(out)
    embedded = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            descriptor = font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            key = next(k for k in ("/FontFile3", "/FontFile2", "/FontFile") if k in descriptor)
            embedded[str(font.get_object()["/BaseFont"]).split("+")[-1]] = len(descriptor[key].get_object().get_data())
    shipped = {"Cabin": "Cabin-Regular.otf", "Cabin-Bold": "Cabin-Bold.otf", "Bebas-Neue": "BebasNeue-Regular.otf"}
    fonts = ROOT / "templates" / "fonts"
    assert set(embedded) == set(shipped)
    for name, size in embedded.items():  # only the glyphs used: a fraction of each font file
        assert size < (fonts / shipped[name]).stat().st_size / 3, name
    assert all(page["/Contents"].get_object().get("/Filter") == "/FlateDecode" for page in reader.pages)
    assert out.stat().st_size < 80_000  # 41 KB today; 312 KB with whole fonts and plain streams


def test_a_render_leaves_the_garbage_collector_as_it_found_it():
    """The collector's policy is the process's, set where it starts (``listbuilder.cli.main``,
    ``serve``): library code never changes it."""
    import gc

    from listbuilder.printing import pdf

    before = gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()
    assert pdf.html_to_pdf("<p>x</p>", "").startswith(b"%PDF")
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == before

"""Turn our HTML into PDF with WeasyPrint, locked down: nothing is fetched from anywhere.

Imported only by the commands that write PDF (WeasyPrint takes about 0.3 s to import; engine.py).
The stylesheet is parsed once per process and the fonts are the package's own files, so the
only URLs a render may open are ``data:`` URLs and those font files; every other fetch (http,
other files, ftp...) is refused and counted, whatever a list or a user template tries.
PDFs are written as WeasyPrint writes them by default: fonts subset (with HarfBuzz) and
streams compressed. A two-page roster is 41 KB instead of the 312 KB of whole fonts and plain
streams, drawn pixel for pixel the same, for a few milliseconds more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from listbuilder.printing.engine import FontConfiguration, URLFetcher, weasyprint
from listbuilder.printing.html import font_faces, font_files


class LockedFetcher(URLFetcher):
    """A URL fetcher that serves ``data:`` URLs and the shipped fonts, and refuses the rest."""

    def __init__(self) -> None:
        # WeasyPrint has no annotations, and mypy's untyped_calls_exclude (pyproject) misses super() calls:
        super().__init__(allowed_protocols=["data", "file"], allow_redirects=False, timeout=1)  # type: ignore[no-untyped-call]  # (above)
        self.allowed_files = {path.resolve().as_uri() for path in font_files()}
        self.refused: list[str] = []

    def fetch(self, url: str, headers: Any = None) -> Any:
        if not (url.startswith("data:") or url in self.allowed_files):
            self.refused.append(url)
            raise ValueError(f"listbuilder fetches nothing: refused {url[:80]}")
        return super().fetch(url, headers)  # type: ignore[no-untyped-call]  # (as in __init__)


class _Quiet(logging.Filter):
    # WeasyPrint logs each refused URL and unsupported CSS as a warning; the fetcher keeps
    # the record, and the CLI is not the place for layout-engine chatter.
    def filter(self, record: logging.LogRecord) -> bool:
        return False


logging.getLogger("weasyprint").addFilter(_Quiet())


@lru_cache(maxsize=8)
def _compiled(css: str) -> tuple[weasyprint.CSS, FontConfiguration]:
    # Parsing the stylesheet and loading its fonts is the same work for every render of a
    # process; keep it (keyed by the CSS text, so a user template or paper size gets its own).
    fonts = FontConfiguration()
    sheet = weasyprint.CSS(string=font_faces(embed=False) + "\n" + css, font_config=fonts, url_fetcher=LockedFetcher())
    return sheet, fonts


def html_to_pdf(html: str, css: str, fetcher: LockedFetcher | None = None) -> bytes:
    """Render ``html`` (from ``render.render_document(standalone=False)``) with ``css`` to PDF bytes."""
    sheet, fonts = _compiled(css)
    document = weasyprint.HTML(string=html, base_url="about:blank", url_fetcher=fetcher or LockedFetcher())
    # write_pdf has no annotations; with no target it returns the PDF as bytes (WeasyPrint's docs).
    pdf: bytes = document.write_pdf(stylesheets=[sheet], font_config=fonts, presentational_hints=False)
    return pdf


def htmls_to_pdf(parts: Sequence[str], css: str, done: Callable[[int], None] | None = None) -> bytes:
    """Lay out each of ``parts`` on its own (each numbers its own pages), then write them as one PDF:
    the work grows with the parts, and ``done`` hears of each part laid out (a progress bar)."""
    sheet, fonts = _compiled(css)
    fetcher = LockedFetcher()
    documents = []
    for n, html in enumerate(parts, 1):
        document = weasyprint.HTML(string=html, base_url="about:blank", url_fetcher=fetcher)
        documents.append(document.render(stylesheets=[sheet], font_config=fonts, presentational_hints=False))
        if done is not None:
            done(n)
    pages = [page for document in documents for page in document.pages]
    pdf: bytes = documents[0].copy(pages).write_pdf()
    return pdf

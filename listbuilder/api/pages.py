"""Pages on a screen, shown with the print templates: one Jinja environment, its stylesheet and fonts.

A web page is rendered by the same Jinja environment, filters and escaping as a printed roster
(``render_template``), so a user's template folder overrides a page's templates as it overrides
print's. A group of its own, apart from ``api.printing``'s documents, so that a server can show
its first page without loading the document stack (``benchmarks/bench_serve.py``).
"""

from __future__ import annotations

from listbuilder.printing.html import environment as environment
from listbuilder.printing.html import font_files as font_files
from listbuilder.printing.html import render_template as render_template
from listbuilder.printing.html import stylesheet as stylesheet

__all__ = ["environment", "font_files", "render_template", "stylesheet"]

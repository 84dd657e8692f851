"""mkdocs hook: a page may take a section of the README word for word, so the two never disagree.

A line ``<!-- readme: ## Exit codes -->`` is replaced by the README's section of that heading (up to
the next heading of its level or higher), with its picture paths made relative to ``docs/``.
A heading the README does not have fails the build (``mkdocs build --strict``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
_MARK = re.compile(r"^<!-- readme: (#+ .+?) -->$", re.MULTILINE)


def readme_section(heading: str, text: str | None = None) -> str:
    """The README's section under ``heading`` (``## Exit codes``), without the heading itself."""
    lines = (text if text is not None else README.read_text(encoding="utf-8")).splitlines()
    level = len(heading.split()[0])
    try:
        start = lines.index(heading)
    except ValueError:
        raise ValueError(f"the README has no heading {heading!r}") from None
    end = next((i for i in range(start + 1, len(lines)) if re.match(rf"^#{{1,{level}}} ", lines[i])), len(lines))
    body = "\n".join(lines[start + 1 : end]).strip()
    # the README's own pictures live in docs/; its links to folders of the repository stay as text
    return body.replace("](docs/", "](") + "\n"


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return _MARK.sub(lambda m: readme_section(m.group(1)), markdown)

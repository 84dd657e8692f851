"""The pocket copy of a list: one HTML file that holds the roster, the rules its units use, the
rules card, the odds against each opponent worked out when it was made, and a game tracker.

The file makes no request of any kind: its styles and script are inside it, it uses the system's
fonts (the shipped ones would more than double its size), and its Content-Security-Policy allows
no connection, no other script and no frame. The tracker is ``pocket.js``, a file of its own; it
plays the board that ``listbuilder.play.tracker`` writes out, as the served play page plays it.
Whatever the list holds, it reaches the page as text: Jinja escapes the HTML, and the board's
JSON is written so that no ``</script>`` or comment can end its element.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from listbuilder.army.report import Report
from listbuilder.errors import InputError
from listbuilder.printing import pages
from listbuilder.printing.html import render_template, stylesheet
from listbuilder.printing.output import with_matchups

# The most a pocket file may weigh: it travels by e-mail and chat, and opens on old phones. A
# 16-fighter list with two opponents' odds is about a tenth of it.
MAX_BYTES = 2_000_000

HERE = Path(__file__).parent


@cache
def _own(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def script() -> str:
    """The tracker's script, as it goes into the file."""
    return _own("pocket.js")


def _hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def policy(code: str) -> str:
    """The file's Content-Security-Policy: its own styles and its one script, nothing fetched."""
    return (
        "default-src 'none'; "
        f"script-src '{_hash(code)}'; "
        "style-src 'unsafe-inline'; "
        "img-src data:; "
        "connect-src 'none'; "
        "form-action 'none'; "
        "base-uri 'none'"
    )


def embedded_json(data: Mapping[str, Any]) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` (so no
    ``</script>`` or ``<!--``), and no line separators that old parsers end a string at."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escaped)
    return text


def list_key(text: bytes) -> str:
    """The key a game of a list is kept under in the browser: the list file's content, hashed."""
    return hashlib.sha256(text).hexdigest()[:32]


def pocket_html(report: Report, opponents: Sequence[Report], tracker: Mapping[str, Any], key: str) -> str:
    """The pocket file of ``report``: roster, reference sheet (with the odds against each of
    ``opponents``), rules card and the tracker of ``tracker`` (``play.tracker.tracker_data``),
    its game kept under ``key``."""
    sheets = pages.reference_sheet([report])
    for opponent in opponents:
        sheets = [with_matchups(sheet, [report], opponent, keep=True) for sheet in sheets]
    code = script()
    html = render_template(
        "pocket.html",
        {
            "title": pages.cut(report.army.name, pages.TITLE_CHARS) + ": pocket copy",
            "name": pages.cut(report.army.name, pages.TITLE_CHARS),
            "rosters": [pages.roster(report)],
            "references": sheets,
            "cards": [pages.card(report.system)],
            "opponents": [o.army.name for o in opponents],
            "style": stylesheet("a4") + "\n" + _own("pocket.css"),
            "csp": policy(code),
            "data": embedded_json({**tracker, "key": key}),
            "script": code,
        },
    )
    size = len(html.encode("utf-8"))
    if size > MAX_BYTES:
        raise InputError.detailed(
            f"the pocket copy of {pages.cut(report.army.name, 80)} would be {size:,} bytes, "
            f"past the {MAX_BYTES:,} a pocket copy may weigh",
            "make it with fewer opponents' lists, or print the list instead",
            file=Path(report.army.file) if report.army.file else None,
        )
    return html

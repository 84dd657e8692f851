"""QR codes of exported lists, drawn by segno as SVG (no raster library, nothing fetched).

An opponent scans the code from a screen or a printed roster and gets the list's text export,
which ``listbuilder import`` (or the web builder's import box) reads back.
"""

from __future__ import annotations

import io

import segno

from listbuilder.errors import InputError


def svg(text: str, title: str = "") -> str:
    """``text`` as a QR code, an ``<svg>`` element without a size (the page sets it), dark on white."""
    try:
        code = segno.make(text, error="m", micro=False, boost_error=False)
    except segno.DataOverflowError:
        raise InputError.detailed(
            f"the list is too long for a QR code ({len(text.encode('utf-8')):,} bytes of text)",
            "a QR code holds about 2,300 bytes at this error correction",
            hint="share the text or the file instead",
        ) from None
    out = io.BytesIO()
    code.save(
        out, kind="svg", xmldecl=False, svgns=True, title=title or None, scale=1, border=4,
        svgclass="qr-code", lineclass=None, omitsize=True, dark="#000", light="#fff",
    )  # fmt: skip
    return out.getvalue().decode("utf-8")

"""What the picture scripts share (web_pictures.py, unit_pictures.py, play_pictures.py,
guide_pictures.py): a real
`listbuilder serve` on a folder of lists, Debian's Chromium at /usr/bin/chromium through the
`playwright` package, and where the pictures go.

Each script takes one optional argument, a folder to write its pictures to instead of docs/ (to
look at them, or to try a script without touching the README's).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def pictures() -> Path:
    """The folder the pictures go to: the script's argument, or docs/."""
    if len(sys.argv) > 2:
        sys.exit(f"usage: python {sys.argv[0]} [FOLDER]  (default: docs/)")
    folder = Path(sys.argv[1]) if len(sys.argv) == 2 else ROOT / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def example(name: str) -> str:
    """The text of the example list ``examples/NAME``."""
    return (ROOT / "examples" / name).read_text(encoding="utf-8")


@contextmanager
def serving(lists: Mapping[str, str]) -> Iterator[str]:
    """`listbuilder serve` on a new folder named club-lists that holds ``lists`` (file name -> text);
    yields its address (``http://127.0.0.1:PORT``), and stops it and removes the folder at the end."""
    folder = Path(tempfile.mkdtemp(prefix="pictures-")) / "club-lists"
    folder.mkdir()
    try:
        for name, text in lists.items():
            (folder / name).write_text(text, encoding="utf-8")
        proc = subprocess.Popen(
            [sys.executable, "-m", "listbuilder", "serve", str(folder), "--port", "0", "--no-open"],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None
            url = re.search(r"(http://\S+?)/", proc.stdout.readline())
            assert url, "listbuilder serve did not start"
            yield url.group(1)
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Chromium, closed at the end."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        try:
            yield browser
        finally:
            browser.close()

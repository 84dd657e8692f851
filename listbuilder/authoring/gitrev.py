"""Read a catalog folder as it was at a git revision, without a shell and without trusting the revision.

``git`` runs as a plain argument list (never through a shell), with the revision checked first
(``rev-parse --verify --end-of-options``, so a value such as ``--output=x`` is never an option),
then every file under the folder is read with ``git show COMMIT:PATH`` into a fresh folder.
Sizes and counts are bounded, and nothing is written outside that folder.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path, PurePosixPath

from listbuilder.errors import ErrorDetail, InputError
from listbuilder.files.reading import MAX_FILE_BYTES

MAX_FILES = 2000
MAX_TOTAL_BYTES = 64 * 1024 * 1024
TIMEOUT = 30
_SAFE_REV = re.compile(r"^[A-Za-z0-9_./~^@{}:+-]{1,200}$")


def _git(args: list[str], cwd: Path, what: str) -> bytes:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise InputError.detailed("reading a git revision needs git, and git is not installed", what) from None
    except subprocess.TimeoutExpired:
        raise InputError(f"git took more than {TIMEOUT} s to {what}", file=cwd) from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"git could not {what}", file=cwd, details=[ErrorDetail(message=m) for m in message[:3]])
    return done.stdout


def check_revision(rev: str) -> str:
    """``rev`` if it reads as a revision (``HEAD~1``, ``v2``, ``a1b2c3``), else a clear ``InputError``."""
    if not _SAFE_REV.match(rev) or rev.startswith("-"):
        raise InputError.detailed(f"'{rev}' is not a git revision", "give a commit, tag or branch, e.g. HEAD~1 or v2")
    return rev


def folder_at(folder: Path, rev: str, into: Path) -> Path:
    """Write ``folder`` as it was at ``rev`` into ``into/<folder name>`` and return that path."""
    check_revision(rev)
    if not folder.is_dir():
        raise InputError.detailed("no such folder", "name a rule set's folder", file=folder)
    top = Path(_git(["rev-parse", "--show-toplevel"], folder, "find the repository").decode().strip())
    commit = (
        _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], folder, f"find '{rev}'")
        .decode()
        .strip()
    )
    prefix = PurePosixPath(folder.resolve().relative_to(top.resolve()).as_posix())
    listing = _git(["ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--", str(prefix)], top, "list the folder")
    target = into / folder.name
    total = 0
    count = 0
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, _, size = meta.decode().split()
        path = PurePosixPath(raw_path.decode("utf-8", "replace"))
        if kind != "blob" or mode not in ("100644", "100755") or ".." in path.parts:
            continue  # links and submodules are never followed
        count += 1
        total += int(size) if size.isdigit() else 0
        if count > MAX_FILES or int(size) > MAX_FILE_BYTES or total > MAX_TOTAL_BYTES:
            raise InputError.detailed(
                f"the folder at {rev} is too big to read",
                f"at most {MAX_FILES} files of {MAX_FILE_BYTES:,} bytes",
                file=folder,
            )
        data = _git(["show", "--no-textconv", f"{commit}:{path}"], top, f"read {path} at {rev}")
        out = target / path.relative_to(prefix)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    if count == 0:
        raise InputError.detailed(
            f"the folder did not exist at {rev}", f"git has no files under {prefix} in {commit[:12]}", file=folder
        )
    return target

"""A command's output written to a file: atomically, and never over what the command read."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from listbuilder.files.writing import write_output
from listbuilder.rules.catalog import Catalogs

__all__ = ["write_file"]


def write_file(
    path: Path,
    data: bytes,
    *,
    inputs: Sequence[Path] = (),
    catalogs: Catalogs | None = None,
    overwrite: bool = True,
) -> Path:
    """Write ``data`` to ``path`` atomically: nothing half-written, only over a regular file, and
    never over one of ``inputs`` (files, or folders standing for every file in them) or a file of
    ``catalogs``' rule sets. A refusal is an ``OutputError`` (exit code 3) and touches nothing."""
    write_output(path, data, read_by(inputs, catalogs), overwrite=overwrite)
    return path


def read_by(inputs: Sequence[Path], catalogs: Catalogs | None = None) -> list[Path]:
    """What a command read, for ``write_file`` to keep its output off: ``inputs`` and the folders
    of ``catalogs``' rule sets."""
    return [*inputs, *(catalogs.sources() if catalogs is not None else ())]

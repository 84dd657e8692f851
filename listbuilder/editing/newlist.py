"""The text of a new, empty list file: a header of commands, its rule set, name and limit."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from listbuilder.editing.values import bad_limit, check_name
from listbuilder.editing.yamltext import scalar
from listbuilder.rules.system import System

DEFAULT_SCHEMA_REF = "{id}.schema.json"  # '{id}' becomes the rule set id


def new_list(
    system: System,
    name: str | None = None,
    limit: int | None = None,
    *,
    revision: int | None = None,
    schema_ref: str | None = DEFAULT_SCHEMA_REF,
    file_name: str | None = None,
    catalog_folders: Sequence[Path] = (),
) -> str:
    """The text of a new, empty list file for ``system``.

    ``name`` defaults to "New <force>" (e.g. "New warband"); ``limit`` to the rule set's standard
    game, if it has one. ``revision`` adds a ``revision:`` line. ``schema_ref`` is the JSON Schema
    an editor should use (``{id}`` is replaced by the rule set id; ``None`` leaves the line out).
    ``file_name`` goes into the header's example commands, and so do the ``catalog_folders`` it
    was made with (a rule set of one's own: ``--catalogs my-catalogs``).
    """
    name = check_name(f"New {system.definition.force}" if name is None else name)
    if limit is None:
        limit = system.definition.default_limit
    elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise bad_limit(system.size_unit, limit)
    file_arg = shlex.quote(file_name) if file_name else "FILE"
    folders = "".join(f" --catalogs {shlex.quote(str(folder))}" for folder in catalog_folders)
    title = " ".join(system.definition.name.split())
    lines = []
    if schema_ref is not None:
        lines.append(f"# yaml-language-server: $schema={schema_ref.replace('{id}', system.id)}")
    lines += [
        f"# An army list for {title} ({system.id}), made with listbuilder.",
        f"#   check it: listbuilder validate {file_arg}{folders}",
        f"#   print it: listbuilder render {file_arg} -o roster.pdf{folders}",
        f"#   units:    listbuilder catalog {system.id}{folders}",
        "# Each entry is '- unit: NAME' (and 'count: N'), or '- name: NAME' with the stats of a custom unit.",
        f"system: {scalar(system.id)}",
    ]
    if revision is not None:
        lines.append(f"revision: {int(revision)}")
    lines.append(f"name: {scalar(name)}")
    if limit is not None:
        lines.append(f"{system.size_unit}: {limit}")
    lines.append("units: []")
    return "\n".join(lines) + "\n"

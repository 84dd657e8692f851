"""A new, empty list file: its text (a header of commands, its rule set, name and limit), its file
name from the list's name, and where it may go."""

from __future__ import annotations

import re
import shlex
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from listbuilder.editing.values import check_limit, check_name
from listbuilder.editing.yamltext import scalar
from listbuilder.errors import Action, InputError
from listbuilder.rules.catalog import FACTIONS_DIR
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
    else:
        check_limit(system.size_unit, limit)
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


def size_wanted(system: System) -> InputError:
    """The refusal of a new list without a size, for a rule set with no standard one."""
    title = " ".join(system.definition.name.split())
    unit = system.size_unit
    return InputError.detailed(
        f"{title} has no standard size: a new list needs the size the players agreed",
        f"give the limit in {unit}, the size you and your opponent play at",
        action=Action(kind="size", system=system.id, example=(("unit", unit),)),
    )


def file_name_for(system: System, name: str | None) -> Path:
    """The file name a new list gets from its name, in any script: ``zombie-family.yaml``,
    ``ゾンビ家族.yaml``; an ``InputError`` asking for ``-o`` when the name has no letters or digits."""
    words = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", name or f"new {system.definition.force}").casefold())
    stem = ""
    for word in words:  # at most about 60 characters, cut between words
        if stem and len(stem) + 1 + len(word) > 60:
            break
        stem = f"{stem}-{word}" if stem else word[:60]
    if not stem:
        raise InputError.detailed(
            f"cannot make a file name from the name '{name}'",
            "choose the file's name yourself",
            action=Action(kind="output"),
        )
    return Path(f"{stem}.yaml")


def new_list_target(
    system: System, output: Path | None, name: str | None, limit: int | None, measure: str | None
) -> Path:
    """Where a new list goes: ``output``, or a file named after the list (``file_name_for``).

    Refused (``InputError``): no ``limit`` where the rule set has no standard size to stand for
    one, a ``limit`` in a ``measure`` the rule set does not count in, a file in a factions folder
    (the catalogs would read it as a faction), and a file that exists."""
    if limit is None and system.needs_size:
        raise size_wanted(system)
    if measure is not None and limit is not None and measure != system.size_unit:
        raise InputError.detailed(
            f"{system.id} counts a force in {system.size_unit}, not {measure}",
            f"give the limit in {system.size_unit}: {limit} {system.size_unit}",
        )
    target = output or file_name_for(system, name)
    if target.parent.name == FACTIONS_DIR:  # catalogs read every .yaml there as a faction
        raise InputError.detailed(
            f"a list cannot go in a {FACTIONS_DIR}/ folder",
            (
                f"the catalogs read every file in a {FACTIONS_DIR}/ folder as a faction of units, "
                "so a list there would break them"
            ),
            file=target,
            hint="put the list beside the catalogs, not inside them",
        )
    if target.exists():
        raise InputError.detailed(
            "refusing to overwrite an existing file",
            "choose another file, or edit the list that is there",
            file=target,
            action=Action(kind="output"),
        )
    return target

"""Sharing and comparing lists: exports, imports, the editor schema, diffs and QR codes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from listbuilder.api.files import write_file
from listbuilder.api.lists import check_list
from listbuilder.army.report import Report
from listbuilder.editing import folder as lists
from listbuilder.errors import Action, InputError
from listbuilder.files.reading import read_text
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.share import exchange
from listbuilder.share.diff import ListDiff, describe, diff_versions, factions_of, versions_of_one_list
from listbuilder.share.diff import diff_reports as diff_lists
from listbuilder.share.editorschema import all_lists_schema, list_schema, schema_text
from listbuilder.share.exchange import Imported
from listbuilder.share.gitdriver import driver_output
from listbuilder.share.qr import svg as qr_svg
from listbuilder.words import choose

__all__ = [
    "FolderImport",
    "Imported",
    "ListDiff",
    "diff_files",
    "diff_lists",
    "editor_schema",
    "export_list",
    "factions_of",
    "git_diff",
    "import_file",
    "import_folder_list",
    "import_list",
    "import_noted",
    "qr_svg",
    "versions_of_one_list",
]

EXPORT_FORMATS = ("text", "markdown", "json", "yaml")


def editor_schema(catalogs: Catalogs, system_id: str | None = None) -> str:
    """The JSON Schema of list files (of one rule set, or of all), as text for editors."""
    return schema_text(list_schema(catalogs.get(system_id)) if system_id else all_lists_schema(catalogs))


def export_list(report: Report, format: str = "text", *, embed: bool = False) -> str:
    """A list as ``text`` or ``markdown`` (for a chat or a forum), ``json`` (for programs), or
    ``yaml`` (a clean list file; ``embed`` writes every catalog unit out in full)."""
    fmt = choose("format", format, EXPORT_FORMATS)
    if embed and fmt != "yaml":
        raise InputError.detailed(
            f"every unit is written out in full only in a yaml export, not in {fmt}",
            "export the list as yaml to write its units out",
            action=Action(kind="embed"),
        )
    if fmt == "yaml":
        return exchange.embed(report) if embed else exchange.clean_yaml(report)
    writers = {"text": exchange.export_text, "markdown": exchange.export_markdown, "json": exchange.export_json}
    return writers[fmt](report)


def import_list(text: str, catalogs: Catalogs, source: Path = Path("<text>"), system: str | None = None) -> str:
    """List-file YAML from a text, markdown or JSON export, or from a list typed by hand for rule
    set ``system`` when the text names none (``source`` names it in messages)."""
    return import_noted(text, catalogs, source, system).text


def import_noted(text: str, catalogs: Catalogs, source: Path = Path("<text>"), system: str | None = None) -> Imported:
    """``import_list``, with a note for each cost the text wrote that these catalogs do not give,
    for a total that is not the units', and for the lines around the list it skipped."""
    return exchange.import_with_notes(text, source, catalogs, system or None)


def import_file(path: Path, catalogs: Catalogs, system: str | None = None) -> Imported:
    """``import_noted`` of a file's text."""
    return import_noted(read_text(path, "exported list"), catalogs, path, system)


def diff_files(old: Path, new: Path, catalogs: Catalogs) -> ListDiff:
    """``diff_lists`` of two list files; lists of two rule sets are refused (their measures differ)."""
    return diff_versions(check_list(old, catalogs), check_list(new, catalogs), new)


def git_diff(args: Sequence[str], catalogs: Catalogs) -> str:
    """``diff`` as git's external diff driver: ``PATH OLD OLD-HEX OLD-MODE NEW NEW-HEX NEW-MODE [...]``.

    A side that does not exist (an added or deleted file) or is not a list falls back to a
    plain unified diff, so git always shows something."""
    return driver_output(args, lambda old, new: describe(diff_files(old, new, catalogs)))


def import_folder_list(folder: Path, catalogs: Catalogs, text: str, system: str | None = None) -> FolderImport:
    """Read a list exported as text, markdown or JSON, or typed by hand for rule set ``system``,
    into a new file of ``folder``: its name, and the import's notes."""
    imported = import_noted(text, catalogs, Path("pasted text"), system)
    list_name = parse_yaml(imported.text, Path("pasted text")).data.get("name") or "imported list"
    with lists.LOCK:
        file = lists.free_name(folder, str(list_name))
        write_file(lists.list_path(folder, file), imported.text.encode("utf-8"), overwrite=False)
    return FolderImport(file=file, notes=imported.notes)


@record
class FolderImport(Record):
    """A list imported into a folder: the file's name there, and what the import noted."""

    file: str
    notes: tuple[str, ...] = ()

"""What each command does, as library functions: the CLI only parses options and prints."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from listbuilder.army.constraints import Problem, check_unit
from listbuilder.army.costing import CostPart, cost_parts
from listbuilder.army.listfile import read_list
from listbuilder.army.report import Report, build_report
from listbuilder.errors import ErrorDetail, InputError, did_you_mean
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System, user_roots
from listbuilder.rules.formats import Unit
from listbuilder.yamlfile import Document, write_output


def open_catalogs(dirs: Sequence[Path] | None = None) -> Catalogs:
    """The shipped catalogs plus the user's (``--catalogs`` and ``LISTBUILDER_CATALOGS``)."""
    return Catalogs(user_roots(dirs))


def check_list(path: Path, catalogs: Catalogs) -> Report:
    """Read, cost and judge one list file."""
    army, system = read_list(path, catalogs)
    return build_report(army, system)


def _as_option(detail: ErrorDetail) -> ErrorDetail:
    """Reword a unit error for the command line: name the option, not a YAML path."""
    message = detail.message.replace("the stat '", "the option --").replace("' (", " (")
    if detail.path:
        message = f"--{detail.path[-1]}: {message}"
    return ErrorDetail(message=message, hint=detail.hint)


@record
class Pricing(Record):
    """A statline priced term by term, with the rules it breaks on its own."""

    system: System
    unit: Unit
    parts: list[CostPart]
    problems: list[Problem]

    @property
    def total(self) -> int:
        return sum(p.points for p in self.parts)


def parse_stat_options(system: System, args: Sequence[str]) -> dict[str, object]:
    """Turn ``--speed 6 --range=24 --traits attacker,big-guns`` into stat values.

    Numbers become ints; 'choices' stats take a comma-separated list. Unknown options get a
    did-you-mean hint.
    """
    source = Path("command line")
    stats = system.definition.stats
    values: dict[str, object] = {}
    errors: list[ErrorDetail] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--"):
            errors.append(ErrorDetail(message=f"unexpected '{arg}'", hint="give stats as --stat VALUE"))
            i += 1
            continue
        key, _, value = arg[2:].partition("=")
        if not value:
            if i + 1 >= len(args):
                errors.append(ErrorDetail(message=f"--{key} needs a value"))
                break
            value = args[i + 1]
            i += 1
        i += 1
        key = key.replace("-", "_") if key.replace("-", "_") in stats else key
        if key == "name":
            values["name"] = value
            continue
        stat = stats.get(key)
        if stat is None:
            options = [f"--{k}" for k in stats]
            errors.append(
                ErrorDetail(
                    message=f"{system.id} has no stat --{key}",
                    hint=did_you_mean(f"--{key}", options) or f"its stats: {', '.join(options)}",
                )
            )
        elif stat.kind == "number":
            try:
                values[key] = int(value)
            except ValueError:
                errors.append(ErrorDetail(message=f"--{key} must be a whole number, found '{value}'"))
        elif stat.kind == "choices":
            values[key] = [v.strip() for v in value.split(",") if v.strip()]
        else:
            values[key] = value
    if errors:
        raise InputError("these options cannot be used", file=source, details=errors)
    return values


def price(system: System, stats: dict[str, object], unit_name: str | None = None) -> Pricing:
    """Price a catalog unit (by name) or a custom statline, and check it against the unit rules."""
    if unit_name is not None:
        unit = system.find_unit(unit_name)
        if unit is None:
            hint = (
                did_you_mean(unit_name, [u.name for u in system.units.values()])
                or f"'listbuilder catalog {system.id}' lists them"
            )
            raise InputError(f"no unit '{unit_name}' in the {system.id} catalogs", details=[ErrorDetail(message=hint)])
    else:
        data = {"name": "Custom unit", **stats}
        doc = Document(path=Path("command line"), data=data, positions={}, text="")
        found, errors = system.read_unit(data, doc, ())
        if found is None:
            raise InputError(
                "this statline cannot be priced", file=Path("command line"), details=[_as_option(e) for e in errors]
            )
        unit = found
    return Pricing(system=system, unit=unit, parts=cost_parts(system, unit), problems=check_unit(system, unit))


def diff_files(old: Path, new: Path, catalogs: Catalogs) -> str:
    """The game-terms account of what changed from ``old`` to ``new``."""
    from listbuilder.share.diff import describe, diff_reports

    return describe(diff_reports(check_list(old, catalogs), check_list(new, catalogs)))


def git_diff(args: Sequence[str], catalogs: Catalogs) -> str:
    """``diff`` as git's external diff driver: ``PATH OLD OLD-HEX OLD-MODE NEW NEW-HEX NEW-MODE [...]``.

    A side that does not exist (an added or deleted file) or is not a list falls back to a
    plain unified diff, so git always shows something."""
    import difflib

    if len(args) < 7:
        raise InputError(
            "git passes seven arguments to a diff driver",
            details=[ErrorDetail(message=f"got {len(args)}", hint="set it up as the README says")],
        )
    path, old, new = args[0], Path(args[1]), Path(args[4])
    header = f"listbuilder diff a/{path} b/{path}"
    if str(old) != "/dev/null" and str(new) != "/dev/null":
        try:
            return f"{header}\n{diff_files(old, new, catalogs)}"
        except InputError as exc:
            note = f"(not compared as lists: {exc.summary})"
    else:
        note = "(new file)" if str(old) == "/dev/null" else "(deleted file)"

    def lines(p: Path) -> list[str]:
        return (
            [] if str(p) == "/dev/null" else p.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        )

    plain = difflib.unified_diff(lines(old), lines(new), f"a/{path}", f"b/{path}")
    return f"{header} {note}\n" + "".join(plain).rstrip("\n")


def create_list(
    catalogs: Catalogs, system_id: str, output: Path | None, name: str | None, limit: int | None
) -> list[Path]:
    """Write a new list file (never over an existing one) and its editor schema beside it."""
    import re

    from listbuilder.share.editing import new_list
    from listbuilder.share.editorschema import list_schema, schema_text

    system = catalogs.get(system_id)
    target = output or Path(
        re.sub(r"[^a-z0-9]+", "-", (name or f"new {system.definition.force}").lower()).strip("-") + ".yaml"
    )
    if target.exists():
        raise InputError(
            "refusing to overwrite an existing file",
            file=target,
            details=[ErrorDetail(message="choose another name with -o, or edit it with 'listbuilder add'")],
        )
    text = new_list(system, name, limit, revision=system.definition.revision, file_name=target.name)
    write_output(target, text.encode("utf-8"), overwrite=False)
    written = [target]
    schema = target.parent / f"{system.id}.schema.json"
    if not schema.exists():
        write_output(schema, schema_text(list_schema(system)).encode("utf-8"))
        written.append(schema)
    return written

"""Plain-text views of the API's records, for the terminal.

Every function returns a string and never prints. The command line shows records through these;
the game's phrases for a total or a statline (``lists.total_text``, ``lists.stats_line``) come from
the engine (``army/phrases.py``), so the terminal words them as every other face does.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from listbuilder.errors import shown

if TYPE_CHECKING:
    from listbuilder.api.authoring import CatalogCheck, Repricing, Verdict
    from listbuilder.api.doctor import DoctorAnswer
    from listbuilder.api.editing import EditResult
    from listbuilder.api.lists import CostPart, Pricing, Problem, Report
    from listbuilder.api.rulesets import CatalogListing, CatalogUnit, System, Unit
    from listbuilder.api.sharing import ListDiff
    from listbuilder.errors import Action, ErrorDetail

# Characters that steer a terminal rather than show: C0 controls but tab and newline, DEL, C1
# controls (ESC sequences set the window title or clear the screen), and the bidi overrides
# that make text read in another order than it is stored.
_STEERING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(char: str) -> str:
    # C0 controls as \x1b (JSON and YAML output never hold them bare); the rest as \u009b, which
    # JSON and double-quoted YAML read back as the same character, so piped output stays exact.
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every character that would steer the terminal shown as its escape (``\\x1b``)."""
    return _STEERING.sub(lambda m: _escape(m.group()), text)


def table(rows: Sequence[Sequence[str]], right: Sequence[int] = (), indent: str = "  ") -> list[str]:
    """Rows padded into columns; the columns numbered in ``right`` are right-aligned.

    Cells are made ``visible`` first, so a name with an escape in it still lines up."""
    if not rows:
        return []
    rows = [[visible(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def problem_lines(problems: Sequence[Problem], report: Report | None = None, strict: bool = False) -> list[str]:
    """Two lines a problem: what is wrong and where (the list file's line, the entries numbered
    from 1, the command for the next step it points to), then the rule it breaks and where the
    rule text gives it. With ``strict`` a warning is shown as the error it is then."""
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    out = []
    entries = report.army.entries if report is not None else ()
    for p in problems:
        place = lists.problem_place(p, entries)
        where = f"{place}: " if place else ""
        extra = command_hint(p.action) if p.action is not None else None
        severity = "error" if strict else p.severity
        out.append(f"  {severity:<7} {where}{p.message}" + (f" ({extra})" if extra else ""))
        source = f" [{lists.citation(p.source)}]" if p.source else ""
        made = " (a warning; --strict makes it an error)" if strict and p.severity == "warning" else ""
        out.append(f"          rule: {p.rule}{source}{made}")
    return out


def validation(report: Report, strict: bool = False) -> str:
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    lines = [f"{shown(report.army.file)}: {lists.headline(report, strict)}"]
    lines += size_lines(report, strict)
    lines += problem_lines(report.problems, report, strict)
    return "\n".join(lines)


def size_lines(report: Report, strict: bool = False) -> list[str]:
    """For a list with no size agreed: why it is not called legal, and the command that sets one."""
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    if report.verdict(strict) != "no size agreed":
        return []
    file = shlex.quote(shown(report.army.file)) if report.army.file else "FILE"
    return [
        f"  note    {lists.size_advice(report)}",
        f"          (listbuilder set {file} {report.system.size_unit} N)",
    ]


def points(report: Report, strict: bool = False) -> str:
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    rows = [["#", "unit", "count", "each", report.unit]]
    for line in report.lines:
        e = line.entry
        lead = lists.leader_tag(report.system, e.count, e.leaders) if e.leaders else ""
        name = e.unit.name + lead + (" (custom)" if e.custom else "")
        rows.append([str(e.number), name, f"{e.count:,}", f"{line.unit_cost:,}", f"{line.cost:,}"])
    limit = f" of {report.limit:,}" if report.limit else ""
    rows.append(["", "total", "", "", f"{report.total:,}{limit}"])
    # the rule set's name may hold brackets of its own: no brackets around it
    lines = [f"{report.army.name} · {report.system.definition.name} · {shown(report.army.file)}"]
    lines += table(rows, right=(0, 2, 3, 4))
    lines.append(f"  {lists.headline(report, strict)}")
    lines += size_lines(report, strict)
    lines += problem_lines(report.problems, report, strict)
    return "\n".join(lines)


def cost(system: System, unit: Unit, parts: Sequence[CostPart], problems: Sequence[Problem]) -> str:
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    total = sum(p.points for p in parts)
    lines = [f"{unit.name} ({system.id}): {lists.stats_line(system, unit)}"]
    rows = [[f"{p.label} {p.value}", p.rate, f"{p.points:,}"] for p in parts]
    rows.append(["total", "", f"{lists.amount(total, system.measure)}"])
    lines += table(rows, right=(2,))
    if problems:
        errors = any(p.severity == "error" for p in problems)
        lines.append("  NOT LEGAL:" if errors else "  legal, with warnings:")
        lines += problem_lines(problems)
    else:
        lines.append("  legal statline")
    return "\n".join(lines)


def stats_guide(guide: ErrorDetail) -> str:
    """A rule set's stats and how to give them to ``cost``: the guide's text, its example under it."""
    hint = guide.full_hint(command_hint)
    return guide.message + (f"\n  {hint}" if hint else "")


def systems(all_systems: Sequence[System]) -> str:
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    rows = [["id", "name", "costed in", "standard game", "units", "extends"]]
    for s in all_systems:
        d = s.definition
        rows.append(
            [
                d.id,
                d.name,
                s.size_unit,
                lists.amount(d.default_limit, s.measure) if d.default_limit else "agreed",
                str(len(s.units)),
                s.base or "–",
            ]
        )
    return "\n".join(table(rows, indent=""))


def catalog(listing: CatalogListing) -> str:
    """A catalog's units by faction, each with its stats and cost."""
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    system = listing.system
    d = system.definition
    lines = [f"{d.name} ({d.id}): {d.summary}", ""]
    by_faction: dict[str | None, list[CatalogUnit]] = {}
    for item in listing.units:
        by_faction.setdefault(item.unit.faction, []).append(item)
    for name, items in by_faction.items():
        lines.append(f"{name}")
        rows = []
        for item in items:
            u = item.unit
            lead = lists.leader_tag(system) if u.leader else ""
            rows.append([u.name + lead, lists.stats_line(system, u), lists.amount(item.cost, system.measure)])
        lines += table(rows, right=(2,))
        lines.append("")
    return "\n".join(lines).rstrip()


def pricing(result: Pricing) -> str:
    """A priced statline, term by term, and its verdict."""
    return cost(result.system, result.unit, result.parts, result.problems)


def edited(result: EditResult, done: str) -> str:
    """What an edit did and left: the change, then the list's new total and verdict."""
    judged = validation(result.report) if result.report is not None else "the list cannot be read"
    return f"{result.path}: {done if result.changed else 'unchanged'}\n{judged}"


def list_diff(d: ListDiff) -> str:
    """What changed between two lists, in game terms."""
    return d.text()


def doctor(answer: DoctorAnswer) -> str:
    """What ``fix`` and ``fill`` print: the list, then each suggestion, best first."""
    from listbuilder.api import lists  # the engine loads only when a command runs: --version and --help stay light

    report = answer.report
    army = report.army
    out = [f"{army.file or army.name}: {army.name} ({army.system}), {lists.total_text(report)}"]
    if answer.why:
        extra = command_hint(answer.action) if answer.action is not None else None
        out.append(f"  {answer.status}: {answer.why}" + (f" ({extra})" if extra else ""))
    elif answer.status in ("nothing to fix", "nothing to add"):
        out.append(f"  {answer.status}")
    out += [f"  {i}. {s.text()}" for i, s in enumerate(answer.suggestions, 1)]
    if answer.statlines:
        out.append("  nearest legal statlines:")
        out += [f"    {f.text()}" for f in answer.statlines]
    out += [f"  note: {note}" for note in answer.not_encoded]
    return "\n".join(out)


def catalog_check(check: CatalogCheck) -> str:
    """A catalog's test run, read like one: a line per test, each failure's details, the tally."""
    lines = [f"{check.folder}: {check.system_name} ({check.system}), catalog files load"]
    lines += [f"  warning  {w}" for w in check.warnings]
    for r in check.results:
        what = f"{r.file}: {r.name}" if r.kind == "cost" or r.name != Path(r.file).stem else r.file
        if r.passed:
            lines.append(f"  ok    {what}" + (f" = {r.got}" if r.kind == "cost" else ""))
            continue
        lines.append(f"  FAIL  {what}")
        if r.expected:
            lines.append(f"          expected: {r.expected}")
        got, *more = r.got.splitlines()
        lines.append(f"          got:      {got}")
        lines += [f"                    {m.strip()}" for m in more]
    if not check.results:
        lines.append(f"  no tests: add {check.folder}/tests/legal, tests/illegal or tests/costs.yaml")
    tally = f"{check.passed} passed" + (f", {check.failed} failed" if check.failed else "")
    lines.append(tally)
    return "\n".join(lines)


def _verdict_change(old: Verdict, new: Verdict) -> str:
    if new.unreadable or old.unreadable:
        side, v = ("now", new) if new.unreadable else ("before", old)
        first = v.unreadable.splitlines()
        return f"cannot be read {side}: " + "; ".join(line.strip() for line in first[1:3] or first)
    if old.legal and new.legal:
        return "still legal"
    if not new.legal and old.legal:
        return "now NOT LEGAL: " + "; ".join(new.errors)
    if new.legal:
        return "now legal"
    before = dict(zip(old.rule_ids, old.errors, strict=False))
    after = dict(zip(new.rule_ids, new.errors, strict=False))
    parts = []
    for rule, message in after.items():
        if rule not in before:
            parts.append(f"now also {message}")
        elif before[rule] != message:
            parts.append(f"{message} (was {before[rule]})")
    parts += [f"no longer {before[rule]}" for rule in before if rule not in after]
    same = sum(1 for rule, message in after.items() if before.get(rule) == message)
    if same:
        parts.append(f"{same} other rule{'s' if same != 1 else ''} broken as before" if parts else "as before")
    return "still NOT LEGAL: " + "; ".join(parts)


def repricing(result: Repricing) -> str:
    """Every unit's cost before and after, sorted by change, then each list's total and verdict."""
    unit = result.unit
    lines = [f"{result.old_system}: {result.old_label} -> {result.new_system}: {result.new_label}"]
    rows = []
    unchanged = 0
    for u in result.units:
        if u.change == 0:
            unchanged += 1
            continue
        old = "–" if u.old is None else f"{u.old:,}"
        new = "–" if u.new is None else f"{u.new:,}"
        change = "added" if u.old is None else "removed" if u.new is None else f"{u.change:+,}"
        rows.append([u.name, u.faction or "", old, "->", new, change])
    lines += table(rows, right=(2, 4, 5))
    if unchanged:
        lines.append(f"  {unchanged} unit{'s' if unchanged != 1 else ''} unchanged")
    if not rows and not unchanged:
        lines.append("  no catalog units")
    if result.lists:
        lines.append("Lists:")
    for c in result.lists:
        old = "?" if c.old.total is None else f"{c.old.total:,}"
        new = "?" if c.new.total is None else f"{c.new.total:,}"
        if c.old.limit != c.new.limit and c.old.total is not None and c.new.total is not None:
            old += f" of {c.old.limit:,}" if c.old.limit else ", no limit"
        new += f" of {c.new.limit:,}" if c.new.limit else ""
        lines.append(f"  {c.name}: {old} -> {new} {unit}, {_verdict_change(c.old, c.new)}")
    return "\n".join(lines)


# --- the command line's words for the library's next steps ------------------------------------
# The library names a next step only as an ``errors.Action`` ("see the catalog's units", "fix the
# list"); each is worded here as the command that takes it, so a terminal message ends with
# "'listbuilder catalog SYSTEM' lists the units" while the web builder offers its own link.

_COMMANDS = {
    "catalog": "'listbuilder catalog {system}' lists the units",
    "add": "add some with 'listbuilder add FILE UNIT'",
    "fix": "'listbuilder fix FILE' shows how to make it legal",
    "fill": "'listbuilder fill FILE' starts a list from its rule set's factions",
    "new": "'listbuilder new {system}' starts a list",
    "export-json": "export the list with 'listbuilder export FILE --format json'",
    "embed": "'listbuilder export FILE --format yaml --embed'",
    "fill-to": "give it with --to, e.g. --to 100",
    "output": "choose the file with -o, e.g. -o my-list.yaml",
    "catalogs": "or give that folder to the command: --catalogs DIR",
    "qr-on-roster": "drop --qr, or print the roster too: --only roster, or no --only",
    "import-system": "or, for a list typed by hand, give its rule set: --system {system}",
    "size": "e.g. --{unit} 24",
    "adopt": "give --owner NAME to make them that member's lists",
    "invite": "'listbuilder club invite FOLDER NAME' makes a new sign-in link",
}


def _quoted(text: str) -> str:
    return f'"{text}"' if " " in text or not text else text


def command_hint(action: Action) -> str | None:
    """The command that takes ``action``, as a hint: ``'listbuilder catalog deathzap' lists the units``."""
    system = action.system or "SYSTEM"
    if action.kind == "price":
        options = " ".join(f"--{key} {_quoted(value)}" for key, value in action.example)
        return f"give each stat as --STAT VALUE, e.g. listbuilder cost {system} {options}".rstrip()
    if action.kind in ("rename", "retired"):
        said = dict(action.example)
        if action.kind == "rename":
            return (
                f"'listbuilder update FILE' writes {said.get('unit', 'the current name')} for {said.get('from', 'it')}"
            )
        remove = f"'listbuilder remove FILE {_quoted(said.get('from', 'UNIT'))}' removes it"
        if "unit" in said:
            return f"'listbuilder update FILE' puts {said['unit']} in its place, or {remove}"
        return f"{remove}; 'listbuilder add FILE UNIT' adds another in its place"
    if action.kind == "price-unit":
        name = dict(action.example).get("unit", "NAME")
        return f'to price the catalog unit, give --unit "{name}"'
    if action.kind == "own-entry":  # a list file's words: the entry's key, written out
        said = dict(action.example)
        stat, figures = said.get("stat", "items"), said.get("figures", "figures")
        items = [value for key, value in action.example if key == "item"]
        if not items:
            return f"{figures} that carry none go in an entry of their own with '{stat}: []'"
        both = f"{stat}: [{', '.join(items)}]"
        return f"{figures} that carry two of its {stat} go in an entry of their own listing both, e.g. '{both}'"
    if action.kind == "limit":
        return f"for example: {dict(action.example).get('key', 'points')} 100"
    words = _COMMANDS.get(action.kind)
    unit = dict(action.example).get("unit", "points")
    return None if words is None else words.format(system=system, unit=unit)

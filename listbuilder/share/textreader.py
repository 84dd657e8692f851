"""Reading a list back from its text or markdown export (the format is in ``textformat``), with
the chatter of a forum post around it skipped and every line it cannot read named."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from listbuilder.army.costing import unit_cost
from listbuilder.army.phrases import amount
from listbuilder.editing.writer import catalog_entry, custom_entry, list_data
from listbuilder.errors import Action, ErrorDetail, InputError
from listbuilder.files.yamldoc import Document
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.statline import parse_stats, stats_example
from listbuilder.rules.system import System, unit_key
from listbuilder.share.textformat import MARKDOWN_SPECIAL, mark_pattern

_BULLET = re.compile(r"^(?:[-*+•]\s+)+")
_HEADING = re.compile(r"^#{1,6}\s+")
_ENTRY = re.compile(r"^(\d[\d,]*)\s*[x×X]\s+(.*)$")
_BARE_COUNT = re.compile(r"^(\d[\d,]*)\s+(\S.*)$")  # '2 Archer', typed by hand
_COUNT_AFTER = re.compile(r"\s[x×X]\s*(\d[\d,]*)$|\s(\d[\d,]*)\s*[x×X]$")  # 'Archer x2', 'Archer 2x'
_PROBLEM = re.compile(r"^(?:error|warning)\b", re.IGNORECASE)
_BRACKETS = re.compile(r"\(([^()]*)\)\s*:")
_REVISION = re.compile(r"\s*catalog revision\s+(\d+)\s*")
# Every pattern here is linear in the line's length: each can start only at one kind of character.


def _measure_words(system: System) -> str:
    """A pattern matching the rule set's measure, one or many: ``points|point``."""
    m = system.definition.measure
    return f"{re.escape(m.plural)}|{re.escape(m.singular)}"


def _entry_example(system: System) -> str:
    """An entry line of this rule set, for hints: ``'2x Hunter - 20 points'`` (its first unit)."""
    unit = next(iter(system.units.values()), None)
    if unit is None:
        return f"'2x NAME [{stats_example(system)}]'"
    return f"'2x {unit.name} - {amount(2 * unit_cost(system, unit), system.measure)}'"


def _typed_example(system: System) -> str:
    """An entry as a player types it: ``Hunter x2``."""
    unit = next(iter(system.units.values()), None)
    return f"{unit.name if unit else 'NAME'} x2"


def _split_revision(bracket: str) -> tuple[str, str | None]:
    """``might-skirmish, catalog revision 2`` -> ('might-skirmish', '2')."""
    head, comma, tail = bracket.rpartition(",")
    found = _REVISION.fullmatch(tail) if comma else None
    return (head.strip(), found.group(1)) if found else (bracket.strip(), None)


def encodable(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def md_unescape(text: str) -> str:
    """Undo ``md_escape``, dropping the bold and code marks the markdown export adds."""
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in MARKDOWN_SPECIAL:
            out.append(text[i + 1])
            i += 2
            continue
        if c not in "*`":
            out.append(c)
        i += 1
    return "".join(out)


def _costs(system: System) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """A cost at the end of an entry: ``- 16 points`` (as listbuilder writes it), ``16pts``,
    ``16 pts``; in brackets, ``(16)`` or ``(16 pts)``; and a total on a line of its own or after a
    list's name: ``100 points``, ``Total: 98 pts``, ``98 of 100 points``, ``98/100pts``."""
    words = f"{_measure_words(system)}|pts?\\.?"
    return (
        re.compile(rf"(?:\s[-–—:]\s*|\s)(-?\d[\d,]*)\s*(?:{words})$", re.IGNORECASE),
        re.compile(rf"\s\((-?\d[\d,]*)(?:\s*(?:{words}))?\)$", re.IGNORECASE),
        re.compile(
            rf"(?:^|[\s:(\-–—]\s*)(?:total\s*[:=\-–]?\s*)?(\d[\d,]*)(?:\s*(?:/|of)\s*(\d[\d,]*))?\s*(?:{words})\)?$",
            re.IGNORECASE,
        ),
    )


def from_text(text: str, source: Path, catalogs: Catalogs, system_id: str | None = None) -> dict[str, Any]:
    """The list data of a text or markdown export, or of a list typed by hand for rule set
    ``system_id``; an ``InputError`` naming each line it cannot read."""
    return _Reader(source, catalogs).read(text, system_id)


def read_export(
    text: str, source: Path, catalogs: Catalogs, system_id: str | None = None
) -> tuple[dict[str, Any], list[Written], list[str]]:
    """``from_text``, the costs the text wrote (one ``Written`` per entry, then the total's), and
    which lines around the list it skipped."""
    reader = _Reader(source, catalogs)
    data = reader.read(text, system_id)
    return data, reader.written, reader.skipped


@record
class Written(Record):
    """A cost as the exported text wrote it (``None`` if it wrote none), and the line it is on."""

    line: int | None
    cost: int | None


class _Reader:
    """Reads the text or markdown export, collecting every problem with its line."""

    def __init__(self, source: Path, catalogs: Catalogs) -> None:
        self.source = source
        self.catalogs = catalogs
        self.errors: list[ErrorDetail] = []
        self.markdown = False
        self.written: list[Written] = []  # the costs the text gives, entry by entry, then the total
        self.cost: int | None = None  # the cost written on the entry line being read
        self.skipped: list[str] = []  # the chatter around the list, by lines
        self.list_read = False  # whether the text read as a list: its errors are then its lines'

    def fail(self, line: int | None, message: str, hint: str | None = None, action: Action | None = None) -> None:
        self.errors.append(ErrorDetail(message=message, line=line, hint=hint, action=action))

    def error(self) -> InputError:
        if not self.list_read:
            return InputError("this is not a list exported by listbuilder", file=self.source, details=self.errors)
        lines = len({e.line for e in self.errors})
        said = "a line of this list cannot be read" if lines == 1 else f"{lines} lines of this list cannot be read"
        return InputError(said, file=self.source, details=self.errors)

    def clean(self, line: str) -> str:
        return md_unescape(line).strip() if self.markdown else line

    def read(self, text: str, system_id: str | None = None) -> dict[str, Any]:
        numbered = [(n, raw.strip()) for n, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1)]
        lines = [(n, line) for n, line in numbered if line]
        chosen = self.catalogs.get(system_id) if system_id else None
        start = self.head_at(lines)
        if start is None and chosen is not None:  # no line names a rule set: typed by hand
            return self.typed(chosen, lines)
        if len(lines) < 2:
            self.fail(
                lines[0][0] if lines else None,
                "expected the list's name on one line and its rule set and total on the next",
                "paste the whole export, from the list's name down",
            )
            raise self.error()
        # A forum post has chatter around the list ("Hey all, here is my list", "cheers"): the
        # list starts at its name, the line before the first line that names a rule set.
        start = start or 0
        self.skip(lines[:start], "before the list")
        lines = lines[start:]
        self.markdown = bool(_HEADING.match(lines[0][1]))
        (name_at, name_line), (head_at, head_line) = lines[0], lines[1]
        name = self.list_name(self.clean(_HEADING.sub("", name_line)), name_at)
        found = self.head(self.clean(head_line), head_at)
        if found is None:
            raise self.error()
        system, limit, revision = found
        if chosen is not None and chosen.id != system.id:
            self.fail(
                head_at,
                f"the text is a list of {system.id}, not of the rule set chosen, {chosen.id}",
                "choose its rule set, or none: the text says which it is",
            )
            raise self.error()
        self.list_read = True
        body = [(n, self.clean(_BULLET.sub("", raw))) for n, raw in lines[2:]]
        # ... and ends at its last entry or problem line: what follows that reads as neither is
        # a sign-off; a line that does not read in the middle of the list is an error.
        listed = [i for i, (_, line) in enumerate(body) if self.counted(system, line) or _PROBLEM.match(line)]
        end = listed[-1] + 1 if listed else 0
        self.skip(body[end:], "after the list")
        units = []
        for n, line in body[:end]:
            if _PROBLEM.match(line):
                continue  # what the list broke when it was exported: judged again, not read
            item = self.entry(system, line, n)
            if item is not None:
                units.append(item)
                self.written.append(Written(line=n, cost=self.cost))
        if self.errors:
            raise self.error()
        total = re.search(rf"(?<![\d,])(\d[\d,]*)(?:\s+of\s+\d[\d,]*)?\s+{system.size_unit}\b", self.clean(head_line))
        self.written.append(Written(line=head_at, cost=int(total.group(1).replace(",", "")) if total else None))
        return list_data(system, name, limit, revision, units)

    def head_at(self, lines: list[tuple[int, str]]) -> int | None:
        """Where the list starts: the line before the first that names a known rule set in
        brackets (an export's second line); ``None`` if none does."""
        ids = set(self.catalogs.ids())
        for i in range(1, len(lines)):
            text = md_unescape(lines[i][1]) if _HEADING.match(lines[i - 1][1]) else lines[i][1]
            if any(_split_revision(m.group(1))[0] in ids for m in _BRACKETS.finditer(text)):
                return i - 1
        return None

    def counted(self, system: System, text: str) -> bool:
        """Whether a line gives a count as an entry does: ``2x Hunter``, ``Hunter x2 - 20 pts``."""
        if _ENTRY.match(text):
            return True
        rest, _ = self.cost_off(system, text)
        return _COUNT_AFTER.search(rest) is not None

    def cost_off(self, system: System, text: str) -> tuple[str, int | None]:
        """An entry's text without the cost written at its end, and that cost (``None``: none)."""
        after, bracketed, _ = _costs(system)
        cost = after.search(text) or bracketed.search(text)
        if cost is None:
            return text, None
        digits = cost.group(1).replace(",", "")
        return text[: cost.start()].rstrip(), int(digits) if len(digits) < 30 else None

    def kind(self, system: System, text: str) -> str:
        """What a line of a list typed by hand is: an ``entry``, a ``total``, a ``problem`` line of an
        export, or ``other`` (the list's name, chatter, or an entry that names no unit)."""
        if _PROBLEM.match(text):
            return "problem"
        if _costs(system)[2].fullmatch(text) or re.fullmatch(r"total\b.*\d.*", text, re.IGNORECASE):
            return "total"
        if self.counted(system, text) or _BARE_COUNT.match(text):
            return "entry"
        name = mark_pattern(system).sub("", self.cost_off(system, text)[0]).strip()
        return "entry" if self.unit_named(system, name) is not None else "other"

    def typed(self, system: System, lines: list[tuple[int, str]]) -> dict[str, Any]:
        """A list typed by hand for ``system`` (chosen, since the text names none): its name on a
        line of its own (the last line before the first entry that is neither an entry nor a total),
        entries in any of the spellings ``entry`` reads, a count of 1 where none is given, and a total
        on a line of its own or after the name. Lines around them are skipped, and said."""
        self.list_read = True
        self.markdown = any(_HEADING.match(line) or "**" in line or "`" in line for _, line in lines)
        body = [(n, self.clean(_BULLET.sub("", _HEADING.sub("", raw))).strip()) for n, raw in lines]
        kinds = [self.kind(system, line) for _, line in body]
        entries = [i for i, k in enumerate(kinds) if k == "entry"]
        if not entries:
            self.fail(
                body[0][0] if body else None,
                f"no line reads as an entry, such as {_entry_example(system)} or '{_typed_example(system)}'",
                "give each unit on a line of its own, with its count",
            )
            raise self.error()
        first, last = entries[0], entries[-1]
        named = [i for i in range(first) if kinds[i] == "other"]
        name = "Imported list"
        totals = [i for i, k in enumerate(kinds) if k == "total"]
        said: tuple[int, int | None, int | None] | None = None  # a total's line, total and limit
        if named:
            self.skip([body[i] for i in named[:-1]], "before the list")
            at, text = body[named[-1]]
            found = _costs(system)[2].search(text)
            if found is not None and found.start() > 0:
                said = (at, *self.total(found, at))
                text = text[: found.start()].rstrip(" -–—:(")
            name = self.list_name(text, at) or name
        if said is None and totals:
            at, text = body[totals[0]]
            found = _costs(system)[2].search(text) or re.search(r"(\d[\d,]*)", text)
            said = (at, *self.total(found, at)) if found else None
        after = [body[i] for i in range(last + 1, len(body)) if kinds[i] not in ("total", "problem")]
        self.skip(after, "after the list")
        units = []
        for i in range(first, last + 1):
            n, line = body[i]
            if kinds[i] in ("total", "problem"):
                continue
            item = self.entry(system, line, n, typed=True)
            if item is not None:
                units.append(item)
                self.written.append(Written(line=n, cost=self.cost))
        if self.errors:
            raise self.error()
        limit = said[2] if said else None
        if limit is not None and limit < 1:
            self.fail(said[0] if said else None, f"the limit must be at least 1, found {limit}")
            raise self.error()
        self.written.append(Written(line=said[0] if said else None, cost=said[1] if said else None))
        return list_data(system, name, limit, system.definition.revision, units)

    def total(self, found: re.Match[str], line: int) -> tuple[int | None, int | None]:
        """The total, and the limit if one is given (``98 of 100 points``), of a total's match."""
        groups = found.groups()
        total = self.number(groups[0], line, "total")
        limit = self.number(groups[1], line, "limit") if len(groups) > 1 and groups[1] else None
        return total, limit

    def unit_named(self, system: System, name: str) -> Any:
        """The catalog unit a list means by ``name``: by its name, a former one (or a retired unit),
        or a plural typed by hand ('Hunters')."""
        unit = system.listed_unit(name)
        for cut in ("s", "es"):
            if unit is None and len(name) > len(cut) and name.lower().endswith(cut):
                unit = system.listed_unit(name[: -len(cut)])
        return unit

    def skip(self, lines: list[tuple[int, str]], where: str) -> None:
        """Note the lines skipped as chatter around the list."""
        if not lines:
            return
        first, last = lines[0][0], lines[-1][0]
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        self.skipped.append(f"skipped {span} {where}, which {'is' if first == last else 'are'} not part of it")

    def number(self, digits: str, line: int, what: str) -> int | None:
        try:
            return int(digits.replace(",", ""))
        except ValueError:  # more digits than Python will convert
            self.fail(line, f"the {what} {digits[:20]}... is far too large")
            return None

    def quoted(self, text: str, line: int) -> tuple[str, str] | None:
        """A double-quoted (JSON-escaped) name at the start of ``text``, and the text after it."""
        try:
            value, end = json.JSONDecoder().raw_decode(text)
        except ValueError:
            self.fail(line, "a quoted name is not closed or has a bad escape", 'write it as "NAME" with JSON escapes')
            return None
        if not isinstance(value, str) or not encodable(value):
            self.fail(line, "a quoted name holds a character that cannot be written", "remove it")
            return None
        return value, text[end:]

    def list_name(self, text: str, line: int) -> str:
        name = text
        if text.startswith('"'):
            got = self.quoted(text, line)
            if got is None:
                return ""
            name, rest = got
            if rest.strip():
                self.fail(line, f"unexpected text after the quoted list name: '{rest.strip()[:40]}'")
        if not name.strip():
            self.fail(line, "the list needs a name on its first line")
        return name

    def head(self, text: str, line: int) -> tuple[System, int | None, int | None] | None:
        """The rule set, limit and catalog revision on the second line."""
        ids = self.catalogs.ids()
        brackets = list(_BRACKETS.finditer(text))
        for match in reversed(brackets):  # the rule set's own name may hold brackets too
            system_id, revision_text = _split_revision(match.group(1))
            if system_id in ids:
                break
        else:
            if brackets:
                guess = _split_revision(brackets[-1].group(1))[0]
                self.fail(line, f"unknown rule set '{guess}'", self.catalogs.unknown_hint(guess))
            else:
                self.fail(
                    line,
                    "expected the rule set and total: 'NAME (RULE-SET-ID): TOTAL of LIMIT', as an export writes it",
                    "the second line gives the rule set's id in brackets, then a colon",
                    Action(kind="import-system"),
                )
            return None
        system = self.catalogs.get(system_id)
        revision = self.number(revision_text, line, "revision") if revision_text else None
        if revision is not None and revision < 1:
            self.fail(line, "the catalog revision must be at least 1")
        limit_at = re.search(
            rf"(?<![\d,])(\d[\d,]*)\s+of\s+(\d[\d,]*)\s+(?:{_measure_words(system)})\b", text[match.end() :]
        )
        limit = self.number(limit_at.group(2), line, "limit") if limit_at else None
        if limit is not None and limit < 1:
            self.fail(line, f"the limit must be at least 1, found {limit}")
        return system, limit, revision

    def entry(self, system: System, text: str, line: int, typed: bool = False) -> dict[str, Any] | None:
        """One ``COUNTx NAME (leader) [STATS] - COST`` line as a list-file entry; the count may
        also follow the name (``Hunter x2``), and in a list typed by hand (``typed``) stand bare
        (``2 Hunter``) or be left out for one."""
        match = _ENTRY.match(text) or (_BARE_COUNT.match(text) if typed else None)
        rest = match.group(2).strip() if match else text.strip()
        # the cost is judged again, not trusted: kept only to say where it differs
        rest, self.cost = self.cost_off(system, rest)
        digits = match.group(1) if match else None
        after = None if match else _COUNT_AFTER.search(rest)
        if after is not None:
            digits, rest = after.group(1) or after.group(2), rest[: after.start()].rstrip()
        if digits is None and not typed:
            self.fail(
                line,
                f"expected an entry such as {_entry_example(system)}, found '{text[:40]}'",
                "each entry starts with its count, e.g. '1x'",
            )
            return None
        count = self.number(digits, line, "count") if digits is not None else 1
        if count is None:
            return None
        if count < 1:
            self.fail(line, f"the count must be at least 1, found {count}", "leave the entry out to field none")
            return None
        mark = mark_pattern(system)
        if rest.startswith('"'):
            got = self.quoted(rest, line)
            if got is None:
                return None
            name, tail = got[0], got[1].strip()
            cut = tail.find("[")
            marked, tail = (tail, "") if cut < 0 else (tail[:cut].rstrip(), tail[cut:])
            found = mark.fullmatch(marked) if marked else None
            if marked and found is None:
                tail = f"{marked} {tail}".strip()  # reported below as text after the name
        else:
            cut = rest.find("[")
            head, tail = (rest, "") if cut < 0 else (rest[:cut].rstrip(), rest[cut:])
            found = mark.search(head)
            name = head[: found.start()].rstrip() if found else head
        leader = self.leaders(found, count, line)
        if leader is None:
            return None
        if not name.strip():
            self.fail(line, "an entry needs a unit name after its count", f"write e.g. {_entry_example(system)}")
            return None
        if not tail:
            return self.catalog_unit(system, name.strip(), count, leader, line)
        if not (tail.startswith("[") and tail.endswith("]")):
            self.fail(
                line,
                f"unexpected text after the name: '{tail[:40]}'",
                f"a custom unit's stats go in square brackets: [{stats_example(system)}]",
            )
            return None
        return self.custom_unit(system, name, tail[1:-1], count, leader, line)

    def leaders(self, mark: re.Match[str] | None, count: int, line: int) -> int | None:
        """How many of an entry's ``count`` models its leader mark makes leaders: none without one."""
        if mark is None:
            return 0
        if mark.group(1) is None:
            return count
        leaders = self.number(mark.group(1), line, "number of leaders")
        if leaders is not None and leaders > count:
            self.fail(line, f"{leaders:,} leaders in an entry of {count:,}", f"mark from 0 to {count:,} as leaders")
            return None
        return leaders

    def catalog_unit(self, system: System, name: str, count: int, leader: int, line: int) -> dict[str, Any] | None:
        unit = self.unit_named(system, name)
        if unit is None:
            missing = system.unknown_unit(name)
            self.fail(line, missing.message, missing.hint or "a custom unit gives its stats in [ ]", missing.action)
            return None
        if unit.retired is None and unit_key(name) in system.former:
            self.skipped.append(f"line {line}: '{name}' is now called {unit.name} in the {system.id} catalogs")
        return catalog_entry(unit, count, leader)

    def custom_unit(
        self, system: System, name: str, stats_line: str, count: int, leader: int, line: int
    ) -> dict[str, Any] | None:
        stats = parse_stats(system, stats_line)
        if isinstance(stats, str):
            self.fail(line, stats, f"write the stats as in [{stats_example(system)}]")
            return None
        data: dict[str, Any] = {"name": name, **stats}
        # The list reader's own checks: every required stat given, no choice twice.
        unit, errors = system.read_unit(data, Document(path=self.source, data=data, positions={}, text=""), ())
        for err in errors:
            self.fail(line, err.message, err.hint)
        return None if unit is None else custom_entry(system, unit, count, leader)

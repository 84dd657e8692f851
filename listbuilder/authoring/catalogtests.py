"""Run a rule set's own tests: lists that must be legal, lists that must break given rules, costs.

A rule set or faction folder may hold a ``tests/`` folder:

- ``tests/legal/*.yaml``: list files that must be legal;
- ``tests/illegal/*.yaml``: list files that must not be legal, each with an ``expect:`` key
  naming (by ``id``) exactly the rules it breaks;
- ``tests/costs.yaml``: a list of entries, each a catalog unit (``unit: NAME``) or a statline
  (``name:`` and the stats), with the ``cost`` it must have and, optionally, its ``source``.

A legal test list may carry ``expect:`` too, naming the warnings it must give. The folder itself
is first loaded as strictly as any rule set (with its reference and odds files).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from listbuilder.army.costing import unit_cost
from listbuilder.army.listfile import parse_list
from listbuilder.army.phrases import total_text
from listbuilder.army.report import Report, build_report
from listbuilder.errors import ErrorDetail, InputError, ListbuilderError
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import FACTIONS_DIR, SYSTEM_FILE, Catalogs, System
from listbuilder.rules.schema import describe_value
from listbuilder.rules.variant import scan_extends

TESTS_DIR = "tests"
EXPECT = "expect"
COST_KEYS = ("unit", "cost", "source")
Kind = Literal["legal", "illegal", "cost", "text"]


@record
class CaseResult(Record):
    """One test of a catalog: a list that must be legal or break given rules, or a priced statline."""

    kind: Kind
    file: str  # relative to the folder checked, e.g. 'tests/illegal/seventeen.yaml'
    name: str
    passed: bool
    expected: str
    got: str


@record
class CatalogCheck(Record):
    """The result of ``check-catalog``: the folder, its rule set, and each test's outcome."""

    folder: str
    system: str
    system_name: str
    results: tuple[CaseResult, ...]

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    @property
    def ok(self) -> bool:
        return self.failed == 0

    __json__ = ("folder", "system", "passed", "failed", "results")


def named(folder: Path) -> Path:
    """``folder`` with a name: ``.`` or ``..`` (the rule set's folder, from inside it) made absolute."""
    return folder.absolute().resolve() if folder.name in ("", ".", "..") else folder


def catalogs_for(folder: Path, extra_roots: Sequence[Path] = (), cache: bool = True) -> Catalogs:
    """Catalogs in which ``folder`` is (or adds to) the rule set of its name, beside everything else.

    ``cache`` off: for a folder that lives only for one command, whose cache entry would never be read."""
    folder = named(folder)
    if not folder.is_dir():
        what = "this is a file, not a folder" if folder.exists() else "no such folder"
        raise InputError(what, file=folder, details=[ErrorDetail(message="name a rule set's folder")])
    if not (folder / SYSTEM_FILE).is_file() and not (folder / FACTIONS_DIR).is_dir():
        raise InputError(
            f"this is not a rule set or faction folder: it has neither {SYSTEM_FILE} nor {FACTIONS_DIR}/",
            file=folder,
            details=[ErrorDetail(message="name the folder of one rule set: catalogs/ID, or one of your own")],
        )
    plain = Catalogs(extra_roots)
    system_id = folder.name
    known = plain.folders.get(system_id, [])
    if any(f.resolve() == folder.resolve() for f in known):
        return plain
    if (folder / SYSTEM_FILE).is_file():
        pinned = {system_id: [folder]}
    else:
        pinned = {system_id: [*[f for f in known if (f / SYSTEM_FILE).is_file()], folder]}
    # A variant may extend a rule set that sits beside it rather than in a catalog root.
    base = scan_extends(folder / SYSTEM_FILE)
    while base is not None and base not in plain.folders and base not in pinned:
        sibling = folder.parent / base
        if not (sibling / SYSTEM_FILE).is_file():
            break
        pinned[base] = [sibling]
        base = scan_extends(sibling / SYSTEM_FILE)
    return Catalogs(extra_roots, pinned=pinned, cache=cache)


def check_catalog(folder: Path, extra_roots: Sequence[Path] = ()) -> CatalogCheck:
    """Load ``folder`` as strictly as the loader does, then run its tests.

    A folder that cannot be loaded raises its located ``CatalogError``; a test list that cannot
    be read is a failed test."""
    # start-up: the odds stack loads only to check a rule set's odds
    from listbuilder.odds.load import load_odds
    from listbuilder.rules.reference import load_reference

    books = catalogs_for(folder, extra_roots)
    system = books.get(named(folder).name)
    load_reference(system)
    if system.layer_files("odds.yaml"):
        load_odds(system)
    tests = folder / TESTS_DIR
    results: list[CaseResult] = []
    for kind in ("legal", "illegal"):
        for path in sorted((tests / kind).glob("*.yaml")):
            results.append(_run_list(path, folder, kind, books, system))  # type: ignore[arg-type]
    costs = tests / "costs.yaml"
    if costs.is_file():
        results += _run_costs(costs, folder, system)
    if system.base is not None:
        results += _run_texts(books.get(system.base), system)
    return CatalogCheck(
        folder=str(folder), system=system.id, system_name=system.definition.name, results=tuple(results)
    )


def _run_texts(base: System, variant: System) -> list[CaseResult]:
    """A variant's inherited sentences must not state a number it changed (``stale.py``)."""
    from listbuilder.authoring.stale import changes, stale_texts

    if not changes(base, variant):
        return []  # a variant that changes no number has no sentence to follow it
    expected = "a sentence that follows the variant's numbers"
    stale = [
        CaseResult(kind="text", file=s.file, name=s.where, passed=False, expected=expected, got=s.message())
        for s in stale_texts(base, variant)
    ]
    name = f"no sentence kept from '{base.id}' states a number this variant changed"
    return stale or [CaseResult(kind="text", file=SYSTEM_FILE, name=name, passed=True, expected=expected, got="")]


def _relative(path: Path, folder: Path) -> str:
    return str(path.relative_to(folder))


def _broken(report: Report) -> list[str]:
    return list(dict.fromkeys(p.rule_id for p in report.problems))


def _verdict(report: Report) -> str:
    return f"{'legal' if report.legal() else 'NOT LEGAL'}: {total_text(report)}"


def _read_expect(doc: Document) -> tuple[Document, list[str] | None, str | None]:
    """The list document without its ``expect:`` key, the ids it names, or what is wrong with them."""
    if not isinstance(doc.data, dict) or EXPECT not in doc.data:
        return doc, None, None
    data = dict(doc.data)
    raw = data.pop(EXPECT)
    ids = [raw] if isinstance(raw, str) else raw
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        line = doc.locate((EXPECT,))[0]
        return doc, None, f"line {line}: 'expect:' must list rule ids, found {describe_value(raw)}"
    trimmed = Document(
        path=doc.path, data=data, positions=doc.positions, text=doc.text, key_positions=doc.key_positions
    )
    return trimmed, ids, None


def _run_list(path: Path, folder: Path, kind: Kind, books: Catalogs, system: System) -> CaseResult:
    name = path.stem
    rel = _relative(path, folder)
    must = "legal" if kind == "legal" else "NOT LEGAL"

    def result(passed: bool, expected: str, got: str) -> CaseResult:
        return CaseResult(kind=kind, file=rel, name=name, passed=passed, expected=expected, got=got)

    try:
        doc = load_yaml(path, "list file")
        doc, expect, problem = _read_expect(doc)
        if problem is not None:
            return result(False, must, problem)
        if kind == "illegal" and not expect:
            return result(False, must, "no 'expect:' key naming the rules (by id) this list must break")
        army, found = parse_list(doc, books)
    except ListbuilderError as exc:
        return result(False, must, "the list cannot be read: " + exc.render().replace(f"{path}: ", "", 1))
    name = army.name
    if found.id != system.id:
        return result(False, must, f"the list is for '{found.id}', not '{system.id}'")
    report = build_report(army, found)
    wanted = list(dict.fromkeys(expect or []))
    broken = _broken(report)
    expected = must + (f", breaking {', '.join(wanted)}" if wanted else ", breaking nothing")
    got = _verdict(report) + (f", breaking {', '.join(broken)}" if broken else ", breaking nothing")
    legal_ok = report.legal() is (kind == "legal")
    passed = legal_ok and set(broken) == set(wanted)
    if not passed:
        unknown = [i for i in wanted if i not in {c.id for c in system.definition.constraints}]
        if unknown:
            got += f" (no rule of this rule set has the id {', '.join(repr(i) for i in unknown)})"
        messages = [f"{p.rule_id}: {p.message}" for p in report.problems]
        if messages:
            got += "\n" + "\n".join(messages)
    return result(passed, expected, got)


def _run_costs(path: Path, folder: Path, system: System) -> list[CaseResult]:
    rel = _relative(path, folder)
    try:
        doc = load_yaml(path, "costs file")
    except ListbuilderError as exc:
        return [CaseResult(kind="cost", file=rel, name="costs", passed=False, expected="", got=exc.render())]
    if not isinstance(doc.data, list):
        found = describe_value(doc.data)
        got = f"a costs file is a list of entries, each a unit or statline and its 'cost'; found {found}"
        return [CaseResult(kind="cost", file=rel, name="costs", passed=False, expected="", got=got)]
    out = []
    for i, item in enumerate(doc.data):
        out.append(_run_cost(item, i, doc, rel, system))
    return out


def _run_cost(item: Any, i: int, doc: Document, rel: str, system: System) -> CaseResult:
    where = f"{rel}[{i}]"
    line = doc.locate((i,))[0]

    def result(name: str, passed: bool, expected: str, got: str) -> CaseResult:
        return CaseResult(kind="cost", file=f"{rel}:{line}", name=name, passed=passed, expected=expected, got=got)

    if not isinstance(item, dict):
        return result(where, False, "", f"expected a unit or statline with its 'cost', found {describe_value(item)}")
    cost = item.get("cost")
    label = str(item.get("unit") or item.get("name") or where)
    if isinstance(cost, bool) or not isinstance(cost, int):
        return result(label, False, "", f"'cost' must be a whole number, found {describe_value(cost)}")
    expected = f"{cost:,} {system.measure.of(cost)}"
    if "unit" in item:
        extra = [k for k in item if k not in COST_KEYS]
        if extra:
            return result(label, False, expected, f"a catalog unit's entry has only unit, cost, source; not {extra[0]}")
        unit = system.find_unit(str(item["unit"]))
        if unit is None:
            return result(label, False, expected, f"no unit '{item['unit']}' in the {system.id} catalogs")
    else:
        data = {k: v for k, v in item.items() if k not in ("cost", "source")}
        found, errors = system.read_unit(data, doc, (i,))
        if found is None:
            return result(label, False, expected, "; ".join(f"{e.where()}: {e.message}" for e in errors))
        unit = found
    got = unit_cost(system, unit)
    source = f" [{item['source']}]" if item.get("source") else ""
    return result(unit.name + source, got == cost, expected, f"{got:,} {system.measure.of(got)}")

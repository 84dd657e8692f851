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
from listbuilder.authoring.stale import changes, stale_texts
from listbuilder.errors import CatalogError, ErrorDetail, InputError, ListbuilderError
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.odds.load import load_odds
from listbuilder.record import Record, record
from listbuilder.rules.catalog import FACTIONS_DIR, SYSTEM_FILE, Catalogs
from listbuilder.rules.forcerules import StatRange, UnitSize
from listbuilder.rules.formats import Unit
from listbuilder.rules.reference import REFERENCE_FILE, load_reference
from listbuilder.rules.schema import describe_value
from listbuilder.rules.system import System
from listbuilder.rules.variant import scan_extends
from listbuilder.words import did_you_mean

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
    warnings: tuple[str, ...] = ()  # what loads but is likely a mistake: they do not fail the check

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    @property
    def ok(self) -> bool:
        return self.failed == 0

    __json__ = ("folder", "system", "passed", "failed", "warnings", "results")


def named(folder: Path) -> Path:
    """``folder`` with a name: ``.`` or ``..`` (the rule set's folder, from inside it) made absolute."""
    return folder.absolute().resolve() if folder.name in ("", ".", "..") else folder


def catalogs_for(folder: Path, extra_roots: Sequence[Path] = (), cache: bool = True) -> Catalogs:
    """Catalogs in which ``folder`` is (or adds to) the rule set of its name, beside everything else.

    ``cache`` off: for a folder that lives only for one command, whose cache entry would never be read."""
    folder = named(folder)
    if not folder.is_dir():
        what = "this is a file, not a folder" if folder.exists() else "no such folder"
        raise InputError.detailed(what, "name a rule set's folder", file=folder)
    if not (folder / SYSTEM_FILE).is_file() and not (folder / FACTIONS_DIR).is_dir():
        raise InputError.detailed(
            f"this is not a rule set or faction folder: it has neither {SYSTEM_FILE} nor {FACTIONS_DIR}/",
            "name the folder of one rule set: catalogs/ID, or one of your own",
            file=folder,
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
    books = catalogs_for(folder, extra_roots)
    system = books.get(named(folder).name)
    load_reference(system)
    if system.layer_files("odds.yaml"):
        load_odds(system)
    tests = folder / TESTS_DIR
    results: list[CaseResult] = []
    kinds: tuple[Kind, ...] = ("legal", "illegal")
    for kind in kinds:
        for path in sorted((tests / kind).glob("*.yaml")):
            results.append(_run_list(path, folder, kind, books, system))
    costs = tests / "costs.yaml"
    if costs.is_file():
        results += _run_costs(costs, folder, system)
    if system.base is not None:
        results += _run_texts(books.get(system.base), system)
    return CatalogCheck(
        folder=str(folder),
        system=system.id,
        system_name=system.definition.name,
        results=tuple(results),
        warnings=tuple(catalog_warnings(system)),
    )


def catalog_warnings(system: System) -> list[str]:
    """What loads but is most likely a mistake: a number stat with no least value, no reference file."""
    d = system.definition
    out = []
    floors = {c.stat for c in d.constraints if isinstance(c, StatRange) and c.minimum is not None}
    if d.figures_stat and any(
        isinstance(c, UnitSize) and c.severity == "error" and c.minimum is not None for c in d.constraints
    ):
        floors.add(d.figures_stat)
    for key, stat in d.stats.items():
        if stat.kind != "number" or key in floors:
            continue
        cost = _cost_with(system, key, -3)
        priced = f" costs {cost:,} {system.measure.of(cost)} and" if cost is not None else ""
        out.append(
            f"the number stat '{key}' ({stat.label}) has no minimum: a statline with {stat.label} -3{priced} "
            f"is legal; add a stat_range rule with 'minimum' for '{key}'"
        )
    if not system.layer_files(REFERENCE_FILE):
        out.append(
            f"no {REFERENCE_FILE}: reference sheets and the rules card print no tables or special rules "
            "(a sheet says so)"
        )
    return out


def _cost_with(system: System, key: str, value: int) -> int | None:
    """What the rule set's cost kind makes of a statline with ``key`` at ``value``, every other number
    at 0 and every choice its first (``None`` if it cannot price one)."""
    stats: dict[str, Any] = {}
    for k, stat in system.definition.stats.items():
        if stat.kind == "number":
            stats[k] = value if k == key else 0
        elif stat.kind == "choice":
            stats[k] = stat.choices[0].name if stat.choices else ""
        else:
            stats[k] = ()
    try:
        return unit_cost(system, Unit(name=key, stats=stats))
    except (KeyError, TypeError, ValueError):
        return None


def _run_texts(base: System, variant: System) -> list[CaseResult]:
    """A variant's inherited sentences must not state a number it changed (``stale.py``)."""
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
    """Each entry of ``tests/costs.yaml`` as a test; a file that is not a list of such entries is
    a broken file (``CatalogError``, exit 2), not a failing test."""
    rel = _relative(path, folder)
    doc = load_yaml(path, "costs file")
    if not isinstance(doc.data, list):
        found = describe_value(doc.data)
        raise doc.error(
            "this costs file is not a list of costed units",
            [doc.detail((), f"expected a list of entries, each a unit or statline and its 'cost'; found {found}")],
            CatalogError,
        )
    errors = [e for i, item in enumerate(doc.data) for e in _cost_entry_errors(item, i, doc, system)]
    if errors:
        raise doc.error("this costs file has errors", errors, CatalogError)
    return [_run_cost(item, i, doc, rel, system) for i, item in enumerate(doc.data)]


def _cost_entry_errors(item: Any, i: int, doc: Document, system: System) -> list[ErrorDetail]:
    """What makes an entry of a costs file unreadable: its shape, its keys, its 'cost'."""
    if not isinstance(item, dict):
        found = describe_value(item)
        return [
            doc.detail((i,), f"expected a unit or statline with its 'cost', found {found}", "e.g. {unit: X, cost: 10}")
        ]
    out = []
    cost = item.get("cost")
    if isinstance(cost, bool) or not isinstance(cost, int):
        message = (
            "the key 'cost' is missing"
            if "cost" not in item
            else f"'cost' must be a whole number, found {describe_value(cost)}"
        )
        out.append(doc.detail((i, "cost") if "cost" in item else (i,), message, "the cost this unit must have"))
    allowed = COST_KEYS if "unit" in item else ("cost", "source", *system.unit_keys)
    keys = list(item)
    for j, key in enumerate(keys):
        if key in allowed:
            continue
        hint = did_you_mean(str(key), allowed) or f"the keys here: {', '.join(allowed)}"
        before = item.get(keys[j - 1]) if j else None
        if item[key] is None and isinstance(before, str):
            # '{source: house rule, 5 per Power}': in braces, a comma ends the value and starts a key.
            hint = f'in {{...}} a comma ends a value: write "{before}, {key}" in quotes'
        out.append(doc.detail((i, key), f"unknown key '{key}'", hint, key=True))
    return out


def _run_cost(item: Any, i: int, doc: Document, rel: str, system: System) -> CaseResult:
    where = f"{rel}[{i}]"
    line = doc.locate((i,))[0]

    def result(name: str, passed: bool, expected: str, got: str) -> CaseResult:
        return CaseResult(kind="cost", file=f"{rel}:{line}", name=name, passed=passed, expected=expected, got=got)

    cost = int(item["cost"])  # its shape is checked first (_cost_entry_errors)
    label = str(item.get("unit") or item.get("name") or where)
    expected = f"{cost:,} {system.measure.of(cost)}"
    if "unit" in item:
        unit = system.listed_unit(str(item["unit"]))  # a retired unit's last cost can be tested too
        if unit is None:
            return result(label, False, expected, system.unknown_unit(str(item["unit"])).message)
    else:
        data = {k: v for k, v in item.items() if k not in ("cost", "source")}
        found, errors = system.read_unit(data, doc, (i,))
        if found is None:
            return result(label, False, expected, "; ".join(f"{e.where()}: {e.message}" for e in errors))
        unit = found
    got = unit_cost(system, unit)
    source = f" [{item['source']}]" if item.get("source") else ""
    return result(unit.name + source, got == cost, expected, f"{got:,} {system.measure.of(got)}")

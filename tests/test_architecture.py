"""The package's shape, where import-linter cannot see it.

Who may import whom is written as import-linter contracts in ``pyproject.toml``
(``[tool.importlinter]``: the package map's layers, the faces only through the API, no circle, private
modules kept private), and ``.ci/run`` checks them with ``lint-imports``. This file holds what those
contracts cannot say: that they catch what they must, a face that would go round them at run time,
private names, exit codes and the cost kinds. docs/architecture.md is the map in words.
"""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "listbuilder"
FRONT_ENDS = ("cli", "web")
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"listbuilder/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once for all the checks below."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _called(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


# --- the contracts ------------------------------------------------------------------------------


def _layers() -> list[str]:
    (layers,) = [c["layers"] for c in CONTRACTS["contracts"] if c["type"] == "layers"]
    return [name.strip() for layer in layers for name in layer.split("|")]


def _lint(root: Path) -> str:
    """``lint-imports`` with this repository's contracts over the package in ``root``."""
    (root / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache", "--no-logo"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.stdout + done.stderr


def test_the_contracts_catch_what_they_must(tmp_path):
    """Each contract, over a package of the same shape: kept while it follows the map, broken by a
    lazy import upward, a face past the API, a circle seen only by the type checker, a reach into
    another package's private module, and a package the map does not name."""
    shape = {f"listbuilder/{name}/__init__.py": "" for name in _layers() if name != "__main__"}
    root = _package(tmp_path / "good", {**shape, "listbuilder/__main__.py": "from listbuilder import cli\n"})
    kept = _lint(root)
    assert kept.count(" KEPT") == len(CONTRACTS["contracts"]) and " BROKEN" not in kept, kept

    broken = _package(
        tmp_path / "bad",
        {
            **shape,
            "listbuilder/__main__.py": "",
            "listbuilder/rules/x.py": "def f():\n    from listbuilder.army import y\n",
            "listbuilder/cli/x.py": "from listbuilder.rules import x\n",
            "listbuilder/army/y.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import z\n",
            "listbuilder/army/z.py": "from listbuilder.army import y\n",
            "listbuilder/api/_checks.py": "",
            "listbuilder/web/x.py": "from listbuilder.api._checks import f\n",
            "listbuilder/games/__init__.py": "",
        },
    )
    found = _lint(broken)
    assert found.count(" BROKEN") == len(CONTRACTS["contracts"]), found
    for seen in (
        "listbuilder.rules.x -> listbuilder.army.y",
        "listbuilder.games",
        "listbuilder.cli.x -> listbuilder.rules.x",
        "listbuilder.web.x -> listbuilder.api._checks",
        "No cycles are allowed in listbuilder.army",
    ):
        assert seen in found, f"{seen!r} not in:\n{found}"


def test_the_documented_map_names_every_package_of_the_contracts():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip().strip("`").removesuffix("/").removesuffix(".py")
        for line in doc.splitlines()
        if line.startswith("| `")
    }
    packages = {name for name in _layers() if (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file()}
    assert packages <= rows, sorted(packages - rows)


# --- a face does not go round the contracts at run time ---------------------------------------


def _dynamic_imports(path: Path, front: str, root: Path = ROOT) -> list[str]:
    """Every way ``path`` reaches a module that import-linter cannot see: ``importlib.import_module``
    or ``__import__`` of anything but the face's own modules, and ``sys.modules``."""
    tree = _tree(path)
    where = path.relative_to(root)
    loaders = {"import_module", "__import__"}  # and the local names they are imported as
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("importlib", "builtins"):
            loaders.update(a.asname or a.name for a in node.names if a.name in loaders)
    own = f"listbuilder.{front}."
    wrong = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node.func) in loaders:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.JoinedStr):  # f"listbuilder.cli.{name}": its fixed start
                first = first.values[0] if first.values else None
            named = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
            if not named.startswith(own):
                wrong.append(f"{where}:{node.lineno}: {ast.unparse(node)} (a dynamic import past {own}*)")
        elif isinstance(node, ast.Attribute) and node.attr == "modules" and ast.unparse(node.value) == "sys":
            wrong.append(f"{where}:{node.lineno}: sys.modules (reaches any loaded module)")
    return wrong


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_front_ends_import_nothing_import_linter_cannot_see(front):
    wrong = [w for path in _modules(PACKAGE / front) for w in _dynamic_imports(path, front)]
    assert not wrong, "a front end reaches the library past its API:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("import importlib\nm = importlib.import_module('listbuilder.army.report')\n", True),
        ("from importlib import import_module\nm = import_module(name)\n", True),
        ("from importlib import import_module as load\nm = load('listbuilder.army')\n", True),
        ("import importlib as il\nm = il.import_module(f'listbuilder.{x}')\n", True),
        ("m = __import__('listbuilder.army.report')\n", True),
        ("import builtins\nm = builtins.__import__('listbuilder.army.report')\n", True),
        ("import sys\nm = sys.modules['listbuilder.army.report']\n", True),
        ("from importlib import import_module\ny = import_module(f'listbuilder.cli.{name}')\n", False),
        ("from listbuilder.api import editing\nx = editing.AddUnit\n", False),
    ],
)
def test_the_dynamic_import_check_cannot_be_fooled(tmp_path, source, caught):
    path = tmp_path / "listbuilder" / "cli" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text(source)
    assert bool(_dynamic_imports(path, "cli", tmp_path)) == caught, source


# --- each idea once -----------------------------------------------------------------------------


def _exit_codes_outside_errors(root: Path = ROOT) -> list[str]:
    """Every exit code named outside ``errors.py``: an ``EXIT_*`` constant defined elsewhere, or a
    number handed to ``sys.exit``, ``typer.Exit`` or ``SystemExit``."""
    wrong = []
    for path in sorted((root / "listbuilder").rglob("*.py")):
        if path.name == "errors.py" and path.parent.name == "listbuilder":
            continue
        for node in ast.walk(_tree(path)):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                wrong += [f"{where}: {t.id}" for t in targets if isinstance(t, ast.Name) and t.id.startswith("EXIT_")]
            elif (
                isinstance(node, ast.Call)
                and _called(node.func) in ("exit", "Exit", "SystemExit")
                and any(isinstance(a, ast.Constant) and isinstance(a.value, int) for a in node.args)
            ):
                wrong.append(f"{where}: {ast.unparse(node)}")
    return wrong


def test_exit_codes_are_named_in_one_place():
    wrong = _exit_codes_outside_errors()
    assert not wrong, "an exit code named outside listbuilder/errors.py:\n" + "\n".join(wrong)


def test_the_exit_code_check_sees_a_number_and_a_constant(tmp_path):
    root = _package(
        tmp_path,
        {"listbuilder/cli/x.py": "import sys, typer\nEXIT_ODD = 5\nsys.exit(4)\nraise typer.Exit(0)\nsys.exit(code)\n"},
    )
    found = [w.split(": ", 1)[1] for w in _exit_codes_outside_errors(root)]
    assert found == ["EXIT_ODD", "sys.exit(4)", "typer.Exit(0)"]


def test_the_readme_lists_every_exit_code():
    from listbuilder.errors import EXIT_CODES

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("\n## Exit codes\n") :].split("\n\n")[2]
    rows = [line.split("|")[1].strip() for line in table.splitlines()[2:]]
    assert rows == [str(code) for code in EXIT_CODES]


def _private_reaches(root: Path = ROOT) -> list[str]:
    """Every reach into another module's private names: ``module._name`` on an imported module of
    the package (its private state: the module offers a public way, such as ``clear()``), or
    ``from listbuilder.x.y import _name`` from outside the folder of ``x/y.py``."""
    files = {_module_name(p, root): p for p in (root / "listbuilder").rglob("*.py")}
    wrong = []
    for name, path in sorted(files.items()):
        tree = _tree(path)
        modules: set[str] = set()  # local names bound to a module of the package
        folder = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("listbuilder"):
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in files:
                        modules.add(alias.asname or alias.name)
                    elif alias.name.startswith("_") and not alias.name.startswith("__") and node.module in files:
                        source = node.module
                        home = source if files[source].name == "__init__.py" else source.rpartition(".")[0]
                        if home != folder:
                            wrong.append(f"{path.relative_to(root)}:{node.lineno}: from {source} import {alias.name}")
            elif isinstance(node, ast.Import):
                modules.update(a.asname for a in node.names if a.asname and a.name in files)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                wrong.append(f"{path.relative_to(root)}:{node.lineno}: {node.value.id}.{node.attr}")
    return wrong


def test_no_module_reaches_into_another_modules_private_names():
    wrong = _private_reaches()
    assert not wrong, "a module reaches another's private names:\n" + "\n".join(wrong)


def test_the_private_check_sees_a_private_cache_cleared_from_outside(tmp_path):
    root = _package(
        tmp_path,
        {
            "listbuilder/odds/__init__.py": "",
            "listbuilder/odds/load.py": "_CACHE = {}\n",
            "listbuilder/odds/kinds/__init__.py": "",
            "listbuilder/odds/kinds/table.py": "_TALLIES = {}\n_helper = 1\n",
            "listbuilder/odds/exact.py": "from listbuilder.odds import load\nfrom listbuilder.odds.kinds import table\n"
            "load._CACHE.clear()\ntable._TALLIES.clear()\nload.clear()\n",
            "listbuilder/odds/kinds/other.py": "from listbuilder.odds.kinds.table import _helper\n",  # its own folder
            "listbuilder/web.py": "from listbuilder.odds.kinds.table import _helper\n",
        },
    )
    assert sorted(w.split(": ", 1)[1] for w in _private_reaches(root)) == [
        "from listbuilder.odds.kinds.table import _helper",
        "load._CACHE",
        "table._TALLIES",
    ]


# --- each kind is one class -----------------------------------------------------------------------

COST_KINDS = ("LinearCost", "StatCost", "FiguresCost")


def test_each_cost_kind_carries_its_own_behaviour():
    from typing import get_args

    from listbuilder.rules.costs import Cost, CostKind

    assert [k.__name__ for k in get_args(Cost)] == list(COST_KINDS)
    for kind in get_args(Cost):
        for method in ("parts", "describe", "definition_errors"):
            assert getattr(kind, method) is not getattr(CostKind, method), f"{kind.__name__}.{method}"


def _kind_dispatch(root: Path = ROOT) -> list[str]:
    """Every ``isinstance`` test against a cost kind outside the module of the kinds."""
    wrong = []
    for path in sorted((root / "listbuilder").rglob("*.py")):
        if path.relative_to(root).as_posix() == "listbuilder/rules/costs.py":
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and _called(node.func) == "isinstance" and len(node.args) == 2:
                named = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", "") for n in ast.walk(node.args[1])}
                if named & set(COST_KINDS):
                    wrong.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return wrong


def test_no_module_dispatches_on_the_cost_kinds():
    wrong = _kind_dispatch()
    assert not wrong, "ask the cost kind itself (rules/costs.py) instead:\n" + "\n".join(wrong)


def test_the_dispatch_check_sees_an_isinstance_on_a_kind(tmp_path):
    root = _package(
        tmp_path,
        {"listbuilder/printing/x.py": "if isinstance(cost, (formats.StatCost, int)):\n    pass\nisinstance(c, str)\n"},
    )
    assert [w.split(": ", 1)[1] for w in _kind_dispatch(root)] == ["isinstance(cost, (formats.StatCost, int))"]

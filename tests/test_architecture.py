"""The package's shape: no circle between its files, the engine below the API, front ends reaching the
library only through its API, and few modules at the top (the map is docs/architecture.md)."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "listbuilder"
FRONT_ENDS = ("cli", "web")
# What a front end may import of the library: the API and the errors (each face keeps its own views:
# the terminal's are cli/views.py).
ALLOWED = {"listbuilder.api", "listbuilder.errors"}
ALLOWED_FROM_TOP = {"api", "errors", "__version__"}
# The faces of the library: its API and the front ends over it. Every other package is the engine.
FACES = ("api", *FRONT_ENDS)
# A front end may start another: 'listbuilder serve' (cli/serve.py) runs the web app.
ALLOWED_FRONT_ENDS = {"cli": {"listbuilder.web"}, "web": set()}


def _imports(path: Path, root: Path = ROOT) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, module, names) of every import in a file, absolute or relative, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            found.append((node.lineno, module, tuple(a.name for a in node.names)))
    return found


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


def _public(module: str) -> set[str]:
    """What a front end may take from an allowed module: the API's exports; of the errors and the
    views, what they define themselves (not what they import, nor a module)."""
    import importlib
    import inspect

    found = importlib.import_module(module)
    if module == "listbuilder.api":
        return set(found.__all__)
    return {
        name
        for name, value in vars(found).items()
        if not name.startswith("_")
        and not inspect.ismodule(value)
        and getattr(value, "__module__", module) == module
        and not (isinstance(value, type) and value.__module__ == "typing")
    }


def _past_the_api(path: Path, front: str, root: Path = ROOT) -> list[str]:
    """Every way ``path`` reaches the library past its API: a forbidden import at any depth, a name
    the API does not export (``from listbuilder.api import lists``), an attribute of an allowed
    module that it does not define (``api.lists.build_report``), or a dynamic import
    (``importlib``, ``__import__``, ``sys.modules``), which a front end never needs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(root)
    wrong = []
    aliases: dict[str, str] = {}  # a local name bound to an allowed module -> that module
    loaders = {"import_module", "__import__"}  # and the local names they are imported as
    for line, module, names in _imports(path, root):
        if module == "listbuilder" and not names:
            wrong.append(f"{where}:{line}: import listbuilder (reaches every module by attribute)")
        elif module == "listbuilder":
            extra = set(names) - ALLOWED_FROM_TOP
            if extra:
                wrong.append(f"{where}:{line}: from listbuilder import {', '.join(sorted(extra))}")
        elif module.startswith("listbuilder."):
            own = module == f"listbuilder.{front}" or module.startswith(f"listbuilder.{front}.")
            if not own and module not in ALLOWED | ALLOWED_FRONT_ENDS[front]:
                wrong.append(f"{where}:{line}: {module}")
            elif not own and module in ALLOWED:
                extra = set(names) - _public(module)
                if extra:
                    wrong.append(f"{where}:{line}: from {module} import {', '.join(sorted(extra))}")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "listbuilder":
            aliases.update(
                {a.asname or a.name: f"listbuilder.{a.name}" for a in node.names if a.name in ALLOWED_FROM_TOP}
            )
        elif isinstance(node, ast.Import):
            aliases.update({a.asname: a.name for a in node.names if a.asname and a.name in ALLOWED})
        if isinstance(node, ast.ImportFrom) and node.module in ("importlib", "builtins"):
            loaders.update(a.asname or a.name for a in node.names if a.name in loaders)
    own = f"listbuilder.{front}."
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node.func) in loaders:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.JoinedStr):  # f"listbuilder.cli.{name}": its fixed start
                first = first.values[0] if first.values else None
            named = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
            if not named.startswith(own):  # a front end may load its own modules lazily, nothing else
                wrong.append(f"{where}:{node.lineno}: {ast.unparse(node)} (a dynamic import past {own}*)")
        elif isinstance(node, ast.Attribute) and node.attr == "modules":
            if isinstance(node.value, ast.Name) and node.value.id == "sys":
                wrong.append(f"{where}:{node.lineno}: sys.modules (reaches any loaded module)")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            module = aliases[node.value.id]
            if module in ALLOWED and node.attr not in _public(module):
                wrong.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr} (not what {module} offers)")
    return wrong


def _called(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_front_ends_reach_the_library_only_through_the_api(front):
    wrong = [w for path in _modules(PACKAGE / front) for w in _past_the_api(path, front)]
    assert not wrong, "a front end reaches the library past its API:\n" + "\n".join(wrong)


def test_the_meta_test_sees_a_forbidden_import(tmp_path):
    bad = tmp_path / "listbuilder" / "cli" / "x.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "from listbuilder.army.report import Report\nfrom ..share import diff\nfrom listbuilder import api\n"
    )
    modules = [m for _, m, _ in _imports(bad, tmp_path)]
    assert modules == ["listbuilder.army.report", "listbuilder.share", "listbuilder"]


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    import listbuilder.army.report as r\n",
        "def f():\n    from listbuilder.share.diff import describe\n",
        "import listbuilder\nx = listbuilder.army.report\n",
        "from listbuilder.api import lists\n",
        "from listbuilder.api import _arguments\n",
        "from listbuilder import api\nx = api.lists.build_report\n",
        "from listbuilder import api as a\nx = a.editing.InputError\n",
        "import listbuilder.api as a\nx = a.lists\n",
        "from listbuilder import views\nx = views.Report\n",
        "from listbuilder.errors import dotted, Record\n",
        "import importlib\nm = importlib.import_module('listbuilder.army.report')\n",
        "from importlib import import_module\nm = import_module(name)\n",
        "from importlib import import_module as load\nm = load('listbuilder.army')\n",
        "import importlib as il\nm = il.import_module(f'listbuilder.{x}')\n",
        "m = __import__('listbuilder.army.report')\n",
        "import builtins\nm = builtins.__import__('listbuilder.army.report')\n",
        "import sys\nm = sys.modules['listbuilder.army.report']\n",
        "from .. import rules\n",
    ],
)
def test_the_meta_test_cannot_be_fooled(tmp_path, source):
    bad = tmp_path / "listbuilder" / "cli" / "x.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(source)
    assert _past_the_api(bad, "cli", tmp_path), source


def test_the_meta_test_lets_the_api_through(tmp_path):
    good = tmp_path / "listbuilder" / "cli" / "x.py"
    good.parent.mkdir(parents=True)
    good.write_text(
        "from listbuilder import api\nfrom listbuilder.cli import views as present\n"
        "from listbuilder.errors import InputError, EXIT_OK\n"
        "from listbuilder.cli.options import say\nx = (api.check_list, present.points, InputError, EXIT_OK)\n"
        "from importlib import import_module\ny = import_module(f'listbuilder.cli.{name}')\n"
    )
    assert _past_the_api(good, "cli", tmp_path) == []


def test_no_library_module_imports_a_front_end():
    wrong = []
    for path in _modules(PACKAGE):
        rel = path.relative_to(PACKAGE).parts
        if rel[0] in FRONT_ENDS or rel[0] == "__main__.py":
            continue
        for line, module, names in _imports(path):
            hits = [f for f in FRONT_ENDS if module == f"listbuilder.{f}" or module.startswith(f"listbuilder.{f}.")]
            hits += [n for n in names if module == "listbuilder" and n in FRONT_ENDS]
            if hits:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert not wrong, "\n".join(wrong)


MAX_LINES = 400  # a module past it holds two concepts (STYLE.md: "one module per concept")


def test_no_module_is_past_four_hundred_lines():
    lines = {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in _modules(PACKAGE)
    }
    long = {name: n for name, n in sorted(lines.items()) if n > MAX_LINES}
    assert not long, f"split each along a seam, one concept per module: {long}"


def test_few_modules_stay_at_the_top_of_the_package():
    top = sorted(p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file())
    modules = [n for n in top if n.endswith(".py")]
    assert len(modules) <= 8, modules


@pytest.mark.parametrize("package", ["api", "editing"])
def test_a_lazy_package_names_for_the_type_checker_what_it_imports_on_first_use(package):
    """``api/__init__.py`` (and ``editing/__init__.py``) imports nothing until a name is used (PEP
    562); its ``TYPE_CHECKING`` block names the same things, from the same modules, so mypy sees
    what a face gets."""
    api = importlib.import_module(f"listbuilder.{package}")

    tree = ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8"))
    checked = {
        alias.name: node.module
        for block in tree.body
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert checked == api._MODULE_OF
    submodules = {p.stem for p in (PACKAGE / package).glob("*.py")}
    assert not submodules & set(api.__all__), "importing the module would hide the action of its name"


def test_importing_the_api_loads_none_of_its_actions():
    code = "import json, sys, listbuilder.api; print(json.dumps(sorted(m for m in sys.modules if 'listbuilder' in m)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(run.stdout)
    assert loaded == [f"listbuilder{m}" for m in ("", ".api", ".api._arguments", ".errors", ".lazy", ".record")]


def test_the_api_exports_every_action_it_defines():
    import listbuilder.api as api

    for name in api.__all__:
        assert hasattr(api, name), name
    public = {
        name
        for path in _modules(PACKAGE / "api")
        if not path.name.startswith("_")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
        for name in [node.name]
    }
    assert public <= set(api.__all__), sorted(public - set(api.__all__))


# --- no circles -------------------------------------------------------------------------------


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports: at the top, inside a
    function, or only for the type checker (``if TYPE_CHECKING:``), all of which are dependencies.
    ``from a.b import c`` names the module ``a.b.c`` if there is one, else ``a.b``."""
    files = {_module_name(p, root): p for p in sorted((root / "listbuilder").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        found = set()
        for _, module, names in _imports(path, root):
            if path.name == "__init__.py" and module == ".".join(name.split(".")[:-1]):
                module = name  # ``from . import x`` in a package: _imports counts from the folder above
            for n in names or ("",):
                target = f"{module}.{n}" if f"{module}.{n}" in files else module
                if target in files and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        part.append(top)
                        if top == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))
    return found


def _describe(graph: dict[str, set[str]], part: list[str]) -> str:
    return "\n".join(f"  {m} -> {', '.join(sorted(graph[m] & set(part)))}" for m in part)


def test_no_import_cycle_between_files():
    graph = _import_graph()
    assert len(graph) > 100  # the whole package was read
    circles = _cycles(graph)
    assert not circles, "modules that import each other, at any depth:\n" + "\n\n".join(
        _describe(graph, part) for part in circles
    )


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"listbuilder/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("from listbuilder.b import x\n", "from listbuilder.a import y\n"),
        ("def f():\n    from listbuilder import b\n", "import listbuilder.a\n"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from listbuilder.b import B\n",
            "from . import a\n",
        ),
    ],
    ids=["top", "lazy", "type-only"],
)
def test_the_cycle_finder_sees_every_kind_of_import(tmp_path, a, b):
    root = _package(tmp_path, {"listbuilder/a.py": a, "listbuilder/b.py": b})
    graph = _import_graph(root)
    assert _cycles(graph) == [["listbuilder.a", "listbuilder.b"]]


def test_the_cycle_finder_sees_a_longer_circle_through_a_package(tmp_path):
    root = _package(
        tmp_path,
        {
            "listbuilder/p/__init__.py": "from listbuilder.p.one import X\n",
            "listbuilder/p/one.py": "from listbuilder.q import two\n",
            "listbuilder/q/__init__.py": "",
            "listbuilder/q/two.py": "from listbuilder.p import X\n",
            "listbuilder/q/three.py": "from listbuilder.q import two\n",  # on the way in, not in the circle
        },
    )
    graph = _import_graph(root)
    assert _cycles(graph) == [["listbuilder.p", "listbuilder.p.one", "listbuilder.q.two"]]


def test_the_cycle_finder_passes_a_layered_package(tmp_path):
    root = _package(
        tmp_path,
        {
            "listbuilder/low.py": "import json\n",
            "listbuilder/mid.py": "from listbuilder.low import x\nfrom . import low\n",
            "listbuilder/top.py": "from listbuilder import low, mid\n",
        },
    )
    assert _cycles(_import_graph(root)) == []


def _faces_reached(graph: dict[str, set[str]]) -> list[str]:
    """Each arrow from an engine module to a face (the API, a front end)."""

    def top(module: str) -> str:
        return module.split(".")[1] if "." in module else ""

    return [
        f"{m} -> {t}"
        for m, targets in sorted(graph.items())
        if top(m) not in (*FACES, "__main__")  # ``python -m listbuilder`` starts the command line
        for t in sorted(targets)
        if top(t) in FACES
    ]


def test_no_engine_module_imports_the_api_or_a_front_end():
    wrong = _faces_reached(_import_graph())
    assert not wrong, "the engine reaches up to a face:\n" + "\n".join(wrong)


def test_the_engine_check_sees_a_lazy_import_of_a_face(tmp_path):
    root = _package(
        tmp_path,
        {
            "listbuilder/api/__init__.py": "",
            "listbuilder/cli/__init__.py": "",
            "listbuilder/cli/views.py": "",
            "listbuilder/rules/__init__.py": "",
            "listbuilder/rules/x.py": "def f():\n    from listbuilder.cli import views\n",
            "listbuilder/army.py": "from listbuilder import api\n",
            "listbuilder/cli/y.py": "from listbuilder.rules import x\n",  # a face may import the engine
        },
    )
    assert _faces_reached(_import_graph(root)) == [
        "listbuilder.army -> listbuilder.api",
        "listbuilder.rules.x -> listbuilder.cli.views",
    ]


# --- each idea once -----------------------------------------------------------------------------


def _exit_codes_outside_errors(root: Path = ROOT) -> list[str]:
    """Every exit code named outside ``errors.py``: an ``EXIT_*`` constant defined elsewhere, or a
    number handed to ``sys.exit``, ``typer.Exit`` or ``SystemExit``."""
    wrong = []
    for path in sorted((root / "listbuilder").rglob("*.py")):
        if path.name == "errors.py" and path.parent.name == "listbuilder":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    table = readme[readme.index("**Exit codes**") :].split("\n\n")[1]
    rows = [line.split("|")[1].strip() for line in table.splitlines()[2:]]
    assert rows == [str(code) for code in EXIT_CODES]


def _private_reaches(root: Path = ROOT) -> list[str]:
    """Every reach into another module's private names: ``module._name`` on an imported module of
    the package (its private state: the module offers a public way, such as ``clear()``), or
    ``from listbuilder.x.y import _name`` from outside the folder of ``x/y.py``."""
    files = {_module_name(p, root): p for p in (root / "listbuilder").rglob("*.py")}
    wrong = []
    for name, path in sorted(files.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
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
            "listbuilder/odds/api.py": "from listbuilder.odds import load\nfrom listbuilder.odds.kinds import table\n"
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
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


# --- the package map (docs/architecture.md) ---------------------------------------------------

_BASE = {"", "record", "errors", "collector", "lazy", "files"}  # "": listbuilder/__init__.py (its __version__)
# Which package may import which, lowest first: each may import only what is listed for it. The
# same table is in docs/architecture.md; a new package is a new line here and there.
MAY_IMPORT: dict[str, set[str]] = {
    "": set(),
    "record": set(),
    "collector": set(),
    "lazy": set(),
    "errors": {"record"},
    "files": {"record", "errors", "collector"},
    "rules": _BASE,
    "army": _BASE | {"rules"},
    "doctor": _BASE | {"rules", "army"},
    "odds": _BASE | {"rules", "army"},
    "editing": _BASE | {"rules", "army", "doctor"},
    "share": _BASE | {"rules", "army", "doctor", "editing"},
    "authoring": _BASE | {"rules", "army", "odds"},
    "printing": _BASE | {"rules", "army", "odds", "share"},
    "play": _BASE | {"rules", "army", "odds", "editing"},
    "api": _BASE | {"rules", "army", "doctor", "odds", "editing", "share", "authoring", "printing", "play"},
    "web": {"", "errors", "api"},
    "cli": {"", "errors", "api", "web"},
    "__main__": {"cli"},
}


def _top(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def _arrows_off_the_map(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in sorted(graph.items()):
        own = _top(module)
        allowed = MAY_IMPORT.get(own)
        if allowed is None:
            wrong.append(f"{module}: the package '{own}' is not on the map (MAY_IMPORT, docs/architecture.md)")
            continue
        wrong += [f"{module} -> {t}" for t in sorted(targets) if _top(t) != own and _top(t) not in allowed]
    return wrong


def test_every_import_follows_the_package_map():
    wrong = _arrows_off_the_map(_import_graph())
    assert not wrong, "imports the package map does not allow:\n" + "\n".join(wrong)


def test_the_map_check_sees_an_upward_arrow_and_an_unknown_package(tmp_path):
    root = _package(
        tmp_path,
        {
            "listbuilder/rules/__init__.py": "",
            "listbuilder/rules/x.py": "from listbuilder.army import y\n",  # rules is below army
            "listbuilder/army/__init__.py": "",
            "listbuilder/army/y.py": "from listbuilder.rules import x\n",
            "listbuilder/games/__init__.py": "",
        },
    )
    assert _arrows_off_the_map(_import_graph(root)) == [
        "listbuilder.games: the package 'games' is not on the map (MAY_IMPORT, docs/architecture.md)",
        "listbuilder.rules.x -> listbuilder.army.y",
    ]


def test_the_documented_map_names_every_package():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`") for line in doc.splitlines() if line.startswith("| `")}
    named = {row.removesuffix("/").removesuffix(".py") for row in rows}
    packages = {p.stem for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()}
    assert packages - {"__init__"} == set(MAY_IMPORT) - {""} == named & (set(MAY_IMPORT) | packages)


def _unexplained_lazy_imports(root: Path = ROOT) -> list[str]:
    """Every import inside a function without a reason beside it: a comment on its line, on the
    line above it, or on the first of the imports it is grouped with (blank lines between)."""
    wrong = []
    for path in sorted((root / "listbuilder").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            explained, last = False, -10
            for sub in ast.walk(node):
                if not isinstance(sub, ast.Import | ast.ImportFrom):
                    continue
                grouped = all(not lines[i].strip() for i in range(last, sub.lineno - 1))
                said = any("#" in lines[i] for i in range(sub.lineno - 1, sub.end_lineno))
                above = lines[sub.lineno - 2].strip().startswith("#")
                explained = said or above or (grouped and explained)
                if not explained:
                    wrong.append(f"{path.relative_to(root)}:{sub.lineno}: {lines[sub.lineno - 1].strip()}")
                last = sub.end_lineno
    return wrong


def test_every_import_inside_a_function_says_why():
    wrong = _unexplained_lazy_imports()
    assert not wrong, "an import inside a function with no reason beside it:\n" + "\n".join(wrong)


def test_the_lazy_import_check_wants_a_reason(tmp_path):
    root = _package(
        tmp_path,
        {
            "listbuilder/x.py": (
                "def a():\n    # start-up: the print stack\n    import weasyprint\n\n    import jinja2\n"
                "def b():\n    import json  # start-up: plain text skips it\n"
                "def c():\n    import json\n"
            )
        },
    )
    assert [w.split(": ", 1)[1] for w in _unexplained_lazy_imports(root)] == ["import json"]

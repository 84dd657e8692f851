"""The package's shape: front ends reach the library only through its API, and it stays small at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "listbuilder"
FRONT_ENDS = ("cli", "web")
# What a front end may import of the library: the API, the errors, and the terminal views of records.
ALLOWED = {"listbuilder.api", "listbuilder.errors", "listbuilder.views"}
ALLOWED_FROM_TOP = {"api", "errors", "views", "__version__"}
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
        "from listbuilder import api, views as present\nfrom listbuilder.errors import InputError, EXIT_OK\n"
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


def test_few_modules_stay_at_the_top_of_the_package():
    top = sorted(p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file())
    modules = [n for n in top if n.endswith(".py")]
    assert len(modules) <= 8, modules


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

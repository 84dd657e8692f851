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


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_front_ends_reach_the_library_only_through_the_api(front):
    wrong = []
    for path in _modules(PACKAGE / front):
        for line, module, names in _imports(path):
            if module == "listbuilder":
                extra = set(names) - ALLOWED_FROM_TOP
                if extra:
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: from listbuilder import {', '.join(extra)}")
            elif module.startswith("listbuilder."):
                own = module == f"listbuilder.{front}" or module.startswith(f"listbuilder.{front}.")
                if not own and module not in ALLOWED | ALLOWED_FRONT_ENDS[front]:
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert not wrong, "a front end imports the library past its API:\n" + "\n".join(wrong)


def test_the_meta_test_sees_a_forbidden_import(tmp_path):
    bad = tmp_path / "listbuilder" / "cli" / "x.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "from listbuilder.army.report import Report\nfrom ..share import diff\nfrom listbuilder import api\n"
    )
    modules = [m for _, m, _ in _imports(bad, tmp_path)]
    assert modules == ["listbuilder.army.report", "listbuilder.share", "listbuilder"]


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
        if path.name != "__init__.py"
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
        for name in [node.name]
    }
    assert public <= set(api.__all__), sorted(public - set(api.__all__))
